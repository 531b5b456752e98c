"""Web tables for Bauernschnapsen (4 seats) and Dreierschnapsen (3 seats), in-process (issue 4: "the web tables
of the browser app seat 3 or 4, with bots filling empty seats"; issue 5: every action stored, restart recovery,
spectators, "no message to a client or spectator contains a card that client may not know. Tests prove it by
scanning every message sent").

The secrecy scan computes what a recipient may know from the live :class:`~bummerl.table_game.TableGame` alone,
independently of the view code:

- a seat: its own hand (before the trump call only its first three cards: seeds/004 "ohne daß man die letzten
  beiden Karten angesehen hat"), every card played (tricks are played face up), every card that was shown to
  everybody in this game (the turned trump card, a marriage's King and Ober, a claim, a redeal's Unter), and the
  cards it laid away itself as the Dreierschnapsen soloist (seeds/004: the soloist takes up the talon "ohne sie
  den Gegenspielern zu zeigen");
- a spectator: the same without a hand and without laid-away cards;
- anyone: every card once the game is over (the record is published).

The events of a ``state`` (one log, read by every connection of the table) are held to the spectator's
cards, whoever receives them.
"""

from __future__ import annotations

import pytest

pytest.importorskip("fastapi", reason="needs the 'web' extra: pip install -e '.[web]'")

import dataclasses
import random
import re
import time
import warnings
from pathlib import Path
from typing import Any

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

from bummerl.cards import Card, deck
from bummerl.record import GameRecord
from bummerl.server import connections
from bummerl.server.app import create_app
from bummerl.server.config import ServerConfig
from bummerl.server.families import table_view_to_json
from bummerl.server.rooms import Room, public_events
from bummerl.server.routes.deps import app_parts
from bummerl.table_game import TableGame
from bummerl.variants.bauernschnapsen import Phase

CONFIG = ServerConfig(bot_executor="thread", bot_workers=2)
_CARD = re.compile(r"(?<![A-Za-z0-9])([AKQJT987][hdcs])(?![A-Za-z0-9])")


# ------------------------------------------------------------------ the scanner
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
    """The tap of every table-game message: checks it against what its recipient may know (module docstring)."""

    def __init__(self) -> None:
        self.messages = 0
        self.by_role = {"seat": 0, "spectator": 0}
        self.leaks: list[str] = []
        #: Per live game: every card that was face up for everybody at some moment.
        self.public: dict[int, set[Card]] = {}

    def public_cards(self, table: TableGame) -> set[Card]:
        seen = self.public.setdefault(id(table), set())
        for known in table.known:
            seen.update(known)
        if table.turned_card is not None:
            seen.add(table.turned_card)
        seen.update(c for t in table.tricks for c in t.cards)
        seen.update(c for _, c in table.trick)
        return seen

    def allowed(self, table: TableGame, seat: int | None) -> set[Card]:
        if table.result is not None:
            return set(deck(table.variant.deck_size))
        allowed = set(self.public_cards(table))
        if seat is not None:
            early = table.phase in (Phase.CUT, Phase.TRUMP)
            allowed.update(table.first_three[seat] if early and table.first_three else table.hands[seat])
            if seat == table.declarer:
                allowed.update(table.discarded)
        return allowed

    def __call__(self, live: Room, seat: int | None, message: dict[str, Any]) -> None:
        self.messages += 1
        self.by_role["spectator" if seat is None else "seat"] += 1
        table = live.game
        leaked = cards_named(message) - {c.code for c in self.allowed(table, seat)}
        if leaked:
            self.leaks.append(f"{message.get('type')} to seat {seat} after {len(table.actions)} actions: {leaked}")
        # One log of events for every connection: a spectator's cards only, whoever receives it (a card laid
        # away or the talon taken up is named to nobody, not even to the soloist, who sees them in the view).
        hidden = cards_named(message.get("events", [])) - {c.code for c in self.allowed(table, None)}
        if hidden:
            self.leaks.append(f"events to seat {seat} after {len(table.actions)} actions: {hidden}")


# ------------------------------------------------------------------- helpers
def hello(ws: Any, token: str | None) -> dict[str, Any]:
    ws.send_json({"type": "hello", "token": token})
    welcome = ws.receive_json()
    assert welcome["type"] == "welcome"
    state: dict[str, Any] = ws.receive_json()
    return state


def next_decision(ws: Any, state: dict[str, Any]) -> dict[str, Any]:
    """Read states until it is this seat's turn or the game is over."""
    while not state["your_turn"] and state["status"] != "game_over":
        state = ws.receive_json()
        assert state["type"] == "state", state
    return state


def play_game(ws: Any, state: dict[str, Any], rng: random.Random, events: list[dict[str, Any]]) -> dict[str, Any]:
    """Play the page's seat by random legal tokens from the server's list to the end of the game."""
    events.extend(state["events"])
    while True:
        state = next_decision(ws, state)
        if state["status"] == "game_over":
            return state
        ws.send_json({"type": "action", "action": rng.choice(state["legal"])})
        state = ws.receive_json()
        assert state["type"] == "state", state
        events.extend(state["events"])


def live_table(client: TestClient, table_id: str) -> Room:
    live: Room = app_parts(client.app).manager.tables[table_id]
    return live


# --------------------------------------------------------------------- tests
@pytest.mark.parametrize(("variant", "seats"), [("bauernschnapsen", 4), ("dreierschnapsen", 3)])
def test_a_whole_game_against_bots_is_played_scored_and_stored(variant: str, seats: int) -> None:
    """A whole game: the creator at seat 0, bots in the others; bids, the contract, tricks and the game's end
    arrive as events, the match standing counts the result (seeds/004: the match to 24), and the stored record
    replays to the same result."""
    rng = random.Random(variant)
    with TestClient(create_app("sqlite://", config=CONFIG)) as client:
        # One API for every variant (issue 11): the table game is made at /api/tables, played at /ws/tables/{id}.
        created = client.post(
            "/api/tables", json={"variant": variant, "bots": "heuristic", "name": "Anna", "seed": 21}
        ).json()
        assert created["seat"] == 0 and created["join_codes"] == {} and created["kind"] == "table_game"
        assert created["ws_url"] == f"/ws/tables/{created['table_id']}"
        events: list[dict[str, Any]] = []
        with client.websocket_connect(created["ws_url"]) as ws:
            ws.send_json({"type": "hello", "token": created["token"]})
            welcome = ws.receive_json()
            assert (welcome["type"], welcome["kind"], welcome["seat"]) == ("welcome", "table_game", 0)
            state = ws.receive_json()
            assert state["type"] == "state" and state["kind"] == "table_game"
            assert [p["kind"] for p in state["players"]] == ["human"] + ["bot"] * (seats - 1)
            assert len(state["view"]["hand_sizes"]) == seats
            end = play_game(ws, state, rng, events)
        live = live_table(client, created["table_id"])
        result = end["game_over"]["result"]
        assert result == end["view"]["result"]
        # Events before the page said hello (bots act at once) are in the table's list, the rest reached the page.
        kinds = {e["type"] for e in live.events}
        assert events and {e["type"] for e in events} <= kinds
        assert {"game_start", "game_end"} <= kinds
        if result["reason"] != "redeal":
            assert {"bid", "contract"} <= kinds and end["view"]["contract"] == result["contract"]
            # The trump event names the suit the view shows (Hearts is suit 0: no truthiness slip).
            assert [e["suit"] for e in live.events if e["type"] == "trump"] == [end["view"]["trump"]]
        scored = [0] * (2 if seats == 4 else 3)
        for s in result["winners"]:
            scored[s % 2 if seats == 4 else s] = result["points"]
        assert end["match"]["scores"] == scored
        # The stored record is the game: it replays to the same result.
        record_text = client.get(f"/api/games/{end['game_over']['game_id']}/record").text
        record = GameRecord.loads(record_text)
        assert record.replay().result == live.game.result
        assert [a.token for a in record.actions] == [a.token for a in live.game.actions]
        assert client.get(f"/api/games/{end['game_over']['game_id']}/replay").status_code == 200


@pytest.mark.parametrize("suit", ["h", "d", "c", "s"])
def test_the_trump_event_names_the_called_suit(suit: str) -> None:
    """seeds/004: Vorhand names trump from the first three cards; the event says which (Hearts too)."""
    for seed in range(200):
        table = TableGame.deal("bauernschnapsen", seed=seed, dealer=0)
        table.apply("cut")
        token = f"trump:{suit}"
        if table.can_apply(token):
            events = public_events(table.apply(token))
            assert events == [{"type": "trump", "seat": table.vorhand, "suit": suit, "card": None}]
            return
    raise AssertionError(f"no deal in 200 lets Vorhand call {suit}")


def test_illegal_out_of_turn_and_spectator_actions_are_refused() -> None:
    """A token outside the legal list, a move out of turn and a spectator's move get errors; nothing changes."""
    with TestClient(create_app("sqlite://", config=CONFIG)) as client:
        created = client.post(
            "/api/tables", json={"variant": "bauernschnapsen", "seats": ["friend", "random", "random"]}
        ).json()
        assert set(created["join_codes"]) == {"1"}
        with client.websocket_connect(created["ws_url"]) as ws:
            state = hello(ws, created["token"])
            assert state["status"] == "waiting" and state["legal"] == []
            ws.send_json({"type": "action", "action": "cut"})
            assert ws.receive_json()["code"] == "waiting"
            joined = client.post("/api/join", json={"code": created["join_codes"]["1"], "name": "Bea"}).json()
            assert joined["seat"] == 1 and joined["kind"] == "table_game"
            assert client.post("/api/join", json={"code": created["join_codes"]["1"]}).status_code == 409
            live = live_table(client, created["table_id"])
            with (
                client.websocket_connect(created["ws_url"]) as ws1,
                client.websocket_connect(created["ws_url"]) as spec,
            ):
                hello(ws1, joined["token"])
                spec_state = hello(spec, None)
                assert spec_state["view"]["hand"] == [] and spec_state["legal"] == []
                spec.send_json({"type": "action", "action": "cut"})
                assert spec.receive_json()["code"] == "spectator"
                mover = live.game.to_move
                other = ws if mover == 1 else ws1
                actions_before = len(live.game.actions)
                if mover in (0, 1):
                    other.send_json({"type": "action", "action": "cut"})
                    reply = other.receive_json()
                    while reply["type"] == "state":
                        reply = other.receive_json()
                    assert reply["code"] == "not_your_turn"
                    assert len(live.game.actions) == actions_before


def test_a_table_game_goes_on_after_a_restart(tmp_path: Path) -> None:
    """Issue 5: "running games resume from the database when the server starts again" — for a table game."""
    url = f"sqlite:///{tmp_path / 'games.db'}"
    rng = random.Random(3)
    with TestClient(create_app(url, config=CONFIG)) as client:
        created = client.post("/api/tables", json={"variant": "dreierschnapsen", "bots": "random", "seed": 44}).json()
        with client.websocket_connect(created["ws_url"]) as ws:
            state = next_decision(ws, hello(ws, created["token"]))
            for _ in range(3):
                if state["status"] == "game_over":
                    break
                ws.send_json({"type": "action", "action": rng.choice(state["legal"])})
                state = next_decision(ws, ws.receive_json())
        live = live_table(client, created["table_id"])
        tokens_before = [a.token for a in live.game.actions]
        hand_before = [c.code for c in live.game.view(0).hand]
        phase_before = live.game.phase
    with TestClient(create_app(url, config=CONFIG)) as client:
        # Start-up loads no table (issue 10: it would take as long as the history is long): a request does.
        assert created["table_id"] not in app_parts(client.app).manager.tables
        assert client.get(f"/api/tables/{created['table_id']}").status_code == 200
        live = live_table(client, created["table_id"])
        assert [a.token for a in live.game.actions][: len(tokens_before)] == tokens_before
        with client.websocket_connect(created["ws_url"]) as ws:
            state = hello(ws, created["token"])
            # Only seat 0's own actions change its hand, and it has not acted since: the same cards (unless the
            # trump call since showed the last cards of the deal).
            if phase_before is not Phase.TRUMP:
                assert state["view"]["hand"] == hand_before
            end = play_game(ws, state, rng, [])
        assert end["game_over"]["result"]["reason"]
        games = client.get("/api/games", params={"table": created["table_id"]}).json()["games"]
        assert games and games[0]["finished"]


def _play_table(client: TestClient, variant: str, seats: list[str], seed: int, games: int, rng: random.Random) -> None:
    # Where a friend plays the server alone deals (docs/security.md): the seed is for tables of bots only.
    chosen = {} if "friend" in seats else {"seed": seed}
    created = client.post("/api/tables", json={"variant": variant, "seats": seats, **chosen}).json()
    tokens = {0: created["token"]}
    for seat, code in created["join_codes"].items():
        tokens[int(seat)] = client.post("/api/join", json={"code": code, "name": f"F{seat}"}).json()["token"]
    url = created["ws_url"]
    live = live_table(client, created["table_id"])
    socks: dict[int, Any] = {}
    with client.websocket_connect(url) as spec:
        hello(spec, None)
        opened = [client.websocket_connect(url) for _ in tokens]
        try:
            for seat, cm in zip(tokens, opened, strict=True):
                socks[seat] = cm.__enter__()
                socks[seat].send_json({"type": "hello", "token": tokens[seat]})
            played = 0
            while played < games:
                for sock in (spec, *socks.values()):
                    _drain(sock)
                game = live.game
                if game.result is not None:
                    played += 1
                    socks[0].send_json({"type": "next_game"})
                    continue
                if game.to_move in socks:
                    legal = [a.token for a in game.legal_actions()]
                    socks[game.to_move].send_json({"type": "action", "action": rng.choice(legal)})
                else:
                    time.sleep(0.02)  # a bot thinks
        finally:
            for cm in opened:
                cm.__exit__(None, None, None)


def _drain(ws: Any) -> None:
    ws.send_json({"type": "ping"})
    while ws.receive_json() != {"type": "pong"}:
        pass


@pytest.mark.parametrize(
    ("variant", "seats"),
    [("bauernschnapsen", ["friend", "friend", "random"]), ("dreierschnapsen", ["friend", "heuristic"])],
)
def test_no_table_game_message_names_a_card_its_recipient_may_not_know(
    variant: str, seats: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # This test drains every socket with a ping after every step, far over a client's message rate
    # (docs/security.md: a burst of 30, then 10 a second; tests/test_server_limits.py checks it): raised here.
    monkeypatch.setattr(connections, "MESSAGE_RATE", 10_000.0)
    monkeypatch.setattr(connections, "MESSAGE_BURST", 10_000)
    scanner = Scanner()
    with TestClient(create_app("sqlite://", config=CONFIG, tap=scanner)) as client:
        _play_table(client, variant, seats, seed=7, games=4, rng=random.Random(variant))
    assert scanner.leaks == []
    assert scanner.by_role["seat"] > 100 and scanner.by_role["spectator"] > 20


def test_the_scanner_finds_a_partners_card() -> None:
    """The check is not vacuous: the partner's hand in seat 0's view is caught."""
    table = TableGame.deal("bauernschnapsen", seed=3, dealer=3)
    while table.phase is not Phase.PLAY and table.result is None:
        table.apply(table.legal_actions()[-1] if table.phase is Phase.DOUBLING else table.legal_actions()[0])
    scanner = Scanner()
    allowed = {c.code for c in scanner.allowed(table, 0)}
    assert not cards_named(table_view_to_json(table.view(0))) - allowed
    assert cards_named({"hand": [c.code for c in table.hands[2]]}) - allowed


@pytest.mark.parametrize("variant", ["bauernschnapsen", "dreierschnapsen"])
def test_the_view_json_never_shows_a_hidden_card(variant: str) -> None:
    """The one table-view serialiser over random games: per seat only the own hand, never the partner's, the
    laid-away cards only to the soloist who laid them away (seeds/004 "ohne sie den Gegenspielern zu zeigen")."""
    rng = random.Random(variant)
    scanner = Scanner()
    discards_seen = 0
    for seed in range(60):
        table = TableGame.deal(variant, seed=seed, dealer=seed % (4 if variant == "bauernschnapsen" else 3))
        while table.result is None:
            for seat in range(table.variant.players):
                data = table_view_to_json(table.view(seat))
                leaked = cards_named(data) - {c.code for c in scanner.allowed(table, seat)}
                assert not leaked, (seed, seat, leaked)
                if data["discarded"]:
                    assert seat == table.declarer
                    discards_seen += 1
                spectator = table_view_to_json(table.view(seat), spectator=True)
                assert not cards_named(spectator) - {c.code for c in scanner.allowed(table, None)}
            table.apply(rng.choice(table.legal_actions()))
    if variant == "dreierschnapsen":
        assert discards_seen > 0


def test_a_refused_new_deal_leaves_the_finished_table_game() -> None:
    """docs/web.md `storage`: the table is unchanged when the database refuses the next deal; asked
    again, the deal is the one the match would have dealt anyway."""
    from bummerl.server.storage import StorageError

    with TestClient(create_app("sqlite://", config=CONFIG)) as client:
        created = client.post(
            "/api/tables", json={"variant": "dreierschnapsen", "seats": ["random", "random"], "seed": 3}
        ).json()
        live = live_table(client, created["table_id"])
        with client.websocket_connect(created["ws_url"]) as ws:
            end = play_game(ws, hello(ws, created["token"]), random.Random(3), [])
        assert end["status"] == "game_over"
        repo = app_parts(client.app).repo
        real = repo.start_game
        before = (live.game_id, live.info.game_no, len(live.matches), live.game)

        def refuse(*args: Any, **kwargs: Any) -> int:
            raise StorageError("new deal: OperationalError: disk I/O error")

        repo.start_game = refuse
        with pytest.raises(StorageError):
            client.portal.call(live.deal_next)  # type: ignore[union-attr]
        assert (live.game_id, live.info.game_no, len(live.matches), live.game) == before and live.game_over
        repo.start_game = real
        client.portal.call(live.deal_next)  # type: ignore[union-attr]
        # The next game of the match, or the first of a new one if this game ended the match.
        assert (len(live.matches), live.info.game_no) in ((before[2], before[1] + 1), (before[2] + 1, 0))
        assert live.game_id != before[0] and live.game_over is None
        stored = repo.load_table(created["table_id"]).games
        assert [g.id for g in stored][-1] == live.game_id and len(stored) == 2


# ------------------------------------------------------- one API for every variant (issue 11)
def test_a_finished_table_game_is_in_the_history_with_every_player_its_contract_and_result() -> None:
    """Issue 11: "their finished games appear in history with record": every seat, the contract and the
    result, the record in both formats, and a replay link."""
    with TestClient(create_app("sqlite://", config=CONFIG)) as client:
        created = client.post(
            "/api/tables", json={"variant": "bauernschnapsen", "bots": "random", "name": "Anna", "seed": 5}
        ).json()
        with client.websocket_connect(created["ws_url"]) as ws:
            end = play_game(ws, hello(ws, created["token"]), random.Random(5), [])
        game_id = end["game_over"]["game_id"]
        live_table(client, created["table_id"])  # still in memory: its result is stored in the background
        for _ in range(200):
            history = client.get("/api/games", params={"table": created["table_id"]}).json()
            if history["games"]:
                break
            time.sleep(0.02)
        entry = history["games"][0]
        result = end["game_over"]["result"]
        assert (entry["game_id"], entry["kind"], entry["variant"]) == (game_id, "table_game", "bauernschnapsen")
        assert entry["players"] == ["Anna", "random", "random", "random"]
        assert [(s["seat"], s["kind"], s["bot"]) for s in entry["seats"]] == [(0, "human", None)] + [
            (i, "bot", "random") for i in (1, 2, 3)
        ]
        assert entry["result"] == result and entry["contract"] == result["contract"]
        detail = client.get(f"/api/games/{game_id}").json()
        assert detail["record"] == end["game_over"]["record"] and detail["actions"]
        as_json = client.get(f"/api/games/{game_id}/record", params={"format": "json"})
        assert as_json.headers["content-type"].startswith("application/json")
        assert GameRecord.loads(as_json.text) == GameRecord.loads(detail["record"])
        assert entry["replay"] is True and detail["analysis_url"] == f"/api/games/{game_id}/analysis"


def test_the_invitations_of_a_table_game_are_shown_to_its_seats_until_taken() -> None:
    """``GET /api/tables/{id}/invite`` for every kind: the codes of the seats still kept for friends."""
    with TestClient(create_app("sqlite://", config=CONFIG)) as client:
        created = client.post(
            "/api/tables", json={"variant": "bauernschnapsen", "seats": ["friend", "random", "friend"]}
        )
        table = created.json()
        assert set(table["join_codes"]) == {"1", "3"} and table["join_code"] == table["join_codes"]["1"]
        assert table["invite_urls"]["3"] == f"/#/join/{table['join_codes']['3']}"
        url = f"/api/tables/{table['table_id']}/invite"
        bearer = {"Authorization": f"Bearer {table['token']}"}
        assert client.get(url).status_code == 403
        assert client.get(url, headers=bearer).json()["join_codes"] == table["join_codes"]
        bea = client.post("/api/join", json={"code": table["join_codes"]["3"], "name": "Bea"}).json()
        assert (bea["seat"], bea["kind"], bea["ws_url"]) == (3, "table_game", table["ws_url"])
        assert client.get(url, headers=bearer).json()["join_codes"] == {"1": table["join_codes"]["1"]}
        # Any seat of the table may see them: Bea too.
        assert client.get(url, headers={"Authorization": f"Bearer {bea['token']}"}).status_code == 200
        assert client.get(f"/api/tables/{table['table_id']}").json()["status"] == "waiting"
        client.post("/api/join", json={"code": table["join_codes"]["1"], "name": "Carl"})
        answer = client.get(url, headers=bearer)
        assert answer.status_code == 409 and answer.json()["detail"]["code"] == "seat_taken"
        summary = client.get(f"/api/tables/{table['table_id']}").json()
        assert summary["status"] == "playing" and [p["name"] for p in summary["players"]] == [
            "Player",
            "Carl",
            "random",
            "Bea",
        ]
        bots_only = client.post("/api/tables", json={"variant": "dreierschnapsen", "bots": "random"}).json()
        answer = client.get(
            f"/api/tables/{bots_only['table_id']}/invite", headers={"Authorization": f"Bearer {bots_only['token']}"}
        )
        assert answer.status_code == 409 and answer.json()["detail"]["code"] == "no_invite"


def test_the_list_of_tables_shows_every_kind() -> None:
    """One "tables in play" list: two-player tables and table games with their players and standing."""
    with TestClient(create_app("sqlite://", config=CONFIG)) as client:
        two = client.post("/api/tables", json={"opponent": "random", "name": "Anna"}).json()
        three = client.post("/api/tables", json={"variant": "dreierschnapsen", "bots": "random", "name": "Bea"}).json()
        listed = {t["table_id"]: t for t in client.get("/api/tables").json()}
        assert listed[two["table_id"]]["kind"] == "two_player" and listed[two["table_id"]]["players"][0] == "Anna"
        assert listed[two["table_id"]]["standing"] == [7, 7]
        entry = listed[three["table_id"]]
        assert (entry["kind"], entry["variant"], entry["seats"]) == ("table_game", "dreierschnapsen", 3)
        assert entry["players"] == ["Bea", "random", "random"] and entry["standing"] == [0, 0, 0]


def _analysis(client: TestClient, game_id: int) -> dict[str, Any]:
    """Ask for a game's analysis until it is done (the first request starts it)."""
    deadline = time.monotonic() + 60
    while (answer := client.get(f"/api/games/{game_id}/analysis")).status_code == 202:
        assert answer.json() == {"status": "running"}
        assert time.monotonic() < deadline, "the analysis did not finish"
        time.sleep(0.05)
    data: dict[str, Any] = answer.json()
    assert answer.status_code == 200 and data["status"] == "done", data
    return data


@pytest.mark.parametrize(("variant", "seats", "seed"), [("dreierschnapsen", 3, 4), ("bauernschnapsen", 4, 9)])
def test_a_finished_table_game_has_its_replay_and_analysis(variant: str, seats: int, seed: int) -> None:
    """Issue 11: "their finished games appear in history with record, replay and analysis".  The replay is the
    engine's events step by step with every hand open and the board a spectator saw (bids, contract, Kontra,
    trump, the trick); the analysis is bummerl.analysis's (the table search bot), one entry per seat."""
    analysis_config = dataclasses.replace(CONFIG, analysis_executor="thread", analysis_level="easy")
    with TestClient(create_app("sqlite://", config=analysis_config)) as client:
        created = client.post(
            "/api/tables", json={"variant": variant, "bots": "heuristic", "name": "Anna", "seed": seed}
        ).json()
        with client.websocket_connect(created["ws_url"]) as ws:
            end = play_game(ws, hello(ws, created["token"]), random.Random(seed), [])
        game_id = end["game_over"]["game_id"]
        record = GameRecord.loads(end["game_over"]["record"])
        final = record.replay()
        assert isinstance(final, TableGame)
        for _ in range(200):
            if client.get(f"/api/games/{game_id}").json()["finished"]:
                break
            time.sleep(0.02)

        replay = client.get(f"/api/games/{game_id}/replay").json()
        assert (replay["game_id"], replay["kind"], replay["players"]) == (game_id, "table_game", seats)
        steps = replay["steps"]
        assert len(steps) == len(record.actions) + 1
        assert [s["action"] for s in steps] == [None] + [a.token for a in record.actions]
        # Each step: every hand open, as the engine holds them after that action.
        game = TableGame.from_deck(record.variant, record.deck, record.dealer)
        for step, action in zip(steps[1:], record.actions, strict=True):
            assert step["seat"] == game.to_move
            events = public_events(game.apply(action))
            assert step["events"] == events
            assert step["hands"] == [[c.code for c in h] for h in game.hands] and len(step["hands"]) == seats
        last = steps[-1]
        assert last["phase"] == "over" and last["discarded"] == [c.code for c in final.discarded]
        if final.contract is not None:
            assert last["contract"] == final.contract.name == end["game_over"]["result"]["contract"]
            assert last["declarer"] == final.declarer and last["doubling"] == final.doubling
            assert [b["action"] for b in last["bids"]] == [b["action"] for b in end["view"]["bids"]]
            assert last["play_trump"] == end["view"]["play_trump"] and last["augen"] == end["view"]["augen"]
            assert sum(1 for s in steps for e in s["events"] if e["type"] == "trick") == len(final.tricks)
            # A trick on the table: the cards played so far in it, each with its seat.
            played = next(s for s in steps if s["trick"])
            assert played["trick"] == [{"seat": played["seat"], "card": played["action"].split(":")[-1]}]
        assert "marriage_values" in replay and "variant" not in last and "legal" not in last

        data = _analysis(client, game_id)["analysis"]
        # A table game is judged by its variant's evaluator, not the two-player level "easy".
        assert (data["variant"], data["evaluator"]) == (variant, "search")
        assert [d["action"] for d in data["decisions"]] == [a.token for a in record.actions]
        assert len(data["mistakes"]) == len(data["points_lost"]) == seats
        assert {d["player"] for d in data["decisions"]} <= set(range(seats))
        assert {d["verdict"] for d in data["decisions"]} >= {"not_analysed"}  # the cut has no estimate
        assert app_parts(client.app).repo.analysis(game_id)[0] == "done"
        summary = client.get("/api/games", params={"table": created["table_id"]}).json()["games"][0]
        assert summary["replay"] is True


def test_a_running_table_game_has_no_replay_and_no_analysis() -> None:
    """Secrecy: as at two-player tables, the cards of a game in play are told to nobody through the history."""
    with TestClient(create_app("sqlite://", config=CONFIG)) as client:
        created = client.post(
            "/api/tables", json={"variant": "dreierschnapsen", "seats": ["friend", "heuristic"], "name": "Anna"}
        ).json()
        listed = client.get("/api/games", params={"finished": "false"}).json()["games"]
        game_id = next(g["game_id"] for g in listed if g["table_id"] == created["table_id"])
        assert client.get(f"/api/games/{game_id}").json()["finished"] is False
        for path in ("record", "replay", "analysis"):
            answer = client.get(f"/api/games/{game_id}/{path}")
            assert answer.status_code == 409 and answer.json()["detail"]["code"] == "game_running"
        assert app_parts(client.app).repo.analysis(game_id)[0] is None
