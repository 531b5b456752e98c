"""``bummerl play --participants 3|4``: Schnorps for three or four in the terminal, by scripted input.

seeds/001: "Wenn mehre am Spiele Theil nehmen, so wird ebenfalls immer nur von zweien gespielt. Der erste Geber
... gibt die Karten dem vor ihm Sitzenden u. dem nach diesem Folgenden. Hierauf gibt der, welcher zuerst die
Vorhand hatte, die Karten den beiden Nächstfolgenden ... Der Verlierende muß nicht nur an seinen Mitspieler,
sondern an alle Theilnehmer zahlen."  RULES.md, "Matches": "two play at a time, the deal passes round the circle
to the next two, a stand is replayed by the same two, and the loser pays every participant."
"""

from __future__ import annotations

import io
import re
import sys
from pathlib import Path

import pytest

from bummerl.cli import main
from bummerl.commands.play import Console
from bummerl.commands.play_round import RoundSession
from bummerl.i18n import Messages
from bummerl.record import iter_games
from bummerl.variants import find_variant


def _run(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], argv: list[str], stdin: str
) -> tuple[int, str, str]:
    monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
    status = main(argv)
    out, err = capsys.readouterr()
    return status, out, err


def _games(out: str, marker: str) -> list[str]:
    """The transcript cut into one part per game (from its header on)."""
    return out.split(marker)[1:]


@pytest.mark.parametrize(("participants", "lang"), [(3, "en"), (4, "de")])
def test_a_round_is_played_to_its_end_and_recorded(
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    participants: int,
    lang: str,
) -> None:
    """Always answering "1" plays the match to its end; every game record names the two who played (the two
    after the dealer, seeds/001), the next dealer is the first Vorhand, and the loser paid every participant."""
    path = tmp_path / "round.txt"
    bots = ",".join(["random"] * (participants - 1))
    argv = ["play", "--variant", "schnorps", "--participants", str(participants), "--bots", bots]
    argv += ["--seed", "4", "--lang", lang, "--record", str(path), "--option", "auto_declare=true"]
    status, out, err = _run(monkeypatch, capsys, argv, "1\n" * 5000)
    assert status == 0, err
    m = Messages(lang)
    assert "Traceback" not in out + err
    assert m("round_over", winners="", top=0, standing="").split(":")[0] in out
    with path.open(encoding="utf-8") as fp:
        records = list(iter_games(fp))
    assert records, out
    balance = [0] * participants
    dealer = int(records[0].tags["RoundDealer"])
    for rec in records:
        players = [int(p) for p in rec.tags["RoundPlayers"].split(",")]
        # seeds/001: the dealer gives to the one after him (Vorhand, game seat 0) and the one after that.
        assert int(rec.tags["RoundDealer"]) == dealer
        assert players == [(dealer + 1) % participants, (dealer + 2) % participants]
        game = rec.replay()
        result = game.result
        assert result is not None
        after = [int(b) for b in rec.tags["BalanceAfter"].split(",")]
        paid = [a - b for a, b in zip(after, balance, strict=True)]
        if result.winner is None:
            assert paid == [0] * participants  # a stand: the same two again (seeds/001)
        else:
            loser = players[1 - result.winner]
            each = paid[players[result.winner]]
            assert paid[loser] == -each * (participants - 1)
            assert all(paid[p] == each for p in range(participants) if p != loser)
            dealer = players[0]  # "Hierauf gibt der, welcher zuerst die Vorhand hatte"
        balance = after
        assert sum(balance) == 0
    assert max(balance) >= 7
    header = m("round_header", n=1, dealer="", a="", b="", waiting="").split("1")[0]
    assert out.count(header) == len(records)
    assert m("saved", path=path) in out


def test_waiting_you_follow_the_game_as_a_spectator(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """While you wait, the game is told as a spectator sees it: no hand shown, no card drawn named."""
    status, out, _ = _run(
        monkeypatch,
        capsys,
        ["play", "--variant", "schnorps", "--participants", "4", "--bots", "heuristic", "--seed", "7", "--lang", "en"],
        "1\n" * 5000,
    )
    assert status == 0
    m = Messages("en")
    waited = played = 0
    for part in _games(out, "=== Game "):
        if m("round_you_wait") in part:
            waited += 1
            assert m("your_hand") not in part
            # A card drawn from the talon is named only when it is the face-up trump card, the talon's last.
            draws = re.findall(r"draws .*\.\n(.*)", part)
            assert len(draws) <= 1 and all(after == m("talon_exhausted") for after in draws)
            assert re.search(r"Seat \d \(heuristic\) (leads|plays)", part)
        else:
            played += 1
            assert m("your_hand") in part or "Game to" in part
    assert waited and played


def test_hot_seat_humans_hand_the_keyboard_over(monkeypatch: pytest.MonkeyPatch) -> None:
    """``human`` in --bots is one more person at the keyboard: asked to take it before each turn."""
    out = io.StringIO()
    session = RoundSession(
        find_variant("schnorps"),
        3,
        ["human", "random"],
        seed=5,
        lang="en",
        console=Console(io.StringIO("1\n" * 6000), out),
        target=2,
    )
    assert session.run() == 0
    text = out.getvalue()
    assert "Seat 1 (human) to play" in text and "Seat 0 (human) to play" in text
    assert "Match over" in text


def test_bad_arguments_are_refused(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    status, _, err = _run(monkeypatch, capsys, ["play", "--variant", "schnapsen", "--participants", "3"], "")
    assert status != 0 and "only Schnorps" in err
    status, _, err = _run(
        monkeypatch, capsys, ["play", "--variant", "schnorps", "--participants", "3", "--bots", "a,b,c"], ""
    )
    assert status != 0 and "names the 2 others" in err
    status, _, err = _run(
        monkeypatch, capsys, ["play", "--variant", "schnorps", "--participants", "3", "--seat", "3"], ""
    )
    assert status != 0 and "--seat" in err
    status, _, err = _run(monkeypatch, capsys, ["play", "--variant", "schnorps", "--participants", "5"], "")
    assert status == 2 and "invalid choice: 5" in err


def test_quitting_saves_on_request(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "partial.txt"
    status, _out, _ = _run(
        monkeypatch,
        capsys,
        ["play", "--variant", "schnorps", "--participants", "3", "--bots", "random", "--seed", "2", "--lang", "en"],
        f"q\n{path}\n",
    )
    assert status == 0 and path.exists()
    assert "RoundPlayers" in path.read_text(encoding="utf-8")
