"""Pushes of turn-based rooms (docs/architecture.md, "Push notifications"): "your turn" when a
seat's wait begins and a reminder before its deadline (``turns.reminder_at``), each decided
once per wait (``TurnNotice``), for a player who does not have the room open, within the push
limits (``store.enqueue``), in the language of each subscription.

The deadline scheduler (``app.rooms.deadlines``) hands over each room whose ``remind_at``
came; this queues what is due and stores the room's next such moment.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime

import structlog
from sqlalchemy import select, update
from sqlalchemy.ext.asyncio import AsyncSession

from app.clock import as_utc
from app.i18n import gettext, use_language
from app.push.models import TurnNotice
from app.push.store import Push, enqueue
from app.rooms.bots.identity import is_bot
from app.rooms.games import GAMES
from app.rooms.pace import deadline_hours
from app.rooms.turns import TELL_WINDOW, Turns, reminder_at
from app.store.db import Database
from app.store.models import Game, GameEvent, Room, Seat

log = structlog.get_logger("knobel.push")


def turn_push(kind: str, game: str, code: str, played_by: str | None,
              hours_left: int) -> Callable[[str], Push]:
    """The push for ``kind`` (``turn`` or ``remind``) in room ``code`` of game ``game``
    (its kind), as a function of the language: ``played_by`` names who moved last (None: no
    one else), ``hours_left`` the hours to the deadline (a reminder)."""
    def build(lang: str) -> Push:
        with use_language(lang):
            plugin = GAMES.get(game)
            label = gettext(plugin.label) if plugin is not None else game
            if kind == "remind":
                body = gettext("Your turn in %(game)s: about %(hours)s h left.") % {
                    "game": label, "hours": max(1, hours_left)}
            elif played_by:
                body = gettext("%(name)s played; your turn in %(game)s") % {
                    "name": played_by, "game": label}
            else:
                body = gettext("Your turn in %(game)s") % {"game": label}
            return Push(title=f"Knobel · {label}", body=body, url=f"/r/{code}",
                        tag=f"turn-{code}")
    return build


class TurnNotifier:
    """Queues the due pushes of the rooms the scheduler hands over, in ``db`` at
    ``clock()``; ``online(code)``: the player ids with the room open (no push for them);
    ``sent()``: told after pushes were queued (the sender's ``wake``)."""

    def __init__(self, db: Database, clock: Callable[[], datetime],
                 online: Callable[[str], frozenset[str]],
                 sent: Callable[[], None] = lambda: None) -> None:
        self.db, self.clock, self.online, self.sent = db, clock, online, sent

    async def notify(self, room_id: int, code: str) -> None:
        """Queue room ``room_id``'s due pushes and store when the next one is due (unless
        the room moved on meanwhile: its write set that)."""
        now = self.clock()
        queued = 0
        async with self.db.sessionmaker() as session, session.begin():
            room = await session.get(Room, room_id)
            if room is None:
                return
            turns = Turns.from_json(room.turns) if room.turns and \
                room.status == "playing" else Turns()
            hours = deadline_hours(room.options)
            seats = {s.id: s for s in (await session.execute(
                select(Seat).where(Seat.room_id == room_id))).scalars()}
            done = {(n.seat_id, n.since, n.kind) for n in (await session.execute(
                select(TurnNotice).where(TurnNotice.room_id == room_id))).scalars()}
            done = {(seat, as_utc(since), kind) for seat, since, kind in done}
            here = self.online(code)
            later: list[datetime] = []
            for seat_id, wait in sorted(turns.waits.items()):
                seat = seats.get(seat_id)
                if seat is None or is_bot(seat.player_id):
                    continue
                wanted = []
                if wait.since > now - TELL_WINDOW or wait.since > now:
                    wanted.append(("turn", wait.since))
                if not turns.away(seat_id):
                    wanted.append(("remind", reminder_at(wait, hours)))
                for kind, at in wanted:
                    if (seat_id, wait.since, kind) in done:
                        continue
                    if at > now:
                        later.append(at)
                        continue
                    session.add(TurnNotice(room_id=room_id, seat_id=seat_id, since=wait.since,
                                           kind=kind))
                    if seat.player_id in here:
                        continue
                    played_by = await _last_mover(session, room_id, seat_id, seats)
                    hours_left = int((wait.due - now).total_seconds() // 3600)
                    queued += await enqueue(session, seat.player_id,
                                            turn_push(kind, room.game, code, played_by,
                                                      hours_left), code, now)
            await session.execute(update(Room).where(
                Room.id == room_id, Room.version == room.version).values(
                remind_at=min(later, default=None)))
        if queued:
            log.info("turn_pushes", room=code, queued=queued)
            self.sent()


async def _last_mover(session: AsyncSession, room_id: int, seat_id: int,
                      seats: dict[int, Seat]) -> str | None:
    """The name of the seat other than ``seat_id`` that made the room's latest game event,
    or None."""
    query = (select(GameEvent.seat_id).join(Game, Game.id == GameEvent.game_id)
             .where(Game.room_id == room_id, GameEvent.seat_id.is_not(None),
                    GameEvent.seat_id != seat_id)
             .order_by(GameEvent.id.desc()).limit(1))
    found = (await session.execute(query)).scalar_one_or_none()
    seat = seats.get(found) if found is not None else None
    return seat.name if seat is not None else None


