"""group records and games kept as they are recorded; a game's feats named by no game

Revision ID: g004
Revises: r003
Create Date: 2026-12-06 04:20:00

The group page's history read fewer and smaller statements (bench/groups.py, the first view
after a new game): ``group_records`` keeps the best result of each group, month, game kind and
record (``score``, ``feats``, ``accuracy``), replaced when a recorded game beats it, so the
records are one statement of a few rows instead of three searches of ``group_results``;
``group_games`` keeps one row per game of a group with its places, so the game list is one
statement of 50 rows. Both are filled here from the results recorded so far. The three
indexes that served the old record searches go. ``kniffels`` becomes ``feats``: what a game
counts beyond points is the game's own (``GameRecords``), not named by the groups' tables.
"""

from collections import defaultdict
from collections.abc import Sequence
from datetime import UTC, date

import sqlalchemy as sa
from alembic import op

revision: str = "g004"
down_revision: str | None = "r003"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

RESULTS = sa.table(
    "group_results", sa.column("game_id", sa.Integer), sa.column("player_id", sa.String),
    sa.column("group_id", sa.Integer), sa.column("kind", sa.String),
    sa.column("finished_at", sa.DateTime(timezone=True)), sa.column("code", sa.String),
    sa.column("number", sa.Integer), sa.column("name", sa.String),
    sa.column("member", sa.Boolean), sa.column("score", sa.Integer),
    sa.column("rank", sa.Integer), sa.column("feats", sa.Integer),
    sa.column("accuracy", sa.Integer))


def _month(moment) -> date:
    if moment.tzinfo is not None:
        moment = moment.astimezone(UTC)
    return date(moment.year, moment.month, 1)


def _fill(records: sa.Table, games: sa.Table) -> None:
    """Records and games from the results recorded so far."""
    bind = op.get_bind()
    rows = bind.execute(sa.select(RESULTS).order_by(RESULTS.c.finished_at,
                                                    RESULTS.c.game_id)).all()
    places: dict[int, list] = defaultdict(list)
    heads: dict[int, dict] = {}
    best: dict[tuple, dict] = {}
    for r in rows:
        heads.setdefault(r.game_id, {"game_id": r.game_id, "group_id": r.group_id,
                                     "kind": r.kind, "finished_at": r.finished_at,
                                     "code": r.code, "number": r.number})
        places[r.game_id].append([r.rank, r.name, r.score])
        if not r.member:
            continue
        for what, value in (("score", r.score), ("feats", r.feats), ("accuracy", r.accuracy)):
            if value is None or (what == "feats" and value <= 0):
                continue
            key = (r.group_id, _month(r.finished_at), r.kind, what)
            if key not in best or value > best[key]["value"]:  # oldest first: ties keep it
                best[key] = {"group_id": key[0], "month": key[1], "kind": key[2], "what": what,
                             "value": value, "game_id": r.game_id, "player_id": r.player_id,
                             "name": r.name, "code": r.code, "number": r.number,
                             "finished_at": r.finished_at}
    if heads:
        op.bulk_insert(games, [{**head, "places": sorted(places[game])}
                               for game, head in heads.items()])
    if best:
        op.bulk_insert(records, list(best.values()))


def upgrade() -> None:
    """Rename ``kniffels`` to ``feats``, add and fill ``group_records`` and ``group_games``,
    drop the record indexes of ``group_results``."""
    for name in ("ix_group_results_score", "ix_group_results_kniffels",
                 "ix_group_results_accuracy"):
        op.drop_index(name, table_name="group_results")
    op.execute("ALTER TABLE group_results RENAME COLUMN kniffels TO feats")
    op.execute("ALTER TABLE group_standings RENAME COLUMN kniffels TO feats")
    records = op.create_table(
        "group_records",
        sa.Column("group_id", sa.Integer(), nullable=False),
        sa.Column("month", sa.Date(), nullable=False),
        sa.Column("kind", sa.String(length=16), nullable=False),
        sa.Column("what", sa.String(length=16), nullable=False),
        sa.Column("value", sa.Integer(), nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("player_id", sa.String(length=32), nullable=False),
        sa.Column("name", sa.String(length=24), nullable=False),
        sa.Column("code", sa.String(length=32), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("finished_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["group_id"], ["groups.id"], ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("group_id", "month", "kind", "what"),
    )
    games = op.create_table(
        "group_games",
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("group_id", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(length=16), nullable=False),
        sa.Column("finished_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("code", sa.String(length=32), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("places", sa.JSON(), nullable=False),
        sa.ForeignKeyConstraint(["group_id"], ["groups.id"], ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("game_id"),
    )
    op.create_index("ix_group_games_recent", "group_games",
                    ["group_id", "finished_at", "game_id"])
    _fill(records, games)


def downgrade() -> None:
    """Back to g003's tables (records and games are read from the results again)."""
    op.drop_index("ix_group_games_recent", table_name="group_games")
    op.drop_table("group_games")
    op.drop_table("group_records")
    op.execute("ALTER TABLE group_standings RENAME COLUMN feats TO kniffels")
    op.execute("ALTER TABLE group_results RENAME COLUMN feats TO kniffels")
    op.create_index("ix_group_results_score", "group_results", ["group_id", "kind", "score"])
    op.create_index("ix_group_results_kniffels", "group_results", ["group_id", "kniffels"])
    op.create_index("ix_group_results_accuracy", "group_results", ["group_id", "accuracy"])
