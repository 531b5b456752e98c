"""``bummerl serve``: start the web app and print the address to open.

Tables against bots or friends, records and analyses in the browser
(docs/web.md).  Games are stored as they are played, in SQLite in the user's
data folder (``--data-dir``) or any SQLAlchemy database (``--database-url``),
so a restarted server resumes every unfinished game.

>>> import argparse
>>> parser = argparse.ArgumentParser()
>>> add_parser(parser.add_subparsers())
>>> args = parser.parse_args(["serve", "--port", "9000"])
>>> args.host, args.port, args.database_url
('127.0.0.1', 9000, None)
>>> edge_settings(args)
{'public_url': 'http://127.0.0.1:9000', 'allowed_origins': ('http://localhost:9000', 'http://[::1]:9000')}
>>> edge_settings(parser.parse_args(["serve", "--host", "0.0.0.0", "--public-url", "https://bummerl.example/"]))
{'public_url': 'https://bummerl.example', 'allowed_origins': ()}

Needs the ``web`` extra (``pip install 'bummerl[web]'``); without it the
command says so instead of failing with an import error.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

__all__ = ["add_parser", "edge_settings", "run"]


def add_parser(subparsers: Any) -> None:
    """Register ``bummerl serve`` with the CLI's subparsers."""
    parser = subparsers.add_parser(
        "serve",
        help="start the web app (play in the browser) and print its address",
        description=__doc__.split("\n\n")[1] if __doc__ else None,
    )
    parser.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1: this machine)")
    parser.add_argument("--port", type=int, default=8000, help="port (default 8000)")
    parser.add_argument(
        "--database-url",
        default=None,
        help="a SQLAlchemy database URL, e.g. postgresql+psycopg://user:pw@host/db (default: SQLite in --data-dir)",
    )
    parser.add_argument(
        "--data-dir", type=Path, default=None, help="folder of the SQLite database (default: the user's data folder)"
    )
    parser.add_argument(
        "--bot-workers", type=int, default=None, help="worker processes for bots (default: the number of cores)"
    )
    parser.add_argument(
        "--analysis-level", default="expert", help="the search level that analyses finished games (default expert)"
    )
    parser.add_argument(
        "--bot-delay", type=float, default=0.4, help="seconds a bot waits before it plays, to let you follow (0.4)"
    )
    parser.add_argument("--log-level", default="warning", help="uvicorn's log level (default warning)")
    parser.add_argument(
        "--public-url",
        default=None,
        help="the address players open, e.g. https://bummerl.example: invitation links start with it and only its"
        " pages may open table WebSockets (default http://HOST:PORT; none for --host 0.0.0.0 or ::)",
    )
    parser.add_argument(
        "--allowed-origin",
        action="append",
        default=[],
        metavar="ORIGIN",
        help="another origin (https://other.example) whose pages may open table WebSockets (repeatable)",
    )
    parser.add_argument(
        "--cluster",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="several processes serve the same tables (default: on with PostgreSQL; needs PostgreSQL)",
    )
    parser.add_argument(
        "--lease-seconds",
        type=float,
        default=10.0,
        help="cluster: seconds before another process takes the tables of one that stopped beating (default 10)",
    )
    parser.add_argument(
        "--max-connections",
        type=int,
        default=1000,
        help="open connections of all clients together (default 1000; lowered to fit the file limit)",
    )
    parser.add_argument(
        "--max-connections-per-client",
        type=int,
        default=32,
        help="open connections of one address (IPv6: one /64) (default 32; 0: no cap, e.g. behind a reverse proxy)",
    )


def run(args: argparse.Namespace) -> int:
    """Serve until interrupted; 1 when the web extra is missing, 2 for a URL that is not one."""
    try:
        import uvicorn

        from bummerl.server.app import create_app
        from bummerl.server.config import ServerConfig
        from bummerl.server.edge import fit_file_limit, uvicorn_config
        from bummerl.server.security import normalize_origin
    except ImportError as exc:
        print(
            f"bummerl serve: error: the web app needs the 'web' extra ({exc.name} is missing):"
            " pip install 'bummerl[web]'",
            file=sys.stderr,
        )
        return 1
    edge = edge_settings(args)
    for url in [edge["public_url"], *edge["allowed_origins"]]:
        if url is not None and normalize_origin(url) is None:
            print(f"bummerl serve: error: {url!r} is not an http:// or https:// address", file=sys.stderr)
            return 2
    config = ServerConfig(
        database_url=args.database_url,
        data_dir=args.data_dir,
        bot_workers=args.bot_workers,
        analysis_level=args.analysis_level,
        bot_delay=max(0.0, args.bot_delay),
        max_connections_per_client=max(0, args.max_connections_per_client),
        max_connections=fit_file_limit(max(1, args.max_connections)),
        cluster=args.cluster,
        lease_seconds=max(0.5, args.lease_seconds),
        **edge,
    )
    if config.max_connections < args.max_connections:
        print(
            f"bummerl serve: the file limit (ulimit -n) allows {config.max_connections} connections,"
            f" not {args.max_connections}",
            file=sys.stderr,
        )
    try:
        app = create_app(config=config)
    except ValueError as exc:
        print(f"bummerl serve: error: {exc}", file=sys.stderr)
        return 2
    host = f"[{args.host}]" if ":" in args.host else args.host
    shown = "127.0.0.1" if args.host in ("0.0.0.0", "::") else host
    print(f"Bummerl is running: open http://{shown}:{args.port}/ in your browser", flush=True)
    if args.database_url is None:
        # A URL given by the user may hold a password: only the default file is shown.
        print(f"Games are stored in {config.resolved_data_dir() / 'bummerl.db'}", flush=True)
    if config.public_url is None:
        print("Invitation links use the address a player opened; --public-url URL sets the one to use.", flush=True)
    print("Stop it with Ctrl+C.", flush=True)
    uvicorn.Server(uvicorn_config(app, config, host=args.host, port=args.port, log_level=args.log_level)).run()
    return 0


def edge_settings(args: argparse.Namespace) -> dict[str, Any]:
    """``public_url`` and ``allowed_origins`` of :class:`~bummerl.server.config.ServerConfig` from the flags.

    Without ``--public-url`` it is the address printed at start; on a loopback address the
    other names of this machine (``localhost``, ``127.0.0.1``, ``[::1]``) may open the game too.
    A wildcard ``--host`` (``0.0.0.0``, ``::``) has no one address: invitations are then paths that
    the browser completes with the address it opened, and a page must come from the host it asked.
    """
    origins = tuple(o.rstrip("/") for o in args.allowed_origin)
    if args.public_url is not None:
        return {"public_url": args.public_url.rstrip("/"), "allowed_origins": origins}
    if args.host in ("0.0.0.0", "::", ""):
        return {"public_url": None, "allowed_origins": origins}
    host = f"[{args.host}]" if ":" in args.host else args.host
    own = f"http://{host}:{args.port}"
    loopback = [f"http://{name}:{args.port}" for name in ("localhost", "127.0.0.1", "[::1]")]
    if own in loopback:
        origins += tuple(o for o in loopback if o != own)
    return {"public_url": own, "allowed_origins": origins}
