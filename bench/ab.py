"""The command line of the A/B scripts (``budget_ab.py``, ``opening_ab.py``, ``table_ab.py``): two bot specs
that the script registers for this process, played against each other by ``bummerl arena`` with one job.

Each script knows its own specs (``register``); the arena, its options and its report (docs/arena.md) are
the same for all.  One job, because the candidate and the baseline run in this process: run several seeds
side by side and pool them with ``python bench/strength.py --combine`` (with ``--game-log``).
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Callable

from bummerl.arena import ArenaConfig, format_report, run_arena


def main(register: Callable[[str], None], doc: str | None, variant: str, deals: int = 100) -> None:
    """Parse the command line, register both specs, run the arena and print its report."""
    parser = argparse.ArgumentParser(description=doc.split("\n\n")[0] if doc else None)
    parser.add_argument("--variant", default=variant)
    parser.add_argument("--a", required=True)
    parser.add_argument("--b", required=True)
    parser.add_argument("--deals", type=int, default=deals)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--unit", default="game", choices=("game", "bummerl"))
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--game-log", action="store_true")
    args = parser.parse_args()
    for spec in (args.a, args.b):
        register(spec)
    config = ArenaConfig(args.variant, args.a, args.b, deals=args.deals, seed=args.seed, unit=args.unit, jobs=1)
    report = run_arena(config, game_log=args.game_log)
    print(json.dumps(report, indent=2) if args.json else format_report(report))
