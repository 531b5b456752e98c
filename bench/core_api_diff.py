"""``Game`` with its compiled twin against ``Game`` on the Python rules alone: random games, every object compared.

    python bench/core_api_diff.py --games 100000 --jobs 2        # every two-player variant
    python bench/core_api_diff.py --games 2000 --variant scharf --option auto_declare=true

For each variant, ``--games`` games are dealt from seeds ``derive_seed(seed, k)`` with a dealer drawn from the same
stream, twice: once as a :class:`~bummerl.two_player.CoreTwoPlayerGame`, whose compiled twin generates the legal
actions (the engine that ``BUMMERL_CORE=1`` chooses), and once as a plain :class:`~bummerl.two_player.TwoPlayerGame`,
the Python rules alone: the reference.  At every position both must agree object for object on the legal actions
(in order), both seats' :class:`~bummerl.view.PlayerView`, and the events of the random legal action applied to
both (with their types: a ``Play`` and a ``Draw`` of the same card are equal tuples); at the end on the
:class:`~bummerl.variants.two_player.GameResult`.  Now and then the twin's game is copied and the copy must answer
as the original does.  The first difference stops the run with the position and the action that led to it;
``tests/test_core_game.py`` runs the same checks on a sample.
"""

from __future__ import annotations

import argparse
import dataclasses
import multiprocessing
import random
import sys
import time
from unittest import mock

from bummerl import core
from bummerl.actions import TWO_PLAYER_ACTIONS, Action
from bummerl.commands import parse_option
from bummerl.engine import ENGINES
from bummerl.events import Event
from bummerl.rng import derive_seed
from bummerl.two_player import CoreTwoPlayerGame, TwoPlayerGame
from bummerl.variants import RESEARCH_VARIANTS, Variant, find_variant
from bummerl.variants.two_player import TwoPlayerVariant

__all__ = ["DEFAULT_VARIANTS", "Mismatch", "Tally", "compare_api", "every_action", "main"]

DEFAULT_VARIANTS = (
    "schnapsen",
    "schnapsen-scharf",
    "sechsundsechzig",
    "schnorps",
    *(v.name for v in RESEARCH_VARIANTS),
)


class Mismatch(AssertionError):
    """The twin's game and the reference answered differently."""


@dataclasses.dataclass
class Tally:
    games: int = 0
    positions: int = 0


def every_action(variant: Variant) -> list[Action]:
    """Every action a two-player game has a number for (legal or not somewhere)."""
    return [a for a in TWO_PLAYER_ACTIONS if a is not None]


def deal(variant: TwoPlayerVariant, seed: int, dealer: int, *, twin: bool) -> TwoPlayerGame:
    """``TwoPlayerGame.deal`` with (``twin``) or without the compiled twin, whatever the environment says."""
    engine = CoreTwoPlayerGame if twin else TwoPlayerGame
    with mock.patch.dict(ENGINES, {variant.FAMILY: engine}):
        game = TwoPlayerGame.deal(variant, seed, dealer)
    if isinstance(game, CoreTwoPlayerGame) and game._core is None:
        raise SystemExit(f"no compiled core plays {variant.title} here (pip install -e . with a C compiler)")
    return game


def _events(events: tuple[Event, ...]) -> list[tuple[type, Event]]:
    return [(type(e), e) for e in events]


def _same(a: TwoPlayerGame, b: TwoPlayerGame, where: str) -> None:
    if a.legal_actions() != b.legal_actions():
        raise Mismatch(f"legal actions differ: {where}: {a.legal_actions()} against {b.legal_actions()}")
    for seat in (0, 1):
        if a.view(seat) != b.view(seat):
            raise Mismatch(f"the views of seat {seat} differ: {where}")
    if a.result != b.result or a.to_move != b.to_move:
        raise Mismatch(f"results or players to move differ: {where}")


def compare_api(variant: Variant, games: int, seed: int, first: int = 0) -> Tally:
    """Play games ``first .. first + games - 1`` of ``seed`` with and without the twin (the module docstring)."""
    v = TwoPlayerVariant.find(variant)
    if core.config(v) is None:
        raise SystemExit(f"no compiled core plays {v.title}")
    tally = Tally()
    for k in range(first, first + games):
        game_seed = derive_seed(seed, k)
        rng = random.Random(game_seed)
        dealer = rng.randrange(2)
        game = deal(v, game_seed, dealer, twin=True)
        reference = deal(v, game_seed, dealer, twin=False)
        history: list[str] = []
        while True:
            where = f"{v.title}, seed {game_seed}, dealer {dealer}, after {' '.join(history) or 'the deal'}"
            tally.positions += 1
            _same(game, reference, where)
            if game.is_over:
                break
            if rng.random() < 0.1:
                _same(game.copy(), reference, f"a copy, {where}")
            action = rng.choice(reference.legal_actions())
            history.append(action.token)
            mine, theirs = game.apply(action), reference.apply(action)
            if _events(mine) != _events(theirs):
                raise Mismatch(f"the events of {action.token} differ: {where}: {mine} against {theirs}")
        tally.games += 1
    return tally


def _split(games: int, jobs: int) -> list[range]:
    step = -(-games // jobs)
    return [range(start, min(start + step, games)) for start in range(0, games, step)]


def main(argv: list[str] | None = None) -> int:
    cli = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    cli.add_argument("--games", type=int, default=100_000, help="games per variant")
    cli.add_argument("--seed", type=int, default=1)
    cli.add_argument("--variant", action="append", help="a two-player variant (repeatable; default: all)")
    cli.add_argument("--option", action="append", default=[], type=parse_option, help="NAME=VALUE of the variant")
    cli.add_argument("--jobs", type=int, default=1, help="processes sharing the games")
    args = cli.parse_args(argv)
    options = dict(args.option)
    print(f"{'variant':<28} {'games':>9} {'positions':>11} {'seconds':>8}")
    for name in args.variant or DEFAULT_VARIANTS:
        variant = TwoPlayerVariant.find(find_variant(name, **options))
        start = time.perf_counter()
        shares = [(variant, len(part), args.seed, part.start) for part in _split(args.games, args.jobs)]
        with multiprocessing.Pool(args.jobs) as pool:
            tallies = pool.starmap(compare_api, shares)
        games, positions = sum(t.games for t in tallies), sum(t.positions for t in tallies)
        print(f"{variant.title:<28} {games:>9,} {positions:>11,} {time.perf_counter() - start:>8.1f}", flush=True)
    print("every legal-action list, event, view (both seats) and result identical")
    return 0


if __name__ == "__main__":
    sys.exit(main())
