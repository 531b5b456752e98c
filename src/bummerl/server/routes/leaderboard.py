"""The leaderboards of people per variant (:mod:`bummerl.server.people_ratings`).

=======================================  ==============================================================
``GET /api/leaderboard/{variant}``       a page of the variant's leaderboard: ``?offset=0&limit=50``
                                         (``limit`` 1..100, ``offset`` 0..10000); with this device's
                                         ``Authorization: Bearer <key>`` also the player's own place
=======================================  ==============================================================

A variant is named as anywhere else (``scharf``, ``66``, ``bauern``: any alias), an unknown one is ``404
unknown_variant``, a bound out of range ``422``.  The rows carry the players' names only, never their ids: the
page marks the asking player's own row by ``me``.  Pages are kept a few seconds (:data:`~bummerl.server.
people_ratings.BOARD_SECONDS`), and each request counts against the client's ``api`` limit.
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Query

from bummerl.errors import UnknownVariantError
from bummerl.server import people_ratings
from bummerl.server.people_ratings import MAX_LIMIT, MAX_OFFSET, BoardRow
from bummerl.server.players import PlayerData
from bummerl.server.routes.deps import PartsDep, error, rate_limited
from bummerl.server.routes.players import optional_player, rating_json
from bummerl.variants import find_variant

__all__ = ["router"]

router = APIRouter(prefix="/api", dependencies=[rate_limited("api")])


def _row_json(row: BoardRow, me: PlayerData | None) -> dict[str, Any]:
    return {
        "rank": row.rank,
        "name": row.name,
        "rating": round(row.rating),
        "games": row.games,
        "won": row.won,
        "lost": row.lost,
        "me": me is not None and row.player_id == me.id,
    }


@router.get("/leaderboard/{variant}")
async def get_leaderboard(
    variant: str,
    p: PartsDep,
    me: Annotated[PlayerData | None, Depends(optional_player)],
    offset: Annotated[int, Query(ge=0, le=MAX_OFFSET)] = 0,
    limit: Annotated[int, Query(ge=1, le=MAX_LIMIT)] = 50,
) -> dict[str, Any]:
    try:
        v = find_variant(variant[:64])
    except UnknownVariantError:
        raise error(404, "unknown_variant", "no such variant: see GET /api/variants") from None
    ratings = p.manager.results.ratings
    board = await p.manager.db.run(ratings.board, v.name, offset, limit)
    mine = None if me is None else await p.manager.db.run(ratings.rating_of, me.id, v.name)
    return {
        "variant": v.name,
        "title": v.title,
        "min_games": people_ratings.MIN_GAMES,
        "offset": board.offset,
        "limit": limit,
        "total": board.total,
        "players": [_row_json(r, me) for r in board.rows],
        "me": None if mine is None else rating_json(mine),
    }
