"""Cluster mode: the live processes (``bummerl_cluster_nodes``) and which one holds a table (``bummerl_table_owners``).

Several ``bummerl serve`` processes on one PostgreSQL serve the same tables
(:mod:`bummerl.server.cluster`): a table is live in one process at a time, the one
named by its row in ``bummerl_table_owners``.  A process renews its row in
``bummerl_cluster_nodes`` every heartbeat; once that row has expired (by the
database's clock) another process may take the process's tables, and every take
raises the table's ``generation``, the fencing token that the writes of a table
check (:class:`bummerl.server.storage.Lease`).

Two new tables and nothing else: no row of the game tables changes, and a single
server (SQLite, or PostgreSQL with ``cluster=False``) never writes them.  The
times are real timestamps, unlike the text times of the game tables, because the
database compares them with its own ``now()``.  **Downgrade** drops both tables
(a lease is worth nothing once the processes have stopped).
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "bummerl_cluster_nodes",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("host", sa.String(255), nullable=False),
        sa.Column("pid", sa.Integer(), nullable=False),
        sa.Column("started_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "bummerl_table_owners",
        sa.Column("table_id", sa.String(32), sa.ForeignKey("bummerl_tables.id"), primary_key=True),
        sa.Column("node_id", sa.String(32), nullable=False),
        sa.Column("generation", sa.Integer(), nullable=False),
        sa.Column("taken_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_bummerl_table_owners_node_id", "bummerl_table_owners", ["node_id"])


def downgrade() -> None:
    op.drop_index("ix_bummerl_table_owners_node_id", table_name="bummerl_table_owners")
    op.drop_table("bummerl_table_owners")
    op.drop_table("bummerl_cluster_nodes")
