"""The variants of the Schnapsen family, found by name or alias: one list, one lookup.

>>> find_variant("66").name
'sechsundsechzig'
>>> find_variant("scharf", auto_declare=True).auto_declare
True
>>> [(v.name, v.players) for v in VARIANTS]  # doctest: +NORMALIZE_WHITESPACE
[('schnapsen', 2), ('schnapsen-scharf', 2), ('sechsundsechzig', 2), ('schnorps', 2),
 ('bauernschnapsen', 4), ('dreierschnapsen', 3)]
>>> TwoPlayerVariant.find("bauernschnapsen")
Traceback (most recent call last):
...
bummerl.errors.UnknownVariantError: Bauernschnapsen is not a two-player variant

A variant is a frozen :class:`~bummerl.variants.base.Variant`: the two-player
ones are :class:`TwoPlayerVariant` (scoring hooks), the table games
:class:`TableVariant` (contracts).  ``X.find(name)`` finds only variants of the
class ``X``, for code that plays one family.  The research variants ``mini8``, ``mini10`` and ``mini12``
(:mod:`bummerl.variants.research`) are found by name too, but only :data:`RESEARCH_VARIANTS` lists them.
"""

from __future__ import annotations

from typing import Any

from bummerl.variants.base import Variant, find_variant
from bummerl.variants.bauernschnapsen import BAUERNSCHNAPSEN, TableVariant
from bummerl.variants.dreierschnapsen import DREIERSCHNAPSEN
from bummerl.variants.research import MINI8, MINI10, MINI12, RESEARCH_VARIANTS, MiniVariant
from bummerl.variants.two_player import (
    SCHARF,
    SCHNAPSEN,
    SCHNORPS,
    SECHSUNDSECHZIG,
    EndReason,
    GameResult,
    TwoPlayerVariant,
)

__all__ = [
    "BAUERNSCHNAPSEN",
    "DREIERSCHNAPSEN",
    "MINI8",
    "MINI10",
    "MINI12",
    "RESEARCH_VARIANTS",
    "SCHARF",
    "SCHNAPSEN",
    "SCHNORPS",
    "SECHSUNDSECHZIG",
    "TABLE_VARIANTS",
    "TWO_PLAYER_VARIANTS",
    "VARIANTS",
    "EndReason",
    "GameResult",
    "MiniVariant",
    "TableVariant",
    "TwoPlayerVariant",
    "Variant",
    "find_table_variant",
    "find_variant",
]

#: Every variant people play, the default first (the research variants, :data:`RESEARCH_VARIANTS`, are not here:
#: :mod:`bummerl.variants.research`).
VARIANTS: tuple[Variant, ...] = (SCHNAPSEN, SCHARF, SECHSUNDSECHZIG, SCHNORPS, BAUERNSCHNAPSEN, DREIERSCHNAPSEN)
#: The two-player variants and the table games (3 and 4 players), for code of one family.
TWO_PLAYER_VARIANTS: tuple[TwoPlayerVariant, ...] = (SCHNAPSEN, SCHARF, SECHSUNDSECHZIG, SCHNORPS)
TABLE_VARIANTS: tuple[TableVariant, ...] = (BAUERNSCHNAPSEN, DREIERSCHNAPSEN)


def find_table_variant(name: str | Variant, **options: Any) -> TableVariant:
    """The three- or four-player variant called ``name`` (:meth:`TableVariant.find`).

    >>> find_table_variant("dreier").players
    3
    """
    return TableVariant.find(name, **options)
