"""The ``bummerl`` command line: play, replay and selfplay, driven in-process and as a subprocess."""

from __future__ import annotations

import contextlib
import io
import json
import os
import re
import shlex
import subprocess
import sys
from pathlib import Path
from typing import Any, cast

import pytest

from bummerl.actions import DOUBLE_NAMES, Action
from bummerl.bots import make_bot
from bummerl.cards import Card, deck, sort_hand
from bummerl.cli import main
from bummerl.commands.play import Console, PlaySession, QuitGame, _normalize
from bummerl.events import Bid, Close, Contract, Declare, Double, Draw, Event, Marriage, Play, Trick
from bummerl.game import Game
from bummerl.i18n import Messages
from bummerl.match import Match
from bummerl.record import GameRecord, MatchRecord, dump, iter_records, load
from bummerl.text import Narrator, Words, marriage_word
from bummerl.variants import VARIANTS, find_variant
from bummerl.view import PlayerView
from helpers import cards_in

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


def _events(records: list[GameRecord]) -> list[Event]:
    """Every event of the recorded games, as apply returns them when each game is replayed."""
    events: list[Event] = []
    for rec in records:
        game = Game.from_deck(rec.variant, rec.deck, rec.dealer)
        for action in rec.actions:
            events += game.apply(action)
    return events


@pytest.mark.parametrize("lang", ["de", "en"])
def test_play_tells_the_events_as_the_human_sees_them(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path, lang: str
) -> None:
    """Issue 11: "nothing diffs a game before and after to guess what changed" — every trick the engine
    reports is told once, the human's draws by name, the bot's only where the card lies face up (the last
    talon card), and each marriage with the value its event carries."""
    path = tmp_path / "m.txt"
    argv = ["play", "--variant", "66", "--seed", "12", "--lang", lang, "--bot", "heuristic", "--record", str(path)]
    status, out, err = _run(monkeypatch, capsys, argv, "1\n" * 3000)
    assert status == 0, err
    record = load(path.open(encoding="utf-8"))
    assert isinstance(record, MatchRecord)
    events = _events(list(record.games))
    m = Messages(lang)
    assert out.count(m("trick_line", cards="").split(":")[0] + ": ") == sum(isinstance(e, Trick) for e in events)
    draws = [e for e in events if isinstance(e, Draw)]
    mine = [e for e in draws if e.seat == 0]
    assert out.count(m("you_draw", card="|").split("|")[0]) == len(mine)
    assert all(m("you_draw", card=e.card.name("german", lang)) in out for e in mine)
    shown = [e for e in draws if e.seat == 1 and e.face_up]
    assert shown and out.count(m("other_draws", who="Computer", card="|").split("|")[0]) == len(shown)
    marriages = [e for e in events if isinstance(e, Marriage)]
    assert marriages
    for e in marriages:
        who, verb = (m("You"), m("verb_announce_you")) if e.seat == 0 else (m("Computer"), m("verb_announce_bot"))
        value = marriage_word(e.value, m)
        suit = e.suit.name_in("german", lang)
        assert m("marriage_announced", who_cap=who, verb=verb, value=value, suit=suit) in out


def test_the_human_may_sit_in_seat_one(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """``--seat`` works for the two-player variants too: the record names the seats as they were played."""
    path = tmp_path / "m.txt"
    argv = ["play", "--seat", "1", "--seed", "3", "--lang", "en", "--bot", "random", "--record", str(path)]
    status, out, err = _run(monkeypatch, capsys, argv, "1\n" * 3000)
    assert status == 0, err
    record = load(path.open(encoding="utf-8"))
    assert isinstance(record, MatchRecord)
    assert (record.tags["Seat0"], record.tags["Seat1"]) == ("random", "human")
    match = record.replay()
    final = Messages("en")("you_win_bummerl" if match.winner == 1 else "bot_wins_bummerl")
    assert match.is_over and final in out


def test_the_save_prompt_asks_for_a_file_name(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """Quitting asks for a file name; "y" is a yes, not a file called y (it asks for the name); "n" or
    nothing saves nothing; with ``--record FILE`` the match is saved there without asking."""
    monkeypatch.chdir(tmp_path)
    m = Messages("en")
    status, out, _ = _run(monkeypatch, capsys, ["play", "--seed", "8", "--lang", "en"], "1\nq\ny\nsaved.txt\n")
    assert status == 0 and m("save_name") in out and m("saved", path="saved.txt") in out
    assert [p.name for p in tmp_path.iterdir()] == ["saved.txt"]
    record = load((tmp_path / "saved.txt").open(encoding="utf-8"))
    assert isinstance(record, MatchRecord) and not record.replay().is_over
    for answers in ("n\n", "nein\n", "y\n\n", "ja\n"):  # the last one: the input ends at the name
        status, out, _ = _run(monkeypatch, capsys, ["play", "--seed", "8"], "q\n" + answers)
        assert status == 0 and Messages("de")("bye") in out, answers
        assert [p.name for p in tmp_path.iterdir()] == ["saved.txt"], answers
    status, out, _ = _run(monkeypatch, capsys, ["play", "--seed", "8", "--lang", "en", "--record", "given.txt"], "q\n")
    assert status == 0 and m("save_offer") not in out and m("saved", path="given.txt") in out
    assert isinstance(load((tmp_path / "given.txt").open(encoding="utf-8")), MatchRecord)


class _Witness(Console):
    """Answers from a script and checks every line and prompt against what the human may know
    (tests/test_secrecy.py does the same for the two-player games in more detail)."""

    def __init__(self, answers: list[str], faces: str, lang: str) -> None:
        super().__init__(io.StringIO(), io.StringIO())
        self.answers = iter(answers)
        self.session: PlaySession | None = None
        self.names = {c.name(faces, lang): c for c in deck(32)}
        self.pattern = re.compile("|".join(re.escape(n) for n in sorted(self.names, key=len, reverse=True)))
        self.seen: dict[int, set[Card]] = {}
        self.typed: set[Card] = set()
        self.named = 0

    def _known(self) -> set[Card]:
        assert self.session is not None
        games = self.session.match.series.games
        if not games:
            return set()
        seen = self.seen.setdefault(id(games[-1]), set())
        seen |= cards_in(games[-1].view(self.session.seat))
        return seen

    def _check(self, text: str) -> None:
        assert self.session is not None
        named = {self.names[m.group()] for m in self.pattern.finditer(text)}
        self.named += len(named)
        leaked = named - self._known() - self.typed
        assert not leaked, f"{text!r} shows {sorted(c.code for c in leaked)}"
        # The seed deals every card: shown once, when the match is over.
        assert str(self.session.seed) not in text or self.session.match.is_over, text

    def say(self, text: str = "") -> None:
        self._check(text)
        super().say(text)

    def ask(self, prompt: str) -> str | None:
        self._check(prompt)
        answer = next(self.answers, None)
        assert self.session is not None
        typed = self.session._names.get(_normalize(answer or ""))
        self.typed = {typed} if typed is not None else set()
        with contextlib.suppress(ValueError):
            self.typed.add(Card.parse(answer or ""))
        return answer


@pytest.mark.parametrize(
    ("variant", "seat", "faces", "lang"),
    [
        ("schnapsen", 1, "french", "en"),
        ("schnorps", 0, "german", "de"),
        ("bauernschnapsen", 1, "german", "de"),
        ("bauernschnapsen", 3, "french", "en"),
        ("dreierschnapsen", 2, "german", "en"),
        ("dreierschnapsen", 0, "french", "de"),
    ],
)
def test_no_line_names_a_card_the_human_cannot_know(variant: str, seat: int, faces: str, lang: str) -> None:
    """A whole match of every variant, with bad input tried before each choice: no line and no prompt
    names a card outside the human's view (a bot's hand, the talon, a bot's draw or discard) or the seed
    before the end; every bot is given its own seat's view."""
    probes = ["Ah", "9s", "pass", "kontra", "close", "banana", "99", "Herz-Ass", "discard:Ah", "1"]
    console = _Witness([probes[i % len(probes)] for i in range(60000)], faces, lang)
    session = PlaySession(find_variant(variant), "heuristic", 4321, faces, lang, None, console, seat=seat)
    console.session = session
    for bot_seat, bot in session.bots.items():

        def spy(view: Any, choose: Any = bot.choose, bot_seat: int = bot_seat) -> Action:
            game = session.match.series.current
            assert game is not None and view.player == bot_seat
            own = game.view(bot_seat)
            # A two-player bot's view also carries the match context: the score sheet, no card (docs/bots.md).
            assert view == (own._replace(match=view.match) if isinstance(own, PlayerView) else own)
            return cast(Action, choose(view))

        bot.choose = spy  # type: ignore[method-assign]
    assert session.run() == 0
    assert session.match.is_over and console.named > 100


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


def test_replay_tells_a_table_record(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """Moved from tests/test_table_cli.py: one narration for every variant names a seat "player N (name)"."""
    t = Game.deal("dreierschnapsen", seed=4, dealer=2)
    while not t.is_over:
        t.apply(t.legal_actions()[0])
    path = tmp_path / "g.txt"
    path.write_text(GameRecord.from_game(t, Seat1="anna").dumps(), encoding="utf-8")
    status, out, err = _run(monkeypatch, capsys, ["replay", str(path), "--lang", "en"])
    assert status == 0, err
    assert "Dreierschnapsen" in out and "Player 1 (anna)" in out and "Result:" in out
    # A record is public: the whole deal is shown.
    assert all(c.name("german", "en") in out for c in deck(20))


@pytest.mark.parametrize("lang", ["de", "en"])
@pytest.mark.parametrize("variant", [v.name for v in VARIANTS])
def test_replay_tells_every_variant_from_its_events(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path, variant: str, lang: str
) -> None:
    """Issue 11: ``bummerl replay`` shows a game of any variant trick by trick, told from the events that
    ``apply`` returned: one line per trick naming every card, each marriage with the value its event
    carries, each bid, the contract and each Kontra, every card of the deal (a record hides nothing), the
    result last."""
    game = Game.deal(variant, seed=11)
    bots = [make_bot("heuristic" if s % 2 else "random", s, game.variant) for s in range(game.players)]
    events: list[Event] = []
    while not game.is_over:
        events += game.apply(bots[game.to_move].choose(game.view(game.to_move)))
    path = tmp_path / "g.txt"
    path.write_text(GameRecord.from_game(game, Seat0="anna").dumps(), encoding="utf-8")
    status, out, err = _run(monkeypatch, capsys, ["replay", str(path), "--lang", lang, "--cards", "french"])
    assert status == 0, err
    lines = out.strip().splitlines()
    msgs = Messages(lang)
    tricks = [e for e in events if isinstance(e, Trick)]
    told = [line for line in lines if line.startswith(msgs("replay_trick_cards", n="", cards="", winner="")[:5])]
    assert len(told) == len(tricks)
    for line, trick in zip(told, tricks, strict=True):
        assert all(card.name("french", lang) in line for _, card in trick.cards)
    for e in events:
        if isinstance(e, Marriage):
            assert any(marriage_word(e.value, msgs) in line for line in lines)
        if isinstance(e, Bid | Contract):
            title = game.variant.contract(e.contract).title  # type: ignore[attr-defined]
            assert any(title in line for line in lines)
        if isinstance(e, Double):
            assert any(DOUBLE_NAMES[e.level - 1].title() in line for line in lines)
    assert all(c.name("french", lang) in out for c in game.deck)
    assert "anna" in out and lines[-1].startswith(msgs("replay_result", text=""))


def test_one_narrator_tells_the_play_and_the_replay() -> None:
    """Issue 11 ("each thing written once"): ``bummerl play`` and ``bummerl replay`` tell the events with one
    Narrator, and a record differs by data only: told to nobody (every seat a player, by its name) and public
    (every card drawn is named, a card played is told with its numbered trick)."""
    game = Game.deal("schnapsen", seed=5)
    msgs = Messages("en")
    live = Narrator(Words(msgs, "french", game.variant, seat=0), result=lambda result: [])
    record = Narrator(Words(msgs, "french", game.variant, names={0: "anna"}), public=True)
    told_live: list[str] = []
    told_record: list[str] = []
    events: list[Event] = []
    while not game.is_over:
        legal = game.legal_actions()
        # Close the talon once a trick has been drawn to, so that the story has draws and a closing.
        closing = [a for a in legal if a.token == "close" and any(isinstance(e, Draw) for e in events)]
        new = game.apply((closing or legal)[0])
        events += new
        told_live += live.tell(new)
        told_record += record.tell(new)
    # The same sentence for the same event, the seat named from the listener's side.
    assert [e.seat for e in events if isinstance(e, Close)] == [0]
    assert msgs("closed_you") in told_live
    assert msgs("closed_other", who="Player 0 (anna)") in told_record
    plays = sum(isinstance(e, Play) for e in events)
    assert plays == sum(bool(re.match(r"(You|Computer) (leads?|plays?) ", line)) for line in told_live)
    # A trick a line, numbered, naming its cards; the cards played are not told one by one.
    tricks = [e for e in events if isinstance(e, Trick)]
    lines = [line for line in told_record if line.startswith("Trick ")]
    assert [line.split(":")[0] for line in lines] == [f"Trick {n}" for n in range(1, len(tricks) + 1)]
    assert all(c.name("french", "en") in line for line, t in zip(lines, tricks, strict=True) for _, c in t.cards)
    # A record names every card drawn; live, only the listener's own.
    drawn = [e for e in events if isinstance(e, Draw)]
    assert drawn and all(e.card.name("french", "en") in " ".join(told_record) for e in drawn)
    mine = [msgs("you_draw", card=e.card.name("french", "en")) for e in drawn if e.seat == 0]
    assert [line for line in told_live if "draw" in line] == mine
    declarer = next((e.seat for e in events if isinstance(e, Declare)), None)
    if declarer is not None:
        assert msgs("declared_other", who=f"Player {declarer}" + ("" if declarer else " (anna)")) in told_record


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


@pytest.mark.parametrize("variant", [v.name for v in VARIANTS])
def test_selfplay_plays_every_variant(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], variant: str
) -> None:
    """Issue 11: one selfplay for all six variants; A,B alternate round the table."""
    argv = ["selfplay", "--variant", variant, "--bots", "random,heuristic", "--games", "8", "--seed", "3", "--json"]
    status, out, err = _run(monkeypatch, capsys, argv)
    assert status == 0, err
    data = json.loads(out)
    players = find_variant(variant).players
    assert data["bots"] == ["random", "heuristic"] * (players // 2) + ["random"] * (players % 2)
    assert data["games"] == 8 and data["forfeits"] == [] and len(data["game_points"]) == players
    assert sum(data["wins"]) + data["draws"] >= 8


@pytest.mark.parametrize("variant", ["schnapsen", "scharf", "66", "schnorps"])
def test_selfplay_records_every_game(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path, variant: str
) -> None:
    """`bummerl selfplay --record FILE`: every game as a record that replays to the counted result, with its
    seed (checked on reading), round and bots; the dealer alternates, seat 1 first."""
    path = tmp_path / "games.txt"
    argv = ["selfplay", "--variant", variant, "--games", "6", "--seed", "5", "--json", "--record", str(path)]
    status, out, err = _run(monkeypatch, capsys, argv)
    assert status == 0, err
    data = json.loads(out)
    with path.open(encoding="utf-8") as fp:
        records = list(iter_records(fp))
    assert len(records) == 6
    points = [0, 0]
    for i, rec in enumerate(records):
        assert isinstance(rec, GameRecord)
        assert (rec.tags["Seat0"], rec.tags["Seat1"], rec.tags["Round"]) == ("heuristic", "random", str(i + 1))
        assert rec.dealer == 1 - i % 2
        result = rec.replay().result
        assert result is not None
        points = [points[s] + result.points_of(s) for s in (0, 1)]
    assert points == data["game_points"]


def test_selfplay_forfeits_and_records_them(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """A protocol bot that fails forfeits the game (the opponent scores 3) and the run goes on; the record
    keeps the game as it stood, unfinished, with the forfeit in a tag."""
    path = tmp_path / "games.txt"
    bot = "cmd:" + shlex.join([sys.executable, "-c", "pass"])
    argv = ["selfplay", "--bots", f"{bot},random", "--games", "2", "--json", "--record", str(path)]
    status, out, err = _run(monkeypatch, capsys, argv)
    assert status == 0, err
    data = json.loads(out)
    assert data["game_points"] == [0, 6] and [f["kind"] for f in data["forfeits"]] == ["start", "start"]
    with path.open(encoding="utf-8") as fp:
        records = list(iter_records(fp))
    assert [r.result for r in records] == [None, None]
    assert all(r.tags["Forfeit"].startswith("seat 0 (start): bot cmd:") for r in records)


def test_selfplay_record_is_not_left_empty_on_bad_input(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "games.txt"
    argv = ["selfplay", "--bots", "random,nobody", "--games", "1", "--record", str(path)]
    status, _, err = _run(monkeypatch, capsys, argv)
    assert status == 2 and "unknown bot 'nobody'" in err and not path.exists()


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
