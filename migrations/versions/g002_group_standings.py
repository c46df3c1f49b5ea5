"""group standings per month, indexes for records and the game list

Revision ID: g002
Revises: g001
Create Date: 2026-12-01 22:00:00

``group_standings``: per group, game kind, month (its first day, UTC) and member the sums the
table shows (games, wins, ranks, scores, best, Kniffels, accuracy), kept up to date when a game
is recorded, so a season's table reads one row per member and month instead of every game
(bench/groups.py). Indexes on ``group_results`` for the latest games and the records.
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "g002"
down_revision: str | None = "g001"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "group_standings",
        sa.Column("group_id", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(length=16), nullable=False),
        sa.Column("month", sa.Date(), nullable=False),
        sa.Column("player_id", sa.String(length=32), nullable=False),
        sa.Column("games", sa.Integer(), nullable=False),
        sa.Column("wins", sa.Integer(), nullable=False),
        sa.Column("rank_sum", sa.Integer(), nullable=False),
        sa.Column("score_sum", sa.BigInteger(), nullable=False),
        sa.Column("best", sa.Integer(), nullable=False),
        sa.Column("kniffels", sa.Integer(), nullable=False),
        sa.Column("accuracy_sum", sa.Integer(), nullable=False),
        sa.Column("accuracy_games", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(["group_id"], ["groups.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("group_id", "kind", "month", "player_id"),
    )
    with op.batch_alter_table("group_results") as batch:
        batch.create_index("ix_group_results_recent", ["group_id", "finished_at"])
        batch.create_index("ix_group_results_score", ["group_id", "kind", "score"])
        batch.create_index("ix_group_results_kniffels", ["group_id", "kniffels"])
        batch.create_index("ix_group_results_accuracy", ["group_id", "accuracy"])


def downgrade() -> None:
    with op.batch_alter_table("group_results") as batch:
        batch.drop_index("ix_group_results_accuracy")
        batch.drop_index("ix_group_results_kniffels")
        batch.drop_index("ix_group_results_score")
        batch.drop_index("ix_group_results_recent")
    op.drop_table("group_standings")
