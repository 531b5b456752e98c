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
import concurrent.futures
import functools
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


class Database:
    """Runs :class:`~bummerl.server.storage.Repository` calls in worker threads."""

    def __init__(self, repo: Repository, threads: int = 4) -> None:
        self.repo = repo
        # An in-memory SQLite database is a single connection: one thread, so its calls never interleave.
        self.threads = 1 if repo.single_connection else threads
        self._executor = concurrent.futures.ThreadPoolExecutor(self.threads, thread_name_prefix="bummerl-db")
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
            return await loop.run_in_executor(self._executor, functools.partial(call, *args, **kwargs))
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
        self._executor.shutdown(wait=False, cancel_futures=True)


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
