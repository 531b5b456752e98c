"""The variants of the Schnapsen family, found by name or alias.

>>> find_variant("66").name
'sechsundsechzig'
>>> find_variant("scharf", auto_declare=True).auto_declare
True
>>> sorted(v.name for v in VARIANTS)
['schnapsen', 'schnapsen-scharf', 'schnorps', 'sechsundsechzig']
"""

from __future__ import annotations

from typing import Any

from bummerl.errors import UnknownVariantError
from bummerl.variants.bauernschnapsen import BAUERNSCHNAPSEN, TableVariant
from bummerl.variants.dreierschnapsen import DREIERSCHNAPSEN
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
    "SCHARF",
    "SCHNAPSEN",
    "SCHNORPS",
    "SECHSUNDSECHZIG",
    "TABLE_VARIANTS",
    "VARIANTS",
    "EndReason",
    "GameResult",
    "TableVariant",
    "TwoPlayerVariant",
    "find_any_variant",
    "find_table_variant",
    "find_variant",
]

#: The built-in two-player variants, default first.
VARIANTS: tuple[TwoPlayerVariant, ...] = (SCHNAPSEN, SCHARF, SECHSUNDSECHZIG, SCHNORPS)


def find_variant(name: str | TwoPlayerVariant, **options: Any) -> TwoPlayerVariant:
    """The variant called ``name`` (any alias, case-insensitive), with ``options`` applied.

    Raises :class:`~bummerl.errors.UnknownVariantError` naming the known names.
    """
    if isinstance(name, TwoPlayerVariant):
        return name.with_options(**options) if options else name
    key = str(name).strip().lower()
    for variant in VARIANTS:
        if key == variant.name or key in variant.aliases:
            return variant.with_options(**options) if options else variant
    known = ", ".join(sorted({a for v in VARIANTS for a in (v.name, *v.aliases)}))
    raise UnknownVariantError(f"unknown variant {name!r}; known names: {known}")


#: The built-in three- and four-player variants.
TABLE_VARIANTS: tuple[TableVariant, ...] = (BAUERNSCHNAPSEN, DREIERSCHNAPSEN)


def find_table_variant(name: str | TableVariant, **options: Any) -> TableVariant:
    """The three- or four-player variant called ``name`` (any alias), with ``options``.

    >>> find_table_variant("dreier").players
    3
    """
    if isinstance(name, TableVariant):
        return name.with_options(**options) if options else name
    key = str(name).strip().lower()
    for variant in TABLE_VARIANTS:
        if key == variant.name or key in variant.aliases:
            return variant.with_options(**options) if options else variant
    known = ", ".join(sorted({a for v in TABLE_VARIANTS for a in (v.name, *v.aliases)}))
    raise UnknownVariantError(f"unknown table variant {name!r}; known names: {known}")


def find_any_variant(name: str, **options: Any) -> TwoPlayerVariant | TableVariant:
    """A two-player variant if one answers to ``name``, else a table variant.

    >>> find_any_variant("bauernschnapsen").players, find_any_variant("66").name
    (4, 'sechsundsechzig')
    """
    key = str(name).strip().lower()
    if any(key == v.name or key in v.aliases for v in TABLE_VARIANTS):
        return find_table_variant(key, **options)
    return find_variant(key, **options)
