"""Seconds per decision of the two-player search levels, on the same positions, optionally under extra load.

    python bench/decision_times.py                                  # hard and expert, Schnapsen, 10 deals
    python bench/decision_times.py --bot hard --bot expert --deals 20 --load 2
    python bench/decision_times.py --variant sechsundsechzig --json

Both seats of ``--deals`` deals are played by ``--driver`` (default ``heuristic``), so the positions do not
depend on the bots measured; at every decision with more than one legal action each ``--bot`` (a fresh bot
per deal, seeded) decides on the same view and is timed (wall clock and process CPU).  ``--load N`` starts
N busy processes for the run, the "under load" of issue 12 (the machine has 2 cores).  The table shows per bot
and phase (the first two tricks with 7 or more face-down cards, the rest with the talon open, closed or
exhausted) the decisions, the median, 90th percentile and maximum wall seconds, and the median CPU seconds,
next to the limits (``hard``: the web default, median <= 0.3 s; ``expert``: median <= 0.5 s, maximum <= 3 s);
for the search bots also the worlds they solved (median and least, over the decisions they searched) and how
many decisions enumerated every consistent world.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import statistics
import time
from collections import defaultdict
from typing import Any

from bummerl.bots import Bot, make_bot
from bummerl.two_player import TwoPlayerGame

LIMITS = {"hard": "median <= 0.3 s", "expert": "median <= 0.5 s, max <= 3 s"}


def _burn(stop: Any) -> None:
    x = 0
    while not stop.is_set():
        x = (x * 1103515245 + 12345) % 2**31


def phase(game: TwoPlayerGame) -> str:
    """Which part of the deal a decision is in."""
    if game.closed_by is None and len(game.talon) >= 7:
        return "first tricks"
    if game.closed_by is None and game.talon:
        return "talon open"
    return "closed/exhausted"


def measure(variant: str, bots: list[str], deals: int, seed: int, driver: str) -> dict[str, Any]:
    """Time every decision of every bot on the driver's games."""
    wall: dict[tuple[str, str], list[float]] = defaultdict(list)
    cpu: dict[tuple[str, str], list[float]] = defaultdict(list)
    worlds: dict[tuple[str, str], list[int]] = defaultdict(list)
    exhaustive: dict[tuple[str, str], int] = defaultdict(int)
    for d in range(deals):
        game = TwoPlayerGame.deal(variant, seed=seed + d)
        drivers = [make_bot(driver, 2 * d + p, game.variant) for p in range(2)]
        measured: dict[str, Bot] = {b: make_bot(b, seed + d, game.variant) for b in bots}
        while not game.is_over:
            view = game.view(game.to_move)
            if len(view.legal) > 1:
                for name, bot in measured.items():
                    t0, c0 = time.perf_counter(), time.process_time()
                    bot.choose(view)
                    wall[name, phase(game)].append(time.perf_counter() - t0)
                    cpu[name, phase(game)].append(time.process_time() - c0)
                    ev = getattr(bot, "last_evaluation", None)  # SearchBot's (None where it did not search)
                    if ev is not None:
                        worlds[name, phase(game)].append(ev.worlds)
                        exhaustive[name, phase(game)] += ev.exhaustive
            game.apply(drivers[game.to_move].choose(view))
    rows = []
    for name in bots:
        phases = [p for p in ("first tricks", "talon open", "closed/exhausted") if wall[name, p]]
        for p in [*phases, "all"]:
            w = [x for q in phases for x in wall[name, q]] if p == "all" else wall[name, p]
            c = [x for q in phases for x in cpu[name, q]] if p == "all" else cpu[name, p]
            n = [x for q in phases for x in worlds[name, q]] if p == "all" else worlds[name, p]
            full = sum(exhaustive[name, q] for q in phases) if p == "all" else exhaustive[name, p]
            rows.append(
                {
                    "bot": name,
                    "phase": p,
                    "decisions": len(w),
                    "median": statistics.median(w),
                    "p90": sorted(w)[int(0.9 * (len(w) - 1))],
                    "max": max(w),
                    "cpu_median": statistics.median(c),
                    "searched": len(n),
                    "worlds_median": statistics.median(n) if n else None,
                    "worlds_min": min(n) if n else None,
                    "exhaustive": full,
                }
            )
    return {"variant": variant, "deals": deals, "seed": seed, "driver": driver, "rows": rows}


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--variant", default="schnapsen")
    p.add_argument("--bot", action="append", help="a bot to time (repeatable; default hard and expert)")
    p.add_argument("--deals", type=int, default=10)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--driver", default="heuristic", help="the bot that plays the games (default heuristic)")
    p.add_argument("--load", type=int, default=0, help="busy processes to run beside the measurement")
    p.add_argument("--json", action="store_true")
    args = p.parse_args()
    stop = multiprocessing.Event()
    burners = [multiprocessing.Process(target=_burn, args=(stop,), daemon=True) for _ in range(args.load)]
    for b in burners:
        b.start()
    try:
        report = measure(args.variant, args.bot or ["hard", "expert"], args.deals, args.seed, args.driver)
    finally:
        stop.set()
        for b in burners:
            b.join()
    report["load"] = args.load
    if args.json:
        print(json.dumps(report, indent=2))
        return
    print(f"{report['variant']}, {args.deals} deals from seed {args.seed}, driver {args.driver}, load +{args.load}")
    print("| bot | phase | decisions | median s | p90 s | max s | median CPU s | worlds (median, min) | all | limit |")
    print("|---|---|---:|---:|---:|---:|---:|---:|---:|---|")
    for r in report["rows"]:
        limit = LIMITS.get(r["bot"], "") if r["phase"] == "all" else ""
        solved = f"{r['worlds_median']:g}, {r['worlds_min']}" if r["searched"] else "-"
        full = f"{r['exhaustive']} of {r['searched']}" if r["searched"] else "-"
        print(
            f"| {r['bot']} | {r['phase']} | {r['decisions']} | {r['median']:.3f} | {r['p90']:.3f} | "
            f"{r['max']:.3f} | {r['cpu_median']:.3f} | {solved} | {full} | {limit} |"
        )


if __name__ == "__main__":
    main()
