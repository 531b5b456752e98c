"""The web app's repository (bummerl.server.storage): tables, seats, actions, history, analyses."""

from __future__ import annotations

import pytest

pytest.importorskip("fastapi", reason="needs the 'web' extra: pip install -e '.[web]'")

import sqlite3
from collections.abc import Iterator
from pathlib import Path

from bummerl.server.config import ServerConfig, default_data_dir
from bummerl.server.storage import ActionConflictError, Repository, StorageError, hash_token


@pytest.fixture
def repo(tmp_path: Path) -> Iterator[Repository]:
    r = Repository(f"sqlite:///{tmp_path / 'test.db'}")
    r.create_schema()
    yield r
    r.dispose()


def _table(repo: Repository, table_id: str = "t1", code: str | None = "code-1") -> None:
    repo.create_table(
        table_id, "schnapsen", {"auto_declare": True}, 2**64 - 5, 7, "friend", "Anna", hash_token("tok0"), code
    )


def test_a_seat_token_is_stored_only_as_its_hash(repo: Repository, tmp_path: Path) -> None:
    _table(repo)
    table_id = repo.take_seat1("code-1", "Bert", hash_token("tok1"))
    assert table_id == "t1"
    assert (repo.seat_of("t1", "tok0"), repo.seat_of("t1", "tok1"), repo.seat_of("t1", "tok2")) == (0, 1, None)
    assert repo.seat_of("no-table", "tok0") is None
    with sqlite3.connect(tmp_path / "test.db") as db:
        dump = "\n".join(db.iterdump())
    assert "tok0" not in dump and "tok1" not in dump and hash_token("tok0") in dump


def test_seat_1_is_taken_once_and_only_with_the_right_code(repo: Repository) -> None:
    _table(repo)
    with pytest.raises(StorageError, match="unknown join code"):
        repo.take_seat1("wrong", "Eve", hash_token("x"))
    repo.take_seat1("code-1", "Bert", hash_token("tok1"))
    with pytest.raises(StorageError, match="taken"):
        repo.take_seat1("code-1", "Carl", hash_token("tok2"))
    assert repo.load_table("t1").seat_names == ("Anna", "Bert")


def test_actions_are_appended_in_order_and_never_twice(repo: Repository) -> None:
    _table(repo)
    game_id = repo.start_game("t1", 0, 0, 1, "AhTh", str(2**64 - 1))
    for ply, token in enumerate(["exchange", "Ah", "Kh"]):
        repo.append_action(game_id, ply, token)
    with pytest.raises(ActionConflictError, match="already has action 2"):
        repo.append_action(game_id, 1, "Th")
    table = repo.load_table("t1")
    assert table.seed == 2**64 - 5 and table.options == {"auto_declare": True}
    assert [(g.id, g.actions, g.seed) for g in table.games] == [(game_id, ["exchange", "Ah", "Kh"], str(2**64 - 1))]
    assert repo.tables_to_resume() == ["t1"]
    repo.finish_game(game_id, {"winner": 0, "points": 2}, "record text")
    assert repo.tables_to_resume() == []
    game = repo.get_game(game_id)
    assert game is not None and game.finished and game.record == "record text" and game.finished_at


def test_history_lists_newest_first_with_filters(repo: Repository) -> None:
    _table(repo, "t1", "c1")
    _table(repo, "t2", "c2")
    ids = [repo.start_game(t, 0, n, 0, "x", None) for t, n in [("t1", 0), ("t2", 0), ("t1", 1)]]
    for game_id in ids[:2]:
        repo.finish_game(game_id, {}, "r")
    rows, total = repo.list_games(finished=True)
    assert [g.id for g, _ in rows] == [ids[1], ids[0]] and total == 2
    rows, total = repo.list_games(table_id="t1", finished=None)
    assert [g.id for g, _ in rows] == [ids[2], ids[0]] and total == 2
    rows, total = repo.list_games(finished=None, limit=1, offset=1)
    assert [g.id for g, _ in rows] == [ids[1]] and total == 3
    assert repo.table_of_game(ids[1]) is not None and repo.table_of_game(999) is None


def test_an_analysis_is_claimed_once_and_a_stopped_one_is_forgotten(repo: Repository) -> None:
    _table(repo)
    game_id = repo.start_game("t1", 0, 0, 1, "x", None)
    assert repo.analysis(game_id) == (None, None)
    assert repo.claim_analysis(game_id) is True
    assert repo.claim_analysis(game_id) is False
    repo.reset_running_analyses()  # a server stopped while it ran
    assert repo.claim_analysis(game_id) is True
    repo.store_analysis(game_id, "done", {"decisions": []})
    assert repo.analysis(game_id) == ("done", {"decisions": []})
    repo.reset_running_analyses()
    assert repo.claim_analysis(game_id) is False
    with pytest.raises(StorageError):
        repo.analysis(12345)


def test_the_default_database_lives_in_the_users_data_folder(tmp_path: Path) -> None:
    assert ServerConfig().resolved_database_url() == f"sqlite:///{default_data_dir() / 'bummerl.db'}"
    assert default_data_dir().name == "bummerl"
    config = ServerConfig(data_dir=tmp_path / "new")
    config.prepare()
    assert (tmp_path / "new").is_dir()
    ServerConfig(database_url="sqlite://", data_dir=tmp_path / "unused").prepare()
    assert not (tmp_path / "unused").exists()
