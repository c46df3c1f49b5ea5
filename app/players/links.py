"""One-time codes that sign another device in as the same player (docs/architecture.md,
"Your name on every device"): valid ``VALID`` (10 minutes), used once, stored as their SHA-256
only; making a new code ends the player's earlier unused ones. Guessing is bounded by the
routes' rate limit: 40 bits of code against a few tries a minute per address."""

from __future__ import annotations

import hashlib
import secrets
from datetime import datetime, timedelta

from sqlalchemy import delete, select, update
from sqlalchemy.ext.asyncio import AsyncSession

from app.clock import as_utc
from app.errors import N_, KnobelError
from app.players.models import DeviceLink

VALID = timedelta(minutes=10)
ALPHABET = "23456789ABCDEFGHJKMNPQRSTVWXYZ"  # no 0/O, 1/I/L, U: read aloud or typed
LENGTH = 8  # characters: 30**8, about 2**39


class LinkRefused(KnobelError):
    """A code that signs nobody in: ``unknown`` (never made, or mistyped), ``expired`` or
    ``used`` (HTTP 410 for the last two, 404 for the first)."""

    def __init__(self, code: str) -> None:
        message = {"unknown": N_("This code is not valid. Check it, or make a new one."),
                   "expired": N_("This code has expired. Make a new one on your other device."),
                   "used": N_("This code was used already. Make a new one on your other "
                              "device.")}[code]
        super().__init__(code, message, 404 if code == "unknown" else 410)


def normalise(code: str) -> str:
    """``code`` as stored: upper case, without spaces or dashes."""
    return "".join(ch for ch in code.upper() if ch.isalnum())


def _hash(code: str) -> str:
    return hashlib.sha256(normalise(code).encode()).hexdigest()


async def create(session: AsyncSession, player_id: str, now: datetime) -> tuple[str,
                                                                                  datetime]:
    """A new code for ``player_id`` and when it expires; the player's unused codes end.
    Commits."""
    await session.execute(delete(DeviceLink).where(DeviceLink.player_id == player_id,
                                                   DeviceLink.used_at.is_(None)))
    code = "".join(secrets.choice(ALPHABET) for _ in range(LENGTH))
    expires = now + VALID
    session.add(DeviceLink(code_hash=_hash(code), player_id=player_id, created_at=now,
                           expires_at=expires))
    await session.commit()
    return code, expires


async def peek(session: AsyncSession, code: str, now: datetime) -> str:
    """The player ``code`` would sign in as; raises ``LinkRefused`` as ``redeem``."""
    link = await session.get(DeviceLink, _hash(code))
    return _check(link, now).player_id


async def redeem(session: AsyncSession, code: str, now: datetime) -> str:
    """Use ``code`` (once): the player id it signs in as. Raises ``LinkRefused`` for an
    unknown, expired or used code. Commits; of two redemptions at once only one wins."""
    link = _check(await session.get(DeviceLink, _hash(code)), now)
    result = await session.execute(
        update(DeviceLink).where(DeviceLink.code_hash == link.code_hash,
                                 DeviceLink.used_at.is_(None)).values(used_at=now))
    await session.commit()
    if not getattr(result, "rowcount", 0):
        raise LinkRefused("used")
    return link.player_id


def _check(link: DeviceLink | None, now: datetime) -> DeviceLink:
    if link is None:
        raise LinkRefused("unknown")
    if link.used_at is not None:
        raise LinkRefused("used")
    if as_utc(link.expires_at) <= now:
        raise LinkRefused("expired")
    return link


async def pending(session: AsyncSession, player_id: str, now: datetime) -> bool:
    """True when ``player_id`` has an unused, unexpired code."""
    row = await session.execute(select(DeviceLink.code_hash).where(
        DeviceLink.player_id == player_id, DeviceLink.used_at.is_(None),
        DeviceLink.expires_at > now))
    return row.first() is not None
