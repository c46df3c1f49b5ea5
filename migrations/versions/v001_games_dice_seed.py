"""games.dice_seed: the secret seed a room game's server dice come from (docs/dice.md);
daily_attempts: who played which daily challenge in which solo room (issue 29)

Revision ID: v001
Revises: g004
Create Date: 2026-12-06 04:10:00

A room game with server dice draws every die from this seed (64 hex digits) and the die's
place in the game; its SHA-256 is shown while the game runs, the seed itself once it is over.
Null for games with real dice, single-player games and games from before this revision.
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "v001"
down_revision: str | None = "g004"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("dice_seed", sa.String(length=64), nullable=True))
    op.create_table(
        "daily_attempts",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("player_id", sa.String(length=32), sa.ForeignKey("players.id"),
                  nullable=False),
        sa.Column("kind", sa.String(length=16), nullable=False),
        sa.Column("day", sa.String(length=10), nullable=False),
        sa.Column("attempt", sa.Integer(), nullable=False),
        sa.Column("room_id", sa.Integer(), sa.ForeignKey("rooms.id", ondelete="CASCADE"),
                  nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.UniqueConstraint("player_id", "kind", "day", "attempt", name="uq_daily_attempts"),
    )
    op.create_index("ix_daily_attempts_day", "daily_attempts", ["kind", "day", "attempt"])


def downgrade() -> None:
    op.drop_index("ix_daily_attempts_day", table_name="daily_attempts")
    op.drop_table("daily_attempts")
    with op.batch_alter_table("games") as batch:
        batch.drop_column("dice_seed")
