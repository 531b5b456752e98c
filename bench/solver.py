"""How fast the exact solver is, per class of position, C core next to the Python reference.

    python bench/solver.py                      # the default table (a few minutes on a busy machine)
    python bench/solver.py --deals 100 --endgames 500 --check
    python bench/solver.py --json

Position classes (all fully known, talon order included; fixed seeds, so the
same command times the same positions):

* ``deal``          a whole open-card deal from the first action (``solve``)
* ``deal-actions``  the same, every first action valued (``action_values``: what PIMC asks per world)
* ``talon-1``       one face-down card left (the last draw, then the endgame)
* ``closed``        the talon just closed at a random moment, full hands (``solve``)
* ``endgame-5``     talon exhausted, 5 cards each (``action_values``)

Each row gives the median and max time and nodes.  With ``--max-nodes N`` a
search that needs more gives up (a whole Schnorps deal can take minutes); the
row counts those, and their time and nodes up to giving up count too.  Python runs on the first
``--python N`` positions of each class only (a whole 24- or 32-card deal takes
it minutes).  ``--check`` also asserts that both backends find the same
values.  ``--clock cpu`` (default) counts the CPU time of this process, so
other load on a shared machine does not count; ``--clock wall`` counts
elapsed time.
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import statistics
import sys
import time
from collections.abc import Callable
from typing import Any

from bummerl.actions import ActionKind
from bummerl.game import Game
from bummerl.solver import BACKENDS, SearchLimitExceeded, SearchResult, encode, search_position
from bummerl.variants import find_variant

Make = Callable[[str, int], Game | None]


def _random_step(game: Game, rng: random.Random, allow_close: bool) -> None:
    choices = [
        a
        for a in game.legal_actions()
        if a.kind is not ActionKind.DECLARE and (allow_close or a.kind is not ActionKind.CLOSE)
    ]
    game.apply(rng.choice(choices))


def make_deal(variant: str, seed: int) -> Game | None:
    return Game.deal(find_variant(variant), seed=seed)


def make_talon_1(variant: str, seed: int) -> Game | None:
    rng = random.Random(seed)
    game = Game.deal(find_variant(variant), seed=seed)
    while not game.is_over:
        if game.closed_by is None and len(game.talon) == 1 and game.lead is None:
            return game
        _random_step(game, rng, allow_close=False)
    return None


def make_closed(variant: str, seed: int) -> Game | None:
    rng = random.Random(seed)
    game = Game.deal(find_variant(variant), seed=seed)
    while not game.is_over:
        close = next((a for a in game.legal_actions() if a.kind is ActionKind.CLOSE), None)
        if close is not None and rng.random() < 0.3:
            game.apply(close)
            return game
        _random_step(game, rng, allow_close=False)
    return None


def make_endgame_5(variant: str, seed: int) -> Game | None:
    rng = random.Random(seed)
    game = Game.deal(find_variant(variant), seed=seed)
    while not game.is_over:
        if not game.talon and game.closed_by is None and game.lead is None and len(game.hands[game.to_move]) <= 5:
            return game if len(game.hands[game.to_move]) == 5 else None
        _random_step(game, rng, allow_close=False)
    return None


CLASSES: dict[str, tuple[Make, bool]] = {
    # name: (maker, all actions valued)
    "deal": (make_deal, False),
    "deal-actions": (make_deal, True),
    "talon-1": (make_talon_1, True),
    "closed": (make_closed, False),
    "endgame-5": (make_endgame_5, True),
}


def positions(make: Make, variant: str, n: int) -> list[Game]:
    out: list[Game] = []
    seed = 0
    while len(out) < n and seed < 50 * n:
        game = make(variant, seed)
        seed += 1
        if game is not None:
            out.append(game)
    return out


def run(args: argparse.Namespace) -> dict[str, Any]:
    clock = time.process_time if args.clock == "cpu" else time.perf_counter
    rows = []
    counts = {
        "deal": args.deals,
        "deal-actions": args.deals,
        "talon-1": args.endgames,
        "closed": args.endgames,
        "endgame-5": args.endgames,
    }
    for variant in args.variant:
        for cls in args.classes:
            make, actions = CLASSES[cls]
            games = positions(make, variant, counts[cls])
            if not games:
                continue
            c_results: list[SearchResult | None] = []
            for backend in BACKENDS:
                todo = games if backend == "c" else games[: args.python]
                if not todo:
                    continue
                times, nodes = [], []
                gave_up = 0
                for i, game in enumerate(todo):
                    pos = encode(game)
                    t0 = clock()
                    try:
                        result: SearchResult | None = search_position(
                            pos, actions=actions, backend=backend, max_nodes=args.max_nodes
                        )
                    except SearchLimitExceeded as exc:
                        result = None
                        gave_up += 1
                        nodes.append(exc.nodes)
                    times.append(clock() - t0)
                    if result is not None:
                        nodes.append(result.nodes)
                    if backend == "c":
                        c_results.append(result)
                    elif args.check and result is not None and i < len(c_results):
                        c = c_results[i]
                        if c is not None and (c.value, c.values) != (result.value, result.values):
                            raise SystemExit(f"C and Python differ on {game.position()}: {c} vs {result}")
                rows.append(
                    {
                        "variant": variant,
                        "class": cls,
                        "backend": backend,
                        "positions": len(todo),
                        "median_ms": 1000 * statistics.median(times),
                        "max_ms": 1000 * max(times),
                        "median_nodes": statistics.median(nodes),
                        "max_nodes": max(nodes),
                        "gave_up": gave_up,
                    }
                )
                if not args.json:
                    _print_row(rows[-1])
    return {
        "machine": f"{platform.machine()} {platform.processor() or ''}".strip(),
        "python": platform.python_version(),
        "clock": args.clock,
        "backends": list(BACKENDS),
        "checked": bool(args.check),
        "rows": rows,
    }


_HEADER = (
    f"{'variant':16} {'class':13} {'backend':7} {'n':>5} {'median ms':>10} {'max ms':>10} "
    f"{'med nodes':>10} {'max nodes':>11} {'gave up':>7}"
)


def _print_row(r: dict[str, Any]) -> None:
    print(
        f"{r['variant']:16} {r['class']:13} {r['backend']:7} {r['positions']:5d} {r['median_ms']:10.2f} "
        f"{r['max_ms']:10.1f} {r['median_nodes']:10.0f} {r['max_nodes']:11d} {r['gave_up']:7d}",
        flush=True,
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--variant", action="append", help="variant name (repeatable; default: schnapsen)")
    parser.add_argument("--classes", default=",".join(CLASSES), help="comma-separated position classes")
    parser.add_argument("--deals", type=int, default=50, help="whole deals per deal class (default 50)")
    parser.add_argument("--endgames", type=int, default=200, help="positions per other class (default 200)")
    parser.add_argument("--python", type=int, default=5, help="positions per class for the Python backend (default 5)")
    parser.add_argument("--check", action="store_true", help="assert that C and Python agree")
    parser.add_argument(
        "--max-nodes", type=int, default=None, help="give up a search after this many nodes (counted as 'gave up')"
    )
    parser.add_argument("--clock", choices=("cpu", "wall"), default="cpu")
    parser.add_argument("--json", action="store_true", help="one JSON object instead of the table")
    args = parser.parse_args(argv)
    args.variant = args.variant or ["schnapsen"]
    args.classes = [c.strip() for c in args.classes.split(",") if c.strip()]
    unknown = [c for c in args.classes if c not in CLASSES]
    if unknown:
        parser.error(f"unknown class(es) {', '.join(unknown)}; known: {', '.join(CLASSES)}")
    if not args.json:
        names = ", ".join(BACKENDS)
        print(f"bummerl solver bench: backends {names}, clock {args.clock}, Python {platform.python_version()}")
        print(_HEADER)
    report = run(args)
    if args.json:
        json.dump(report, sys.stdout, indent=1)
        print()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
