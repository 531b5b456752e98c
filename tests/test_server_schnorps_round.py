"""Web tables of Schnorps for three and four participants (issue 13: "Schnorps for more than two (seed 001,
RULES.md "Matches"): with three or four participants two play and the others wait in turn; the loser pays all.
In the terminal and the web.").

seeds/001: "Wenn mehre am Spiele Theil nehmen, so wird ebenfalls immer nur von zweien gespielt ... Der
Verlierende muß nicht nur an seinen Mitspieler, sondern an alle Theilnehmer zahlen."  RULES.md: "two play at a
time, the deal passes round the circle to the next two, a stand is replayed by the same two, and the loser pays
every participant."

The secrecy scan is the two-player one of tests/test_server_secrecy.py (what a seat or a spectator may know,
computed from the live game alone), applied through the participant's game seat: a participant who waits this
game may know what a spectator knows, nothing more.
"""

from __future__ import annotations

import pytest

pytest.importorskip("fastapi", reason="needs the 'web' extra: pip install -e '.[web]'")

import random
import re
import time
import warnings
from pathlib import Path
from typing import Any

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

from bummerl.actions import ActionKind
from bummerl.cards import Card, Rank, deck
from bummerl.record import GameRecord
from bummerl.server import connections
from bummerl.server.app import create_app
from bummerl.server.config import ServerConfig
from bummerl.server.rooms import Room
from bummerl.server.routes.deps import app_parts
from bummerl.two_player import TwoPlayerGame

CONFIG = ServerConfig(bot_executor="thread", bot_workers=2)
_CARD = re.compile(r"(?<![A-Za-z0-9])([AKQJT987][hdcs])(?![A-Za-z0-9])")


# ------------------------------------------------------------------ the scanner
def allowed_cards(game: TwoPlayerGame, seat: int | None) -> set[Card]:
    """The cards game seat ``seat`` (``None``: a spectator, or a participant who waits) may know now: as
    tests/test_server_secrecy.py computes it from the game alone."""
    if game.is_over:
        return set(deck(game.variant.deck_size))
    allowed = {c for t in game.tricks for c in (t.lead, t.follow)}
    if game.lead is not None:
        allowed.add(game.lead)
    trump_card = TwoPlayerGame.from_deck(game.variant, game.deck, game.dealer).trump_card
    assert trump_card is not None
    allowed.add(trump_card)
    if any(a.kind is ActionKind.EXCHANGE for a in game.actions):
        allowed.add(Card(game.trump, game.variant.exchange_rank))
    for _, suit in game.marriages:
        allowed.update((Card(suit, Rank.KING), Card(suit, Rank.OBER)))
    if seat is not None:
        allowed.update(game.hands[seat])
        if not game.talon and game.closed_by is None:
            allowed.update(deck(game.variant.deck_size))
    return allowed


def cards_named(message: Any) -> set[str]:
    """Every card code in any string of a JSON message (not in the random table id)."""
    if isinstance(message, str):
        return set(_CARD.findall(message))
    if isinstance(message, dict):
        return set().union(*(cards_named(v) for k, v in message.items() if k != "table_id"))
    if isinstance(message, list):
        return set().union(*(cards_named(v) for v in message))
    return set()


class Scanner:
    """The tap: every message checked against what its participant may know in the game on the table."""

    def __init__(self) -> None:
        self.leaks: list[str] = []
        self.waiting_states = 0
        self.playing_states = 0

    def __call__(self, room: Room, seat: int | None, message: dict[str, Any]) -> None:
        assert isinstance(room, Room)
        game = room.game
        g = room.game_seat(seat)
        leaked = cards_named(message) - {c.code for c in allowed_cards(game, g)}
        if leaked:
            self.leaks.append(f"{message.get('type')} to seat {seat} (game seat {g}): {leaked}")
        hidden = cards_named(message.get("events", [])) - {c.code for c in allowed_cards(game, None)}
        if hidden:
            self.leaks.append(f"events to seat {seat}: {hidden}")
        if message.get("type") == "state" and seat is not None:
            if g is None:
                self.waiting_states += 1
                # A participant who waits: a spectator's view, nothing to do, no declare check.
                view = message["view"]
                if view["hand"] or view["opponent_known"] or message["legal"] or message.get("declare_check"):
                    self.leaks.append(f"state to waiting seat {seat}: {view['hand']} {message['legal']}")
                if message["game_seat"] is not None:
                    self.leaks.append(f"waiting seat {seat} told game seat {message['game_seat']}")
            else:
                self.playing_states += 1


# ------------------------------------------------------------------ helpers
def hello(ws: Any, token: str | None) -> dict[str, Any]:
    ws.send_json({"type": "hello", "token": token})
    assert ws.receive_json()["type"] == "welcome"
    state: dict[str, Any] = ws.receive_json()
    return state


def _drain(ws: Any) -> None:
    ws.send_json({"type": "ping"})
    while ws.receive_json() != {"type": "pong"}:
        pass


def live(client: TestClient, table_id: str) -> Room:
    room: Room = app_parts(client.app).manager.tables[table_id]
    return room


def play_to_the_end(ws: Any, state: dict[str, Any], rng: random.Random, limit: int = 60) -> list[dict[str, Any]]:
    """Play seat 0 by random legal tokens until the match is over; the ``state`` of each game's end."""
    ends: list[dict[str, Any]] = []
    while True:
        if state["type"] == "state":
            if state["your_turn"]:
                ws.send_json({"type": "action", "action": rng.choice(state["legal"])})
            elif state["status"] == "game_over" and (not ends or ends[-1]["game_over"] != state["game_over"]):
                ends.append(state)
                if state["match"]["over"] or len(ends) >= limit:
                    return ends
                ws.send_json({"type": "next_game"})
        state = ws.receive_json()


# --------------------------------------------------------------------- tests
def test_the_lobby_offers_two_to_four_participants_for_schnorps_only() -> None:
    """seeds/001: "Wenn mehre am Spiele Theil nehmen" — only Schnorps names more than two."""
    with TestClient(create_app("sqlite://", config=CONFIG)) as client:
        variants = {v["name"]: v for v in client.get("/api/variants").json()}
        assert variants["schnorps"]["participants"] == [2, 3, 4] and variants["schnorps"]["players"] == 2
        assert variants["schnapsen"]["participants"] == [2]
        assert "participants" not in variants["bauernschnapsen"]
        assert list(variants).count("schnorps") == 1


def test_seats_choose_the_number_of_participants_and_bad_counts_are_refused() -> None:
    with TestClient(create_app("sqlite://", config=CONFIG)) as client:
        three = client.post("/api/tables", json={"variant": "schnorps", "seats": ["random", "random"]})
        assert three.status_code == 201 and three.json()["kind"] == "schnorps_round"
        four = client.post("/api/tables", json={"variant": "schnorps", "seats": ["random", "friend", "random"]})
        assert four.status_code == 201 and set(four.json()["join_codes"]) == {"2"}
        summary = client.get(f"/api/tables/{four.json()['table_id']}").json()
        assert summary["seats"] == 4 and summary["status"] == "waiting"
        assert summary["match"]["participants"] == 4 and len(summary["match"]["waiting"]) == 2
        two = client.post("/api/tables", json={"variant": "schnorps", "seats": ["random"]}).json()
        assert two["kind"] == "two_player"
        bad = client.post("/api/tables", json={"variant": "schnapsen", "seats": ["random", "random"]})
        assert bad.status_code == 400 and "2 seats" in bad.json()["detail"]["message"]
        # Five participants: more than a table has.
        assert client.post("/api/tables", json={"variant": "schnorps", "seats": ["random"] * 4}).status_code == 422
        unknown_bot = client.post("/api/tables", json={"variant": "schnorps", "seats": ["random", "nobody"]})
        assert unknown_bot.status_code == 400


def test_a_three_participant_table_of_bots_plays_its_match_to_the_end_and_stores_it() -> None:
    """Two play each game and the dealer waits; the deal passes to the first Vorhand ("Hierauf gibt der, welcher
    zuerst die Vorhand hatte, die Karten den beiden Nächstfolgenden"), a stand is replayed by the same two; the
    loser pays every participant; the match ends after a full round at the target (our choice)."""
    rng = random.Random(13)
    with TestClient(create_app("sqlite://", config=CONFIG)) as client:
        created = client.post(
            "/api/tables",
            json={"variant": "schnorps", "seats": ["random", "heuristic"], "seed": 8, "target": 2, "name": "Anna"},
        ).json()
        with client.websocket_connect(created["ws_url"]) as ws:
            ends = play_to_the_end(ws, hello(ws, created["token"]), rng)
        room = live(client, created["table_id"])
        assert ends[-1]["match"]["over"] and ends[-1]["game_over"]["match_over"]
        balance = [0, 0, 0]
        previous: dict[str, Any] | None = None
        for end in ends:
            m = end["match"]
            r = end["game_over"]["result"]["round"]
            assert m["dealer"] not in m["players"] and m["waiting"] == [m["dealer"]]
            if previous is not None:
                pr = previous["game_over"]["result"]["round"]
                if pr["winner"] is None:  # a stand: the same two again, paid double
                    assert (m["dealer"], m["players"]) == (pr["dealer"], pr["players"]) and r["multiplier"] >= 2
                else:
                    assert m["dealer"] == pr["players"][0]
            if r["winner"] is not None:
                assert r["payments"][r["loser"]] == -2 * r["marken"]
                assert all(r["payments"][p] == r["marken"] for p in range(3) if p != r["loser"])
            balance = [b + d for b, d in zip(balance, r["payments"], strict=True)]
            assert m["balance"] == balance == r["balance"] and sum(balance) == 0
            previous = end
        final = ends[-1]["match"]
        assert max(final["balance"]) >= 2 and final["winners"] == [
            p for p in range(3) if final["balance"][p] == max(final["balance"])
        ]
        assert final["matches_won"] == [1 if p in final["winners"] else 0 for p in range(3)]
        # Stored: every game with its result in the table's seats and a record that replays.
        for _ in range(200):
            games = client.get("/api/games", params={"table": created["table_id"]}).json()["games"]
            if len(games) == len(ends) and all(g["finished"] for g in games):
                break
            time.sleep(0.02)
        assert len(games) == len(ends)
        games.sort(key=lambda g: g["game_no"])
        for g, end in zip(games, ends, strict=True):
            stored = g["result"]
            live_round = end["game_over"]["result"]["round"]
            assert {k: stored[k] for k in live_round} == live_round
            assert g["dealer"] == live_round["dealer"] and g["players"] == ["Anna", "random", "heuristic"]
            record = GameRecord.loads(client.get(f"/api/games/{g['game_id']}/record").text)
            assert record.tags["RoundPlayers"] == ",".join(map(str, live_round["players"]))
            assert record.tags["BalanceAfter"] == ",".join(map(str, live_round["balance"]))
            assert record.replay().result is not None
            assert client.get(f"/api/games/{g['game_id']}/replay").status_code == 200
        assert room.match.is_over and list(room.match.balance) == final["balance"]
        # The Bummerl sheet: one column per participant, each game with its dealer, players and payments.
        sheet = room.sheet()
        assert sheet["sides"] == [[0], [1], [2]] and sheet["totals"]["matches_won"] == final["matches_won"]
        lines = sheet["matches"][0]["games"]
        assert [line["payments"] for line in lines] == [e["game_over"]["result"]["round"]["payments"] for e in ends]
        assert lines[-1]["standing"] == final["balance"] and sheet["matches"][0]["winners"] == final["winners"]


def test_waiting_participants_see_no_hidden_card_and_cannot_act(monkeypatch: pytest.MonkeyPatch) -> None:
    """A participant who waits sees what a spectator sees: no hand, no card known of a hand, no card drawn; and
    may not act ("es wird ... immer nur von zweien gespielt")."""
    monkeypatch.setattr(connections, "MESSAGE_RATE", 10_000.0)
    monkeypatch.setattr(connections, "MESSAGE_BURST", 10_000)
    scanner = Scanner()
    rng = random.Random(4)
    refused = 0
    with TestClient(create_app("sqlite://", config=CONFIG, tap=scanner)) as client:
        created = client.post("/api/tables", json={"variant": "schnorps", "seats": ["friend", "friend", "random"]})
        created_data = created.json()
        tokens = {0: created_data["token"]}
        for seat, code in created_data["join_codes"].items():
            tokens[int(seat)] = client.post("/api/join", json={"code": code, "name": f"F{seat}"}).json()["token"]
        url = created_data["ws_url"]
        room = live(client, created_data["table_id"])
        opened = [client.websocket_connect(url) for _ in tokens]
        socks: dict[int, Any] = {}
        try:
            with client.websocket_connect(url) as spec:
                hello(spec, None)
                for seat, cm in zip(tokens, opened, strict=True):
                    socks[seat] = cm.__enter__()
                    hello(socks[seat], tokens[seat])
                played = 0
                while played < 5:
                    for sock in (spec, *socks.values()):
                        _drain(sock)
                    game = room.game
                    if game.is_over:
                        played += 1
                        socks[0].send_json({"type": "next_game"})
                        continue
                    mover = room.players_now[game.to_move]
                    waiting = [p for p in socks if room.game_seat(p) is None]
                    if waiting and refused < 3 and mover in socks:
                        # A waiting participant's action and hint are refused; nothing changes.  (Only while a
                        # person is to move: the bot's own move could land between the two counts.)
                        before = len(game.actions)
                        socks[waiting[0]].send_json({"type": "action", "action": game.legal_actions()[0].token})
                        socks[waiting[0]].send_json({"type": "hint"})
                        codes: list[str | None] = []
                        while len(codes) < 2:
                            reply = socks[waiting[0]].receive_json()
                            if reply["type"] in ("error", "hint"):
                                codes.append(reply.get("code"))
                        assert codes == ["not_your_turn", "not_your_turn"] and len(game.actions) == before
                        refused += 1
                    if mover in socks:
                        legal = [a.token for a in game.legal_actions()]
                        socks[mover].send_json({"type": "action", "action": rng.choice(legal)})
                    else:
                        time.sleep(0.02)  # the bot thinks
        finally:
            for cm in opened:
                cm.__exit__(None, None, None)
    assert scanner.leaks == []
    assert refused == 3 and scanner.waiting_states > 20 and scanner.playing_states > 20


def test_a_round_goes_on_after_a_restart(tmp_path: Path) -> None:
    """The standing is rebuilt from the stored games: after a restart the same balances, dealer and players."""
    url = f"sqlite:///{tmp_path / 'games.db'}"
    rng = random.Random(2)
    with TestClient(create_app(url, config=CONFIG)) as client:
        created = client.post(
            "/api/tables", json={"variant": "schnorps", "seats": ["random", "random", "random"], "seed": 3}
        ).json()
        with client.websocket_connect(created["ws_url"]) as ws:
            ends = play_to_the_end(ws, hello(ws, created["token"]), rng, limit=3)
            ws.send_json({"type": "next_game"})
            _drain(ws)
        before = live(client, created["table_id"]).match_json()
        assert len(ends) == 3 and before["participants"] == 4
    with TestClient(create_app(url, config=CONFIG)) as client:
        assert client.get(f"/api/tables/{created['table_id']}").json()["match"] == before
        with client.websocket_connect(created["ws_url"]) as ws:
            state = hello(ws, created["token"])
            assert state["kind"] == "schnorps_round" and state["match"]["balance"] == before["balance"]
            more = play_to_the_end(ws, state, rng, limit=1)
        assert more[-1]["match"]["game_no"] >= before["game_no"]


def test_the_scanner_catches_a_players_hand_sent_to_a_waiting_participant() -> None:
    """The check is not vacuous: the view of a game seat, sent to one who waits, names cards they may not know."""
    from bummerl.view_json import view_to_json

    game = TwoPlayerGame.deal("schnorps", seed=6, dealer=1)
    allowed = {c.code for c in allowed_cards(game, None)}
    assert cards_named(view_to_json(game.view(0))) - allowed
