"""bench/people_ratings.py runs end to end at a tiny size, so that it cannot rot (docs/web.md, "Ratings and
leaderboards": its figures)."""

from __future__ import annotations

import pytest

pytest.importorskip("fastapi", reason="needs the 'web' extra: pip install -e '.[web]'")

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_the_bench_rates_games_and_times_the_leaderboard() -> None:
    done = subprocess.run(
        [sys.executable, str(ROOT / "bench" / "people_ratings.py"), "--players", "6", "--games", "30"],
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    lines = done.stdout.splitlines()
    assert lines[0].startswith("6 players, 30 rated games,") and "(sqlite)" in lines[0]
    assert [line.split(":")[0] for line in lines[1:]] == [
        "rate one game",
        "leaderboard page 1, uncached",
        lines[3].split(":")[0],
        "leaderboard page 1, kept",
        "own rating with place",
    ]
    assert lines[3].startswith("leaderboard page at offset")
    assert all(" ms, p95 " in line for line in lines[1:])
