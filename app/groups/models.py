"""The groups' tables (the schema comes only from the migration ``g001_groups``).

A group's table, head-to-head and records read only ``GroupResult`` rows: one per finished
game of a group's room and seated player, written once when the game is recorded
(``app.groups.record``), with the name the player had then.
"""

from __future__ import annotations

from datetime import date, datetime
from typing import Any

from sqlalchemy import (
    BigInteger,
    Boolean,
    Date,
    DateTime,
    Float,
    ForeignKey,
    Index,
    Integer,
    SmallInteger,
    String,
)
from sqlalchemy.orm import Mapped, mapped_column

from app.clock import utcnow
from app.store.models import Base, Game


class Group(Base):
    """Friends who play together, at ``/groups/<code>``; ``invite`` is the token of the
    current invite link (renewing it makes the old link stop working); ``results_version``
    counts the changes to the group's results (a game recorded, its accuracies stored): what
    the page shows from them is kept per version (``app.groups.page``)."""

    __tablename__ = "groups"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    code: Mapped[str] = mapped_column(String(32), unique=True)
    name: Mapped[str] = mapped_column(String(40))
    admin_player_id: Mapped[str] = mapped_column(ForeignKey("players.id"))
    invite: Mapped[str] = mapped_column(String(32), unique=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    results_version: Mapped[int] = mapped_column(Integer, default=0, server_default="0")


class GroupMember(Base):
    """A player of a group: ``status`` ``active``, ``left`` or ``removed`` (the row stays so
    past results keep their ``name``)."""

    __tablename__ = "group_members"

    group_id: Mapped[int] = mapped_column(ForeignKey("groups.id", ondelete="CASCADE"),
                                          primary_key=True)
    player_id: Mapped[str] = mapped_column(ForeignKey("players.id"), primary_key=True)
    name: Mapped[str] = mapped_column(String(24))
    status: Mapped[str] = mapped_column(String(16), default="active")
    joined_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class GroupNight(Base):
    """A group evening: the group's games finished between ``started_at`` and ``ended_at``
    (None: still running) make its standings."""

    __tablename__ = "group_nights"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    group_id: Mapped[int] = mapped_column(ForeignKey("groups.id", ondelete="CASCADE"))
    started_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    ended_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))


class GroupRoom(Base):
    """A room played for a group: its games finished from now on count for it."""

    __tablename__ = "group_rooms"

    room_id: Mapped[int] = mapped_column(ForeignKey("rooms.id", ondelete="CASCADE"),
                                         primary_key=True)
    group_id: Mapped[int] = mapped_column(ForeignKey("groups.id", ondelete="CASCADE"))
    attached_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class GroupResult(Base):
    """One seated player's result in one finished game of a group's room.

    ``rank``: 1 + the number of seats with a higher total (a shared first place is a win for
    each, ``won``); ``players``: seats in the game; ``member``: a person who was a member when
    the game was recorded (bots and guests from outside are never members, but their seats
    count for ranks); ``feats``: what the game counts beyond points (``GameRecords.feats``:
    Kniffels thrown in the Kniffel family; 0 for a game without a feat);
    ``accuracy``: 0..100 where the game was analysed, else None; ``code``/``number``: the
    room and game number (for the review link)."""

    __tablename__ = "group_results"

    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"),
                                         primary_key=True)
    player_id: Mapped[str] = mapped_column(String(32), primary_key=True)
    group_id: Mapped[int] = mapped_column(ForeignKey("groups.id", ondelete="CASCADE"))
    night_id: Mapped[int | None] = mapped_column(
        ForeignKey("group_nights.id", ondelete="SET NULL"))
    kind: Mapped[str] = mapped_column(String(16))
    finished_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    code: Mapped[str] = mapped_column(String(32))
    number: Mapped[int] = mapped_column(Integer)
    seat_id: Mapped[int] = mapped_column(Integer)
    name: Mapped[str] = mapped_column(String(24))
    member: Mapped[bool] = mapped_column(Boolean)
    score: Mapped[int] = mapped_column(Integer)
    rank: Mapped[int] = mapped_column(SmallInteger)
    players: Mapped[int] = mapped_column(SmallInteger)
    won: Mapped[bool] = mapped_column(Boolean)
    feats: Mapped[int] = mapped_column(SmallInteger)
    accuracy: Mapped[int | None] = mapped_column(SmallInteger)


class GroupStanding(Base):
    """One member's sums in a group, game ``kind`` and ``month`` (its first day, UTC): what
    the table shows, added to when a game is recorded (``app.groups.standings``)."""

    __tablename__ = "group_standings"

    group_id: Mapped[int] = mapped_column(ForeignKey("groups.id", ondelete="CASCADE"),
                                          primary_key=True)
    kind: Mapped[str] = mapped_column(String(16), primary_key=True)
    month: Mapped[date] = mapped_column(Date, primary_key=True)
    player_id: Mapped[str] = mapped_column(String(32), primary_key=True)
    games: Mapped[int] = mapped_column(Integer)
    wins: Mapped[int] = mapped_column(Integer)
    rank_sum: Mapped[int] = mapped_column(Integer)
    score_sum: Mapped[int] = mapped_column(BigInteger)
    best: Mapped[int] = mapped_column(Integer)
    feats: Mapped[int] = mapped_column(Integer)
    accuracy_sum: Mapped[int] = mapped_column(Integer)
    accuracy_games: Mapped[int] = mapped_column(Integer)


class GroupRecord(Base):
    """The best member result of a group in one ``month`` (its first day, UTC), game ``kind``
    and record ``what`` (``score``: points, ``feats``: ``GroupResult.feats``, ``accuracy``):
    its ``value``, who (``player_id``, ``name`` as it was) and the game (``game_id``,
    ``code``, ``number``, ``finished_at``). Replaced when a recorded game beats it (a tie
    keeps the earlier game; ``app.groups.bests``)."""

    __tablename__ = "group_records"

    group_id: Mapped[int] = mapped_column(ForeignKey("groups.id", ondelete="CASCADE"),
                                          primary_key=True)
    month: Mapped[date] = mapped_column(Date, primary_key=True)
    kind: Mapped[str] = mapped_column(String(16), primary_key=True)
    what: Mapped[str] = mapped_column(String(16), primary_key=True)
    value: Mapped[int] = mapped_column(Integer)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"))
    player_id: Mapped[str] = mapped_column(String(32))
    name: Mapped[str] = mapped_column(String(24))
    code: Mapped[str] = mapped_column(String(32))
    number: Mapped[int] = mapped_column(Integer)
    finished_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class GroupGame(Base):
    """One finished game of a group, as its game list shows it: ``kind``, when, the room
    ``code`` and game ``number`` (review link), and ``places``: ``[rank, name, score]`` per
    seat, best first (names as they were). Written once, with the game's results."""

    __tablename__ = "group_games"

    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"),
                                         primary_key=True)
    group_id: Mapped[int] = mapped_column(ForeignKey("groups.id", ondelete="CASCADE"))
    kind: Mapped[str] = mapped_column(String(16))
    finished_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    code: Mapped[str] = mapped_column(String(32))
    number: Mapped[int] = mapped_column(Integer)
    places: Mapped[list[Any]] = mapped_column()


class Rating(Base):
    """A player's openskill rating in one game ``kind`` and ``scope`` (``all``, or
    ``g<group id>`` for the games of one group): mean ``mu``, uncertainty ``sigma`` and the
    number of rated ``games`` (docs/rules.md, "Ratings")."""

    __tablename__ = "ratings"

    scope: Mapped[str] = mapped_column(String(16), primary_key=True)
    kind: Mapped[str] = mapped_column(String(16), primary_key=True)
    player_id: Mapped[str] = mapped_column(ForeignKey("players.id"), primary_key=True)
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)
    games: Mapped[int] = mapped_column(Integer)


class RatedGame(Base):
    """A finished room game already recorded (results and ratings): inserted in the same
    transaction, so a restart or a replay never records a game twice."""

    __tablename__ = "rated_games"

    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"),
                                         primary_key=True)
    rated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


Index("ix_group_members_player", GroupMember.player_id, GroupMember.status)
Index("ix_group_nights_group", GroupNight.group_id, GroupNight.started_at)
Index("ix_group_results_table", GroupResult.group_id, GroupResult.kind,
      GroupResult.finished_at, GroupResult.player_id)
Index("ix_group_results_night", GroupResult.night_id)
Index("ix_group_results_player", GroupResult.group_id, GroupResult.player_id, GroupResult.kind,
      GroupResult.finished_at)
Index("ix_group_results_recent", GroupResult.group_id, GroupResult.finished_at)
Index("ix_group_games_recent", GroupGame.group_id, GroupGame.finished_at, GroupGame.game_id)
Index("ix_games_status_finished", Game.status, Game.finished_at)
