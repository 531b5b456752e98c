"""``Game`` with its compiled twin (the default where the core is built) and on the Python rules alone, in one run.

    python bench/core_game.py              # Schnapsen, Bauernschnapsen, Dreierschnapsen; 5 runs of 1 s per cell
    python bench/core_game.py --variant sechsundsechzig --seconds 2 --repeat 7

Two cells per variant, each timed with the twin (``State`` of :mod:`bummerl.core` generating the legal actions,
what ``Game`` does by default: :class:`~bummerl.two_player.TwoPlayerGame`, :class:`~bummerl.table_game.TableGame`)
and with ``BUMMERL_PURE=1`` (the Python rules alone; read at every deal, so one process measures both),
interleaved so that a noisy neighbour hurts both alike, CPU time of this process (``time.process_time``), the
median of ``--repeat`` runs:

* **apply** — ``Game.apply`` steps per second: random full games from the seeded deal, each step a uniformly
  random legal action of ``Game.legal_actions()`` (bench/engine.py's *random* cell, the deal included);
* **selfplay** — games per second of ``bummerl selfplay --bots random,...`` on the bot-facing path: a view per
  decision and :class:`~bummerl.bots.RandomBot` choosing from it (the shortcut that lets ``bummerl.core``'s
  ``random_games`` play the whole game in C is switched off, as bench/engine.py's selfplay cell does).

The result is in docs/rl.md.  This script lies outside the package (the engine never imports it).
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path
from unittest import mock

from bummerl import core
from bummerl.arena import selfplay
from bummerl.variants import Variant, find_variant

sys.path.insert(0, str(Path(__file__).resolve().parent))
from engine import Cell, Clock, Step, _bummerl_games, _run_cell  # bench/engine.py, beside this script

__all__ = ["main", "measure"]

_VARIANTS = ("schnapsen", "bauernschnapsen", "dreierschnapsen")


def _mode(step: Step, twin: bool) -> Step:
    def run(first: int, count: int) -> tuple[int, int, float]:
        with mock.patch.dict(os.environ, {core.PURE_VARIABLE: "" if twin else "1"}):
            return step(first, count)

    return run


def _selfplay(variant: Variant, clock: Clock) -> Step:
    def step(first: int, count: int) -> tuple[int, int, float]:
        with mock.patch.object(core, "core_of", lambda _: None):  # no random_games shortcut: views and bots
            start = clock()
            selfplay(variant, ["random"] * variant.players, count, first)
            return count, 0, clock() - start

    return step


def measure(variant: Variant, seconds: float, repeat: int) -> dict[str, float]:
    """The median rate of each cell (``apply`` in steps per second, ``selfplay`` in games per second), with
    (``core``) and without (``pure``) the twin."""
    clock = time.process_time
    cells = {
        f"{name} {mode}": Cell(_mode(make(variant, clock), mode == "core"), None)
        for name, make in (("apply", lambda v, c: _bummerl_games(v, False, c)), ("selfplay", _selfplay))
        for mode in ("core", "pure")
    }
    for cell in cells.values():
        cell.step(0, 5)
    runs: dict[str, list[float]] = {name: [] for name in cells}
    for _ in range(repeat):
        for name, cell in cells.items():
            games_per_second, _, steps_per_second = _run_cell(cell, seconds)
            runs[name].append(steps_per_second if name.startswith("apply") else games_per_second)
    return {name: statistics.median(r) for name, r in runs.items()}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--variant", action="append", help="repeatable; default: " + ", ".join(_VARIANTS))
    parser.add_argument("--seconds", type=float, default=1.0)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args(argv)
    for name in args.variant or _VARIANTS:
        variant = find_variant(name)
        if core.twin(variant) is None:
            raise SystemExit(f"no compiled core plays {variant.title} here (pip install -e . with a C compiler)")
        rates = measure(variant, args.seconds, args.repeat)
        for cell, unit in (("apply", "steps/s"), ("selfplay", "games/s")):
            on, off = rates[f"{cell} core"], rates[f"{cell} pure"]
            print(f"{variant.title} {cell}: core {on:,.0f} {unit}, Python alone {off:,.0f} {unit}, x{on / off:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
