"""``bummerl arena``: compare two bots on duplicate deals of any variant.

Each deal is played in every seating of the two bots on the same pack (two
players: the seats swapped; Dreierschnapsen: six seatings, each bot alone in
every seat and twice beside itself; Bauernschnapsen: the teams swapped), or
with --unit bummerl a whole match per seating, over all cores (--jobs) or on
a Ray cluster (--backend ray [--address ADDR], the 'ray' extra).
Prints game points, games and Bummerl won, points per game with the 95%
confidence interval of the difference a - b (paired over the deals), and the
time per move; --json prints the same as one JSON object.  A bot is a built-in
name or cmd:<command line> for a program speaking the bot protocol
(docs/protocol.md); a bot that fails forfeits that game only.  With
--sprt ELO0,ELO1 the run stops as soon as a sequential test decides whether a
is at least ELO1 Elo stronger than b (H1) or at most ELO0 (H0); --deals is then
the maximum (docs/arena.md).
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from bummerl.arena import BACKENDS, UNITS, ArenaConfig, Backend, format_report, make_backend, run_arena
from bummerl.arena.backends import MissingExtraError
from bummerl.arena.sprt import Sprt, format_sprt
from bummerl.commands import add_command, add_variant_arguments, any_variant_from_args, fail
from bummerl.protocol import DEFAULT_MOVE_TIMEOUT

__all__ = ["add_backend_arguments", "add_move_timeout_argument", "add_parser", "backend_from_args", "run"]


def add_parser(subparsers: Any) -> None:
    """Register ``bummerl arena`` with the CLI's subparsers."""
    parser = add_command(subparsers, "arena", "compare two bots on duplicate deals, with confidence intervals", __doc__)
    add_variant_arguments(parser)
    parser.add_argument("--a", required=True, metavar="BOT", help="bot a: a built-in name or cmd:<command line>")
    parser.add_argument("--b", required=True, metavar="BOT", help="bot b: a built-in name or cmd:<command line>")
    parser.add_argument(
        "--deals", type=int, default=100, help="duplicate deals; each is played in every seating (default 100)"
    )
    parser.add_argument("--seed", type=int, default=0, help="seed of the deals and the bots (default 0)")
    parser.add_argument("--unit", choices=UNITS, default="game", help="play single games or whole matches")
    parser.add_argument(
        "--sprt",
        default=None,
        metavar="ELO0,ELO1",
        help="stop when the SPRT decides between H0 (a at most ELO0 Elo stronger) and H1 (at least ELO1);"
        " --deals is the maximum",
    )
    parser.add_argument("--alpha", type=float, default=None, help="with --sprt: the false H1 rate (default 0.05)")
    parser.add_argument("--beta", type=float, default=None, help="with --sprt: the false H0 rate (default 0.05)")
    add_backend_arguments(parser)
    add_move_timeout_argument(parser)
    parser.add_argument("--json", action="store_true", help="print one JSON object instead of the table")
    parser.add_argument("--game-log", action="store_true", help="with --json: list every game")


def add_backend_arguments(parser: argparse.ArgumentParser, jobs: bool = True) -> None:
    """``--backend {process,ray}``, ``--address ADDR`` and (unless ``jobs=False``) ``--jobs J``.

    For every command that plays deals on a backend (``arena``, ``tournament``);
    :func:`backend_from_args` makes the backend they name.

    >>> parser = argparse.ArgumentParser()
    >>> add_backend_arguments(parser)
    >>> args = parser.parse_args(["--backend", "ray", "--address", "10.0.0.5:6379", "--jobs", "8"])
    >>> args.backend, args.address, args.jobs
    ('ray', '10.0.0.5:6379', 8)
    >>> parser.parse_args([]).backend
    'process'
    """
    parser.add_argument(
        "--backend",
        choices=BACKENDS,
        default="process",
        help="where the deals are played: worker processes on this machine (default) or a Ray cluster"
        " (the 'ray' extra: pip install 'bummerl[ray]')",
    )
    parser.add_argument(
        "--address",
        default=None,
        metavar="ADDR",
        help="with --backend ray: the cluster's HOST:PORT (from `ray start --head`) or 'auto';"
        " default: a local Ray started for this run",
    )
    if jobs:
        parser.add_argument(
            "--jobs",
            type=int,
            default=None,
            help="workers: processes (default: one per core) or, with --backend ray, the CPUs to plan for"
            " (default: the cluster's)",
        )


def backend_from_args(args: argparse.Namespace) -> Backend:
    """The backend that ``--backend``, ``--address`` and ``--jobs`` name (close it, or use it in ``with``).

    Raises :class:`ValueError` for ``--address`` without ``--backend ray``,
    :class:`~bummerl.arena.backends.MissingExtraError` (an ``ImportError``)
    when Ray is not installed, and :class:`ConnectionError` for a cluster that
    cannot be reached.

    >>> backend_from_args(argparse.Namespace(backend="process", address=None, jobs=2)).jobs
    2
    >>> backend_from_args(argparse.Namespace(backend="process", address="10.0.0.5:6379", jobs=None))
    Traceback (most recent call last):
    ...
    ValueError: --address is for the ray backend only
    """
    return make_backend(args.backend, jobs=getattr(args, "jobs", None), address=args.address)


def add_move_timeout_argument(parser: argparse.ArgumentParser) -> None:
    """``--move-timeout SEC`` for the commands that host protocol bots (``arena``, ``selfplay``)."""
    parser.add_argument(
        "--move-timeout",
        type=float,
        default=DEFAULT_MOVE_TIMEOUT,
        metavar="SEC",
        help=f"seconds a cmd: bot may take per decision (default {DEFAULT_MOVE_TIMEOUT:g})",
    )


def run(args: argparse.Namespace) -> int:
    """Play and print; 2 for bad arguments (unknown bot or variant, a backend that is not installed), 1 for a
    Ray cluster that cannot be reached."""
    try:
        config = ArenaConfig(
            any_variant_from_args(args),
            args.a,
            args.b,
            deals=args.deals,
            seed=args.seed,
            unit=args.unit,
            jobs=args.jobs,
            move_timeout=args.move_timeout,
        )
        sprt = _sprt_from_args(args)
        backend = backend_from_args(args)
    except (ValueError, MissingExtraError, ConnectionError) as exc:  # BummerlError included: unknown bot or variant
        return fail("arena", exc)
    progress = _progress if sys.stderr.isatty() else None
    with backend:
        report = run_arena(config, progress=progress, game_log=args.game_log, backend=backend, sprt=sprt)
    if progress is not None:
        print(file=sys.stderr)
    if args.json:
        print(json.dumps(report, indent=2))
    else:
        print(format_report(report))
        if "sprt" in report:
            print("\n".join(["", *format_sprt(report["sprt"])]))
    return 0


def _sprt_from_args(args: argparse.Namespace) -> Sprt | None:
    """The test ``--sprt``, ``--alpha`` and ``--beta`` name (``ValueError`` for bad values or a lone ``--alpha``).

    >>> _sprt_from_args(argparse.Namespace(sprt="-5,5", alpha=None, beta=0.1))
    Sprt(elo0=-5.0, elo1=5.0, alpha=0.05, beta=0.1)
    >>> _sprt_from_args(argparse.Namespace(sprt=None, alpha=0.1, beta=None))
    Traceback (most recent call last):
    ...
    ValueError: --alpha and --beta go with --sprt ELO0,ELO1
    """
    if args.sprt is None:
        if args.alpha is not None or args.beta is not None:
            raise ValueError("--alpha and --beta go with --sprt ELO0,ELO1")
        return None
    alpha = 0.05 if args.alpha is None else args.alpha
    beta = 0.05 if args.beta is None else args.beta
    return Sprt.parse(args.sprt, alpha, beta)


def _progress(done: int, total: int) -> None:
    print(f"\r{done}/{total} deals", end="", file=sys.stderr, flush=True)
