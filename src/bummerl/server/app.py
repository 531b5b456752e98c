"""The web app: an ASGI application (FastAPI) with the HTTP API, the table WebSockets and the front end.

:func:`create_app` builds one app over one database; ``bummerl serve`` runs it
with uvicorn.  The API and the message protocol are specified in
``docs/web.md``, the limits and what nobody may learn in ``docs/security.md``.

>>> from fastapi.testclient import TestClient
>>> app = create_app("sqlite://", config=ServerConfig(bot_executor="thread"))
>>> with TestClient(app) as client:
...     created = client.post("/api/tables", json={"opponent": "random", "name": "Anna"}).json()
...     with client.websocket_connect(created["ws_url"]) as ws:
...         ws.send_json({"type": "hello", "token": created["token"]})
...         welcome, state = ws.receive_json(), ws.receive_json()
>>> welcome["seat"], state["type"], len(state["view"]["hand"])
(0, 'state', 5)

The app assembles the parts: the repository (:mod:`~bummerl.server.storage`),
the table manager (:mod:`~bummerl.server.manager`, with its part in a cluster
of processes on one PostgreSQL: :mod:`~bummerl.server.cluster`), the analyses,
the rate limits, and the routers of :mod:`bummerl.server.routes`.  Every rule is the
engine's, and everything a client learns about cards goes through the live
tables (:mod:`~bummerl.server.rooms`, one :class:`~bummerl.server.rooms.Room` per table).
"""

from __future__ import annotations

import contextlib
import dataclasses
import json
import logging
from collections.abc import AsyncIterator, Mapping
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Request
from fastapi.encoders import jsonable_encoder
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from fastapi.staticfiles import StaticFiles

from bummerl.server.analyses import AnalysisRunner
from bummerl.server.cluster import enabled as cluster_enabled
from bummerl.server.config import ServerConfig
from bummerl.server.database import StorageUnavailable
from bummerl.server.limits import RateLimits
from bummerl.server.manager import TableManager
from bummerl.server.players import PlayerStore
from bummerl.server.quickmatch import QuickMatchService
from bummerl.server.rooms import MessageTap
from bummerl.server.routes import games, leaderboard, lobby, sockets, tables, tournaments
from bummerl.server.routes import players as players_routes
from bummerl.server.routes import quickmatch as quickmatch_routes
from bummerl.server.routes import rules as rules_routes
from bummerl.server.routes import sheets as sheets_routes
from bummerl.server.routes import shell as shell_routes
from bummerl.server.routes.deps import Parts
from bummerl.server.security import BodyLimit, SecurityHeaders, install_log_redaction
from bummerl.server.storage import Repository, StorageError
from bummerl.server.storage import database_url as normalized_url
from bummerl.server.tournaments import TournamentService

__all__ = ["create_app", "validation_error"]

log = logging.getLogger("bummerl.server")


def create_app(
    database_url: str | None = None,
    data_dir: str | Path | None = None,
    *,
    config: ServerConfig | None = None,
    tap: MessageTap | None = None,
) -> FastAPI:
    """The web app over ``database_url`` (default: SQLite in ``data_dir``, default the user's data folder).

    ``config`` sets everything else (:class:`ServerConfig`); ``tap`` sees every
    message sent to a client of any table (tests scan them for secrets).  The
    schema is brought up to date when the app is made; tables load from the
    database when a client asks for them, and a bot whose turn it is goes on then.
    :class:`ValueError` for ``cluster=True`` on a database other than PostgreSQL.
    """
    cfg = config or ServerConfig()
    if database_url is not None:
        cfg = dataclasses.replace(cfg, database_url=database_url)
    if data_dir is not None:
        cfg = dataclasses.replace(cfg, data_dir=Path(data_dir))
    cfg.prepare()
    cluster_enabled(cfg, normalized_url(cfg.resolved_database_url()))  # refuses cluster=True without PostgreSQL
    repo = Repository(cfg.resolved_database_url(), busy_timeout=cfg.db_busy_timeout)
    repo.create_schema()
    manager = TableManager(repo, cfg, tap)
    parts = Parts(
        config=cfg,
        repo=repo,
        manager=manager,
        analyses=AnalysisRunner(repo, manager.db, cfg),
        rates=RateLimits(
            create=cfg.create_rate,
            join=cfg.join_rate,
            analysis=cfg.analysis_rate,
            api=cfg.api_rate,
            connect=cfg.connect_rate,
        ),
        players=PlayerStore(repo),
        tournaments=TournamentService(repo, manager, cfg, cfg.tournaments),
    )

    @contextlib.asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        await manager.start()
        try:
            yield
        finally:
            await manager.shutdown()
            await parts.analyses.shutdown()
            repo.dispose()

    app = FastAPI(title="Bummerl", version="1", lifespan=lifespan)
    app.add_middleware(BodyLimit)
    app.add_middleware(SecurityHeaders)  # added last: the outermost, so the 413 carries the headers too
    install_log_redaction()
    app.state.parts = parts  # the one handle on the app's parts (routes: parts(); tests: app_parts())
    # Quick match (routes/quickmatch.py): made with the app, so that in cluster mode it answers the other
    # processes' relayed requests from the start.
    app.state.quickmatch = QuickMatchService(manager, parts.players, cfg)

    @app.exception_handler(StorageError)
    async def storage_failed(_request: Request, exc: StorageError) -> JSONResponse:
        # A database that cannot answer now is a 503 with a time to come back, never a bare 500.
        retry = StorageUnavailable.retry_after
        log.error("storage: %s", exc)
        return JSONResponse(
            {"detail": {"code": "storage", "message": "the database is busy; nothing was changed, try again"}},
            status_code=503,
            headers={"Retry-After": str(retry)},
        )

    @app.exception_handler(RequestValidationError)
    async def invalid(_request: Request, exc: RequestValidationError) -> JSONResponse:
        # FastAPI's own answer echoes the input, and a body with NaN, Infinity or a lone surrogate cannot be
        # encoded back: that was a 500 with a traceback in the log for every such 13-byte request.
        return JSONResponse({"detail": [validation_error(e) for e in exc.errors()]}, status_code=422)

    for router in (lobby.router, tables.router, games.router, sockets.router, tournaments.router):
        app.include_router(router)
    app.include_router(rules_routes.router)  # GET /api/rules/{variant}: the rules pages
    app.include_router(players_routes.router)  # /api/players: device keys, transfer codes, statistics
    app.include_router(leaderboard.router)  # GET /api/leaderboard/{variant}: the people's ratings per variant
    app.include_router(sheets_routes.router)  # GET /api/tables/{id}/sheet: the Bummerl sheet
    app.include_router(quickmatch_routes.router)  # /api/quickmatch, /api/lobby/counts
    app.include_router(shell_routes.router)  # GET /sw.js: the service worker with its shell's files and version

    static = cfg.static_dir
    if static.is_dir():
        app.mount("/", StaticFiles(directory=static, html=True), name="static")
    return app


def validation_error(error: Mapping[str, Any]) -> dict[str, Any]:
    """One error of a ``422`` answer: FastAPI's ``type``, ``loc`` and ``msg`` (what the page shows), and the
    ``input`` and ``ctx`` it echoes only where they can be sent back as strict JSON.

    >>> validation_error({"type": "string_type", "loc": ("body", "name"), "msg": "Input should be a valid string",
    ...                   "input": float("nan")})
    {'type': 'string_type', 'loc': ['body', 'name'], 'msg': 'Input should be a valid string'}
    """
    out: dict[str, Any] = {
        "type": _text(str(error.get("type", ""))),
        "loc": [part if isinstance(part, int) else _text(str(part)) for part in error.get("loc", ())],
        "msg": _text(str(error.get("msg", ""))),
    }
    for field in ("input", "ctx"):
        if field in error:
            try:
                value = jsonable_encoder(error[field])
                json.dumps(value, allow_nan=False, ensure_ascii=False).encode("utf-8")
            except (TypeError, ValueError):  # NaN, Infinity (ValueError), a lone surrogate (UnicodeEncodeError)
                continue
            out[field] = value
    return out


def _text(text: str) -> str:
    """``text`` with what UTF-8 cannot carry (a lone surrogate, from a JSON escape) written as its escape."""
    return text.encode("utf-8", "backslashreplace").decode("utf-8")
