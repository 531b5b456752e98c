"""Fair bot scheduling: no table's bot waits behind another table's long search.

Bots run in two lanes.  **Quick** bots (``random``, ``heuristic``: a decision
takes microseconds) never queue behind a search: the built-in ones (:data:`INLINE_BOTS`) decide on the event
loop itself, from the seat's view object, and any other bot without a time budget in a small thread pool.
**Searching** bots (the PIMC levels, the table games'
``search``) share the worker pool (processes, one per core by default).  At
most one decision per worker runs at a time, the others wait shortest budget
first (a ``hard`` move does not queue behind ``expert`` ones; equal budgets in
arrival order), and each decision gets a time budget scaled by the load::

    time_scale = max(min_time_scale, workers / (workers + waiting))

With nobody waiting a bot thinks as long as its level allows (``expert``:
0.8 s, 2 s in the first tricks); with 38 decisions waiting for 2 workers each
thinks a twentieth of that.  A decision that arrives therefore waits about one
full-length decision of its own level or shorter ones, however many tables
search, instead of every search ahead of it (measured in ``bench/web_abuse.py``, docs/web.md).  A
decision that does not come back within ``bot_timeout`` seconds (a stuck or
crashed worker) is replaced by the ``heuristic`` bot's choice, and its worker
slot is freed only when the worker really finishes.

**Background work** (the hints and reviews of :mod:`bummerl.server.hints`) runs in workers of its own
(:meth:`BotScheduler.start_background`: one process by default) at a lower CPU priority (``nice`` 10), so it
never holds a bot's worker and never takes a core from a bot or the event loop that needs it.  Before, hints
went straight into the bots' pool, taking a worker that the bots' admission counted as free, and under a hint
flood a ``hard`` table's p95 went from 398 to 563 ms (issue 24).

Seeds and views go in, action tokens come out: see :mod:`bummerl.server.workers`.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import dataclasses
import functools
import heapq
import itertools
import logging
import multiprocessing
import os
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

from bummerl.server.config import ExecutorKind, ServerConfig
from bummerl.server.workers import choose, choose_token, search_budget, start_worker, warm_up
from bummerl.variants import Variant
from bummerl.view import View
from bummerl.view_json import view_to_json

__all__ = ["INLINE_BOTS", "BotRequest", "BotScheduler", "make_executor"]

log = logging.getLogger("bummerl.server")

#: The bot that answers when a decision fails or times out (it plays every variant at once).
FALLBACK_BOT = "heuristic"

#: The quick bots that decide on the event loop, from the seat's view object (:func:`~bummerl.server.workers.choose`).
#: A decision of theirs takes 2-30 microseconds (``heuristic``'s p99 about 40, its slowest under 1 ms), less than
#: handing it to a thread: before, each went through ``ThreadPoolExecutor.submit`` and its ``Condition``, and the view
#: through its JSON and back (``view_from_json`` alone 5.4% of the server's interpreter time at 200 tables flat
#: out, bench/web_load.py; docs/web.md "Many people at once").  In a thread the pure-Python decision held the
#: interpreter's lock anyway, so the event loop waited for it all the same.  Same seed, same view: the same
#: choice (tests/test_server_bot_lanes.py).  A bot registered elsewhere without a time budget keeps the thread pool:
#: nothing says it is quick.
INLINE_BOTS = frozenset({"random", "heuristic"})


T = TypeVar("T")

#: The niceness of the background workers' processes (Linux: a weight of about a tenth of a normal process's).
BACKGROUND_NICE = 10


def make_executor(
    kind: ExecutorKind, workers: int | None, preload: Sequence[str] = (), nice: int = 0
) -> concurrent.futures.Executor:
    """A thread or process pool; processes are spawned, never forked from a threaded server.

    A worker process imports the modules named in ``preload`` when it starts (:func:`start_worker`), so
    the first call of their work does not pay for the import, and runs ``nice`` steps below the server's CPU
    priority (threads ignore ``nice``).
    """
    count = workers or os.cpu_count() or 1
    if kind == "thread":
        return concurrent.futures.ThreadPoolExecutor(max_workers=count, thread_name_prefix="bummerl-worker")
    return concurrent.futures.ProcessPoolExecutor(
        max_workers=count,
        mp_context=multiprocessing.get_context("spawn"),
        initializer=start_worker,
        initargs=(os.getpid(), tuple(preload), nice),
    )


@dataclasses.dataclass(frozen=True)
class BotRequest:
    """One decision: ``bot`` (a registry name) chooses for its seat, seeded with ``seed``.

    ``seat_view`` is the deciding seat's view (:meth:`bummerl.game.Game.view`: only what that seat may know);
    :attr:`view` its JSON, made only for a bot that decides in a worker; ``variant`` is the table's, for the
    bot's time budget.
    """

    table_id: str
    bot: str
    seed: int
    seat_view: View
    variant: Variant

    @functools.cached_property
    def view(self) -> dict[str, Any]:
        """The seat's view as the bot protocol's JSON (every variant alike): what a worker process is sent."""
        return view_to_json(self.seat_view)

    def work(self, bot: str, time_scale: float) -> Callable[[], str]:
        """The decision as a picklable call (it runs in a worker process)."""
        return functools.partial(choose_token, bot, self.seed, self.view, time_scale)


class _Gate:
    """Admission to the workers: ``slots`` decisions at a time, the waiting one with the shortest budget next.

    Shortest first, so a ``hard`` move (0.25 s) does not queue behind a row of ``expert`` ones (0.8-2 s); among
    equal budgets, arrival order.  A long search still gets its turn: the short ones ahead of it end quickly.
    """

    def __init__(self, slots: int) -> None:
        self.free = slots
        self._waiting: list[tuple[float, int, asyncio.Future[None]]] = []
        self._arrivals = itertools.count()

    async def acquire(self, budget: float) -> None:
        if self.free > 0 and not self._waiting:
            self.free -= 1
            return
        turn: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        heapq.heappush(self._waiting, (budget, next(self._arrivals), turn))
        try:
            await turn
        except asyncio.CancelledError:
            if turn.done() and not turn.cancelled():
                self.release()  # the slot was handed over as the waiter left: pass it on
            else:
                self._waiting = [w for w in self._waiting if w[2] is not turn]
                heapq.heapify(self._waiting)
            raise

    def release(self) -> None:
        """A slot is free: hand it to the waiting decision with the shortest budget, if any."""
        while self._waiting:
            _, _, turn = heapq.heappop(self._waiting)
            if not turn.done():
                turn.set_result(None)
                return
        self.free += 1


class BotScheduler:
    """The two lanes of one app (see the module docstring)."""

    def __init__(
        self,
        config: ServerConfig,
        *,
        background_workers: int = 1,
        background_preload: Sequence[str] = (),
        background_nice: int = BACKGROUND_NICE,
    ) -> None:
        self.config = config
        self.workers = config.bot_workers or os.cpu_count() or 1
        #: The background workers (:meth:`start_background`): how many, what they import when they start, and
        #: how far below the server's CPU priority they run.
        self.background_workers = background_workers
        self.background_preload = tuple(background_preload)
        self.background_nice = background_nice
        self._background: concurrent.futures.Executor | None = None
        self._executor: concurrent.futures.Executor | None = None
        self._quick = concurrent.futures.ThreadPoolExecutor(
            max_workers=config.quick_bot_threads, thread_name_prefix="bummerl-quick-bot"
        )
        self._gate = _Gate(self.workers)
        self._budgets: dict[tuple[str, str], float | None] = {}
        #: Decisions waiting for a worker, and running in one (for the time scale and the metrics).
        self.waiting = 0
        self.running = 0

    @property
    def executor(self) -> concurrent.futures.Executor:
        if self._executor is None:
            self._executor = make_executor(self.config.bot_executor, self.workers)
        return self._executor

    @property
    def background_executor(self) -> concurrent.futures.Executor:
        if self._background is None:
            self._background = make_executor(
                self.config.bot_executor, self.background_workers, self.background_preload, self.background_nice
            )
        return self._background

    def budget(self, request: BotRequest) -> float | None:
        """The seconds the request's bot may think per decision if it searches, else ``None``."""
        key = (request.bot, request.variant.name)
        if key not in self._budgets:
            self._budgets[key] = search_budget(request.bot, request.variant)
        return self._budgets[key]

    def time_scale(self) -> float:
        """How much of its own time budget the next searching decision gets."""
        return max(self.config.min_time_scale, min(1.0, self.workers / (self.workers + self.waiting)))

    async def decide(self, request: BotRequest) -> str:
        """The bot's action token (the fallback bot's after a failure or timeout; ``""`` if even that failed)."""
        loop = asyncio.get_running_loop()
        budget = self.budget(request)
        if budget is None:
            return await self._quick_decision(request, request.bot)
        self.waiting += 1
        try:
            await self._gate.acquire(budget)
        finally:
            self.waiting -= 1
        scale = self.time_scale()
        self.running += 1
        future = loop.run_in_executor(self.executor, request.work(request.bot, scale))

        def done(_: asyncio.Future[str]) -> None:
            # The slot is held until the worker is really free, also after a timeout.
            self.running -= 1
            self._gate.release()

        future.add_done_callback(done)
        try:
            return await asyncio.wait_for(asyncio.shield(future), timeout=self.config.bot_timeout)
        except TimeoutError:
            log.error(
                "bot %s at table %s took over %.0f s: %s plays",
                request.bot,
                request.table_id,
                self.config.bot_timeout,
                FALLBACK_BOT,
            )
        except Exception as exc:  # a failing bot must not stop the table
            log.error("bot %s failed at table %s: %s: %s", request.bot, request.table_id, type(exc).__name__, exc)
        return await self._quick_decision(request, FALLBACK_BOT)

    async def start_background(self, work: Callable[[], T]) -> asyncio.Future[T]:
        """Start ``work`` in a background worker; the future of its result.

        Background workers are processes of their own at a lower CPU priority: the work never holds a bot's
        worker, and gets a core only when the bots and the event loop leave one.  The caller bounds how much
        runs at once (the hints: :class:`bummerl.server.hints.FairQueue`).
        """
        return asyncio.get_running_loop().run_in_executor(self.background_executor, work)

    async def _quick_decision(self, request: BotRequest, bot: str) -> str:
        loop = asyncio.get_running_loop()
        try:
            if bot in INLINE_BOTS:
                return choose(bot, request.seed, request.seat_view)
            return await loop.run_in_executor(self._quick, request.work(bot, 1.0))
        except Exception as exc:  # the table plays its first legal action
            log.error("bot %s failed at table %s: %s: %s", bot, request.table_id, type(exc).__name__, exc)
            return ""

    async def warm_up(self) -> None:
        """Start the worker processes and load the bots in them before the first table needs one."""
        if self.config.bot_executor != "process":
            return
        loop = asyncio.get_running_loop()
        await asyncio.gather(
            *(loop.run_in_executor(self.executor, warm_up) for _ in range(self.workers)),
            *(loop.run_in_executor(self.background_executor, warm_up) for _ in range(self.background_workers)),
        )

    def shutdown(self) -> None:
        self._quick.shutdown(wait=False, cancel_futures=True)
        for executor in (self._executor, self._background):
            if executor is not None:
                # Worker processes are joined (a running decision takes a fraction of a
                # second); threads are not: one may wait on a test's event.
                process = isinstance(executor, concurrent.futures.ProcessPoolExecutor)
                executor.shutdown(wait=process, cancel_futures=True)
        self._executor = self._background = None
