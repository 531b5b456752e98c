"""Speed of the exact table solver and of the ``search`` table bot.

    python bench/table_solver.py              # 40 deals per variant
    python bench/table_solver.py --deals 100 --json

For each deal the heuristic bot bids, then the solver computes the exact value
of every legal first lead of the card play with all hands known (what the
search bot does once per sampled world): nodes, CPU seconds per solve, nodes per
second.  Then ``search`` bots play whole games in every seat and the CPU time
per card-play decision is reported (median and maximum).  CPU time of this
process (``time.process_time``), so other load on the machine counts for little.
"""

from __future__ import annotations

import argparse
import json
import time

from bummerl.bots import make_bot
from bummerl.bots.table_search import TableSearchBot
from bummerl.solver.table import PlayState, TableSolver
from bummerl.table_game import TableGame
from bummerl.variants.bauernschnapsen import Phase

VARIANTS = ("bauernschnapsen", "dreierschnapsen")


def first_tricks(variant: str, deals: int) -> list[TableGame]:
    tables = []
    for seed in range(deals):
        t = TableGame.deal(variant, seed=seed, dealer=seed % (4 if variant == "bauernschnapsen" else 3))
        bots = [make_bot("heuristic", seed * 8 + s, t.variant) for s in range(4)]
        while not t.is_over and t.phase is not Phase.PLAY:
            t.apply(bots[t.to_move].choose(t.view(t.to_move)))
        if not t.is_over:
            tables.append(t)
    return tables


def bench_solver(variant: str, deals: int) -> dict[str, float]:
    tables = first_tricks(variant, deals)
    nodes = 0
    worst = 0.0
    start = time.process_time()
    for t in tables:
        t0 = time.process_time()
        solver = TableSolver(PlayState.from_table(t))
        solver.action_values()
        worst = max(worst, time.process_time() - t0)
        nodes += solver.nodes
    seconds = time.process_time() - start
    return {
        "solves": len(tables),
        "ms_per_solve": 1000 * seconds / len(tables),
        "ms_worst": 1000 * worst,
        "nodes_per_solve": nodes / len(tables),
        "nodes_per_second": nodes / seconds,
    }


def bench_bot(variant: str, games: int) -> dict[str, float]:
    n = 4 if variant == "bauernschnapsen" else 3
    times: list[float] = []
    for seed in range(games):
        t = TableGame.deal(variant, seed=seed, dealer=seed % n)
        bots = [TableSearchBot(seed * 8 + s) for s in range(n)]
        while not t.is_over:
            view = t.view(t.to_move)
            t0 = time.process_time()
            action = bots[t.to_move].choose(view)
            if view.phase is Phase.PLAY and len(view.legal) > 1:
                times.append(time.process_time() - t0)
            t.apply(action)
    times.sort()
    return {
        "decisions": len(times),
        "ms_median": 1000 * times[len(times) // 2],
        "ms_max": 1000 * times[-1],
        "seconds_per_game": sum(times) / games,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=40)
    parser.add_argument("--games", type=int, default=10, help="whole games of four (three) search bots")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    report = {v: {"solver": bench_solver(v, args.deals), "search_bot": bench_bot(v, args.games)} for v in VARIANTS}
    if args.json:
        print(json.dumps(report, indent=2))
        return
    for v, r in report.items():
        s, b = r["solver"], r["search_bot"]
        print(
            f"{v}: solver {s['ms_per_solve']:.1f} ms per first-trick solve (worst {s['ms_worst']:.0f} ms),"
            f" {s['nodes_per_solve']:.0f} nodes, {s['nodes_per_second']:.0f} nodes/s;"
            f" search bot {b['ms_median']:.1f} ms median, {b['ms_max']:.0f} ms max per card play decision,"
            f" {b['seconds_per_game']:.2f} s per game (all seats)"
        )


if __name__ == "__main__":
    main()
