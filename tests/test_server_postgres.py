"""The web app on a real PostgreSQL server (issue 5: "a `--database-url` takes PostgreSQL through SQLAlchemy").

The storage, game, history and restart tests written for SQLite run again here,
unchanged, each in a fresh schema of a throwaway cluster (``tests/pg_server.py``):
PostgreSQL checks what SQLite lets through (string lengths, real booleans,
foreign keys, sequences for the game ids, concurrent transactions).  Skipped when
no PostgreSQL is installed, except under ``CI``, where that fails.
"""

from __future__ import annotations

import pytest

pytest.importorskip("fastapi", reason="needs the 'web' extra: pip install -e '.[web]'")
pytest.importorskip("psycopg", reason="needs the 'postgres' extra: pip install -e '.[postgres]'")

import threading
import time
import warnings
from collections.abc import Callable, Iterator
from typing import Any

from sqlalchemy import inspect, text

import test_server_api as api_tests
import test_server_restart as restart_tests
import test_server_storage as storage_tests
import test_server_ws as ws_tests
from pg_server import PostgresCluster, postgres_server, postgres_url

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

from bummerl.server import migrations
from bummerl.server.app import create_app
from bummerl.server.routes.deps import app_parts
from bummerl.server.storage import ActionConflictError, Repository, SeatData, StorageError, hash_token, now
from test_server_storage import seats_for

# Fixtures of pg_server used by this module (pytest finds fixtures by name in the module).
__all__ = ["postgres_server", "postgres_url"]


@pytest.fixture
def repo(postgres_url: str) -> Iterator[Repository]:
    r = Repository(postgres_url)
    r.create_schema()
    yield r
    r.dispose()


@pytest.fixture
def client(postgres_url: str) -> Iterator[TestClient]:
    with TestClient(create_app(postgres_url, config=ws_tests.CONFIG)) as c:
        yield c


def test_the_server_is_postgresql_on_loopback(postgres_url: str, repo: Repository) -> None:
    """The tests below really talk to PostgreSQL, and the cluster listens on 127.0.0.1 only."""
    with repo.engine.connect() as db:
        assert repo.engine.dialect.name == "postgresql"
        assert db.scalar(text("SHOW listen_addresses")) == "127.0.0.1"
        assert db.scalar(text("SELECT current_setting('server_version_num')::int")) >= 120000
    # The test's own schema, so no test sees another's rows.
    assert inspect(repo.engine).default_schema_name == postgres_url.rpartition("application_name=")[2]
    names = set(inspect(repo.engine).get_table_names())
    assert {"bummerl_tables", "bummerl_games", "bummerl_actions"} <= names


@pytest.mark.parametrize("scheme", ["postgres", "postgresql"])
def test_libpq_spellings_of_the_url_use_psycopg(scheme: str, postgres_url: str) -> None:
    """`--database-url postgresql://...` (as libpq and most hosts write it) takes the `postgres` extra's driver."""
    repo = Repository(postgres_url.replace("postgresql+psycopg", scheme, 1))
    repo.create_schema()
    assert repo.engine.dialect.driver == "psycopg" and repo.tables_to_resume() == []
    repo.dispose()


@pytest.mark.parametrize(
    "check",
    [
        storage_tests.test_seat_1_is_taken_once_and_only_with_the_right_code,
        storage_tests.test_the_seats_of_every_kind_of_table_are_one_set_of_rows,
        storage_tests.test_actions_are_appended_in_order_and_never_twice,
        storage_tests.test_history_lists_newest_first_with_filters,
        storage_tests.test_an_analysis_is_claimed_once_and_a_stopped_one_is_forgotten,
    ],
    ids=lambda f: f.__name__.removeprefix("test_"),
)
def test_storage(check: Callable[[Repository], None], repo: Repository) -> None:
    check(repo)


def test_a_seat_token_is_stored_only_as_its_hash(repo: Repository) -> None:
    """As tests/test_server_storage.py, reading every row of every table of the PostgreSQL database."""
    repo.create_table(
        "t1", "schnapsen", {}, 1, 7, seats_for("Anna", "friend", codes=("code-1",)), {0: hash_token("tok0")}
    )
    repo.take_seat("code-1", "Bert", hash_token("tok1"))
    assert (repo.seat_of("t1", "tok0"), repo.seat_of("t1", "tok1"), repo.seat_of("t1", "x")) == (0, 1, None)
    with repo.engine.connect() as db:
        dump = "\n".join(
            repr(tuple(row))
            for name in ("bummerl_tables", "bummerl_table_seats", "bummerl_games", "bummerl_actions")
            for row in db.execute(text(f"SELECT * FROM {name}"))
        )
    assert "tok0" not in dump and "tok1" not in dump and hash_token("tok0") in dump


def test_the_longest_values_the_api_accepts_fit_the_columns(repo: Repository) -> None:
    """PostgreSQL enforces VARCHAR lengths (SQLite does not): a 32-card pack, 40-character names
    (messages.CreateTable), a 64-character bot name, the longest action token and 20-digit seeds."""
    name = "Ö" * 40
    seats = [SeatData(0, "human", None, name, True, None), SeatData(1, "friend", None, None, False, "c" * 64)]
    seats += [SeatData(s, "bot", "b" * 64, None, False, None) for s in (2, 3)]
    repo.create_table("t" * 32, "x" * 64, {"o": True}, 2**64 - 1, 99, seats, {0: hash_token("a")})
    assert repo.take_seat("c" * 64, name, hash_token("b")) == ("t" * 32, 1)
    pack = "".join(f"{r}{s}" for s in "hdcs" for r in "789TJQKA")
    game_id = repo.start_game("t" * 32, 0, 0, 1, pack, str(2**64 - 1))
    repo.append_action(game_id, 0, "declare:h")
    repo.finish_game(game_id, {"winner": 0}, "r" * 100_000)
    table = repo.load_table("t" * 32)
    assert table.seed == 2**64 - 1 and [s.shown_name for s in table.seats] == [name, name, "b" * 64, "b" * 64]
    assert table.games[0].deck == pack and table.games[0].actions == ["declare:h"]
    game = repo.get_game(game_id)
    assert game is not None and game.record == "r" * 100_000 and game.seed == str(2**64 - 1)


def test_two_writers_racing_for_one_ply_store_one_action(repo: Repository) -> None:
    """The primary key (game, ply) decides between concurrent transactions: one wins, the other is told."""
    repo.create_table("t1", "schnapsen", {}, 1, 7, seats_for("Anna", "random"), {0: hash_token("a")})
    game_id = repo.start_game("t1", 0, 0, 1, "x", None)
    start = threading.Barrier(8)
    outcomes: list[str] = []

    def write(token: str) -> None:
        start.wait()
        try:
            repo.append_action(game_id, 0, token)
            outcomes.append("stored")
        except ActionConflictError:
            outcomes.append("conflict")

    threads = [threading.Thread(target=write, args=(t,)) for t in ("Ah", "Th", "Kh", "Qh", "Jh", "As", "Ts", "Ks")]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(outcomes) == ["conflict"] * 7 + ["stored"]
    game = repo.get_game(game_id)
    assert game is not None and len(game.actions) == 1


def test_a_whole_game_against_a_bot_leaves_no_transaction_or_connection_open(
    postgres_server: PostgresCluster, postgres_url: str
) -> None:
    """An open transaction would hold locks between moves; a stopped app must close its connections."""
    with TestClient(create_app(postgres_url, config=ws_tests.CONFIG)) as client:
        ws_tests.test_a_whole_game_against_a_bot_ends_with_both_hands_and_the_record(client)
        # A background write (the result stored after game_over, the analysis) may be between two statements of
        # its transaction at this instant; what must not happen is a transaction that stays open.
        deadline = time.monotonic() + 10
        while True:
            sessions = postgres_server.sessions(postgres_url)
            lingering = [s for s in sessions if s.startswith("idle in transaction")]
            if not lingering or time.monotonic() > deadline:
                break
            time.sleep(0.1)
        assert sessions and not lingering
    # A closed connection's server process leaves pg_stat_activity a moment after the client hung up: one that is
    # still listed after 5 s was never closed.
    deadline = time.monotonic() + 5
    while postgres_server.sessions(postgres_url) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert postgres_server.sessions(postgres_url) == []


def test_lost_connections_cost_no_action_and_a_refused_action_leaves_the_table(
    postgres_server: PostgresCluster, postgres_url: str, client: TestClient
) -> None:
    """docs/web.md: `storage` "the database refused to store the action (the table is unchanged)".
    Connections cut by the database (its restart, a failover) cost no action; a database that refuses
    the row (here: disk full) gets the action answered with `storage`, and it can be sent again."""
    schema = postgres_url.rpartition("application_name=")[2]
    table = ws_tests.create(client, opponent="random", name="Anna", seed=8)
    live = app_parts(client.app).manager.tables[table["table_id"]]
    repo: Repository = app_parts(client.app).repo

    def stored() -> list[str]:
        return repo.load_table(table["table_id"]).games[-1].actions

    with client.websocket_connect(table["ws_url"]) as ws:
        state = restart_tests.my_turn(ws, ws_tests.hello(ws, table["token"]))
        assert postgres_server.drop_sessions(postgres_url) >= 1
        played = state["legal"][0]
        ws.send_json({"type": "action", "action": played})
        state = restart_tests.my_turn(ws, ws.receive_json())
        assert played in stored() and stored() == [a.token for a in live.game.actions]

        postgres_server.sql(
            f"CREATE FUNCTION {schema}.refuse() RETURNS trigger LANGUAGE plpgsql AS "
            "$$ BEGIN RAISE EXCEPTION 'no space left' USING ERRCODE = 'disk_full'; END $$"
        )
        postgres_server.sql(
            f"CREATE TRIGGER refuse BEFORE INSERT ON {schema}.bummerl_actions "
            f"FOR EACH ROW EXECUTE FUNCTION {schema}.refuse()"
        )
        before = list(live.game.actions)
        ws.send_json({"type": "action", "action": state["legal"][0]})
        error = ws.receive_json()
        assert error["type"] == "error" and error["code"] == "storage" and "DiskFull" in error["message"], error
        assert live.game.actions == before and live.game.to_move == 0 and stored() == [a.token for a in before]

        postgres_server.sql(f"DROP TRIGGER refuse ON {schema}.bummerl_actions")
        ws.send_json({"type": "action", "action": state["legal"][0]})
        state = restart_tests.my_turn(ws, ws.receive_json())
        assert len(live.game.actions) > len(before) and stored() == [a.token for a in live.game.actions]


def test_a_friend_table_through_a_whole_bummerl(client: TestClient) -> None:
    ws_tests.test_a_friend_table_is_played_by_both_seats_through_a_whole_bummerl(client)


def test_history_record_and_replay(client: TestClient) -> None:
    api_tests.test_a_finished_game_has_its_record_replay_and_history_entry(client)


def test_the_analysis_is_cached_in_the_database(client: TestClient) -> None:
    api_tests.test_the_analysis_runs_once_in_a_worker_and_is_cached(client)


@pytest.mark.parametrize(
    "scenario",
    [
        restart_tests.play_on_after_a_restart,
        restart_tests.bot_resumes_after_a_restart,
        restart_tests.finish_on_restart,
    ],
    ids=lambda f: f.__name__,
)
def test_restart(scenario: Callable[[str], Any], postgres_url: str) -> None:
    scenario(postgres_url)


def test_an_older_narrow_token_column_is_widened_at_start(postgres_url: str) -> None:
    """A database at revision 0002, before the action token grew to 40 characters, would refuse the table
    games' long bids ("bid:kontra-bauernschnapser"); starting the server runs the migrations, which widen it
    and keep the rows (tests/test_server_migrations.py: the same from a database made before Alembic)."""
    narrow = Repository(postgres_url)
    with narrow.engine.begin() as db:
        migrations.upgrade(db, "0002")
        db.execute(
            text(
                "INSERT INTO bummerl_tables (id, variant, options, seed, target, opponent, seat0_name, seat0_token,"
                " created_at) VALUES ('t1', 'schnapsen', '{}', '7', 7, 'random', 'Anna', :token, :now)"
            ),
            {"token": hash_token("s"), "now": now()},
        )
    game_id = narrow.start_game("t1", 0, 0, 1, "AhTh", "1")
    narrow.append_action(game_id, 0, "Ah")
    with pytest.raises(StorageError):
        narrow.append_action(game_id, 1, "bid:kontra-bauernschnapser")
    narrow.create_schema()
    token = next(c for c in inspect(narrow.engine).get_columns("bummerl_actions") if c["name"] == "token")
    assert token["type"].length == 40
    narrow.append_action(game_id, 1, "bid:kontra-bauernschnapser")
    assert narrow.load_table("t1").games[0].actions == ["Ah", "bid:kontra-bauernschnapser"]
    narrow.dispose()
