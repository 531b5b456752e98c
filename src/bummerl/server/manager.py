"""All live tables of one app: create, join, load on demand, leave memory when idle, play the bots.

One :class:`TableManager` serves every variant: each table is one
:class:`~bummerl.server.rooms.Room`, composed with its family
(:mod:`bummerl.server.families`) and handed the app's services
(:class:`~bummerl.server.rooms.RoomServices`).  It keeps in memory only
the tables in use: a table is loaded from the database when a client asks for
it (rebuilt by replaying its stored deals and actions through the engine), and
it leaves memory after ``table_idle_seconds`` without a client, a bot move or
any other change.  So the server starts in the same time however many games it
has stored, and its memory grows with the tables in play, not with history.

Bots think through the :class:`~bummerl.server.scheduler.BotScheduler` (never
on the event loop, fairly between tables).  A write the database refuses is
never lost: a bot's action is retried with backoff while the table reports
``storage: "retrying"`` to its clients, and a finished game's result is
retried in the background (:class:`~bummerl.server.results.ResultStore`; stored
on the table's next load if the server stops first).

In cluster mode (several processes on one PostgreSQL, :mod:`bummerl.server.cluster`)
the manager holds only the tables its process has taken: a table another
process holds raises :class:`~bummerl.server.cluster.Elsewhere` where it would
be loaded, sockets reach it through a :class:`~bummerl.server.links.TableLink`,
and the HTTP reads that need it (:meth:`TableManager.summary`,
:meth:`TableManager.listing`) ask the process that holds it.
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging
import re
import secrets
import time
from collections.abc import Awaitable, Callable
from typing import Any

from bummerl.errors import BummerlError
from bummerl.server import hints as hints_module
from bummerl.server.clock import check_move_seconds
from bummerl.server.cluster import Cluster, Elsewhere, RemoteConnection, enabled
from bummerl.server.config import ServerConfig
from bummerl.server.database import Database, StorageUnavailable
from bummerl.server.errors import RequestError
from bummerl.server.families import family_of
from bummerl.server.hints import HintService, HintSettings
from bummerl.server.leases import UnknownTableId
from bummerl.server.links import TableLink
from bummerl.server.results import ResultStore
from bummerl.server.rooms import FRIEND, Family, MessageTap, Room, RoomServices
from bummerl.server.scheduler import BotScheduler
from bummerl.server.storage import (
    Lease,
    Repository,
    SeatData,
    StorageError,
    TableData,
    UnknownCodeError,
    hash_token,
)
from bummerl.server.tasks import cancel_and_wait
from bummerl.server.tournament_store import TournamentStore
from bummerl.variants import Variant

__all__ = ["CapacityError", "Joined", "TableManager", "UnknownTable"]

log = logging.getLogger("bummerl.server")

#: What a table id looks like (``secrets.token_urlsafe(9)``: 12 characters); anything else is unknown at once.
TABLE_ID = re.compile(r"[A-Za-z0-9_-]{1,32}")

#: In cluster mode a process that takes a table numbers its ``state`` messages from ``generation * SEQ_BLOCK``
#: on: ``seq`` keeps growing when a table changes process (a client drops a state whose ``seq`` is not higher
#: than the last one it showed), and stays below 2**53 (JavaScript's exact integers) for 9 million takes.
SEQ_BLOCK = 10**9


def _others(
    family: Family,
    variant: Variant,
    seats: list[str] | None,
    opponent: str | None,
    bots: str | None,
    config: ServerConfig,
) -> list[str]:
    """Who sits at seats 1.. of a new table (``"friend"`` or a bot's name), from one of a request's
    ``seats``, ``opponent`` and ``bots``; :class:`BummerlError` saying what does not fit the variant."""
    given = [name for name, value in (("seats", seats), ("opponent", opponent), ("bots", bots)) if value is not None]
    if len(given) > 1:
        raise BummerlError(f"name the other seats once: one of seats, opponent and bots, not {' and '.join(given)}")
    count = family.seat_count(variant, None if seats is None else len(seats) + 1) - 1
    if seats is not None:
        if len(seats) != count:
            raise BummerlError(
                f"{variant.title} has {count + 1} seats: seats names the {count} after yours, not {len(seats)}"
            )
        return list(seats)
    if opponent is not None:
        if count != 1:
            raise BummerlError(
                f"opponent names the other player of a two-player game; {variant.title} has {count + 1} seats: "
                "name them with seats, or one bot for all with bots"
            )
        return [opponent]
    return [bots or family.default_bot(config)] * count


class UnknownTable(StorageError):
    """No table of the kind asked for has this id."""


@dataclasses.dataclass(frozen=True)
class Joined:
    """A seat taken with an invitation code: the answer of ``POST /api/join``."""

    table_id: str
    kind: str
    seat: int
    token: str

    @property
    def ws_url(self) -> str:
        return f"/ws/tables/{self.table_id}"


class CapacityError(RequestError):
    """A cap is reached: ``code`` is ``server_full`` (503) or ``too_many_tables`` (429)."""


class TableManager:
    """The live tables of one app, with the services it hands each of them (:class:`RoomServices`)."""

    def __init__(self, repo: Repository, config: ServerConfig, tap: MessageTap | None = None) -> None:
        self.repo = repo
        self.config = config
        self.db = Database(repo, config.db_threads)
        # The hints search in background workers (a process below the bots' CPU priority, as many as run at once),
        # which import the hints' module when they start: the first hint pays no import.
        self.bots = BotScheduler(
            config, background_workers=HintSettings().running, background_preload=(hints_module.__name__,)
        )
        #: The hints and reviews of every table (they search in the background workers).
        self.hints = HintService(self.bots.start_background)
        #: The results of finished games, written in the background.
        self.results = ResultStore(repo, self.db, config)
        #: What every room is handed.
        self.services = RoomServices(
            config=config,
            repo=repo,
            db=self.db,
            bots=self.bots,
            hints=self.hints,
            results=self.results,
            tap=tap,
            lost=self._lost,
        )
        self.tables: dict[str, Room] = {}
        self._loading: dict[str, asyncio.Future[Room]] = {}
        #: The tables being made now (taken in cluster mode, not yet live): the heartbeat must not let them go.
        self._creating: set[str] = set()
        self._sweeper: asyncio.Task[None] | None = None
        #: This process's part in a cluster of processes on one PostgreSQL, or ``None`` (one process).
        self.cluster = Cluster(self, config) if enabled(config, repo.url) else None
        #: Which tables a web tournament plays at (a tournament's table gives no hints: bummerl.server.hints).
        self.tournament_tables = TournamentStore(repo)
        #: Further questions another process may ask (:meth:`answer`), by name: a service above the manager
        #: (quick match) registers its own here, so the cluster's relay needs to know nothing of it.
        self.answers: dict[str, Callable[[dict[str, Any]], Awaitable[dict[str, Any]]]] = {}

    @property
    def loading(self) -> set[str]:
        """The ids of the tables being loaded or made now."""
        return set(self._loading) | self._creating

    # --------------------------------------------------------------- create
    async def create_table(
        self,
        variant: str,
        options: dict[str, Any],
        name: str,
        *,
        seats: list[str] | None = None,
        opponent: str | None = None,
        bots: str | None = None,
        seed: int | None = None,
        target: int | None = None,
        creator: str | None = None,
        move_seconds: int | None = None,
        rated: bool = False,
    ) -> tuple[Room, str, dict[int, str]]:
        """A new table of any variant with its first deal: the table, seat 0's token and the join code of each
        seat kept for a friend.

        The creator sits at seat 0.  Who sits at the others is said by one of
        ``seats`` (every other seat in order: ``"friend"`` or a bot's name),
        ``opponent`` (the one other seat of a two-player game) or ``bots`` (one
        bot for every other seat); none of them: the variant's default bot.
        :class:`BummerlError` for an unknown variant, option or bot, a seat list
        that does not fit the variant, a ``target`` where the variant has none,
        a seed where a friend plays, or a ``move_seconds`` (the table's clock,
        :mod:`bummerl.server.clock`; ``None``: none) out of its bounds;
        :class:`CapacityError` when a cap is reached.  ``rated``: the games between people move their ratings
        (:mod:`bummerl.server.people_ratings`: a table whose players the server paired; never a practice one).
        """
        family, v = family_of(variant, options, None if seats is None else len(seats) + 1)
        others = _others(family, v, seats, opponent, bots, self.config)
        if seed is not None and FRIEND in others:
            raise BummerlError(_NO_SEED)
        seat_data = [SeatData(0, "human", None, name, True, None)]
        codes: dict[int, str] = {}
        for i, who in enumerate(others, 1):
            if who == FRIEND:
                codes[i] = secrets.token_urlsafe(9)
                seat_data.append(SeatData(i, FRIEND, None, None, False, codes[i]))
            else:
                seat_data.append(SeatData(i, "bot", family.check_bot(who, v), None, False, None))
        target = family.match_target(v, target)
        check_move_seconds(move_seconds)
        self._make_room_for(creator)
        token = secrets.token_urlsafe(32)
        practice = seed is not None
        data = await self.db.run(
            self.repo.create_table,
            secrets.token_urlsafe(9),
            v.name,
            v.options(),
            seed if seed is not None else secrets.randbits(63),
            target,
            seat_data,
            {0: hash_token(token)},
            deal_key=None if practice else secrets.token_bytes(32).hex(),
            practice=practice,
            move_seconds=move_seconds,
            rated=rated,
        )
        room = Room(data, family, self.services)
        # Until it is live, the table counts as being loaded: a heartbeat that saw it taken but not live let it go
        # as a stray, and its first move was refused (bench/web_load.py --processes 2 found it under load).
        self._creating.add(room.id)
        try:
            if self.cluster is not None:
                self._hold(room, await self.cluster.take(room.id))
            await self._open(room, creator)
        finally:
            self._creating.discard(room.id)
        return room, token, codes

    def _make_room_for(self, creator: str | None) -> None:
        """Refuse a new table when its creator or the server is at its cap (idle tables are let go first)."""
        if creator is not None:
            self.check_tables_of(creator)
        if len(self.tables) >= self.config.max_live_tables:
            self.evict_idle(0.0)
            if len(self.tables) >= self.config.max_live_tables:
                raise CapacityError(
                    "server_full", "every table of this server is in play; try again in a minute", status=503
                )

    def tables_of(self, key: str) -> int:
        """How many tables in memory count for ``key`` (a client key, or a quick-match player's ``player:ID``): those
        it created, and the quick-match tables it was seated at (:attr:`~bummerl.server.rooms.Room.holders`)."""
        return sum(1 for t in self.tables.values() if t.creator == key or key in t.holders)

    def check_tables_of(self, key: str) -> None:
        """:class:`CapacityError` (429 ``too_many_tables``) when ``key`` is at ``max_tables_per_client``."""
        mine = self.tables_of(key)
        if mine >= self.config.max_tables_per_client:
            raise CapacityError(
                "too_many_tables",
                f"you have {mine} tables open; come back to one of them or let one rest for "
                f"{self.config.table_idle_seconds:.0f} s",
                status=429,
            )

    async def _open(self, room: Room, creator: str | None) -> None:
        """Deal a new table's first game and make it live."""
        await room.deal(room.next_deal())
        room.creator = creator
        self.tables[room.id] = room
        room.schedule_bot()

    async def join(self, code: str, name: str) -> Joined:
        """The seat that ``code`` invites, for ``name``, with the seat's new token.

        :class:`UnknownTable` for an unknown code, :class:`StorageError` for a seat taken already.
        The seat is taken in the database; the live table hears of it here, or in
        the process that holds it (cluster mode).
        """
        token = secrets.token_urlsafe(32)
        try:
            table_id, seat = await self.db.run(self.repo.take_seat, code, name, hash_token(token))
        except UnknownCodeError:
            raise UnknownTable("no table has this invitation code") from None
        try:
            room = await self.room(table_id)
        except Elsewhere as exc:
            assert self.cluster is not None
            self.cluster.send(exc.node, "joined", t=table_id, s=seat, name=name)
            variant = await self.db.run(self.repo.variant_of, table_id)
            seated = len(await self.db.run(self.repo.seats, table_id))  # Schnorps' kind of table by its seats
            family, _ = family_of(variant or "", seats=seated or None)
            return Joined(table_id, family.kind, seat, token)
        await self.seat_joined(room, seat, name)
        return Joined(room.id, room.kind, seat, token)

    async def seat_joined(self, room: Room, seat: int, name: str) -> None:
        """Tell a live table that an invited friend took ``seat`` (stored already)."""
        async with room.lock:
            room.seat_taken(seat, name)
            room.events.append({"type": "joined", "seat": seat, "name": name})
            room.touch()
            room.broadcast()
        room.schedule_bot()

    # ----------------------------------------------------------------- load
    async def room(self, table_id: str) -> Room:
        """The live table of any kind, loaded from the database if needed; :class:`UnknownTable` if none,
        :class:`~bummerl.server.cluster.Elsewhere` if another process holds it (cluster mode)."""
        room = self.tables.get(table_id)
        if room is None:
            if not TABLE_ID.fullmatch(table_id):
                raise UnknownTable(f"no table {table_id[:40]!r}")
            pending = self._loading.get(table_id)
            if pending is None:
                # One load per id at a time; the entry goes when the load ends, whatever its outcome.
                pending = asyncio.get_running_loop().create_future()
                self._loading[table_id] = pending
                try:
                    room = await self._load(table_id)
                    pending.set_result(room)
                except BaseException as exc:
                    pending.set_exception(exc)
                    pending.exception()  # retrieved: nobody else may be waiting
                    raise
                finally:
                    del self._loading[table_id]
            else:
                room = await asyncio.shield(pending)
        room.touch()
        return room

    async def _load(self, table_id: str) -> Room:
        """Rebuild a table by replaying its stored deals and actions through the engine (in cluster mode after
        taking it: :class:`~bummerl.server.cluster.Elsewhere` if a live process holds it)."""
        lease: Lease | None = None
        if self.cluster is not None:
            try:
                lease = await self.cluster.take(table_id)
            except UnknownTableId:
                raise UnknownTable(f"no table {table_id!r}") from None
        try:
            room = await self._replay(table_id)
        except BaseException:
            if lease is not None and self.cluster is not None:
                self.cluster.release([(table_id, lease)])
            raise
        if lease is not None:
            self._hold(room, lease)
        self.tables[table_id] = room
        if self.cluster is not None:
            self.cluster.adopt(room)
        room.schedule_bot()
        return room

    @staticmethod
    def _hold(room: Room, lease: Lease) -> None:
        room.lease = lease
        room.seq = lease.generation * SEQ_BLOCK

    async def _replay(self, table_id: str) -> Room:
        try:
            data = await self.db.run(self.repo.load_table, table_id)
        except StorageUnavailable:
            raise
        except StorageError:
            raise UnknownTable(f"no table {table_id!r}") from None
        try:
            family, _ = family_of(data.variant, seats=len(data.seats))
            if data.deal_key is None and not data.practice and family.takes_new_deal_key:
                # A table of an older server, dealt from a seed that its records published: its next
                # deals come from a new secret key.
                data.deal_key = secrets.token_bytes(32).hex()
                await self.db.run(self.repo.set_deal_key, table_id, data.deal_key)
            data.tournament = await self.db.run(self.tournament_tables.holds_table, table_id)
            room = Room(data, family, self.services)
            repairs = room.replay_stored()
        except (BummerlError, ValueError) as exc:
            log.error("cannot load table %s: %s", table_id, exc)
            raise StorageError(f"table {table_id} cannot be loaded: {exc}") from None
        for finished in repairs:
            self.results.store(finished)
        return room

    def evict_idle(self, idle_seconds: float | None = None) -> list[str]:
        """Let go of the tables idle for ``idle_seconds`` (default: the configured time); their ids."""
        limit = self.config.table_idle_seconds if idle_seconds is None else idle_seconds
        now = time.monotonic()
        linked = self.cluster.links if self.cluster is not None else {}
        gone = [
            t.id
            for t in self.tables.values()
            if not t.connections
            and t.idle_for(now) >= limit
            and (t.bot_task is None or t.bot_task.done())
            and (t.clock is None or not t.clock.running)  # its timer would move for a table nobody holds
            and t.storage == "ok"
            and t.id not in linked
        ]
        leases = []
        for table_id in gone:
            lease = self.tables.pop(table_id).lease
            if lease is not None:
                leases.append((table_id, lease))
        if self.cluster is not None:
            self.cluster.release(leases)
        return gone

    async def _sweep(self) -> None:
        while True:
            await asyncio.sleep(self.config.sweep_seconds)
            gone = self.evict_idle()
            if gone:
                log.info("%d idle table(s) left memory", len(gone))

    async def start(self) -> None:
        """At start-up: forget analyses a stopped server left running, catch the ratings up, warm the bots up,
        start the sweeper.

        No table is loaded here: each one loads when a client asks for it, and its bot goes on then.
        In cluster mode the process first listens for its messages and becomes alive.
        """
        if self.cluster is not None:
            await self.cluster.start()
        await self.db.run(self.repo.reset_running_analyses)
        await self.results.start()  # rates what a stop left unrated (in the background)
        await self.bots.warm_up()
        self._sweeper = asyncio.get_running_loop().create_task(self._sweep())

    def detached(self, data: TableData) -> Room:
        """A room of the stored table ``data`` that is not live (a tournament deals or replays it aside)."""
        family, _ = family_of(data.variant, seats=len(data.seats))
        return Room(data, family, self.services)

    # -------------------------------------------------------------- clients
    async def connect(self, table_id: str) -> TableLink:
        """A new client socket's link to table ``table_id``; :class:`UnknownTable` if none.

        The table is loaded (taken, in cluster mode) if nobody holds it; in cluster
        mode another process may hold it, and the link leads there.
        """
        link = TableLink(table_id, self.cluster)
        if self.cluster is None:
            link.room = await self.room(table_id)
        else:
            await self.cluster.link(link)
        return link

    def _lost(self, table_id: str) -> None:
        """A write of a table was refused because another process took it (cluster mode)."""
        if self.cluster is not None and table_id in self.tables:
            self.cluster.lost(table_id)

    # ------------------------------------------------------------ the HTTP reads of a live table
    async def summary(self, table_id: str) -> dict[str, Any]:
        """What anyone may know of a live table (``GET /api/tables/{id}``), from the process that holds it.

        :class:`UnknownTable` if there is none; :class:`StorageUnavailable`
        if the process that holds it does not answer in time.
        """
        for _ in range(3):
            try:
                return (await self.room(table_id)).summary()
            except Elsewhere as exc:
                assert self.cluster is not None
                answer = await self.cluster.call(exc.node, "summary", t=table_id)
            if "v" in answer:
                found: dict[str, Any] = answer["v"]
                return found
            if answer.get("e") == "unknown":
                raise UnknownTable(str(answer.get("m", f"no table {table_id!r}")))
            # It moved meanwhile: ask again where it is.
        raise StorageUnavailable(f"table {table_id} keeps moving between processes; try again")

    async def listing(self) -> list[dict[str, Any]]:
        """The tables in play (``GET /api/tables``): of this process, and of every other live one; those whose
        game runs first, each process's newest first."""
        found = self._listing()
        if self.cluster is not None:
            for part in await self.cluster.gather("listing"):
                found.extend(part)
        found.sort(key=lambda t: t["status"] == "game_over")  # stable: each part keeps its order
        return found

    def _listing(self) -> list[dict[str, Any]]:
        now = time.monotonic()
        shown = sorted((t for t in self.live() if t.listed(now)), key=lambda t: t.moved or 0.0, reverse=True)
        # What a stranger choosing a table to watch asks first: the house rules, the clock, a practice table.
        return [
            {
                **t.listing(),
                "options": t.variant.options(),
                "move_seconds": t.data.move_seconds,
                "practice": t.data.practice,
            }
            for t in shown
        ]

    async def answer(self, fn: str, args: dict[str, Any]) -> dict[str, Any]:
        """Another process's question (:meth:`~bummerl.server.cluster.Cluster.call`): ``{"v": value}``, or
        ``{"e": why}``."""
        try:
            if fn == "summary":
                return {"v": (await self.room(str(args["t"]))).summary()}
            if fn == "listing":
                return {"v": self._listing()}
            if fn in self.answers:
                return await self.answers[fn](args)
        except Elsewhere as exc:
            return {"e": "elsewhere", "o": exc.node}
        except UnknownTable as exc:
            return {"e": "unknown", "m": str(exc)}
        except StorageError as exc:
            return {"e": "storage", "m": str(exc)}
        return {"e": "unknown_call"}

    def live(self) -> list[Room]:
        """The tables in memory (for the lists of tables to watch)."""
        return list(self.tables.values())

    # ------------------------------------------------------------- shutdown
    async def shutdown(self) -> None:
        await self.hints.shutdown()  # before the bots' executor it runs in goes
        tasks = [t.bot_task for t in self.tables.values() if t.bot_task is not None and not t.bot_task.done()]
        if self._sweeper is not None:
            tasks.append(self._sweeper)
        await cancel_and_wait(tasks)
        await self.results.shutdown()
        for table in self.tables.values():
            for conn in list(table.connections):
                if not isinstance(conn, RemoteConnection):  # another process's client stays with it
                    conn.close()
        if self.cluster is not None:
            # After the last writes: the tables are let go, and the other processes take them at once.
            await self.cluster.stop()
        self.bots.shutdown()
        self.db.close()


_NO_SEED = (
    "a seed is for practice against bots: where a friend plays, the server alone deals "
    "(leave the seed out, or play against bots)"
)
