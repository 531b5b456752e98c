"""Tables of every variant: create one, join one by its invitation code, list and watch them.

One tree for all six variants: ``POST /api/tables`` makes a two-player table
or a three- or four-player one, and ``GET /api/tables``, ``/api/tables/{id}``
and ``/api/tables/{id}/invite`` answer for both (the ``kind`` of a summary says
which ``match`` and view shape follow).

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
from bummerl.server.manager import TABLE_ID, CapacityError, UnknownTable
from bummerl.server.messages import CreateTable, JoinTable
from bummerl.server.rooms import FRIEND, invitations
from bummerl.server.routes.deps import Parts, PartsDep, client_of, error, rate_limited, refused
from bummerl.server.storage import StorageError

__all__ = ["invite_url", "router"]

router = APIRouter(prefix="/api", dependencies=[rate_limited("api")])


def invite_url(p: Parts, code: str) -> str:
    """The address a friend opens to take the seat of ``code``: the configured public base URL, never a
    request's ``Host``; without one, the path alone (the page resolves it against its own origin)."""
    base = (p.config.public_url or "").rstrip("/")
    return f"{base}/#/join/{code}"


async def summary(p: Parts, table_id: str) -> dict[str, Any]:
    """The summary of the live table, wherever it is live, or ``404 unknown_table``."""
    try:
        return await p.manager.summary(table_id)
    except UnknownTable as exc:
        raise error(404, "unknown_table", str(exc)) from None


# ------------------------------------------------------------------ every variant
@router.post("/tables", status_code=201, dependencies=[rate_limited("create")])
async def post_table(body: CreateTable, connection: HTTPConnection, p: PartsDep) -> dict[str, Any]:
    try:
        room, token, codes = await p.manager.create_table(
            body.variant,
            dict(body.options),
            body.name,
            seats=body.seats,
            opponent=body.opponent,
            bots=body.bots,
            seed=body.seed,
            target=body.target,
            creator=client_of(connection),
            move_seconds=body.move_seconds,
        )
    except BummerlError as exc:
        raise error(400, "bad_table", str(exc)) from None
    except CapacityError as exc:
        raise refused(exc) from None
    first = min(codes) if codes else None
    return {
        "table_id": room.id,
        "kind": room.kind,
        "variant": room.variant.name,
        "seat": 0,
        "token": token,
        "join_code": codes[first] if first is not None else None,
        "invite_url": invite_url(p, codes[first]) if first is not None else None,
        "join_codes": {str(seat): code for seat, code in codes.items()},
        "invite_urls": {str(seat): invite_url(p, code) for seat, code in codes.items()},
        "practice": room.data.practice,
        "move_seconds": room.data.move_seconds,
        "ws_url": room.ws_url,
    }


@router.get("/tables")
async def get_tables(p: PartsDep) -> list[dict[str, Any]]:
    return await p.manager.listing()


@router.get("/tables/{table_id}")
async def get_table(table_id: str, p: PartsDep) -> dict[str, Any]:
    return await summary(p, table_id)


@router.get("/tables/{table_id}/invite")
async def get_invite(
    table_id: str, p: PartsDep, authorization: str | None = Header(None, max_length=512)
) -> dict[str, Any]:
    # The seats are the database's: the answer needs no live table (another process may hold it).
    seats = await p.manager.db.run(p.repo.seats, table_id) if TABLE_ID.fullmatch(table_id) else []
    if not seats:
        raise error(404, "unknown_table", f"no table {table_id[:40]!r}")
    token = (authorization or "").removeprefix("Bearer ").strip()
    if not token or await p.manager.db.run(p.repo.seat_of, table_id, token) is None:
        raise error(403, "bad_token", "only a seat of this table may see its invitation")
    if not any(s.kind == FRIEND for s in seats):
        raise error(409, "no_invite", "every other seat of this table is a bot's")
    open_codes = invitations(seats)
    if not open_codes:
        raise error(409, "seat_taken", "every invited friend has joined already")
    first = open_codes[min(open_codes)]
    return {
        "join_code": first,
        "invite_url": invite_url(p, first),
        "join_codes": {str(seat): code for seat, code in open_codes.items()},
        "invite_urls": {str(seat): invite_url(p, code) for seat, code in open_codes.items()},
    }


# ------------------------------------------------------------------------ joining
@router.post("/join", dependencies=[rate_limited("join")])
async def post_join(body: JoinTable, p: PartsDep) -> dict[str, Any]:
    try:
        joined = await p.manager.join(body.code, body.name)
    except UnknownTable:
        raise error(404, "unknown_code", "no table has this invitation code") from None
    except StorageUnavailable:
        raise
    except StorageError as exc:
        raise error(409, "seat_taken", str(exc)) from None
    return {
        "table_id": joined.table_id,
        "kind": joined.kind,
        "seat": joined.seat,
        "token": joined.token,
        "ws_url": joined.ws_url,
    }
