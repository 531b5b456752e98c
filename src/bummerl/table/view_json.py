"""The one JSON form of a table game's view and of its public events (web server, tests).

:func:`table_view_to_json` turns a :class:`~bummerl.table.TableView` into plain
JSON data and is the only function that decides what a client of a three- or
four-player web table learns about the cards: exactly the view's content (the
own hand, never a partner's, the laid-away cards only to the Dreierschnapsen
soloist who laid them away).  ``spectator=True`` drops everything that belongs
to the seat the view was built for (hand, laid-away cards, legal actions).

>>> from bummerl.table import Table
>>> t = Table.deal("bauernschnapsen", seed=1, dealer=0)
>>> t.apply("cut")
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
from bummerl.table.game import Table, TableResult
from bummerl.table.view import TableView

__all__ = ["action_events", "result_to_json", "table_view_to_json", "trick_seats"]


def trick_seats(leader: int, count: int, active: tuple[int, ...], players: int) -> list[int]:
    """The seats that played the cards of a trick, in play order (sitting-out seats skipped).

    >>> trick_seats(3, 3, (0, 1, 3), 4)
    [3, 0, 1]
    """
    seats = [leader]
    s = leader
    while len(seats) < count:
        s = (s + 1) % players
        if s in active:
            seats.append(s)
    return seats


def result_to_json(result: TableResult, players: int) -> dict[str, Any]:
    """A game's result: contract, declarer, winners, points each, reason, Augen (declarer's side first)."""
    return {
        "contract": result.contract,
        "declarer": result.declarer,
        "winners": list(result.winners),
        "points": result.points,
        "points_by_seat": [result.points_of(s) for s in range(players)],
        "reason": result.reason.value,
        "augen": list(result.augen),
        "multiplier": result.multiplier,
    }


def table_view_to_json(view: TableView, spectator: bool = False) -> dict[str, Any]:
    """``view`` as JSON; with ``spectator`` without the seat's own cards and actions."""
    n = view.variant.players
    tricks = [
        {
            "leader": t.leader,
            "winner": t.winner,
            "cards": [
                {"seat": s, "card": c.code}
                for s, c in zip(trick_seats(t.leader, len(t.cards), view.active, n), t.cards, strict=True)
            ],
        }
        for t in view.tricks
    ]
    return {
        "variant": view.variant.name,
        "players": n,
        "seat": None if spectator else view.player,
        "partner": None if spectator else view.partner,
        "dealer": view.dealer,
        "vorhand": view.vorhand,
        "phase": view.phase.value,
        "to_move": None if view.result is not None else view.to_move,
        "hand": [] if spectator else [c.code for c in view.hand],
        "knocked": view.knocked,
        "trump": view.trump.letter if view.trump is not None else None,
        # The trump of the card play: none in contracts without trump (Bettler, Gang, ...).
        "play_trump": (
            view.trump.letter
            if view.trump is not None and (view.contract is None or view.variant.contract(view.contract).trump)
            else None
        ),
        "turned_card": view.turned_card.code if view.turned_card is not None else None,
        "bids": [{"seat": s, "action": a.token} for s, a in view.bids],
        "contract": view.contract,
        "declarer": view.declarer,
        "doubling": view.doubling,
        "doubles": [{"seat": s, "level": lv} for s, lv in view.doubles],
        "active": list(view.active),
        "side": list(view.side),
        "discarded": [] if spectator else [c.code for c in view.discarded],
        "talon_size": view.talon_size,
        "trick": [{"seat": s, "card": c.code} for s, c in view.trick],
        "tricks": tricks,
        "tricks_won": list(view.tricks_won),
        "marriages": [{"seat": s, "suit": suit.letter} for s, suit in view.marriages],
        "augen": list(view.augen),
        "hand_sizes": list(view.hand_sizes),
        "known": [sorted(c.code for c in k) for k in view.known],
        "result": result_to_json(view.result, n) if view.result is not None else None,
        "legal": [] if spectator else [a.token for a in view.legal],
    }


def action_events(
    table: Table, seat: int, action: TableAction, tricks_before: int, contract_before: str | None
) -> list[dict[str, Any]]:
    """The public events of ``action`` by ``seat``, just applied to ``table``.

    ``tricks_before`` and ``contract_before`` are the completed tricks and the
    contract name from before the action.  A laid-away card and the talon taken
    up are events without cards (seeds/004: "ohne sie den Gegenspielern zu zeigen").

    >>> t = Table.deal("dreierschnapsen", seed=8, dealer=1)
    >>> t.apply("cut")
    >>> t.apply("trump:s")
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
