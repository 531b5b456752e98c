"""One column of ``bummerl_tables``: ``move_seconds``, the table's time per move (issue 24).

``move_seconds`` is the clock of a table: how many seconds a human seat has for
each move before the server plays the bot's move for it
(:mod:`bummerl.server.clock`).  NULL is a table without a clock, which every
existing table becomes, so nothing changes for the tables made before.

A plain nullable ``ADD COLUMN``, which SQLite runs too; the downgrade's
``DROP COLUMN`` needs SQLite 3.35 or later (the clocks are forgotten, every
other row is kept).
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("bummerl_tables", sa.Column("move_seconds", sa.Integer(), nullable=True))


def downgrade() -> None:
    op.drop_column("bummerl_tables", "move_seconds")
