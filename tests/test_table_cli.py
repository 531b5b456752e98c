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

from bummerl.actions import Action, ActionKind
from bummerl.arena import ArenaConfig, run_arena, seatings
from bummerl.cli import main
from bummerl.commands.play import Console, PlaySession
from bummerl.events import Bid, Contract, Event, Trick
from bummerl.game import Game
from bummerl.i18n import Messages
from bummerl.record import GameRecord, iter_records
from bummerl.table_game import TableGame
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
    assert records and all(isinstance(r, GameRecord) for r in records)
    results = [r.replay().result for r in records if isinstance(r, GameRecord)]
    total = sum(res.points for res in results if res is not None)
    assert total >= 24
    assert out.count("Standing:") == len(records)


def test_the_human_sees_only_the_own_view() -> None:
    """The prompts show the player's own cards, never another seat's hidden card
    (RULES.md: "the partner's cards never")."""
    out = io.StringIO()
    session = PlaySession(
        find_table_variant("bauernschnapsen"),
        ["heuristic"],
        seed=12,
        seat=2,
        lang="en",
        console=Console(io.StringIO("q\n"), out),
    )
    assert session.run() == 0
    table = session.match.series.games[0]
    text = out.getvalue()
    shown_hand = text.split("Your hand:")[1] if "Your hand:" in text else ""
    hidden = {c for s in range(4) if s != 2 for c in table.hands[s]} - set().union(*table.known)
    for card in hidden:
        assert card.name("german", "en") not in shown_hand
    assert "Your hand:" in text and "Bye." in text


def test_play_rejects_a_bad_seat(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    status, _, err = _run(monkeypatch, capsys, ["play", "--variant", "dreier", "--seat", "3", "--seed", "1"])
    assert status == 2 and "--seat must be 0..2" in err


@pytest.mark.parametrize("lang", ["de", "en"])
@pytest.mark.parametrize(
    ("variant", "seat", "bots"),
    [("bauernschnapsen", 1, "heuristic,random,heuristic"), ("dreierschnapsen", 2, "random,heuristic")],
)
def test_a_table_match_tells_every_event(
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    variant: str,
    seat: int,
    bots: str,
    lang: str,
) -> None:
    """Scripted stdin plays a whole match in either language; what the transcript tells comes from the
    events apply returned: one line per trick, bid and contract, each game's result and standing."""
    path = tmp_path / "games.txt"
    argv = ["play", "--variant", variant, "--seat", str(seat), "--bots", bots, "--seed", "6", "--lang", lang]
    status, out, err = _run(monkeypatch, capsys, [*argv, "--record", str(path)], "1\n" * 5000)
    assert status == 0, err
    records = [r for r in iter_records(path.open(encoding="utf-8")) if isinstance(r, GameRecord)]
    events: list[Event] = []
    for rec in records:
        game = TableGame.from_deck(rec.variant, rec.deck, rec.dealer)
        for action in rec.actions:
            events += game.apply(action)
    m = Messages(lang)
    v = find_table_variant(variant)
    assert out.count(m("trick_line", cards="").split(":")[0] + ": ") == sum(isinstance(e, Trick) for e in events)
    contracts = [e for e in events if isinstance(e, Contract)]
    assert contracts
    for e in contracts:
        who = m("you") if e.declarer == seat else m("seat", n=e.declarer)
        assert m("contract", contract=v.contract(e.contract).title, who=who) in out
    for e in events:
        if isinstance(e, Bid):
            who = m("You") if e.seat == seat else m("Seat", n=e.seat)
            assert m("bid", who=who, contract=v.contract(e.contract).title) in out
    assert out.count(m("standing_table", standing="")) == len(records)
    assert out.count(m("table_result", winners="", points="", reason="", mult="").split(":")[0] + ":") + out.count(
        m("redeal")
    ) == len(records)
    assert "Traceback" not in out + err


def test_a_typed_card_lays_away_while_laying_away() -> None:
    """The Dreierschnapsen soloist lays cards away after taking up the talon (seeds/004): a card typed then
    is laid away, and a token such as ``pass`` is understood where it is legal."""
    variant = find_table_variant("dreierschnapsen")
    for seed in range(40):
        game = Game.deal(variant, seed)
        while not game.is_over and not any(a.kind is ActionKind.DISCARD for a in game.legal_actions()):
            game.apply(game.legal_actions()[0])
        if not game.is_over:
            break
    else:  # pragma: no cover
        raise AssertionError("no deal reaches the discard")
    session = PlaySession(variant, "random", seed=1, seat=game.to_move, lang="en")
    menu = game.legal_actions()
    card = next(a.card for a in menu if a.kind is ActionKind.DISCARD)
    assert card is not None
    for typed in (card.code, card.name("german", "en"), card.name("german", "de")):
        assert session.parse_choice(typed, game, menu) is Action.discard(card)
    assert "Not allowed" in str(session.parse_choice("pass", game, menu))


def test_quitting_a_table_match_saves_where_asked(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """``q`` at a table asks for a file name like the two-player games ("yes" asks for the name); the
    games so far are saved, the unfinished one included, and read back."""
    monkeypatch.chdir(tmp_path)
    argv = ["play", "--variant", "dreier", "--seed", "2", "--lang", "en", "--bot", "random"]
    status, out, _ = _run(monkeypatch, capsys, argv, "1\n1\n1\nq\nyes\ntable.txt\n")
    assert status == 0 and "Bye." in out and Messages("en")("saved", path="table.txt") in out
    assert [p.name for p in tmp_path.iterdir()] == ["table.txt"]
    records = list(iter_records((tmp_path / "table.txt").open(encoding="utf-8")))
    assert records and all(isinstance(r, GameRecord) for r in records)
    assert records[-1].replay().result is None


def test_selfplay_for_table_variants(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["selfplay", "--variant", "bauern", "--bots", "heuristic,random", "--games", "6", "--seed", "2", "--json"]
    status, out, err = _run(monkeypatch, capsys, argv)
    assert status == 0, err
    data = json.loads(out)
    assert data["bots"] == ["heuristic", "random", "heuristic", "random"] and data["games"] == 6
    # Partners score together (seeds/004: the team wins the points).
    assert data["game_points"][0] == data["game_points"][2]
    status, out, err = _run(monkeypatch, capsys, ["selfplay", "--variant", "dreier", "--bots", "a,b", "--games", "1"])
    assert status == 2 and "unknown bot 'a'; bots that play Dreierschnapsen" in err


@pytest.mark.parametrize(
    ("variant", "bots"), [("bauernschnapsen", "heuristic,random"), ("dreierschnapsen", "random,heuristic,search")]
)
def test_selfplay_records_every_table_game(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path, variant: str, bots: str
) -> None:
    """Issue 11: "`bummerl selfplay --record FILE` writes records for every variant": each game replays
    to the result the totals counted, with its seed and the bots by seat."""
    path = tmp_path / "games.txt"
    argv = ["selfplay", "--variant", variant, "--bots", bots, "--games", "5", "--seed", "4", "--json"]
    status, out, err = _run(monkeypatch, capsys, [*argv, "--record", str(path)])
    assert status == 0, err
    data = json.loads(out)
    records = list(iter_records(path.open(encoding="utf-8")))
    assert len(records) == data["games"] == 5
    n = len(data["bots"])
    points = [0] * n
    for i, rec in enumerate(records):
        assert [rec.tags[f"Seat{s}"] for s in range(n)] == data["bots"]
        assert rec.tags["Round"] == str(i + 1) and rec.tags["Seed"]
        result = rec.replay().result
        assert result is not None
        points = [p + result.points_of(s) for s, p in enumerate(points)]
    assert points == data["game_points"]


def test_selfplay_bots_per_seat(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """One bot per seat, or two that alternate; any other number is refused, naming both forms."""
    argv = ["selfplay", "--variant", "dreier", "--bots", "random,heuristic,random", "--games", "3", "--json"]
    status, out, err = _run(monkeypatch, capsys, argv)
    assert status == 0, err
    assert json.loads(out)["bots"] == ["random", "heuristic", "random"]
    argv = ["selfplay", "--variant", "bauern", "--bots", "random,heuristic,random", "--games", "1"]
    status, _, err = _run(monkeypatch, capsys, argv)
    assert status == 2 and "exactly two bots" in err and "or 4, one per seat" in err


def test_table_arena_report_has_the_two_player_keys() -> None:
    two = run_arena(ArenaConfig("schnapsen", "heuristic", "random", deals=2, jobs=1))
    table = run_arena(ArenaConfig("bauernschnapsen", "heuristic", "random", deals=3, jobs=1))
    assert set(two) <= set(table)
    assert set(two["a"]) == set(table["a"])
    assert table["games"] == 6 and table["seatings"] == seatings(4)


@pytest.mark.parametrize("variant", ["bauernschnapsen", "dreierschnapsen"])
def test_seatings_are_fair(variant: str) -> None:
    """The same bot on both sides scores exactly the same: every seat (and team) is
    played by each side equally often on the same packs."""
    report = run_arena(ArenaConfig(variant, "heuristic", "heuristic", deals=4, seed=9, jobs=1))
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
    # cmd: bots play table games too (tests/test_protocol.py); a command line that does not parse is refused.
    status, _, err = _run(monkeypatch, capsys, ["arena", "--variant", "bauern", "--a", "cmd:x 'y", "--b", "random"])
    assert status == 2 and "bad bot command line" in err
    status, _, err = _run(monkeypatch, capsys, ["arena", "--variant", "bauern", "--a", "expert", "--b", "random"])
    assert status == 2 and "bot 'expert' does not play Bauernschnapsen" in err
