"""The Bummerl sheet of a table: ``GET /api/tables/{id}/sheet`` (docs/web-ui.md, "The Bummerl sheet").

The sheet (:mod:`bummerl.server.sheet`) holds results only, public once each
game is over, so anyone who may watch the table may read it: no token is
asked for.  The live table answers; in cluster mode, where another process may
hold it, the table is replayed here from its stored deals and actions without
taking it (:meth:`~bummerl.server.rooms.Room.replay_stored` changes nothing
stored).  Live clients get the same sheet in their ``state`` messages.
"""

from __future__ import annotations

import asyncio
from typing import Any

from fastapi import APIRouter

from bummerl.errors import BummerlError
from bummerl.server.cluster import Elsewhere
from bummerl.server.database import StorageUnavailable
from bummerl.server.manager import UnknownTable
from bummerl.server.routes.deps import Parts, PartsDep, error, rate_limited
from bummerl.server.storage import StorageError, TableData

__all__ = ["router"]

router = APIRouter(prefix="/api", dependencies=[rate_limited("api")])


@router.get("/tables/{table_id}/sheet")
async def get_sheet(table_id: str, p: PartsDep) -> dict[str, Any]:
    """The table's Bummerl sheet: every game's line and the running standing of each match (JSON)."""
    try:
        room = await p.manager.room(table_id)
    except UnknownTable as exc:
        raise error(404, "unknown_table", str(exc)) from None
    except Elsewhere:
        try:
            data = await p.manager.db.run(p.repo.load_table, table_id)
        except StorageUnavailable:
            raise
        except StorageError:
            raise error(404, "unknown_table", f"no table {table_id[:40]!r}") from None
        return await asyncio.to_thread(_replayed_sheet, p, data)
    return room.sheet()


def _replayed_sheet(p: Parts, data: TableData) -> dict[str, Any]:
    """The sheet of a stored table, replayed apart from the live one (which another process holds)."""
    try:
        room = p.manager.detached(data)
        room.replay_stored()
    except (BummerlError, ValueError, StorageError) as exc:
        raise error(409, "unreadable_table", f"table {data.id} cannot be replayed: {exc}") from None
    return room.sheet()
