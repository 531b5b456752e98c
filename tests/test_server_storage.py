"""The web app's repository (bummerl.server.storage): tables, seats, actions, history, analyses.

Every table's seats are rows of ``bummerl_table_seats`` (revision 0005), two to four of them, with one set of
methods for every kind of table (issue 11).
"""

from __future__ import annotations

import pytest

pytest.importorskip("fastapi", reason="needs the 'web' extra: pip install -e '.[web]'")

import sqlite3
from collections.abc import Iterator
from pathlib import Path

from bummerl.server.config import ServerConfig, default_data_dir
from bummerl.server.storage import (
    ActionConflictError,
    Repository,
    SeatData,
    StorageError,
    UnknownCodeError,
    hash_token,
)


@pytest.fixture
def repo(tmp_path: Path) -> Iterator[Repository]:
    r = Repository(f"sqlite:///{tmp_path / 'test.db'}")
    r.create_schema()
    yield r
    r.dispose()


def seats_for(name: str, *others: str, codes: tuple[str, ...] = ()) -> list[SeatData]:
    """Seat 0 for ``name``, then one seat per entry of ``others``: ``"friend"`` (kept for the next of ``codes``)
    or a bot's name."""
    seats = [SeatData(0, "human", None, name, True, None)]
    waiting = iter(codes)
    for seat, who in enumerate(others, 1):
        if who == "friend":
            seats.append(SeatData(seat, "friend", None, None, False, next(waiting)))
        else:
            seats.append(SeatData(seat, "bot", who, None, False, None))
    return seats


def _table(repo: Repository, table_id: str = "t1", code: str | None = "code-1") -> None:
    seats = seats_for("Anna", "friend", codes=(code,)) if code else seats_for("Anna", "random")
    repo.create_table(table_id, "schnapsen", {"auto_declare": True}, 2**64 - 5, 7, seats, {0: hash_token("tok0")})


def test_a_seat_token_is_stored_only_as_its_hash(repo: Repository, tmp_path: Path) -> None:
    _table(repo)
    assert repo.take_seat("code-1", "Bert", hash_token("tok1")) == ("t1", 1)
    assert (repo.seat_of("t1", "tok0"), repo.seat_of("t1", "tok1"), repo.seat_of("t1", "tok2")) == (0, 1, None)
    assert repo.seat_of("no-table", "tok0") is None
    with sqlite3.connect(tmp_path / "test.db") as db:
        dump = "\n".join(db.iterdump())
    assert "tok0" not in dump and "tok1" not in dump and hash_token("tok0") in dump


def test_seat_1_is_taken_once_and_only_with_the_right_code(repo: Repository) -> None:
    _table(repo)
    with pytest.raises(UnknownCodeError, match="unknown join code"):
        repo.take_seat("wrong", "Eve", hash_token("x"))
    repo.take_seat("code-1", "Bert", hash_token("tok1"))
    with pytest.raises(StorageError, match="taken"):
        repo.take_seat("code-1", "Carl", hash_token("tok2"))
    assert [(s.name, s.taken) for s in repo.load_table("t1").seats] == [("Anna", True), ("Bert", True)]


def test_the_seats_of_every_kind_of_table_are_one_set_of_rows(repo: Repository) -> None:
    """A two-player table and a table game keep their seats alike: each seat kept for a friend has a code of its
    own, is taken once, and every seat's token is looked up by the same method."""
    _table(repo, "two", "c-two")
    seats = seats_for("Anna", "friend", "heuristic", "friend", codes=("c-1", "c-3"))
    made = repo.create_table("four", "bauernschnapsen", {}, 7, 24, seats, {0: hash_token("a")})
    assert [(s.seat, s.kind, s.taken) for s in made.seats] == [
        (0, "human", True),
        (1, "friend", False),
        (2, "bot", False),
        (3, "friend", False),
    ]
    assert repo.take_seat("c-3", "Dora", hash_token("d")) == ("four", 3)
    assert repo.take_seat("c-two", "Bert", hash_token("b")) == ("two", 1)
    assert repo.take_seat("c-1", "Carl", hash_token("c")) == ("four", 1)
    assert [repo.seat_of("four", t) for t in ("a", "c", "d", "b")] == [0, 1, 3, None]
    assert repo.seat_of("two", "b") == 1 and repo.seat_of("two", "d") is None
    four = repo.seats("four")
    assert [(s.name, s.bot, s.shown_name) for s in four] == [
        ("Anna", None, "Anna"),
        ("Carl", None, "Carl"),
        (None, "heuristic", "heuristic"),
        ("Dora", None, "Dora"),
    ]
    assert repo.load_table("four").seats == four and repo.seats("nowhere") == []


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


def test_the_clock_stand_ins_moves_are_stored_with_their_mark_alone_and_in_a_batch(repo: Repository) -> None:
    """docs/web.md (clocks, restarts): an action the clock's stand-in played keeps why (``time``, ``away``,
    ``over``), one at a time and in a group commit's batch beside a seat's own moves; nothing else is a mark."""
    _table(repo)
    game_id = repo.start_game("t1", 0, 0, 1, "AhTh", "1")
    repo.append_action(game_id, 0, "Ah", stand_in="time")
    rows = [(game_id, 1, "Th", None, None), (game_id, 2, "Kh", None, "over"), (game_id, 3, "Qh", None, "away")]
    assert repo.append_actions(rows) == [None, None, None]
    game = repo.load_table("t1").games[0]
    assert game.actions == ["Ah", "Th", "Kh", "Qh"] and game.stand_ins == {0: "time", 2: "over", 3: "away"}
    with pytest.raises(ValueError, match="stand_in must be one of time, away, over"):
        repo.append_action(game_id, 4, "Jh", stand_in="bot")


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
