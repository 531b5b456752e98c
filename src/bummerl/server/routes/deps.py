"""What the routers share: the app's parts, the error shape, and the per-client rate limits.

Errors are ``{"detail": {"code", "message"}}`` with a 4xx or 503 status
(docs/web.md); a request over a rate limit gets ``429`` with ``Retry-After``.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Annotated, Any

from fastapi import Depends, HTTPException
from starlette.applications import Starlette
from starlette.requests import HTTPConnection
from starlette.types import ASGIApp

from bummerl.server.analyses import AnalysisRunner
from bummerl.server.clients import client_key
from bummerl.server.config import ServerConfig
from bummerl.server.errors import RequestError
from bummerl.server.limits import Limited, RateLimits
from bummerl.server.manager import TableManager
from bummerl.server.players import PlayerStore
from bummerl.server.storage import Repository
from bummerl.server.tournaments import TournamentService

__all__ = ["Parts", "PartsDep", "app_parts", "check_rate", "client_of", "error", "parts", "rate_limited", "refused"]


@dataclasses.dataclass(frozen=True)
class Parts:
    """The parts of one app that the routes use (``app.state.parts``)."""

    config: ServerConfig
    repo: Repository
    manager: TableManager
    analyses: AnalysisRunner
    rates: RateLimits
    #: The players' device keys, transfer codes and statistics.
    players: PlayerStore
    tournaments: TournamentService


def parts(connection: HTTPConnection) -> Parts:
    """The app's parts, for ``Depends``."""
    return app_parts(connection.app)


def app_parts(app: ASGIApp) -> Parts:
    """The parts of ``app`` (:func:`bummerl.server.app.create_app`): its config, repository, table manager..."""
    assert isinstance(app, Starlette), "an app of bummerl.server.app.create_app"
    found: Parts = app.state.parts
    return found


#: A route's parameter ``p: PartsDep`` receives the app's parts.
PartsDep = Annotated[Parts, Depends(parts)]


def client_of(connection: HTTPConnection) -> str:
    """The client key of a request (:func:`~bummerl.server.clients.client_key`)."""
    return client_key(connection.client.host if connection.client else None)


def error(status: int, code: str, message: str, headers: dict[str, str] | None = None) -> HTTPException:
    return HTTPException(status_code=status, detail={"code": code, "message": message}, headers=headers)


def refused(exc: RequestError) -> HTTPException:
    """The answer to a request the server refused: its status and code; ``Retry-After`` for a busy server."""
    headers = {"Retry-After": "60"} if exc.status in (429, 503) else None
    return error(exc.status, exc.code, exc.message, headers)


def check_rate(p: Parts, what: Limited, client: str) -> None:
    """Count one request of ``client`` against the ``what`` limit; ``429`` over it."""
    wait = p.rates.check(what, client)
    if wait is not None:
        raise error(
            429,
            "rate_limited",
            f"too many requests ({what}: at most {p.rates.describe()[what]}); try again in {wait:.0f} s",
            {"Retry-After": f"{wait:.0f}"},
        )


def rate_limited(what: Limited) -> Any:
    """A dependency that counts the request against the ``what`` limit of its client."""

    def dependency(connection: HTTPConnection) -> None:
        check_rate(parts(connection), what, client_of(connection))

    check: Callable[[HTTPConnection], None] = dependency
    return Depends(check)
