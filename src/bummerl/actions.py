"""Actions of the two-player games and their one-token text form.

An action does not name its player: the game knows whose turn it is
(:attr:`bummerl.game.Game.to_move`).  Actions are interned like cards, so the
engine hands out the same objects again and again and comparing them is cheap.

====================  ============  =============================================
kind                  token         meaning
====================  ============  =============================================
``PLAY``              ``Ah``        lead or follow with a card
``MARRIAGE``          ``marry:Kh``  show King and Ober of a suit (20, or 40 in
                                    trumps) and lead the given one of them
``EXCHANGE``          ``exchange``  swap the lowest trump for the face-up trump
``CLOSE``             ``close``     close the talon (Zudrehen, Schnorps: Decken)
``DECLARE``           ``declare``   go out: "genug", 66 reached (Ausmelden,
                                    Schnorps: Weglegen)
``DECLARE`` + suit    ``declare:h`` show the marriage of that suit and go out at
                                    once, before its card is played
====================  ============  =============================================

>>> Action.parse("marry:Kh")
Action.parse('marry:Kh')
>>> Action.play(Card.parse("Ah")).token
'Ah'
>>> Action.parse("declare:h").suit
<Suit.HEARTS: 0>
"""

from __future__ import annotations

import enum

from bummerl.cards import CARDS, Card, Suit
from bummerl.errors import RecordError

__all__ = ["Action", "ActionKind"]


class ActionKind(enum.IntEnum):
    """What an action does."""

    PLAY = 0
    MARRIAGE = 1
    EXCHANGE = 2
    CLOSE = 3
    DECLARE = 4


class Action:
    """One decision of a player; build with the class methods or :meth:`parse`."""

    __slots__ = ("card", "code", "kind", "suit", "token")

    kind: ActionKind
    card: Card | None
    suit: Suit | None
    token: str
    #: A small integer naming the action (0..70); dense, stable, handy for
    #: tables and RL action spaces.
    code: int

    def __init__(self) -> None:  # pragma: no cover - construction goes through _make
        raise TypeError("use Action.play(), Action.marriage(), ... or Action.parse()")

    @classmethod
    def _make(cls, kind: ActionKind, card: Card | None, suit: Suit | None, token: str, code: int) -> Action:
        a = object.__new__(cls)
        a.kind, a.card, a.suit, a.token, a.code = kind, card, suit, token, code
        return a

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
    def exchange() -> Action:
        """Exchange the lowest trump for the face-up trump card."""
        return EXCHANGE

    @staticmethod
    def close() -> Action:
        """Close the talon (Zudrehen)."""
        return CLOSE

    @staticmethod
    def declare(marriage: Suit | None = None) -> Action:
        """Go out ("genug"), optionally showing the marriage in ``marriage`` first."""
        return DECLARE if marriage is None else _DECLARE_MARRIAGE[int(marriage)]

    @staticmethod
    def parse(token: str) -> Action:
        """Parse the one-token text form (see the module table)."""
        try:
            return _BY_TOKEN[token.strip()]
        except KeyError:
            pass
        except AttributeError:
            raise RecordError(f"an action token is a string, not {token!r}") from None
        t = token.strip()
        try:
            if t.startswith("marry:"):
                return Action.marriage(Card.parse(t[6:]))
            if t.startswith("declare:"):
                return Action.declare(Suit.parse(t[8:]))
            return Action.play(Card.parse(t))
        except ValueError as exc:
            raise RecordError(f"malformed action {token!r}: {exc}") from None

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


_PLAY: tuple[Action, ...] = tuple(Action._make(ActionKind.PLAY, c, c.suit, c.code, c.index) for c in CARDS)
_MARRIAGE: tuple[Action | None, ...] = tuple(
    Action._make(ActionKind.MARRIAGE, c, c.suit, "marry:" + c.code, 32 + c.index) if c.rank in (5, 4) else None
    for c in CARDS
)
#: Marriage actions by the index of the card led (Kings and Obers only).
MARRIAGE_BY_CARD: dict[int, Action] = {a.card.index: a for a in _MARRIAGE if a is not None and a.card is not None}
EXCHANGE = Action._make(ActionKind.EXCHANGE, None, None, "exchange", 64)
CLOSE = Action._make(ActionKind.CLOSE, None, None, "close", 65)
DECLARE = Action._make(ActionKind.DECLARE, None, None, "declare", 66)
_DECLARE_MARRIAGE: tuple[Action, ...] = tuple(
    Action._make(ActionKind.DECLARE, None, s, "declare:" + s.letter, 67 + int(s)) for s in Suit
)

#: Every action there is, indexed by ``Action.code``; ``None`` where no action has
#: that code (marriages of ranks other than King and Ober).
ALL_ACTIONS: tuple[Action | None, ...] = _PLAY + _MARRIAGE + (EXCHANGE, CLOSE, DECLARE) + _DECLARE_MARRIAGE
_BY_TOKEN: dict[str, Action] = {a.token: a for a in ALL_ACTIONS if a is not None}
