"""``bummerl selfplay``: bots play single games against each other.

Seat 0 is the first bot of ``--bots A,B``, seat 1 the second.  Game ``i`` is
dealt from ``derive_seed(seed, i)`` and the dealer alternates (seat 1 deals
game 0, so A leads first); each bot gets its own seed per game, so a run is
reproducible.  Every bot sees only its own view.

>>> from bummerl.variants import find_variant
>>> stats = selfplay(find_variant("schnapsen"), ["heuristic", "random"], games=4, seed=1)
>>> stats.games, sum(stats.wins) + stats.draws
(4, 4)
>>> sorted(stats.as_json())
['bots', 'draws', 'game_points', 'games', 'options', 'seconds', 'seed', 'variant', 'wins']

For duplicate deals, confidence intervals and parallel runs use ``bummerl arena``.
"""

from __future__ import annotations

import argparse
import json
import time
from typing import Any

from bummerl.arena_report import SelfplayStats
from bummerl.bots import bot_info, make_bot
from bummerl.errors import BummerlError
from bummerl.game import Game
from bummerl.rng import derive_seed
from bummerl.variants import TableVariant, TwoPlayerVariant

__all__ = ["SelfplayStats", "add_parser", "run", "selfplay"]

#: Path element of :func:`derive_seed` for the bots' seeds ("BOTS").
_BOT_STREAM = 0x424F5453


def selfplay(variant: TwoPlayerVariant, bots: list[str], games: int, seed: int) -> SelfplayStats:
    """Play ``games`` games between the two named bots; see the module docstring."""
    if len(bots) != 2:
        raise BummerlError(f"selfplay needs exactly two bots (A,B), got {len(bots)}: {', '.join(bots)}")
    if games < 0:
        raise BummerlError(f"the number of games must be 0 or more, not {games}")
    # ``cmd:`` bots (the bot protocol) have no registry entry: their name is the spec.
    names = [b if b.startswith("cmd:") else bot_info(b).name for b in bots]
    stats = SelfplayStats(variant, names, seed)
    start = time.perf_counter()
    for i in range(games):
        game_seed = derive_seed(seed, i)
        players = [make_bot(bots[s], derive_seed(seed, _BOT_STREAM, i, s)) for s in (0, 1)]
        game = Game.deal(variant, game_seed, dealer=1 - i % 2)
        try:
            while not game.is_over:
                p = game.to_move
                game.apply(players[p].choose(game.view(p)))
        finally:
            for player in players:
                close = getattr(player, "close", None)
                if close is not None:
                    close()
        result = game.result
        assert result is not None
        stats.games += 1
        if result.winner is None:
            stats.draws += 1
        else:
            stats.wins[result.winner] += 1
            stats.game_points[result.winner] += result.points
    stats.seconds = time.perf_counter() - start
    return stats


def add_parser(subparsers: Any) -> None:
    """Register ``bummerl selfplay``."""
    from bummerl.commands import add_variant_arguments

    parser = subparsers.add_parser(
        "selfplay",
        help="let two bots play games against each other",
        description="Bots play single games; seat order A,B; the dealer alternates.",
    )
    add_variant_arguments(parser)
    parser.add_argument(
        "--bots",
        default="heuristic,random",
        metavar="A,B",
        help="two bot names (default heuristic,random); table variants: one per seat, or A,B alternating",
    )
    parser.add_argument("--games", type=int, default=100, help="number of games (default 100)")
    parser.add_argument("--seed", type=int, default=0, help="the run's seed (default 0)")
    parser.add_argument("--json", action="store_true", help="print one JSON object instead of a table")


def run(args: argparse.Namespace) -> int:
    """Play and print the totals."""
    from bummerl.commands import any_variant_from_args

    variant = any_variant_from_args(args)
    bots = [b.strip() for b in args.bots.split(",")]
    if isinstance(variant, TableVariant):
        # Bauernschnapsen, Dreierschnapsen: one bot per seat, or A,B alternating.
        from bummerl.table_arena import table_selfplay

        table_stats = table_selfplay(variant, bots, args.games, args.seed)
        print(json.dumps(table_stats.as_json()) if args.json else table_stats.table())
        return 0
    stats = selfplay(variant, bots, args.games, args.seed)
    print(json.dumps(stats.as_json()) if args.json else stats.table())
    return 0
