"""A player's view: exactly what one player may know of a two-player game.

:func:`player_view` is the only place that decides what a player sees; bots,
the terminal, the web server and the bot protocol all go through it.

A player knows: their own hand; the trump suit and the trump card while it lies
under the talon (also once the talon is closed: it was seen); the number of
face-down talon cards; every card played, since tricks are played face up; the
announced marriages; which cards of the opponent's hand were shown (the other
card of a marriage, a trump card taken by exchange or as the last talon card);
once the talon is exhausted, the whole opponent hand, by elimination.  Running
Augen totals are in the view only where the variant lets players count
(weich yes, scharf no: "Abgelegte Stiche dürfen nichtmehr angesehen werden").
The view never contains the order of the talon nor an unseen opponent card.

>>> from bummerl.game import Game
>>> game = Game.deal("schnapsen", seed=1)
>>> view = game.view(0)
>>> len(view.hand), view.talon_size, view.augen
(5, 9, (0, 0))
>>> view.legal_actions() == game.legal_actions()
True
>>> Game.deal("scharf", seed=1).view(0).augen is None
True
"""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING

from bummerl.actions import Action
from bummerl.cards import Card, Suit, deck
from bummerl.game import Trick, follow_actions, lead_actions
from bummerl.variants import GameResult, TwoPlayerVariant

if TYPE_CHECKING:
    from bummerl.game import Game

__all__ = ["PlayerView", "player_view"]


@dataclasses.dataclass(frozen=True)
class PlayerView:
    """What ``player`` knows; enough to choose a legal action."""

    variant: TwoPlayerVariant
    player: int
    dealer: int
    to_move: int
    hand: tuple[Card, ...]
    trump: Suit
    #: The trump card under the talon (face up, or turned down after closing);
    #: ``None`` once it has been drawn.
    trump_card: Card | None
    talon_size: int
    closed_by: int | None
    #: How many tricks were complete when the talon was closed: the follow rules
    #: were strict from that trick on (``None`` while open).
    closed_at_trick: int | None
    #: The card led to the current trick, if any.
    lead: Card | None
    leader: int
    #: The completed tricks in order (empty for a game set up from a position).
    tricks: tuple[Trick, ...]
    #: Every card played so far, the current lead included: all were seen.
    played: frozenset[Card]
    marriages: tuple[tuple[int, Suit], ...]
    tricks_won: tuple[int, int]
    #: Both players' counted Augen, or ``None`` where the variant hides totals.
    augen: tuple[int, int] | None
    #: Cards known to be in the opponent's hand.
    opponent_known: frozenset[Card]
    opponent_hand_size: int
    first_lead_done: bool
    result: GameResult | None

    @property
    def opponent(self) -> int:
        return 1 - self.player

    @property
    def is_my_turn(self) -> bool:
        return self.result is None and self.to_move == self.player

    def unseen(self) -> frozenset[Card]:
        """Cards this player has not seen: in the talon or the opponent's hand, unknown."""
        seen = set(self.hand) | set(self.played) | set(self.opponent_known)
        if self.trump_card is not None:
            seen.add(self.trump_card)
        return frozenset(c for c in deck(self.variant.deck_size) if c not in seen)

    def legal_actions(self) -> list[Action]:
        """The legal actions, if it is this player's turn (else empty)."""
        if not self.is_my_turn:
            return []
        if self.lead is None:
            return lead_actions(
                self.variant,
                self.hand,
                self.trump,
                self.talon_size,
                self.closed_by is not None,
                self.first_lead_done,
                self.tricks_won[self.player] > 0,
            )
        strict = self.closed_by is not None or self.talon_size == 0
        return follow_actions(self.hand, self.lead, self.trump, strict)


def player_view(game: Game, player: int) -> PlayerView:
    """Build ``player``'s view of ``game``."""
    if player not in (0, 1) or isinstance(player, bool):
        raise ValueError(f"player must be seat 0 or 1, not {player!r}")
    opp = 1 - player
    known = set(game.known[opp])
    if not game.talon and game.closed_by is None:
        # Talon exhausted: every card not in my hand and not played is in the
        # opponent's hand.  After closing the talon still hides cards: no elimination.
        known = set(game.hands[opp])
    v = game.variant
    return PlayerView(
        variant=v,
        player=player,
        dealer=game.dealer,
        to_move=game.to_move,
        hand=tuple(game.hands[player]),
        trump=game.trump,
        trump_card=game.trump_card,
        talon_size=len(game.talon),
        closed_by=game.closed_by,
        closed_at_trick=game.closed_at_trick,
        lead=game.lead,
        leader=game.leader,
        tricks=tuple(game.tricks),
        played=frozenset(game.won_cards[0] + game.won_cards[1] + ([game.lead] if game.lead else [])),
        marriages=tuple(game.marriages),
        tricks_won=(game.tricks_won[0], game.tricks_won[1]),
        augen=(game.augen(0), game.augen(1)) if v.show_points or game.result is not None else None,
        opponent_known=frozenset(known),
        opponent_hand_size=len(game.hands[opp]),
        first_lead_done=game.first_lead_done,
        result=game.result,
    )
