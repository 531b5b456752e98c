"""The schema of the first web release: tables, games and actions.

The first version of the web server (commit 619f380, "Web server: FastAPI +
WebSockets, SQLAlchemy storage") made these three tables with ``create_all``.
Its action token was 16 characters wide, enough for every two-player action
(``Ah``, ``exchange``, ``declare:h``, ``close``).  A database from that release
has no ``alembic_version`` and no ``bummerl_table_seats``: it is stamped with
this revision at start-up (:func:`bummerl.server.migrations.pre_alembic_revision`).
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "bummerl_tables",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("variant", sa.String(64), nullable=False),
        sa.Column("options", sa.Text(), nullable=False),
        # Seeds are unsigned 64-bit: text, since SQL integers are signed.
        sa.Column("seed", sa.String(24), nullable=False),
        sa.Column("target", sa.Integer(), nullable=False),
        sa.Column("opponent", sa.String(64), nullable=False),
        sa.Column("seat0_name", sa.String(64), nullable=False),
        sa.Column("seat1_name", sa.String(64), nullable=True),
        sa.Column("seat0_token", sa.String(64), nullable=False),
        sa.Column("seat1_token", sa.String(64), nullable=True),
        sa.Column("join_code", sa.String(64), nullable=True, unique=True),
        sa.Column("created_at", sa.String(32), nullable=False),
    )
    op.create_table(
        "bummerl_games",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("table_id", sa.String(32), sa.ForeignKey("bummerl_tables.id"), nullable=False),
        sa.Column("match_no", sa.Integer(), nullable=False),
        sa.Column("game_no", sa.Integer(), nullable=False),
        sa.Column("dealer", sa.Integer(), nullable=False),
        sa.Column("deck", sa.String(96), nullable=False),
        sa.Column("seed", sa.String(24), nullable=True),
        sa.Column("finished", sa.Boolean(), nullable=False),
        sa.Column("result", sa.Text(), nullable=True),
        sa.Column("record", sa.Text(), nullable=True),
        sa.Column("analysis", sa.Text(), nullable=True),
        sa.Column("analysis_status", sa.String(16), nullable=True),
        sa.Column("started_at", sa.String(32), nullable=False),
        sa.Column("finished_at", sa.String(32), nullable=True),
    )
    op.create_index("ix_bummerl_games_table_id", "bummerl_games", ["table_id"])
    op.create_index("ix_bummerl_games_finished", "bummerl_games", ["finished"])
    op.create_table(
        "bummerl_actions",
        sa.Column("game_id", sa.Integer(), sa.ForeignKey("bummerl_games.id"), nullable=False),
        sa.Column("ply", sa.Integer(), nullable=False),
        sa.Column("token", sa.String(16), nullable=False),
        sa.Column("created_at", sa.String(32), nullable=False),
        sa.PrimaryKeyConstraint("game_id", "ply"),
    )


def downgrade() -> None:
    op.drop_table("bummerl_actions")
    op.drop_index("ix_bummerl_games_finished", table_name="bummerl_games")
    op.drop_index("ix_bummerl_games_table_id", table_name="bummerl_games")
    op.drop_table("bummerl_games")
    op.drop_table("bummerl_tables")
