"""The table WebSocket: one per client and table, ``/ws/tables/{id}`` for every variant.

The message protocol is docs/web.md's; what guards a socket (the Origin check,
the hello and idle deadlines, the message rate) is docs/security.md's.  The
socket only carries text: every message goes to the table through its
:class:`~bummerl.server.links.TableLink` (the live table here, or the process
that holds it in cluster mode), every answer comes back through the
connection's queue.
"""

from __future__ import annotations

import asyncio
import contextlib

from fastapi import APIRouter, WebSocket, WebSocketDisconnect

from bummerl.server.config import ServerConfig
from bummerl.server.connections import Closing, Connection
from bummerl.server.edge import last_client_frame
from bummerl.server.links import TableLink
from bummerl.server.manager import TableManager, UnknownTable
from bummerl.server.messages import error_message
from bummerl.server.routes.deps import client_of, parts
from bummerl.server.security import origin_allowed

__all__ = ["router"]

router = APIRouter()

#: A client that keeps sending over its message rate after this many refusals is disconnected (4429).
MAX_REFUSED = 50


@router.websocket("/ws/tables/{table_id}")
async def table_socket(websocket: WebSocket, table_id: str) -> None:
    p = parts(websocket)
    await _serve_socket(websocket, p.manager, table_id, p.config)


async def _serve_socket(websocket: WebSocket, manager: TableManager, table_id: str, cfg: ServerConfig) -> None:
    """One client's WebSocket at a table: its frames go to the room's handler, the
    room's messages back out.

    Before accepting, a browser page of another site is refused (4403, which uvicorn
    answers as ``403``).  Then the client has ``cfg.hello_timeout`` seconds to take a
    seat or watch with a valid ``hello``, and afterwards may stay ``cfg.idle_timeout``
    seconds without a frame (a ``ping`` message, or a WebSocket ping that uvicorn
    answers itself) before the socket is closed (4408).
    """
    if not origin_allowed(websocket.headers.get("origin"), websocket.headers.get("host"), cfg):
        await websocket.close(code=4403, reason="this page may not open the table's WebSocket")
        return
    if parts(websocket).rates.check("connect", client_of(websocket)) is not None:
        # Each handshake costs a table lookup: a client that opens sockets in a loop is refused (403).
        await websocket.close(code=4429, reason="too many connections; wait a minute")
        return
    await websocket.accept()
    try:
        link: TableLink = await manager.connect(table_id)
    except UnknownTable:
        with contextlib.suppress(WebSocketDisconnect, RuntimeError):  # the client may be gone already
            await websocket.close(code=4404, reason="unknown table")
        return
    conn = link.conn
    conn.client = client_of(websocket)
    loop = asyncio.get_running_loop()
    send_task = loop.create_task(_pump(websocket, conn))
    opened = last_frame = loop.time()
    protocol_frame = last_client_frame(websocket.scope)
    try:
        while True:
            if not conn.hello:
                deadline, why = opened + cfg.hello_timeout, f"no valid hello within {cfg.hello_timeout:g} s"
            else:
                if protocol_frame is not None:
                    last_frame = max(last_frame, protocol_frame())
                deadline, why = last_frame + cfg.idle_timeout, f"no message for {cfg.idle_timeout:g} s"
            try:
                async with asyncio.timeout_at(deadline):
                    frame = await websocket.receive()
            except TimeoutError:
                if conn.hello and protocol_frame is not None and protocol_frame() + cfg.idle_timeout > loop.time():
                    continue  # a WebSocket ping came meanwhile
                send_task.cancel()
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await send_task
                with contextlib.suppress(RuntimeError, WebSocketDisconnect):
                    await websocket.close(code=4408, reason=why)
                break
            if frame["type"] == "websocket.disconnect":
                break
            last_frame = loop.time()
            text = frame.get("text")
            if text is None:
                # A binary frame: read it as UTF-8 JSON like a text frame.
                text = (frame.get("bytes") or b"").decode("utf-8", errors="replace")
            if not conn.allow():
                # Over its message rate: the message is refused, and a client that keeps on is let go.
                conn.refused += 1
                if conn.refused > MAX_REFUSED:
                    conn.close(4429, "too many messages")
                    continue
                link.send(error_message("rate_limited", "too many messages; slow down"))
                continue
            await link.handle_text(text)
    except WebSocketDisconnect:
        pass
    finally:
        await link.close()
        send_task.cancel()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await send_task


async def _pump(websocket: WebSocket, conn: Connection) -> None:
    """Send a connection's queued messages until it is closed (:class:`Closing`)."""
    while True:
        item = await conn.queue.get()
        if isinstance(item, Closing):
            await websocket.close(item.code, item.reason)
            return
        await websocket.send_text(item)
