"""Two ``bummerl serve`` processes on one PostgreSQL serve the same tables (issue 14).

"Each table owned by one process through the database; actions and broadcasts
reach clients connected to the other process; a test starts two processes and
plays one table through both."  The main test runs two real ``bummerl serve``
processes on one throwaway PostgreSQL (``tests/pg_server.py``): a friends' table
made through A, the friend joining through B, each seat's WebSocket on its own
process, a whole game played in turns; then A is killed (SIGKILL) and the game
goes on through B.  The smaller tests hold the pieces to their promises: the
leases fence a process that lost its table, and the bus carries messages larger
than a NOTIFY payload whole and in order.

Skipped without PostgreSQL, except under ``CI``, where that fails (``pg_server``).

``python tests/test_server_cluster.py`` measures the extra latency of an action
relayed through the other process (docs/web.md, "More than one process").
"""

from __future__ import annotations

import pytest

pytest.importorskip("fastapi", reason="needs the 'web' extra: pip install -e '.[web]'")
pytest.importorskip("psycopg", reason="needs the 'postgres' extra: pip install -e '.[postgres]'")

import asyncio
import contextlib
import functools
import json
import random
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from websockets.sync.client import ClientConnection
from websockets.sync.client import connect as ws_connect

import live_server
import test_server_secrecy as two_player_secrecy
import test_server_table_games as table_secrecy
from bummerl.game import Game
from bummerl.server.app import create_app
from bummerl.server.bus import CHUNK, NotifyBus
from bummerl.server.cluster import conninfo
from bummerl.server.config import ServerConfig
from bummerl.server.leases import Leases
from bummerl.server.routes.deps import app_parts
from bummerl.server.storage import NotOwnerError, Repository, SeatData, _fenced_action, hash_token
from bummerl.server.workers import read_game_record
from live_server import ThreadServer, free_port
from pg_server import PostgresCluster, find_pg_bin, postgres_server, postgres_url, start_cluster

# Fixtures of pg_server used by this module (pytest finds fixtures by name in the module).
__all__ = ["postgres_server", "postgres_url"]

ROOT = Path(__file__).resolve().parent.parent
#: Short leases: a killed process's tables are taken over within about four seconds (a process starved of
#: the CPU for this long by a loaded machine would look dead, so not shorter).
LEASE = 3.0


# ---------------------------------------------------------------- a real `bummerl serve`
class Endpoint:
    """A server on 127.0.0.1: its HTTP API and its WebSockets."""

    def __init__(self, port: int) -> None:
        self.port = port

    def request(self, method: str, path: str, body: Any = None) -> tuple[int, Any]:
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(f"http://127.0.0.1:{self.port}{path}", data=data, method=method)
        request.add_header("Content-Type", "application/json")
        try:
            with urllib.request.urlopen(request, timeout=10) as answer:
                return answer.status, json.loads(answer.read() or b"null")
        except urllib.error.HTTPError as exc:
            return exc.code, json.loads(exc.read() or b"null")

    def call(self, method: str, path: str, body: Any = None) -> Any:
        status, data = self.request(method, path, body)
        assert status < 300, (status, data)
        return data

    def ws(self, path: str) -> ClientConnection:
        return ws_connect(
            f"ws://127.0.0.1:{self.port}{path}", proxy=None, open_timeout=5, ping_interval=None, legacy=True
        )


class Serve(Endpoint):
    """``python -m bummerl serve`` on a free port of 127.0.0.1, its output in a file."""

    def __init__(self, url: str, log: Path, *more: str) -> None:
        super().__init__(free_port())
        self.log = log
        command = [
            sys.executable,
            "-m",
            "bummerl",
            "serve",
            "--database-url",
            url,
            "--port",
            str(self.port),
            "--bot-workers",
            "1",
            "--bot-delay",
            "0",
            "--lease-seconds",
            str(LEASE),
            "--max-connections-per-client",
            "0",
            *more,
        ]
        with log.open("w") as out:
            self.process = subprocess.Popen(command, stdout=out, stderr=subprocess.STDOUT, cwd=ROOT)

    def wait_ready(self, timeout: float = 60.0) -> Serve:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            assert self.process.poll() is None, f"bummerl serve stopped:\n{self.output()}"
            with contextlib.suppress(OSError):
                if self.request("GET", "/api/variants")[0] == 200:
                    return self
            time.sleep(0.1)
        raise AssertionError(f"bummerl serve did not start in {timeout:.0f} s:\n{self.output()}")

    def output(self) -> str:
        return self.log.read_text(errors="replace")[-4000:]

    def kill(self) -> None:
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(10)

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(20)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(10)


@pytest.fixture
def processes(postgres_url: str, tmp_path: Path) -> Iterator[Callable[[], Serve]]:
    """Start ``bummerl serve`` processes on the test's own schema; all are stopped after the test."""
    started: list[Serve] = []

    def start() -> Serve:
        started.append(Serve(postgres_url, tmp_path / f"serve{len(started)}.log"))
        return started[-1]

    yield start
    for number, process in enumerate(started):
        process.stop()
        print(f"--- bummerl serve {number} (pid {process.process.pid}):\n{process.output()}")  # shown on a failure


class Player:
    """One seat's WebSocket: every message it got, and the latest ``state``."""

    def __init__(self, ws: ClientConnection, token: str | None, seat: int | None) -> None:
        self.ws, self.token, self.seat = ws, token, seat
        self.messages: list[dict[str, Any]] = []
        self.state: dict[str, Any] = {}

    def send(self, message: dict[str, Any]) -> None:
        self.ws.send(json.dumps(message))

    def receive(self, timeout: float = 10.0) -> dict[str, Any]:
        message: dict[str, Any] = json.loads(self.ws.recv(timeout=timeout))
        self.messages.append(message)
        if message["type"] == "state":
            self.state = message
        return message

    def until(self, done: Callable[[dict[str, Any]], bool], timeout: float = 10.0) -> dict[str, Any]:
        """Read messages until one satisfies ``done``; that one."""
        deadline = time.monotonic() + timeout
        while True:
            message = self.receive(max(0.1, deadline - time.monotonic()))
            if done(message):
                return message

    def next_state(self, timeout: float = 10.0) -> dict[str, Any]:
        message = self.receive(timeout)
        assert message["type"] == "state", message
        return message

    def hello(self) -> None:
        self.send({"type": "hello", "token": self.token})
        welcome = self.receive()
        assert welcome["type"] == "welcome" and welcome["seat"] == self.seat, welcome


def connected(*seats: int) -> Callable[[dict[str, Any]], bool]:
    def check(message: dict[str, Any]) -> bool:
        return message.get("type") == "state" and all(message["players"][s]["connected"] for s in seats)

    return check


def play_turns(
    players: list[Player],
    rng: random.Random,
    tokens: list[str],
    stop: Callable[[Player], bool] | None = None,
    pause: float = 0.0,
    declare: bool = True,
) -> list[tuple[int, float]]:
    """Play in turns until the game is over (or ``stop(mover)``): the mover sends a random legal action, and
    each player then gets exactly one state, with the same new events.  The tokens played are appended to
    ``tokens``; returns ``(seat, seconds from the action to the mover's own state)`` for every action.
    ``pause``: seconds to wait before each action (a client may send 10 messages a second).  ``declare=False``
    never declares while another action is legal, so that the game cannot end before ``stop``."""
    timings = []
    while players[0].state["status"] == "playing":
        mover = next(p for p in players if p.state["your_turn"])
        if stop is not None and stop(mover):
            break
        time.sleep(pause)
        legal = mover.state["legal"]
        if not declare:
            legal = [t for t in legal if not t.startswith("declare")] or legal
        token = rng.choice(legal)
        sent = time.perf_counter()
        mover.send({"type": "action", "action": token})
        states = [mover.next_state()]
        timings.append((mover.seat, time.perf_counter() - sent))
        states += [p.next_state() for p in players if p is not mover]
        tokens.append(token)
        # Both processes' clients see every move: the same public events, naming the card played.
        assert states[0]["events"] == states[1]["events"] and states[0]["events"], states
        if not token.startswith(("exchange", "close")):
            assert token.rpartition(":")[2] in json.dumps(states[0]["events"]), (token, states[0]["events"])
    return timings


def game_rows(cluster: PostgresCluster, schema: str, table_id: str) -> list[tuple[Any, ...]]:
    return cluster.sql(
        f"SELECT id, finished, result FROM {schema}.bummerl_games WHERE table_id = %s ORDER BY id", table_id
    )


def stored_tokens(cluster: PostgresCluster, schema: str, game_id: int) -> list[str]:
    rows = cluster.sql(f"SELECT token FROM {schema}.bummerl_actions WHERE game_id = %s ORDER BY ply", game_id)
    return [str(t) for (t,) in rows]


def holder_pid(cluster: PostgresCluster, schema: str, table_id: str) -> int | None:
    rows = cluster.sql(
        f"SELECT n.pid FROM {schema}.bummerl_table_owners o JOIN {schema}.bummerl_cluster_nodes n"
        " ON n.id = o.node_id AND n.expires_at > now() WHERE o.table_id = %s",
        table_id,
    )
    return int(rows[0][0]) if rows else None  # type: ignore[call-overload]


def wait_for(check: Callable[[], bool], timeout: float = 10.0) -> None:
    deadline = time.monotonic() + timeout
    while not check():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.05)


def check_secrecy(player: Player, states: list[dict[str, Any]], record: str, tokens: list[str]) -> None:
    """Each of ``states`` (the one after ``tokens[:k]`` for k = 0, 1, ...) names only cards the player may know."""
    read = read_game_record(record)
    game = Game.from_deck(read.variant, read.deck, read.dealer)
    for k, state in enumerate(states):
        if k:
            game.apply(tokens[k - 1])
        allowed = {c.code for c in two_player_secrecy.allowed_cards(game, player.seat)}
        leaked = two_player_secrecy.cards_named(state) - allowed
        assert not leaked, f"seat {player.seat} was told {leaked} after {k} actions"


# ---------------------------------------------------------------------------- the tests
def test_two_processes_play_one_table_and_the_second_goes_on_when_the_first_dies(
    processes: Callable[[], Serve], postgres_server: PostgresCluster, postgres_url: str
) -> None:
    schema = postgres_url.rpartition("application_name=")[2]
    a, b = processes(), processes()
    a.wait_ready(), b.wait_ready()
    rng = random.Random(14)

    # A friends' table made through A, the friend joining through B: A holds it (it made it).
    table = a.call("POST", "/api/tables", {"variant": "schnapsen", "opponent": "friend", "name": "Anna"})
    table_id = table["table_id"]
    joined = b.call("POST", "/api/join", {"code": table["join_code"], "name": "Bert"})
    assert (joined["table_id"], joined["seat"], joined["kind"]) == (table_id, 1, "two_player")
    assert holder_pid(postgres_server, schema, table_id) == a.process.pid
    # B answers for a table A holds: its summary (asked of A) and the list of tables of both processes.
    summary = b.call("GET", f"/api/tables/{table_id}")
    assert summary["status"] == "playing" and [p["name"] for p in summary["players"]] == ["Anna", "Bert"]
    assert [t["table_id"] for t in b.call("GET", "/api/tables")] == [table_id]
    assert b.request("GET", "/api/tables/nosuchtable")[0] == 404

    anna = Player(a.ws(table["ws_url"]), table["token"], 0)
    bert = Player(b.ws(joined["ws_url"]), joined["token"], 1)
    anna.hello()
    anna.until(connected(0))
    bert.hello()  # through B: A seats Bert, and Anna hears that he came
    bert.until(connected(0, 1))
    anna.until(connected(0, 1))
    players = [anna, bert]

    # A whole game, the two seats in turns, each on its own process.
    tokens: list[str] = []
    first = {p.seat: len(p.messages) - 1 for p in players}  # the states before the first action
    play_turns(players, rng, tokens)
    over = anna.state
    assert over["status"] == bert.state["status"] == "game_over"
    assert over["game_over"]["result"] == bert.state["game_over"]["result"]
    game_id = over["game_over"]["game_id"]
    # Stored once: one game row, finished, with the result both saw, and every action in order.
    wait_for(lambda: bool(game_rows(postgres_server, schema, table_id)[0][1]))
    rows = game_rows(postgres_server, schema, table_id)
    assert len(rows) == 1 and rows[0][0] == game_id and rows[0][1] is True
    assert json.loads(str(rows[0][2]))["winner"] == over["game_over"]["result"]["winner"]
    assert stored_tokens(postgres_server, schema, game_id) == tokens
    # No message named a card its seat may not know, on either process.
    record = b.call("GET", f"/api/games/{game_id}")["record"]
    for player in players:
        states = [m for m in player.messages[first[player.seat] :] if m["type"] == "state"]
        check_secrecy(player, states, record, tokens)
    assert not [m for p in players for m in p.messages if m["type"] == "error"]

    # The next game, dealt through A; play until it is Bert's turn, then A dies.
    anna.send({"type": "next_game"})
    anna.next_state(), bert.next_state()
    second: list[str] = []
    # (A random declaration could end the game first: the engine lets a player declare at any time.)
    play_turns(players, rng, second, stop=lambda mover: mover is bert and len(second) >= 2, declare=False)
    assert bert.state["your_turn"]
    last_seq = bert.state["seq"]
    a.kill()
    # Bert's action goes to the dead A and is lost; B takes the table when A's lease expires, tells Bert
    # to send it again, and shows the table (Anna is gone).
    bert.send({"type": "action", "action": bert.state["legal"][0]})
    error = bert.until(lambda m: m["type"] == "error", timeout=LEASE * 4 + 10)
    assert error["code"] == "storage"
    state = bert.next_state()
    assert state["your_turn"] and not state["players"][0]["connected"]
    assert state["seq"] > last_seq, "the page shows the new holder's states (it drops a lower seq)"
    assert holder_pid(postgres_server, schema, table_id) == b.process.pid
    # Anna comes back through B (as a load balancer would send her), and the game goes on to its end.
    anna = Player(b.ws(table["ws_url"]), table["token"], 0)
    anna.hello()
    anna.until(connected(0, 1))
    bert.until(connected(0, 1))
    players = [anna, bert]
    play_turns(players, rng, second)
    assert anna.state["status"] == bert.state["status"] == "game_over"
    second_id = anna.state["game_over"]["game_id"]
    wait_for(lambda: all(row[1] for row in game_rows(postgres_server, schema, table_id)))
    assert [row[0] for row in game_rows(postgres_server, schema, table_id)] == [game_id, second_id]
    assert stored_tokens(postgres_server, schema, second_id) == second

    # B stops normally: it lets its tables go and leaves the list of live processes at once.
    for player in players:
        player.ws.close()
    b.stop()
    assert postgres_server.sql(f"SELECT count(*) FROM {schema}.bummerl_table_owners") == [(0,)]
    assert postgres_server.sql(f"SELECT count(*) FROM {schema}.bummerl_cluster_nodes WHERE expires_at > now()") == [
        (0,)
    ]


def test_a_heartbeat_while_a_table_is_made_keeps_it(
    postgres_url: str, serve: Callable[..., ThreadServer], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The heartbeat let a table go that its process had taken but not yet made live (its first deal was being
    stored): the next write was refused and the player got ``storage`` for its move.  bench/web_load.py
    --processes 2 met it under load; here a beat runs in exactly that moment, and the player's moves are stored."""
    server = serve(database_url=postgres_url, lease_seconds=LEASE, idle_timeout=60.0, hello_timeout=10.0)
    manager = app_parts(server.uvicorn.app).manager
    cluster = manager.cluster
    assert cluster is not None
    real_open = manager._open

    async def open_after_a_beat(room: Any, creator: str | None) -> None:
        await cluster._beat()
        await real_open(room, creator)

    monkeypatch.setattr(manager, "_open", open_after_a_beat)
    table = Endpoint(server.port).call("POST", "/api/tables", {"opponent": "random", "name": "Anna", "seed": 5})
    assert table["table_id"] in manager.tables and table["table_id"] not in manager.loading
    with Endpoint(server.port).ws(table["ws_url"]) as ws:
        anna = Player(ws, table["token"], 0)
        anna.hello()
        for _ in range(3):
            while not anna.next_state()["your_turn"]:
                pass
            anna.send({"type": "action", "action": anna.state["legal"][0]})
    assert not [m for m in anna.messages if m["type"] == "error"]
    assert table["table_id"] in manager.tables


def test_a_process_whose_table_was_taken_can_store_nothing_for_it(postgres_url: str) -> None:
    """The lease is a fencing token: once B took the table of an A that stopped beating, A's writes are
    refused (even if A never noticed), and A's late release leaves B's lease alone."""
    repo = Repository(postgres_url)
    repo.create_schema()
    seats = [SeatData(0, "human", None, "Anna", True, None), SeatData(1, "bot", "random", None, False, None)]
    repo.create_table("t1", "schnapsen", {}, 7, 7, seats, {0: hash_token("s")})
    a = Leases(repo.engine, "a", ttl=0.3, host="here", pid=1)
    b = Leases(repo.engine, "b", ttl=30, host="here", pid=2)
    a.beat(), b.beat()
    lease_a = a.take("t1")
    assert not isinstance(lease_a, str)
    game_id = repo.start_game("t1", 0, 0, 1, "AhTh", None, lease_a)
    repo.append_action(game_id, 0, "Ah", lease_a)
    assert b.take("t1") == "a", "a live holder keeps its table"
    time.sleep(0.5)  # A's row expires: A stopped beating
    lease_b = b.take("t1")
    assert not isinstance(lease_b, str) and lease_b.generation == lease_a.generation + 1
    with pytest.raises(NotOwnerError):
        repo.append_action(game_id, 1, "Th", lease_a)
    with pytest.raises(NotOwnerError):
        repo.start_game("t1", 0, 1, 0, "ThAh", None, lease_a)
    repo.append_action(game_id, 1, "Th", lease_b)
    a.release([("t1", lease_a)])
    assert a.take("t1") == "b" and b.beat().held == {"t1": lease_b.generation}
    assert [g.actions for g in repo.load_table("t1").games] == [["Ah", "Th"]]
    assert a.beat(["t1"]).owners == {"t1": "b"}
    b.leave()
    assert b.beat().held == {} and a.take("t1") != "b"
    repo.dispose()


def test_a_take_waits_for_the_old_holders_write_in_flight(postgres_url: str) -> None:
    """A write of the old holder locks the owner row until it commits: the new holder's take waits for it, so
    the table it then loads has that action (a take in between would load the table without it)."""
    repo = Repository(postgres_url)
    repo.create_schema()
    seats = [SeatData(0, "human", None, "Anna", True, None), SeatData(1, "bot", "random", None, False, None)]
    repo.create_table("t1", "schnapsen", {}, 7, 7, seats, {0: hash_token("s")})
    a = Leases(repo.engine, "a", ttl=0.3, host="here", pid=1)
    b = Leases(repo.engine, "b", ttl=30, host="here", pid=2)
    a.beat(), b.beat()
    lease_a = a.take("t1")
    assert not isinstance(lease_a, str)
    game_id = repo.start_game("t1", 0, 0, 1, "AhTh", None, lease_a)
    time.sleep(0.5)  # A stopped beating: its tables may be taken
    taken: list[Any] = []
    with repo.engine.connect() as db:
        write = db.begin()
        values = {"game_id": game_id, "ply": 0, "token": "Ah", "created_at": "now"}
        assert db.execute(_fenced_action(values, lease_a)).first() is not None  # A's move, not committed yet
        taker = threading.Thread(target=lambda: taken.append(b.take("t1")))
        taker.start()
        taker.join(0.5)
        assert taker.is_alive() and not taken, "B's take waits for A's write"
        write.commit()
    taker.join(5)
    assert len(taken) == 1 and not isinstance(taken[0], str) and taken[0].generation == lease_a.generation + 1
    assert repo.load_table("t1").games[0].actions == ["Ah"]
    repo.dispose()


def test_the_bus_carries_long_messages_whole_and_in_order(postgres_url: str) -> None:
    """A message longer than a NOTIFY payload arrives whole, and one process's messages in the order sent."""

    async def run() -> list[dict[str, Any]]:
        got: list[dict[str, Any]] = []
        arrived = asyncio.Event()

        def receive(message: dict[str, Any]) -> None:
            got.append(message)
            if len(got) == 30:
                arrived.set()

        url = conninfo(postgres_url)
        sender = NotifyBus(url, "sender", lambda _m: None, lambda: None)
        receiver = NotifyBus(url, "receiver", receive, lambda: None)
        await receiver.start()
        await sender.start()
        for i in range(30):
            sender.send("receiver", {"i": i, "text": "é♥" * (i * 500)})
        async with asyncio.timeout(10):
            await arrived.wait()
        await sender.close()
        await receiver.close()
        return got

    got = asyncio.run(run())
    assert [m["i"] for m in got] == list(range(30))
    assert max(len(m["text"]) for m in got) * 6 > 10 * CHUNK  # several parts (ASCII JSON: \u escapes)
    assert all(m["text"] == "é♥" * (m["i"] * 500) for m in got)


@pytest.mark.parametrize(
    ("variant", "others"),
    [("schnapsen", {"opponent": "random"}), ("bauernschnapsen", {"bots": "random"})],
)
def test_bot_moves_at_one_process_reach_a_player_and_a_spectator_at_the_other(
    variant: str,
    others: dict[str, str],
    postgres_url: str,
    serve: Callable[..., ThreadServer],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Two apps in this process (uvicorn in threads) on one database: a bots' table held by A, its player
    and a spectator connected to B.  A's bots move and B's clients see it; every message A builds for
    them is scanned as it is built (the tap of tests/test_server_secrecy.py and test_server_table_games.py)."""
    scanner = two_player_secrecy.Scanner() if variant == "schnapsen" else table_secrecy.Scanner()
    monkeypatch.setattr(live_server, "create_app", functools.partial(create_app, tap=scanner))
    settings = {"database_url": postgres_url, "lease_seconds": 2.0, "idle_timeout": 60.0, "hello_timeout": 10.0}
    a = serve(**settings)
    monkeypatch.setattr(live_server, "create_app", create_app)
    b = serve(**settings)
    holder, other = (app_parts(s.uvicorn.app).manager for s in (a, b))
    table = Endpoint(a.port).call("POST", "/api/tables", {"variant": variant, "name": "Anna", "seed": 5, **others})
    table_id = table["table_id"]
    assert table_id in holder.tables
    with Endpoint(b.port).ws(table["ws_url"]) as anna_ws, Endpoint(b.port).ws(table["ws_url"]) as watcher_ws:
        watcher = Player(watcher_ws, None, None)
        watcher.hello()
        anna = Player(anna_ws, table["token"], 0)
        anna.hello()
        while anna.next_state(timeout=20)["status"] != "game_over":
            if anna.state["your_turn"]:
                anna.send({"type": "action", "action": anna.state["legal"][0]})
        watcher.until(lambda m: m.get("status") == "game_over", timeout=20)
    assert table_id not in other.tables, "B relayed the table; it never held it"
    bot_plays = [e for m in anna.messages if m["type"] == "state" for e in m["events"] if e.get("seat") != 0]
    assert bot_plays, "the bots' moves reached the player at B"
    assert all(m["view"]["hand"] == [] for m in watcher.messages if m["type"] == "state")
    assert scanner.leaks == []
    assert scanner.by_role["seat"] > 5 and scanner.by_role["spectator"] > 5


def test_cluster_mode_on_sqlite_is_refused(tmp_path: Path) -> None:
    """docs/web.md: ``--cluster`` needs PostgreSQL (LISTEN/NOTIFY); ``bummerl serve`` says so and exits with 2."""
    with pytest.raises(ValueError, match="needs PostgreSQL"):
        create_app(data_dir=tmp_path, config=ServerConfig(cluster=True))
    done = subprocess.run(
        [sys.executable, "-m", "bummerl", "serve", "--cluster", "--data-dir", str(tmp_path), "--port", "1"],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 2 and "cluster mode needs PostgreSQL" in done.stderr


# ------------------------------------------------------------------ the relay's latency
def measure(games: int = 20) -> None:
    """Print how long an action takes from the mover's send to its own new state, over ``games`` games of a
    friends' table: with the seats on two processes (the seat on the holding process: direct; the seat on the
    other one: relayed through NOTIFY both ways), and with both seats on one process started ``--no-cluster``."""
    bin_dir = find_pg_bin()
    assert bin_dir is not None, "no PostgreSQL server binaries"
    with start_cluster(bin_dir) as cluster, tempfile.TemporaryDirectory() as logs:
        for label, extra in (("cluster", ()), ("one process --no-cluster", ("--no-cluster",))):
            url = cluster.new_schema()
            with contextlib.ExitStack() as stack:
                count = 1 if extra else 2
                servers = [Serve(url, Path(logs) / f"{label}{i}.log", *extra) for i in range(count)]
                for server in servers:
                    stack.callback(server.stop)
                    server.wait_ready()
                a, b = servers[0], servers[-1]
                timings = _timed_games(a, b, games)
            names = {0: "direct", 1: "relayed"} if not extra else {0: "seat 0", 1: "seat 1"}
            for seat in (0, 1):
                ms = sorted(t * 1000 for s, t in timings if s == seat)
                p90 = ms[int(len(ms) * 0.9)]
                print(
                    f"{label}, {names[seat]}: {len(ms)} actions, median {statistics.median(ms):.1f} ms, "
                    f"p90 {p90:.1f} ms"
                )


def _timed_games(a: Endpoint, b: Endpoint, games: int) -> list[tuple[int, float]]:
    """``games`` games of a friends' table made through ``a``, seat 0 connected to ``a`` and seat 1 to ``b``."""
    rng = random.Random(1)
    timings: list[tuple[int, float]] = []
    table = a.call("POST", "/api/tables", {"variant": "schnapsen", "opponent": "friend", "name": "Anna"})
    joined = b.call("POST", "/api/join", {"code": table["join_code"], "name": "Bert"})
    anna = Player(a.ws(table["ws_url"]), table["token"], 0)
    bert = Player(b.ws(joined["ws_url"]), joined["token"], 1)
    anna.hello()
    anna.until(connected(0))
    bert.hello()
    bert.until(connected(0, 1))
    anna.until(connected(0, 1))
    for n in range(games):
        timings += play_turns([anna, bert], rng, [], pause=0.12)
        if n + 1 < games:
            time.sleep(0.12)
            anna.send({"type": "next_game"})
            anna.next_state(), bert.next_state()
    anna.ws.close()
    bert.ws.close()
    return timings


if __name__ == "__main__":
    measure(int(sys.argv[1]) if len(sys.argv) > 1 else 20)
