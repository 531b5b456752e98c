"""Tournaments on the web server (issue 14): ``bummerl_tournaments``, their participants and the tables of each round.

Three new tables (:mod:`bummerl.server.tournament_store`) and nothing else: no
row of the game tables changes.  A tournament's table is an ordinary row of
``bummerl_tables``, referred to by ``bummerl_tournament_tables.table_id``
without a foreign key, because the tournament's row is written before the table
it names is made (a server that stops between the two makes the table when it
comes back).  **Downgrade** drops the three tables; the web tables the
tournaments made stay, as tables nobody organises.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "bummerl_tournaments",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("variant", sa.String(64), nullable=False),
        sa.Column("options", sa.Text(), nullable=False),
        sa.Column("format", sa.String(16), nullable=False),
        sa.Column("unit", sa.String(16), nullable=False),
        sa.Column("rounds", sa.Integer(), nullable=True),
        sa.Column("max_players", sa.Integer(), nullable=False),
        sa.Column("entrants", sa.Integer(), nullable=False),
        sa.Column("join_code", sa.String(64), nullable=False, unique=True),
        sa.Column("organiser", sa.String(64), nullable=False),
        sa.Column("creator", sa.String(64), nullable=True),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("round", sa.Integer(), nullable=False),
        sa.Column("winner", sa.Integer(), nullable=True),
        sa.Column("created_at", sa.String(32), nullable=False),
        sa.Column("started_at", sa.String(32), nullable=True),
        sa.Column("finished_at", sa.String(32), nullable=True),
        sa.Column("busy_by", sa.String(32), nullable=True),
        sa.Column("busy_until", sa.String(32), nullable=True),
    )
    op.create_index("ix_bummerl_tournaments_creator", "bummerl_tournaments", ["creator"])
    op.create_index("ix_bummerl_tournaments_status", "bummerl_tournaments", ["status"])
    op.create_table(
        "bummerl_tournament_players",
        sa.Column("tournament_id", sa.String(32), sa.ForeignKey("bummerl_tournaments.id"), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("name_key", sa.String(64), nullable=False),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("bot", sa.String(64), nullable=True),
        sa.Column("token", sa.String(64), nullable=True),
        sa.Column("joined_at", sa.String(32), nullable=False),
        sa.PrimaryKeyConstraint("tournament_id", "number"),
        sa.UniqueConstraint("tournament_id", "name_key", name="uq_bummerl_tournament_players_name"),
    )
    op.create_table(
        "bummerl_tournament_tables",
        sa.Column("tournament_id", sa.String(32), sa.ForeignKey("bummerl_tournaments.id"), nullable=False),
        sa.Column("round", sa.Integer(), nullable=False),
        sa.Column("table_no", sa.Integer(), nullable=False),
        sa.Column("table_id", sa.String(32), nullable=True),
        sa.Column("players", sa.Text(), nullable=False),
        sa.Column("bye", sa.Boolean(), nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("outcome", sa.Text(), nullable=True),
        sa.Column("finished_at", sa.String(32), nullable=True),
        sa.PrimaryKeyConstraint("tournament_id", "round", "table_no"),
    )
    op.create_index("ix_bummerl_tournament_tables_table_id", "bummerl_tournament_tables", ["table_id"])


def downgrade() -> None:
    op.drop_index("ix_bummerl_tournament_tables_table_id", table_name="bummerl_tournament_tables")
    op.drop_table("bummerl_tournament_tables")
    op.drop_table("bummerl_tournament_players")
    op.drop_index("ix_bummerl_tournaments_status", table_name="bummerl_tournaments")
    op.drop_index("ix_bummerl_tournaments_creator", table_name="bummerl_tournaments")
    op.drop_table("bummerl_tournaments")
