"""The moves of all tables are stored in batches, each committed before its moves are played (issue 24, "Many
people at once"; bummerl.server.database, "Group commit").

The rule of docs/web.md stays: "Every action is written to the database before it changes the table".  Checked
here: the moves that arrive together go into one transaction, and each is in the database (seen by another
connection) when its ``append_action`` returns; a row that is refused fails its own caller only; a database that
is locked fails every waiting move with ``StorageUnavailable`` (each caller its own error), and the next moves go
through once it is free.  The cluster's fenced writes batch the same way (tests/test_server_cluster.py covers a
lease lost mid-game through the live tables; here, a batch with one lost lease, on PostgreSQL).
"""

from __future__ import annotations

import asyncio
import dataclasses
import sqlite3
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import pytest

pytest.importorskip("sqlalchemy", reason="needs the 'web' extra: pip install -e '.[web]'")

from bummerl.server.database import Database, StorageUnavailable
from bummerl.server.leases import Leases
from bummerl.server.storage import ActionConflictError, NotOwnerError, Repository, SeatData, hash_token
from pg_server import postgres_server, postgres_url  # noqa: F401 (fixtures)

T = TypeVar("T")

SEATS = [SeatData(0, "human", None, "Anna", True, None), SeatData(1, "bot", "random", None, True, None)]


def _games(repo: Repository, tables: int) -> list[int]:
    """A game on each of ``tables`` new tables: their ids."""
    games = []
    for k in range(tables):
        repo.create_table(f"t{k}", "schnapsen", {}, k, 7, SEATS, {0: hash_token(f"s{k}")})
        games.append(repo.start_game(f"t{k}", 0, 0, 1, "AhTh", str(k)))
    return games


def _database(
    tmp_path: Path, tables: int, threads: int, busy_timeout: float = 2.0
) -> tuple[Path, Repository, list[int], Database]:
    """A SQLite file with a game on each of ``tables`` tables, and its :class:`Database` of ``threads`` threads."""
    path = tmp_path / "b.db"
    repo = Repository(f"sqlite:///{path}", busy_timeout=busy_timeout)
    repo.create_schema()
    return path, repo, _games(repo, tables), Database(repo, threads=threads)


def _stored(path: Path) -> set[tuple[int, int, str]]:
    """The action rows as another connection sees them (committed ones only)."""
    with sqlite3.connect(path) as db:
        return set(db.execute("SELECT game_id, ply, token FROM bummerl_actions"))


def test_moves_that_arrive_together_are_one_transaction_and_stored_before_they_return(tmp_path: Path) -> None:
    path, repo, games, db = _database(tmp_path, 20, 4)
    seen: list[bool] = []

    async def move(game_id: int, ply: int) -> None:
        await db.append_action(game_id, ply, "Ah")
        seen.append((game_id, ply, "Ah") in _stored(path))  # committed: another connection sees it

    async def play() -> None:
        await asyncio.gather(*(move(g, 0) for g in games))
        await asyncio.gather(*(move(g, 1) for g in games[:5]))

    try:
        asyncio.run(play())
    finally:
        db.close()
    assert seen == [True] * 25
    assert len(_stored(path)) == 25
    assert db.batches == 2  # 20 moves in one transaction, then 5
    repo.dispose()


def test_a_refused_move_fails_its_caller_alone(tmp_path: Path) -> None:
    path, repo, games, db = _database(tmp_path, 4, 2)
    repo.append_action(games[2], 0, "Ah")  # another writer stored this ply first

    async def play() -> list[BaseException | None]:
        return await asyncio.gather(*(db.append_action(g, 0, "Kh") for g in games), return_exceptions=True)

    try:
        outcomes = asyncio.run(play())
    finally:
        db.close()
    assert [type(o).__name__ for o in outcomes] == ["NoneType", "NoneType", "ActionConflictError", "NoneType"]
    assert isinstance(outcomes[2], ActionConflictError)
    assert _stored(path) == {(games[0], 0, "Kh"), (games[1], 0, "Kh"), (games[2], 0, "Ah"), (games[3], 0, "Kh")}
    repo.dispose()


def test_a_locked_database_fails_every_waiting_move_and_the_next_ones_go_through(tmp_path: Path) -> None:
    path, repo, games, db = _database(tmp_path, 6, 2, 0.2)
    lock = sqlite3.connect(path, isolation_level=None)

    async def play() -> list[BaseException | None]:
        lock.execute("BEGIN EXCLUSIVE")
        try:
            return await asyncio.gather(*(db.append_action(g, 0, "Ah") for g in games), return_exceptions=True)
        finally:
            lock.execute("ROLLBACK")

    try:
        failed = asyncio.run(play())
        asyncio.run(db.append_action(games[0], 0, "Ah"))
    finally:
        db.close()
        lock.close()
    assert all(isinstance(e, StorageUnavailable) for e in failed)
    assert len({id(e) for e in failed}) == len(games)  # each caller raises its own error
    assert _stored(path) == {(games[0], 0, "Ah")}
    repo.dispose()


def test_the_other_writes_of_the_games_take_turns_with_the_batches(tmp_path: Path) -> None:
    # A result written beside a batch of moves made one of the two sleep in SQLite's busy handler: one at a time.
    path, repo, games, db = _database(tmp_path, 8, 4)
    inside, most = [0], [0]
    guard = threading.Lock()

    def counted(call: Callable[..., T]) -> Callable[..., T]:
        def wrapper(*args: Any) -> T:
            with guard:
                inside[0] += 1
                most[0] = max(most[0], inside[0])
            try:
                time.sleep(0.01)
                return call(*args)
            finally:
                with guard:
                    inside[0] -= 1

        return wrapper

    repo.append_actions = counted(repo.append_actions)  # type: ignore[method-assign]
    finish = counted(repo.finish_game)

    async def play() -> None:
        first = [db.append_action(g, 0, "Ah") for g in games]
        results = [db.write(finish, g, {"winner": 0}, "record") for g in games[:4]]
        second = [db.append_action(g, 1, "Th") for g in games]
        await asyncio.gather(*first, *results, *second)

    try:
        asyncio.run(play())
    finally:
        db.close()
    assert most == [1]
    assert len(_stored(path)) == 16
    with sqlite3.connect(path) as conn:
        assert conn.execute("SELECT count(*) FROM bummerl_games WHERE finished").fetchone() == (4,)
    repo.dispose()


def test_a_batch_with_a_lost_lease_stores_the_others(postgres_url: str) -> None:  # noqa: F811
    repo = Repository(postgres_url)
    repo.create_schema()
    node = Leases(repo.engine, "a", ttl=30, host="here", pid=1)
    node.beat()
    games, held = [], []
    for k in range(3):
        repo.create_table(f"t{k}", "schnapsen", {}, k, 7, SEATS, {0: hash_token(f"s{k}")})
        lease = node.take(f"t{k}")
        assert not isinstance(lease, str)
        held.append(lease)
        games.append(repo.start_game(f"t{k}", 0, 0, 1, "AhTh", None, lease))
    lost = dataclasses.replace(held[1], generation=held[1].generation - 1)  # a take of t1 came after it
    db = Database(repo, threads=2)

    async def play() -> list[BaseException | None]:
        moves = (db.append_action(g, 0, "Ah", lease) for g, lease in zip(games, [held[0], lost, held[2]], strict=True))
        return await asyncio.gather(*moves, return_exceptions=True)

    try:
        outcomes = asyncio.run(play())
    finally:
        db.close()
    assert outcomes[0] is None and outcomes[2] is None and isinstance(outcomes[1], NotOwnerError)
    assert db.batches == 1
    assert [[g.actions for g in repo.load_table(f"t{k}").games] for k in range(3)] == [[["Ah"]], [[]], [["Ah"]]]
    repo.dispose()


def test_the_database_threads_answer_skip_a_cancelled_call_and_refuse_after_close(tmp_path: Path) -> None:
    """The database's own threads (``database._Threads``, in place of a ``ThreadPoolExecutor``: issue 24's load)
    keep the pool's rules: an answer or an error reaches the caller, a call whose caller was cancelled before it
    started never runs, a call after :meth:`Database.close` fails at once and the moves then waiting hear it."""
    _, repo, games, db = _database(tmp_path, 1, threads=1)
    ran: list[str] = []
    gate = threading.Event()

    def blocked() -> str:
        gate.wait(5)
        ran.append("blocked")
        return "first"

    def never() -> None:
        ran.append("never")

    def fails() -> None:
        raise ValueError("refused")

    async def scenario() -> None:
        first = asyncio.ensure_future(db.run(blocked))  # holds the one thread
        await asyncio.sleep(0.05)
        second = asyncio.ensure_future(db.run(never))  # queued behind it
        await asyncio.sleep(0.05)
        second.cancel()
        gate.set()
        assert await first == "first"
        with pytest.raises(asyncio.CancelledError):
            await second
        with pytest.raises(ValueError, match="refused"):
            await db.run(fails)
        assert await db.run(lambda: threading.current_thread().name) == "bummerl-db_0"
        db.close()
        with pytest.raises(RuntimeError, match="after shutdown"):
            await db.run(never)
        with pytest.raises(Exception, match="not stored"):
            await db.append_action(games[0], 0, "Ah")

    try:
        asyncio.run(scenario())
        assert ran == ["blocked"]
    finally:
        db.close()
        repo.dispose()
