"""The web app's schema changes (bummerl.server.migrations, GitHub issue #10, finding 11).

The server makes and changes its schema with Alembic at start-up.  Checked here,
on an SQLite file and on PostgreSQL (a throwaway cluster, ``tests/pg_server.py``;
skipped without one, except under ``CI``): an empty database is upgraded to the
newest revision, which is exactly what the models describe; a database made
before Alembic (tables made by ``create_all``, no ``alembic_version``) is
recognised, stamped and upgraded with every row kept; servers that start
together on one database do not trip over each other; every revision goes down
and up again; and ``python -m bummerl.server.migrations revision`` writes the
next numbered revision.
"""

from __future__ import annotations

import pytest

pytest.importorskip("fastapi", reason="needs the 'web' extra: pip install -e '.[web]'")

import shutil
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from sqlalchemy import (
    Boolean,
    Column,
    Connection,
    ForeignKey,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    create_engine,
    insert,
    inspect,
    text,
)

from bummerl.server import migrations
from bummerl.server.migrations.__main__ import main
from bummerl.server.storage import Repository, StorageError, _Base, hash_token
from bummerl.server.tournament_store import (  # its tables join _Base.metadata (revision 0007)
    TournamentPlan,
    TournamentStore,
)
from pg_server import postgres_server, postgres_url
from test_server_storage import seats_for

# Fixtures of pg_server used by this module (pytest finds fixtures by name in the module).
__all__ = ["postgres_server", "postgres_url"]

HEAD = migrations.head_revision()
NEXT = migrations.next_revision_id()
TABLES = {"bummerl_tables", "bummerl_games", "bummerl_actions", "bummerl_table_seats"}
#: The tables of cluster mode (revision 0006).
CLUSTER_TABLES = {"bummerl_cluster_nodes", "bummerl_table_owners"}
#: The tables of the web tournaments (revision 0007).
TOURNAMENT_TABLES = {"bummerl_tournaments", "bummerl_tournament_players", "bummerl_tournament_tables"}
#: The tables of the players (revision 0008).
PLAYER_TABLES = {
    "bummerl_players",
    "bummerl_player_keys",
    "bummerl_player_transfers",
    "bummerl_player_seats",
    "bummerl_game_outcomes",
}
#: The people's ratings (revision 0010).
RATING_TABLES = {"bummerl_people_ratings", "bummerl_rated_games", "bummerl_rating_changes"}
LONG_TOKEN = "bid:kontra-bauernschnapser"


def pre_alembic_schema(*, seats: bool = True, token_width: int = 40) -> MetaData:
    """The tables as the server made them with ``create_all`` before Alembic (a copy of those models).

    The defaults are the last such version (commit 0ad9934); ``seats=False,
    token_width=16`` the first web release (619f380); ``token_width=16`` a
    first-release database that a version with table games started on.
    """
    metadata = MetaData()
    Table(
        "bummerl_tables",
        metadata,
        Column("id", String(32), primary_key=True),
        Column("variant", String(64), nullable=False),
        Column("options", Text, nullable=False),
        Column("seed", String(24), nullable=False),
        Column("target", Integer, nullable=False),
        Column("opponent", String(64), nullable=False),
        Column("seat0_name", String(64), nullable=False),
        Column("seat1_name", String(64)),
        Column("seat0_token", String(64), nullable=False),
        Column("seat1_token", String(64)),
        Column("join_code", String(64), unique=True),
        Column("created_at", String(32), nullable=False),
    )
    Table(
        "bummerl_games",
        metadata,
        Column("id", Integer, primary_key=True, autoincrement=True),
        Column("table_id", ForeignKey("bummerl_tables.id"), nullable=False, index=True),
        Column("match_no", Integer, nullable=False),
        Column("game_no", Integer, nullable=False),
        Column("dealer", Integer, nullable=False),
        Column("deck", String(96), nullable=False),
        Column("seed", String(24)),
        Column("finished", Boolean, nullable=False, index=True),
        Column("result", Text),
        Column("record", Text),
        Column("analysis", Text),
        Column("analysis_status", String(16)),
        Column("started_at", String(32), nullable=False),
        Column("finished_at", String(32)),
    )
    Table(
        "bummerl_actions",
        metadata,
        Column("game_id", ForeignKey("bummerl_games.id"), primary_key=True),
        Column("ply", Integer, primary_key=True),
        Column("token", String(token_width), nullable=False),
        Column("created_at", String(32), nullable=False),
    )
    if seats:
        Table(
            "bummerl_table_seats",
            metadata,
            Column("table_id", ForeignKey("bummerl_tables.id"), primary_key=True),
            Column("seat", Integer, primary_key=True),
            Column("kind", String(16), nullable=False),
            Column("bot", String(64)),
            Column("name", String(64)),
            Column("token", String(64)),
            Column("join_code", String(64), unique=True),
        )
    return metadata


def make_pre_alembic_database(url: str, **schema: Any) -> None:
    """A database as an older server left it: its tables, one table with one game and one action."""
    metadata = pre_alembic_schema(**schema)
    engine = create_engine(url)
    metadata.create_all(engine)
    table = {
        "id": "t1",
        "variant": "schnapsen",
        "options": "{}",
        "seed": str(2**64 - 1),
        "target": 7,
        "opponent": "random",
        "seat0_name": "Anna",
        "seat0_token": hash_token("s"),
        "created_at": "2026-01-01",
    }
    game = {
        "id": 1,
        "table_id": "t1",
        "match_no": 0,
        "game_no": 0,
        "dealer": 1,
        "deck": "AhTh",
        "finished": False,
        "started_at": "2026-01-01",
    }
    with engine.begin() as db:
        db.execute(insert(metadata.tables["bummerl_tables"]), table)
        db.execute(insert(metadata.tables["bummerl_games"]), game)
        db.execute(
            insert(metadata.tables["bummerl_actions"]), {"game_id": 1, "ply": 0, "token": "Ah", "created_at": "x"}
        )
    engine.dispose()


def revision_of(repo: Repository) -> str | None:
    with repo.engine.connect() as db:
        return migrations.current_revision(db)


def differences(db: Connection) -> list[Any]:
    """What ``alembic revision --autogenerate`` would write: how the database differs from the models."""
    context = MigrationContext.configure(db, opts={"compare_type": True, "compare_server_default": True})
    diffs: list[Any] = compare_metadata(context, _Base.metadata)
    return diffs


def token_width(repo: Repository) -> int:
    token = next(c for c in inspect(repo.engine).get_columns("bummerl_actions") if c["name"] == "token")
    width: int = token["type"].length
    return width


@pytest.fixture(params=["sqlite", "postgresql"])
def url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """An empty database: an SQLite file, or a schema of its own on the PostgreSQL test cluster."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'bummerl.db'}"
    schema_url: str = request.getfixturevalue("postgres_url")
    return schema_url


def test_an_empty_database_gets_every_revision_and_then_agrees_with_the_models(url: str) -> None:
    repo = Repository(url)
    repo.create_schema()
    assert revision_of(repo) == HEAD == "0012"
    assert set(inspect(repo.engine).get_table_names()) == {
        *TABLES,
        *CLUSTER_TABLES,
        *TOURNAMENT_TABLES,
        *PLAYER_TABLES,
        *RATING_TABLES,
        "alembic_version",
    }
    with repo.engine.connect() as db:
        assert differences(db) == []
    # Starting again finds nothing to do.
    repo.create_schema()
    assert revision_of(repo) == HEAD
    repo.dispose()


def test_the_models_differ_from_an_older_revision(url: str) -> None:
    """The comparison above sees a difference where there is one (the action token before 0003)."""
    repo = Repository(url)
    with repo.engine.begin() as db:
        migrations.upgrade(db, "0002")
    with repo.engine.connect() as db:
        found = differences(db)
    assert ("add_column", None, "bummerl_tables", _Base.metadata.tables["bummerl_tables"].c.practice) in found
    # Column changes come as lists of tuples, one list per column.
    changes = [change for diff in found if isinstance(diff, list) for change in diff]
    assert any(change[0] == "modify_type" and change[2:4] == ("bummerl_actions", "token") for change in changes)
    repo.dispose()


def test_an_in_memory_database_is_migrated_on_the_repositorys_own_connection() -> None:
    """``sqlite://`` is one connection of a StaticPool: a migration on any other would make another database."""
    repo = Repository("sqlite://")
    repo.create_schema()
    assert revision_of(repo) == HEAD
    seats = seats_for("Anna", "random")
    made = repo.create_table(
        "t1", "schnapsen", {}, 7, 7, seats, {0: hash_token("s")}, practice=True, deal_key="ab" * 32, move_seconds=30
    )
    assert (made.practice, made.deal_key, made.move_seconds) == (True, "ab" * 32, 30)
    table = repo.load_table("t1")
    assert (table.practice, table.deal_key, table.move_seconds) == (True, "ab" * 32, 30)
    repo.create_table("t2", "schnapsen", {}, 7, 7, seats, {0: hash_token("s")})
    t2 = repo.load_table("t2")
    assert (t2.practice, t2.deal_key, t2.move_seconds) == (False, None, None)
    repo.dispose()


@pytest.mark.parametrize(
    ("schema", "revision"),
    [
        ({"seats": False, "token_width": 16}, "0001"),
        ({"seats": True, "token_width": 16}, "0002"),
        ({"seats": True, "token_width": 40}, "0003"),
    ],
    ids=["first-release", "seats-and-narrow-token", "last-before-alembic"],
)
def test_a_database_from_before_alembic_is_recognised(url: str, schema: dict[str, Any], revision: str) -> None:
    make_pre_alembic_database(url, **schema)
    repo = Repository(url)
    with repo.engine.connect() as db:
        assert migrations.current_revision(db) is None
        assert migrations.pre_alembic_revision(db) == revision
    repo.dispose()


def test_an_empty_database_and_one_under_alembic_are_not_stamped(url: str) -> None:
    repo = Repository(url)
    with repo.engine.connect() as db:
        assert migrations.pre_alembic_revision(db) is None
    repo.create_schema()
    with repo.engine.connect() as db:
        assert migrations.pre_alembic_revision(db) is None
    repo.dispose()


def test_the_last_schema_before_alembic_keeps_its_rows_and_gets_the_new_columns(url: str) -> None:
    make_pre_alembic_database(url)
    repo = Repository(url)
    repo.create_schema()
    assert revision_of(repo) == HEAD
    table = repo.load_table("t1")
    assert (table.seed, table.practice, table.deal_key) == (2**64 - 1, False, None)
    assert [(s.seat, s.kind, s.bot, s.name, s.taken) for s in table.seats] == [
        (0, "human", None, "Anna", True),
        (1, "bot", "random", None, False),
    ]
    assert [(g.id, g.deck, g.actions) for g in table.games] == [(1, "AhTh", ["Ah"])]
    assert repo.seat_of("t1", "s") == 0 and repo.tables_to_resume() == ["t1"]
    columns = {c["name"]: c for c in inspect(repo.engine).get_columns("bummerl_tables")}
    assert columns["deal_key"]["nullable"] and not columns["practice"]["nullable"]
    with repo.engine.connect() as db:
        assert differences(db) == []
    repo.append_action(1, 1, LONG_TOKEN)
    assert repo.load_table("t1").games[0].actions == ["Ah", LONG_TOKEN]
    repo.dispose()


def test_the_first_release_gets_the_seats_and_a_40_character_token(url: str) -> None:
    """On PostgreSQL the first release's VARCHAR(16) refuses a table game's bid until 0003 widened it."""
    make_pre_alembic_database(url, seats=False, token_width=16)
    repo = Repository(url)
    if repo.engine.dialect.name == "postgresql":
        with pytest.raises(StorageError):
            repo.append_action(1, 1, LONG_TOKEN)
    repo.create_schema()
    assert revision_of(repo) == HEAD and token_width(repo) == 40
    assert set(inspect(repo.engine).get_table_names()) == {
        *TABLES,
        *CLUSTER_TABLES,
        *TOURNAMENT_TABLES,
        *PLAYER_TABLES,
        *RATING_TABLES,
        "alembic_version",
    }
    repo.append_action(1, 1, LONG_TOKEN)
    table = repo.load_table("t1")
    assert table.games[0].actions == ["Ah", LONG_TOKEN] and not table.practice
    with repo.engine.connect() as db:
        assert differences(db) == []
    repo.dispose()


# ------------------------------------------------ 0005: every table's seats in bummerl_table_seats
#: A four-player table of the previous schema (no deal key): its game is the first deal of its seed.
FOUR_SEED = 11


def make_database_at_0004(url: str) -> None:
    """A database at revision 0004, as the previous server left it: a table against a bot, a friend table
    waiting for the friend, one the friend joined, and a Bauernschnapsen table (whose seats were rows already,
    and whose seat 0 the table's row repeated), each with its first game."""
    from bummerl.game import Game
    from bummerl.match import TableMatch

    repo = Repository(url)
    two = Game.deal("schnapsen", seed=3, dealer=1)
    four = TableMatch("bauernschnapsen", FOUR_SEED, first_dealer=0).deal_next()
    tables = [
        ("bot", "hard", "Anna", hash_token("a0"), "hard", None, None),
        ("wait", "friend", "Bea", hash_token("b0"), None, None, "code-wait"),
        ("joined", "friend", "Carl", hash_token("c0"), "Dora", hash_token("d1"), "code-joined"),
        ("four", "table-game", "Eva", hash_token("e0"), None, None, None),
    ]
    with repo.engine.begin() as db:
        migrations.upgrade(db, "0004")
        for table_id, opponent, name0, token0, name1, token1, code in tables:
            db.execute(
                text(
                    "INSERT INTO bummerl_tables (id, variant, options, seed, target, opponent, seat0_name, seat1_name,"
                    " seat0_token, seat1_token, join_code, created_at) VALUES (:id, :variant, '{}', :seed, :target,"
                    " :opponent, :name0, :name1, :token0, :token1, :code, '2026-11-01')"
                ),
                {
                    "id": table_id,
                    "variant": "bauernschnapsen" if table_id == "four" else "schnapsen",
                    "seed": str(FOUR_SEED if table_id == "four" else 3),
                    "target": 24 if table_id == "four" else 7,
                    "opponent": opponent,
                    "name0": name0,
                    "name1": name1,
                    "token0": token0,
                    "token1": token1,
                    "code": code,
                },
            )
            dealt = four if table_id == "four" else two
            db.execute(
                text(
                    "INSERT INTO bummerl_games (table_id, match_no, game_no, dealer, deck, seed, finished, started_at)"
                    " VALUES (:id, 0, 0, :dealer, :deck, :seed, :no, '2026-11-01')"
                ),
                {
                    "id": table_id,
                    "dealer": dealt.dealer,
                    "deck": "".join(c.code for c in dealt.deck),
                    "seed": None if table_id == "four" else "3",
                    "no": False,
                },
            )
        for seat, kind, bot, name, token, code in [
            (0, "human", None, "Eva", hash_token("e0"), None),
            (1, "friend", None, None, None, "code-four"),
            (2, "bot", "heuristic", None, None, None),
            (3, "bot", "heuristic", None, None, None),
        ]:
            db.execute(
                text(
                    "INSERT INTO bummerl_table_seats (table_id, seat, kind, bot, name, token, join_code)"
                    " VALUES ('four', :seat, :kind, :bot, :name, :token, :code)"
                ),
                {"seat": seat, "kind": kind, "bot": bot, "name": name, "token": token, "code": code},
            )
    repo.dispose()


def seat_rows(repo: Repository) -> dict[str, list[tuple[Any, ...]]]:
    """Every table's seats, as ``(seat, kind, bot, name, taken, join code)``."""
    return {
        t: [(s.seat, s.kind, s.bot, s.name, s.taken, s.join_code) for s in repo.seats(t)]
        for t in ("bot", "wait", "joined", "four")
    }


SEATS_AFTER_0005 = {
    "bot": [(0, "human", None, "Anna", True, None), (1, "bot", "hard", "hard", False, None)],
    "wait": [(0, "human", None, "Bea", True, None), (1, "friend", None, None, False, "code-wait")],
    "joined": [(0, "human", None, "Carl", True, None), (1, "friend", None, "Dora", True, "code-joined")],
    "four": [
        (0, "human", None, "Eva", True, None),
        (1, "friend", None, None, False, "code-four"),
        (2, "bot", "heuristic", None, False, None),
        (3, "bot", "heuristic", None, False, None),
    ],
}


def test_0005_moves_the_two_player_seats_into_the_seat_rows_and_drops_the_old_columns(url: str) -> None:
    """Every seat of every table becomes a row of ``bummerl_table_seats`` (the token hashes as they were: the
    old tokens and invitation codes still work), and the seat columns of ``bummerl_tables`` are gone."""
    make_database_at_0004(url)
    repo = Repository(url)
    repo.create_schema()
    assert revision_of(repo) == HEAD
    with repo.engine.connect() as db:
        assert differences(db) == []
    columns = {c["name"] for c in inspect(repo.engine).get_columns("bummerl_tables")}
    assert columns == {
        *("id", "variant", "options", "seed", "target", "created_at", "deal_key", "practice"),
        *("move_seconds", "rated"),  # 0009, 0010
    }
    assert seat_rows(repo) == SEATS_AFTER_0005
    tokens = {"bot": ["a0"], "wait": ["b0"], "joined": ["c0", "d1"], "four": ["e0"]}
    for table_id, held in tokens.items():
        assert [repo.seat_of(table_id, token) for token in held] == list(range(len(held)))
        assert repo.seat_of(table_id, "d1" if table_id != "joined" else "a0") is None
    assert repo.take_seat("code-wait", "Fritz", hash_token("f1")) == ("wait", 1)
    assert repo.take_seat("code-four", "Gus", hash_token("g1")) == ("four", 1)
    with pytest.raises(StorageError, match="taken"):
        repo.take_seat("code-joined", "Hans", hash_token("h1"))
    assert [len(repo.load_table(t).games) for t in tokens] == [1, 1, 1, 1]
    repo.dispose()


def test_0005_goes_down_to_the_old_columns_and_up_again_with_every_seat(url: str) -> None:
    """The downgrade rebuilds the seat columns from the seat rows (also a seat taken after the upgrade) and
    keeps the table games' rows only; upgrading again gives the same seats."""
    make_database_at_0004(url)
    repo = Repository(url)
    repo.create_schema()
    repo.take_seat("code-wait", "Fritz", hash_token("f1"))
    with repo.engine.begin() as db:
        migrations.downgrade(db, "0004")
    with repo.engine.connect() as db:
        rows = db.execute(
            text(
                "SELECT id, opponent, seat0_name, seat0_token, seat1_name, seat1_token, join_code"
                " FROM bummerl_tables ORDER BY id"
            )
        ).all()
        seats = db.execute(text("SELECT table_id, seat FROM bummerl_table_seats ORDER BY table_id, seat")).all()
        assert db.execute(text("SELECT COUNT(*) FROM bummerl_games")).scalar() == 4
    assert [tuple(r) for r in rows] == [
        ("bot", "hard", "Anna", hash_token("a0"), "hard", None, None),
        ("four", "table-game", "Eva", hash_token("e0"), None, None, None),
        ("joined", "friend", "Carl", hash_token("c0"), "Dora", hash_token("d1"), "code-joined"),
        ("wait", "friend", "Bea", hash_token("b0"), "Fritz", hash_token("f1"), "code-wait"),
    ]
    assert [tuple(s) for s in seats] == [("four", 0), ("four", 1), ("four", 2), ("four", 3)]
    columns = {c["name"]: c for c in inspect(repo.engine).get_columns("bummerl_tables")}
    assert not columns["seat0_token"]["nullable"] and not columns["opponent"]["nullable"]
    assert columns["seat1_token"]["nullable"]
    repo.create_schema()
    expected = {
        **SEATS_AFTER_0005,
        "wait": [(0, "human", None, "Bea", True, None), (1, "friend", None, "Fritz", True, "code-wait")],
    }
    assert seat_rows(repo) == expected and repo.seat_of("wait", "f1") == 1
    with repo.engine.connect() as db:
        assert differences(db) == []
    repo.dispose()


def test_a_server_on_a_migrated_database_seats_the_old_tokens_and_codes(tmp_path: Path) -> None:
    """After 0005 the tables of the previous server play on: the creator's old token takes seat 0, the old
    invitation code takes the friend's seat, and a table game's seat rows are read as before."""
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from fastapi.testclient import TestClient

    from bummerl.server.app import create_app
    from bummerl.server.config import ServerConfig

    url = f"sqlite:///{tmp_path / 'bummerl.db'}"
    make_database_at_0004(url)
    with TestClient(create_app(url, config=ServerConfig(bot_executor="thread"))) as client:
        joined = client.post("/api/join", json={"code": "code-wait", "name": "Fritz"}).json()
        assert (joined["table_id"], joined["seat"], joined["kind"]) == ("wait", 1, "two_player")
        with client.websocket_connect("/ws/tables/wait") as ws:
            ws.send_json({"type": "hello", "token": "b0"})
            assert ws.receive_json()["seat"] == 0
            state = ws.receive_json()
            assert state["status"] == "playing" and [p["name"] for p in state["players"]] == ["Bea", "Fritz"]
        bot = client.get("/api/tables/bot").json()
        assert [(p["name"], p["kind"], p["bot"]) for p in bot["players"]] == [
            ("Anna", "human", None),
            ("hard", "bot", "hard"),
        ]
        four = client.get("/api/tables/four").json()
        assert (four["kind"], four["status"]) == ("table_game", "waiting")
        assert [p["name"] for p in four["players"]] == ["Eva", "", "heuristic", "heuristic"]
        assert client.post("/api/join", json={"code": "code-joined", "name": "Hans"}).status_code == 409


def test_servers_starting_together_make_the_schema_once(url: str) -> None:
    """Two processes starting on one database take turns (PostgreSQL: an advisory lock; SQLite: its write
    lock): the second finds the schema made and does nothing, neither fails."""
    repos = [Repository(url) for _ in range(4)]
    start = threading.Barrier(len(repos))
    failures: list[BaseException] = []

    def start_up(repo: Repository) -> None:
        start.wait()
        try:
            repo.create_schema()
        except BaseException as exc:  # reported below
            failures.append(exc)

    # Threads stand in for processes here: Alembic's context is one per process, so this also checks that
    # nothing of Alembic runs outside the lock.
    threads = [threading.Thread(target=start_up, args=(r,)) for r in repos]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert failures == []
    assert revision_of(repos[0]) == HEAD
    with repos[0].engine.connect() as db:
        assert differences(db) == []
    for r in repos:
        r.dispose()


def test_a_server_waits_out_a_schema_lock_longer_than_its_busy_timeout(tmp_path: Path) -> None:
    """Another process holds SQLite's write lock for longer than the busy timeout (a slow migration on a busy
    machine): starting up waits and then finds the database, it does not fail with "database is locked"."""
    import sqlite3
    import time

    path = tmp_path / "bummerl.db"
    holder = sqlite3.connect(path, check_same_thread=False, isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")
    released = threading.Timer(1.0, holder.execute, args=("COMMIT",))
    released.start()
    repo = Repository(f"sqlite:///{path}", busy_timeout=0.1)
    began = time.monotonic()
    repo.create_schema()
    assert time.monotonic() - began >= 0.9  # it did wait for the lock
    assert revision_of(repo) == HEAD
    released.join()
    holder.close()
    repo.dispose()


def test_every_revision_goes_down_and_up_again_with_the_rows(url: str) -> None:
    make_pre_alembic_database(url)
    repo = Repository(url)
    repo.create_schema()
    with repo.engine.begin() as db:
        migrations.downgrade(db, "0001")
        assert migrations.current_revision(db) == "0001"
        assert "bummerl_table_seats" not in inspect(db).get_table_names()
        assert db.execute(text("SELECT seat0_name, seat0_token, opponent FROM bummerl_tables")).all() == [
            ("Anna", hash_token("s"), "random")
        ]
    with repo.engine.begin() as db:
        migrations.upgrade(db)
    assert revision_of(repo) == HEAD and repo.load_table("t1").games[0].actions == ["Ah"]
    assert repo.seat_of("t1", "s") == 0
    with repo.engine.begin() as db:
        migrations.downgrade(db, "base")
        assert set(inspect(db).get_table_names()) == {"alembic_version"}
    repo.dispose()


def test_a_failed_migration_leaves_the_database_as_it_was(
    url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Both databases change their schema in one transaction: a revision that fails takes back the ones before it."""
    broken = tmp_path / "migrations"
    shutil.copytree(migrations.SCRIPT_LOCATION, broken, ignore=shutil.ignore_patterns("__pycache__"))
    (broken / "versions" / f"{NEXT}_broken.py").write_text(
        f'from alembic import op\nrevision = "{NEXT}"\ndown_revision = "{HEAD}"\n\n\n'
        'def upgrade() -> None:\n    op.execute("SELECT * FROM no_such_table")\n'
    )
    monkeypatch.setattr(migrations, "SCRIPT_LOCATION", broken)
    make_pre_alembic_database(url, seats=False, token_width=16)
    repo = Repository(url)
    with pytest.raises(Exception, match="no_such_table"):
        repo.create_schema()
    repo.dispose()
    repo = Repository(url)
    assert revision_of(repo) is None and token_width(repo) == 16
    assert set(inspect(repo.engine).get_table_names()) == TABLES - {"bummerl_table_seats"}
    with repo.engine.connect() as db:
        assert db.execute(text("SELECT token FROM bummerl_actions")).all() == [("Ah",)]
    repo.dispose()


def test_a_new_revision_is_numbered_and_runs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """docs/web.md: ``python -m bummerl.server.migrations revision -m "..."`` (here on a copy of the folder)."""
    copy = tmp_path / "migrations"
    shutil.copytree(migrations.SCRIPT_LOCATION, copy, ignore=shutil.ignore_patterns("__pycache__"))
    monkeypatch.setattr(migrations, "SCRIPT_LOCATION", copy)
    main(["revision", "-m", "Add a column"])
    written = copy / "versions" / f"{NEXT}_add_a_column.py"
    source = written.read_text()
    assert (
        source.startswith('"""Add a column\n')
        and f'revision = "{NEXT}"' in source
        and f'down_revision = "{HEAD}"' in source
    )
    # Filled in as its author would, it passes the linter and the formatter as it is.
    source = source.replace("pass", 'op.add_column("bummerl_games", sa.Column("note", sa.Text(), nullable=True))', 1)
    written.write_text(source.replace("pass", 'op.drop_column("bummerl_games", "note")', 1))
    ruff = Path(sys.executable).with_name("ruff")
    if ruff.exists():
        for check in (["check"], ["format", "--check"]):
            done = subprocess.run([ruff, *check, "--no-cache", written], capture_output=True, text=True, check=False)
            assert done.returncode == 0, done.stdout
    repo = Repository(f"sqlite:///{tmp_path / 'bummerl.db'}")
    repo.create_schema()
    assert revision_of(repo) == NEXT
    assert "note" in {c["name"] for c in inspect(repo.engine).get_columns("bummerl_games")}
    repo.dispose()


def test_the_command_line_upgrades_and_tells_the_revision(tmp_path: Path) -> None:
    """docs/web.md: ``python -m bummerl.server.migrations --database-url URL upgrade head`` (and ``current``,
    ``history``) does what the server does at start-up, stamping a database from before Alembic first."""
    url = f"sqlite:///{tmp_path / 'bummerl.db'}"
    make_pre_alembic_database(url, seats=False, token_width=16)

    def run(*args: str) -> str:
        done = subprocess.run(
            [sys.executable, "-m", "bummerl.server.migrations", *args], capture_output=True, text=True, check=True
        )
        return done.stdout

    run("--database-url", url, "upgrade", "head")
    assert run("--database-url", url, "current").strip() == f"{HEAD} (head)"
    history = run("history")
    assert all(f"-> {r}" in history for r in ("0001", "0002", "0003", "0004", "0005", "0006", "0007"))
    repo = Repository(url)
    assert repo.load_table("t1").games[0].actions == ["Ah"]
    repo.dispose()


# ------------------------------------------------ 0007: the web tournaments
def test_0007_adds_the_tournament_tables_and_goes_down_without_touching_the_games(url: str) -> None:
    """docs/web-tournaments.md: three new tables; going down to 0006 drops them and keeps every game row."""
    make_pre_alembic_database(url)
    repo = Repository(url)
    repo.create_schema()
    store = TournamentStore(repo)
    store.create("T1", TournamentPlan("Cup", "schnapsen", {}, "swiss", "game", None, 8), "c0de", hash_token("o"), None)
    assert store.join("c0de", "Anna", hash_token("a")) == ("T1", 0)
    with repo.engine.begin() as db:
        migrations.downgrade(db, "0006")
        assert not TOURNAMENT_TABLES & set(inspect(db).get_table_names())
        # Read as stored: the models describe the newest revision (0009's and 0010's columns are gone at 0006).
        assert db.execute(text("SELECT token FROM bummerl_actions WHERE game_id = 1")).scalars().all() == ["Ah"]
    repo.create_schema()
    assert revision_of(repo) == HEAD and set(inspect(repo.engine).get_table_names()) >= TOURNAMENT_TABLES
    assert store.running() == []
    repo.dispose()


# ------------------------------------------------ 0009: the move clock
def test_0009_gives_every_older_table_no_clock_and_goes_down_keeping_the_games(url: str) -> None:
    """docs/web.md (clocks): a table made before 0009 has no clock (NULL); going down to 0008 drops only the
    column, and up again the clock is gone but every game row is still there."""
    make_pre_alembic_database(url)
    repo = Repository(url)
    repo.create_schema()
    assert repo.load_table("t1").move_seconds is None
    seats = seats_for("Anna", "random")
    repo.create_table("t2", "schnapsen", {}, 7, 7, seats, {0: hash_token("s2")}, move_seconds=30)
    assert repo.load_table("t2").move_seconds == 30
    with repo.engine.begin() as db:
        migrations.downgrade(db, "0008")
        assert "move_seconds" not in {c["name"] for c in inspect(db).get_columns("bummerl_tables")}
    repo.create_schema()
    assert revision_of(repo) == HEAD
    assert repo.load_table("t2").move_seconds is None
    assert repo.load_table("t1").games[0].actions == ["Ah"]
    repo.dispose()


# ------------------------------------------------ 0011: the tournaments' clock
def test_0011_gives_every_older_tournament_no_clock_and_goes_down_keeping_it(url: str) -> None:
    """docs/web-tournaments.md (clock and forfeit): a tournament made before 0011 has no clock (NULL); going down
    to 0010 drops only the column, and the tournament with its participants stays."""
    make_pre_alembic_database(url)
    repo = Repository(url)
    repo.create_schema()
    store = TournamentStore(repo)
    plan = TournamentPlan("Cup", "schnapsen", {}, "swiss", "game", None, 8, move_seconds=45)
    store.create("T1", plan, "c0de", hash_token("o"), None)
    assert store.join("c0de", "Anna", hash_token("a")) == ("T1", 0)
    assert store.load("T1").move_seconds == 45
    with repo.engine.begin() as db:
        migrations.downgrade(db, "0010")
        assert "move_seconds" not in {c["name"] for c in inspect(db).get_columns("bummerl_tournaments")}
    repo.create_schema()
    assert revision_of(repo) == HEAD
    again = store.load("T1")
    assert again.move_seconds is None and [p.name for p in again.players] == ["Anna"]
    assert repo.load_table("t1").games[0].actions == ["Ah"]
    repo.dispose()


# ------------------------------------------------ 0012: the stand-in's actions
def test_0012_marks_no_older_action_and_goes_down_keeping_every_action(url: str) -> None:
    """docs/web.md (clocks, restart): an action stored before 0012 was its seat's own (NULL); going down to 0011
    drops only the marks, and every action stays."""
    make_pre_alembic_database(url)
    repo = Repository(url)
    repo.create_schema()
    assert repo.load_table("t1").games[0].stand_ins == {}
    game_id = repo.load_table("t1").games[0].id
    repo.append_action(game_id, 1, "Th", stand_in="time")
    assert repo.load_table("t1").games[0].stand_ins == {1: "time"}
    with repo.engine.begin() as db:
        migrations.downgrade(db, "0011")
        assert "stand_in" not in {c["name"] for c in inspect(db).get_columns("bummerl_actions")}
    repo.create_schema()
    assert revision_of(repo) == HEAD
    again = repo.load_table("t1").games[0]
    assert again.actions == ["Ah", "Th"] and again.stand_ins == {}
    repo.dispose()
