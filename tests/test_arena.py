"""The arena (docs/arena.md) for every variant: duplicate deals and seatings, the report's keys,
determinism across --jobs, faulty bots that forfeit single games while the run goes on, and the
same numbers as the two arenas it replaced (issue 11)."""

from __future__ import annotations

import json
import shlex
import shutil
import sys
import textwrap
from collections import defaultdict
from pathlib import Path
from typing import Any

import pytest

from bummerl.arena import (
    ArenaConfig,
    forfeit_points,
    format_report,
    play_deal,
    run_arena,
    seatings,
    selfplay,
)
from bummerl.bots import UnknownBotError
from bummerl.cli import main
from bummerl.game import Game
from bummerl.rng import derive_seed
from bummerl.variants import VARIANTS, find_variant

ROOT = Path(__file__).resolve().parents[1]
NAMES = [v.name for v in VARIANTS]
TABLES = ["bauernschnapsen", "dreierschnapsen"]

#: The keys issue 3 names for the JSON report.
TOP_KEYS = {"deals", "games", "a", "b"}
SIDE_KEYS = {"name", "game_points", "games_won", "bummerl_won", "ppg", "move_seconds_median", "move_seconds_max"}
TIMING = {"seconds", "jobs"}


def _without_timing(report: dict[str, Any]) -> dict[str, Any]:
    out = {k: v for k, v in report.items() if k not in TIMING}
    for side in ("a", "b"):
        out[side] = {k: v for k, v in report[side].items() if not k.startswith("move_seconds")}
    return out


@pytest.mark.parametrize("variant", NAMES)
def test_report_has_the_issue_keys(variant: str) -> None:
    """Issue 3: "The JSON has deals, games, and for each side a and b: name, game_points, games_won,
    bummerl_won, ppg, ppg_ci95 (... on a only), move_seconds_median, move_seconds_max"; issue 11:
    the same keys for every variant."""
    report = run_arena(ArenaConfig(variant, "heuristic", "random", deals=6, seed=3, jobs=1))
    assert report.keys() >= TOP_KEYS
    assert SIDE_KEYS | {"ppg_ci95"} <= report["a"].keys()
    assert report["b"].keys() >= SIDE_KEYS and "ppg_ci95" not in report["b"]
    assert report["deals"] == 6 and report["games"] == 6 * len(seatings(find_variant(variant).players))
    lo, hi = report["a"]["ppg_ci95"]
    assert lo <= report["a"]["ppg"] - report["b"]["ppg"] <= hi
    for side in ("a", "b"):
        s = report[side]
        assert s["ppg"] == pytest.approx(s["game_points"] / report["games"])
        assert 0 <= s["move_seconds_median"] <= s["move_seconds_max"]
    assert report["a"]["name"] == "heuristic" and report["b"]["name"] == "random"
    json.dumps(report)  # plain JSON, no NaN or objects


def test_seatings_per_player_count() -> None:
    """Two players: the seats swapped; three: each bot alone in every seat and twice beside itself;
    four: partners opposite, each bot on both teams.  Every seat is held by each side equally often."""
    assert seatings(2) == ["ab", "ba"]
    assert seatings(3) == ["abb", "bab", "bba", "baa", "aba", "aab"]
    assert seatings(4) == ["abab", "baba"]
    for n in (2, 3, 4):
        for seat in range(n):
            column = [s[seat] for s in seatings(n)]
            assert column.count("a") == column.count("b")
    with pytest.raises(ValueError, match="2, 3 or 4"):
        seatings(5)


@pytest.mark.parametrize("variant", NAMES)
def test_duplicate_deals_cancel_the_cards(variant: str) -> None:
    """Each deal is played in every seating, same pack and dealer: a deterministic bot against
    itself then scores exactly the same for both sides in every deal."""
    report = run_arena(ArenaConfig(variant, "heuristic", "heuristic", deals=12, seed=8, jobs=1), game_log=True)
    assert report["a"]["game_points"] == report["b"]["game_points"]
    assert report["a"]["ppg_ci95"] == [0.0, 0.0]
    assert report["ppg_diff"] == 0
    log = report["game_log"]
    by_deal: dict[int, list[dict[str, Any]]] = defaultdict(list)
    for g in log:
        by_deal[g["deal"]].append(g)
    for games in by_deal.values():
        assert [g["seating"] for g in games] == report["seatings"]
        assert [g["pairing"] for g in games] == list(range(len(report["seatings"])))
        assert len({g["dealer"] for g in games}) == 1
        assert sum(g["side_points"]["a"] - g["side_points"]["b"] for g in games) == 0
    if variant not in TABLES:
        for first, second in zip(log[0::2], log[1::2], strict=True):
            assert (first["deal"], first["pairing"], second["pairing"]) == (second["deal"], 0, 1)
            assert first["dealer"] == second["dealer"]
            assert first["winner"] != second["winner"] and first["points"] == second["points"]


@pytest.mark.parametrize("variant", NAMES)
def test_games_are_dealt_from_derived_seeds(variant: str) -> None:
    """Deal i is dealt from derive_seed(seed, i) by seat i mod n (docs/arena.md), so any deal can be
    replayed alone."""
    config = ArenaConfig(variant, "random", "random", deals=3, seed=21)
    result = play_deal(config, 2)
    n = find_variant(variant).players
    game = Game.deal(variant, seed=derive_seed(21, 2), dealer=2 % n)
    assert [g.deal for g in result.games] == [2] * len(seatings(n))
    assert all(g.dealer == game.dealer for g in result.games)


@pytest.mark.parametrize("unit", ["game", "bummerl"])
@pytest.mark.parametrize("variant", ["schnapsen", "schnorps", *TABLES])
def test_results_do_not_depend_on_jobs(variant: str, unit: str) -> None:
    """Deterministic results, independent of --jobs: the same report (timings aside)."""
    config = dict(variant=variant, a="heuristic", b="random", deals=4 if variant in TABLES else 10, seed=5, unit=unit)
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


@pytest.mark.parametrize("variant", TABLES)
def test_table_matches_go_to_24(variant: str) -> None:
    """--unit bummerl at a table game: one match to 24 per seating (seeds/004: "Sobald ein Team 24 oder
    mehr Spielpunkte erreicht, gewinnt das Team die Partie"), every one with a winner."""
    report = run_arena(ArenaConfig(variant, "heuristic", "random", deals=2, seed=2, unit="bummerl", jobs=1))
    matches = 2 * len(seatings(find_variant(variant).players))
    assert report["bummerl_played"] == matches
    assert report["a"]["bummerl_won"] + report["b"]["bummerl_won"] >= matches
    assert report["a"]["bummerl_given"] + report["b"]["bummerl_given"] >= 1


@pytest.mark.parametrize("variant", ["schnapsen", *TABLES])
def test_unknown_bot_is_a_clear_error(variant: str) -> None:
    """Issue 3, Bad input: "an unknown bot name: a clear error"; a bot that does not play the
    variant is refused with the bots that do."""
    with pytest.raises(UnknownBotError, match="unknown bot 'nobody'"):
        ArenaConfig(variant, "nobody", "random", deals=1)
    if variant in TABLES:
        with pytest.raises(UnknownBotError, match="bot 'expert' does not play"):
            ArenaConfig(variant, "expert", "random", deals=1)


def test_forfeit_points_are_the_heaviest_ordinary_loss() -> None:
    """seeds/000: three game points when the loser has no trick; seeds/001: "kein Stich 6" Marken;
    at the table games three game points for every other scoring unit (docs/protocol.md)."""
    assert forfeit_points(find_variant("scharf")) == 3
    assert forfeit_points(find_variant("schnorps")) == 6
    assert forfeit_points(find_variant("bauernschnapsen")) == 3
    assert forfeit_points(find_variant("dreierschnapsen")) == 3


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
KINDS = {"crash": "crash", "slow": "timeout", "garbage": "garbage", "illegal": "illegal"}


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
    kind = KINDS[mode]
    for f in forfeits:
        assert f["side"] == "a" and f["kind"] == kind and f["message"]
    forfeited = [g for g in report["game_log"] if g["reason"] == "forfeit"]
    assert len(forfeited) == len(forfeits)
    assert all(g["winner"] == "b" and g["points"] == 3 for g in forfeited)
    # Games after a failure were played by a restarted (or still running) bot, not forfeited.
    assert len(forfeited) < 8
    assert "forfeits: " + str(len(forfeits)) in format_report(report)


@pytest.mark.parametrize("mode", ["crash", "slow", "illegal"])
@pytest.mark.parametrize("variant", TABLES)
def test_faulty_cmd_bot_forfeits_table_games(variant: str, mode: str) -> None:
    """Issue 11: the same at the table games, with the fault's real kind and --move-timeout; every
    other scoring unit scores the forfeit's 3 game points (docs/protocol.md)."""
    spec = "cmd:" + shlex.join([sys.executable, "-c", FLAKY_BOT, mode])
    report = run_arena(ArenaConfig(variant, spec, "random", deals=1, seed=1, jobs=1, move_timeout=0.3), game_log=True)
    games = len(seatings(find_variant(variant).players))
    assert report["games"] == games and report["move_timeout"] == 0.3
    forfeits = report["forfeits"]
    assert forfeits and report["a"]["forfeits"] == len(forfeits) and report["b"]["forfeits"] == 0
    assert all(f["side"] == "a" and f["kind"] == KINDS[mode] and f["bot"] == spec for f in forfeits)
    forfeited = [g for g in report["game_log"] if g["reason"] == "forfeit"]
    assert len(forfeited) == len(forfeits) < games
    for g in forfeited:
        seating, seat = g["seating"], g["forfeit"]["seat"]
        # Every other scoring unit scores 3: the other team (once), or each other seat of Dreierschnapsen,
        # whichever bot holds it.
        units = (0, 1) if len(seating) == 4 else tuple(range(3))
        lost = seat % len(units)
        expected = {side: 3 * sum(1 for u in units if u != lost and seating[u] == side) for side in "ab"}
        assert g["points"] == 3 and g["side_points"] == expected


def test_faulty_bot_forfeits_within_a_bummerl() -> None:
    """In --unit bummerl a forfeit ends that game only; the match goes on to its winner."""
    spec = "cmd:" + shlex.join([sys.executable, "-c", FLAKY_BOT, "crash"])
    report = run_arena(ArenaConfig("schnapsen", spec, "random", deals=2, seed=4, unit="bummerl", jobs=1))
    assert report["forfeits"]
    assert report["a"]["bummerl_won"] + report["b"]["bummerl_won"] == 4


def test_faulty_bot_forfeits_within_a_table_match() -> None:
    """The same in a match to 24 of Bauernschnapsen."""
    spec = "cmd:" + shlex.join([sys.executable, "-c", FLAKY_BOT, "illegal"])
    report = run_arena(ArenaConfig("bauernschnapsen", spec, "random", deals=1, seed=4, unit="bummerl", jobs=1))
    assert report["forfeits"] and all(f["kind"] == "illegal" for f in report["forfeits"])
    assert report["a"]["bummerl_won"] + report["b"]["bummerl_won"] == 2


@pytest.mark.parametrize("variant", ["schnapsen", *TABLES])
@pytest.mark.parametrize(
    ("command", "message"),
    [
        ("/nonexistent/bot", "could not be started"),
        (shlex.join([sys.executable, "-c", "pass"]), "exit code 0"),  # exits without reading a line
    ],
)
def test_bot_that_cannot_start_forfeits_every_game(command: str, message: str, variant: str) -> None:
    report = run_arena(ArenaConfig(variant, "cmd:" + command, "random", deals=2, seed=1, jobs=1))
    games = 2 * len(seatings(find_variant(variant).players))
    assert len(report["forfeits"]) == games
    assert all(f["kind"] == "start" and message in f["message"] for f in report["forfeits"])
    if variant not in TABLES:
        assert report["b"]["game_points"] == 4 * 3
    assert report["b"]["game_points"] > report["a"]["game_points"]


#: A protocol bot that notes (pid, game, seat) of every game_start in the file argv[1].
SEAT_LOGGER = textwrap.dedent(
    """
    import json, os, sys
    log = open(sys.argv[1], "a")
    for line in sys.stdin:
        m = json.loads(line)
        if m["type"] == "hello":
            print(json.dumps({"type": "hello", "protocol": "bummerl-bot", "version": 1, "name": "log"}), flush=True)
        elif m["type"] == "game_start":
            log.write(f"{os.getpid()} {m['game']} {m['seat']}\\n")
            log.flush()
        elif m["type"] == "decide":
            print(json.dumps({"type": "action", "id": m["id"], "action": m["legal"][0]}), flush=True)
        elif m["type"] == "quit":
            break
    """
)


@pytest.mark.parametrize("variant", TABLES)
def test_a_process_plays_one_seat_of_a_game(tmp_path: Path, variant: str) -> None:
    """docs/protocol.md: "One process plays one seat: a process never sees two hands, so partners at
    Bauernschnapsen never share one" — also when both seats are the same bot; processes are kept
    from game to game within a worker's chunk of deals."""
    path = tmp_path / "seats.log"
    spec = "cmd:" + shlex.join([sys.executable, "-c", SEAT_LOGGER, str(path)])
    report = run_arena(ArenaConfig(variant, spec, spec, deals=1, seed=3, jobs=1))
    assert report["forfeits"] == []
    rows = [line.split() for line in path.read_text().splitlines()]
    n = find_variant(variant).players
    assert len(rows) == report["games"] * n
    seats_per_game: dict[str, set[str]] = defaultdict(set)
    pids_per_game: dict[str, set[str]] = defaultdict(set)
    for pid, game, seat in rows:
        seats_per_game[game].add(seat)
        pids_per_game[game].add(pid)
    assert all(len(s) == n for s in seats_per_game.values())
    assert all(len(p) == n for p in pids_per_game.values())
    # Four processes for the whole run, not some per game: each side needs two at most at once.
    assert len({pid for pid, _, _ in rows}) == 4


@pytest.mark.parametrize("variant", TABLES)
def test_protocol_bot_plays_the_table_games_from_the_command_line(
    capsys: pytest.CaptureFixture[str], variant: str
) -> None:
    """Issue 11, Done when: `bummerl arena --variant dreierschnapsen --a "cmd:bummerl bot heuristic" --b
    random` works, and Bauernschnapsen; the protocol bot plays the same games as the bot in process."""
    command = (
        "bummerl bot heuristic"
        if shutil.which("bummerl")
        else f"{shlex.quote(sys.executable)} -m bummerl bot heuristic"
    )
    argv = ["arena", "--variant", variant, "--a", f"cmd:{command}", "--b", "random", "--deals", "2"]
    assert main([*argv, "--move-timeout", "30", "--json", "--game-log"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["games"] == 2 * len(seatings(find_variant(variant).players)) and report["forfeits"] == []
    assert report["move_timeout"] == 30
    direct = run_arena(ArenaConfig(variant, "heuristic", "random", deals=2, jobs=1), game_log=True)
    assert report["game_log"] == direct["game_log"]


def test_cmd_bot_in_another_language_plays_the_arena() -> None:
    """The JavaScript example bot plays through `cmd:` (the protocol is language-neutral)."""
    if shutil.which("node") is None:
        pytest.skip("node is not installed")
    spec = f"cmd:node {ROOT / 'examples/bots/greedy.js'}"
    report = run_arena(ArenaConfig("66", spec, "random", deals=6, seed=1, jobs=2))
    assert report["forfeits"] == [] and report["games"] == 12
    assert report["a"]["games_won"] + report["b"]["games_won"] + report["games_unwon"] == 12


@pytest.mark.parametrize("variant", ["schnapsen", "dreierschnapsen"])
def test_cmd_bot_results_do_not_depend_on_process_reuse(variant: str) -> None:
    """A `cmd:` bot gets a seed per game (game_start), so jobs 1 and 2 (different process reuse)
    give the same games, and the same as the bot in process."""
    spec = f"cmd:{sys.executable} -m bummerl bot random"
    one = run_arena(ArenaConfig(variant, spec, "heuristic", deals=4, seed=6, jobs=1), game_log=True)
    two = run_arena(ArenaConfig(variant, spec, "heuristic", deals=4, seed=6, jobs=2), game_log=True)
    assert _without_timing(one) == _without_timing(two)
    if variant in TABLES:  # table bots are made per game: the seeds of game_start are theirs
        direct = run_arena(ArenaConfig(variant, "random", "heuristic", deals=4, seed=6, jobs=1), game_log=True)
        assert one["game_log"] == direct["game_log"]


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
    assert "2 deals x 2 seatings = 4 games" in out and "seatings per deal: ab ba" in out
    assert main(["arena", "--a", "random", "--b", "nobody", "--deals", "2"]) == 2
    assert "unknown bot 'nobody'" in capsys.readouterr().err


# ------------------------------------------------- the numbers of the arenas before issue 11
#: Reports of bummerl.arena, bummerl.table_arena and both selfplays as committed before the arena
#: became one (the working tree's adaptation to the new engine printed the same), made by running the
#: old modules; tests/data/arena_before_issue11.json.  Timings are left out.
BEFORE = json.loads((ROOT / "tests/data/arena_before_issue11.json").read_text(encoding="utf-8"))
ILLEGAL_BOT = textwrap.dedent(
    """
    import json, sys
    decisions = 0
    for line in sys.stdin:
        m = json.loads(line)
        if m["type"] == "hello":
            print(json.dumps({"type": "hello", "protocol": "bummerl-bot", "version": 1, "name": "x"}), flush=True)
        elif m["type"] == "decide":
            decisions += 1
            if decisions % 7 == 0:
                print(json.dumps({"type": "action", "id": m["id"], "action": "Ah9"}), flush=True)
                continue
            print(json.dumps({"type": "action", "id": m["id"], "action": m["legal"][-1]}), flush=True)
        elif m["type"] == "quit":
            break
    """
)


def _replace(value: Any, old: str, new: str) -> Any:
    if isinstance(value, str):
        return value.replace(old, new)
    if isinstance(value, list):
        return [_replace(v, old, new) for v in value]
    if isinstance(value, dict):
        return {k: _replace(v, old, new) for k, v in value.items()}
    return value


def _old_log_entry(new: dict[str, Any], table: bool) -> dict[str, Any]:
    """A game of the new log in the shape of the old one: the two-player arena's keys are kept, the
    table arena's ``points`` per side is ``side_points`` now."""
    if not table:
        keys = ("deal", "pairing", "index", "dealer", "winner", "points", "reason", "forfeit")
        return {k: new[k] for k in keys}
    keys = ("deal", "seating", "index", "dealer", "contract", "declarer", "reason", "forfeit")
    return {**{k: new[k] for k in keys}, "points": new["side_points"]}


@pytest.mark.parametrize("case", BEFORE["arena"], ids=lambda c: "-".join(str(v) for v in c["case"].values()))
def test_arena_numbers_are_those_of_the_old_arenas(case: dict[str, Any]) -> None:
    """Issue 11: "Keep every measured number": the same deals, dealers, bot seeds, games, points,
    forfeits and intervals as bummerl.arena and bummerl.table_arena, for every variant."""
    c = case["case"]
    a = c["a"]
    if a == "ILLEGAL_BOT":
        a = "cmd:" + shlex.join([sys.executable, "-c", ILLEGAL_BOT])
    config = ArenaConfig(c["variant"], a, c["b"], deals=c["deals"], seed=c["seed"], unit=c["unit"], jobs=1)
    new = _replace(_without_timing(run_arena(config, game_log=True)), a, c["a"])
    old = case["report"]
    table = c["variant"] in TABLES
    # The table arena had no --move-timeout (None); the one arena honours it for every variant.
    assert new.pop("move_timeout") == 10.0 and old.pop("move_timeout") in (None, 10.0)
    assert new.pop("seatings") == seatings(find_variant(c["variant"]).players)
    old.pop("seatings", None)
    new_log, old_log = new.pop("game_log"), old.pop("game_log")
    assert new == old
    assert [_old_log_entry(g, table) for g in new_log] == old_log
    for g in new_log:
        assert g["pairing"] == seatings(len(g["seating"])).index(g["seating"])


@pytest.mark.parametrize("case", BEFORE["selfplay"], ids=lambda c: "-".join(str(v) for v in c["case"].values()))
def test_selfplay_numbers_are_those_of_the_old_selfplays(case: dict[str, Any]) -> None:
    """The same games as both selfplays (dealer 1 - i % 2 with two players, i % n at a table)."""
    c = case["case"]
    stats = selfplay(find_variant(c["variant"]), c["bots"], c["games"], c["seed"]).as_json()
    stats.pop("seconds")
    assert stats.pop("forfeits") == []
    assert stats == case["stats"]
