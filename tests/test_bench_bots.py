"""The bot benchmarks of issue 12 run and report what they say: bench/decision_times.py and bench/policy_fit.py.

Issue 12: "at a median <= 0.5 s and a maximum <= 3 s per decision on this machine" (measured by
bench/decision_times.py, never in a timed unit test) and "the model may be ... a fitted one shipped as a
small file" (fitted by bench/policy_fit.py).
"""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parent.parent


def _bench(name: str) -> ModuleType:
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
