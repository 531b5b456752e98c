"""``bummerl analyze RECORD``: annotate a recorded game with a search bot's evaluation.

Every decision gets the expected game points of each legal action from the
deciding player's view (their information only) and a verdict; mistakes (the
chosen action worse than the best by ``--threshold`` game points) are flagged.
Positions the player fully knows (talon exhausted) are judged exactly by the
open-card solver: ``optimal`` or ``losing``.  ``--json`` prints the same as JSON.

This module only reads the record and prints; see :mod:`bummerl.analysis`.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import sys
from typing import Any

from bummerl.analysis import THRESHOLD, analyze
from bummerl.bots import UnknownBotError, make_bot
from bummerl.bots.search import SearchBot
from bummerl.errors import BummerlError
from bummerl.game import Game

__all__ = ["add_parser", "load_games", "run"]


def add_parser(subparsers: Any) -> None:
    """Register ``bummerl analyze`` with the CLI's subparsers."""
    parser = subparsers.add_parser(
        "analyze",
        help="annotate a recorded game with the expert's evaluation and flag mistakes",
        description=__doc__.split("\n\n")[1] if __doc__ else None,
    )
    parser.add_argument("record", help="a game or match record file ('-' for stdin)")
    parser.add_argument("--bot", default="expert", help="the evaluating search bot (default: expert)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the evaluating bot's sampling")
    parser.add_argument(
        "--threshold", type=float, default=THRESHOLD, help=f"mistake threshold in game points (default {THRESHOLD})"
    )
    parser.add_argument(
        "--seconds",
        type=float,
        default=None,
        help="time cap per decision (default: none, the level's full world budget, reproducible)",
    )
    parser.add_argument("--game", type=int, default=None, help="analyze only game N (1-based) of a match record")
    parser.add_argument("--json", action="store_true", help="print JSON instead of text")


def load_games(text: str) -> list[Game]:
    """The games of a record file (game or match records, text or JSON), replayed
    and checked by :mod:`bummerl.record`.

    >>> from bummerl.record import GameRecord, dumps
    >>> g = Game.deal("schnapsen", seed=2)
    >>> g.apply(g.legal_actions()[0])
    >>> [len(x.actions) for x in load_games(dumps(GameRecord.from_game(g)))]
    [1]
    """
    from bummerl.record import GameRecord, MatchRecord, loads_all

    games: list[Game] = []
    for rec in loads_all(text):
        if isinstance(rec, MatchRecord):
            games.extend(rec.replay().games)
        elif isinstance(rec, GameRecord):
            games.append(rec.replay())
    if not games:
        raise BummerlError("the record holds no game")
    return games


def run(args: argparse.Namespace) -> int:
    """Analyze; 0 on success, 2 on a bad record, bot or option."""
    try:
        bot = make_bot(args.bot, seed=args.seed)
    except UnknownBotError as exc:
        print(f"bummerl analyze: {exc}", file=sys.stderr)
        return 2
    if not isinstance(bot, SearchBot):
        print(f"bummerl analyze: bot {args.bot!r} cannot evaluate positions; use a search level", file=sys.stderr)
        return 2
    if args.seconds is not None and args.seconds <= 0:
        print("bummerl analyze: --seconds must be positive", file=sys.stderr)
        return 2
    # Analysis is offline: the full world budget unless a cap is asked for, so
    # the same record and seed always give the same report.
    bot.budget = dataclasses.replace(bot.budget, seconds=args.seconds)
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
    reports = [analyze(g, bot, threshold=args.threshold) for g in games]
    if args.json:
        out: Any = reports[0].to_json() if len(reports) == 1 else {"games": [r.to_json() for r in reports]}
        print(json.dumps(out, indent=1))
    else:
        for i, r in enumerate(reports):
            if len(reports) > 1:
                print(f"--- game {i + 1} ---")
            print(r.format_text())
    return 0
