"""What the two arenas and selfplay share: running deals over worker processes, and the reports.

:mod:`bummerl.arena` (two players) and :mod:`bummerl.table_arena` (three and
four) play their deals differently but run them the same way
(:func:`run_chunks`) and report them with the same JSON keys
(:func:`side_entry`, :func:`report`; docs/arena.md lists every key).  Keeping
both here means a key or a statistic cannot drift between the arenas.
:class:`SelfplayStats` is the totals of ``bummerl selfplay`` for every variant.

>>> entry = side_entry("expert", points=9, won=5, games=8, times=[0.1, 0.3, 0.2],
...                    matches_won=1, bummerl_given=2, matches=2, forfeits=0)
>>> entry["ppg"], entry["move_seconds_median"], entry["games_won"]
(1.125, 0.2, 5)
>>> paired_interval([4.0], [2.0]) is None  # one deal: no interval, never a made-up one
True
"""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from multiprocessing import get_all_start_methods, get_context
from typing import Any, TypeVar

from bummerl.stats import median, ratio_interval, wilson_interval
from bummerl.variants import TableVariant, TwoPlayerVariant

__all__ = ["SelfplayStats", "default_jobs", "paired_interval", "report", "run_chunks", "side_entry"]

C = TypeVar("C")
R = TypeVar("R")


def default_jobs() -> int:
    """One worker per core this process may use."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not on Linux
        return os.cpu_count() or 1


def run_chunks(
    worker: Callable[[C, Sequence[int]], list[R]],
    config: C,
    chunks: Sequence[range],
    jobs: int,
    total: int,
    progress: Callable[[int, int], None] | None = None,
) -> list[R]:
    """``worker(config, chunk)`` for every chunk of deals, in ``jobs`` processes, results in chunk order.

    Processes are forked where the platform can (fast, and callers need no
    ``__main__`` guard; the arenas start no threads in the parent, so forking
    is safe).  ``progress(done, total)`` is called as chunks finish.
    """
    results: list[R] = []
    if jobs == 1:
        for chunk in chunks:
            results.extend(worker(config, chunk))
            if progress is not None:
                progress(len(results), total)
        return results
    method = "fork" if "fork" in get_all_start_methods() else "spawn"
    with ProcessPoolExecutor(max_workers=jobs, mp_context=get_context(method)) as pool:
        for future in [pool.submit(worker, config, chunk) for chunk in chunks]:
            results.extend(future.result())
            if progress is not None:
                progress(len(results), total)
    return results


def paired_interval(diffs: Sequence[float], games: Sequence[float]) -> list[float] | None:
    """The 95% interval of the points difference per game, the deal as the unit (``None`` below 2 deals)."""
    if len(diffs) < 2:
        return None
    return list(ratio_interval(diffs, games))


def side_entry(
    name: str,
    *,
    points: int,
    won: int,
    games: int,
    times: Sequence[float],
    matches_won: int,
    bummerl_given: int,
    matches: int,
    forfeits: int,
) -> dict[str, Any]:
    """One side's part of the report (side ``a`` gets ``ppg_ci95`` from :func:`report`)."""
    entry: dict[str, Any] = {
        "name": name,
        "game_points": points,
        "games_won": won,
        "bummerl_won": matches_won,
        "ppg": points / games if games else 0.0,
    }
    entry["move_seconds_median"] = median(times) if times else None
    entry["move_seconds_max"] = max(times) if times else None
    entry["moves"] = len(times)
    entry["games_won_ci95"] = list(wilson_interval(won, games)) if games else None
    entry["bummerl_given"] = bummerl_given
    entry["bummerl_won_ci95"] = list(wilson_interval(min(matches_won, matches), matches)) if matches else None
    entry["forfeits"] = forfeits
    return entry


def report(
    variant: TwoPlayerVariant | TableVariant,
    *,
    seed: int,
    unit: str,
    deals: int,
    games: int,
    matches: int,
    a: dict[str, Any],
    b: dict[str, Any],
    ppg_ci95: list[float] | None,
    games_unwon: int,
    forfeits: list[Any],
    move_timeout: float | None,
    jobs: int,
    seconds: float,
) -> dict[str, Any]:
    """The whole report (the ``--json`` object) from the two :func:`side_entry` parts.

    ``ppg_ci95`` (:func:`paired_interval`) goes into side ``a``, right after its ``ppg``.
    """
    total = a["game_points"] + b["game_points"]
    side_a: dict[str, Any] = {}
    for key, value in a.items():
        side_a[key] = value
        if key == "ppg":
            side_a["ppg_ci95"] = ppg_ci95
    return {
        "variant": variant.name,
        "options": variant.options(),
        "seed": seed,
        "unit": unit,
        "deals": deals,
        "games": games,
        "bummerl_played": matches,
        "a": side_a,
        "b": b,
        "ppg_diff": a["ppg"] - b["ppg"],
        "points_share_a": a["game_points"] / total if total else None,
        "games_unwon": games_unwon,
        "forfeits": forfeits,
        "move_timeout": move_timeout,
        "jobs": jobs,
        "seconds": seconds,
    }


@dataclasses.dataclass
class SelfplayStats:
    """Totals of a selfplay run, per seat (two, three or four seats).

    >>> from bummerl.variants import find_variant
    >>> stats = SelfplayStats(find_variant("schnorps"), ["expert", "random"], seed=1)
    >>> stats.wins, stats.unit
    ([0, 0], 'Marken')
    """

    variant: TwoPlayerVariant | TableVariant
    bots: list[str]
    seed: int
    games: int = 0
    wins: list[int] = dataclasses.field(default_factory=list)
    game_points: list[int] = dataclasses.field(default_factory=list)
    #: Games nobody scored (a table game's redeal after three Unter).
    draws: int = 0
    seconds: float = 0.0

    def __post_init__(self) -> None:
        self.wins = self.wins or [0] * len(self.bots)
        self.game_points = self.game_points or [0] * len(self.bots)

    @property
    def unit(self) -> str:
        """What the points are: Schnorps counts Marken."""
        if isinstance(self.variant, TwoPlayerVariant) and self.variant.match_kind == "marken":
            return "Marken"
        return "game points"

    def as_json(self) -> dict[str, Any]:
        """The JSON object ``--json`` prints."""
        return {
            "variant": self.variant.name,
            "options": self.variant.options(),
            "seed": self.seed,
            "bots": list(self.bots),
            "games": self.games,
            "wins": list(self.wins),
            "draws": self.draws,
            "game_points": list(self.game_points),
            "seconds": round(self.seconds, 6),
        }

    def table(self) -> str:
        """A small plain-text table, one line per seat."""
        width = max(len(b) for b in self.bots)
        lines = [
            f"{self.games} games of {self.variant.title}, seed {self.seed}, {self.seconds:.2f} s",
            f"{'seat':<4}  {'bot':<{width}}  {'wins':>6}  {self.unit:>11}  {'per game':>8}",
        ]
        for seat, name in enumerate(self.bots):
            per_game = self.game_points[seat] / self.games if self.games else 0.0
            lines.append(
                f"{seat:<4}  {name:<{width}}  {self.wins[seat]:>6}  {self.game_points[seat]:>11}  {per_game:>8.3f}"
            )
        if self.draws:
            what = "redeals" if isinstance(self.variant, TableVariant) else "draws"
            lines.append(f"{what} (nobody scored): {self.draws}")
        return "\n".join(lines)
