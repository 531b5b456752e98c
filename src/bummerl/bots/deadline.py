"""Time limits for one decision of a search bot: a soft cap and a hard deadline.

An *anytime* search solves one sampled world after another and may stop after
any of them.  :class:`Deadline` tells it when:

* :meth:`Deadline.may_start` — whether another world may be started: before
  the **soft** cap (``seconds``), or while fewer than ``min_items`` are done
  (and the hard deadline has not passed);
* :meth:`Deadline.check` — called now and then *inside* a solve; raises
  :class:`DeadlineExceeded` once the **hard** deadline (``hard_seconds``) has
  passed, so a single slow world cannot hold up the answer.  The search then
  drops the unfinished world and answers from the finished ones (or a cheap
  fallback when none finished).

So a decision takes at most about ``hard_seconds``, whatever the load of the
machine, and uses the time up to ``seconds`` for as many worlds as fit.

>>> d = Deadline(seconds=10.0, hard_seconds=20.0)
>>> d.may_start(done=0), d.expired(), d.remaining() > 19
(True, False, True)
>>> d = Deadline(seconds=0.0, hard_seconds=0.0)
>>> d.may_start(done=0)
False
>>> d.check()
Traceback (most recent call last):
...
bummerl.bots.deadline.DeadlineExceeded: the decision's hard deadline has passed
>>> Deadline(None, None).may_start(done=10**6)   # no cap at all
True

A clock can be passed in (tests use a fake one).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Hashable, Mapping
from typing import TypeVar

__all__ = ["Deadline", "DeadlineExceeded", "sum_over_worlds"]

K = TypeVar("K", bound=Hashable)


class DeadlineExceeded(Exception):
    """The hard deadline of a decision passed during a solve."""

    def __init__(self) -> None:
        super().__init__("the decision's hard deadline has passed")


class Deadline:
    """The soft cap and hard deadline of one decision, counted from its creation.

    ``seconds`` (``None``: no soft cap): no new item is started after it, once
    ``min_items`` are done.  ``hard_seconds`` (``None``: none): nothing runs
    past it.  The hard deadline is never earlier than the soft cap.
    """

    __slots__ = ("_clock", "hard_seconds", "min_items", "seconds", "start")

    def __init__(
        self,
        seconds: float | None,
        hard_seconds: float | None,
        min_items: int = 1,
        clock: Callable[[], float] = time.perf_counter,
    ) -> None:
        if seconds is not None and hard_seconds is not None and hard_seconds < seconds:
            hard_seconds = seconds
        self.seconds = seconds
        self.hard_seconds = hard_seconds
        self.min_items = min_items
        self._clock = clock
        self.start = clock()

    def elapsed(self) -> float:
        """Seconds since the decision began."""
        return self._clock() - self.start

    def remaining(self) -> float:
        """Seconds left until the hard deadline (``inf`` without one)."""
        if self.hard_seconds is None:
            return float("inf")
        return self.hard_seconds - self.elapsed()

    def expired(self) -> bool:
        """Whether the hard deadline has passed."""
        return self.hard_seconds is not None and self.elapsed() >= self.hard_seconds

    def may_start(self, done: int) -> bool:
        """Whether another item (world) may be started after ``done`` finished ones."""
        if self.expired():
            return False
        if done < self.min_items or self.seconds is None:
            return True
        return self.elapsed() < self.seconds

    def check(self) -> None:
        """Raise :class:`DeadlineExceeded` if the hard deadline has passed."""
        if self.expired():
            raise DeadlineExceeded()


def sum_over_worlds(
    worlds: int, deadline: Deadline, solve_world: Callable[[], Mapping[K, float]]
) -> tuple[dict[K, float], int, bool]:
    """The anytime loop of a sampling search: ``solve_world()`` (sample a world, solve it) while ``deadline``
    lets another start, at most ``worlds`` times.  Returns the sum of the worlds' values by key, how many
    worlds were solved, and whether the hard deadline cut one off (it counts for nothing).

    >>> sum_over_worlds(3, Deadline(None, None), lambda: {"a": 1.0, "b": 0.5})
    ({'a': 3.0, 'b': 1.5}, 3, False)
    """
    totals: dict[K, float] = {}
    solved = 0
    while solved < worlds and deadline.may_start(solved):
        try:
            values = solve_world()
        except DeadlineExceeded:
            return totals, solved, True
        for key, value in values.items():
            totals[key] = totals.get(key, 0.0) + value
        solved += 1
    return totals, solved, False
