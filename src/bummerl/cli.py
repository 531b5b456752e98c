"""The ``bummerl`` command: a thin, pluggable front end over the engine and the bots.

Each subcommand lives in its own module (see :mod:`bummerl.commands`);
:data:`COMMAND_MODULES` lists them, and adding a command is adding a module
name there.

>>> parser = build_parser()
>>> "play" in parser.format_help() and "selfplay" in parser.format_help()
True
>>> main(["selfplay", "--bots", "random,random", "--games", "0", "--json"])  # doctest: +ELLIPSIS
{"variant": "schnapsen", ...}
0

``main`` returns the exit status: 0 success, 1 a failure while running
(a file that cannot be read, input that ended), 2 a usage error or bad input
(an unknown variant or bot, a malformed record), 130 interrupted.
"""

from __future__ import annotations

import argparse
import importlib
import io
import os
import sys
from collections.abc import Sequence

__all__ = ["COMMAND_MODULES", "build_parser", "main"]

#: Modules that provide ``add_parser(subparsers)`` and ``run(args) -> int``, in
#: the order ``bummerl --help`` lists them.
COMMAND_MODULES: list[str] = [
    "bummerl.commands.play",
    "bummerl.commands.replay",
    "bummerl.commands.selfplay",
    "bummerl.commands.arena",
    "bummerl.commands.tournament",
    "bummerl.commands.bot",
    "bummerl.commands.analyze",
    "bummerl.commands.serve",
]


def build_parser() -> argparse.ArgumentParser:
    """The argument parser with every command of :data:`COMMAND_MODULES`."""
    from bummerl import __version__

    parser = argparse.ArgumentParser(
        prog="bummerl",
        description="Schnapsen, Sechsundsechzig and Schnorps: play, replay and let bots play.",
    )
    parser.add_argument("--version", action="version", version=f"bummerl {__version__}")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in COMMAND_MODULES:
        module = importlib.import_module(name)
        before = set(subparsers.choices)
        module.add_parser(subparsers)
        # Wire the parsers this module added (a name and its aliases) to its run().
        for key in set(subparsers.choices) - before:
            subparsers.choices[key].set_defaults(_run=module.run)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line ``argv`` (default: ``sys.argv[1:]``); return the exit status."""
    from bummerl.errors import BummerlError

    if isinstance(sys.stdout, io.TextIOWrapper):
        # Card names have umlauts and French faces suit symbols: never crash on
        # a terminal that cannot show them.
        sys.stdout.reconfigure(errors="replace")
    if isinstance(sys.stdin, io.TextIOWrapper):
        # A stray byte that is not UTF-8 is a typo to answer, not the end of the input.
        sys.stdin.reconfigure(errors="replace")
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:  # --help, --version, usage errors
        return exc.code if isinstance(exc.code, int) else 2
    run = getattr(args, "_run", None)
    if run is None:
        parser.print_help(sys.stderr)
        return 2
    try:
        status: int = run(args)
    except KeyboardInterrupt:
        print(file=sys.stderr)
        return 130
    except BummerlError as exc:
        print(f"bummerl {args.command}: error: {exc}", file=sys.stderr)
        return 2
    except UnicodeDecodeError as exc:
        # A binary or wrongly encoded file given to a command that reads text.
        print(f"bummerl {args.command}: error: the input is not UTF-8 text ({exc.reason})", file=sys.stderr)
        return 2
    except BrokenPipeError:
        # The reader went away (``bummerl replay x | head``): stop quietly.
        # Point stdout at devnull so the interpreter's final flush cannot fail again.
        sys.stdout = open(os.devnull, "w")  # noqa: SIM115 - lives until exit
        return 1
    except OSError as exc:
        print(f"bummerl {args.command}: error: {exc}", file=sys.stderr)
        return 1
    return status
