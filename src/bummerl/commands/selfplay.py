"""``bummerl selfplay``: bots play single games of any variant against each other.

``--bots A,B`` seats A in seat 0 and B in seat 1, alternating round a table of
three or four (at Bauernschnapsen A and A are partners); ``A,B,C[,D]`` names
one bot per seat.  Game ``i`` is dealt from ``derive_seed(seed, i)``, the
dealer passes on (two players: seat 1 deals game 0, so A leads first); each
bot gets its own seed per game, so a run is reproducible.  Every bot sees only
its own view.  ``--record FILE`` writes every game as a record
(docs/records.md), which ``bummerl replay`` and ``bummerl analyze`` read.

>>> import argparse
>>> run(argparse.Namespace(variant="66", option=[], bots="heuristic,random", games=2, seed=1,
...                        json=True, record=None, move_timeout=10.0))  # doctest: +ELLIPSIS
{"variant": "sechsundsechzig", ..., "bots": ["heuristic", "random"], "games": 2, ...}
0

For duplicate deals, confidence intervals and parallel runs use ``bummerl arena``.
"""

from __future__ import annotations

import argparse
import json
import os
from typing import Any

from bummerl.arena import selfplay
from bummerl.arena.play import check_bot
from bummerl.arena.selfplay import seat_bots
from bummerl.commands import add_variant_arguments, any_variant_from_args
from bummerl.commands.arena import add_move_timeout_argument

__all__ = ["add_parser", "run"]


def add_parser(subparsers: Any) -> None:
    """Register ``bummerl selfplay``."""
    parser = subparsers.add_parser(
        "selfplay",
        help="let bots play games against each other",
        description="Bots play single games, one per seat (A,B alternate); the dealer passes on.",
    )
    add_variant_arguments(parser)
    parser.add_argument(
        "--bots",
        default="heuristic,random",
        metavar="A,B[,C,D]",
        help="bot names: two that alternate (default heuristic,random), or one per seat; cmd:<command line> too",
    )
    parser.add_argument("--games", type=int, default=100, help="number of games (default 100)")
    parser.add_argument("--seed", type=int, default=0, help="the run's seed (default 0)")
    parser.add_argument("--record", metavar="FILE", help="write every game as a record to FILE")
    add_move_timeout_argument(parser)
    parser.add_argument("--json", action="store_true", help="print one JSON object instead of a table")


def run(args: argparse.Namespace) -> int:
    """Play and print the totals; errors (unknown variant or bot) reach the CLI as usage errors."""
    variant = any_variant_from_args(args)
    bots = [b.strip() for b in args.bots.split(",")]
    if not args.record:
        stats = selfplay(variant, bots, args.games, args.seed, move_timeout=args.move_timeout)
    else:
        for spec in seat_bots(variant, bots):
            check_bot(spec, variant)  # before the file is made
        try:
            with open(args.record, "w", encoding="utf-8") as record:
                stats = selfplay(variant, bots, args.games, args.seed, record=record, move_timeout=args.move_timeout)
        except BaseException:
            if os.path.exists(args.record) and os.path.getsize(args.record) == 0:
                os.remove(args.record)  # nothing was written: leave no empty file behind
            raise
        if not args.json:
            print(f"{stats.games} records written to {args.record}")
    print(json.dumps(stats.as_json()) if args.json else stats.table())
    return 0
