"""What happened: the frozen records that :meth:`bummerl.game.Game.apply` returns.

One action can cause several events: a card played may complete a trick, the
trick's winner and loser then draw from the talon, and the last trick may end
the game.  ``apply`` returns them in that order, so a front end (the server,
the terminal, the record writer, a replay) shows the play from them and never
compares a game before and after to guess what changed.

Some events hold a card only one seat may see: a talon card drawn, a card laid
away.  :meth:`Event.to_json` with the receiving ``seat`` names such a card only
to its owner (``None``: a spectator, who sees what lies face up); everything else
is public.

>>> from bummerl.game import Game
>>> game = Game.deal("schnapsen", seed=3)
>>> first = game.apply(game.legal_actions()[0])
>>> [type(e).__name__ for e in first]
['Play']
>>> events = game.apply(game.legal_actions()[0])
>>> [type(e).__name__ for e in events]
['Play', 'Trick', 'Draw', 'Draw']
>>> events[2].to_json(None)["card"] is None, events[2].to_json(events[2].seat)["card"] is not None
(True, True)

Events are tuples (``typing.NamedTuple``): made in the engine's innermost
loop, they must cost next to nothing.  A marriage carries its value, so no
front end restates the rule that a trump marriage is worth 40.
"""

from __future__ import annotations

from typing import Any, NamedTuple, TypeAlias

from bummerl.actions import DOUBLE_NAMES
from bummerl.cards import Card, Rank, Suit
from bummerl.rules.result import Result

__all__ = [
    "Bid",
    "Close",
    "Contract",
    "Cut",
    "Declare",
    "Discard",
    "Double",
    "Draw",
    "Event",
    "Exchange",
    "GameEnd",
    "Knock",
    "Marriage",
    "Pass",
    "Play",
    "TalonLeft",
    "TalonTaken",
    "Trick",
    "TrumpCall",
    "events_json",
]


def _code(card: Card | None) -> str | None:
    return None if card is None else card.code


# ------------------------------------------------------------------ card play (every variant)
class Play(NamedTuple):
    """``seat`` led or followed with ``card``."""

    seat: int
    card: Card

    def to_json(self, seat: int | None) -> dict[str, Any]:
        return {"type": "play", "seat": self.seat, "card": self.card.code}


class Trick(NamedTuple):
    """A trick was completed: ``cards`` as ``(seat, card)`` in play order, won by ``winner`` for ``augen``."""

    leader: int
    cards: tuple[tuple[int, Card], ...]
    winner: int
    augen: int

    def to_json(self, seat: int | None) -> dict[str, Any]:
        out: dict[str, Any] = {
            "type": "trick",
            "leader": self.leader,
            "winner": self.winner,
            "cards": [{"seat": s, "card": c.code} for s, c in self.cards],
            "augen": self.augen,
        }
        if len(self.cards) == 2:
            # The two-player shape of docs/web.md: the lead and the card that followed it.
            out["lead"], out["follow"] = self.cards[0][1].code, self.cards[1][1].code
        return out


class Marriage(NamedTuple):
    """``seat`` showed King and Ober of ``suit``: ``value`` is 20, or 40 in trumps."""

    seat: int
    suit: Suit
    value: int

    def to_json(self, seat: int | None) -> dict[str, Any]:
        cards = [Card(self.suit, Rank.KING).code, Card(self.suit, Rank.OBER).code]
        return {"type": "marriage", "seat": self.seat, "suit": self.suit.letter, "cards": cards, "value": self.value}


class Declare(NamedTuple):
    """``seat`` went out ("genug"); ``suit``: the marriage shown with it, if any."""

    seat: int
    suit: Suit | None = None

    def to_json(self, seat: int | None) -> dict[str, Any]:
        return {"type": "declare", "seat": self.seat, "suit": None if self.suit is None else self.suit.letter}


class GameEnd(NamedTuple):
    """The game of ``players`` seats is over with ``result`` (a two-player ``GameResult``, a ``TableResult``).

    >>> from bummerl.game import Game
    >>> game = Game.deal("dreierschnapsen", seed=1)
    >>> while not game.is_over:
    ...     events = game.apply(game.legal_actions()[0])
    >>> end = events[-1].to_json(None)
    >>> end["type"], len(end["result"]["points_by_seat"])
    ('game_end', 3)
    """

    result: Result
    players: int = 2

    def to_json(self, seat: int | None) -> dict[str, Any]:
        # The result writes its own JSON: the bot protocol's (docs/protocol.md), as view_json's result_to_json.
        return {"type": "game_end", "result": self.result.to_json(self.players)}


# ------------------------------------------------------------------- the two-player talon
class Draw(NamedTuple):
    """``seat`` drew ``card`` from the talon; ``face_up``: the turned trump card, which everybody saw."""

    seat: int
    card: Card
    face_up: bool = False

    def to_json(self, seat: int | None) -> dict[str, Any]:
        shown = self.face_up or seat == self.seat
        return {"type": "draw", "seat": self.seat, "card": self.card.code if shown else None}


class Exchange(NamedTuple):
    """``seat`` took the face-up trump card ``took`` for the low trump ``gave`` (now face up)."""

    seat: int
    took: Card
    gave: Card

    def to_json(self, seat: int | None) -> dict[str, Any]:
        return {"type": "exchange", "seat": self.seat, "took": self.took.code, "gave": self.gave.code}


class Close(NamedTuple):
    """``seat`` closed the talon (Zudrehen, Schnorps: Decken)."""

    seat: int

    def to_json(self, seat: int | None) -> dict[str, Any]:
        return {"type": "close", "seat": self.seat}


# ---------------------------------------------------------- the table games before the play
class Cut(NamedTuple):
    """``seat`` cut the pack (three cards, then the rest)."""

    seat: int

    def to_json(self, seat: int | None) -> dict[str, Any]:
        return {"type": "cut", "seat": self.seat}


class Knock(NamedTuple):
    """``seat`` knocked: every hand was dealt at once."""

    seat: int

    def to_json(self, seat: int | None) -> dict[str, Any]:
        return {"type": "knock", "seat": self.seat}


class TrumpCall(NamedTuple):
    """``seat`` named ``suit`` trump, or turned up ``card`` (Aufschlagen), which names it."""

    seat: int
    suit: Suit
    card: Card | None = None

    def to_json(self, seat: int | None) -> dict[str, Any]:
        return {"type": "trump", "seat": self.seat, "suit": self.suit.letter, "card": _code(self.card)}


class Bid(NamedTuple):
    """``seat`` bid the contract called ``contract``."""

    seat: int
    contract: str

    def to_json(self, seat: int | None) -> dict[str, Any]:
        return {"type": "bid", "seat": self.seat, "contract": self.contract}


class Pass(NamedTuple):
    """``seat`` passed (in the bidding, or declining to double)."""

    seat: int

    def to_json(self, seat: int | None) -> dict[str, Any]:
        return {"type": "pass", "seat": self.seat}


class Contract(NamedTuple):
    """The bidding is over: ``declarer`` plays ``contract``."""

    contract: str
    declarer: int

    def to_json(self, seat: int | None) -> dict[str, Any]:
        return {"type": "contract", "contract": self.contract, "declarer": self.declarer}


class Double(NamedTuple):
    """``seat`` doubled: ``level`` 1 Kontra, 2 Rekontra, 3 Subkontra."""

    seat: int
    level: int

    def to_json(self, seat: int | None) -> dict[str, Any]:
        return {"type": "double", "seat": self.seat, "level": self.level, "name": DOUBLE_NAMES[self.level - 1]}


class TalonTaken(NamedTuple):
    """The soloist ``seat`` took up the talon ``cards`` (Dreierschnapsen); only they see them."""

    seat: int
    cards: tuple[Card, ...]

    def to_json(self, seat: int | None) -> dict[str, Any]:
        shown = seat == self.seat
        return {"type": "take_talon", "seat": self.seat, "cards": [c.code for c in self.cards] if shown else None}


class TalonLeft(NamedTuple):
    """The soloist ``seat`` left the talon face down (one game point more)."""

    seat: int

    def to_json(self, seat: int | None) -> dict[str, Any]:
        return {"type": "skip_talon", "seat": self.seat}


class Discard(NamedTuple):
    """The soloist ``seat`` laid ``card`` away, face down (seeds/004: "ohne sie den Gegenspielern zu zeigen")."""

    seat: int
    card: Card

    def to_json(self, seat: int | None) -> dict[str, Any]:
        return {"type": "discard", "seat": self.seat, "card": self.card.code if seat == self.seat else None}


#: Everything :meth:`~bummerl.game.Game.apply` may return.
Event: TypeAlias = (
    Play
    | Trick
    | Marriage
    | Declare
    | GameEnd
    | Draw
    | Exchange
    | Close
    | Cut
    | Knock
    | TrumpCall
    | Bid
    | Pass
    | Contract
    | Double
    | TalonTaken
    | TalonLeft
    | Discard
)


def events_json(events: tuple[Event, ...] | list[Event], seat: int | None) -> list[dict[str, Any]]:
    """The events as ``seat`` (``None``: a spectator) may see them, as JSON objects."""
    return [e.to_json(seat) for e in events]
