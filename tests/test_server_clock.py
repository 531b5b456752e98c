"""The move clock of a table (bummerl.server.clock; docs/web.md "Clocks", issue 24).

The clock's logic runs on an injected time and timer (:class:`FakeTime`), so
nothing here sleeps for a clock to run out: the unit tests drive a
:class:`MoveClock` alone, the table tests hand the app's rooms the same fake
(``RoomServices.clock_now`` and ``timers``) and advance it on the app's event
loop (``client.portal``).  The API tests check ``move_seconds``'s bounds.
"""

from __future__ import annotations

import pytest

pytest.importorskip("fastapi", reason="needs the 'web' extra: pip install -e '.[web]'")

import contextlib
import dataclasses
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, TypeVar

from fastapi.testclient import TestClient
from starlette.testclient import WebSocketTestSession

from bummerl.server.app import create_app
from bummerl.server.clock import MAX_MOVE_SECONDS, MIN_MOVE_SECONDS, ClockRules, MoveClock
from bummerl.server.config import ServerConfig
from bummerl.server.rooms import Room
from bummerl.server.routes.deps import app_parts
from bummerl.server.storage import StorageError

T = TypeVar("T")


class FakeTimer:
    def __init__(self, when: float, callback: Callable[[], None]) -> None:
        self.when = when
        self.callback = callback
        self.cancelled = False

    def cancel(self) -> None:
        self.cancelled = True


class FakeTime:
    """A monotonic time that moves only when told, and the timers on it."""

    def __init__(self) -> None:
        self.t = 1000.0
        self.timers: list[FakeTimer] = []

    def now(self) -> float:
        return self.t

    def call_later(self, delay: float, callback: Callable[[], None]) -> FakeTimer:
        timer = FakeTimer(self.t + delay, callback)
        self.timers.append(timer)
        return timer

    def pending(self) -> list[FakeTimer]:
        return [t for t in self.timers if not t.cancelled]

    def advance(self, seconds: float) -> None:
        """Move the time on, firing each timer that comes due, in order."""
        end = self.t + seconds
        while True:
            due = sorted((t for t in self.pending() if t.when <= end), key=lambda t: t.when)
            if not due:
                break
            timer = due[0]
            self.t = max(self.t, timer.when)
            timer.cancelled = True  # fired: a timer fires once
            timer.callback()
        self.t = end


# ------------------------------------------------------------------ the clock alone
def make_clock(
    move: float = 30, grace: float = 10, strikes: int = 3
) -> tuple[MoveClock, FakeTime, list[tuple[int, tuple[int, int]]]]:
    fake = FakeTime()
    fired: list[tuple[int, tuple[int, int]]] = []
    clock = MoveClock(ClockRules(move, grace, strikes), fake.now, fake.call_later, lambda s, p: fired.append((s, p)))
    return clock, fake, fired


def test_a_turn_counts_down_and_comes_due_at_its_deadline() -> None:
    clock, fake, fired = make_clock()
    clock.update(0, (1, 0))
    assert clock.remaining() == (0, 30_000)
    fake.advance(12.5)
    assert clock.remaining() == (0, 17_500)
    assert not clock.stand_in(0, (1, 0))
    fake.advance(17.5)
    assert fired == [(0, (1, 0))] and clock.stand_in(0, (1, 0)) and clock.reason == "time"
    assert clock.remaining() == (0, 0)


def test_the_same_turn_keeps_its_deadline_and_a_new_one_gets_a_full_period() -> None:
    clock, fake, fired = make_clock()
    clock.update(0, (1, 0))
    fake.advance(20)
    clock.update(0, (1, 0))  # a broadcast of the same position (a reconnect): the deadline stays
    assert clock.remaining() == (0, 10_000)
    clock.update(1, (1, 1))  # the next move
    assert clock.remaining() == (1, 30_000)
    assert len(clock_timers := fake.pending()) == 1  # at most one timer per room
    fake.advance(29)
    assert fired == [] and clock_timers[0].when == 1050.0


def test_no_clock_runs_while_nobody_human_is_to_move() -> None:
    clock, fake, fired = make_clock()
    clock.update(0, (1, 0))
    clock.update(None, (1, 0))  # the game is over, or a bot is to move, or a friend is missing
    assert clock.remaining() is None and not clock.running and fake.pending() == []
    fake.advance(100)
    assert fired == []


def test_a_player_away_is_moved_for_after_the_grace_from_their_leaving_or_the_turns_start() -> None:
    clock, fake, fired = make_clock(move=30, grace=10)
    clock.update(0, (1, 0))
    fake.advance(5)
    clock.presence(0, False)
    assert clock.json() == {
        "seat": 0,
        "remaining_ms": 25_000,
        "move_seconds": 30,
        "away": True,
        "strikes": 0,
        "max_strikes": 3,
    }
    fake.advance(9.9)
    assert fired == []
    fake.advance(0.1)  # 10 s after leaving, 15 s before the deadline
    assert fired == [(0, (1, 0))] and clock.reason == "away"
    # Away long before the next turn: the grace counts from that turn's start, not instantly.
    clock.struck(0)
    clock.update(0, (1, 2))
    fake.advance(9.9)
    assert len(fired) == 1
    fake.advance(0.1)
    assert fired[-1] == (0, (1, 2))


def test_coming_back_within_the_grace_gives_the_whole_move_back() -> None:
    clock, fake, fired = make_clock(move=30, grace=10)
    clock.update(0, (1, 0))
    clock.presence(0, False)
    fake.advance(8)
    clock.presence(0, True)
    fake.advance(21.9)
    assert fired == []
    fake.advance(0.1)
    assert fired == [(0, (1, 0))] and clock.reason == "time"


def test_the_grace_is_never_longer_than_the_move() -> None:
    assert ClockRules(5, 30, 3).grace == 5 and ClockRules(60, 30, 3).grace == 30


def test_strikes_take_the_seat_over_for_the_rest_of_the_game_and_a_returning_player_gets_it_back() -> None:
    clock, _fake, _fired = make_clock(strikes=2)
    assert clock.struck(1) is False and clock.strikes == {1: 1}
    assert clock.struck(1) is True and clock.abandoned() == [1]
    assert clock.stand_in(1, (1, 9))  # any position: the bot plays the seat now
    clock.update(1, (1, 9))
    assert not clock.running  # a taken-over seat has no clock
    clock.new_game(connected=[0])  # seat 1's player is still away: the bot keeps the seat
    assert clock.abandoned() == [1] and clock.strikes == {}
    clock.new_game(connected=[0, 1])  # back: the seat is theirs again
    assert clock.abandoned() == [] and not clock.stand_in(1, (2, 0))


def test_a_human_move_before_the_timer_clears_the_due_turn() -> None:
    clock, fake, _fired = make_clock()
    clock.update(0, (1, 0))
    fake.advance(30)
    assert clock.stand_in(0, (1, 0))
    clock.update(1, (1, 1))  # the human's move got in first: the table moved on
    assert not clock.stand_in(0, (1, 0)) and not clock.stand_in(1, (1, 1))


# ------------------------------------------------------------------ the API
CONFIG = ServerConfig(
    bot_executor="thread", bot_workers=2, analysis_executor="thread", analysis_level="easy", clock_strikes=2
)


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(create_app(data_dir=tmp_path, config=CONFIG)) as c:
        yield c


@pytest.mark.parametrize("bad", [MIN_MOVE_SECONDS - 1, MAX_MOVE_SECONDS + 1, 0, -5, "30", 30.5, True])
def test_move_seconds_out_of_bounds_or_not_a_whole_number_is_a_clear_422(client: TestClient, bad: Any) -> None:
    response = client.post("/api/tables", json={"move_seconds": bad})
    assert response.status_code == 422, response.text
    (problem,) = response.json()["detail"]
    assert problem["loc"][-1] == "move_seconds"


def test_a_table_has_no_clock_unless_asked_and_keeps_the_one_it_was_given(client: TestClient) -> None:
    plain = client.post("/api/tables", json={}).json()
    assert plain["move_seconds"] is None
    assert client.get(f"/api/tables/{plain['table_id']}").json()["move_seconds"] is None
    for seconds in (MIN_MOVE_SECONDS, MAX_MOVE_SECONDS):
        clocked = client.post("/api/tables", json={"move_seconds": seconds}).json()
        assert clocked["move_seconds"] == seconds
        assert client.get(f"/api/tables/{clocked['table_id']}").json()["move_seconds"] == seconds


# ------------------------------------------------------------------ a live table
@pytest.fixture
def fake(client: TestClient) -> FakeTime:
    """The app's rooms run their clocks on a fake time (tables made after this)."""
    manager = app_parts(client.app).manager
    fake = FakeTime()
    manager.services = dataclasses.replace(manager.services, clock_now=fake.now, timers=fake.call_later)
    return fake


def friend_table(client: TestClient, **body: Any) -> tuple[dict[str, Any], dict[str, Any]]:
    table = client.post("/api/tables", json={"opponent": "friend", "name": "Anna", **body}).json()
    friend = client.post("/api/join", json={"code": table["join_code"], "name": "Bert"}).json()
    return table, friend


def hello(ws: WebSocketTestSession, token: str | None) -> dict[str, Any]:
    ws.send_json({"type": "hello", "token": token})
    assert ws.receive_json()["type"] == "welcome"
    state: dict[str, Any] = ws.receive_json()
    return state


Sockets = tuple[WebSocketTestSession, WebSocketTestSession, WebSocketTestSession]


@contextlib.contextmanager
def seated(
    client: TestClient, table: dict[str, Any], friend: dict[str, Any]
) -> Iterator[tuple[Sockets, dict[int | None, dict[str, Any]]]]:
    """Anna (seat 0) and Bert (seat 1) connected to ``table``, and a spectator: the three sockets, and the state
    each one saw once all three were there (by seat; ``None``: the spectator)."""
    url = table["ws_url"]
    with (
        client.websocket_connect(url) as anna,
        client.websocket_connect(url) as bert,
        client.websocket_connect(url) as watcher,
    ):
        hello(anna, table["token"])
        s1 = hello(bert, friend["token"])
        s0: dict[str, Any] = anna.receive_json()  # Bert came: Anna hears it
        seen = hello(watcher, None)
        yield (anna, bert, watcher), {0: s0, 1: s1, None: seen}


def until(ws: WebSocketTestSession, predicate: Callable[[dict[str, Any]], bool]) -> dict[str, Any]:
    for _ in range(300):
        message: dict[str, Any] = ws.receive_json()
        if predicate(message):
            return message
    raise AssertionError("the expected message never came")


def on_loop(client: TestClient, fn: Callable[..., T], *args: Any) -> T:
    """Run ``fn`` on the app's event loop (the rooms and their clocks live there) and return its result."""
    portal = client.portal
    assert portal is not None
    return portal.call(fn, *args)


def room_of(client: TestClient, table_id: str) -> Room:
    room: Room = app_parts(client.app).manager.tables[table_id]
    return room


def test_every_seat_and_spectator_sees_the_clock_and_the_silent_seat_is_moved_for(
    client: TestClient, fake: FakeTime
) -> None:
    table, friend = friend_table(client, move_seconds=20)
    with seated(client, table, friend) as ((ws0, ws1, watcher), states):
        mover = states[0]["to_move"]
        for state in states.values():
            assert state["clock"]["seat"] == mover and state["clock"]["remaining_ms"] == 20_000
        on_loop(client, fake.advance, 20)
        ws_mover = ws0 if mover == 0 else ws1
        moved = until(watcher, lambda m: m["type"] == "state" and m["events"])
        kinds = [e["type"] for e in moved["events"]]
        assert kinds[0] == "timeout" and len(kinds) > 1  # the move (a card, an exchange, ...) follows
        assert moved["events"][0] == {
            "type": "timeout",
            "seat": mover,
            "reason": "time",
            "strikes": 1,
            "taken_over": False,
        }
        assert moved["clock"]["seat"] != mover or moved["to_move"] == mover  # the next turn is on the clock
        # The seat that timed out plays on normally.
        after = until(ws_mover, lambda m: m["type"] == "state" and m["events"])
        assert after["events"][0]["type"] == "timeout"


def test_a_human_move_racing_the_stand_in_wins_and_counts_no_strike(client: TestClient, fake: FakeTime) -> None:
    table, friend = friend_table(client, move_seconds=20)
    with client.websocket_connect(table["ws_url"]) as ws0, client.websocket_connect(table["ws_url"]) as ws1:
        hello(ws0, table["token"])
        s1 = hello(ws1, friend["token"])
        s0 = ws0.receive_json()
        states = {0: s0, 1: s1}
        mover = s0["to_move"]
        room = room_of(client, table["table_id"])

        def expire_and_move() -> None:
            # The deadline passes and the human's action is handled on the same loop turn: the lock orders them.
            fake.advance(20)

        sock = ws0 if mover == 0 else ws1
        sock.send_json({"type": "action", "action": states[mover]["legal"][0]})
        on_loop(client, expire_and_move)
        state = until(sock, lambda m: m["type"] == "state" and m["events"])
        played = [e for e in state["events"] if e["type"] != "timeout"]
        assert played and room.ply >= 1
        # Whoever got in first, the table took exactly one move for that turn.
        timeouts = [e for e in state["events"] if e["type"] == "timeout"]
        assert len(timeouts) <= 1
        assert room.clock is not None and sum(room.clock.strikes.values()) == len(timeouts)


def snapshot(client: TestClient, table_id: str) -> tuple[str, int, int | None, bool, bool]:
    """``(status, ply, table seat to move, seat 0 taken over, a bot thinking)``, read on the app's loop."""

    def read() -> tuple[str, int, int | None, bool, bool]:
        room = room_of(client, table_id)
        seat = room.players_now[room.game.to_move] if room.status == "playing" else None
        thinking = room.bot_task is not None and not room.bot_task.done()
        return room.status, room.ply, seat, room.taken_over(0), thinking

    return on_loop(client, read)


def wait_for(condition: Callable[[], bool]) -> None:
    deadline = time.monotonic() + 10
    while not condition():
        assert time.monotonic() < deadline, "the table never got there"
        time.sleep(0.01)


def moved_on(client: TestClient, table_id: str, ply: int) -> Callable[[], bool]:
    """Whether the table played past ``ply`` or its game is over."""

    def check() -> bool:
        status, now, *_ = snapshot(client, table_id)
        return now > ply or status != "playing"

    return check


def test_repeated_timeouts_abandon_the_game_and_the_stored_result_says_so(client: TestClient, fake: FakeTime) -> None:
    """With two strikes (the test's config) seat 0, which never moves, is taken over after its second time-out;
    seat 1 plays on; the finished game's stored result names seat 0 as abandoned (what the ratings read)."""
    table, friend = friend_table(client, move_seconds=5)
    table_id = table["table_id"]
    timeouts: list[dict[str, Any]] = []
    with client.websocket_connect(table["ws_url"]) as ws0, client.websocket_connect(table["ws_url"]) as ws1:
        hello(ws0, table["token"])
        hello(ws1, friend["token"])
        refused = False
        while (now := snapshot(client, table_id))[0] == "playing":
            _status, ply, seat, taken, thinking = now
            if thinking:
                time.sleep(0.01)
                continue
            if seat == 1:
                legal = on_loop(client, lambda: room_of(client, table_id).game.legal_actions()[0].token)
                ws1.send_json({"type": "action", "action": legal})
            elif not taken:
                on_loop(client, fake.advance, 5)
            elif not refused:
                ws0.send_json({"type": "action", "action": "Ah"})
                error = until(ws0, lambda m: m["type"] == "error")
                assert error["code"] == "taken_over"
                refused = True
                continue
            wait_for(moved_on(client, table_id, ply))
        ws0.send_json({"type": "ping"})
        while (message := ws0.receive_json()) != {"type": "pong"}:
            if message["type"] == "state":
                timeouts += [e for e in message["events"] if e["type"] == "timeout"]
                last = message
        assert [(t["seat"], t["strikes"], t["taken_over"]) for t in timeouts] == [(0, 1, False), (0, 2, True)]
        assert last["game_over"] is not None and last["clock"] is None  # no clock while the next deal waits
        assert last["taken_over"] == [0]
        # Anna is still at the table: at the next deal her seat is hers again, with a clean slate.
        ws1.send_json({"type": "next_game"})
        wait_for(lambda: snapshot(client, table_id)[0] == "playing")
        assert not snapshot(client, table_id)[3]
        assert until(ws0, lambda m: m["type"] == "state" and m["game_over"] is None)["taken_over"] == []
        assert on_loop(client, lambda: dict(room_of(client, table_id).clock.strikes)) == {}  # type: ignore[union-attr]
    repo = app_parts(client.app).repo
    wait_for(lambda: repo.load_table(table_id).games[0].finished)
    stored = repo.load_table(table_id).games[0]
    assert stored.result is not None and stored.result["abandoned"] == [0]


def test_a_reloaded_table_gives_the_seat_to_move_a_fresh_full_period(tmp_path: Path) -> None:
    """docs/web.md: the deadline is kept in memory; after a restart the seat to move gets the whole time again,
    and the clock is not running before a player of the table could come back."""
    with TestClient(create_app(data_dir=tmp_path, config=CONFIG)) as first:
        table, _friend = friend_table(first, move_seconds=30)
    with TestClient(create_app(data_dir=tmp_path, config=CONFIG)) as second:
        manager = app_parts(second.app).manager
        fake = FakeTime()
        manager.services = dataclasses.replace(manager.services, clock_now=fake.now, timers=fake.call_later)
        with second.websocket_connect(table["ws_url"]) as ws:
            state = hello(ws, table["token"])
            assert state["clock"]["remaining_ms"] == 30_000 and state["clock"]["seat"] == state["to_move"]
            on_loop(second, fake.advance, 29)
            assert room_of(second, table["table_id"]).ply == 0


@pytest.mark.parametrize(
    ("variant", "seats"),
    [("schnorps", ["friend", "friend"]), ("bauernschnapsen", ["friend", "random", "friend"])],
    ids=["schnorps-round-of-three", "bauernschnapsen"],
)
def test_the_clock_times_table_seats_at_every_table_size(
    client: TestClient, fake: FakeTime, variant: str, seats: list[str]
) -> None:
    """A Schnorps round of three (game seats are not table seats; one participant waits) and Bauernschnapsen (bids,
    then cards): the clock names the table seat to move, the stand-in moves for it (bidding too), and the seats
    that ran out twice are the ones the stored result names abandoned.

    A Bauernschnapsen deal that three Unter throw in (seeds/003) ends after the bids, before any seat ran out
    twice: such a table is left and another one timed."""
    for _ in range(6):
        timeouts, humans, result = _timed_out_game(client, fake, variant, seats)
        if result["reason"] != "redeal":
            break
    else:
        raise AssertionError("six deals in a row were thrown in")
    assert timeouts and {t["seat"] for t in timeouts} <= humans
    abandoned = sorted({t["seat"] for t in timeouts if t["taken_over"]})
    assert abandoned and result["abandoned"] == abandoned


def _timed_out_game(
    client: TestClient, fake: FakeTime, variant: str, seats: list[str]
) -> tuple[list[dict[str, Any]], set[int], dict[str, Any]]:
    """A new clocked table's first game, every human move left to run out: the time-outs the table's socket
    sent, the human seats, and the game's stored result."""
    made = client.post("/api/tables", json={"variant": variant, "seats": seats, "name": "Anna", "move_seconds": 10})
    table = made.json()
    assert made.status_code == 201, table
    for code in table["join_codes"].values():
        client.post("/api/join", json={"code": code, "name": "Friend"})
    table_id = table["table_id"]
    humans = {0, *(int(s) for s in table["join_codes"])}
    timeouts: list[dict[str, Any]] = []
    with client.websocket_connect(table["ws_url"]) as watcher:
        hello(watcher, None)
        while (now := snapshot(client, table_id))[0] == "playing":
            _status, ply, seat, _taken, thinking = now
            if thinking or seat not in humans:
                time.sleep(0.01)
                continue
            state = on_loop(client, lambda: room_of(client, table_id).clock.json())  # type: ignore[union-attr]
            assert state is not None and state["seat"] == seat
            on_loop(client, fake.advance, 10)
            wait_for(moved_on(client, table_id, ply))
        watcher.send_json({"type": "ping"})
        while (message := watcher.receive_json()) != {"type": "pong"}:
            if message["type"] == "state":
                timeouts += [e for e in message["events"] if e["type"] == "timeout"]
    repo = app_parts(client.app).repo
    wait_for(lambda: repo.load_table(table_id).games[0].finished)
    result = repo.load_table(table_id).games[0].result
    assert result is not None
    return timeouts, humans, result


def test_a_table_leaves_memory_only_once_its_clock_stops_and_a_lost_table_stops_its_clock(
    client: TestClient, fake: FakeTime
) -> None:
    """At most one timer per table, and none left behind: an idle table whose clock runs stays (its game plays out
    with the stand-in), and a table another process took (cluster: ``Room.stop_clock``) has no timer any more."""
    table, _friend = friend_table(client, move_seconds=30)
    manager = app_parts(client.app).manager
    room = room_of(client, table["table_id"])
    assert len(fake.pending()) == 1 and room.clock is not None and room.clock.running
    assert on_loop(client, manager.evict_idle, 0.0) == []  # nobody connected, but the clock runs
    on_loop(client, room.stop_clock)
    assert fake.pending() == [] and not room.clock.running
    ply = room.ply
    on_loop(client, fake.advance, 120)
    time.sleep(0.2)
    assert room.ply == ply  # nothing moved for a table this process no longer holds
    assert on_loop(client, manager.evict_idle, 0.0) == [table["table_id"]]


# ------------------------------------------------------------------ a restart
@contextlib.contextmanager
def restarted(tmp_path: Path) -> Iterator[tuple[TestClient, FakeTime]]:
    """A new app on the same database (a restart), its rooms on a fake time (tables are loaded when first asked)."""
    with TestClient(create_app(data_dir=tmp_path, config=CONFIG)) as client:
        manager = app_parts(client.app).manager
        fake = FakeTime()
        manager.services = dataclasses.replace(manager.services, clock_now=fake.now, timers=fake.call_later)
        yield client, fake


def play_seat_1_until(
    client: TestClient, fake: FakeTime, table_id: str, ws1: WebSocketTestSession, done: Callable[[], bool]
) -> None:
    """Seat 1 plays its first legal action, seat 0 never moves (its time runs out), until ``done()``."""
    while not done():
        status, ply, seat, taken, thinking = snapshot(client, table_id)
        assert status == "playing", "the game ended first"
        if thinking or (seat == 0 and taken):
            time.sleep(0.01)
            continue
        if seat == 1:
            legal = on_loop(client, lambda: room_of(client, table_id).game.legal_actions()[0].token)
            ws1.send_json({"type": "action", "action": legal})
        else:
            on_loop(client, fake.advance, 5)
        wait_for(moved_on(client, table_id, ply))


def test_a_restart_keeps_the_strikes_the_log_lines_the_takeover_and_the_abandoned_result(tmp_path: Path) -> None:
    """docs/web.md (clocks): which moves the stand-in played is stored with them, so a table reloaded after a
    restart counts seat 0's strike again, shows the log's line, takes the seat over at the next strike as if
    nothing had happened, keeps it taken over after another restart, and the game's result, written only by the
    load after yet another restart (the database refused it), names seat 0 as abandoned."""
    with restarted(tmp_path) as (first, fake):
        table, friend = friend_table(first, move_seconds=5)
        table_id = table["table_id"]
        with first.websocket_connect(table["ws_url"]) as ws1:
            hello(ws1, friend["token"])
            play_seat_1_until(first, fake, table_id, ws1, lambda: bool(room_of(first, table_id).timeouts))

    with (
        restarted(tmp_path) as (second, fake),
        second.websocket_connect(table["ws_url"]) as ws0,
        second.websocket_connect(table["ws_url"]) as ws1,
    ):
        ws0.send_json({"type": "hello", "token": table["token"]})
        welcome = ws0.receive_json()
        lines = [e for e in welcome["log"] if e["type"] == "timeout"]
        assert lines == [{"type": "timeout", "seat": 0, "reason": "time", "strikes": 1, "taken_over": False}]
        room = room_of(second, table_id)
        assert room.clock is not None and room.clock.strikes == {0: 1} and not room.taken_over(0)
        hello(ws1, friend["token"])
        play_seat_1_until(second, fake, table_id, ws1, lambda: room_of(second, table_id).taken_over(0))
        assert on_loop(second, lambda: [e["strikes"] for e in room.timeouts.values()]) == [1, 2]

    def refuse(game_id: int, result: dict[str, Any], record: str) -> None:
        raise StorageError(f"game {game_id}, result: OperationalError: database is locked")

    with restarted(tmp_path) as (third, fake):
        repo = app_parts(third.app).repo
        repo.finish_game = refuse  # type: ignore[method-assign]
        with third.websocket_connect(table["ws_url"]) as ws1:
            hello(ws1, friend["token"])
            room = room_of(third, table_id)
            assert room.taken_over(0) and room.clock is not None and room.clock.strikes == {0: 2}
            while (now := snapshot(third, table_id))[0] == "playing":
                _status, ply, seat, taken, thinking = now
                assert seat == 1 or taken, "seat 0 is the stand-in's until the game ends"
                if seat == 1 and not thinking:
                    legal = on_loop(third, lambda: room.game.legal_actions()[0].token)
                    ws1.send_json({"type": "action", "action": legal})
                wait_for(moved_on(third, table_id, ply))
        assert repo.load_table(table_id).games[0].finished is False

    with restarted(tmp_path) as (fourth, _fake):
        assert fourth.get(f"/api/tables/{table_id}").status_code == 200  # loaded: its result is stored again
        repo = app_parts(fourth.app).repo
        wait_for(lambda: repo.load_table(table_id).games[0].finished)
        result = repo.load_table(table_id).games[0].result
        assert result is not None and result["abandoned"] == [0]
