"""The solver's compact state of a fully known two-player position.

A :class:`~bummerl.game.Game` carries lists, sets and a history; the search
needs a handful of small integers it can copy, compare and hash.  :func:`encode`
turns a game into a :class:`Position`: the constant part of the deal
(:class:`Rules` of the variant, the trump suit, the talon in draw order) and a
:data:`State` tuple that changes with every action.

>>> from bummerl.two_player import TwoPlayerGame
>>> pos = encode(TwoPlayerGame.deal("schnapsen", seed=5))
>>> len(pos.talon), pos.state[P], pos.rules.max_points
(9, 0, 3)
>>> bin(pos.state[H0]).count("1"), pos.state[LEAD]
(5, -1)

State fields (indices are module constants):

====  =====================================================================
H0    bitmask of seat 0's hand (bit ``card.index``)
H1    bitmask of seat 1's hand
T     face-down talon cards left; the next one drawn is ``talon[T - 1]``
TC    index of the face-up trump card under the talon, ``-1`` once drawn
CL    closer's seat, ``-1`` while nobody closed
CA    the closer's opponent's counted Augen at the time of closing
CT    ``1`` if the closer's opponent had a trick at the time of closing
P     seat to move
LEAD  index of the card led to the current trick, ``-1`` before the lead
A0    seat 0's trick Augen (the last-trick bonus is added only at the end)
A1    seat 1's trick Augen
M0    seat 0's announced marriage Augen (counted once seat 0 has a trick)
M1    seat 1's announced marriage Augen
W0    tricks won by seat 0
W1    tricks won by seat 1
FL    ``1`` once the first card of the game was led
====  =====================================================================

This module only reads a game; it never changes it.
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Iterable
from typing import Final

from bummerl.cards import Card
from bummerl.two_player import TwoPlayerGame
from bummerl.variants import TwoPlayerVariant
from bummerl.variants.two_player import SchnorpsVariant

__all__ = [
    "AUGEN",
    "SCORING_HOOKS",
    "SCORING_MARKEN",
    "SCORING_STANDARD",
    "Position",
    "Rules",
    "SearchLimitExceeded",
    "State",
    "ValueTree",
    "card_indices",
    "card_mask",
    "encode",
]

#: ``(h0, h1, t, tc, cl, ca, ct, p, lead, a0, a1, m0, m1, w0, w1, fl)``.
State = tuple[int, int, int, int, int, int, int, int, int, int, int, int, int, int, int, int]

H0, H1, T, TC, CL, CA, CT, P, LEAD, A0, A1, M0, M1, W0, W1, FL = range(16)

#: Action values a few moves deep: ``{code: (value, subtree)}`` for the player to move; ``subtree`` is the
#: same for the position after the action (``None`` where it ends the game or the tree ends).
ValueTree = dict[int, tuple[int, "ValueTree | None"]]

#: Augen of each card index (``suit * 8 + rank``).
AUGEN: Final[tuple[int, ...]] = tuple((0, 0, 0, 2, 3, 4, 10, 11)[i & 7] for i in range(32))

#: Action codes as in :attr:`bummerl.actions.Action.code`.
MARRIAGE_BASE: Final = 32
EXCHANGE_CODE: Final = 64
CLOSE_CODE: Final = 65
DECLARE_CODE: Final = 66
DECLARE_MARRIAGE_BASE: Final = 67

#: The scoring of :class:`TwoPlayerVariant` (Schnapsen, scharf, Sechsundsechzig).
SCORING_STANDARD: Final = 0
#: The scoring of :class:`SchnorpsVariant` (Marken).
SCORING_MARKEN: Final = 1
#: A variant with its own hooks: the search calls them (pure Python only).
SCORING_HOOKS: Final = 2

# Flag bits of :meth:`Rules.c_params` (mirrored in _csolver.c).
_F_EXCHANGE_BEFORE_FIRST_LEAD = 1
_F_EXCHANGE_WITH_ONE_FACE_DOWN = 2
_F_EXCHANGE_NEEDS_TRICK = 4
_F_CLOSE_NEEDS_TRICK = 8
_F_MARRIAGES = 16
_F_MARRIAGE_BEFORE_TRICK = 32
_F_MARRIAGE_KING_ONLY = 64
_F_MARRIAGE_AFTER_TALON = 128
_F_AUTO_DECLARE = 256
_F_UNDECLARED_SIXTY_SIX = 512
_F_LAST_TRICK_AUGEN = 1024
_F_COUNT_AFTER_CLOSING = 2048
_F_CLOSE_WITH_ONE_FACE_DOWN = 4096


class SearchLimitExceeded(RuntimeError):
    """A search given ``max_nodes`` needed more; it has no answer, only its cost."""

    def __init__(self, nodes: int) -> None:
        super().__init__(f"the exact search gave up after {nodes} nodes (max_nodes)")
        self.nodes = nodes


@dataclasses.dataclass(frozen=True, slots=True)
class Rules:
    """The rules of a variant, flattened to what the search reads."""

    variant: TwoPlayerVariant
    #: Rank of the trump card that may be exchanged, ``-1`` without exchange.
    exchange_rank: int
    exchange_before_first_lead: bool
    exchange_with_one_face_down: bool
    exchange_needs_trick: bool
    close_needs_trick: bool
    #: Face-down cards needed above the trump card to close (the option ``close_min_facedown``: 2 or 1).
    close_min_facedown: int
    marriages: bool
    marriage_before_trick: bool
    marriage_king_only: bool
    marriage_after_talon: bool
    last_trick_bonus: int
    auto_declare: bool
    target: int
    scoring: int
    undeclared_sixty_six: bool
    last_trick_augen: bool
    count_after_closing: bool
    #: The largest number of points one game can be worth (search window).
    max_points: int

    @staticmethod
    @functools.cache
    def of(variant: TwoPlayerVariant) -> Rules:
        """The rules of ``variant`` (cached: variants are frozen)."""
        v = variant
        scoring = _scoring_kind(v)
        return Rules(
            variant=v,
            exchange_rank=int(v.exchange_rank) if v.trump_exchange else -1,
            exchange_before_first_lead=v.exchange_before_first_lead,
            exchange_with_one_face_down=v.exchange_with_one_face_down,
            exchange_needs_trick=v.exchange_needs_trick,
            close_needs_trick=v.close_needs_trick,
            close_min_facedown=v.close_min_facedown,
            marriages=v.marriages,
            marriage_before_trick=v.marriage_before_trick,
            marriage_king_only=v.marriage_king_only,
            marriage_after_talon=v.marriage_after_talon,
            last_trick_bonus=v.last_trick_bonus,
            auto_declare=v.auto_declare,
            target=v.target,
            scoring=scoring,
            undeclared_sixty_six=v.undeclared_end == "sixty_six",
            last_trick_augen=v.last_trick_scoring == "augen",
            count_after_closing=v.count_after_closing,
            # Hooks of unknown variants may pay anything: a window wide enough.
            max_points=(3, 8, 1_000_000)[scoring],
        )

    def c_params(self) -> tuple[int, int, int, int, int, int]:
        """``(flags, exchange_rank, last_trick_bonus, target, scoring, max_points)`` for the C core."""
        flags = 0
        for bit, on in (
            (_F_EXCHANGE_BEFORE_FIRST_LEAD, self.exchange_before_first_lead),
            (_F_EXCHANGE_WITH_ONE_FACE_DOWN, self.exchange_with_one_face_down),
            (_F_EXCHANGE_NEEDS_TRICK, self.exchange_needs_trick),
            (_F_CLOSE_NEEDS_TRICK, self.close_needs_trick),
            (_F_MARRIAGES, self.marriages),
            (_F_MARRIAGE_BEFORE_TRICK, self.marriage_before_trick),
            (_F_MARRIAGE_KING_ONLY, self.marriage_king_only),
            (_F_MARRIAGE_AFTER_TALON, self.marriage_after_talon),
            (_F_AUTO_DECLARE, self.auto_declare),
            (_F_UNDECLARED_SIXTY_SIX, self.undeclared_sixty_six),
            (_F_LAST_TRICK_AUGEN, self.last_trick_augen),
            (_F_COUNT_AFTER_CLOSING, self.count_after_closing),
            (_F_CLOSE_WITH_ONE_FACE_DOWN, self.close_min_facedown == 1),
        ):
            if on:
                flags |= bit
        return (flags, self.exchange_rank, self.last_trick_bonus, self.target, self.scoring, self.max_points)


@dataclasses.dataclass(frozen=True, slots=True)
class Position:
    """A fully known position: the deal's constants plus the changing :data:`State`."""

    rules: Rules
    #: The trump suit (0..3).
    trump: int
    #: Face-down talon card indices; the next card drawn is the last one.
    talon: tuple[int, ...]
    state: State


def encode(game: TwoPlayerGame) -> Position:
    """The compact position of ``game``; raises :class:`ValueError` if it is over."""
    if game.result is not None:
        raise ValueError("the game is over: there is nothing to solve")
    h0, h1 = card_mask(game.hands[0]), card_mask(game.hands[1])
    tc = game.trump_card
    lead = game.lead
    closer = game.closed_by
    state: State = (
        h0,
        h1,
        len(game.talon),
        tc.index if tc is not None else -1,
        -1 if closer is None else closer,
        game.closed_opponent_augen if closer is not None else 0,
        int(game.closed_opponent_had_trick) if closer is not None else 0,
        game.to_move,
        lead.index if lead is not None else -1,
        game.trick_augen[0],
        game.trick_augen[1],
        game.marriage_augen[0],
        game.marriage_augen[1],
        game.tricks_won[0],
        game.tricks_won[1],
        int(game.first_lead_done),
    )
    return Position(Rules.of(game.variant), int(game.trump), tuple(c.index for c in game.talon), state)


def card_mask(cards: Iterable[Card]) -> int:
    """The bitmask of ``cards`` (bit ``card.index``), as hands are held in a :data:`State`.

    >>> from bummerl.cards import parse_cards
    >>> card_indices(card_mask(parse_cards("Ah Th")))
    [6, 7]
    """
    mask = 0
    for c in cards:
        mask |= 1 << c.index
    return mask


def card_indices(mask: int) -> list[int]:
    """The card indices of a hand bitmask, lowest first.

    >>> card_indices(0b100101)
    [0, 2, 5]
    """
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def _scoring_kind(v: TwoPlayerVariant) -> int:
    """Which built-in scoring ``v``'s hooks are, if any (checked by identity, not by name)."""
    cls = type(v)
    hooks = (cls.score_declaration, cls.score_end_of_cards, cls._closer_points, cls.target)
    base = TwoPlayerVariant
    if hooks == (base.score_declaration, base.score_end_of_cards, base._closer_points, base.target):
        return SCORING_STANDARD
    s = SchnorpsVariant
    if (
        hooks == (s.score_declaration, s.score_end_of_cards, s._closer_points, s.target)
        and getattr(cls, "_marken", None) is s._marken
    ):
        return SCORING_MARKEN
    return SCORING_HOOKS
