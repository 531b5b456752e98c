"""Players without passwords (bummerl.server.players, routes/players.py): device keys, transfer codes, seats,
statistics and the rating against the bots (issue 13, "Remember"; docs/security.md, "Players and their device
keys").

The transfer code's bounds are tested as an attacker would meet them: a code expires, works once, and is gone
after ``CODE_ATTEMPTS`` wrong guesses whatever the rate.  The statistics are checked on histories built row by
row in the database, with the numbers worked out by hand; the rating against the closed form of the
Bradley-Terry model for two players.
"""

from __future__ import annotations

import pytest

pytest.importorskip("fastapi", reason="needs the 'web' extra: pip install -e '.[web]'")

import dataclasses
import json
import math
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from sqlalchemy import inspect, text

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

from bummerl.server import migrations
from bummerl.server.app import create_app
from bummerl.server.config import ServerConfig
from bummerl.server.players import (
    CODE_ATTEMPTS,
    CODE_SECONDS,
    MAX_DEVICES,
    PlayerError,
    PlayerStore,
    normalize_code,
    rating_against,
    statistics,
)
from bummerl.server.routes.deps import app_parts
from bummerl.server.storage import Repository, SeatData, hash_token
from bummerl.tournament.ratings import ELO

CONFIG = ServerConfig(bot_executor="thread", analysis_executor="thread", analysis_level="easy")
PLAYER_TABLES = {"bummerl_players", "bummerl_player_keys", "bummerl_player_transfers", "bummerl_player_seats"}


class Clock:
    def __init__(self) -> None:
        self.now = 1_000_000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def repo() -> Iterator[Repository]:
    found = Repository("sqlite://")
    found.create_schema()
    yield found
    found.dispose()


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(create_app(data_dir=tmp_path, config=CONFIG)) as c:
        yield c


def auth(key: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {key}"}


# ---------------------------------------------------------------------- identity and transfer
def test_only_the_hash_of_a_device_key_is_stored(repo: Repository) -> None:
    store = PlayerStore(repo)
    player, key = store.create("Anna")
    with repo.engine.connect() as db:
        stored = db.execute(text("SELECT key_hash FROM bummerl_player_keys")).scalars().all()
    assert stored == [hash_token(key)] and key not in str(stored)
    assert store.player_of(key) == dataclasses.replace(player, devices=1)
    assert store.player_of(key[:-1] + ("A" if key[-1] != "A" else "B")) is None
    assert store.player_of("") is None and store.player_of("x" * 1000) is None


def test_a_transfer_code_works_once_and_gives_the_other_device_its_own_key(repo: Repository) -> None:
    store = PlayerStore(repo, clock=Clock())
    player, key = store.create("Anna")
    code, _ = store.issue_code(player.id)
    assert normalize_code(code) is not None and code[5] == "-"
    same, second = store.redeem(code.lower().replace("-", " "))  # as typed on a phone
    assert same.id == player.id and same.devices == 2 and second != key
    first_device, second_device = store.player_of(key), store.player_of(second)
    assert first_device is not None and second_device is not None
    assert first_device.id == second_device.id == player.id  # the first device keeps its key
    with pytest.raises(PlayerError) as refused:
        store.redeem(code)
    assert refused.value.status == 404 and refused.value.code == "unknown_code"


def test_a_transfer_code_expires(repo: Repository) -> None:
    clock = Clock()
    store = PlayerStore(repo, clock=clock)
    player, _ = store.create(None)
    code, expires = store.issue_code(player.id)
    assert expires == clock.now + CODE_SECONDS
    clock.now = expires  # valid until, not at, its expiry
    with pytest.raises(PlayerError, match="expired"):
        store.redeem(code)
    with repo.engine.connect() as db:
        assert db.execute(text("SELECT count(*) FROM bummerl_player_transfers")).scalar() == 0


def test_a_new_code_replaces_the_old_one(repo: Repository) -> None:
    store = PlayerStore(repo, clock=Clock())
    player, _ = store.create(None)
    first, _ = store.issue_code(player.id)
    second, _ = store.issue_code(player.id)
    with pytest.raises(PlayerError):
        store.redeem(first)
    assert store.redeem(second)[0].id == player.id


def wrong_secret(code: str) -> str:
    """The code with its last symbol changed: the same lookup, a wrong secret."""
    plain = normalize_code(code)
    assert plain is not None
    return plain[:-1] + ("1" if plain[-1] != "1" else "2")


def test_a_code_is_gone_after_its_wrong_guesses_even_the_right_one_after_them(repo: Repository) -> None:
    """The bound of docs/security.md: CODE_ATTEMPTS wrong secrets per code, then the code is burnt, so one
    code falls to guessing with a probability of at most CODE_ATTEMPTS / 32**6."""
    store = PlayerStore(repo, clock=Clock())
    player, _ = store.create(None)
    code, _ = store.issue_code(player.id)
    for _ in range(CODE_ATTEMPTS - 1):
        with pytest.raises(PlayerError):
            store.redeem(wrong_secret(code))
    assert store.redeem(code)[0].id == player.id  # four wrong guesses leave it usable
    code, _ = store.issue_code(player.id)
    for _ in range(CODE_ATTEMPTS):
        with pytest.raises(PlayerError) as refused:
            store.redeem(wrong_secret(code))
        assert refused.value.code == "unknown_code"  # the same answer as for an unknown code
    with pytest.raises(PlayerError):
        store.redeem(code)
    assert CODE_ATTEMPTS / 32**6 < 5e-9


def test_a_code_that_is_no_code_is_refused_before_the_database(repo: Repository) -> None:
    store = PlayerStore(repo)
    for bad in ("", "ABC", "K7QM2-XHP9U", "K7QM2-XHP9!", "x" * 100):
        with pytest.raises(PlayerError) as refused:
            store.redeem(bad)
        assert refused.value.status == 400 and refused.value.code == "bad_code"


def test_a_player_holds_at_most_max_devices_keys(repo: Repository) -> None:
    store = PlayerStore(repo, clock=Clock())
    player, _ = store.create(None)
    for _ in range(MAX_DEVICES - 1):
        store.redeem(store.issue_code(player.id)[0])
    with pytest.raises(PlayerError) as refused:
        store.issue_code(player.id)
    assert refused.value.code == "too_many_devices"


def test_the_api_issues_keys_moves_them_and_answers_401_without_one(client: TestClient) -> None:
    made = client.post("/api/players", json={"name": "Anna"})
    assert made.status_code == 201
    key = made.json()["key"]
    assert client.get("/api/players/me").status_code == 401
    assert client.get("/api/players/me", headers=auth("nope")).json()["detail"]["code"] == "no_player"
    me = client.get("/api/players/me", headers=auth(key)).json()
    assert me["name"] == "Anna" and me["devices"] == 1 and "key" not in me
    assert client.patch("/api/players/me", json={"name": "Anna B"}, headers=auth(key)).json()["name"] == "Anna B"
    assert client.patch("/api/players/me", json={"name": "A\u202eB"}, headers=auth(key)).status_code == 422
    code = client.post("/api/players/me/transfer", headers=auth(key))
    assert code.status_code == 201 and 0 < code.json()["expires_in"] <= CODE_SECONDS
    moved = client.post("/api/players/transfer", json={"code": code.json()["code"]})
    assert moved.status_code == 200 and moved.json()["player_id"] == me["player_id"]
    other = moved.json()["key"]
    assert client.post("/api/players/transfer", json={"code": code.json()["code"]}).status_code == 404
    assert client.post("/api/players/transfer", json={"code": "?"}).status_code == 400
    assert client.post("/api/players/transfer", json={"code": "x" * 41}).status_code == 422
    assert client.delete("/api/players/me/key", headers=auth(other)).status_code == 204
    assert client.get("/api/players/me", headers=auth(other)).status_code == 401
    assert client.get("/api/players/me", headers=auth(key)).status_code == 200


def test_typing_codes_is_rate_limited_per_client(client: TestClient) -> None:
    """Typing a code counts against the client's join limit (20 a minute by default), as an invitation does."""
    answers = [client.post("/api/players/transfer", json={"code": "K7QM2-XHP90"}).status_code for _ in range(21)]
    assert answers[:20] == [404] * 20 and answers[20] == 429


# ---------------------------------------------------------------------- seats
def test_a_seat_is_recorded_with_its_token_and_the_players_key(client: TestClient) -> None:
    key = client.post("/api/players", json={}).json()["key"]
    table = client.post("/api/tables", json={"opponent": "friend", "name": "Anna"}).json()
    claim = {"table_id": table["table_id"], "token": table["token"]}
    assert client.post("/api/players/me/seats", json=claim).status_code == 401
    wrong = {"table_id": table["table_id"], "token": "not-the-token"}
    assert client.post("/api/players/me/seats", json=wrong, headers=auth(key)).status_code == 403
    assert (
        client.post("/api/players/me/seats", json={**claim, "table_id": "../x"}, headers=auth(key)).status_code == 403
    )
    done = client.post("/api/players/me/seats", json=claim, headers=auth(key))
    assert done.json() == {"table_id": table["table_id"], "seat": 0, "claimed": True, "reason": None}
    again = client.post("/api/players/me/seats", json=claim, headers=auth(key))
    assert again.status_code == 200 and again.json()["claimed"] is False and again.json()["reason"] == "already"
    friend = client.post("/api/join", json={"code": table["join_code"], "name": "Bert"}).json()
    second = {"table_id": table["table_id"], "token": friend["token"]}
    # One player may not hold both seats of a table: it would play against itself. Nothing is recorded, and it
    # is no error (the same browser may open the invitation link in a second tab).
    both = client.post("/api/players/me/seats", json=second, headers=auth(key))
    assert both.status_code == 200 and both.json() == {**both.json(), "claimed": False, "reason": "other_seat"}
    other = client.post("/api/players", json={}).json()["key"]
    assert client.post("/api/players/me/seats", json=second, headers=auth(other)).json()["seat"] == 1


def test_a_second_device_opening_a_recorded_seat_is_told_so_without_an_error(client: TestClient) -> None:
    """Whoever holds a seat's token may open the seat on another device (its link): the seat stays recorded
    for the player who recorded it first, and the second device's player gets ``200`` with ``claimed: false``
    (a 4xx would be an error in the second browser's console for a normal case)."""
    first, second = (client.post("/api/players", json={}).json()["key"] for _ in range(2))
    table = client.post("/api/tables", json={"opponent": "random", "name": "Anna"}).json()
    claim = {"table_id": table["table_id"], "token": table["token"]}
    assert client.post("/api/players/me/seats", json=claim, headers=auth(first)).json()["claimed"] is True
    late = client.post("/api/players/me/seats", json=claim, headers=auth(second))
    assert late.status_code == 200
    assert late.json() == {"table_id": table["table_id"], "seat": 0, "claimed": False, "reason": "other_player"}
    # The seat (and so its games) stays the first player's.
    first_id = client.get("/api/players/me", headers=auth(first)).json()["player_id"]
    with app_parts(client.app).repo.engine.connect() as db:
        rows = db.execute(text("SELECT seat, player_id FROM bummerl_player_seats")).all()
    assert [tuple(r) for r in rows] == [(0, first_id)]


# ---------------------------------------------------------------------- statistics
def store_game(
    repo: Repository,
    table_id: str,
    match_no: int,
    game_no: int,
    result: dict[str, Any],
    match: dict[str, Any] | None = None,
) -> None:
    game_id = repo.start_game(table_id, match_no, game_no, 0, "x", None)
    repo.finish_game(game_id, {**result, **({"match": match} if match else {})}, "record")


def table_with(repo: Repository, table_id: str, variant: str, others: list[tuple[str, str | None]]) -> None:
    seats = [SeatData(0, "human", None, "Anna", True, None)]
    seats += [SeatData(i, kind, bot, None, kind != "bot", None) for i, (kind, bot) in enumerate(others, 1)]
    repo.create_table(table_id, variant, {}, 1, 7, seats, {0: hash_token(table_id)})


def won(seat: int, points: int = 1) -> dict[str, Any]:
    return {"winner": seat, "points": points, "reason": "declared", "augen": [70, 30], "unit": "game points"}


def test_statistics_of_a_constructed_history(repo: Repository) -> None:
    """Against `hard`: won, won, lost, a Bummerl won with the fourth game; against `easy`: one game lost that
    lost a Bummerl; a Bauernschnapsen game won by the player's team; a game of another player (not counted)."""
    store = PlayerStore(repo)
    me, _ = store.create("Anna")
    other, _ = store.create("Bert")
    table_with(repo, "hard1", "schnapsen", [("bot", "hard")])
    table_with(repo, "easy1", "schnapsen", [("bot", "easy")])
    table_with(repo, "bauer", "bauernschnapsen", [("bot", "random")] * 3)
    table_with(repo, "elsewhere", "schnapsen", [("bot", "hard")])
    for table in ("hard1", "easy1", "bauer"):
        assert store.claim_seat(me.id, table, 0)
    store.claim_seat(other.id, "elsewhere", 0)
    store_game(repo, "hard1", 0, 0, won(0, 2), {"over": False, "winners": [], "seats": []})
    store_game(repo, "hard1", 0, 1, won(0, 3), {"over": False, "winners": [], "seats": []})
    store_game(repo, "hard1", 0, 2, won(1, 1), {"over": False, "winners": [], "seats": []})
    store_game(repo, "hard1", 0, 3, won(0, 2), {"over": True, "winners": [0], "seats": [0], "schneider": False})
    store_game(repo, "easy1", 0, 0, won(1, 3), {"over": True, "winners": [1], "seats": [1], "schneider": True})
    bauer = {"contract": "normal", "declarer": 0, "winners": [0, 2], "points": 2, "reason": "declared"}
    store_game(repo, "bauer", 0, 0, {**bauer, "augen": [66, 40], "multiplier": 1})
    store_game(repo, "elsewhere", 0, 0, won(0))
    repo.start_game("hard1", 1, 0, 1, "x", None)  # a game still running is not counted
    outcomes, more = store.outcomes(me.id)
    assert not more and [o.table_id for o in outcomes] == ["hard1"] * 4 + ["easy1", "bauer"]
    stats = statistics(outcomes)
    assert (stats["games"], stats["won"], stats["lost"], stats["drawn"]) == (6, 4, 2, 0)
    assert (stats["bummerl_won"], stats["bummerl_lost"]) == (1, 1)
    # won won lost won | lost | won: the longest run is 2, the one going on now 1.
    assert (stats["longest_run"], stats["current_run"]) == (2, 1)
    rows = {(r["variant"], r["opponent"]): r for r in stats["rows"]}
    hard = rows[("schnapsen", "hard")]
    assert (hard["games"], hard["won"], hard["lost"], hard["bummerl_won"], hard["bummerl_lost"]) == (4, 3, 1, 1, 0)
    assert hard["rating"]["games"] == 4 and hard["rating"]["elo"] > 0
    assert rows[("schnapsen", "easy")]["rating"]["elo"] < 0 and rows[("schnapsen", "easy")]["bummerl_lost"] == 1
    # Table games are counted, but rated only where one player meets one bot.
    assert rows[("bauernschnapsen", "random")]["won"] == 1 and rows[("bauernschnapsen", "random")]["rating"] is None


def test_stands_and_redeals_neither_count_nor_end_a_run(repo: Repository) -> None:
    store = PlayerStore(repo)
    me, _ = store.create(None)
    table_with(repo, "t", "schnorps", [("bot", "medium")])
    store.claim_seat(me.id, "t", 0)
    stand = {"winner": None, "points": 0, "reason": "stand", "augen": [65, 65], "unit": "Marken"}
    for result in (won(0), stand, won(0), won(1), won(0)):
        store_game(repo, "t", 0, 0, result)
    stats = statistics(store.outcomes(me.id)[0])
    assert (stats["won"], stats["drawn"], stats["longest_run"], stats["current_run"]) == (3, 1, 2, 1)
    assert stats["rows"][0]["rating"]["games"] == 5  # a stand counts half


def test_the_newest_games_are_counted_up_to_the_limit(repo: Repository) -> None:
    store = PlayerStore(repo)
    me, _ = store.create(None)
    table_with(repo, "t", "schnapsen", [("bot", "hard")])
    store.claim_seat(me.id, "t", 0)
    for i in range(5):
        store_game(repo, "t", 0, i, won(0 if i < 2 else 1))
    outcomes, more = store.outcomes(me.id, limit=3)
    assert more and [o.outcome for o in outcomes] == ["lost"] * 3


def test_the_rating_is_twice_the_two_player_bradley_terry_rating() -> None:
    """With two players the mean-0 ratings are +d/2 and -d/2 (bummerl.tournament.ratings); for 30 wins in 40
    games and the prior of 1000 Elo per rating, d is close to the maximum-likelihood 400 log10(3) = 191 Elo,
    and its 95% interval is the Laplace one: about d +- 1.96 * 2 * ELO / sqrt(1/var(t0))."""
    r = rating_against([1.0] * 30 + [0.0] * 10)
    assert r is not None and r.games == 40
    assert abs(r.elo - 400 * math.log10(3)) < 2
    # The information of the difference d = 2 t0 for n games at p = 0.75: n p (1 - p) per unit of d.
    sd = ELO / math.sqrt(40 * 0.75 * 0.25)
    assert abs((r.interval[1] - r.interval[0]) / 2 - 1.96 * sd) < 3
    even = rating_against([1.0, 0.0] * 10)
    assert even is not None and abs(even.elo) < 1e-9 and even.interval[0] < 0 < even.interval[1]
    assert rating_against([]) is None
    # More games with the same score narrow the interval; a run of wins stays finite.
    wide, narrow = rating_against([1.0, 0.0, 1.0]), rating_against([1.0, 0.0, 1.0] * 20)
    assert wide is not None and narrow is not None
    assert narrow.interval[1] - narrow.interval[0] < wide.interval[1] - wide.interval[0]
    sweep = rating_against([1.0] * 10)
    assert sweep is not None and math.isfinite(sweep.elo) and sweep.elo > narrow.elo


def play_a_match(client: TestClient, key: str, **table: Any) -> tuple[str, dict[str, Any]]:
    """Create a table for the player of ``key`` (recording its seat), play seat 0 to the end of the match through
    the WebSocket, and return the table's id and the last state."""
    made = client.post("/api/tables", json={"opponent": "random", "target": 1, "variant": "schnorps", **table})
    assert made.status_code == 201, made.text
    made_table = made.json()
    claim = {"table_id": made_table["table_id"], "token": made_table["token"]}
    assert client.post("/api/players/me/seats", json=claim, headers=auth(key)).json()["claimed"] is True
    with client.websocket_connect(made_table["ws_url"]) as ws:
        ws.send_json({"type": "hello", "token": made_table["token"]})
        ws.receive_json()
        state = ws.receive_json()
        while True:
            if state.get("game_over") and state["match"]["over"]:
                break
            if state.get("game_over"):
                ws.send_json({"type": "next_game"})
            elif state["your_turn"]:
                ws.send_json({"type": "action", "action": state["legal"][0]})
            state = ws.receive_json()
    return made_table["table_id"], state


def test_statistics_after_games_at_the_live_server(client: TestClient) -> None:
    """The verdict of a match is stored with the game that ended it; the API counts the player's games."""
    key = client.post("/api/players", json={"name": "Anna"}).json()["key"]
    table_id, state = play_a_match(client, key)
    stats = client.get("/api/players/me/stats", headers=auth(key)).json()
    assert stats["games"] >= 1 and stats["bummerl_won"] + stats["bummerl_lost"] == 1
    assert (stats["bummerl_won"] == 1) == (state["match"]["winner"] == 0)
    assert stats["recent"][0]["table_id"] == table_id and stats["rows"][0]["opponent"] == "random"
    assert stats["rows"][0]["rating"]["games"] == stats["games"]


def test_a_practice_game_counts_in_no_statistic_and_no_rating(client: TestClient) -> None:
    """Issue 24: "Practice games (a chosen seed, whose deals the player can know) count in no statistic and no
    rating".  A whole match at a seeded table against ``random`` leaves the statistics as they were; the same
    match dealt by the server changes them."""
    key = client.post("/api/players", json={"name": "Anna"}).json()["key"]
    before = client.get("/api/players/me/stats", headers=auth(key)).json()
    assert before["games"] == 0 and before["rows"] == [] and before["recent"] == []
    table_id, _ = play_a_match(client, key, seed=3)
    assert client.get(f"/api/tables/{table_id}").json()["practice"] is True
    with app_parts(client.app).repo.engine.connect() as db:
        played = db.execute(
            text("SELECT count(*) FROM bummerl_games WHERE table_id = :t AND finished"), {"t": table_id}
        ).scalar()
    assert played and played >= 1  # the games were played and stored: only the statistics leave them out
    assert client.get("/api/players/me/stats", headers=auth(key)).json() == before
    play_a_match(client, key)
    after = client.get("/api/players/me/stats", headers=auth(key)).json()
    assert after["games"] >= 1 and after["bummerl_won"] + after["bummerl_lost"] == 1
    [row] = after["rows"]
    assert row["opponent"] == "random" and row["rating"]["games"] == after["games"]
    assert table_id not in {g["table_id"] for g in after["recent"]}


def test_the_store_leaves_practice_tables_out(repo: Repository) -> None:
    store = PlayerStore(repo)
    me, _ = store.create(None)
    seats = [SeatData(0, "human", None, None, True, None), SeatData(1, "bot", "hard", None, False, None)]
    repo.create_table("p", "schnapsen", {}, 5, 7, seats, {0: hash_token("p")}, practice=True)
    table_with(repo, "t", "schnapsen", [("bot", "hard")])
    for table in ("p", "t"):
        store.claim_seat(me.id, table, 0)
        store_game(repo, table, 0, 0, won(0))
    outcomes, more = store.outcomes(me.id)
    assert not more and [o.table_id for o in outcomes] == ["t"]


# ---------------------------------------------------------------------- the migration
def test_0008_adds_the_players_tables_and_goes_down_without_touching_the_games(tmp_path: Path) -> None:
    repo = Repository(f"sqlite:///{tmp_path / 'g.db'}")
    repo.create_schema()
    table_with(repo, "t", "schnapsen", [("bot", "hard")])
    store_game(repo, "t", 0, 0, won(0), {"over": False, "winners": [], "seats": []})
    store = PlayerStore(repo)
    me, key = store.create("Anna")
    store.claim_seat(me.id, "t", 0)
    with repo.engine.begin() as db:
        migrations.downgrade(db, "0007")
        names = set(inspect(db).get_table_names())
        assert not (PLAYER_TABLES | {"bummerl_game_outcomes"}) & names
    with repo.engine.connect() as db:  # the models are the newest revision's: the row is read as it is
        stored = db.execute(text("SELECT result FROM bummerl_games")).scalar()
    assert json.loads(stored) == won(0)  # the stored result is the game's own
    repo.create_schema()
    assert store.player_of(key) is None and store.outcomes(me.id) == ([], False)
    repo.dispose()


def test_a_schnorps_round_counts_only_the_games_the_player_played(repo: Repository) -> None:
    """RULES.md, Matches: with more than two participants "two play at a time"; a game waited out is no game
    of the waiting participant's (its result names the two who played)."""
    store = PlayerStore(repo)
    me, _ = store.create(None)
    table_with(repo, "r", "schnorps", [("bot", "easy"), ("bot", "easy")])
    store.claim_seat(me.id, "r", 0)
    played = {"winner": 0, "loser": 1, "players": [0, 1], "points": 1, "reason": "declared", "augen": [70, 30]}
    waited = {**played, "winner": 1, "loser": 2, "players": [1, 2]}
    store_game(repo, "r", 0, 0, played)
    store_game(repo, "r", 0, 1, waited)
    outcomes, _ = store.outcomes(me.id)
    assert [(o.game_no, o.outcome) for o in outcomes] == [(1, "won")]
