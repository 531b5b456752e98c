"""The subcommands of the ``bummerl`` command line, one module each.

A command module provides two functions:

* ``add_parser(subparsers) -> None`` registers its subparser on the
  :mod:`argparse` sub-parsers object (``subparsers.add_parser("name", ...)``);
* ``run(args: argparse.Namespace) -> int`` does the work and returns the exit
  status.

:data:`bummerl.cli.COMMAND_MODULES` lists the modules in the order ``bummerl
--help`` shows them; :func:`bummerl.cli.main` wires each parser to its module's
``run``.  The helpers below register a command from its module's docstring (:func:`add_command`), give every
command the same variant arguments and say a failure the same way (:func:`fail`).

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
import sys
from typing import Any

from bummerl.errors import UnknownVariantError
from bummerl.variants import Variant, find_variant

__all__ = ["add_command", "add_variant_arguments", "any_variant_from_args", "fail", "parse_option"]


def add_command(subparsers: Any, name: str, summary: str, doc: str | None) -> argparse.ArgumentParser:
    """Register ``bummerl NAME``: ``summary`` is its line in ``bummerl --help``, the second paragraph of its
    module's docstring ``doc`` its description.

    >>> parser = argparse.ArgumentParser()
    >>> add_command(parser.add_subparsers(), "demo", "a demo", "Title.\\n\\nWhat it does.").description
    'What it does.'
    """
    parser: argparse.ArgumentParser = subparsers.add_parser(
        name, help=summary, description=doc.split("\n\n")[1] if doc else None
    )
    return parser


def fail(command: str, exc: BaseException) -> int:
    """Say ``bummerl COMMAND: error: EXC`` on stderr; the exit status: 1 where a cluster could not be reached
    (:class:`ConnectionError`), else 2 (bad arguments: an unknown bot or variant, bad numbers, a missing extra).

    >>> fail("arena", ConnectionError("no cluster")), fail("arena", ValueError("bad"))
    (1, 2)
    """
    print(f"bummerl {command}: error: {exc}", file=sys.stderr)
    return 1 if isinstance(exc, ConnectionError) else 2


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
