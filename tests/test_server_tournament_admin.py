"""Web tournaments' list, cancel, clock and forfeit (issue 24: "The same rules give web tournaments the forfeit
and time limit they lack today, plus a list of tournaments and a cancel for the organiser";
docs/web-tournaments.md).

In-process (``TestClient``): the list names no participant and no code; only the organiser cancels, and a
cancelled tournament's tables are marked so and never decided; a tournament's tables carry its clock; a
participant who never moves has their seat taken over by the clock's bot and forfeits the table, and the round
goes on without them.
"""

from __future__ import annotations

import pytest

pytest.importorskip("fastapi", reason="needs the 'web' extra: pip install -e '.[web]'")

import dataclasses
import json
import threading
import warnings
from collections.abc import Iterator
from typing import Any

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

from bummerl.server.routes.deps import app_parts
from bummerl.server.tournament_rounds import Outcome, forfeit
from test_server_tournaments import FAST, bearer, join, make_app, organise, play_seat, start, state, wait_for


@pytest.fixture()
def client() -> Iterator[TestClient]:
    with TestClient(make_app()) as c:
        yield c


# ------------------------------------------------------------------ the list
def test_the_list_shows_every_tournament_newest_first_without_a_secret(client: TestClient) -> None:
    first, code, boss = organise(client, variant="schnapsen", format="swiss")
    anna = join(client, code, "Anna")
    second, _, _ = organise(client, variant="bauern", format="round-robin", move_seconds=45)
    listed = client.get("/api/tournaments").json()
    assert listed["total"] == 2
    assert [t["id"] for t in listed["tournaments"]] == [second, first]
    one = listed["tournaments"][1]
    assert one["status"] == "open" and one["players"] == 1 and one["title"] == "Schnapsen (weich)"
    assert one["move_seconds"] == 60  # the server's default clock
    assert listed["tournaments"][0]["move_seconds"] == 45
    text = json.dumps(listed)
    for secret in (code, boss, anna, "Anna"):
        assert secret not in text
    # By status, and paged.
    start(client, first, boss, ["random"])
    running = client.get("/api/tournaments?status=running").json()
    assert [t["id"] for t in running["tournaments"]] == [first] and running["total"] == 1
    page = client.get("/api/tournaments?limit=1&offset=1").json()
    assert [t["id"] for t in page["tournaments"]] == [first] and page["total"] == 2


@pytest.mark.parametrize(
    "query", ["status=won", "limit=0", "limit=101", "offset=-1", "status=" + "x" * 17, "limit=NaN"]
)
def test_a_list_query_that_does_not_fit_is_422(client: TestClient, query: str) -> None:
    assert client.get(f"/api/tournaments?{query}").status_code == 422


def test_a_finished_tournament_is_listed_with_its_winner(client: TestClient) -> None:
    tournament_id, _, boss = organise(client, variant="schnapsen", format="knock-out")
    start(client, tournament_id, boss, ["random", "heuristic"])
    wait_for(client, tournament_id, lambda s: s["status"] == "finished")
    listed = client.get("/api/tournaments?status=finished").json()["tournaments"]
    assert listed[0]["id"] == tournament_id and listed[0]["winner"] in ("random", "heuristic")


# ------------------------------------------------------------------ cancel
def test_only_the_organiser_cancels(client: TestClient) -> None:
    tournament_id, code, boss = organise(client)
    anna = join(client, code, "Anna")
    for token in (None, anna, "x" * 40):
        answer = client.post(f"/api/tournaments/{tournament_id}/cancel", headers=bearer(token) if token else {})
        assert (answer.status_code, answer.json()["detail"]["code"]) == (403, "not_organiser")
    assert state(client, tournament_id)["status"] == "open"
    answer = client.post(f"/api/tournaments/{tournament_id}/cancel", headers=bearer(boss))
    assert answer.json() == {"id": tournament_id, "status": "cancelled", "round": 0}
    again = client.post(f"/api/tournaments/{tournament_id}/cancel", headers=bearer(boss))
    assert (again.status_code, again.json()["detail"]["code"]) == (409, "ended")
    # Nobody joins or starts a cancelled tournament.
    late = client.post("/api/tournaments/join", json={"code": code, "name": "Bert"})
    assert late.status_code == 409
    assert client.post(f"/api/tournaments/{tournament_id}/start", json={}, headers=bearer(boss)).status_code == 409
    assert client.post("/api/tournaments/nope/cancel", headers=bearer(boss)).status_code == 404


def test_a_running_tournament_is_cancelled_and_its_tables_stop(client: TestClient) -> None:
    tournament_id, code, boss = organise(client, variant="schnapsen", format="round-robin", unit="bummerl")
    anna, bert = join(client, code, "Anna"), join(client, code, "Bert")
    start(client, tournament_id, boss)
    table = state(client, tournament_id, anna)["your_table"]
    answer = client.post(f"/api/tournaments/{tournament_id}/cancel", headers=bearer(boss))
    assert answer.json()["status"] == "cancelled"
    cancelled = state(client, tournament_id)
    assert cancelled["status"] == "cancelled" and cancelled["winner"] is None
    assert [t["status"] for t in cancelled["rounds"][0]["tables"]] == ["cancelled"]
    # The game in hand may be played out, but it decides nothing and no next round comes.
    errors: list[str] = []
    threads = [
        threading.Thread(target=play_seat, args=(client, table["table_id"], token, seed, errors))
        for seed, token in enumerate((anna, bert))
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    assert errors == []
    service = app_parts(client.app).tournaments
    client.portal.call(service.advance, tournament_id)  # type: ignore[union-attr]
    after = state(client, tournament_id)
    assert after["round"] == 1 and after["rounds"][0]["tables"][0]["status"] == "cancelled"
    assert after["rounds"][0]["tables"][0]["winners"] == []
    # A cancelled tournament no longer counts against its maker's cap of unfinished ones.
    assert client.get("/api/tournaments?status=cancelled").json()["total"] == 1


def test_a_cancelled_tournament_frees_its_makers_place() -> None:
    with TestClient(make_app(settings=dataclasses.replace(FAST, max_per_client=1))) as c:
        first, _, boss = organise(c)
        assert c.post("/api/tournaments", json={"name": "Two"}).status_code == 429
        c.post(f"/api/tournaments/{first}/cancel", headers=bearer(boss))
        assert c.post("/api/tournaments", json={"name": "Two"}).status_code == 201


# ------------------------------------------------------------------ the clock
@pytest.mark.parametrize(
    ("clock", "status"), [(4, 422), (601, 422), ("30", 422), (301, 400), (5, 201), (300, 201), (None, 201)]
)
def test_the_clock_is_bounded(client: TestClient, clock: Any, status: int) -> None:
    answer = client.post("/api/tournaments", json={"name": "Cup", "move_seconds": clock})
    assert answer.status_code == status, answer.text
    if status == 201:
        assert answer.json()["move_seconds"] == clock


def test_the_tables_get_the_tournaments_clock(client: TestClient) -> None:
    tournament_id, code, boss = organise(client, variant="dreier", format="round-robin", move_seconds=20)
    anna = join(client, code, "Anna")
    start(client, tournament_id, boss, ["random"])
    table = state(client, tournament_id, anna)["your_table"]
    assert state(client, tournament_id)["move_seconds"] == 20
    assert client.get(f"/api/tables/{table['table_id']}").json()["move_seconds"] == 20


# ------------------------------------------------------------------ forfeit
def test_forfeit_by_sides() -> None:
    """docs/web-tournaments.md: the participant whose seat the bot took over, and their side, lose the table."""
    assert forfeit([], [0, 1], [0, 1]) is None
    assert forfeit([0, 1], [0, 1], [0, 1]) == Outcome(frozenset(), {0: 0, 1: 0}, frozenset({0, 1}))
    four = forfeit([2], [10, 11, 12, 13], [0, 1, 0, 1])
    assert four is not None and four.winners == {11, 13} and four.forfeited == {12}
    assert Outcome.from_json(four.to_json()) == four
    old = {"winners": [1], "scores": {"0": 0, "1": 3}}  # stored before forfeits existed
    assert Outcome.from_json(old).forfeited == frozenset()


def test_a_participant_who_never_moves_forfeits_and_the_round_goes_on() -> None:
    """Bert never opens his table: the server loads it, his clock runs out (one strike takes a seat over here),
    and Anna wins the table by forfeit; the tournament finishes with her as its winner."""
    with TestClient(make_app(clock_strikes=1, clock_grace_seconds=5.0)) as client:
        tournament_id, code, boss = organise(
            client, variant="schnapsen", format="knock-out", unit="bummerl", move_seconds=5
        )
        anna, _bert = join(client, code, "Anna"), join(client, code, "Bert")
        start(client, tournament_id, boss)
        table = state(client, tournament_id, anna)["your_table"]
        errors: list[str] = []
        # Anna plays her moves as they come (her own clock never runs out); Bert's seat waits for nobody.
        anna_plays = threading.Thread(target=play_seat, args=(client, table["table_id"], anna, 7, errors))
        anna_plays.start()
        final = wait_for(client, tournament_id, lambda s: s["status"] == "finished", timeout=40)
        anna_plays.join(60)
        assert errors == []
        decided = final["rounds"][0]["tables"][0]
        assert decided["status"] == "done" and final["winner"] == 0
        seats = {s["name"]: s for s in decided["seats"]}
        assert seats["Anna"]["winner"] and not seats["Anna"]["forfeited"]
        assert seats["Bert"]["forfeited"] and not seats["Bert"]["winner"]
        assert seats["Bert"]["score"] == 0
