"""A server restart loses no game (issue 5: "running games resume from the database when the server
starts again"): stop the app mid-game, start a new app on the same database, go on."""

from __future__ import annotations

import pytest

pytest.importorskip("fastapi", reason="needs the 'web' extra: pip install -e '.[web]'")

import threading
import time
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

from sqlalchemy import create_engine, text

from bummerl.bots import RandomBot, register_bot
from bummerl.match import Session
from bummerl.server.app import create_app
from bummerl.server.config import ServerConfig
from bummerl.server.routes.deps import app_parts
from bummerl.server.storage import StorageError
from bummerl.server.workers import read_game_record
from bummerl.view import PlayerView

CONFIG = ServerConfig(bot_executor="thread", bot_workers=2)


def hello(ws: Any, token: str | None) -> dict[str, Any]:
    ws.send_json({"type": "hello", "token": token})
    assert ws.receive_json()["type"] == "welcome"
    state: dict[str, Any] = ws.receive_json()
    return state


def my_turn(ws: Any, state: dict[str, Any]) -> dict[str, Any]:
    while not state["your_turn"] and state["status"] == "playing":
        state = ws.receive_json()
    return state


def play_to_the_end(ws: Any, state: dict[str, Any]) -> dict[str, Any]:
    """Play seat 0's first legal action at every turn until the game is over; the game-over state."""
    while state["status"] != "game_over":
        if state["your_turn"]:
            ws.send_json({"type": "action", "action": state["legal"][0]})
        state = ws.receive_json()
    return state


def wait_for(condition: Callable[[], bool], seconds: float = 10.0) -> None:
    """Until ``condition()`` holds (the app's loop runs in another thread); fails after ``seconds``."""
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, "the condition did not come true"
        time.sleep(0.01)


def test_a_game_goes_on_after_a_restart_from_the_same_position(tmp_path: Path) -> None:
    play_on_after_a_restart(f"sqlite:///{tmp_path / 'games.db'}")


def play_on_after_a_restart(url: str) -> None:
    """Play three moves, stop the app, start a new one on ``url``: the same position, then play to the end."""
    with TestClient(create_app(url, config=CONFIG)) as client:
        table = client.post("/api/tables", json={"opponent": "random", "name": "Anna", "seed": 8}).json()
        with client.websocket_connect(table["ws_url"]) as ws:
            state = my_turn(ws, hello(ws, table["token"]))
            for _ in range(3):
                ws.send_json({"type": "action", "action": state["legal"][0]})
                state = my_turn(ws, ws.receive_json())
        before = state
        assert before["status"] == "playing" and len(before["view"]["played"]) >= 5
        live = app_parts(client.app).manager.tables[table["table_id"]]
        played_before = [a.token for a in live.game.actions]
    # A new app, a new process's memory: only the database is left.
    with TestClient(create_app(url, config=CONFIG)) as client:
        # Start-up loads no table (it would take as long as the history is long): the first client does.
        assert table["table_id"] not in app_parts(client.app).manager.tables
        with client.websocket_connect(table["ws_url"]) as ws:
            after = my_turn(ws, hello(ws, table["token"]))
            assert after["view"] == before["view"]
            assert after["legal"] == before["legal"] and after["match"] == before["match"]
            while after["status"] != "game_over":
                if after["your_turn"]:
                    ws.send_json({"type": "action", "action": after["legal"][0]})
                after = ws.receive_json()
        record = read_game_record(after["game_over"]["record"])
        assert record.replay().result is not None
        # The actions played before the restart are the record's first actions.
        assert [a.token for a in record.actions][: len(played_before)] == played_before
        stored = client.get(f"/api/games/{after['game_over']['game_id']}").json()
        assert stored["finished"] and stored["actions"] == [a.token for a in record.actions]


class _HeldBot:
    """A bot that cannot answer until released: the server stops while it is its turn."""

    name = "held-test"
    release = threading.Event()

    def __init__(self, seed: int) -> None:
        self._random = RandomBot(seed)

    def choose(self, view: PlayerView) -> Any:
        self.release.wait(5.0)
        return self._random.choose(view)


register_bot("held-test", _HeldBot, "test bot that waits for a signal")


def test_a_bot_whose_turn_it_was_resumes_after_a_restart(tmp_path: Path) -> None:
    bot_resumes_after_a_restart(f"sqlite:///{tmp_path / 'games.db'}")


def bot_resumes_after_a_restart(url: str) -> None:
    """Stop the app while the bot holds its first move; the new app on ``url`` lets the bot play it."""
    seed = next(s for s in range(100) if Session("schnapsen", s).new_match().next_dealer == 0)  # the bot leads
    _HeldBot.release.clear()
    with TestClient(create_app(url, config=CONFIG)) as client:
        table = client.post("/api/tables", json={"opponent": "held-test", "seed": seed}).json()
        with client.websocket_connect(table["ws_url"]) as ws:
            state = hello(ws, table["token"])
            assert state["to_move"] == 1 and state["view"]["played"] == []
    _HeldBot.release.set()  # the old app's bot answers into the void: its table is gone
    with TestClient(create_app(url, config=CONFIG)) as client, client.websocket_connect(table["ws_url"]) as ws:
        state = my_turn(ws, hello(ws, table["token"]))
        assert state["your_turn"] and len(state["view"]["played"]) == 1


def test_a_game_whose_result_was_not_stored_is_finished_on_restart(tmp_path: Path) -> None:
    """The last action is stored before the result: a stop in between is repaired when the table loads."""
    finish_on_restart(f"sqlite:///{tmp_path / 'games.db'}")


def finish_on_restart(url: str) -> None:
    """Play a game to the end, forget its result in the database on ``url``: a new app finishes it again."""
    with TestClient(create_app(url, config=CONFIG)) as client:
        table = client.post("/api/tables", json={"opponent": "random", "seed": 4}).json()
        with client.websocket_connect(table["ws_url"]) as ws:
            state = play_to_the_end(ws, hello(ws, table["token"]))
        game_id = state["game_over"]["game_id"]
    engine = create_engine(url)
    with engine.begin() as db:
        db.execute(
            text("UPDATE bummerl_games SET finished = false, result = NULL, record = NULL WHERE id = :id"),
            {"id": game_id},
        )
    engine.dispose()
    with TestClient(create_app(url, config=CONFIG)) as client:
        with client.websocket_connect(table["ws_url"]) as ws:
            again = hello(ws, table["token"])
        assert again["status"] == "game_over" and again["game_over"]["result"] == state["game_over"]["result"]
        assert client.get(f"/api/games/{game_id}/record").status_code == 200


def test_a_refused_result_costs_nothing_and_is_stored_on_the_next_load(tmp_path: Path) -> None:
    """Brief: "a server restart: the game continues or is stored, never silently lost".  If the
    database refuses a finished game's result, the table plays on (every action is stored already),
    and the next load stores that game's result from its actions, even after later games."""
    url = f"sqlite:///{tmp_path / 'games.db'}"
    with TestClient(create_app(url, config=CONFIG)) as client:
        repo = app_parts(client.app).repo
        real = repo.finish_game

        def refuse(game_id: int, result: dict[str, Any], record: str) -> None:
            raise StorageError(f"game {game_id}, result: OperationalError: database is locked")

        repo.finish_game = refuse
        table = client.post("/api/tables", json={"opponent": "random", "seed": 4}).json()
        with client.websocket_connect(table["ws_url"]) as ws:
            state = play_to_the_end(ws, hello(ws, table["token"]))
            first = state["game_over"]
            assert repo.get_game(first["game_id"]).finished is False  # not in the database yet
            # ... yet the game is over: the API answers from the pending result, not "still running" (409).
            # (CI once met this race with a healthy database: the analysis was asked for before the write.)
            shown = client.get(f"/api/games/{first['game_id']}").json()
            assert shown["finished"] and shown["result"] == first["result"]
            for part in ("record", "replay"):
                assert client.get(f"/api/games/{first['game_id']}/{part}").status_code == 200
            # The list says the same (CI met this race too: a table's games listed empty just after game_over).
            listed = client.get("/api/games", params={"table": table["table_id"]}).json()
            assert [g["game_id"] for g in listed["games"]] == [first["game_id"]] and listed["total"] == 1
            assert listed["games"][0]["finished"] and listed["games"][0]["result"] == first["result"]
            running = client.get("/api/games", params={"table": table["table_id"], "finished": "false"}).json()
            assert running == {"games": [], "total": 0}
            repo.finish_game = real
            ws.send_json({"type": "next_game"})  # the table goes on with the next deal
            state = my_turn(ws, ws.receive_json())
            assert state["status"] == "playing" and state["your_turn"]
            ws.send_json({"type": "action", "action": state["legal"][0]})
            state = ws.receive_json()
    with TestClient(create_app(url, config=CONFIG)) as client:
        stored = client.get(f"/api/games/{first['game_id']}").json()
        assert stored["finished"] and stored["result"] == first["result"]
        assert client.get(f"/api/games/{first['game_id']}/record").status_code == 200


def test_a_result_written_while_the_game_is_read_is_seen_in_one_or_the_other(tmp_path: Path) -> None:
    """The race behind a CI failure (409 "game_running" for a finished game's analysis): the background write
    of the result lands while a request reads the game.  The request took the pending results before the
    read, so it sees the result in the database row or among them, never in neither."""
    url = f"sqlite:///{tmp_path / 'games.db'}"
    with TestClient(create_app(url, config=CONFIG)) as client:
        repo = app_parts(client.app).repo
        manager = app_parts(client.app).manager
        real_finish, real_get, real_list = repo.finish_game, repo.get_game, repo.list_games
        held: dict[int, tuple[dict[str, Any], str]] = {}

        def hold(game_id: int, result: dict[str, Any], record: str) -> None:
            held[game_id] = (result, record)
            raise StorageError("held back by the test")

        def land(game_id: int) -> None:
            """What the background write does: the row is written, then the pending result forgotten."""
            real_finish(game_id, *held[game_id])
            manager.results._pending.pop(game_id)

        def read_then_land(game_id: int) -> Any:
            row = real_get(game_id)  # read before the write ...
            land(game_id)  # ... which lands before the request looks at the pending results
            return row

        repo.finish_game = hold
        table = client.post("/api/tables", json={"opponent": "random", "seed": 4}).json()
        with client.websocket_connect(table["ws_url"]) as ws:
            game_id = play_to_the_end(ws, hello(ws, table["token"]))["game_over"]["game_id"]
        wait_for(lambda: game_id in held)  # the background write was tried (game_over goes out before it)
        assert real_get(game_id).finished is False
        repo.get_game = read_then_land
        assert client.get(f"/api/games/{game_id}/record").status_code == 200
        repo.get_game = real_get
        assert real_get(game_id).finished is True

        # The same for the list: a second game, its write landing after the list was read.
        with client.websocket_connect(table["ws_url"]) as ws:
            hello(ws, table["token"])
            ws.send_json({"type": "next_game"})
            second = play_to_the_end(ws, my_turn(ws, ws.receive_json()))["game_over"]["game_id"]
        wait_for(lambda: second in held)

        def list_then_land(*args: Any) -> Any:
            rows = real_list(*args)
            land(second)
            return rows

        repo.list_games = list_then_land
        listed = client.get("/api/games", params={"table": table["table_id"]}).json()
        assert [(g["game_id"], g["finished"]) for g in listed["games"]] == [(second, True), (game_id, True)]


def test_a_refused_new_deal_leaves_the_finished_game_on_the_table(tmp_path: Path) -> None:
    """docs/web.md `storage`: the database refused, the table is unchanged.  A new deal is stored
    before the table changes, so a refused one can be asked for again and memory never runs ahead of
    the database (a new app on the same database shows the same table)."""
    url = f"sqlite:///{tmp_path / 'games.db'}"
    with TestClient(create_app(url, config=CONFIG)) as client:
        repo = app_parts(client.app).repo
        real = repo.start_game
        table = client.post("/api/tables", json={"opponent": "random", "seed": 4}).json()
        live = app_parts(client.app).manager.tables[table["table_id"]]
        with client.websocket_connect(table["ws_url"]) as ws:
            state = play_to_the_end(ws, hello(ws, table["token"]))
            games_before, matches_before = len(live.match.games), live.matches

            def refuse(*args: Any, **kwargs: Any) -> int:
                raise StorageError("new deal: OperationalError: disk I/O error")

            repo.start_game = refuse
            ws.send_json({"type": "next_game"})
            error = ws.receive_json()
            assert error["type"] == "error" and error["code"] == "storage", error
            assert live.matches is matches_before and len(live.match.games) == games_before
            assert live.game.is_over
            repo.start_game = real
            ws.send_json({"type": "next_game"})
            state = my_turn(ws, ws.receive_json())
            assert state["status"] == "playing" and len(live.match.games) == games_before + 1
            dealt = [c.code for c in live.game.hands[0]]
    with TestClient(create_app(url, config=CONFIG)) as client:
        assert client.get(f"/api/tables/{table['table_id']}").status_code == 200  # loads the table
        reloaded = app_parts(client.app).manager.tables[table["table_id"]]
        assert len(reloaded.match.games) == games_before + 1
        assert [c.code for c in reloaded.game.hands[0]] == dealt
