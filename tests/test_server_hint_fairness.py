"""Security review of issue 24 (MEDIUM): one client could switch hints off for everyone.

The hint service computed one hint at a time and let 8 wait, first come first served: one address with 9
tables, asking again the moment each answer arrived, got 29 hints in 40 s while every other player got
``busy``; and the hints went straight into the bots' worker pool, so a ``hard`` bot table's p95 went from 398
to 563 ms.  Now each client key has at most one request waiting and a freed slot goes to the client served least
recently (:class:`bummerl.server.hints.FairQueue`); the hints search in background workers of their own, below
the bots' CPU priority (:meth:`bummerl.server.scheduler.BotScheduler.start_background`).  Deterministic: the
workers are futures the test completes, no clock is read.
"""

from __future__ import annotations

import pytest

pytest.importorskip("fastapi", reason="needs the 'web' extra: pip install -e '.[web]'")

import asyncio
import dataclasses
import functools
import json
import os
import threading
from collections.abc import Callable
from typing import Any

from bummerl.game import Game
from bummerl.server import hints, scheduler
from bummerl.server.config import ServerConfig
from bummerl.server.connections import Connection
from bummerl.server.hints import FairQueue, HintService, HintSettings, RoomHints
from bummerl.server.scheduler import BACKGROUND_NICE, BotRequest, BotScheduler, make_executor
from bummerl.view_json import view_to_json

FLOOD, ANNA, BERT = "203.0.113.7", "198.51.100.1", "198.51.100.2"


@dataclasses.dataclass
class _Data:
    tournament: str | None = None


@dataclasses.dataclass
class _Seat:
    seat: int
    kind: str


class Table:
    """A live table against a bot, as the hints read it (:class:`bummerl.server.hints.HintTable`)."""

    def __init__(self, seed: int) -> None:
        self.id = f"t{seed}"
        self.game = Game.deal("schnapsen", seed=seed)
        self.human = self.game.to_move
        self.seats = [_Seat(s, "human" if s == self.human else "bot") for s in range(2)]
        self.data = _Data()
        self.lock = asyncio.Lock()
        self.hints = RoomHints()
        self.sent: list[dict[str, Any]] = []
        self.dealt, self.game_id, self.ply, self.status = True, 1, 0, "playing"

    def game_seat(self, seat: int | None) -> int | None:
        return seat

    def seat_name(self, seat: int) -> str:
        return f"seat {seat}"

    def send(self, conn: Connection, message: dict[str, Any]) -> None:
        self.sent.append(message)

    def touch(self) -> None:
        pass

    def broadcast(self) -> None:
        pass

    def view(self) -> dict[str, Any]:
        return view_to_json(self.game.view(self.human))


def seated(table: Table, client: str) -> Connection:
    conn = Connection()
    conn.seat, conn.client = table.human, client
    return conn


class Workers:
    """The bots' workers as the hint service sees them: each search a future that the test completes."""

    def __init__(self) -> None:
        self.started: list[tuple[dict[str, Any], asyncio.Future[dict[str, Any]]]] = []
        self.settings: list[HintSettings] = []

    async def start(self, work: Callable[[], dict[str, Any]]) -> asyncio.Future[dict[str, Any]]:
        assert isinstance(work, functools.partial)
        future: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self.started.append((work.args[0], future))
        self.settings.append(work.args[1])
        return future

    def finish_all(self) -> None:
        for _, future in self.started:
            if not future.done():
                future.set_result({"method": "search", "best": "", "values": [], "worlds": 1})


async def turns() -> None:
    for _ in range(5):
        await asyncio.sleep(0)


def last(table: Table) -> dict[str, Any]:
    return table.sent[-1]


def test_one_client_with_many_tables_cannot_keep_another_client_from_its_hint() -> None:
    async def scenario() -> None:
        workers = Workers()
        service = HintService(workers.start, HintSettings(running=1, waiting=8))
        flood = [Table(seed) for seed in range(9)]
        anna = Table(100)
        conns = {id(t): seated(t, FLOOD) for t in flood}
        anna_conn = seated(anna, ANNA)

        for table in flood:
            service.ask(table, conns[id(table)])
        await turns()
        # One runs, one waits; the other seven are refused: one waiting request per client.
        assert [view for view, _ in workers.started] == [flood[0].view()]
        assert [last(t)["code"] for t in flood[2:]] == ["busy"] * 7
        assert "another hint or review of yours waits" in last(flood[2])["message"]

        service.ask(anna, anna_conn)  # Anna asks once, while the flood goes on
        await turns()
        assert anna.sent == []

        answered_flood = 0
        for _ in range(6):
            workers.finish_all()
            await turns()
            # The flood asks again at every table the moment it hears back, as the review's attacker did.
            for table in flood:
                if table.sent and table.sent[-1]["type"] in ("hint", "error"):
                    answered_flood += table.sent[-1]["type"] == "hint"
                    table.sent.clear()
                    table.hints.busy.clear()
                    service.ask(table, conns[id(table)])
            await turns()
        assert [m["type"] for m in anna.sent] == ["hint"]  # answered, never "busy"
        # Anna's came second: after the flood's first, before its waiting second.
        assert workers.started[1][0] == anna.view()
        # While another waits a hint gets half its time (one running, one waiting): Anna waits for one short one.
        assert [s.seconds for s in workers.settings[:2]] == [0.75, 0.75]
        assert answered_flood >= 5  # the flood still gets its share

    asyncio.run(scenario())


def test_a_freed_slot_goes_round_robin_over_the_waiting_clients() -> None:
    async def scenario() -> None:
        workers = Workers()
        service = HintService(workers.start, HintSettings(running=1, waiting=8))
        asking = [(FLOOD, Table(1)), (FLOOD, Table(2)), (ANNA, Table(3)), (BERT, Table(4))]
        for client, table in asking:
            service.ask(table, seated(table, client))
        await turns()
        whose = {json_key(table.view()): client for client, table in asking}
        order = []
        for _ in range(4):
            view, future = next((v, f) for v, f in workers.started if not f.done())
            order.append(whose[json_key(view)])
            future.set_result({"method": "search", "best": "", "values": [], "worlds": 1})
            await turns()
        # The flood's second waited longest, but the flood was just served: Anna and Bert go first.
        assert order == [FLOOD, ANNA, BERT, FLOOD]
        assert workers.settings[-1].seconds == 1.5  # nobody waits: the whole cap

    asyncio.run(scenario())


def test_a_full_queue_of_other_clients_refuses_with_busy() -> None:
    async def scenario() -> None:
        workers = Workers()
        service = HintService(workers.start, HintSettings(running=1, waiting=2))
        tables = [Table(seed) for seed in range(4)]
        for i, table in enumerate(tables):
            service.ask(table, seated(table, f"192.0.2.{i}"))
        await turns()
        assert service.waiting == 2
        assert last(tables[3])["code"] == "busy" and "many hints" in last(tables[3])["message"]
        workers.finish_all()
        await turns()
        workers.finish_all()
        await turns()
        workers.finish_all()
        await turns()
        assert [last(t)["type"] for t in tables[:3]] == ["hint"] * 3
        assert service.waiting == 0 and service.queue.free == 1

    asyncio.run(scenario())


def json_key(view: dict[str, Any]) -> str:
    return json.dumps(view, sort_keys=True)


def test_a_hint_never_holds_a_bot_s_worker(monkeypatch: pytest.MonkeyPatch) -> None:
    """The hints search in background workers of their own: a bot decides at once while a hint runs."""

    def choose(bot: str, seed: int, view: dict[str, Any], time_scale: float = 1.0) -> str:
        return "Ah"

    monkeypatch.setattr(scheduler, "choose_token", choose)
    monkeypatch.setattr(scheduler, "search_budget", lambda *_: 0.25)  # a searching bot: the workers' lane
    game = Game.deal("schnapsen", seed=1)
    variant = game.variant

    async def scenario() -> None:
        bots = BotScheduler(ServerConfig(bot_executor="thread", bot_workers=1))
        release = threading.Event()
        try:
            hint = await bots.start_background(lambda: release.wait(5))  # a hint runs, and runs on
            async with asyncio.timeout(3):
                assert await bots.decide(BotRequest("t", "hard", 1, game.view(0), variant)) == "Ah"
            assert not hint.done()
            release.set()
            assert await hint is True
        finally:
            release.set()
            bots.shutdown()

    asyncio.run(scenario())


def test_background_workers_run_below_the_server_s_cpu_priority() -> None:
    """A hint gets a core only when the bots and the event loop leave one (Linux niceness)."""
    if not hasattr(os, "nice"):
        pytest.skip("no niceness on this system")
    executor = make_executor("process", 1, (hints.__name__,), nice=BACKGROUND_NICE)
    try:
        niceness = executor.submit(os.nice, 0).result(timeout=60)
        loaded = executor.submit(functools.partial(_loaded, hints.__name__)).result(timeout=60)
    finally:
        executor.shutdown()
    assert niceness == min(19, os.nice(0) + BACKGROUND_NICE)
    assert loaded  # the hints' module was imported when the worker started


def _loaded(name: str) -> bool:
    import sys

    return name in sys.modules


def test_a_request_cancelled_while_it_waits_gives_its_place_back() -> None:
    async def scenario() -> None:
        queue = FairQueue(1)
        queue.enter(FLOOD)
        waiting = queue.enter(ANNA)
        waiting.cancel()  # its task was cancelled (the server stops) before it could leave
        queue.release(FLOOD)  # the cancelled turn is skipped, not handed the slot
        assert (queue.free, queue.waiting) == (1, 0)
        queue.leave(ANNA, waiting)  # the task's own clean-up: nothing more to give back
        assert (queue.free, queue.waiting) == (1, 0)
        assert queue.enter(BERT).done()

    asyncio.run(scenario())
