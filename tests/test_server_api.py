"""The HTTP API of the web app (docs/web.md "HTTP API"), in-process."""

from __future__ import annotations

import pytest

pytest.importorskip("fastapi", reason="needs the 'web' extra: pip install -e '.[web]'")

import time
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from starlette.websockets import WebSocketDisconnect

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

from bummerl.bots import bot_names
from bummerl.game import Game
from bummerl.server.app import create_app
from bummerl.server.config import ServerConfig
from bummerl.server.routes.deps import app_parts
from bummerl.server.workers import read_game_record
from bummerl.variants import VARIANTS, find_variant

CONFIG = ServerConfig(bot_executor="thread", bot_workers=2, analysis_executor="thread", analysis_level="easy")


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(create_app(data_dir=tmp_path, config=CONFIG)) as c:
        yield c


def finish_a_game(client: TestClient, **body: Any) -> dict[str, Any]:
    """Create a table against the random bot and play its first game to the end; the last state."""
    table = client.post("/api/tables", json={"opponent": "random", **body}).json()
    with client.websocket_connect(table["ws_url"]) as ws:
        ws.send_json({"type": "hello", "token": table["token"]})
        ws.receive_json()
        state: dict[str, Any] = ws.receive_json()
        while state["status"] != "game_over":
            if state["your_turn"]:
                ws.send_json({"type": "action", "action": state["legal"][-1]})
            state = ws.receive_json()
    return state


def test_variants_list_every_variant_with_its_options(client: TestClient) -> None:
    """One list for all six variants (issue 11): the lobby's one form reads seats, options and bots from it."""
    data = client.get("/api/variants").json()
    assert [v["name"] for v in data] == [v.name for v in VARIANTS] and len(data) == 6
    scharf = next(v for v in data if v["name"] == "schnapsen-scharf")
    assert scharf["show_points"] is False and scharf["deck_size"] == 20
    options = {o["name"]: o for o in data[0]["options"]}
    assert options["auto_declare"]["type"] == "bool" and options["auto_declare"]["default"] is False
    assert options["last_trick_scoring"]["choices"] == ["one", "augen"]
    assert next(v for v in data if v["name"] == "schnorps")["match_kind"] == "marken"
    by_name = {v["name"]: v for v in data}
    assert [(v["players"], v["kind"], v["teams"]) for v in data] == [(2, "two_player", False)] * 4 + [
        (4, "table_game", True),
        (3, "table_game", False),
    ]
    # The bots of each variant come from the one registry; each variant's default bot plays it.
    for v in data:
        variant = find_variant(v["name"])
        assert v["bots"] == bot_names(variant) and v["default_bot"] in v["bots"]
    assert by_name["schnapsen"]["default_bot"] == CONFIG.default_bot and "expert" in by_name["schnapsen"]["bots"]
    assert "expert" not in by_name["dreierschnapsen"]["bots"] and "heuristic" in by_name["dreierschnapsen"]["bots"]
    # A table game's house rules and match length (seeds/004: the match to 24).
    bauern = {o["name"]: o for o in by_name["bauernschnapsen"]["options"]}
    assert bauern["max_doubling"]["choices"] == [0, 1, 2, 3] and by_name["bauernschnapsen"]["target"] == 24


def test_bots_list_the_registry_with_the_default(client: TestClient) -> None:
    data = client.get("/api/bots").json()
    names = [b["name"] for b in data["bots"]]
    assert {"random", "heuristic", "easy", "hard", "expert"} <= set(names)
    assert data["default"] in names


def test_creating_a_table_checks_variant_options_and_opponent(client: TestClient) -> None:
    created = client.post("/api/tables", json={"variant": "weich", "options": {"auto_declare": True}})
    assert created.status_code == 201
    body = created.json()
    assert body["seat"] == 0 and len(body["token"]) >= 40 and body["join_code"] is None
    summary = client.get(f"/api/tables/{body['table_id']}").json()
    assert summary["kind"] == "two_player" and summary["variant"] == "schnapsen"
    assert summary["options"] == {"auto_declare": True}
    assert summary["players"][1]["bot"] == CONFIG.default_bot
    for bad, word in [
        ({"variant": "skat"}, "unknown variant"),
        ({"options": {"colour": True}}, "no option"),
        ({"opponent": "grandmaster"}, "unknown bot"),
        ({"opponent": "search"}, "does not play"),
        ({"seats": ["random", "random"]}, "has 2 seats"),
        ({"opponent": "random", "bots": "random"}, "one of seats, opponent and bots"),
    ]:
        response = client.post("/api/tables", json=bad)
        assert response.status_code == 400 and word in response.json()["detail"]["message"], (bad, response.text)
    assert client.post("/api/tables", json={"name": ""}).status_code == 422
    assert client.post("/api/tables", json={"name": "two\nlines"}).status_code == 422  # a record tag is one line
    assert client.post("/api/tables", json={"seed": -1}).status_code == 422
    assert client.get("/api/tables/nope").status_code == 404


def test_a_table_game_request_is_checked_against_its_variant(client: TestClient) -> None:
    """One request model for every variant: what does not fit a table game is a 400 that says why."""
    for bad, word in [
        ({"variant": "bauernschnapsen", "seats": ["random", "random"]}, "has 4 seats"),
        ({"variant": "dreierschnapsen", "opponent": "random"}, "opponent names the other player"),
        ({"variant": "dreierschnapsen", "target": 12}, "option match_target"),
        ({"variant": "dreierschnapsen", "bots": "expert"}, "does not play Dreierschnapsen"),
        ({"variant": "bauernschnapsen", "seats": ["random", "cmd:evil", "random"]}, "unknown bot"),
        ({"variant": "bauernschnapsen", "options": {"bettler_points": 7, "colour": True}}, "no option"),
    ]:
        response = client.post("/api/tables", json=bad)
        assert response.status_code == 400, (bad, response.text)
        assert response.json()["detail"]["code"] == "bad_table" and word in response.json()["detail"]["message"]
    made = client.post("/api/tables", json={"variant": "dreier", "bots": "random", "options": {"match_target": 12}})
    assert (
        made.status_code == 201 and made.json()["kind"] == "table_game" and made.json()["variant"] == "dreierschnapsen"
    )
    summary = client.get(f"/api/tables/{made.json()['table_id']}").json()
    assert summary["kind"] == "table_game" and summary["seats"] == 3 and summary["match"]["target"] == 12
    assert [p["bot"] for p in summary["players"]] == [None, "random", "random"]


def test_a_friend_is_invited_by_code_and_the_seat_is_taken_once(client: TestClient) -> None:
    table = client.post("/api/tables", json={"opponent": "friend", "name": "Anna"}).json()
    assert table["invite_url"] == f"/#/join/{table['join_code']}"  # the code in the fragment (docs/security.md)
    assert table["join_codes"] == {"1": table["join_code"]} and table["ws_url"] == f"/ws/tables/{table['table_id']}"
    invite = client.get(
        f"/api/tables/{table['table_id']}/invite", headers={"Authorization": f"Bearer {table['token']}"}
    )
    assert invite.json()["join_code"] == table["join_code"]
    assert client.get(f"/api/tables/{table['table_id']}/invite").status_code == 403
    wrong = {"Authorization": "Bearer guess"}
    assert client.get(f"/api/tables/{table['table_id']}/invite", headers=wrong).status_code == 403
    assert client.get(f"/api/tables/{table['table_id']}").json()["status"] == "waiting"
    joined = client.post("/api/join", json={"code": table["join_code"], "name": "Bert"})
    assert joined.status_code == 200 and joined.json()["seat"] == 1 and joined.json()["token"] != table["token"]
    assert joined.json()["kind"] == "two_player"
    again = client.post("/api/join", json={"code": table["join_code"], "name": "Carl"})
    assert again.status_code == 409
    assert client.post("/api/join", json={"code": "no-such-code"}).status_code == 404
    summary = client.get(f"/api/tables/{table['table_id']}").json()
    assert summary["status"] == "playing" and [p["name"] for p in summary["players"]] == ["Anna", "Bert"]
    assert table["table_id"] in [t["table_id"] for t in client.get("/api/tables").json()]


def test_an_unfinished_game_shows_no_card(client: TestClient) -> None:
    table = client.post("/api/tables", json={"opponent": "random"}).json()
    listed = client.get("/api/games", params={"finished": "false"}).json()["games"]
    game_id = next(g["game_id"] for g in listed if g["table_id"] == table["table_id"])
    detail = client.get(f"/api/games/{game_id}").json()
    assert detail["finished"] is False and "record" not in detail and "hands_at_deal" not in detail
    for path in ("record", "replay", "analysis"):
        response = client.get(f"/api/games/{game_id}/{path}")
        assert response.status_code == 409 and response.json()["detail"]["code"] == "game_running"
    assert client.get("/api/games/99999").status_code == 404


def test_a_finished_game_has_its_record_replay_and_history_entry(client: TestClient) -> None:
    last = finish_a_game(client, name="Anna", seed=12)
    game_id = last["game_over"]["game_id"]
    # The result is stored in the background after game_over (ResultStore.store): wait for it.
    deadline = time.monotonic() + 15
    history = client.get("/api/games").json()
    while history["total"] == 0 and time.monotonic() < deadline:
        time.sleep(0.05)
        history = client.get("/api/games").json()
    assert history["total"] == 1 and history["games"][0]["game_id"] == game_id
    assert history["games"][0]["players"][0] == "Anna" and history["games"][0]["finished"] is True
    assert history["games"][0]["kind"] == "two_player" and history["games"][0]["contract"] is None
    assert [s["kind"] for s in history["games"][0]["seats"]] == ["human", "bot"]
    detail = client.get(f"/api/games/{game_id}").json()
    record = read_game_record(detail["record"])
    assert detail["actions"] == [a.token for a in record.actions]
    assert detail["hands_at_deal"] == last["game_over"]["hands_at_deal"]
    text = client.get(f"/api/games/{game_id}/record")
    assert text.headers["content-type"].startswith("text/plain") and text.text == detail["record"]
    as_json = client.get(f"/api/games/{game_id}/record", params={"format": "json"})
    assert read_game_record(as_json.text) == read_game_record(text.text)
    assert client.get(f"/api/games/{game_id}/record", params={"format": "pgn"}).status_code == 400
    steps = client.get(f"/api/games/{game_id}/replay").json()["steps"]
    assert len(steps) == len(record.actions) + 1 and steps[0]["action"] is None
    dealt = Game.from_deck(record.variant, record.deck, record.dealer)
    assert steps[0]["hands"] == [[c.code for c in h] for h in dealt.hands]
    final = record.replay()
    assert steps[-1]["tricks_won"] == list(final.tricks_won)
    assert sum(1 for s in steps for e in s["events"] if e["type"] == "trick") == len(final.tricks)


def test_the_analysis_runs_once_in_a_worker_and_is_cached(client: TestClient) -> None:
    game_id = finish_a_game(client, seed=3)["game_over"]["game_id"]
    first = client.get(f"/api/games/{game_id}/analysis")
    assert first.status_code == 202 and first.json() == {"status": "running"}
    deadline = time.monotonic() + 30
    while (answer := client.get(f"/api/games/{game_id}/analysis")).status_code == 202:
        assert time.monotonic() < deadline, "the analysis did not finish"
        time.sleep(0.05)
    data = answer.json()
    assert data["status"] == "done" and data["analysis"]["evaluator"] == "easy"
    record = read_game_record(client.get(f"/api/games/{game_id}").json()["record"])
    assert [d["action"] for d in data["analysis"]["decisions"]] == [a.token for a in record.actions]
    assert app_parts(client.app).repo.analysis(game_id)[0] == "done"


def test_the_front_end_is_served_at_the_root(tmp_path: Path) -> None:
    static = tmp_path / "static"
    static.mkdir()
    (static / "index.html").write_text("<!doctype html><title>Bummerl</title>", encoding="utf-8")
    config = ServerConfig(bot_executor="thread", static_dir=static)
    with TestClient(create_app(data_dir=tmp_path, config=config)) as client:
        page = client.get("/")
        assert page.status_code == 200 and "<title>Bummerl</title>" in page.text
        assert client.get("/api/variants").status_code == 200  # the API is not shadowed by the mount


def test_the_default_database_is_sqlite_in_the_data_folder(tmp_path: Path) -> None:
    with TestClient(create_app(data_dir=tmp_path / "data", config=ServerConfig(bot_executor="thread"))) as client:
        client.post("/api/tables", json={"opponent": "random"})
    assert (tmp_path / "data" / "bummerl.db").is_file()


def test_a_socket_to_an_unknown_table_is_closed(client: TestClient) -> None:
    with client.websocket_connect("/ws/tables/nope") as ws, pytest.raises(WebSocketDisconnect) as closed:
        ws.receive_json()
    assert closed.value.code == 4404
