"""Trick-taking logic shared by the 2-, 3- and 4-player games.

Two questions, answered once for the whole family:

* :func:`trick_winner` — who takes a trick (highest trump, else highest card of
  the led suit);
* :func:`legal_follows` — which cards a player may add to a trick under the
  follow rules in force; :func:`follow_refusal` says why a card may not, naming
  the :class:`~bummerl.errors.Rule` it breaks, for every engine.

A completed trick is a :class:`Trick` (two seats) or a :class:`TableTrick` (three
and four); both answer :class:`CompletedTrick`'s questions (``leader``, ``cards``,
``winner``), which is what code of any family reads.

The follow rules are the seeds' ladder (seeds/000: "mit einer höheren Karte der
angespielten Farbe stechen ... eine niedrigere Karte der angespielten Farbe
zugeben ... mit einer Trumpfkarte stechen ... eine beliebige andere Karte
abwerfen") with "Farbzwang geht immer vor Stichzwang".  In a trick of three or
four cards "higher" means higher than the card currently winning the trick, also
when that card is a partner's (RULES.md, Bauernschnapsen: "beat if possible (even
a partner's card)").

>>> from bummerl.cards import parse_cards, Suit
>>> hand = parse_cards("Kh Jh As")
>>> trick = parse_cards("Qh")
>>> [c.code for c in legal_follows(hand, trick, Suit.SPADES, FollowRules.STRICT)]
['Kh']
>>> trick_winner(parse_cards("Qh Ah"), Suit.SPADES)
1
>>> rule, detail = follow_refusal(Card.parse("As"), hand, trick, Suit.SPADES)
>>> rule.name, detail
('FARBZWANG', 'As may not follow Qh; allowed: Kh')

This module knows nothing of talons, players or scores, and imports no variant or engine.
"""

from __future__ import annotations

import enum
from collections.abc import Sequence
from typing import Protocol

from bummerl.cards import Card, Rank, Suit
from bummerl.errors import Refusal, Rule

__all__ = [
    "CompletedTrick",
    "FollowRules",
    "RankOrder",
    "TableTrick",
    "Trick",
    "beats",
    "explain_follow",
    "follow_refusal",
    "legal_follows",
    "rank_order",
    "trick_winner",
]


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

    @property
    def cards(self) -> tuple[Card, ...]:
        """The two cards in play order."""
        return (self[1], self[2])

    def cards_of(self, player: int) -> Card:
        """The card ``player`` put into this trick."""
        return self[1] if player == self[0] else self[2]


class TableTrick(tuple[int, tuple[Card, ...], int]):
    """A completed trick of a table game: ``(leader, cards in play order, winner seat)``."""

    __slots__ = ()

    @property
    def leader(self) -> int:
        return self[0]

    @property
    def cards(self) -> tuple[Card, ...]:
        return self[1]

    @property
    def winner(self) -> int:
        return self[2]


class CompletedTrick(Protocol):
    """What every family's completed trick answers (:class:`Trick`, :class:`TableTrick`)."""

    @property
    def leader(self) -> int: ...

    @property
    def cards(self) -> tuple[Card, ...]: ...

    @property
    def winner(self) -> int: ...


class FollowRules(enum.Enum):
    """How strictly a card must follow the trick."""

    #: Talon open: any card (seeds/000: "Zu Beginn des Spieles herrscht weder
    #: Farb- noch Stichzwang").
    FREE = "free"
    #: Farbzwang before Stichzwang, trump when void, over-trump when possible.
    STRICT = "strict"


#: An alias: an enum member is looked up through its metaclass, several times as
#: slow as a module global (CPython 3.11), and every follow asks.
_FREE = FollowRules.FREE

#: A rank-strength table: ``order[int(rank)]`` is the rank's strength within its
#: suit.  ``None`` everywhere means the natural order A, 10, K, O, U (9, 8, 7).
#: Bauernschnapsen's Zehnerloch ranks 10-K-O-U-A (seeds/004: "die Rangfolge der
#: Karten ist in allen Farben 10-K-D-B-A"), one Bettler variant A-K-O-U-10.
RankOrder = Sequence[int]


def rank_order(*ranks_high_to_low: Rank) -> tuple[int, ...]:
    """A :data:`RankOrder` from the ranks listed high to low (unlisted ranks lowest).

    >>> from bummerl.cards import Rank as R
    >>> zehnerloch = rank_order(R.TEN, R.KING, R.OBER, R.UNTER, R.ACE)
    >>> zehnerloch[R.ACE] < zehnerloch[R.UNTER] < zehnerloch[R.TEN]
    True
    """
    order = [0] * 8
    for strength, rank in enumerate(reversed(ranks_high_to_low), start=1):
        order[int(rank)] = strength
    return tuple(order)


def beats(challenger: Card, holder: Card, trump: Suit | None, order: RankOrder | None = None) -> bool:
    """Whether ``challenger`` takes the trick from the currently winning ``holder``."""
    if challenger.suit == holder.suit:
        if order is None:
            return challenger.rank > holder.rank
        return order[challenger.rank] > order[holder.rank]
    return challenger.suit == trump


def trick_winner(cards: Sequence[Card], trump: Suit | None, order: RankOrder | None = None) -> int:
    """Index (in play order) of the card that takes the trick."""
    best = 0
    for i in range(1, len(cards)):
        if beats(cards[i], cards[best], trump, order):
            best = i
    return best


def legal_follows(
    hand: Sequence[Card],
    trick: Sequence[Card],
    trump: Suit | None,
    rules: FollowRules,
    must_undertrump: bool = True,
    order: RankOrder | None = None,
) -> list[Card]:
    """The cards of ``hand`` that may be added to the non-empty ``trick``.

    Under :attr:`FollowRules.STRICT`: a higher card of the led suit if one beats
    the trick; else any card of the led suit; else a trump that beats the trick;
    else (``must_undertrump``) any trump; else any card.  The order of ``hand``
    is kept.  ``order`` ranks the cards within a suit (see :data:`RankOrder`).
    """
    if rules is _FREE or not trick:
        return list(hand)
    led = trick[0].suit
    # A lone lead is winning: the two-player game asks this every trick.
    winning = trick[0] if len(trick) == 1 else trick[trick_winner(trick, trump, order)]
    same = [c for c in hand if c.suit == led]
    if same:
        if winning.suit == led:
            if order is None:
                higher = [c for c in same if c.rank > winning.rank]
            else:
                higher = [c for c in same if order[c.rank] > order[winning.rank]]
            if higher:
                return higher
        return same
    if trump is not None:
        trumps = [c for c in hand if c.suit == trump]
        if trumps:
            if winning.suit == trump:
                if order is None:
                    over = [c for c in trumps if c.rank > winning.rank]
                else:
                    over = [c for c in trumps if order[c.rank] > order[winning.rank]]
                if over:
                    return over
                if not must_undertrump:
                    return list(hand)
            return trumps
    return list(hand)


def explain_follow(
    card: Card,
    hand: Sequence[Card],
    trick: Sequence[Card],
    trump: Suit | None,
    must_undertrump: bool = True,
    order: RankOrder | None = None,
) -> str | None:
    """Why ``card`` may not follow under strict rules, or ``None`` if it may.

    Returns one of ``"farbzwang"`` (must follow the led suit), ``"stichzwang"``
    (must beat with a higher card of the led suit), ``"trumpfzwang"`` (must trump
    when void) or ``"ueberstechen"`` (must over-trump).
    """
    if card in legal_follows(hand, trick, trump, FollowRules.STRICT, must_undertrump, order):
        return None
    return _failure(card, hand, trick[0].suit, trump)


def follow_refusal(
    card: Card,
    hand: Sequence[Card],
    trick: Sequence[Card],
    trump: Suit | None,
    rules: FollowRules = FollowRules.STRICT,
    must_undertrump: bool = True,
    order: RankOrder | None = None,
) -> Refusal | None:
    """The rule ``card`` of ``hand`` breaks if added to the non-empty ``trick``, or ``None``.

    The one explanation of :func:`legal_follows` for every engine: the rule
    (Farbzwang, Stichzwang, Trumpfzwang, Überstechen) and a detail naming the
    cards that may be played.  ``card`` is assumed to be in ``hand``.
    """
    allowed = legal_follows(hand, trick, trump, rules, must_undertrump, order)
    if card in allowed:
        return None
    rule = _FOLLOW_RULES[_failure(card, hand, trick[0].suit, trump)]
    return rule, f"{card.code} may not follow {trick[0].code}; allowed: {', '.join(c.code for c in allowed)}"


def _failure(card: Card, hand: Sequence[Card], led: Suit, trump: Suit | None) -> str:
    """Which step of the follow ladder an illegal ``card`` skips."""
    if any(c.suit == led for c in hand):
        return "stichzwang" if card.suit == led else "farbzwang"
    if card.suit == trump:
        return "ueberstechen"
    return "trumpfzwang"


_FOLLOW_RULES = {
    "farbzwang": Rule.FARBZWANG,
    "stichzwang": Rule.STICHZWANG,
    "trumpfzwang": Rule.TRUMPFZWANG,
    "ueberstechen": Rule.UEBERSTECHEN,
}
