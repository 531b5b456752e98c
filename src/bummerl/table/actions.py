"""Actions of the three- and four-player games and their one-token text form.

Like the two-player :class:`bummerl.actions.Action`, a table action does not
name its player (the table knows whose turn it is) and is interned.

=================  ===============  ==============================================
kind               token            meaning
=================  ===============  ==============================================
``CUT``            ``cut``          cut the pack: deal 3 (and talon) then the rest
``KNOCK``          ``knock``        knock: everyone gets all cards at once
``CALL_TRUMP``     ``trump:h``      Vorhand calls a suit of their first three cards
``TURN_TRUMP``     ``turn``         Vorhand turns up their next card (Aufschlagen)
``BID``            ``bid:gang``     bid a contract (name as in the variant)
``PASS``           ``pass``         pass in the bidding, or decline to double
``DOUBLE``         ``kontra``       double (also ``rekontra``, ``subkontra``)
``DISCARD``        ``discard:Ah``   the soloist lays a card away (Dreierschnapsen)
``TAKE_TALON``     ``take-talon``   the soloist takes up the talon (option may_skip_talon)
``SKIP_TALON``     ``skip-talon``   the soloist leaves the talon: one point more
``PLAY``           ``Ah``           lead or follow with a card
``MARRIAGE``       ``marry:Kh``     show King and Ober, lead the given one
``DECLARE``        ``declare``      "Genug": the side has 66
``DECLARE``+suit   ``declare:h``    show the marriage of that suit and say "Genug"
=================  ===============  ==============================================

>>> TableAction.parse("bid:gang").contract
'gang'
>>> TableAction.parse("rekontra").level
2
>>> TableAction.parse("Ah") is TableAction.play(Card.parse("Ah"))
True
"""

from __future__ import annotations

import enum
from typing import ClassVar

from bummerl.cards import Card, Rank, Suit
from bummerl.errors import RecordError

__all__ = ["DOUBLE_NAMES", "TableAction", "TableActionKind"]

#: Token of each doubling step (seeds/004: "Kontra", "Rekontra", "Subkontra";
#: seeds/003 calls them "gespritzt" and "zurückgespritzt"/"Retour").
DOUBLE_NAMES = ("kontra", "rekontra", "subkontra")


class TableActionKind(enum.IntEnum):
    """What a table action does."""

    CUT = 0
    KNOCK = 1
    CALL_TRUMP = 2
    TURN_TRUMP = 3
    BID = 4
    PASS = 5
    DOUBLE = 6
    DISCARD = 7
    PLAY = 8
    MARRIAGE = 9
    DECLARE = 10
    TAKE_TALON = 11
    SKIP_TALON = 12


class TableAction:
    """One decision at the table; build with the class methods or :meth:`parse`."""

    __slots__ = ("card", "contract", "kind", "level", "suit", "token")

    kind: TableActionKind
    card: Card | None
    suit: Suit | None
    #: The contract name of a ``BID``.
    contract: str | None
    #: The doubling step of a ``DOUBLE``: 1 Kontra, 2 Rekontra, 3 Subkontra.
    level: int
    token: str

    _interned: ClassVar[dict[str, TableAction]] = {}

    def __init__(self) -> None:  # pragma: no cover - construction goes through _make
        raise TypeError("use TableAction.play(), TableAction.bid(), ... or TableAction.parse()")

    @classmethod
    def _make(
        cls,
        kind: TableActionKind,
        token: str,
        card: Card | None = None,
        suit: Suit | None = None,
        contract: str | None = None,
        level: int = 0,
    ) -> TableAction:
        try:
            return cls._interned[token]
        except KeyError:
            pass
        a = object.__new__(cls)
        a.kind, a.token, a.card, a.suit, a.contract, a.level = kind, token, card, suit, contract, level
        cls._interned[token] = a
        return a

    @classmethod
    def cut(cls) -> TableAction:
        return cls._make(TableActionKind.CUT, "cut")

    @classmethod
    def knock(cls) -> TableAction:
        return cls._make(TableActionKind.KNOCK, "knock")

    @classmethod
    def call_trump(cls, suit: Suit) -> TableAction:
        return cls._make(TableActionKind.CALL_TRUMP, "trump:" + suit.letter, suit=suit)

    @classmethod
    def turn_trump(cls) -> TableAction:
        return cls._make(TableActionKind.TURN_TRUMP, "turn")

    @classmethod
    def bid(cls, contract: str) -> TableAction:
        known = cls._interned.get("bid:" + contract)
        if known is not None:
            return known
        name = contract.strip().lower()
        if not name or not all(ch.isalnum() or ch == "-" for ch in name):
            raise ValueError(f"malformed contract name {contract!r}")
        return cls._make(TableActionKind.BID, "bid:" + name, contract=name)

    @classmethod
    def pass_(cls) -> TableAction:
        """Pass in the bidding, or decline to double."""
        return cls._make(TableActionKind.PASS, "pass")

    @classmethod
    def double(cls, level: int) -> TableAction:
        """Kontra (1), Rekontra (2) or Subkontra (3)."""
        if level not in (1, 2, 3):
            raise ValueError(f"doubling level must be 1, 2 or 3, not {level!r}")
        return cls._make(TableActionKind.DOUBLE, DOUBLE_NAMES[level - 1], level=level)

    @classmethod
    def take_talon(cls) -> TableAction:
        return cls._make(TableActionKind.TAKE_TALON, "take-talon")

    @classmethod
    def skip_talon(cls) -> TableAction:
        return cls._make(TableActionKind.SKIP_TALON, "skip-talon")

    @classmethod
    def discard(cls, card: Card) -> TableAction:
        return cls._make(TableActionKind.DISCARD, "discard:" + card.code, card=card, suit=card.suit)

    @classmethod
    def play(cls, card: Card) -> TableAction:
        return _PLAY[card.index]

    @classmethod
    def marriage(cls, card: Card) -> TableAction:
        if card.rank not in (Rank.KING, Rank.OBER):
            raise ValueError(f"a marriage is led with its King or Ober, not {card.code}")
        return cls._make(TableActionKind.MARRIAGE, "marry:" + card.code, card=card, suit=card.suit)

    @classmethod
    def declare(cls, marriage: Suit | None = None) -> TableAction:
        if marriage is None:
            return cls._make(TableActionKind.DECLARE, "declare")
        return cls._make(TableActionKind.DECLARE, "declare:" + marriage.letter, suit=marriage)

    @classmethod
    def parse(cls, token: str) -> TableAction:
        """Parse the one-token text form (see the module table)."""
        t = token.strip()
        try:
            return cls._interned[t]
        except KeyError:
            pass
        try:
            simple = {
                "cut": cls.cut,
                "knock": cls.knock,
                "turn": cls.turn_trump,
                "pass": cls.pass_,
                "declare": cls.declare,
                "take-talon": cls.take_talon,
                "skip-talon": cls.skip_talon,
            }
            if t in simple:
                return simple[t]()
            if t in DOUBLE_NAMES:
                return cls.double(DOUBLE_NAMES.index(t) + 1)
            head, sep, rest = t.partition(":")
            if sep:
                if head == "trump":
                    return cls.call_trump(Suit.parse(rest))
                if head == "bid":
                    return cls.bid(rest)
                if head == "discard":
                    return cls.discard(Card.parse(rest))
                if head == "marry":
                    return cls.marriage(Card.parse(rest))
                if head == "declare":
                    return cls.declare(Suit.parse(rest))
                raise ValueError(f"unknown action kind {head!r}")
            return cls.play(Card.parse(t))
        except ValueError as exc:
            raise RecordError(f"malformed table action {token!r}: {exc}") from None

    def __repr__(self) -> str:
        return f"TableAction.parse({self.token!r})"

    def __str__(self) -> str:
        return self.token

    def __reduce__(self) -> tuple[object, tuple[str]]:
        return (TableAction.parse, (self.token,))

    def __copy__(self) -> TableAction:
        return self

    def __deepcopy__(self, memo: object) -> TableAction:
        return self


def _make_plays() -> tuple[TableAction, ...]:
    from bummerl.cards import CARDS

    return tuple(TableAction._make(TableActionKind.PLAY, c.code, card=c, suit=c.suit) for c in CARDS)


_PLAY: tuple[TableAction, ...] = _make_plays()
