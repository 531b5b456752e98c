"""The engine of the two-player games: the talon, exchanging, Zudrehen, two seats.

>>> game = TwoPlayerGame.deal("schnapsen", seed=7)
>>> game.to_move, len(game.hands[0]), game.talon_size
(0, 5, 9)
>>> while not game.is_over:
...     events = game.apply(game.legal_actions()[0])
>>> game.result.winner in (0, 1), type(events[-1]).__name__
(True, 'GameEnd')
>>> TwoPlayerGame.deal("schnapsen", seed=7).hands == TwoPlayerGame.deal("schnapsen", seed=7).hands
True

:class:`TwoPlayerGame` is the :class:`~bummerl.game.Game` of Schnapsen (weich,
scharf), Sechsundsechzig and Schnorps; the interface, the factories and the
named triples common to every variant are :class:`~bummerl.game.Game`'s.

Players are seats ``0`` and ``1``; ``dealer`` deals, the other seat is Vorhand
and leads first (seeds/000: "Vorhand spielt zum ersten Stich aus").  Every
action comes as a triple in the manner of PokerKit — ``can_play(card)`` (a
bool), ``verify_play(card)`` (raises :class:`IllegalActionError` naming the
rule) and ``play(card)`` (does it) — and generically as
``can_apply/verify/apply(action)``; ``refusal(action)`` returns the rule and
the reason instead of raising, and ``apply`` returns the :mod:`~bummerl.events`
the action caused.  A refused action leaves the game exactly as it
was.  Each rule is one function of :mod:`bummerl.rules.talon` (exchanging, closing,
marriages, going out; the follow rules are :mod:`bummerl.rules.tricks`'): it answers
both "is it legal", for :meth:`TwoPlayerGame.legal_actions` and views, and "why not",
for the errors.  :func:`player_view` builds a seat's view.

The engine does no I/O, keeps no global state and uses no randomness it was not
given: :meth:`~bummerl.game.Game.deal` shuffles with the seeded generator of
:mod:`bummerl.rng`.  It enters itself in :data:`bummerl.engine.ENGINES` under
``TwoPlayerVariant.FAMILY``; it never imports the other engine, the game module
or anything above them.  (The module keeps its path ``bummerl.two_player``, as
``bummerl.table_game`` does: the import contract in pyproject.toml states the
engine layer, and a move into a package would only rename 90 importers.)
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from bummerl.actions import CLOSE, EXCHANGE, TWO_PLAYER_ACTIONS, Action, ActionKind
from bummerl.cards import CARDS, Card, Rank, Suit, card_order, deck, marriage_value
from bummerl.core import twin
from bummerl.engine import Game, register_engine
from bummerl.errors import BummerlError, PositionError, Refusal, Rule
from bummerl.events import Close, Declare, Draw, Event, Exchange, GameEnd, Marriage, Play
from bummerl.events import Trick as TrickEvent
from bummerl.position import TwoPlayerPosition
from bummerl.rules.going_out import counted_augen
from bummerl.rules.talon import (
    LEAD_KINDS,
    follow_actions,
    lead_actions,
    lead_refusal,
)
from bummerl.rules.tricks import FollowRules, Trick, follow_refusal
from bummerl.variants.two_player import GameResult, TwoPlayerVariant
from bummerl.view import PlayerView

if TYPE_CHECKING:
    from bummerl.core._core import State

__all__ = ["TwoPlayerGame", "player_view"]

_KING, _OBER = Rank.KING, Rank.OBER
_PLAY_KIND = ActionKind.PLAY
_STRICT = FollowRules.STRICT

_GAME_OVER: Refusal = (Rule.GAME_OVER, "the game is over")
#: The events that need no new object, by seat and card index: made once (see :meth:`TwoPlayerGame._play`).
_PLAY_EVENTS: tuple[tuple[Play, ...], ...] = tuple(tuple(Play(seat, c) for c in CARDS) for seat in (0, 1))
_DRAW_EVENTS: tuple[tuple[Draw, ...], ...] = tuple(tuple(Draw(seat, c) for c in CARDS) for seat in (0, 1))
_CLOSE_EVENTS: tuple[Close, ...] = (Close(0), Close(1))
_new_tuple = tuple.__new__


class TwoPlayerGame(Game):
    """A two-player game from the deal to its result.

    Build one with :meth:`~bummerl.game.Game.deal` (a seed) or
    :meth:`~bummerl.game.Game.from_deck` (an explicit pack order, e.g. from a
    record).  Read the state through the attributes; change it only through actions.

    **The compiled twin.**  Where the compiled core is built (:mod:`bummerl.core`) and ``BUMMERL_PURE=1`` is not
    set at the deal, a ``State`` dealt from the same pack (``_core``) follows every action applied and generates
    the legal actions (:meth:`legal_tuple`, and so :meth:`legal_actions`, the views' ``legal`` and the check in
    :meth:`apply`), as the engine's own :class:`~bummerl.actions.Action` objects in one C call.  Everything else,
    events, views, results, positions and every attribute that bots, the solver and the server read, stays this
    Python code's, so they are the reference's objects by construction; ``tests/test_core_game.py`` and
    ``bench/core_api_diff.py`` compare the legal lists with the Python rules' object for object.  Why a twin
    and not a game whose state is the ``State``: the core answers numbers, not the hands, talon and tricks that
    views, events and these attributes are made of, and building those from C fields at every decision would
    cost most of what a step costs.  What the twin saves is the generation of the legal actions, ~1.4 µs of a
    ~3 µs Schnapsen step in Python, ~0.06 µs in C (bench/core_game.py: 1.3 times the Python rules' ``Game.apply``
    steps, 1.2 times their random selfplay through views; docs/rl.md).

    Where the twin cannot follow, the game plays on the Python rules alone (``_core`` is ``None``): a position
    read by :meth:`read_position` (no deal), a deal under ``BUMMERL_PURE=1`` or of a variant that no core plays
    (:func:`bummerl.core.twin`), a game whose attributes were edited by hand, which white-box code says by
    clearing the cached legal actions (``game._legal = None``, as tests/test_solver.py does: the :attr:`_legal`
    setter drops the twin, which did not see the edit), and a game whose talon was reordered in place
    (bummerl.rl.openspiel's chance nodes choose the cards drawn so), which :meth:`apply` notices before the draw.
    ``pickle`` and ``copy.deepcopy`` carry the game without its twin (:meth:`bummerl.engine.Game.__getstate__`).
    """

    __slots__ = (
        "_cache",
        "_core",
        "_dealt",
        "actions",
        "closed_at_trick",
        "closed_by",
        "closed_opponent_augen",
        "closed_opponent_had_trick",
        "dealer",
        "deck",
        "first_lead_done",
        "hands",
        "known",
        "lead",
        "leader",
        "marriage_augen",
        "marriages",
        "result",
        "talon",
        "to_move",
        "trick_augen",
        "tricks",
        "tricks_won",
        "trump",
        "trump_card",
        "variant",
        "won_cards",
    )

    variant: TwoPlayerVariant
    #: The pack order of the deal (top card first): the chance player's action.
    deck: tuple[Card, ...]
    dealer: int
    #: Both hands, in the order the cards were received.
    hands: list[list[Card]]
    #: The face-down talon; the next card to draw is the *last* element.
    talon: list[Card]
    trump: Suit
    #: The face-up trump card under the talon (changes on exchange); ``None`` once
    #: drawn.  After closing it stays here, turned face down, known to both.
    trump_card: Card | None
    closed_by: int | None
    closed_opponent_augen: int
    closed_opponent_had_trick: bool
    #: How many tricks were complete when the talon was closed (``None`` if open).
    closed_at_trick: int | None
    to_move: int
    leader: int
    #: The card led to the current trick, if any.
    lead: Card | None
    trick_augen: list[int]
    marriage_augen: list[int]
    tricks_won: list[int]
    won_cards: list[list[Card]]
    tricks: list[Trick]
    #: Announced marriages in order: ``(player, suit)``.
    marriages: list[tuple[int, Suit]]
    #: Cards in each hand that the *other* player knows (shown marriage partners,
    #: trump cards taken by exchange or as the last card of the talon).
    known: list[set[Card]]
    #: Every action so far, in order (the deal is :attr:`deck`).
    actions: list[Action]
    result: GameResult | None
    first_lead_done: bool
    #: The legal actions of this position once generated (``None``: not yet); white-box code uses :attr:`_legal`.
    _cache: tuple[Action, ...] | None
    #: The compiled twin (the class docstring), or ``None``: the Python rules alone.
    _core: State | None
    #: The pack order the twin was dealt (``deck`` may be rewritten: bummerl.rl.openspiel does, with the talon).
    _dealt: tuple[Card, ...]

    # ------------------------------------------------------------------ setup
    def __init__(self, variant: TwoPlayerVariant, deck_order: Iterable[Card], dealer: int = 1) -> None:
        v = variant
        order = tuple(deck_order)
        pack = _PACK_SETS.get(v.deck_size) or _pack(v.deck_size)[1]
        if len(order) != len(pack) or pack != set(order):
            _check_deck(v, order)  # raises, naming what is wrong
        # bool is an int: without the check a dealer ``True`` would be written as "True" in records.
        if dealer not in (0, 1) or isinstance(dealer, bool):
            raise ValueError(f"dealer must be seat 0 or 1, not {dealer!r}")
        self.variant = v
        self.deck = order
        self.dealer = dealer
        vorhand = 1 - dealer
        deal = _DEALS.get(v.deal) or _deal_plan(v.deal)
        hands: list[list[Card]] = [[], []]
        hands[vorhand] = [order[i] for i in deal[0]]
        hands[dealer] = [order[i] for i in deal[1]]
        trump_card = order[deal[2]]
        self.hands = hands
        self.talon = list(reversed(order[deal[3] :]))
        self.trump = trump_card.suit
        self.trump_card = trump_card
        self.closed_by = None
        self.closed_opponent_augen = 0
        self.closed_opponent_had_trick = False
        self.closed_at_trick = None
        self.to_move = vorhand
        self.leader = vorhand
        self.lead = None
        self.trick_augen = [0, 0]
        self.marriage_augen = [0, 0]
        self.tricks_won = [0, 0]
        self.won_cards = [[], []]
        self.tricks = []
        self.marriages = []
        self.known = [set(), set()]
        self.actions = []
        self.result = None
        self.first_lead_done = False
        self._cache = None
        tw = twin(v)
        self._core = None if tw is None else tw.first.new_deal([c.index for c in order], dealer)
        self._dealt = order

    def position(self) -> str:
        """The one-line position (see :mod:`bummerl.position`)."""
        if self.result is not None:
            raise PositionError("a finished game has no position; use its record")
        closed = None
        if self.closed_by is not None:
            closed = (self.closed_by, self.closed_opponent_augen, self.closed_opponent_had_trick)
        return TwoPlayerPosition(
            self.variant,
            self.dealer,
            self.to_move,
            self.trump,
            self.trump_card,
            self.hands,
            self.known,
            self.talon,
            closed,
            self.lead,
            self.won_cards,
            self.marriages,
        ).text()

    @classmethod
    def read_position(cls, text: str) -> TwoPlayerGame:
        """The game of a one-line position (:class:`~bummerl.position.TwoPlayerPosition`); no trick history."""
        pos = TwoPlayerPosition.parse(text)
        variant, dealer, to_move, trump, trump_card, hands, known, talon, closed, lead, won, marriages = pos
        g = object.__new__(cls)
        g.variant = variant
        g.deck = ()
        g.dealer = dealer
        g.hands = hands
        g.talon = talon
        g.trump = trump
        g.trump_card = trump_card
        g.closed_by, g.closed_opponent_augen, g.closed_opponent_had_trick = closed or (None, 0, False)
        # A position has no trick history: closing counts as before the first listed trick.
        g.closed_at_trick = None if g.closed_by is None else 0
        g.to_move = to_move
        g.leader = pos.leader
        g.lead = lead
        g.trick_augen = [sum(c.augen for c in won[0]), sum(c.augen for c in won[1])]
        g.marriage_augen = [0, 0]
        for p, s in marriages:
            g.marriage_augen[p] += marriage_value(s, trump)
        g.tricks_won = [len(won[0]) // 2, len(won[1]) // 2]
        g.won_cards = won
        g.tricks = []
        g.marriages = marriages
        g.known = known
        g.actions = []
        g.result = None
        g.first_lead_done = bool(won[0] or won[1] or lead)
        g._cache = None
        g._core = None  # a position has no deal to give the twin
        g._dealt = ()
        return g

    def copy(self) -> TwoPlayerGame:
        """An independent copy (for search)."""
        g = object.__new__(self.__class__)
        g.variant = self.variant
        g.deck = self.deck
        g.dealer = self.dealer
        g.hands = [self.hands[0][:], self.hands[1][:]]
        g.talon = self.talon[:]
        g.trump = self.trump
        g.trump_card = self.trump_card
        g.closed_by = self.closed_by
        g.closed_opponent_augen = self.closed_opponent_augen
        g.closed_opponent_had_trick = self.closed_opponent_had_trick
        g.closed_at_trick = self.closed_at_trick
        g.to_move = self.to_move
        g.leader = self.leader
        g.lead = self.lead
        g.trick_augen = self.trick_augen[:]
        g.marriage_augen = self.marriage_augen[:]
        g.tricks_won = self.tricks_won[:]
        g.won_cards = [self.won_cards[0][:], self.won_cards[1][:]]
        g.tricks = self.tricks[:]
        g.marriages = self.marriages[:]
        g.known = [set(self.known[0]), set(self.known[1])]
        g.actions = self.actions[:]
        g.result = self.result
        g.first_lead_done = self.first_lead_done
        g._cache = self._cache
        core = self._core
        g._core = None if core is None else core.copy()
        g._dealt = self._dealt
        return g

    @property
    def _legal(self) -> tuple[Action, ...] | None:
        """The cached legal actions (``None``: not generated yet), for white-box code; setting it drops the compiled
        twin (the class docstring).  The engine reads and writes ``_cache``: a property costs at every step."""
        return self._cache

    @_legal.setter
    def _legal(self, legal: tuple[Action, ...] | None) -> None:
        self._cache = legal
        self._core = None

    # ------------------------------------------------------------ properties
    @property
    def vorhand(self) -> int:
        """The seat that led first."""
        return 1 - self.dealer

    @property
    def talon_size(self) -> int:
        """Face-down talon cards (the face-up trump card not counted)."""
        return len(self.talon)

    @property
    def is_closed(self) -> bool:
        return self.closed_by is not None

    @property
    def strict(self) -> bool:
        """Whether Farbzwang and Stichzwang apply (talon closed or exhausted)."""
        return self.closed_by is not None or not self.talon

    def side_of(self, seat: int) -> int:
        return seat  # each player is a side

    def augen(self, player: int) -> int:
        """Counted Augen: tricks plus marriages, these only once a trick is won."""
        return counted_augen(self.trick_augen[player], self.marriage_augen[player], self.tricks_won[player] > 0)

    # ------------------------------------------------------------ generation
    def legal_actions(self) -> list[Action]:
        """The legal actions of :attr:`to_move` (empty once the game is over).

        The list is the caller's own: changing it does not touch the game.
        """
        legal = self._cache
        # A copy: the cache is shared with views (see legal_tuple).
        return list(self.legal_tuple() if legal is None else legal)

    def legal_tuple(self) -> tuple[Action, ...]:
        """:meth:`legal_actions` as a tuple, generated once per position and shared.

        The view of the player to move carries it (:attr:`bummerl.view.PlayerView.legal`),
        and :meth:`apply` checks an action against it, so a bot's decision
        generates the legal actions once.
        """
        legal = self._cache
        if legal is not None:
            return legal
        core = self._core
        if core is not None:
            legal = self._cache = core.legal_actions(TWO_PLAYER_ACTIONS)  # the two-player core numbers by code
            return legal
        if self.result is not None:
            legal = ()
        else:
            p = self.to_move
            lead = self.lead
            if lead is None:
                legal = tuple(
                    lead_actions(
                        self.variant,
                        self.hands[p],
                        self.trump,
                        len(self.talon),
                        self.closed_by is not None,
                        self.first_lead_done,
                        self.tricks_won[p] > 0,
                    )
                )
            else:
                # ``self.strict`` inlined: this runs for every action.
                strict = self.closed_by is not None or not self.talon
                legal = tuple(follow_actions(self.hands[p], lead, self.trump, strict))
        self._cache = legal
        return legal

    # ---------------------------------------------------------- generic triple
    def can_apply(self, action: Action | str) -> bool:
        """Whether ``action`` is legal now."""
        return (Action.parse(action) if isinstance(action, str) else action) in self.legal_tuple()

    def verify(self, action: Action | str) -> None:
        """Raise :class:`IllegalActionError` naming the broken rule, unless legal."""
        action = Action.parse(action) if isinstance(action, str) else action
        if action not in self.legal_tuple():
            raise self._refuse(action)

    def refusal(self, action: Action | str) -> Refusal | None:
        """The rule ``action`` breaks now and why, or ``None`` if it is legal.

        Asks the same rule functions that generate :meth:`legal_actions`
        (:func:`exchange_refusal`, :func:`close_refusal`, :func:`marriage_refusal`,
        :func:`marriage_card_refusal`, :func:`declare_refusal`, and
        :func:`bummerl.rules.tricks.follow_refusal` for a card that follows).
        """
        if isinstance(action, str):
            action = Action.parse(action)
        if self.result is not None:
            return _GAME_OVER
        p = self.to_move
        hand = self.hands[p]
        kind = action.kind
        if kind is _PLAY_KIND:
            card = action.card
            assert card is not None
            if card not in hand:
                return Rule.NOT_IN_HAND, f"player {p} does not hold {card.code}"
            lead = self.lead
            if lead is None:
                return None
            rules = FollowRules.STRICT if self.strict else FollowRules.FREE
            return follow_refusal(card, hand, (lead,), self.trump, rules)
        if kind not in LEAD_KINDS:
            return Rule.NOT_AVAILABLE, f"{action.token} is not possible now"
        if self.lead is not None:
            return Rule.NOT_ON_LEAD, f"{action.token} is only possible before leading to a trick"
        return lead_refusal(
            action,
            (
                self.variant,
                hand,
                self.trump,
                len(self.talon),
                self.closed_by is not None,
                self.first_lead_done,
                self.tricks_won[p] > 0,
            ),
        )

    def apply(self, action: Action | str) -> tuple[Event, ...]:
        """Do ``action`` (an :class:`Action` or its token) and return what happened, or raise without change."""
        if isinstance(action, str):
            action = Action.parse(action)
        try:
            kind = action.kind
        except AttributeError:
            raise BummerlError(f"not an action: {action!r} (use an Action or its token)") from None
        p = self.to_move
        legal = self._cache
        if legal is not None:
            ok = action in legal
        elif kind is _PLAY_KIND and self.result is None and (self.lead is None or not self.strict):
            # Leading, or following to an open talon, any card in hand may be
            # played: no need to generate the whole list (replays, bots on views).
            ok = action.card in self.hands[p]
        else:
            ok = action in self.legal_tuple()
        if not ok:
            raise self._refuse(action)
        self._cache = None
        core = self._core
        if core is not None:
            # A card that completes a trick may draw from the talon, which must still be the dealt one:
            # bummerl.rl.openspiel's chance nodes reorder it in place, and the twin, which would draw other cards,
            # is dropped before it could answer wrongly.
            if self.lead is None or _next_draws_dealt(self.talon, self._dealt):
                core.apply(action.code)
            else:
                self._core = None
        self.actions.append(action)
        if kind is _PLAY_KIND:
            return self._play(p, action.card)  # type: ignore[arg-type]
        if kind is ActionKind.MARRIAGE:
            card: Card = action.card  # type: ignore[assignment]
            shown = self._announce(p, card.suit)
            if self.variant.auto_declare and self.tricks_won[p] and self.augen(p) >= self.variant.target:
                # The marriage brought 66: the game ends before the card is led.
                return (shown, Declare(p), self._finish_declaration(p))
            return (shown, *self._play(p, card))
        if kind is ActionKind.EXCHANGE:
            return (self._exchange(p),)
        if kind is ActionKind.CLOSE:
            self._close(p)
            return (_CLOSE_EVENTS[p],)
        if action.suit is not None:
            return (self._announce(p, action.suit), Declare(p, action.suit), self._finish_declaration(p))
        return (Declare(p), self._finish_declaration(p))

    # -------------------------------------------- named triples of the talon
    def can_exchange_trump(self) -> bool:
        return self.can_apply(EXCHANGE)

    def verify_exchange_trump(self) -> None:
        self.verify(EXCHANGE)

    def exchange_trump(self) -> tuple[Event, ...]:
        """Swap the lowest trump in hand for the face-up trump card (Austauschen)."""
        return self.apply(EXCHANGE)

    def can_close_talon(self) -> bool:
        return self.can_apply(CLOSE)

    def verify_close_talon(self) -> None:
        self.verify(CLOSE)

    def close_talon(self) -> tuple[Event, ...]:
        """Close the talon (Zudrehen, Schnorps: Decken)."""
        return self.apply(CLOSE)

    # -------------------------------------------------------------- doing it
    def _play(self, p: int, card: Card) -> tuple[Event, ...]:
        # The engine's innermost step: state is read into locals once, and the events
        # that need no new object (a card played, a card drawn) are interned.
        hands = self.hands
        hands[p].remove(card)
        known = self.known[p]
        if known:
            known.discard(card)
        lead = self.lead
        played = _PLAY_EVENTS[p][card.index]
        if lead is None:
            self.lead = card
            self.leader = p
            self.to_move = 1 - p
            self.first_lead_done = True
            return (played,)
        leader = self.leader
        suit = card.suit
        if suit == lead.suit:
            winner = p if card.rank > lead.rank else leader
        else:
            winner = p if suit == self.trump else leader
        augen = lead.augen + card.augen
        self.trick_augen[winner] += augen
        self.tricks_won[winner] += 1
        won = self.won_cards[winner]
        won.append(lead)
        won.append(card)
        self.tricks.append(Trick((leader, lead, card, winner)))
        self.lead = None
        self.to_move = self.leader = winner
        # tuple.__new__: the named tuple's own __new__ is a Python call, twice as slow.
        trick = _new_tuple(TrickEvent, (leader, ((leader, lead), (p, card)), winner, augen))
        talon = self.talon
        winner_hand = hands[winner]
        if talon and self.closed_by is None:
            # seeds/000: "Der Spieler, der den Stich gewonnen hat, nimmt die oberste
            # Karte des Talons, sein Gegner die folgende"; the face-up trump card
            # is the last card and goes to the loser.
            drawn = talon.pop()
            winner_hand.append(drawn)
            loser = 1 - winner
            if talon:
                second = talon.pop()
                hands[loser].append(second)
                events: tuple[Event, ...] = (
                    played,
                    trick,
                    _DRAW_EVENTS[winner][drawn.index],
                    _DRAW_EVENTS[loser][second.index],
                )
            else:
                tc = self.trump_card
                assert tc is not None
                hands[loser].append(tc)
                self.known[loser].add(tc)
                self.trump_card = None
                events = (played, trick, _DRAW_EVENTS[winner][drawn.index], Draw(loser, tc, face_up=True))
        else:
            events = (played, trick)
        v = self.variant
        if not winner_hand:
            if v.last_trick_bonus and self.closed_by is None:
                self.trick_augen[winner] += v.last_trick_bonus
            result = self.result = v.score_end_of_cards(self, winner)
            return (*events, GameEnd(result))
        if v.auto_declare and self.augen(winner) >= v.target:
            return (*events, Declare(winner), self._finish_declaration(winner))
        return events

    def _announce(self, p: int, suit: Suit) -> Marriage:
        value = marriage_value(suit, self.trump)
        self.marriage_augen[p] += value
        self.marriages.append((p, suit))
        self.known[p].add(CARDS[suit * 8 + _KING])
        self.known[p].add(CARDS[suit * 8 + _OBER])
        return Marriage(p, suit, value)

    def _exchange(self, p: int) -> Exchange:
        low = Card(self.trump, self.variant.exchange_rank)
        face_up = self.trump_card
        assert face_up is not None
        hand = self.hands[p]
        hand[hand.index(low)] = face_up
        self.known[p].add(face_up)
        self.trump_card = low
        return Exchange(p, face_up, low)

    def _close(self, p: int) -> None:
        opp = 1 - p
        self.closed_by = p
        self.closed_opponent_augen = self.augen(opp)
        self.closed_opponent_had_trick = self.tricks_won[opp] > 0
        self.closed_at_trick = len(self.tricks)

    def _finish_declaration(self, p: int) -> GameEnd:
        result = self.result = self.variant.score_declaration(self, p)
        return GameEnd(result)

    # --------------------------------------------------------------- errors
    # ------------------------------------------------------------------ misc
    def view(self, player: int) -> PlayerView:
        """What ``player`` may know; see :func:`player_view`."""
        return player_view(self, player)

    def __repr__(self) -> str:
        if self.result is not None:
            return f"<TwoPlayerGame {self.variant.name} over: {self.result}>"
        return f"Game.from_position({self.position()!r})"


def player_view(game: TwoPlayerGame, player: int) -> PlayerView:
    """Build ``player``'s view of ``game``: the one place that decides what a player of a two-player game sees
    (:mod:`bummerl.view` says what that is)."""
    if player not in (0, 1) or isinstance(player, bool):
        raise ValueError(f"player must be seat 0 or 1, not {player!r}")
    opp = 1 - player
    hands = game.hands
    talon_size = len(game.talon)
    closed_by = game.closed_by
    if not talon_size and closed_by is None:
        # Talon exhausted: every card not in my hand and not played is in the
        # opponent's hand.  After closing the talon still hides cards: no elimination.
        known = frozenset(hands[opp])
    else:
        shown = game.known[opp]
        known = frozenset(shown) if shown else _NOTHING
    v = game.variant
    lead = game.lead
    won = game.won_cards
    played = won[0] + won[1]
    if lead is not None:
        played.append(lead)
    result = game.result
    to_move = game.to_move
    tw = game.tricks_won
    # The game's own cached tuple: the bot's choice and the game's check of it share one generation.
    legal = (game._cache or game.legal_tuple()) if result is None and to_move == player else ()
    if v.show_points or result is not None:
        # game.augen() inlined: marriages count once a trick is won.
        ta, ma = game.trick_augen, game.marriage_augen
        augen: tuple[int, int] | None = (ta[0] + ma[0] if tw[0] else ta[0], ta[1] + ma[1] if tw[1] else ta[1])
    else:
        augen = None
    # tuple.__new__ with the fields in order: a view is made at every decision, and
    # this is twice as fast as calling PlayerView(...) with its 23 arguments.
    return _new_view(
        PlayerView,
        (
            v,
            player,
            game.dealer,
            to_move,
            tuple(hands[player]),
            game.trump,
            game.trump_card,
            talon_size,
            closed_by,
            game.closed_at_trick,
            lead,
            game.leader,
            tuple(game.tricks),
            frozenset(played),
            tuple(game.marriages),
            (tw[0], tw[1]),
            augen,
            known,
            len(hands[opp]),
            game.first_lead_done,
            result,
            legal,
            None,
        ),
    )


_new_view = tuple.__new__
_NOTHING: frozenset[Card] = frozenset()


def _pack(size: int) -> tuple[tuple[Card, ...], frozenset[Card]]:
    """The pack of ``size`` cards in order and as a set, built once per size
    (every deal needs both; :func:`~bummerl.cards.deck` rejects other sizes)."""
    pack = _PACKS.get(size)
    if pack is None:
        cards = deck(size)
        pack = _PACKS[size] = (cards, frozenset(cards))
        _PACK_SETS[size] = pack[1]
    return pack


_PACKS: dict[int, tuple[tuple[Card, ...], frozenset[Card]]] = {}
#: Each pack size's set of cards (the second half of :func:`_pack`), for the check of every deal.
_PACK_SETS: dict[int, frozenset[Card]] = {}


def _deal_plan(deal: tuple[tuple[str, int], ...]) -> tuple[tuple[int, ...], tuple[int, ...], int, int]:
    """Where a variant's deal puts the cards of the pack: the positions of Vorhand's
    cards and of the dealer's (in the order received), the trump card's position and
    the first position of the talon; worked out once per deal."""
    vorhand: list[int] = []
    dealer: list[int] = []
    pos = 0
    trump = 0
    for who, count in deal:
        if who == "t":
            trump = pos
        else:
            (vorhand if who == "v" else dealer).extend(range(pos, pos + count))
        pos += count
    plan = _DEALS[deal] = (tuple(vorhand), tuple(dealer), trump, pos)
    return plan


_DEALS: dict[tuple[tuple[str, int], ...], tuple[tuple[int, ...], tuple[int, ...], int, int]] = {}


def _check_deck(v: TwoPlayerVariant, order: tuple[Card, ...]) -> None:
    expected = _pack(v.deck_size)[1]
    if len(order) != len(expected) or expected != set(order):
        strangers = [x for x in order if not isinstance(x, Card)]
        if strangers:
            raise ValueError(f"a pack order is a sequence of Cards, not {strangers[0]!r} (Card.parse() reads codes)")
        missing = sorted(expected - set(order), key=card_order)
        extra = [c for c in order if c not in expected]
        raise ValueError(
            f"{v.title} needs the {len(expected)}-card pack, each card once"
            + (f"; missing {' '.join(c.code for c in missing)}" if missing else "")
            + (f"; not in this pack: {' '.join(c.code for c in extra)}" if extra else "")
            + (f"; got {len(order)} cards" if len(order) != len(expected) else "")
        )


def _next_draws_dealt(talon: list[Card], dealt: tuple[Card, ...]) -> bool:
    """Whether the next two cards of ``talon`` (drawn from its end) are those of the pack order ``dealt``."""
    n = len(talon)
    return not n or (talon[-1] == dealt[-n] and (n == 1 or talon[-2] == dealt[1 - n]))


register_engine(TwoPlayerVariant.FAMILY, TwoPlayerGame)
