"""The group page's speed (bench/groups.py): an index on a member's own results in one game
kind by time (the chart of "your points per game" and head-to-head read along it instead of
scanning every result of the kind), and ``groups.results_version``, counted up whenever the
group's results change, so the page keeps what it shows from them per version.

Revision ID: g003
Revises: m001
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "g003"
down_revision: str | None = "m001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add ``ix_group_results_player`` (group, player, kind, finished_at) and
    ``groups.results_version`` (0)."""
    op.add_column("groups", sa.Column("results_version", sa.Integer(), nullable=False,
                                      server_default="0"))
    op.create_index("ix_group_results_player", "group_results",
                    ["group_id", "player_id", "kind", "finished_at"])


def downgrade() -> None:
    """Drop ``ix_group_results_player`` and ``groups.results_version``."""
    op.drop_index("ix_group_results_player", table_name="group_results")
    with op.batch_alter_table("groups") as batch:
        batch.drop_column("results_version")
