"""Hint time: how long the expert's hint ("Tipp") takes on the first decisions of a deal.

    python bench/hint_time.py                   # four variants, 3 deals each, about a minute
    python bench/hint_time.py --deals 5 --json

docs/web-ui.md promises at most 1.5 s of search (``HintSettings.seconds``), and issue 24 saw 1.9-2.5 s on the
first moves.  Two parts:

1. **In the worker**: :func:`bummerl.server.hints.advise` with the default settings on every decision of a seat
   from the deal on (each seat plays the advised action), up to ``--moves`` decisions per deal that search (the
   ``forced`` ones and the rule of thumb, early in Sechsundsechzig and Schnorps, take no time).  Per variant:
   the decisions, their median and largest time, and the most worlds.
2. **A fresh worker**: the first hint in a worker process spawned as the server spawns its bots' workers
   (:func:`bummerl.server.scheduler.make_executor`), with the hints' module imported when the worker starts (as
   the server does now) and without (as before): the hint's wall time from submitting it, and the part of it
   that is not ``advise`` (pickling, importing the module).

This is a benchmark, not a test: it is never run by pytest.  The numbers go into docs/web-ui.md ("Help at the
table").
"""

from __future__ import annotations

import argparse
import functools
import json
import os
import statistics
import sys
import time
from typing import Any

from bummerl.game import Game
from bummerl.server.scheduler import make_executor
from bummerl.view_json import view_to_json

# The hints' module is imported inside the functions: a spawned worker imports this script as it starts, and
# must not get the module that way (part 2 measures the import).

VARIANTS = ["schnapsen", "sechsundsechzig", "schnorps", "bauernschnapsen"]


def first_decisions(variant: str, seed: int, moves: int) -> list[dict[str, Any]]:
    """The hints of the first ``moves`` decisions of deal ``seed`` that search, each seat following its hint."""
    from bummerl.server.hints import advise

    game = Game.deal(variant, seed=seed)
    out: list[dict[str, Any]] = []
    while not game.is_over and len(out) < moves:
        seat = game.to_move
        start = time.perf_counter()
        hint = advise(view_to_json(game.view(seat)))
        seconds = time.perf_counter() - start
        if hint["method"] not in ("forced", "heuristic"):
            found = {"ply": len(game.actions), "method": hint["method"], "seconds": seconds, "worlds": hint["worlds"]}
            out.append(found)
        game.apply(next(a for a in game.legal_actions() if a.token == hint["best"]))
    return out


def timed_advise(view: dict[str, Any]) -> tuple[float, float]:
    """In a worker: the seconds to import the hints' module (0 if it was), and those of ``advise``."""
    start = time.perf_counter()
    from bummerl.server.hints import advise

    imported = time.perf_counter()
    advise(view)
    return imported - start, time.perf_counter() - imported


def fresh_worker(preload: tuple[str, ...]) -> dict[str, float]:
    """Two hints (Schnapsen, its first decision, two deals) in a freshly spawned and started worker."""
    executor = make_executor("process", 1, preload)
    try:
        executor.submit(os.getpid).result()  # started: what the server's warm-up does
        out: dict[str, float] = {}
        for seed, name in ((0, "first"), (1, "second")):
            game = Game.deal("schnapsen", seed=seed)
            view = view_to_json(game.view(game.to_move))
            start = time.perf_counter()
            imported, searched = executor.submit(functools.partial(timed_advise, view)).result()
            out[f"{name}_wall"] = time.perf_counter() - start
            out[f"{name}_import"], out[f"{name}_advise"] = imported, searched
    finally:
        executor.shutdown()
    return out


def run(deals: int, moves: int, variants: list[str]) -> dict[str, Any]:
    from bummerl.server.hints import HintSettings

    cap = HintSettings().seconds
    rows = []
    for variant in variants:
        found = [d for seed in range(deals) for d in first_decisions(variant, seed, moves)]
        times = [d["seconds"] for d in found]
        rows.append(
            {
                "variant": variant,
                "decisions": len(found),
                "methods": sorted({d["method"] for d in found}),
                "median_s": statistics.median(times) if times else None,
                "max_s": max(times) if times else None,
                "max_worlds": max((d["worlds"] or 0 for d in found), default=0),
            }
        )
    workers = {
        "preloaded": fresh_worker(("bummerl.server.hints",)),
        "not preloaded": fresh_worker(()),
    }
    return {"cap_s": cap, "deals": deals, "moves": moves, "cores": os.cpu_count(), "rows": rows, "workers": workers}


def render(r: dict[str, Any]) -> str:
    lines = [
        f"advise() with the default HintSettings (cap {r['cap_s']} s), {r['deals']} deals, "
        f"the first {r['moves']} decisions that search ({r['cores']} cores)",
        "",
        "| variant | decisions | method | median | max | most worlds |",
        "|---|---|---|---|---|---|",
    ]
    for row in r["rows"]:
        median = "-" if row["median_s"] is None else f"{row['median_s']:.2f} s"
        most = "-" if row["max_s"] is None else f"{row['max_s']:.2f} s"
        lines.append(
            f"| {row['variant']} | {row['decisions']} | {', '.join(row['methods'])} | {median} | {most} "
            f"| {row['max_worlds']} |"
        )
    lines += [
        "",
        "| a fresh worker | first hint | its import | its advise | second hint | its advise |",
        "|---|---|---|---|---|---|",
    ]
    for name, w in r["workers"].items():
        lines.append(
            f"| {name} | {w['first_wall']:.2f} s | {w['first_import']:.2f} s | {w['first_advise']:.2f} s "
            f"| {w['second_wall']:.2f} s | {w['second_advise']:.2f} s |"
        )
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=3)
    parser.add_argument("--moves", type=int, default=4, help="decisions that search, per deal")
    parser.add_argument("--variant", action="append", choices=VARIANTS, help="repeatable; default: all four")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    result = run(args.deals, args.moves, args.variant or VARIANTS)
    print(json.dumps(result, indent=2) if args.json else render(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
