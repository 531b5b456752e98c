"""The two-player talon's rules for the player on lead: exchanging, closing, marriages, going out.

One function per special action states its rule once: it returns ``None`` when the action is legal, else the
:class:`~bummerl.errors.Rule` it breaks and why.  :func:`lead_actions` offers a candidate action exactly when its
function returns ``None``, and the engine's ``refusal`` (behind ``verify``/``apply``) returns what it returns; a
player's view (:meth:`bummerl.view.PlayerView.compute_legal`) asks the same functions, so a view made without a
game offers what the game would.

>>> from bummerl.variants import SCHNAPSEN
>>> from bummerl.cards import parse_cards, Suit
>>> hand = parse_cards("KhQhJhAsTs")
>>> [a.token for a in lead_actions(SCHNAPSEN, hand, Suit.HEARTS, 9, False, True, False)]
['Kh', 'Qh', 'Jh', 'As', 'Ts', 'exchange', 'close', 'marry:Kh', 'marry:Qh']

This module reads a variant only through :class:`TalonRules` (the options these rules depend on) and must never
import a variant or an engine: both engines' layers sit above it.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from typing import Protocol

from bummerl.actions import _DECLARE_MARRIAGE, _PLAY, CLOSE, DECLARE, EXCHANGE, MARRIAGE_BY_CARD, Action, ActionKind
from bummerl.cards import CARDS, Card, Rank, Suit
from bummerl.errors import Refusal, Rule
from bummerl.rules.tricks import FollowRules, legal_follows

__all__ = [
    "LEAD_KINDS",
    "LeadState",
    "TalonRules",
    "close_refusal",
    "declare_refusal",
    "exchange_refusal",
    "follow_actions",
    "lead_actions",
    "lead_refusal",
    "marriage_card_refusal",
    "marriage_refusal",
]

_KING, _OBER = Rank.KING, Rank.OBER
_STRICT = FollowRules.STRICT
#: The special actions of the player on lead (the rest of the kinds belong to the table games).
LEAD_KINDS = frozenset({ActionKind.MARRIAGE, ActionKind.EXCHANGE, ActionKind.CLOSE, ActionKind.DECLARE})
#: For each ``Card.index``, the Ober of a King's suit (``None`` for other cards):
#: finds marriages in one pass over the hand.
_OBER_OF_KING: tuple[Card | None, ...] = tuple(Card(c.suit, _OBER) if c.rank == _KING else None for c in CARDS)


class TalonRules(Protocol):
    """The options of a two-player variant that the rules here read
    (:class:`~bummerl.variants.two_player.TwoPlayerVariant` has them all)."""

    @property
    def title(self) -> str: ...
    @property
    def trump_exchange(self) -> bool: ...
    @property
    def exchange_rank(self) -> int: ...
    @property
    def exchange_before_first_lead(self) -> bool: ...
    @property
    def exchange_with_one_face_down(self) -> bool: ...
    @property
    def exchange_needs_trick(self) -> bool: ...
    @property
    def close_min_facedown(self) -> int: ...
    @property
    def close_needs_trick(self) -> bool: ...
    @property
    def marriages(self) -> bool: ...
    @property
    def marriage_after_talon(self) -> bool: ...
    @property
    def marriage_before_trick(self) -> bool: ...
    @property
    def marriage_king_only(self) -> bool: ...
    @property
    def auto_declare(self) -> bool: ...


def exchange_refusal(
    v: TalonRules,
    hand: Collection[Card],
    trump: Suit,
    face_down: int,
    closed: bool,
    first_lead_done: bool,
    has_trick: bool,
) -> Refusal | None:
    """Austauschen (seeds/000: "Das Austauschen der Atout-Karte"): the lowest trump
    for the face-up trump card while the talon is open, within the variant's limits
    (scharf: not before Vorhand's first lead nor with one face-down card left;
    Schnorps: only after a trick)."""
    if not v.trump_exchange:
        return Rule.NOT_AVAILABLE, f"{v.title} is played without trump exchange"
    if face_down == 0 or closed:
        return _TALON_NOT_OPEN
    low = CARDS[trump * 8 + v.exchange_rank]
    if low not in hand:
        return _NO_EXCHANGE_CARD[low.index]
    if not first_lead_done and not v.exchange_before_first_lead:
        return Rule.EXCHANGE, f"{v.title}: no exchange before Vorhand's first lead"
    if face_down < 2 and not v.exchange_with_one_face_down:
        return Rule.EXCHANGE, f"{v.title}: no exchange with one face-down card left"
    if not has_trick and v.exchange_needs_trick:
        return Rule.EXCHANGE, f"{v.title}: exchanging needs a trick won first"
    return None


def close_refusal(v: TalonRules, face_down: int, closed: bool, has_trick: bool) -> Refusal | None:
    """Zudrehen (RULES.md): at least two face-down cards above the trump card, or one
    with the house rule ``close_min_facedown=1`` (never with the talon exhausted);
    Schnorps's Decken only "nach einem gemachten Stiche" (seeds/001)."""
    if closed:
        return _ALREADY_CLOSED
    if face_down < v.close_min_facedown:
        return _TOO_FEW_TO_CLOSE[v.close_min_facedown][face_down]
    if not has_trick and v.close_needs_trick:
        return Rule.CLOSE, f"{v.title}: closing (Decken) needs a trick won first"
    return None


def marriage_refusal(
    v: TalonRules, hand: Collection[Card], suit: Suit, face_down: int, has_trick: bool
) -> Refusal | None:
    """Ansage: showing King and Ober of ``suit`` (seeds/000: "Besitzt ein Spieler
    König und Dame bzw. König und Ober von einer Farbe, so kann er dies, wenn er am
    Ausspiel ist, ansagen"); after the talon is exhausted only where the variant
    allows (Schnorps: "so lange der Talon noch nicht erschöpft ist" — covering does
    not exhaust it), before a trick won only where it allows (weich)."""
    if not v.marriages:
        return Rule.NOT_AVAILABLE, f"{v.title} is played without marriages"
    if CARDS[suit * 8 + _KING] not in hand or CARDS[suit * 8 + _OBER] not in hand:
        return Rule.MARRIAGE, f"a marriage in {suit.name.title()} needs its King and Ober in hand"
    if face_down == 0 and not v.marriage_after_talon:
        return Rule.MARRIAGE, f"{v.title}: no marriages once the talon is exhausted"
    if not has_trick and not v.marriage_before_trick:
        return Rule.MARRIAGE, f"{v.title}: a marriage needs a trick won first"
    return None


def marriage_card_refusal(v: TalonRules, card: Card) -> Refusal | None:
    """Which card of a marriage may be led: either, but scharf "Wer eine Ansage
    macht, muss zum nächsten Stich den König ausspielen" (seeds/000)."""
    if v.marriage_king_only and card.rank != _KING:
        return Rule.MARRIAGE, f"{v.title}: the King must be led with a marriage"
    return None


def declare_refusal(v: TalonRules, has_trick: bool) -> Refusal | None:
    """Ausmelden (seeds/000: "Hat ein Spieler nach Gewinn eines Stichs oder einer
    Ansage 66 ... erreicht"): explicit unless ``auto_declare``, and only with a trick
    won; with a marriage, :func:`marriage_refusal` applies first."""
    if v.auto_declare:
        return _AUTO_DECLARE
    if not has_trick:
        return _DECLARE_NEEDS_TRICK
    return None


# The refusals that the generator meets on most leads are built once, not on
# every call: the talon closed or exhausted, no exchange card, no trick yet.
_TALON_NOT_OPEN: Refusal = (Rule.EXCHANGE, "the talon is closed or exhausted")
#: Indexed by the exchange card's ``Card.index``.
_NO_EXCHANGE_CARD: tuple[Refusal, ...] = tuple(
    (Rule.EXCHANGE, f"exchanging needs the trump {c.code} in hand") for c in CARDS
)
_ALREADY_CLOSED: Refusal = (Rule.CLOSE, "the talon is already closed")
#: Indexed by ``close_min_facedown`` (1 or 2), then by the number of face-down cards left (below it).
_TOO_FEW_TO_CLOSE: dict[int, tuple[Refusal, ...]] = {
    need: tuple(
        (Rule.CLOSE, f"only {n} face-down card(s) left; closing needs {word} above the trump card") for n in range(need)
    )
    for need, word in ((1, "one (close_min_facedown=1)"), (2, "two"))
}
_AUTO_DECLARE: Refusal = (Rule.DECLARE, "with auto_declare, 66 ends the game by itself")
_DECLARE_NEEDS_TRICK: Refusal = (Rule.DECLARE, "going out needs a trick won (or a marriage after one)")


#: The arguments of :func:`exchange_refusal` (and of :func:`lead_actions`): the variant, the hand on lead, the
#: trump suit, the face-down talon cards, whether the talon is closed, whether Vorhand has led, whether the
#: player on lead has won a trick.
LeadState = tuple[TalonRules, Collection[Card], Suit, int, bool, bool, bool]


def lead_refusal(action: Action, state: LeadState) -> Refusal | None:
    """Why the player on lead may not take the special (non-play) ``action``, or ``None``.

    Dispatches to the rule functions above, each asked about ``state``.
    """
    v, hand, trump, face_down, closed, first_lead_done, has_trick = state
    kind = action.kind
    if kind is ActionKind.EXCHANGE:
        return exchange_refusal(v, hand, trump, face_down, closed, first_lead_done, has_trick)
    if kind is ActionKind.CLOSE:
        return close_refusal(v, face_down, closed, has_trick)
    if kind is ActionKind.MARRIAGE:
        card = action.card
        assert card is not None
        return marriage_refusal(v, hand, card.suit, face_down, has_trick) or marriage_card_refusal(v, card)
    if kind is ActionKind.DECLARE:
        if action.suit is not None:
            why = marriage_refusal(v, hand, action.suit, face_down, has_trick)
            if why is not None:
                return why
        return declare_refusal(v, has_trick)
    return Rule.NOT_AVAILABLE, f"{action.token} is not possible now"


def lead_actions(
    variant: TalonRules,
    hand: Sequence[Card],
    trump: Suit,
    face_down: int,
    closed: bool,
    first_lead_done: bool,
    has_trick: bool,
) -> list[Action]:
    """Legal actions of the player on lead; shared by the engine and views.

    ``face_down`` counts the face-down talon cards (the face-up trump card not
    included); the talon is open while it is positive and nobody closed it.
    Every card in hand may be led; each candidate special action is offered when
    its rule function returns ``None``: the exchange, closing, each marriage the
    hand holds (led with the King, with the Ober, or declared at once) and
    declaring.
    """
    v = variant
    actions = [_PLAY[c.index] for c in hand]
    # A set: testing a list of Cards for a card it lacks compares through Card's
    # Python-level comparison slots, several times slower than building the set.
    held = set(hand)
    if exchange_refusal(v, held, trump, face_down, closed, first_lead_done, has_trick) is None:
        actions.append(EXCHANGE)
    if close_refusal(v, face_down, closed, has_trick) is None:
        actions.append(CLOSE)
    declare = declare_refusal(v, has_trick) is None
    for k in hand:
        ober = _OBER_OF_KING[k.index]
        if ober is not None and ober in held and marriage_refusal(v, held, k.suit, face_down, has_trick) is None:
            actions.append(MARRIAGE_BY_CARD[k.index])
            if marriage_card_refusal(v, ober) is None:
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
    return [_PLAY[c.index] for c in legal_follows(hand, (lead,), trump, _STRICT)]
