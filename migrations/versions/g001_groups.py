"""groups: members, rooms played for a group, nights, per-game results and ratings

Revision ID: g001
Revises: 0002
Create Date: 2026-12-01 21:30:00

``groups``: friends who play together (docs/rules.md, "Groups"), with the current invite
token. ``group_members``: who belongs (``status`` active, left or removed; ``name`` as it was).
``group_rooms``: rooms played for a group (and the night they belong to). ``group_nights``: a
group evening. ``group_results``: one row per (finished game, seated player) of a group's
room, written once when the game is recorded: the table, head-to-head and records read only
these. ``ratings``: openskill ratings per scope (``all``, or ``g<group id>``), game kind and
player. ``rated_games``: the games already recorded, so a game is never rated twice.
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "g001"
down_revision: str | None = "0002"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "groups",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("code", sa.String(length=32), nullable=False),
        sa.Column("name", sa.String(length=40), nullable=False),
        sa.Column("admin_player_id", sa.String(length=32), nullable=False),
        sa.Column("invite", sa.String(length=32), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["admin_player_id"], ["players.id"]),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("code"),
        sa.UniqueConstraint("invite"),
    )
    op.create_table(
        "group_members",
        sa.Column("group_id", sa.Integer(), nullable=False),
        sa.Column("player_id", sa.String(length=32), nullable=False),
        sa.Column("name", sa.String(length=24), nullable=False),
        sa.Column("status", sa.String(length=16), nullable=False),
        sa.Column("joined_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["group_id"], ["groups.id"], ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["player_id"], ["players.id"]),
        sa.PrimaryKeyConstraint("group_id", "player_id"),
    )
    with op.batch_alter_table("group_members") as batch:
        batch.create_index("ix_group_members_player", ["player_id", "status"])
    op.create_table(
        "group_nights",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("group_id", sa.Integer(), nullable=False),
        sa.Column("started_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("ended_at", sa.DateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(["group_id"], ["groups.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
    )
    with op.batch_alter_table("group_nights") as batch:
        batch.create_index("ix_group_nights_group", ["group_id", "started_at"])
    op.create_table(
        "group_rooms",
        sa.Column("room_id", sa.Integer(), nullable=False),
        sa.Column("group_id", sa.Integer(), nullable=False),
        sa.Column("attached_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["room_id"], ["rooms.id"], ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["group_id"], ["groups.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("room_id"),
    )
    op.create_table(
        "group_results",
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("player_id", sa.String(length=32), nullable=False),
        sa.Column("group_id", sa.Integer(), nullable=False),
        sa.Column("night_id", sa.Integer(), nullable=True),
        sa.Column("kind", sa.String(length=16), nullable=False),
        sa.Column("finished_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("code", sa.String(length=32), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("seat_id", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(length=24), nullable=False),
        sa.Column("member", sa.Boolean(), nullable=False),
        sa.Column("score", sa.Integer(), nullable=False),
        sa.Column("rank", sa.SmallInteger(), nullable=False),
        sa.Column("players", sa.SmallInteger(), nullable=False),
        sa.Column("won", sa.Boolean(), nullable=False),
        sa.Column("kniffels", sa.SmallInteger(), nullable=False),
        sa.Column("accuracy", sa.SmallInteger(), nullable=True),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"], ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["group_id"], ["groups.id"], ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["night_id"], ["group_nights.id"], ondelete="SET NULL"),
        sa.PrimaryKeyConstraint("game_id", "player_id"),
    )
    with op.batch_alter_table("group_results") as batch:
        batch.create_index("ix_group_results_table",
                           ["group_id", "kind", "finished_at", "player_id"])
        batch.create_index("ix_group_results_night", ["night_id"])
    op.create_table(
        "ratings",
        sa.Column("scope", sa.String(length=16), nullable=False),
        sa.Column("kind", sa.String(length=16), nullable=False),
        sa.Column("player_id", sa.String(length=32), nullable=False),
        sa.Column("mu", sa.Float(), nullable=False),
        sa.Column("sigma", sa.Float(), nullable=False),
        sa.Column("games", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(["player_id"], ["players.id"]),
        sa.PrimaryKeyConstraint("scope", "kind", "player_id"),
    )
    op.create_table(
        "rated_games",
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("rated_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("game_id"),
    )
    with op.batch_alter_table("games") as batch:
        batch.create_index("ix_games_status_finished", ["status", "finished_at"])


def downgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.drop_index("ix_games_status_finished")
    op.drop_table("rated_games")
    op.drop_table("ratings")
    op.drop_table("group_results")
    op.drop_table("group_rooms")
    op.drop_table("group_nights")
    op.drop_table("group_members")
    op.drop_table("groups")
