"""A model of how a strong player chooses a card: the likelihood behind card inference.

:class:`PolicyModel` gives the probability that a player holding ``hand``
plays ``card`` among the legal cards: a softmax over a weighted sum of a few
features of the card in its hand (its Augen, trump, half of a marriage, top
of its suit, lowest of its suit, the length of the suit; when following:
same suit, wins the trick, wins an Ace or Ten, wins by trumping, the
cheapest card).  There is one weight vector per situation: leading or
following, with the talon open (free play) or under the strict follow rules
(talon closed or exhausted).

The weights are a maximum-likelihood fit to the card choices of the search
bot (12-world PIMC) in self-play, made by ``bench/policy_fit.py``, which
prints the literal of :data:`MODELS`.  :mod:`bummerl.bots.likelihood` uses
the model to weight the worlds of a search by how well they explain what the
opponent played (policy-based inference, as in the Skat programs of Buro's
group).

>>> from bummerl.cards import parse_cards, Suit
>>> model = model_for("schnapsen")
>>> hand = parse_cards("AhTsJsKdQc")
>>> p = model.probabilities(CardChoice(hand, legal=hand, lead=None, trump=Suit.HEARTS))
>>> round(sum(p), 6), len(p)
(1.0, 5)

Pure Python and dependency-free, like the rest of the engine.
"""

from __future__ import annotations

import dataclasses
import math
import operator
from collections.abc import Iterable, Mapping, Sequence

from bummerl.cards import Card, Rank, Suit
from bummerl.rules.tricks import beats

__all__ = [
    "FEATURES",
    "MODELS",
    "SPECIAL_RATES",
    "CardChoice",
    "PolicyModel",
    "context_key",
    "features",
    "legal_features",
    "model_for",
]

#: The names of the features, in order (the first group for every decision, the rest when following).
FEATURES: tuple[str, ...] = (
    "augen",
    "trump",
    "marriage_half",
    "top_of_suit",
    "lowest_of_suit",
    "suit_length",
    "highest_trump",
    "same_suit",
    "wins",
    "wins_ace_or_ten",
    "wins_by_trump",
    "cheapest",
)

_MARRIAGE_PARTNER = {Rank.KING: Rank.OBER, Rank.OBER: Rank.KING}


def context_key(leading: bool, strict: bool) -> str:
    """The situation a weight vector belongs to: ``lead-open``, ``follow-strict``, ..."""
    return ("lead" if leading else "follow") + ("-strict" if strict else "-open")


@dataclasses.dataclass(frozen=True)
class CardChoice:
    """One card play as the player faced it: everything the features and the model read.

    >>> from bummerl.cards import parse_cards
    >>> hand = parse_cards("KhQhTs")
    >>> choice = CardChoice(hand, legal=hand, lead=None, trump=Suit.SPADES, outstanding=[Card.parse("Ah")])
    >>> choice.context
    'lead-open'
    """

    #: The player's hand, and the cards of it the player may play.
    hand: Sequence[Card]
    legal: Sequence[Card]
    #: The card led, or ``None`` when the player leads.
    lead: Card | None
    trump: Suit
    #: The cards whose place the player does not know (the opponent's hand and the face-down talon, from the
    #: player's side), for "top of its suit".
    outstanding: Iterable[Card] = ()
    #: Whether the strict follow rules hold (talon closed or exhausted).
    strict: bool = False

    @property
    def context(self) -> str:
        """The situation's key in :attr:`PolicyModel.weights` (:func:`context_key`)."""
        return context_key(self.lead is None, self.strict)


def features(card: Card, choice: CardChoice) -> list[float]:
    """The features of playing ``card`` in ``choice`` (see :data:`FEATURES`).

    >>> from bummerl.cards import parse_cards
    >>> hand = parse_cards("KhQhTs")
    >>> features(hand[0], CardChoice(hand, hand, None, Suit.SPADES, [Card.parse("Ah")]))[:6]
    [0.4, 0.0, 1.0, 0.0, 0.0, 0.4]
    """
    return _Hand(choice).row(card)


def legal_features(choice: CardChoice) -> list[list[float]]:
    """:func:`features` of every card of ``choice.legal`` (same order), computed together."""
    h = _Hand(choice)
    return [h.row(c) for c in choice.legal]


class _Hand:
    """What the features of every card of one hand share, computed once."""

    __slots__ = ("cheapest", "held", "lead", "length", "lowest", "top_out", "top_trump", "trump")

    def __init__(self, choice: CardChoice) -> None:
        hand, legal, trump = choice.hand, choice.legal, choice.trump
        self.held = frozenset(hand)
        self.trump, self.lead = trump, choice.lead
        self.length: dict[Suit, int] = {}
        self.lowest: dict[Suit, int] = {}
        for c in hand:
            self.length[c.suit] = self.length.get(c.suit, 0) + 1
            if c.rank < self.lowest.get(c.suit, 99):
                self.lowest[c.suit] = c.rank
        self.top_trump = max((c.rank for c in hand if c.suit == trump), default=-1)
        self.top_out: dict[Suit, int] = {}
        for c in choice.outstanding:
            if c.rank > self.top_out.get(c.suit, -1):
                self.top_out[c.suit] = c.rank
        self.cheapest = min(c.rank.augen for c in legal) if legal else 0

    def row(self, card: Card) -> list[float]:
        suit, rank = card.suit, card.rank
        partner = _MARRIAGE_PARTNER.get(rank)
        is_trump = suit == self.trump
        row = [
            rank.augen / 10.0,
            1.0 if is_trump else 0.0,
            1.0 if partner is not None and Card(suit, partner) in self.held else 0.0,
            1.0 if self.top_out.get(suit, -1) < rank else 0.0,
            1.0 if self.lowest.get(suit, 99) >= rank else 0.0,
            self.length.get(suit, 0) / 5.0,
            1.0 if is_trump and self.top_trump <= rank else 0.0,
        ]
        lead = self.lead
        if lead is None:
            return row + [0.0] * 5
        wins = beats(card, lead, self.trump)
        row += [
            1.0 if suit == lead.suit else 0.0,
            1.0 if wins else 0.0,
            1.0 if wins and lead.rank.augen >= 10 else 0.0,
            1.0 if wins and is_trump and lead.suit != self.trump else 0.0,
            1.0 if rank.augen == self.cheapest else 0.0,
        ]
        return row


class PolicyModel:
    """Softmax card-choice probabilities from one weight vector per situation (:func:`context_key`), and how
    often a player on lead takes a trump exchange or announces a marriage it may (``special_rates``:
    ``exchange``, ``marriage``), so that leading a plain card instead tells that it likely could not."""

    __slots__ = ("special_rates", "weights")

    def __init__(
        self, weights: Mapping[str, Sequence[float]], special_rates: Mapping[str, float] | None = None
    ) -> None:
        for key, w in weights.items():
            if len(w) != len(FEATURES):
                raise ValueError(f"{key}: {len(w)} weights for {len(FEATURES)} features")
        self.weights = {k: tuple(w) for k, w in weights.items()}
        self.special_rates = dict(special_rates or {})
        for kind, rate in self.special_rates.items():
            if not 0.0 <= rate < 1.0:
                raise ValueError(f"{kind}: a rate must be in [0, 1), not {rate}")

    def plain_lead(self, exchange: bool, marriages: int) -> float:
        """The probability of leading a plain card when the exchange (``exchange``) and ``marriages``
        announcements were possible: each is passed over with ``1 - rate``.

        >>> PolicyModel({}, {"exchange": 0.9, "marriage": 0.5}).plain_lead(True, 1)
        0.05
        """
        p = 1.0 - self.special_rates.get("exchange", 0.0) if exchange else 1.0
        return round(p * (1.0 - self.special_rates.get("marriage", 0.0)) ** marriages, 12)

    def probabilities(self, choice: CardChoice) -> list[float]:
        """The probability of each card of ``choice.legal`` (same order)."""
        legal = choice.legal
        w = self.weights.get(choice.context)
        if w is None:
            return [1.0 / len(legal)] * len(legal)
        scores = [sum(map(operator.mul, w, row)) for row in legal_features(choice)]
        top = max(scores)
        exps = [math.exp(s - top) for s in scores]
        total = sum(exps)
        return [e / total for e in exps]

    def probability(self, card: Card, choice: CardChoice) -> float:
        """The probability that ``card`` is the one played in ``choice`` (0 if it is not legal)."""
        if card not in choice.legal:
            return 0.0
        return self.probabilities(choice)[list(choice.legal).index(card)]


#: Fitted weights by variant (``bench/policy_fit.py``); a variant without its own uses Schnapsen's.
#: Schnapsen: 650 self-play games of 12-world PIMC (seeds 0-249, 10000-10249, 20000-20149), 6550 card plays.
#: Fitted on the first 500 games, the mean log-likelihood per play on the other 150 was -0.924 against the
#: uniform choice's -1.609 when following with the talon open, -0.201 / -0.906 following under the strict
#: rules, -1.566 / -1.609 leading with the talon open (the leads say little) and -1.013 / -1.221 leading
#: under the strict rules (docs/bots.md, *Policy-based inference*).  These are the weights fitted on all.
MODELS: dict[str, dict[str, tuple[float, ...]]] = {
    "schnapsen": {
        "follow-open": (
            -0.3111,
            -2.9858,
            -1.502,
            -0.6547,
            0.8957,
            0.671,
            0.865,
            0.0462,
            4.4014,
            1.5848,
            -0.8492,
            1.0106,
        ),
        "follow-strict": (0.3771, 0.0, -0.6415, 0.1129, 0.4533, -0.6207, -0.8635, 0.0, 0.0, 0.0, 0.0, 3.679),
        "lead-open": (0.5797, 0.0294, -7.0524, 0.0585, 0.8127, 1.3644, -0.496, 0.0, 0.0, 0.0, 0.0, 0.0),
        "lead-strict": (-0.7646, -1.2575, -6.927, 1.3532, 1.153, 0.8363, 0.2792, 0.0, 0.0, 0.0, 0.0, 0.0),
    }
}

#: How often 12-world PIMC took a possible trump exchange and a possible marriage announcement on lead in
#: the same games (75 of 75 and 105 of 202 leads; Laplace's rule of succession, so never 1).
SPECIAL_RATES: dict[str, dict[str, float]] = {"schnapsen": {"exchange": 0.987, "marriage": 0.52}}


def model_for(variant: str) -> PolicyModel:
    """The fitted model for ``variant`` (Schnapsen's where the variant has none; uniform if none is fitted)."""
    weights = MODELS.get(variant) or MODELS.get("schnapsen") or {}
    rates = SPECIAL_RATES.get(variant) or SPECIAL_RATES.get("schnapsen") or {}
    return PolicyModel(weights, rates)
