"""One column of ``bummerl_tournaments``: ``move_seconds``, the move clock of a tournament's tables (issue 24).

A tournament's tables get the clock its organiser chose (``POST /api/tournaments``
with ``move_seconds``; docs/web-tournaments.md): a participant who lets it run out
too often has their seat taken over by the bot and forfeits the table.  NULL is a
tournament without a clock, which every tournament made before becomes, so the
ones running go on as they were.

A plain nullable ``ADD COLUMN``, which SQLite runs too; the downgrade's
``DROP COLUMN`` needs SQLite 3.35 or later (the clocks are forgotten, every
other row is kept).
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0011"
down_revision = "0010"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("bummerl_tournaments", sa.Column("move_seconds", sa.Integer(), nullable=True))


def downgrade() -> None:
    op.drop_column("bummerl_tournaments", "move_seconds")
