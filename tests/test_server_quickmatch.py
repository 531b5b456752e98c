"""Quick match over the HTTP API (``/api/quickmatch``, ``/api/lobby/counts``; docs/web.md "Quick match").

In-process (``TestClient``): two players who ask for the same variant and preset get seats at one new table,
with their own seat tokens, dealt by the server (no practice table) and with the quick-match clock; a
Bauernschnapsen player gets three bots after the chosen wait; the bounds (a player key, one ticket per player,
caps per client, a wrong variant or preset, the rate) answer 4xx with a code; a ticket expires when nobody polls
it (the service's clock is the test's).
"""

from __future__ import annotations

import pytest

pytest.importorskip("fastapi", reason="needs the 'web' extra: pip install -e '.[web]'")

import dataclasses
import time
import warnings
from collections.abc import Iterator
from typing import Any

from fastapi import FastAPI

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

from bummerl.server.app import create_app
from bummerl.server.config import QuickMatchSettings, ServerConfig
from bummerl.server.quickmatch import QuickMatchService
from bummerl.server.routes.deps import app_parts

CONFIG = ServerConfig(bot_executor="thread", create_rate="1000/minute", join_rate="1000/minute", api_rate="1000/second")


class Clock:
    def __init__(self) -> None:
        self.now = 5000.0

    def __call__(self) -> float:
        return self.now


def make_app(**changes: Any) -> FastAPI:
    settings = changes.pop("quickmatch", QuickMatchSettings())
    return create_app("sqlite://", config=dataclasses.replace(CONFIG, quickmatch=settings, **changes))


@pytest.fixture()
def client() -> Iterator[TestClient]:
    with TestClient(make_app()) as c:
        yield c


def service(client: TestClient) -> QuickMatchService:
    found: QuickMatchService = client.app.state.quickmatch  # type: ignore[attr-defined]
    return found


def fake_clock(client: TestClient) -> Clock:
    """The service's time, moved by the test."""
    clock = Clock()
    quick = service(client)
    quick.clock = quick.matchmaker.clock = clock
    return clock


def player(client: TestClient, name: str) -> dict[str, str]:
    made = client.post("/api/players", json={"name": name})
    assert made.status_code == 201, made.text
    return {"Authorization": f"Bearer {made.json()['key']}"}


def ask(client: TestClient, who: dict[str, str], variant: str = "schnapsen", **body: Any) -> Any:
    return client.post("/api/quickmatch", json={"variant": variant, **body}, headers=who)


def test_the_choices(client: TestClient) -> None:
    data = client.get("/api/quickmatch").json()
    assert [v["variant"] for v in data["variants"]] == [
        "schnapsen",
        "schnapsen-scharf",
        "sechsundsechzig",
        "schnorps",
        "dreierschnapsen",
        "bauernschnapsen",
    ]
    assert data["move_seconds"] == 30
    assert None in data["bot_waits"] and 0 in data["bot_waits"]
    assert all(w is None or w <= data["max_bot_wait"] for w in data["bot_waits"])


def test_two_players_sit_at_one_table(client: TestClient) -> None:
    anna, bert = player(client, "Anna"), player(client, "Bert")
    first = ask(client, anna, name="Anna")
    assert first.status_code == 201, first.text
    ticket = first.json()
    assert ticket["state"] == "waiting" and ticket["table"] is None
    assert client.get(f"/api/quickmatch/{ticket['ticket']}").json()["state"] == "waiting"
    second = ask(client, bert, name="Bert").json()
    assert second["state"] == "seated"  # seated at once: Anna was waiting
    first_seat = client.get(f"/api/quickmatch/{ticket['ticket']}").json()["table"]
    second_seat = second["table"]
    assert first_seat["table_id"] == second_seat["table_id"]
    assert {first_seat["seat"], second_seat["seat"]} == {0, 1}
    assert first_seat["token"] != second_seat["token"]
    assert first_seat["move_seconds"] == 30
    summary = client.get(f"/api/tables/{first_seat['table_id']}").json()
    assert summary["practice"] is False  # the server dealt: nobody chose a seed
    assert sorted(p["name"] for p in summary["players"]) == ["Anna", "Bert"]
    assert all(p["kind"] == "human" and p["joined"] for p in summary["players"])
    assert summary["status"] == "playing"
    stored = app_parts(client.app).repo.load_table(first_seat["table_id"])
    assert stored.move_seconds == 30 and stored.deal_key is not None and not stored.practice
    # Each token takes its own seat at the table's socket.
    for seat in (first_seat, second_seat):
        with client.websocket_connect(seat["ws_url"]) as ws:
            ws.send_json({"type": "hello", "token": seat["token"]})
            welcome = ws.receive_json()
            assert welcome["type"] == "welcome" and welcome["seat"] == seat["seat"]


def test_each_seat_is_recorded_for_its_player(client: TestClient) -> None:
    anna, bert = player(client, "Anna"), player(client, "Bert")
    ask(client, anna)
    seat = ask(client, bert).json()["table"]
    again = client.post(
        "/api/players/me/seats", json={"table_id": seat["table_id"], "token": seat["token"]}, headers=bert
    ).json()
    assert again["reason"] == "already"  # the server recorded it when it seated Bert


def test_the_name_defaults_to_the_players(client: TestClient) -> None:
    anna, bert = player(client, "Anna"), player(client, "Bert")
    ask(client, anna)
    table_id = ask(client, bert).json()["table"]["table_id"]
    names = sorted(p["name"] for p in client.get(f"/api/tables/{table_id}").json()["players"])
    assert names == ["Anna", "Bert"]


def test_bauernschnapsen_alone_gets_bots_after_the_wait(client: TestClient) -> None:
    clock = fake_clock(client)
    anna = player(client, "Anna")
    ticket = ask(client, anna, "bauernschnapsen", bots_after=10).json()
    clock.now += 9.5
    assert client.get(f"/api/quickmatch/{ticket['ticket']}").json()["state"] == "waiting"
    clock.now += 0.5
    seated = client.get(f"/api/quickmatch/{ticket['ticket']}").json()
    assert seated["state"] == "seated" and seated["waited"] == 10.0
    summary = client.get(f"/api/tables/{seated['table']['table_id']}").json()
    assert [p["kind"] for p in summary["players"]] == ["human", "bot", "bot", "bot"]
    assert summary["status"] == "playing" and summary["variant"] == "bauernschnapsen"


def test_two_wait_for_bauernschnapsen_and_sit_together_with_two_bots(client: TestClient) -> None:
    clock = fake_clock(client)
    anna, bert = player(client, "Anna"), player(client, "Bert")
    first = ask(client, anna, "bauernschnapsen", preset="short", bots_after=30).json()
    for _ in range(2):
        clock.now += 10
        assert client.get(f"/api/quickmatch/{first['ticket']}").json()["state"] == "waiting"  # Anna's page polls
    second = ask(client, bert, "bauernschnapsen", preset="short", bots_after=30).json()
    clock.now += 10
    a = client.get(f"/api/quickmatch/{first['ticket']}").json()["table"]
    b = client.get(f"/api/quickmatch/{second['ticket']}").json()["table"]
    assert a["table_id"] == b["table_id"]
    summary = client.get(f"/api/tables/{a['table_id']}").json()
    assert sorted(p["kind"] for p in summary["players"]) == ["bot", "bot", "human", "human"]
    assert summary["options"] == {"match_target": 12}


@pytest.mark.parametrize(
    ("body", "code"),
    [
        ({"variant": "skat"}, "bad_variant"),
        ({"variant": "schnapsen", "preset": "short"}, "bad_preset"),
        ({"variant": "schnapsen", "bots_after": 10}, "bad_wait"),
        ({"variant": "bauernschnapsen", "bots_after": 500}, "bad_wait"),
    ],
)
def test_a_request_that_does_not_fit_is_422(client: TestClient, body: dict[str, Any], code: str) -> None:
    answer = client.post("/api/quickmatch", json=body, headers=player(client, "Anna"))
    assert answer.status_code == 422, answer.text
    assert answer.json()["detail"]["code"] == code


@pytest.mark.parametrize(
    "body",
    [
        {"variant": "schnapsen", "bots_after": -1},
        {"variant": "schnapsen", "bots_after": "10"},
        {"variant": "x" * 65},
        {"variant": "schnapsen", "seed": 7},
        {"variant": "schnapsen", "opponent": "p-123"},
        {"variant": "schnapsen", "name": "\u202e"},
    ],
)
def test_a_body_outside_the_schema_is_422(client: TestClient, body: dict[str, Any]) -> None:
    """Nobody names a seed, an opponent or a seat: the body has no room for them."""
    answer = client.post("/api/quickmatch", json=body, headers=player(client, "Anna"))
    assert answer.status_code == 422, answer.text


def test_a_player_key_is_needed(client: TestClient) -> None:
    answer = client.post("/api/quickmatch", json={"variant": "schnapsen"})
    assert (answer.status_code, answer.json()["detail"]["code"]) == (401, "no_player")
    answer = client.post("/api/quickmatch", json={"variant": "schnapsen"}, headers={"Authorization": "Bearer nope"})
    assert (answer.status_code, answer.json()["detail"]["code"]) == (401, "no_player")


def test_one_ticket_per_player(client: TestClient) -> None:
    anna = player(client, "Anna")
    assert ask(client, anna).status_code == 201
    again = ask(client, anna, "sechsundsechzig")
    assert (again.status_code, again.json()["detail"]["code"]) == (409, "already_waiting")


def test_cancel(client: TestClient) -> None:
    anna, bert = player(client, "Anna"), player(client, "Bert")
    ticket = ask(client, anna).json()["ticket"]
    gone = client.delete(f"/api/quickmatch/{ticket}")
    assert gone.json() == {"ticket": ticket, "state": "cancelled"}
    assert client.get(f"/api/quickmatch/{ticket}").status_code == 404
    assert ask(client, bert).json()["state"] == "waiting"  # Anna left: Bert waits
    assert client.delete(f"/api/quickmatch/{ticket}").status_code == 404
    assert ask(client, anna).json()["state"] == "seated"  # and Anna may come back


def test_a_seated_ticket_is_not_cancelled(client: TestClient) -> None:
    anna, bert = player(client, "Anna"), player(client, "Bert")
    ticket = ask(client, anna).json()["ticket"]
    ask(client, bert)
    answer = client.delete(f"/api/quickmatch/{ticket}")
    assert (answer.status_code, answer.json()["detail"]["code"]) == (409, "seated")


def test_a_ticket_nobody_polls_expires(client: TestClient) -> None:
    clock = fake_clock(client)
    anna, bert = player(client, "Anna"), player(client, "Bert")
    ticket = ask(client, anna).json()["ticket"]
    clock.now += 14
    assert client.get(f"/api/quickmatch/{ticket}").status_code == 200  # polled: lives on
    clock.now += 15.5
    answer = client.get(f"/api/quickmatch/{ticket}")
    assert (answer.status_code, answer.json()["detail"]["code"]) == (404, "unknown_ticket")
    assert ask(client, bert).json()["state"] == "waiting"  # nobody is seated with a closed tab


@pytest.mark.parametrize("ticket", ["x", "a" * 65, "a%20b" * 8, "a" * 32])
def test_an_unknown_or_malformed_ticket_is_404(client: TestClient, ticket: str) -> None:
    for method in ("GET", "DELETE"):
        answer = client.request(method, f"/api/quickmatch/{ticket}")
        assert (answer.status_code, answer.json()["detail"]["code"]) == (404, "unknown_ticket")


def test_the_cap_per_client_and_the_queue(client: TestClient) -> None:
    with TestClient(make_app(quickmatch=QuickMatchSettings(max_per_client=2, max_waiting=1000))) as c:
        keys = [player(c, f"P{i}") for i in range(3)]
        assert ask(c, keys[0], "schnapsen").status_code == 201
        assert ask(c, keys[1], "sechsundsechzig").status_code == 201
        over = ask(c, keys[2], "schnorps")
        assert (over.status_code, over.json()["detail"]["code"]) == (429, "too_many_tickets")
        assert "Retry-After" in over.headers
    with TestClient(make_app(quickmatch=QuickMatchSettings(max_waiting=1))) as c:
        keys = [player(c, f"P{i}") for i in range(2)]
        assert ask(c, keys[0], "schnapsen").status_code == 201
        full = ask(c, keys[1], "sechsundsechzig")
        assert (full.status_code, full.json()["detail"]["code"]) == (503, "queue_full")


def test_asking_counts_against_the_join_rate() -> None:
    with TestClient(make_app(join_rate="2/minute")) as c:
        keys = [player(c, f"P{i}") for i in range(3)]
        assert ask(c, keys[0], "schnapsen").status_code == 201
        assert ask(c, keys[1], "sechsundsechzig").status_code == 201
        limited = ask(c, keys[2], "schnorps")
        assert (limited.status_code, limited.json()["detail"]["code"]) == (429, "rate_limited")


def test_the_lobby_counts(client: TestClient) -> None:
    clock = fake_clock(client)
    empty = client.get("/api/lobby/counts").json()
    assert empty == {"playing": 0, "tables": 0, "waiting": 0, "queues": []}
    anna, bert, cleo = player(client, "Anna"), player(client, "Bert"), player(client, "Cleo")
    ask(client, anna, "bauernschnapsen")
    assert client.get("/api/lobby/counts").json()["waiting"] == 0  # counted again only after 2 s
    clock.now += 2
    counts = client.get("/api/lobby/counts").json()
    assert counts["waiting"] == 1
    assert counts["queues"] == [
        {"variant": "bauernschnapsen", "preset": "standard", "seats": 4, "waiting": 1, "longest": 2.0}
    ]
    assert "Anna" not in str(counts)
    ask(client, bert)
    seat = ask(client, cleo).json()["table"]
    with client.websocket_connect(seat["ws_url"]) as ws:
        ws.send_json({"type": "hello", "token": seat["token"]})
        ws.receive_json()
        clock.now += 2
        counts = client.get("/api/lobby/counts").json()
        assert (counts["playing"], counts["tables"], counts["waiting"]) == (1, 1, 1)


def test_a_full_server_leaves_them_waiting(client: TestClient) -> None:
    """A table that cannot be made now (every table of the server in play) seats nobody; they wait on."""
    with TestClient(make_app(max_live_tables=0)) as c:
        anna, bert = player(c, "Anna"), player(c, "Bert")
        first = ask(c, anna).json()
        second = ask(c, bert)
        assert second.status_code == 201 and second.json()["state"] == "waiting"
        assert c.get(f"/api/quickmatch/{first['ticket']}").json()["state"] == "waiting"


def test_who_came_first_does_not_choose_the_seat(client: TestClient) -> None:
    """The seats are drawn by the server: over 16 matches the first to come sat at both seats (a fixed order would
    give a client that times its request the seat it wants: the dealer's or the leader's)."""
    first_seats = set()
    for i in range(16):
        early, late = player(client, f"E{i}"), player(client, f"L{i}")
        ticket = ask(client, early).json()["ticket"]
        ask(client, late)
        first_seats.add(client.get(f"/api/quickmatch/{ticket}").json()["table"]["seat"])
        if first_seats == {0, 1}:
            break
    assert first_seats == {0, 1}  # the chance of one seat 16 times running is 2 in 65,536


def test_a_player_who_does_not_come_to_the_table_waits_before_asking_again() -> None:
    """Anna opens her table at once, Bert never does: after ``no_show_seconds`` Bert is a no-show and is refused
    (``429 no_show``) for ``bar_seconds``; Anna may ask again at once."""
    with TestClient(make_app(quickmatch=QuickMatchSettings(no_show_seconds=1.0))) as c:
        anna, bert = player(c, "Anna"), player(c, "Bert")
        first = ask(c, anna).json()["ticket"]
        ask(c, bert)
        seat = c.get(f"/api/quickmatch/{first}").json()["table"]
        with c.websocket_connect(seat["ws_url"]) as ws:
            ws.send_json({"type": "hello", "token": seat["token"]})
            assert ws.receive_json()["type"] == "welcome"
            deadline = time.monotonic() + 10
            while True:
                answer = ask(c, bert, "sechsundsechzig")
                if answer.status_code == 429:
                    break
                assert answer.status_code == 201 and time.monotonic() < deadline, answer.text
                c.delete(f"/api/quickmatch/{answer.json()['ticket']}")
                time.sleep(0.2)
            assert answer.json()["detail"]["code"] == "no_show" and "Retry-After" in answer.headers
            assert ask(c, anna, "sechsundsechzig").status_code == 201


def at(client: TestClient, address: str) -> None:
    """Send the test client's next requests from ``address`` (a client key of its own)."""
    client._transport.client = (address, 50000)


def test_each_ticket_counts_against_the_create_rate_of_its_address_and_of_its_player() -> None:
    """docs/security.md (Quick match): every ticket may make a table, so asking counts as making one does, per
    address and per player: a flood of tickets from many keys, or one key from many addresses, makes tables no
    faster than ``POST /api/tables`` could."""
    with TestClient(make_app(create_rate="2/minute")) as c:
        keys = []
        for i in range(4):
            at(c, f"198.51.100.{i + 1}")  # each player made elsewhere: their own address's create rate
            keys.append(player(c, f"P{i}"))
        at(c, "203.0.113.1")
        assert ask(c, keys[0], "schnapsen").status_code == 201
        assert ask(c, keys[1], "sechsundsechzig").status_code == 201
        limited = ask(c, keys[2], "schnorps")
        assert (limited.status_code, limited.json()["detail"]["code"]) == (429, "rate_limited")
        assert "create" in limited.json()["detail"]["message"] and limited.headers["Retry-After"]
        # One player from fresh addresses: its own create rate holds.
        for n, address in enumerate(("203.0.113.2", "203.0.113.3", "203.0.113.4")):
            at(c, address)
            asked = ask(c, keys[3], "dreierschnapsen")
            if n < 2:
                assert asked.status_code == 201, asked.text
                assert c.delete(f"/api/quickmatch/{asked.json()['ticket']}").status_code == 200
            else:
                assert (asked.status_code, asked.json()["detail"]["code"]) == (429, "rate_limited")


def test_a_quick_match_table_counts_for_every_person_seated_at_it_by_address_and_by_player() -> None:
    """docs/security.md (Quick match): the table made for a group counts against ``max_tables_per_client`` for each
    person's address and player key, as a table they made would: at the cap, no new ticket and no new table."""
    with TestClient(make_app(max_tables_per_client=1)) as c:
        at(c, "198.51.100.1")
        anna = player(c, "Anna")
        ask(c, anna)
        at(c, "198.51.100.2")
        bert = player(c, "Bert")
        assert ask(c, bert).json()["state"] == "seated"
        for address, who in (("198.51.100.1", anna), ("198.51.100.2", bert), ("203.0.113.9", anna)):
            at(c, address)
            again = ask(c, who)
            assert (again.status_code, again.json()["detail"]["code"]) == (429, "too_many_tables"), (address, again)
        at(c, "198.51.100.2")
        friend = c.post("/api/tables", json={})
        assert (friend.status_code, friend.json()["detail"]["code"]) == (429, "too_many_tables")
        at(c, "203.0.113.9")  # a fresh address with a fresh player may
        assert ask(c, player(c, "Cleo")).status_code == 201


def test_the_table_says_whether_it_is_rated_in_its_summary_and_its_welcome(client: TestClient) -> None:
    """docs/web.md: a quick-match table is rated, a friend's table is not; the summary and the welcome say which
    (the table page shows its "Rated" badge from the welcome)."""
    ask(client, player(client, "Anna"))
    seat = ask(client, player(client, "Bert")).json()["table"]
    friend = client.post("/api/tables", json={}).json()
    for table_id, ws_url, token, rated in (
        (seat["table_id"], seat["ws_url"], seat["token"], True),
        (friend["table_id"], friend["ws_url"], friend["token"], False),
    ):
        assert client.get(f"/api/tables/{table_id}").json()["rated"] is rated
        with client.websocket_connect(ws_url) as ws:
            ws.send_json({"type": "hello", "token": token})
            welcome = ws.receive_json()
            assert welcome["type"] == "welcome" and welcome["rated"] is rated
