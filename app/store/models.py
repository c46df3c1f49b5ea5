"""Typed SQLAlchemy models. The schema itself comes only from Alembic migrations.

A game's truth is its ordered list of ``GameEvent`` rows (rolls, placements, moves); every
state is the matching engine folded over them.
"""

from __future__ import annotations

from datetime import date, datetime
from typing import Any

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    Date,
    DateTime,
    ForeignKey,
    Index,
    Integer,
    SmallInteger,
    String,
    UniqueConstraint,
    false,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column, relationship

from app.clock import utcnow


class Base(DeclarativeBase):
    """Declarative base with a JSON type for ``dict``/``list`` columns."""

    type_annotation_map = {dict[str, Any]: JSON, list[Any]: JSON}


class Player(Base):
    """A guest profile: identified by the id in the signed session cookie, no sign-up."""

    __tablename__ = "players"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    name: Mapped[str | None] = mapped_column(String(24))
    knikkers_variant: Mapped[int] = mapped_column(Integer, default=5)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class Room(Base):
    """A room friends share by its link ``/r/<code>``.

    ``version`` counts every room event (seat changes, options, game events); a reconnecting
    client compares it with its own to catch up.
    """

    __tablename__ = "rooms"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    code: Mapped[str] = mapped_column(String(32), unique=True)
    game: Mapped[str] = mapped_column(String(16))
    options: Mapped[dict[str, Any]] = mapped_column(default=dict)
    host_player_id: Mapped[str | None] = mapped_column(ForeignKey("players.id"))
    status: Mapped[str] = mapped_column(String(16), default="lobby")
    version: Mapped[int] = mapped_column(Integer, default=0)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    # turn-based rooms only (``app.rooms.turns.Turns``, stored as JSON): the seats the game
    # waits for and turns missed; the earliest deadline and reminder still to act on
    turns: Mapped[dict[str, Any] | None] = mapped_column(JSON(none_as_null=True))
    turn_due_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), index=True)
    remind_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), index=True)

    seats: Mapped[list[Seat]] = relationship(
        back_populates="room", order_by="Seat.position", lazy="raise"
    )


class Seat(Base):
    """A player's place at a room's table, in seat order (``position``)."""

    __tablename__ = "seats"
    __table_args__ = (
        UniqueConstraint("room_id", "player_id", name="uq_seats_room_player"),
        UniqueConstraint("room_id", "position", name="uq_seats_room_position"),
        # "Your games" reads a player's seats from this index alone (migration r003)
        Index("ix_seats_player_room", "player_id", "status", "room_id", "id"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    room_id: Mapped[int] = mapped_column(ForeignKey("rooms.id", ondelete="CASCADE"))
    player_id: Mapped[str] = mapped_column(ForeignKey("players.id"))
    position: Mapped[int] = mapped_column(Integer)
    name: Mapped[str] = mapped_column(String(24))
    status: Mapped[str] = mapped_column(String(16), default="active")
    ready: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    joined_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)

    room: Mapped[Room] = relationship(back_populates="seats", lazy="raise")


class Game(Base):
    """One game: in a room (``room_id``, ``number`` within the room) or single player.

    ``seat_ids`` fixes the table order when the game starts; ``options`` the rules chosen.
    """

    __tablename__ = "games"
    __table_args__ = (UniqueConstraint("room_id", "number", name="uq_games_room_number"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    room_id: Mapped[int | None] = mapped_column(ForeignKey("rooms.id", ondelete="CASCADE"))
    player_id: Mapped[str | None] = mapped_column(ForeignKey("players.id"))
    number: Mapped[int] = mapped_column(Integer, default=1)
    kind: Mapped[str] = mapped_column(String(16))
    options: Mapped[dict[str, Any]] = mapped_column(default=dict)
    seat_ids: Mapped[list[Any]] = mapped_column(default=list)
    seed: Mapped[int | None] = mapped_column(BigInteger)
    # a room game's secret dice seed (64 hex digits; docs/dice.md), revealed when it ends
    dice_seed: Mapped[str | None] = mapped_column(String(64))
    status: Mapped[str] = mapped_column(String(16), default="playing")
    result: Mapped[dict[str, Any] | None] = mapped_column(JSON)
    started_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    finished_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))


class GameEvent(Base):
    """One roll, placement or move of a game, in order (``seq`` from 1, unique per game).

    ``action_id`` is the client's id for the action that caused it, so a repeated send is
    applied once; ``seat_id`` names the acting seat (None for server events).
    """

    __tablename__ = "game_events"
    __table_args__ = (
        UniqueConstraint("game_id", "seq", name="uq_game_events_game_seq"),
        UniqueConstraint("game_id", "action_id", name="uq_game_events_game_action"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"))
    seq: Mapped[int] = mapped_column(Integer)
    type: Mapped[str] = mapped_column(String(16))
    payload: Mapped[dict[str, Any]] = mapped_column(default=dict)
    seat_id: Mapped[int | None] = mapped_column(Integer)
    action_id: Mapped[str | None] = mapped_column(String(64))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class RoomAction(Base):
    """A room-level action (start, options, remove, leave, ready, rematch) by the client's
    ``action_id``, committed at room ``version``: a repeated send, also after a restart, is
    answered as a duplicate instead of being decided again (game actions keep their ids on
    their ``GameEvent``)."""

    __tablename__ = "room_actions"
    __table_args__ = (
        UniqueConstraint("room_id", "action_id", name="uq_room_actions_room_action"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    room_id: Mapped[int] = mapped_column(ForeignKey("rooms.id", ondelete="CASCADE"))
    action_id: Mapped[str] = mapped_column(String(64))
    version: Mapped[int] = mapped_column(Integer)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class ChatMessage(Base):
    """One line of a room's chat (docs/rules.md, "Talk at the table"): written by the seat
    ``seat_id`` (its label at the time in ``name``), at most 200 characters of ``body`` as
    typed (escaped when shown); ``removed`` when the host took it away. Never part of a game's
    events, and never a room version."""

    __tablename__ = "chat_messages"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    room_id: Mapped[int] = mapped_column(ForeignKey("rooms.id", ondelete="CASCADE"))
    seat_id: Mapped[int] = mapped_column(Integer)
    player_id: Mapped[str] = mapped_column(String(32))
    name: Mapped[str] = mapped_column(String(40))
    body: Mapped[str] = mapped_column(String(200))
    removed: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


Index("ix_chat_messages_room", ChatMessage.room_id, ChatMessage.id)
Index("ix_seats_player", Seat.player_id)
Index("ix_games_room", Game.room_id)


class KnikkersScore(Base):
    """One finished, server-verified Knikkers game: the row every "all games" board reads.

    Written once when the game ends (``app.knikkers.ranking``), never by a request's fields.
    ``variant`` is the line length (5 or 4); ``daily`` the date of the daily seed, or None.
    """

    __tablename__ = "knikkers_scores"

    game_id: Mapped[int] = mapped_column(
        ForeignKey("games.id", ondelete="CASCADE"), primary_key=True
    )
    player_id: Mapped[str] = mapped_column(ForeignKey("players.id"))
    variant: Mapped[int] = mapped_column(SmallInteger)
    daily: Mapped[date | None] = mapped_column(Date)
    score: Mapped[int] = mapped_column(Integer)
    moves: Mapped[int] = mapped_column(Integer)
    lines: Mapped[int] = mapped_column(Integer)
    finished_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    duration_s: Mapped[int] = mapped_column(Integer)


class KnikkersBest(Base):
    """A player's best verified game on one board: (variant, board) such as ``all``,
    ``month:2026-11-01``, ``week:2026-11-23``, ``day:2026-11-29`` or ``daily:2026-11-29``.

    Kept up to date when a game finishes (an upsert that only raises the score), so a
    per-player leaderboard is one index range and a rank is one index-only count.
    """

    __tablename__ = "knikkers_bests"

    variant: Mapped[int] = mapped_column(SmallInteger, primary_key=True)
    board: Mapped[str] = mapped_column(String(24), primary_key=True)
    player_id: Mapped[str] = mapped_column(ForeignKey("players.id"), primary_key=True)
    score: Mapped[int] = mapped_column(Integer)
    finished_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"))
    moves: Mapped[int] = mapped_column(Integer)
    lines: Mapped[int] = mapped_column(Integer)


class KnikkersScoreCount(Base):
    """How many players have their best at ``score`` on one (variant, board) of
    ``knikkers_bests``, kept in step with it; a player's rank is 1 + the sum of ``players`` over
    the higher scores (a range over distinct scores, not over players)."""

    __tablename__ = "knikkers_score_counts"

    variant: Mapped[int] = mapped_column(SmallInteger, primary_key=True)
    board: Mapped[str] = mapped_column(String(24), primary_key=True)
    score: Mapped[int] = mapped_column(Integer, primary_key=True)
    players: Mapped[int] = mapped_column(Integer)


Index(
    "ix_knikkers_bests_board_rank",
    KnikkersBest.variant,
    KnikkersBest.board,
    KnikkersBest.score.desc(),
    KnikkersBest.finished_at,
    KnikkersBest.player_id,
)
Index("ix_knikkers_bests_game", KnikkersBest.game_id)
Index(
    "ix_knikkers_score_counts_sum",
    KnikkersScoreCount.variant,
    KnikkersScoreCount.board,
    KnikkersScoreCount.score,
    KnikkersScoreCount.players,
)
Index(
    "ix_knikkers_scores_rank",
    KnikkersScore.variant,
    KnikkersScore.score.desc(),
    KnikkersScore.finished_at,
    KnikkersScore.game_id,
)
Index(
    "ix_knikkers_scores_daily",
    KnikkersScore.variant,
    KnikkersScore.daily,
    KnikkersScore.score.desc(),
    KnikkersScore.finished_at,
    KnikkersScore.game_id,
)
Index("ix_knikkers_scores_finished", KnikkersScore.variant, KnikkersScore.finished_at)
Index(
    "ix_knikkers_scores_player",
    KnikkersScore.player_id,
    KnikkersScore.variant,
    KnikkersScore.finished_at,
)
Index("ix_games_player_kind_status", Game.player_id, Game.kind, Game.status)


class DailyAttempt(Base):
    """One attempt at a daily challenge (``app/daily``; docs/rules.md, "Daily challenges"):
    ``player_id`` played ``kind``'s challenge of ``day`` (``YYYY-MM-DD``, UTC) for the
    ``attempt``-th time (1: ranked) in solo room ``room_id`` (its game 1 has the result)."""

    __tablename__ = "daily_attempts"
    __table_args__ = (
        UniqueConstraint("player_id", "kind", "day", "attempt", name="uq_daily_attempts"),
        Index("ix_daily_attempts_day", "kind", "day", "attempt"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    player_id: Mapped[str] = mapped_column(ForeignKey("players.id"))
    kind: Mapped[str] = mapped_column(String(16))
    day: Mapped[str] = mapped_column(String(10))
    attempt: Mapped[int] = mapped_column(Integer)
    room_id: Mapped[int] = mapped_column(ForeignKey("rooms.id", ondelete="CASCADE"))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
