"""The research variants ``mini8``, ``mini10`` and ``mini12``: Schnapsen on 8, 10 and 12 cards, for exact methods.

Nobody plays these games; they exist so that methods whose cost grows with the game tree (OpenSpiel's CFR, best
response, exploitability) can run to the end on a game of the family.  They are variants like any other
(``Game.deal("mini8", seed=1)``, the RL interfaces, the arena), but :attr:`~bummerl.variants.base.Variant.for_players`
is false: the web app, ``bummerl play`` and the rules pages do not offer them, and they are not in
:data:`bummerl.variants.VARIANTS` (:data:`bummerl.variants.RESEARCH_VARIANTS` lists them).

**What stays as in Schnapsen (weich).**  Two players, trump, the talon with its face-up trump card, drawing after
each trick (winner first), Farbzwang and Stichzwang once the talon is closed or exhausted, closing (Zudrehen, two
face-down cards above the trump card; option ``close_min_facedown``), the exchange of the lowest trump for the
trump card, going out by declaring, the last trick deciding a game nobody declared, and the three classes of
game points (no trick 3, Schneider 2, else 1).  The trick rules and the scoring are the engine's, unchanged.

**What is smaller.**

======== ============================== ====== ===================== ======== ========= =========
variant  pack                           hands  talon (face down)     Augen    going out Schneider
======== ============================== ====== ===================== ======== ========= =========
mini8    A 10 K O of Herz and Schellen  3      2 (1)                 56       31        under 16
mini10   ... and U                      3      4 (3)                 60       33        under 17
mini12   ... and 9                      3      6 (5)                 60       33        under 17
======== ============================== ====== ===================== ======== ========= =========

* **Two suits** (Herz and Schellen; Hearts and Diamonds) of the highest ranks of Sechsundsechzig's pack:
  so that the trump suit, following suit and trumping all still happen in 2- and 3-card hands.  Four
  suits of two ranks would leave a hand with almost never a card of the suit led.
* **Hands and talon**: three cards, so that a player still chooses in the strict play after the talon
  (with two, the last trick is forced).  The talon is what is left: in ``mini8`` one face-down card under
  the trump card, one trick with drawing, and closing is allowed with that one card face down (the house
  rule ``close_min_facedown=1`` of Tompa's books, this variant's default; with the rule of two there would
  be no closing at all); ``mini10`` and ``mini12`` keep the rule of two, with two and three tricks of drawing.
  ``mini8`` is the one whose whole tree OpenSpiel's exact methods take (docs/rl.md has the sizes).
* **Card values** are Schnapsen's (A 11, 10 10, K 4, O 3, U 2, 9 0); the **threshold** is 66 scaled to the
  pack's Augen, ``ceil(66 * Augen / 120)``, and the **Schneider** line 33 alike (:meth:`MiniVariant.target`,
  :meth:`MiniVariant.game_points`): going out asks for the same share of the pack as in Schnapsen.
* **The exchange** is of the lowest trump of the pack (the Ober, the Unter, the Nine).
* **No marriages.**  A marriage is worth 20 or 40 in every variant (:func:`bummerl.cards.marriage_value`, one
  definition in the engine and the solver); against a threshold of 31 or 33 a 40 would end the game by itself,
  and a marriage is half of a two-card hand.  Without them the trees are smaller too.

>>> from bummerl.variants import find_variant
>>> [(v.name, v.deck_size, v.hand_size, v.target, v.for_players) for v in RESEARCH_VARIANTS]
[('mini8', 8, 3, 31, False), ('mini10', 10, 3, 33, False), ('mini12', 12, 3, 33, False)]
>>> MINI8.game_points(15, True), MINI8.game_points(16, True), MINI8.game_points(0, False)
(2, 1, 3)
>>> find_variant("mini8", close_min_facedown=2).options()
{'close_min_facedown': 2}

This module must not import an engine: like every variant, these are data plus hooks.
"""

from __future__ import annotations

import dataclasses
import functools

from bummerl.cards import Rank, deck
from bummerl.rules.going_out import GOING_OUT
from bummerl.variants.base import register_base
from bummerl.variants.two_player import TwoPlayerVariant

__all__ = ["MINI8", "MINI10", "MINI12", "RESEARCH_VARIANTS", "MiniVariant"]

#: The Augen of Schnapsen's 20-card pack: the 66 and the 33 are shares of it.
_FULL_AUGEN = 120
#: Schnapsen's Schneider line: a loser under 33 Augen pays 2 game points (:func:`bummerl.cards.siegpunkte`).
_SCHNEIDER = 33


@functools.cache
def _pack_augen(size: int) -> int:
    return sum(c.augen for c in deck(size))


def _scaled(value: int, augen: int) -> int:
    """``value`` of Schnapsen's 120 Augen scaled to a pack of ``augen``, rounded up (never below the share)."""
    return -(-value * augen // _FULL_AUGEN)


@dataclasses.dataclass(frozen=True)
class MiniVariant(TwoPlayerVariant):
    """A research variant (see the module docstring): Schnapsen weich on a two-suit pack, thresholds scaled."""

    marriages: bool = False

    @property
    def augen(self) -> int:
        """The Augen of the whole pack."""
        return _pack_augen(self.deck_size)

    @property
    def target(self) -> int:
        """Augen needed to go out: 66 of 120, scaled to the pack."""
        return _scaled(GOING_OUT, self.augen)

    def game_points(self, loser_augen: int, loser_won_a_trick: bool) -> int:
        """3 if the loser has no trick, 2 under the scaled Schneider line (33 of 120), else 1."""
        if not loser_won_a_trick:
            return 3
        return 2 if loser_augen < _scaled(_SCHNEIDER, self.augen) else 1

    @property
    def for_players(self) -> bool:
        return False


MINI8 = MiniVariant(
    name="mini8",
    title="Mini-Schnapsen 8 (research)",
    deck_size=8,
    hand_size=3,
    deal=(("v", 3), ("d", 3), ("t", 1)),
    exchange_rank=Rank.OBER,
    close_min_facedown=1,
)
MINI10 = MiniVariant(
    name="mini10",
    title="Mini-Schnapsen 10 (research)",
    deck_size=10,
    hand_size=3,
    deal=(("v", 3), ("d", 3), ("t", 1)),
    exchange_rank=Rank.UNTER,
)
MINI12 = MiniVariant(
    name="mini12",
    title="Mini-Schnapsen 12 (research)",
    deck_size=12,
    hand_size=3,
    deal=(("v", 3), ("d", 3), ("t", 1)),
    exchange_rank=Rank.NINE,
)

#: The research variants, smallest first.
RESEARCH_VARIANTS: tuple[MiniVariant, ...] = (MINI8, MINI10, MINI12)

register_base(*RESEARCH_VARIANTS)
