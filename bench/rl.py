"""RL environment benchmark: steps per second of the PettingZoo and Gymnasium environments beside the plain engine.

    python bench/rl.py                                    # schnapsen and bauernschnapsen, about 15 s
    python bench/rl.py --variant dreierschnapsen --seconds 1 --repeat 5
    python bench/rl.py --json

For each variant (default: a two-player one, ``schnapsen``, and a table game,
``bauernschnapsen``), in one run, interleaved, on one pinned core:

* **engine** — random full games through the plain engine: ``Game.deal``, then
  a uniformly random legal action (``random.Random.choice`` over
  ``game.legal_actions()``) through ``Game.apply`` until the result; a step is
  one action;
* **PettingZoo AEC** — the same games through ``bummerl.rl.pettingzoo.env``:
  ``reset``, then per step ``last()`` (the observation tensor and the action
  mask of the agent to move) and ``step`` with a random number from the mask;
  a step is one action (the agents' closing ``step(None)`` calls are timed but
  not counted);
* **Gymnasium vs random** — ``bummerl.rl.gym.BummerlEnv(opponent="random",
  seat="random")``: ``reset``, then ``step`` with a random number from
  ``info["action_mask"]``; a step is one decision of the agent, and every step
  also plays the bots' actions up to the agent's next decision, so the table
  gives both the steps and the game actions (agent's and bots') per second;
* **OpenSpiel** — ``openspiel_steps_per_second(variant, seconds)`` from
  ``bench/rl_openspiel.py`` when that file is there (written beside this one);
  otherwise the row says it was not measured.

``engine ÷`` is the engine's game actions per second divided by the row's:
what an interface costs per game action over the engine, measured in the same
run.  Times are CPU seconds of this process (``time.process_time``); each cell
is timed ``--repeat`` times for ``--seconds`` each, the runs of all cells
interleaved, and the median is reported.  Seeds are fixed: the same command
plays the same games.
"""

from __future__ import annotations

import argparse
import gc
import importlib.util
import json
import random
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import Any

import numpy as np

from bummerl.game import Game
from bummerl.rl.gym import BummerlEnv
from bummerl.rl.pettingzoo import env as aec_env
from bummerl.variants import find_variant

__all__ = ["DEFAULT_VARIANTS", "Row", "main", "measure", "openspiel_hook", "table"]

HERE = Path(__file__).resolve().parent
#: A two-player variant and a table game.
DEFAULT_VARIANTS = ("schnapsen", "bauernschnapsen")
#: Games per timed call.
_BATCH = 5

#: One timed call: ``run(first_seed, games) -> (steps, game actions, cpu seconds)``.
Run = Callable[[int, int], tuple[int, int, float]]


def _load(name: str) -> ModuleType | None:
    """A script of bench/ as a module (``None`` if the file is not there)."""
    path = HERE / f"{name}.py"
    if not path.exists():
        return None
    spec = importlib.util.spec_from_file_location(f"bench_{name}", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up while it runs
    try:
        spec.loader.exec_module(module)
    except BaseException:
        del sys.modules[spec.name]
        raise
    return module


# ---------------------------------------------------------------- the cells
def engine_run(variant: str) -> Run:
    v = find_variant(variant)

    def run(first: int, games: int) -> tuple[int, int, float]:
        choice = random.Random(first).choice
        steps = 0
        start = time.process_time()
        for seed in range(first, first + games):
            game = Game.deal(v, seed)
            while not game.is_over:
                game.apply(choice(game.legal_actions()))
            steps += len(game.actions)
        return steps, steps, time.process_time() - start

    return run


def aec_run(variant: str) -> Run:
    env = aec_env(variant=variant)

    def run(first: int, games: int) -> tuple[int, int, float]:
        choice = random.Random(first).choice
        steps = 0
        start = time.process_time()
        for seed in range(first, first + games):
            env.reset(seed=seed)
            for _ in env.agent_iter():
                obs, _, terminated, truncated, _ = env.last()
                if terminated or truncated:
                    env.step(None)
                else:
                    env.step(choice(np.flatnonzero(obs["action_mask"])))
                    steps += 1
        return steps, steps, time.process_time() - start

    return run


def gym_run(variant: str) -> Run:
    env = BummerlEnv(variant, opponent="random", seat="random")

    def run(first: int, games: int) -> tuple[int, int, float]:
        choice = random.Random(first).choice
        steps = actions = 0
        start = time.process_time()
        for seed in range(first, first + games):
            _, info = env.reset(seed=seed)
            terminated = False
            while not terminated:
                _, _, terminated, _, info = env.step(choice(np.flatnonzero(info["action_mask"])))
                steps += 1
            assert env.game is not None
            actions += len(env.game.actions)
        return steps, actions, time.process_time() - start

    return run


def openspiel_hook() -> tuple[Callable[[str, float], float] | None, str]:
    """``openspiel_steps_per_second`` of bench/rl_openspiel.py, or ``None`` and why it is missing."""
    try:
        module = _load("rl_openspiel")
    except ImportError as exc:  # the file is there, OpenSpiel is not
        return None, f"not measured: {exc}"
    if module is None:
        return None, "not measured: bench/rl_openspiel.py is not there"
    fn = getattr(module, "openspiel_steps_per_second", None)
    if fn is None:
        return None, "not measured: bench/rl_openspiel.py has no openspiel_steps_per_second"
    return fn, ""


# ---------------------------------------------------------------- timing
@dataclass
class Row:
    """One measured interface on one variant: median rates over the runs."""

    variant: str
    interface: str
    steps_per_second: float | None
    actions_per_second: float | None
    runs: list[float] = field(default_factory=list)
    #: The engine's game actions per second divided by this row's (same variant, same run).
    overhead: float | None = None
    note: str = ""


def _timed(run: Run, seconds: float) -> tuple[float, float]:
    steps = actions = 0
    elapsed = 0.0
    first = 0
    gc.collect()
    gc.disable()
    try:
        while elapsed < seconds:
            s, a, dt = run(first, _BATCH)
            steps, actions, elapsed, first = steps + s, actions + a, elapsed + dt, first + _BATCH
    finally:
        gc.enable()
    return steps / elapsed, actions / elapsed


def measure(variants: Sequence[str], seconds: float = 0.5, repeat: int = 3) -> list[Row]:
    """Every cell of every variant, warmed up, timed ``repeat`` times interleaved; median rates."""
    cells: list[tuple[str, str, Run]] = []
    for variant in variants:
        cells += [
            (variant, "engine (Game.apply)", engine_run(variant)),
            (variant, "PettingZoo AEC", aec_run(variant)),
            (variant, "Gymnasium vs random", gym_run(variant)),
        ]
    for _, _, run in cells:
        run(10**6, 2)  # warm up: imports, caches, the first bots
    samples: list[list[tuple[float, float]]] = [[] for _ in cells]
    for _ in range(repeat):
        for i, (_, _, run) in enumerate(cells):
            samples[i].append(_timed(run, seconds))
    rows = [
        Row(
            variant,
            interface,
            statistics.median(s for s, _ in runs),
            statistics.median(a for _, a in runs),
            [round(s, 1) for s, _ in runs],
        )
        for (variant, interface, _), runs in zip(cells, samples, strict=True)
    ]
    openspiel, why = openspiel_hook()
    for variant in variants:
        if openspiel is None:
            rows.append(Row(variant, "OpenSpiel", None, None, note=why))
            continue
        try:
            rates = [float(openspiel(variant, seconds)) for _ in range(repeat)]
        except Exception as exc:  # e.g. a variant the OpenSpiel game does not offer: say so, measure the rest
            rows.append(Row(variant, "OpenSpiel", None, None, note=f"not measured: {type(exc).__name__}: {exc}"))
            continue
        rate = statistics.median(rates)
        # An OpenSpiel step is one action (chance nodes aside: see bench/rl_openspiel.py).
        rows.append(Row(variant, "OpenSpiel", rate, rate, [round(r, 1) for r in rates]))
    for variant in variants:
        engine = next(r for r in rows if r.variant == variant and r.interface.startswith("engine"))
        for row in rows:
            if row.variant == variant and row.actions_per_second and engine.actions_per_second:
                row.overhead = engine.actions_per_second / row.actions_per_second
    return rows


# ---------------------------------------------------------------- output
def table(rows: Sequence[Row]) -> str:
    """The rows as a plain-text table."""
    w = max(len("variant"), *(len(r.variant) for r in rows)) + 2
    i = max(len("interface"), *(len(r.interface) for r in rows)) + 2
    lines = [f"{'variant':<{w}}{'interface':<{i}}{'steps/s':>12}{'game actions/s':>16}{'engine ÷':>10}"]
    for r in rows:
        if r.steps_per_second is None:
            lines.append(f"{r.variant:<{w}}{r.interface:<{i}}{r.note}")
            continue
        actions = f"{r.actions_per_second:,.0f}" if r.actions_per_second is not None else "-"
        overhead = f"{r.overhead:.2f}" if r.overhead is not None else "-"
        lines.append(f"{r.variant:<{w}}{r.interface:<{i}}{r.steps_per_second:>12,.0f}{actions:>16}{overhead:>10}")
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="bench/rl.py", description=__doc__.split("\n", 1)[0])
    parser.add_argument("--variant", action="append", help="repeatable; default: schnapsen, bauernschnapsen")
    parser.add_argument("--seconds", type=float, default=0.5, help="CPU seconds per timed run (default 0.5)")
    parser.add_argument("--repeat", type=int, default=3, help="timed runs per cell, the median is reported (default 3)")
    parser.add_argument("--no-pin", action="store_true", help="do not pin the process to one CPU")
    parser.add_argument("--json", action="store_true", help="print one JSON object instead of the table")
    args = parser.parse_args(argv)
    variants = [find_variant(v).name for v in (args.variant or DEFAULT_VARIANTS)]
    engine = _load("engine")
    assert engine is not None, "bench/engine.py is beside this script"
    pinned = "not pinned (--no-pin)" if args.no_pin else engine.pin_to_one_core()
    rows = measure(variants, args.seconds, args.repeat)
    settings: dict[str, Any] = {"seconds": args.seconds, "repeat": args.repeat, "clock": "cpu", "pinning": pinned}
    if args.json:
        out = {"machine": engine.machine(), "settings": settings, "rows": [r.__dict__ for r in rows]}
        print(json.dumps(out, indent=2))
        return 0
    m = engine.machine()
    print(f"{m['cpu']}, {m['python']}, {pinned}; median of {args.repeat} runs of {args.seconds} s CPU time")
    print(table(rows))
    return 0


if __name__ == "__main__":
    sys.exit(main())
