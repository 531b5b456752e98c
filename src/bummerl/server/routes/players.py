"""Players without passwords: a device key, a transfer code, seats and statistics (:mod:`bummerl.server.players`).

=======================================  ==============================================================
``POST /api/players``                    a new player: ``{player_id, key, name}`` (the key only here)
``GET /api/players/me``                  the player of the ``Authorization: Bearer <key>`` header
``PATCH /api/players/me``                change the name
``DELETE /api/players/me/key``           forget this device's key
``POST /api/players/me/transfer``        a transfer code for another device, valid 10 minutes, once
``POST /api/players/transfer``           the code typed on the other device: a new key of that player
``POST /api/players/me/seats``           record the seat of ``{table_id, token}`` for this player:
                                         ``{table_id, seat, claimed, reason}``, ``reason`` ``already``,
                                         ``other_player`` or ``other_seat`` when nothing was recorded
``GET /api/players/me/stats``            games and Bummerl won per variant and opponent, ratings, runs;
                                         ``people``: the rating against people per variant
=======================================  ==============================================================

Making a player or a transfer code counts against the client's ``create``
limit, typing a code against its ``join`` limit (as an invitation code does),
besides the API's own limit; a transfer code itself takes only
:data:`~bummerl.server.players.CODE_ATTEMPTS` wrong guesses (docs/security.md,
"Players and their device keys").
"""

from __future__ import annotations

import datetime as dt
import time
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Header, Response
from pydantic import BaseModel, ConfigDict, Field
from starlette.requests import HTTPConnection

from bummerl.server import people_ratings
from bummerl.server.manager import TABLE_ID
from bummerl.server.messages import PlayerName
from bummerl.server.people_ratings import PlayerRating
from bummerl.server.players import (
    RECENT_GAMES,
    GameOutcome,
    PlayerData,
    PlayerError,
    statistics,
)
from bummerl.server.routes.deps import PartsDep, check_rate, client_of, error, rate_limited, refused

__all__ = ["router"]


router = APIRouter(prefix="/api", dependencies=[rate_limited("api")])


class NewPlayer(BaseModel):
    """``POST /api/players`` and ``PATCH /api/players/me``: the player's name (optional)."""

    model_config = ConfigDict(extra="forbid", str_strip_whitespace=True)

    name: PlayerName | None = None


class Redeem(BaseModel):
    """``POST /api/players/transfer``: the code shown on the other device."""

    model_config = ConfigDict(extra="forbid")

    code: str = Field(min_length=1, max_length=40)


class ClaimSeat(BaseModel):
    """``POST /api/players/me/seats``: the table and the token of the seat this player holds there."""

    model_config = ConfigDict(extra="forbid")

    table_id: str = Field(min_length=1, max_length=32)
    token: str = Field(min_length=1, max_length=256)


def _key(authorization: str | None) -> str:
    key = (authorization or "").removeprefix("Bearer ").strip()
    if not key:
        raise error(401, "no_player", "send this device's player key: Authorization: Bearer <key>")
    return key


async def _player(p: PartsDep, authorization: Annotated[str | None, Header(max_length=512)] = None) -> PlayerData:
    key = _key(authorization)
    player = await p.manager.db.run(p.players.player_of, key)
    if player is None:
        raise error(401, "no_player", "this device's player key is unknown (forgotten, or from another server)")
    return player


PlayerDep = Annotated[PlayerData, Depends(_player)]


async def optional_player(
    p: PartsDep, authorization: Annotated[str | None, Header(max_length=512)] = None
) -> PlayerData | None:
    """The player of the ``Authorization`` header where a public page may show more to its own player (the
    leaderboard's own row); ``None`` without a key or for a key the server does not know (no error: the page is
    public)."""
    key = (authorization or "").removeprefix("Bearer ").strip()
    return await p.manager.db.run(p.players.player_of, key) if key else None


def _player_json(player: PlayerData) -> dict[str, Any]:
    return {"player_id": player.id, "name": player.name, "created_at": player.created_at, "devices": player.devices}


def _recent(outcome: GameOutcome) -> dict[str, Any]:
    return {
        "game_id": outcome.game_id,
        "table_id": outcome.table_id,
        "variant": outcome.variant,
        "match_no": outcome.match_no,
        "game_no": outcome.game_no,
        "seat": outcome.seat,
        "outcome": outcome.outcome,
        "points": outcome.points,
        "opponent": outcome.opponent,
        "finished_at": outcome.finished_at,
    }


@router.post("/players", status_code=201)
async def post_player(body: NewPlayer, connection: HTTPConnection, p: PartsDep) -> dict[str, Any]:
    check_rate(p, "create", client_of(connection))
    player, key = await p.manager.db.run(p.players.create, body.name)
    return {**_player_json(player), "key": key}


@router.get("/players/me")
async def get_me(player: PlayerDep) -> dict[str, Any]:
    return _player_json(player)


@router.patch("/players/me")
async def patch_me(body: NewPlayer, player: PlayerDep, p: PartsDep) -> dict[str, Any]:
    await p.manager.db.run(p.players.rename, player.id, body.name)
    return {**_player_json(player), "name": body.name}


@router.delete("/players/me/key", status_code=204)
async def delete_key(
    player: PlayerDep, p: PartsDep, authorization: Annotated[str | None, Header(max_length=512)] = None
) -> Response:
    await p.manager.db.run(p.players.forget_key, _key(authorization))
    return Response(status_code=204)


@router.post("/players/me/transfer", status_code=201)
async def post_transfer(player: PlayerDep, connection: HTTPConnection, p: PartsDep) -> dict[str, Any]:
    check_rate(p, "create", client_of(connection))
    try:
        code, expires = await p.manager.db.run(p.players.issue_code, player.id)
    except PlayerError as exc:
        raise refused(exc) from None
    at = dt.datetime.fromtimestamp(expires, dt.UTC).isoformat(timespec="seconds").replace("+00:00", "Z")
    return {"code": code, "expires_at": at, "expires_in": max(0, round(expires - time.time()))}


@router.post("/players/transfer")
async def post_redeem(body: Redeem, connection: HTTPConnection, p: PartsDep) -> dict[str, Any]:
    check_rate(p, "join", client_of(connection))
    try:
        player, key = await p.manager.db.run(p.players.redeem, body.code)
    except PlayerError as exc:
        raise refused(exc) from None
    return {**_player_json(player), "key": key}


@router.post("/players/me/seats")
async def post_seat(body: ClaimSeat, player: PlayerDep, p: PartsDep) -> dict[str, Any]:
    seat = (
        await p.manager.db.run(p.repo.seat_of, body.table_id, body.token) if TABLE_ID.fullmatch(body.table_id) else None
    )
    if seat is None:
        raise error(403, "bad_token", "this token holds no seat at this table")
    # Another device that opened the seat's link first, or another seat of this player at the table, is no error:
    # whoever holds the token may play the seat anywhere; the answer says that nothing was recorded, and why.
    result = await p.manager.db.run(p.players.claim_seat, player.id, body.table_id, seat)
    return {
        "table_id": body.table_id,
        "seat": seat,
        "claimed": result == "claimed",
        "reason": None if result == "claimed" else result,
    }


@router.get("/players/me/stats")
async def get_stats(player: PlayerDep, p: PartsDep) -> dict[str, Any]:
    outcomes, more = await p.manager.db.run(p.players.outcomes, player.id)
    people = await p.manager.db.run(p.manager.results.ratings.ratings_of, player.id)
    return {
        **_player_json(player),
        **statistics(outcomes),
        "more": more,
        "recent": [_recent(o) for o in reversed(outcomes[-RECENT_GAMES:])],
        "people": [rating_json(r) for r in people],
    }


def rating_json(rating: PlayerRating) -> dict[str, Any]:
    """A player's rating in one variant as the API gives it (the profile, and the leaderboard's ``me``)."""
    return {
        "variant": rating.variant,
        "rating": round(rating.rating),
        "mu": round(rating.mu, 3),
        "sigma": round(rating.sigma, 3),
        "games": rating.games,
        "won": rating.won,
        "lost": rating.lost,
        "rank": rating.rank,
        "provisional": rating.provisional,
        "min_games": people_ratings.MIN_GAMES,
    }
