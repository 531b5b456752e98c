"""``bummerl bot NAME``: serve a built-in bot over the bot protocol on stdin/stdout.

The host (``bummerl arena --a "cmd:bummerl bot heuristic"``, or a program in
any language) sends JSON lines as docs/protocol.md describes; this command
answers them until ``quit`` or the end of its input.  Any registered bot can be
served, and it plays whatever variant the host names: each game gets a fresh
bot for that game's variant (two-player or table game), made with the seed of
its ``game_start``, so its play is reproducible; ``--seed`` seeds the bot used
before any such message.

Nothing but protocol lines goes to stdout; errors go to stderr.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from bummerl.bots import UnknownBotError, bot_info
from bummerl.commands import add_command
from bummerl.protocol import serve

__all__ = ["add_parser", "run"]


def add_parser(subparsers: Any) -> None:
    """Register ``bummerl bot`` with the CLI's subparsers."""
    parser = add_command(
        subparsers, "bot", "serve a built-in bot over the JSON-lines bot protocol (stdin/stdout)", __doc__
    )
    parser.add_argument(
        "name", help="a registered bot name, e.g. random, heuristic, expert or search; or npz:PATH (bummerl.rl.train)"
    )
    parser.add_argument("--seed", type=int, default=0, help="seed of the bot before any game_start seed (default 0)")


def run(args: argparse.Namespace) -> int:
    """Serve until quit; 2 for an unknown bot name."""
    try:
        name = bot_info(args.name).name
    except UnknownBotError as exc:
        print(f"bummerl bot: {exc}", file=sys.stderr)
        return 2
    return serve(name, seed=args.seed)
