"""All live tables of one app: create, join, load on demand, leave memory when idle, play the bots.

One :class:`TableManager` serves both kinds of table (two-player
:class:`~bummerl.server.tables.LiveTable`, three- and four-player
:class:`~bummerl.server.table_games.LiveTableGame`).  It keeps in memory only
the tables in use: a table is loaded from the database when a client asks for
it (rebuilt by replaying its stored deals and actions through the engine), and
it leaves memory after ``table_idle_seconds`` without a client, a bot move or
any other change.  So the server starts in the same time however many games it
has stored, and its memory grows with the tables in play, not with history.

Bots think through the :class:`~bummerl.server.scheduler.BotScheduler` (never
on the event loop, fairly between tables).  A write the database refuses is
never lost: a bot's action is retried with backoff while the table reports
``storage: "retrying"`` to its clients, and a finished game's result is
retried in the background (and stored on the table's next load if the server
stops first).

In cluster mode (several processes on one PostgreSQL, :mod:`bummerl.server.cluster`)
the manager holds only the tables its process has taken: a table another
process holds raises :class:`~bummerl.server.cluster.Elsewhere` where it would
be loaded, sockets reach it through a :class:`~bummerl.server.links.TableLink`,
and the HTTP reads that need it (:meth:`TableManager.summary`,
:meth:`TableManager.listing`) ask the process that holds it.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import logging
import re
import secrets
import time
from collections.abc import Callable, Mapping
from typing import Any

from bummerl.errors import BummerlError, UnknownVariantError
from bummerl.server.cluster import Cluster, Elsewhere, RemoteConnection, enabled
from bummerl.server.config import ServerConfig
from bummerl.server.database import Database, StorageUnavailable
from bummerl.server.errors import RequestError
from bummerl.server.leases import UnknownTableId
from bummerl.server.links import TableLink
from bummerl.server.rooms import FRIEND, FinishedGame, Room, TableError
from bummerl.server.scheduler import BotScheduler
from bummerl.server.schnorps_tables import LiveSchnorpsRound3, LiveSchnorpsRound4
from bummerl.server.storage import (
    MATCH_OUTCOME,
    GameData,
    Lease,
    Repository,
    SeatData,
    StorageError,
    UnknownCodeError,
    hash_token,
)
from bummerl.server.table_games import LiveTableGame
from bummerl.server.tables import LiveTable
from bummerl.server.tournament_store import TournamentStore
from bummerl.variants import Variant, find_variant

__all__ = ["ROOM_KINDS", "CapacityError", "Joined", "MessageTap", "TableManager", "UnknownTable", "room_kind"]

log = logging.getLogger("bummerl.server")

#: ``tap(room, seat, message)`` sees every message sent to a client (``seat`` ``None``: a spectator) at the
#: moment it is built; tests scan them for secrets.
MessageTap = Callable[[Room, int | None, dict[str, Any]], None]

#: What a table id looks like (``secrets.token_urlsafe(9)``: 12 characters); anything else is unknown at once.
TABLE_ID = re.compile(r"[A-Za-z0-9_-]{1,32}")

#: In cluster mode a process that takes a table numbers its ``state`` messages from ``generation * SEQ_BLOCK``
#: on: ``seq`` keeps growing when a table changes process (a client drops a state whose ``seq`` is not higher
#: than the last one it showed), and stays below 2**53 (JavaScript's exact integers) for 9 million takes.
SEQ_BLOCK = 10**9

#: The kinds of table, one per family of variants; the lobby lists their variants in this order.  The Schnorps
#: tables of three and four participants list no variant of their own (the two-player tables list Schnorps with
#: its ``participants``): :func:`room_kind` finds them by the number of seats.
ROOM_KINDS: tuple[type[Room], ...] = (LiveTable, LiveTableGame, LiveSchnorpsRound3, LiveSchnorpsRound4)


def room_kind(
    variant: str, options: dict[str, Any] | None = None, seats: int | None = None
) -> tuple[type[Room], Variant]:
    """The kind of table that plays the variant called ``variant`` (any alias), and the variant with ``options``;
    with ``seats``, the kind of that many seats where the variant is played at more than one (Schnorps: 2, 3, 4).

    >>> kind, v = room_kind("dreier", {"bettler": False})
    >>> kind.kind, v.name, v.options()
    ('table_game', 'dreierschnapsen', {'bettler': False})
    >>> room_kind("schnorps")[0].kind, room_kind("schnorps", seats=4)[0].kind
    ('two_player', 'schnorps_round')

    :class:`~bummerl.errors.UnknownVariantError` naming every variant for an unknown
    name, and for an option the variant does not have.
    """
    found = find_variant(variant, **(options or {}))
    kinds = [kind for kind in ROOM_KINDS if kind.plays(found)]
    if not kinds:
        raise UnknownVariantError(f"this server has no table for {found.title}")
    if seats is not None and len(kinds) > 1:
        for kind in kinds:
            if kind.seat_count(found) == seats:
                return kind, found
        counts = " or ".join(str(k.seat_count(found)) for k in kinds)
        raise BummerlError(
            f"{found.title} is played at {counts} seats: seats names the others after yours, not {seats - 1}"
        )
    return kinds[0], found


def _others(
    kind: type[Room],
    variant: Any,
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
    count = kind.seat_count(variant) - 1
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
    return [bots or kind.default_bot(config)] * count


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
    """The live tables of one app, with the repository, the database threads and the bot scheduler."""

    def __init__(self, repo: Repository, config: ServerConfig, tap: MessageTap | None = None) -> None:
        self.repo = repo
        self.config = config
        self.tap = tap
        self.db = Database(repo, config.db_threads)
        self.bots = BotScheduler(config)
        self.tables: dict[str, Room] = {}
        self._loading: dict[str, asyncio.Future[Room]] = {}
        self._background: set[asyncio.Task[None]] = set()
        #: Results of finished games not stored yet (retried in the background).
        self._results: dict[int, FinishedGame] = {}
        self._sweeper: asyncio.Task[None] | None = None
        #: This process's part in a cluster of processes on one PostgreSQL, or ``None`` (one process).
        self.cluster = Cluster(self, config) if enabled(config, repo.url) else None
        #: Which tables a web tournament plays at (a tournament's table gives no hints: bummerl.server.hints).
        self.tournament_tables = TournamentStore(repo)

    @property
    def loading(self) -> set[str]:
        """The ids of the tables being loaded now."""
        return set(self._loading)

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
    ) -> tuple[Room, str, dict[int, str]]:
        """A new table of any variant with its first deal: the table, seat 0's token and the join code of each
        seat kept for a friend.

        The creator sits at seat 0.  Who sits at the others is said by one of
        ``seats`` (every other seat in order: ``"friend"`` or a bot's name),
        ``opponent`` (the one other seat of a two-player game) or ``bots`` (one
        bot for every other seat); none of them: the variant's default bot.
        :class:`BummerlError` for an unknown variant, option or bot, a seat list
        that does not fit the variant, a ``target`` where the variant has none,
        or a seed where a friend plays; :class:`CapacityError` when a cap is reached.
        """
        kind, v = room_kind(variant, options, None if seats is None else len(seats) + 1)
        others = _others(kind, v, seats, opponent, bots, self.config)
        if seed is not None and FRIEND in others:
            raise BummerlError(_NO_SEED)
        seat_data = [SeatData(0, "human", None, name, True, None)]
        codes: dict[int, str] = {}
        for i, who in enumerate(others, 1):
            if who == FRIEND:
                codes[i] = secrets.token_urlsafe(9)
                seat_data.append(SeatData(i, FRIEND, None, None, False, codes[i]))
            else:
                seat_data.append(SeatData(i, "bot", kind.check_bot(who, v), None, False, None))
        target = kind.match_target(v, target)
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
        )
        room = kind(self, data)
        if self.cluster is not None:
            self._hold(room, await self.cluster.take(room.id))
        await self._open(room, creator)
        return room, token, codes

    def _make_room_for(self, creator: str | None) -> None:
        """Refuse a new table when its creator or the server is at its cap (idle tables are let go first)."""
        if creator is not None:
            mine = sum(1 for t in self.tables.values() if t.creator == creator)
            if mine >= self.config.max_tables_per_client:
                raise CapacityError(
                    "too_many_tables",
                    f"you have {mine} tables open; come back to one of them or let one rest for "
                    f"{self.config.table_idle_seconds:.0f} s",
                    status=429,
                )
        if len(self.tables) >= self.config.max_live_tables:
            self.evict_idle(0.0)
            if len(self.tables) >= self.config.max_live_tables:
                raise CapacityError(
                    "server_full", "every table of this server is in play; try again in a minute", status=503
                )

    async def _open(self, room: Room, creator: str | None) -> None:
        """Deal a new table's first game and make it live."""
        await room.deal(room.next_deal())
        room.creator = creator
        self.tables[room.id] = room
        self.schedule_bot(room)

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
            kind, _ = room_kind(variant or "", seats=seated or None)
            return Joined(table_id, kind.kind, seat, token)
        await self.seat_joined(room, seat, name)
        return Joined(room.id, room.kind, seat, token)

    async def seat_joined(self, room: Room, seat: int, name: str) -> None:
        """Tell a live table that an invited friend took ``seat`` (stored already)."""
        async with room.lock:
            room.seat_taken(seat, name)
            room.events.append({"type": "joined", "seat": seat, "name": name})
            room.touch()
            room.broadcast()
        self.schedule_bot(room)

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
        self.schedule_bot(room)
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
            kind, _ = room_kind(data.variant, seats=len(data.seats))
            if data.deal_key is None and not data.practice and kind.takes_new_deal_key:
                # A table of an older server, dealt from a seed that its records published: its next
                # deals come from a new secret key.
                data.deal_key = secrets.token_bytes(32).hex()
                await self.db.run(self.repo.set_deal_key, table_id, data.deal_key)
            data.tournament = await self.db.run(self.tournament_tables.holds_table, table_id)
            room = kind(self, data)
            repairs = room.replay_stored()
        except (BummerlError, ValueError) as exc:
            log.error("cannot load table %s: %s", table_id, exc)
            raise StorageError(f"table {table_id} cannot be loaded: {exc}") from None
        for finished in repairs:
            self.store_result(finished)
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
        """At start-up: forget analyses a stopped server left running, warm the bots up, start the sweeper.

        No table is loaded here: each one loads when a client asks for it, and its bot goes on then.
        In cluster mode the process first listens for its messages and becomes alive.
        """
        if self.cluster is not None:
            await self.cluster.start()
        await self.db.run(self.repo.reset_running_analyses)
        await self.bots.warm_up()
        self._sweeper = asyncio.get_running_loop().create_task(self._sweep())

    # ----------------------------------------------------------------- bots
    def schedule_bot(self, room: Room) -> None:
        """Start the table's bot if it is a bot's turn and it is not thinking already."""
        if room.bot_turn() is None:
            return
        if room.bot_task is not None and not room.bot_task.done():
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            return
        room.bot_task = loop.create_task(self._bot_loop(room))

    async def _bot_loop(self, room: Room) -> None:
        # One task per table plays every bot move in a row; a check of bot_turn() and the task's end
        # happen without an await between them, so schedule_bot() can never miss a turn.
        while (turn := room.bot_turn()) is not None:
            if self.config.bot_delay:
                await asyncio.sleep(self.config.bot_delay)
            try:
                token = await self.bots.decide(turn.request)
            except Exception as exc:  # nothing a bot does may stop the table: it plays its first legal action
                log.error("table %s: the bot's decision failed: %s: %s", room.id, type(exc).__name__, exc)
                token = ""
            wait = self.config.storage_retry_first
            while True:
                async with room.lock:
                    now = room.bot_turn()
                    if now is None or now.position != turn.position:
                        break  # the table moved on meanwhile (a restart of the game, a reload)
                    try:
                        action = room.check_action(turn.seat, token)
                    except TableError as exc:
                        log.error(
                            "bot %s at table %s: %s; playing the first legal action",
                            turn.request.bot,
                            room.id,
                            exc.message,
                        )
                        action = room.first_legal()
                    try:
                        await room.apply(turn.seat, action)
                    except StorageError as exc:
                        log.error("table %s: the bot's action was not stored (retry in %.1f s): %s", room.id, wait, exc)
                        if room.storage != "retrying":
                            room.storage = "retrying"
                            room.broadcast()
                    else:
                        break
                await asyncio.sleep(wait)
                wait = min(wait * 2, self.config.storage_retry_max)

    def store_result(self, finished: FinishedGame) -> None:
        """Store a finished game's result in the background, retrying with backoff until the database takes it.

        Every action of the game is stored already, so nothing is lost if the
        server stops first: a stopping server tries once more, and the next load
        of the table finishes the game again from its actions.
        """
        self._results[finished.game_id] = finished
        task = asyncio.get_running_loop().create_task(self._store_result(finished))
        self._background.add(task)
        task.add_done_callback(self._background.discard)

    def pending_results(self) -> dict[int, FinishedGame]:
        """The results :meth:`store_result` has not written yet, by game id (this process's only).

        Take them *before* reading games from the database and give them to
        :meth:`as_finished`: a write that lands between the two is then seen in
        one or the other (taken after the read, it could be in neither).
        """
        return dict(self._results)

    @staticmethod
    def as_finished(game: GameData, pending: Mapping[int, FinishedGame]) -> GameData:
        """``game`` as the database will have it once its pending result (in ``pending``) is written.

        ``game_over`` reaches the players before the background write of
        :meth:`store_result` lands (or while the database refuses it), so a client
        that asks for the game, its record, replay or analysis at once must not be
        told that it still runs.  In cluster mode another process's pending result
        is not known here; its answer waits for that write.
        """
        finished = pending.get(game.id)
        if game.finished or finished is None:
            return game
        result = {k: v for k, v in finished.result.items() if k != MATCH_OUTCOME}
        return dataclasses.replace(game, finished=True, result=result, record=finished.record)

    async def _store_result(self, finished: FinishedGame) -> None:
        wait = self.config.storage_retry_first
        while True:
            try:
                await self.db.run(self.repo.finish_game, finished.game_id, finished.result, finished.record)
                del self._results[finished.game_id]
                return
            except StorageError as exc:
                log.error("the result of game %s was not stored (retry in %.1f s): %s", finished.game_id, wait, exc)
            await asyncio.sleep(wait)
            wait = min(wait * 2, self.config.storage_retry_max)

    # -------------------------------------------------------------- clients
    async def connect(self, table_id: str) -> TableLink:
        """A new client socket's link to table ``table_id``; :class:`UnknownTable` if none.

        The table is loaded (taken, in cluster mode) if nobody holds it; in cluster
        mode another process may hold it, and the link leads there.
        """
        link = TableLink(self, table_id)
        if self.cluster is None:
            link.room = await self.room(table_id)
        else:
            await self.cluster.link(link)
        return link

    def table_lost(self, room: Room) -> None:
        """A write of ``room`` was refused because another process took the table (cluster mode)."""
        if self.cluster is not None and self.tables.get(room.id) is room:
            self.cluster.lost(room.id)

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
        return [t.listing() for t in shown]

    async def answer(self, fn: str, args: dict[str, Any]) -> dict[str, Any]:
        """Another process's question (:meth:`~bummerl.server.cluster.Cluster.call`): ``{"v": value}``, or
        ``{"e": why}``."""
        try:
            if fn == "summary":
                return {"v": (await self.room(str(args["t"]))).summary()}
            if fn == "listing":
                return {"v": self._listing()}
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
        tasks = [t.bot_task for t in self.tables.values() if t.bot_task is not None and not t.bot_task.done()]
        tasks += list(self._background)
        if self._sweeper is not None:
            tasks.append(self._sweeper)
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        for finished in list(self._results.values()):
            # One last try for results still waiting (else the table's next load stores them).
            try:
                await self.db.run(self.repo.finish_game, finished.game_id, finished.result, finished.record)
            except StorageError as exc:
                log.error("the result of game %s was not stored before the stop: %s", finished.game_id, exc)
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
