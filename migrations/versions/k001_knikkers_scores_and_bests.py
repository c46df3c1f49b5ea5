"""knikkers scores and bests (leaderboards)

Revision ID: k001
Revises: 0001
Create Date: 2026-11-29 18:00:00

``knikkers_scores``: one row per finished, server-verified Knikkers game (the "all games" boards,
player statistics). ``knikkers_bests``: each player's best game per (variant, board), where board
is ``all``, ``month:<first day>``, ``week:<monday>``, ``day:<date>`` or ``daily:<date>``; kept up
to date when a game finishes so the per-player leaderboards are an index range.
``knikkers_score_counts``: per (variant, board, score) how many players have that best, so a
player's rank is a sum over the distinct higher scores (see app/knikkers/leaderboard.py and
bench/leaderboard.py).
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "k001"
down_revision: str | None = "0001"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "knikkers_scores",
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("player_id", sa.String(length=32), nullable=False),
        sa.Column("variant", sa.SmallInteger(), nullable=False),
        sa.Column("daily", sa.Date(), nullable=True),
        sa.Column("score", sa.Integer(), nullable=False),
        sa.Column("moves", sa.Integer(), nullable=False),
        sa.Column("lines", sa.Integer(), nullable=False),
        sa.Column("finished_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("duration_s", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"], ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["player_id"], ["players.id"]),
        sa.PrimaryKeyConstraint("game_id"),
    )
    with op.batch_alter_table("knikkers_scores", schema=None) as batch_op:
        batch_op.create_index(
            "ix_knikkers_scores_rank",
            ["variant", sa.text("score DESC"), "finished_at", "game_id"],
        )
        batch_op.create_index(
            "ix_knikkers_scores_daily",
            ["variant", "daily", sa.text("score DESC"), "finished_at", "game_id"],
        )
        batch_op.create_index("ix_knikkers_scores_finished", ["variant", "finished_at"])
        batch_op.create_index(
            "ix_knikkers_scores_player", ["player_id", "variant", "finished_at"]
        )

    op.create_table(
        "knikkers_bests",
        sa.Column("variant", sa.SmallInteger(), nullable=False),
        sa.Column("board", sa.String(length=24), nullable=False),
        sa.Column("player_id", sa.String(length=32), nullable=False),
        sa.Column("score", sa.Integer(), nullable=False),
        sa.Column("finished_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("moves", sa.Integer(), nullable=False),
        sa.Column("lines", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"], ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["player_id"], ["players.id"]),
        sa.PrimaryKeyConstraint("variant", "board", "player_id"),
    )
    with op.batch_alter_table("knikkers_bests", schema=None) as batch_op:
        batch_op.create_index(
            "ix_knikkers_bests_board_rank",
            ["variant", "board", sa.text("score DESC"), "finished_at", "player_id"],
        )
        batch_op.create_index("ix_knikkers_bests_game", ["game_id"])

    op.create_table(
        "knikkers_score_counts",
        sa.Column("variant", sa.SmallInteger(), nullable=False),
        sa.Column("board", sa.String(length=24), nullable=False),
        sa.Column("score", sa.Integer(), nullable=False),
        sa.Column("players", sa.Integer(), nullable=False),
        sa.PrimaryKeyConstraint("variant", "board", "score"),
    )
    with op.batch_alter_table("knikkers_score_counts", schema=None) as batch_op:
        # covering: a rank's sum over the higher scores is an index-only range
        batch_op.create_index(
            "ix_knikkers_score_counts_sum", ["variant", "board", "score", "players"]
        )

    with op.batch_alter_table("games", schema=None) as batch_op:
        batch_op.create_index("ix_games_player_kind_status", ["player_id", "kind", "status"])


def downgrade() -> None:
    with op.batch_alter_table("games", schema=None) as batch_op:
        batch_op.drop_index("ix_games_player_kind_status")
    op.drop_table("knikkers_score_counts")
    op.drop_table("knikkers_bests")
    op.drop_table("knikkers_scores")
