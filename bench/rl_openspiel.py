"""OpenSpiel benchmark: environment steps per second of ``python_bummerl`` beside the plain engine, in one run.

    python bench/rl_openspiel.py                          # all six variants, about 40 s
    python bench/rl_openspiel.py --variant schnapsen --seconds 1 --repeat 5
    python bench/rl_openspiel.py --json

For each variant, interleaved, on one pinned core (``--no-pin`` to leave it):

* **engine** — random full games through the plain engine: ``Game.deal``, then a
  uniformly random legal action (``random.Random.choice`` over
  ``game.legal_actions()``) through ``Game.apply`` until the result; a step is one
  action;
* **OpenSpiel** (:func:`openspiel_steps_per_second`) — random full games through
  ``bummerl.rl.openspiel``: ``new_initial_state()``, every chance node (the deal,
  the talon draws) sampled from ``chance_outcomes()`` and applied, and at every
  decision the observation tensor of the player to move (what an agent reads),
  ``legal_actions()`` and ``apply_action`` with a random one; a step is one
  decision (chance nodes are timed, not counted);
* **OpenSpiel bare** — the same without the observation tensor.

``engine ÷`` is the engine's steps per second divided by the row's: what OpenSpiel
costs per action over the engine.  Times are CPU seconds of this process
(``time.process_time``); each cell is timed ``--repeat`` times for ``--seconds``
each, the runs of all cells interleaved, and the median is reported.  Seeds are
fixed.  ``bench/rl.py`` calls :func:`openspiel_steps_per_second` for its OpenSpiel row.

This script lies outside the package; it needs the ``openspiel`` extra.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import platform
import random
import statistics
import sys
import time
from collections.abc import Callable, Sequence

from bummerl.game import Game
from bummerl.rl.openspiel import BummerlGame, load
from bummerl.variants import VARIANTS, find_variant

__all__ = ["engine_steps_per_second", "main", "openspiel_steps_per_second"]

#: Games between two looks at the clock.
_BATCH = 2


def _timed(play: Callable[[random.Random], int], seconds: float, seed: int) -> float:
    """Steps per CPU second of ``play`` (one game per call, returning its steps) over at least ``seconds``."""
    r = random.Random(seed)
    steps = 0
    enabled = gc.isenabled()
    gc.disable()  # as timeit does: a collection of other cells' garbage is not this cell's cost
    try:
        start = time.process_time()
        while True:
            for _ in range(_BATCH):
                steps += play(r)
            elapsed = time.process_time() - start
            if elapsed >= seconds:
                return steps / elapsed
    finally:
        if enabled:
            gc.enable()


def engine_steps_per_second(variant: str, seconds: float, seed: int = 0) -> float:
    """Actions per second of random games on the plain engine (see the module docstring)."""
    v = find_variant(variant)

    def play(r: random.Random) -> int:
        game = Game.deal(v, seed=r.getrandbits(64))
        steps = 0
        while not game.is_over:
            game.apply(r.choice(game.legal_actions()))
            steps += 1
        return steps

    return _timed(play, seconds, seed)


def openspiel_steps_per_second(variant: str, seconds: float, observe: bool = True, seed: int = 0) -> float:
    """Decisions per second of random games through the OpenSpiel game (see the module docstring);
    ``observe``: also the observation tensor of the player to move at every decision."""
    game: BummerlGame = load(variant)

    def play(r: random.Random) -> int:
        state = game.new_initial_state()
        steps = 0
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(r.choice(state.chance_outcomes())[0])  # uniform: every outcome is equally likely
                continue
            if observe:
                state.observation_tensor(state.current_player())
            state.apply_action(r.choice(state.legal_actions()))
            steps += 1
        return steps

    return _timed(play, seconds, seed)


def measure(variants: Sequence[str], seconds: float, repeat: int) -> list[dict[str, object]]:
    """Every cell of every variant, the runs interleaved; one row per variant and interface."""
    cells: list[tuple[str, str, Callable[[], float]]] = []
    for v in variants:
        cells.append((v, "engine", lambda v=v: engine_steps_per_second(v, seconds)))
        cells.append((v, "OpenSpiel", lambda v=v: openspiel_steps_per_second(v, seconds)))
        cells.append((v, "OpenSpiel bare", lambda v=v: openspiel_steps_per_second(v, seconds, observe=False)))
    for _, _, run in cells:  # warm-up: imports, caches
        run()
    runs: dict[tuple[str, str], list[float]] = {(v, name): [] for v, name, _ in cells}
    for _ in range(repeat):
        for v, name, run in cells:
            runs[(v, name)].append(run())
    rows = []
    for v, name, _ in cells:
        rate = statistics.median(runs[(v, name)])
        engine = statistics.median(runs[(v, "engine")])
        rows.append(
            {
                "variant": v,
                "interface": name,
                "steps_per_second": round(rate, 1),
                "engine_ratio": round(engine / rate, 2),
                "runs": [round(x, 1) for x in runs[(v, name)]],
            }
        )
    return rows


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--variant", action="append", help="a variant (repeatable); default all six")
    parser.add_argument("--seconds", type=float, default=0.5, help="timed CPU seconds per run (default 0.5)")
    parser.add_argument("--repeat", type=int, default=3, help="runs per cell, the median is reported (default 3)")
    parser.add_argument("--no-pin", action="store_true", help="do not pin the process to one CPU")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args(argv)
    variants = args.variant or [v.name for v in VARIANTS]
    pinned = False
    if not args.no_pin and hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})
        pinned = True
    rows = measure(variants, args.seconds, args.repeat)
    machine = f"{platform.machine()} {platform.python_implementation()} {platform.python_version()}"
    if args.json:
        print(json.dumps({"machine": machine, "pinned": pinned, "seconds": args.seconds, "rows": rows}, indent=1))
        return 0
    print(f"{machine}, {'pinned to one core' if pinned else 'not pinned'}, CPU time, median of {args.repeat}")
    print(f"{'variant':<18} {'interface':<15} {'steps/s':>10} {'engine ÷':>9}")
    for row in rows:
        print(f"{row['variant']:<18} {row['interface']:<15} {row['steps_per_second']:>10} {row['engine_ratio']:>9}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
