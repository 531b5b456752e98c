"""Games per second of the arena on each backend, and what Ray costs per task and per game, in one run.

    python bench/backends.py                       # schnapsen heuristic/random, 2000 deals, best of 3
    python bench/backends.py --variant bauernschnapsen --deals 500 --json

Four rows play the same deals (``run_arena`` with the same configuration):
``process`` with 1 worker (in this process) and 2 (forked workers), then
``ray`` with 1 and 2 CPUs, each on a local Ray started for its row and stopped
after it, as ``bummerl arena --backend ray --jobs J`` does.  Per row:

* ``start s``: making the backend (Ray: ``ray.init``, a local cluster);
* ``run s``: the best of ``--repeat`` arena runs on the started backend (the
  first Ray run also imports Bummerl in the Ray workers), and ``games/s`` from it;
* ``task ms``: the wall time per task of mapping a function that does nothing
  (``abs``) over ``--tasks`` items: the backend's own cost per task;
* ``same``: whether the report equals that of the first row, timings aside
  (it must: results never depend on the backend).

Below the table, Ray's overhead per game: (``run s`` of ray-1 minus that of
process-1) / games, the same work on one worker with and without Ray.  Times
are wall-clock (``time.perf_counter``): parallel work is what is measured, so
other load on a shared machine counts; run it on a quiet one.  Needs the
``ray`` extra (``pip install -e '.[ray]'``).
"""

from __future__ import annotations

import argparse
import json
import os
import time
from typing import Any

from bummerl.arena import ArenaConfig, Backend, make_backend, run_arena

#: What differs between two runs of the same configuration.
TIMING = {"seconds", "jobs"}


def without_timing(report: dict[str, Any]) -> dict[str, Any]:
    """The report minus wall times and the number of workers."""
    out = {k: v for k, v in report.items() if k not in TIMING}
    for side in ("a", "b"):
        out[side] = {k: v for k, v in report[side].items() if not k.startswith("move_seconds")}
    return out


def measure(name: str, jobs: int, config: ArenaConfig, repeat: int, tasks: int) -> dict[str, Any]:
    """One row: start the backend, run the arena ``repeat`` times, map ``tasks`` empty tasks, stop it."""
    started = time.perf_counter()
    backend: Backend = make_backend(name, jobs=jobs)
    start = time.perf_counter() - started
    with backend:
        runs: list[float] = []
        report: dict[str, Any] = {}
        for _ in range(repeat):
            report = run_arena(config, game_log=True, backend=backend)
            runs.append(report["seconds"])
        began = time.perf_counter()
        done = sum(1 for _ in backend.imap_unordered(abs, list(range(tasks))))
        per_task = (time.perf_counter() - began) / done
    best = min(runs)
    return {
        "backend": name,
        "workers": backend.jobs,
        "start_seconds": start,
        "run_seconds": runs,
        "games": report["games"],
        "games_per_second": report["games"] / best,
        "task_seconds": per_task,
        "report": without_timing(report),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--variant", default="schnapsen")
    parser.add_argument("--a", default="heuristic", metavar="BOT")
    parser.add_argument("--b", default="random", metavar="BOT")
    parser.add_argument("--deals", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--repeat", type=int, default=3, help="arena runs per row, the best is kept (default 3)")
    parser.add_argument("--tasks", type=int, default=1000, help="empty tasks per row for 'task ms' (default 1000)")
    parser.add_argument("--json", action="store_true", help="one JSON object instead of the table")
    args = parser.parse_args()
    os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")
    config = ArenaConfig(args.variant, args.a, args.b, deals=args.deals, seed=args.seed)
    # The forked rows first: forking a process that holds Ray's threads is not safe.
    rows = [measure(name, jobs, config, args.repeat, args.tasks) for name in ("process", "ray") for jobs in (1, 2)]
    first = rows[0]["report"]
    for row in rows:
        row["same_report"] = row.pop("report") == first
    process_1 = next(r for r in rows if r["backend"] == "process" and r["workers"] == 1)
    ray_1 = next(r for r in rows if r["backend"] == "ray" and r["workers"] == 1)
    overhead = (min(ray_1["run_seconds"]) - min(process_1["run_seconds"])) / ray_1["games"]
    if args.json:
        settings = {"variant": args.variant, "a": args.a, "b": args.b, "deals": args.deals, "seed": args.seed}
        print(json.dumps({**settings, "rows": rows, "ray_overhead_seconds_per_game": overhead}, indent=2))
        return
    print(
        f"arena {args.variant} {args.a}/{args.b}, {args.deals} deals, seed {args.seed}: "
        f"{rows[0]['games']} games per run, best of {args.repeat}; {args.tasks} empty tasks"
    )
    print(f"{'backend':<9}{'workers':>8}{'start s':>9}{'run s':>8}{'games/s':>10}{'task ms':>9}{'same':>6}")
    for r in rows:
        print(
            f"{r['backend']:<9}{r['workers']:>8}{r['start_seconds']:>9.2f}{min(r['run_seconds']):>8.2f}"
            f"{r['games_per_second']:>10.0f}{1000 * r['task_seconds']:>9.3f}{'yes' if r['same_report'] else 'NO':>6}"
        )
    print(f"Ray's overhead per game (ray-1 minus process-1, per game): {1e6 * overhead:.1f} µs")


if __name__ == "__main__":
    main()
