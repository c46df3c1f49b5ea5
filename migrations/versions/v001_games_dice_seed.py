"""games.dice_seed: the secret seed a room game's server dice come from (docs/dice.md)

Revision ID: v001
Revises: r003
Create Date: 2026-12-06 04:10:00

A room game with server dice draws every die from this seed (64 hex digits) and the die's
place in the game; its SHA-256 is shown while the game runs, the seed itself once it is over.
Null for games with real dice, single-player games and games from before this revision.
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "v001"
down_revision: str | None = "r003"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("dice_seed", sa.String(length=64), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.drop_column("dice_seed")
