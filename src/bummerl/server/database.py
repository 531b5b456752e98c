"""The repository off the event loop: every database call of the server runs in a thread of its own pool.

SQLite waits for a lock (up to its busy timeout) inside the call, and a
PostgreSQL server may be slow or gone; run on the event loop either would stall
every table of the process.  :class:`Database` runs each call in a small thread
pool and turns a database that cannot answer (locked, down, out of connections)
into :class:`StorageUnavailable`, which the API answers with ``503`` and
``Retry-After`` and a table with its ``storage`` state (docs/web.md).

In a coroutine, ``await db.run(repo.append_action, game_id, ply, token)``
stores a move without blocking the event loop.  An in-memory SQLite database
is one connection, so it gets one thread (its calls never interleave):

>>> from bummerl.server.storage import Repository
>>> repo = Repository("sqlite://")
>>> db = Database(repo, threads=4)
>>> db.threads, Database(Repository("sqlite:///games.db"), threads=4).threads
(1, 4)
>>> db.close(); repo.dispose()
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import functools
from collections.abc import Callable
from typing import ParamSpec, TypeVar

from sqlalchemy.exc import DBAPIError, SQLAlchemyError

from bummerl.server.storage import Repository, StorageError

__all__ = ["Database", "StorageUnavailable"]

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

    def close(self) -> None:
        self._executor.shutdown(wait=False, cancel_futures=True)


def _first_line(exc: BaseException) -> str:
    # SQLAlchemy's message carries the SQL and parameters on later lines: never pass those on.
    orig = getattr(exc, "orig", None)
    text = str(orig if orig is not None else exc)
    return text.splitlines()[0] if text else type(exc).__name__
