"""``bummerl analyze RECORD``: annotate a recorded game of any variant with a search bot's evaluation.

Every decision gets the expected game points of each legal action from the
deciding player's view (their information only) and a verdict; mistakes (the
chosen action worse than the best by ``--threshold`` game points) are flagged.
Positions the player fully knows are judged exactly by the open-card solver:
``optimal`` or ``losing``.  Two-player games are judged by a search level
(default ``expert``), Bauernschnapsen and Dreierschnapsen by the table
``search`` bot (its worlds in the card play, its estimate for bids; the cut,
trump call, talon and Kontra are ``not analysed``).  ``--json`` prints the same
as JSON.

This module only reads the record and prints; see :mod:`bummerl.analysis`.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from bummerl.analysis import EVALUATORS, THRESHOLD, Analysis, Evaluator, analyze, make_evaluator
from bummerl.commands import add_command
from bummerl.errors import BummerlError
from bummerl.game import Game
from bummerl.record import MatchRecord, loads_all

__all__ = ["add_parser", "load_games", "run"]


def add_parser(subparsers: Any) -> None:
    """Register ``bummerl analyze`` with the CLI's subparsers."""
    parser = add_command(
        subparsers,
        "analyze",
        "annotate a recorded game of any variant with a search bot's evaluation and flag mistakes",
        __doc__,
    )
    parser.add_argument("record", help="a game or match record file ('-' for stdin)")
    parser.add_argument(
        "--bot",
        default=None,
        help=f"the evaluating search bot (default: the first of {', '.join(EVALUATORS)} that plays the variant)",
    )
    parser.add_argument("--seed", type=int, default=0, help="seed of the evaluating bot's sampling")
    parser.add_argument(
        "--threshold", type=float, default=THRESHOLD, help=f"mistake threshold in game points (default {THRESHOLD})"
    )
    parser.add_argument(
        "--seconds",
        type=float,
        default=None,
        help="time cap per decision (default: none, the bot's full world budget, reproducible)",
    )
    parser.add_argument("--game", type=int, default=None, help="analyze only game N (1-based) of a match record")
    parser.add_argument("--json", action="store_true", help="print JSON instead of text")


def load_games(text: str) -> list[Game]:
    """The games of a record file (game or match records of any variant, text or JSON), replayed
    and checked by :mod:`bummerl.record`.

    >>> from bummerl.record import GameRecord, dumps
    >>> g = Game.deal("schnapsen", seed=2)
    >>> _ = g.apply(g.legal_actions()[0])
    >>> t = Game.deal("bauernschnapsen", seed=2)
    >>> _ = t.apply("knock")
    >>> [len(x.actions) for x in load_games(dumps(GameRecord.from_game(g)) + "\\n" + dumps(GameRecord.from_game(t)))]
    [1, 1]
    """
    games: list[Game] = []
    for rec in loads_all(text):
        if isinstance(rec, MatchRecord):
            games.extend(rec.replay().games)
        else:
            games.append(rec.replay())
    if not games:
        raise BummerlError("the record holds no game")
    return games


def run(args: argparse.Namespace) -> int:
    """Analyze; 0 on success, 2 on a bad record, bot or option."""
    if args.seconds is not None and args.seconds <= 0:
        print("bummerl analyze: --seconds must be positive", file=sys.stderr)
        return 2
    try:
        if args.record == "-":
            text = sys.stdin.read()
        else:
            with open(args.record, encoding="utf-8") as f:
                text = f.read()
    except OSError as exc:
        print(f"bummerl analyze: cannot read {args.record}: {exc.strerror}", file=sys.stderr)
        return 2
    try:
        games = load_games(text)
    except (BummerlError, ValueError) as exc:
        print(f"bummerl analyze: {args.record}: {exc}", file=sys.stderr)
        return 2
    if args.game is not None:
        if not 1 <= args.game <= len(games):
            print(f"bummerl analyze: --game must be 1..{len(games)}", file=sys.stderr)
            return 2
        games = [games[args.game - 1]]
    # One evaluator per variant of the file (a file may mix two-player and table games).
    evaluators: dict[str, Evaluator] = {}
    reports: list[Analysis] = []
    try:
        for game in games:
            key = game.variant.name
            if key not in evaluators:
                evaluators[key] = make_evaluator(game.variant, args.bot, args.seed, args.seconds)
            reports.append(analyze(game, evaluators[key], threshold=args.threshold, seed=args.seed))
    except BummerlError as exc:  # a bot that does not exist, does not play the variant or cannot evaluate
        print(f"bummerl analyze: {exc}", file=sys.stderr)
        return 2
    if args.json:
        out: Any = reports[0].to_json() if len(reports) == 1 else {"games": [r.to_json() for r in reports]}
        print(json.dumps(out, indent=1))
    else:
        for i, r in enumerate(reports):
            if len(reports) > 1:
                print(f"--- game {i + 1} ---")
            print(r.format_text())
    return 0
