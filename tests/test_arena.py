"""The arena (docs/arena.md): duplicate deals, the report's keys, determinism across
--jobs, and faulty bots that forfeit single games while the run goes on."""

from __future__ import annotations

import json
import shlex
import shutil
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest

from bummerl.arena import ArenaConfig, forfeit_points, format_report, play_deal, run_arena
from bummerl.bots import UnknownBotError
from bummerl.cli import main
from bummerl.game import Game
from bummerl.rng import derive_seed
from bummerl.variants import find_variant

ROOT = Path(__file__).resolve().parents[1]

#: The keys issue 3 names for the JSON report.
TOP_KEYS = {"deals", "games", "a", "b"}
SIDE_KEYS = {"name", "game_points", "games_won", "bummerl_won", "ppg", "move_seconds_median", "move_seconds_max"}
TIMING = {"seconds", "jobs"}


def _without_timing(report: dict[str, Any]) -> dict[str, Any]:
    out = {k: v for k, v in report.items() if k not in TIMING}
    for side in ("a", "b"):
        out[side] = {k: v for k, v in report[side].items() if not k.startswith("move_seconds")}
    return out


def test_report_has_the_issue_keys() -> None:
    """Issue 3: "The JSON has deals, games, and for each side a and b: name, game_points, games_won,
    bummerl_won, ppg, ppg_ci95 (... on a only), move_seconds_median, move_seconds_max"."""
    report = run_arena(ArenaConfig("schnapsen", "heuristic", "random", deals=6, seed=3, jobs=1))
    assert report.keys() >= TOP_KEYS
    assert SIDE_KEYS | {"ppg_ci95"} <= report["a"].keys()
    assert report["b"].keys() >= SIDE_KEYS and "ppg_ci95" not in report["b"]
    assert report["deals"] == 6 and report["games"] == 12
    lo, hi = report["a"]["ppg_ci95"]
    assert lo <= report["a"]["ppg"] - report["b"]["ppg"] <= hi
    for side in ("a", "b"):
        s = report[side]
        assert s["ppg"] == pytest.approx(s["game_points"] / report["games"])
        assert 0 <= s["move_seconds_median"] <= s["move_seconds_max"]
    assert report["a"]["name"] == "heuristic" and report["b"]["name"] == "random"
    json.dumps(report)  # plain JSON, no NaN or objects


def test_duplicate_deals_cancel_the_cards() -> None:
    """Each deal is played twice with seats swapped, same pack and dealer: a deterministic bot
    against itself then scores exactly the same for both sides in every deal."""
    report = run_arena(ArenaConfig("schnapsen", "heuristic", "heuristic", deals=12, seed=8, jobs=1), game_log=True)
    assert report["a"]["game_points"] == report["b"]["game_points"]
    assert report["a"]["ppg_ci95"] == [0.0, 0.0]
    log = report["game_log"]
    for first, second in zip(log[0::2], log[1::2], strict=True):
        assert (first["deal"], first["pairing"], second["pairing"]) == (second["deal"], 0, 1)
        assert first["dealer"] == second["dealer"]
        assert first["winner"] != second["winner"] and first["points"] == second["points"]


def test_games_are_dealt_from_derived_seeds() -> None:
    """Deal i is dealt from derive_seed(seed, i) (docs/arena.md), so any deal can be replayed alone."""
    config = ArenaConfig("66", "random", "random", deals=3, seed=21)
    result = play_deal(config, 2)
    game = Game.deal("66", seed=derive_seed(21, 2), dealer=0)
    assert [g.deal for g in result.games] == [2, 2]
    assert result.games[0].dealer == game.dealer


@pytest.mark.parametrize("unit", ["game", "bummerl"])
def test_results_do_not_depend_on_jobs(unit: str) -> None:
    """Deterministic results, independent of --jobs: the same report (timings aside)."""
    config = dict(variant="schnapsen", a="heuristic", b="random", deals=10, seed=5, unit=unit)
    one = run_arena(ArenaConfig(**config, jobs=1), game_log=True)  # type: ignore[arg-type]
    two = run_arena(ArenaConfig(**config, jobs=2), game_log=True)  # type: ignore[arg-type]
    assert two["jobs"] == 2
    assert _without_timing(one) == _without_timing(two)


def test_bummerl_unit_plays_whole_matches() -> None:
    """--unit bummerl: a whole Bummerl per pairing; every match has a winner."""
    report = run_arena(ArenaConfig("schnapsen", "heuristic", "random", deals=4, seed=2, unit="bummerl", jobs=1))
    assert report["bummerl_played"] == 8
    assert report["a"]["bummerl_won"] + report["b"]["bummerl_won"] == 8
    assert report["games"] >= 8 * 3  # a Bummerl needs at least 3 games (3 points at most each)
    lo, hi = report["a"]["bummerl_won_ci95"]
    assert 0 <= lo <= report["a"]["bummerl_won"] / 8 <= hi <= 1


def test_unknown_bot_is_a_clear_error() -> None:
    """Issue 3, Bad input: "an unknown bot name: a clear error"."""
    with pytest.raises(UnknownBotError, match="unknown bot 'nobody'"):
        ArenaConfig("schnapsen", "nobody", "random", deals=1)


def test_forfeit_points_are_the_heaviest_ordinary_loss() -> None:
    """seeds/000: three game points when the loser has no trick; seeds/001: "kein Stich 6" Marken."""
    assert forfeit_points(find_variant("scharf")) == 3
    assert forfeit_points(find_variant("schnorps")) == 6


FLAKY_BOT = textwrap.dedent(
    """
    import json, sys, time
    mode, decisions = sys.argv[1], 0
    for line in sys.stdin:
        m = json.loads(line)
        if m["type"] == "hello":
            print(json.dumps({"type": "hello", "protocol": "bummerl-bot", "version": 1, "name": mode}), flush=True)
        elif m["type"] == "decide":
            decisions += 1
            if decisions % 7 == 0:
                if mode == "crash":
                    sys.exit(1)
                if mode == "slow":
                    time.sleep(3)
                if mode == "garbage":
                    print("not json", flush=True)
                    continue
                if mode == "illegal":
                    print(json.dumps({"type": "action", "id": m["id"], "action": "Ah9"}), flush=True)
                    continue
            print(json.dumps({"type": "action", "id": m["id"], "action": m["legal"][-1]}), flush=True)
        elif m["type"] == "quit":
            break
    """
)


@pytest.mark.parametrize("mode", ["crash", "slow", "garbage", "illegal"])
def test_faulty_cmd_bot_forfeits_single_games(mode: str) -> None:
    """Issue 3: a bot that crashes, answers late, sends garbage or an illegal action "forfeits that
    game with a clear message while the match goes on"; "a faulty bot never stops an arena run or
    loses its results"."""
    spec = "cmd:" + shlex.join([sys.executable, "-c", FLAKY_BOT, mode])
    report = run_arena(
        ArenaConfig("schnapsen", spec, "random", deals=4, seed=1, jobs=1, move_timeout=0.3), game_log=True
    )
    forfeits = report["forfeits"]
    assert report["games"] == 8 and len(report["game_log"]) == 8
    assert forfeits, "every 7th decision fails, so some game must be forfeited"
    assert report["a"]["forfeits"] == len(forfeits) and report["b"]["forfeits"] == 0
    kind = {"crash": "crash", "slow": "timeout", "garbage": "garbage", "illegal": "illegal"}[mode]
    for f in forfeits:
        assert f["side"] == "a" and f["kind"] == kind and f["message"]
    forfeited = [g for g in report["game_log"] if g["reason"] == "forfeit"]
    assert len(forfeited) == len(forfeits)
    assert all(g["winner"] == "b" and g["points"] == 3 for g in forfeited)
    # Games after a failure were played by a restarted (or still running) bot, not forfeited.
    assert len(forfeited) < 8
    assert "forfeits: " + str(len(forfeits)) in format_report(report)


def test_faulty_bot_forfeits_within_a_bummerl() -> None:
    """In --unit bummerl a forfeit ends that game only; the match goes on to its winner."""
    spec = "cmd:" + shlex.join([sys.executable, "-c", FLAKY_BOT, "crash"])
    report = run_arena(ArenaConfig("schnapsen", spec, "random", deals=2, seed=4, unit="bummerl", jobs=1))
    assert report["forfeits"]
    assert report["a"]["bummerl_won"] + report["b"]["bummerl_won"] == 4


@pytest.mark.parametrize(
    ("command", "message"),
    [
        ("/nonexistent/bot", "could not be started"),
        (shlex.join([sys.executable, "-c", "pass"]), "exit code 0"),  # exits without reading a line
    ],
)
def test_bot_that_cannot_start_forfeits_every_game(command: str, message: str) -> None:
    report = run_arena(ArenaConfig("schnapsen", "cmd:" + command, "random", deals=2, seed=1, jobs=1))
    assert len(report["forfeits"]) == 4
    assert all(f["kind"] == "start" and message in f["message"] for f in report["forfeits"])
    assert report["b"]["game_points"] == 4 * 3


def test_cmd_bot_in_another_language_plays_the_arena() -> None:
    """The JavaScript example bot plays through `cmd:` (the protocol is language-neutral)."""
    if shutil.which("node") is None:
        pytest.skip("node is not installed")
    spec = f"cmd:node {ROOT / 'examples/bots/greedy.js'}"
    report = run_arena(ArenaConfig("66", spec, "random", deals=6, seed=1, jobs=2))
    assert report["forfeits"] == [] and report["games"] == 12
    assert report["a"]["games_won"] + report["b"]["games_won"] + report["games_unwon"] == 12


def test_cmd_bot_results_do_not_depend_on_process_reuse() -> None:
    """A `cmd:` bot gets a seed per game (game_start), so jobs 1 and 2 (different process reuse)
    give the same games."""
    spec = f"cmd:{sys.executable} -m bummerl bot random"
    one = run_arena(ArenaConfig("schnapsen", spec, "heuristic", deals=4, seed=6, jobs=1), game_log=True)
    two = run_arena(ArenaConfig("schnapsen", spec, "heuristic", deals=4, seed=6, jobs=2), game_log=True)
    assert _without_timing(one) == _without_timing(two)


def test_cli_json(capsys: pytest.CaptureFixture[str]) -> None:
    """`bummerl arena ... --json` prints one JSON object with the issue's keys."""
    status = main(
        [
            "arena",
            "--variant",
            "scharf",
            "--a",
            "random",
            "--b",
            "heuristic",
            "--deals",
            "3",
            "--seed",
            "2",
            "--jobs",
            "1",
            "--json",
        ]
    )
    assert status == 0
    report = json.loads(capsys.readouterr().out)
    assert report.keys() >= TOP_KEYS and report["variant"] == "schnapsen-scharf"
    assert report["b"].keys() >= SIDE_KEYS


def test_cli_table_and_bad_bot(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["arena", "--a", "random", "--b", "random", "--deals", "2", "--jobs", "1"]) == 0
    out = capsys.readouterr().out
    assert "a - b per game" in out and "95% CI" in out
    assert main(["arena", "--a", "random", "--b", "nobody", "--deals", "2"]) == 2
    assert "unknown bot 'nobody'" in capsys.readouterr().err
