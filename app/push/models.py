"""The push tables (the schema comes only from the migration ``p001_push``).

``PushSubscription``: one browser's subscription (``PushSubscription.toJSON()``) of a player.
``PushDelivery``: one push queued for one subscription; the sender takes due rows, posts them
and marks them sent, or retries them later (``due_at``, ``attempts``). Rows of one push
share ``batch`` (the limits count pushes, not subscriptions).
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import JSON, DateTime, ForeignKey, Index, Integer, String
from sqlalchemy.orm import Mapped, mapped_column

from app.clock import utcnow
from app.store.models import Base


class PushSubscription(Base):
    """A browser's push subscription for ``player_id``: its ``endpoint`` (unique) and keys
    (``p256dh``, ``auth``, base64url); ``lang``: the language its pushes are written in."""

    __tablename__ = "push_subscriptions"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    player_id: Mapped[str] = mapped_column(ForeignKey("players.id", ondelete="CASCADE"),
                                           index=True)
    endpoint: Mapped[str] = mapped_column(String(1000), unique=True)
    p256dh: Mapped[str] = mapped_column(String(100))
    auth: Mapped[str] = mapped_column(String(40))
    lang: Mapped[str] = mapped_column(String(5), default="en")
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class PushDelivery(Base):
    """One push for one subscription: ``payload`` (JSON: ``title``, ``body``, ``url``,
    ``tag``), when it may be sent (``due_at``), ``attempts`` so far, ``sent_at`` once the
    push service took it; ``batch`` groups the rows of one push; ``room_code`` the room it
    is about (the per-room limit)."""

    __tablename__ = "push_deliveries"
    __table_args__ = (
        Index("ix_push_deliveries_due", "sent_at", "due_at"),
        Index("ix_push_deliveries_player", "player_id", "created_at"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    subscription_id: Mapped[int] = mapped_column(
        ForeignKey("push_subscriptions.id", ondelete="CASCADE"), index=True)
    player_id: Mapped[str] = mapped_column(String(32))
    batch: Mapped[str] = mapped_column(String(32))
    room_code: Mapped[str | None] = mapped_column(String(16))
    payload: Mapped[dict] = mapped_column(JSON)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    due_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    attempts: Mapped[int] = mapped_column(Integer, default=0)
    sent_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    gave_up: Mapped[bool] = mapped_column(default=False)


class TurnNotice(Base):
    """A push decided for one seat's wait in a turn-based room (``kind``: ``turn`` when the
    wait began at ``since``, ``remind`` before its deadline): each is decided once
    (``app.push.turns``; migration ``r002``)."""

    __tablename__ = "turn_notices"

    room_id: Mapped[int] = mapped_column(ForeignKey("rooms.id", ondelete="CASCADE"),
                                         primary_key=True)
    seat_id: Mapped[int] = mapped_column(Integer, primary_key=True)
    since: Mapped[datetime] = mapped_column(DateTime(timezone=True), primary_key=True)
    kind: Mapped[str] = mapped_column(String(8), primary_key=True)
