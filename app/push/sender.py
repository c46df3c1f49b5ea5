"""The push sender (docs/architecture.md, "Push notifications"): takes due rows of the push
queue and posts them to the browsers' push services with ``pywebpush`` (payload encrypted per
RFC 8291, ``aes128gcm``; VAPID per RFC 8292), outside the request that queued them.

- 2xx: sent (``sent_at``); 404 or 410: the subscription is gone and is deleted (with its
  queued rows); 429, 5xx or no answer: tried again later (``Retry-After`` when given, else
  30 s doubling up to an hour), at most ``MAX_ATTEMPTS`` times; any other answer: given up.
- The queue is in the database, so a restart loses nothing; on Postgres the due rows are
  taken ``FOR UPDATE SKIP LOCKED`` and held until marked, so two processes never send the same
  row (on SQLite there is one process).
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from datetime import datetime, timedelta
from typing import Any

import structlog
from py_vapid import Vapid
from pywebpush import WebPushException, webpush
from sqlalchemy import delete, select

from app.clock import utcnow
from app.push.models import PushDelivery, PushSubscription
from app.store.db import Database
from app.store.periodic import Periodic

log = structlog.get_logger("knobel.push")
MAX_ATTEMPTS = 8
FIRST_RETRY = timedelta(seconds=30)
LAST_RETRY = timedelta(hours=1)
TTL = 24 * 3600  # seconds a push service keeps an undelivered push
ROUND = 50  # rows taken per round


def retry_after(attempts: int, header: str | None) -> timedelta:
    """When to try again after ``attempts`` failed tries: the service's ``Retry-After``
    (seconds, at most an hour) when given, else 30 s doubling, capped at an hour."""
    if header and header.strip().isdigit():
        return min(timedelta(seconds=int(header.strip())), LAST_RETRY)
    return min(FIRST_RETRY * (2 ** max(0, attempts - 1)), LAST_RETRY)


class PushSender:
    """Sends the push queue of ``db`` signed with ``vapid`` (claims ``sub``: ``subject``,
    a ``mailto:`` or https URL); ``clock`` gives now (UTC). ``run()`` sends due rows every
    ``interval`` seconds and at once after ``wake()``."""

    def __init__(self, db: Database, vapid: Vapid, subject: str,
                 clock: Callable[[], datetime] = utcnow, interval: float = 5.0) -> None:
        self.db = db
        self.vapid = vapid
        self.subject = subject
        self.clock = clock
        self.interval = interval
        self._rounds = Periodic(self._send_all, interval, "push")

    def wake(self) -> None:
        """Send due rows now (after a push was queued)."""
        self._rounds.wake()

    async def _send_all(self) -> None:
        while await self.send_due():
            pass

    def start(self) -> None:
        """Send due rows in the background until ``stop`` (``Periodic``: a failing round is
        logged and the next one tried)."""
        self._rounds.start()

    async def stop(self) -> None:
        """Stop after the current round."""
        await self._rounds.stop()

    async def send_due(self) -> int:
        """One round: post up to ``ROUND`` due rows; returns how many were handled (sent,
        rescheduled, given up or dropped with their subscription)."""
        now = self.clock()
        async with self.db.sessionmaker() as session, session.begin():
            query = (select(PushDelivery, PushSubscription)
                     .join(PushSubscription,
                           PushSubscription.id == PushDelivery.subscription_id)
                     .where(PushDelivery.sent_at.is_(None), PushDelivery.gave_up.is_(False),
                            PushDelivery.due_at <= now)
                     .order_by(PushDelivery.due_at, PushDelivery.id).limit(ROUND))
            if not self.db.url.startswith("sqlite"):
                query = query.with_for_update(skip_locked=True, of=PushDelivery)
            rows = (await session.execute(query)).all()
            gone: set[int] = set()
            for delivery, subscription in rows:
                if subscription.id in gone:
                    continue
                status, header = await asyncio.to_thread(self._post, subscription,
                                                         delivery.payload)
                delivery.attempts += 1
                if 200 <= status < 300:
                    delivery.sent_at = self.clock()
                elif status in (404, 410):
                    gone.add(subscription.id)
                    log.info("push subscription gone", status=status,
                             player=subscription.player_id)
                elif status == 429 or status >= 500 or status == 0:
                    if delivery.attempts >= MAX_ATTEMPTS:
                        delivery.gave_up = True
                    else:
                        delivery.due_at = self.clock() + retry_after(delivery.attempts, header)
                else:
                    delivery.gave_up = True
                    log.warning("push refused", status=status, player=subscription.player_id)
            if gone:
                await session.execute(delete(PushDelivery).where(
                    PushDelivery.subscription_id.in_(gone)))
                await session.execute(delete(PushSubscription).where(
                    PushSubscription.id.in_(gone)))
            return len(rows)

    def _post(self, subscription: PushSubscription, payload: dict[str, Any]) -> tuple[
            int, str | None]:
        """POST one encrypted push (in a worker thread): ``(status, Retry-After)``; status 0
        when the service did not answer."""
        info = {"endpoint": subscription.endpoint,
                "keys": {"p256dh": subscription.p256dh, "auth": subscription.auth}}
        try:
            response = webpush(info, data=json.dumps(payload), vapid_private_key=self.vapid,
                               vapid_claims={"sub": self.subject}, ttl=TTL, timeout=10,
                               headers={"Urgency": "normal"})
        except WebPushException as error:
            if error.response is None:
                return 0, None
            return int(error.response.status_code), error.response.headers.get("Retry-After")
        except OSError:
            return 0, None
        return int(getattr(response, "status_code", 201)), None
