"""Every table's seats in ``bummerl_table_seats``; the seat columns of ``bummerl_tables`` go.

Until now a two-player table kept its two seats in columns of its own row
(``seat0_name``, ``seat0_token``, ``seat1_name``, ``seat1_token``,
``join_code``, and ``opponent``: a bot's name, ``friend``, or ``table-game``
for a three- or four-player table, whose seats were already rows of
``bummerl_table_seats``).  Now every table has one row per seat there, and the
server has one set of seat methods for every kind of table
(:meth:`~bummerl.server.storage.Repository.take_seat`, ``seat_of``, ``seats``).

**Upgrade.** Each two-player table gets two seat rows: seat 0 ``human`` with
``seat0_name`` and ``seat0_token`` (the SHA-256 of the token, copied as it
is: no token is ever known to the server again), seat 1 a ``bot`` named by
``opponent`` (with ``seat1_name``) or a ``friend`` seat with ``join_code``,
``seat1_name`` and ``seat1_token`` (NULL until the friend joined).  A table
game's row had copies of its seat 0 in ``seat0_name`` and ``seat0_token``;
its seat rows already hold them.  Then the six columns are **dropped**, rather
than kept readable beside the seat rows:

- one place for a seat: a copy that the server no longer writes would go stale
  at the first join (a friend's name and token hash in the seat row, NULL in
  the old columns), and a reader could not tell which one is true;
- a token hash stored twice is one more place to leak it from, and the only
  reader of these columns was the server version that this one replaces;
- going back is :func:`downgrade`, which rebuilds the columns from the seat
  rows (``tests/test_server_migrations.py`` runs it with rows, on SQLite and
  PostgreSQL): nobody needs the old columns to stay for an older server;
- ``seat0_name``, ``seat0_token`` and ``opponent`` are NOT NULL, so keeping
  them would have meant writing made-up values for every new table (relaxing a
  constraint on SQLite rebuilds the table as dropping does).

Whether a table has two players or more now follows from its variant (and
from its number of seat rows), so ``opponent`` goes as well.  A join code is
unique among the seat rows: codes are 72 random bits, so the two-player codes
moved in cannot meet a table game's.

**SQLite** cannot drop a UNIQUE column (``join_code``) in place: the table is
rebuilt (``batch_alter_table``: a copy, the old table dropped, the copy
renamed).  ``bummerl_games`` and ``bummerl_table_seats`` refer to
``bummerl_tables``, and SQLite refuses to drop a table that rows refer to while
it enforces foreign keys, even deferred ones; so the migrations run with foreign
keys off and check them before the commit, SQLite's own procedure for such
changes (:func:`bummerl.server.migrations.upgrade`,
https://sqlite.org/lang_altertable.html#otheralter).  PostgreSQL drops the
columns in place (and the unique constraint with ``join_code``).  Both do it in
the upgrade's one transaction.

**Downgrade**: the columns come back, nullable first, are filled from the seat
rows (``opponent``: ``table-game`` for a table of more than two seats, else
``friend`` or seat 1's bot), then ``seat0_name``, ``seat0_token`` and
``opponent`` become NOT NULL again; the two-player tables' seat rows are
deleted.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None

#: The old ``opponent`` of a three- or four-player table.
TABLE_GAME = "table-game"

_OLD_COLUMNS = ("opponent", "seat0_name", "seat1_name", "seat0_token", "seat1_token", "join_code")


def upgrade() -> None:
    two_player = f"opponent <> '{TABLE_GAME}'"
    op.execute(
        "INSERT INTO bummerl_table_seats (table_id, seat, kind, bot, name, token, join_code)"
        f" SELECT id, 0, 'human', NULL, seat0_name, seat0_token, NULL FROM bummerl_tables WHERE {two_player}"
    )
    op.execute(
        "INSERT INTO bummerl_table_seats (table_id, seat, kind, bot, name, token, join_code)"
        " SELECT id, 1,"
        " CASE WHEN opponent = 'friend' THEN 'friend' ELSE 'bot' END,"
        " CASE WHEN opponent = 'friend' THEN NULL ELSE opponent END,"
        " seat1_name, seat1_token, join_code"
        f" FROM bummerl_tables WHERE {two_player}"
    )
    with op.batch_alter_table("bummerl_tables") as batch:
        for column in _OLD_COLUMNS:
            batch.drop_column(column)


def downgrade() -> None:
    with op.batch_alter_table("bummerl_tables") as batch:
        for column in _OLD_COLUMNS:
            batch.add_column(sa.Column(column, sa.String(64), nullable=True))

    def seat(seat: int, column: str) -> str:
        return (
            f"(SELECT s.{column} FROM bummerl_table_seats s WHERE s.table_id = bummerl_tables.id AND s.seat = {seat})"
        )

    seat_count = "(SELECT COUNT(*) FROM bummerl_table_seats s WHERE s.table_id = bummerl_tables.id)"
    two_player = f"{seat_count} = 2"
    # COALESCE: a table game whose seats were never stored (the previous server stored them in a second
    # transaction) still gets the NOT NULL values; an empty hash matches no token.
    op.execute(
        f"UPDATE bummerl_tables SET seat0_name = COALESCE({seat(0, 'name')}, ''),"
        f" seat0_token = COALESCE({seat(0, 'token')}, '')"
    )
    op.execute(f"UPDATE bummerl_tables SET opponent = '{TABLE_GAME}' WHERE NOT ({two_player})")
    op.execute(
        "UPDATE bummerl_tables SET"
        f" opponent = CASE WHEN {seat(1, 'kind')} = 'friend' THEN 'friend' ELSE {seat(1, 'bot')} END,"
        f" seat1_name = {seat(1, 'name')}, seat1_token = {seat(1, 'token')}, join_code = {seat(1, 'join_code')}"
        f" WHERE {two_player}"
    )
    op.execute(f"DELETE FROM bummerl_table_seats WHERE table_id IN (SELECT id FROM bummerl_tables WHERE {two_player})")
    with op.batch_alter_table("bummerl_tables") as batch:
        for column in ("opponent", "seat0_name", "seat0_token"):
            batch.alter_column(column, existing_type=sa.String(64), nullable=False)
        # The name PostgreSQL gave the constraint of revision 0001's UNIQUE column.
        batch.create_unique_constraint("bummerl_tables_join_code_key", ["join_code"])
