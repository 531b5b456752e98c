"""Web tables for Bauernschnapsen (4 seats) and Dreierschnapsen (3 seats), in-process (issue 4: "the web tables
of the browser app seat 3 or 4, with bots filling empty seats"; issue 5: every action stored, restart recovery,
spectators, "no message to a client or spectator contains a card that client may not know. Tests prove it by
scanning every message sent").

The secrecy scan computes what a recipient may know from the live :class:`~bummerl.table.Table` alone,
independently of the view code:

- a seat: its own hand (before the trump call only its first three cards: seeds/004 "ohne daß man die letzten
  beiden Karten angesehen hat"), every card played (tricks are played face up), every card that was shown to
  everybody in this game (the turned trump card, a marriage's King and Ober, a claim, a redeal's Unter), and the
  cards it laid away itself as the Dreierschnapsen soloist (seeds/004: the soloist takes up the talon "ohne sie
  den Gegenspielern zu zeigen");
- a spectator: the same without a hand and without laid-away cards;
- anyone: every card once the game is over (the record is published).
"""

from __future__ import annotations

import pytest

pytest.importorskip("fastapi", reason="needs the 'web' extra: pip install -e '.[web]'")

import random
import re
import warnings
from pathlib import Path
from typing import Any

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

from bummerl.cards import Card, deck
from bummerl.server.app import create_app
from bummerl.server.config import ServerConfig
from bummerl.server.table_games import LiveTableGame
from bummerl.table import Phase, Table, TableAction
from bummerl.table.record import TableGameRecord
from bummerl.table.view_json import action_events, table_view_to_json

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

    def public_cards(self, table: Table) -> set[Card]:
        seen = self.public.setdefault(id(table), set())
        for known in table.known:
            seen.update(known)
        if table.turned_card is not None:
            seen.add(table.turned_card)
        seen.update(c for t in table.tricks for c in t.cards)
        seen.update(c for _, c in table.trick)
        return seen

    def allowed(self, table: Table, seat: int | None) -> set[Card]:
        if table.result is not None:
            return set(deck(table.variant.deck_size))
        allowed = set(self.public_cards(table))
        if seat is not None:
            early = table.phase in (Phase.CUT, Phase.TRUMP)
            allowed.update(table.first_three[seat] if early and table.first_three else table.hands[seat])
            if seat == table.declarer:
                allowed.update(table.discarded)
        return allowed

    def __call__(self, live: LiveTableGame, seat: int | None, message: dict[str, Any]) -> None:
        self.messages += 1
        self.by_role["spectator" if seat is None else "seat"] += 1
        table = live.game
        leaked = cards_named(message) - {c.code for c in self.allowed(table, seat)}
        if leaked:
            self.leaks.append(f"{message.get('type')} to seat {seat} after {len(table.actions)} actions: {leaked}")


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


def live_table(client: TestClient, table_id: str) -> LiveTableGame:
    live: LiveTableGame = client.app.state.manager.tables[table_id]  # type: ignore[attr-defined]
    return live


# --------------------------------------------------------------------- tests
@pytest.mark.parametrize(("variant", "seats"), [("bauernschnapsen", 4), ("dreierschnapsen", 3)])
def test_a_whole_game_against_bots_is_played_scored_and_stored(variant: str, seats: int) -> None:
    """A whole game: the creator at seat 0, bots in the others; bids, the contract, tricks and the game's end
    arrive as events, the match standing counts the result (seeds/004: the match to 24), and the stored record
    replays to the same result."""
    rng = random.Random(variant)
    with TestClient(create_app("sqlite://", config=CONFIG)) as client:
        created = client.post(
            "/api/table-games", json={"variant": variant, "bots": "heuristic", "name": "Anna", "seed": 21}
        ).json()
        assert created["seat"] == 0 and created["join_codes"] == {}
        events: list[dict[str, Any]] = []
        with client.websocket_connect(created["ws_url"]) as ws:
            state = hello(ws, created["token"])
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
        record = TableGameRecord.loads(record_text)
        assert record.replay().result == live.game.result
        assert [a.token for a in record.actions] == [a.token for a in live.game.actions]
        assert client.get(f"/api/games/{end['game_over']['game_id']}/replay").status_code == 409


@pytest.mark.parametrize("suit", ["h", "d", "c", "s"])
def test_the_trump_event_names_the_called_suit(suit: str) -> None:
    """seeds/004: Vorhand names trump from the first three cards; the event says which (Hearts too)."""
    for seed in range(200):
        table = Table.deal("bauernschnapsen", seed=seed, dealer=0)
        table.apply("cut")
        token = f"trump:{suit}"
        if table.can_apply(token):
            table.apply(token)
            events = action_events(table, table.vorhand, TableAction.parse(token), 0, None)
            assert events == [{"type": "trump", "seat": table.vorhand, "suit": suit, "card": None}]
            return
    raise AssertionError(f"no deal in 200 lets Vorhand call {suit}")


def test_illegal_out_of_turn_and_spectator_actions_are_refused() -> None:
    """A token outside the legal list, a move out of turn and a spectator's move get errors; nothing changes."""
    with TestClient(create_app("sqlite://", config=CONFIG)) as client:
        created = client.post(
            "/api/table-games", json={"variant": "bauernschnapsen", "seats": ["friend", "random", "random"]}
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
        created = client.post(
            "/api/table-games", json={"variant": "dreierschnapsen", "bots": "random", "seed": 44}
        ).json()
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
        assert created["table_id"] not in client.app.state.manager.tables  # type: ignore[attr-defined]
        assert client.get(f"/api/table-games/{created['table_id']}").status_code == 200
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
    created = client.post("/api/table-games", json={"variant": variant, "seats": seats, **chosen}).json()
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
def test_no_table_game_message_names_a_card_its_recipient_may_not_know(variant: str, seats: list[str]) -> None:
    scanner = Scanner()
    with TestClient(create_app("sqlite://", config=CONFIG, tap=scanner)) as client:
        _play_table(client, variant, seats, seed=7, games=4, rng=random.Random(variant))
    assert scanner.leaks == []
    assert scanner.by_role["seat"] > 100 and scanner.by_role["spectator"] > 20


def test_the_scanner_finds_a_partners_card() -> None:
    """The check is not vacuous: the partner's hand in seat 0's view is caught."""
    table = Table.deal("bauernschnapsen", seed=3, dealer=3)
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
        table = Table.deal(variant, seed=seed, dealer=seed % (4 if variant == "bauernschnapsen" else 3))
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
            "/api/table-games", json={"variant": "dreierschnapsen", "seats": ["random", "random"], "seed": 3}
        ).json()
        live = live_table(client, created["table_id"])
        with client.websocket_connect(created["ws_url"]) as ws:
            end = play_game(ws, hello(ws, created["token"]), random.Random(3), [])
        assert end["status"] == "game_over"
        repo = client.app.state.repo  # type: ignore[attr-defined]
        real = repo.start_game
        before = (live.game_id, live.game_no, len(live.matches), live.table)

        def refuse(*args: Any, **kwargs: Any) -> int:
            raise StorageError("new deal: OperationalError: disk I/O error")

        repo.start_game = refuse
        with pytest.raises(StorageError):
            client.portal.call(live.deal_next)  # type: ignore[union-attr]
        assert (live.game_id, live.game_no, len(live.matches), live.table) == before and live.game_over
        repo.start_game = real
        client.portal.call(live.deal_next)  # type: ignore[union-attr]
        # The next game of the match, or the first of a new one if this game ended the match.
        assert (len(live.matches), live.game_no) in ((before[2], before[1] + 1), (before[2] + 1, 0))
        assert live.game_id != before[0] and live.game_over is None
        stored = repo.load_table(created["table_id"]).games
        assert [g.id for g in stored][-1] == live.game_id and len(stored) == 2
