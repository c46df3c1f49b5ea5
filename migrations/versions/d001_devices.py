"""devices, device links and passkeys

Revision ID: d001
Revises: p001
Create Date: 2026-12-05 23:00:00

``devices``: the browsers signed in as a player (listed newest seen first by player,
``ix_devices_player``; revoked ones read by every process, ``ix_devices_revoked``);
``device_links``: one-time codes that sign another device in; ``passkeys``: WebAuthn
credentials that sign a browser in (docs/architecture.md, "Your name on every device").
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "d001"
down_revision: str | None = "p001"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "devices",
        sa.Column("id", sa.String(length=32), nullable=False),
        sa.Column("player_id", sa.String(length=32), nullable=False),
        sa.Column("label", sa.String(length=60), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("last_seen_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("revoked_at", sa.DateTime(timezone=True), nullable=True),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index("ix_devices_player", "devices", ["player_id", "last_seen_at"])
    op.create_index("ix_devices_revoked", "devices", ["revoked_at"])
    op.create_table(
        "device_links",
        sa.Column("code_hash", sa.String(length=64), nullable=False),
        sa.Column("player_id", sa.String(length=32), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("used_at", sa.DateTime(timezone=True), nullable=True),
        sa.PrimaryKeyConstraint("code_hash"),
    )
    op.create_index("ix_device_links_player", "device_links", ["player_id"])
    op.create_table(
        "passkeys",
        sa.Column("id", sa.String(length=400), nullable=False),
        sa.Column("player_id", sa.String(length=32), nullable=False),
        sa.Column("public_key", sa.LargeBinary(), nullable=False),
        sa.Column("sign_count", sa.Integer(), nullable=False),
        sa.Column("label", sa.String(length=60), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("last_used_at", sa.DateTime(timezone=True), nullable=True),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index("ix_passkeys_player", "passkeys", ["player_id"])


def downgrade() -> None:
    op.drop_table("passkeys")
    op.drop_table("device_links")
    op.drop_table("devices")
