"""Actions of every variant and their one-token text form.

An action does not name its player: the game knows whose turn it is
(:attr:`bummerl.game.Game.to_move`).  Actions are interned like cards, so the
engine hands out the same objects again and again and comparing them is cheap.
One type serves the two-player games and the table games: a record, the bot
protocol and the web API read every token with :meth:`Action.parse`, and each
game offers the kinds its variant has.

Card play, every variant:

====================  ============  =============================================
kind                  token         meaning
====================  ============  =============================================
``PLAY``              ``Ah``        lead or follow with a card
``MARRIAGE``          ``marry:Kh``  show King and Ober of a suit (20, or 40 in
                                    trumps) and lead the given one of them
``DECLARE``           ``declare``   go out: "genug", 66 reached (Ausmelden,
                                    Schnorps: Weglegen)
``DECLARE`` + suit    ``declare:h`` show the marriage of that suit and go out at
                                    once, before its card is played
====================  ============  =============================================

The talon of the two-player games:

====================  ============  =============================================
``EXCHANGE``          ``exchange``  swap the lowest trump for the face-up trump
``CLOSE``             ``close``     close the talon (Zudrehen, Schnorps: Decken)
====================  ============  =============================================

The phases before the play of the table games (Bauernschnapsen, Dreierschnapsen):

=================  ===============  ==============================================
``CUT``            ``cut``          cut the pack: deal 3 (and talon) then the rest
``KNOCK``          ``knock``        knock: everyone gets all cards at once
``CALL_TRUMP``     ``trump:h``      Vorhand calls a suit of their first three cards
``TURN_TRUMP``     ``turn``         Vorhand turns up their next card (Aufschlagen)
``BID``            ``bid:gang``     bid a contract (name as in the variant)
``PASS``           ``pass``         pass in the bidding, or decline to double
``DOUBLE``         ``kontra``       double (also ``rekontra``, ``subkontra``)
``TAKE_TALON``     ``take-talon``   the soloist takes up the talon (Dreierschnapsen)
``SKIP_TALON``     ``skip-talon``   the soloist leaves the talon: one point more
``DISCARD``        ``discard:Ah``   the soloist lays a card away
=================  ===============  ==============================================

>>> Action.parse("marry:Kh")
Action.parse('marry:Kh')
>>> Action.play(Card.parse("Ah")).token
'Ah'
>>> Action.parse("declare:h").suit
<Suit.HEARTS: 0>
>>> Action.parse("bid:gang").contract, Action.parse("rekontra").level
('gang', 2)
>>> Action.parse("Ah") is Action.play(Card.parse("Ah"))
True

``code`` numbers the actions densely and for good: 0..70 are the two-player
games' (plays 0..31, marriages 32..63, exchange 64, close 65, declare 66,
declare with a marriage 67..70; the solver and the RL action spaces rely on
them), 71.. the fixed ones of the table games.  A bid's contract is a name of
its variant, so bids have no fixed code (``-1``): a variant numbers its own bids.
"""

from __future__ import annotations

import enum
from typing import ClassVar

from bummerl.cards import CARDS, Card, Rank, Suit
from bummerl.errors import RecordError

__all__ = ["DOUBLE_NAMES", "Action", "ActionKind"]

#: Token of each doubling step (seeds/004: "Kontra", "Rekontra", "Subkontra";
#: seeds/003 calls them "gespritzt" and "zurückgespritzt"/"Retour").
DOUBLE_NAMES = ("kontra", "rekontra", "subkontra")


class ActionKind(enum.IntEnum):
    """What an action does."""

    PLAY = 0
    MARRIAGE = 1
    EXCHANGE = 2
    CLOSE = 3
    DECLARE = 4
    CUT = 5
    KNOCK = 6
    CALL_TRUMP = 7
    TURN_TRUMP = 8
    BID = 9
    PASS = 10
    DOUBLE = 11
    DISCARD = 12
    TAKE_TALON = 13
    SKIP_TALON = 14


class Action:
    """One decision of a player; build with the class methods or :meth:`parse`."""

    __slots__ = ("card", "code", "contract", "kind", "level", "suit", "token")

    kind: ActionKind
    card: Card | None
    suit: Suit | None
    token: str
    #: A small integer naming the action (see the module docstring); ``-1`` for a bid.
    code: int
    #: The contract name of a ``BID``.
    contract: str | None
    #: The doubling step of a ``DOUBLE``: 1 Kontra, 2 Rekontra, 3 Subkontra.
    level: int

    _interned: ClassVar[dict[str, Action]] = {}

    def __init__(self) -> None:  # pragma: no cover - construction goes through _make
        raise TypeError("use Action.play(), Action.marriage(), Action.bid(), ... or Action.parse()")

    @classmethod
    def _make(
        cls,
        kind: ActionKind,
        token: str,
        code: int,
        card: Card | None = None,
        suit: Suit | None = None,
        contract: str | None = None,
        level: int = 0,
    ) -> Action:
        known = cls._interned.get(token)
        if known is not None:
            return known
        a = object.__new__(cls)
        a.kind, a.token, a.code, a.card, a.suit, a.contract, a.level = kind, token, code, card, suit, contract, level
        cls._interned[token] = a
        return a

    # ----------------------------------------------------------- card play
    @staticmethod
    def play(card: Card) -> Action:
        """Lead or follow with ``card``."""
        return _PLAY[card.index]

    @staticmethod
    def marriage(card: Card) -> Action:
        """Announce the marriage of ``card``'s suit and lead ``card`` (a King or Ober)."""
        action = _MARRIAGE[card.index]
        if action is None:
            raise ValueError(f"a marriage is led with its King or Ober, not {card.code}")
        return action

    @staticmethod
    def declare(marriage: Suit | None = None) -> Action:
        """Go out ("genug"), optionally showing the marriage in ``marriage`` first."""
        return DECLARE if marriage is None else _DECLARE_MARRIAGE[int(marriage)]

    # ------------------------------------------------------------- talon
    @staticmethod
    def exchange() -> Action:
        """Exchange the lowest trump for the face-up trump card."""
        return EXCHANGE

    @staticmethod
    def close() -> Action:
        """Close the talon (Zudrehen)."""
        return CLOSE

    # ---------------------------------------------------- the table games
    @staticmethod
    def cut() -> Action:
        return CUT

    @staticmethod
    def knock() -> Action:
        return KNOCK

    @staticmethod
    def call_trump(suit: Suit) -> Action:
        return _CALL_TRUMP[int(suit)]

    @staticmethod
    def turn_trump() -> Action:
        return TURN_TRUMP

    @classmethod
    def bid(cls, contract: str) -> Action:
        """Bid the contract called ``contract`` (a name of the variant's contracts)."""
        known = cls._interned.get("bid:" + contract)
        if known is not None:
            return known
        name = contract.strip().lower()
        if not name or not all(ch.isalnum() or ch == "-" for ch in name):
            raise ValueError(f"malformed contract name {contract!r}")
        return cls._make(ActionKind.BID, "bid:" + name, -1, contract=name)

    @staticmethod
    def pass_() -> Action:
        """Pass in the bidding, or decline to double."""
        return PASS

    @staticmethod
    def double(level: int) -> Action:
        """Kontra (1), Rekontra (2) or Subkontra (3)."""
        if level not in (1, 2, 3):
            raise ValueError(f"doubling level must be 1, 2 or 3, not {level!r}")
        return _DOUBLE[level - 1]

    @staticmethod
    def take_talon() -> Action:
        return TAKE_TALON

    @staticmethod
    def skip_talon() -> Action:
        return SKIP_TALON

    @staticmethod
    def discard(card: Card) -> Action:
        """Lay ``card`` away (the Dreierschnapsen soloist, after taking up the talon)."""
        return _DISCARD[card.index]

    # ------------------------------------------------------------ text form
    @staticmethod
    def parse(token: str) -> Action:
        """Parse the one-token text form (see the module tables)."""
        try:
            return Action._interned[token]
        except KeyError:
            pass
        except TypeError:
            raise RecordError(f"an action token is a string, not {token!r}") from None
        if not isinstance(token, str):
            raise RecordError(f"an action token is a string, not {token!r}")
        t = token.strip()
        known = Action._interned.get(t)
        if known is not None:
            return known
        head, sep, rest = t.partition(":")
        try:
            if not sep:
                return Action.play(Card.parse(t))
            if head == "marry":
                return Action.marriage(Card.parse(rest))
            if head == "declare":
                return Action.declare(Suit.parse(rest))
            if head == "trump":
                return Action.call_trump(Suit.parse(rest))
            if head == "bid":
                return Action.bid(rest)
            if head == "discard":
                return Action.discard(Card.parse(rest))
        except ValueError as exc:
            raise RecordError(f"malformed action {token!r}: {exc}") from None
        raise RecordError(f"malformed action {token!r}: unknown action kind {head!r}")

    def __repr__(self) -> str:
        return f"Action.parse({self.token!r})"

    def __str__(self) -> str:
        return self.token

    def __reduce__(self) -> tuple[object, tuple[str]]:
        return (Action.parse, (self.token,))

    def __copy__(self) -> Action:
        return self

    def __deepcopy__(self, memo: object) -> Action:
        return self


_K = ActionKind
_PLAY: tuple[Action, ...] = tuple(Action._make(_K.PLAY, c.code, c.index, c, c.suit) for c in CARDS)
_MARRIAGE: tuple[Action | None, ...] = tuple(
    Action._make(_K.MARRIAGE, "marry:" + c.code, 32 + c.index, c, c.suit) if c.rank in (Rank.KING, Rank.OBER) else None
    for c in CARDS
)
#: Marriage actions by the index of the card led (Kings and Obers only).
MARRIAGE_BY_CARD: dict[int, Action] = {a.card.index: a for a in _MARRIAGE if a is not None and a.card is not None}
EXCHANGE = Action._make(_K.EXCHANGE, "exchange", 64)
CLOSE = Action._make(_K.CLOSE, "close", 65)
DECLARE = Action._make(_K.DECLARE, "declare", 66)
_DECLARE_MARRIAGE: tuple[Action, ...] = tuple(
    Action._make(_K.DECLARE, "declare:" + s.letter, 67 + int(s), suit=s) for s in Suit
)
CUT = Action._make(_K.CUT, "cut", 71)
KNOCK = Action._make(_K.KNOCK, "knock", 72)
_CALL_TRUMP: tuple[Action, ...] = tuple(
    Action._make(_K.CALL_TRUMP, "trump:" + s.letter, 73 + int(s), suit=s) for s in Suit
)
TURN_TRUMP = Action._make(_K.TURN_TRUMP, "turn", 77)
PASS = Action._make(_K.PASS, "pass", 78)
_DOUBLE: tuple[Action, ...] = tuple(
    Action._make(_K.DOUBLE, name, 79 + i, level=i + 1) for i, name in enumerate(DOUBLE_NAMES)
)
TAKE_TALON = Action._make(_K.TAKE_TALON, "take-talon", 82)
SKIP_TALON = Action._make(_K.SKIP_TALON, "skip-talon", 83)
_DISCARD: tuple[Action, ...] = tuple(
    Action._make(_K.DISCARD, "discard:" + c.code, 84 + c.index, c, c.suit) for c in CARDS
)

#: Every action with a fixed code, indexed by ``Action.code``; ``None`` where no action has that code
#: (marriages of ranks other than King and Ober).
ALL_ACTIONS: tuple[Action | None, ...] = (
    _PLAY
    + _MARRIAGE
    + (EXCHANGE, CLOSE, DECLARE)
    + _DECLARE_MARRIAGE
    + (CUT, KNOCK)
    + _CALL_TRUMP
    + (TURN_TRUMP, PASS)
    + _DOUBLE
    + (TAKE_TALON, SKIP_TALON)
    + _DISCARD
)
#: The kinds of the two-player games (card play and the talon).
TWO_PLAYER_KINDS = frozenset(
    {ActionKind.PLAY, ActionKind.MARRIAGE, ActionKind.EXCHANGE, ActionKind.CLOSE, ActionKind.DECLARE}
)
#: The two-player games' actions by code (0..70), for the solver and the two-player action spaces.
TWO_PLAYER_ACTIONS: tuple[Action | None, ...] = ALL_ACTIONS[:71]
_BY_TOKEN: dict[str, Action] = Action._interned
