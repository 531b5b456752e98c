"""The arena: two bots compared on duplicate deals of any variant, in parallel, with honest statistics.

One arena for all six variants (docs/arena.md).  Every deal is played in every
seating of the bots ``a`` and ``b`` (:mod:`bummerl.arena.deals`: the seats
swapped with two players, six seatings of three, the teams swapped with four),
from the same pack, so the luck of the cards cancels within a deal; the deals
are the independent units of the 95% interval of the points difference
(:mod:`bummerl.arena.report`).  ``unit="bummerl"`` plays a whole match per
seating instead of one game.

>>> report = run_arena(ArenaConfig("schnapsen", "heuristic", "random", deals=4, seed=1, jobs=1), game_log=True)
>>> report["deals"], report["games"], report["unit"], report["seatings"]
(4, 8, 'game', ['ab', 'ba'])
>>> report["a"]["game_points"] + report["b"]["game_points"] == sum(g["points"] for g in report["game_log"])
True
>>> table = run_arena(ArenaConfig("dreierschnapsen", "heuristic", "random", deals=2, jobs=1))
>>> table["games"], table["seatings"]
(12, ['abb', 'bab', 'bba', 'baa', 'aba', 'aab'])

Bots are named like everywhere else (:func:`bummerl.bots.make_bot`) or as
``cmd:<command line>`` for a program speaking :mod:`bummerl.protocol`; a bot
only ever sees ``game.view(seat)``, and a failing bot forfeits that game only
(:mod:`bummerl.arena.play`).  Results depend only on the configuration, not on
``jobs``: every deal and every bot is seeded from ``seed``; only the timings
differ between runs.  :func:`selfplay` plays single games (``bummerl selfplay``).

The modules: :mod:`~bummerl.arena.deals` (seatings, one deal in all of them),
:mod:`~bummerl.arena.play` (the game loop, forfeits, the worker's protocol
bots), :mod:`~bummerl.arena.families` (forfeits and matches by family),
:mod:`~bummerl.arena.report` (statistics, the report), :mod:`~bummerl.arena.selfplay`.
"""

from __future__ import annotations

import math
import os
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from multiprocessing import get_all_start_methods, get_context
from typing import Any

from bummerl.arena.deals import (
    SIDES,
    UNITS,
    ArenaConfig,
    DealResult,
    GameLog,
    MatchLog,
    play_deal,
    seatings,
    side_points,
)
from bummerl.arena.families import forfeit_points
from bummerl.arena.play import BotPool, is_protocol
from bummerl.arena.report import format_report, paired_interval, summarize
from bummerl.arena.selfplay import SelfplayStats, selfplay

__all__ = [
    "SIDES",
    "UNITS",
    "ArenaConfig",
    "DealResult",
    "GameLog",
    "MatchLog",
    "SelfplayStats",
    "default_jobs",
    "forfeit_points",
    "format_report",
    "paired_interval",
    "play_deal",
    "run_arena",
    "seatings",
    "selfplay",
    "side_points",
    "summarize",
]


def run_arena(
    config: ArenaConfig, progress: Callable[[int, int], None] | None = None, game_log: bool = False
) -> dict[str, Any]:
    """Play the arena and return the report (the ``--json`` object).

    ``progress(done, total)`` is called as deals finish; ``game_log`` adds
    every game (deal, seating, points per side, reason ...) to the report.
    """
    started = time.perf_counter()
    jobs = config.jobs if config.jobs is not None else default_jobs()
    jobs = max(1, min(jobs, config.deals))
    # Small chunks balance the load; bots in processes prefer few big chunks,
    # since each chunk starts its bot processes once.
    per_job = 2 if is_protocol(config.a) or is_protocol(config.b) else 8
    size = max(1, math.ceil(config.deals / (jobs * per_job)))
    chunks = [range(i, min(config.deals, i + size)) for i in range(0, config.deals, size)]
    results = _run_chunks(config, chunks, jobs, progress)
    results.sort(key=lambda r: r.deal)
    return summarize(config, results, jobs, time.perf_counter() - started, game_log)


def default_jobs() -> int:
    """One worker per core this process may use."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not on Linux
        return os.cpu_count() or 1


def _run_chunk(config: ArenaConfig, deals: Sequence[int]) -> list[DealResult]:
    """A worker's share: several deals, its ``cmd:`` bots kept running between them."""
    with BotPool(config.move_timeout) as pool:
        return [play_deal(config, d, pool) for d in deals]


def _run_chunks(
    config: ArenaConfig, chunks: Sequence[range], jobs: int, progress: Callable[[int, int], None] | None
) -> list[DealResult]:
    """Every chunk of deals in ``jobs`` processes, results in chunk order.

    Processes are forked where the platform can (fast, and callers need no
    ``__main__`` guard; the arena starts no threads in the parent, so forking
    is safe).
    """
    results: list[DealResult] = []
    if jobs == 1:
        for chunk in chunks:
            results.extend(_run_chunk(config, chunk))
            if progress is not None:
                progress(len(results), config.deals)
        return results
    method = "fork" if "fork" in get_all_start_methods() else "spawn"
    with ProcessPoolExecutor(max_workers=jobs, mp_context=get_context(method)) as pool:
        for future in [pool.submit(_run_chunk, config, chunk) for chunk in chunks]:
            results.extend(future.result())
            if progress is not None:
                progress(len(results), config.deals)
    return results
