"""The action token grows from 16 to 40 characters.

The table games' actions are longer than the two-player ones: a bid such as
``bid:kontra-bauernschnapser`` has 26 characters.  The models declared 40 from
commit 773c926 on, but ``create_all`` never changes an existing column, so a
PostgreSQL database from the first release refused those bids (SQLite does not
enforce a VARCHAR's length) until commit 0ad9934 widened the column at start.
Rows are kept: PostgreSQL alters the column in place, SQLite copies the table
(``batch_alter_table``; nothing refers to ``bummerl_actions``).

The downgrade narrows the column again; PostgreSQL refuses it while a longer
token is stored.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("bummerl_actions") as batch:
        batch.alter_column("token", existing_type=sa.String(16), type_=sa.String(40), existing_nullable=False)


def downgrade() -> None:
    with op.batch_alter_table("bummerl_actions") as batch:
        batch.alter_column("token", existing_type=sa.String(40), type_=sa.String(16), existing_nullable=False)
