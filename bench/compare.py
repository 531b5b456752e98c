"""Before/after: the engine at a git revision against the working tree, in one run.

    python bench/compare.py --before d4178fc            # every variant, random and play-only
    python bench/compare.py --before HEAD~3 --variant schnapsen --repeat 9
    python bench/compare.py --before ef6c6eb --variant dreierschnapsen,bauernschnapsen   # the table games

The table games are measured in random mode only (their play-only mode would have to pass every bid). A
revision from before issue 11 played them through ``bummerl.table.Table``; :func:`old_engine` finds it there.

The old engine is taken with ``git archive`` (read-only) into a temporary
directory and imported as the package ``bummerl_before`` next to ``bummerl``,
so both run in the same process on the same pinned core, their runs
interleaved; the best run of each is reported (CPU time of this process, so
other load on the machine counts for neither; the garbage collector paused).
Each run plays the same seeded random games as ``bench/engine.py``'s random and
play-only cells.
"""

from __future__ import annotations

import argparse
import gc
import importlib
import io
import os
import random
import re
import subprocess
import sys
import tarfile
import tempfile
import time
from pathlib import Path
from types import ModuleType
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "src"))

_IMPORTS = re.compile(r"\bbummerl(?=[.\s])")


def load_revision(revision: str, into: Path) -> tuple[ModuleType, ModuleType]:
    """``bummerl.game`` and ``bummerl.variants`` of ``revision``, as ``bummerl_before``."""
    archive = subprocess.run(
        ["git", "-C", str(ROOT), "archive", "--format=tar", revision, "src/bummerl"],
        check=True,
        capture_output=True,
    ).stdout
    with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
        tar.extractall(into, filter="data")
    package = into / "bummerl_before"
    (into / "src" / "bummerl").rename(package)
    for path in package.rglob("*.py"):
        path.write_text(_IMPORTS.sub("bummerl_before", path.read_text(encoding="utf-8")), encoding="utf-8")
    _compiled_cores(package)
    sys.path.insert(0, str(into))
    return importlib.import_module("bummerl_before.game"), importlib.import_module("bummerl_before.variants")


def _compiled_cores(package: Path) -> None:
    """Give the old revision the compiled cores it would have had installed (git holds only their C source).

    Without them the old engine would shuffle in pure Python and look slower than it was. A built core of the
    working tree is copied only where the revision's C source is the same to the byte; otherwise the old
    revision runs that part in Python and this says so, since its numbers are then not comparable.
    """
    here = ROOT / "src" / "bummerl"
    for source in package.rglob("*.c"):
        current = here / source.relative_to(package)
        built = sorted(current.parent.glob(current.stem + ".*.so"))
        if not built:
            continue
        if current.is_file() and current.read_bytes() == source.read_bytes():
            for so in built:
                (source.parent / so.name).write_bytes(so.read_bytes())
        else:
            print(
                f"note: {source.name} differs at the old revision; its engine runs that core in Python", file=sys.stderr
            )


def old_engine(game_module: ModuleType, variants: ModuleType, name: str) -> tuple[Any, Any]:
    """The engine class and the variant called ``name`` of an old revision.

    Since issue 11 one ``Game`` deals every variant; before it the table games had their own class
    (``bummerl.table.Table``) and finder (``find_table_variant``).
    """
    if name not in _TABLE_GAMES:
        return game_module.Game, variants.find_variant(name)
    package = game_module.__name__.rsplit(".", 1)[0]
    try:
        table = importlib.import_module(package + ".table")
    except ImportError:  # one game family: Game plays it
        return game_module.Game, variants.find_variant(name)
    return table.Table, variants.find_table_variant(name)


#: The table games (found by these names in every revision).
_TABLE_GAMES = ("dreierschnapsen", "bauernschnapsen")


def games_per_second(game_class: Any, variant: Any, play_only: bool, games: int) -> float:
    """Random full games per second of CPU time (the loop of ``bench/engine.py``)."""
    choice = random.Random(0).choice
    gc.collect()
    gc.disable()  # as timeit and bench/engine.py do
    try:
        start = time.process_time()
        for seed in range(games):
            game = game_class.deal(variant, seed)
            if play_only:
                while not game.is_over:
                    game.apply(choice([a for a in game.legal_actions() if a.kind == 0]))
            else:
                while not game.is_over:
                    game.apply(choice(game.legal_actions()))
        elapsed = time.process_time() - start
    finally:
        gc.enable()
    return games / elapsed


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--before", default="HEAD", metavar="REV", help="git revision of the old engine (default HEAD)")
    parser.add_argument(
        "--variant",
        default="schnapsen,scharf,66,schnorps,dreierschnapsen,bauernschnapsen",
        help="comma-separated variant names (default: all six)",
    )
    parser.add_argument("--games", type=int, default=1000, help="games per run (default 1000)")
    parser.add_argument("--repeat", type=int, default=7, help="runs per engine and cell; best reported (default 7)")
    args = parser.parse_args(argv)
    try:
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})
        pinned = f"pinned to CPU {min(os.sched_getaffinity(0))}"
    except (AttributeError, OSError):
        pinned = "not pinned"
    from bummerl.game import Game
    from bummerl.variants import find_variant

    with tempfile.TemporaryDirectory() as tmp:
        old_game, old_variants = load_revision(args.before, Path(tmp))
        names = [find_variant(n.strip()).name for n in args.variant.split(",") if n.strip()]
        engines = {
            name: {"before": old_engine(old_game, old_variants, name), "after": (Game, find_variant(name))}
            for name in names
        }
        best: dict[tuple[str, bool, str], float] = {}
        for _ in range(args.repeat):
            for name in names:
                for play_only in (False, True) if name not in _TABLE_GAMES else (False,):
                    for label, (game_class, variant) in engines[name].items():
                        rate = games_per_second(game_class, variant, play_only, args.games)
                        key = (name, play_only, label)
                        best[key] = max(best.get(key, 0.0), rate)
    print(f"before: {args.before}; after: working tree; {pinned}; best of {args.repeat} x {args.games} games, CPU time")
    print(f"{'variant':<17}{'mode':<11}{'before g/s':>11}{'after g/s':>11}{'speed-up':>10}")
    for name in names:
        for play_only in (False, True) if name not in _TABLE_GAMES else (False,):
            b, a = best[(name, play_only, "before")], best[(name, play_only, "after")]
            mode = "play-only" if play_only else "random"
            print(f"{name:<17}{mode:<11}{b:>11,.0f}{a:>11,.0f}{a / b:>9.2f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
