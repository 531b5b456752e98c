"""Where the arena's and the tournament's work runs: this process, worker processes, or a Ray cluster.

A backend maps a picklable function over picklable items and yields
``(index, result)`` pairs as results finish, so a caller can record each one at
once (the tournament writes every finished deal to disk before the next).
Results never depend on the backend: every deal is seeded from the run's seed,
so ``process`` and ``ray`` give the same games for the same seed; only the
timings differ.

>>> with make_backend("process", jobs=1) as backend:
...     sorted(backend.imap_unordered(abs, [-3, 1, -2]))
[(0, 3), (1, 1), (2, 2)]
>>> make_backend("cloud")
Traceback (most recent call last):
...
ValueError: backend must be one of 'process', 'ray', not 'cloud'

``process`` (the default) forks one worker per core (``jobs``); with one job it
runs in the calling process.  ``ray`` submits each item as a Ray task to the
cluster at ``address`` (``None``: a local Ray started for the run and stopped
after it); it needs the extra ``bummerl[ray]``, and without it raises
:class:`MissingExtraError` (:mod:`bummerl.arena.ray_backend`).
"""

from __future__ import annotations

import ctypes
import os
import signal
import sys
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from multiprocessing import get_all_start_methods, get_context
from typing import TypeVar

from bummerl.arena.backend_base import Backend, MissingExtraError, default_jobs
from bummerl.arena.ray_backend import RayBackend

__all__ = ["BACKENDS", "Backend", "MissingExtraError", "ProcessBackend", "default_jobs", "make_backend"]

A = TypeVar("A")
R = TypeVar("R")

#: The names ``--backend`` accepts.
BACKENDS = ("process", "ray")


class ProcessBackend(Backend):
    """``jobs`` worker processes on this machine (forked where the platform can).

    Forking is fast and needs no ``__main__`` guard in callers; the arena starts
    no threads in the parent, so forking is safe.  With one job the work runs in
    this process, which keeps tracebacks and profiles simple.
    """

    name = "process"

    def __init__(self, jobs: int | None = None) -> None:
        super().__init__(jobs)
        self._pool: ProcessPoolExecutor | None = None

    def imap_unordered(self, fn: Callable[[A], R], items: Sequence[A]) -> Iterator[tuple[int, R]]:
        if self.jobs == 1 or len(items) <= 1:
            yield from super().imap_unordered(fn, items)
            return
        if self._pool is None:
            method = "fork" if "fork" in get_all_start_methods() else "spawn"
            self._pool = ProcessPoolExecutor(
                max_workers=self.jobs, mp_context=get_context(method), initializer=_die_with_parent
            )
        futures: dict[Future[R], int] = {self._pool.submit(fn, item): i for i, item in enumerate(items)}
        pending = set(futures)
        try:
            while pending:
                done, pending = wait(pending, return_when=FIRST_COMPLETED)
                for future in sorted(done, key=futures.__getitem__):
                    yield futures[future], future.result()
        finally:
            for future in pending:
                future.cancel()

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=True, cancel_futures=True)
            self._pool = None


def _die_with_parent() -> None:
    """In a worker: be killed when the parent dies, so a killed run leaves no idle worker behind.

    A ``ProcessPoolExecutor``'s idle worker waits on its call queue forever once
    the parent is gone (SIGKILL: no shutdown message ever comes), and a resumed
    tournament would start a second set beside it.  Linux's ``PR_SET_PDEATHSIG``
    sends the worker SIGTERM when its parent thread exits; elsewhere nothing is done.
    """
    if not sys.platform.startswith("linux"):  # pragma: no cover
        return
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        pr_set_pdeathsig = 1
        libc.prctl(pr_set_pdeathsig, signal.SIGTERM)
    except (OSError, AttributeError):  # pragma: no cover - no prctl: the old behaviour
        return
    if os.getppid() == 1:  # the parent died before prctl took effect
        os._exit(1)


def make_backend(name: str = "process", *, jobs: int | None = None, address: str | None = None) -> Backend:
    """The backend called ``name`` (one of :data:`BACKENDS`)."""
    if name == "process":
        if address is not None:
            raise ValueError("--address is for the ray backend only")
        return ProcessBackend(jobs)
    if name == "ray":
        return RayBackend(jobs, address)
    raise ValueError(f"backend must be one of {', '.join(map(repr, BACKENDS))}, not {name!r}")
