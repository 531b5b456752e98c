"""Cards of the Schnapsen family: suits, ranks, cards, decks and their names.

One card model serves both faces: the doppeldeutsche (German-suited) pack and the
French pack.  Records always use the fixed ASCII notation of :meth:`Card.code`
(rank letter then suit letter, e.g. ``Ah``, ``Tc``, ``Qs``, ``9d``); the player
chooses which face and language is shown.

Cards are interned: there is exactly one :class:`Card` object per suit and rank,
so ``is`` and ``==`` agree and cards are cheap to hash and compare.

>>> card = Card.parse("Qh")
>>> card.suit, card.rank, card.augen
(<Suit.HEARTS: 0>, <Rank.OBER: 4>, 3)
>>> card is Card(Suit.HEARTS, Rank.OBER)
True
>>> card.name("german", "de"), card.name("french", "en")
('Herz-Ober', 'Queen of Hearts')
>>> [c.code for c in deck(20)][:5]
['Ah', 'Th', 'Kh', 'Qh', 'Jh']

This module must never import from the rest of the package: everything builds on it.
"""

from __future__ import annotations

import enum
import operator
from collections.abc import Iterable, Sequence
from typing import ClassVar

__all__ = [
    "CARDS",
    "FACES",
    "LANGUAGES",
    "Card",
    "Rank",
    "Suit",
    "card_order",
    "deck",
    "format_cards",
    "marriage_value",
    "parse_cards",
    "siegpunkte",
]

FACES = ("german", "french")
LANGUAGES = ("de", "en")


class Suit(enum.IntEnum):
    """The four suits; the enum names are the French-pack English names.

    German faces: Herz, Schellen, Eichel, Laub (Grün).  French faces: Herz (Cœur),
    Karo, Kreuz, Pik.  The pairing is the one printed on Austrian
    "deutsch-französische" tournament cards.
    """

    HEARTS = 0
    DIAMONDS = 1
    CLUBS = 2
    SPADES = 3

    @property
    def letter(self) -> str:
        """The ASCII letter used in records: ``h``, ``d``, ``c`` or ``s``."""
        return _SUIT_LETTERS[self]

    @classmethod
    def parse(cls, text: str) -> Suit:
        """Parse a suit letter (``h``/``d``/``c``/``s``, case-insensitive)."""
        try:
            return cls(_SUIT_LETTERS.index(text.strip().lower()))
        except ValueError:
            raise ValueError(f"unknown suit {text!r}: expected one of h, d, c, s") from None

    def name_in(self, faces: str = "german", lang: str = "de") -> str:
        """The suit's name on the chosen faces and language."""
        return _SUIT_NAMES[(_check_faces(faces), _check_lang(lang))][self]


class Rank(enum.IntEnum):
    """Ranks, valued so that a higher value beats a lower one in the same suit.

    Order (RULES.md, Cards): A, 10, K, O/D, U/B, then 9, 8, 7 where a variant uses them.
    ``QUEEN`` and ``JACK`` are aliases of the German ``OBER`` and ``UNTER``.
    """

    SEVEN = 0
    EIGHT = 1
    NINE = 2
    UNTER = 3
    OBER = 4
    KING = 5
    TEN = 6
    ACE = 7
    JACK = 3
    QUEEN = 4

    @property
    def letter(self) -> str:
        """The ASCII letter used in records: ``A T K Q J 9 8 7``."""
        return _RANK_LETTERS[self]

    @property
    def augen(self) -> int:
        """Card points (Augen): A 11, 10 10, K 4, O 3, U 2, 9/8/7 0."""
        return _AUGEN[self]

    @classmethod
    def parse(cls, text: str) -> Rank:
        """Parse a rank letter; accepts ``T`` or ``10``, and German ``O``/``U``."""
        key = text.strip().upper()
        key = {"10": "T", "O": "Q", "D": "Q", "U": "J", "B": "J"}.get(key, key)
        try:
            return cls(_RANK_LETTERS.index(key))
        except ValueError:
            raise ValueError(f"unknown rank {text!r}: expected one of A T K Q J 9 8 7") from None

    def name_in(self, faces: str = "german", lang: str = "de") -> str:
        """The rank's name on the chosen faces and language."""
        return _RANK_NAMES[(_check_faces(faces), _check_lang(lang))][self]


_SUIT_LETTERS = "hdcs"
_RANK_LETTERS = "789JQKTA"
_AUGEN = (0, 0, 0, 2, 3, 4, 10, 11)

_SUIT_NAMES: dict[tuple[str, str], tuple[str, ...]] = {
    ("german", "de"): ("Herz", "Schellen", "Eichel", "Laub"),
    ("german", "en"): ("Hearts", "Bells", "Acorns", "Leaves"),
    ("french", "de"): ("Herz", "Karo", "Kreuz", "Pik"),
    ("french", "en"): ("Hearts", "Diamonds", "Clubs", "Spades"),
}
_RANK_NAMES: dict[tuple[str, str], tuple[str, ...]] = {
    ("german", "de"): ("Sieben", "Acht", "Neun", "Unter", "Ober", "König", "Zehner", "Ass"),
    ("german", "en"): ("Seven", "Eight", "Nine", "Unter", "Ober", "King", "Ten", "Ace"),
    ("french", "de"): ("Sieben", "Acht", "Neun", "Bube", "Dame", "König", "Zehner", "Ass"),
    ("french", "en"): ("Seven", "Eight", "Nine", "Jack", "Queen", "King", "Ten", "Ace"),
}


def _check_faces(faces: str) -> str:
    if faces not in FACES:
        raise ValueError(f"unknown card faces {faces!r}: expected 'german' or 'french'")
    return faces


def _check_lang(lang: str) -> str:
    if lang not in LANGUAGES:
        raise ValueError(f"unknown language {lang!r}: expected 'de' or 'en'")
    return lang


class Card:
    """A playing card; ``Card(suit, rank)`` always returns the one interned object.

    Attributes are plain slots for speed: ``suit``, ``rank``, ``augen`` and
    ``index`` (``suit * 8 + rank``, 0..31, stable across versions; used for
    bitmasks and tables).  Cards compare by identity (each card is one object)
    and define no ordering: a class with a comparison method of its own makes
    *every* comparison, ``==`` and ``in`` included, go through a Python-level
    dispatcher, six times slower, and the engine tests cards for membership at
    every step.  Sort with ``key=card_order`` (:data:`card_order`, by ``index``).
    """

    __slots__ = ("augen", "code", "index", "rank", "suit")

    suit: Suit
    rank: Rank
    augen: int
    index: int
    code: str

    _interned: ClassVar[dict[tuple[int, int], Card]] = {}

    def __new__(cls, suit: Suit | int, rank: Rank | int) -> Card:
        try:
            return cls._interned[(int(suit), int(rank))]
        except KeyError:
            pass
        s, r = Suit(suit), Rank(rank)
        card = object.__new__(cls)
        card.suit = s
        card.rank = r
        card.augen = r.augen
        card.index = int(s) * 8 + int(r)
        card.code = r.letter + s.letter
        cls._interned[(int(s), int(r))] = card
        return card

    def __reduce__(self) -> tuple[type[Card], tuple[int, int]]:
        return (Card, (int(self.suit), int(self.rank)))

    def __copy__(self) -> Card:
        return self

    def __deepcopy__(self, memo: object) -> Card:
        return self

    @classmethod
    def parse(cls, text: str) -> Card:
        """Parse the ASCII notation: rank then suit, e.g. ``Ah``, ``10d``, ``Oc``."""
        t = text.strip()
        if len(t) < 2:
            raise ValueError(f"malformed card {text!r}: expected rank then suit, e.g. 'Ah'")
        return cls(Suit.parse(t[-1]), Rank.parse(t[:-1]))

    def name(self, faces: str = "german", lang: str = "de") -> str:
        """The full name, e.g. ``Herz-Ober``, ``Queen of Hearts``."""
        suit = self.suit.name_in(faces, lang)
        rank = self.rank.name_in(faces, lang)
        return f"{suit}-{rank}" if lang == "de" else f"{rank} of {suit}"

    def short(self, faces: str = "german", lang: str = "de") -> str:
        """A short display label such as ``H-O`` (German) or ``QH`` (French, English)."""
        if faces == "german":
            rank = {"J": "U", "Q": "O", "T": "10"}.get(self.rank.letter, self.rank.letter)
            suit = {"de": "HSEL", "en": "HBAL"}[_check_lang(lang)][self.suit]
            return f"{suit}-{rank}"
        rank = "10" if self.rank == Rank.TEN else self.rank.letter
        if lang == "de":
            rank = {"Q": "D", "J": "B"}.get(rank, rank)
        return rank + "\u2665\u2666\u2663\u2660"[self.suit]

    def __repr__(self) -> str:
        return f"Card.parse({self.code!r})"

    def __str__(self) -> str:
        return self.code


#: The sort key of cards: the pack's order, by ``Card.index`` (``sorted(cards, key=card_order)``).
card_order = operator.attrgetter("index")

#: All 32 cards, indexed by ``Card.index``.
CARDS: tuple[Card, ...] = tuple(Card(s, r) for s in Suit for r in sorted(set(Rank)))

_DECK_RANKS = {
    20: (Rank.ACE, Rank.TEN, Rank.KING, Rank.OBER, Rank.UNTER),
    24: (Rank.ACE, Rank.TEN, Rank.KING, Rank.OBER, Rank.UNTER, Rank.NINE),
    32: (Rank.ACE, Rank.TEN, Rank.KING, Rank.OBER, Rank.UNTER, Rank.NINE, Rank.EIGHT, Rank.SEVEN),
}


def deck(size: int) -> tuple[Card, ...]:
    """The ordered pack of 20, 24 or 32 cards (suits H, D, C, S; ranks high to low), or a research pack.

    The research packs of 8, 10 and 12 cards (:mod:`bummerl.variants.research`) hold two suits, Hearts and
    Diamonds, of the four, five or six highest ranks of Sechsundsechzig's pack.

    >>> format_cards(deck(8))
    'AhThKhQhAdTdKdQd'
    """
    try:
        return _DECKS[size]
    except (KeyError, TypeError):
        raise ValueError(f"no Schnapsen pack has {size} cards: expected 20, 24 or 32 (or 8, 10, 12)") from None


#: The packs, built once (tuples: safe to share).
_DECKS: dict[int, tuple[Card, ...]] = {n: tuple(Card(s, r) for s in Suit for r in rs) for n, rs in _DECK_RANKS.items()}
_DECKS.update(
    {2 * k: tuple(Card(s, r) for s in (Suit.HEARTS, Suit.DIAMONDS) for r in _DECK_RANKS[24][:k]) for k in (4, 5, 6)}
)


def marriage_value(suit: Suit | int, trump: Suit | int | None) -> int:
    """Augen of a marriage (King and Ober of ``suit`` shown): 20, or 40 in trumps.

    seeds/000: "Eine Ansage mit Atout zählt 40 Augen ... Eine Ansage in einer
    anderen Farbe zählt 20 Augen"; Schnorps and Bauernschnapsen count alike
    (seeds/001: "20, wenn man eine Mariage ... hat, u. 40 wenn sie von der
    Trumpffarbe sind"; seeds/004).  This is the one definition: it sits here, beside the cards'
    Augen, because it is a value of cards, the same in every variant of the
    family, and this module is the one that every layer (engines, positions,
    text, bots, solver, server) may import without a cycle.  ``trump`` is
    ``None`` before a table game's trump call; the solvers pass suits as plain
    ints (a :class:`Suit` is one).

    >>> marriage_value(Suit.HEARTS, Suit.HEARTS), marriage_value(Suit.CLUBS, Suit.HEARTS)
    (40, 20)
    """
    return 40 if suit == trump else 20


def siegpunkte(loser_augen: int, loser_won_a_trick: bool) -> int:
    """Game points (Siegpunkte) of a game won by 66: 3 if the loser took no trick, 2 under 33 Augen, else 1.

    seeds/000: "Hat der Gegner keinen Stich erzielt, so gewinnt der Spieler drei Punkte ..., hat der Gegner
    nur 32 oder weniger Augen gewinnen können, ... zwei Punkte, und hat der Gegner 33 oder mehr Augen
    gesammelt, ... einen Punkt"; the normal game of Bauernschnapsen alike (seeds/004: "1 Spielpunkt, wenn die
    Gegenspieler 33 oder mehr Kartenpunkte haben ... 3 Spielpunkte, wenn die Gegner keinen Stich gemacht
    haben").  The one definition, beside :func:`marriage_value` for the same reason; Schnorps pays in Marken
    by the same thresholds (:mod:`bummerl.variants.two_player`).

    >>> siegpunkte(0, False), siegpunkte(32, True), siegpunkte(33, True)
    (3, 2, 1)
    """
    if not loser_won_a_trick:
        return 3
    return 2 if loser_augen < 33 else 1


def parse_cards(text: str) -> tuple[Card, ...]:
    """Parse cards written together or separated by spaces/commas: ``"AhTh Kd"``."""
    tokens = text.replace(",", " ").split()
    cards: list[Card] = []
    for token in tokens:
        i = 0
        while i < len(token):
            j = i + 3 if token[i : i + 2] == "10" else i + 2
            cards.append(Card.parse(token[i:j]))
            i = j
    return tuple(cards)


def format_cards(cards: Iterable[Card], sep: str = "") -> str:
    """Inverse of :func:`parse_cards`."""
    return sep.join(c.code for c in cards)


def sort_hand(cards: Sequence[Card], trump: Suit | None = None) -> list[Card]:
    """Cards sorted for display: trumps first, then by suit, high ranks first."""

    def key(c: Card) -> tuple[int, int, int]:
        return (0 if c.suit == trump else 1, int(c.suit), -int(c.rank))

    return sorted(cards, key=key)
