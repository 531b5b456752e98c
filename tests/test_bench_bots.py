"""The bot benchmarks of issue 12 run and report what they say: bench/decision_times.py and bench/policy_fit.py.

Issue 12: "at a median <= 0.5 s and a maximum <= 3 s per decision on this machine" (measured by
bench/decision_times.py, never in a timed unit test) and "the model may be ... a fitted one shipped as a
small file" (fitted by bench/policy_fit.py).
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

from bummerl.bots import make_bot
from bummerl.bots.search import SearchBot
from bummerl.two_player import TwoPlayerGame

ROOT = Path(__file__).resolve().parent.parent


def _bench(name: str) -> ModuleType:
    if str(ROOT / "bench") not in sys.path:
        sys.path.insert(0, str(ROOT / "bench"))  # the scripts import their shared command line (bench/ab.py)
    spec = importlib.util.spec_from_file_location(f"bench_{name}", ROOT / "bench" / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_decision_times_times_every_bot_on_the_same_decisions() -> None:
    report = _bench("decision_times").measure("schnapsen", ["easy", "random"], deals=2, seed=3, driver="heuristic")
    rows = {(r["bot"], r["phase"]): r for r in report["rows"]}
    assert rows["easy", "all"]["decisions"] == rows["random", "all"]["decisions"] > 0
    for bot in ("easy", "random"):
        parts = [r["decisions"] for (b, p), r in rows.items() if b == bot and p != "all"]
        assert sum(parts) == rows[bot, "all"]["decisions"]
        all_row = rows[bot, "all"]
        assert 0 <= all_row["median"] <= all_row["p90"] <= all_row["max"]
    # The search level reports the worlds it solved (the random bot does not search).
    assert rows["random", "all"]["searched"] == 0 and rows["random", "all"]["worlds_median"] is None
    easy = rows["easy", "all"]
    assert 0 < easy["searched"] <= easy["decisions"] and 1 <= easy["worlds_min"] <= easy["worlds_median"]
    assert 0 <= easy["exhaustive"] <= easy["searched"]


def test_a_search_bot_tells_what_its_last_search_found() -> None:
    """SearchBot.last_evaluation: the Evaluation behind the last choice, None where it did not search."""
    game = TwoPlayerGame.deal("schnapsen", seed=4)
    bot = make_bot("hard", seed=1)
    assert isinstance(bot, SearchBot) and bot.last_evaluation is None
    action = bot.choose(game.view(game.to_move))
    ev = bot.last_evaluation
    assert ev is not None and ev.worlds >= 1 and action in ev.values
    while not game.is_over and len(game.legal_actions()) > 1:
        game.apply(game.legal_actions()[0])
    assert not game.is_over  # a follower with one card (seed 4)
    bot.choose(game.view(game.to_move))  # one legal action: nothing searched
    assert bot.last_evaluation is None


def test_policy_fit_collects_and_fits_a_model_that_beats_uniform(tmp_path: Path) -> None:
    fit = _bench("policy_fit")
    data = tmp_path / "plays.jsonl"
    fit.collect("schnapsen", games=12, seed=0, bot="heuristic", out=str(data))
    samples = fit.load([str(data)])
    assert len(samples) > 50
    # The heuristic is deterministic: a fitted model must explain its plays far better than chance.
    follow = [s for s in samples if s[0] == "follow-open"]
    weights = fit.fit(follow)
    model = fit.PolicyModel({"follow-open": tuple(float(x) for x in weights)})
    ll, uniform, n = fit.loglik(model, follow)
    assert n == len(follow) and ll > uniform + 0.3


def test_policy_fit_diagnose_reports_how_much_the_plays_tell() -> None:
    out = _bench("policy_fit").diagnose("schnapsen", games=2, seed=5, bot="heuristic", max_draws=1, pool=20)
    assert out["decisions"] > 0
    assert set(out) >= {"mean_log_ratio", "mean_log_ratio_open", "mean_log_ratio_strict"}


def test_budget_ab_plays_a_level_with_changed_budget_fields(monkeypatch: pytest.MonkeyPatch) -> None:
    """bench/budget_ab.py: ``LEVEL:key=value`` is that level with those :class:`Budget` fields replaced
    (the A/B of a search option, issue 12: "every claimed gain is a run against that baseline")."""
    import bummerl.bots

    # The spec is registered for this test only: other tests list the shipped bots.
    monkeypatch.setattr(bummerl.bots, "_REGISTRY", dict(bummerl.bots._REGISTRY))
    from bummerl.arena import ArenaConfig, run_arena
    from bummerl.bots import make_bot
    from bummerl.bots.levels import LEVELS

    ab = _bench("budget_ab")
    assert ab.parse_spec("expert:alphamu=5,seconds=none") == ("expert", {"alphamu": 5, "seconds": None})
    with pytest.raises(ValueError, match="unknown budget field"):
        ab.parse_spec("easy:wrolds=3")
    ab.register("easy:worlds=3,presumed=1")
    bot = make_bot("easy:worlds=3,presumed=1", 1)
    assert bot.budget.worlds == 3 and bot.budget.presumed == 1 and bot.budget.temperature == LEVELS["easy"].temperature
    report = run_arena(ArenaConfig("schnapsen", "easy:worlds=3,presumed=1", "easy", deals=1, seed=2, jobs=1))
    assert report["games"] == 2 and report["a"]["name"] == "easy:worlds=3,presumed=1"


def test_bummerl_edge_links_game_points_to_whole_bummerl() -> None:
    """Issue 12's first done-when counts whole Bummerl ("≥ 55% with a 95% interval above 50%");
    bench/bummerl_edge.py says which per-game edge that is, so an A/B in game points can be planned for it."""
    edge = _bench("bummerl_edge")
    points = edge.won_game_points("schnapsen")
    assert abs(sum(points.values()) - 1.0) < 1e-12
    # Even players win half the Bummerl; the stronger side wins more Bummerl than games (a longer match).
    assert edge.bummerl_share(0.5, points) == pytest.approx(0.5)
    shares = [edge.bummerl_share(q, points) for q in (0.5, 0.52, 0.55, 0.6)]
    assert shares == sorted(shares) and shares[2] > 0.55
    # One game to one point is one game.
    assert edge.bummerl_share(0.7, {1: 1.0}, target=1) == pytest.approx(0.7)
    # Symmetry: the weaker side's share is the complement.
    assert edge.bummerl_share(0.45, points) == pytest.approx(1 - edge.bummerl_share(0.55, points))
    q = edge.edge_for(0.55, points)
    assert edge.bummerl_share(q, points) == pytest.approx(0.55)
    rows = edge.table("schnapsen", 7, [0.0, 0.1, 0.2])
    assert [r["bummerl"] for r in rows] == sorted(r["bummerl"] for r in rows)
    assert edge.bummerl_needed(0.55) == 385
    with pytest.raises(ValueError):
        edge.won_game_points("no-such-variant")


def test_bummerl_edge_prints_an_ab_result_in_bummerl(capsys: pytest.CaptureFixture[str]) -> None:
    edge = _bench("bummerl_edge")
    assert edge.main(["--edge", "-0.05", "0", "0.1"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[1:] == [
        "edge -0.050 game points per game: 47.5% of the Bummerl",
        "edge +0.000 game points per game: 50.0% of the Bummerl",
        "edge +0.100 game points per game: 55.0% of the Bummerl",
    ]
    assert edge.main(["--bummerl", "0.55"]) == 0
    assert "an edge of +0.100 game points per game" in capsys.readouterr().out
    with pytest.raises(ValueError, match="more than a won game scores"):
        edge.table("schnapsen", 7, [2.5])
