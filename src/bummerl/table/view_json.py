"""A table game's view and public events as the web server sends them.

The JSON of a view is :func:`bummerl.view_json.view_to_json` (the same object
the bot protocol sends, docs/protocol.md); :func:`table_view_to_json` is that
object as a client of a three- or four-player web table gets it: exactly the
view's content (the own hand, never a partner's, the laid-away cards only to
the Dreierschnapsen soloist who laid them away), with ``to_move`` null once the
game is over.  ``spectator=True`` drops everything that belongs to the seat the
view was built for (hand, laid-away cards, legal actions).

>>> from bummerl.table_game import TableGame
>>> t = TableGame.deal("bauernschnapsen", seed=1, dealer=0)
>>> _ = t.apply("cut")
>>> data = table_view_to_json(t.view(1))
>>> data["phase"], len(data["hand"]), data["legal"][:2], data["partner"]
('trump', 3, ['trump:h', 'trump:c'], 3)
>>> table_view_to_json(t.view(1), spectator=True)["hand"]
[]

:func:`action_events` lists the public facts of one action (bids, passes,
doubles, the trump call, cards, tricks, marriages, "Genug", the game's end),
never a card that is not face up.
"""

from __future__ import annotations

from typing import Any

from bummerl.cards import Card, Rank
from bummerl.table.actions import DOUBLE_NAMES, TableAction, TableActionKind
from bummerl.table.view import TableView
from bummerl.table_game import TableGame
from bummerl.view_json import result_to_json, trick_seats, view_to_json

__all__ = ["action_events", "result_to_json", "table_view_to_json", "trick_seats"]


def table_view_to_json(view: TableView, spectator: bool = False) -> dict[str, Any]:
    """``view`` as JSON for the web table; with ``spectator`` without the seat's own cards and actions."""
    data = view_to_json(view)
    if view.result is not None:
        data["to_move"] = None  # nobody is to move at a finished table
    if spectator:
        data.update(seat=None, partner=None, hand=[], discarded=[], legal=[])
    return data


def action_events(
    table: TableGame, seat: int, action: TableAction, tricks_before: int, contract_before: str | None
) -> list[dict[str, Any]]:
    """The public events of ``action`` by ``seat``, just applied to ``table``.

    ``tricks_before`` and ``contract_before`` are the completed tricks and the
    contract name from before the action.  A laid-away card and the talon taken
    up are events without cards (seeds/004: "ohne sie den Gegenspielern zu zeigen").

    >>> t = TableGame.deal("dreierschnapsen", seed=8, dealer=1)
    >>> _ = t.apply("cut")
    >>> _ = t.apply("trump:s")
    >>> action_events(t, 2, TableAction.parse("trump:s"), 0, None)
    [{'type': 'trump', 'seat': 2, 'suit': 's', 'card': None}]
    """
    kind = action.kind
    events: list[dict[str, Any]] = []
    if kind in (TableActionKind.CUT, TableActionKind.KNOCK):
        events.append({"type": kind.name.lower(), "seat": seat})
    elif kind in (TableActionKind.CALL_TRUMP, TableActionKind.TURN_TRUMP):
        turned = table.turned_card.code if table.turned_card is not None else None
        letter = table.trump.letter if table.trump is not None else None  # Hearts is suit 0: test for None
        events.append({"type": "trump", "seat": seat, "suit": letter, "card": turned})
    elif kind is TableActionKind.BID:
        events.append({"type": "bid", "seat": seat, "contract": action.contract})
    elif kind is TableActionKind.PASS:
        events.append({"type": "pass", "seat": seat})
    elif kind is TableActionKind.DOUBLE:
        events.append({"type": "double", "seat": seat, "level": action.level, "name": DOUBLE_NAMES[action.level - 1]})
    elif kind is TableActionKind.DISCARD:
        events.append({"type": "discard", "seat": seat})
    elif kind in (TableActionKind.TAKE_TALON, TableActionKind.SKIP_TALON):
        events.append({"type": kind.name.lower(), "seat": seat})
    shows_marriage = kind is TableActionKind.MARRIAGE or (kind is TableActionKind.DECLARE and action.suit is not None)
    if shows_marriage:
        suit = action.card.suit if action.card is not None else action.suit
        assert suit is not None
        events.append(
            {
                "type": "marriage",
                "seat": seat,
                "suit": suit.letter,
                "cards": [Card(suit, Rank.KING).code, Card(suit, Rank.OBER).code],
                "value": 40 if suit == table.trump else 20,
            }
        )
    if kind in (TableActionKind.PLAY, TableActionKind.MARRIAGE) and action.card is not None:
        events.append({"type": "play", "seat": seat, "card": action.card.code})
    if kind is TableActionKind.DECLARE:
        events.append({"type": "declare", "seat": seat})
    if table.contract is not None and table.contract.name != contract_before:
        events.append({"type": "contract", "contract": table.contract.name, "declarer": table.declarer})
    if len(table.tricks) > tricks_before:
        t = table.tricks[-1]
        seats = trick_seats(t.leader, len(t.cards), table.active, table.variant.players)
        events.append(
            {
                "type": "trick",
                "leader": t.leader,
                "winner": t.winner,
                "cards": [{"seat": s, "card": c.code} for s, c in zip(seats, t.cards, strict=True)],
                "augen": sum(c.augen for c in t.cards),
            }
        )
    if table.result is not None:
        events.append({"type": "game_end", "result": result_to_json(table.result, table.variant.players)})
    return events
