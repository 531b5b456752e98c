"""Tournaments for humans and bots (issue 14): make one, join it by its code, add bots, start it, follow it.

``GET /api/tournaments`` lists the tournaments (newest first, no token and no
name of a participant in it); ``POST /api/tournaments`` makes an open
tournament and answers its organiser's token once; ``POST /api/tournaments/join`` takes a participant's place by the
join code; the organiser (``Authorization: Bearer <organiser token>``) adds
bots, starts it and may cancel it; ``GET /api/tournaments/{id}`` is the public state, and with
a participant's token (the same header) also their table.  docs/web-tournaments.md
has the shapes; :mod:`bummerl.server.tournaments` does the work.

>>> from fastapi.testclient import TestClient
>>> from bummerl.server.app import create_app
>>> from bummerl.server.config import ServerConfig
>>> app = create_app("sqlite://", config=ServerConfig(bot_executor="thread"))
>>> with TestClient(app) as client:
...     made = client.post("/api/tournaments", json={"name": "Cup", "variant": "dreier", "format": "round-robin"})
...     boss = {"Authorization": "Bearer " + made.json()["organiser_token"]}
...     anna = client.post("/api/tournaments/join", json={"code": made.json()["code"], "name": "Anna"}).json()
...     started = client.post(f"/api/tournaments/{anna['id']}/start", json={"bots": ["random"]}, headers=boss)
...     mine = client.get(f"/api/tournaments/{anna['id']}", headers={"Authorization": "Bearer " + anna["player_token"]})
>>> started.json()["status"], [s["kind"] for s in mine.json()["rounds"][0]["tables"][0]["seats"]]
('running', ['human', 'bot', 'bot'])
>>> mine.json()["your_table"]["seat"], mine.json()["your_table"]["seat_token"] == anna["player_token"]
(0, True)

The router's lifespan starts the service's background look at the running
tournaments when the app starts, after the table manager, and stops it first.
Making a tournament counts against the client's ``create`` rate (the one of
tables), joining against its ``join`` rate, everything else against ``api``.
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Depends, FastAPI, Header, Query
from pydantic import BaseModel, ConfigDict, Field
from starlette.requests import HTTPConnection

from bummerl.server.clock import MAX_MOVE_SECONDS, MIN_MOVE_SECONDS
from bummerl.server.messages import PlayerName
from bummerl.server.routes.deps import app_parts, client_of, parts, rate_limited, refused
from bummerl.server.tournament_rounds import MAX_ROUNDS
from bummerl.server.tournament_store import TournamentData, TournamentError, TournamentPlan
from bummerl.server.tournaments import TournamentService

__all__ = ["CreateTournament", "JoinTournament", "router", "service"]

#: The most participants a request may ask for (the service's settings may allow fewer).
MAX_PLAYERS = 64


@contextlib.asynccontextmanager
async def _lifespan(app: FastAPI) -> AsyncIterator[None]:
    found = app_parts(app).tournaments
    found.start_polling()
    try:
        yield
    finally:
        await found.stop_polling()


router = APIRouter(prefix="/api", dependencies=[rate_limited("api")], lifespan=_lifespan)


def service(connection: HTTPConnection) -> TournamentService:
    """The app's tournament service, for ``Depends``."""
    return parts(connection).tournaments


ServiceDep = Annotated[TournamentService, Depends(service)]


class CreateTournament(BaseModel):
    """``POST /api/tournaments``: a new open tournament."""

    model_config = ConfigDict(extra="forbid", str_strip_whitespace=True)

    #: The tournament's name, read as a player's name is (it is shown to every participant).
    name: PlayerName
    variant: str = Field(default="schnapsen", max_length=64)
    options: dict[str, bool | str | int] = Field(default_factory=dict, max_length=32)
    format: Literal["round-robin", "swiss", "knock-out"] = "swiss"
    #: Swiss only: the rounds to play (default ``ceil(log2 n)``; at most as many as pair without a repeat).
    rounds: int | None = Field(default=None, ge=1, le=MAX_ROUNDS)
    unit: Literal["game", "bummerl"] = "game"
    max_players: int = Field(default=16, ge=2, le=MAX_PLAYERS)
    #: Seconds per move at its tables (the service's ``max_move_seconds`` bounds it further); left out: the
    #: server's default; ``null``: no clock (and so no forfeit).
    move_seconds: int | None = Field(default=None, ge=MIN_MOVE_SECONDS, le=MAX_MOVE_SECONDS, strict=True)


class JoinTournament(BaseModel):
    """``POST /api/tournaments/join``: take a participant's place by the join code."""

    model_config = ConfigDict(extra="forbid", str_strip_whitespace=True)

    code: str = Field(min_length=1, max_length=64)
    name: PlayerName


class AddBot(BaseModel):
    """``POST /api/tournaments/{id}/bots``: the organiser adds a bot as a participant."""

    model_config = ConfigDict(extra="forbid", str_strip_whitespace=True)

    bot: str = Field(min_length=1, max_length=64)


class StartTournament(BaseModel):
    """``POST /api/tournaments/{id}/start``: start, with these bots added as participants first."""

    model_config = ConfigDict(extra="forbid", str_strip_whitespace=True)

    bots: list[Annotated[str, Field(min_length=1, max_length=64)]] = Field(default_factory=list, max_length=MAX_PLAYERS)


def _bearer(authorization: str | None) -> str | None:
    token = (authorization or "").removeprefix("Bearer ").strip()
    return token or None


#: The ``Authorization: Bearer <token>`` header, bounded like the seat tokens' (docs/security.md).
Authorization = Annotated[str | None, Header(max_length=512)]


@router.post("/tournaments", status_code=201, dependencies=[rate_limited("create")])
async def post_tournament(
    body: CreateTournament, connection: HTTPConnection, tournaments: ServiceDep
) -> dict[str, Any]:
    try:
        clock = body.move_seconds if "move_seconds" in body.model_fields_set else tournaments.settings.move_seconds
        plan = TournamentPlan(
            body.name,
            body.variant,
            dict(body.options),
            body.format,
            body.unit,
            body.rounds,
            body.max_players,
            move_seconds=clock,
        )
        t, token = await tournaments.create(plan, client_of(connection))
    except TournamentError as exc:
        raise refused(exc) from None
    return {
        "id": t.id,
        "code": t.join_code,
        "invite_url": tournaments.invite_url(t.join_code),
        "organiser_token": token,
        "variant": t.variant,
        "format": t.format,
        "unit": t.unit,
        "max_players": t.max_players,
        "move_seconds": t.move_seconds,
    }


@router.get("/tournaments")
async def get_tournaments(
    tournaments: ServiceDep,
    status: Annotated[str | None, Query(max_length=16)] = None,
    limit: Annotated[int, Query(ge=1, le=100)] = 50,
    offset: Annotated[int, Query(ge=0, le=1_000_000)] = 0,
) -> dict[str, Any]:
    try:
        return await tournaments.listing(status, limit, offset)
    except TournamentError as exc:
        raise refused(exc) from None


@router.post("/tournaments/join", dependencies=[rate_limited("join")])
async def post_join(body: JoinTournament, tournaments: ServiceDep) -> dict[str, Any]:
    try:
        tournament_id, number, token = await tournaments.join(body.code, body.name)
    except TournamentError as exc:
        raise refused(exc) from None
    return {"id": tournament_id, "player": number, "player_token": token}


@router.get("/tournaments/{tournament_id}")
async def get_tournament(
    tournament_id: str, tournaments: ServiceDep, authorization: Authorization = None
) -> dict[str, Any]:
    try:
        return await tournaments.state(tournament_id, _bearer(authorization))
    except TournamentError as exc:
        raise refused(exc) from None


@router.post("/tournaments/{tournament_id}/bots", status_code=201)
async def post_bot(
    tournament_id: str, body: AddBot, tournaments: ServiceDep, authorization: Authorization = None
) -> dict[str, Any]:
    try:
        number, name = await tournaments.add_bot(tournament_id, _bearer(authorization), body.bot)
    except TournamentError as exc:
        raise refused(exc) from None
    return {"player": number, "name": name}


@router.post("/tournaments/{tournament_id}/start")
async def post_start(
    tournament_id: str,
    tournaments: ServiceDep,
    body: StartTournament | None = None,
    authorization: Authorization = None,
) -> dict[str, Any]:
    try:
        t: TournamentData = await tournaments.start(
            tournament_id, _bearer(authorization), list(body.bots) if body is not None else []
        )
    except TournamentError as exc:
        raise refused(exc) from None
    return {"id": t.id, "status": t.status, "round": t.round, "planned_rounds": t.rounds, "players": len(t.players)}


@router.post("/tournaments/{tournament_id}/cancel")
async def post_cancel(
    tournament_id: str, tournaments: ServiceDep, authorization: Authorization = None
) -> dict[str, Any]:
    try:
        t = await tournaments.cancel(tournament_id, _bearer(authorization))
    except TournamentError as exc:
        raise refused(exc) from None
    return {"id": t.id, "status": t.status, "round": t.round}
