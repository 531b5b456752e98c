"""A live table in memory, of either kind, and the steps every change of it takes.

:class:`Room` is what a two-player table (:mod:`bummerl.server.tables`) and a
three- or four-player table (:mod:`bummerl.server.table_games`) have in
common: the connected clients (seats and spectators), the lock, the events not
yet sent, and the order of every change, under the lock:

1. check the request (:meth:`Room.check_action`: whose turn, is it legal);
2. **store it** (an action row, a new deal) through the database threads;
3. change the engine's state (:meth:`Room.play`, :meth:`Deal.install`);
4. send every client its own ``state`` message (:meth:`Room.broadcast`).

A refused request, or one the database refused, changes nothing.  The
subclasses supply the engine side: the views, the parsing of action tokens,
the scoring of a finished game, the next deal and what a bot sees.

What a client learns about the cards comes only from the subclasses'
``state_for`` (one seat's view, or a spectator's copy without any hand), from
the public events, and, once a game is over, from its record.
"""

from __future__ import annotations

import abc
import asyncio
import dataclasses
import json
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, ClassVar

from bummerl.server.messages import (
    ActionMessage,
    ClientError,
    HelloMessage,
    NextGameMessage,
    PingMessage,
    error_message,
    parse_client_message,
)
from bummerl.server.scheduler import BotRequest
from bummerl.server.storage import StorageError, TableData

if TYPE_CHECKING:
    from bummerl.server.manager import TableManager

__all__ = ["MAX_QUEUED", "Closing", "Connection", "Deal", "FinishedGame", "Room", "TableError"]

#: Messages waiting for a client before it is disconnected as unresponsive.
MAX_QUEUED = 500
#: Messages a client may send in a burst, and per second after it (docs/security.md).
MESSAGE_BURST = 30
MESSAGE_RATE = 10.0
#: The ``opponent`` of a two-player table that waits for an invited friend, and the kind of an invited seat.
FRIEND = "friend"


class TableError(Exception):
    """A request that the table refuses: ``code`` is an error code of docs/web.md."""

    def __init__(self, code: str, message: str, rule: str | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.rule = rule


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
        self.seat: int | None = None
        self.hello = False
        #: How many of the room's events this client has been sent.
        self.cursor = 0
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
        self.queue.put_nowait(json.dumps(message, separators=(",", ":"), ensure_ascii=False))

    def close(self, code: int = 1000, reason: str = "") -> None:
        self.queue.put_nowait(Closing(code, reason))


@dataclasses.dataclass(frozen=True)
class FinishedGame:
    """A game that just ended: what the database must keep of it (stored in the background)."""

    game_id: int
    result: dict[str, Any]
    record: str


@dataclasses.dataclass(frozen=True)
class Deal:
    """A next deal, made without changing the room: stored first, then :attr:`install`-ed with its game id."""

    match_no: int
    game_no: int
    dealer: int
    deck: str
    seed: int | None
    install: Callable[[int], None]


@dataclasses.dataclass(frozen=True)
class BotTurn:
    """A bot's turn: ``request`` for the scheduler, ``position`` to tell whether the table moved on meanwhile."""

    seat: int
    request: BotRequest
    position: tuple[int, int]


class Room(abc.ABC):
    """One table in memory; change it only under :attr:`lock`, through :meth:`apply` and :meth:`deal_next`."""

    #: ``"two_player"`` or ``"table_game"`` (the WebSocket path and the REST tree it belongs to).
    kind: ClassVar[str]
    #: Where its WebSocket is, before the table id.
    ws_prefix: ClassVar[str]

    def __init__(self, manager: TableManager, data: TableData) -> None:
        self.manager = manager
        self.id = data.id
        self.data = data
        self.lock = asyncio.Lock()
        self.connections: set[Connection] = set()
        #: The events of the game on the table (from its deal on); each connection keeps a cursor into them.
        self.events: list[dict[str, Any]] = []
        self.seq = 0
        self.bot_task: asyncio.Task[None] | None = None
        #: ``"ok"``, or ``"retrying"`` while the database refuses a bot's action (it is retried).
        self.storage = "ok"
        #: The client key of the creator (caps per client), ``None`` for a table loaded from the database.
        self.creator: str | None = None
        self.touched = time.monotonic()

    # ------------------------------------------------------------ the engine side
    @property
    @abc.abstractmethod
    def status(self) -> str:
        """``"waiting"`` (for an invited friend), ``"playing"`` or ``"game_over"``."""

    @property
    @abc.abstractmethod
    def game_id(self) -> int:
        """The database id of the game on the table."""

    @property
    @abc.abstractmethod
    def ply(self) -> int:
        """Actions played so far in the game on the table."""

    @property
    @abc.abstractmethod
    def to_move(self) -> int | None:
        """The seat to act, ``None`` once the game is over."""

    @abc.abstractmethod
    def players(self) -> list[dict[str, Any]]:
        """The seats as the ``players`` field of docs/web.md."""

    @abc.abstractmethod
    def summary(self) -> dict[str, Any]:
        """What anyone may know of the table (no card)."""

    @abc.abstractmethod
    def view_state(self, conn: Connection) -> dict[str, Any]:
        """The kind-specific fields of ``conn``'s ``state`` message (its view, legal actions, the match)."""

    @abc.abstractmethod
    def verified(self, seat: int, token: str) -> Any:
        """The action ``token`` of ``seat`` if the engine allows it, else :class:`TableError`."""

    @abc.abstractmethod
    def first_legal(self) -> Any:
        """An action to play when a bot's answer was unusable."""

    @abc.abstractmethod
    def play(self, seat: int, action: Any) -> FinishedGame | None:
        """Apply a stored action to the engine and record its events; the finished game if it ended one."""

    @abc.abstractmethod
    def next_deal(self) -> Deal:
        """The next deal (a new match after a finished one), the room unchanged until it is installed."""

    @abc.abstractmethod
    def bot_turn(self) -> BotTurn | None:
        """The bot's turn if a bot is to act."""

    @abc.abstractmethod
    def seat_taken(self, seat: int, name: str) -> None:
        """An invited friend took ``seat`` (stored already)."""

    @abc.abstractmethod
    def seat_of(self, token: str) -> int | None:
        """The seat that ``token`` holds (a database call: run it in the database threads)."""

    #: Fields the ``welcome`` message adds for this kind of table.
    welcome: ClassVar[dict[str, Any]] = {}

    # ----------------------------------------------------------------- messages
    def state_for(self, conn: Connection) -> dict[str, Any]:
        """The ``state`` message of ``conn``, with the events it has not been sent yet."""
        events = self.events[conn.cursor :]
        conn.cursor = len(self.events)
        return {
            "type": "state",
            "seq": self.seq,
            "table_id": self.id,
            "seat": conn.seat,
            "role": conn.role,
            "status": self.status,
            "storage": self.storage,
            **self.view_state(conn),
            "players": self.players(),
            "events": events,
        }

    def send(self, conn: Connection, message: dict[str, Any]) -> None:
        tap = self.manager.tap
        if tap is not None:
            tap(self, conn.seat, message)
        conn.send(message)

    def broadcast(self) -> None:
        """Send every greeted client its state (call after every change)."""
        self.seq += 1
        for conn in list(self.connections):
            if conn.hello:
                self.send(conn, self.state_for(conn))

    @property
    def ws_url(self) -> str:
        return f"{self.ws_prefix}{self.id}"

    def touch(self) -> None:
        self.touched = time.monotonic()

    def idle_for(self, now: float) -> float:
        """Seconds since anything happened, or 0 while a client is connected or a bot thinks."""
        if self.connections or (self.bot_task is not None and not self.bot_task.done()):
            return 0.0
        return now - self.touched

    # ------------------------------------------------------------------ changes
    def check_action(self, seat: int | None, token: str) -> Any:
        """The action ``token`` of ``seat``, or :class:`TableError` (nothing changes)."""
        if seat is None:
            raise TableError("spectator", "a spectator cannot act; send hello with a seat token to play")
        if self.status == "waiting":
            raise TableError("waiting", "not every invited friend has joined yet")
        to_move = self.to_move
        if to_move is None:
            raise TableError("game_over", "the game is over; send next_game to deal the next one", "game_over")
        if to_move != seat:
            raise TableError("not_your_turn", f"it is seat {to_move}'s turn, not seat {seat}'s", "turn")
        return self.verified(seat, token)

    async def apply(self, seat: int, action: Any) -> None:
        """Store and play a checked action, then tell everyone (the caller holds the lock).

        :class:`~bummerl.server.storage.StorageError` if the database refused it: nothing changed.
        """
        # Stored first: if the database refuses, the table has not changed.
        await self.manager.db.run(self.manager.repo.append_action, self.game_id, self.ply, action.token)
        self.storage = "ok"  # the database took it: whatever was retried before is through
        finished = self.play(seat, action)
        if finished is not None:
            self.manager.store_result(finished)
        self.touch()
        self.broadcast()
        self.manager.schedule_bot(self)

    async def deal_next(self) -> None:
        """Deal the next game once the current one is over, and store it before the table changes."""
        if self.to_move is not None:
            raise TableError("game_running", "the current game is not over yet")
        await self.deal(self.next_deal())
        self.broadcast()
        self.manager.schedule_bot(self)

    async def deal(self, deal: Deal) -> None:
        """Store ``deal``, then make it the game on the table."""
        repo = self.manager.repo
        seed = None if deal.seed is None else str(deal.seed)
        game_id = await self.manager.db.run(
            repo.start_game, self.id, deal.match_no, deal.game_no, deal.dealer, deal.deck, seed
        )
        # Every client has had the last game's events (each change is broadcast): the log starts anew,
        # so a table that plays for days holds one game's events, not all of them.
        self.events.clear()
        for conn in self.connections:
            conn.cursor = 0
        deal.install(game_id)
        self.touch()


# --------------------------------------------------------------------- clients
async def handle_client_text(room: Room, conn: Connection, text: str) -> None:
    """Answer one client message (errors go to that client only)."""
    message = parse_client_message(text)
    if isinstance(message, ClientError):
        room.send(conn, error_message(message.code, message.message))
        return
    if isinstance(message, PingMessage):
        room.send(conn, {"type": "pong"})
        return
    if isinstance(message, HelloMessage):
        await _hello(room, conn, message)
        return
    if not conn.hello:
        room.send(conn, error_message("hello_required", "send hello first (with a seat token to play)"))
        return
    async with room.lock:
        try:
            if isinstance(message, ActionMessage):
                seat = conn.seat
                action = room.check_action(seat, message.action)
                assert seat is not None  # check_action refuses spectators
                await room.apply(seat, action)
            elif isinstance(message, NextGameMessage):
                if conn.seat is None:
                    raise TableError("spectator", "a spectator cannot deal")
                await room.deal_next()
        except TableError as exc:
            room.send(conn, error_message(exc.code, exc.message, exc.rule))
        except StorageError as exc:
            room.send(conn, error_message("storage", f"not stored, nothing changed (send it again): {exc}"))


async def _hello(room: Room, conn: Connection, message: HelloMessage) -> None:
    seat: int | None = None
    if message.token:
        try:
            seat = await room.manager.db.run(room.seat_of, message.token)
        except StorageError as exc:
            room.send(conn, error_message("storage", f"the seat could not be looked up (send hello again): {exc}"))
            return
        if seat is None:
            room.send(conn, error_message("bad_token", "this token holds no seat at this table"))
            return
    async with room.lock:
        conn.seat = seat
        conn.hello = True
        conn.cursor = len(room.events)
        room.connections.add(conn)
        room.touch()
        room.send(
            conn,
            {
                "type": "welcome",
                **room.welcome,
                "table_id": room.id,
                "seat": seat,
                "role": conn.role,
                "players": room.players(),
            },
        )
        if seat is None:
            room.send(conn, room.state_for(conn))
        else:
            # Everyone hears that a player (re)connected; the newcomer gets events [].
            room.broadcast()


async def disconnect_client(room: Room, conn: Connection) -> None:
    """Forget a closed connection; the players hear it if it held a seat."""
    async with room.lock:
        was_player = conn.hello and conn.seat is not None
        room.connections.discard(conn)
        room.touch()
        if was_player:
            room.broadcast()
