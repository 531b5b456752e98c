"""The table WebSocket (docs/web.md): seats, spectators, play, errors, next games, busy bots.

In-process with FastAPI's TestClient; bots run in threads (``bot_executor="thread"``).
"""

from __future__ import annotations

import pytest

pytest.importorskip("fastapi", reason="needs the 'web' extra: pip install -e '.[web]'")

import threading
import time
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

with warnings.catch_warnings():
    # Starlette's TestClient warns that it prefers another HTTP client package.
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient
from starlette.testclient import WebSocketTestSession

from bummerl.actions import Action
from bummerl.bots import RandomBot, register_bot
from bummerl.cards import deck
from bummerl.game import Game
from bummerl.match import Session
from bummerl.protocol import view_to_json
from bummerl.server.app import create_app
from bummerl.server.config import ServerConfig
from bummerl.server.rooms import public_events
from bummerl.server.routes.deps import app_parts
from bummerl.server.workers import read_game_record
from bummerl.view import PlayerView
from helpers import deal_game

CONFIG = ServerConfig(bot_executor="thread", bot_workers=4, analysis_executor="thread", analysis_level="easy")


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(create_app(data_dir=tmp_path, config=CONFIG)) as c:
        yield c


def create(client: TestClient, **body: Any) -> dict[str, Any]:
    response = client.post("/api/tables", json=body)
    assert response.status_code == 201, response.text
    data: dict[str, Any] = response.json()
    return data


def hello(ws: WebSocketTestSession, token: str | None) -> dict[str, Any]:
    """Send hello; return the first state (after the welcome)."""
    ws.send_json({"type": "hello", "token": token})
    welcome = ws.receive_json()
    assert welcome["type"] == "welcome", welcome
    state: dict[str, Any] = ws.receive_json()
    assert state["type"] == "state", state
    return state


def live_game(client: TestClient, table_id: str) -> Game:
    game: Game = app_parts(client.app).manager.tables[table_id].game
    return game


def until(ws: WebSocketTestSession, predicate: Any) -> dict[str, Any]:
    """Receive messages until one satisfies ``predicate`` (every message is a state or an error here)."""
    for _ in range(200):
        message: dict[str, Any] = ws.receive_json()
        if predicate(message):
            return message
    raise AssertionError("the expected message never came")


def drain(ws: WebSocketTestSession) -> list[dict[str, Any]]:
    """Every message up to the answer to a ping (the server answers in order)."""
    ws.send_json({"type": "ping"})
    seen = []
    while (message := ws.receive_json()) != {"type": "pong"}:
        seen.append(message)
    return seen


def play_game_against_bot(ws: WebSocketTestSession, state: dict[str, Any]) -> tuple[dict[str, Any], list[Any]]:
    """Play the first legal action whenever it is our turn until the game is over; return the last state
    and every event seen."""
    events: list[Any] = list(state["events"])
    while state["status"] != "game_over":
        if state["your_turn"]:
            ws.send_json({"type": "action", "action": state["legal"][0]})
        state = ws.receive_json()
        assert state["type"] == "state", state
        events.extend(state["events"])
    return state, events


def test_seat_gets_its_view_and_spectator_sees_no_hand(client: TestClient) -> None:
    """docs/web.md: a seat's view is bummerl.protocol.view_to_json; a spectator's has no hand at all."""
    table = create(client, opponent="random", name="Anna", seed=11)
    with client.websocket_connect(table["ws_url"]) as seat, client.websocket_connect(table["ws_url"]) as spec:
        state = hello(seat, table["token"])
        game = live_game(client, table["table_id"])
        assert state["seat"] == 0 and state["role"] == "player"
        assert state["view"] == view_to_json(game.view(0))
        assert state["legal"] == ([a.token for a in game.legal_actions()] if game.to_move == 0 else [])
        watch = hello(spec, None)
        assert watch["seat"] is None and watch["role"] == "spectator"
        assert watch["view"]["hand"] == [] and watch["view"]["opponent_known"] == []
        assert watch["view"]["hand_sizes"] == [len(game.hands[0]), len(game.hands[1])]
        assert watch["legal"] == [] and watch["your_turn"] is False
        assert watch["match"]["standing"] == [7, 7] and watch["match"]["kind"] == "bummerl"
        assert [p["kind"] for p in watch["players"]] == ["human", "bot"]


def test_an_action_after_the_game_is_over_names_what_to_do(client: TestClient) -> None:
    """Room.playing: once the game is over an action is refused with ``game_over`` (send next_game), and
    nothing changes."""
    table = create(client, opponent="random", name="Anna", seed=5)
    with client.websocket_connect(table["ws_url"]) as ws:
        last, _ = play_game_against_bot(ws, hello(ws, table["token"]))
        assert last["status"] == "game_over" and last["legal"] == []
        actions = list(live_game(client, table["table_id"]).actions)
        ws.send_json({"type": "action", "action": "Ah"})
        refused = ws.receive_json()
        assert refused["code"] == "game_over" and "next_game" in refused["message"]
        assert list(live_game(client, table["table_id"]).actions) == actions


def test_a_whole_game_against_a_bot_ends_with_both_hands_and_the_record(client: TestClient) -> None:
    """The game-over state reveals the hands as dealt (from the record), the record and the analysis link."""
    table = create(client, opponent="random", name="Anna", seed=5)
    with client.websocket_connect(table["ws_url"]) as ws:
        first = hello(ws, table["token"])
        last, events = play_game_against_bot(ws, first)
    # The bot may have led before we said hello: those cards are in the first view, not in events.
    seen_before = len(first["view"]["played"])
    over = last["game_over"]
    record = read_game_record(over["record"])
    dealt = Game.from_deck(record.variant, record.deck, record.dealer)
    assert over["hands_at_deal"] == [[c.code for c in h] for h in dealt.hands]
    replayed = record.replay()
    assert replayed.result is not None and over["result"]["points"] == replayed.result.points
    assert over["analysis_url"] == f"/api/games/{over['game_id']}/analysis"
    kinds = [e["type"] for e in events]
    assert kinds.count("trick") == len(replayed.tricks) - seen_before // 2
    assert kinds[-1] == "game_end"
    plays = [e["card"] for e in events if e["type"] == "play"]
    all_plays = [c.code for t in replayed.tricks for c in (t.lead, t.follow)]
    assert plays == all_plays[seen_before:] + ([replayed.lead.code] if replayed.lead else [])
    assert last["legal"] == [] and last["to_move"] is None
    standing = last["match"]["standing"]
    winner = replayed.result.winner
    assert winner is not None and standing[winner] == 7 - replayed.result.points


def test_errors_name_the_problem_and_leave_the_table_unchanged(client: TestClient) -> None:
    """docs/web.md error codes: bad_json, unknown_type, bad_message, hello_required, bad_token, spectator,
    waiting, not_your_turn, bad_action, illegal_action, game_running.  The rules named: ``turn`` (seeds/000:
    "Vorhand spielt zum ersten Stich aus ... spielt der Gewinner des Stichs zum nächsten Stich aus") and
    ``not_in_hand`` ("a player can only play a card they hold", bummerl.errors.Rule)."""
    table = create(client, opponent="friend", name="Anna")
    tid = table["table_id"]
    with client.websocket_connect(table["ws_url"]) as ws:
        ws.send_json({"type": "action", "action": "Ah"})
        assert ws.receive_json()["code"] == "hello_required"
        ws.send_json({"type": "hello", "token": "not-a-seat"})
        assert ws.receive_json()["code"] == "bad_token"
        ws.send_text("{not json")
        assert ws.receive_json()["code"] == "bad_json"
        ws.send_text("[1, 2]")
        assert ws.receive_json()["code"] == "bad_json"
        ws.send_json({"type": "dance"})
        assert ws.receive_json()["code"] == "unknown_type"
        ws.send_json({"type": "action", "action": 5})
        assert ws.receive_json()["code"] == "bad_message"
        state = hello(ws, table["token"])
        ws.send_json({"type": "action", "action": "Ah"})
        assert ws.receive_json()["code"] == "waiting"
        friend = client.post("/api/join", json={"code": table["join_code"], "name": "Bert"}).json()
        state = until(ws, lambda m: m["type"] == "state")
        assert state["status"] == "playing" and state["events"] == [{"type": "joined", "seat": 1, "name": "Bert"}]
        game = live_game(client, tid)
        mover = game.to_move
        with client.websocket_connect(table["ws_url"]) as other, client.websocket_connect(table["ws_url"]) as spec:
            hello(other, friend["token"])
            hello(spec, None)
            socks = {0: ws, 1: other}
            for sock in (ws, other, spec):
                drain(sock)
            before = (list(game.actions), view_to_json(game.view(0)), view_to_json(game.view(1)))
            waiting_ws, mover_ws = socks[1 - mover], socks[mover]
            waiting_ws.send_json({"type": "action", "action": game.legal_actions()[0].token})
            refused = waiting_ws.receive_json()
            assert refused["code"] == "not_your_turn" and refused["rule"] == "turn"
            spec.send_json({"type": "action", "action": game.legal_actions()[0].token})
            assert spec.receive_json()["code"] == "spectator"
            spec.send_json({"type": "next_game"})
            assert spec.receive_json()["code"] == "spectator"
            waiting_ws.send_json({"type": "next_game"})
            assert waiting_ws.receive_json()["code"] == "game_running"
            mover_ws.send_json({"type": "action", "action": "marry:Zz"})
            assert mover_ws.receive_json()["code"] == "bad_action"
            absent = next(c.code for c in deck(game.variant.deck_size) if c not in game.hands[mover])
            mover_ws.send_json({"type": "action", "action": absent})
            refused = mover_ws.receive_json()
            assert refused["code"] == "illegal_action" and refused["rule"] == "not_in_hand"
            assert absent in refused["message"]
            assert (list(game.actions), view_to_json(game.view(0)), view_to_json(game.view(1))) == before
            for sock in (ws, other, spec):
                assert drain(sock) == []  # nothing but the pong: no state was sent after the refusals


def test_a_friend_table_is_played_by_both_seats_through_a_whole_bummerl(client: TestClient) -> None:
    """seeds/000 "Partien und Bummerl": 7 down to 0; the loser gets a Bummerl; next_game starts the next one."""
    table = create(client, opponent="friend", name="Anna", variant="66")
    friend = client.post("/api/join", json={"code": table["join_code"], "name": "Bert"}).json()
    with client.websocket_connect(table["ws_url"]) as ws0, client.websocket_connect(table["ws_url"]) as ws1:
        socks = {0: ws0, 1: ws1}
        latest = {0: hello(ws0, table["token"]), 1: hello(ws1, friend["token"])}
        latest[0] = ws0.receive_json()  # seat 1 connected: seat 0 hears it
        assert latest[0]["players"][1]["connected"] is True
        games = 0
        while not latest[0]["match"]["over"]:
            if latest[0]["status"] == "game_over":
                games += 1
                ws0.send_json({"type": "next_game"})
            else:
                mover = latest[0]["to_move"]
                assert latest[mover]["your_turn"] and not latest[1 - mover]["your_turn"]
                socks[mover].send_json({"type": "action", "action": latest[mover]["legal"][-1]})
            for seat in (0, 1):
                latest[seat] = socks[seat].receive_json()
                assert latest[seat]["type"] == "state", latest[seat]
        match = latest[0]["match"]
        winner = match["winner"]
        assert match["standing"][winner] == 0 and match["standing"][1 - winner] > 0
        assert match["bummerl"][1 - winner] == (2 if match["schneider"] else 1)
        assert match["matches_won"][winner] == 1
        assert latest[0]["game_over"]["match_over"] is True
        ws0.send_json({"type": "next_game"})
        fresh = ws0.receive_json()
        assert fresh["match"]["match_no"] == 2 and fresh["match"]["standing"] == [7, 7]
        assert fresh["events"][0]["type"] == "game_start" and fresh["events"][0]["match_no"] == 2
    listed = client.get("/api/games", params={"table": table["table_id"]}).json()
    assert listed["total"] == games + 1
    for number, entry in enumerate(reversed(listed["games"]), 1):
        # Every game's record reads alone and replays, also game 2 and later of the match.
        record = read_game_record(client.get(f"/api/games/{entry['game_id']}/record").text)
        assert record.tags["Game"] == str(number) and record.replay().result is not None


class _SlowBot:
    """Thinks until released (or 2 s): a bot that takes its time."""

    name = "slow-test"
    release = threading.Event()

    def __init__(self, seed: int) -> None:
        self._random = RandomBot(seed)

    def choose(self, view: PlayerView) -> Any:
        self.release.wait(2.0)
        return self._random.choose(view)


register_bot("slow-test", _SlowBot, "test bot that thinks for up to 2 s")


def _seed_where_seat1_leads() -> int:
    # Session(seed) draws the first dealer; seat 1 leads when seat 0 deals.
    return next(s for s in range(100) if Session("schnapsen", s).new_match().next_dealer == 0)


def test_a_thinking_bot_does_not_hold_up_other_tables(client: TestClient) -> None:
    """issue 5: "a bot thinking for a second must not freeze other tables"."""
    _SlowBot.release.clear()
    slow = create(client, opponent="slow-test", name="A", seed=_seed_where_seat1_leads())
    slow_table = app_parts(client.app).manager.tables[slow["table_id"]]
    assert slow_table.bot_task is not None and not slow_table.bot_task.done()
    other = create(client, opponent="random", name="B", seed=_seed_where_seat1_leads() + 1000)
    try:
        with client.websocket_connect(other["ws_url"]) as ws:
            start = time.monotonic()
            state = hello(ws, other["token"])
            while not state["your_turn"]:
                state = ws.receive_json()
            ws.send_json({"type": "action", "action": state["legal"][0]})
            answered = ws.receive_json()
            elapsed = time.monotonic() - start
        assert answered["type"] == "state" and answered["seq"] > state["seq"]
        assert elapsed < 1.0, f"the other table answered after {elapsed:.2f} s"
        assert not slow_table.bot_task.done(), "the slow bot should still be thinking"
    finally:
        _SlowBot.release.set()


def test_events_tell_exchange_marriage_close_tricks_and_declaring() -> None:
    """The public events of each action kind (docs/web.md "events"): seeds/000 "Das Austauschen der
    Atout-Karte" (the Unter for the face-up trump card), a marriage shows King and Ober ("Besitzt ein Spieler
    König und Dame ... von einer Farbe", 20, 40 in trumps), Zudrehen, a trick and its Augen."""
    game = deal_game(
        "schnapsen", vorhand="Jh Kc Qc Kh Ts", dealer="Ac Tc Qs Js As", trump="Ah", talon="Th Kd Qd Jd Ad Td Qh Jc Ks"
    )
    seat = game.to_move
    got: list[dict[str, Any]] = []
    for token in ["exchange", "close", "marry:Kc", "Ac"]:
        got.extend(public_events(game.apply(Action.parse(token))))
    assert got == [
        {"type": "exchange", "seat": seat, "took": "Ah", "gave": "Jh"},
        {"type": "close", "seat": seat},
        {"type": "marriage", "seat": seat, "suit": "c", "cards": ["Kc", "Qc"], "value": 20},
        {"type": "play", "seat": seat, "card": "Kc"},
        {"type": "play", "seat": 1 - seat, "card": "Ac"},
        {
            "type": "trick",
            "leader": seat,
            "winner": 1 - seat,
            "cards": [{"seat": seat, "card": "Kc"}, {"seat": 1 - seat, "card": "Ac"}],
            "augen": 15,
            "lead": "Kc",
            "follow": "Ac",
        },
    ]
    # The game ends with "genug": the room tells the end itself, with the match standing (LiveTable).
    assert public_events(game.apply("declare")) == [{"type": "declare", "seat": 1 - seat, "suit": None}]


def test_bots_in_worker_processes_play_a_whole_game(tmp_path: Path) -> None:
    """The default executor: bot decisions go to spawned processes as the protocol's view JSON."""
    config = ServerConfig(bot_executor="process", bot_workers=1)
    with TestClient(create_app(data_dir=tmp_path, config=config)) as client:
        table = create(client, opponent="heuristic", seed=2)
        with client.websocket_connect(table["ws_url"]) as ws:
            last, _ = play_game_against_bot(ws, hello(ws, table["token"]))
            ws.send_bytes(b'{"type": "ping"}')  # a binary frame is read like a text frame
            assert ws.receive_json() == {"type": "pong"}
    assert read_game_record(last["game_over"]["record"]).replay().is_over
