"""A set of background tasks that a service owns and cancels when the app stops.

The analyses, the hints and the results still to store each run work as tasks of their own; each keeps them in a
:class:`TaskSet`, so that the app's shutdown cancels every one and waits for it once, the same way.

>>> import asyncio
>>> async def main() -> tuple[int, int]:
...     tasks = TaskSet()
...     tasks.spawn(asyncio.sleep(60))
...     running = len(tasks)
...     await tasks.cancel_all()
...     return running, len(tasks)
>>> asyncio.run(main())
(1, 0)
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Coroutine, Iterable
from typing import Any

__all__ = ["TaskSet", "cancel_and_wait"]


class TaskSet:
    """Tasks started with :meth:`spawn`; a finished one leaves the set by itself."""

    def __init__(self) -> None:
        self._tasks: set[asyncio.Task[Any]] = set()

    def __len__(self) -> int:
        return len(self._tasks)

    def spawn(self, coro: Coroutine[Any, Any, Any]) -> asyncio.Task[Any]:
        """Run ``coro`` as a task of this set (on the running loop)."""
        task = asyncio.get_running_loop().create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return task

    async def cancel_all(self) -> None:
        """Cancel every task and wait until each has ended (whatever it raised)."""
        await cancel_and_wait(self._tasks)


async def cancel_and_wait(tasks: Iterable[asyncio.Task[Any]]) -> None:
    """Cancel each of ``tasks`` and wait until each has ended (whatever it raised): a service's shutdown."""
    tasks = list(tasks)
    for task in tasks:
        task.cancel()
    for task in tasks:
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await task
