"""push subscriptions and the push queue

Revision ID: p001
Revises: g003
Create Date: 2026-12-05 22:40:00

``push_subscriptions``: browsers' Web Push subscriptions per player (docs/architecture.md,
"Push notifications"); ``push_deliveries``: the queue of pushes, one row per subscription,
taken by the sender when due (``ix_push_deliveries_due``) and counted per player for the daily
limit (``ix_push_deliveries_player``).
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "p001"
down_revision: str | None = "g003"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "push_subscriptions",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("player_id", sa.String(length=32), nullable=False),
        sa.Column("endpoint", sa.String(length=1000), nullable=False),
        sa.Column("p256dh", sa.String(length=100), nullable=False),
        sa.Column("auth", sa.String(length=40), nullable=False),
        sa.Column("lang", sa.String(length=5), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["player_id"], ["players.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("endpoint"),
    )
    op.create_index("ix_push_subscriptions_player_id", "push_subscriptions", ["player_id"])
    op.create_table(
        "push_deliveries",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("subscription_id", sa.Integer(), nullable=False),
        sa.Column("player_id", sa.String(length=32), nullable=False),
        sa.Column("batch", sa.String(length=32), nullable=False),
        sa.Column("room_code", sa.String(length=16), nullable=True),
        sa.Column("payload", sa.JSON(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("due_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("attempts", sa.Integer(), nullable=False),
        sa.Column("sent_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("gave_up", sa.Boolean(), nullable=False),
        sa.ForeignKeyConstraint(["subscription_id"], ["push_subscriptions.id"],
                                ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index("ix_push_deliveries_due", "push_deliveries", ["sent_at", "due_at"])
    op.create_index("ix_push_deliveries_player", "push_deliveries",
                    ["player_id", "created_at"])
    op.create_index("ix_push_deliveries_subscription_id", "push_deliveries",
                    ["subscription_id"])


def downgrade() -> None:
    op.drop_table("push_deliveries")
    op.drop_table("push_subscriptions")
