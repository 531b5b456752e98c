"""The Bummerl sheet (bummerl.server.sheet) and the table's log after a reload (issue 13, "Remember").

The sheet is checked against the engine's own match (every line against the game it scores, the running
standing against ``Match.standing`` and ``TableMatch.scores``), against the live table's ``game_end``
events, and for what it must never hold: a card.  The log a (re)connecting client gets in its ``welcome``
is checked against the events the table sent while it played, also after a server restart, and never names
a card drawn face down.
"""

from __future__ import annotations

import pytest

pytest.importorskip("fastapi", reason="needs the 'web' extra: pip install -e '.[web]'")

import itertools
import json
import re
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

from bummerl.match import Match, TableMatch
from bummerl.server.app import create_app
from bummerl.server.config import ServerConfig
from bummerl.server.routes.deps import app_parts
from bummerl.server.sheet import loser_class, match_sheet, table_match_sheet
from bummerl.variants import EndReason, GameResult

CONFIG = ServerConfig(bot_executor="thread", analysis_executor="thread", analysis_level="easy")
#: A card code as the server writes it (``Ah``, ``Tc``).
CARD = re.compile(r"^[AKQJT987][hdcs]$")


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(create_app(data_dir=tmp_path, config=CONFIG)) as c:
        yield c


def hello(ws: Any, token: str | None) -> tuple[dict[str, Any], dict[str, Any]]:
    """The welcome and the first state."""
    ws.send_json({"type": "hello", "token": token})
    welcome = ws.receive_json()
    assert welcome["type"] == "welcome", welcome
    state = ws.receive_json()
    assert state["type"] == "state", state
    return welcome, state


def play_until(ws: Any, state: dict[str, Any], stop: Any, received: list[dict[str, Any]]) -> dict[str, Any]:
    """Play the first legal action whenever it is seat 0's turn until ``stop(state)``; every state is kept."""
    while not stop(state):
        if state["your_turn"]:
            ws.send_json({"type": "action", "action": state["legal"][0]})
        state = ws.receive_json()
        assert state["type"] == "state", state
        received.append(state)
    return state


def cards_in(data: Any) -> set[str]:
    found: set[str] = set()
    if isinstance(data, dict):
        for value in data.values():
            found |= cards_in(value)
    elif isinstance(data, list):
        for value in data:
            found |= cards_in(value)
    elif isinstance(data, str) and CARD.match(data):
        found.add(data)
    return found


def finished(match: Match, policy: Any = None) -> Match:
    """Play the match's next game to its end with ``policy`` (default: the first legal action) and score it."""
    game = match.deal_next()
    while not game.is_over:
        actions = game.legal_actions()
        game.apply(policy(actions) if policy else actions[0])
    match.complete(game)
    return match


# ---------------------------------------------------------------------- the engine's match on the sheet
def test_each_line_is_the_game_the_match_scored_and_the_bummerl_counts_down() -> None:
    """seeds/000 "Partien und Bummerl": both start at 7 and note "die Anzahl der Punkte, die noch zum
    Partiegewinn fehlen"; seeds/003: dealer and Vorhand alternate every game."""
    match = Match("schnapsen", seed=21, first_dealer=1)
    while not match.is_over:
        finished(match)
    sheet = match_sheet(match, 1)
    assert sheet["start"] == [7, 7] and sheet["scoring"] == "bummerl"
    for line, h, game in zip(sheet["games"], match.history, match.games, strict=True):
        assert line["dealer"] == h.dealer == game.dealer
        assert (line["winner"], line["points"], line["reason"]) == (
            h.result.winner,
            h.result.points,
            h.result.reason.value,
        )
        assert line["standing"] == list(h.standing_after)
        assert line["closed_by"] == game.closed_by
    dealers = [line["dealer"] for line in sheet["games"]]
    assert all(a != b for a, b in itertools.pairwise(dealers))
    assert sheet["over"] and sheet["winners"] == [match.winner] and min(sheet["standing"]) == 0
    assert sheet["bummerl"] == match.bummerl_for_loser and sheet["schneider"] == match.is_schneider


def test_schnorps_counts_marken_up_and_doubles_after_a_stand() -> None:
    """seeds/001: "das Spiel steht, es wird dann um das Geben gezogen u. der Verlust in dem darauf folgenden
    Spiele doppelt ... bezahlt"; the Marken are counted up (RULES.md, Matches)."""

    def plain(actions: list[Any]) -> Any:
        # Never close, declare, marry or exchange: the game goes to its last card, where 65:65 can stand.
        simple = [a for a in actions if a.token not in ("close", "declare", "exchange") and ":" not in a.token]
        return (simple or actions)[0]

    for seed in range(2000):
        match = finished(Match("schnorps", seed=seed, first_dealer=1), plain)
        if match.results[0].winner is None:
            break
    else:
        raise AssertionError("no stand in 2000 deals")
    finished(match)
    sheet = match_sheet(match, 1)
    stand, after = sheet["games"]
    assert stand["reason"] == "stand" and stand["winner"] is None and stand["credited"] == 0
    assert stand["standing"] == [0, 0] and sheet["start"] == [0, 0]
    assert after["multiplier"] == 2 and after["credited"] == 2 * after["points"]
    assert after["standing"][after["winner"]] == after["credited"] and sheet["scoring"] == "marken"


def test_schneider_and_schwarz_are_named_as_the_game_paid_them() -> None:
    """seeds/000: three points "keinen Stich", two "32 oder weniger Augen"; seeds/001: Schneider 2 Marken,
    Schwarz 6, covered 4 and 8; a failed close or a wrong declaration is a penalty, no class."""
    won = GameResult(0, 3, EndReason.DECLARED, (70, 0))
    assert loser_class("bummerl", won, None) == "schwarz"
    assert loser_class("bummerl", GameResult(1, 2, EndReason.CLOSER_WON, (20, 66)), 1) == "schneider"
    assert loser_class("bummerl", GameResult(1, 1, EndReason.LAST_TRICK, (20, 66)), None) is None
    assert loser_class("bummerl", GameResult(1, 3, EndReason.CLOSER_FAILED, (40, 20)), 0) is None
    assert loser_class("bummerl", GameResult(1, 2, EndReason.WRONG_DECLARATION, (60, 20)), None) is None
    assert loser_class("marken", GameResult(0, 6, EndReason.DECLARED, (70, 0), "Marken"), None) == "schwarz"
    assert loser_class("marken", GameResult(0, 4, EndReason.CLOSER_WON, (70, 20), "Marken"), 0) == "schneider"
    assert loser_class("marken", GameResult(0, 2, EndReason.CLOSER_WON, (70, 40), "Marken"), 0) is None
    assert loser_class("marken", GameResult(1, 4, EndReason.CLOSER_FAILED, (40, 70), "Marken"), 0) is None
    assert loser_class("marken", GameResult(None, 0, EndReason.STAND, (65, 65), "Marken"), None) is None


@pytest.mark.parametrize("variant", ["bauernschnapsen", "dreierschnapsen"])
def test_a_table_games_sheet_runs_each_side_to_24(variant: str) -> None:
    """seeds/004: "Sobald ein Team 24 oder mehr Spielpunkte erreicht, gewinnt das Team die Partie"; with four
    players the score is kept per team (seats 0+2, 1+3), with three per seat."""
    match = TableMatch(variant, seed=3)
    standings = []
    while not match.is_over:
        table = match.deal_next()
        while not table.is_over:
            table.apply(table.legal_actions()[0])
        match.complete(table)
        standings.append(list(match.scores))
    sheet = table_match_sheet(match, 1)
    assert [line["standing"] for line in sheet["games"]] == standings
    assert [line["dealer"] for line in sheet["games"]] == [g.dealer for g in match.games[: len(standings)]]
    assert sheet["sides"] == ([[0, 2], [1, 3]] if variant == "bauernschnapsen" else [[0], [1], [2]])
    assert sheet["over"] and sheet["winners"] == list(match.winners) and max(sheet["standing"]) >= 24
    assert sheet["bummerl_by_side"] == list(match.bummerl)


# ---------------------------------------------------------------------- the sheet at a live table
def test_the_live_sheet_follows_each_game_and_anyone_may_read_it(client: TestClient) -> None:
    """The state carries the sheet when it changed (a deal, a game's end); ``GET /api/tables/{id}/sheet``
    answers the same to anyone, and it names no card."""
    table = client.post("/api/tables", json={"opponent": "random", "seed": 8, "name": "Anna"}).json()
    received: list[dict[str, Any]] = []
    with client.websocket_connect(table["ws_url"]) as ws:
        _, state = hello(ws, table["token"])
        assert state["sheet"]["matches"][0]["current"]["dealer"] == state["view"]["dealer"]
        for n in (1, 2):
            state = play_until(ws, state, lambda s: s["game_over"] is not None, received)
            sheets = [s["sheet"] for s in received if "sheet" in s]
            assert len(sheets) == 2 * n - 1  # every deal and every end, nothing between them
            ends = [e for s in received for e in s["events"] if e["type"] == "game_end"]
            lines = sheets[-1]["matches"][0]["games"]
            assert [(line["winner"], line["points"], line["reason"]) for line in lines] == [
                (e["result"]["winner"], e["result"]["points"], e["result"]["reason"]) for e in ends
            ]
            assert lines[-1]["standing"] == ends[-1]["standing"] == state["match"]["standing"]
            if n == 1:
                ws.send_json({"type": "next_game"})
                state = ws.receive_json()
                received.append(state)
    sheet = client.get(f"/api/tables/{table['table_id']}/sheet")
    assert sheet.status_code == 200 and sheet.json() == sheets[-1]
    assert sheet.json()["players"][0]["name"] == "Anna" and sheet.json()["players"][1]["bot"] == "random"
    assert cards_in(sheet.json()) == set()
    assert client.get("/api/tables/nosuchtable/sheet").status_code == 404
    assert client.get("/api/tables/" + "x" * 300 + "/sheet").status_code == 404


def test_a_table_game_sheet_is_in_the_state_of_a_spectator(client: TestClient) -> None:
    table = client.post("/api/tables", json={"variant": "dreierschnapsen", "bots": "random", "seed": 2}).json()
    received: list[dict[str, Any]] = []
    with client.websocket_connect(table["ws_url"]) as ws:
        _, state = hello(ws, table["token"])
        state = play_until(ws, state, lambda s: s["game_over"] is not None, received)
    with client.websocket_connect(table["ws_url"]) as watcher:
        _, watched = hello(watcher, None)
    sheet = watched["sheet"]
    assert watched["role"] == "spectator" and sheet["kind"] == "table_game" and sheet["sides"] == [[0], [1], [2]]
    line = sheet["matches"][0]["games"][0]
    assert line["standing"] == state["match"]["scores"] and line["winners"] == state["game_over"]["result"]["winners"]
    assert cards_in(sheet) == set()


@pytest.mark.parametrize(
    ("variant", "traits"),
    [
        ("schnapsen", {"undeclared_end": "last_trick", "match_kind": "bummerl", "terms": "schnapsen"}),
        ("66", {"undeclared_end": "sixty_six", "match_kind": "bummerl", "terms": "schnapsen"}),
        ("schnorps", {"undeclared_end": "sixty_six", "match_kind": "marken", "terms": "schnorps"}),
    ],
)
def test_the_sheet_carries_the_variants_traits(client: TestClient, variant: str, traits: dict[str, Any]) -> None:
    """sheet.js words a game's end by the variant's traits (the last trick wins, or 66; Zudrehen or Decken), never
    by its name: the sheet carries them as every view's ``variant`` does."""
    table = client.post("/api/tables", json={"variant": variant, "opponent": "random", "seed": 3}).json()
    sheet = client.get(f"/api/tables/{table['table_id']}/sheet").json()
    assert {k: sheet["traits"][k] for k in traits} == traits and sheet["traits"]["seats"] == 2


# ---------------------------------------------------------------------- the log after a reload
def test_the_log_comes_back_after_a_reload_as_it_was_sent(client: TestClient) -> None:
    """A reloaded page gets the game so far in ``welcome.log``: the events it was sent, from the deal on."""
    table = client.post("/api/tables", json={"opponent": "random", "seed": 5}).json()
    received: list[dict[str, Any]] = []
    with client.websocket_connect(table["ws_url"]) as ws:
        welcome, state = hello(ws, table["token"])
        first_log = welcome["log"]
        assert first_log[0]["type"] == "game_start"
        # Stopped where the table waits for this seat: nothing happens while the page reloads.
        play_until(ws, state, lambda s: s["your_turn"] and len(s["view"]["tricks"]) >= 3, received)
    sent = first_log + [e for s in received for e in s["events"]]
    with client.websocket_connect(table["ws_url"]) as ws:
        welcome, state = hello(ws, table["token"])
        assert welcome["log"] == sent and state["events"] == []
    with client.websocket_connect(table["ws_url"]) as watcher:
        assert hello(watcher, None)[0]["log"] == sent  # a spectator's log is the same: it is the shared one


def test_the_log_is_made_again_from_the_stored_actions_after_a_restart(tmp_path: Path) -> None:
    """After a restart the table is replayed from its stored actions: the log a client gets is the one the
    table had sent, and no card drawn from the talon is named in it (docs/security.md)."""
    url = f"sqlite:///{tmp_path / 'games.db'}"
    received: list[dict[str, Any]] = []
    with TestClient(create_app(url, config=CONFIG)) as client:
        table = client.post("/api/tables", json={"opponent": "random", "seed": 11}).json()
        with client.websocket_connect(table["ws_url"]) as ws:
            welcome, state = hello(ws, table["token"])
            state = play_until(ws, state, lambda s: s["game_over"] is not None, received)
            ws.send_json({"type": "next_game"})
            received.append(ws.receive_json())
            state = play_until(ws, received[-1], lambda s: s["your_turn"] and len(s["view"]["tricks"]) >= 2, received)
        before = client.get(f"/api/tables/{table['table_id']}/sheet").json()
    sent = [e for s in received for e in s["events"]]
    this_game = sent[max(i for i, e in enumerate(sent) if e["type"] == "game_start") :]
    with TestClient(create_app(url, config=CONFIG)) as client:
        with client.websocket_connect(table["ws_url"]) as ws:
            welcome, _ = hello(ws, table["token"])
        start = welcome["log"][0]
        assert start == {k: v for k, v in this_game[0].items() if k != "deal_commitment"}
        assert welcome["log"][1:] == this_game[1:]
        assert all(
            e["card"] is None for e in welcome["log"] if e["type"] == "draw" and e["card"] not in sent_face_up(sent)
        )
        assert client.get(f"/api/tables/{table['table_id']}/sheet").json() == before


def sent_face_up(events: list[dict[str, Any]]) -> set[str]:
    """The cards the shared log named (the face-up trump card drawn last)."""
    return {e["card"] for e in events if e["type"] == "draw" and e["card"]}


def test_a_finished_game_reloaded_ends_its_log_with_the_result(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'games.db'}"
    received: list[dict[str, Any]] = []
    with TestClient(create_app(url, config=CONFIG)) as client:
        table = client.post("/api/tables", json={"variant": "bauernschnapsen", "bots": "random", "seed": 4}).json()
        with client.websocket_connect(table["ws_url"]) as ws:
            welcome, state = hello(ws, table["token"])
            play_until(ws, state, lambda s: s["game_over"] is not None, received)
    sent = welcome["log"] + [e for s in received for e in s["events"]]
    with TestClient(create_app(url, config=CONFIG)) as client, client.websocket_connect(table["ws_url"]) as ws:
        welcome, _ = hello(ws, None)

    def strip(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
        # The commitment stays in the summary; a match's end is made again from the match's standing.
        keep = ("type", "winners", "deal_key")
        return [
            {k: v for k, v in e.items() if k != "deal_commitment" and (e["type"] != "match_end" or k in keep)}
            for e in events
        ]

    assert strip(welcome["log"]) == strip(sent)
    assert [e["type"] for e in welcome["log"]].count("game_end") == 1 and "game_end" in json.dumps(welcome["log"][-2:])


def test_a_table_held_by_another_process_is_replayed_for_its_sheet(client: TestClient) -> None:
    """Cluster mode: where another process holds the table, the sheet is made from its stored games without
    taking it, and equals the live one."""
    from bummerl.server.cluster import Elsewhere

    table = client.post("/api/tables", json={"opponent": "random", "seed": 6}).json()
    received: list[dict[str, Any]] = []
    with client.websocket_connect(table["ws_url"]) as ws:
        _, state = hello(ws, table["token"])
        play_until(ws, state, lambda s: s["game_over"] is not None, received)
    live = client.get(f"/api/tables/{table['table_id']}/sheet").json()
    manager = app_parts(client.app).manager

    async def elsewhere(table_id: str) -> Any:
        raise Elsewhere(table_id, "node-2")

    manager.room = elsewhere  # type: ignore[method-assign]
    assert client.get(f"/api/tables/{table['table_id']}/sheet").json() == live
    assert client.get("/api/tables/nosuchtable/sheet").status_code == 404
