"""Running a tournament: play what is missing, keep every deal as it finishes, then the standings.

:func:`run_tournament` opens the tournament's directory (a new one, or the same
tournament to resume: :mod:`bummerl.tournament.store`), then repeats: ask the
schedule what is missing (:func:`bummerl.tournament.schedule.plan`), play those
deals on the backend, write each one to disk the moment its result comes back.
A Swiss or knock-out round is paired only once the round before it is finished,
so each round is one batch; a round robin is one batch.  Deals never played
twice: what is on disk is skipped, and each deal is the same whenever and
wherever it is played (seeded by the tournament's seed: ``bummerl.arena``).

>>> import tempfile
>>> config = TournamentConfig("knock-out", "schnapsen", ["heuristic", "random", "easy"], games=2, seed=3)
>>> with tempfile.TemporaryDirectory() as root:
...     report = run_tournament(config, root, plot=False)
...     again = run_tournament(config, root, plot=False)  # resumed: everything is on disk
>>> [(row["rank"], row["bot"], row["place"]) for row in report["standings"]]
[(1, 'heuristic', 1), (2, 'easy', 2), (3, 'random', 3)]
>>> report["run"]["deals_played"], again["run"]["deals_played"], again["standings"] == report["standings"]
(4, 0, True)

The work of a worker is :func:`play_job`: some deals of one pairing, with a
:class:`~bummerl.arena.play.BotPool` that keeps its ``cmd:`` bots running between
them, every game recorded.
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from bummerl.arena import ArenaConfig, Backend, DealResult, deal_chunks, make_backend, play_deal
from bummerl.arena.play import BotPool
from bummerl.tournament.config import TournamentConfig
from bummerl.tournament.formats import Pairing
from bummerl.tournament.plot import plot_ratings
from bummerl.tournament.report import build_report
from bummerl.tournament.schedule import Plan, plan
from bummerl.tournament.store import Store

__all__ = ["Job", "play_job", "run_tournament"]

#: Called after each deal is on disk: ``(pairing, deal, deals played so far in this run)``.
DealHook = Callable[[Pairing, int, int], None]


@dataclasses.dataclass(frozen=True)
class Job:
    """Deals of one pairing for one worker (picklable: it travels to a process or a Ray task)."""

    pairing: Pairing
    arena: ArenaConfig
    deals: tuple[int, ...]
    #: The tags every game's record gets.
    tags: dict[str, str]


def play_job(job: Job) -> list[tuple[Pairing, DealResult]]:
    """Play a job's deals, every game recorded."""
    with BotPool(job.arena.move_timeout) as pool:
        return [(job.pairing, play_deal(job.arena, d, pool, record_tags=job.tags)) for d in job.deals]


def run_tournament(
    config: TournamentConfig,
    out: Path | str,
    *,
    backend: Backend | None = None,
    jobs: int | None = None,
    on_deal: DealHook | None = None,
    plot: bool = True,
) -> dict[str, Any]:
    """Play (or resume) the tournament in ``out`` and return its report (the ``--json`` object).

    ``backend`` runs the deals (default: ``jobs`` worker processes, one per
    core); ``on_deal`` is called after each deal is kept; ``plot`` draws
    ``DIR/ratings.svg`` when matplotlib is installed (a note says so when not).
    The report is also written to ``DIR/standings.json``.
    """
    started = time.perf_counter()
    store = Store.open(out, config.to_json())
    results = store.load()
    on_disk = sum(len(deals) for deals in results.values())
    own = backend is None
    runner = make_backend("process", jobs=jobs) if backend is None else backend
    played = 0
    try:
        while True:
            current = plan(config, results)
            if current.finished:
                break
            for _, finished in runner.imap_unordered(play_job, _jobs(config, current, runner.jobs)):
                for pairing, result in finished:
                    store.save(pairing, result)
                    results.setdefault(pairing, {})[result.deal] = result
                    played += 1
                    if on_deal is not None:
                        on_deal(pairing, result.deal, played)
    finally:
        if own:
            runner.close()
    run = {
        "deals_on_disk": on_disk,
        "deals_played": played,
        "backend": runner.name,
        "jobs": runner.jobs,
        "seconds": time.perf_counter() - started,
    }
    report = build_report(config, current, results, store.root, run)
    report["notes"] += [f"{path} could not be read: its deal was played again" for path in store.unreadable]
    if plot:
        _plot(report, store)
    store.write_json("standings.json", report)
    return report


def _jobs(config: TournamentConfig, current: Plan, workers: int) -> list[Job]:
    """The missing deals as jobs: per pairing, cut in chunks as the arena cuts its deals."""
    jobs = []
    for rnd in current.rounds:
        for p in rnd.pairings:
            deals = p.missing
            if not deals:
                continue
            arena = config.arena(p.pairing.a, p.pairing.b, p.deals)
            tags = {"Event": f"bummerl tournament ({config.format})", "Round": str(rnd.number)}
            for chunk in deal_chunks(arena, deals, workers):
                jobs.append(Job(p.pairing, arena, tuple(chunk), tags))
    return jobs


def _plot(report: dict[str, Any], store: Store) -> None:
    """Draw the ratings, or note why not: a missing plot never fails a tournament."""
    title = f"{report['format']} of {len(report['bots'])} bots, {report['variant']}, seed {report['seed']}"
    try:
        report["plot"] = str(plot_ratings(report["standings"], store.root / "ratings.svg", title))
    except ImportError:
        report["notes"].append(
            "no plot of the ratings: matplotlib is not installed (pip install 'bummerl[tournament]')"
        )
