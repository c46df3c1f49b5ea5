"""Subscriptions and the push queue in the database (docs/architecture.md, "Push
notifications"): store or remove a browser's subscription for a player, and queue a push
within the limits (at most one per room per hour, ``DAILY_LIMIT`` a day per player)."""

from __future__ import annotations

import uuid
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import delete, func, select
from sqlalchemy.ext.asyncio import AsyncSession

from app.clock import utcnow
from app.push.models import PushDelivery, PushSubscription

ROOM_GAP = timedelta(hours=1)  # at most one push per room and player in this time
DAILY_LIMIT = 10  # pushes per player in 24 hours
MAX_SUBSCRIPTIONS = 10  # per player: the oldest beyond it is dropped


class TakenSubscription(LookupError):
    """The endpoint is another player's subscription (answered as 409)."""


@dataclass(frozen=True)
class Push:
    """What a push says: ``title``, ``body`` (in the player's language), the ``url`` it
    opens (a path of this site), and its ``tag`` (a newer push with the same tag replaces an
    older one on the device)."""

    title: str
    body: str
    url: str
    tag: str

    def payload(self) -> dict[str, str]:
        """The JSON the service worker reads."""
        return {"title": self.title, "body": self.body, "url": self.url, "tag": self.tag}


async def subscribe(session: AsyncSession, player_id: str, endpoint: str, p256dh: str,
                    auth: str, lang: str) -> PushSubscription:
    """Store the (checked) subscription for ``player_id``, or renew its keys and language when
    the player has it already; keeps the newest ``MAX_SUBSCRIPTIONS``. Raises
    ``TakenSubscription`` when ``endpoint`` belongs to another player. Commits."""
    found = (await session.execute(select(PushSubscription).where(
        PushSubscription.endpoint == endpoint))).scalar_one_or_none()
    if found is not None and found.player_id != player_id:
        raise TakenSubscription(endpoint)
    if found is None:
        found = PushSubscription(player_id=player_id, endpoint=endpoint, p256dh=p256dh,
                                 auth=auth, lang=lang, created_at=utcnow())
        session.add(found)
    else:
        found.p256dh, found.auth, found.lang = p256dh, auth, lang
    await session.flush()
    kept = (await session.execute(
        select(PushSubscription.id).where(PushSubscription.player_id == player_id)
        .order_by(PushSubscription.id.desc()).offset(MAX_SUBSCRIPTIONS))).scalars().all()
    if kept:
        await session.execute(delete(PushSubscription).where(PushSubscription.id.in_(kept)))
    await session.commit()
    return found


async def unsubscribe(session: AsyncSession, player_id: str, endpoint: str) -> bool:
    """Remove ``player_id``'s subscription with ``endpoint``; False when they have none such
    (another player's is left alone). Commits."""
    result = await session.execute(delete(PushSubscription).where(
        PushSubscription.endpoint == endpoint, PushSubscription.player_id == player_id))
    await session.commit()
    return bool(getattr(result, "rowcount", 0))


async def enqueue(session: AsyncSession, player_id: str, push: Push | Callable[[str], Push],
                  room_code: str | None, now: datetime | None = None,
                  due: datetime | None = None) -> int:
    """Queue ``push`` for every subscription of ``player_id`` (sent from ``due``, default
    now), unless the limits say no: a push about ``room_code`` in the last hour, or
    ``DAILY_LIMIT`` pushes in the last 24 hours. ``push``: the push, or a function giving it
    in a language (``"nl"``, ``"de"``, ``"en"``: each subscription's). Returns the rows
    queued (0: none, no subscription or limited). Does not commit: the caller's transaction
    holds it (queued with the move that caused it, or not at all)."""
    now = now or utcnow()
    rows = (await session.execute(select(PushSubscription.id, PushSubscription.lang).where(
        PushSubscription.player_id == player_id))).all()
    subscriptions = [row.id for row in rows]
    langs = {row.id: row.lang for row in rows}
    if not subscriptions:
        return 0
    recent = select(func.count(func.distinct(PushDelivery.batch))).where(
        PushDelivery.player_id == player_id, PushDelivery.created_at > now - timedelta(days=1))
    if (await session.execute(recent)).scalar_one() >= DAILY_LIMIT:
        return 0
    if room_code is not None:
        same_room = select(func.count()).select_from(PushDelivery).where(
            PushDelivery.player_id == player_id, PushDelivery.room_code == room_code,
            PushDelivery.created_at > now - ROOM_GAP)
        if (await session.execute(same_room)).scalar_one():
            return 0
    batch = uuid.uuid4().hex
    session.add_all(PushDelivery(subscription_id=sid, player_id=player_id, batch=batch,
                                 room_code=room_code,
                                 payload=(push(langs[sid]) if callable(push) else push).payload(),
                                 created_at=now,
                                 due_at=due or now, attempts=0, gave_up=False)
                    for sid in subscriptions)
    return len(subscriptions)
