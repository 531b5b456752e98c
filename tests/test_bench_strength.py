"""bench/strength.py --combine: chunks pooled per deal give the interval of one run.

Issue 3: "Bot strength is measured on duplicate deals ... with a 95% confidence
interval"; long measurements run in chunks, and pooling them must not change the
statistics.
"""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path
from types import ModuleType

import pytest

from bummerl.arena import ArenaConfig, run_arena

ROOT = Path(__file__).resolve().parent.parent


def _strength() -> ModuleType:
    spec = importlib.util.spec_from_file_location("bench_strength", ROOT / "bench" / "strength.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("variant", ["schnapsen", "dreierschnapsen", "bauernschnapsen"])
def test_pooled_chunks_equal_one_run(tmp_path: Path, variant: str) -> None:
    """Issue 11: the same for the table games, whose games score both sides (side_points)."""
    strength = _strength()
    report = run_arena(ArenaConfig(variant, "heuristic", "random", deals=8, seed=3, jobs=1), game_log=True)
    # The same run cut into two chunks by deal (same seed): the pooled interval is the run's own.
    first = {**report, "game_log": [g for g in report["game_log"] if g["deal"] < 5]}
    second = {**report, "game_log": [g for g in report["game_log"] if g["deal"] >= 5]}
    assert strength.pooled_interval([first, second]) == pytest.approx(report["a"]["ppg_ci95"])
    # Reports without a game log give no pooled interval (never a made-up one).
    bare = {k: v for k, v in report.items() if k != "game_log"}
    assert strength.pooled_interval([bare, first]) is None
    paths = []
    for i, chunk in enumerate((report, report)):
        path = tmp_path / f"r{i}.json"
        path.write_text(json.dumps({**chunk, "seed": 3 + i}))
        paths.append(str(path))
    combined = strength.combine(paths)
    assert combined["deals"] == 16 and combined["games"] == 2 * report["games"]
    assert combined["ppg_diff"] == pytest.approx(report["ppg_diff"])
    lo, hi = combined["ppg_ci95"]
    assert lo <= combined["ppg_diff"] <= hi


def test_reports_from_before_issue_11_still_pool() -> None:
    """A two-player game log written before the arena became one has winner and points only."""
    strength = _strength()
    report = run_arena(ArenaConfig("66", "heuristic", "random", deals=5, seed=9, jobs=1), game_log=True)
    old_log = [{k: g[k] for k in ("deal", "winner", "points")} for g in report["game_log"]]
    assert strength.pooled_interval([{"seed": 9, "game_log": old_log}]) == pytest.approx(report["a"]["ppg_ci95"])
    measured = strength.measure("heuristic", "random", "dreierschnapsen", "game", 3, 1, 1)
    lo, hi = measured["points_share_a_ci95"]
    assert lo <= measured["points_share_a"] <= hi


def test_margin_gain_pairs_two_runs_against_one_opponent_on_the_same_deals() -> None:
    """``--margin-gain``: "search beats heuristic by more than today" (issue 12) is the per-deal
    difference of two margins against the same opponent; a run against itself gains exactly 0, and
    reports of different deals or opponents are refused rather than paired."""
    strength = _strength()
    run = run_arena(ArenaConfig("bauernschnapsen", "heuristic", "random", deals=6, seed=4, jobs=1), game_log=True)
    same = strength.margin_gain(run, run)
    assert same["gain_per_game"] == 0 and same["gain_ci95"] == [0, 0] and same["deals"] == 6
    weaker = run_arena(ArenaConfig("bauernschnapsen", "random", "random", deals=6, seed=4, jobs=1), game_log=True)
    gain = strength.margin_gain(run, weaker)
    assert gain["gain_per_game"] == pytest.approx(run["ppg_diff"] - weaker["ppg_diff"])
    assert gain["gain_ci95"][0] <= gain["gain_per_game"] <= gain["gain_ci95"][1]
    with pytest.raises(ValueError, match="same opponent on the same deals"):
        strength.margin_gain(run, {**weaker, "seed": 5})
    with pytest.raises(ValueError, match="game logs"):
        strength.margin_gain(run, {k: v for k, v in weaker.items() if k != "game_log"})


def test_margin_gain_refuses_deals_played_in_other_seatings() -> None:
    """A deal must have the same games in both reports; otherwise its margins are not comparable."""
    strength = _strength()
    run = run_arena(ArenaConfig("bauernschnapsen", "heuristic", "random", deals=3, seed=4, jobs=1), game_log=True)
    fewer = {**run, "game_log": run["game_log"][1:]}  # deal 0 lost one of its games
    with pytest.raises(ValueError, match="not the same games"):
        strength.margin_gain(run, fewer)


def test_margin_gain_pools_stages_deal_by_deal() -> None:
    """A measurement in stages (other seeds) pools its deals: the pooled gain is the games-weighted mean of
    the stages' gains, and a stage against another opponent, or an unpaired report, is refused."""
    strength = _strength()
    reports = {
        (a, seed): run_arena(ArenaConfig("66", a, "random", deals=4, seed=seed, jobs=1), game_log=True)
        for a in ("heuristic", "random")
        for seed in (4, 5)
    }
    first = strength.margin_gain(reports["heuristic", 4], reports["random", 4])
    second = strength.margin_gain(reports["heuristic", 5], reports["random", 5])
    pooled = strength.margin_gain(
        reports["heuristic", 4], reports["random", 4], reports["heuristic", 5], reports["random", 5]
    )
    assert pooled["deals"] == 8
    games = [len(reports["heuristic", s]["game_log"]) for s in (4, 5)]
    expected = (first["gain_per_game"] * games[0] + second["gain_per_game"] * games[1]) / sum(games)
    assert pooled["gain_per_game"] == pytest.approx(expected)
    with pytest.raises(ValueError, match="in pairs"):
        strength.margin_gain(reports["heuristic", 4], reports["random", 4], reports["heuristic", 5])
    other = run_arena(ArenaConfig("66", "heuristic", "heuristic", deals=4, seed=5, jobs=1), game_log=True)
    with pytest.raises(ValueError, match="one opponent"):
        strength.margin_gain(reports["heuristic", 4], reports["random", 4], other, other)


def test_pooled_sprt_decides_as_the_arena_does_over_one_run(tmp_path: Path) -> None:
    """Issue 12: "every claimed gain is a run against that baseline", with "an SPRT accept at ELO1 >= 20" as
    one way to show it; a measurement run in chunks must give the test one long run would have given."""
    strength = _strength()
    sprt = strength.Sprt(0, 150)
    one = run_arena(ArenaConfig("schnapsen", "heuristic", "random", deals=40, seed=6, jobs=1), game_log=True, sprt=sprt)
    assert one["sprt"]["result"] == "H1"  # decided before the 40 deals: the run stopped there
    log = one["game_log"]
    first = {**one, "game_log": [g for g in log if g["deal"] < 3]}
    rest = {**one, "game_log": [{**g, "deal": g["deal"] - 3} for g in log if g["deal"] >= 3], "seed": 7}
    pooled = strength.pooled_sprt([first, rest], sprt)
    assert pooled == one["sprt"]  # the same scores in the same order: the same numbers
    paths = []
    for i, chunk in enumerate((first, rest)):
        path = tmp_path / f"c{i}.json"
        path.write_text(json.dumps(chunk))
        paths.append(str(path))
    assert strength.combine(paths, sprt)["sprt"] == one["sprt"]
    # An undecided test reports where it stands after every deal, never a decision it did not reach.
    even = strength.pooled_sprt([{"seed": 1, "game_log": [{"deal": 0, "side_points": {"a": 1, "b": 1}}]}], sprt)
    assert even["result"] == "inconclusive" and even["deals"] == 1
    with pytest.raises(ValueError, match="game_log"):
        strength.pooled_sprt([{k: v for k, v in one.items() if k != "game_log"}], sprt)


def test_sprt_option_is_refused_without_reports_or_with_bad_bounds(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``--sprt`` only pools reports (a new run takes ``bummerl arena --sprt``), and names a bad ELO0,ELO1."""
    strength = _strength()
    with pytest.raises(SystemExit):
        strength.main(["--sprt", "0,20"])
    assert "--sprt goes with --combine" in capsys.readouterr().err
    report = run_arena(ArenaConfig("schnapsen", "heuristic", "random", deals=2, seed=1, jobs=1), game_log=True)
    path = tmp_path / "r.json"
    path.write_text(json.dumps(report))
    with pytest.raises(SystemExit):
        strength.main(["--combine", str(path), "--sprt", "20,0"])
    assert "ELO0 < ELO1" in capsys.readouterr().err
    assert strength.main(["--combine", str(path), "--sprt", "0,20"]) == 0
    assert json.loads(capsys.readouterr().out)["sprt"]["deals"] == 2
