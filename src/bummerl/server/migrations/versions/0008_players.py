"""Players without passwords (issue 13): players, their device keys, transfer codes and seats; match verdicts.

Four new tables (:mod:`bummerl.server.players`): ``bummerl_players`` (one per
player: an id and a name), ``bummerl_player_keys`` (the SHA-256 of each device
key of a player), ``bummerl_player_transfers`` (a live transfer code: its
lookup symbols, the SHA-256 of the whole code, its expiry and the wrong guesses
it took) and ``bummerl_player_seats`` (the seats of tables a player holds).
And ``bummerl_game_outcomes``: the verdict of a game's match once the game was
scored (:meth:`bummerl.server.storage.Repository.finish_game`), none for the
games stored before, whose Bummerl the statistics then do not count.  A table
of its own, not a column of ``bummerl_games``: a server of revision 0007 still
reads the games of a database gone down and up again.  **Downgrade** drops the
five tables; no row of the games is lost.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "bummerl_game_outcomes",
        sa.Column("game_id", sa.Integer(), sa.ForeignKey("bummerl_games.id"), primary_key=True),
        sa.Column("outcome", sa.Text(), nullable=False),
    )
    op.create_table(
        "bummerl_players",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("name", sa.String(64), nullable=True),
        sa.Column("created_at", sa.String(32), nullable=False),
    )
    op.create_table(
        "bummerl_player_keys",
        sa.Column("key_hash", sa.String(64), primary_key=True),
        sa.Column("player_id", sa.String(32), sa.ForeignKey("bummerl_players.id"), nullable=False),
        sa.Column("created_at", sa.String(32), nullable=False),
        sa.Column("used_at", sa.Float(), nullable=False),
    )
    op.create_index("ix_bummerl_player_keys_player_id", "bummerl_player_keys", ["player_id"])
    op.create_table(
        "bummerl_player_transfers",
        sa.Column("lookup", sa.String(8), primary_key=True),
        sa.Column("code_hash", sa.String(64), nullable=False),
        sa.Column("player_id", sa.String(32), sa.ForeignKey("bummerl_players.id"), nullable=False, unique=True),
        sa.Column("expires", sa.Float(), nullable=False),
        sa.Column("attempts", sa.Integer(), nullable=False),
    )
    op.create_table(
        "bummerl_player_seats",
        sa.Column("table_id", sa.String(32), sa.ForeignKey("bummerl_tables.id"), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("player_id", sa.String(32), sa.ForeignKey("bummerl_players.id"), nullable=False),
        sa.Column("claimed_at", sa.String(32), nullable=False),
        sa.PrimaryKeyConstraint("table_id", "seat"),
    )
    op.create_index("ix_bummerl_player_seats_player_id", "bummerl_player_seats", ["player_id"])


def downgrade() -> None:
    op.drop_index("ix_bummerl_player_seats_player_id", table_name="bummerl_player_seats")
    op.drop_table("bummerl_player_seats")
    op.drop_table("bummerl_player_transfers")
    op.drop_index("ix_bummerl_player_keys_player_id", table_name="bummerl_player_keys")
    op.drop_table("bummerl_player_keys")
    op.drop_table("bummerl_players")
    op.drop_table("bummerl_game_outcomes")
