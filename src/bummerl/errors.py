"""Errors raised by Bummerl, each naming the rule or format it enforces.

Every error is a :class:`ValueError` subclass, so callers that only care about
"bad input" can catch ``ValueError``.  :class:`IllegalActionError` carries a
:class:`Rule` whose ``source`` cites the seed sentence or RULES.md line.

>>> err = IllegalActionError(Rule.FARBZWANG, "must follow Hearts")
>>> str(err)
'illegal action (Farbzwang): must follow Hearts'
>>> err.rule.name
'FARBZWANG'

The engines state each rule once, as a function that returns a
:data:`Refusal` (or ``None`` when the action is legal): the same function
filters the legal actions and, raised as ``IllegalActionError(*refusal)``,
explains a refused one.
"""

from __future__ import annotations

import enum
from typing import TypeAlias

__all__ = [
    "BummerlError",
    "IllegalActionError",
    "PositionError",
    "RecordError",
    "Refusal",
    "Rule",
    "UnknownVariantError",
]


class Rule(enum.Enum):
    """Rules that an action can break, with a short title and their source."""

    def __init__(self, title: str, source: str) -> None:
        self.title = title
        self.source = source

    GAME_OVER = ("game over", "the game has ended; no further action is possible")
    TURN = (
        "turn",
        "seeds/000: 'Vorhand spielt zum ersten Stich aus ... spielt der Gewinner des Stichs zum nächsten Stich aus'",
    )
    NOT_IN_HAND = ("card not in hand", "a player can only play a card they hold")
    NOT_ON_LEAD = (
        "on lead only",
        "RULES.md: exchange, closing, marriages and declaring belong to the player on lead, before leading",
    )
    FARBZWANG = (
        "Farbzwang",
        "seeds/000: 'Farbzwang geht immer vor Stichzwang' — a card of the led suit must be played",
    )
    STICHZWANG = ("Stichzwang", "seeds/000: 'mit einer höheren Karte der angespielten Farbe stechen'")
    TRUMPFZWANG = ("Trumpfzwang", "seeds/000: 'mit einer Trumpfkarte stechen' when void in the led suit")
    UEBERSTECHEN = ("Überstechen", "RULES.md: trump and over-trump if void")
    EXCHANGE = ("Austauschen", "seeds/000: 'Das Austauschen der Atout-Karte'")
    CLOSE = (
        "Zudrehen",
        "RULES.md: closing needs at least two face-down cards above the trump card (one with close_min_facedown=1)",
    )
    MARRIAGE = ("Ansage", "seeds/000: 'Besitzt ein Spieler König und Dame bzw. König und Ober von einer Farbe'")
    DECLARE = ("Ausmelden", "seeds/000: 'Hat ein Spieler nach Gewinn eines Stichs oder einer Ansage 66 ... erreicht'")
    NOT_AVAILABLE = ("not available", "the variant has no such action")
    # ---- three- and four-player games (bummerl.table_game) ----
    DEAL = (
        "Abheben oder Klopfen",
        "seeds/004: 'Der Spieler zu seiner Rechten kann entweder abheben oder nur auf den Kartenstapel klopfen.'",
    )
    TRUMP_CALL = (
        "Trumpf rufen",
        "seeds/004: 'Es muß eine Farbe sein, von der Vorhand mindestens eine Karte in der Hand hält.'",
    )
    BIDDING = ("Reizung", "seeds/004: 'muß der folgende Spieler entweder einen höheren Kontrakt bieten oder passen'")
    BID_RIGHT = (
        "Reizrecht",
        "seeds/004: 'Man beachte, dass einige Kontrakte nicht von jedem Spieler angesagt werden können.'",
    )
    DOUBLING = (
        "Kontra",
        "seeds/004: 'kann einer der beiden Gegenspieler „Kontra“ sagen ... „Rekontra“ ... „Subkontra“'",
    )
    DISCARD = (
        "Ablegen",
        "seeds/004: 'Er hat jetzt acht Karten auf der Hand und legt zwei beliebige Karten verdeckt ab.'",
    )


#: Why an action is illegal: the rule it breaks and the detail of the error
#: message (``IllegalActionError(*refusal)``).
Refusal: TypeAlias = tuple[Rule, str]


class BummerlError(ValueError):
    """Base class of every error Bummerl raises on bad input."""


class IllegalActionError(BummerlError):
    """An action the rules forbid; the game is left exactly as it was."""

    def __init__(self, rule: Rule, detail: str) -> None:
        super().__init__(f"illegal action ({rule.title}): {detail}")
        self.rule = rule
        self.detail = detail


class UnknownVariantError(BummerlError):
    """A variant name or alias that no variant answers to."""


class RecordError(BummerlError):
    """A malformed or inconsistent game record."""


class PositionError(BummerlError):
    """A malformed or impossible one-line position."""
