"""room actions and ready seats

Revision ID: 0002
Revises: k001
Create Date: 2026-11-30 19:00:00

``room_actions``: the client's id of every room-level action (start, options, remove, leave,
ready, rematch) with the room version it was committed at, so a repeated send is answered as a
duplicate also after a restart. ``seats.ready``: the seat pressed "Ready" for the next game
(cleared when a game starts).
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0002"
down_revision: str | None = "k001"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "room_actions",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("room_id", sa.Integer(), nullable=False),
        sa.Column("action_id", sa.String(length=64), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["room_id"], ["rooms.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("room_id", "action_id", name="uq_room_actions_room_action"),
    )
    with op.batch_alter_table("seats") as batch:
        batch.add_column(sa.Column("ready", sa.Boolean(), nullable=False,
                                   server_default=sa.false()))


def downgrade() -> None:
    with op.batch_alter_table("seats") as batch:
        batch.drop_column("ready")
    op.drop_table("room_actions")
