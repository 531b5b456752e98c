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
import time
from collections.abc import Callable, Sequence
from functools import partial
from typing import Any

from bummerl.arena.backends import BACKENDS, Backend, default_jobs, make_backend
from bummerl.arena.deals import (
    SIDES,
    UNITS,
    ArenaConfig,
    DealResult,
    GameLog,
    MatchLog,
    PlaySettings,
    play_deal,
    seatings,
    side_points,
)
from bummerl.arena.families import forfeit_points
from bummerl.arena.play import BotPool, is_protocol
from bummerl.arena.report import format_report, paired_interval, summarize
from bummerl.arena.selfplay import SelfplayStats, selfplay
from bummerl.arena.sprt import SequentialTest, Sprt, deal_score

__all__ = [
    "BACKENDS",
    "SIDES",
    "UNITS",
    "ArenaConfig",
    "Backend",
    "DealResult",
    "GameLog",
    "MatchLog",
    "PlaySettings",
    "SelfplayStats",
    "Sprt",
    "deal_chunks",
    "default_jobs",
    "forfeit_points",
    "format_report",
    "make_backend",
    "paired_interval",
    "play_chunk",
    "play_deal",
    "play_deals",
    "run_arena",
    "seatings",
    "selfplay",
    "side_points",
    "summarize",
]


def run_arena(
    config: ArenaConfig,
    progress: Callable[[int, int], None] | None = None,
    game_log: bool = False,
    backend: Backend | None = None,
    sprt: Sprt | None = None,
) -> dict[str, Any]:
    """Play the arena and return the report (the ``--json`` object).

    ``progress(done, total)`` is called as deals finish; ``game_log`` adds
    every game (deal, seating, points per side, reason ...) to the report.
    ``backend`` runs the deals (:mod:`bummerl.arena.backends`; default: worker
    processes, ``config.jobs`` of them); the report is the same on every backend.

    With ``sprt`` the deals are played in batches until the sequential test
    decides (:mod:`bummerl.arena.sprt`; ``config.deals`` is the maximum); the
    report covers exactly the deals the test counted and has an ``"sprt"`` entry:

    >>> report = run_arena(ArenaConfig("schnapsen", "heuristic", "random", deals=200, jobs=1), sprt=Sprt(0, 50))
    >>> report["sprt"]["result"], report["deals"] == report["sprt"]["deals"] < 200
    ('H1', True)
    """
    started = time.perf_counter()
    own = backend is None
    runner = make_backend("process", jobs=min(config.jobs or default_jobs(), config.deals)) if own else backend
    assert runner is not None
    test = None if sprt is None else SequentialTest(sprt)
    try:
        if test is None:
            results = play_deals(config, range(config.deals), runner, progress)
        else:
            results = _play_until_decided(config, runner, test, progress)
    finally:
        if own:
            runner.close()
    results.sort(key=lambda r: r.deal)
    report = summarize(config, results, runner.jobs, time.perf_counter() - started, game_log)
    if test is not None:
        report["sprt"] = test.report()
    return report


def sprt_batch(config: ArenaConfig, jobs: int) -> int:
    """Deals submitted at a time under an SPRT: at most this many are played beyond the decision.

    >>> sprt_batch(ArenaConfig("schnapsen", "random", "random", deals=100), 2)
    16
    """
    return max(16, 8 * jobs)


def _play_until_decided(
    config: ArenaConfig, backend: Backend, test: SequentialTest, progress: Callable[[int, int], None] | None
) -> list[DealResult]:
    """Deals in batches until ``test`` decides or ``config.deals`` are played; the deals the test counted."""
    played: dict[int, DealResult] = {}
    batch = sprt_batch(config, backend.jobs)
    start = 0
    while start < config.deals and not test.decided:
        deals = range(start, min(start + batch, config.deals))
        chunks = deal_chunks(config, deals, backend.jobs)
        for _, chunk in backend.imap_unordered(partial(play_chunk, config), chunks):
            for result in chunk:
                played[result.deal] = result
                test.add(result.deal, deal_score(g.side_points for g in result.games))
            if progress is not None:
                progress(len(played), config.deals)
            if test.decided:
                break  # the backend drops the chunks not yet started
        start = deals.stop
    return [played[d] for d in range(test.counted)]


def deal_chunks(config: ArenaConfig, deals: Sequence[int], workers: int) -> list[list[int]]:
    """``deals`` cut into chunks for ``workers`` workers.

    Small chunks balance the load; bots in processes prefer few big chunks,
    since each chunk starts its bot processes once.

    >>> deal_chunks(ArenaConfig("schnapsen", "random", "random", deals=5), range(5), 2)
    [[0], [1], [2], [3], [4]]
    """
    per_job = 2 if is_protocol(config.a) or is_protocol(config.b) else 8
    size = max(1, math.ceil(len(deals) / (workers * per_job)))
    return [list(deals[i : i + size]) for i in range(0, len(deals), size)]


def play_deals(
    config: ArenaConfig,
    deals: Sequence[int],
    backend: Backend,
    progress: Callable[[int, int], None] | None = None,
) -> list[DealResult]:
    """Play ``deals`` of ``config`` on ``backend``; the results in the order they finish."""
    chunks = deal_chunks(config, deals, backend.jobs)
    results: list[DealResult] = []
    for _, chunk in backend.imap_unordered(partial(play_chunk, config), chunks):
        results.extend(chunk)
        if progress is not None:
            progress(len(results), len(deals))
    return results


def play_chunk(config: ArenaConfig, deals: Sequence[int]) -> list[DealResult]:
    """A worker's share: several deals, its ``cmd:`` bots kept running between them."""
    with BotPool(config.move_timeout) as pool:
        return [play_deal(config, d, pool) for d in deals]
