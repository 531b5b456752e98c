"""The arena: two bots compared on duplicate deals, in parallel, with honest statistics.

Every deal ``i`` is dealt from ``derive_seed(seed, i)`` and played **twice
with the seats swapped**: pairing 0 puts bot ``a`` in seat 0, pairing 1 puts
bot ``b`` there, with the same pack and the same dealer seat (``--unit game``)
or the same match seed, so the same sequence of packs (``--unit bummerl``, a
whole :class:`~bummerl.match.Match` per pairing).  Luck of the cards then
cancels within a deal, and the deals are the independent units of the 95%
interval of the points difference (see :func:`bummerl.stats.ratio_interval`
and docs/arena.md).

Bots are named like everywhere else (:func:`bummerl.bots.make_bot`) or as
``cmd:<command line>`` for a program speaking :mod:`bummerl.protocol`.  A bot
only ever sees ``game.view(seat)``.  A bot that fails (a ``cmd:`` bot that
crashes, answers late, sends garbage or an illegal action; a built-in bot that
raises or returns an illegal action) forfeits that game: the opponent scores
the heaviest ordinary loss (3 game points, Schnorps 6 Marken), the failure is
listed, and the run goes on.

>>> report = run_arena(ArenaConfig("schnapsen", "heuristic", "random", deals=4, seed=1, jobs=1), game_log=True)
>>> report["deals"], report["games"], report["unit"]
(4, 8, 'game')
>>> report["a"]["game_points"] + report["b"]["game_points"] == sum(g["points"] for g in report["game_log"])
True

Results depend only on the configuration, not on ``jobs``: every deal and
every bot is seeded from ``seed``; only the timings differ between runs.
"""

from __future__ import annotations

import contextlib
import dataclasses
import math
import time
from collections.abc import Callable, Sequence
from typing import Any

from bummerl.arena_report import default_jobs, paired_interval, run_chunks, side_entry
from bummerl.arena_report import report as make_report
from bummerl.bots import Bot, make_bot
from bummerl.game import Game
from bummerl.match import Match
from bummerl.protocol import DEFAULT_MOVE_TIMEOUT, BotFault, ProcessBot, parse_command
from bummerl.rng import derive_seed
from bummerl.variants import EndReason, GameResult, TwoPlayerVariant, find_variant

__all__ = ["ArenaConfig", "DealResult", "GameRecord", "forfeit_points", "format_report", "play_deal", "run_arena"]

SIDES = ("a", "b")
UNITS = ("game", "bummerl")

#: Path element of :func:`~bummerl.rng.derive_seed` for bot seeds ("BOTS"), so a
#: bot's randomness never shares a stream with a deal.
_BOT_SEEDS = 0x424F5453

#: The end reason a forfeit is recorded with inside a match.  A dedicated
#: ``EndReason.FORFEIT`` is used once the engine has one; the arena's own game
#: log always says ``"forfeit"``.
_FORFEIT_REASON: EndReason = EndReason.FORFEIT


def forfeit_points(variant: TwoPlayerVariant) -> int:
    """What the opponent of a forfeiting bot scores: the heaviest ordinary loss.

    3 game points (the loser without a trick, seeds/000) or, in Schnorps, 6
    Marken (no trick, seeds/001).

    >>> forfeit_points(find_variant("schnapsen")), forfeit_points(find_variant("schnorps"))
    (3, 6)
    """
    return 6 if variant.match_kind == "marken" else 3


@dataclasses.dataclass(frozen=True)
class ArenaConfig:
    """What to play: the bots ``a`` and ``b`` on ``deals`` duplicate deals."""

    variant: TwoPlayerVariant | str
    a: str
    b: str
    deals: int
    seed: int = 0
    unit: str = "game"
    #: Worker processes; ``None``: one per CPU core.
    jobs: int | None = None
    #: Seconds a ``cmd:`` bot may take per decision (built-in bots are only timed).
    move_timeout: float = DEFAULT_MOVE_TIMEOUT

    def __post_init__(self) -> None:
        if isinstance(self.variant, str):
            object.__setattr__(self, "variant", find_variant(self.variant))
        if self.unit not in UNITS:
            raise ValueError(f"unit must be 'game' or 'bummerl', not {self.unit!r}")
        if not isinstance(self.deals, int) or self.deals < 1:
            raise ValueError(f"deals must be a positive integer, not {self.deals!r}")
        if self.jobs is not None and self.jobs < 1:
            raise ValueError(f"jobs must be at least 1, not {self.jobs!r}")
        if not self.move_timeout > 0:
            raise ValueError(f"move_timeout must be positive, not {self.move_timeout!r}")
        for spec in (self.a, self.b):
            _check_spec(spec)

    @property
    def rules(self) -> TwoPlayerVariant:
        assert isinstance(self.variant, TwoPlayerVariant)
        return self.variant


def _check_spec(spec: str) -> None:
    """Fail early, with the registry's message, on an unknown bot name."""
    if spec.startswith("cmd:"):
        parse_command(spec)
    else:
        make_bot(spec, 0)


@dataclasses.dataclass(frozen=True)
class GameRecord:
    """One game of the arena, from the sides' point of view."""

    deal: int
    #: 0: ``a`` sits in seat 0; 1: ``b`` sits in seat 0.
    pairing: int
    #: The game's number within its match (always 0 with ``unit="game"``).
    index: int
    dealer: int
    #: ``"a"``, ``"b"`` or ``None`` (a game nobody wins).
    winner: str | None
    points: int
    reason: str
    #: For a forfeit: side, seat, bot, kind and message.
    forfeit: dict[str, Any] | None = None

    def to_json(self) -> dict[str, Any]:
        return dataclasses.asdict(self)


@dataclasses.dataclass
class DealResult:
    """Both pairings of one deal: the games, the match winners, the move times."""

    deal: int
    games: list[GameRecord]
    #: Per pairing with ``unit="bummerl"``: the winning side and the Bummerl its
    #: opponent got (2 for Schneider).
    matches: list[tuple[str | None, int]]
    move_seconds: dict[str, list[float]]


class _Player:
    """One side's bot for one deal, with its bookkeeping."""

    def __init__(self, side: str, spec: str, bot: Bot, times: list[float]) -> None:
        self.side = side
        self.spec = spec
        self.bot = bot
        self.times = times


def _side_of(pairing: int, seat: int) -> str:
    return SIDES[seat ^ pairing]


def _play_game(
    game: Game,
    seats: tuple[_Player, _Player],
    bot_seeds: tuple[int, int],
    record: Callable[[GameResult, dict[str, Any] | None], None],
    game_id: str,
) -> GameResult:
    """Play ``game`` to its end (or a forfeit) and report the result."""
    fault: tuple[int, str, str] | None = None
    for seat, player in enumerate(seats):
        begin = getattr(player.bot, "begin_game", None)
        if begin is not None and fault is None:
            try:
                begin(game.view(seat), seed=bot_seeds[seat], game=game_id)
            except BotFault as exc:
                fault = (seat, exc.kind, exc.message)
            except Exception as exc:  # a failing bot forfeits; the run goes on
                fault = (seat, "error", f"bot {player.spec} raised {type(exc).__name__} at game start: {exc}")
    while fault is None and not game.is_over:
        seat = game.to_move
        player = seats[seat]
        view = game.view(seat)
        start = time.perf_counter()
        try:
            action = player.bot.choose(view)
        except BotFault as exc:
            fault = (seat, exc.kind, exc.message)
        except Exception as exc:  # any failing bot forfeits; the run goes on
            fault = (seat, "error", f"bot {player.spec} raised {type(exc).__name__}: {exc}")
        finally:
            player.times.append(time.perf_counter() - start)
        if fault is not None:
            break
        if action not in game.legal_actions():
            legal = " ".join(a.token for a in game.legal_actions())
            shown = getattr(action, "token", repr(action))
            fault = (seat, "illegal", f"bot {player.spec} chose {shown!r}, which is not legal now; legal: {legal}")
            break
        game.apply(action)
    forfeit: dict[str, Any] | None = None
    if fault is not None:
        seat, kind, message = fault
        unit = "Marken" if game.variant.match_kind == "marken" else "game points"
        game.result = GameResult(
            1 - seat, forfeit_points(game.variant), _FORFEIT_REASON, (game.augen(0), game.augen(1)), unit
        )
        forfeit = {"seat": seat, "bot": seats[seat].spec, "kind": kind, "message": message}
    for seat, player in enumerate(seats):
        end = getattr(player.bot, "end_game", None)
        if end is not None:
            with contextlib.suppress(Exception):
                end(game.view(seat), forfeit=forfeit)
    assert game.result is not None
    record(game.result, forfeit)
    return game.result


def play_deal(config: ArenaConfig, deal: int, process_bots: dict[str, ProcessBot] | None = None) -> DealResult:
    """Play deal ``deal`` in both pairings.

    ``process_bots`` lends running ``cmd:`` bots by side, so a worker need not
    start a process per deal; without it they are started and stopped here.
    """
    variant = config.rules
    deal_seed = derive_seed(config.seed, deal)
    times: dict[str, list[float]] = {"a": [], "b": []}
    games: list[GameRecord] = []
    matches: list[tuple[str | None, int]] = []
    own = process_bots is None
    lent: dict[str, ProcessBot] = {} if process_bots is None else process_bots

    def player(pairing: int, seat: int) -> _Player:
        side = _side_of(pairing, seat)
        spec = config.a if side == "a" else config.b
        bot: Bot
        if spec.startswith("cmd:"):
            if side not in lent:
                lent[side] = ProcessBot(spec, label=spec, move_timeout=config.move_timeout)
            bot = lent[side]
        else:
            bot = make_bot(spec, derive_seed(config.seed, _BOT_SEEDS, deal, pairing, SIDES.index(side)))
        return _Player(side, spec, bot, times[side])

    def play(game: Game, pairing: int, index: int, seats: tuple[_Player, _Player]) -> None:
        def record(result: GameResult, forfeit: dict[str, Any] | None) -> None:
            winner = None if result.winner is None else _side_of(pairing, result.winner)
            if forfeit is not None:
                side = _side_of(pairing, forfeit["seat"])
                forfeit = {"deal": deal, "pairing": pairing, "game": index, "side": side, **forfeit}
            reason = "forfeit" if forfeit is not None else result.reason.value
            games.append(GameRecord(deal, pairing, index, game.dealer, winner, result.points, reason, forfeit))

        # Per-game seeds for bots in processes: their play then does not depend
        # on which deals the same process played before (or on --jobs).
        seeds = tuple(derive_seed(config.seed, _BOT_SEEDS, deal, pairing, index, seat) for seat in (0, 1))
        _play_game(game, seats, (seeds[0], seeds[1]), record, f"{deal}.{pairing}.{index}")

    try:
        for pairing in (0, 1):
            seats = (player(pairing, 0), player(pairing, 1))
            if config.unit == "game":
                play(Game.deal(variant, seed=deal_seed, dealer=deal % 2), pairing, 0, seats)
                continue
            match = Match(variant, seed=deal_seed)
            while not match.is_over:
                index = len(match.history)
                game = match.deal_next()
                play(game, pairing, index, seats)
                match.complete(game)
            assert match.winner is not None
            matches.append((_side_of(pairing, match.winner), match.bummerl_for_loser))
    finally:
        if own:
            for bot in lent.values():
                bot.close()
    return DealResult(deal, games, matches, times)


def _run_chunk(config: ArenaConfig, deals: Sequence[int]) -> list[DealResult]:
    """A worker's share: several deals, reusing ``cmd:`` bot processes between them."""
    lent: dict[str, ProcessBot] = {}
    try:
        for side, spec in zip(SIDES, (config.a, config.b), strict=True):
            if spec.startswith("cmd:"):
                lent[side] = ProcessBot(spec, label=spec, move_timeout=config.move_timeout)
        return [play_deal(config, d, lent) for d in deals]
    finally:
        for bot in lent.values():
            bot.close()


def _chunks(deals: int, jobs: int, heavy: bool) -> list[range]:
    # Small chunks balance the load; bots in processes prefer few big chunks,
    # since each chunk starts its bot processes once.
    per_job = 2 if heavy else 8
    size = max(1, math.ceil(deals / (jobs * per_job)))
    return [range(i, min(deals, i + size)) for i in range(0, deals, size)]


def run_arena(
    config: ArenaConfig, progress: Callable[[int, int], None] | None = None, game_log: bool = False
) -> dict[str, Any]:
    """Play the arena and return the report (the ``--json`` object).

    ``progress(done, total)`` is called as deals finish; ``game_log`` adds
    every game (deal, pairing, winner side, points, reason) to the report.
    """
    started = time.perf_counter()
    jobs = config.jobs if config.jobs is not None else default_jobs()
    jobs = max(1, min(jobs, config.deals))
    heavy = config.a.startswith("cmd:") or config.b.startswith("cmd:")
    chunks = _chunks(config.deals, jobs, heavy)
    results = run_chunks(_run_chunk, config, chunks, jobs, config.deals, progress)
    results.sort(key=lambda r: r.deal)
    return summarize(config, results, jobs, time.perf_counter() - started, game_log)


def summarize(
    config: ArenaConfig, results: Sequence[DealResult], jobs: int, seconds: float, game_log: bool = False
) -> dict[str, Any]:
    """The report of finished deals (see docs/arena.md for every key)."""
    games = [g for r in results for g in r.games]
    diffs: list[float] = []
    per_deal_games: list[float] = []
    for r in results:
        pts = {s: sum(g.points for g in r.games if g.winner == s) for s in SIDES}
        diffs.append(pts["a"] - pts["b"])
        per_deal_games.append(len(r.games))
    n_games = len(games)
    n_matches = sum(len(r.matches) for r in results)
    sides: dict[str, dict[str, Any]] = {}
    for side in SIDES:
        won = [g for g in games if g.winner == side]
        matches_won = [b for r in results for w, b in r.matches if w == side]
        sides[side] = side_entry(
            config.a if side == "a" else config.b,
            points=sum(g.points for g in won),
            won=len(won),
            games=n_games,
            times=[t for r in results for t in r.move_seconds[side]],
            matches_won=len(matches_won),
            bummerl_given=sum(matches_won),
            matches=n_matches,
            forfeits=sum(1 for g in games if g.forfeit is not None and g.forfeit["side"] == side),
        )
    report = make_report(
        config.rules,
        seed=config.seed,
        unit=config.unit,
        deals=len(results),
        games=n_games,
        matches=n_matches,
        a=sides["a"],
        b=sides["b"],
        ppg_ci95=paired_interval(diffs, per_deal_games),
        games_unwon=sum(1 for g in games if g.winner is None),
        forfeits=[g.forfeit for g in games if g.forfeit is not None],
        move_timeout=config.move_timeout,
        jobs=jobs,
        seconds=seconds,
    )
    if game_log:
        report["game_log"] = [g.to_json() for g in games]
    return report


def _ms(seconds: float | None) -> str:
    """Milliseconds with three significant digits (bots range from µs to seconds)."""
    return "-" if seconds is None else f"{1000 * seconds:#.3g}".rstrip(".")


def format_report(report: dict[str, Any], forfeit_lines: int = 10) -> str:
    """The human-readable table of a report."""
    lines = [
        f"Arena: {report['variant']}"
        + (f" {report['options']}" if report["options"] else "")
        + f", unit {report['unit']}, seed {report['seed']}: {report['deals']} deals x 2 seats ="
        f" {report['games']} games"
        + (f", {report['bummerl_played']} Bummerl" if report["unit"] == "bummerl" else "")
        + f" ({report['seconds']:.1f} s, {report['jobs']} jobs)",
        "",
        f"{'side':<5}{'bot':<24}{'points':>8}{'games won':>11}{'Bummerl':>9}{'pts/game':>10}"
        f"{'median ms':>11}{'max ms':>10}{'forfeits':>10}",
    ]
    for side in SIDES:
        s = report[side]
        name = s["name"] if len(s["name"]) <= 23 else s["name"][:20] + "..."
        bummerl = str(s["bummerl_won"]) if report["unit"] == "bummerl" else "-"
        lines.append(
            f"{side:<5}{name:<24}{s['game_points']:>8}{s['games_won']:>11}{bummerl:>9}{s['ppg']:>10.3f}"
            f"{_ms(s['move_seconds_median']):>11}{_ms(s['move_seconds_max']):>10}{s['forfeits']:>10}"
        )
    ci = report["a"]["ppg_ci95"]
    ci_text = f"[{ci[0]:+.3f}, {ci[1]:+.3f}]" if ci else "n/a (needs 2 deals)"
    lines += [
        "",
        f"a - b per game: {report['ppg_diff']:+.3f}, 95% CI {ci_text} (paired over {report['deals']} duplicate deals)",
    ]
    if report["points_share_a"] is not None:
        lines.append(f"share of the points won by a: {100 * report['points_share_a']:.1f}%")
    forfeits = report["forfeits"]
    if forfeits:
        lines.append(f"forfeits: {len(forfeits)}")
        for f in forfeits[:forfeit_lines]:
            where = f"deal {f['deal']} pairing {f['pairing']} game {f['game']}"
            lines.append(f"  {where}: {f['side']} ({f['kind']}) {f['message']}")
        if len(forfeits) > forfeit_lines:
            lines.append(f"  ... and {len(forfeits) - forfeit_lines} more (see --json)")
    else:
        lines.append("forfeits: none")
    return "\n".join(lines)
