"""The bot runner: moves the bots of running room games through the room service, as people's
moves arrive (same events, same validation, same log), at a human pace (docs/rules.md, "Bots";
docs/architecture.md, "Bots").

One driver task per room with something for a bot to do. It reads the room as the database
has it (``RoomService.current``), asks each bot-played seat for its next move (``moves``),
gives each new move a due moment ``delay`` (0.5-1.5 s by default; a hold or release of one
die, part of a keep already decided, ``HOLD_SHARE`` of that) after it first saw it, and
sends the earliest due one through ``RoomService.act`` with its fixed action id. Before every
move it holds the room's lease (``lease``), so with several processes only one moves a room's
bots. It wakes when the room changes here (``watch``, called after every re-arm of the room's
timer) and at least every ``poll`` seconds (changes made by another process). It ends when no
seat is played by a bot (game over, back in the lobby, the away person came back).
"""

from __future__ import annotations

import asyncio
import contextlib
import random
from typing import TYPE_CHECKING, Any

import structlog
from sqlalchemy import select

from app.rooms.bots.control import controllers
from app.rooms.bots.identity import PREFIX
from app.rooms.bots.lease import Lease
from app.rooms.bots.moves import Strategies, next_move
from app.rooms.errors import RoomError
from app.rooms.games.base import ActionError
from app.rooms.state import RoomState
from app.store.models import Room, Seat

if TYPE_CHECKING:
    from app.rooms.service import RoomService

log = structlog.get_logger("knobel.bots")


HOLD_SHARE = 0.25
"""A hold or release waits this share of a move's delay: the keep was decided with the roll
it follows, and a bot that held three dice at 0.5-1.5 s each made the others wait (a fresh
user's finding: "the bots are slow")."""


def pause(message: dict[str, Any], rng: random.Random, delay: tuple[float, float]) -> float:
    """Seconds a bot waits before sending ``message`` (a room action, ``{"type": ...}``):
    drawn from ``delay`` (min, max seconds); a ``hold`` waits ``HOLD_SHARE`` of the draw."""
    seconds = rng.uniform(*delay)
    return seconds * HOLD_SHARE if message["type"] == "hold" else seconds


class BotRunner:
    """Moves bots in the rooms of ``rooms`` (the room service).

    ``strategies(ruleset, options)``: the Kniffel strategy or None (``StrategyTables``);
    ``lease``: room ownership between processes; ``delay``: (min, max) seconds before a bot's
    move; ``poll``: seconds between checks for changes made elsewhere.
    """

    def __init__(self, rooms: RoomService, strategies: Strategies, lease: Lease,
                 delay: tuple[float, float] = (0.5, 1.5), poll: float = 1.0) -> None:
        self.rooms = rooms
        self.strategies = strategies
        self.lease = lease
        self.delay = delay
        self.poll = poll
        self._rng = random.Random()
        self._tasks: dict[str, asyncio.Task[None]] = {}
        self._wake: dict[str, asyncio.Event] = {}
        self._closed = False
        self._scan: asyncio.Task[None] | None = None

    def start(self) -> None:
        """Start the ``scan`` of running bot rooms in the background (app start-up)."""
        self._scan = asyncio.get_running_loop().create_task(self.scan())

    def watch(self, state: RoomState) -> None:
        """The room ``state`` changed or was re-armed here: wake its driver, or start one when
        a bot has a seat to play in its running game."""
        code = state.code
        if code in self._wake:
            self._wake[code].set()
        if self._closed or code in self._tasks or not controllers(state):
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            return
        wake = self._wake[code] = asyncio.Event()
        self._tasks[code] = loop.create_task(self._drive(code, wake))

    @staticmethod
    async def _sleep(wake: asyncio.Event, seconds: float) -> None:
        """Wait ``seconds`` or until the room changes here (``wake`` is set)."""
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(wake.wait(), max(0.0, seconds))
        wake.clear()

    async def _drive(self, code: str, wake: asyncio.Event) -> None:
        """Move the room's bots until no seat is played by a bot."""
        dues: dict[tuple[Any, ...], float] = {}
        loop = asyncio.get_running_loop()
        try:
            while not self._closed:
                state = await self.rooms.current(code)
                seats = controllers(state) if state is not None else {}
                if state is None or not seats:
                    return
                if not await self.lease.hold(code):
                    dues.clear()
                    await self._sleep(wake, self.poll)
                    continue
                moves = {}
                for seat, who in seats.items():
                    move = next_move(state, seat, who.level, self.strategies)
                    if move is not None:
                        key = (seat, who.takeover, repr(sorted(move[1].items())))
                        moves[key] = (who, move)
                now = loop.time()
                dues = {key: dues.get(key, now + pause(moves[key][1][1], self._rng,
                                                       self.delay))
                        for key in moves}
                if not moves:
                    await self._sleep(wake, self.poll)
                    continue
                key = min(dues, key=dues.__getitem__)
                if dues[key] > now:
                    await self._sleep(wake, min(dues[key] - now, self.poll))
                    continue
                who, (action_id, message) = moves.pop(key)
                dues.pop(key)
                if not await self._send(code, who.player_id, action_id, message,
                                        who.takeover):
                    await self._sleep(wake, self.poll / 4)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("bot_driver_failed", room=code)
        finally:
            if self._wake.get(code) is wake:  # not a newer driver's
                self._tasks.pop(code, None)
                self._wake.pop(code, None)
                if not self._closed:
                    await self.lease.release(code)

    async def _send(self, code: str, player_id: str, action_id: str, message: dict[str, Any],
                    takeover: bool) -> bool:
        """One bot move through the room service; False when refused (the table moved on
        meanwhile, or another process sent it first: logged, the next state decides again)."""
        try:
            outcome = await self.rooms.act(code, player_id, {**message, "action_id": action_id},
                                           takeover=takeover)
        except (ActionError, RoomError) as exc:
            log.info("bot_move_refused", room=code, action=action_id, code=exc.code)
            return False
        log.info("bot_move", room=code, action=action_id, type=message["type"],
                 takeover=takeover, duplicate=outcome.duplicate)
        return True

    async def scan(self) -> None:
        """Load every running room with a bot seat (after a start or restart), so its bots
        move again from where the event log ends."""
        query = (select(Room.code).join(Seat, Seat.room_id == Room.id)
                 .where(Room.status == "playing", Seat.status == "active",
                        Seat.player_id.like(f"{PREFIX}%")).distinct())
        try:
            async with self.rooms.db.sessionmaker() as session:
                codes = list((await session.execute(query)).scalars())
            for code in codes:
                if self._closed:
                    return
                state = await self.rooms.snapshot(code)
                if state is not None:
                    self.watch(state)
        except Exception:  # the database is away: rooms come back when they are next opened
            log.exception("bots_scan_failed")
            return
        log.info("bots_scanned", rooms=len(codes))

    async def close(self, grace: float = 5.0) -> None:
        """Stop every driver and give up their leases. A driver (and the start-up scan)
        stops after the step it is in (a move being sent, a room being read), woken if it
        waits; only one still busy after ``grace`` seconds is cancelled (a task cancelled
        inside its database work left the driver's clean-up running while the app closed
        its pool)."""
        self._closed = True
        for wake in list(self._wake.values()):
            wake.set()
        codes = list(self._tasks)
        running = [t for t in (self._scan, *self._tasks.values()) if t is not None]
        if running:
            _, late = await asyncio.wait(running, timeout=grace)
            for task in late:
                task.cancel()
            for task in running:
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await task
        for code in codes:
            await self.lease.release(code)
        await self.lease.close()
