"""Batched environments and the compiled core: steps and games per second, beside their baselines, in one run.

    python bench/vector.py                                # about 1 minute; the table is in docs/rl.md
    python bench/vector.py --seconds 1 --repeat 5 --num-envs 256

Every cell runs on one pinned core (``--no-pin`` to leave it), CPU time of this process (``time.process_time``),
each cell ``--repeat`` times for ``--seconds``, the runs of all cells interleaved; the median is reported.  Seeds
are fixed.

**Environment steps per second** (a step is one decision, with its observation tensor and its legal actions):

* ``vector``: :class:`bummerl.rl.vector.BummerlVectorEnv`, Schnapsen, ``--num-envs`` games per call, through
  ``env.step`` (the Gymnasium API: observations ``N x 220`` float32, ``infos["action_mask"]`` ``N x 71``, rewards,
  terminations, auto-reset); the actions are random legal ones, chosen in NumPy from the mask (``argmax`` of the
  mask times a table of random numbers), timed with the step.  Rows: self-play of both seats and the agent
  against ``random``, on the compiled core and on the pure-Python backend (:class:`~bummerl.rl.vector.PythonBatch`,
  the engine and the encoder: the baseline), and the core with information states;
* ``backend``: the compiled ``Batch.step`` alone into the same arrays, without the Gymnasium layer's copies;
* OpenSpiel's own C++ games stepped from Python (``pyspiel``): random games of ``skat`` (observation tensor),
  ``euchre`` (information-state tensor: it has no observation tensor) and ``spades`` (observation tensor), the
  tensor of the player to move and ``legal_actions()`` read at every decision, chance nodes sampled and not
  counted.

**Random selfplay games per second** (Schnapsen): ``bummerl selfplay --bots random,random`` (its function
:func:`bummerl.arena.selfplay.selfplay`), which with random bots in every seat lets the compiled core play the
games (``random_games``: the same deals, dealers, :class:`~bummerl.bots.RandomBot` choices and totals,
tests/test_core.py), the same on the Python engine (``BUMMERL_PURE=1``: a view per decision), and the VU course
platform's engine (PyPI ``schnapsen`` 0.0.5, ``pip install -e '.[bench]'``: ``play_game`` with two ``RandBot``,
as bench/engine.py's ``selfplay`` cell).  The core's games are not played through :class:`~bummerl.engine.Game`:
``Game`` does not use the core.
"""

from __future__ import annotations

import argparse
import gc
import importlib
import os
import random
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from unittest import mock

import numpy as np

from bummerl import core
from bummerl.arena.selfplay import selfplay
from bummerl.rl.vector import BummerlVectorEnv
from bummerl.variants import find_variant

sys.path.insert(0, str(Path(__file__).resolve().parent))
from engine import pin_to_one_core  # bench/engine.py, beside this script

__all__ = ["main", "measure"]

#: A cell: its group, its label, and one timed run returning (units, CPU seconds).
Cell = tuple[str, str, Callable[[float], tuple[int, float]]]


def _vector_cell(
    num_envs: int, seat: int | str, backend: str, observation: str = "observation", variant: str = "schnapsen"
) -> Callable[[float], tuple[int, float]]:
    env = BummerlVectorEnv(variant, num_envs=num_envs, seat=seat, backend=backend, observation=observation)
    noise = np.random.default_rng(0).random((64, num_envs, env.backend.action_size)).astype(np.float32)
    _, infos = env.reset(seed=1)
    masks = [infos["action_mask"]]  # the last step's mask, kept from run to run

    def run(seconds: float) -> tuple[int, float]:
        steps, k = 0, 0
        mask = masks[0]
        start = time.process_time()
        while time.process_time() - start < seconds:
            for _ in range(16):
                actions = np.argmax(mask * noise[k % 64], axis=1)
                mask = env.step(actions)[4]["action_mask"]
                k += 1
            steps += 16 * num_envs
        elapsed = time.process_time() - start
        masks[0] = mask
        return steps, elapsed

    return run


def _backend_cell(num_envs: int, variant: str = "schnapsen") -> Callable[[float], tuple[int, float]]:
    env = BummerlVectorEnv(variant, num_envs=num_envs, seat="all", backend="compiled")
    env.reset(seed=2)
    batch = env.backend
    size, actions_size = batch.observation_size, batch.action_size
    obs, mask = np.zeros((num_envs, size), np.float32), np.zeros((num_envs, actions_size), np.int8)
    rewards, terminated, seat = (
        np.zeros((num_envs, batch.players), np.float32),
        np.zeros(num_envs, np.uint8),
        np.zeros(num_envs, np.int8),
    )
    batch.reset(np.arange(num_envs, dtype=np.uint64), obs, mask, seat)
    noise = np.random.default_rng(1).random((64, num_envs, actions_size)).astype(np.float32)
    actions = np.zeros(num_envs, np.int64)

    def run(seconds: float) -> tuple[int, float]:
        steps, k = 0, 0
        start = time.process_time()
        while time.process_time() - start < seconds:
            for _ in range(16):
                np.argmax(mask * noise[k % 64], axis=1, out=actions)
                batch.step(actions, obs, mask, rewards, terminated, seat)
                k += 1
            steps += 16 * num_envs
        return steps, time.process_time() - start

    return run


def _openspiel_cell(name: str) -> Callable[[float], tuple[int, float]] | None:
    try:
        pyspiel = importlib.import_module("pyspiel")
    except ImportError:
        return None
    game = pyspiel.load_game(name)
    kind = game.get_type()
    rng = random.Random(0)

    def run(seconds: float) -> tuple[int, float]:
        steps = 0
        start = time.process_time()
        while time.process_time() - start < seconds:
            state = game.new_initial_state()
            while not state.is_terminal():
                if state.is_chance_node():
                    outcomes = state.chance_outcomes()
                    state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
                    continue
                player = state.current_player()
                if kind.provides_observation_tensor:
                    state.observation_tensor(player)
                else:
                    state.information_state_tensor(player)
                legal = state.legal_actions()
                state.apply_action(legal[rng.randrange(len(legal))])
                steps += 1
        return steps, time.process_time() - start

    return run


def _selfplay_cell(pure: bool, name: str = "schnapsen") -> Callable[[float], tuple[int, float]]:
    """``bummerl selfplay --bots random,random`` (its function, without printing); ``pure``: BUMMERL_PURE=1."""
    variant = find_variant(name)
    batch = 100 if pure else 20_000

    def run(seconds: float) -> tuple[int, float]:
        games, seed = 0, 0
        with mock.patch.dict(os.environ, {core.PURE_VARIABLE: "1" if pure else ""}):
            start = time.process_time()
            while time.process_time() - start < seconds:
                selfplay(variant, ["random"] * variant.players, batch, seed)
                games += batch
                seed += 1
            return games, time.process_time() - start

    return run


def _baseline_cell() -> Callable[[float], tuple[int, float]] | None:
    try:
        engine = importlib.import_module("schnapsen.game").SchnapsenGamePlayEngine()
        rand_bot = importlib.import_module("schnapsen.bots.rand").RandBot
    except ImportError:
        return None
    rng = random.Random(0)

    def run(seconds: float) -> tuple[int, float]:
        games = 0
        start = time.process_time()
        while time.process_time() - start < seconds:
            for _ in range(20):
                engine.play_game(rand_bot(rng), rand_bot(rng), rng)
            games += 20
        return games, time.process_time() - start

    return run


def cells(num_envs: int, variants: Sequence[str] = ("schnapsen",)) -> list[Cell]:
    """Every cell of the table, in its order (a cell whose package is missing is left out)."""
    out: list[Cell] = []
    for name in variants:
        title = find_variant(name).title
        compiled = core.core_of(find_variant(name)) is not None
        for seat, who in (("all", "self-play"), (0, "vs random")):
            for backend in ("compiled", "python") if compiled else ("python",):
                label = f"vector, {title}, {who}, {'compiled core' if backend == 'compiled' else 'pure Python'}"
                out.append(("steps/s", label, _vector_cell(num_envs, seat, backend, variant=name)))
        if compiled:
            info = _vector_cell(num_envs, "all", "compiled", "information_state", variant=name)
            out.append(("steps/s", f"vector, {title}, self-play, information state, compiled core", info))
            out.append(("steps/s", f"backend: Batch.step alone, {title}, self-play", _backend_cell(num_envs, name)))
    for name, tensor in (("skat", "observation"), ("euchre", "information state"), ("spades", "observation")):
        run = _openspiel_cell(name)
        if run is not None:
            out.append(("steps/s", f"OpenSpiel C++ {name} from Python, {tensor}", run))
    for name in variants:
        title = find_variant(name).title
        if core.core_of(find_variant(name)) is not None:
            out.append(("games/s", _selfplay_label(title, False), _selfplay_cell(False, name)))
        out.append(("games/s", _selfplay_label(title, True), _selfplay_cell(True, name)))
    baseline = _baseline_cell()
    if baseline is not None and "schnapsen" in variants:
        out.append(("games/s", "random selfplay, Schnapsen, VU schnapsen 0.0.5", baseline))
    return out


def _selfplay_label(title: str, pure: bool) -> str:
    engine = "Python engine (BUMMERL_PURE=1)" if pure else "compiled core"
    return f"{title}, `bummerl selfplay --bots random,...`, {engine}"


def measure(
    num_envs: int, seconds: float, repeat: int, variants: Sequence[str] = ("schnapsen",)
) -> list[tuple[str, str, float]]:
    """The median rate of every cell, the runs interleaved."""
    table = cells(num_envs, variants)
    rates: list[list[float]] = [[] for _ in table]
    enabled = gc.isenabled()
    gc.disable()
    try:
        for _ in range(repeat):
            for i, (_, _, run) in enumerate(table):
                units, elapsed = run(seconds)
                rates[i].append(units / elapsed)
                gc.collect()
    finally:
        if enabled:
            gc.enable()
    return [(group, label, statistics.median(r)) for (group, label, _), r in zip(table, rates, strict=True)]


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--num-envs", type=int, default=256, help="games per call of the vector environment")
    parser.add_argument("--seconds", type=float, default=1.0, help="CPU seconds per run of a cell")
    parser.add_argument("--repeat", type=int, default=3, help="runs per cell (the median is reported)")
    parser.add_argument("--no-pin", action="store_true", help="do not pin the process to one CPU")
    parser.add_argument("--variant", action="append", help="a variant to measure (repeatable); default: Schnapsen")
    args = parser.parse_args(argv)
    pinned = "not pinned (--no-pin)" if args.no_pin else pin_to_one_core()
    variants = args.variant or ["schnapsen"]
    rows = measure(args.num_envs, args.seconds, args.repeat, variants)
    print(f"{pinned}; {args.num_envs} games per vector call; median of {args.repeat} runs of {args.seconds} s CPU")
    width = max(len(label) for _, label, _ in rows)
    for group in ("steps/s", "games/s"):
        print(f"\n| {group.split('/')[0] + ' per second':<{width}} | {'rate':>12} |")
        print(f"|{'-' * (width + 2)}|{'-' * 13}:|")
        base = {label: rate for g, label, rate in rows if g == group}
        for label, rate in base.items():
            print(f"| {label:<{width}} | {rate:>12,.0f} |")
    selfplay_rates = {label: rate for g, label, rate in rows if g == "games/s"}
    schnapsen = find_variant("schnapsen").title
    ours = selfplay_rates.get(_selfplay_label(schnapsen, False))
    pure = selfplay_rates.get(_selfplay_label(schnapsen, True))
    vu = selfplay_rates.get("random selfplay, Schnapsen, VU schnapsen 0.0.5")
    if vu:
        print(f"\nselfplay ÷ VU engine: compiled core {(ours or 0) / vu:,.0f}x, Python engine {(pure or 0) / vu:,.1f}x")
    for name in variants:
        title = find_variant(name).title
        compiled, python = (selfplay_rates.get(_selfplay_label(title, pure)) for pure in (False, True))
        if compiled and python:
            print(f"{title}: selfplay, compiled core ÷ Python engine: {compiled / python:,.0f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
