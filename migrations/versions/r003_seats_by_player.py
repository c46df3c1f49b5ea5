"""seats by player, covering: "Your games" reads a player's seats from the index alone

Revision ID: r003
Revises: r002
Create Date: 2026-12-06 03:00:00

``ix_seats_player_room`` (player_id, status, room_id, id): the first query of "Your games"
(``app.rooms.your_games``) finds a player's active seats and their rooms without reading the
table (an index-only scan on Postgres; a covering index on SQLite): with 50 games the seats
are 50 places on disk otherwise.
"""

from collections.abc import Sequence

from alembic import op

revision: str = "r003"
down_revision: str | None = "r002"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_index("ix_seats_player_room", "seats", ["player_id", "status", "room_id", "id"])


def downgrade() -> None:
    op.drop_index("ix_seats_player_room", table_name="seats")
