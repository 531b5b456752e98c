"""A variant's options as text, formatted and parsed in one place: ``name=value`` pairs, sorted, comma-separated.

The one-line positions of both families (``schnapsen:auto_declare=true 1 0 ...``), the records' ``Options`` tag
and the bots' positions of imagined worlds write a variant's options with :func:`format_options` (or the
whole ``variant:options`` word with :func:`format_variant`) and read them with :func:`parse_options`
(:func:`parse_variant`), so the same options always read the same.

>>> format_variant("schnapsen", {"count_after_closing": True, "close_min_facedown": 1})
'schnapsen:close_min_facedown=1,count_after_closing=true'
>>> parse_variant("schnapsen:close_min_facedown=1,count_after_closing=true")
('schnapsen', {'close_min_facedown': '1', 'count_after_closing': 'true'})
>>> format_variant("bauernschnapsen", {})
'bauernschnapsen'
>>> parse_options("a=1,a=2")
Traceback (most recent call last):
...
bummerl.errors.UnknownVariantError: option a is given twice in 'a=1,a=2'

The values stay text: the variant converts and checks them (:meth:`bummerl.variants.base.Variant.with_options`).
This module knows no variant.
"""

from __future__ import annotations

from collections.abc import Mapping

from bummerl.errors import UnknownVariantError

__all__ = ["format_options", "format_variant", "parse_options", "parse_variant"]


def format_options(options: Mapping[str, object]) -> str:
    """``options`` as ``name=value`` pairs sorted by name, comma-separated (booleans ``true``/``false``)."""
    return ",".join(f"{k}={_value(v)}" for k, v in sorted(options.items()))


def parse_options(text: str) -> dict[str, str]:
    """The ``name=value`` pairs of ``text`` (:func:`format_options`'s form); raises
    :class:`~bummerl.errors.UnknownVariantError` naming a malformed or repeated pair."""
    options: dict[str, str] = {}
    for item in text.split(","):
        item = item.strip()
        if not item:
            continue
        key, eq, value = item.partition("=")
        key = key.strip()
        if not eq or not key:
            raise UnknownVariantError(f"options are written name=value pairs, separated by commas, not {item!r}")
        if key in options:
            raise UnknownVariantError(f"option {key} is given twice in {text!r}")
        options[key] = value.strip()
    return options


def format_variant(name: str, options: Mapping[str, object]) -> str:
    """The word ``name:options`` (just ``name`` without options) that positions start with."""
    return f"{name}:{format_options(options)}" if options else name


def parse_variant(text: str) -> tuple[str, dict[str, str]]:
    """The name and the options of a word :func:`format_variant` wrote."""
    name, _, options = text.partition(":")
    return name, parse_options(options)


def _value(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)
