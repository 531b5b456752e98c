"""Exact methods on the research variants: tree sizes, exploitability of Bummerl's bots and of CFR (issue 25).

Usage::

    python bench/rl_exact.py                       # mini8: the whole game, random and heuristic, CFR
    python bench/rl_exact.py --root KhThAh --bots random,heuristic,easy,medium,hard,expert --cfr 1,4,16,64,256
    python bench/rl_exact.py --sizes-only          # the sizes of mini8, mini10, mini12, estimated

It walks OpenSpiel's game ``python_bummerl`` once (:func:`bummerl.rl.exact.tabulate`), loads the walk as
OpenSpiel's C++ EFG game, and prints two tables: the size of each game tree, and the exploitability
(``pyspiel.exploitability``: NashConv / 2, in game points per game) of each bot in self-play and of CFR's average
policy after K iterations (``pyspiel.CFRSolver``).  ``--root`` fixes the first cards of the deal (Vorhand's
hand, in the order of ``Card.index``), a smaller game for the bots too slow for the whole one.  Times are wall
clock on this machine.  docs/rl.md has the numbers.
"""

from __future__ import annotations

import argparse
import math
import random
import time

import pyspiel

from bummerl.rl.exact import fixed_deal_root, packet_outcomes, tabulate
from bummerl.rl.openspiel import BummerlState, load
from bummerl.variants import RESEARCH_VARIANTS, find_variant


def _deals(name: str) -> int:
    """The deals of a research variant counted as sets: Vorhand's hand, the dealer's, the trump card."""
    v = find_variant(name)
    n, h = v.deck_size, v.hand_size
    return math.comb(n, h) * math.comb(n - h, h) * (n - 2 * h)


def estimate_size(name: str, probes: int, seed: int) -> tuple[float, float, float]:
    """Histories of a research variant's whole tree (the deal in sets), estimated by Knuth's method: walk one
    random path from the root, its estimate is 1 + b1 + b1 b2 + ... (b the branching on the way); the mean of
    ``probes`` paths is unbiased.  Returns (estimate, its standard error, seconds)."""
    game = load(name)
    rng = random.Random(seed)
    values = []
    start = time.perf_counter()
    for _ in range(probes):
        state: BummerlState = game.new_initial_state()
        weight, total = 1.0, 1.0
        while not state.is_terminal():
            if state.is_chance_node():
                actions = [a for a, p in packet_outcomes(state) if p]
            else:
                actions = state.legal_actions()
            weight *= len(actions)
            total += weight
            state.apply_action(rng.choice(actions))
        values.append(total)
    mean = sum(values) / len(values)
    error = (sum((x - mean) ** 2 for x in values) / max(1, len(values) - 1)) ** 0.5 / len(values) ** 0.5
    return mean, error, time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--variant", default="mini8", help="the research variant of the exact part (default mini8)")
    parser.add_argument("--root", default="", help="the first cards of the deal, e.g. KhThAh (default: none)")
    parser.add_argument("--bots", default="random,heuristic", help="bots whose exploitability to measure")
    parser.add_argument("--cfr", default="1,4,16", help="CFR iterations at which to measure (default 1,4,16)")
    parser.add_argument("--probes", type=int, default=3000, help="random paths per variant for the size estimates")
    parser.add_argument("--sizes-only", action="store_true", help="only the sizes (mini8's estimated too)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()

    print("| variant | deals (sets) | histories | information states (P0 / P1) | how | seconds |")
    print("|---|---:|---:|---|---|---:|")
    if not args.sizes_only:
        game = load(args.variant)
        root = fixed_deal_root(game, args.root) if args.root else game.new_initial_state()
        bots = [b for b in args.bots.split(",") if b]
        start = time.perf_counter()
        tree = tabulate(root, bots)
        walked = time.perf_counter() - start
        where = f"{args.variant}" + (f", deal starts {args.root}" if args.root else "")
        infos = " / ".join(f"{n:,}" for n in tree.information_states)
        deals = "" if args.root else f"{_deals(args.variant):,}"
        print(f"| {where} | {deals} | {tree.histories:,} | {infos} | walked, bots' policies included | {walked:.0f} |")
    for v in RESEARCH_VARIANTS:
        estimate, error, seconds = estimate_size(v.name, args.probes, args.seed)
        print(
            f"| {v.name} | {_deals(v.name):,} | {estimate:.3g} ± {error:.2g} | not counted"
            f" | estimated: Knuth's random paths, {args.probes:,} | {seconds:.0f} |"
        )
    if args.sizes_only:
        return

    start = time.perf_counter()
    efg = tree.load()
    tree.actions()
    print(f"\nEFG game loaded and its action ids read in {time.perf_counter() - start:.1f} s.\n")
    print(f"| {where}: policy | exploitability (game points per game) | seconds |")
    print("|---|---:|---:|")
    for bot in bots:
        start = time.perf_counter()
        value = pyspiel.exploitability(efg, tree.policy(bot))
        print(f"| `{bot}` | {value:.4f} | {time.perf_counter() - start:.1f} |")
    solver = pyspiel.CFRSolver(efg)
    done = 0
    start = time.perf_counter()
    for k in sorted(int(x) for x in args.cfr.split(",") if x):
        while done < k:
            solver.evaluate_and_update_policy()
            done += 1
        value = pyspiel.exploitability(efg, solver.average_policy())
        print(f"| CFR, {k} iterations (average policy) | {value:.4f} | {time.perf_counter() - start:.1f} |")


if __name__ == "__main__":
    main()
