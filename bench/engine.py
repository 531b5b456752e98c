"""Engine benchmark: how fast the rules engine plays, measured next to a baseline.

    python bench/engine.py                     # every variant, the baseline if installed
    python bench/engine.py --variant schnapsen --seconds 2 --json
    python bench/engine.py --games 2000 --baseline

For every two-player variant it measures, on one pinned core:

* **random** — full games per second from the seeded deal to the result, each
  step a uniformly random legal action (``random.Random.choice``, the chooser
  of the baseline's ``RandBot`` too), with the mean actions per game;
* **play-only** — the same, choosing only among card plays (no marriage,
  exchange, closing or declaring), so that no random "declare" cuts a game
  short: the fair comparison with an engine without those actions;
* **legal/s** — legal-action generations per second over positions taken from
  random games (the cache of :meth:`Game.legal_actions` cleared before each);
* **applied/s** — actions applied per second when recorded random games are
  replayed from their deals (each action still validated; no choosing);
* **selfplay** — games per second of ``bummerl selfplay --bots random,random``
  (:func:`bummerl.arena.selfplay`): the bot-facing path, where each bot is made
  from the registry with its own derived seed and chooses from the
  :class:`~bummerl.view.PlayerView` built for it at every decision.

The baseline is the VU Amsterdam course platform's engine, PyPI
``schnapsen==0.0.5`` (``pip install 'bummerl[bench]'``), with its own
``RandBot`` playing ``SchnapsenGamePlayEngine`` games, its
``valid_moves()`` generation and a replay through ``play_game_from_state``.
Its selfplay cell is its own bot-facing path: ``play_game`` with two plain
``RandBot``, each choosing from the ``PlayerPerspective`` made for it at every
move.  Its Schnapsen has no closing and no declaring: 66 ends a game by itself.

Every cell is warmed up, then timed ``--repeat`` times, interleaved with the
other cells so that a noisy neighbour hurts all alike; the median is reported.

>>> rates = measure_bummerl(find_variant("schnapsen"), games=20, repeat=1)
>>> rates.random.per_second > 0 and 5 <= rates.random.actions_per_game <= 30
True
>>> rates.play_only.actions_per_game  # every card is played: 2 x 10
20.0
>>> rates.selfplay.per_second > 0
True

This script lies outside the package (the engine never imports it); it needs
the package installed (``pip install -e .``).
"""

from __future__ import annotations

import argparse
import dataclasses
import datetime
import gc
import importlib
import json
import os
import platform
import random
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from typing import Any
from unittest import mock

from bummerl.actions import Action, ActionKind
from bummerl.arena import selfplay
from bummerl.commands import parse_option
from bummerl.errors import UnknownVariantError
from bummerl.game import Game
from bummerl.variants import VARIANTS, TwoPlayerVariant, find_variant

__all__ = [
    "BASELINE",
    "Cell",
    "EngineRates",
    "Group",
    "Rate",
    "baseline_group",
    "bummerl_group",
    "main",
    "measure",
    "measure_bummerl",
    "ratios",
    "run",
]

#: The baseline engine, as pip names it.
BASELINE = "schnapsen==0.0.5"

#: One timed call: ``step(first_seed, games) -> (games, units, seconds)``.
Step = Callable[[int, int], tuple[int, int, float]]
#: A clock: ``time.process_time`` (CPU time of this process, the default: other
#: load on the machine does not count) or ``time.perf_counter`` (wall time).
Clock = Callable[[], float]

_PLAY = ActionKind.PLAY
#: Games per timed call when measuring for a number of seconds.
_BATCH = 25
#: Games whose positions and actions feed the legal/s and applied/s cells.
_SAMPLE_GAMES = 200
#: Cells per engine and variant: random, play-only, legal/s, applied/s, selfplay.
_CELLS = 5


@dataclasses.dataclass
class Rate:
    """One measured cell: the median rate of its runs."""

    #: Games (or, for legal/s and applied/s, generations and actions) per second.
    per_second: float
    #: Actions per game (random and play-only cells), else 0.
    actions_per_game: float = 0.0
    #: Actions applied per second during the run (random and play-only cells).
    actions_per_second: float = 0.0
    #: The rate of every run, in order.
    runs: list[float] = dataclasses.field(default_factory=list)


@dataclasses.dataclass
class EngineRates:
    """The five cells of one engine and variant."""

    engine: str
    variant: str
    random: Rate
    play_only: Rate
    legal: Rate
    applied: Rate
    #: Games per second on the bot-facing path (``bummerl selfplay --bots random,random``).
    selfplay: Rate


# ---------------------------------------------------------------- timing core
@dataclasses.dataclass
class Cell:
    """One thing to time: ``step``, the work per run (``None``: run for ``seconds``)
    and the work per timed call when running for ``seconds``."""

    step: Step
    games: int | None
    batch: int = _BATCH


@dataclasses.dataclass
class Group:
    """The five cells of one engine and variant: random, play-only, legal/s, applied/s, selfplay."""

    engine: str
    variant: str
    cells: list[Cell]


def _run_cell(cell: Cell, seconds: float) -> tuple[float, float, float]:
    """One timed run: ``(rate, units per game, units per second)``.

    With ``cell.games`` the run plays exactly that many; otherwise it plays
    batches until ``seconds`` of timed work have passed (preparation is never
    timed).
    """
    done = units = 0
    elapsed = 0.0
    # As timeit does: a collection of the samples that other cells hold would
    # be charged to whichever cell happened to trigger it.
    gc.collect()
    gc.disable()
    try:
        if cell.games is not None:
            done, units, elapsed = cell.step(0, cell.games)
        else:
            while elapsed < seconds:
                n, u, dt = cell.step(done, cell.batch)
                done += n
                units += u
                elapsed += dt
    finally:
        gc.enable()
    elapsed = max(elapsed, 1e-9)
    return done / elapsed, units / max(done, 1), units / elapsed


def _passes(games: int | None, sample: int) -> int | None:
    """Passes over a sample of ``sample`` games that match ``games`` games of work."""
    return None if games is None else max(1, games // sample)


def measure(groups: Sequence[Group], seconds: float = 0.5, repeat: int = 5) -> list[EngineRates]:
    """Warm every cell up, then time all cells ``repeat`` times, interleaved; medians."""
    cells = [cell for group in groups for cell in group.cells]
    for cell in cells:
        cell.step(0, 5)
    runs: list[list[tuple[float, float, float]]] = [[] for _ in cells]
    for _ in range(repeat):
        for i, cell in enumerate(cells):
            runs[i].append(_run_cell(cell, seconds))
    rates = [
        Rate(
            per_second=statistics.median(r[0] for r in samples),
            actions_per_game=statistics.median(r[1] for r in samples),
            actions_per_second=statistics.median(r[2] for r in samples),
            runs=[round(r[0], 1) for r in samples],
        )
        for samples in runs
    ]
    results = []
    for i, group in enumerate(groups):
        rnd, play, legal, applied, bots = rates[_CELLS * i : _CELLS * i + _CELLS]
        results.append(EngineRates(group.engine, group.variant, rnd, play, legal, applied, bots))
    return results


# ------------------------------------------------------------------- Bummerl
def _bummerl_games(variant: TwoPlayerVariant, play_only: bool, clock: Clock) -> Step:
    """Random full games: deal from the seed, then random legal actions to the end."""

    def step(first: int, count: int) -> tuple[int, int, float]:
        choice = random.Random(first).choice
        actions = 0
        start = clock()
        for seed in range(first, first + count):
            game = Game.deal(variant, seed)
            if play_only:
                while not game.is_over:
                    game.apply(choice([a for a in game.legal_actions() if a.kind is _PLAY]))
            else:
                while not game.is_over:
                    game.apply(choice(game.legal_actions()))
            actions += len(game.actions)
        return count, actions, clock() - start

    return step


def _bummerl_sample(variant: TwoPlayerVariant, games: int) -> tuple[list[Game], list[tuple[Game, list[Action]]]]:
    """Positions of random games (for legal/s) and their deals and actions (for applied/s)."""
    choice = random.Random(0).choice
    positions: list[Game] = []
    replays: list[tuple[Game, list[Action]]] = []
    for seed in range(games):
        game = Game.deal(variant, seed)
        deal = game.copy()
        while not game.is_over:
            positions.append(game.copy())
            game.apply(choice(game.legal_actions()))
        replays.append((deal, list(game.actions)))
    return positions, replays


def _bummerl_legal(positions: list[Game], clock: Clock) -> Step:
    """``count`` passes over the sample positions."""

    def step(first: int, count: int) -> tuple[int, int, float]:
        start = clock()
        for _ in range(count):
            for game in positions:
                # Clear the per-position cache so that every call generates.
                game._legal = None
                game.legal_actions()
        return count * len(positions), count * len(positions), clock() - start

    return step


def _bummerl_apply(replays: list[tuple[Game, list[Action]]], clock: Clock) -> Step:
    """``count`` replays of the sample games from fresh copies of their deals."""

    def step(first: int, count: int) -> tuple[int, int, float]:
        actions = 0
        elapsed = 0.0
        for _ in range(count):
            games = [deal.copy() for deal, _ in replays]
            start = clock()
            for game, (_, sequence) in zip(games, replays, strict=True):
                for action in sequence:
                    game.apply(action)
                actions += len(sequence)
            elapsed += clock() - start
        return actions, actions, elapsed

    return step


def _bummerl_selfplay(variant: TwoPlayerVariant, clock: Clock) -> Step:
    """``bummerl selfplay --bots random,random`` without its printing: the run's seed is ``first``."""

    def step(first: int, count: int) -> tuple[int, int, float]:
        # BUMMERL_PURE=1: with random bots in every seat selfplay would let the compiled core play (bummerl.core),
        # and this cell measures the bot-facing path of the engine; bench/vector.py measures the core's.
        with mock.patch.dict(os.environ, {"BUMMERL_PURE": "1"}):
            start = clock()
            selfplay(variant, ["random", "random"], count, first)
            return count, 0, clock() - start

    return step


def bummerl_group(variant: TwoPlayerVariant, games: int | None = None, clock: Clock = time.process_time) -> Group:
    """The cells of Bummerl's engine on ``variant`` (see the module docstring)."""
    sample = min(games or _SAMPLE_GAMES, _SAMPLE_GAMES)
    positions, replays = _bummerl_sample(variant, sample)
    passes = _passes(games, sample)
    cells = [
        Cell(_bummerl_games(variant, False, clock), games),
        Cell(_bummerl_games(variant, True, clock), games),
        Cell(_bummerl_legal(positions, clock), passes, 1),
        Cell(_bummerl_apply(replays, clock), passes, 1),
        Cell(_bummerl_selfplay(variant, clock), games),
    ]
    return Group("bummerl", _label(variant), cells)


def measure_bummerl(
    variant: TwoPlayerVariant, games: int | None = None, seconds: float = 0.5, repeat: int = 5
) -> EngineRates:
    """Measure Bummerl's engine on ``variant`` alone."""
    return measure([bummerl_group(variant, games)], seconds, repeat)[0]


# ------------------------------------------------------------------ baseline
class _Baseline:
    """The baseline engine's classes, imported lazily (its package is optional)."""

    def __init__(self) -> None:
        self.game: Any = importlib.import_module("schnapsen.game")
        self.rand_bot: Any = importlib.import_module("schnapsen.bots.rand").RandBot
        self.engine: Any = self.game.SchnapsenGamePlayEngine()


def baseline_version() -> str | None:
    """The installed baseline's version, or ``None`` without it."""
    from importlib import metadata

    try:
        return metadata.version("schnapsen")
    except metadata.PackageNotFoundError:
        return None


def _baseline_bots(base: _Baseline) -> tuple[Any, Any, Any]:
    """Three RandBot subclasses: counting, play-only (counting) and recording."""
    rand_bot = base.rand_bot

    class Counting(rand_bot):  # type: ignore[misc, valid-type]
        count = 0

        def get_move(self, perspective: Any, leader_move: Any) -> Any:
            Counting.count += 1
            return super().get_move(perspective, leader_move)

    class PlayOnly(rand_bot):  # type: ignore[misc, valid-type]
        count = 0

        def get_move(self, perspective: Any, leader_move: Any) -> Any:
            PlayOnly.count += 1
            return self.rng.choice([m for m in perspective.valid_moves() if m.is_regular_move()])

    class Recording(rand_bot):  # type: ignore[misc, valid-type]
        def __init__(self, rng: random.Random, perspectives: list[Any], moves: list[Any]) -> None:
            super().__init__(rng)
            self.perspectives = perspectives
            self.moves = moves

        def get_move(self, perspective: Any, leader_move: Any) -> Any:
            move = super().get_move(perspective, leader_move)
            self.perspectives.append(perspective)
            self.moves.append(move)
            return move

    return Counting, PlayOnly, Recording


def baseline_group(games: int | None = None, clock: Clock = time.process_time) -> Group:
    """The cells of the baseline engine (raises ``ImportError`` without it)."""
    base = _Baseline()
    engine = base.engine
    counting, play_only_bot, recording = _baseline_bots(base)

    def games_step(bot: Any) -> Step:
        def step(first: int, count: int) -> tuple[int, int, float]:
            rng = random.Random(first)
            bot.count = 0
            start = clock()
            for _ in range(count):
                engine.play_game(bot(rng), bot(rng), rng)
            return count, bot.count, clock() - start

        return step

    rand_bot = base.rand_bot

    def selfplay_step(first: int, count: int) -> tuple[int, int, float]:
        # Its bot-facing path as a user of that engine runs it: plain RandBots, nothing counted.
        rng = random.Random(first)
        start = clock()
        for _ in range(count):
            engine.play_game(rand_bot(rng), rand_bot(rng), rng)
        return count, 0, clock() - start

    # One sample of random games: the positions each bot saw, the moves, and
    # the generator state before each deal, to replay the deal exactly.
    rng = random.Random(0)
    perspectives: list[Any] = []
    replays: list[tuple[Any, list[Any]]] = []
    sample = min(games or _SAMPLE_GAMES, _SAMPLE_GAMES)
    for _ in range(sample):
        state = rng.getstate()
        moves: list[Any] = []
        engine.play_game(recording(rng, perspectives, moves), recording(rng, perspectives, moves), rng)
        replays.append((state, moves))

    def legal_step(first: int, count: int) -> tuple[int, int, float]:
        start = clock()
        for _ in range(count):
            for perspective in perspectives:
                perspective.valid_moves()
        return count * len(perspectives), count * len(perspectives), clock() - start

    g = base.game

    class Replay(rand_bot):  # type: ignore[misc, valid-type]
        def __init__(self, moves: Any) -> None:
            super().__init__(random.Random(0))
            self.next_move = moves.__next__

        def get_move(self, perspective: Any, leader_move: Any) -> Any:
            return self.next_move()

    def deal(state: Any, moves: list[Any]) -> Any:
        r = random.Random()
        r.setstate(state)
        cards = engine.deck_generator.shuffle_deck(engine.deck_generator.get_initial_deck(), r)
        hand1, hand2, talon = engine.hand_generator.generateHands(cards)
        it = iter(moves)
        return g.GameState(
            leader=g.BotState(implementation=Replay(it), hand=hand1),
            follower=g.BotState(implementation=Replay(it), hand=hand2),
            talon=talon,
            previous=None,
        )

    def apply_step(first: int, count: int) -> tuple[int, int, float]:
        elapsed = 0.0
        for _ in range(count):
            states = [deal(state, moves) for state, moves in replays]
            start = clock()
            for state in states:
                engine.play_game_from_state(state, None)
            elapsed += clock() - start
        actions = count * sum(len(moves) for _, moves in replays)
        return actions, actions, elapsed

    passes = _passes(games, sample)
    cells = [
        Cell(games_step(counting), games),
        Cell(games_step(play_only_bot), games),
        Cell(legal_step, passes, 1),
        Cell(apply_step, passes, 1),
        Cell(selfplay_step, games),
    ]
    return Group(f"schnapsen {baseline_version()}", "schnapsen", cells)


# ------------------------------------------------------------------- machine
def pin_to_one_core() -> str:
    """Pin this process to one CPU if the OS allows; say what happened."""
    try:
        cpus = sorted(os.sched_getaffinity(0))
        os.sched_setaffinity(0, {cpus[0]})
    except (AttributeError, OSError) as exc:  # not on Linux, or not permitted
        return f"not pinned ({exc.__class__.__name__})"
    return f"pinned to CPU {cpus[0]} of {os.cpu_count()} (os.sched_setaffinity)"


def machine() -> dict[str, str]:
    """What ran the benchmark."""
    cpu = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as f:
            for line in f:
                if line.startswith("model name"):
                    cpu = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    return {
        "cpu": cpu,
        "cpus": str(os.cpu_count()),
        "os": platform.platform(),
        "python": f"{platform.python_implementation()} {platform.python_version()}",
    }


# ---------------------------------------------------------------------- output
def _fmt(x: float) -> str:
    return f"{x:,.0f}"


def table(results: Sequence[EngineRates]) -> str:
    """The results as a plain-text table, one row per engine and variant."""
    e = max([len("engine"), *(len(r.engine) for r in results)]) + 2
    w = max([len("variant"), *(len(r.variant) for r in results)]) + 2
    head = (
        f"{'engine':<{e}}{'variant':<{w}}{'random g/s':>11}{'act/game':>9}{'act/s':>10}"
        f"{'play-only g/s':>14}{'act/game':>9}{'legal/s':>11}{'applied/s':>11}{'selfplay g/s':>13}"
    )
    lines = [head, "-" * len(head)]
    for r in results:
        lines.append(
            f"{r.engine:<{e}}{r.variant:<{w}}{_fmt(r.random.per_second):>11}{r.random.actions_per_game:>9.1f}"
            f"{_fmt(r.random.actions_per_second):>10}{_fmt(r.play_only.per_second):>14}"
            f"{r.play_only.actions_per_game:>9.1f}{_fmt(r.legal.per_second):>11}{_fmt(r.applied.per_second):>11}"
            f"{_fmt(r.selfplay.per_second):>13}"
        )
    return "\n".join(lines)


def ratios(results: Sequence[EngineRates]) -> dict[str, float]:
    """Each Bummerl row's selfplay g/s over the baseline's, measured in the same run (empty without it)."""
    base = [r for r in results if r.engine != "bummerl"]
    if not base or base[0].selfplay.per_second <= 0:
        return {}
    return {r.variant: r.selfplay.per_second / base[0].selfplay.per_second for r in results if r.engine == "bummerl"}


# ------------------------------------------------------------------------ CLI
def _label(variant: TwoPlayerVariant) -> str:
    """The variant's name with its non-default options, e.g. ``schnapsen+auto_declare``."""
    options = variant.options()
    return "+".join([variant.name, *(k if v is True else f"{k}={v}" for k, v in options.items())])


def _variants(names: list[str] | None, options: list[str]) -> list[TwoPlayerVariant]:
    """The two-player variants named (all four by default), each with the options it has.

    >>> [_label(v) for v in _variants(["schnapsen,66", "scharf"], ["auto_declare=true"])]
    ['schnapsen+auto_declare', 'sechsundsechzig+auto_declare', 'schnapsen-scharf+auto_declare']
    >>> [_label(v) for v in _variants(None, [])]
    ['schnapsen', 'schnapsen-scharf', 'sechsundsechzig', 'schnorps']
    >>> _variants(["bauernschnapsen"], [])
    Traceback (most recent call last):
    ...
    bummerl.errors.UnknownVariantError: Bauernschnapsen is a table game: bench/table_games.py measures those
    """
    chosen = [n.strip() for part in names for n in part.split(",") if n.strip()] if names else []
    found = [find_variant(n) for n in chosen] if chosen else [v for v in VARIANTS if v.players == 2]
    variants: list[TwoPlayerVariant] = []
    for v in found:
        if not isinstance(v, TwoPlayerVariant):
            raise UnknownVariantError(f"{v.title} is a table game: bench/table_games.py measures those")
        variants.append(v)
    pairs = dict(parse_option(o) for o in options)
    for key in pairs:
        if not any(key in v.OPTIONS for v in variants):
            raise UnknownVariantError(f"no variant measured has the option {key!r}")
    return [v.with_options(**{k: x for k, x in pairs.items() if k in v.OPTIONS}) for v in variants]


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The options of ``python bench/engine.py``."""
    parser.add_argument(
        "--variant",
        action="append",
        metavar="NAME",
        help="variant(s) to measure, by name or alias, repeatable or comma-separated (default: all four)",
    )
    parser.add_argument(
        "--option",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="a variant option for every measured variant that has it, e.g. auto_declare=true",
    )
    size = parser.add_mutually_exclusive_group()
    size.add_argument("--games", type=int, metavar="N", help="play exactly N games per run instead of timing")
    size.add_argument("--seconds", type=float, default=0.5, metavar="S", help="timed seconds per run (default 0.5)")
    parser.add_argument("--repeat", type=int, default=5, metavar="R", help="runs per cell, median reported (default 5)")
    parser.add_argument(
        "--clock",
        choices=("cpu", "wall"),
        default="cpu",
        help="cpu: this process's CPU time (default; other load does not count); wall: elapsed time",
    )
    base = parser.add_mutually_exclusive_group()
    base.add_argument("--baseline", action="store_true", help=f"require the baseline ({BASELINE}); fail without it")
    base.add_argument("--no-baseline", action="store_true", help="skip the baseline")
    parser.add_argument("--no-pin", action="store_true", help="do not pin the process to one CPU")
    parser.add_argument("--json", action="store_true", help="print one JSON object instead of the table")


def run(args: argparse.Namespace) -> int:
    """Run the benchmark; 0 on success, 2 on bad options or a missing required baseline."""
    try:
        variants = _variants(args.variant, args.option)
    except UnknownVariantError as exc:
        print(f"bench/engine.py: {exc}", file=sys.stderr)
        return 2
    if args.games is not None and args.games < 1:
        print("bench/engine.py: --games must be at least 1", file=sys.stderr)
        return 2
    if args.repeat < 1 or (args.games is None and args.seconds <= 0):
        print("bench/engine.py: --repeat and --seconds must be positive", file=sys.stderr)
        return 2
    version = baseline_version()
    if args.baseline and version != BASELINE.split("==")[1]:
        found = f"schnapsen {version} is installed" if version else "it is not installed"
        message = f"--baseline needs {BASELINE} but {found}: pip install 'bummerl[bench]'"
        print(f"bench/engine.py: {message}", file=sys.stderr)
        return 2
    pinned = "not pinned (--no-pin)" if args.no_pin else pin_to_one_core()
    clock: Clock = time.process_time if args.clock == "cpu" else time.perf_counter
    groups = [bummerl_group(v, args.games, clock) for v in variants]
    if args.no_baseline:
        baseline_note = "baseline skipped (--no-baseline)"
    elif version is None:
        baseline_note = f"baseline {BASELINE} not installed: pip install 'bummerl[bench]'"
    elif version != BASELINE.split("==")[1]:
        baseline_note = f"baseline skipped: schnapsen {version} is installed, the baseline is {BASELINE}"
    else:
        try:
            groups.append(baseline_group(args.games, clock))
        except ImportError as exc:  # e.g. one of its own dependencies is broken
            if args.baseline:
                print(f"bench/engine.py: the baseline {BASELINE} cannot be imported: {exc}", file=sys.stderr)
                return 2
            baseline_note = f"baseline {BASELINE} cannot be imported: {exc}"
        else:
            baseline_note = f"baseline: PyPI schnapsen {version} (its RandBot playing SchnapsenGamePlayEngine games)"
    results = measure(groups, args.seconds, args.repeat)
    run_size = f"{args.games} games each" if args.games is not None else f"{args.seconds:g} s each"
    clock_note = "CPU time of this process" if args.clock == "cpu" else "wall time"
    settings = {
        "pinning": pinned,
        "runs": f"median of {args.repeat} runs of {run_size} ({clock_note}), after a warm-up",
        "baseline": baseline_note,
        "date": datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%d %H:%M UTC"),
    }
    m = machine()
    if args.json:
        report = {
            "machine": m,
            "settings": settings,
            "results": [dataclasses.asdict(r) for r in results],
            "selfplay_ratios": ratios(results),
        }
        print(json.dumps(report, indent=2))
        return 0
    print(f"Bummerl engine benchmark, {settings['date']}")
    print(f"machine: {m['cpu']}, {m['cpus']} CPUs, {m['os']}, {m['python']}")
    print(f"{pinned}; {settings['runs']}")
    print(settings["baseline"])
    print()
    print(table(results))
    print()
    by_variant = ratios(results)
    if by_variant:
        shown = ", ".join(f"{name} {x:.1f}x" for name, x in by_variant.items())
        print(f"selfplay, the bot-facing path, against the baseline's in this run: {shown}.")
    print("random: uniformly random legal actions, so random declares and closes end many games early.")
    print("play-only: random card plays only: every card is played unless auto_declare ends the game at 66")
    print("(the baseline always stops at 66 by itself: compare it with --option auto_declare=true).")
    print("legal/s: legal-action generations; applied/s: validated actions of recorded games, replayed.")
    print("selfplay: `bummerl selfplay --bots random,random`, a view built for the bot at every decision;")
    print("the baseline's: its play_game with two RandBots, a PlayerPerspective for the bot at every move.")
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    """``python bench/engine.py``: measure and print the table (or ``--json``)."""
    parser = argparse.ArgumentParser(prog="bench/engine.py", description="The Bummerl engine benchmark.")
    add_arguments(parser)
    return run(parser.parse_args(argv))


if __name__ == "__main__":
    sys.exit(main())
