"""Tournaments for humans and bots on the web server (issue 14: "an organiser creates a tournament, players join
by code, pairings and standings update live; bots can fill seats"; docs/web-tournaments.md).

In-process (``TestClient``): a tournament is made, joined by its code and started over the HTTP API; its tables
are played to their end over the tables' WebSocket by the human participants (a random legal action each turn),
or by the server's bots alone; the next round is paired from the stored results, and a new app on the same
database goes on with the tournament.  The tokens: hashed at rest, a participant's token opens only their own
seat, the organiser's actions refuse everybody else, and making and joining are rate-limited per client.
"""

from __future__ import annotations

import pytest

pytest.importorskip("fastapi", reason="needs the 'web' extra: pip install -e '.[web]'")

import dataclasses
import json
import random
import threading
import time
import warnings
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from fastapi import FastAPI
from sqlalchemy import MetaData, select

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

from bummerl.server.app import create_app
from bummerl.server.config import ServerConfig
from bummerl.server.routes.deps import app_parts
from bummerl.server.storage import hash_token
from bummerl.server.tournaments import TournamentSettings
from bummerl.variants import VARIANTS

CONFIG = ServerConfig(bot_executor="thread", create_rate="1000/minute", join_rate="1000/minute", api_rate="1000/second")
#: The service looks at its tournaments every 50 ms instead of every 2 s.
FAST = TournamentSettings(poll_seconds=0.05)
#: An app that looks at its tournaments only once a minute (and at a client's request every 30 s).
SLOW = TournamentSettings(poll_seconds=60)


def make_app(url: str = "sqlite://", settings: TournamentSettings = FAST, **changes: Any) -> FastAPI:
    return create_app(url, config=dataclasses.replace(CONFIG, tournaments=settings, **changes))


@pytest.fixture()
def client() -> Iterator[TestClient]:
    with TestClient(make_app()) as c:
        yield c


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def organise(client: TestClient, **body: Any) -> tuple[str, str, str]:
    """A new tournament: its id, join code and organiser token."""
    answer = client.post("/api/tournaments", json={"name": "Cup", **body})
    assert answer.status_code == 201, answer.text
    made = answer.json()
    return made["id"], made["code"], made["organiser_token"]


def join(client: TestClient, code: str, name: str) -> str:
    answer = client.post("/api/tournaments/join", json={"code": code, "name": name})
    assert answer.status_code == 200, answer.text
    token: str = answer.json()["player_token"]
    return token


def start(client: TestClient, tournament_id: str, organiser: str, bots: list[str] | None = None) -> dict[str, Any]:
    answer = client.post(
        f"/api/tournaments/{tournament_id}/start", json={"bots": bots or []}, headers=bearer(organiser)
    )
    assert answer.status_code == 200, answer.text
    started: dict[str, Any] = answer.json()
    return started


def state(client: TestClient, tournament_id: str, token: str | None = None) -> dict[str, Any]:
    answer = client.get(f"/api/tournaments/{tournament_id}", headers=bearer(token) if token else {})
    assert answer.status_code == 200, answer.text
    found: dict[str, Any] = answer.json()
    return found


def wait_for(
    client: TestClient, tournament_id: str, done: Callable[[dict[str, Any]], bool], timeout: float = 30.0
) -> dict[str, Any]:
    """The tournament's state once ``done`` says so (the service moves it on in the background)."""
    deadline = time.monotonic() + timeout
    while True:
        now = state(client, tournament_id)
        if done(now):
            return now
        assert time.monotonic() < deadline, f"the tournament did not get there: {json.dumps(now)[:2000]}"
        time.sleep(0.05)


def play_seat(client: TestClient, table_id: str, token: str, seed: int, errors: list[str]) -> None:
    """Play one seat over the table's WebSocket (a random legal action each turn) until the game is over."""
    rng = random.Random(seed)
    with client.websocket_connect(f"/ws/tables/{table_id}") as ws:
        ws.send_json({"type": "hello", "token": token})
        welcome = ws.receive_json()
        if welcome.get("role") != "player":
            errors.append(f"not seated: {welcome}")
            return
        while True:
            message = ws.receive_json()
            if message["type"] != "state":
                continue
            if message["status"] == "game_over":
                return
            if message["your_turn"]:
                ws.send_json({"type": "action", "action": rng.choice(message["legal"])})


def play_round(client: TestClient, tournament_id: str, tokens: dict[int, str], round_: int) -> None:
    """Every human of round ``round_`` plays their table to the end of its game, each seat in a thread."""
    errors: list[str] = []
    threads = []
    for player, token in tokens.items():
        mine = state(client, tournament_id, token)["your_table"]
        if mine is None or mine.get("bye") or mine["round"] != round_:
            continue
        assert mine["seat_token"] == token
        seed = player * 100 + round_
        threads.append(threading.Thread(target=play_seat, args=(client, mine["table_id"], token, seed, errors)))
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
        assert not thread.is_alive(), "a seat's game did not end"
    assert errors == []


def decided_points(final: dict[str, Any]) -> int:
    """The points the tables and byes gave out, computed from the rounds (a win 1; a bye 1 except in a round robin)."""
    total = 0
    for rnd in final["rounds"]:
        for table in rnd["tables"]:
            if table["bye"]:
                total += final["format"] != "round-robin"
            else:
                total += len(table["winners"])
    return total


# ------------------------------------------------------------------ making, joining, starting
def test_a_tournament_is_made_with_a_join_code_and_an_organiser_token_kept_as_hashes(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'bummerl.db'}"
    with TestClient(make_app(url)) as client:
        answer = client.post("/api/tournaments", json={"name": "Wirtshaus-Cup", "variant": "66", "format": "swiss"})
        assert answer.status_code == 201
        made = answer.json()
        assert set(made) >= {"id", "code", "invite_url", "organiser_token"}
        assert made["variant"] == "sechsundsechzig"
        assert made["invite_url"] == f"/#/tournaments/join/{made['code']}"
        anna = join(client, made["code"], "Anna")

        public = state(client, made["id"])
        assert public["status"] == "open" and public["players"][0]["name"] == "Anna"
        assert public["you"] == {"organiser": False, "player": None}
        assert made["code"] not in json.dumps(public)  # whoever watches cannot join
        organiser = state(client, made["id"], made["organiser_token"])
        assert organiser["join_code"] == made["code"] and organiser["you"]["organiser"] is True
        assert state(client, made["id"], anna)["you"] == {"organiser": False, "player": 0}

        # At rest: the SHA-256 of each token, never the token.
        repo = app_parts(client.app).repo
        rows = []
        metadata = MetaData()
        metadata.reflect(repo.engine)
        with repo.engine.connect() as db:
            for table in metadata.sorted_tables:
                rows += [str(tuple(row)) for row in db.execute(select(table))]
        stored = "\n".join(rows)
        for token in (made["organiser_token"], anna):
            assert token not in stored and hash_token(token) in stored


@pytest.mark.parametrize(
    ("body", "status", "code"),
    [
        ({"variant": "skat"}, 400, "bad_tournament"),
        ({"options": {"no_such_option": True}}, 400, "bad_tournament"),
        ({"variant": "bauernschnapsen", "format": "knock-out"}, 400, "bad_tournament"),
        ({"format": "round-robin", "rounds": 3}, 400, "bad_tournament"),
        ({"format": "league"}, 422, None),
        ({"unit": "set"}, 422, None),
        ({"max_players": 65}, 422, None),
        ({"max_players": 1}, 422, None),
        ({"rounds": 0}, 422, None),
        ({"name": "Cup\u202e"}, 422, None),
        ({"name": "x" * 41}, 422, None),
    ],
)
def test_a_tournament_that_does_not_fit_is_refused_with_what_is_wrong(
    client: TestClient, body: dict[str, Any], status: int, code: str | None
) -> None:
    answer = client.post("/api/tournaments", json={"name": "Cup", **body})
    assert answer.status_code == status, answer.text
    if code is not None:
        assert answer.json()["detail"]["code"] == code and answer.json()["detail"]["message"]


def test_joining_by_code_refuses_a_bad_code_a_full_tournament_a_taken_name_and_a_started_one(
    client: TestClient,
) -> None:
    tournament_id, code, _ = organise(client, max_players=3)
    answer = client.post("/api/tournaments/join", json={"code": "no-such-code", "name": "Anna"})
    assert answer.status_code == 404 and answer.json()["detail"]["code"] == "unknown_code"
    join(client, code, "Anna")
    answer = client.post("/api/tournaments/join", json={"code": code, "name": "ANNA"})
    assert answer.status_code == 409 and answer.json()["detail"]["code"] == "name_taken"
    join(client, code, "Bert")
    join(client, code, "Cilli")
    answer = client.post("/api/tournaments/join", json={"code": code, "name": "Dora"})
    assert answer.status_code == 409 and answer.json()["detail"]["code"] == "full"

    other_id, other_code, other_organiser = organise(client)
    join(client, other_code, "Anna")
    start(client, other_id, other_organiser, ["random"])
    answer = client.post("/api/tournaments/join", json={"code": other_code, "name": "Late"})
    assert answer.status_code == 409 and answer.json()["detail"]["code"] == "started"
    assert [p["name"] for p in state(client, tournament_id)["players"]] == ["Anna", "Bert", "Cilli"]


def test_only_the_organiser_adds_bots_and_starts_and_only_once(client: TestClient) -> None:
    tournament_id, code, organiser = organise(client, variant="bauernschnapsen", format="round-robin")
    anna = join(client, code, "Anna")
    for headers in ({}, bearer(anna), bearer("x" * 43)):
        answer = client.post(f"/api/tournaments/{tournament_id}/start", json={}, headers=headers)
        assert answer.status_code == 403 and answer.json()["detail"]["code"] == "not_organiser"
        answer = client.post(f"/api/tournaments/{tournament_id}/bots", json={"bot": "random"}, headers=headers)
        assert answer.status_code == 403
    answer = client.post(f"/api/tournaments/{tournament_id}/start", json={}, headers=bearer(organiser))
    assert answer.status_code == 409 and answer.json()["detail"]["code"] == "too_few_players"
    # A bot that does not play the variant, or no bot at all: 400 naming the bots that do.
    for bot in ("hard", "deep-blue"):
        answer = client.post(f"/api/tournaments/{tournament_id}/bots", json={"bot": bot}, headers=bearer(organiser))
        assert answer.status_code == 400 and answer.json()["detail"]["code"] == "bad_bot"
    answer = client.post(f"/api/tournaments/{tournament_id}/bots", json={"bot": "random"}, headers=bearer(organiser))
    assert answer.status_code == 201 and answer.json() == {"player": 1, "name": "random"}
    started = start(client, tournament_id, organiser, ["random"])
    assert started["status"] == "running" and started["players"] == 3 and started["round"] == 1
    assert [p["name"] for p in state(client, tournament_id)["players"]] == ["Anna", "random", "random 2"]
    answer = client.post(f"/api/tournaments/{tournament_id}/start", json={}, headers=bearer(organiser))
    assert answer.status_code == 409 and answer.json()["detail"]["code"] == "started"


def test_bots_are_bounded_per_tournament() -> None:
    with TestClient(make_app(settings=dataclasses.replace(FAST, max_bots=2))) as client:
        tournament_id, _, organiser = organise(client, max_players=4)
        answer = client.post(
            f"/api/tournaments/{tournament_id}/start", json={"bots": ["random"] * 3}, headers=bearer(organiser)
        )
        assert answer.status_code == 409 and answer.json()["detail"]["code"] == "too_many_bots"
        other_id, _, other_organiser = organise(client, max_players=2)
        answer = client.post(
            f"/api/tournaments/{other_id}/start", json={"bots": ["random"] * 3}, headers=bearer(other_organiser)
        )
        assert answer.status_code == 409


def test_odd_requests_are_answered_4xx_never_500(client: TestClient) -> None:
    for path in ("/api/tournaments/" + "x" * 40, "/api/tournaments/%00", "/api/tournaments/no-such-one"):
        assert client.get(path).status_code == 404
    tournament_id, _, _ = organise(client)
    long_header = {"Authorization": "Bearer " + "x" * 600}
    assert client.get(f"/api/tournaments/{tournament_id}", headers=long_header).status_code == 422
    assert client.post(f"/api/tournaments/{tournament_id}/start", content=b"[1, 2").status_code == 422
    assert client.post("/api/tournaments/join", json={"code": "", "name": "A"}).status_code == 422
    bots = {"bots": ["random"] * 100}
    assert client.post(f"/api/tournaments/{tournament_id}/start", json=bots).status_code == 422


# ------------------------------------------------------------------ tournaments played to the end
@pytest.mark.parametrize("variant", [v.name for v in VARIANTS])
def test_every_variant_plays_a_tournament_of_bots_to_its_winner(client: TestClient, variant: str) -> None:
    tournament_id, _, organiser = organise(client, variant=variant, format="round-robin")
    start(client, tournament_id, organiser, ["random", "random", "random"])
    final = wait_for(client, tournament_id, lambda s: s["status"] == "finished")
    seats = final["seats"]
    assert seats == next(v.players for v in VARIANTS if v.name == variant)
    assert final["round"] == final["planned_rounds"] >= 1
    for rnd in final["rounds"]:
        placed = sorted(s["player"] for t in rnd["tables"] for s in t["seats"] if s["player"] is not None)
        assert placed == [0, 1, 2]  # everybody once a round
        for table in rnd["tables"]:
            assert table["status"] == "done"
            if not table["bye"]:
                assert len(table["seats"]) == seats
                # A filled seat is the table's own bot; the table's first finished game is in the history.
                games = client.get(f"/api/games?table={table['table_id']}").json()["games"]
                assert games and all(g["variant"] == variant for g in games)
                kinds = [s["kind"] for s in client.get(f"/api/tables/{table['table_id']}").json()["players"]]
                assert kinds == ["bot"] * seats
    table = final["standings"]
    assert sum(s["points"] for s in table) == decided_points(final)
    assert final["winner"] == table[0]["player"]
    assert [s["rank"] for s in table] == [1, 2, 3]


def test_a_bummerl_table_of_bots_is_dealt_game_after_game_until_the_match_is_won(client: TestClient) -> None:
    tournament_id, _, organiser = organise(client, variant="schnapsen", format="knock-out", unit="bummerl")
    start(client, tournament_id, organiser, ["random", "random", "random"])
    final = wait_for(client, tournament_id, lambda s: s["status"] == "finished")
    # Three bots: the top seed has a bye, then meets the winner of 2 v 3 in the final.
    first, final_round = final["rounds"]
    assert [t["bye"] for t in first["tables"]] == [True, False]
    (decider,) = final_round["tables"]
    assert sorted(s["player"] for s in decider["seats"]) == sorted([0, *first["tables"][1]["winners"]])
    assert final["winner"] == decider["winners"][0] == final["standings"][0]["player"]
    table_id = decider["table_id"]
    games = client.get(f"/api/games?table={table_id}&finished=true").json()["games"]
    # The winner's Bummerl: 7 game points at the least, over the games of the table's first match.
    first_match = [g for g in games if g["match_no"] == 1]
    won = {s: sum(g["result"]["points"] for g in first_match if g["result"]["winner"] == s) for s in (0, 1)}
    winner_seat = next(s["seat"] for s in decider["seats"] if s["player"] == final["winner"])
    assert won[winner_seat] >= 7 > won[1 - winner_seat]
    assert next(s["score"] for s in decider["seats"] if s["seat"] == winner_seat) == won[winner_seat]


def test_humans_play_their_tables_and_round_two_is_paired_from_the_results(client: TestClient) -> None:
    tournament_id, code, organiser = organise(client, variant="schnapsen", format="swiss", rounds=2)
    tokens = {i: join(client, code, name) for i, name in enumerate(["Anna", "Bert", "Cilli", "Dora"])}
    start(client, tournament_id, organiser)
    first = state(client, tournament_id)["rounds"][0]["tables"]
    # Swiss: top half against bottom half by seeding.
    assert [[s["player"] for s in t["seats"]] for t in first] == [[0, 2], [1, 3]]
    assert all(s["kind"] == "human" for t in first for s in t["seats"])

    play_round(client, tournament_id, tokens, 1)
    after = wait_for(client, tournament_id, lambda s: s["round"] == 2)
    winners = [t["winners"] for t in after["rounds"][0]["tables"]]
    assert all(len(w) == 1 for w in winners)
    second = [sorted(s["player"] for s in t["seats"]) for t in after["rounds"][1]["tables"]]
    # The two winners meet, and so do the two losers.
    assert sorted(w[0] for w in winners) in second
    standings = {s["player"]: s for s in after["standings"]}
    for w in winners:
        assert standings[w[0]]["points"] == standings[w[0]]["wins"] == 1

    play_round(client, tournament_id, tokens, 2)
    final = wait_for(client, tournament_id, lambda s: s["status"] == "finished")
    assert sum(s["points"] for s in final["standings"]) == 4 == decided_points(final)
    assert final["winner"] == final["standings"][0]["player"]
    assert final["standings"][0]["points"] == 2  # the winner of the winners' table won twice


def test_a_participant_token_opens_only_that_participants_seat(client: TestClient) -> None:
    tournament_id, code, organiser = organise(client, variant="dreierschnapsen", format="round-robin")
    anna, bert = join(client, code, "Anna"), join(client, code, "Bert")
    start(client, tournament_id, organiser)
    public = state(client, tournament_id)
    (table,) = public["rounds"][0]["tables"]
    # Two humans at a table of three: the third seat is the server's bot.
    assert [(s["player"], s["kind"]) for s in table["seats"]] == [(0, "human"), (1, "human"), (None, "bot")]
    assert public["your_table"] is None and anna not in json.dumps(public) and bert not in json.dumps(public)
    mine = state(client, tournament_id, anna)["your_table"]
    theirs = state(client, tournament_id, bert)["your_table"]
    assert mine["table_id"] == theirs["table_id"] == table["table_id"]
    assert (mine["seat"], mine["seat_token"], theirs["seat"], theirs["seat_token"]) == (0, anna, 1, bert)
    assert bert not in json.dumps(state(client, tournament_id, anna))
    assert anna not in json.dumps(state(client, tournament_id, organiser))
    summary = client.get(f"/api/tables/{table['table_id']}").json()
    assert summary["practice"] is False and [p["name"] for p in summary["players"]][:2] == ["Anna", "Bert"]

    for token, seat in ((anna, 0), (bert, 1), (organiser, None), ("x" * 43, None)):
        with client.websocket_connect(f"/ws/tables/{table['table_id']}") as ws:
            ws.send_json({"type": "hello", "token": token})
            answer = ws.receive_json()
            if seat is None:
                assert answer == {**answer, "type": "error", "code": "bad_token"}
            else:
                assert (answer["type"], answer["seat"], answer["role"]) == ("welcome", seat, "player")


def test_a_new_app_on_the_same_database_goes_on_with_the_tournament(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'bummerl.db'}"
    with TestClient(make_app(url, SLOW)) as client:
        tournament_id, code, organiser = organise(client, variant="schnapsen", format="round-robin")
        tokens = {0: join(client, code, "Anna"), 1: join(client, code, "Bert")}
        start(client, tournament_id, organiser, ["random", "random"])
        assert state(client, tournament_id)["planned_rounds"] == 3
        play_round(client, tournament_id, tokens, 1)
        # This app would look again only in a minute: round 1 is played, round 2 not yet paired.
        assert state(client, tournament_id)["round"] == 1
    # The first app is gone: the new one learns round 1's results from the database and pairs round 2.
    with TestClient(make_app(url)) as client:
        after = wait_for(client, tournament_id, lambda s: s["round"] == 2)
        assert all(t["status"] == "done" for t in after["rounds"][0]["tables"])
        play_round(client, tournament_id, tokens, 2)
        wait_for(client, tournament_id, lambda s: s["round"] == 3)
    with TestClient(make_app(url)) as client:
        play_round(client, tournament_id, tokens, 3)
        final = wait_for(client, tournament_id, lambda s: s["status"] == "finished")
    met = {frozenset(s["player"] for s in t["seats"]) for r in final["rounds"] for t in r["tables"]}
    assert met == {frozenset(pair) for pair in ((0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3))}
    assert sum(s["points"] for s in final["standings"]) == 6 == decided_points(final)


def test_a_table_of_bots_left_half_played_is_played_on_by_the_next_app(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'bummerl.db'}"
    with TestClient(make_app(url, SLOW)) as client:
        tournament_id, _, organiser = organise(client, variant="schnapsen", format="swiss", unit="bummerl", rounds=1)
        start(client, tournament_id, organiser, ["random", "random"])
        # The start made the table and set its bots going; this app deals no second game within a minute.
        (table,) = state(client, tournament_id)["rounds"][0]["tables"]
        assert table["status"] == "playing" and table["winners"] == []
    # Nobody connects to this table: only the service loads it, deals on and learns its result.
    with TestClient(make_app(url)) as client:
        final = wait_for(client, tournament_id, lambda s: s["status"] == "finished")
        (done,) = final["rounds"][0]["tables"]
        assert done["table_id"] == table["table_id"] and done["winners"] == [final["winner"]]


# ------------------------------------------------------------------ rates and caps
def test_making_and_joining_tournaments_is_rate_limited_per_client() -> None:
    app = make_app(create_rate="2/minute", join_rate="2/minute")
    with TestClient(app) as client:
        organise(client)
        organise(client)
        refused = client.post("/api/tournaments", json={"name": "Third"})
        assert refused.status_code == 429 and refused.json()["detail"]["code"] == "rate_limited"
        assert 0 < int(refused.headers["retry-after"]) <= 60
        answers = [client.post("/api/tournaments/join", json={"code": f"guess{i}", "name": "A"}) for i in range(3)]
        assert [a.status_code for a in answers] == [404, 404, 429]


def test_a_client_has_a_few_unfinished_tournaments_at_a_time() -> None:
    with TestClient(make_app(settings=dataclasses.replace(FAST, max_per_client=2))) as client:
        organise(client)
        organise(client)
        refused = client.post("/api/tournaments", json={"name": "Third"})
        assert refused.status_code == 429 and refused.json()["detail"]["code"] == "too_many_tournaments"


def test_a_tournament_table_gives_no_hints_even_against_a_bot(client: TestClient) -> None:
    """Fairness to the other entrants: a human who faces a bot at a tournament's table gets no hint
    (bummerl.server.hints, "A web tournament's table gives no hints at all")."""
    tournament_id, code, organiser = organise(client, variant="schnapsen", format="round-robin")
    anna = join(client, code, "Anna")
    start(client, tournament_id, organiser, bots=["random"])
    mine = state(client, tournament_id, anna)["your_table"]
    with client.websocket_connect(f"/ws/tables/{mine['table_id']}") as ws:
        ws.send_json({"type": "hello", "token": anna})
        assert ws.receive_json()["type"] == "welcome"
        first = ws.receive_json()
        assert first["type"] == "state" and first["hints"]["allowed"] is False
        ws.send_json({"type": "hint"})
        for _ in range(300):
            answer = ws.receive_json()
            if answer["type"] == "hint" or answer.get("about") == "hint":
                break
    assert (answer["type"], answer["code"]) == ("error", "tournament"), answer
    # A table of the lobby against the same bot still gives hints (tests/test_server_hints.py).
