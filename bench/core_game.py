"""The two-player ``Game`` with and without its compiled twin (``BUMMERL_CORE=1``), measured in one run.

    python bench/core_game.py                            # Schnapsen, 5 interleaved runs of 1 s per cell
    python bench/core_game.py --variant sechsundsechzig --seconds 2 --repeat 7

Two cells, each timed with :class:`~bummerl.two_player.CoreTwoPlayerGame` as the engine (its compiled twin
generates the legal actions; ``BUMMERL_CORE=1`` chooses it) and with :class:`~bummerl.two_player.TwoPlayerGame`
(the Python engine alone), interleaved so that a noisy neighbour hurts both alike,
CPU time of this process (``time.process_time``), the median of ``--repeat`` runs:

* **apply** — ``Game.apply`` steps per second: random full games from the seeded deal, each step a uniformly
  random legal action of ``Game.legal_actions()`` (bench/engine.py's *random* cell, the deal included);
* **selfplay** — games per second of ``bummerl selfplay --bots random,random`` on the bot-facing path: a
  :class:`~bummerl.view.PlayerView` per decision and :class:`~bummerl.bots.RandomBot` choosing from it (the
  shortcut that lets ``bummerl.core``'s ``random_games`` play the whole game in C is switched off, as
  bench/engine.py's selfplay cell does with ``BUMMERL_PURE=1``, which would switch the twin off too).

The result for Schnapsen is in docs/rl.md.  This script lies outside the package (the engine never imports it).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path
from unittest import mock

from bummerl import core
from bummerl.arena import selfplay
from bummerl.engine import ENGINES
from bummerl.two_player import CoreTwoPlayerGame, TwoPlayerGame
from bummerl.variants import TwoPlayerVariant

sys.path.insert(0, str(Path(__file__).resolve().parent))
from engine import Cell, Clock, Step, _bummerl_games, _run_cell  # bench/engine.py, beside this script

__all__ = ["main", "measure"]


def _with_twin(step: Step, twin: bool) -> Step:
    def run(first: int, count: int) -> tuple[int, int, float]:
        # What BUMMERL_CORE=1 (or its absence) at import chooses.
        with mock.patch.dict(ENGINES, {"two_player": CoreTwoPlayerGame if twin else TwoPlayerGame}):
            return step(first, count)

    return run


def _selfplay(variant: TwoPlayerVariant, clock: Clock) -> Step:
    def step(first: int, count: int) -> tuple[int, int, float]:
        with mock.patch.object(core, "core_of", lambda _: None):  # no random_games shortcut: views and bots
            start = clock()
            selfplay(variant, ["random", "random"], count, first)
            return count, 0, clock() - start

    return step


def measure(variant: TwoPlayerVariant, seconds: float, repeat: int) -> dict[str, float]:
    """The median rate of each cell (``apply`` in steps per second, ``selfplay`` in games per second), with
    (``core``) and without (``pure``) the twin."""
    clock = time.process_time
    cells = {
        f"{name} {mode}": Cell(_with_twin(make(variant, clock), mode == "core"), None)
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
    parser.add_argument("--variant", default="schnapsen")
    parser.add_argument("--seconds", type=float, default=1.0)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args(argv)
    variant = TwoPlayerVariant.find(args.variant)
    if core.CORES["two_player"] is None or core.config(variant) is None:
        raise SystemExit(f"no compiled core plays {variant.title} here (pip install -e . with a C compiler)")
    rates = measure(variant, args.seconds, args.repeat)
    for cell, unit in (("apply", "steps/s"), ("selfplay", "games/s")):
        on, off = rates[f"{cell} core"], rates[f"{cell} pure"]
        print(f"{variant.title} {cell}: twin {on:,.0f} {unit}, Python alone {off:,.0f} {unit}, x{on / off:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
