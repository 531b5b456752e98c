"""The match context reaches the bots of the terminal and of the web tables, not only the arena's (issue 12).

docs/bots.md "The match context": whoever runs a match tells its bots where it
stands (``PlayerView.match``, :meth:`bummerl.match.Match.context`), so that the
same bot (``expert`` plays for the match) plays alike in the arena, in
``bummerl play`` and at a web table.  The context is the score sheet both
players see; the bots here record what they were told, and the score they are
checked against is read from the match itself (terminal) or from the table's
``match`` messages (web), game by game: ``needed`` is the target in game 1 and
changes once game 1 is scored.  A Schnorps round of three (no two-seat race to
a target) and a lone game give none.
"""

from __future__ import annotations

import pytest

pytest.importorskip("fastapi", reason="needs the 'web' extra: pip install -e '.[web]'")

import io
import json
import threading
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

from bummerl.actions import Action
from bummerl.bots import Bot
from bummerl.commands.play import Console, PlaySession
from bummerl.commands.play_match import TwoPlayerMatch
from bummerl.commands.play_round import RoundSession
from bummerl.game import Game
from bummerl.match import Match
from bummerl.server import scheduler, workers
from bummerl.server.app import create_app
from bummerl.server.config import ServerConfig
from bummerl.variants import find_variant
from bummerl.view import MatchContext, PlayerView, View
from bummerl.view_json import view_from_json

CONFIG = ServerConfig(bot_executor="thread", bot_workers=2, analysis_executor="thread", analysis_level="easy")


def expected_context(kind: str, target: int, standing: list[int] | tuple[int, int], multiplier: int) -> MatchContext:
    """The context a bot should get when the score sheet reads ``standing`` (docs/bots.md "The match context").

    Bummerl: the standing is what each seat still needs (7 down to 0); Marken:
    what each has won, so it needs the rest of the target.
    """
    a, b = standing
    needed = (a, b) if kind == "bummerl" else (target - a, target - b)
    return MatchContext(kind, target, needed, kind == "bummerl", multiplier)


class Recorder:
    """Wraps a quick bot; remembers each view's match context with the game it was asked in (and its standing)."""

    def __init__(self, bot: Bot, match: Match | None = None) -> None:
        self.name = bot.name
        self._bot = bot
        self._match = match
        #: (game number, the view's context, the context the match's score sheet calls for)
        self.seen: list[tuple[int, MatchContext | None, MatchContext | None]] = []

    def choose(self, view: PlayerView) -> Action:
        m = self._match
        if m is None:
            self.seen.append((0, view.match, None))
        else:
            sheet = expected_context(m.kind, m.target, m.standing, m.multiplier)
            # The seat's own view and the context, nothing more.
            assert m.current is not None and view._replace(match=None) == m.current.view(view.player)
            self.seen.append((len(m.games), view.match, sheet))
        return self._bot.choose(view)


# ------------------------------------------------------------------ terminal
@pytest.mark.parametrize("variant", ["schnapsen", "schnorps"])
def test_the_terminal_tells_its_bot_the_match_game_by_game(variant: str) -> None:
    """``bummerl play``: a whole match (seeds/000 a Bummerl from 7 down; seeds/001 Schnorps' Marken)."""
    console = Console(io.StringIO("1\n" * 20_000), io.StringIO())
    session = PlaySession(find_variant(variant), "random", seed=12, lang="en", console=console)
    assert isinstance(session.match, TwoPlayerMatch)
    recorder = Recorder(session.bots[1], session.match.match)
    session.bots[1] = recorder
    assert session.run() == 0 and session.match.is_over
    seen = recorder.seen
    assert seen and all(got is not None and got == sheet for _, got, sheet in seen)
    first = {got for game, got, _ in seen if game == 1}
    later = {got for game, got, _ in seen if game > 1}
    assert first == {MatchContext(session.match.match.kind, 7, (7, 7), variant == "schnapsen", 1)}
    # Game 1 is scored before game 2 is dealt: from then on somebody needs less.
    assert later and all(got is not None and got.needed != (7, 7) for got in later)


def test_a_schnorps_round_and_a_lone_game_tell_no_match() -> None:
    """Three at Schnorps (seeds/001 "Wenn mehre am Spiele Theil nehmen"): balances among three are no two-seat
    race to a target, so the round's bots get no context; nor does a single game's view."""
    console = Console(io.StringIO("1\n" * 20_000), io.StringIO())
    session = RoundSession(find_variant("schnorps"), 3, ["random", "random"], seed=7, lang="en", console=console)
    recorders = {p: Recorder(bot) for p, bot in session.bots.items()}
    session.bots.update(recorders)
    assert session.run() == 0
    seen = [got for r in recorders.values() for _, got, _ in r.seen]
    assert seen and set(seen) == {None}
    game = Game.deal("schnapsen", seed=3)
    assert game.view(game.to_move).match is None


# ----------------------------------------------------------------------- web
@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(create_app(data_dir=tmp_path, config=CONFIG)) as c:
        yield c


@pytest.mark.parametrize("path", ["worker", "event loop"])
@pytest.mark.parametrize("variant", ["schnapsen", "schnorps"])
def test_a_web_table_tells_its_bot_the_match_through_the_worker(
    client: TestClient, monkeypatch: pytest.MonkeyPatch, variant: str, path: str
) -> None:
    """A two-player table plays a match: the bot's request carries the context as the protocol's JSON, and
    the worker reads it back (``view_from_json``) exactly as the table's score sheet stands; a quick built-in bot
    that decides on the event loop (``scheduler.INLINE_BOTS``) gets it in the view object itself."""
    seen: list[MatchContext | None] = []
    lock = threading.Lock()
    real_token, real_choose = workers.choose_token, workers.choose

    def recording(bot: str, seed: int, view: dict[str, Any], time_scale: float = 1.0) -> str:
        with lock:
            # As a worker process or another node reads it: plain JSON text and back.
            read = view_from_json(json.loads(json.dumps(view)))
            assert isinstance(read, PlayerView)
            seen.append(read.match)
        return real_token(bot, seed, view, time_scale)

    def recording_inline(bot: str, seed: int, view: View, time_scale: float = 1.0) -> str:
        assert isinstance(view, PlayerView)
        seen.append(view.match)
        return real_choose(bot, seed, view, time_scale)

    if path == "worker":
        monkeypatch.setattr(scheduler, "INLINE_BOTS", frozenset())
        monkeypatch.setattr(scheduler, "choose_token", recording)
    else:
        assert "random" in scheduler.INLINE_BOTS
        monkeypatch.setattr(scheduler, "choose", recording_inline)
    table = client.post("/api/tables", json={"opponent": "random", "variant": variant, "seed": 5}).json()
    by_game: list[tuple[dict[str, Any], list[MatchContext | None]]] = []
    with client.websocket_connect(table["ws_url"]) as ws:
        ws.send_json({"type": "hello", "token": table["token"]})
        ws.receive_json()
        state: dict[str, Any] = ws.receive_json()
        sheet = state["match"]
        while len(by_game) < 3:
            if state["status"] == "game_over":
                # Every bot decision of this game was made before its last action was applied.
                with lock:
                    by_game.append((sheet, seen[:]))
                    seen.clear()
                ws.send_json({"type": "next_game"})
            elif state["your_turn"]:
                # The seat's own view is what it was: the context goes to bots only.
                assert "match" not in state["view"]
                ws.send_json({"type": "action", "action": state["legal"][-1]})
            state = ws.receive_json()
            if state["status"] == "playing":
                sheet = state["match"]
    assert all(got for _, got in by_game), "the bot decided in every game"
    for sheet, got in by_game:
        want = expected_context(sheet["kind"], sheet["target"], sheet["standing"], sheet["multiplier"])
        assert set(got) == {want}
    first = by_game[0][1][0]
    assert first is not None and first.needed == (7, 7)
    second = by_game[1][1][0]
    assert second is not None and second.needed != (7, 7)
