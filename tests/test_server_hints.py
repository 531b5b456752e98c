"""Hints, the learning mode's reviews, the hints agreement and the declare check at a live table (issue 13).

In-process with FastAPI's TestClient; the hints run in the bots' executor (threads here).  What is checked:
the advice comes from the asking seat's view only (two deals that differ only in the opponent's hidden cards get
the same hint, though the full deals' values differ); at a table where two people play, hints are refused until
both agree; a seat asks only at its turn, at most once at a time and a bounded number of times a minute; a review
judges the seat's own decision from the view it had then; ``declare_check`` says whether going out wins, and says
nothing in Schnapsen scharf.
"""

from __future__ import annotations

import pytest

pytest.importorskip("fastapi", reason="needs the 'web' extra: pip install -e '.[web]'")

import threading
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient
from starlette.testclient import WebSocketTestSession

from bummerl.game import Game
from bummerl.rng import SplitMix64
from bummerl.server import hints
from bummerl.server.app import create_app
from bummerl.server.config import ServerConfig
from bummerl.server.hints import HintSettings, advise, declare_check, review
from bummerl.server.routes.deps import app_parts
from bummerl.solver import action_values
from bummerl.table_game import TableGame
from bummerl.variants.bauernschnapsen import Phase
from bummerl.view_json import view_to_json
from helpers import deal_game

CONFIG = ServerConfig(bot_executor="thread", bot_workers=2, analysis_executor="thread", analysis_level="easy")
#: Few worlds and no time cap: quick, and the same view always gets the same values.
QUICK = HintSettings(seconds=None, worlds=6, exhaustive=40, table_worlds=2)


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(create_app(data_dir=tmp_path, config=CONFIG)) as c:
        app_parts(c.app).manager.hints.settings = QUICK
        yield c


def create(client: TestClient, **body: Any) -> dict[str, Any]:
    response = client.post("/api/tables", json=body)
    assert response.status_code == 201, response.text
    data: dict[str, Any] = response.json()
    return data


def hello(ws: WebSocketTestSession, token: str | None) -> dict[str, Any]:
    ws.send_json({"type": "hello", "token": token})
    assert ws.receive_json()["type"] == "welcome"
    state: dict[str, Any] = ws.receive_json()
    return state


def until(ws: WebSocketTestSession, predicate: Any) -> dict[str, Any]:
    for _ in range(300):
        message: dict[str, Any] = ws.receive_json()
        if predicate(message):
            return message
    raise AssertionError("the expected message never came")


def my_turn(ws: WebSocketTestSession, state: dict[str, Any]) -> dict[str, Any]:
    """The first state at which it is this seat's turn (a bot may move first)."""
    return state if state.get("your_turn") else until(ws, lambda m: m["type"] == "state" and m["your_turn"])


def answer(ws: WebSocketTestSession, kind: str) -> dict[str, Any]:
    """The next ``kind`` answer or an error about it (states in between are skipped)."""
    return until(ws, lambda m: m["type"] == kind or (m["type"] == "error" and m.get("about") == kind))


def room_of(client: TestClient, table_id: str) -> Any:
    return app_parts(client.app).manager.tables[table_id]


# ------------------------------------------------------------------ the advice itself
def test_a_hint_values_every_legal_action_best_first(client: TestClient) -> None:
    table = create(client, opponent="random", name="Anna", seed=3)
    with client.websocket_connect(table["ws_url"]) as ws:
        state = my_turn(ws, hello(ws, table["token"]))
        assert state["hints"]["allowed"] is True and state["hints"]["needed"] == []  # bots only: no vote needed
        ws.send_json({"type": "hint"})
        hint = answer(ws, "hint")
    assert hint["type"] == "hint", hint
    assert (hint["game_id"], hint["ply"], hint["seat"]) == (state["hints"]["game_id"], state["hints"]["ply"], 0)
    tokens = [token for token, _ in hint["values"]]
    assert sorted(tokens) == sorted(state["legal"]) and hint["best"] == tokens[0]
    values = [value for _, value in hint["values"]]
    assert values == sorted(values, reverse=True)
    assert hint["method"] in ("search", "exact") and hint["worlds"] >= 1


def _two_deals_that_differ_only_in_the_dealers_hidden_hand() -> tuple[Game, Game]:
    """Seat 0 (Vorhand) holds the same cards and sees the same trump card; the dealer's hand differs."""
    vorhand, trump = "Ah Th Kh Qs Js", "Jd"
    strong = deal_game("schnapsen", vorhand, "Ad Td Kd Qd Ac", trump)
    weak = deal_game("schnapsen", vorhand, "Tc Kc Qc Jc As", trump)
    return strong, weak


def test_the_hint_comes_from_the_seats_view_only(client: TestClient) -> None:
    """Two deals that differ only in the opponent's hidden cards get the same hint, though the full deals'
    values differ: the advice cannot have looked at a hidden card."""
    strong, weak = _two_deals_that_differ_only_in_the_dealers_hidden_hand()
    assert view_to_json(strong.view(0)) == view_to_json(weak.view(0))
    assert dict(action_values(strong)) != dict(action_values(weak))  # an adviser that peeked would tell them apart
    table = create(client, opponent="random", name="Anna", seed=5)
    answers = []
    with client.websocket_connect(table["ws_url"]) as ws:
        my_turn(ws, hello(ws, table["token"]))
        room = room_of(client, table["table_id"])
        for game in (strong, weak):
            room.match._games[-1] = game  # the deal on the table, as if dealt so
            ws.send_json({"type": "hint"})
            answers.append(answer(ws, "hint"))
    assert answers[0]["type"] == "hint", answers[0]
    assert answers[0]["values"] == answers[1]["values"] and answers[0]["best"] == answers[1]["best"]
    assert answers[0]["values"] == advise(view_to_json(strong.view(0)), QUICK)["values"]


def test_advise_in_a_table_game_bidding_and_card_play() -> None:
    table = TableGame.deal("bauernschnapsen", seed=9, dealer=0)
    rng = SplitMix64(4)
    seen: dict[str, tuple[dict[str, Any], set[str]]] = {}
    while not table.is_over and "play" not in seen:
        view = table.view(table.to_move)
        legal = table.legal_actions()
        if len(legal) > 1 and table.phase.value not in seen:
            seen[table.phase.value] = advise(view_to_json(view), QUICK), {a.token for a in legal}
        bids = [a for a in legal if a.token in ("pass", "bid:normal")]
        table.apply(bids[0] if table.phase is Phase.BIDDING and bids else legal[rng.below(len(legal))])
    for phase, method in (("play", "search"), ("bidding", "bidding")):
        advice, legal_tokens = seen[phase]
        assert advice["method"] == method and advice["best"] in legal_tokens
        valued = [token for token, _ in advice["values"]]
        assert set(valued) | set(advice["unvalued"]) == legal_tokens and advice["best"] == valued[0]
    # The cut and the trump call have no estimate: the heuristic's choice, and why.
    cut, _ = seen["cut"]
    assert cut["method"] == "heuristic" and cut["why"] == "phase" and cut["values"] == []


# ------------------------------------------------------------------ the agreement
def test_a_friends_table_refuses_hints_until_both_agree(client: TestClient) -> None:
    table = create(client, opponent="friend", name="Anna")
    friend = client.post("/api/join", json={"code": table["join_code"], "name": "Bert"}).json()
    with client.websocket_connect(table["ws_url"]) as ws0, client.websocket_connect(table["ws_url"]) as ws1:
        states = {0: hello(ws0, table["token"]), 1: hello(ws1, friend["token"])}
        sockets = {0: ws0, 1: ws1}
        mover = states[0]["to_move"]
        ws = sockets[mover]
        assert states[mover]["hints"] == {**states[mover]["hints"], "allowed": False, "needed": [0, 1], "agreed": []}
        ws.send_json({"type": "hint"})
        refused = answer(ws, "hint")
        assert refused["type"] == "error" and refused["code"] == "hints_off"
        assert "Anna" in refused["message"] and "Bert" in refused["message"]
        ws.send_json({"type": "review", "ply": 0})
        assert answer(ws, "review")["code"] == "hints_off"

        ws0.send_json({"type": "hints", "allow": True})  # Anna agrees; Bert not yet
        for w in (ws0, ws1):
            until(w, lambda m: m["type"] == "state" and m["hints"]["agreed"] == [0])
        ws.send_json({"type": "hint"})
        refused = answer(ws, "hint")
        assert refused["code"] == "hints_off" and "Bert" in refused["message"] and "Anna" not in refused["message"]

        ws1.send_json({"type": "hints", "allow": True})
        for w in (ws0, ws1):
            until(w, lambda m: m["type"] == "state" and m["hints"]["allowed"])
        ws.send_json({"type": "hint"})
        assert answer(ws, "hint")["type"] == "hint"
        other = sockets[1 - mover]
        other.send_json({"type": "hint"})
        assert answer(other, "hint")["code"] == "not_your_turn"

        ws0.send_json({"type": "hints", "allow": False})  # a vote against withdraws them for everyone
        until(ws, lambda m: m["type"] == "state" and not m["hints"]["allowed"])
        ws.send_json({"type": "hint"})
        assert answer(ws, "hint")["code"] == "hints_off"


def test_a_spectator_gets_no_hint_and_has_no_vote(client: TestClient) -> None:
    table = create(client, opponent="random", name="Anna", seed=3)
    with client.websocket_connect(table["ws_url"]) as spectator:
        hello(spectator, None)
        spectator.send_json({"type": "hint"})
        assert answer(spectator, "hint")["code"] == "spectator"
        spectator.send_json({"type": "hints", "allow": True})
        assert answer(spectator, "hints")["code"] == "spectator"
        spectator.send_json({"type": "review", "ply": "x"})
        assert until(spectator, lambda m: m["type"] == "error")["code"] == "bad_message"


# ------------------------------------------------------------------ bounds
def test_hints_are_limited_per_seat_and_minute(client: TestClient) -> None:
    app_parts(client.app).manager.hints.settings = HintSettings(seconds=None, worlds=2, per_minute=2)
    table = create(client, opponent="random", name="Anna", seed=3)
    with client.websocket_connect(table["ws_url"]) as ws:
        my_turn(ws, hello(ws, table["token"]))
        for _ in range(2):
            ws.send_json({"type": "hint"})
            assert answer(ws, "hint")["type"] == "hint"
        ws.send_json({"type": "hint"})
        refused = answer(ws, "hint")
    assert refused["code"] == "rate_limited" and "2 hints and reviews a minute" in refused["message"]


def test_one_hint_at_a_time_per_seat_and_a_time_cap(client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    app_parts(client.app).manager.hints.settings = HintSettings(timeout=0.3)
    release = threading.Event()

    def stuck(view: dict[str, Any], settings: HintSettings | None = None) -> dict[str, Any]:
        release.wait(10)
        return advise(view, QUICK)

    monkeypatch.setattr(hints, "advise", stuck)
    table = create(client, opponent="random", name="Anna", seed=3)
    try:
        with client.websocket_connect(table["ws_url"]) as ws:
            my_turn(ws, hello(ws, table["token"]))
            ws.send_json({"type": "hint"})
            ws.send_json({"type": "hint"})
            assert answer(ws, "hint")["code"] == "busy"
            timed_out = answer(ws, "hint")
            assert timed_out["code"] == "hint_timeout"
            # The table goes on meanwhile: a ping is answered while the search still runs.
            ws.send_json({"type": "ping"})
            assert until(ws, lambda m: m["type"] == "pong")
    finally:
        release.set()


class _Searched(Exception):
    """Raised by a stand-in search: the test looks only at the time it was given."""


def _clock(*ticks: float) -> Any:
    times = iter(ticks)
    return lambda: next(times)


def test_the_hint_s_time_cap_covers_the_whole_call(monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 24: the hint took 1.9-2.5 s on the first moves though at most 1.5 s were promised.  The search now
    gets what is left of the cap after the view is read, as its soft cap and its hard deadline (a world begun
    just before the cap ran on past it)."""
    given: list[Any] = []

    class Search:
        def __init__(self, name: str, budget: Any, seed: int) -> None:
            given.append(budget)

        def evaluate(self, view: Any) -> Any:
            raise _Searched

    monkeypatch.setattr(hints, "SearchBot", Search)
    game = Game.deal("schnapsen", seed=0)
    with pytest.raises(_Searched):  # reading the view took 0.4 s of the 1.5
        advise(view_to_json(game.view(game.to_move)), HintSettings(seconds=1.5), clock=_clock(100.0, 100.4))
    assert given[0].seconds == pytest.approx(1.1) and given[0].hard_seconds == pytest.approx(1.1)


def test_a_table_game_s_hint_keeps_the_cap_in_its_bids_too(monkeypatch: pytest.MonkeyPatch) -> None:
    """The table search's own hard deadline is 2.5 s; a hint's is its cap, shared by the bids it estimates."""
    made: list[Any] = []

    class Search:
        def __init__(self, seed: int, worlds: int, seconds: float | None, hard_seconds: float = 2.5) -> None:
            self.worlds, self.seconds, self.hard_seconds = worlds, seconds, hard_seconds
            made.append(self)

        def contract_success(self, view: Any, contract: Any) -> float:
            raise _Searched

    game = Game.deal("bauernschnapsen", seed=1)
    while game.phase is not Phase.BIDDING or sum(a.kind.name == "BID" for a in game.legal_actions()) < 2:
        game.apply(game.legal_actions()[0])
    bids = sum(a.kind.name == "BID" for a in game.legal_actions())
    monkeypatch.setattr(hints, "TableSearchBot", Search)
    with pytest.raises(_Searched):
        advise(view_to_json(game.view(game.to_move)), HintSettings(seconds=1.5), clock=_clock(0.0, 0.5))
    assert made[0].seconds == pytest.approx(1.0 / bids) and made[0].hard_seconds == pytest.approx(1.0 / bids)


# ------------------------------------------------------------------ the learning mode
def test_a_review_judges_the_seats_decision_from_the_view_it_had(client: TestClient) -> None:
    table = create(client, opponent="random", name="Anna", seed=3)
    with client.websocket_connect(table["ws_url"]) as ws:
        state = my_turn(ws, hello(ws, table["token"]))
        at, token = state["hints"], state["legal"][-1]
        ws.send_json({"type": "action", "action": token})
        after = until(ws, lambda m: m["type"] == "state" and m["hints"]["ply"] > at["ply"])
        ws.send_json({"type": "review", "game_id": at["game_id"], "ply": at["ply"]})
        verdict = answer(ws, "review")
        assert verdict["type"] == "review", verdict
        assert (verdict["action"], verdict["ply"], verdict["game_id"]) == (token, at["ply"], at["game_id"])
        assert verdict == {**verdict, **review(state["view"], token, QUICK)}  # the view of that moment, nothing later
        assert verdict["verdict"] in ("best", "good", "mistake", "optimal", "losing")
        assert verdict["mistake"] == (verdict["verdict"] in ("mistake", "losing"))

        # Not one's own decision, not yet played, or of another game: refused, naming why.
        bot_ply = at["ply"] + 1 if after["hints"]["ply"] > at["ply"] + 1 else None
        if bot_ply is not None:
            ws.send_json({"type": "review", "game_id": at["game_id"], "ply": bot_ply})
            assert answer(ws, "review")["code"] == "bad_review"
        ws.send_json({"type": "review", "game_id": at["game_id"], "ply": 500})
        assert answer(ws, "review")["code"] == "bad_review"
        ws.send_json({"type": "review", "game_id": at["game_id"] + 1000, "ply": at["ply"]})
        assert answer(ws, "review")["code"] == "stale"


def test_a_review_after_a_hint_judges_with_the_hints_values(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The learning mode's mark agrees with the hint the player saw (and costs no second search)."""
    table = create(client, opponent="random", name="Anna", seed=3)
    with client.websocket_connect(table["ws_url"]) as ws:
        state = my_turn(ws, hello(ws, table["token"]))
        ws.send_json({"type": "hint"})
        hint = answer(ws, "hint")

        def no_search(*args: Any, **kwargs: Any) -> dict[str, Any]:
            raise AssertionError("searched again")

        monkeypatch.setattr(hints, "advise", no_search)
        worst = hint["values"][-1][0]
        ws.send_json({"type": "action", "action": worst})
        ws.send_json({"type": "review", "game_id": hint["game_id"], "ply": hint["ply"]})
        verdict = answer(ws, "review")
    assert verdict["type"] == "review", verdict
    assert verdict["values"] == hint["values"] and verdict["action"] == worst and state["your_turn"]
    assert verdict["loss"] == pytest.approx(hint["values"][0][1] - hint["values"][-1][1], abs=1e-3)


# ------------------------------------------------------------------ the declare check
def _to_a_declaration(variant: str, seed: int) -> Game:
    """A game played at random until the player to move may go out."""
    rng = SplitMix64(seed)
    game = Game.deal(variant, seed=seed)
    while not game.is_over:
        legal = game.legal_actions()
        if any(a.token.startswith("declare") for a in legal):
            return game
        plays = [a for a in legal if not a.token.startswith("declare")]
        game.apply(plays[rng.below(len(plays))])
    raise AssertionError("nobody could go out")


@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_the_declare_check_says_whether_going_out_wins(seed: int) -> None:
    """seeds/000: "Wer ... 66 erreicht ... kann sich ausmelden"; too few Augen lose the game (RULES.md, Going out):
    the check is the engine's scoring of the declaration, its Augen those of the seat's view."""
    game = _to_a_declaration("schnapsen", seed)
    seat = game.to_move
    check = declare_check(game, seat)
    view = game.view(seat)
    assert set(check) == {a.token for a in game.legal_actions() if a.token.startswith("declare")}
    plain = check["declare"]
    assert plain == {"wins": view.augen[seat] >= 66, "augen": view.augen[seat]}
    assert declare_check(game, 1 - seat) == {}  # only the seat to move may go out


def test_the_declare_check_hides_the_count_in_scharf() -> None:
    """seeds/000 (scharf): "Abgelegte Stiche dürfen nicht mehr angesehen werden": the page learns no count, and
    not whether the count suffices."""
    game = _to_a_declaration("scharf", 2)
    check = declare_check(game, game.to_move)
    assert check and all(c == {"wins": None, "augen": None} for c in check.values())


@pytest.mark.parametrize("seed", [3, 5])
def test_the_declare_check_of_a_table_game(seed: int) -> None:
    """seeds/004: "Das Team will als erstes mindestens 66 Kartenpunkte erreichen"; a wrong "Genug" loses (the engine's
    scoring). The check counts the Augen of the seat's side, a marriage shown with "Genug" included."""
    table = TableGame.deal("bauernschnapsen", seed=seed, dealer=0)
    rng = SplitMix64(8)
    while not any(a.token.startswith("declare") for a in table.legal_actions()):
        legal = table.legal_actions()
        normal = [a for a in legal if a.token in ("pass", "bid:normal")]
        plain = normal if table.phase is Phase.BIDDING and normal else legal
        table.apply(plain[rng.below(len(plain))])
    seat = table.to_move
    for token, check in declare_check(table, seat).items():
        after = table.copy()
        after.apply(token)
        assert after.result is not None
        side = table.view(seat).side[seat]
        assert check == {"wins": seat in after.result.winners, "augen": after.result.augen[side]}
        assert check["wins"] == (check["augen"] >= 66)


def test_the_state_carries_the_declare_check(client: TestClient) -> None:
    table = create(client, opponent="random", name="Anna", seed=4, options={"auto_declare": False})
    rng = SplitMix64(4)
    with client.websocket_connect(table["ws_url"]) as ws:
        state = hello(ws, table["token"])
        for _ in range(300):
            if state["status"] == "game_over":
                ws.send_json({"type": "next_game"})
                state = until(ws, lambda m: m["type"] == "state" and m["status"] == "playing")
            elif not state["your_turn"]:
                assert state["declare_check"] == {}
                state = until(ws, lambda m: m["type"] == "state")
            elif any(t.startswith("declare") for t in state["legal"]):
                break
            else:
                assert state["declare_check"] == {}
                plays = [t for t in state["legal"] if not t.startswith("declare")]
                ws.send_json({"type": "action", "action": plays[rng.below(len(plays))]})
                state = until(ws, lambda m: m["type"] == "state")
        else:
            raise AssertionError("never allowed to go out")
        augen = state["view"]["augen"][0]
        assert state["declare_check"]["declare"] == {"wins": augen >= 66, "augen": augen}
