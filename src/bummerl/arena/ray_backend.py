"""The ``ray`` backend: every item a Ray task, on a Ray started for the run or on a cluster (``bummerl[ray]``).

Made by ``make_backend("ray", jobs=J, address=ADDR)`` (``bummerl arena
--backend ray [--address ADDR]``)::

    with make_backend("ray", address="10.0.0.5:6379") as backend:  # a cluster from `ray start --head`
        report = run_arena(config, backend=backend)

* ``address=None``: a local Ray is started with ``jobs`` CPUs (default: one per
  core this process may use, as for ``process``) and stopped by :meth:`close`;
  never a cluster found by chance (Ray's own default would join the last
  cluster ``ray start`` made on this machine; ask for that with ``"auto"``).
* ``address="HOST:PORT"`` (or ``"auto"``): that cluster; :meth:`close` leaves
  it running.  Ray sends a cluster its authentication token only with
  ``RAY_AUTH_MODE=token`` set (docs/arena.md, "Beyond one machine").
* Ray already initialised in this process (a notebook, a test): that
  connection is used as it is, whatever ``address`` says, and left open.

``jobs`` is what the arena cuts its deals for (``deal_chunks``): the CPUs the
cluster offers unless given.  At most :func:`in_flight_limit` tasks are
submitted and not yet collected, so a run of a million deals does not queue a
million tasks.  A task that raises re-raises the same exception, with the same
message, in the caller.

>>> in_flight_limit(2)
4

This module is the only one that imports Ray, and only when a backend is made:
importing it needs no extra, and without Ray :class:`RayBackend` raises
:class:`~bummerl.arena.backend_base.MissingExtraError` with the ``pip install`` to
run.  Results do not depend on the backend; this module never plays a game.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Callable, Iterator, Sequence
from types import ModuleType
from typing import Any, TypeVar

from bummerl.arena.backend_base import Backend, MissingExtraError, default_jobs

__all__ = ["RAY_MISSING", "RayBackend", "in_flight_limit"]

A = TypeVar("A")
R = TypeVar("R")

#: What a user without the extra is told.
RAY_MISSING = "the ray backend needs the 'ray' extra: pip install 'bummerl[ray]'"


def in_flight_limit(jobs: int) -> int:
    """Tasks submitted and not yet collected: two per worker, so a worker that finishes finds its next task queued."""
    return 2 * max(1, jobs)


def import_ray() -> ModuleType:
    """The ``ray`` module, or :class:`MissingExtraError` saying how to install it."""
    try:
        import ray
    except ImportError as exc:
        raise MissingExtraError(RAY_MISSING) from exc
    return ray


def _call(fn: Callable[[A], R], item: A) -> R:
    """What every task runs: one function, shared through the object store, on one item."""
    return fn(item)


class RayBackend(Backend):
    """Each item a Ray task; results as they finish (:func:`ray.wait`)."""

    name = "ray"

    def __init__(self, jobs: int | None = None, address: str | None = None) -> None:
        self.ray = import_ray()
        self.address = address
        #: Whether this backend started Ray (and so stops it at close).
        self.started = False
        if not self.ray.is_initialized():
            self._init(jobs, address)
            self.started = True
        super().__init__(jobs if jobs is not None else self.cluster_cpus())
        self._remote: Any = self.ray.remote(_call)

    def _init(self, jobs: int | None, address: str | None) -> None:
        # Ray's usage statistics would be sent from this machine; the user can still opt in.
        os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")
        local = address is None
        try:
            self.ray.init(
                address="local" if local else address,
                num_cpus=(jobs if jobs is not None else default_jobs()) if local else None,
                include_dashboard=False,
                log_to_driver=False,
                logging_level=logging.WARNING,
            )
        except ConnectionError as exc:
            if local:
                raise
            hint = ""
            if os.environ.get("RAY_AUTH_MODE", "").lower() != "token":
                # Ray sends its token only to clusters it found itself, not to an address it was given.
                hint = " (a cluster with token authentication also needs RAY_AUTH_MODE=token: docs/arena.md)"
            raise ConnectionError(f"cannot reach the Ray cluster at {address!r}: {exc}{hint}") from exc

    def cluster_cpus(self) -> int:
        """The CPUs the cluster offers (at least 1)."""
        return max(1, int(self.ray.cluster_resources().get("CPU", 1)))

    def imap_unordered(self, fn: Callable[[A], R], items: Sequence[A]) -> Iterator[tuple[int, R]]:
        ray = self.ray
        if not ray.is_initialized():  # ray.put would quietly start a new local Ray
            raise RuntimeError("the ray backend is closed: Ray is not running")
        shared = ray.put(fn)  # serialised once, not once per task
        limit = in_flight_limit(self.jobs)
        index: dict[Any, int] = {}
        upcoming = iter(enumerate(items))
        try:
            while True:
                while len(index) < limit and (task := next(upcoming, None)) is not None:
                    index[self._remote.remote(shared, task[1])] = task[0]
                if not index:
                    return
                (ready,), _ = ray.wait(list(index), num_returns=1)
                yield index.pop(ready), self._result(ready)
        finally:
            for ref in index:  # the caller stopped early or a task failed: drop the rest
                ray.cancel(ref)

    def _result(self, ref: Any) -> Any:
        """The task's value; its exception, as raised in the worker, if it failed."""
        try:
            return self.ray.get(ref)
        except self.ray.exceptions.RayTaskError as exc:
            cause = getattr(exc, "cause", None)
            if isinstance(cause, BaseException):
                raise cause from exc
            raise

    def close(self) -> None:
        """Stop Ray if this backend started it; a cluster or connection it found stays as it was."""
        if self.started and self.ray.is_initialized():
            self.ray.shutdown()
        self.started = False
