"""A player's devices (docs/architecture.md, "Your name on every device"): every browser's
signed session carries a device id beside the player id; a device is listed once it is
registered (it opened "Your devices", redeemed a link or signed in with a passkey) and can be
revoked from another device of the player, which signs it out on its next request."""

from __future__ import annotations

import asyncio
import re
import secrets
from collections.abc import Callable
from datetime import datetime, timedelta

from sqlalchemy import select, update
from sqlalchemy.ext.asyncio import AsyncSession

from app.players.models import Device
from app.store.db import Database
from app.store.upsert import insert_for

SESSION_DEVICE_KEY = "dev"
SEEN_EVERY = timedelta(hours=1)  # how often a device's last_seen_at is written
_BROWSERS = (("Edg/", "Edge"), ("Firefox/", "Firefox"), ("SamsungBrowser/", "Samsung Internet"),
             ("Chrome/", "Chrome"), ("Chromium/", "Chromium"), ("Safari/", "Safari"))
_SYSTEMS = (("Android", "Android"), ("iPhone", "iPhone"), ("iPad", "iPad"),
            ("Windows", "Windows"), ("Mac OS X", "macOS"), ("CrOS", "ChromeOS"),
            ("Linux", "Linux"))


def new_device_id() -> str:
    """A fresh device id: 32 random hex characters."""
    return secrets.token_hex(16)


def is_device_id(value: object) -> bool:
    """True for a well-formed device id (32 lowercase hex characters)."""
    return isinstance(value, str) and re.fullmatch(r"[0-9a-f]{32}", value) is not None


def device_label(user_agent: str) -> str:
    """A short name of a browser from its User-Agent: "Chrome on Android", "Firefox on
    Windows"; "Browser" when unknown. At most 60 characters."""
    browser = next((name for mark, name in _BROWSERS if mark in user_agent), "Browser")
    system = next((name for mark, name in _SYSTEMS if mark in user_agent), None)
    return (f"{browser} on {system}" if system else browser)[:60]


async def register(session: AsyncSession, device_id: str, player_id: str, label: str,
                   now: datetime) -> None:
    """Record ``device_id`` as signed in as ``player_id`` (a device that changed player, by
    a link or a passkey, is moved over and un-revoked); commits."""
    stmt = insert_for(session, Device).values(id=device_id, player_id=player_id, label=label,
                                              created_at=now, last_seen_at=now)
    await session.execute(stmt.on_conflict_do_update(
        index_elements=["id"],
        set_={"player_id": player_id, "label": label, "last_seen_at": now,
              "revoked_at": None}))
    await session.commit()


async def listed(session: AsyncSession, player_id: str) -> list[Device]:
    """The player's devices not revoked, last seen first."""
    rows = await session.execute(
        select(Device).where(Device.player_id == player_id, Device.revoked_at.is_(None))
        .order_by(Device.last_seen_at.desc()))
    return list(rows.scalars())


async def revoke(session: AsyncSession, player_id: str, device_id: str,
                 now: datetime) -> bool:
    """Sign ``device_id`` out if it is one of ``player_id``'s; False when it is not (or
    revoked already). Commits."""
    result = await session.execute(
        update(Device).where(Device.id == device_id, Device.player_id == player_id,
                             Device.revoked_at.is_(None)).values(revoked_at=now))
    await session.commit()
    return bool(getattr(result, "rowcount", 0))


class RevokedDevices:
    """The revoked device ids this process knows, read from the database at most every
    ``refresh`` seconds (only rows revoked since the last read), so a request costs no query:
    a device revoked in another process is signed out within ``refresh`` seconds, in this
    one at once (``add``)."""

    def __init__(self, db: Database, clock: Callable[[], datetime],
                 refresh: float = 5.0) -> None:
        self.db = db
        self.clock = clock
        self.refresh = timedelta(seconds=refresh)
        self._ids: set[str] = set()
        self._since: datetime | None = None
        self._read_at: datetime | None = None
        self._lock = asyncio.Lock()

    def add(self, device_id: str) -> None:
        """Know ``device_id`` as revoked now (this process revoked it)."""
        self._ids.add(device_id)

    async def is_revoked(self, device_id: str) -> bool:
        """True when ``device_id`` was revoked (reading new revocations when due)."""
        now = self.clock()
        if self._read_at is None or now - self._read_at >= self.refresh:
            async with self._lock:
                if self._read_at is None or now - self._read_at >= self.refresh:
                    await self._read(now)
        return device_id in self._ids

    async def _read(self, now: datetime) -> None:
        query = select(Device.id, Device.revoked_at).where(Device.revoked_at.is_not(None))
        if self._since is not None:
            query = query.where(Device.revoked_at >= self._since - self.refresh)
        async with self.db.sessionmaker() as session:
            rows = (await session.execute(query)).all()
        self._ids.update(row.id for row in rows)
        self._since, self._read_at = now, now
