"""chat messages

Revision ID: t001
Revises: 0002
Create Date: 2026-12-01 21:40:00

``chat_messages``: the lines of a room's chat (docs/rules.md, "Talk at the table"), read back
newest first by room (``ix_chat_messages_room``); ``removed`` marks a line the host took away.
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "t001"
down_revision: str | None = "0002"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "chat_messages",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("room_id", sa.Integer(), nullable=False),
        sa.Column("seat_id", sa.Integer(), nullable=False),
        sa.Column("player_id", sa.String(length=32), nullable=False),
        sa.Column("name", sa.String(length=40), nullable=False),
        sa.Column("body", sa.String(length=200), nullable=False),
        sa.Column("removed", sa.Boolean(), nullable=False, server_default=sa.false()),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["room_id"], ["rooms.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index("ix_chat_messages_room", "chat_messages", ["room_id", "id"])


def downgrade() -> None:
    op.drop_index("ix_chat_messages_room", table_name="chat_messages")
    op.drop_table("chat_messages")
