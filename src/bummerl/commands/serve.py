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

Needs the ``web`` extra (``pip install 'bummerl[web]'``); without it the
command says so instead of failing with an import error.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

__all__ = ["add_parser", "run"]


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


def run(args: argparse.Namespace) -> int:
    """Serve until interrupted; 1 when the web extra is missing."""
    try:
        import uvicorn

        from bummerl.server.app import create_app
        from bummerl.server.config import ServerConfig
    except ImportError as exc:
        print(
            f"bummerl serve: error: the web app needs the 'web' extra ({exc.name} is missing):"
            " pip install 'bummerl[web]'",
            file=sys.stderr,
        )
        return 1
    config = ServerConfig(
        database_url=args.database_url,
        data_dir=args.data_dir,
        bot_workers=args.bot_workers,
        analysis_level=args.analysis_level,
        bot_delay=max(0.0, args.bot_delay),
    )
    app = create_app(config=config)
    host = f"[{args.host}]" if ":" in args.host else args.host
    shown = "127.0.0.1" if args.host in ("0.0.0.0", "::") else host
    print(f"Bummerl is running: open http://{shown}:{args.port}/ in your browser", flush=True)
    if args.database_url is None:
        # A URL given by the user may hold a password: only the default file is shown.
        print(f"Games are stored in {config.resolved_data_dir() / 'bummerl.db'}", flush=True)
    print("Stop it with Ctrl+C.", flush=True)
    uvicorn.run(app, host=args.host, port=args.port, log_level=args.log_level)
    return 0
