"""The subcommands of the ``bummerl`` command line, one module each.

A command module provides two functions:

* ``add_parser(subparsers) -> None`` registers its subparser on the
  :mod:`argparse` sub-parsers object (``subparsers.add_parser("name", ...)``);
* ``run(args: argparse.Namespace) -> int`` does the work and returns the exit
  status.

:data:`bummerl.cli.COMMAND_MODULES` lists the modules in the order ``bummerl
--help`` shows them; :func:`bummerl.cli.main` wires each parser to its module's
``run``.  The helpers below give every command the same variant arguments.

>>> import argparse
>>> parser = argparse.ArgumentParser()
>>> add_variant_arguments(parser)
>>> args = parser.parse_args(["--variant", "66", "--option", "auto_declare=yes"])
>>> v = any_variant_from_args(args)
>>> v.name, v.auto_declare
('sechsundsechzig', True)

Commands print; the engine they call never does.
"""

from __future__ import annotations

import argparse
from typing import Any

from bummerl.errors import UnknownVariantError
from bummerl.variants import Variant, find_variant

__all__ = ["add_variant_arguments", "any_variant_from_args", "parse_option"]


def add_variant_arguments(parser: argparse.ArgumentParser, default: str = "schnapsen") -> None:
    """Add ``--variant NAME`` and repeatable ``--option KEY=VALUE``."""
    parser.add_argument(
        "--variant",
        default=default,
        metavar="NAME",
        help="schnapsen (weich), scharf, 66 (Sechsundsechzig), schnorps, bauernschnapsen (4 players)"
        f" or dreierschnapsen (3 players); default {default}",
    )
    parser.add_argument(
        "--option",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="a variant option, e.g. auto_declare=true, count_after_closing=true, last_trick_scoring=augen",
    )


def parse_option(text: str) -> tuple[str, str]:
    """Split ``KEY=VALUE``; raises :class:`UnknownVariantError` when malformed.

    >>> parse_option("auto_declare=true")
    ('auto_declare', 'true')
    """
    key, sep, value = text.partition("=")
    if not sep or not key.strip():
        raise UnknownVariantError(f"a variant option is written KEY=VALUE, not {text!r}")
    return key.strip(), value.strip()


def any_variant_from_args(args: argparse.Namespace, **extra: Any) -> Variant:
    """The variant (any of the six) named by ``args.variant``, with ``args.option`` and ``extra`` options applied.

    >>> parser = argparse.ArgumentParser()
    >>> add_variant_arguments(parser)
    >>> any_variant_from_args(parser.parse_args(["--variant", "dreier", "--option", "may_skip_talon=1"])).players
    3
    """
    options: dict[str, Any] = dict(parse_option(o) for o in getattr(args, "option", []) or [])
    options.update(extra)
    return find_variant(args.variant, **options)
