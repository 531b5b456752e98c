"""Ratings of people per variant (issue 24): rated tables, each player's rating, each game's decision and changes.

``bummerl_tables.rated`` marks a rated table (a quick match's: the server paired
its players); every existing table becomes unrated (``false``), so no game
played before changes a rating.  Three new tables (:mod:`bummerl.server.people_ratings`):
``bummerl_people_ratings`` (a player's openskill ``mu`` and ``sigma`` in one
variant, the conservative ``score`` the leaderboard is ordered by, and the
counts), ``bummerl_rated_games`` (the decision on each finished game of a rated
table, rated or why not: its primary key is what keeps a game from being rated
twice) and ``bummerl_rating_changes`` (what each rated game did to each of its
players).

**Downgrade** drops the three tables and the column: the ratings are
forgotten, no game, table or player is touched.  ``DROP COLUMN`` needs SQLite
3.35 or later (as 0009's).
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("bummerl_tables", sa.Column("rated", sa.Boolean(), nullable=False, server_default=sa.false()))
    op.create_table(
        "bummerl_people_ratings",
        sa.Column("variant", sa.String(64), nullable=False),
        sa.Column("player_id", sa.String(32), sa.ForeignKey("bummerl_players.id"), nullable=False),
        sa.Column("mu", sa.Float(), nullable=False),
        sa.Column("sigma", sa.Float(), nullable=False),
        sa.Column("score", sa.Float(), nullable=False),
        sa.Column("games", sa.Integer(), nullable=False),
        sa.Column("won", sa.Integer(), nullable=False),
        sa.Column("lost", sa.Integer(), nullable=False),
        sa.Column("updated_at", sa.String(32), nullable=False),
        sa.PrimaryKeyConstraint("variant", "player_id"),
    )
    op.create_index("ix_bummerl_people_ratings_player_id", "bummerl_people_ratings", ["player_id"])
    op.create_index("ix_bummerl_people_ratings_board", "bummerl_people_ratings", ["variant", "score"])
    op.create_table(
        "bummerl_rated_games",
        sa.Column("game_id", sa.Integer(), sa.ForeignKey("bummerl_games.id"), primary_key=True),
        sa.Column("variant", sa.String(64), nullable=False),
        sa.Column("decision", sa.String(32), nullable=False),
        sa.Column("rated_at", sa.String(32), nullable=False),
    )
    op.create_table(
        "bummerl_rating_changes",
        sa.Column("game_id", sa.Integer(), sa.ForeignKey("bummerl_games.id"), nullable=False),
        sa.Column("player_id", sa.String(32), sa.ForeignKey("bummerl_players.id"), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("outcome", sa.String(16), nullable=False),
        sa.Column("mu_before", sa.Float(), nullable=False),
        sa.Column("sigma_before", sa.Float(), nullable=False),
        sa.Column("mu_after", sa.Float(), nullable=False),
        sa.Column("sigma_after", sa.Float(), nullable=False),
        sa.PrimaryKeyConstraint("game_id", "player_id"),
    )
    op.create_index("ix_bummerl_rating_changes_player_id", "bummerl_rating_changes", ["player_id"])


def downgrade() -> None:
    op.drop_index("ix_bummerl_rating_changes_player_id", table_name="bummerl_rating_changes")
    op.drop_table("bummerl_rating_changes")
    op.drop_table("bummerl_rated_games")
    op.drop_index("ix_bummerl_people_ratings_board", table_name="bummerl_people_ratings")
    op.drop_index("ix_bummerl_people_ratings_player_id", table_name="bummerl_people_ratings")
    op.drop_table("bummerl_people_ratings")
    op.drop_column("bummerl_tables", "rated")
