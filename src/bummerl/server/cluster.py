"""Several ``bummerl serve`` processes on one PostgreSQL serve the same tables (cluster mode).

**When.** Cluster mode is on when the database is PostgreSQL
(``ServerConfig.cluster`` ``None``), or when ``cluster=True``; ``cluster=False``
keeps one PostgreSQL process as it was.  SQLite is always one process, exactly
as before: no leases, no bus, a table's messages go straight to its sockets.
Each process has a random node id, made when it starts.

**One holder per table.** A table is live in exactly one process at a time,
the one named by its row in ``bummerl_table_owners`` (:mod:`bummerl.server.leases`):
a process takes the table with one atomic upsert before it loads it (replaying
its stored deals and actions, as a restarted server always did), and lets it go
when it leaves memory.  Why a lease row rather than an advisory lock: an
advisory lock lives in one database session, so it would tie every table to a
connection held open for hours and be lost silently with it (a pooled
connection, a failover); a row is seen by every process, names the holder (so
a client's messages can be sent to it), and carries a **generation** that
grows at every take.  Every write of a table (an action, a deal) checks, in its
own transaction, that the writer's generation still holds the table and keeps
the row locked until it commits (``storage._fenced_action``, ``storage._hold``):
a process that stalled past its lease and woke up can store nothing, and a
process that takes a table over loads it only after the last write of the old
holder is committed.  So a stale process may still show a table for a moment
(until its next beat drops it), but two processes never both store a move of it.

**Liveness per process, not per table.** A process renews one row of its own
(``bummerl_cluster_nodes``) every ``lease_seconds / 4``; a table held by a
process whose row has expired (by the database's clock, so clocks need not
agree) may be taken by any other.  One write per beat, however many tables
a process holds, and a dead process frees all of its tables at once.  The same
rows tell a holder which processes' clients are gone.

**Messages: LISTEN/NOTIFY** (:mod:`bummerl.server.bus`), one channel per
process, so a message reaches only the process it is for.  A client connected
to process B at a table held by A:

- B checks the client's token itself (a database read; the token never leaves
  B) and sends A ``hello`` with the seat; A seats a :class:`RemoteConnection`
  in the room as if the client were its own;
- B relays the client's other messages (``action``, ``next_game``) as they came;
  A answers them with the room's own code, which is the single-process code;
- what the room sends a remote connection (its seat's ``state``, an ``error``
  for its own bad action, ``welcome``) goes to B addressed to that one
  connection, and B puts it in that socket's queue only: a seat's cards reach
  that seat's sockets and nothing else.  Bot moves, disconnect and reconnect
  banners are broadcasts of the room and travel the same way;
- B tells A when the socket closes (``bye``), and every beat which of A's
  tables' clients it still holds (``here``): A forgets the clients of a process
  that died at once, those a live process stopped naming after ``3 * lease_seconds``
  + :data:`REMOTE_GRACE` (a lost ``bye``), and asks B again (``who``) about
  clients it does not know (a message lost to a reconnect).

Every relayed request and every message to a client is numbered per
connection, so one sent twice (the bus sends again once after a failed send)
is taken once.  Reads of the HTTP API that need the live table
(``GET /api/tables/{id}``, the list of tables) are asked of the holder
(``call``/``reply``), waiting at most ``relay_timeout``.

**When a process dies** its row expires; the next beat of a process with
clients at its tables takes them (:meth:`Cluster._locate`), loads them from the
database and makes its relayed clients local ones (:meth:`Cluster.adopt`: a
fresh ``state``, and ``storage`` "send it again" for a request that got no
answer), and tells the other processes, whose clients it then greets.  Clients
that were connected to the dead process reconnect (through the load balancer, to
any process) with their token, as after any dropped connection.  A process that
stops normally lets its tables go at once.

Nothing here knows a game's rules, and nothing is logged of a message but its type.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import itertools
import logging
import os
import secrets
import socket
import time
from collections import deque
from collections.abc import Awaitable, Callable
from typing import Any, Protocol

from sqlalchemy.engine import make_url

from bummerl.server.bus import NotifyBus
from bummerl.server.config import ServerConfig
from bummerl.server.connections import Connection
from bummerl.server.database import Database, StorageUnavailable
from bummerl.server.leases import Leases
from bummerl.server.links import TableLink
from bummerl.server.messages import (
    ActionMessage,
    ClientError,
    HelloMessage,
    NextGameMessage,
    PingMessage,
    error_message,
    parse_client_message,
)
from bummerl.server.rooms import Room, disconnect_client, greet, handle_client_text, welcome_message
from bummerl.server.storage import Lease, Repository, StorageError
from bummerl.server.tasks import cancel_and_wait

__all__ = ["Cluster", "Elsewhere", "Inbox", "RemoteConnection", "conninfo", "enabled"]

log = logging.getLogger("bummerl.server.cluster")

_MOVED = "the table moved to another process of this server; nothing changed, send it again"
#: Seconds (besides three leases) a holder keeps a live process's client that the process no longer names in
#: its beats (its ``bye`` was lost): long enough that a beat late under load never drops a client that is there.
REMOTE_GRACE = 10.0


class Elsewhere(Exception):
    """Another live process holds the table (:attr:`node`)."""

    def __init__(self, table_id: str, node: str) -> None:
        super().__init__(f"table {table_id} is held by process {node}")
        self.table_id = table_id
        self.node = node


def enabled(config: ServerConfig, url: str) -> bool:
    """Whether an app with ``config`` on the database ``url`` runs in cluster mode.

    >>> enabled(ServerConfig(), "postgresql+psycopg://u@h/db"), enabled(ServerConfig(), "sqlite:///b.db")
    (True, False)
    >>> enabled(ServerConfig(cluster=False), "postgresql+psycopg://u@h/db")
    False
    >>> enabled(ServerConfig(cluster=True), "sqlite:///b.db")
    Traceback (most recent call last):
    ...
    ValueError: cluster mode needs PostgreSQL (its LISTEN/NOTIFY carries the messages between processes)
    """
    postgres = make_url(url).get_backend_name() == "postgresql"
    if config.cluster and not postgres:
        raise ValueError("cluster mode needs PostgreSQL (its LISTEN/NOTIFY carries the messages between processes)")
    return postgres if config.cluster is None else config.cluster


def conninfo(url: str) -> str:
    """libpq's connection string for a SQLAlchemy URL (its options, such as a search path, kept).

    >>> conninfo("postgresql+psycopg://anna:pw@db:5433/bummerl?application_name=web")
    'postgresql://anna:pw@db:5433/bummerl?application_name=web'
    """
    return make_url(url).set(drivername="postgresql").render_as_string(hide_password=False)


class Inbox:
    """Runs jobs one after the other per key, and different keys side by side.

    A table's requests from other processes must be handled in the order they
    came (a ``hello`` before the action that follows it), but a slow database
    write at one table must not hold up the others.

    >>> async def demo() -> list[str]:
    ...     done: list[str] = []
    ...     inbox = Inbox()
    ...     async def job(name: str, pause: float) -> None:
    ...         await asyncio.sleep(pause)
    ...         done.append(name)
    ...     inbox.put("t1", lambda: job("t1 first", 0.02))
    ...     inbox.put("t1", lambda: job("t1 second", 0.0))
    ...     inbox.put("t2", lambda: job("t2", 0.0))
    ...     await inbox.drain()
    ...     return done
    >>> asyncio.run(demo())
    ['t2', 't1 first', 't1 second']
    """

    def __init__(self) -> None:
        self._queues: dict[str, deque[Callable[[], Awaitable[None]]]] = {}
        self._tasks: set[asyncio.Task[None]] = set()

    def put(self, key: str, job: Callable[[], Awaitable[None]]) -> None:
        queue = self._queues.get(key)
        if queue is not None:
            queue.append(job)
            return
        self._queues[key] = deque([job])
        task = asyncio.get_running_loop().create_task(self._run(key))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _run(self, key: str) -> None:
        queue = self._queues[key]
        try:
            while queue:
                try:
                    await queue[0]()
                except Exception:
                    log.exception("cluster: a request for table %s failed", key)
                queue.popleft()
        finally:
            del self._queues[key]

    async def drain(self) -> None:
        """Wait until every job has run (tests)."""
        while self._tasks:
            await asyncio.gather(*self._tasks, return_exceptions=True)

    def cancel(self) -> list[asyncio.Task[None]]:
        for task in self._tasks:
            task.cancel()
        return list(self._tasks)


class RemoteConnection(Connection):
    """A client of another process, seated at a table this process holds: the room treats it as its own,
    and what the room sends it goes to that process, addressed to that one connection."""

    def __init__(self, cluster: Cluster, node: str, table_id: str, conn_id: str) -> None:
        super().__init__()
        self.id = conn_id
        self.node = node
        self.table_id = table_id
        self._cluster = cluster
        #: The number of the last request taken from it, and of the last message sent to it.
        self.requests = 0
        self.out = 0
        #: When its process last said it still holds the client.
        self.seen = time.monotonic()

    def send(self, message: dict[str, Any]) -> None:
        self.out += 1
        self._cluster.send(self.node, "out", t=self.table_id, c=self.id, q=self.out, m=message)

    def close(self, code: int = 1000, reason: str = "") -> None:
        self.out += 1
        self._cluster.send(self.node, "close", t=self.table_id, c=self.id, q=self.out, code=code, reason=reason)


class Host(Protocol):
    """What the cluster asks of the tables of its process (:class:`bummerl.server.manager.TableManager`)."""

    repo: Repository
    db: Database
    #: The live tables of this process, by id.
    tables: dict[str, Room]

    @property
    def loading(self) -> set[str]:
        """The ids of the tables being loaded now."""
        ...

    async def room(self, table_id: str) -> Room:
        """The live table, loaded (taken) if nobody holds it; :class:`Elsewhere` if another process does."""
        ...

    async def seat_joined(self, room: Room, seat: int, name: str) -> None:
        """An invited friend took ``seat`` of ``room`` (stored already)."""
        ...

    async def answer(self, fn: str, args: dict[str, Any]) -> dict[str, Any]:
        """Another process's question about the tables held here."""
        ...


class Cluster:
    """This process's part in a cluster: its node id, its leases, its bus, and the clients it relays."""

    def __init__(self, manager: Host, config: ServerConfig) -> None:
        self.manager = manager
        self.config = config
        self.node = secrets.token_hex(8)
        self.leases = Leases(manager.repo.engine, self.node, config.lease_seconds, socket.gethostname(), os.getpid())
        self.bus = NotifyBus(conninfo(manager.repo.url), self.node, self._receive, self._reconnected)
        #: The sockets of this process, by table and connection id (at tables held here or elsewhere).
        self.links: dict[str, dict[str, TableLink]] = {}
        #: Clients of other processes seated at tables held here, by table and connection id.
        self.remote: dict[tuple[str, str], RemoteConnection] = {}
        #: The other live processes, as the last beat found them.
        self.nodes: set[str] = set()
        self.inbox = Inbox()
        self._calls: dict[int, asyncio.Future[dict[str, Any]]] = {}
        self._call_ids = itertools.count(1)
        self._beats = 0
        self._wake: asyncio.Event | None = None
        self._tasks: set[asyncio.Task[None]] = set()
        self._locating: set[str] = set()
        self._beater: asyncio.Task[None] | None = None

    @property
    def beat_seconds(self) -> float:
        return self.config.lease_seconds / 4

    # --------------------------------------------------------------- life
    async def start(self) -> None:
        """Listen, become alive (the node row), and beat from now on."""
        await self.bus.start()
        self._wake = asyncio.Event()
        await self._beat()
        self._beater = asyncio.get_running_loop().create_task(self._beat_loop())

    async def stop(self) -> None:
        """Let every table go at once and tell the other processes, so they take them without waiting."""
        await cancel_and_wait(t for t in (self._beater, *self._tasks, *self.inbox.cancel()) if t is not None)
        try:
            await self.manager.db.run(self.leases.leave)
        except StorageError as exc:
            log.error(
                "cluster: the tables of this process were not let go (they free up in %.0f s): %s",
                self.config.lease_seconds,
                exc,
            )
        for node in self.nodes:
            self.send(node, "gone")
        await self.bus.close()

    def send(self, node: str, op: str, **fields: Any) -> None:
        """Send ``node`` a message of type ``op`` (signed with this node's id)."""
        self.bus.send(node, {"op": op, "n": self.node, **fields})

    def wake(self) -> None:
        """Beat now rather than at the next interval (a table may have changed hands)."""
        if self._wake is not None:
            self._wake.set()

    def _spawn(self, coro: Awaitable[None]) -> None:
        task = asyncio.ensure_future(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    # ------------------------------------------------------------- leases
    async def take(self, table_id: str) -> Lease:
        """This process's lease on ``table_id``; :class:`Elsewhere` if a live process holds it, and
        :class:`~bummerl.server.leases.UnknownTableId` for an id that is no table's."""
        got = await self.manager.db.run(self.leases.take, table_id)
        if isinstance(got, str):
            raise Elsewhere(table_id, got)
        return got

    def release(self, leases: list[tuple[str, Lease]]) -> None:
        """Let go of tables that left memory (in the background; a later take of one is never undone)."""
        if leases:
            self._spawn(self._release(leases))

    async def _release(self, leases: list[tuple[str, Lease]]) -> None:
        try:
            await self.manager.db.run(self.leases.release, leases)
        except StorageError as exc:
            log.error("cluster: %d table(s) were not let go (the next beat tries again): %s", len(leases), exc)

    async def _beat_loop(self) -> None:
        assert self._wake is not None
        while True:
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(self.beat_seconds):
                    await self._wake.wait()
            self._wake.clear()
            try:
                await self._beat()
            except StorageError as exc:
                log.error(
                    "cluster: the heartbeat failed (the leases of this process expire if it keeps failing): %s", exc
                )
            except Exception:
                # The beat must go on whatever went wrong once, or every table of the process would expire.
                log.exception("cluster: the heartbeat failed")

    async def _beat(self) -> None:
        """Renew this process, drop the tables it lost, find the holders of the tables it relays, forget the
        clients of dead processes, and tell each holder which of its clients this process still has."""
        manager = self.manager
        before = dict(manager.tables)
        watched = [t for t, links in self.links.items() if any(link.room is None for link in links.values())]
        self._beats += 1
        beat = await manager.db.run(self.leases.beat, watched, self._beats % 100 == 1)
        self.nodes = beat.live - {self.node}
        for table_id, room in before.items():
            lease = room.lease
            if (
                manager.tables.get(table_id) is room
                and lease is not None
                and beat.held.get(table_id) != lease.generation
            ):
                self.lost(table_id)
        stray = [
            (t, Lease(self.node, g))
            for t, g in beat.held.items()
            if t not in before and t not in manager.tables and t not in manager.loading
        ]
        if stray:
            await manager.db.run(self.leases.release, stray)
        for table_id in watched:
            owner = beat.owners.get(table_id)
            if owner is None or owner == self.node:
                self.locate(table_id)
            else:
                self.route(table_id, owner)
        now = time.monotonic()
        for rc in list(self.remote.values()):
            if rc.node not in beat.live or now - rc.seen > 3 * self.config.lease_seconds + REMOTE_GRACE:
                self.inbox.put(rc.table_id, functools.partial(self._forget, rc))
        here: dict[str, dict[str, list[str]]] = {}
        for table_id, links in self.links.items():
            for link in links.values():
                if link.room is None and link.owner is not None and link.conn.hello:
                    here.setdefault(link.owner, {}).setdefault(table_id, []).append(link.conn.id)
        for owner, tables in here.items():
            self.send(owner, "here", tables=tables)

    def lost(self, table_id: str) -> None:
        """Another process took ``table_id``: forget the live table, and relay its clients to the new holder."""
        room = self.manager.tables.pop(table_id, None)
        if room is None:
            return
        log.warning("cluster: table %s is held by another process now", table_id)
        if room.bot_task is not None and not room.bot_task.done():
            room.bot_task.cancel()
        room.stop_clock()  # the move clock lives with the process that holds the table
        room.connections.clear()
        for key in [k for k in self.remote if k[0] == table_id]:
            del self.remote[key]
        for link in self.links.get(table_id, {}).values():
            if link.room is room:
                link.room = link.owner = None
        self.locate(table_id)

    def locate(self, table_id: str) -> None:
        """Find who holds ``table_id`` now, and take it if nobody alive does (in the background)."""
        if table_id not in self._locating:
            self._locating.add(table_id)
            self._spawn(self._locate(table_id))

    async def _locate(self, table_id: str) -> None:
        try:
            room = await self.manager.room(table_id)
        except Elsewhere as exc:
            self.route(table_id, exc.node)
        except StorageError as exc:
            log.error("cluster: table %s could not be found (the next beat tries again): %s", table_id, exc)
        else:
            self.adopt(room, announce=False)
        finally:
            self._locating.discard(table_id)

    # -------------------------------------------------------- this process's sockets
    async def link(self, link: TableLink) -> None:
        """Connect a new socket: to the live table here (taking it if nobody holds it), else to its holder.

        :class:`~bummerl.server.manager.UnknownTable` for an unknown table.
        """
        try:
            link.room = await self.manager.room(link.table_id)
        except Elsewhere as exc:
            link.owner = exc.node
        self.links.setdefault(link.table_id, {})[link.conn.id] = link

    def unlink(self, link: TableLink) -> None:
        """A socket closed; its holder elsewhere hears it (``bye``)."""
        links = self.links.get(link.table_id)
        if links is not None:
            links.pop(link.conn.id, None)
            if not links:
                del self.links[link.table_id]
        if link.room is None and link.owner is not None and link.conn.hello:
            self._forward(link, "bye")

    async def relay(self, link: TableLink, text: str) -> None:
        """A message of a client whose table another process holds: answered here if it can be (its reading,
        a ping, the token of a hello), else sent on to the holder."""
        conn = link.conn
        message = parse_client_message(text)
        if isinstance(message, ClientError):
            conn.send(error_message(message.code, message.message))
            return
        if isinstance(message, PingMessage):
            conn.send({"type": "pong"})
            return
        if isinstance(message, HelloMessage):
            seat: int | None = None
            if message.token:
                try:
                    seat = await self.manager.db.run(self.manager.repo.seat_of, link.table_id, message.token)
                except StorageError as exc:
                    conn.send(error_message("storage", f"the seat could not be looked up (send hello again): {exc}"))
                    return
                if seat is None:
                    conn.send(error_message("bad_token", "this token holds no seat at this table"))
                    return
            conn.seat, conn.hello, link.welcomed = seat, True, False
            if link.room is not None:  # the table came here meanwhile
                await greet(link.room, conn, seat)
                link.welcomed = True
            elif link.owner is not None:
                self._forward(link, "hello", s=seat, again=False)
            return  # else the table is being looked for: the new holder greets the client
        if not conn.hello:
            conn.send(error_message("hello_required", "send hello first (with a seat token to play)"))
            return
        if link.room is not None:
            await handle_client_text(link.room, conn, text)
            return
        if link.owner is None:
            conn.send(error_message("storage", _MOVED))
            return
        if isinstance(message, (ActionMessage, NextGameMessage)):
            link.pending = True
        self._forward(link, "req", x=text)

    def _forward(self, link: TableLink, op: str, **fields: Any) -> None:
        assert link.owner is not None
        link.sent += 1
        if op == "hello":
            fields["k"] = link.conn.client  # the holder's hints give each client key its share
        self.send(link.owner, op, t=link.table_id, c=link.conn.id, q=link.sent, **fields)

    def route(self, table_id: str, owner: str) -> None:
        """Relay the clients of ``table_id`` to ``owner``, greeting them there (a request that got no answer
        from the old holder is answered ``storage``: send it again)."""
        if owner == self.node:
            self.locate(table_id)
            return
        for link in self.links.get(table_id, {}).values():
            if link.room is not None or link.owner == owner:
                continue
            link.owner, link.received = owner, 0
            if link.pending:
                link.pending = False
                link.conn.send(error_message("storage", _MOVED))
            if link.conn.hello:
                self._forward(link, "hello", s=link.conn.seat, again=link.welcomed)

    def adopt(self, room: Room, *, announce: bool = True) -> None:
        """This process now holds ``room``: its relayed clients become its own; the others hear of it."""
        greeted = False
        for link in self.links.get(room.id, {}).values():
            if link.room is room:
                continue
            link.room, link.owner = room, None
            conn = link.conn
            if link.pending:
                link.pending = False
                room.send(conn, error_message("storage", _MOVED))
            if not conn.hello:
                continue
            conn.cursor = len(room.events)
            room.connections.add(conn)
            greeted = True
            if not link.welcomed:
                link.welcomed = True
                room.send(conn, welcome_message(room, conn))
        if greeted:
            room.broadcast()
        if announce:
            for node in self.nodes:
                self.send(node, "owner", t=room.id, o=self.node)

    # ----------------------------------------------------------------- the bus
    def _reconnected(self) -> None:
        # Messages may have been missed while the listener was away: greet every holder again.
        for links in self.links.values():
            for link in links.values():
                if link.room is None and link.owner is not None and link.conn.hello:
                    self._forward(link, "hello", s=link.conn.seat, again=link.welcomed)
        self.wake()

    def _receive(self, msg: dict[str, Any]) -> None:
        """One message from another process (on the event loop, in arrival order)."""
        op, sender = msg.get("op"), msg.get("n")
        if not isinstance(sender, str):
            return
        if op in ("out", "close"):
            self._deliver(msg)
        elif op == "reply":
            call = self._calls.get(msg.get("r", 0))
            if call is not None and not call.done():
                call.set_result(msg)
        elif op == "owner":
            table_id, owner = msg["t"], msg["o"]
            if table_id in self.manager.tables:
                self.wake()  # the beat checks this process's own lease, the one truth
            else:
                self.route(table_id, owner)
        elif op == "who":
            self._greet_again(sender, msg["t"], msg["c"])
        elif op == "gone":
            self.wake()
        elif op in ("hello", "req", "bye", "joined"):
            self.inbox.put(msg["t"], functools.partial(self._held, msg))
        elif op == "here":
            for table_id, conns in msg["tables"].items():
                self.inbox.put(table_id, functools.partial(self._here, sender, table_id, conns))
        elif op == "call":
            self._spawn(self._answer(msg))

    def _deliver(self, msg: dict[str, Any]) -> None:
        """A message of a holder for one of this process's sockets: into that socket's queue, once."""
        link = self.links.get(msg["t"], {}).get(msg["c"])
        if link is None or link.room is not None or link.owner != msg["n"] or msg["q"] <= link.received:
            return
        link.received = msg["q"]
        if msg["op"] == "close":
            link.conn.close(msg["code"], msg["reason"])
            return
        message: dict[str, Any] = msg["m"]
        kind = message.get("type")
        if kind == "welcome":
            link.welcomed = True
        elif kind in ("state", "error"):
            link.pending = False
        link.conn.send(message)

    def _greet_again(self, holder: str, table_id: str, conns: list[str]) -> None:
        links = self.links.get(table_id, {})
        for conn_id in conns:
            link = links.get(conn_id)
            if link is not None and link.room is None and link.owner == holder and link.conn.hello:
                if link.pending:
                    link.pending = False
                    link.conn.send(error_message("storage", _MOVED))
                self._forward(link, "hello", s=link.conn.seat, again=link.welcomed)

    # ------------------------------------------------------ the holder's side
    async def _held(self, msg: dict[str, Any]) -> None:
        """A request from another process's client at a table of this process (one at a time per table)."""
        op, table_id, sender = msg["op"], msg["t"], msg["n"]
        manager = self.manager
        if op == "joined":
            room = manager.tables.get(table_id)
            if room is not None:  # else the seat is in the database, and the next load reads it
                await manager.seat_joined(room, msg["s"], msg["name"])
            return
        key = (table_id, msg["c"])
        if op == "bye":
            gone = self.remote.pop(key, None)
            room = manager.tables.get(table_id)
            if gone is not None and room is not None:
                await disconnect_client(room, gone)
            return
        room = manager.tables.get(table_id)
        if room is None:
            try:
                room = await manager.room(table_id)
            except Elsewhere as exc:
                self.send(sender, "owner", t=table_id, o=exc.node)
                return
            except StorageError as exc:
                log.error("cluster: a request for table %s could not be served: %s", table_id, exc)
                return
        rc = self.remote.get(key)
        if op == "hello":
            if rc is None or rc.node != sender:
                rc = self.remote[key] = RemoteConnection(self, sender, table_id, msg["c"])
            rc.client = str(msg.get("k") or "")
        elif rc is None:
            self.send(sender, "who", t=table_id, c=[msg["c"]])
            return
        if msg["q"] <= rc.requests:
            return  # sent twice
        rc.requests, rc.seen = msg["q"], time.monotonic()
        if op == "hello":
            await greet(room, rc, msg["s"], welcome=not msg["again"])
        else:
            await handle_client_text(room, rc, msg["x"])

    async def _here(self, sender: str, table_id: str, conns: list[str]) -> None:
        now = time.monotonic()
        unknown = []
        for conn_id in conns:
            rc = self.remote.get((table_id, conn_id))
            if rc is None or rc.node != sender:
                unknown.append(conn_id)
            else:
                rc.seen = now
        if unknown and table_id in self.manager.tables:
            self.send(sender, "who", t=table_id, c=unknown)

    async def _forget(self, rc: RemoteConnection) -> None:
        if self.remote.get((rc.table_id, rc.id)) is not rc:
            return
        del self.remote[(rc.table_id, rc.id)]
        room = self.manager.tables.get(rc.table_id)
        if room is not None:
            await disconnect_client(room, rc)

    # -------------------------------------------------------------- calls
    async def call(self, node: str, fn: str, **args: Any) -> dict[str, Any]:
        """Ask ``node`` (:meth:`TableManager.answer`); :class:`StorageUnavailable` without an answer in time."""
        call_id = next(self._call_ids)
        future: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self._calls[call_id] = future
        self.send(node, "call", r=call_id, f=fn, a=args)
        try:
            async with asyncio.timeout(self.config.relay_timeout):
                return await future
        except TimeoutError:
            self.wake()  # perhaps it died: the beat finds out
            raise StorageUnavailable(
                f"the process that holds the table did not answer within {self.config.relay_timeout:g} s"
            ) from None
        finally:
            self._calls.pop(call_id, None)

    async def gather(self, fn: str) -> list[Any]:
        """The answers (``v``) of every other live process to ``fn``; those that do not answer are left out.

        The live processes are read from the database now, not taken from the last beat: a process that started
        since then (up to ``lease_seconds / 4`` ago) already holds tables, and a listing must not miss them.
        """
        try:
            self.nodes = await self.manager.db.run(self.leases.live) - {self.node}
        except StorageError as exc:  # the beat's list is the best we have
            log.warning("cluster: could not read the live processes: %s", type(exc).__name__)
        nodes = sorted(self.nodes)
        answers = await asyncio.gather(*(self.call(node, fn) for node in nodes), return_exceptions=True)
        found: list[Any] = []
        for node, answer in zip(nodes, answers, strict=True):
            if isinstance(answer, BaseException):
                log.warning("cluster: process %s did not answer %s: %s", node, fn, type(answer).__name__)
            elif "v" in answer:
                found.append(answer["v"])
        return found

    async def _answer(self, msg: dict[str, Any]) -> None:
        answer = await self.manager.answer(str(msg.get("f")), msg.get("a") or {})
        self.send(msg["n"], "reply", r=msg["r"], **answer)
