"""A seat's view: exactly what one player may know of a game, for 2, 3 and 4 players.

This module holds the view types; each is built by one function next to the state it reads,
:func:`bummerl.two_player.player_view` (two-player games) and
:func:`bummerl.table_game.table_view` (the table games): the only places that decide what a
player sees; bots, the terminal, the web server and the bot protocol all go through them
(``game.view(seat)``).  This module imports the rules and the variants, never an engine.  Both
kinds of view answer the same questions a bot asks first — ``player``,
``variant``, ``hand``, ``to_move``, ``legal_actions()``, ``result`` — and each
adds what its family's decisions need (:class:`View` names the common part).

**Two players.**
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

**The table games.** :func:`table_view` is the only place that decides what a player at a three- or
four-player table sees.  A player knows their own hand (while Vorhand calls
trump, only the first three cards: seeds/004 "ohne daß man die letzten beiden
Karten angesehen hat"), the trump suit and a turned-up trump card, the whole
bidding and doubling, which contract is played by whom, every card played, the
announced marriages, cards shown to everybody (a marriage's other card, the
turned trump card, a claim, a redeal's Unter), each seat's number of cards, and
the running Augen of both sides (tricks are played face up).  The soloist of
Dreierschnapsen also knows the cards they laid away.  A view never contains a
partner's or an opponent's hidden card, nor the talon, nor the order of the pack.

>>> from bummerl.table_game import TableGame
>>> t = TableGame.deal("bauernschnapsen", seed=1, dealer=0)
>>> _ = t.apply("cut")
>>> v = t.view(1)
>>> len(v.hand), v.phase.value, v.legal_actions() == t.legal_actions()
(3, 'trump', True)
>>> t.view(2).legal_actions()
[]
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import NamedTuple, Protocol

from bummerl.actions import Action
from bummerl.cards import Card, Suit, deck
from bummerl.rules.result import Result
from bummerl.rules.talon import follow_actions, lead_actions
from bummerl.rules.tricks import CompletedTrick, TableTrick, Trick
from bummerl.variants import GameResult, TwoPlayerVariant, Variant
from bummerl.variants.bauernschnapsen import Phase, TableResult, TableVariant


class View(Protocol):
    """What every view answers: whose it is, of which game, the hand, the trump, whose turn, what was played,
    the legal actions, the end.  Each family's view (:class:`PlayerView`, :class:`TableView`) adds what its
    decisions need; ``Game.view`` returns a :class:`View`, each engine's its own type."""

    @property
    def player(self) -> int: ...

    @property
    def variant(self) -> Variant: ...

    @property
    def dealer(self) -> int: ...

    @property
    def hand(self) -> tuple[Card, ...]: ...

    #: The trump suit (``None`` at a table before it is called).
    @property
    def trump(self) -> Suit | None: ...

    @property
    def to_move(self) -> int: ...

    @property
    def is_my_turn(self) -> bool: ...

    @property
    def tricks(self) -> Sequence[CompletedTrick]: ...

    @property
    def marriages(self) -> tuple[tuple[int, Suit], ...]: ...

    @property
    def result(self) -> Result | None: ...

    @property
    def legal(self) -> tuple[Action, ...]: ...

    def legal_actions(self) -> list[Action]: ...

    def unseen(self) -> frozenset[Card]:
        """The cards this player has not seen."""
        ...


__all__ = ["MatchContext", "PlayerView", "TableView", "View", "with_match"]


@dataclasses.dataclass(frozen=True)
class MatchContext:
    """Where a two-player game stands in its match: set by whoever runs the match, ``None`` for a single game.

    A game does not know its match (a position or a deal is one game), so the
    runner of the match (the arena with ``--unit bummerl``, the terminal, the
    server, a protocol host) puts this into each view it hands a bot
    (:func:`with_match`, :meth:`bummerl.match.Match.context`).  Nothing in it is
    hidden from either player: it is the score on the table.

    * ``kind``: ``"bummerl"`` (game points, counted down from ``target``;
      Schnapsen and Sechsundsechzig) or ``"marken"`` (Schnorps: Marken counted
      up to ``target``);
    * ``target``: the points (Marken) that win the match (7 by default);
    * ``needed``: the points (Marken) each seat still needs, by seat, each
      between 1 and ``target`` (a seat that needs 0 has won and the match is over);
    * ``schneider``: whether a match won while the loser has scored nothing
      counts double (the Bummerl's "Schneider", seeds/000; Marken matches know none);
    * ``multiplier``: what this game's points are multiplied by in the match
      (Schnorps after stands: 2 ** stands in a row, seeds/001; otherwise 1).

    >>> ctx = MatchContext("bummerl", 7, (1, 7), True, 1)
    >>> ctx.schneider_possible(1), ctx.schneider_possible(0), ctx.won(0)
    (True, False, 6)
    >>> MatchContext("bummerl", 7, (0, 3), True, 1)
    Traceback (most recent call last):
    ...
    ValueError: needed must be between 1 and the target 7 for each seat, not (0, 3)
    """

    kind: str
    target: int
    needed: tuple[int, int]
    schneider: bool = True
    multiplier: int = 1

    KINDS = ("bummerl", "marken")

    def __post_init__(self) -> None:
        if self.kind not in self.KINDS:
            raise ValueError(f"a match is of kind 'bummerl' or 'marken', not {self.kind!r}")
        if not isinstance(self.target, int) or isinstance(self.target, bool) or not 1 <= self.target <= 10_000:
            raise ValueError(f"target must be an integer from 1 to 10000, not {self.target!r}")
        needed = self.needed
        if (
            not isinstance(needed, tuple)
            or len(needed) != 2
            or not all(isinstance(n, int) and not isinstance(n, bool) and 1 <= n <= self.target for n in needed)
        ):
            raise ValueError(f"needed must be between 1 and the target {self.target} for each seat, not {needed!r}")
        if not isinstance(self.schneider, bool):
            raise ValueError(f"schneider must be true or false, not {self.schneider!r}")
        if self.kind == "marken" and self.schneider:
            raise ValueError("a Marken match knows no Schneider")
        m = self.multiplier
        if not isinstance(m, int) or isinstance(m, bool) or m < 1 or m > 1 << 20 or m & (m - 1):
            raise ValueError(f"multiplier must be a power of two from 1 to 2**20, not {m!r}")

    def won(self, seat: int) -> int:
        """Points (Marken) ``seat`` has won in this match so far."""
        return self.target - self.needed[seat]

    def schneider_possible(self, seat: int) -> bool:
        """Whether ``seat`` can still lose this match Schneider (it has scored nothing and Schneider counts)."""
        return self.schneider and self.needed[seat] == self.target


def with_match(view: PlayerView, match: MatchContext | None) -> PlayerView:
    """``view`` with the match context ``match`` (what a match runner gives its bots).

    >>> from bummerl.game import Game
    >>> view = with_match(Game.deal("schnapsen", seed=1).view(0), MatchContext("bummerl", 7, (3, 5)))
    >>> view.match.needed, view.hand == Game.deal("schnapsen", seed=1).view(0).hand
    ((3, 5), True)
    """
    return view._replace(match=match)


class PlayerView(NamedTuple):
    """What ``player`` knows; enough to choose a legal action.

    A named tuple rather than a dataclass: a bot gets a view at every decision,
    and a tuple is made five times faster than a frozen dataclass (the
    bot-facing speed of ``bench/engine.py``'s ``selfplay`` column).
    """

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
    #: The legal actions if it is this player's turn (else empty), in the order of
    #: :meth:`~bummerl.game.Game.legal_actions`: generated once per decision, shared
    #: with the game (a tuple: nobody can change it).
    legal: tuple[Action, ...]
    #: The match this game is part of (:class:`MatchContext`), set by the match's runner
    #: (:func:`with_match`); ``None`` for a single game and in ``game.view(seat)``.
    match: MatchContext | None = None

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
        """The legal actions, if it is this player's turn (else empty): :attr:`legal` as a list of one's own."""
        return list(self.legal)

    def compute_legal(self) -> tuple[Action, ...]:
        """The legal actions worked out from the view's other fields, with the game's rule functions.

        For a view made without a game (:func:`bummerl.view_json.view_from_json`
        fills :attr:`legal` with it); :func:`player_view` takes the game's own.
        """
        if not self.is_my_turn:
            return ()
        if self.lead is None:
            return tuple(
                lead_actions(
                    self.variant,
                    self.hand,
                    self.trump,
                    self.talon_size,
                    self.closed_by is not None,
                    self.first_lead_done,
                    self.tricks_won[self.player] > 0,
                )
            )
        strict = self.closed_by is not None or self.talon_size == 0
        return tuple(follow_actions(self.hand, self.lead, self.trump, strict))


# ------------------------------------------------------------------ the table games
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
    bids: tuple[tuple[int, Action], ...]
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
    legal: tuple[Action, ...]

    @property
    def is_my_turn(self) -> bool:
        return self.result is None and self.to_move == self.player

    @property
    def partner(self) -> int | None:
        return (self.player + 2) % 4 if self.variant.players == 4 else None

    def legal_actions(self) -> list[Action]:
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
