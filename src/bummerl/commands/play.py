"""``bummerl play``: a whole match of any variant against bots in the terminal.

You sit in one seat (``--seat``, default 0), bots in the others: ``--bot NAME``
for all of them, or ``--bots A,B,C`` seat by seat (at four, your partner sits
opposite).  The match is the variant's (:mod:`bummerl.commands.play_match`): a
Bummerl from 7 down (Schnapsen, scharf, Sechsundsechzig), Marken (Schnorps), or
24 game points (Bauernschnapsen, Dreierschnapsen), dealt from one seed.  Schnorps
for three or four is ``--participants 3|4`` (:mod:`bummerl.commands.play_round`:
two play each game, the others wait, the loser pays all).

What happens is told from the events each action returns, as your seat may
see them (:class:`bummerl.text.Narrator`); at each of your turns the table
is shown from your view only, your hand in display order (trumps first) with
the playable cards numbered in that order, then the other legal actions.  Type
a number, a card (code ``Ah``, short form or name), a word such as
``zudrehen``/``close``, ``tauschen``/``exchange``, ``genug``/``declare``, an
action's token (``pass``, ``kontra``, ``bid:gang``), ``?`` for help or ``q`` to
quit (with ``--record FILE`` the match is saved there, else you are asked for a
file name).  Input that ends (EOF) ends the program cleanly.

The session itself is :class:`bummerl.commands.play_session.PlaySession` (and
:class:`~bummerl.commands.play_round.RoundSession` for a round); this module
only reads the command line.

Bots see their seat's view and nothing else; so do you.
"""

from __future__ import annotations

import argparse
import os
from typing import Any

from bummerl.cards import FACES, LANGUAGES
from bummerl.commands import add_variant_arguments, any_variant_from_args
from bummerl.commands.play_round import RoundSession
from bummerl.commands.play_session import BOT, HUMAN, HUMAN_SEAT, Console, PlaySession, QuitGame
from bummerl.commands.play_text import normalize as _normalize
from bummerl.errors import UnknownVariantError
from bummerl.schnorps_round import PARTICIPANTS

__all__ = ["BOT", "HUMAN", "HUMAN_SEAT", "Console", "PlaySession", "QuitGame", "_normalize", "add_parser", "run"]


def add_parser(subparsers: Any) -> None:
    """Register ``bummerl play``."""
    parser = subparsers.add_parser(
        "play",
        help="play a match of any variant against bots in the terminal",
        description="Play a whole match (a Bummerl from 7 down; Schnorps: Marken; the table games: 24 game points)"
        " against bots.",
    )
    add_variant_arguments(parser)
    parser.add_argument("--seat", type=int, default=HUMAN, help="your seat (default 0)")
    parser.add_argument(
        "--participants",
        type=int,
        choices=(2, *PARTICIPANTS),
        default=2,
        help="Schnorps for 3 or 4: two play each game, the others wait, the loser pays all; --bots names the"
        " others, 'human' for one more person at this keyboard (default 2)",
    )
    parser.add_argument("--bot", default="heuristic", help="the bots: random, heuristic, ... (default heuristic)")
    parser.add_argument(
        "--bots", default=None, metavar="A,B,C", help="one bot per other seat, in seat order (default: --bot)"
    )
    parser.add_argument("--cards", choices=FACES, default="german", help="card faces (default german)")
    parser.add_argument("--lang", choices=LANGUAGES, default="de", help="language of the prompts (default de)")
    parser.add_argument("--seed", type=int, default=None, help="the match seed (default: a random one, shown)")
    parser.add_argument("--auto-declare", action="store_true", help="66 ends a game by itself (for beginners)")
    parser.add_argument(
        "--record", metavar="FILE", default=None, help="save the match record to FILE (without it, quitting asks)"
    )


def run(args: argparse.Namespace) -> int:
    """Play the match that ``args`` describe."""
    variant = any_variant_from_args(args, **({"auto_declare": True} if args.auto_declare else {}))
    if not variant.for_players:
        raise UnknownVariantError(f"{variant.title} is a research variant: the arena and the RL interfaces play it")
    seed = args.seed if args.seed is not None else int.from_bytes(os.urandom(4), "big")
    bots = [b.strip() for b in (args.bots or args.bot).split(",")]
    if args.participants > 2:
        players = args.participants
        rounds = RoundSession(variant, players, bots, seed, args.cards, args.lang, args.record, seat=args.seat)
        return rounds.run()
    session = PlaySession(variant, bots, seed, args.cards, args.lang, args.record, seat=args.seat)
    return session.run()
