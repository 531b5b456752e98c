"""The ``bummerl`` command line: play, replay and selfplay, driven in-process and as a subprocess."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from bummerl.actions import Action
from bummerl.cards import sort_hand
from bummerl.cli import main
from bummerl.commands.play import PlaySession, QuitGame
from bummerl.game import Game
from bummerl.i18n import Messages
from bummerl.match import Match
from bummerl.record import GameRecord, MatchRecord, dump, load
from bummerl.variants import find_variant

ROOT = Path(__file__).resolve().parents[1]


def _run(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], argv: list[str], stdin: str = ""
) -> tuple[int, str, str]:
    monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
    status = main(argv)
    out, err = capsys.readouterr()
    return status, out, err


def _first_dealer_one(variant: str = "schnapsen") -> int:
    """A seed whose match starts with seat 1 dealing, so the human (seat 0) leads first."""
    for seed in range(100):
        if Match(variant, seed).first_dealer == 1:
            return seed
    raise AssertionError("no such seed")  # pragma: no cover


# ------------------------------------------------------------------------ play
@pytest.mark.parametrize(("lang", "faces"), [("de", "german"), ("en", "german"), ("de", "french"), ("en", "french")])
def test_play_a_whole_match_by_scripted_input(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path, lang: str, faces: str
) -> None:
    """Always answering "1" (the first legal action) plays a Bummerl to its end (seeds/000: "Partien und
    Bummerl"); the transcript shows each game's result and score and who won, and the record replays."""
    path = tmp_path / "match.txt"
    argv = ["play", "--seed", "11", "--lang", lang, "--cards", faces, "--bot", "heuristic", "--record", str(path)]
    status, out, err = _run(monkeypatch, capsys, argv, "1\n" * 3000)
    assert status == 0, err
    m = Messages(lang)
    assert "Traceback" not in out + err
    record = load(path.open(encoding="utf-8"))
    assert isinstance(record, MatchRecord)
    match = record.replay()
    assert match.is_over
    games = len(match.history)
    # One score line per game, counting down from 7, and the winner at the end.
    assert out.count(m("standing_bummerl", mine="", theirs="").split(":")[0]) == games
    final = m("you_win_bummerl") if match.winner == 0 else m("bot_wins_bummerl")
    assert final in out
    if match.is_schneider:
        assert "Schneider!" in out
    # Card names in the chosen faces and language.
    suit_name = {"german": {"de": "Eichel", "en": "Acorns"}, "french": {"de": "Kreuz", "en": "Clubs"}}[faces][lang]
    assert suit_name in out
    assert m("saved", path=path) in out


def test_play_schnorps_for_marken(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """Schnorps is played for Marken (seeds/001); the match ends when a player has won 7 Marken."""
    status, out, _ = _run(
        monkeypatch, capsys, ["play", "--variant", "schnorps", "--seed", "4", "--lang", "en"], "1\n" * 3000
    )
    assert status == 0
    assert "Marken: you" in out
    assert "in Marken!" in out or "in Marken." in out


def test_play_scharf_shows_no_running_augen(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """seeds/000, scharf: "Abgelegte Stiche dürfen nichtmehr angesehen werden" — no Augen during the game,
    both players' Augen after it."""
    status, out, _ = _run(
        monkeypatch, capsys, ["play", "--variant", "scharf", "--seed", "3", "--lang", "en"], "1\n" * 3000
    )
    assert status == 0
    assert "Augen: you" not in out
    assert "no running totals" in out
    assert "Augen at the end: you" in out


def test_auto_declare_offers_no_declaration(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """RULES.md: option auto_declare — "66 ends the game automatically", so the menu never offers Genug."""
    status, out, _ = _run(monkeypatch, capsys, ["play", "--auto-declare", "--seed", "2", "--lang", "en"], "1\n" * 3000)
    assert status == 0
    assert Messages("en")("menu_declare") not in out


def test_play_eof_ends_cleanly(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """Input that ends in the middle of a game ends the program with a message, not a traceback."""
    status, out, err = _run(monkeypatch, capsys, ["play", "--seed", "1"], "1\n1\n")
    assert status == 1
    assert Messages("de")("eof") in out
    assert "Traceback" not in err


def test_play_with_no_input_at_all(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = _run(monkeypatch, capsys, ["play", "--seed", "1", "--lang", "en"], "")
    assert status == 1
    assert Messages("en")("eof") in out


def test_play_with_a_closed_stdin(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    closed = io.StringIO("1\n")
    closed.close()
    monkeypatch.setattr(sys, "stdin", closed)
    assert main(["play", "--seed", "1", "--lang", "en"]) == 1
    assert Messages("en")("eof") in capsys.readouterr().out


def test_quit_offers_to_save(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """``q`` quits cleanly and offers to save the unfinished match, which then loads and replays."""
    path = tmp_path / "quit.txt"
    status, out, _ = _run(monkeypatch, capsys, ["play", "--seed", "8", "--lang", "en"], f"1\nq\n{path}\n")
    assert status == 0
    assert Messages("en")("bye") in out
    record = load(path.open(encoding="utf-8"))
    assert isinstance(record, MatchRecord)
    assert not record.replay().is_over


def test_quit_without_saving(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    monkeypatch.chdir(tmp_path)
    status, out, _ = _run(monkeypatch, capsys, ["play", "--seed", "8"], "quit\n\n")
    assert status == 0
    assert Messages("de")("bye") in out
    assert list(tmp_path.iterdir()) == []


def test_help_and_bad_input(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """``?`` shows help; unknown words and numbers outside the menu are refused with a message."""
    status, out, _ = _run(monkeypatch, capsys, ["play", "--seed", "8", "--lang", "en"], "?\nbanana\n99\nq\n\n")
    assert status == 0
    m = Messages("en")
    assert "Enter the number from the menu" in out
    assert m("unknown_input", text="banana") in out
    assert "That is not possible now" in out


@pytest.mark.parametrize("lang", ["de", "en"])
def test_a_card_may_be_typed_by_name_code_or_short_form(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], lang: str
) -> None:
    """The human leads first here; typing a card's name leads that card."""
    seed = _first_dealer_one()
    game = Match("schnapsen", seed).deal_next()
    card = sort_hand(game.hands[0], game.trump)[2]
    for typed in (card.name("german", lang), card.code, card.short("german", lang).lower()):
        status, out, _ = _run(monkeypatch, capsys, ["play", "--seed", str(seed), "--lang", lang], typed + "\nq\n\n")
        assert status == 0
        expected = Messages(lang)("you_lead", card=card.name("german", lang))
        assert expected in out, typed


def test_an_illegal_card_names_the_rule() -> None:
    """seeds/000: "Farbzwang geht immer vor Stichzwang" — after the talon is exhausted a card of another
    suit is refused with the rule's name and the allowed cards."""
    session = PlaySession(find_variant("schnapsen"), "random", seed=1, faces="french", lang="en")
    game = Game.from_position("schnapsen 0 0 h KhKc/Ah - - Tc -/ThQhJhAdTdKdQdJdAcQcJcAsTsKsQsJs -")
    menu = [Action.parse("Kc")]
    message = session.parse_choice("Kh", game, menu)
    assert isinstance(message, str)
    assert "Farbzwang" in message and "King of Clubs" in message
    assert session.parse_choice("1", game, menu) is Action.parse("Kc")
    assert "don't hold" in str(session.parse_choice("As", game, menu))
    with pytest.raises(QuitGame):
        session.parse_choice("q", game, menu)


def test_the_bot_hand_stays_hidden(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """The player sees only their view: before the first prompt no card of the bot's hand is named."""
    seed = _first_dealer_one()
    game = Match("schnapsen", seed).deal_next()
    status, out, _ = _run(monkeypatch, capsys, ["play", "--seed", str(seed), "--lang", "en"], "")
    assert status == 1
    for card in game.hands[1]:
        assert card.name("german", "en") not in out


# ---------------------------------------------------------------------- replay
def _finished_game(seed: int, variant: str = "schnapsen") -> Game:
    game = Game.deal(variant, seed)
    while not game.is_over:
        game.apply(game.legal_actions()[-1] if len(game.actions) % 3 else game.legal_actions()[0])
    return game


@pytest.mark.parametrize("fmt", ["text", "json"])
def test_replay_a_recorded_game(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path, fmt: str
) -> None:
    """Every trick of the game is told, with the deal before and the result after."""
    game = _finished_game(21)
    path = tmp_path / "game.rec"
    with path.open("w", encoding="utf-8") as fp:
        dump(GameRecord.from_game(game, Seat0="Anna", Seat1="Bert"), fp, format=fmt)  # type: ignore[arg-type]
    status, out, _ = _run(monkeypatch, capsys, ["replay", str(path), "--lang", "en", "--cards", "french"])
    assert status == 0
    assert out.count("Trick ") == len(game.tricks)
    assert "Player 0 (Anna):" in out and "Trump:" in out
    assert out.strip().splitlines()[-1].startswith("Result:")


def test_replay_a_match_record(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    match = Match("schnapsen", 5)
    while not match.is_over:
        g = match.deal_next()
        while not g.is_over:
            g.apply(g.legal_actions()[0])
        match.complete(g)
    path = tmp_path / "match.rec"
    path.write_text(MatchRecord.from_match(match).dumps(), encoding="utf-8")
    status, out, _ = _run(monkeypatch, capsys, ["replay", str(path)])
    assert status == 0
    assert out.count("=== Spiel ") == len(match.history)
    assert "Bummerl: Spieler" in out


def test_replay_errors(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """A missing file fails with 1, a malformed record with 2; both say why."""
    status, _, err = _run(monkeypatch, capsys, ["replay", str(tmp_path / "nope.txt")])
    assert status == 1 and "nope.txt" in err
    bad = tmp_path / "bad.txt"
    bad.write_text('[Variant "schnapsen"]\n[Dealer "1"]\n\ndeal:AhAh\n', encoding="utf-8")
    status, _, err = _run(monkeypatch, capsys, ["replay", str(bad)])
    assert status == 2 and "error" in err


# -------------------------------------------------------------------- selfplay
def test_selfplay_json(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["selfplay", "--variant", "66", "--bots", "heuristic,random", "--games", "30", "--seed", "7", "--json"]
    status, out, _ = _run(monkeypatch, capsys, argv)
    assert status == 0
    data = json.loads(out)
    assert {"bots", "games", "wins", "game_points", "seconds", "variant", "seed", "draws"} <= set(data)
    assert data["bots"] == ["heuristic", "random"]
    assert data["games"] == 30 and sum(data["wins"]) + data["draws"] == 30
    assert data["variant"] == "sechsundsechzig" and data["seed"] == 7
    assert data["game_points"][0] > data["game_points"][1]
    # Reproducible from the seed.
    _, again, _ = _run(monkeypatch, capsys, argv)
    assert json.loads(again)["game_points"] == data["game_points"]


def test_selfplay_zero_games_and_table(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = _run(monkeypatch, capsys, ["selfplay", "--games", "0", "--json"])
    assert status == 0
    data = json.loads(out)
    assert data["games"] == 0 and data["wins"] == [0, 0] and data["game_points"] == [0, 0]
    status, out, _ = _run(monkeypatch, capsys, ["selfplay", "--games", "4", "--bots", "random,heuristic"])
    assert status == 0 and "random" in out and "heuristic" in out and "per game" in out


def test_bad_arguments(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """Unknown variants and bots are usage errors that name the problem."""
    status, _, err = _run(monkeypatch, capsys, ["selfplay", "--variant", "poker", "--games", "1"])
    assert status == 2 and "unknown variant 'poker'" in err
    status, _, err = _run(monkeypatch, capsys, ["selfplay", "--bots", "random,nobody", "--games", "1"])
    assert status == 2 and "unknown bot 'nobody'" in err
    status, _, err = _run(monkeypatch, capsys, ["selfplay", "--bots", "random", "--games", "1"])
    assert status == 2 and "exactly two bots" in err
    status, _, err = _run(monkeypatch, capsys, ["play", "--option", "nonsense"])
    assert status == 2 and "KEY=VALUE" in err
    assert _run(monkeypatch, capsys, [])[0] == 2
    assert _run(monkeypatch, capsys, ["--version"])[0] == 0


# ------------------------------------------------------------------ subprocess
def _subprocess(args: list[str], stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, PYTHONPATH=str(ROOT / "src"))
    return subprocess.run(
        [sys.executable, "-m", "bummerl", *args],
        input=stdin,
        stdin=None if stdin is not None else subprocess.DEVNULL,
        capture_output=True,
        text=True,
        encoding="utf-8",
        env=env,
        timeout=60,
        check=False,
    )


def test_python_m_bummerl_smoke() -> None:
    proc = _subprocess(["selfplay", "--games", "3", "--seed", "1", "--json"])
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["games"] == 3
    proc = _subprocess(["play", "--seed", "1", "--lang", "en"])  # stdin at EOF
    assert proc.returncode == 1
    assert "Traceback" not in proc.stderr
    assert Messages("en")("eof") in proc.stdout


def test_the_table_shows_what_the_view_knows_and_nothing_more() -> None:
    """Issue 3: "after the talon is exhausted each player knows the other's hand by elimination", so the
    table lists it; at the deal the opponent's hand is unknown and not shown."""
    from bummerl.text import render_view

    m = Messages("en")
    late = Game.from_position("schnapsen 0 0 h KhKc/Ah - - Tc -/ThQhJhAdTdKdQdJdAcQcJcAsTsKsQsJs -")
    assert any(line == "Computer's cards you know: Ace of Hearts" for line in render_view(late.view(0), m, "french"))
    fresh = Game.deal("schnapsen", 3)
    lines = render_view(fresh.view(0), m, "french")
    assert not any("you know" in line for line in lines)
    assert not any(c.name("french", "en") in " ".join(lines) for c in fresh.hands[1])
