"""``bummerl bot NAME``: serve a built-in bot over the bot protocol on stdin/stdout.

The host (``bummerl arena --a "cmd:bummerl bot heuristic"``, or a program in
any language) sends JSON lines as docs/protocol.md describes; this command
answers them until ``quit`` or the end of its input.  Each ``game_start`` that
carries a seed gets a fresh bot made with that seed, so its play is
reproducible; ``--seed`` seeds the bot used before any such message.

Nothing but protocol lines goes to stdout; errors go to stderr.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from bummerl.bots import Bot, UnknownBotError, make_bot
from bummerl.protocol import serve

__all__ = ["add_parser", "run"]


def add_parser(subparsers: Any) -> None:
    """Register ``bummerl bot`` with the CLI's subparsers."""
    parser = subparsers.add_parser(
        "bot",
        help="serve a built-in bot over the JSON-lines bot protocol (stdin/stdout)",
        description=__doc__.split("\n\n")[1] if __doc__ else None,
    )
    parser.add_argument("name", help="a built-in bot name, e.g. random or heuristic")
    parser.add_argument("--seed", type=int, default=0, help="seed of the bot before any game_start seed (default 0)")


def run(args: argparse.Namespace) -> int:
    """Serve until quit; 2 for an unknown bot name."""
    name: str = args.name
    try:
        make_bot(name, args.seed)
    except UnknownBotError as exc:
        print(f"bummerl bot: {exc}", file=sys.stderr)
        return 2

    def factory(seed: int) -> Bot:
        return make_bot(name, seed)

    return serve(factory, seed=args.seed)
