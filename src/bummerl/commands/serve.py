"""``bummerl serve``: start the web app and print the address to open.

Tables against bots or friends, records and analyses in the browser
(docs/web.md).  Games are stored as they are played, in SQLite in the user's
data folder (``--data-dir``) or any SQLAlchemy database (``--database-url``),
so a restarted server resumes every unfinished game.

>>> import argparse
>>> parser = argparse.ArgumentParser()
>>> add_parser(parser.add_subparsers())
>>> s = settings(parser.parse_args(["serve", "--port", "9000"]), {"BUMMERL_PORT": "8080"})
>>> s.host, s.port, s.database_url
('127.0.0.1', 9000, None)
>>> edge_settings(s)
{'public_url': 'http://127.0.0.1:9000', 'allowed_origins': ('http://localhost:9000', 'http://[::1]:9000')}
>>> args = parser.parse_args(["serve", "--host", "0.0.0.0", "--public-url", "https://bummerl.example/"])
>>> edge_settings(settings(args, {}))
{'public_url': 'https://bummerl.example', 'allowed_origins': ()}

Needs the ``web`` extra (``pip install 'bummerl[web]'``); without it the
command says so instead of failing with an import error.
"""

from __future__ import annotations

import argparse
import dataclasses
import os
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from bummerl.commands import add_command, fail

if TYPE_CHECKING:
    from bummerl.server.config import ServeSettings

__all__ = ["add_parser", "edge_settings", "run", "settings"]


def add_parser(subparsers: Any) -> None:
    """Register ``bummerl serve`` with the CLI's subparsers.

    Every flag leaves its default to :func:`~bummerl.server.config.serve_settings`: a flag given beats the
    environment variable ``BUMMERL_<SETTING>``, which beats the default (docs/web.md, "Settings").
    """
    parser = add_command(subparsers, "serve", "start the web app (play in the browser) and print its address", __doc__)
    parser.add_argument("--host", help="address to listen on (default 127.0.0.1: this machine)")
    parser.add_argument("--port", type=int, help="port (default 8000)")
    parser.add_argument(
        "--database-url",
        help="a SQLAlchemy database URL, e.g. postgresql+psycopg://user:pw@host/db (default: SQLite in --data-dir)",
    )
    parser.add_argument("--data-dir", type=Path, help="folder of the SQLite database (default: the user's data folder)")
    parser.add_argument("--bot-workers", type=int, help="worker processes for bots (default: the number of cores)")
    parser.add_argument("--analysis-level", help="the search level that analyses finished games (default expert)")
    parser.add_argument("--bot-delay", type=float, help="seconds a bot waits before it plays, to let you follow (0.4)")
    parser.add_argument("--log-level", help="uvicorn's log level (default warning)")
    parser.add_argument(
        "--public-url",
        help="the address players open, e.g. https://bummerl.example: invitation links start with it and only its"
        " pages may open table WebSockets (default http://HOST:PORT; none for --host 0.0.0.0 or ::)",
    )
    parser.add_argument(
        "--allowed-origin",
        dest="allowed_origins",
        action="append",
        metavar="ORIGIN",
        help="another origin (https://other.example) whose pages may open table WebSockets (repeatable)",
    )
    parser.add_argument(
        "--cluster",
        action=argparse.BooleanOptionalAction,
        help="several processes serve the same tables (default: on with PostgreSQL; needs PostgreSQL)",
    )
    parser.add_argument(
        "--lease-seconds",
        type=float,
        help="cluster: seconds before another process takes the tables of one that stopped beating (default 10)",
    )
    parser.add_argument(
        "--max-connections",
        type=int,
        help="open connections of all clients together (default 1000; lowered to fit the file limit)",
    )
    parser.add_argument(
        "--max-connections-per-client",
        type=int,
        help="open connections of one address (IPv6: one /64) (default 32; 0: no cap, e.g. behind a reverse proxy)",
    )
    parser.add_argument(
        "--clock-grace-seconds",
        type=float,
        help="clocked tables: seconds a player may be away on their move before the bot moves for them (default 30)",
    )
    parser.add_argument(
        "--clock-strikes",
        type=int,
        help="clocked tables: moves the bot plays for a seat in one game before it takes the seat over (default 3)",
    )
    parser.add_argument(
        "--quick-match-seconds",
        type=int,
        help="quick match: seconds per move at its tables, 5 to 600, or 0 for no clock (default 30)",
    )
    parser.add_argument(
        "--quick-match-max-waiting",
        type=int,
        help="quick match: people waiting at once, in all (default 1000)",
    )
    parser.add_argument(
        "--tournament-move-seconds",
        type=int,
        help="tournaments: seconds per move at their tables when the organiser names none, 5 to 600 (default 60)",
    )
    parser.add_argument(
        "--tournament-max-move-seconds",
        type=int,
        help="tournaments: the longest time per move an organiser may choose, 5 to 600 (default 300)",
    )


def settings(args: argparse.Namespace, environ: Mapping[str, str] | None = None) -> ServeSettings:
    """The settings of ``args`` (the flags given), else of the environment (``BUMMERL_...``), else the defaults;
    :class:`~bummerl.server.config.SettingError` naming the variable of a value that does not fit."""
    from bummerl.server.config import serve_settings  # the web extra (platformdirs): see run

    return serve_settings(vars(args), os.environ if environ is None else environ)


def play_settings(s: ServeSettings) -> dict[str, Any]:
    """The quick-match and tournament settings of the app that ``s`` starts (``ServerConfig``'s fields)."""
    from bummerl.server.config import QuickMatchSettings, TournamentSettings  # the web extra: see run

    return {
        "quickmatch": dataclasses.replace(
            QuickMatchSettings(), move_seconds=s.quick_match_seconds, max_waiting=s.quick_match_max_waiting
        ),
        "tournaments": dataclasses.replace(
            TournamentSettings(), move_seconds=s.tournament_move_seconds, max_move_seconds=s.tournament_max_move_seconds
        ),
    }


def run(args: argparse.Namespace) -> int:
    """Serve until interrupted; 1 when the web extra is missing, 2 for a URL that is not one."""
    try:
        import uvicorn

        from bummerl.server.app import create_app
        from bummerl.server.config import ServerConfig, SettingError, check_settings
        from bummerl.server.edge import fit_file_limit, uvicorn_config
        from bummerl.server.security import normalize_origin
    except ImportError as exc:
        print(
            f"bummerl serve: error: the web app needs the 'web' extra ({exc.name} is missing):"
            " pip install 'bummerl[web]'",
            file=sys.stderr,
        )
        return 1
    try:
        s = settings(args)
        check_settings(s)
    except SettingError as exc:
        return fail("serve", exc)
    edge = edge_settings(s)
    for url in [edge["public_url"], *edge["allowed_origins"]]:
        if url is not None and normalize_origin(url) is None:
            print(f"bummerl serve: error: {url!r} is not an http:// or https:// address", file=sys.stderr)
            return 2
    config = ServerConfig(
        database_url=s.database_url,
        data_dir=s.data_dir,
        bot_workers=s.bot_workers,
        analysis_level=s.analysis_level,
        bot_delay=max(0.0, s.bot_delay),
        max_connections_per_client=max(0, s.max_connections_per_client),
        max_connections=fit_file_limit(max(1, s.max_connections)),
        cluster=s.cluster,
        lease_seconds=max(0.5, s.lease_seconds),
        clock_grace_seconds=max(0.0, s.clock_grace_seconds),
        clock_strikes=max(1, s.clock_strikes),
        **play_settings(s),
        **edge,
    )
    if config.max_connections < s.max_connections:
        print(
            f"bummerl serve: the file limit (ulimit -n) allows {config.max_connections} connections,"
            f" not {s.max_connections}",
            file=sys.stderr,
        )
    try:
        app = create_app(config=config)
    except ValueError as exc:
        return fail("serve", exc)
    host = f"[{s.host}]" if ":" in s.host else s.host
    shown = "127.0.0.1" if s.host in ("0.0.0.0", "::") else host
    print(f"Bummerl is running: open http://{shown}:{s.port}/ in your browser", flush=True)
    if s.database_url is None:
        # A URL given by the user may hold a password: only the default file is shown.
        print(f"Games are stored in {config.resolved_data_dir() / 'bummerl.db'}", flush=True)
    if config.public_url is None:
        print("Invitation links use the address a player opened; --public-url URL sets the one to use.", flush=True)
    print("Stop it with Ctrl+C.", flush=True)
    uvicorn.Server(uvicorn_config(app, config, host=s.host, port=s.port, log_level=s.log_level)).run()
    return 0


def edge_settings(s: ServeSettings) -> dict[str, Any]:
    """``public_url`` and ``allowed_origins`` of :class:`~bummerl.server.config.ServerConfig` from the settings.

    Without ``--public-url`` it is the address printed at start; on a loopback address the
    other names of this machine (``localhost``, ``127.0.0.1``, ``[::1]``) may open the game too.
    A wildcard ``--host`` (``0.0.0.0``, ``::``) has no one address: invitations are then paths that
    the browser completes with the address it opened, and a page must come from the host it asked.
    """
    origins = tuple(o.rstrip("/") for o in s.allowed_origins)
    if s.public_url is not None:
        return {"public_url": s.public_url.rstrip("/"), "allowed_origins": origins}
    if s.host in ("0.0.0.0", "::", ""):
        return {"public_url": None, "allowed_origins": origins}
    host = f"[{s.host}]" if ":" in s.host else s.host
    own = f"http://{host}:{s.port}"
    loopback = [f"http://{name}:{s.port}" for name in ("localhost", "127.0.0.1", "[::1]")]
    if own in loopback:
        origins += tuple(o for o in loopback if o != own)
    return {"public_url": own, "allowed_origins": origins}
