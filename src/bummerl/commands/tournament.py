"""``bummerl tournament``: bots play a knock-out, a round robin or a Swiss tournament on duplicate deals.

Every pairing plays --games duplicate deals (each in every seating of the two
bots on the same pack, as in `bummerl arena`; with --unit bummerl each deal is
a whole match per seating: a pair of Bummerl with two players).  Every deal and
every game's record is kept in --out DIR as soon as it is finished, so running
the same command again after a crash continues where it stopped; a different
configuration is refused.  Prints the standings with Bradley-Terry ratings (Elo
scale, mean 0) and their 95% intervals, and the pairings; --json prints one
JSON object; DIR/ratings.svg plots the ratings (the 'tournament' extra).
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from bummerl.arena import UNITS
from bummerl.arena.backends import MissingExtraError
from bummerl.commands import add_command, add_variant_arguments, any_variant_from_args, fail
from bummerl.commands.arena import add_backend_arguments, add_move_timeout_argument, backend_from_args
from bummerl.tournament import FORMATS, Pairing, TournamentConfig, format_report, run_tournament
from bummerl.tournament.schedule import EXTRA_DEALS

__all__ = ["add_parser", "run"]


def add_parser(subparsers: Any) -> None:
    """Register ``bummerl tournament``."""
    parser = add_command(
        subparsers,
        "tournament",
        "a knock-out, round robin or Swiss tournament of bots, with ratings; resumable",
        __doc__,
    )
    parser.add_argument("--format", required=True, choices=FORMATS, help="the tournament's format")
    add_variant_arguments(parser)
    parser.add_argument(
        "--bots",
        required=True,
        metavar="A,B,C,...",
        help="the bots, seeded in this order (built-in names or cmd:<command line>; a comma inside a command"
        " line is not supported)",
    )
    parser.add_argument(
        "--games",
        "--deals",
        dest="games",
        type=int,
        default=10,
        metavar="N",
        help=f"duplicate deals per pairing (default 10); a tied knock-out match plays on, at most {EXTRA_DEALS} more",
    )
    parser.add_argument("--unit", choices=UNITS, default="game", help="play single games or whole matches (Bummerl)")
    parser.add_argument("--rounds", type=int, default=None, help="Swiss only: rounds (default ceil(log2 bots))")
    parser.add_argument("--seed", type=int, default=0, help="seed of the deals and the bots (default 0)")
    parser.add_argument("--out", required=True, metavar="DIR", help="the tournament's directory (resumed if it exists)")
    add_backend_arguments(parser)
    add_move_timeout_argument(parser)
    parser.add_argument("--json", action="store_true", help="print one JSON object instead of the tables")
    parser.add_argument("--no-plot", action="store_true", help="do not draw DIR/ratings.svg")


def run(args: argparse.Namespace) -> int:
    """Play (or resume) and print; 2 for bad arguments or another tournament in DIR, 1 for an unreachable cluster."""
    try:
        config = TournamentConfig(
            args.format,
            any_variant_from_args(args),
            [b.strip() for b in args.bots.split(",") if b.strip()],
            games=args.games,
            seed=args.seed,
            unit=args.unit,
            rounds=args.rounds,
            move_timeout=args.move_timeout,
        )
        backend = backend_from_args(args)
    except (ValueError, MissingExtraError, ConnectionError) as exc:  # BummerlError included: unknown bot or variant
        return fail("tournament", exc)
    progress = _progress if sys.stderr.isatty() else None
    with backend:
        # A directory holding another tournament raises ConfigMismatchError, a BummerlError: the CLI says so (2).
        report = run_tournament(config, args.out, backend=backend, on_deal=progress, plot=not args.no_plot)
    if progress is not None:
        print(file=sys.stderr)
    if args.json:
        for note in report["notes"]:
            print(f"bummerl tournament: note: {note}", file=sys.stderr)
        print(json.dumps(report, indent=2))
    else:
        print(format_report(report))
    return 0


def _progress(pairing: Pairing, deal: int, played: int) -> None:
    print(f"\rround {pairing.round}: {played} deals played", end="", file=sys.stderr, flush=True)
