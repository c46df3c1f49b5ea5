"""turn-based rooms: who the table waits for, and when

Revision ID: r001
Revises: d001
Create Date: 2026-12-06 01:15:00

``rooms.turns``: in a turn-based room (option ``pace`` = ``turns``), the seats the game waits
for (since when, their deadline, whether reminded) and each seat's turns missed in a row
(``app.rooms.turns``); ``rooms.turn_due_at`` / ``rooms.remind_at``: the earliest deadline and
reminder still to act on, indexed so any process finds the due ones
(``app.rooms.deadlines``). Both NULL in live rooms.
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "r001"
down_revision: str | None = "d001"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("rooms") as batch_op:
        batch_op.add_column(sa.Column("turns", sa.JSON(), nullable=True))
        batch_op.add_column(sa.Column("turn_due_at", sa.DateTime(timezone=True), nullable=True))
        batch_op.add_column(sa.Column("remind_at", sa.DateTime(timezone=True), nullable=True))
        batch_op.create_index("ix_rooms_turn_due_at", ["turn_due_at"])
        batch_op.create_index("ix_rooms_remind_at", ["remind_at"])


def downgrade() -> None:
    with op.batch_alter_table("rooms") as batch_op:
        batch_op.drop_index("ix_rooms_remind_at")
        batch_op.drop_index("ix_rooms_turn_due_at")
        batch_op.drop_column("remind_at")
        batch_op.drop_column("turn_due_at")
        batch_op.drop_column("turns")
