"""The seats of three- and four-player tables: ``bummerl_table_seats``.

Web tables for Bauernschnapsen (four seats) and Dreierschnapsen (three seats)
came in commit 773c926.  A two-player table keeps its two seats in its
``bummerl_tables`` row; a table game's row has ``opponent = "table-game"`` and
one row here per seat: who sits there (the creator, a friend invited by
``join_code``, a bot), the name, and the SHA-256 of the seat's token.

That version still made its tables with ``create_all``, which added this
table to a first-release database but left the action token 16 characters
wide: such a database is stamped with this revision, and ``0003`` widens it.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "bummerl_table_seats",
        sa.Column("table_id", sa.String(32), sa.ForeignKey("bummerl_tables.id"), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        # human (the creator), friend (invited by join_code) or bot.
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("bot", sa.String(64), nullable=True),
        sa.Column("name", sa.String(64), nullable=True),
        sa.Column("token", sa.String(64), nullable=True),
        sa.Column("join_code", sa.String(64), nullable=True, unique=True),
        sa.PrimaryKeyConstraint("table_id", "seat"),
    )


def downgrade() -> None:
    op.drop_table("bummerl_table_seats")
