"""Going out: 66 counted Augen win a game of the family, marriages counting once their side has a trick.

seeds/000: "Hat ein Spieler nach Gewinn eines Stichs oder einer Ansage 66 oder mehr Augen erreicht, so kann er
ausmelden"; seeds/003 (the table games): "Die Ansage zählt nur wenn auch ein Stich erzielt wurde".  Both engines
count a player's (two seats) or a side's (a table) Augen with :func:`counted_augen` and go out at
:data:`GOING_OUT`; the two-player variants' ``target`` is it too.

>>> counted_augen(trick_augen=30, marriage_augen=40, has_trick=True) >= GOING_OUT
True
>>> counted_augen(trick_augen=0, marriage_augen=40, has_trick=False)
0
"""

from __future__ import annotations

from typing import Final

__all__ = ["GOING_OUT", "counted_augen"]

#: The counted Augen that go out ("Genug", Ausmelden) and win a normal game.
GOING_OUT: Final = 66


def counted_augen(trick_augen: int, marriage_augen: int, has_trick: bool) -> int:
    """The Augen that count: those of the tricks won, and the marriages' once a trick is won."""
    return trick_augen + marriage_augen if has_trick else trick_augen
