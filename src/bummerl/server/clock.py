"""The move clock of a table: how long a human seat may think, and what happens when it does not move.

A table with a clock (``TableData.move_seconds``, set when the table is made:
``POST /api/tables`` with ``move_seconds``, a quick-match table) gives the human
seat to move that many seconds.  Every seat and spectator is told the seat on
the clock and the time it has left (``clock`` in ``state``, docs/web.md), as a
remaining time and never as a wall-clock instant, so a client whose clock is
wrong still counts down right.

When the time runs out, or when the seat's player has been away (no connection)
longer than the grace period, the server plays the **stand-in bot's** move for
that seat, through the same path as a bot's move (:meth:`Room.schedule_bot`),
and the shared log says so (a ``timeout`` event).  The stand-in is the
``heuristic`` bot: it plays every variant, answers in milliseconds in the
scheduler's quick lane (never behind a search), and a time-out is not the place
for the table's strongest bot to think for seconds while everyone waits.

After :attr:`ClockRules.strikes` such moves of one seat in one game the bot
takes the seat over for the rest of that game, and the game counts as
**abandoned** for that seat's player: the finished game's result carries
``"abandoned": [seat, ...]`` (table seats), which the ratings and statistics
count as lost.  At the next deal the seat is its player's again if they are
connected; a player still away stays taken over (and that game is abandoned
too), so a table whose player left does not make the others wait out a grace
period for every move of every game.

The deadline is kept as a :func:`time.monotonic` instant in memory only: a
table reloaded after a restart (or taken over by another process of a cluster)
gives the seat to move a fresh full period.  The strikes and the takeover are
not lost: the room stores each stand-in move with its action and counts them
again when it replays the stored actions (:meth:`bummerl.server.rooms.Room.replay_stored`).
It runs only while the game waits for a human seat's move: never while the table waits for an invited friend, for
the next deal, or for a bot.  There is at most one timer per room
(:class:`MoveClock` re-arms the one it holds).

This module decides *when* and *for whom*; it never touches the database, the
engine or the connections, so its logic is tested with an injected time and
timer (:class:`Timers`).
"""

from __future__ import annotations

import asyncio
import dataclasses
from collections.abc import Callable, Iterable
from typing import Any, Protocol

from bummerl.errors import BummerlError

__all__ = [
    "MAX_MOVE_SECONDS",
    "MIN_MOVE_SECONDS",
    "STAND_IN_BOT",
    "ClockRules",
    "MoveClock",
    "Timer",
    "Timers",
    "check_move_seconds",
    "loop_timers",
]

#: The shortest and the longest time per move a table may have, in seconds.
MIN_MOVE_SECONDS = 5
MAX_MOVE_SECONDS = 600
#: The bot that moves for a seat whose time ran out, and that takes over an abandoned seat (see above).
STAND_IN_BOT = "heuristic"


def check_move_seconds(value: int | None) -> int | None:
    """``value`` if it is a table's time per move (``None``: no clock), else :class:`BummerlError` naming the bounds.

    >>> check_move_seconds(30), check_move_seconds(None)
    (30, None)
    >>> check_move_seconds(2)
    Traceback (most recent call last):
    ...
    bummerl.errors.BummerlError: move_seconds must be between 5 and 600 (or null for no clock), not 2
    """
    if value is not None and not MIN_MOVE_SECONDS <= value <= MAX_MOVE_SECONDS:
        bounds = f"between {MIN_MOVE_SECONDS} and {MAX_MOVE_SECONDS}"
        raise BummerlError(f"move_seconds must be {bounds} (or null for no clock), not {value}")
    return value


@dataclasses.dataclass(frozen=True)
class ClockRules:
    """The clock of one table: seconds per move, the grace for a player who is away, and the strikes."""

    #: Seconds a human seat has for each move.
    move_seconds: float
    #: Seconds a seat's player may be away (no connection) while it is their move before the bot moves for
    #: them; never longer than the move itself.
    grace_seconds: float
    #: Moves played by the bot for one seat in one game before the bot takes the seat over (abandoned).
    strikes: int

    @property
    def grace(self) -> float:
        """The grace period in force: the configured one, shortened to the time per move."""
        return min(self.grace_seconds, self.move_seconds)


class Timer(Protocol):
    """A pending call that can be cancelled (:class:`asyncio.TimerHandle` is one)."""

    def cancel(self) -> None: ...


#: ``timers(delay, callback)``: call ``callback`` in ``delay`` seconds, returning a :class:`Timer`.
Timers = Callable[[float, Callable[[], None]], Timer]


def loop_timers(delay: float, callback: Callable[[], None]) -> Timer:
    """The running event loop's timer (the default :data:`Timers`)."""
    return asyncio.get_running_loop().call_later(delay, callback)


@dataclasses.dataclass
class _Turn:
    """The turn on the clock: the seat, the table's position (game id, ply) and when it ends by the clock."""

    seat: int
    position: tuple[int, int]
    deadline: float


class MoveClock:
    """The clock of one room: the turn on it, its one timer, the strikes and the seats taken over this game.

    The room tells it what happened (:meth:`update` after every change, :meth:`new_game` at a deal,
    :meth:`presence` when a seat's player comes or goes); it calls ``expire`` (the room's) when a turn is
    due, and answers whether a seat is the stand-in bot's (:meth:`stand_in`).  ``now`` and ``timers`` are
    injected: the room passes :func:`time.monotonic` and :func:`loop_timers`, tests a fake time.
    """

    def __init__(
        self,
        rules: ClockRules,
        now: Callable[[], float],
        timers: Timers,
        expire: Callable[[int, tuple[int, int]], None],
    ) -> None:
        self.rules = rules
        self._now = now
        self._timers = timers
        self._expire = expire
        self._turn: _Turn | None = None
        self._timer: Timer | None = None
        #: The position whose move is due by the clock (the stand-in plays it), until the table moves on.
        self._due: tuple[int, tuple[int, int]] | None = None
        #: Moves played by the stand-in for each seat in the game on the table.
        self.strikes: dict[int, int] = {}
        #: Seats the stand-in plays for the rest of the game on the table.
        self.taken_over: set[int] = set()
        #: Since when each seat's player has been away (no connection), by seat; absent: connected.
        self._away: dict[int, float] = {}
        #: Why the last turn came due: ``"time"`` (its time ran out) or ``"away"`` (its player was away).
        self.reason = "time"

    @property
    def running(self) -> bool:
        """Whether a turn is on the clock (its timer is set, or its move is due)."""
        return self._turn is not None

    # ------------------------------------------------------------------ what the room asks
    def stand_in(self, seat: int, position: tuple[int, int]) -> bool:
        """Whether the stand-in bot moves for ``seat`` at ``position``: taken over, or its time is up."""
        return seat in self.taken_over or self._due == (seat, position)

    def remaining(self) -> tuple[int, int] | None:
        """``(seat, milliseconds left)`` of the turn on the clock, or ``None`` when no clock runs."""
        turn = self._turn
        if turn is None:
            return None
        return turn.seat, max(0, round((turn.deadline - self._now()) * 1000))

    def json(self) -> dict[str, Any] | None:
        """The ``clock`` field of ``state`` (docs/web.md): the seat on the clock and its time left, or ``None``.

        ``remaining_ms`` counts to the move's own deadline; a seat whose player is away may be moved for
        earlier (after the grace period), which ``away`` tells.
        """
        left = self.remaining()
        if left is None:
            return None
        seat, ms = left
        return {
            "seat": seat,
            "remaining_ms": ms,
            "move_seconds": self.rules.move_seconds,
            "away": seat in self._away,
            "strikes": self.strikes.get(seat, 0),
            "max_strikes": self.rules.strikes,
        }

    def abandoned(self) -> list[int]:
        """The seats taken over in the game on the table, for its result (``abandoned``)."""
        return sorted(self.taken_over)

    # ------------------------------------------------------------------ what the room tells
    def update(self, seat: int | None, position: tuple[int, int]) -> None:
        """The table now waits for the human ``seat`` at ``position`` (``None``: for nobody the clock times:
        a bot, an invited friend, the next deal).  A turn already on the clock keeps its deadline."""
        if seat is None or seat in self.taken_over:
            self._stop()
            return
        turn = self._turn
        if turn is None or (turn.seat, turn.position) != (seat, position):
            self._turn = _Turn(seat, position, self._now() + self.rules.move_seconds)
            self._due = None
        self._arm()

    def new_game(self, connected: Iterable[int]) -> None:
        """A new game is dealt: the strikes start again; a seat taken over stays so while its player is away."""
        back = set(connected)
        self.taken_over = {s for s in self.taken_over if s not in back}
        self.strikes = {}
        self._due = None

    def presence(self, seat: int, connected: bool) -> None:
        """``seat``'s player has (``connected``) or no longer has a connection to the table."""
        if connected:
            self._away.pop(seat, None)
        else:
            self._away.setdefault(seat, self._now())
        if self._turn is not None and self._turn.seat == seat:
            self._arm()

    def struck(self, seat: int) -> bool:
        """The stand-in moved for ``seat`` (its time was up): count it; ``True`` when that takes the seat over."""
        self._due = None
        if seat in self.taken_over:
            return False
        self.strikes[seat] = self.strikes.get(seat, 0) + 1
        if self.strikes[seat] >= self.rules.strikes:
            self.taken_over.add(seat)
            return True
        return False

    def close(self) -> None:
        """Stop the timer for good (the room leaves memory)."""
        self._stop()

    # ------------------------------------------------------------------ the one timer
    def _due_at(self, turn: _Turn) -> float:
        """When ``turn`` is due: its deadline, or the end of the grace period of a player who is away."""
        away = self._away.get(turn.seat)
        if away is None:
            return turn.deadline
        # The grace counts from the later of the player's leaving and the turn's start: a player who joins
        # (or a table reloaded after a restart) is not moved for before they could connect.
        start = turn.deadline - self.rules.move_seconds
        return min(turn.deadline, max(away, start) + self.rules.grace)

    def _arm(self) -> None:
        turn = self._turn
        if turn is None or self._due is not None:
            return
        if self._timer is not None:
            self._timer.cancel()
        delay = max(0.0, self._due_at(turn) - self._now())
        self._timer = self._timers(delay, self._fire)

    def _fire(self) -> None:
        self._timer = None
        turn = self._turn
        if turn is None:
            return
        if self._now() < self._due_at(turn):  # re-armed meanwhile (a reconnect) without this call being cancelled
            self._arm()
            return
        self._due = (turn.seat, turn.position)
        self.reason = "away" if turn.seat in self._away and self._due_at(turn) < turn.deadline else "time"
        self._expire(turn.seat, turn.position)

    def _stop(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        self._turn = None
        self._due = None
