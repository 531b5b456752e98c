"""Tables of either kind: create one, join one by its invitation code, list and watch them.

Only the server deals where another human plays: a ``seed`` is accepted only
at a table whose other seats are all bots (a *practice* table, marked so in its
summary).  Creating and joining are rate-limited per client, and each client
may hold ``max_tables_per_client`` loaded tables (docs/security.md).
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Header
from starlette.requests import HTTPConnection

from bummerl.errors import BummerlError
from bummerl.server.database import StorageUnavailable
from bummerl.server.manager import CapacityError, UnknownTable
from bummerl.server.messages import CreateTable, CreateTableGame, JoinTable
from bummerl.server.rooms import Room
from bummerl.server.routes.deps import Parts, PartsDep, client_of, error, rate_limited
from bummerl.server.storage import StorageError
from bummerl.server.table_games import LiveTableGame
from bummerl.server.tables import LiveTable

__all__ = ["invite_url", "router"]

router = APIRouter(prefix="/api", dependencies=[rate_limited("api")])


def invite_url(p: Parts, code: str) -> str:
    """The address a friend opens to take the seat of ``code``: the configured public base URL, never a
    request's ``Host``; without one, the path alone (the page resolves it against its own origin)."""
    base = (p.config.public_url or "").rstrip("/")
    return f"{base}/#/join/{code}"


def _capacity(exc: CapacityError) -> Exception:
    if exc.code == "server_full":
        return error(503, exc.code, exc.message, {"Retry-After": "60"})
    return error(429, exc.code, exc.message, {"Retry-After": "60"})


async def live(p: Parts, table_id: str, kind: type[Room]) -> Any:
    try:
        return await p.manager.get(table_id, kind)
    except UnknownTable as exc:
        raise error(404, "unknown_table", str(exc)) from None


# ------------------------------------------------------------------ two-player tables
@router.post("/tables", status_code=201, dependencies=[rate_limited("create")])
async def post_table(body: CreateTable, connection: HTTPConnection, p: PartsDep) -> dict[str, Any]:
    opponent = body.opponent or p.config.default_bot
    try:
        table, token, code = await p.manager.create_table(
            body.variant, dict(body.options), opponent, body.name, body.seed, body.target, client_of(connection)
        )
    except BummerlError as exc:
        raise error(400, "bad_table", str(exc)) from None
    except CapacityError as exc:
        raise _capacity(exc) from None
    return {
        "table_id": table.id,
        "seat": 0,
        "token": token,
        "join_code": code,
        "invite_url": invite_url(p, code) if code else None,
        "practice": table.data.practice,
        "ws_url": table.ws_url,
    }


@router.get("/tables")
async def get_tables(p: PartsDep) -> list[dict[str, Any]]:
    return [
        {
            "table_id": t.id,
            "variant": t.variant.name,
            "players": [q["name"] for q in t.players()],
            "status": t.status,
            "standing": t.match_json()["standing"],
        }
        for t in p.manager.live(LiveTable)
        if t.info is not None
    ]


@router.get("/tables/{table_id}")
async def get_table(table_id: str, p: PartsDep) -> dict[str, Any]:
    table: LiveTable = await live(p, table_id, LiveTable)
    return table.summary()


@router.get("/tables/{table_id}/invite")
async def get_invite(
    table_id: str, p: PartsDep, authorization: str | None = Header(None, max_length=512)
) -> dict[str, Any]:
    table: LiveTable = await live(p, table_id, LiveTable)
    token = (authorization or "").removeprefix("Bearer ").strip()
    if not token or await p.manager.db.run(table.seat_of, token) is None:
        raise error(403, "bad_token", "only a seat of this table may see its invitation")
    if table.data.join_code is None:
        raise error(409, "no_invite", "this table plays against a bot")
    if table.data.seat1_taken:
        raise error(409, "seat_taken", "the invited friend has joined already")
    return {"join_code": table.data.join_code, "invite_url": invite_url(p, table.data.join_code)}


# -------------------------------------------------------------- three- and four-player tables
@router.post("/table-games", status_code=201, dependencies=[rate_limited("create")])
async def post_table_game(body: CreateTableGame, connection: HTTPConnection, p: PartsDep) -> dict[str, Any]:
    try:
        table, token, codes = await p.manager.create_table_game(
            body.variant, dict(body.options), body.seats, body.bots, body.name, body.seed, client_of(connection)
        )
    except BummerlError as exc:
        raise error(400, "bad_table", str(exc)) from None
    except CapacityError as exc:
        raise _capacity(exc) from None
    return {
        "table_id": table.id,
        "kind": "table_game",
        "seat": 0,
        "token": token,
        "join_codes": {str(seat): code for seat, code in codes.items()},
        "invite_urls": {str(seat): invite_url(p, code) for seat, code in codes.items()},
        "practice": table.data.practice,
        "ws_url": table.ws_url,
    }


@router.get("/table-games")
async def get_table_games(p: PartsDep) -> list[dict[str, Any]]:
    return [t.summary() for t in p.manager.live(LiveTableGame) if t.table is not None]


@router.get("/table-games/{table_id}")
async def get_table_game(table_id: str, p: PartsDep) -> dict[str, Any]:
    table: LiveTableGame = await live(p, table_id, LiveTableGame)
    return table.summary()


# ------------------------------------------------------------------------ joining
@router.post("/join", dependencies=[rate_limited("join")])
async def post_join(body: JoinTable, p: PartsDep) -> dict[str, Any]:
    try:
        room, seat, token = await p.manager.join(body.code, body.name)
    except UnknownTable:
        raise error(404, "unknown_code", "no table has this invitation code") from None
    except StorageUnavailable:
        raise
    except StorageError as exc:
        raise error(409, "seat_taken", str(exc)) from None
    out = {"table_id": room.id, "seat": seat, "token": token, "ws_url": room.ws_url}
    return out if room.kind == "two_player" else {**out, "kind": room.kind}
