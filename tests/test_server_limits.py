"""Every input is bounded, and a misbehaving client costs itself (issue #10, finding 6; docs/security.md).

One client created 6,173 tables in 60 s; 40 tables against ``expert`` delayed other tables' bots by 32 s; the
analysis queue had no end.  Now table creation, joining and analyses are rate-limited per client (429 with
Retry-After), a client holds a bounded number of tables and the server a bounded total (429 / 503), the
analyses waiting are bounded (503), and bots share the workers fairly: a quick bot never waits behind a search,
and searches think less when many wait (:mod:`bummerl.server.scheduler`).
"""

from __future__ import annotations

import pytest

pytest.importorskip("fastapi", reason="needs the 'web' extra: pip install -e '.[web]'")

import threading
import time
import warnings
from pathlib import Path
from typing import Any, ClassVar

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

from bummerl.actions import Action
from bummerl.bots import RandomBot, register_bot
from bummerl.match import Session
from bummerl.server.app import create_app
from bummerl.server.config import ServerConfig
from bummerl.server.routes.deps import app_parts
from bummerl.view import PlayerView

BASE = ServerConfig(bot_executor="thread", analysis_executor="thread", analysis_level="easy", api_rate="1000/second")


def app(tmp_path: Path, **changes: Any) -> TestClient:
    import dataclasses

    return TestClient(create_app(data_dir=tmp_path, config=dataclasses.replace(BASE, **changes)))


def test_creating_tables_is_rate_limited_per_client(tmp_path: Path) -> None:
    with app(tmp_path, create_rate="3/minute") as client:
        made = [client.post("/api/tables", json={"opponent": "random"}) for _ in range(3)]
        assert [r.status_code for r in made] == [201, 201, 201]
        refused = client.post("/api/tables", json={"variant": "dreierschnapsen", "bots": "random"})
        assert refused.status_code == 429 and refused.json()["detail"]["code"] == "rate_limited"
        assert 0 < int(refused.headers["retry-after"]) <= 60
        # Another client (another address) has its own allowance.
        other = client.post("/api/tables", json={"opponent": "random"}, headers={"X-Forwarded-For": "198.51.100.9"})
        assert other.status_code in (201, 429)  # the test client's address is not a trusted proxy: 429 is right


def test_joining_is_rate_limited_per_client(tmp_path: Path) -> None:
    with app(tmp_path, join_rate="2/minute") as client:
        codes = ["no-such-code-1", "no-such-code-2", "no-such-code-3"]
        answers = [client.post("/api/join", json={"code": c, "name": "Bert"}).status_code for c in codes]
        assert answers == [404, 404, 429]  # guessing invitation codes is slow


def test_every_api_request_counts_against_a_general_limit(tmp_path: Path) -> None:
    with app(tmp_path, api_rate="5/second") as client:
        answers = [client.get("/api/variants").status_code for _ in range(8)]
        assert answers[:5] == [200] * 5 and 429 in answers[5:]


def test_a_client_holds_a_bounded_number_of_tables_and_the_server_a_bounded_total(tmp_path: Path) -> None:
    with app(tmp_path, max_tables_per_client=2, max_live_tables=3) as client:
        manager = app_parts(client.app).manager

        def watch(table_id: str) -> Any:
            ws = client.websocket_connect(manager.tables[table_id].ws_url)
            ws.__enter__()
            ws.send_json({"type": "hello"})
            ws.receive_json()
            return ws

        made = [client.post("/api/tables", json={"opponent": "random"}) for _ in range(2)]
        assert [r.status_code for r in made] == [201, 201]
        third = client.post("/api/tables", json={"opponent": "random"})
        assert third.status_code == 429 and third.json()["detail"]["code"] == "too_many_tables"
        for table in manager.tables.values():
            table.creator = "someone else"  # the two now count for another client
        watchers = [watch(r.json()["table_id"]) for r in made]
        made.append(client.post("/api/tables", json={"opponent": "random"}))
        assert made[-1].status_code == 201
        watchers.append(watch(made[-1].json()["table_id"]))
        for table in manager.tables.values():
            table.creator = "someone else"
        # Three tables, each with a client: the server is full.
        full = client.post("/api/tables", json={"opponent": "random"})
        assert full.status_code == 503 and full.json()["detail"]["code"] == "server_full"
        assert int(full.headers["retry-after"]) > 0
        # A table nobody watches any more leaves memory to make room (it reloads on demand).
        watchers.pop().__exit__(None, None, None)
        assert client.post("/api/tables", json={"opponent": "random"}).status_code == 201
        assert len(manager.tables) == 3
        for ws in watchers:
            ws.__exit__(None, None, None)


def test_the_analysis_queue_is_bounded(tmp_path: Path) -> None:
    """Each finished game can be analysed once; beyond ``max_queued_analyses`` waiting, a 503 says when to
    come back, and starting analyses counts against the client's analysis limit (polling does not)."""
    release = threading.Event()
    import bummerl.server.analyses as analyses

    real = analyses.analyze_record

    def held(record: str, level: str) -> dict[str, Any]:
        release.wait(10)
        return real(record, level)

    analyses.analyze_record = held  # type: ignore[assignment]
    try:
        with app(tmp_path, max_queued_analyses=1, analysis_rate="2/minute") as client:
            ids = [_finished_game(client) for _ in range(3)]
            assert client.get(f"/api/games/{ids[0]}/analysis").status_code == 202
            assert client.get(f"/api/games/{ids[0]}/analysis").status_code == 202  # a poll, not a new start
            full = client.get(f"/api/games/{ids[1]}/analysis")
            assert full.status_code == 503 and full.json()["detail"]["code"] == "analysis_queue_full"
            release.set()
            deadline = time.monotonic() + 30
            while client.get(f"/api/games/{ids[0]}/analysis").status_code != 200:
                assert time.monotonic() < deadline
                time.sleep(0.05)
            assert client.get(f"/api/games/{ids[1]}/analysis").status_code == 202
            while client.get(f"/api/games/{ids[1]}/analysis").status_code != 200:
                assert time.monotonic() < deadline
                time.sleep(0.05)
            limited = client.get(f"/api/games/{ids[2]}/analysis")  # the queue has room, the client no allowance
            assert limited.status_code == 429 and "retry-after" in limited.headers
    finally:
        analyses.analyze_record = real  # type: ignore[assignment]


def _finished_game(client: TestClient) -> int:
    table = client.post("/api/tables", json={"opponent": "random"}).json()
    with client.websocket_connect(table["ws_url"]) as ws:
        ws.send_json({"type": "hello", "token": table["token"]})
        while True:
            message = ws.receive_json()
            if message.get("game_over"):
                game_id: int = message["game_over"]["game_id"]
                return game_id
            if message.get("your_turn"):
                ws.send_json({"type": "action", "action": message["legal"][0]})


# -------------------------------------------------------------------- fair bot scheduling
class _SlowSearch:
    """A 'searching' bot (it can scale its time): thinks ``seconds`` (scaled by the scheduler), then plays."""

    name = "slow-search-test"
    seconds = 0.6
    scales: ClassVar[list[float]] = []

    def __init__(self, seed: int) -> None:
        self._random = RandomBot(seed)
        self._seconds = self.seconds

    def scale_time(self, factor: float) -> None:
        self._seconds *= factor
        _SlowSearch.scales.append(factor)

    def time_budget(self) -> float:
        return self.seconds

    def choose(self, view: PlayerView) -> Action:
        time.sleep(self._seconds)
        return self._random.choose(view)


register_bot("slow-search-test", _SlowSearch, "test bot: a search that takes its time")


def test_a_quick_bot_never_waits_behind_searches_and_searches_share_the_workers(serve: Any) -> None:
    """Eight tables whose bot searches 0.6 s a move on two workers, and one table against ``random``: the
    random bot answers at once, and the searches are told to think less while others wait.

    Played against a real server (uvicorn in a thread, ``tests/live_server.py``) with real WebSocket clients,
    as a browser would: nine sockets open at once."""
    import contextlib
    import json

    from live_server import body_json, http

    _SlowSearch.scales.clear()
    server = serve(
        bot_workers=2,
        min_time_scale=0.05,
        max_tables_per_client=20,
        max_connections_per_client=20,
        api_rate="1000/second",
    )

    def create(body: dict[str, Any]) -> dict[str, Any]:
        made: dict[str, Any] = body_json(http(server.port, "POST", "/api/tables", body))
        return made

    seed = next(s for s in range(100) if Session("schnapsen", s).new_match().next_dealer == 0)  # bots lead
    busy = [create({"opponent": "slow-search-test", "seed": seed}) for _ in range(8)]
    with contextlib.ExitStack() as stack:
        sockets = [stack.enter_context(server.ws(t["ws_url"])) for t in busy]
        for ws, t in zip(sockets, busy, strict=True):
            ws.send(json.dumps({"type": "hello", "token": t["token"]}))
        quick = create({"opponent": "random"})
        waits = []
        with server.ws(quick["ws_url"]) as ws:

            def receive() -> dict[str, Any]:
                message: dict[str, Any] = json.loads(ws.recv(timeout=10))
                return message

            ws.send(json.dumps({"type": "hello", "token": quick["token"]}))
            state = receive()
            for _ in range(6):
                while not state.get("your_turn") and state.get("status") != "game_over":
                    state = receive()
                if state.get("status") == "game_over":
                    break
                sent = time.perf_counter()
                ws.send(json.dumps({"type": "action", "action": state["legal"][0]}))
                state = receive()  # my move
                while not state.get("your_turn") and state.get("status") != "game_over":
                    state = receive()
                waits.append(time.perf_counter() - sent)
        # The searches queued behind the first two get less time: at most a fraction of 0.6 s each.
        deadline = time.monotonic() + 10
        while not _SlowSearch.scales:
            assert time.monotonic() < deadline, "no search was told to think less"
            time.sleep(0.02)
    assert waits and max(waits) < 0.5, waits  # a 0.6 s search would have been waited for at least once
    assert min(_SlowSearch.scales) < 1.0


def test_a_request_body_is_read_up_to_a_bound(tmp_path: Path) -> None:
    """A body of a megabyte is refused with 413 before it is read (the largest valid one is under 1 KiB), whether
    it says its length or comes in chunks."""
    with app(tmp_path) as client:
        big = b'{"name": "' + b"x" * 1_000_000 + b'"}'
        told = client.post("/api/tables", content=big, headers={"Content-Type": "application/json"})
        assert told.status_code == 413 and told.json()["detail"]["code"] == "too_large"
        chunked = client.post(
            "/api/tables",
            content=iter([big[i : i + 65536] for i in range(0, len(big), 65536)]),
            headers={"Content-Type": "application/json"},
        )
        assert chunked.status_code == 413
        assert client.post("/api/tables", json={"opponent": "random"}).status_code == 201


def test_a_client_that_floods_its_socket_is_slowed_then_let_go(tmp_path: Path) -> None:
    """A WebSocket client may send a burst of 30 messages, then 10 a second: the rest is refused with
    ``rate_limited``, and a client that keeps on regardless is disconnected (4429)."""
    from starlette.websockets import WebSocketDisconnect

    with app(tmp_path) as client:
        table = client.post("/api/tables", json={"opponent": "random"}).json()
        with client.websocket_connect(table["ws_url"]) as ws:
            for _ in range(200):
                ws.send_json({"type": "ping"})
            answers = []
            with pytest.raises(WebSocketDisconnect) as closed:
                while True:
                    answers.append(ws.receive_json())
        kinds = [a.get("type") if a.get("type") != "error" else a["code"] for a in answers]
        assert kinds.count("pong") >= 30 and "rate_limited" in kinds
        assert closed.value.code == 4429
