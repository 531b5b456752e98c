"""`bummerl tournament` (issue 14): the schedules of the three formats, every game recorded, resume after a
crash, the ratings and their intervals, the report's keys, protocol bots and the table games."""

from __future__ import annotations

import importlib.util
import itertools
import json
import math
import os
import random
import shlex
import signal
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

import pytest

from bummerl.actions import Action
from bummerl.arena import ArenaConfig, DealResult, GameLog, MatchLog, play_deal
from bummerl.bots import _REGISTRY as BOT_REGISTRY
from bummerl.bots import EVERY_GAME, BotInfo, bot_names
from bummerl.cli import main
from bummerl.record import GameRecord, iter_games, loads_all
from bummerl.tournament import ConfigMismatchError, TournamentConfig, bradley_terry, run_tournament
from bummerl.tournament.formats import (
    Pairing,
    bracket,
    max_swiss_rounds,
    round_robin,
    round_robin_byes,
    swiss_pairs,
    swiss_rounds,
)
from bummerl.tournament.ratings import ELO, expected_score
from bummerl.tournament.schedule import EXTRA_DEALS, Plan, plan
from bummerl.tournament.store import Store
from bummerl.variants import VARIANTS, Variant

ROOT = Path(__file__).resolve().parents[1]
RANDOM_CMD = f"cmd:{shlex.quote(sys.executable)} -m bummerl bot random"


class _Pick:
    """A fast bot of every variant: always the first (or the last) legal action."""

    def __init__(self, name: str, index: int) -> None:
        self.name, self.index = name, index

    def choose(self, view: Any) -> Action:
        actions: tuple[Action, ...] = view.legal
        return actions[self.index]


def _pick(name: str, index: int, seed: int, variant: Variant) -> _Pick:
    return _Pick(name, index)


@pytest.fixture
def fast_bots(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Four bots that play every variant in no time: heuristic, random and two registered for the test
    (the search bots take a fifth of a second per deal).  In this process only: jobs=1, or forked workers."""
    bot_names()  # the built-in bots are registered first
    for name, index in (("first", 0), ("last", -1)):
        monkeypatch.setitem(BOT_REGISTRY, name, BotInfo(name, partial(_pick, name, index), "test bot", (), EVERY_GAME))
    return ["heuristic", "random", "first", "last"]


# ------------------------------------------------------------------ schedules without games
def _deal(deal: int, a: int, b: int, bummerl: tuple[int, int] = (0, 0)) -> DealResult:
    """A made-up finished deal in which side a scored ``a`` and side b ``b`` game points."""
    games = [
        GameLog(deal, 0, "ab", 0, 0, "a" if a else None, a, {"a": a, "b": 0}, "declared"),
        GameLog(deal, 1, "ba", 0, 0, "b" if b else None, b, {"a": 0, "b": b}, "declared"),
    ]
    matches = [MatchLog({"a": bummerl[0], "b": 0}, {"a": 0, "b": 0}), MatchLog({"a": 0, "b": bummerl[1]}, {})]
    return DealResult(deal, games, matches, {"a": [], "b": []})


Oracle = Callable[[Pairing, int], DealResult]


def _stronger_wins(pairing: Pairing, deal: int) -> DealResult:
    """The lower number (the better seed) wins every deal 2 : 1."""
    return _deal(deal, 2, 1) if pairing.a < pairing.b else _deal(deal, 1, 2)


def _play_out(config: TournamentConfig, oracle: Oracle = _stronger_wins) -> tuple[Plan, dict[Pairing, dict[int, Any]]]:
    """Fill in every deal the schedule asks for with ``oracle`` until the tournament is over."""
    results: dict[Pairing, dict[int, Any]] = {}
    for _ in range(100):
        current = plan(config, results)
        if current.finished:
            return current, results
        for pairing, deal in current.missing():
            results.setdefault(pairing, {})[deal] = oracle(pairing, deal)
    raise AssertionError("the schedule never ends")


def _bots(n: int) -> list[str]:
    return ["random", "heuristic", "easy", "medium", "hard", "expert", "cmd:a", "cmd:b", "cmd:c", "cmd:d"][:n]


@pytest.mark.parametrize("n", range(2, 11))
def test_round_robin_every_pair_exactly_once(n: int) -> None:
    """The circle method: every pair once, nobody twice in a round, n - 1 rounds (n when odd, one bye each)."""
    rounds = round_robin(n)
    assert len(rounds) == (n if n % 2 else n - 1)
    pairs = [frozenset(p) for r in rounds for p in r]
    assert Counter(pairs) == Counter(frozenset(p) for p in itertools.combinations(range(n), 2))
    for r in rounds:
        playing = [bot for pair in r for bot in pair]
        assert len(playing) == len(set(playing)) == n - n % 2
    byes = round_robin_byes(n)
    if n % 2:
        assert sorted(b for b in byes if b is not None) == list(range(n))
    else:
        assert byes == [None] * len(rounds)
    if n >= 3:  # the fixed bot 0 is not always side a
        assert {0 if pair[0] == 0 else 1 for r in rounds for pair in r if 0 in pair} == {0, 1}
    # The schedule of a round robin tournament is exactly that.
    current, _ = _play_out(TournamentConfig("round-robin", "schnapsen", _bots(n), games=2))
    assert [[(p.pairing.a, p.pairing.b) for p in r.pairings] for r in current.rounds] == rounds


@pytest.mark.parametrize("n", range(2, 11))
def test_swiss_has_no_repeats_and_rotating_byes(n: int) -> None:
    """Swiss: the default ceil(log2 n) rounds and the most allowed, ceil(n / 2); no pair twice, every bot once
    per round, at most one bye each (byes rotate), paired from the results (random ones here)."""
    for rounds in sorted({swiss_rounds(n), max_swiss_rounds(n)}):
        rng = random.Random(n * 100 + rounds)

        def coin(pairing: Pairing, deal: int, rng: random.Random = rng) -> DealResult:
            return _deal(deal, *rng.choice([(2, 1), (1, 2), (1, 1)]))

        config = TournamentConfig("swiss", "schnapsen", _bots(n), games=1, rounds=rounds)
        current, _ = _play_out(config, coin)
        assert len(current.rounds) == rounds
        met = [frozenset((p.pairing.a, p.pairing.b)) for r in current.rounds for p in r.pairings]
        assert len(met) == len(set(met))
        for r in current.rounds:
            seated = [b for p in r.pairings for b in (p.pairing.a, p.pairing.b)] + r.byes
            assert sorted(seated) == list(range(n))
            assert len(r.byes) == n % 2
        byes = [b for r in current.rounds for b in r.byes]
        assert len(byes) == len(set(byes))


def test_swiss_pairs_score_groups() -> None:
    """Round 1 pairs the top half against the bottom half; then winners meet winners, losers losers,
    each group again top half against bottom half (the Dutch system)."""
    config = TournamentConfig("swiss", "schnapsen", _bots(8), games=1, rounds=3)
    current, _ = _play_out(config)
    pairs = [[(p.pairing.a, p.pairing.b) for p in r.pairings] for r in current.rounds]
    assert pairs[0] == [(0, 4), (1, 5), (2, 6), (3, 7)]
    assert pairs[1] == [(0, 2), (1, 3), (4, 6), (5, 7)]
    assert pairs[2][0] == (0, 1)  # the two with 2 points
    # A repeat is avoided even when the score groups would ask for it.
    assert swiss_pairs([0, 1, 2, 3], {0: 1, 1: 1}, {frozenset((0, 1))}, {}) == ([(0, 2), (1, 3)], None)
    # The bye goes to the lowest-ranked bot that has not had one.
    assert swiss_pairs([0, 1, 2], {}, set(), {2: 1}) == ([(0, 2)], 1)
    with pytest.raises(ValueError, match="no Swiss pairing"):
        swiss_pairs([0, 1], {}, {frozenset((0, 1))}, {})
    with pytest.raises(ValueError, match="1 to 2 rounds"):
        TournamentConfig("swiss", "schnapsen", _bots(4), rounds=3)


@pytest.mark.parametrize("n", range(2, 17))
def test_knockout_bracket_is_seeded(n: int) -> None:
    """1 against N, the top seeds apart until the end, the byes to the top seeds."""
    slots = bracket(n)
    size = len(slots)
    assert size == 1 << (n - 1).bit_length() and sorted(s for s in slots if s is not None) == list(range(n))
    pairs = list(zip(slots[::2], slots[1::2], strict=True))
    byes = sorted(x for x, y in pairs if x is not None and y is None)
    assert byes == list(range(size - n))  # the top seeds
    assert all(x is not None for x, _ in pairs)
    assert all(x is None or y is None or x + y == size - 1 for x, y in pairs)  # seed s meets seed size - 1 - s
    # Seeds 0 and 1 are in different halves; 0..3 in different quarters.
    half = size // 2
    assert (slots.index(0) < half) != (slots.index(1) < half)
    if size >= 4:
        assert len({slots.index(s) // (size // 4) for s in range(min(4, n))}) == min(4, n)


@pytest.mark.parametrize("n", [2, 3, 5, 8])
def test_knockout_winners_advance(n: int) -> None:
    """Every round is between the winners (and byes) of the one before; the better seed wins here, so the
    places follow the seeding."""
    config = TournamentConfig("knock-out", "schnapsen", _bots(n), games=2)
    current, results = _play_out(config)
    assert len(current.rounds) == math.ceil(math.log2(n))
    alive = set(range(n))
    for r in current.rounds:
        playing = {b for p in r.pairings for b in (p.pairing.a, p.pairing.b)}
        assert playing | set(r.byes) == alive and not playing & set(r.byes)
        assert all(p.winner == p.pairing.a and p.decided_by == "game points" for p in r.pairings)
        alive -= {p.pairing.b for p in r.pairings}
    assert alive == {0}
    from bummerl.tournament.standings import standings

    table = standings(config, current, results)
    assert table[0]["bot"] == config.bots[0] and table[0]["place"] == 1
    assert [row["place"] for row in table][:2] == [1, 2]


def test_knockout_ties_play_on_then_break() -> None:
    """A tied match plays the next deal, at most EXTRA_DEALS more; if it stays tied the game points decide,
    then the games won, then the seeding."""
    config = TournamentConfig("knock-out", "schnapsen", ["random", "heuristic"], games=2, unit="bummerl")
    pairing = Pairing(1, 0, 1)

    def decide(oracle: Oracle) -> tuple[int, int | None, str]:
        current, _ = _play_out(config, oracle)
        (p,) = current.rounds[0].pairings
        assert p.pairing == pairing
        return p.deals, p.winner, p.decided_by

    # Tied in Bummerl over the 2 deals, the third deal decides.
    assert decide(lambda p, d: _deal(d, 1, 1, (1, 1)) if d < 2 else _deal(d, 1, 1, (0, 1))) == (3, 1, "bummerl")
    # Tied to the end: the game points, then the games won, then the seeding (bot 0 goes through).
    last = 2 + EXTRA_DEALS
    assert decide(lambda p, d: _deal(d, 1, 2, (1, 1))) == (last, 1, "game points")
    assert decide(lambda p, d: _deal(d, 2, 2, (1, 1))) == (last, 0, "seeding")
    # In a round robin a tie is a draw.
    rr = TournamentConfig("round-robin", "schnapsen", ["random", "heuristic"], games=2)
    current, _ = _play_out(rr, lambda p, d: _deal(d, 1, 1))
    (p,) = current.rounds[0].pairings
    assert (p.deals, p.winner, p.decided_by) == (2, None, "draw")


# ------------------------------------------------------------------ ratings
def test_ratings_of_two_bots_are_the_closed_form() -> None:
    """Two bots: the maximum likelihood difference is ln(W/L), its variance 1/(N p (1 - p)); with a very wide
    prior the fit is exactly that, split around mean 0."""
    won, lost = 37, 13
    a, b = bradley_terry(2, [(0, 1, 1.0)] * won + [(1, 0, 1.0)] * lost, prior_elo=1e9)
    assert a.rating == pytest.approx(ELO * math.log(won / lost) / 2, rel=1e-9)
    assert a.rating + b.rating == pytest.approx(0.0, abs=1e-9)
    p = won / (won + lost)
    sd = ELO * math.sqrt(1 / ((won + lost) * p * (1 - p))) / 2
    assert a.sd == pytest.approx(sd, rel=1e-6) and b.sd == pytest.approx(sd, rel=1e-6)
    assert a.interval == pytest.approx((a.rating - 1.959964 * sd, a.rating + 1.959964 * sd), rel=1e-6)
    # Draws count half: 10 wins, 20 draws, 10 losses is an even match.
    even = bradley_terry(2, [(0, 1, 1.0)] * 10 + [(0, 1, 0.5)] * 20 + [(0, 1, 0.0)] * 10)
    assert even[0].rating == pytest.approx(0.0, abs=1e-9)


def test_a_bot_that_always_wins_rates_above() -> None:
    """A bot that wins every deal gets the highest, finite rating, its interval above the others' ratings;
    ratings are anchored at mean 0."""
    outcomes = [(0, j, 1.0) for j in (1, 2, 3) for _ in range(10)]
    outcomes += [(1, 2, 1.0)] * 6 + [(1, 2, 0.0)] * 4 + [(2, 3, 0.5)] * 10 + [(1, 3, 1.0)] * 7 + [(3, 1, 1.0)] * 3
    ratings = bradley_terry(4, outcomes)
    assert sum(r.rating for r in ratings) == pytest.approx(0.0, abs=1e-9)
    best = ratings[0]
    assert math.isfinite(best.rating)
    assert all(best.interval[0] > r.rating for r in ratings[1:])
    assert ratings[1].rating > ratings[2].rating


def _simulate(truth: list[float], per_pair: int, rng: random.Random) -> list[tuple[int, int, float]]:
    outcomes = []
    for i, j in itertools.combinations(range(len(truth)), 2):
        p = expected_score(truth[i] - truth[j])
        outcomes += [(i, j, 1.0 if rng.random() < p else 0.0) for _ in range(per_pair)]
    return outcomes


def test_intervals_contain_the_truth() -> None:
    """Outcomes drawn from known Elo ratings (-150, 0, +150): the fit finds them, each interval contains
    its truth, and over 300 simulated tournaments the intervals cover the truth about 95% of the time."""
    truth = [-150.0, 0.0, 150.0]
    ratings = bradley_terry(3, _simulate(truth, 400, random.Random(1)))
    for r, t in zip(ratings, truth, strict=True):
        assert r.interval[0] <= t <= r.interval[1]
        assert abs(r.rating - t) < 40
    rng = random.Random(2)
    covered = 0
    trials = 300
    for _ in range(trials):
        fit = bradley_terry(3, _simulate(truth, 60, rng))
        covered += sum(r.interval[0] <= t <= r.interval[1] for r, t in zip(fit, truth, strict=True))
    assert 0.92 <= covered / (3 * trials) <= 0.98


# ------------------------------------------------------------------ real tournaments
def _records(out: Path) -> dict[str, str]:
    return {str(p.relative_to(out)): p.read_text() for p in sorted((out / "records").rglob("*.txt"))}


def _deal_files(out: Path) -> list[Path]:
    return sorted((out / "deals").rglob("deal-*.json")) if (out / "deals").exists() else []


@pytest.mark.parametrize(("variant", "unit"), [("schnapsen", "bummerl"), ("dreierschnapsen", "game")])
def test_every_game_is_recorded_and_readable(tmp_path: Path, fast_bots: list[str], variant: str, unit: str) -> None:
    """Every game of every deal is in DIR/records, read back by bummerl.record (which replays each action
    and checks the seed against the pack) and agrees with the deal's log: seats, seating, result."""
    config = TournamentConfig("round-robin", variant, fast_bots[:3], games=2, seed=5, unit=unit)
    report = run_tournament(config, tmp_path / "t", jobs=1, plot=False)
    store = Store(tmp_path / "t")
    results = store.load()
    total = 0
    for pairing, deals in results.items():
        for deal, result in deals.items():
            with store.record_path(pairing, deal).open(encoding="utf-8") as fp:
                records = list(iter_games(fp))
            assert len(records) == len(result.games) > 0
            for record, game in zip(records, result.games, strict=True):
                assert record.tags["Deal"] == str(deal) and record.tags["Seating"] == game.seating
                assert record.tags["Round"] == str(pairing.round)
                bots = {"a": config.bots[pairing.a], "b": config.bots[pairing.b]}
                seats = [record.tags[f"Seat{s}"] for s in range(len(game.seating))]
                assert seats == [bots[side] for side in game.seating]
                assert record.result is not None and record.result.points == game.points
                assert record.dealer == game.dealer
            total += len(records)
    assert total == sum(p["games"] for p in report["pairings"]) > 0


def test_forfeited_games_are_recorded_as_far_as_they_went(tmp_path: Path) -> None:
    """A bot that cannot start forfeits every game, in the middle of a Bummerl too: each game is recorded
    unfinished with a Forfeit tag, and the match goes on (3 points a forfeit: 3 games to 7)."""
    broken = "cmd:" + shlex.join([sys.executable, "-c", "pass"])
    config = TournamentConfig("knock-out", "schnapsen", ["random", broken], games=1, unit="bummerl")
    report = run_tournament(config, tmp_path / "t", jobs=1, plot=False)
    (pairing,) = report["pairings"]
    assert pairing["winner"] == "random" and pairing["forfeits"] == {"a": 0, "b": 6}
    assert pairing["bummerl_won"] == {"a": 2, "b": 0} and pairing["games"] == 6
    files = sorted((tmp_path / "t" / "records").rglob("*.txt"))
    read = [r for f in files for r in loads_all(f.read_text(encoding="utf-8"))]
    records = [r for r in read if isinstance(r, GameRecord)]
    assert len(records) == len(read) == 6
    assert all(
        r.result is None and r.tags["Forfeit"].startswith("seat ") and "(start)" in r.tags["Forfeit"] for r in records
    )
    assert [r.tags["Game"] for r in records] == ["1", "2", "3"] * 2


def _crash_after(k: int) -> Callable[[Pairing, int, int], None]:
    def hook(pairing: Pairing, deal: int, played: int) -> None:
        if played == k:
            raise KeyboardInterrupt("simulated crash")

    return hook


@pytest.mark.parametrize("fmt", ["swiss", "knock-out"])
def test_resume_after_a_crash_plays_nothing_twice(tmp_path: Path, fast_bots: list[str], fmt: str) -> None:
    """Stopped after 5 deals (an exception from the hook, as a crash would), the same call plays only the
    rest, and ends with the same standings, pairings and records as a run that was never interrupted."""
    config = TournamentConfig(fmt, "schnapsen", fast_bots, games=3, seed=11)
    whole = run_tournament(config, tmp_path / "whole", jobs=1, plot=False)
    total = whole["run"]["deals_played"]
    with pytest.raises(KeyboardInterrupt):
        run_tournament(config, tmp_path / "broken", jobs=1, plot=False, on_deal=_crash_after(5))
    assert len(_deal_files(tmp_path / "broken")) == 5
    seen: list[tuple[Pairing, int]] = []
    resumed = run_tournament(
        config, tmp_path / "broken", jobs=1, plot=False, on_deal=lambda p, d, n: seen.append((p, d))
    )
    assert resumed["run"]["deals_on_disk"] == 5 and resumed["run"]["deals_played"] == total - 5 == len(seen)
    assert len(set(seen)) == len(seen)
    assert resumed["standings"] == whole["standings"] and resumed["pairings"] == whole["pairings"]
    assert _records(tmp_path / "broken") == _records(tmp_path / "whole")
    again = run_tournament(config, tmp_path / "broken", jobs=1, plot=False)
    assert again["run"]["deals_played"] == 0 and again["standings"] == whole["standings"]
    # A deal file left empty (a power cut before the system wrote it) is played again, with a note.
    emptied = _deal_files(tmp_path / "broken")[3]
    emptied.write_text("")
    repaired = run_tournament(config, tmp_path / "broken", jobs=1, plot=False)
    assert repaired["run"]["deals_played"] == 1 and repaired["standings"] == whole["standings"]
    assert repaired["notes"] == [f"{emptied} could not be read: its deal was played again"]


def test_resume_after_the_process_is_killed(tmp_path: Path) -> None:
    """`bummerl tournament` killed (SIGKILL, with its worker processes) in the middle of a round robin; the
    same command continues with the deals not on disk, and the result equals an uninterrupted run."""
    out = tmp_path / "killed"
    argv = [
        "tournament",
        "--format",
        "round-robin",
        "--variant",
        "schnapsen",
        "--bots",
        "heuristic,random",
        "--games",
        "600",
        "--seed",
        "4",
        "--jobs",
        "2",
        "--no-plot",
        "--json",
    ]
    process = subprocess.Popen(
        [sys.executable, "-m", "bummerl", *argv, "--out", str(out)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        cwd=tmp_path,
        start_new_session=True,
    )
    try:
        deadline = time.monotonic() + 60
        while len(_deal_files(out)) < 20:
            assert process.poll() is None, process.stderr.read() if process.stderr else ""
            assert time.monotonic() < deadline
            time.sleep(0.01)
    finally:
        # The whole process group, as a crash or a power cut takes it: the command and its workers.
        os.killpg(process.pid, signal.SIGKILL)
        process.communicate()
    on_disk = len(_deal_files(out))
    assert 20 <= on_disk < 600, "the run should have been killed in the middle"
    config = TournamentConfig("round-robin", "schnapsen", ["heuristic", "random"], games=600, seed=4)
    resumed = run_tournament(config, out, jobs=2, plot=False)
    assert resumed["run"]["deals_on_disk"] == on_disk
    assert resumed["run"]["deals_played"] == 600 - on_disk
    whole = run_tournament(config, tmp_path / "whole", jobs=2, plot=False)
    assert resumed["standings"] == whole["standings"] and resumed["pairings"] == whole["pairings"]
    assert _records(out) == _records(tmp_path / "whole")


def test_another_configuration_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A re-run with different options is refused, naming what differs; so is a directory of other files."""
    out = tmp_path / "t"
    config = TournamentConfig("round-robin", "schnapsen", ["heuristic", "random"], games=1)
    run_tournament(config, out, jobs=1, plot=False)
    with pytest.raises(ConfigMismatchError, match=r"games: 1 there, 2 here"):
        run_tournament(TournamentConfig("round-robin", "schnapsen", ["heuristic", "random"], games=2), out)
    argv = ["tournament", "--format", "swiss", "--bots", "heuristic,random", "--games", "1", "--out", str(out)]
    assert main(argv) == 2
    assert 'format: "round-robin" there, "swiss" here' in capsys.readouterr().err
    other = tmp_path / "other"
    other.mkdir()
    (other / "notes.txt").write_text("mine")
    with pytest.raises(ConfigMismatchError, match="not empty"):
        run_tournament(config, other)


def test_cli_json_shape_and_table(tmp_path: Path, fast_bots: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    """--json prints {"standings": [{"bot", "rating", "interval", ...}], ...}; without it, a table."""
    argv = ["tournament", "--format", "swiss", "--variant", "66", "--bots", "heuristic,random,first"]
    argv += ["--games", "2", "--seed", "3", "--jobs", "1", "--no-plot", "--out"]
    assert main([*argv, str(tmp_path / "t"), "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert [row["bot"] for row in report["standings"]] != [] and len(report["standings"]) == 3
    for rank, row in enumerate(report["standings"], 1):
        assert list(row)[:4] == ["rank", "bot", "rating", "interval"] and row["rank"] == rank
        low, high = row["interval"]
        assert low < row["rating"] < high
    assert sum(row["rating"] for row in report["standings"]) == pytest.approx(0.0, abs=1e-6)
    assert report["variant"] == "sechsundsechzig" and report["rounds"] == 2 and len(report["byes"]) == 2
    assert report["winner"] == report["standings"][0]["bot"]
    assert json.loads((tmp_path / "t" / "standings.json").read_text())["standings"] == report["standings"]
    assert main([*argv, str(tmp_path / "t")]) == 0
    text = capsys.readouterr().out
    assert "95% interval" in text and "Buchholz" in text and "round 2:" in text and "bye:" in text


@pytest.mark.parametrize("variant", [v.name for v in VARIANTS])
def test_every_variant_plays_a_knockout(tmp_path: Path, fast_bots: list[str], variant: str) -> None:
    """All six variants, 2, 3 and 4 players: a pairing is two bots in the arena's seatings."""
    config = TournamentConfig("knock-out", variant, fast_bots[:3], games=1, seed=2)
    report = run_tournament(config, tmp_path / "t", jobs=1, plot=False)
    players = next(v.players for v in VARIANTS if v.name == variant)
    assert report["seatings"] and len(report["seatings"][0]) == players
    assert report["winner"] == "heuristic" and len(report["pairings"]) == 2
    assert report["byes"] == [{"round": 1, "bot": "heuristic"}]


def test_protocol_bot_plays_a_table_tournament(tmp_path: Path) -> None:
    """A `cmd:` bot (`bummerl bot random` behind the protocol) in a Dreierschnapsen round robin: no forfeit,
    and the same games as the built-in random bot (table bots are seeded per game)."""
    bots = ["heuristic", RANDOM_CMD]
    config = TournamentConfig("round-robin", "dreierschnapsen", bots, games=2, seed=8, move_timeout=30)
    report = run_tournament(config, tmp_path / "cmd", jobs=1, plot=False)
    assert sum(row["forfeits"] for row in report["standings"]) == 0
    direct = run_tournament(
        TournamentConfig("round-robin", "dreierschnapsen", ["heuristic", "random"], games=2, seed=8),
        tmp_path / "direct",
        jobs=1,
        plot=False,
    )
    strip = [{k: v for k, v in p.items() if k not in ("a", "b", "winner")} for p in report["pairings"]]
    assert strip == [{k: v for k, v in p.items() if k not in ("a", "b", "winner")} for p in direct["pairings"]]
    games = [g for f in _deal_files(tmp_path / "cmd") for g in json.loads(f.read_text())["games"]]
    assert len(games) == 2 * 6 and all(g["forfeit"] is None for g in games)


def test_pairings_reproduce_in_the_arena(tmp_path: Path, fast_bots: list[str]) -> None:
    """Deal i of every pairing is the arena's deal i with the tournament's seed: a pairing's numbers are
    `bummerl arena --a A --b B --seed S --deals N`'s."""
    config = TournamentConfig("round-robin", "schnorps", fast_bots[:3], games=3, seed=9)
    report = run_tournament(config, tmp_path / "t", jobs=2, plot=False)
    for p in report["pairings"]:
        arena = ArenaConfig("schnorps", p["a"], p["b"], deals=3, seed=9)
        points = [sum(g.side_points[s] for d in range(3) for g in play_deal(arena, d).games) for s in "ab"]
        assert points == [p["game_points"]["a"], p["game_points"]["b"]]


def _needs_matplotlib() -> None:
    if importlib.util.find_spec("matplotlib") is None:
        reason = "needs the 'tournament' extra: pip install -e '.[tournament]'"
        if os.environ.get("CI"):
            pytest.fail(f"CI is set but matplotlib is missing: {reason}", pytrace=False)
        pytest.skip(reason)


def test_plot_of_the_ratings(tmp_path: Path) -> None:
    """DIR/ratings.svg: one labelled point per bot, the same file for the same standings."""
    _needs_matplotlib()
    config = TournamentConfig("round-robin", "schnapsen", ["heuristic", "random"], games=2, seed=1)
    report = run_tournament(config, tmp_path / "t", jobs=1)
    svg = tmp_path / "t" / "ratings.svg"
    assert report["plot"] == str(svg) and report["notes"] == []
    text = svg.read_text()
    assert text.startswith("<?xml") and "<svg" in text
    first = text
    svg.unlink()
    run_tournament(config, tmp_path / "t", jobs=1)
    assert svg.read_text() == first


def test_no_matplotlib_means_a_note_not_a_crash(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Without the 'tournament' extra the tournament still runs and says why there is no plot."""
    for name in [m for m in sys.modules if m == "matplotlib" or m.startswith("matplotlib.")]:
        monkeypatch.delitem(sys.modules, name)
    monkeypatch.setitem(sys.modules, "matplotlib", None)  # import matplotlib now raises ImportError
    argv = ["tournament", "--format", "knock-out", "--bots", "heuristic,random", "--games", "1", "--jobs", "1"]
    assert main([*argv, "--out", str(tmp_path / "t")]) == 0
    out = capsys.readouterr().out
    assert "note: no plot of the ratings: matplotlib is not installed" in out
    assert not (tmp_path / "t" / "ratings.svg").exists()
