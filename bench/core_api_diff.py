"""``Game`` with its compiled twin against ``Game`` on the Python rules alone: random games, every object compared.

    python bench/core_api_diff.py --games 100000 --jobs 2        # every variant of both families
    python bench/core_api_diff.py --games 2000 --variant scharf --option auto_declare=true

For each variant, ``--games`` games are dealt from seeds ``derive_seed(seed, k)`` with a dealer drawn from the same
stream, twice: once with the compiled twin generating the legal actions (what ``Game`` does by default where the
core is built: :class:`~bummerl.two_player.TwoPlayerGame`, :class:`~bummerl.table_game.TableGame`), and once with
``BUMMERL_PURE=1``, the Python rules alone: the reference.  At every position both must agree object for object on
the legal actions (in order), every seat's view, and the events of the random legal action applied to both (with
their types: a ``Play`` and a ``Draw`` of the same card are equal tuples); at the end on the result.  Now and then
the twin's game is copied and the copy must answer as the original does.  The first difference stops the run with
the position and the action that led to it; ``tests/test_core_game.py`` runs the same checks on a sample.
"""

from __future__ import annotations

import argparse
import dataclasses
import multiprocessing
import os
import random
import sys
import time
from unittest import mock

from bummerl import core
from bummerl.actions import Action
from bummerl.commands import parse_option
from bummerl.engine import Game
from bummerl.events import Event
from bummerl.rng import derive_seed
from bummerl.table_game import TableGame
from bummerl.two_player import TwoPlayerGame
from bummerl.variants import RESEARCH_VARIANTS, Variant, find_variant

__all__ = ["DEFAULT_VARIANTS", "Mismatch", "Tally", "compare_api", "every_action", "main"]

DEFAULT_VARIANTS = (
    "schnapsen",
    "schnapsen-scharf",
    "sechsundsechzig",
    "schnorps",
    *(v.name for v in RESEARCH_VARIANTS),
    "bauernschnapsen",
    "dreierschnapsen",
)


class Mismatch(AssertionError):
    """The twin's game and the reference answered differently."""


@dataclasses.dataclass
class Tally:
    games: int = 0
    positions: int = 0


def every_action(variant: Variant) -> list[Action]:
    """Every action the core has a number for in ``variant`` (legal or not somewhere)."""
    with mock.patch.dict(os.environ, {core.PURE_VARIABLE: ""}):
        twin = core.twin(variant)
    if twin is None:
        raise SystemExit(f"no compiled core plays {variant.title} here (pip install -e . with a C compiler)")
    return [a for a in twin.actions if a is not None]


def deal(variant: Variant, seed: int, dealer: int, *, twin: bool) -> TwoPlayerGame | TableGame:
    """``Game.deal`` with (``twin``) or without (``BUMMERL_PURE=1``) the compiled twin, whatever the environment
    says."""
    with mock.patch.dict(os.environ, {core.PURE_VARIABLE: "" if twin else "1"}):
        game = Game.deal(variant, seed, dealer)
    assert isinstance(game, TwoPlayerGame | TableGame)
    if twin and game._core is None:
        raise SystemExit(f"no compiled core plays {variant.title} here (pip install -e . with a C compiler)")
    return game


def _events(events: tuple[Event, ...]) -> list[tuple[type, Event]]:
    return [(type(e), e) for e in events]


def _same(a: Game, b: Game, where: str) -> None:
    if a.legal_actions() != b.legal_actions():
        raise Mismatch(f"legal actions differ: {where}: {a.legal_actions()} against {b.legal_actions()}")
    for seat in range(a.players):
        if a.view(seat) != b.view(seat):
            raise Mismatch(f"the views of seat {seat} differ: {where}")
    if a.result != b.result or a.to_move != b.to_move:
        raise Mismatch(f"results or players to move differ: {where}")


def compare_api(variant: Variant, games: int, seed: int, first: int = 0) -> Tally:
    """Play games ``first .. first + games - 1`` of ``seed`` with and without the twin (the module docstring)."""
    v = variant
    if core.config(v) is None:
        raise SystemExit(f"no compiled core plays {v.title}")
    tally = Tally()
    for k in range(first, first + games):
        game_seed = derive_seed(seed, k)
        rng = random.Random(game_seed)
        dealer = rng.randrange(v.players)
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
    cli.add_argument("--variant", action="append", help="a variant (repeatable; default: all)")
    cli.add_argument("--option", action="append", default=[], type=parse_option, help="NAME=VALUE of the variant")
    cli.add_argument("--jobs", type=int, default=1, help="processes sharing the games")
    args = cli.parse_args(argv)
    options = dict(args.option)
    print(f"{'variant':<28} {'games':>9} {'positions':>11} {'seconds':>8}")
    for name in args.variant or DEFAULT_VARIANTS:
        variant = find_variant(name, **options)
        start = time.perf_counter()
        shares = [(variant, len(part), args.seed, part.start) for part in _split(args.games, args.jobs)]
        with multiprocessing.Pool(args.jobs) as pool:
            tallies = pool.starmap(compare_api, shares)
        games, positions = sum(t.games for t in tallies), sum(t.positions for t in tallies)
        print(f"{variant.title:<28} {games:>9,} {positions:>11,} {time.perf_counter() - start:>8.1f}", flush=True)
    print("every legal-action list, event, view (every seat) and result identical")
    return 0


if __name__ == "__main__":
    sys.exit(main())
