"""What every backend of the arena is: :class:`Backend` (which runs the work in this process), and the error of a
backend whose optional extra is missing.

:mod:`bummerl.arena.backends` adds the worker processes and makes a backend by name;
:mod:`bummerl.arena.ray_backend` the Ray cluster.  Both build on this module, which imports neither.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator, Sequence
from types import TracebackType
from typing import TypeVar

__all__ = ["Backend", "MissingExtraError", "default_jobs"]

A = TypeVar("A")
R = TypeVar("R")


class MissingExtraError(ImportError):
    """A backend needs an optional extra that is not installed; the message says what to install."""


def default_jobs() -> int:
    """One worker per core this process may use."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not on Linux
        return os.cpu_count() or 1


class Backend:
    """Runs ``fn(item)`` for every item somewhere; use as a context manager."""

    name = "serial"

    def __init__(self, jobs: int | None = None) -> None:
        self.jobs = max(1, jobs if jobs is not None else default_jobs())

    def imap_unordered(self, fn: Callable[[A], R], items: Sequence[A]) -> Iterator[tuple[int, R]]:
        """``(index, fn(items[index]))`` for every item, in the order they finish."""
        for index, item in enumerate(items):
            yield index, fn(item)

    def close(self) -> None:
        """Release the workers (nothing to release here)."""

    def __enter__(self) -> Backend:
        return self

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None) -> None:
        self.close()
