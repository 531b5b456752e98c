"""Two columns of ``bummerl_tables``: ``deal_key`` and ``practice``.

``deal_key`` is a per-table secret (hex, at most 64 characters) that the
server fills in when it makes a table; tables made before have none (NULL).
``practice`` marks a practice table; it is NOT NULL with the server default
false, so every existing table becomes an ordinary one.

Both are plain ``ADD COLUMN`` statements, which SQLite runs too (a NOT NULL
column needs a constant default there, and false is one); the downgrade's
``DROP COLUMN`` needs SQLite 3.35 or later.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("bummerl_tables", sa.Column("deal_key", sa.String(64), nullable=True))
    op.add_column("bummerl_tables", sa.Column("practice", sa.Boolean(), nullable=False, server_default=sa.false()))


def downgrade() -> None:
    op.drop_column("bummerl_tables", "practice")
    op.drop_column("bummerl_tables", "deal_key")
