"""``bummerl replay FILE``: show a recorded game of any variant, or each game of a match, trick by trick.

The record is read with :func:`bummerl.record.iter_records` (text or JSON; every
action is checked by the engine while reading), then each game is replayed
once more and told from the events that :meth:`bummerl.game.Game.apply`
returns (:class:`bummerl.text.RecordNarrator`): the deal (every hand, the trump
card and the talon), a table game's cut or knock, trump call, bidding,
contract, Kontra and talon, every marriage, exchange, closing and
declaration, each trick with who played what and who took it, the cards
drawn, and the result with its reason.  A record is public, so the replay
shows every card.

>>> from bummerl.game import Game
>>> from bummerl.i18n import Messages
>>> game = Game.deal("schnapsen", seed=5)
>>> while not game.is_over:
...     _ = game.apply(game.legal_actions()[0])
>>> from bummerl.record import GameRecord
>>> lines = game_lines(GameRecord.from_game(game), 1, Messages("en"), "french")
>>> lines[0]
'=== Game 1: Schnapsen (weich) · dealer: player 1 ==='
>>> any(line.startswith("Trick 1:") for line in lines), lines[-1].startswith("Result:")
(True, True)
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from bummerl.cards import FACES, LANGUAGES
from bummerl.game import Game
from bummerl.i18n import Messages
from bummerl.record import GameRecord, MatchRecord, iter_records
from bummerl.text import RecordNarrator

__all__ = ["add_parser", "game_lines", "match_end_line", "run"]


def game_lines(record: GameRecord, number: int, msgs: Messages, faces: str) -> list[str]:
    """The story of one game record of any variant, line by line (its actions applied again from the deal)."""
    tags = record.tags
    names = {s: tags.get(f"Seat{s}", "?") for s in range(record.variant.players)}
    narrator = RecordNarrator(msgs, faces, record.variant, names)
    game = Game.from_deck(record.variant, record.deck, record.dealer)
    dealer = narrator.who(record.dealer)
    lines = [msgs("replay_game", n=tags.get("Game", number), variant=record.variant.title, dealer=dealer)]
    lines += narrator.deal(game)
    for action in record.actions:
        lines += narrator.tell(game.apply(action), game)
    return lines + narrator.end(game)


def match_end_line(record: MatchRecord, msgs: Messages) -> str | None:
    """The end of a finished two-player match: who won, the standing, Schneider; ``None`` while it goes on."""
    match = record.replay()
    if match.winner is None:
        return None
    s0, s1 = match.standing
    key = "replay_match_end_marken" if match.kind == "marken" else "replay_match_end_bummerl"
    schneider = msgs("replay_schneider") if match.is_schneider else ""
    names = {s: record.tags.get(f"Seat{s}", "?") for s in (0, 1)}
    winner = RecordNarrator(msgs, "german", record.variant, names).who(match.winner)
    return msgs(key, winner=winner, s0=s0, s1=s1, schneider=schneider)


def add_parser(subparsers: Any) -> None:
    """Register ``bummerl replay``."""
    parser = subparsers.add_parser(
        "replay",
        help="show a recorded game or match of any variant trick by trick",
        description="Show each game of a record (text or JSON, any variant) trick by trick, every card open.",
    )
    parser.add_argument("file", metavar="FILE", help="a game or match record ('-' reads standard input)")
    parser.add_argument("--cards", choices=FACES, default="german", help="card faces (default german)")
    parser.add_argument("--lang", choices=LANGUAGES, default="de", help="language (default de)")


def run(args: argparse.Namespace) -> int:
    """Print every game of the record file."""
    msgs = Messages(args.lang)
    if args.file == "-":
        records = list(iter_records(sys.stdin))
    else:
        with open(args.file, encoding="utf-8") as fp:
            records = list(iter_records(fp))
    number = 0
    for record in records:
        games = [record] if isinstance(record, GameRecord) else list(record.games)
        for game in games:
            number += 1
            if number > 1:
                print()
            print("\n".join(game_lines(game, number, msgs, args.cards)))
        if isinstance(record, MatchRecord):
            end = match_end_line(record, msgs)
            if end is not None:
                print()
                print(end)
    return 0
