"""The repository off the event loop: every database call of the server runs in a thread of its own pool.

SQLite waits for a lock (up to its busy timeout) inside the call, and a
PostgreSQL server may be slow or gone; run on the event loop either would stall
every table of the process.  :class:`Database` runs each call in a small thread
pool and turns a database that cannot answer (locked, down, out of connections)
into :class:`StorageUnavailable`, which the API answers with ``503`` and
``Retry-After`` and a table with its ``storage`` state (docs/web.md).

In a coroutine, ``await db.run(repo.find_table, table_id)`` reads without
blocking the event loop, and ``await db.append_action(game_id, ply, token)``
stores a move: the moves that arrive while others are written wait and are
then written together, in one transaction (**group commit**, below).  An
in-memory SQLite database is one connection, so it gets one thread (its calls
never interleave):

>>> from bummerl.server.storage import Repository
>>> repo = Repository("sqlite://")
>>> db = Database(repo, threads=4)
>>> db.threads, Database(Repository("sqlite:///games.db"), threads=4).threads
(1, 4)
>>> db.close(); repo.dispose()

**Group commit.** Every move is stored before it is played (:mod:`bummerl.server.rooms`), and that stays so:
:meth:`Database.append_action` returns once the transaction that holds the move has committed.  But only one
batch of moves is written at a time, and the moves of all tables that arrive meanwhile make the next batch
(:meth:`~bummerl.server.storage.Repository.append_actions`: one ``INSERT`` of many rows, one commit).  Written
one per thread, SQLite let one writer hold its lock while it waited for the interpreter's lock between its
``INSERT`` and its ``COMMIT``, and sent the others to sleep in its busy handler (it backs off up to 100 ms a
try): at 1,000 human-paced tables a move took 0.9 s at the median and 5 s at p95, and two hit the 2 s busy
timeout (bench/web_load.py, docs/web.md "Measured").  On PostgreSQL a batch is one WAL flush for many moves.
The other writes of the games (a deal, a result and its ratings) take their turn between the batches
(:meth:`Database.write`) for the same reason: with a result written beside a batch, one of the two slept.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import queue
import threading
from collections.abc import Callable
from typing import Any, ParamSpec, TypeVar

from sqlalchemy.exc import DBAPIError, SQLAlchemyError

from bummerl.server.storage import ActionRow, Lease, Repository, StorageError

__all__ = ["MAX_BATCH", "Database", "StorageUnavailable"]

#: The most moves one transaction stores (the rest wait for the next).
MAX_BATCH = 500

P = ParamSpec("P")
T = TypeVar("T")


class StorageUnavailable(StorageError):
    """The database could not answer now (locked, down, no connection): try again later."""

    #: Seconds a client should wait before it asks again (``Retry-After``).
    retry_after = 2


class _Threads:
    """The database's threads: a call goes in through a :class:`queue.SimpleQueue`, its answer comes back to the
    caller's event loop with :meth:`~asyncio.AbstractEventLoop.call_soon_threadsafe`.

    What ``loop.run_in_executor`` on a :class:`~concurrent.futures.ThreadPoolExecutor` does, without its
    per-call machinery: a :class:`concurrent.futures.Future` (a :class:`threading.Condition` made, waited on
    and notified in Python), its chaining to an asyncio future, the pool's idle semaphore.  Handed a batch of
    moves or a game's write at every few moves, that machinery took 7-9% of the server's interpreter time at 200
    tables flat out (``ThreadPoolExecutor.submit``, ``Condition.notify``, ``_chain_future``; bench/web_load.py,
    docs/web.md "Many people at once").  As there: a call not yet started when its caller is cancelled is not
    run, and after :meth:`shutdown` nothing new is taken and the calls still queued are cancelled.
    """

    def __init__(self, count: int, name: str) -> None:
        self.count = count
        self._name = name
        self._queue: queue.SimpleQueue[tuple[Callable[[], Any], asyncio.Future[Any]] | None] = queue.SimpleQueue()
        self._threads: list[threading.Thread] = []
        self._closed = False

    def submit(self, loop: asyncio.AbstractEventLoop, call: Callable[[], T]) -> asyncio.Future[T]:
        """Run ``call`` in a thread; the future of its answer, on ``loop``."""
        if self._closed:
            raise RuntimeError("cannot schedule new futures after shutdown")
        if not self._threads:  # started at the first call, as the pool's were
            for k in range(self.count):
                thread = threading.Thread(target=self._work, name=f"{self._name}_{k}", daemon=True)
                thread.start()
                self._threads.append(thread)
        future: asyncio.Future[T] = loop.create_future()
        self._queue.put((call, future))
        return future

    def _work(self) -> None:
        while (item := self._queue.get()) is not None:
            call, future = item
            if future.cancelled():  # its caller is gone (a plain read of the future's state)
                continue
            try:
                result = call()
            except BaseException as exc:
                _answer(future, future.set_exception, exc)
                if not isinstance(exc, Exception):
                    raise
            else:
                _answer(future, future.set_result, result)

    def shutdown(self) -> None:
        self._closed = True
        with contextlib.suppress(queue.Empty):
            while True:
                item = self._queue.get_nowait()
                if item is not None:
                    _answer(item[1], item[1].cancel)
        for _ in self._threads:
            self._queue.put(None)


def _answer(future: asyncio.Future[Any], set_it: Callable[..., Any], *value: Any) -> None:
    """``set_it(*value)`` (a method of ``future``) on the future's loop, from a database thread, unless its caller
    was cancelled meanwhile."""

    def settle() -> None:
        if not future.done():
            set_it(*value)

    with contextlib.suppress(RuntimeError):  # the loop is closed: nobody waits any more
        future.get_loop().call_soon_threadsafe(settle)


class Database:
    """Runs :class:`~bummerl.server.storage.Repository` calls in worker threads."""

    def __init__(self, repo: Repository, threads: int = 4) -> None:
        self.repo = repo
        # An in-memory SQLite database is a single connection: one thread, so its calls never interleave.
        self.threads = 1 if repo.single_connection else threads
        self._executor = _Threads(self.threads, "bummerl-db")
        #: Moves waiting for the next batch, each with the future its caller awaits.
        self._moves: list[tuple[ActionRow, asyncio.Future[None]]] = []
        #: Other writes waiting for their turn (:meth:`write`), each with the future its caller awaits.
        self._writes: list[tuple[Callable[[], Any], asyncio.Future[Any]]] = []
        self._writer: asyncio.Task[None] | None = None
        #: Batches written so far (tests count them).
        self.batches = 0

    async def run(self, call: Callable[P, T], *args: P.args, **kwargs: P.kwargs) -> T:
        """``call(*args, **kwargs)`` in a database thread; :class:`StorageUnavailable` if the database failed."""
        loop = asyncio.get_running_loop()
        try:
            return await self._executor.submit(loop, functools.partial(call, *args, **kwargs))
        except StorageUnavailable:
            raise
        except StorageError as exc:
            # The repository wraps some driver errors itself; a wrapped driver error is still "unavailable".
            if isinstance(exc.__cause__, SQLAlchemyError):
                raise StorageUnavailable(str(exc)) from exc
            raise
        except (DBAPIError, SQLAlchemyError) as exc:
            raise StorageUnavailable(f"{type(exc).__name__}: {_first_line(exc)}") from exc

    async def append_action(
        self, game_id: int, ply: int, token: str, lease: Lease | None = None, stand_in: str | None = None
    ) -> None:
        """Store a move (:meth:`~bummerl.server.storage.Repository.append_action`'s arguments) with the others that
        arrive meanwhile (the module's group commit); returns once it is committed, raises what storing it alone
        would have raised (:class:`StorageUnavailable` for a database that failed)."""
        loop = asyncio.get_running_loop()
        done: asyncio.Future[None] = loop.create_future()
        self._moves.append(((game_id, ply, token, lease, stand_in), done))
        self._wake(loop)
        await done

    async def write(self, call: Callable[P, T], *args: P.args, **kwargs: P.kwargs) -> T:
        """``call(*args, **kwargs)``, a write of a game (a deal, a result), in turn with the moves' batches: one
        write of the server's games at a time, so that SQLite never sends one of them to sleep for another (the
        module's group commit).  Raises as :meth:`run` does."""
        loop = asyncio.get_running_loop()
        done: asyncio.Future[T] = loop.create_future()
        self._writes.append((functools.partial(call, *args, **kwargs), done))
        self._wake(loop)
        return await done

    def _wake(self, loop: asyncio.AbstractEventLoop) -> None:
        if self._writer is None or self._writer.done():
            self._writer = loop.create_task(self._write_all())

    async def _write_all(self) -> None:
        while self._moves or self._writes:
            await self._write_moves()
            if self._writes:
                call, done = self._writes.pop(0)
                try:
                    result = await self.run(call)
                except Exception as exc:  # the caller's to handle, as from run()
                    if not done.done():
                        done.set_exception(exc)
                except BaseException:  # cancelled (the server stops): so are the writes that wait
                    for _, waiting in [(call, done), *self._writes]:
                        waiting.cancel()
                    self._writes.clear()
                    raise
                else:
                    if not done.done():
                        done.set_result(result)

    async def _write_moves(self) -> None:
        if self._moves:
            batch, self._moves = self._moves[:MAX_BATCH], self._moves[MAX_BATCH:]
            outcomes: list[StorageError | None]
            try:
                outcomes = list(await self.run(self.repo.append_actions, [row for row, _ in batch]))
            except StorageError as exc:
                outcomes = [exc] * len(batch)
            except Exception as exc:  # the pool is shut down: nobody's move is stored, everybody hears it
                outcomes = [StorageError(f"not stored: {type(exc).__name__}: {exc}")] * len(batch)
            except BaseException:  # cancelled (the server stops): so are the moves and writes that wait
                for _, done in batch + self._moves:
                    done.cancel()
                for _, waiting in self._writes:
                    waiting.cancel()
                self._moves.clear()
                self._writes.clear()
                raise
            self.batches += 1
            for (_, done), outcome in zip(batch, outcomes, strict=True):
                if done.done():
                    continue  # its caller was cancelled
                if outcome is None:
                    done.set_result(None)
                else:
                    done.set_exception(_for_caller(outcome))

    def close(self) -> None:
        self._executor.shutdown()


def _for_caller(exc: StorageError) -> StorageError:
    """A copy of ``exc`` for one caller (a failed batch fails every move with one error), as
    :class:`StorageUnavailable` where the repository wrapped a driver error (the database failed)."""
    failed = StorageUnavailable if isinstance(exc.__cause__, SQLAlchemyError) else type(exc)
    copy = failed(*exc.args)
    copy.__cause__ = exc.__cause__
    return copy


def _first_line(exc: BaseException) -> str:
    # SQLAlchemy's message carries the SQL and parameters on later lines: never pass those on.
    orig = getattr(exc, "orig", None)
    text = str(orig if orig is not None else exc)
    return text.splitlines()[0] if text else type(exc).__name__
