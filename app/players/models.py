"""The tables of a player's devices and passkeys (the schema comes only from the migration
``d001_devices``).

``Device``: one browser signed in as a player (its id is in that browser's signed session
cookie); revoked devices are signed out on their next request. ``DeviceLink``: a one-time code
that signs another device in as the player who made it (kept as its SHA-256 only).
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import DateTime, Index, Integer, LargeBinary, String
from sqlalchemy.orm import Mapped, mapped_column

from app.clock import utcnow
from app.store.models import Base


class Device(Base):
    """A browser signed in as ``player_id``: ``id`` (32 hex, in its session cookie),
    ``label`` (its browser and system, from the User-Agent), when it was first and last seen,
    and ``revoked_at`` once signed out from another device."""

    __tablename__ = "devices"
    __table_args__ = (Index("ix_devices_player", "player_id", "last_seen_at"),
                      Index("ix_devices_revoked", "revoked_at"))

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    player_id: Mapped[str] = mapped_column(String(32))
    label: Mapped[str] = mapped_column(String(60))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    last_seen_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    revoked_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))


class DeviceLink(Base):
    """A one-time code (``code_hash``: its SHA-256, hex) signing another device in as
    ``player_id`` until ``expires_at``; ``used_at`` once redeemed."""

    __tablename__ = "device_links"
    __table_args__ = (Index("ix_device_links_player", "player_id"),)

    code_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    player_id: Mapped[str] = mapped_column(String(32))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    expires_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    used_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))


class Passkey(Base):
    """A passkey (WebAuthn credential) that signs a browser in as ``player_id``: ``id``, the
    credential id (base64url), its COSE ``public_key``, the authenticator's ``sign_count``,
    a ``label`` (the browser that made it), when it was made and last used."""

    __tablename__ = "passkeys"
    __table_args__ = (Index("ix_passkeys_player", "player_id"),)

    id: Mapped[str] = mapped_column(String(400), primary_key=True)
    player_id: Mapped[str] = mapped_column(String(32))
    public_key: Mapped[bytes] = mapped_column(LargeBinary)
    sign_count: Mapped[int] = mapped_column(Integer, default=0)
    label: Mapped[str] = mapped_column(String(60))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    last_used_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
