"""Quick match and the lobby's counts (:mod:`bummerl.server.quickmatch`; docs/web.md "Quick match").

=======================================  ==============================================================
``GET /api/quickmatch``                  the presets of every variant, the waits for bots, the clock
``POST /api/quickmatch``                 wait for a table: ``{variant, preset, name, bots_after}`` with
                                         the player's key; ``201`` a ticket (seated at once if others wait)
``GET /api/quickmatch/{ticket}``         the ticket: ``waiting`` or ``seated`` with its table and token
``DELETE /api/quickmatch/{ticket}``      stop waiting
``GET /api/lobby/counts``                how many people play and wait, and the queues (no names)
=======================================  ==============================================================

Asking for a ticket needs a player's device key (``Authorization: Bearer
<key>``, :mod:`bummerl.server.players`): one ticket per player.  It counts
against the client's ``join`` rate (as taking an invited seat does) besides
the API's own; a poll counts against ``api`` only.  The ticket's id is its
secret: whoever holds it may poll and cancel it, nobody else can guess it.
"""

from __future__ import annotations

import re
from collections.abc import Awaitable
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Header
from pydantic import BaseModel, ConfigDict, Field
from starlette.requests import HTTPConnection

from bummerl.server.messages import PlayerName
from bummerl.server.quickmatch import BOT_WAITS, QuickMatchError, QuickMatchService, presets_json
from bummerl.server.routes.deps import PartsDep, check_rate, client_of, error, parts, rate_limited, refused

__all__ = ["QuickMatchRequest", "router", "service"]

router = APIRouter(prefix="/api", dependencies=[rate_limited("api")])

#: What a ticket id looks like (``secrets.token_urlsafe(24)``: 32 characters); anything else is unknown at once.
TICKET_ID = re.compile(r"[A-Za-z0-9_-]{16,64}")
#: Seconds between two polls of a waiting page (told to clients; the ticket lives ``ticket_seconds``).
POLL_SECONDS = 1.0


def service(connection: HTTPConnection) -> QuickMatchService:
    """The app's quick-match service (``app.state.quickmatch``), for ``Depends``."""
    parts(connection)  # the app is one of create_app's
    found: QuickMatchService = connection.app.state.quickmatch
    return found


ServiceDep = Annotated[QuickMatchService, Depends(service)]


class QuickMatchRequest(BaseModel):
    """``POST /api/quickmatch``: wait for a table of ``variant`` with the house rules of ``preset``."""

    model_config = ConfigDict(extra="forbid", str_strip_whitespace=True)

    variant: str = Field(min_length=1, max_length=64)
    preset: str = Field(default="standard", min_length=1, max_length=32)
    #: The name shown at the table; ``null``: the player's own, else "Player".
    name: PlayerName | None = None
    #: Seconds to wait before bots fill the seats nobody took (tables of three or four); ``null``: never.
    bots_after: int | None = Field(default=None, ge=0, le=3600, strict=True)


def _ticket_id(ticket: str) -> str:
    if not TICKET_ID.fullmatch(ticket):
        raise error(404, "unknown_ticket", "no such quick-match ticket")
    return ticket


@router.get("/quickmatch")
async def get_quickmatch(p: PartsDep) -> dict[str, Any]:
    s = p.config.quickmatch
    return {
        "variants": presets_json(),
        "bot_waits": [w for w in BOT_WAITS if w is None or w <= s.max_bot_wait],
        "max_bot_wait": s.max_bot_wait,
        "move_seconds": s.move_seconds or None,
        "ticket_seconds": s.ticket_seconds,
        "poll_seconds": POLL_SECONDS,
    }


@router.post("/quickmatch", status_code=201, dependencies=[rate_limited("join")])
async def post_quickmatch(
    body: QuickMatchRequest,
    connection: HTTPConnection,
    p: PartsDep,
    quick: ServiceDep,
    authorization: Annotated[str | None, Header(max_length=512)] = None,
) -> dict[str, Any]:
    key = (authorization or "").removeprefix("Bearer ").strip()
    if not key:
        raise error(401, "no_player", "a quick match needs this device's player key: Authorization: Bearer <key>")
    player = await p.manager.db.run(p.players.player_of, key)
    if player is None:
        raise error(401, "no_player", "this device's player key is unknown (forgotten, or from another server)")
    # Each ticket may make a table (its group's), so it counts as making one does: against the create rate of the
    # address and of the player (docs/security.md, "Quick match"), besides the join rate of asking.
    check_rate(p, "create", client_of(connection))
    check_rate(p, "create", f"player:{player.id}")
    name = body.name or player.name or "Player"
    return await _answer(
        quick.enter(body.variant, body.preset, name, player.id, client_of(connection), body.bots_after)
    )


async def _answer(call: Awaitable[dict[str, Any]]) -> dict[str, Any]:
    """The service's answer, or its refusal as the HTTP error it names."""
    try:
        return await call
    except QuickMatchError as exc:
        raise refused(exc) from None


@router.get("/quickmatch/{ticket}")
async def get_ticket(ticket: str, quick: ServiceDep) -> dict[str, Any]:
    return await _answer(quick.poll(_ticket_id(ticket)))


@router.delete("/quickmatch/{ticket}")
async def delete_ticket(ticket: str, quick: ServiceDep) -> dict[str, Any]:
    return await _answer(quick.cancel(_ticket_id(ticket)))


@router.get("/lobby/counts")
async def get_counts(quick: ServiceDep) -> dict[str, Any]:
    return await quick.counts()
