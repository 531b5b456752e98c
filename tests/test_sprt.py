"""Issue 12: "`bummerl arena --sprt ELO0,ELO1` stops when the test decides; a documented way to play a candidate
against a baseline taken from any git revision through the bot protocol" (bummerl.arena.sprt, bench/baseline.py)."""

from __future__ import annotations

import importlib.util
import json
import math
import random
import subprocess
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from bummerl.arena import ArenaConfig, Sprt, make_backend, run_arena
from bummerl.arena.deals import play_deal
from bummerl.arena.sprt import SequentialTest, deal_score, elo_estimate, expected_score, game_score, llr
from bummerl.cli import main

ROOT = Path(__file__).resolve().parent.parent
SPRT_KEYS = {"elo0", "elo1", "alpha", "beta", "llr", "lower", "upper", "result", "deals", "elo", "elo_interval"}


def test_llr_matches_a_hand_computed_case() -> None:
    """LLR = n (s1 - s0) (2 mean - s0 - s1) / (2 var), var = (sum of squared deviations + 1/8) / n."""
    scores = [1.0, 0.5, 1.0, 0.0, 1.0]
    s0, s1 = 0.5, 1 / (1 + 10 ** (-50 / 400))  # 0.571463
    # mean 0.7; squared deviations 0.09 + 0.04 + 0.09 + 0.49 + 0.09 = 0.8; var (0.8 + 0.125) / 5 = 0.185
    expected = 5 * (s1 - s0) * (1.4 - s0 - s1) / (2 * 0.185)
    assert llr(scores, 0, 50) == pytest.approx(expected, rel=1e-12)
    assert expected == pytest.approx(0.31728, abs=1e-5)
    assert llr(scores, -50, 0) != pytest.approx(expected)  # the hypotheses matter


def test_bounds_and_logistic_curve() -> None:
    test = Sprt(0, 50, alpha=0.05, beta=0.1)
    assert test.lower == pytest.approx(math.log(0.1 / 0.95))
    assert test.upper == pytest.approx(math.log(0.9 / 0.05))
    assert expected_score(400) == pytest.approx(10 / 11)
    assert expected_score(-200) + expected_score(200) == pytest.approx(1.0)


def test_game_and_deal_scores_from_side_points() -> None:
    assert [game_score({"a": a, "b": b}) for a, b in [(3, 0), (0, 1), (0, 0), (1, 1)]] == [1.0, 0.0, 0.5, 0.5]
    # A Dreierschnapsen deal: six seatings, each game scored by side.
    result = play_deal(ArenaConfig("dreierschnapsen", "heuristic", "random", deals=1, seed=4), 0)
    per_game = [game_score(g.side_points) for g in result.games]
    assert len(per_game) == 6
    assert deal_score(g.side_points for g in result.games) == pytest.approx(sum(per_game) / 6)


def test_elo_estimate_interval_contains_the_estimate() -> None:
    elo, interval = elo_estimate([1.0, 0.5, 0.5, 0.0, 1.0, 1.0])
    assert interval is not None and interval[0] < elo < interval[1]
    assert elo == pytest.approx(-400 * math.log10(1 / (4 / 6) - 1))


def test_sequential_test_is_order_independent() -> None:
    rng = random.Random(7)
    scores = [rng.choice([0.0, 0.5, 0.5, 1.0, 1.0]) for _ in range(300)]
    in_order = SequentialTest(Sprt(0, 50))
    for deal, score in enumerate(scores):
        in_order.add(deal, score)
    assert in_order.decided
    order = list(range(300))
    rng.shuffle(order)
    shuffled = SequentialTest(Sprt(0, 50))
    for deal in order:
        shuffled.add(deal, scores[deal])
    assert shuffled.report() == in_order.report()
    assert shuffled.counted < 300


def test_stronger_bot_accepts_h1_quickly() -> None:
    report = run_arena(ArenaConfig("schnapsen", "heuristic", "random", deals=500, seed=0, jobs=1), sprt=Sprt(0, 50))
    sprt = report["sprt"]
    assert sprt["result"] == "H1" and sprt["llr"] >= sprt["upper"]
    assert sprt["deals"] == report["deals"] < 50  # 8 with this seed: far below the maximum of 500
    assert report["games"] == 2 * report["deals"]
    assert sprt["elo_interval"][0] > 0


def test_equal_bots_accept_h0() -> None:
    """random against random, seed 0: the test accepts H0 (a is not 100 Elo stronger) after 54 deals of 300."""
    report = run_arena(ArenaConfig("schnapsen", "random", "random", deals=300, seed=0, jobs=1), sprt=Sprt(0, 100))
    sprt = report["sprt"]
    assert (sprt["result"], sprt["deals"], report["deals"]) == ("H0", 54, 54)
    assert sprt["llr"] <= sprt["lower"]
    lo, hi = sprt["elo_interval"]
    assert lo < 0 < hi


def test_identical_deterministic_bots_decide_h0() -> None:
    """Every duplicate deal scores exactly 0.5: no spread, and still a decision (the pseudo-deal's variance)."""
    report = run_arena(ArenaConfig("schnapsen", "heuristic", "heuristic", deals=100, jobs=1), sprt=Sprt(0, 50))
    assert report["sprt"]["result"] == "H0"
    assert report["sprt"]["deals"] == 13  # 12 deals give LLR -2.942, just inside the bound -2.944
    assert report["ppg_diff"] == 0


def test_report_covers_only_the_counted_deals() -> None:
    config = ArenaConfig("schnapsen", "heuristic", "random", deals=60, seed=0, jobs=1)
    report = run_arena(config, sprt=Sprt(0, 50))
    plain = run_arena(ArenaConfig("schnapsen", "heuristic", "random", deals=report["deals"], seed=0, jobs=1))
    assert {k: v for k, v in report.items() if k not in {"sprt", "seconds", "a", "b"}} == {
        k: v for k, v in plain.items() if k not in {"seconds", "a", "b"}
    }
    assert report["a"]["game_points"] == plain["a"]["game_points"]


def test_no_decision_plays_every_deal() -> None:
    report = run_arena(ArenaConfig("schnapsen", "random", "random", deals=10, seed=0, jobs=1), sprt=Sprt(0, 100))
    assert report["sprt"]["result"] == "inconclusive"
    assert report["sprt"]["deals"] == report["deals"] == 10


@pytest.mark.parametrize(("variant", "sprt"), [("schnapsen", Sprt(0, 100)), ("dreierschnapsen", Sprt(0, 50))])
def test_same_decision_with_one_and_two_jobs(variant: str, sprt: Sprt) -> None:
    reports = []
    for jobs in (1, 2):
        with make_backend("process", jobs=jobs) as backend:
            config = ArenaConfig(variant, "random", "random" if variant == "schnapsen" else "heuristic", deals=120)
            reports.append(run_arena(config, backend=backend, sprt=sprt))
    one, two = reports
    assert one["jobs"] == 1 and two["jobs"] == 2
    assert one["sprt"] == two["sprt"]
    assert one["sprt"]["result"] != "inconclusive"
    for key in ("deals", "games", "ppg_diff", "games_unwon"):
        assert one[key] == two[key], key
    assert one["a"]["games_won_ci95"] == two["a"]["games_won_ci95"]


def test_cli_json_shape(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["arena", "--a", "heuristic", "--b", "random", "--deals", "100", "--jobs", "1", "--json"]
    assert main([*argv, "--sprt", "0,50", "--alpha", "0.1", "--beta", "0.2"]) == 0
    report = json.loads(capsys.readouterr().out)
    sprt = report["sprt"]
    assert sprt.keys() == SPRT_KEYS
    assert (sprt["elo0"], sprt["elo1"], sprt["alpha"], sprt["beta"]) == (0, 50, 0.1, 0.2)
    assert sprt["result"] == "H1" and sprt["deals"] == report["deals"] < 100
    assert len(sprt["elo_interval"]) == 2
    assert main(argv) == 0
    assert "sprt" not in json.loads(capsys.readouterr().out)


def test_cli_prints_the_sprt_lines(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["arena", "--a", "heuristic", "--b", "random", "--deals", "100", "--jobs", "1", "--sprt", "0,50"]) == 0
    out = capsys.readouterr().out
    assert "SPRT elo0 0, elo1 50 (alpha 0.05, beta 0.05): LLR " in out
    assert "in (-2.94, 2.94) -> H1 after 8 deals" in out
    assert "Elo of a over b: +" in out and "95% CI [" in out


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (["--sprt", "50,0"], "--sprt needs ELO0 < ELO1, got 50, 0"),
        (["--sprt", "10,10"], "--sprt needs ELO0 < ELO1, got 10, 10"),
        (["--sprt", "0,50", "--alpha", "0.5"], "--alpha must lie strictly between 0 and 0.5, got 0.5"),
        (["--sprt", "0,50", "--alpha", "0"], "--alpha must lie strictly between 0 and 0.5, got 0"),
        (["--sprt", "0,50", "--beta", "-0.1"], "--beta must lie strictly between 0 and 0.5, got -0.1"),
        (["--sprt", "0"], "--sprt takes ELO0,ELO1 (two numbers, e.g. 0,50), not '0'"),
        (["--sprt", "0,fifty"], "--sprt takes ELO0,ELO1"),
        (["--sprt", "0,inf"], "--sprt needs finite numbers"),
        (["--alpha", "0.1"], "--alpha and --beta go with --sprt ELO0,ELO1"),
    ],
)
def test_cli_bad_sprt_input(extra: list[str], message: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["arena", "--a", "heuristic", "--b", "random", "--deals", "5", "--jobs", "1", *extra]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert f"bummerl arena: error: {message}" in captured.err


# bench/baseline.py: argument handling and the commands it runs, with a fake runner (building a venv is too slow).


def _baseline() -> ModuleType:
    spec = importlib.util.spec_from_file_location("bench_baseline", ROOT / "bench" / "baseline.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


class FakeRun:
    """Records every command; answers git's rev-parse like a repository at ``top`` would."""

    def __init__(self, top: Path, commit: str = "c0ffee" * 6 + "c0ff") -> None:
        self.top, self.commit = top, commit
        self.commands: list[list[str]] = []

    def __call__(self, cmd: list[str], **kwargs: Any) -> subprocess.CompletedProcess[str]:
        self.commands.append([str(c) for c in cmd])
        out = ""
        if cmd[:3] == ["git", "rev-parse", "--show-toplevel"]:
            out = f"{self.top}\n"
        elif cmd[:3] == ["git", "rev-parse", "--verify"]:
            if cmd[3].startswith("nosuch"):
                raise subprocess.CalledProcessError(128, cmd, "", "fatal: Needed a single revision\n")
            out = f"{self.commit}\n"
        return subprocess.CompletedProcess(cmd, 0, out, "")


def test_baseline_builds_a_worktree_and_a_venv(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    baseline, run = _baseline(), FakeRun(tmp_path)
    assert baseline.main(["HEAD~1"], run=run) == 0
    target = tmp_path / ".baselines" / run.commit
    assert capsys.readouterr().out == f"cmd:{target}/.venv/bin/bummerl bot expert\n"
    assert run.commands[1] == ["git", "rev-parse", "--verify", "HEAD~1^{commit}"]
    assert run.commands[2:] == [
        ["git", "worktree", "add", "--detach", str(target), run.commit],
        [sys.executable, "-m", "venv", f"{target}/.venv"],
        [f"{target}/.venv/bin/python", "-m", "pip", "install", "--quiet", str(target)],
    ]


def test_baseline_reuses_a_built_one(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    baseline, run = _baseline(), FakeRun(tmp_path)
    target = tmp_path / "base"
    (target / ".venv" / "bin").mkdir(parents=True)
    (target / ".venv" / "bin" / "bummerl").touch()
    assert baseline.main(["main", "--dir", str(target), "--bot", "heuristic"], run=run) == 0
    assert capsys.readouterr().out == f"cmd:{target}/.venv/bin/bummerl bot heuristic\n"
    assert [c[:2] for c in run.commands] == [["git", "rev-parse"], ["git", "rev-parse"]]  # nothing built


def test_baseline_print_only_and_bad_revision(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    baseline, run = _baseline(), FakeRun(tmp_path)
    assert baseline.main(["HEAD", "--print-only"], run=run) == 0
    assert capsys.readouterr().out.endswith(f"/.baselines/{run.commit}/.venv/bin/bummerl bot expert\n")
    assert len(run.commands) == 2
    assert baseline.main(["nosuchrev"], run=run) == 2
    assert "fatal: Needed a single revision" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        baseline.parse_args([])  # the revision is required
