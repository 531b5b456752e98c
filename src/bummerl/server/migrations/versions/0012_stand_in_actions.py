"""One column of ``bummerl_actions``: ``stand_in``, which actions the move clock's stand-in bot played, and why.

A seat whose time per move runs out gets the stand-in bot's move; after a few
such strikes in one game the bot takes the seat over and the game counts as
abandoned for its player (:mod:`bummerl.server.clock`).  Those strikes were
counted in memory only, so a table reloaded after a restart forgot them: its
finished game's result lost its ``abandoned`` mark and the strikes began again.
The column says, per action, ``time`` (the time ran out), ``away`` (the player
was away past the grace) or ``over`` (the seat was taken over); a reloaded
table counts the strikes, the takeover and the log's lines again from it.

NULL is an action the seat played itself, which every older action becomes.  A
plain nullable ``ADD COLUMN``, which SQLite runs too; the downgrade's ``DROP
COLUMN`` needs SQLite 3.35 or later (the marks are forgotten, every action is
kept).
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0012"
down_revision = "0011"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("bummerl_actions", sa.Column("stand_in", sa.String(8), nullable=True))


def downgrade() -> None:
    op.drop_column("bummerl_actions", "stand_in")
