"""Finished games: the history, each game's summary, record, replay and the expert's analysis.

The history lists the games of every variant with every player; a finished
game's record, replay and analysis are served for every variant (the replay
is built from the engine's events, the analysis by :mod:`bummerl.analysis`).
A game's cards are public once it is over (its record); a running game shows
its summary only, and its record, replay and analysis are refused (``409
game_running``).  Game ids
are positive 64-bit integers: anything else is refused with 422 before the
database is asked.
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Path, Query, Response
from fastapi.responses import JSONResponse, PlainTextResponse
from starlette.requests import HTTPConnection

from bummerl.bots import bot_titles
from bummerl.errors import UnknownVariantError
from bummerl.game import Game
from bummerl.record import GameRecord
from bummerl.server.analyses import QueueFull
from bummerl.server.families import family_of
from bummerl.server.results import ResultStore
from bummerl.server.rooms import Family, marriage_values, public_events
from bummerl.server.routes.deps import Parts, PartsDep, check_rate, client_of, error, rate_limited
from bummerl.server.storage import GameData, TableData
from bummerl.server.workers import read_game_record

__all__ = ["router"]

router = APIRouter(prefix="/api", dependencies=[rate_limited("api")])

GameId = Annotated[int, Path(ge=1, le=2**63 - 1, description="a game's id")]


def _kind(table: TableData) -> Family | None:
    """The family of the games of ``table``'s variant (``None`` for a variant this version does not have); a
    Schnorps round's games are two-player games."""
    try:
        return family_of(table.variant)[0]
    except UnknownVariantError:
        return None


def _summary(game: GameData, table: TableData) -> dict[str, Any]:
    kind = _kind(table)
    result = game.result
    return {
        "game_id": game.id,
        "table_id": game.table_id,
        "kind": kind.kind if kind is not None else None,
        "variant": table.variant,
        "options": table.options,
        "match_no": game.match_no + 1,
        "game_no": game.game_no + 1,
        "players": [s.shown_name for s in table.seats],
        "seats": [
            {
                "seat": s.seat,
                "name": s.shown_name,
                "kind": "bot" if s.kind == "bot" else "human",
                "bot": s.bot,
                # A bot's one display name, as the lobby and the table show it.
                "titles": bot_titles(s.bot) if s.kind == "bot" and s.bot else None,
            }
            for s in table.seats
        ],
        "dealer": game.dealer,
        "finished": game.finished,
        # Whether /replay and /analysis serve the game once it is over (every variant this server plays).
        "replay": kind is not None,
        # A table game's contract (null for two-player games and a redeal).
        "contract": result.get("contract") if result else None,
        "result": result,
        "started_at": game.started_at,
        "finished_at": game.finished_at,
    }


def _replay(game_id: int, kind: Family, record: GameRecord) -> dict[str, Any]:
    """A finished game step by step with every card open (a record is public once the game is over).

    Each step has every hand, the family's board (:meth:`~bummerl.server.rooms.Family.replay_board`) and the
    engine's events of its action as the live table told them (:func:`~bummerl.server.rooms.public_events`).
    """
    game = Game.from_deck(record.variant, record.deck, record.dealer)

    def step(ply: int, token: str | None, seat: int | None, events: list[dict[str, Any]]) -> dict[str, Any]:
        hands = {"hands": [[c.code for c in h] for h in game.hands]}
        return {"ply": ply, "action": token, "seat": seat, **hands, **kind.replay_board(game), "events": events}

    steps = [step(0, None, None, [])]
    for ply, action in enumerate(record.actions, 1):
        seat = game.to_move
        events = public_events(game.apply(action))
        steps.append(step(ply, action.token, seat, events))
    return {
        "game_id": game_id,
        "kind": kind.kind,
        "players": game.players,
        "marriage_values": marriage_values(game.view(0).trump),
        "steps": steps,
    }


async def _stored(p: Parts, game_id: int) -> tuple[GameData, TableData]:
    def both() -> tuple[GameData | None, TableData | None]:
        return p.repo.get_game(game_id), p.repo.table_of_game(game_id)

    pending = p.manager.results.pending()  # before the read: see ResultStore.pending
    game, table = await p.manager.db.run(both)
    if game is None or table is None:
        raise error(404, "unknown_game", f"no game {game_id}")
    return ResultStore.as_finished(game, pending), table


async def _finished(p: Parts, game_id: int) -> tuple[Family, str]:
    """The kind and record of a finished game: a running game's cards are secret."""
    game, table = await _stored(p, game_id)
    if not game.finished or game.record is None:
        raise error(409, "game_running", f"game {game_id} is not over: its cards are secret")
    kind = _kind(table)
    if kind is None:
        raise error(409, "unknown_variant", f"game {game_id} is of a variant this server does not know")
    return kind, game.record


@router.get("/games")
async def get_games(
    p: PartsDep,
    table: Annotated[str | None, Query(max_length=32)] = None,
    finished: bool | None = True,
    limit: Annotated[int, Query(ge=1, le=500)] = 50,
    offset: Annotated[int, Query(ge=0, le=10**9)] = 0,
) -> dict[str, Any]:
    # A game whose result is still being written counts as finished, as for GET /games/{id} (as_finished).
    pending = p.manager.results.pending()  # before the read: see ResultStore.pending
    rows, total = await p.manager.db.run(p.repo.list_games, table, finished, limit, offset, set(pending))
    return {"games": [_summary(ResultStore.as_finished(g, pending), t) for g, t in rows], "total": total}


@router.get("/games/{game_id}")
async def get_game(game_id: GameId, p: PartsDep) -> dict[str, Any]:
    game, table = await _stored(p, game_id)
    out = _summary(game, table)
    kind = _kind(table)
    if game.finished and game.record is not None:
        out.update(record=game.record, actions=game.actions)
        if kind is not None:
            out.update(kind.finished_details(game_id, game.record))
    return out


@router.get("/games/{game_id}/record")
async def get_record(game_id: GameId, p: PartsDep, format: Annotated[str, Query(max_length=8)] = "text") -> Response:
    kind, text = await _finished(p, game_id)
    if format not in ("text", "json"):
        raise error(400, "bad_format", f"format must be text or json, not {format!r}")
    if format == "json":
        return PlainTextResponse(kind.record_json(text), media_type="application/json")
    return PlainTextResponse(text)


@router.get("/games/{game_id}/replay")
async def get_replay(game_id: GameId, p: PartsDep) -> dict[str, Any]:
    kind, text = await _finished(p, game_id)
    return _replay(game_id, kind, read_game_record(text))


@router.get("/games/{game_id}/analysis")
async def get_analysis(game_id: GameId, connection: HTTPConnection, p: PartsDep) -> Response:
    _, text = await _finished(p, game_id)
    status, analysis = await p.manager.db.run(p.repo.analysis, game_id)
    if status == "done":
        return JSONResponse({"status": "done", "analysis": analysis})
    if status == "failed":
        return JSONResponse({"status": "failed", "message": (analysis or {}).get("message", "")})
    if status is None:
        try:
            p.analyses.check_room()
            # Only starting an analysis counts against the client's analysis limit, not polling for it.
            check_rate(p, "analysis", client_of(connection))
            await p.analyses.start(game_id, text)
        except QueueFull as exc:
            raise error(503, "analysis_queue_full", str(exc), {"Retry-After": "30"}) from None
    return JSONResponse({"status": "running"}, status_code=202)
