"""The two-player game: state, legal actions, the can_/verify_/do triple, results.

>>> game = Game.deal("schnapsen", seed=7)
>>> game.to_move, len(game.hands[0]), game.talon_size
(0, 5, 9)
>>> while not game.is_over:
...     game.apply(game.legal_actions()[0])
>>> game.result.winner in (0, 1)
True
>>> Game.deal("schnapsen", seed=7).hands == Game.deal("schnapsen", seed=7).hands
True

Players are seats ``0`` and ``1``; ``dealer`` deals, the other seat is Vorhand
and leads first (seeds/000: "Vorhand spielt zum ersten Stich aus").  Every
action comes as a triple in the manner of PokerKit — ``can_play(card)`` (a
bool), ``verify_play(card)`` (raises :class:`IllegalActionError` naming the
rule) and ``play(card)`` (does it) — and generically as
``can_apply/verify/apply(action)``.  A refused action leaves the game exactly as
it was.

The engine does no I/O, keeps no global state and uses no randomness it was not
given: :meth:`Game.deal` shuffles with the seeded generator of
:mod:`bummerl.rng`.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

from bummerl.actions import _DECLARE_MARRIAGE, _PLAY, CLOSE, DECLARE, EXCHANGE, MARRIAGE_BY_CARD, Action, ActionKind
from bummerl.cards import CARDS, Card, Rank, Suit, deck
from bummerl.errors import BummerlError, IllegalActionError, Rule
from bummerl.rng import SplitMix64
from bummerl.tricks import FollowRules, explain_follow, legal_follows
from bummerl.variants import GameResult, TwoPlayerVariant, find_variant

if TYPE_CHECKING:
    from bummerl.view import PlayerView

__all__ = ["Game", "Trick", "follow_actions", "lead_actions"]

_KING, _OBER = Rank.KING, Rank.OBER
_PLAY_KIND = ActionKind.PLAY
#: For each ``Card.index``, the Ober of a King's suit (``None`` for other cards):
#: finds marriages in one pass over the hand.
_OBER_OF_KING: tuple[Card | None, ...] = tuple(Card(c.suit, _OBER) if c.rank == _KING else None for c in CARDS)


class Trick(tuple[int, Card, Card, int]):
    """A completed trick: ``(leader, lead_card, follow_card, winner)``."""

    __slots__ = ()

    @property
    def leader(self) -> int:
        return self[0]

    @property
    def lead(self) -> Card:
        return self[1]

    @property
    def follow(self) -> Card:
        return self[2]

    @property
    def winner(self) -> int:
        return self[3]

    def cards_of(self, player: int) -> Card:
        """The card ``player`` put into this trick."""
        return self[1] if player == self[0] else self[2]


def lead_actions(
    variant: TwoPlayerVariant,
    hand: Sequence[Card],
    trump: Suit,
    face_down: int,
    closed: bool,
    first_lead_done: bool,
    has_trick: bool,
) -> list[Action]:
    """Legal actions of the player on lead; shared by :class:`Game` and views.

    ``face_down`` counts the face-down talon cards (the face-up trump card not
    included); the talon is open while it is positive and nobody closed it.
    """
    actions = [_PLAY[c.index] for c in hand]
    v = variant
    if face_down > 0 and not closed:
        # Austauschen (seeds/000) with the variant's limits.
        if (
            v.trump_exchange
            and (first_lead_done or v.exchange_before_first_lead)
            and (face_down >= 2 or v.exchange_with_one_face_down)
            and (has_trick or not v.exchange_needs_trick)
            and CARDS[trump * 8 + v.exchange_rank] in hand
        ):
            actions.append(EXCHANGE)
        # Zudrehen: at least two face-down cards above the trump card (RULES.md).
        if face_down >= 2 and (has_trick or not v.close_needs_trick):
            actions.append(CLOSE)
    declare = not v.auto_declare and has_trick
    # Schnorps allows marriages only "so lange der Talon noch nicht erschöpft ist"
    # (seeds/001): covering (Decken) does not exhaust the talon, so only an empty
    # talon ends them; the other variants allow them to the end.
    if v.marriages and (face_down > 0 or v.marriage_after_talon) and (has_trick or v.marriage_before_trick):
        for k in hand:
            ober = _OBER_OF_KING[k.index]
            if ober is not None and ober in hand:
                actions.append(MARRIAGE_BY_CARD[k.index])
                if not v.marriage_king_only:
                    actions.append(MARRIAGE_BY_CARD[ober.index])
                if declare:
                    actions.append(_DECLARE_MARRIAGE[k.suit])
    if declare:
        actions.append(DECLARE)
    return actions


def follow_actions(hand: Sequence[Card], lead: Card, trump: Suit, strict: bool) -> list[Action]:
    """Legal actions of the second player to a trick."""
    if not strict:
        return [_PLAY[c.index] for c in hand]
    return [_PLAY[c.index] for c in legal_follows(hand, (lead,), trump, FollowRules.STRICT)]


class Game:
    """A two-player game from the deal to its result.

    Build one with :meth:`deal` (a seed) or :meth:`from_deck` (an explicit pack
    order, e.g. from a record).  Read the state through the attributes; change it
    only through actions.
    """

    __slots__ = (
        "_legal",
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

    # ------------------------------------------------------------------ setup
    def __init__(self, variant: TwoPlayerVariant | str, deck_order: Iterable[Card], dealer: int = 1) -> None:
        v = variant if isinstance(variant, TwoPlayerVariant) else find_variant(variant)
        order = tuple(deck_order)
        _check_deck(v, order)
        # bool is an int: without the check a dealer ``True`` would be written as "True" in records.
        if dealer not in (0, 1) or isinstance(dealer, bool):
            raise ValueError(f"dealer must be seat 0 or 1, not {dealer!r}")
        self.variant = v
        self.deck = order
        self.dealer = dealer
        vorhand = 1 - dealer
        hands: list[list[Card]] = [[], []]
        pos = 0
        trump_card = order[0]
        for who, count in v.deal:
            if who == "t":
                trump_card = order[pos]
            else:
                hands[vorhand if who == "v" else dealer].extend(order[pos : pos + count])
            pos += count
        self.hands = hands
        self.talon = list(reversed(order[pos:]))
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
        self._legal: list[Action] | None = None

    @classmethod
    def deal(
        cls,
        variant: TwoPlayerVariant | str = "schnapsen",
        seed: int = 0,
        dealer: int = 1,
    ) -> Game:
        """Shuffle the variant's pack with ``seed`` (see :mod:`bummerl.rng`) and deal.

        ``seed`` is any integer (taken modulo 2**64); anything else raises
        :class:`~bummerl.errors.BummerlError`.
        """
        if not isinstance(seed, int) or isinstance(seed, bool):
            raise BummerlError(f"a seed must be an integer, not {seed!r}")
        v = variant if isinstance(variant, TwoPlayerVariant) else find_variant(variant)
        cards = list(_pack(v.deck_size)[0])
        SplitMix64(seed).shuffle(cards)
        return cls(v, cards, dealer)

    @classmethod
    def from_deck(cls, variant: TwoPlayerVariant | str, deck_order: Iterable[Card], dealer: int = 1) -> Game:
        """Deal an explicit pack order (top card first)."""
        return cls(variant, deck_order, dealer)

    @classmethod
    def from_position(cls, text: str) -> Game:
        """Set up a game from its one-line position (see :mod:`bummerl.position`)."""
        from bummerl.position import game_from_position

        return game_from_position(text)

    def position(self) -> str:
        """The one-line position (see :mod:`bummerl.position`)."""
        from bummerl.position import position_of

        return position_of(self)

    def copy(self) -> Game:
        """An independent copy (for search)."""
        g = object.__new__(Game)
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
        g._legal = self._legal
        return g

    # ------------------------------------------------------------ properties
    @property
    def vorhand(self) -> int:
        """The seat that led first."""
        return 1 - self.dealer

    @property
    def is_over(self) -> bool:
        return self.result is not None

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

    def augen(self, player: int) -> int:
        """Counted Augen: tricks plus marriages, these only once a trick is won."""
        if self.tricks_won[player]:
            return self.trick_augen[player] + self.marriage_augen[player]
        return self.trick_augen[player]

    # ------------------------------------------------------------ generation
    def legal_actions(self) -> list[Action]:
        """The legal actions of :attr:`to_move` (empty once the game is over).

        The list is the caller's own: changing it does not touch the game.
        """
        legal = self._legal
        if legal is None:
            if self.result is not None:
                legal = []
            else:
                p = self.to_move
                lead = self.lead
                if lead is None:
                    legal = lead_actions(
                        self.variant,
                        self.hands[p],
                        self.trump,
                        len(self.talon),
                        self.closed_by is not None,
                        self.first_lead_done,
                        self.tricks_won[p] > 0,
                    )
                else:
                    # ``self.strict`` inlined: this runs for every action.
                    strict = self.closed_by is not None or not self.talon
                    legal = follow_actions(self.hands[p], lead, self.trump, strict)
            self._legal = legal
        # A copy: the cache must survive callers that pop from or sort the list.
        return legal[:]

    # ---------------------------------------------------------- generic triple
    def can_apply(self, action: Action) -> bool:
        """Whether ``action`` is legal now."""
        return action in self.legal_actions()

    def verify(self, action: Action) -> None:
        """Raise :class:`IllegalActionError` naming the broken rule, unless legal."""
        if action not in self.legal_actions():
            raise self._diagnose(action)

    def apply(self, action: Action | str) -> None:
        """Do ``action`` (an :class:`Action` or its token) or raise without change."""
        if isinstance(action, str):
            action = Action.parse(action)
        try:
            kind = action.kind
        except AttributeError:
            raise BummerlError(f"not an action: {action!r} (use an Action or its token)") from None
        p = self.to_move
        legal = self._legal
        if legal is not None:
            ok = action in legal
        elif kind is _PLAY_KIND and self.result is None and (self.lead is None or not self.strict):
            # Leading, or following to an open talon, any card in hand may be
            # played: no need to generate the whole list (replays, bots on views).
            ok = action.card in self.hands[p]
        else:
            ok = action in self.legal_actions()
        if not ok:
            raise self._diagnose(action)
        self._legal = None
        self.actions.append(action)
        if kind is _PLAY_KIND:
            self._play(p, action.card)  # type: ignore[arg-type]
        elif kind is ActionKind.MARRIAGE:
            card: Card = action.card  # type: ignore[assignment]
            self._announce(p, card.suit)
            if self.variant.auto_declare and self.tricks_won[p] and self.augen(p) >= 66:
                self._finish_declaration(p)
            else:
                self._play(p, card)
        elif kind is ActionKind.EXCHANGE:
            self._exchange(p)
        elif kind is ActionKind.CLOSE:
            self._close(p)
        else:
            if action.suit is not None:
                self._announce(p, action.suit)
            self._finish_declaration(p)

    # --------------------------------------------------------- named triples
    def can_play(self, card: Card) -> bool:
        return self.can_apply(_PLAY[card.index])

    def verify_play(self, card: Card) -> None:
        self.verify(_PLAY[card.index])

    def play(self, card: Card) -> None:
        """Lead or follow with ``card``."""
        self.apply(_PLAY[card.index])

    def can_announce_marriage(self, card: Card) -> bool:
        return card.rank in (_KING, _OBER) and self.can_apply(Action.marriage(card))

    def verify_announce_marriage(self, card: Card) -> None:
        if card.rank not in (_KING, _OBER):
            raise IllegalActionError(Rule.MARRIAGE, f"a marriage is led with its King or Ober, not {card.code}")
        self.verify(Action.marriage(card))

    def announce_marriage(self, card: Card) -> None:
        """Show King and Ober of ``card``'s suit (20, 40 in trumps) and lead ``card``."""
        self.verify_announce_marriage(card)
        self.apply(Action.marriage(card))

    def can_exchange_trump(self) -> bool:
        return self.can_apply(EXCHANGE)

    def verify_exchange_trump(self) -> None:
        self.verify(EXCHANGE)

    def exchange_trump(self) -> None:
        """Swap the lowest trump in hand for the face-up trump card (Austauschen)."""
        self.apply(EXCHANGE)

    def can_close_talon(self) -> bool:
        return self.can_apply(CLOSE)

    def verify_close_talon(self) -> None:
        self.verify(CLOSE)

    def close_talon(self) -> None:
        """Close the talon (Zudrehen, Schnorps: Decken)."""
        self.apply(CLOSE)

    def can_declare(self, marriage: Suit | None = None) -> bool:
        return self.can_apply(Action.declare(marriage))

    def verify_declare(self, marriage: Suit | None = None) -> None:
        self.verify(Action.declare(marriage))

    def declare(self, marriage: Suit | None = None) -> None:
        """Go out ("genug"), after showing the marriage of ``marriage`` if given."""
        self.apply(Action.declare(marriage))

    # -------------------------------------------------------------- doing it
    def _play(self, p: int, card: Card) -> None:
        # The engine's innermost step: state is read into locals once.
        hands = self.hands
        hands[p].remove(card)
        known = self.known[p]
        if known:
            known.discard(card)
        lead = self.lead
        if lead is None:
            self.lead = card
            self.leader = p
            self.to_move = 1 - p
            self.first_lead_done = True
            return
        leader = self.leader
        suit = card.suit
        if suit == lead.suit:
            winner = p if card.rank > lead.rank else leader
        else:
            winner = p if suit == self.trump else leader
        self.trick_augen[winner] += lead.augen + card.augen
        self.tricks_won[winner] += 1
        won = self.won_cards[winner]
        won.append(lead)
        won.append(card)
        self.tricks.append(Trick((leader, lead, card, winner)))
        self.lead = None
        self.to_move = self.leader = winner
        talon = self.talon
        winner_hand = hands[winner]
        if talon and self.closed_by is None:
            # seeds/000: "Der Spieler, der den Stich gewonnen hat, nimmt die oberste
            # Karte des Talons, sein Gegner die folgende"; the face-up trump card
            # is the last card and goes to the loser.
            winner_hand.append(talon.pop())
            loser = 1 - winner
            if talon:
                hands[loser].append(talon.pop())
            else:
                tc = self.trump_card
                assert tc is not None
                hands[loser].append(tc)
                self.known[loser].add(tc)
                self.trump_card = None
        v = self.variant
        if not winner_hand:
            if v.last_trick_bonus and self.closed_by is None:
                self.trick_augen[winner] += v.last_trick_bonus
            self.result = v.score_end_of_cards(self, winner)
        elif v.auto_declare and self.augen(winner) >= 66:
            self._finish_declaration(winner)

    def _announce(self, p: int, suit: Suit) -> None:
        self.marriage_augen[p] += 40 if suit == self.trump else 20
        self.marriages.append((p, suit))
        self.known[p].add(Card(suit, _KING))
        self.known[p].add(Card(suit, _OBER))

    def _exchange(self, p: int) -> None:
        low = Card(self.trump, self.variant.exchange_rank)
        face_up = self.trump_card
        assert face_up is not None
        hand = self.hands[p]
        hand[hand.index(low)] = face_up
        self.known[p].add(face_up)
        self.trump_card = low

    def _close(self, p: int) -> None:
        opp = 1 - p
        self.closed_by = p
        self.closed_opponent_augen = self.augen(opp)
        self.closed_opponent_had_trick = self.tricks_won[opp] > 0
        self.closed_at_trick = len(self.tricks)

    def _finish_declaration(self, p: int) -> None:
        self.result = self.variant.score_declaration(self, p)

    # --------------------------------------------------------------- errors
    def _diagnose(self, action: Action) -> IllegalActionError:
        """Name the rule that ``action`` breaks (only called for illegal actions)."""
        v = self.variant
        p = self.to_move
        hand = self.hands[p]
        kind = action.kind
        if self.result is not None:
            return IllegalActionError(Rule.GAME_OVER, "the game is over")
        if kind is ActionKind.PLAY:
            card = action.card
            assert card is not None
            if card not in hand:
                return IllegalActionError(Rule.NOT_IN_HAND, f"player {p} does not hold {card.code}")
            assert self.lead is not None and self.strict
            why = explain_follow(card, hand, (self.lead,), self.trump)
            rule = {
                "farbzwang": Rule.FARBZWANG,
                "stichzwang": Rule.STICHZWANG,
                "trumpfzwang": Rule.TRUMPFZWANG,
                "ueberstechen": Rule.UEBERSTECHEN,
            }[why or "farbzwang"]
            allowed = ", ".join(c.code for c in legal_follows(hand, (self.lead,), self.trump, FollowRules.STRICT))
            return IllegalActionError(rule, f"{card.code} may not follow {self.lead.code}; allowed: {allowed}")
        if self.lead is not None:
            return IllegalActionError(Rule.NOT_ON_LEAD, f"{action.token} is only possible before leading to a trick")
        has_trick = self.tricks_won[p] > 0
        talon_open = bool(self.talon) and self.closed_by is None
        if kind is ActionKind.EXCHANGE:
            low = Card(self.trump, v.exchange_rank)
            if not v.trump_exchange:
                return IllegalActionError(Rule.NOT_AVAILABLE, f"{v.title} is played without trump exchange")
            if not talon_open:
                return IllegalActionError(Rule.EXCHANGE, "the talon is closed or exhausted")
            if low not in hand:
                return IllegalActionError(Rule.EXCHANGE, f"exchanging needs the trump {low.code} in hand")
            if not self.first_lead_done and not v.exchange_before_first_lead:
                return IllegalActionError(Rule.EXCHANGE, f"{v.title}: no exchange before Vorhand's first lead")
            if len(self.talon) < 2 and not v.exchange_with_one_face_down:
                return IllegalActionError(Rule.EXCHANGE, f"{v.title}: no exchange with one face-down card left")
            return IllegalActionError(Rule.EXCHANGE, f"{v.title}: exchanging needs a trick won first")
        if kind is ActionKind.CLOSE:
            if self.closed_by is not None:
                return IllegalActionError(Rule.CLOSE, "the talon is already closed")
            if len(self.talon) < 2:
                return IllegalActionError(
                    Rule.CLOSE, f"only {len(self.talon)} face-down card(s) left; closing needs two above the trump card"
                )
            return IllegalActionError(Rule.CLOSE, f"{v.title}: closing (Decken) needs a trick won first")
        suit = action.suit
        if kind is ActionKind.MARRIAGE or suit is not None:
            assert suit is not None
            if not v.marriages:
                return IllegalActionError(Rule.NOT_AVAILABLE, f"{v.title} is played without marriages")
            if Card(suit, _KING) not in hand or Card(suit, _OBER) not in hand:
                return IllegalActionError(
                    Rule.MARRIAGE, f"a marriage in {suit.name.title()} needs its King and Ober in hand"
                )
            if not self.talon and not v.marriage_after_talon:
                return IllegalActionError(Rule.MARRIAGE, f"{v.title}: no marriages once the talon is exhausted")
            if not has_trick and not v.marriage_before_trick:
                return IllegalActionError(Rule.MARRIAGE, f"{v.title}: a marriage needs a trick won first")
            if kind is ActionKind.MARRIAGE and v.marriage_king_only:
                return IllegalActionError(Rule.MARRIAGE, f"{v.title}: the King must be led with a marriage")
        if kind is ActionKind.DECLARE:
            if v.auto_declare:
                return IllegalActionError(Rule.DECLARE, "with auto_declare, 66 ends the game by itself")
            return IllegalActionError(Rule.DECLARE, "going out needs a trick won (or a marriage after one)")
        return IllegalActionError(Rule.NOT_AVAILABLE, f"{action.token} is not possible now")  # pragma: no cover

    # ------------------------------------------------------------------ misc
    def view(self, player: int) -> PlayerView:
        """What ``player`` may know; see :func:`bummerl.view.player_view`."""
        from bummerl.view import player_view

        return player_view(self, player)

    def __repr__(self) -> str:
        if self.result is not None:
            return f"<Game {self.variant.name} over: {self.result}>"
        return f"Game.from_position({self.position()!r})"


def _pack(size: int) -> tuple[tuple[Card, ...], frozenset[Card]]:
    """The pack of ``size`` cards in order and as a set, built once per size
    (every deal needs both; :func:`~bummerl.cards.deck` rejects other sizes)."""
    pack = _PACKS.get(size)
    if pack is None:
        cards = deck(size)
        pack = _PACKS[size] = (cards, frozenset(cards))
    return pack


_PACKS: dict[int, tuple[tuple[Card, ...], frozenset[Card]]] = {}


def _check_deck(v: TwoPlayerVariant, order: tuple[Card, ...]) -> None:
    expected = _pack(v.deck_size)[1]
    if len(order) != len(expected) or expected != set(order):
        strangers = [x for x in order if not isinstance(x, Card)]
        if strangers:
            raise ValueError(f"a pack order is a sequence of Cards, not {strangers[0]!r} (Card.parse() reads codes)")
        missing = sorted(expected - set(order))
        extra = [c for c in order if c not in expected]
        raise ValueError(
            f"{v.title} needs the {len(expected)}-card pack, each card once"
            + (f"; missing {' '.join(c.code for c in missing)}" if missing else "")
            + (f"; not in this pack: {' '.join(c.code for c in extra)}" if extra else "")
            + (f"; got {len(order)} cards" if len(order) != len(expected) else "")
        )
