"""``bummerl replay FILE``: show a recorded game, or each game of a match, trick by trick.

The record is read with :func:`bummerl.record.iter_records` (text or JSON; every
action is checked by the engine while reading), then each game is replayed
once more and told: the deal (both hands, the trump card, the talon in draw
order), every marriage, exchange, closing and declaration, each trick with who
led what and who took it, the cards drawn, and the result with its reason.  A
record is public, so the replay shows every card.

>>> from bummerl.game import Game
>>> from bummerl.i18n import Messages
>>> game = Game.deal("schnapsen", seed=5)
>>> while not game.is_over:
...     game.apply(game.legal_actions()[0])
>>> from bummerl.record import GameRecord
>>> lines = game_lines(GameRecord.from_game(game), 1, Messages("en"), "french")
>>> lines[0]
'=== Game 1: Schnapsen (weich) · dealer: player 1 ==='
>>> any(line.startswith("Trick 1:") for line in lines), lines[-1].startswith("Result:")
(True, True)
"""

from __future__ import annotations

import argparse
from typing import Any

from bummerl.actions import ActionKind
from bummerl.cards import FACES, LANGUAGES, Card, sort_hand
from bummerl.game import Game
from bummerl.i18n import Messages
from bummerl.record import GameRecord, iter_records
from bummerl.table.record import TableGameRecord
from bummerl.text import marriage_value, marriage_word, reason_word

__all__ = ["add_parser", "game_lines", "run"]


def _player(p: int, tags: dict[str, str]) -> str:
    name = tags.get(f"Seat{p}", "?")
    return str(p) if name in ("", "?") else f"{p} ({name})"


def game_lines(record: GameRecord, number: int, msgs: Messages, faces: str) -> list[str]:
    """The story of one :class:`~bummerl.record.GameRecord`, line by line."""
    lang = msgs.lang
    tags: dict[str, str] = dict(record.tags)

    def who(p: int) -> str:
        return _player(p, tags)

    def names(cards: list[Card] | tuple[Card, ...]) -> str:
        return ", ".join(c.name(faces, lang) for c in cards) or "-"

    game = Game.from_deck(record.variant, record.deck, record.dealer)
    trump = game.trump
    lines = [msgs("replay_game", n=tags.get("Game", number), variant=game.variant.title, dealer=who(game.dealer))]
    for p in (game.vorhand, game.dealer):
        lines.append(msgs("replay_hand", p=who(p), cards=names(sort_hand(game.hands[p], trump))))
    face_up = game.trump_card
    lines.append(
        msgs("replay_trump", suit=trump.name_in(faces, lang), card=face_up.name(faces, lang) if face_up else "-")
    )
    lines.append(msgs("replay_talon", cards=names(list(reversed(game.talon)))))
    for action in record.actions:
        p = game.to_move
        hands_before = [list(game.hands[0]), list(game.hands[1])]
        low, taken = Card(trump, game.variant.exchange_rank), game.trump_card
        tricks_before = len(game.tricks)
        game.apply(action)
        if action.suit is not None and action.kind in (ActionKind.MARRIAGE, ActionKind.DECLARE):
            value = marriage_word(marriage_value(action.suit, trump), msgs)
            lines.append(msgs("replay_marriage", p=who(p), value=value, suit=action.suit.name_in(faces, lang)))
        if action.kind is ActionKind.EXCHANGE:
            card = taken.name(faces, lang) if taken else "-"
            lines.append(msgs("replay_exchange", p=who(p), low=low.name(faces, lang), card=card))
        elif action.kind is ActionKind.CLOSE:
            lines.append(msgs("replay_close", p=who(p)))
        elif action.kind is ActionKind.DECLARE:
            lines.append(msgs("replay_declare", p=who(p)))
        if len(game.tricks) > tricks_before:
            t = game.tricks[-1]
            lines.append(
                msgs(
                    "replay_trick",
                    n=len(game.tricks),
                    leader=who(t.leader),
                    lead=t.lead.name(faces, lang),
                    other=who(1 - t.leader),
                    follow=t.follow.name(faces, lang),
                    winner=who(t.winner),
                )
            )
            drawn = [
                f"{who(q)} {c.name(faces, lang)}"
                for q in (t.winner, 1 - t.winner)
                for c in game.hands[q]
                if c not in hands_before[q]
            ]
            if drawn:
                lines.append(msgs("replay_draws", items="; ".join(drawn)))
    result = game.result
    if result is None:
        lines.append(msgs("replay_unfinished"))
    elif result.winner is None:
        text = msgs("replay_stand", reason=reason_word(result.reason, msgs), a0=result.augen[0], a1=result.augen[1])
        lines.append(msgs("replay_result", text=text))
    else:
        points = msgs("points", n=result.points, unit=msgs.unit(result.unit, result.points))
        text = msgs(
            "replay_result_text",
            winner=who(result.winner),
            points=points,
            reason=reason_word(result.reason, msgs),
            a0=result.augen[0],
            a1=result.augen[1],
        )
        lines.append(msgs("replay_result", text=text))
    return lines


def add_parser(subparsers: Any) -> None:
    """Register ``bummerl replay``."""
    parser = subparsers.add_parser(
        "replay",
        help="show a recorded game or match trick by trick",
        description="Show each game of a record (text or JSON) trick by trick.",
    )
    parser.add_argument("file", metavar="FILE", help="a game or match record ('-' reads standard input)")
    parser.add_argument("--cards", choices=FACES, default="german", help="card faces (default german)")
    parser.add_argument("--lang", choices=LANGUAGES, default="de", help="language (default de)")


def run(args: argparse.Namespace) -> int:
    """Print every game of the record file."""
    import sys

    msgs = Messages(args.lang)
    if args.file == "-":
        records = list(iter_records(sys.stdin))
    else:
        with open(args.file, encoding="utf-8") as fp:
            records = list(iter_records(fp))
    number = 0
    for record in records:
        if isinstance(record, TableGameRecord):
            # Bauernschnapsen, Dreierschnapsen: told by the table front end.
            from bummerl.commands.play_table import table_game_lines

            number += 1
            if number > 1:
                print()
            print("\n".join(table_game_lines(record, number, args.cards, args.lang)))
            continue
        games = [record] if isinstance(record, GameRecord) else list(record.games)
        for game in games:
            number += 1
            if number > 1:
                print()
            print("\n".join(game_lines(game, number, msgs, args.cards)))
        if not isinstance(record, GameRecord):
            match = record.replay()
            if match.winner is not None:
                s0, s1 = match.standing
                print()
                key = "replay_match_end_marken" if match.kind == "marken" else "replay_match_end_bummerl"
                schneider = msgs("replay_schneider") if match.is_schneider else ""
                winner = _player(match.winner, dict(record.tags))
                print(msgs(key, winner=winner, s0=s0, s1=s1, schneider=schneider))
    return 0
