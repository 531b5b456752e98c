"""The web app's schema changes, as Alembic revisions in ``versions/``, applied when the server starts.

:meth:`bummerl.server.storage.Repository.create_schema` calls :func:`upgrade`
on the repository's own engine (so an in-memory ``sqlite://`` database is
migrated in place).  Alembic is configured here, in code, from this folder:
an installed wheel needs no ``alembic.ini``.  ``python -m
bummerl.server.migrations`` is Alembic's command line on the same
configuration (``revision -m "..."`` writes the next numbered revision).

A database made before the migrations existed has the tables but no
``alembic_version``; :func:`pre_alembic_revision` tells from its tables and
columns which revision it is, and :func:`upgrade` stamps it there first.

>>> from sqlalchemy import create_engine
>>> engine = create_engine("sqlite://")
>>> with engine.begin() as db:
...     upgrade(db)
...     current_revision(db) == head_revision()
True

Revisions change the schema and keep every row; nothing here knows the rules of a game.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import Connection, event, inspect, text

__all__ = [
    "SCRIPT_LOCATION",
    "config",
    "current_revision",
    "downgrade",
    "head_revision",
    "next_revision_id",
    "pre_alembic_revision",
    "upgrade",
]

#: The migration environment: ``env.py``, ``script.py.mako`` and ``versions/``.
SCRIPT_LOCATION = Path(__file__).parent

#: The key of the PostgreSQL advisory lock held while the schema is changed ("bummerl" in ASCII).
_LOCK_KEY = int.from_bytes(b"bummerl", "big")


def config(connection: Connection | None = None, *, script_location: Path | None = None) -> Config:
    """Alembic's configuration for Bummerl; ``connection``: the one ``env.py`` migrates (in its transaction)."""
    cfg = Config()
    cfg.set_main_option("script_location", str(script_location or SCRIPT_LOCATION))
    # Revision files are named after their number: versions/0006_add_a_column.py.
    cfg.set_main_option("file_template", "%%(rev)s_%%(slug)s")
    cfg.set_main_option("path_separator", "os")
    if connection is not None:
        cfg.attributes["connection"] = connection
    return cfg


def head_revision(script_location: Path | None = None) -> str:
    """The newest revision: the schema that :class:`~bummerl.server.storage.Repository`'s models describe."""
    head = ScriptDirectory.from_config(config(script_location=script_location)).get_current_head()
    assert head is not None
    return head


def next_revision_id(script_location: Path | None = None) -> str:
    """The number the next revision gets: ``0006`` after ``0005``.

    >>> int(next_revision_id()) == int(head_revision()) + 1
    True
    """
    return f"{int(head_revision(script_location)) + 1:04d}"


def current_revision(connection: Connection) -> str | None:
    """The revision stamped in the database's ``alembic_version``, or ``None`` (empty, or from before Alembic)."""
    return MigrationContext.configure(connection).get_current_revision()


def pre_alembic_revision(connection: Connection) -> str | None:
    """The revision that a database made before Alembic corresponds to; ``None`` when there is nothing to stamp.

    ``None`` for a database under Alembic (it has ``alembic_version``) and for
    one without ``bummerl_tables`` (empty: it is upgraded from nothing).  The
    earlier versions made their tables with ``create_all``, which adds missing
    tables but never changes a column, so three schemas occur:

    - no ``bummerl_table_seats``: the first web release, ``0001``;
    - the seats, and ``bummerl_actions.token`` narrower than 40 characters: a
      first-release database that a later version started on, ``0002``;
    - the seats and a 40-character token: ``0003``.
    """
    inspector = inspect(connection)
    tables = set(inspector.get_table_names())
    if "alembic_version" in tables or "bummerl_tables" not in tables:
        return None
    if "bummerl_table_seats" not in tables:
        return "0001"
    token = next(c for c in inspector.get_columns("bummerl_actions") if c["name"] == "token")
    width = getattr(token["type"], "length", None)
    return "0002" if width is not None and width < 40 else "0003"


def upgrade(connection: Connection, revision: str = "head") -> None:
    """Bring the database on ``connection`` to ``revision``, inside the connection's transaction.

    A database from before Alembic is stamped with its :func:`pre_alembic_revision`
    first.  Servers that start together on one database take turns: on
    PostgreSQL a transaction-level advisory lock, on SQLite ``BEGIN IMMEDIATE``
    (the database's write lock) is held until the caller commits, and the
    second one then finds the schema up to date.  Both databases change their
    schema in a transaction, so a failed revision leaves the database as it was.
    On SQLite the revisions run with foreign keys off (:func:`_begin`).
    """
    turned_off = _begin(connection)
    cfg = config(connection)
    found = pre_alembic_revision(connection)
    if found is not None:
        command.stamp(cfg, found)
    command.upgrade(cfg, revision)
    if turned_off:
        _check_foreign_keys(connection)


def downgrade(connection: Connection, revision: str) -> None:
    """Take the database on ``connection`` back to ``revision``, as :func:`upgrade` takes it forward."""
    turned_off = _begin(connection)
    command.downgrade(config(connection), revision)
    if turned_off:
        _check_foreign_keys(connection)


def _begin(connection: Connection) -> bool:
    """Take the schema lock and open the transaction; whether SQLite's foreign keys were turned off for it.

    SQLite cannot drop a table that other rows refer to while it enforces
    foreign keys, not even deferred ones, and a table is rebuilt (copied,
    dropped, the copy renamed) for most changes of its columns (revision 0005).
    Its procedure for such changes (https://sqlite.org/lang_altertable.html#otheralter)
    turns foreign keys off before the transaction (the pragma does nothing inside
    one), checks them before the commit (:func:`_check_foreign_keys`), and turns
    them on again: here when the connection goes back to its pool.
    """
    dialect = connection.dialect.name
    if dialect == "postgresql":
        connection.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": _LOCK_KEY})
        return False
    raw = connection.connection.dbapi_connection
    if dialect != "sqlite" or raw is None or getattr(raw, "in_transaction", True):
        return False
    turned_off = bool(raw.execute("PRAGMA foreign_keys").fetchone()[0])
    if turned_off:
        raw.execute("PRAGMA foreign_keys=OFF")
        connection.connection.info[_FOREIGN_KEYS_OFF] = True
        pool = connection.engine.pool
        if not event.contains(pool, "checkin", _foreign_keys_on):
            event.listen(pool, "checkin", _foreign_keys_on)
    # pysqlite opens a transaction only before data changes; DDL would be committed statement by statement.
    connection.exec_driver_sql("BEGIN IMMEDIATE")
    return turned_off


#: Marks a pooled SQLite connection whose foreign keys :func:`_begin` turned off.
_FOREIGN_KEYS_OFF = "bummerl.foreign_keys_off"


def _foreign_keys_on(dbapi_connection: Any, record: Any) -> None:
    """Back in the pool, after the migration's commit or rollback: foreign keys on again."""
    if record is not None and record.info.pop(_FOREIGN_KEYS_OFF, False):
        dbapi_connection.execute("PRAGMA foreign_keys=ON")


def _check_foreign_keys(connection: Connection) -> None:
    """Refuse to commit a migration that left a row referring to nothing (SQLite, foreign keys off)."""
    broken = connection.exec_driver_sql("PRAGMA foreign_key_check").all()
    if broken:
        raise RuntimeError(f"the migration left {len(broken)} rows referring to nothing, e.g. {tuple(broken[0])}")
