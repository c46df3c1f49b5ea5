"""turn notices: the pushes a turn-based room's wait has had

Revision ID: r002
Revises: r001
Create Date: 2026-12-06 02:10:00

One row per push the scheduler decided for a seat's wait (``kind``: ``turn`` when the turn
began, ``remind`` before its deadline), keyed by the wait's start, so each is decided once
whatever process looks (``app.push.turns``).
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "r002"
down_revision: str | None = "r001"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "turn_notices",
        sa.Column("room_id", sa.Integer(), nullable=False),
        sa.Column("seat_id", sa.Integer(), nullable=False),
        sa.Column("since", sa.DateTime(timezone=True), nullable=False),
        sa.Column("kind", sa.String(length=8), nullable=False),
        sa.ForeignKeyConstraint(["room_id"], ["rooms.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("room_id", "seat_id", "since", "kind"),
    )


def downgrade() -> None:
    op.drop_table("turn_notices")
