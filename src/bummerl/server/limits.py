"""Per-client rate limits of the HTTP API: how often one client may create, join and analyse.

Every limit is a moving window of the ``limits`` library (in memory, per
process) keyed by :func:`~bummerl.server.clients.client_key`; a request over
its limit gets ``429`` with ``Retry-After`` (seconds until the window lets the
next one through).  The numbers are in :class:`~bummerl.server.config.ServerConfig`
and docs/security.md says why each is what it is.

>>> rates = RateLimits(create="2/minute", join="5/minute", analysis="2/minute", api="100/second", connect="60/minute")
>>> rates.check("create", "203.0.113.7"), rates.check("create", "203.0.113.7")
(None, None)
>>> 0 < rates.check("create", "203.0.113.7") <= 60
True
>>> rates.check("create", "198.51.100.1") is None  # another client has its own window
True
"""

from __future__ import annotations

import math
import time
from typing import Literal

import limits
from limits.storage import MemoryStorage
from limits.strategies import MovingWindowRateLimiter

__all__ = ["Limited", "RateLimits"]

Limited = Literal["create", "join", "analysis", "api", "connect"]


class RateLimits:
    """The moving windows of one app: ``check(what, client)`` counts a request and says whether it may go on."""

    def __init__(self, *, create: str, join: str, analysis: str, api: str, connect: str) -> None:
        self._items = {
            "create": limits.parse(create),
            "join": limits.parse(join),
            "analysis": limits.parse(analysis),
            "api": limits.parse(api),
            "connect": limits.parse(connect),
        }
        self._limiter = MovingWindowRateLimiter(MemoryStorage())

    def check(self, what: Limited, client: str) -> float | None:
        """Count one request of ``client``; ``None`` if it may go on, else the seconds to wait."""
        item = self._items[what]
        if self._limiter.hit(item, what, client):
            return None
        reset = self._limiter.get_window_stats(item, what, client).reset_time
        return float(max(1, math.ceil(reset - time.time())))

    def describe(self) -> dict[str, str]:
        """Each limit in the ``limits`` notation (``10/minute``), for docs and the API."""
        return {what: str(item) for what, item in self._items.items()}
