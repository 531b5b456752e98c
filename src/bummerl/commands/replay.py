"""``bummerl replay FILE``: show a recorded game of any variant, or each game of a match, trick by trick.

The record is read with :func:`bummerl.record.iter_records` (text or JSON; every
action is checked by the engine while reading), then each game is replayed
once more: the deal is shown from the game (every hand, the trump card and the
talon), and everything after it is told from the events that
:meth:`bummerl.game.Game.apply` returns by the :class:`bummerl.text.Narrator`
of ``bummerl play``, told as a record (``public``, to nobody in particular): a
table game's cut or knock, trump call, bidding, contract, Kontra and talon,
every marriage, exchange, closing and declaration, each trick with who played
what and who took it, the cards drawn, and the result with its reason.  A
record is public, so the replay shows every card.

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
from collections.abc import Sequence
from typing import Any

from bummerl.cards import FACES, LANGUAGES, Card, Suit, sort_hand
from bummerl.events import Cut, Knock
from bummerl.game import Game
from bummerl.i18n import Messages
from bummerl.record import GameRecord, MatchRecord, iter_records
from bummerl.text import Narrator, Words

__all__ = ["add_parser", "deal_lines", "game_lines", "match_end_line", "run"]


def _words(record: GameRecord | MatchRecord, msgs: Messages, faces: str) -> Words:
    """The words of a record: told to nobody, the seats named by the record's ``SeatN`` tags."""
    names = {s: record.tags.get(f"Seat{s}", "?") for s in range(record.variant.players)}
    return Words(msgs, faces, record.variant, names=names)


def game_lines(record: GameRecord, number: int, msgs: Messages, faces: str) -> list[str]:
    """The story of one game record of any variant, line by line (its actions applied again from the deal)."""
    w = _words(record, msgs, faces)
    narrator = Narrator(w, public=True)
    game = Game.from_deck(record.variant, record.deck, record.dealer)
    title = record.variant.title
    lines = [w("replay_game", n=record.tags.get("Game", number), variant=title, dealer=w.whom(game.dealer))]
    lines += deal_lines(game, w)
    for action in record.actions:
        events = game.apply(action)
        # A table game deals at its cut or knock; the game may end at once (three Unter: dealt again).
        dealt = next((i + 1 for i, e in enumerate(events) if isinstance(e, Cut | Knock)), 0)
        if dealt:
            lines += narrator.tell(events[:dealt]) + deal_lines(game, w)
        lines += narrator.tell(events[dealt:])
    if game.is_over:
        return lines
    if narrator.trick:
        lines.append(w("table_trick", cards=", ".join(f"{w.whom(s)} {w.card(c)}" for s, c in narrator.trick)))
    return [*lines, w("replay_unfinished")]


def deal_lines(game: Game, w: Words) -> list[str]:
    """The hands from Vorhand on and what lies beside them, if the cards are dealt yet (a record hides nothing)."""
    if not any(game.hands):
        return []
    n = game.players
    trump: Suit | None = getattr(game, "trump", None)  # a table game's is called after its deal
    lines = [
        w("replay_hand", who=w.who(p), cards=w.cards(sort_hand(game.hands[p], trump)))
        for p in ((game.dealer + 1 + i) % n for i in range(n))
    ]
    talon: Sequence[Card] = getattr(game, "talon", ())
    # The two-player games turn a trump card up under the talon, which is drawn from;
    # a table game's trump is called later, and its talon (Dreierschnapsen) lies.
    face_up: Card | None = getattr(game, "trump_card", None)
    if face_up is not None:
        lines.append(w("replay_trump", suit=w.suit(face_up.suit), card=w.card(face_up)))
        lines.append(w("replay_talon", cards=w.cards(reversed(talon))))
    elif talon:
        lines.append(w("replay_talon_lying", cards=w.cards(talon)))
    return lines


def match_end_line(record: MatchRecord, msgs: Messages) -> str | None:
    """The end of a finished two-player match: who won, the standing, Schneider; ``None`` while it goes on."""
    match = record.replay()
    if match.winner is None:
        return None
    s0, s1 = match.standing
    key = "replay_match_end_marken" if match.kind == "marken" else "replay_match_end_bummerl"
    schneider = msgs("replay_schneider") if match.is_schneider else ""
    winner = _words(record, msgs, "german").whom(match.winner)
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
