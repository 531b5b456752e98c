"""``bummerl play``, ``selfplay``, ``arena`` and ``replay`` for Bauernschnapsen and Dreierschnapsen.

Issue 4: "`bummerl selfplay` and `bummerl arena` work for these variants" and
"Terminal play (`bummerl play --variant bauernschnapsen`) with bots in the
other seats".
"""

from __future__ import annotations

import io
import json
import sys
from pathlib import Path

import pytest

from bummerl.arena import ArenaConfig, run_arena
from bummerl.cards import deck
from bummerl.cli import main
from bummerl.commands.play import Console
from bummerl.commands.play_table import TablePlaySession
from bummerl.record import iter_records
from bummerl.table import Table
from bummerl.table.record import TableGameRecord
from bummerl.table_arena import TableArenaConfig, run_table_arena, seatings
from bummerl.variants import find_table_variant


def _run(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], argv: list[str], stdin: str = ""
) -> tuple[int, str, str]:
    monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
    status = main(argv)
    out, err = capsys.readouterr()
    return status, out, err


@pytest.mark.parametrize("variant", ["bauernschnapsen", "dreierschnapsen"])
def test_play_a_whole_match_by_scripted_input(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path, variant: str
) -> None:
    """Answering "1" to every prompt plays a match to 24 (seeds/004: "Sobald ein Team 24
    oder mehr Spielpunkte erreicht, gewinnt das Team die Partie"); every game's record
    replays and tells the same results."""
    path = tmp_path / "games.txt"
    argv = ["play", "--variant", variant, "--seed", "3", "--lang", "en", "--bot", "random", "--record", str(path)]
    status, out, err = _run(monkeypatch, capsys, argv, "1\n" * 5000)
    assert status == 0, err
    assert "Traceback" not in out + err
    assert "Match over" in out
    records = list(iter_records(path.open(encoding="utf-8")))
    assert records and all(isinstance(r, TableGameRecord) for r in records)
    results = [r.replay().result for r in records if isinstance(r, TableGameRecord)]
    total = sum(res.points for res in results if res is not None)
    assert total >= 24
    assert out.count("Standing:") == len(records)


def test_the_human_sees_only_the_own_view() -> None:
    """The prompts show the player's own cards, never another seat's hidden card
    (RULES.md: "the partner's cards never")."""
    out = io.StringIO()
    session = TablePlaySession(
        find_table_variant("bauernschnapsen"),
        ["heuristic"],
        seed=12,
        seat=2,
        lang="en",
        console=Console(io.StringIO("q\n"), out),
    )
    table = session.match.table
    assert session.run() == 0
    text = out.getvalue()
    shown_hand = text.split("Your hand:")[1] if "Your hand:" in text else ""
    hidden = {c for s in range(4) if s != 2 for c in table.hands[s]} - set().union(*table.known)
    for card in hidden:
        assert card.name("german", "en") not in shown_hand
    assert "Your hand:" in text and "Bye." in text


def test_play_rejects_a_bad_seat(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    status, _, err = _run(monkeypatch, capsys, ["play", "--variant", "dreier", "--seat", "3", "--seed", "1"])
    assert status == 2 and "--seat must be 0..2" in err


def test_selfplay_for_table_variants(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["selfplay", "--variant", "bauern", "--bots", "heuristic,random", "--games", "6", "--seed", "2", "--json"]
    status, out, err = _run(monkeypatch, capsys, argv)
    assert status == 0, err
    data = json.loads(out)
    assert data["bots"] == ["heuristic", "random", "heuristic", "random"] and data["games"] == 6
    # Partners score together (seeds/004: the team wins the points).
    assert data["game_points"][0] == data["game_points"][2]
    status, out, err = _run(monkeypatch, capsys, ["selfplay", "--variant", "dreier", "--bots", "a,b", "--games", "1"])
    assert status == 2 and "unknown table bot 'a'" in err


def test_table_arena_report_has_the_two_player_keys() -> None:
    two = run_arena(ArenaConfig("schnapsen", "heuristic", "random", deals=2, jobs=1))
    table = run_table_arena(TableArenaConfig("bauernschnapsen", "heuristic", "random", deals=3, jobs=1))
    assert set(two) <= set(table)
    assert set(two["a"]) == set(table["a"])
    assert table["games"] == 6 and table["seatings"] == seatings(4)


@pytest.mark.parametrize("variant", ["bauernschnapsen", "dreierschnapsen"])
def test_seatings_are_fair(variant: str) -> None:
    """The same bot on both sides scores exactly the same: every seat (and team) is
    played by each side equally often on the same packs."""
    report = run_table_arena(TableArenaConfig(variant, "heuristic", "heuristic", deals=4, seed=9, jobs=1))
    assert report["a"]["game_points"] == report["b"]["game_points"]
    assert report["ppg_diff"] == 0


def test_arena_command_for_tables(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["arena", "--variant", "dreier", "--a", "heuristic", "--b", "random", "--deals", "3", "--jobs", "1"]
    status, out, err = _run(monkeypatch, capsys, argv)
    assert status == 0, err
    assert "3 deals x 6 seatings = 18 games" in out and "abb bab bba baa aba aab" in out
    status, out, _ = _run(monkeypatch, capsys, [*argv, "--json", "--unit", "bummerl", "--deals", "2"])
    data = json.loads(out)
    assert data["bummerl_played"] == 12 and data["unit"] == "bummerl"
    status, _, err = _run(monkeypatch, capsys, ["arena", "--variant", "bauern", "--a", "cmd:x", "--b", "random"])
    assert status == 2 and "two-player only" in err


def test_replay_tells_a_table_record(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    t = Table.deal("dreierschnapsen", seed=4, dealer=2)
    while not t.is_over:
        t.apply(t.legal_actions()[0])
    path = tmp_path / "g.txt"
    path.write_text(TableGameRecord.from_table(t, Seat1="anna").dumps(), encoding="utf-8")
    status, out, err = _run(monkeypatch, capsys, ["replay", str(path), "--lang", "en"])
    assert status == 0, err
    assert "Dreierschnapsen" in out and "Seat 1 (anna)" in out and "Result:" in out
    # A record is public: the whole deal is shown.
    assert all(c.code in out for c in deck(20))
