"""Messages between the processes of a cluster: PostgreSQL's LISTEN/NOTIFY on one channel per process.

:class:`NotifyBus` gives a process its own channel (``bummerl_<node id>``), on
which it listens with a connection of its own, and sends JSON objects to the
channels of the others through a second connection, one at a time in the order
they were given (:meth:`NotifyBus.send` only queues): so two messages from one
process to another arrive in the order they were sent.

**Size.** A NOTIFY payload must stay under 8000 bytes.  A message is encoded as
ASCII JSON (a character is a byte) and, when longer than :data:`CHUNK`, cut into
parts that are sent in one transaction: PostgreSQL delivers a transaction's
notifications together, in order, or not at all, and the receiver joins them
(:func:`frames`, :class:`Joiner`).  No message is ever written to a table.

**Failures.** A connection that fails is opened again (with a growing pause);
a message whose send failed is sent once more on the new connection, and a
listener that had to reconnect calls ``on_reconnect`` (it may have missed
messages: :mod:`bummerl.server.cluster` then greets its owners again).  The
cluster makes a message sent twice harmless (every client request and every
message to a client carries a sequence number).

**Secrecy.** The payloads carry what one seat may see (docs/security.md) and
travel only inside the database connections; nothing here logs a payload, only
its size and why it failed.

>>> parts = frames("n1", 7, {"op": "out", "m": "x" * 10_000})
>>> len(parts), parts[0][:12], all(len(p) < 8000 for p in parts)
(2, '~n1:7:0:2:{"', True)
>>> joiner = Joiner()
>>> [joiner.feed(p) for p in parts][-1] == {"op": "out", "m": "x" * 10_000}
True
>>> frames("n1", 8, {"op": "bye"}), joiner.feed('{"op": "bye"}')
(['{"op":"bye"}'], {'op': 'bye'})
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    # psycopg (the 'postgres' extra) is imported when a bus connects: a single server on SQLite never needs it.
    import psycopg

__all__ = ["CHUNK", "Joiner", "NotifyBus", "channel_of", "frames"]

log = logging.getLogger("bummerl.server.cluster")

#: The longest payload part, in characters (= bytes: the JSON is ASCII); PostgreSQL allows under 8000.
CHUNK = 7000
#: Seconds between attempts to open a failed connection again, doubling up to the second value.
RECONNECT_FIRST, RECONNECT_MAX = 0.2, 5.0
#: libpq's TCP keepalives: a listener whose server vanished without a word notices within about 20 s.
KEEPALIVES = {"keepalives": 1, "keepalives_idle": 10, "keepalives_interval": 3, "keepalives_count": 3}


def channel_of(node: str) -> str:
    """The channel a node listens on.

    >>> channel_of("3f9a")
    'bummerl_3f9a'
    """
    return f"bummerl_{node}"


def frames(sender: str, seq: int, message: dict[str, Any]) -> list[str]:
    """The NOTIFY payloads of one message: its JSON, or its parts ``~SENDER:SEQ:I:N:DATA`` when it is long."""
    text = json.dumps(message, separators=(",", ":"), ensure_ascii=True)
    if len(text) <= CHUNK:
        return [text]
    pieces = [text[i : i + CHUNK] for i in range(0, len(text), CHUNK)]
    return [f"~{sender}:{seq}:{i}:{len(pieces)}:{piece}" for i, piece in enumerate(pieces)]


class Joiner:
    """Joins the parts of long messages (:func:`frames`); ``feed`` returns each whole message once complete."""

    def __init__(self) -> None:
        self._parts: dict[tuple[str, str], list[str]] = {}

    def feed(self, payload: str) -> dict[str, Any] | None:
        if not payload.startswith("~"):
            return _decode(payload)
        try:
            sender, seq, index, count, data = payload[1:].split(":", 4)
            int(index), int(count)
        except ValueError:
            return None
        key = (sender, seq)
        parts = self._parts.setdefault(key, [])
        if int(index) != len(parts):
            # A part is missing (the listener reconnected in between): the message is lost.
            del self._parts[key]
            return None
        parts.append(data)
        if len(parts) < int(count):
            return None
        del self._parts[key]
        return _decode("".join(parts))

    def clear(self) -> None:
        self._parts.clear()


def _decode(text: str) -> dict[str, Any] | None:
    try:
        message = json.loads(text)
    except ValueError:
        return None
    return message if isinstance(message, dict) else None


class NotifyBus:
    """One process's end of the cluster's messages: it listens on ``channel_of(node)`` and sends to others.

    ``on_message`` is called on the event loop for every message that arrives,
    in arrival order; ``on_reconnect`` after the listener had to connect again.
    """

    def __init__(
        self,
        conninfo: str,
        node: str,
        on_message: Callable[[dict[str, Any]], None],
        on_reconnect: Callable[[], None],
    ) -> None:
        self.conninfo = conninfo
        self.node = node
        self.channel = channel_of(node)
        self.on_message = on_message
        self.on_reconnect = on_reconnect
        #: Messages sent and payloads that could not be sent (for the docs' numbers and the logs).
        self.sent = 0
        self.dropped = 0
        self._seq = 0
        self._queue: asyncio.Queue[tuple[str, list[str]]] = asyncio.Queue()
        self._joiner = Joiner()
        self._listener: psycopg.AsyncConnection[Any] | None = None
        self._sender: psycopg.AsyncConnection[Any] | None = None
        self._tasks: list[asyncio.Task[None]] = []

    async def _connect(self) -> psycopg.AsyncConnection[Any]:
        import psycopg
        from psycopg.conninfo import make_conninfo

        return await psycopg.AsyncConnection.connect(make_conninfo(self.conninfo, **KEEPALIVES), autocommit=True)

    async def _listen_on(self, conn: psycopg.AsyncConnection[Any]) -> None:
        from psycopg import sql

        await conn.execute(sql.SQL("LISTEN {}").format(sql.Identifier(self.channel)))

    async def start(self) -> None:
        """Listen before anything else happens (a process must hear its messages before it holds a table)."""
        self._listener = await self._connect()
        await self._listen_on(self._listener)
        loop = asyncio.get_running_loop()
        self._tasks = [loop.create_task(self._listen()), loop.create_task(self._send_loop())]

    def send(self, node: str, message: dict[str, Any]) -> None:
        """Queue ``message`` for ``node``'s channel (sent in order, by one connection)."""
        self._seq += 1
        self._queue.put_nowait((channel_of(node), frames(self.node, self._seq, message)))

    async def close(self) -> None:
        """Send what is queued (for a moment), then stop and close both connections."""
        if self._tasks:
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(1.0):
                    await self._queue.join()
        for task in self._tasks:
            task.cancel()
        for task in self._tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        for conn in (self._listener, self._sender):
            if conn is not None:
                with contextlib.suppress(Exception):
                    await conn.close()
        self._listener = self._sender = None

    # ---------------------------------------------------------------- receive
    async def _listen(self) -> None:
        pause = RECONNECT_FIRST
        while True:
            try:
                if self._listener is None:
                    self._listener = await self._connect()
                    await self._listen_on(self._listener)
                    self._joiner.clear()
                    self.on_reconnect()
                pause = RECONNECT_FIRST
                async for note in self._listener.notifies():
                    message = self._joiner.feed(note.payload)
                    if message is not None:
                        try:
                            self.on_message(message)
                        except Exception:
                            log.exception("cluster: a message of type %r could not be handled", message.get("op"))
            except Exception as exc:  # psycopg.Error, OSError: the connection is gone
                log.warning("cluster: the listening connection failed (%s); connecting again", type(exc).__name__)
                await self._drop("_listener")
                await asyncio.sleep(pause)
                pause = min(pause * 2, RECONNECT_MAX)

    # ------------------------------------------------------------------- send
    async def _send_loop(self) -> None:
        while True:
            channel, payloads = await self._queue.get()
            for attempt in (1, 2):
                try:
                    await self._notify(channel, payloads)
                    self.sent += 1
                    break
                except Exception as exc:  # a broken connection (psycopg.Error, OSError): open a new one
                    await self._drop("_sender")
                    if attempt == 2:
                        self.dropped += 1
                        log.warning(
                            "cluster: a message of %d part(s) was not sent (%s)", len(payloads), type(exc).__name__
                        )
            self._queue.task_done()

    async def _notify(self, channel: str, payloads: list[str]) -> None:
        if self._sender is None:
            self._sender = await self._connect()
        conn = self._sender
        query = "SELECT pg_notify(%s, %s)"
        if len(payloads) == 1:
            await conn.execute(query, (channel, payloads[0]))
            return
        async with conn.transaction():
            for payload in payloads:
                await conn.execute(query, (channel, payload))

    async def _drop(self, which: str) -> None:
        conn = getattr(self, which)
        setattr(self, which, None)
        if conn is not None:
            with contextlib.suppress(Exception):
                await conn.close()
