"""A seat's view of a table game: exactly what that player may know.

:func:`table_view` is the only place that decides what a player at a three- or
four-player table sees.  A player knows their own hand (while Vorhand calls
trump, only the first three cards: seeds/004 "ohne daß man die letzten beiden
Karten angesehen hat"), the trump suit and a turned-up trump card, the whole
bidding and doubling, which contract is played by whom, every card played, the
announced marriages, cards shown to everybody (a marriage's other card, the
turned trump card, a claim, a redeal's Unter), each seat's number of cards, and
the running Augen of both sides (tricks are played face up).  The soloist of
Dreierschnapsen also knows the cards they laid away.  A view never contains a
partner's or an opponent's hidden card, nor the talon, nor the order of the pack.

>>> from bummerl.table import Table
>>> t = Table.deal("bauernschnapsen", seed=1, dealer=0)
>>> t.apply("cut")
>>> v = t.view(1)
>>> len(v.hand), v.phase.value, v.legal_actions() == t.legal_actions()
(3, 'trump', True)
>>> t.view(2).legal_actions()
[]
"""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING

from bummerl.cards import Card, Suit, deck
from bummerl.table.actions import TableAction
from bummerl.table.game import Phase, TableResult, TableTrick
from bummerl.variants.bauernschnapsen import TableVariant

if TYPE_CHECKING:
    from bummerl.table.game import Table

__all__ = ["TableView", "table_view"]


@dataclasses.dataclass(frozen=True)
class TableView:
    """What ``player`` knows; enough to choose a legal action."""

    variant: TableVariant
    player: int
    dealer: int
    vorhand: int
    phase: Phase
    to_move: int
    hand: tuple[Card, ...]
    knocked: bool | None
    trump: Suit | None
    turned_card: Card | None
    #: The bidding: ``(seat, action)`` in order.
    bids: tuple[tuple[int, TableAction], ...]
    contract: str | None
    declarer: int | None
    #: 0 none, 1 Kontra, 2 Rekontra, 3 Subkontra.
    doubling: int
    doubles: tuple[tuple[int, int], ...]
    #: Seats that play cards.
    active: tuple[int, ...]
    #: 0 declarer's side, 1 defenders (all 0 before the contract is fixed).
    side: tuple[int, ...]
    #: Cards this player laid away (only the soloist's own, Dreierschnapsen).
    discarded: tuple[Card, ...]
    talon_size: int
    trick: tuple[tuple[int, Card], ...]
    tricks: tuple[TableTrick, ...]
    tricks_won: tuple[int, ...]
    marriages: tuple[tuple[int, Suit], ...]
    #: Counted Augen of the declarer's side and of the defenders.
    augen: tuple[int, int]
    hand_sizes: tuple[int, ...]
    #: Cards known to be in each other seat's hand (own seat: empty).
    known: tuple[frozenset[Card], ...]
    result: TableResult | None
    #: The legal actions if it is this player's turn (else empty).
    legal: tuple[TableAction, ...]

    @property
    def is_my_turn(self) -> bool:
        return self.result is None and self.to_move == self.player

    @property
    def partner(self) -> int | None:
        return (self.player + 2) % 4 if self.variant.players == 4 else None

    def legal_actions(self) -> list[TableAction]:
        """The legal actions, if it is this player's turn (else empty)."""
        return list(self.legal)

    def played(self) -> frozenset[Card]:
        """Every card played so far, the current trick included."""
        cards = {c for t in self.tricks for c in t.cards}
        cards.update(c for _, c in self.trick)
        return frozenset(cards)

    def unseen(self) -> frozenset[Card]:
        """Cards this player has not seen (in other hands, the talon or laid away by another)."""
        seen = set(self.hand) | set(self.played()) | set(self.discarded)
        for k in self.known:
            seen |= k
        return frozenset(c for c in deck(self.variant.deck_size) if c not in seen)


def table_view(table: Table, seat: int) -> TableView:
    """Build ``seat``'s view of ``table``."""
    n = table.variant.players
    if seat not in range(n):
        raise ValueError(f"seat must be 0..{n - 1}, not {seat!r}")
    hand = table.hands[seat]
    if table.phase in (Phase.CUT, Phase.TRUMP) or (table.phase is Phase.OVER and table.trump is None):
        # Before the trump call every player has looked at the first three cards only.
        hand = list(table.first_three[seat])
    known = tuple(frozenset() if s == seat else frozenset(table.known[s]) for s in range(n))
    legal = tuple(table.legal_actions()) if table.result is None and table.to_move == seat else ()
    return TableView(
        variant=table.variant,
        player=seat,
        dealer=table.dealer,
        vorhand=table.vorhand,
        phase=table.phase,
        to_move=table.to_move,
        hand=tuple(hand),
        knocked=table.knocked,
        trump=table.trump,
        turned_card=table.turned_card,
        bids=tuple(table.bids),
        contract=table.contract.name if table.contract is not None else None,
        declarer=table.declarer,
        doubling=table.doubling,
        doubles=tuple(table.doubles),
        active=table.active,
        side=tuple(table.side),
        discarded=tuple(table.discarded) if seat == table.declarer else (),
        talon_size=len(table.talon),
        trick=tuple(table.trick),
        tricks=tuple(table.tricks),
        tricks_won=tuple(table.tricks_won),
        marriages=tuple(table.marriages),
        augen=(table.augen(0), table.augen(1)),
        hand_sizes=tuple(len(h) for h in table.hands),
        known=known,
        result=table.result,
        legal=legal,
    )
