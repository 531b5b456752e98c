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
    "VARIANTS",
    "EndReason",
    "GameResult",
    "TwoPlayerVariant",
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
