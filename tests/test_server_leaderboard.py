"""The leaderboards and the people's ratings at the live server (routes/leaderboard.py, issue 24).

Issue 24's "done when": "A leaderboard page and API per variant; a practice game changes no statistic and no
rating (API test)".  Checked through the API as a client meets it: the bounds of ``GET /api/leaderboard``
(404 for an unknown variant, 422 out of range, never a 500), a quick match between two people whose games move
both their ratings and put them on the board with the asking player's row marked, a game with a bot seat and
a practice game that change no people rating (the practice game no statistic either), and an abandoned game
that counts as lost in the statistics and the rating.
"""

from __future__ import annotations

import pytest

pytest.importorskip("fastapi", reason="needs the 'web' extra: pip install -e '.[web]'")

import dataclasses
import time
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from sqlalchemy import text

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

from bummerl.server import connections, people_ratings
from bummerl.server.app import create_app
from bummerl.server.config import ServerConfig
from bummerl.server.routes.deps import app_parts

CONFIG = ServerConfig(
    bot_executor="thread",
    analysis_executor="thread",
    create_rate="1000/minute",
    join_rate="1000/minute",
    api_rate="1000/second",
)


@pytest.fixture
def client(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Iterator[TestClient]:
    # The games are played by draining every socket with a ping after each move: far over a client's message
    # rate (docs/security.md), raised here as tests/test_server_table_games.py does.
    monkeypatch.setattr(connections, "MESSAGE_RATE", 10_000.0)
    monkeypatch.setattr(connections, "MESSAGE_BURST", 10_000)
    monkeypatch.setattr(people_ratings, "MIN_GAMES", 2)
    # An SQLite file, not ``sqlite://``: the test reads the database while the server's thread writes it, and
    # an in-memory database is one connection that the two would share.
    with TestClient(create_app(data_dir=tmp_path, config=CONFIG)) as c:
        yield c


def new_player(client: TestClient, name: str) -> dict[str, str]:
    key = client.post("/api/players", json={"name": name}).json()["key"]
    return {"Authorization": f"Bearer {key}"}


def stats(client: TestClient, who: dict[str, str]) -> dict[str, Any]:
    found: dict[str, Any] = client.get("/api/players/me/stats", headers=who).json()
    return found


def set_table(client: TestClient, table_id: str, **flags: bool) -> None:
    """Mark a stored table as the server never makes it through the API (the store must hold the line), and the
    live table too: a table's flags never change after it is made, so it reads them once (``Room.data``)."""
    parts = app_parts(client.app)
    with parts.repo.engine.begin() as db:
        for flag, value in flags.items():
            db.execute(text(f"UPDATE bummerl_tables SET {flag} = :v WHERE id = :t"), {"v": value, "t": table_id})
    room = parts.manager.tables.get(table_id)
    if room is not None:
        room.data = dataclasses.replace(room.data, **flags)


def decisions(client: TestClient, table_id: str) -> list[str]:
    with app_parts(client.app).repo.engine.connect() as db:
        rows = db.execute(
            text(
                "SELECT r.decision FROM bummerl_rated_games r JOIN bummerl_games g ON g.id = r.game_id"
                " WHERE g.table_id = :t ORDER BY g.id"
            ),
            {"t": table_id},
        ).all()
    return [r[0] for r in rows]


def play_games(client: TestClient, table_id: str, tokens: dict[int, str], games: int) -> None:
    """Play ``games`` games at the table through its sockets, each seat of ``tokens`` its first legal action
    (a bot plays the others), and wait until the results are stored."""
    room = app_parts(client.app).manager.tables[table_id]
    url = f"/ws/tables/{table_id}"
    opened = [client.websocket_connect(url) for _ in tokens]
    socks: dict[int, Any] = {}
    try:
        for seat, cm in zip(tokens, opened, strict=True):
            socks[seat] = cm.__enter__()
            socks[seat].send_json({"type": "hello", "token": tokens[seat]})
        played, deadline = 0, time.monotonic() + 60
        while played < games and time.monotonic() < deadline:
            for sock in socks.values():
                sock.send_json({"type": "ping"})
                while sock.receive_json() != {"type": "pong"}:
                    pass
            game = room.game
            if game.result is not None:
                played += 1
                if played < games:
                    socks[min(socks)].send_json({"type": "next_game"})
            elif game.to_move in socks:
                socks[game.to_move].send_json({"type": "action", "action": game.legal_actions()[0].token})
            else:
                time.sleep(0.02)  # a bot thinks
        assert played == games
    finally:
        for cm in opened:
            cm.__exit__(None, None, None)
    wait_for(lambda: finished_games(client, table_id) >= games)


def finished_games(client: TestClient, table_id: str) -> int:
    with app_parts(client.app).repo.engine.connect() as db:
        found = db.execute(
            text("SELECT count(*) FROM bummerl_games WHERE table_id = :t AND finished"), {"t": table_id}
        ).scalar_one()
    return int(found)


def wait_for(done: Any, seconds: float = 15.0) -> None:
    """The results and ratings are written in the background (ResultStore): wait for them."""
    deadline = time.monotonic() + seconds
    while not done():
        assert time.monotonic() < deadline, "not done in time"
        time.sleep(0.05)


# ---------------------------------------------------------------------- bounds
@pytest.mark.parametrize(
    "query", ["limit=0", "limit=101", "offset=-1", "offset=10001", "limit=ten", "offset=1e3", "limit=NaN"]
)
def test_a_bound_out_of_range_is_422(client: TestClient, query: str) -> None:
    answer = client.get(f"/api/leaderboard/schnapsen?{query}")
    assert answer.status_code == 422, answer.text


def test_an_unknown_variant_is_404_and_an_alias_names_its_variant(client: TestClient) -> None:
    for name in ("chess", "x" * 500, "%00", "schnapsen-x", "%F0%9F%83%8F"):
        answer = client.get(f"/api/leaderboard/{name}")
        assert (answer.status_code, answer.json()["detail"]["code"]) == (404, "unknown_variant"), name
    board = client.get("/api/leaderboard/scharf").json()
    assert (board["variant"], board["players"], board["total"], board["me"]) == ("schnapsen-scharf", [], 0, None)
    assert (board["offset"], board["limit"], board["min_games"]) == (0, 50, 2)
    # A key the server does not know is no error on a public page: it just has no own row.
    strange = client.get("/api/leaderboard/66", headers={"Authorization": "Bearer nobody"})
    assert strange.status_code == 200 and strange.json()["me"] is None


# ---------------------------------------------------------------------- rated games
def quick_match(client: TestClient, anna: dict[str, str], bert: dict[str, str]) -> tuple[str, dict[int, str]]:
    """Two people who press Quick match for Schnapsen: the table and each seat's token."""
    first = client.post("/api/quickmatch", json={"variant": "schnapsen"}, headers=anna).json()
    second = client.post("/api/quickmatch", json={"variant": "schnapsen"}, headers=bert).json()
    seats = [client.get(f"/api/quickmatch/{first['ticket']}").json()["table"], second["table"]]
    return seats[0]["table_id"], {s["seat"]: s["token"] for s in seats}


def test_a_quick_match_moves_both_ratings_and_the_board_marks_my_row(client: TestClient) -> None:
    anna, bert = new_player(client, "Anna"), new_player(client, "Bert")
    table_id, tokens = quick_match(client, anna, bert)
    assert app_parts(client.app).repo.load_table(table_id).rated
    play_games(client, table_id, tokens, 3)
    wait_for(lambda: len(decisions(client, table_id)) == 3)
    assert decisions(client, table_id) == ["rated"] * 3
    mine = {name: stats(client, who)["people"] for name, who in (("Anna", anna), ("Bert", bert))}
    for name in mine:
        [rating] = mine[name]
        assert (rating["variant"], rating["games"], rating["won"] + rating["lost"]) == ("schnapsen", 3, 3)
        assert rating["provisional"] is False and rating["rank"] in (1, 2)
    assert mine["Anna"][0]["won"] == mine["Bert"][0]["lost"]
    board = client.get("/api/leaderboard/schnapsen", headers=anna).json()
    assert [p["rank"] for p in board["players"]] == [1, 2] and board["total"] == 2
    assert board["players"][0]["rating"] >= board["players"][1]["rating"]
    assert [p["me"] for p in board["players"]] == [p["name"] == "Anna" for p in board["players"]]
    assert board["me"] == mine["Anna"][0]
    assert not any(p["me"] for p in client.get("/api/leaderboard/schnapsen").json()["players"])
    assert all(set(p) == {"rank", "name", "rating", "games", "won", "lost", "me"} for p in board["players"])
    # The statistics count the same games, against a friend (a person).
    assert stats(client, anna)["rows"][0]["opponent"] == "friend" and stats(client, anna)["games"] == 3


def test_a_game_with_a_bot_seat_changes_no_people_rating(client: TestClient) -> None:
    anna = new_player(client, "Anna")
    made = client.post("/api/tables", json={"opponent": "random", "name": "Anna"}).json()
    claim = {"table_id": made["table_id"], "token": made["token"]}
    assert client.post("/api/players/me/seats", json=claim, headers=anna).json()["claimed"]
    set_table(client, made["table_id"], rated=True)  # were it rated, the bot seat still keeps it out
    play_games(client, made["table_id"], {0: made["token"]}, 2)
    wait_for(lambda: len(decisions(client, made["table_id"])) == 2)
    assert decisions(client, made["table_id"]) == ["bot_seat", "bot_seat"]
    after = stats(client, anna)
    assert after["games"] == 2 and after["people"] == []  # counted against the bot, rated against nobody
    assert client.get("/api/leaderboard/schnapsen").json()["total"] == 0


def test_a_practice_game_changes_no_statistic_and_no_rating(client: TestClient) -> None:
    """Issue 24: "Practice games (a chosen seed, whose deals the player can know) count in no statistic and no
    rating".  A seeded table is never rated, a friend never sits at one, and were one marked rated, its games
    still change nothing."""
    anna = new_player(client, "Anna")
    before = stats(client, anna)
    refused = client.post("/api/tables", json={"opponent": "friend", "seed": 5})
    assert refused.status_code == 400
    made = client.post("/api/tables", json={"opponent": "random", "seed": 5, "name": "Anna"}).json()
    claim = {"table_id": made["table_id"], "token": made["token"]}
    assert client.post("/api/players/me/seats", json=claim, headers=anna).json()["claimed"]
    table = app_parts(client.app).repo.load_table(made["table_id"])
    assert table.practice and not table.rated
    set_table(client, made["table_id"], rated=True)
    play_games(client, made["table_id"], {0: made["token"]}, 2)
    assert finished_games(client, made["table_id"]) == 2  # played and stored: only the counts leave them out
    assert app_parts(client.app).manager.results.ratings.catch_up() == 0
    assert decisions(client, made["table_id"]) == []  # not even looked at
    assert stats(client, anna) == before and before["people"] == [] and before["games"] == 0
    assert client.get("/api/leaderboard/schnapsen").json()["total"] == 0


def test_an_abandoned_game_counts_as_lost(client: TestClient) -> None:
    """The clock's bot took Anna's seat over and won the game for her (``abandoned`` in the result,
    bummerl.server.clock): in her statistics and her rating it is lost, and Bert won it."""
    anna, bert = new_player(client, "Anna"), new_player(client, "Bert")
    table_id, _ = quick_match(client, anna, bert)
    parts = app_parts(client.app)
    room = parts.manager.tables[table_id]
    seat_of_anna = next(s for s in (0, 1) if room.seat_name(s) == "Anna")
    game_id = room.game_id
    result = {"winner": seat_of_anna, "points": 3, "reason": "declared", "augen": [70, 0], "unit": "game points"}
    parts.repo.finish_game(game_id, {**result, "abandoned": [seat_of_anna]}, "record")
    parts.manager.results.ratings.rate_table_of(game_id)
    assert decisions(client, table_id) == ["rated"]
    mine, theirs = stats(client, anna), stats(client, bert)
    assert (mine["won"], mine["lost"], theirs["won"], theirs["lost"]) == (0, 1, 0, 1)  # Bert lost to the bot
    assert (mine["people"][0]["lost"], theirs["people"][0]["won"]) == (1, 1)
    assert mine["people"][0]["mu"] < people_ratings.MODEL.mu < theirs["people"][0]["mu"]


def test_the_profile_lists_a_rating_per_variant(client: TestClient) -> None:
    """Two variants played: two ratings, in variant order, each with its own games."""
    anna, bert = new_player(client, "Anna"), new_player(client, "Bert")
    ratings = app_parts(client.app).manager.results.ratings
    repo = app_parts(client.app).repo
    for variant in ("sechsundsechzig", "schnapsen"):
        made = client.post("/api/tables", json={"opponent": "friend", "name": "Anna", "variant": variant}).json()
        joined = client.post("/api/join", json={"code": made["join_code"], "name": "Bert"}).json()
        for who, token in ((anna, made["token"]), (bert, joined["token"])):
            claim = {"table_id": made["table_id"], "token": token}
            assert client.post("/api/players/me/seats", json=claim, headers=who).json()["claimed"]
        set_table(client, made["table_id"], rated=True)
        game = client.get("/api/games", params={"finished": "false"}).json()["games"]
        game_id = next(g["game_id"] for g in game if g["table_id"] == made["table_id"])
        repo.finish_game(game_id, {"winner": 0, "points": 1, "reason": "declared", "augen": [66, 20]}, "r")
        ratings.rate_table_of(game_id)
    people = stats(client, anna)["people"]
    assert [(p["variant"], p["games"], p["won"], p["provisional"]) for p in people] == [
        ("schnapsen", 1, 1, True),
        ("sechsundsechzig", 1, 1, True),
    ]
    assert people[0]["rank"] is None  # fewer games than the board's minimum: not listed yet
    assert dataclasses.asdict(ratings.board("schnapsen"))["total"] == 0


def test_a_restarted_server_rates_what_its_stop_left(tmp_path: Path) -> None:
    """The result of a rated game was written, then the server stopped before it rated it: the next start rates it
    (ResultStore.start), once."""
    from bummerl.server.players import PlayerStore
    from bummerl.server.storage import Repository, SeatData, hash_token

    repo = Repository(f"sqlite:///{tmp_path / 'bummerl.db'}")
    repo.create_schema()
    store = PlayerStore(repo)
    (anna, _), (bert, _) = store.create("Anna"), store.create("Bert")
    seats = [SeatData(0, "human", None, "Anna", True, None), SeatData(1, "friend", None, "Bert", True, None)]
    repo.create_table("t", "schnapsen", {}, 1, 7, seats, {0: hash_token("a"), 1: hash_token("b")}, rated=True)
    store.claim_seat(anna.id, "t", 0)
    store.claim_seat(bert.id, "t", 1)
    game = repo.start_game("t", 0, 0, 0, "x", None)
    repo.finish_game(game, {"winner": 1, "points": 1, "reason": "declared", "augen": [40, 66]}, "record")
    repo.dispose()
    for _ in range(2):  # and a second start rates nothing again
        with TestClient(create_app(data_dir=tmp_path, config=CONFIG)) as client:
            wait_for(lambda c=client: decisions(c, "t") == ["rated"])
            ratings = app_parts(client.app).manager.results.ratings
            assert [r.games for r in (ratings.rating_of(p.id, "schnapsen") for p in (anna, bert)) if r] == [1, 1]
