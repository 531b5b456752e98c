"""One client of a table: its queue of messages, its message rate, its seat.

A :class:`Connection` is what a table sends to (:meth:`Connection.send`) and what a socket drains; it knows nothing
of games or tables, so the rooms, the hints, the cluster relay and the socket route all use it from here.
"""

from __future__ import annotations

import asyncio
import dataclasses
import json
import secrets
import time
from typing import Any

import orjson

__all__ = ["MAX_QUEUED", "MESSAGE_BURST", "MESSAGE_RATE", "Closing", "Connection", "encode"]

#: Messages waiting for a client before it is disconnected as unresponsive.
MAX_QUEUED = 500
#: Messages a client may send in a burst, and per second after it (docs/security.md).
MESSAGE_BURST = 30
MESSAGE_RATE = 10.0


@dataclasses.dataclass(frozen=True)
class Closing:
    """Queued for a connection: close its socket with ``code`` and ``reason``."""

    code: int = 1000
    reason: str = ""


class Connection:
    """One client of a table: a seat or a spectator (``seat`` ``None``).

    Messages wait in a queue that the WebSocket's sender drains, so a slow
    client never holds up the table.  What the client sends is metered by a
    token bucket (:meth:`allow`): a burst of :data:`MESSAGE_BURST`, then
    :data:`MESSAGE_RATE` a second, far above what a human's clicks need.
    """

    def __init__(self) -> None:
        #: The connection's address between the processes of a cluster (:mod:`bummerl.server.cluster`).
        self.id = secrets.token_hex(8)
        self.seat: int | None = None
        #: The client key of its address (:func:`bummerl.server.clients.client_key`; ``""``: unknown): the hints
        #: give each client a fair share (:mod:`bummerl.server.hints`).
        self.client = ""
        self.hello = False
        #: How many of the room's events this client has been sent.
        self.cursor = 0
        #: :meth:`Room.sheet_version` of the last Bummerl sheet this client was sent (``None``: none yet).
        self.sheet_version: Any = None
        self.queue: asyncio.Queue[str | Closing] = asyncio.Queue()
        #: Messages refused for the rate (the socket closes after too many).
        self.refused = 0
        self._tokens = float(MESSAGE_BURST)
        self._filled = time.monotonic()

    @property
    def role(self) -> str:
        return "spectator" if self.seat is None else "player"

    def allow(self) -> bool:
        """Whether the client may send one more message now (and count it)."""
        now = time.monotonic()
        self._tokens = min(MESSAGE_BURST, self._tokens + (now - self._filled) * MESSAGE_RATE)
        self._filled = now
        if self._tokens < 1:
            return False
        self._tokens -= 1
        return True

    def send(self, message: dict[str, Any]) -> None:
        if self.queue.qsize() >= MAX_QUEUED:
            # A client that reads nothing must not make the server hoard its messages: drop it.
            self.close(1008, "too many unread messages")
            return
        self.queue.put_nowait(encode(message))

    def close(self, code: int = 1000, reason: str = "") -> None:
        self.queue.put_nowait(Closing(code, reason))


def encode(message: dict[str, Any]) -> str:
    """A message as the compact JSON text a socket sends.

    orjson, not :func:`json.dumps`: a player's ``state`` is encoded for every action, and orjson does it in a
    tenth of the time (2 against 24 microseconds for a 1.8 KB ``state``, bench/web_load.py; docs/web.md
    "Measured").  The text is the same as ``json.dumps(message, separators=(",", ":"), ensure_ascii=False)``;
    what orjson refuses (an integer beyond 64 bits) goes through :func:`json.dumps`.

    >>> encode({"type": "state", "seat": 0, "name": "Zoë", "hand": ["Ah", "Kh"], "codes": {2: "c0de"}})
    '{"type":"state","seat":0,"name":"Zoë","hand":["Ah","Kh"],"codes":{"2":"c0de"}}'
    >>> encode({"seed": 2**70}) == '{"seed":%d}' % 2**70
    True
    """
    try:
        return orjson.dumps(message, option=orjson.OPT_NON_STR_KEYS).decode()
    except orjson.JSONEncodeError:
        return json.dumps(message, separators=(",", ":"), ensure_ascii=False)
