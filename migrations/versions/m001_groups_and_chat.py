"""One head again: the groups tables (g002) and the chat lines (t001) were added side by side.

Revision ID: m001
Revises: g002, t001
"""

from __future__ import annotations

revision: str = "m001"
down_revision: tuple[str, ...] = ("g002", "t001")
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Nothing to change: both parents' tables already exist."""


def downgrade() -> None:
    """Nothing to change."""
