"""The web app: an ASGI application (FastAPI) with the HTTP API, the table WebSockets and the front end.

:func:`create_app` builds one app over one database; ``bummerl serve`` runs it
with uvicorn.  The API and the message protocol are specified in
``docs/web.md``.

>>> from fastapi.testclient import TestClient
>>> app = create_app("sqlite://", config=ServerConfig(bot_executor="thread"))
>>> with TestClient(app) as client:
...     created = client.post("/api/tables", json={"opponent": "random", "name": "Anna"}).json()
...     with client.websocket_connect(created["ws_url"]) as ws:
...         ws.send_json({"type": "hello", "token": created["token"]})
...         welcome, state = ws.receive_json(), ws.receive_json()
>>> welcome["seat"], state["type"], len(state["view"]["hand"])
(0, 'state', 5)

The app only calls the engine, the bots and the repository: every rule is the
engine's, and everything a client learns about cards goes through
:mod:`bummerl.server.tables`.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import dataclasses
import logging
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any, Protocol

from fastapi import FastAPI, Header, HTTPException, Request, Response, WebSocket, WebSocketDisconnect
from fastapi.responses import JSONResponse, PlainTextResponse
from fastapi.staticfiles import StaticFiles

from bummerl.bots import bot_info, bot_names
from bummerl.errors import BummerlError
from bummerl.game import Game
from bummerl.protocol import variant_to_json
from bummerl.record import GameRecord, dumps
from bummerl.server.catalog import options_json
from bummerl.server.config import ServerConfig
from bummerl.server.messages import CreateTable, CreateTableGame, JoinTable
from bummerl.server.storage import TABLE_GAME, GameData, Repository, StorageError, TableData
from bummerl.server.table_games import LiveTableGame, TableGameManager, TableGameTap, table_variants_json
from bummerl.server.tables import (
    FRIEND,
    Connection,
    LiveTable,
    MessageTap,
    TableManager,
    action_events,
    make_executor,
)
from bummerl.server.workers import analyze_record, read_game_record
from bummerl.table.record import TableGameRecord
from bummerl.variants import VARIANTS

__all__ = ["create_app"]

log = logging.getLogger("bummerl.server")

def _error(status: int, code: str, message: str) -> HTTPException:
    return HTTPException(status_code=status, detail={"code": code, "message": message})


def variants_json() -> list[dict[str, Any]]:
    """The two-player variants with their options, for the table form."""
    out = []
    for v in VARIANTS:
        options = options_json(v)
        out.append(
            {
                "name": v.name,
                "title": v.title,
                "aliases": list(v.aliases),
                "deck_size": v.deck_size,
                "hand_size": v.hand_size,
                "match_kind": v.match_kind,
                "show_points": v.show_points,
                "options": options,
            }
        )
    return out


class AnalysisRunner:
    """Runs analyses of finished games in a worker and caches them in the database."""

    def __init__(self, repo: Repository, config: ServerConfig) -> None:
        self.repo = repo
        self.config = config
        self._executor: concurrent.futures.Executor | None = None
        self._tasks: set[asyncio.Task[None]] = set()

    def start(self, game_id: int, record: str) -> None:
        if not self.repo.claim_analysis(game_id):
            return  # running or done already
        if self._executor is None:
            # One worker: an analysis is long and must leave the other cores to the tables.
            self._executor = make_executor(self.config.analysis_executor, 1)
        task = asyncio.get_running_loop().create_task(self._run(game_id, record))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _run(self, game_id: int, record: str) -> None:
        loop = asyncio.get_running_loop()
        assert self._executor is not None
        try:
            result = await loop.run_in_executor(self._executor, analyze_record, record, self.config.analysis_level)
        except asyncio.CancelledError:
            raise
        except Exception as exc:
            log.error("analysis of game %s failed: %s", game_id, exc)
            self.repo.store_analysis(game_id, "failed", {"message": f"{type(exc).__name__}: {exc}"})
            return
        self.repo.store_analysis(game_id, "done", result)

    async def shutdown(self) -> None:
        for task in list(self._tasks):
            task.cancel()
        for task in list(self._tasks):
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        if self._executor is not None:
            # An analysis can take a minute: do not wait for it (it is started again next time).
            self._executor.shutdown(wait=False, cancel_futures=True)
            self._executor = None


def _game_summary(game: GameData, table: TableData) -> dict[str, Any]:
    seat1 = table.seat_names[1] or ("" if table.opponent == FRIEND else table.opponent)
    return {
        "game_id": game.id,
        "table_id": game.table_id,
        "variant": table.variant,
        "options": table.options,
        "opponent": table.opponent,
        "match_no": game.match_no + 1,
        "game_no": game.game_no + 1,
        "players": [table.seat_names[0], seat1],
        "dealer": game.dealer,
        "finished": game.finished,
        "result": game.result,
        "started_at": game.started_at,
        "finished_at": game.finished_at,
    }


def _replay_steps(record: GameRecord) -> list[dict[str, Any]]:
    """A finished game step by step with every card open (a record is public once the game is over)."""
    game = Game.from_deck(record.variant, record.deck, record.dealer)

    def step(ply: int, token: str | None, seat: int | None, events: list[dict[str, Any]]) -> dict[str, Any]:
        return {
            "ply": ply,
            "action": token,
            "seat": seat,
            "hands": [[c.code for c in h] for h in game.hands],
            "trump_card": game.trump_card.code if game.trump_card else None,
            "talon_size": game.talon_size,
            "lead": game.lead.code if game.lead else None,
            "tricks_won": list(game.tricks_won),
            "augen": [game.augen(0), game.augen(1)],
            "closed_by": game.closed_by,
            "events": events,
        }

    steps = [step(0, None, None, [])]
    for ply, action in enumerate(record.actions, 1):
        seat = game.to_move
        before = (seat, len(game.tricks), game.trump_card)
        game.apply(action)
        steps.append(step(ply, action.token, seat, action_events(game, action, before)))
    return steps


def create_app(
    database_url: str | None = None,
    data_dir: str | Path | None = None,
    *,
    config: ServerConfig | None = None,
    tap: MessageTap | None = None,
    table_tap: TableGameTap | None = None,
) -> FastAPI:
    """The web app over ``database_url`` (default: SQLite in ``data_dir``, default the user's data folder).

    ``config`` sets everything else (:class:`ServerConfig`); ``tap`` sees every
    message sent to a client (tests), ``table_tap`` every message of a three- or
    four-player table (:mod:`bummerl.server.table_games`).  Tables with unfinished games are
    restored when the app starts (its lifespan), and bots whose turn it is go on.
    """
    cfg = config or ServerConfig()
    if database_url is not None:
        cfg = dataclasses.replace(cfg, database_url=database_url)
    if data_dir is not None:
        cfg = dataclasses.replace(cfg, data_dir=Path(data_dir))
    cfg.prepare()
    repo = Repository(cfg.resolved_database_url())
    repo.create_schema()
    manager = TableManager(repo, cfg, tap)
    # The table games share the bot executor of the two-player tables.
    table_games = TableGameManager(repo, cfg, lambda: manager.executor, table_tap)
    analyses = AnalysisRunner(repo, cfg)

    @contextlib.asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        restored = manager.restore() + table_games.restore()
        if restored:
            log.info("restored %d table(s) with unfinished games", len(restored))
        await manager.warm_up()
        await manager.resume_bots()
        await table_games.resume_bots()
        try:
            yield
        finally:
            await table_games.shutdown()
            await manager.shutdown()
            await analyses.shutdown()
            repo.dispose()

    app = FastAPI(title="Bummerl", version="1", lifespan=lifespan)
    app.state.manager = manager
    app.state.table_games = table_games
    app.state.repo = repo
    app.state.config = cfg

    async def live(table_id: str) -> LiveTable:
        try:
            return await manager.get(table_id)
        except StorageError:
            raise _error(404, "unknown_table", f"no table {table_id!r}") from None

    def stored_game(game_id: int) -> GameData:
        game = repo.get_game(game_id)
        if game is None:
            raise _error(404, "unknown_game", f"no game {game_id}")
        return game

    def finished_record(game_id: int, table_games_too: bool = False) -> tuple[GameData, str]:
        game = stored_game(game_id)
        if not game.finished or game.record is None:
            raise _error(409, "game_running", f"game {game_id} is not over: its cards are secret")
        if not table_games_too and is_table_game(game_id):
            raise _error(
                409, "table_game", f"game {game_id} is a three- or four-player game: only its record is served"
            )
        return game, game.record

    def is_table_game(game_id: int) -> bool:
        table = repo.table_of_game(game_id)
        return table is not None and table.opponent == TABLE_GAME

    async def live_table_game(table_id: str) -> LiveTableGame:
        try:
            return await table_games.get(table_id)
        except StorageError:
            raise _error(404, "unknown_table", f"no table game {table_id!r}") from None

    # ---------------------------------------------------------------- lists
    @app.get("/api/variants")
    async def get_variants() -> list[dict[str, Any]]:
        return variants_json()

    @app.get("/api/bots")
    async def get_bots() -> dict[str, Any]:
        bot_info("random")  # loads the built-in bot modules
        return {
            "default": cfg.default_bot,
            "bots": [{"name": n, "description": bot_info(n).description} for n in bot_names()],
        }

    # --------------------------------------------------------------- tables
    @app.post("/api/tables", status_code=201)
    async def post_table(body: CreateTable, request: Request) -> dict[str, Any]:
        opponent = body.opponent or cfg.default_bot
        try:
            table, token, code = manager.create_table(
                body.variant, dict(body.options), opponent, body.name, body.seed, body.target
            )
        except BummerlError as exc:
            raise _error(400, "bad_table", str(exc)) from None
        return {
            "table_id": table.id,
            "seat": 0,
            "token": token,
            "join_code": code,
            "invite_url": _invite_url(request, code) if code else None,
            "ws_url": f"/ws/tables/{table.id}",
        }

    @app.post("/api/join")
    async def post_join(body: JoinTable) -> dict[str, Any]:
        if repo.table_of_code(body.code) is None:
            if repo.table_seat_of_code(body.code) is not None:
                return await join_table_game(body)
            raise _error(404, "unknown_code", "no table has this invitation code")
        try:
            table, token = await manager.join(body.code, body.name)
        except StorageError as exc:
            raise _error(409, "seat_taken", str(exc)) from None
        return {"table_id": table.id, "seat": 1, "token": token, "ws_url": f"/ws/tables/{table.id}"}

    # ---------------------------------------------------------- table games
    @app.get("/api/table-variants")
    async def get_table_variants() -> dict[str, Any]:
        return table_variants_json()

    @app.post("/api/table-games", status_code=201)
    async def post_table_game(body: CreateTableGame, request: Request) -> dict[str, Any]:
        try:
            live, token, codes = table_games.create(
                body.variant, dict(body.options), body.seats, body.bots, body.name, body.seed
            )
        except BummerlError as exc:
            raise _error(400, "bad_table", str(exc)) from None
        return {
            "table_id": live.id,
            "kind": "table_game",
            "seat": 0,
            "token": token,
            "join_codes": {str(seat): code for seat, code in codes.items()},
            "invite_urls": {str(seat): _invite_url(request, code) for seat, code in codes.items()},
            "ws_url": f"/ws/table-games/{live.id}",
        }

    async def join_table_game(body: JoinTable) -> dict[str, Any]:
        try:
            live, seat, token = await table_games.join(body.code, body.name)
        except StorageError as exc:
            raise _error(409, "seat_taken", str(exc)) from None
        return {
            "table_id": live.id,
            "kind": "table_game",
            "seat": seat,
            "token": token,
            "ws_url": f"/ws/table-games/{live.id}",
        }

    @app.get("/api/table-games")
    async def get_table_games() -> list[dict[str, Any]]:
        return [live.summary() for live in table_games.tables.values()]

    @app.get("/api/table-games/{table_id}")
    async def get_table_game(table_id: str) -> dict[str, Any]:
        return (await live_table_game(table_id)).summary()

    @app.get("/api/tables")
    async def get_tables() -> list[dict[str, Any]]:
        return [
            {
                "table_id": t.id,
                "variant": t.variant.name,
                "players": [p["name"] for p in t.players()],
                "status": t.status,
                "standing": t.match_json()["standing"],
            }
            for t in manager.tables.values()
        ]

    @app.get("/api/tables/{table_id}")
    async def get_table(table_id: str) -> dict[str, Any]:
        return (await live(table_id)).summary()

    @app.get("/api/tables/{table_id}/invite")
    async def get_invite(table_id: str, request: Request, authorization: str | None = Header(None)) -> dict[str, Any]:
        table = await live(table_id)
        token = (authorization or "").removeprefix("Bearer ").strip()
        if not token or repo.seat_of(table_id, token) is None:
            raise _error(403, "bad_token", "only a seat of this table may see its invitation")
        if table.data.join_code is None:
            raise _error(409, "no_invite", "this table plays against a bot")
        if table.data.seat1_taken:
            raise _error(409, "seat_taken", "the invited friend has joined already")
        return {"join_code": table.data.join_code, "invite_url": _invite_url(request, table.data.join_code)}

    # ---------------------------------------------------------------- games
    @app.get("/api/games")
    async def get_games(
        table: str | None = None, finished: bool | None = True, limit: int = 50, offset: int = 0
    ) -> dict[str, Any]:
        limit = max(1, min(limit, 500))
        rows, total = repo.list_games(table, finished, limit, max(0, offset))
        return {"games": [_game_summary(g, t) for g, t in rows], "total": total}

    @app.get("/api/games/{game_id}")
    async def get_game(game_id: int) -> dict[str, Any]:
        game = stored_game(game_id)
        table = repo.table_of_game(game_id)
        assert table is not None
        out = _game_summary(game, table)
        if table.opponent == TABLE_GAME:
            out.update(kind="table_game", record=game.record if game.finished else None, actions=None)
            if game.finished:
                out["actions"] = game.actions
            return out
        if game.finished and game.record is not None:
            record = read_game_record(game.record)
            dealt = Game.from_deck(record.variant, record.deck, record.dealer)
            out.update(
                record=game.record,
                actions=game.actions,
                hands_at_deal=[[c.code for c in h] for h in dealt.hands],
                trump_card=dealt.trump_card.code if dealt.trump_card else None,
                variant_info=variant_to_json(record.variant),
                analysis_url=f"/api/games/{game_id}/analysis",
            )
        return out

    @app.get("/api/games/{game_id}/record")
    async def get_record(game_id: int, format: str = "text") -> Response:
        _, text = finished_record(game_id, table_games_too=True)
        if format == "json" and is_table_game(game_id):
            return PlainTextResponse(TableGameRecord.loads(text).dumps("json"), media_type="application/json")
        if format == "json":
            return PlainTextResponse(dumps(read_game_record(text), "json"), media_type="application/json")
        if format != "text":
            raise _error(400, "bad_format", f"format must be text or json, not {format!r}")
        return PlainTextResponse(text)

    @app.get("/api/games/{game_id}/replay")
    async def get_replay(game_id: int) -> dict[str, Any]:
        _, text = finished_record(game_id)
        return {"game_id": game_id, "steps": _replay_steps(read_game_record(text))}

    @app.get("/api/games/{game_id}/analysis")
    async def get_analysis(game_id: int) -> Response:
        _, text = finished_record(game_id)
        status, analysis = repo.analysis(game_id)
        if status == "done":
            return JSONResponse({"status": "done", "analysis": analysis})
        if status == "failed":
            return JSONResponse({"status": "failed", "message": (analysis or {}).get("message", "")})
        analyses.start(game_id, text)
        return JSONResponse({"status": "running"}, status_code=202)

    # ------------------------------------------------------------ WebSocket
    @app.websocket("/ws/tables/{table_id}")
    async def table_socket(websocket: WebSocket, table_id: str) -> None:
        await _serve_socket(websocket, manager, table_id)

    @app.websocket("/ws/table-games/{table_id}")
    async def table_game_socket(websocket: WebSocket, table_id: str) -> None:
        await _serve_socket(websocket, table_games, table_id)

    # ------------------------------------------------------------ front end
    static = cfg.static_dir
    if static.is_dir():
        app.mount("/", StaticFiles(directory=static, html=True), name="static")
    return app


class _Rooms(Protocol):
    """What a socket needs of a table manager (two-player tables and table games alike)."""

    async def get(self, table_id: str, /) -> Any: ...
    async def handle_text(self, room: Any, conn: Connection, text: str, /) -> None: ...
    async def disconnect(self, room: Any, conn: Connection, /) -> None: ...


async def _serve_socket(websocket: WebSocket, rooms: _Rooms, table_id: str) -> None:
    """One client's WebSocket: its frames go to the room's handler, the room's messages back out."""
    await websocket.accept()
    try:
        room = await rooms.get(table_id)
    except StorageError:
        await websocket.close(code=4404, reason="unknown table")
        return
    conn = Connection()
    send_task = asyncio.get_running_loop().create_task(_pump(websocket, conn))
    try:
        while True:
            frame = await websocket.receive()
            if frame["type"] == "websocket.disconnect":
                break
            text = frame.get("text")
            if text is None:
                # A binary frame: read it as UTF-8 JSON like a text frame.
                text = (frame.get("bytes") or b"").decode("utf-8", errors="replace")
            await rooms.handle_text(room, conn, text)
    except WebSocketDisconnect:
        pass
    finally:
        await rooms.disconnect(room, conn)
        send_task.cancel()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await send_task


async def _pump(websocket: WebSocket, conn: Connection) -> None:
    """Send a connection's queued messages until it is closed (``None``)."""
    while True:
        text = await conn.queue.get()
        if text is None:
            await websocket.close()
            return
        await websocket.send_text(text)


def _invite_url(request: Request, code: str) -> str:
    return f"{str(request.base_url).rstrip('/')}/?join={code}"
