"""Help at a live table: the expert's hint ("Tipp"), the learning mode's review, the hints agreement, the declare check.

Three WebSocket messages of a seat (docs/web-ui.md, "Help at the table"):

* ``{"type": "hint"}``: the expert's advice for the seat's current decision,
  answered ``{"type": "hint", "game_id", "ply", "best", "method", "values", ...}``
  with each legal action's value (expected game points), best first;
* ``{"type": "review", "game_id", "ply"}``: the learning mode's verdict on the
  seat's decision at ``ply`` of the game on the table, answered
  ``{"type": "review", ..., "verdict", "loss", "mistake", "best"}``;
* ``{"type": "hints", "allow": true | false}``: the seat's vote in the hints
  agreement.

**Only the seat's view.** Advice is computed from the deciding seat's view
as the bot protocol's JSON (:func:`bummerl.view_json.view_to_json`), exactly
what a bot gets, in the bot executor: :func:`advise` and :func:`review` are
functions of that JSON alone (their worlds are seeded from it, so one view
always gets one answer), and a review rebuilds the view the seat had when it
decided by replaying the game's own actions.  No hidden card goes into a worker.

**The agreement.** At a table of bots the one human may ask at once.  Where
two or more people play (a friend was invited), hints and reviews are refused
(``error`` ``hints_off``, naming who has not agreed) until every human seat has
voted for them; a vote against withdraws them for everyone.  Votes live with the
table in memory: a table loaded again (after a restart, or in another process of
a cluster) starts with hints off, the safe side.  A web tournament's table
gives no hints at all (``tournament``), even to a human who faces a bot: the
other entrants play without them.

**Bounds.** A seat asks only at its own turn (``not_your_turn``); a review is
of its own decision in the game on the table.  Each seat has at most one
request computing (``busy``) and :attr:`HintSettings.per_minute` a minute
(``rate_limited``); a process computes :attr:`HintSettings.running` at once
and lets :attr:`HintSettings.waiting` wait (``busy``).  **A fair share per
client**: each client key (an address, an IPv6 /64: :attr:`Connection.client`)
has at most one request waiting, whatever its number of tables (``busy``), and
a freed slot goes to the waiting client served least recently, so one client
with many tables cannot take every hint of the server (issue 24: one address
with 9 tables got 29 hints in 40 s while everyone else got ``busy``).  The
searches run in background workers of their own at a lower CPU priority
(``BotScheduler.start_background``): a bot never waits behind a hint.  A hint
takes at most :attr:`HintSettings.seconds` in its worker, the search's last
world included (less while others wait: :attr:`HintSettings.min_share`), and
the answer comes within :attr:`HintSettings.timeout`
(``hint_timeout``).  The computation runs as a task of its own: the table, the
seat's next action and its pings never wait for it.  Every refusal is an
``error`` with ``"about"`` naming the request.

**The declare check.** ``state.declare_check`` tells the seat, for each
``declare`` token it may send now, whether going out now wins the game
(``{"declare": {"wins": false, "augen": 52}}``): the engine decides it on a copy
of the game, so the page never restates the 66 rule.  In a variant that
hides the running Augen (Schnapsen scharf: "Abgelegte Stiche dürfen nicht mehr
angesehen werden", seeds/000) both are ``null``: the answer would tell the
player the count the game makes them remember.

>>> from bummerl.game import Game
>>> from bummerl.view_json import view_to_json
>>> game = Game.from_position("schnapsen 1 0 h AhThKh/AsTsKs - - - QhJhQsJs/AdTdKdQdJdAcTcKcQcJc -")
>>> advice = advise(view_to_json(game.view(0)))
>>> advice["method"], advice["best"], advice["values"][0]
('exact', 'Kh', ['Kh', 1.0])
>>> review(view_to_json(game.view(0)), "declare")["verdict"]  # going out now loses
'losing'

This module never reads a hand other than the asking seat's: the game is read only to build that seat's view
(now, or at the decision a review judges) and, for the declare check, to ask the engine what a declaration scores.
"""

from __future__ import annotations

import asyncio
import collections
import dataclasses
import functools
import hashlib
import json
import logging
import time
from collections.abc import Awaitable, Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Protocol, cast

from bummerl.actions import Action, ActionKind
from bummerl.analysis import THRESHOLD, DecisionPoint, bid_values
from bummerl.bots.heuristic import HeuristicBot
from bummerl.bots.search import Budget, SearchBot, solvable
from bummerl.bots.table_bots import TableHeuristicBot
from bummerl.bots.table_search import TableSearchBot
from bummerl.game import Game
from bummerl.server.connections import Connection
from bummerl.server.errors import RequestError
from bummerl.server.messages import HintMessage, HintsVoteMessage, ReviewMessage, error_message
from bummerl.server.tasks import TaskSet
from bummerl.variants.bauernschnapsen import Phase
from bummerl.view import PlayerView, TableView, View
from bummerl.view_json import view_from_json, view_to_json

if TYPE_CHECKING:
    from bummerl.server.storage import SeatData, TableData

__all__ = [
    "FairQueue",
    "HintService",
    "HintSettings",
    "HintTable",
    "RoomHints",
    "advise",
    "declare_check",
    "judge",
    "review",
    "state_fields",
    "view_seed",
]

log = logging.getLogger("bummerl.server")


@dataclasses.dataclass(frozen=True)
class HintSettings:
    """How much a hint may cost (docs/web-ui.md, "Help at the table")."""

    #: Seconds one hint or review may take in its worker, from reading the view to the answer: no world is
    #: started after them and one still being solved then is given up (``None``: no cap).
    seconds: float | None = 1.5
    #: Two-player worlds sampled (all of them when at most :attr:`exhaustive` fit the view).
    worlds: int = 100
    exhaustive: int = 300
    #: Worlds of a table game's card play.
    table_worlds: int = 16
    #: Seconds before the client is told ``hint_timeout`` (the worker's slot is freed when it really ends).
    timeout: float = 10.0
    #: Hints and reviews one seat may ask for in a minute.
    per_minute: int = 40
    #: Hints and reviews computed at once by one process, and waiting for that (at most one per client).
    running: int = 1
    waiting: int = 8
    #: The least share of :attr:`seconds` a hint gets while others wait: ``max(min_share, running / (running +
    #: waiting))``, as the bots' searches shorten under load, so that a client's hint waits for at most one
    #: shortened hint of another.
    min_share: float = 0.25


# ============================================================ in a worker: the view's JSON in, plain data out
def view_seed(view: Mapping[str, Any]) -> int:
    """The seed of the worlds of one view: the same view always gets the same advice.

    >>> view_seed({"seat": 0, "hand": ["Ah"]}) == view_seed({"hand": ["Ah"], "seat": 0})
    True
    """
    text = json.dumps(view, sort_keys=True, separators=(",", ":"))
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big")


def advise(
    view: Mapping[str, Any], settings: HintSettings | None = None, clock: Callable[[], float] = time.perf_counter
) -> dict[str, Any]:
    """The expert's advice for the seat of ``view`` (the bot protocol's JSON, of a seat to move).

    ``{"method", "best", "values", "worlds", "all_worlds", "unvalued"}``: ``values`` are
    ``[token, expected game points]`` pairs, best first (own minus the opponent's at two
    players; won, or negative lost, by the seat's side at a table game).  ``method``:

    * ``"exact"``: the seat knows every card; the open-card solver's values;
    * ``"search"``: the mean over ``worlds`` deals consistent with the view, each
      solved exactly (``all_worlds``: every such deal);
    * ``"bidding"``: a table game's bids, by the share of sampled deals the bid wins;
    * ``"forced"``: one legal action;
    * ``"heuristic"``: no values: too early to search (``"why": "early"``: a long
      talon of Sechsundsechzig or Schnorps) or a phase without an estimate
      (``"why": "phase"``: the cut, the trump call, the talon, Kontra); the
      ``heuristic`` bot's choice.

    ``unvalued``: legal actions without a value (a table game's plain lead of a King
    or Ober that could be announced with its marriage: the marriage is never worse).
    :class:`ValueError` when it is not the view's seat's turn.

    The whole call keeps to :attr:`HintSettings.seconds` (read on ``clock``): the search gets what is left
    of it after the view is read, as its soft cap and its hard deadline both.
    """
    s = settings or HintSettings()
    started = clock()
    seat_view = view_from_json(dict(view))
    legal = seat_view.legal_actions()
    if not legal:
        raise ValueError("no legal action: it is not this seat's turn")
    if len(legal) == 1:
        return _advice("forced", legal[0], {}, legal)
    left = None if s.seconds is None else max(_LEAST_SEARCH, s.seconds - (clock() - started))
    return _HINTS[seat_view.variant.FAMILY](seat_view, legal, view_seed(view), s, left)


#: The least time a search is given (a view read slowly on a loaded machine still gets one world or two).
_LEAST_SEARCH = 0.05


def review(
    view: Mapping[str, Any], chosen: str, settings: HintSettings | None = None, threshold: float = THRESHOLD
) -> dict[str, Any]:
    """The verdict on ``chosen`` in ``view`` (the seat's view when it decided): the learning mode's mark.

    The advice of :func:`advise` plus ``action``, ``verdict``, ``loss`` (expected game points
    below the best) and ``mistake``, judged as the post-game analysis judges
    (:mod:`bummerl.analysis`: a mistake costs at least ``threshold``; with exact values any
    loss).  ``verdict``: ``forced``, ``unevaluated`` (no values), ``not_valued`` (the
    chosen action has none), ``best``, ``good``, ``mistake``, ``optimal``, ``losing``.
    """
    return judge(advise(view, settings), chosen, int(view["seat"]), threshold)


def judge(advice: Mapping[str, Any], chosen: str, seat: int, threshold: float = THRESHOLD) -> dict[str, Any]:
    """The verdict of :func:`review` on ``chosen`` from the ``advice`` (:func:`advise`) of the decision's view.

    >>> advice = {"method": "search", "best": "Ah", "values": [["Ah", 0.5], ["Th", -0.5]], "worlds": 9}
    >>> verdict = judge(advice, "Th", 0)
    >>> verdict["verdict"], verdict["loss"], verdict["mistake"]
    ('mistake', 1.0, True)
    """
    action = Action.parse(chosen)
    out = {**advice, "action": action.token, "loss": 0.0, "mistake": False}
    values = {Action.parse(t): v for t, v in advice["values"]}
    if advice["method"] == "forced":
        return {**out, "verdict": "forced"}
    if not values:
        return {**out, "verdict": "unevaluated"}
    if action not in values:
        return {**out, "verdict": "not_valued"}
    at = DecisionPoint(0, seat, "", action)
    decision = at.judged(values, advice["method"] == "exact", advice["worlds"] or 0, threshold)
    return {**out, "verdict": decision.verdict, "loss": round(decision.loss, 3), "mistake": decision.mistake}


def _advice(
    method: str,
    best: Action,
    values: Mapping[Action, float],
    legal: Sequence[Action],
    worlds: int | None = None,
    all_worlds: bool = False,
    why: str | None = None,
) -> dict[str, Any]:
    # Best first; the advised action leads its equals (the search's tie-break chose it).
    ranked = sorted(values.items(), key=lambda kv: (-kv[1], kv[0] != best))
    return {
        "method": method,
        "best": best.token,
        "values": [[a.token, round(v, 3)] for a, v in ranked],
        "worlds": worlds,
        "all_worlds": all_worlds,
        "unvalued": [a.token for a in legal if values and a not in values],
        "why": why,
    }


def _two_player(
    seat_view: View, legal: list[Action], seed: int, s: HintSettings, seconds: float | None
) -> dict[str, Any]:
    view = cast(PlayerView, seat_view)  # chosen for a two-player variant by _HINTS: its engine's view
    if not solvable(view):
        # Early in a long-talon variant one world takes seconds to solve: the expert's own opening player answers.
        return _advice("heuristic", HeuristicBot(seed).choose(view), {}, legal, why="early")
    # The hard deadline too: a world begun just before the cap used to run on past it (0.1 s and more).
    budget = Budget(worlds=s.worlds, exhaustive=s.exhaustive, seconds=seconds, hard_seconds=seconds)
    bot = SearchBot("hint", budget, seed)
    ev = bot.evaluate(view)
    exact = ev.exhaustive and ev.worlds == 1
    return _advice("exact" if exact else "search", ev.best, ev.values, legal, ev.worlds, ev.exhaustive)


def _table(seat_view: View, legal: list[Action], seed: int, s: HintSettings, seconds: float | None) -> dict[str, Any]:
    view = cast(TableView, seat_view)  # chosen for a table variant by _HINTS: its engine's view
    # The table search's own hard deadline is 2.5 s: a first trick's worlds ran on to it.
    if seconds is None:
        bot = TableSearchBot(seed, worlds=s.table_worlds, seconds=None)
    else:
        bot = TableSearchBot(seed, worlds=s.table_worlds, seconds=seconds, hard_seconds=seconds)
    if view.phase is Phase.PLAY:
        values = bot.action_values(view)
        # Ties go to the first in the legal order, as the search bot plays.
        best = max((a for a in legal if a in values), key=lambda a: values[a])
        return _advice("search", best, values, legal)
    if view.phase is Phase.BIDDING:
        bids = sum(1 for a in legal if a.kind is ActionKind.BID)
        if seconds is not None:
            # One estimate per bid: the hint as a whole keeps the cap.
            bot.seconds = bot.hard_seconds = seconds / max(1, bids)
        # The post-game analysis's own estimate of a bid, so that a hint and the analysis agree.
        values = bid_values(bot, view, legal)
        best = max(legal, key=lambda a: values[a])
        return _advice("bidding", best, values, legal, bot.worlds)
    return _advice("heuristic", TableHeuristicBot(seed).choose(view), {}, legal, why="phase")


#: Each family's hint, by ``Variant.FAMILY``: the two engines' searches differ (the two-player solver and
#: sampler; the table search with its bidding estimate), as the bots' registry knows.
_HINTS: dict[str, Callable[[View, list[Action], int, HintSettings, float | None], dict[str, Any]]] = {
    "two_player": _two_player,
    "table_game": _table,
}


# ============================================================ on the event loop: the table's side
def declare_check(game: Game, seat: int) -> dict[str, dict[str, Any]]:
    """For each ``declare`` token ``seat`` may send now: whether going out now wins, and its side's Augen then.

    The engine scores the declaration on a copy of the game.  Where the variant hides the
    running Augen (scharf) both are ``None``: the page may not learn the count that way.

    >>> from bummerl.game import Game
    >>> game = Game.deal("schnapsen", seed=3, dealer=1)
    >>> declare_check(game, 0)  # no trick yet: going out is not possible
    {}
    """
    if game.is_over or game.to_move != seat:
        return {}
    declares = [a for a in game.legal_actions() if a.kind is ActionKind.DECLARE]
    if not declares:
        return {}
    if not game.variant.shows_augen:  # scharf: what going out would give is the count the variant hides
        return {a.token: {"wins": None, "augen": None} for a in declares}
    out: dict[str, dict[str, Any]] = {}
    for action in declares:
        after = game.copy()
        after.apply(action)
        result = after.result
        assert result is not None, "a declaration ends the game"
        out[action.token] = {"wins": result.points_of(seat) > 0, "augen": result.augen[game.side_of(seat)]}
    return out


@dataclasses.dataclass
class RoomHints:
    """What one live table keeps for hints: the votes, and per seat its requests of the last minute."""

    votes: set[int] = dataclasses.field(default_factory=set)
    asked: dict[int, collections.deque[float]] = dataclasses.field(default_factory=dict)
    busy: set[int] = dataclasses.field(default_factory=set)
    #: The last hints given, by (game id, ply, seat): the review of a decision a hint was asked for judges it
    #: with the very values the hint showed (and needs no second search).
    advice: dict[tuple[int, int, int], dict[str, Any]] = dataclasses.field(default_factory=dict)

    def keep(self, key: tuple[int, int, int], advice: dict[str, Any]) -> None:
        self.advice[key] = advice
        while len(self.advice) > _KEPT_ADVICE:
            del self.advice[next(iter(self.advice))]


#: Hints kept per table for the reviews of their decisions.
_KEPT_ADVICE = 8


class HintTable(Protocol):
    """What the hints read of a live table (a :class:`bummerl.server.rooms.Room`): its seats, the game on it
    (read only to build the asking seat's view), its lock and its messages, and :attr:`hints`, its state here."""

    id: str
    data: TableData
    seats: list[SeatData]
    lock: asyncio.Lock
    hints: RoomHints

    @property
    def dealt(self) -> bool: ...

    @property
    def game(self) -> Game: ...

    @property
    def game_id(self) -> int: ...

    @property
    def ply(self) -> int: ...

    @property
    def status(self) -> str: ...

    def game_seat(self, seat: int | None) -> int | None: ...

    def seat_name(self, seat: int) -> str: ...

    def send(self, conn: Connection, message: dict[str, Any]) -> None: ...

    def touch(self) -> None: ...

    def broadcast(self) -> None: ...


def _of(room: HintTable) -> RoomHints:
    return room.hints


def _humans(room: HintTable) -> list[int]:
    """The seats people play (an invited friend's too, before the friend came)."""
    return [s.seat for s in room.seats if s.kind != "bot"]


def _needed(room: HintTable) -> list[int]:
    """The seats that must agree: none at a table of bots, every human seat where several people play."""
    humans = _humans(room)
    return humans if len(humans) > 1 else []


def allowed(room: HintTable) -> bool:
    """Whether hints and reviews are on at ``room``: not a tournament's table, and every seat that must agree
    has agreed."""
    return not room.data.tournament and set(_needed(room)) <= _of(room).votes


def state_fields(room: HintTable, conn: Connection) -> dict[str, Any]:
    """The fields of ``conn``'s ``state`` message that this module adds: ``hints`` and ``declare_check``."""
    dealt = room.dealt
    hints = {
        "allowed": allowed(room),
        "needed": _needed(room),
        "agreed": sorted(_of(room).votes),
        # Where the table stands: what a review names (the number of actions is public, every event tells one).
        "game_id": room.game_id if dealt else None,
        "ply": room.ply if dealt else 0,
    }
    seat = room.game_seat(conn.seat)  # a participant who waits at a Schnorps table of three or four: None
    check = declare_check(room.game, seat) if dealt and seat is not None else {}
    return {"hints": hints, "declare_check": check}


def _refusal(about: str, code: str, message: str) -> dict[str, Any]:
    return {**error_message(code, message), "about": about}


#: Starts a search in a background worker (a process below the bots' CPU priority); the future of its answer
#: (``BotScheduler.start_background``).
Start = Callable[[Callable[[], dict[str, Any]]], Awaitable["asyncio.Future[dict[str, Any]]"]]


class FairQueue:
    """``slots`` hints at a time; at most one waiting per client, and a freed slot goes to the waiting client
    served least recently (round robin over the clients that wait).

    >>> async def demo() -> list[str]:
    ...     queue, order = FairQueue(1), []
    ...     _ = queue.enter("flood")                           # runs at once
    ...     turns = {c: queue.enter(c) for c in ("flood", "anna")}
    ...     queue.release("flood")                             # the flood's first hint is done
    ...     order += [c for c, t in turns.items() if t.done()]
    ...     return order
    >>> asyncio.run(demo())
    ['anna']
    """

    def __init__(self, slots: int) -> None:
        self.free = max(1, slots)
        #: The waiting turn of each client, in arrival order.
        self._waiting: dict[str, asyncio.Future[None]] = {}
        #: Per client with a request running or waiting: its slots held, and the number of its last start.
        self._running: collections.Counter[str] = collections.Counter()
        self._served: dict[str, int] = {}
        self._starts = 0

    @property
    def waiting(self) -> int:
        return len(self._waiting)

    def holds(self, client: str) -> bool:
        """Whether ``client`` has a request waiting."""
        return client in self._waiting

    def enter(self, client: str) -> asyncio.Future[None]:
        """``client``'s turn: done at once if a slot is free, else when :meth:`release` hands it one.

        At most one per client may wait (the caller checks :meth:`holds`)."""
        assert client not in self._waiting, "one request per client waits"
        turn: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        if self.free > 0:
            self.free -= 1
            self._start(client, turn)
        else:
            self._waiting[client] = turn
        return turn

    def leave(self, client: str, turn: asyncio.Future[None]) -> None:
        """``client`` no longer waits for ``turn`` (its task ended): give back what it held."""
        if self._waiting.get(client) is turn:
            del self._waiting[client]
            self._forget(client)
        elif turn.done() and not turn.cancelled():
            self.release(client)

    def release(self, client: str) -> None:
        """A slot of ``client``'s is free again: the next client's turn."""
        self._running[client] -= 1
        if self._running[client] <= 0:
            del self._running[client]
        self._forget(client)
        while self._waiting:
            nxt = min(self._waiting, key=lambda c: self._served.get(c, -1))  # ties: the first to arrive
            turn = self._waiting.pop(nxt)
            if not turn.cancelled():  # a task cancelled as it waited leaves on its next step
                self._start(nxt, turn)
                return
            self._forget(nxt)
        self.free += 1

    def _start(self, client: str, turn: asyncio.Future[None]) -> None:
        self._starts += 1
        self._served[client] = self._starts
        self._running[client] += 1
        turn.set_result(None)

    def _forget(self, client: str) -> None:
        # Only clients with a request in hand are remembered: memory stays bounded by the requests.
        if client not in self._running and client not in self._waiting:
            self._served.pop(client, None)


class HintService:
    """The hints and reviews of one app's tables: the bounds, and the tasks that compute them."""

    def __init__(self, start: Start, settings: HintSettings | None = None) -> None:
        #: Starts a search in a background worker (a process below the bots): the event loop never searches.
        self.start = start
        self.settings = settings or HintSettings()
        self._queue: FairQueue | None = None
        self._tasks = TaskSet()

    @property
    def queue(self) -> FairQueue:
        if self._queue is None:
            self._queue = FairQueue(self.settings.running)
        return self._queue

    @property
    def waiting(self) -> int:
        """Hints and reviews waiting for their turn."""
        return self.queue.waiting

    # ----------------------------------------------------------------- messages
    async def vote(self, room: HintTable, conn: Connection, allow: bool) -> None:
        """``conn``'s seat votes for or against hints; everyone sees the agreement in the next ``state``."""
        if conn.seat is None:
            room.send(conn, _refusal("hints", "spectator", "a spectator has no vote on hints"))
            return
        async with room.lock:
            votes = _of(room).votes
            if allow:
                votes.add(conn.seat)
            else:
                votes.discard(conn.seat)
            room.touch()
            room.broadcast()

    def ask(self, room: HintTable, conn: Connection, ply: int | None = None, game_id: int | None = None) -> None:
        """A hint (``ply`` ``None``) or the review of the decision at ``ply`` of game ``game_id``; answered later.

        Refusals are sent at once; the computation runs as a task of its own.
        """
        about = "hint" if ply is None else "review"
        try:
            job = self._job(room, conn, about, ply, game_id)
        except _Refused as exc:
            room.send(conn, _refusal(about, exc.code, exc.message))
            return
        # The place in the queue is taken now, before the task runs: two asks in one turn of the loop count.
        turn = None if job.judged else self.queue.enter(conn.client)
        self._tasks.spawn(self._run(room, conn, job, turn))

    # ----------------------------------------------------------------- checks
    def _job(self, room: HintTable, conn: Connection, about: str, ply: int | None, game_id: int | None) -> _Job:
        if conn.seat is None:
            raise _Refused("spectator", "a spectator gets no hints; send hello with a seat token")
        seat = room.game_seat(conn.seat)
        if seat is None:  # a participant who waits at a Schnorps table of three or four
            raise _Refused("not_your_turn", "you wait this game: only its two players get hints")
        if room.data.tournament:
            raise _Refused("tournament", "a tournament's table gives no hints: the other entrants play without")
        if not allowed(room):
            raise _Refused("hints_off", self._why_off(room))
        if room.status == "waiting":
            raise _Refused("waiting", "not every invited friend has joined yet")
        game = room.game
        if ply is None:
            if game.is_over:
                raise _Refused("game_over", "the game is over: there is no decision to help with")
            if game.to_move != seat:
                raise _Refused("not_your_turn", f"it is seat {game.to_move}'s turn, not seat {seat}'s: ask at yours")
            view, chosen = view_to_json(game.view(seat)), None
        else:
            view, chosen = self._decision(room, seat, ply, game_id)
        state = _of(room)
        if seat in state.busy:
            raise _Refused("busy", "your previous hint or review is still being computed")
        at = room.ply if ply is None else ply
        advice = state.advice.get((room.game_id, at, seat))
        if chosen is None or advice is None:  # a search: the fair share of the client's address
            queue = self.queue
            if queue.holds(conn.client):
                raise _Refused("busy", "another hint or review of yours waits; ask again when it is answered")
            if queue.free == 0 and queue.waiting >= self.settings.waiting:
                raise _Refused("busy", "the server computes many hints now; ask again in a moment")
        now = time.monotonic()
        asked = state.asked.setdefault(seat, collections.deque())
        while asked and asked[0] <= now - 60.0:
            asked.popleft()
        if len(asked) >= self.settings.per_minute:
            wait = 60.0 - (now - asked[0])
            raise _Refused(
                "rate_limited",
                f"at most {self.settings.per_minute} hints and reviews a minute; try again in {wait:.0f} s",
            )
        asked.append(now)
        state.busy.add(seat)
        return _Job(seat, room.game_id, at, view, chosen, advice)

    def _why_off(self, room: HintTable) -> str:
        missing = [s for s in _needed(room) if s not in _of(room).votes]
        names = ", ".join(f"seat {s + 1} ({room.seat_name(s) or 'invited'})" for s in missing)
        return f"hints are off at this table until every player agrees: {names} has not agreed"

    @staticmethod
    def _decision(room: HintTable, seat: int, ply: int, game_id: int | None) -> tuple[dict[str, Any], str]:
        """The view ``seat`` had at ``ply`` of the game on the table, and what it chose there."""
        if game_id is not None and game_id != room.game_id:
            raise _Refused("stale", f"game {game_id} is no longer on the table")
        game = room.game
        if not 0 <= ply < len(game.actions):
            raise _Refused("bad_review", f"no action {ply} in this game yet (it has {len(game.actions)})")
        # The game's own actions from its deal: the view the seat had then, nothing it learnt later.
        then = Game.from_deck(game.variant, game.deck, game.dealer)
        for action in game.actions[:ply]:
            then.apply(action)
        if then.to_move != seat:
            raise _Refused("bad_review", f"action {ply} was seat {then.to_move}'s, not yours")
        return view_to_json(then.view(seat)), game.actions[ply].token

    # ----------------------------------------------------------------- computing
    async def _run(self, room: HintTable, conn: Connection, job: _Job, turn: asyncio.Future[None] | None) -> None:
        about = "hint" if job.chosen is None else "review"
        try:
            answer = await self._compute(job, conn.client, turn)
        except TimeoutError:
            room.send(conn, _refusal(about, "hint_timeout", f"the expert took over {self.settings.timeout:g} s"))
            return
        except Exception as exc:  # a failing search must not stop the table
            log.error("table %s: a %s failed: %s: %s", room.id, about, type(exc).__name__, exc)
            room.send(conn, _refusal(about, "hint_failed", f"the expert could not answer: {type(exc).__name__}"))
            return
        finally:
            _of(room).busy.discard(job.seat)
        if job.chosen is None:
            _of(room).keep((job.game_id, job.ply, job.seat), answer)
        room.send(conn, {"type": about, "game_id": job.game_id, "ply": job.ply, "seat": job.seat, **answer})

    async def _compute(self, job: _Job, client: str, turn: asyncio.Future[None] | None) -> dict[str, Any]:
        if turn is None:
            assert job.chosen is not None and job.advice is not None
            return judge(job.advice, job.chosen, job.seat)  # the hint of that decision: its values, no new search
        queue = self.queue
        started: asyncio.Future[dict[str, Any]] | None = None
        try:
            await turn
            settings = self._scaled()
            if job.chosen is None:
                work = functools.partial(advise, job.view, settings)
            else:
                work = functools.partial(review, job.view, job.chosen, settings)
            # From its turn on the answer has settings.timeout.
            async with asyncio.timeout(self.settings.timeout):
                started = await self.start(work)
                answer: dict[str, Any] = await asyncio.shield(started)
            return answer
        finally:
            if started is None:
                queue.leave(client, turn)
            else:  # the slot is held until the worker is really free
                started.add_done_callback(lambda _: queue.release(client))

    def _scaled(self) -> HintSettings:
        """The settings of a hint that starts now: its time cap shortened by the requests that wait."""
        s = self.settings
        if s.seconds is None or not self.queue.waiting:
            return s
        running = max(1, s.running)
        share = max(s.min_share, running / (running + self.queue.waiting))
        return dataclasses.replace(s, seconds=s.seconds * share)

    async def handle(
        self, room: HintTable, conn: Connection, message: HintMessage | ReviewMessage | HintsVoteMessage
    ) -> None:
        """Answer a seat's ``hint``, ``review`` or ``hints`` message (:mod:`bummerl.server.messages`)."""
        if isinstance(message, HintsVoteMessage):
            await self.vote(room, conn, message.allow)
        elif isinstance(message, ReviewMessage):
            self.ask(room, conn, message.ply, message.game_id)
        else:
            self.ask(room, conn)

    async def shutdown(self) -> None:
        await self._tasks.cancel_all()


@dataclasses.dataclass(frozen=True)
class _Job:
    seat: int
    game_id: int
    ply: int
    view: dict[str, Any]
    chosen: str | None
    #: The hint given for this decision, if any (a review judges with its values).
    advice: dict[str, Any] | None = None

    @property
    def judged(self) -> bool:
        """A review of a decision a hint was given for: judged with its values, no search."""
        return self.chosen is not None and self.advice is not None


class _Refused(RequestError):
    """A hint or review refused (sent with ``about`` naming the request)."""
