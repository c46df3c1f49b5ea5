"""The room service: every change to a room goes through here, one at a time per room.

Path of one action (docs/architecture.md): socket handler -> ``RoomService.act`` (per-room
lock; a repeated action id is a duplicate; the action's basis is checked) -> room action
(``room_actions``) or game action (``game_actions``: the plug-in's ``decide``, pure rules) ->
the repository appends events and bumps the room version in one transaction (the version check
serialises writers across processes) -> ``publish(code, version)`` -> the hub renders fragments
per recipient. Timers (``timers``) come back through ``fire_timer``; the rooms held in memory,
their locks and their release are ``memory``'s.
"""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any, Protocol

import structlog

from app.clock import utcnow
from app.rooms.codes import new_code
from app.rooms.dice import DiceSource
from app.rooms.errors import Conflict, RoomError
from app.rooms.game_actions import GameActions
from app.rooms.games import GAMES, get_game
from app.rooms.games.base import ActionError
from app.rooms.pace import parse_pace
from app.rooms.pass_and_play import acting_seat
from app.rooms.repository import RoomRepository
from app.rooms.room_actions import ROOM_ACTIONS, RoomActions
from app.rooms.rules import HOST_GRACE, check_action
from app.rooms.state import RoomState
from app.rooms.timers import Bots, RoomTimers
from app.rooms.turn_rooms import TurnRooms
from app.store.db import Database

log = structlog.get_logger("knobel.rooms")

Publish = Callable[[str, int, str | None], Awaitable[None]]
"""``publish(code, version, delta)``: announce a committed room version; ``delta`` is the
encoded ``app.rooms.delta.Delta`` of a game action (None for any other change)."""
SLOW_ACTION = 0.05
"""Seconds: an action that took longer (its lock, database write and announcement) is logged
at warning; every other action's line is at debug."""

MAX_ACTION_ID = 64


class RoomBots(Bots, Protocol):
    """Bots playing in a room service's rooms (``app.rooms.bots.BotsInRooms``): what they add
    to the timers (``Bots``), started and closed by the app with the service."""

    def start(self) -> None:
        """Start moving the bots of running rooms (app start-up)."""
        ...

    async def close(self) -> None:
        """Stop moving bots (shutdown, before the service's timers are cancelled)."""
        ...


class PresenceView(Protocol):
    """Who is online in a room (``app.live.presence.Presence`` in the app)."""

    def online(self, code: str) -> frozenset[str]:
        """Player ids with an open socket in room ``code``."""

    def away_since(self, code: str) -> dict[str, datetime]:
        """When each away player of room ``code`` went (UTC)."""


@dataclass
class Outcome:
    """What an accepted action did: the room ``version`` after it, and whether it was a
    repeat of an action already applied (``duplicate``)."""

    version: int
    duplicate: bool = False


class RoomService(TurnRooms):
    """Creates rooms, seats players, and applies actions and timers to rooms, one at a time
    per room (the rooms it holds and their locks: ``RoomMemory``).

    ``db``: the database; ``publish(code, version, delta)``: announces a committed version
    (``Publish``);
    ``dice``: the server's dice; ``presence``: who is online (or, for tests, ``online(code)``:
    player ids with an open socket there, ``away_since(code)``: when each away player went);
    ``clock``: now (UTC);
    ``host_grace``: how long a host may be away outside a game before the role passes on;
    ``finished(game_id)``: told of each game whose finish was committed (architecture, "Groups");
    ``loaded(code)``: told whenever a room comes into memory (``RoomMemory``); ``bots(self)``:
    builds the bots that play in its rooms, once, here (``app.rooms.bots.install``; kept as
    ``bots``, for the app to start and close).
    """

    def __init__(self, db: Database, publish: Publish, dice: DiceSource,
                 online: Callable[[str], frozenset[str]] = lambda code: frozenset(),
                 away_since: Callable[[str], dict[str, datetime]] = lambda code: {},
                 clock: Callable[[], datetime] = utcnow,
                 host_grace: timedelta = HOST_GRACE,
                 presence: PresenceView | None = None,
                 finished: Callable[[int], None] = lambda game_id: None,
                 loaded: Callable[[str], None] = lambda code: None,
                 bots: Callable[[RoomService], RoomBots] | None = None) -> None:
        self.db, self.publish, self.dice, self.clock = db, publish, dice, clock
        self.online, self.away_since = online, away_since
        if presence is not None:
            self.online, self.away_since = presence.online, presence.away_since
        repo = RoomRepository(db, clock, finished)
        self.bots = bots(self) if bots is not None else None
        super().__init__(repo, RoomTimers(clock, host_grace,
                                          lambda: (self.online, self.away_since),
                                          self.fire_timer, self.bots), loaded)
        self.actions = RoomActions(repo, self._reload, lambda c: self.online(c), clock,
                                   dice.seed_for)
        self.game = GameActions(repo, self.timers, dice, clock, self._drop, self.committed)

    # ----- creating and joining ------------------------------------------------------------

    async def create_room(self, player_id: str, name: str, kind: str,
                          options: dict[str, Any] | None = None, solo: bool = False,
                          guide: bool = False, daily: str | None = None) -> str:
        """Create a room of game ``kind`` hosted by ``player_id`` (seated as ``name``); returns
        its code. ``options``: lobby form fields to start from (checked by the plug-in's
        ``parse_options``; defaults when None); ``solo``: a room for its host alone (nobody
        else may take a seat; docs/rules.md, "Solo practice"); ``guide``: its first rolls or turns
        are explained (docs/rules.md, "Guided first round"); ``daily``: the day (YYYY-MM-DD)
        of the daily challenge a solo room plays (docs/dice.md). Raises ``RoomError`` (400) for
        an unknown game, ``OptionError`` (``bad_option``, 400) for an unknown option."""
        if kind not in GAMES:
            raise RoomError("unknown_game", "Unknown game.", 400)
        plugin = get_game(kind)
        chosen = plugin.parse_options(options) if options else plugin.default_options()
        if not solo and not guide:
            chosen.update(parse_pace(options or {}, chosen, plugin.turn_based))
        chosen.update({flag: True for flag, on in (("solo", solo), ("guide", guide)) if on})
        chosen.update({"daily": daily} if daily else {})
        code = new_code()
        await self.repo.create(code, kind, chosen, player_id, name)
        log.info("room_created", room=code, player=player_id, game=kind, solo=solo)
        return code

    async def start_now(self, code: str, player_id: str) -> Outcome:
        """The host ``player_id`` starts the first game of the new room ``code`` at once (as
        the "Start" button would). Raises as ``act``."""
        state = await self.current(code)
        if state is None:
            raise RoomError("unknown_room", "This room does not exist.", 404)
        return await self.act(code, player_id, {"type": "start", "version": state.version})

    async def join(self, code: str, player_id: str, name: str) -> int:
        """Seat ``player_id`` as ``name`` in room ``code``; returns the new room version (the
        current one when already seated: one seat per player, however many tabs). Raises
        ``RoomError``: unknown room (404), game running or room full (409), busy (503)."""
        async with self.lock(code):
            for _ in range(3):
                try:
                    version = await self.actions.join(await self._fresh(code), player_id, name)
                except Conflict:
                    continue
                break
            else:
                raise RoomError("busy", "The room is busy, please try again.", 503)
        log.info("seat_taken", room=code, player=player_id)
        await self.publish(code, version, self.delta_of(code, version))
        return version

    # ----- actions ---------------------------------------------------------------------------

    async def act(self, code: str, player_id: str, message: dict[str, Any],
                  takeover: bool = False) -> Outcome:
        """Apply one client ``message`` (``{"type": ..., "action_id": ..., ...}``) for
        ``player_id`` in room ``code``; the seat comes from the player, never the message.
        ``takeover``: a bot moves for the away ``player_id`` (its events are marked; only the
        bot runner sets it, never a socket).

        Returns the ``Outcome``; raises ``ActionError``/``RoomError`` when refused (nothing
        changed). A message whose ``action_id`` was applied before is not applied again.
        """
        started = time.perf_counter()
        action_id, kind = message.get("action_id"), message.get("type")
        if not isinstance(kind, str) or action_id is not None and (
                not isinstance(action_id, str) or not 0 < len(action_id) <= MAX_ACTION_ID):
            raise RoomError("bad_message", "The message is malformed.", 400)
        async with self.lock(code):
            # The cached state is used without asking the database for its version first:
            # a write from a stale cache fails the version check (Conflict: reload, retry),
            # and a refusal is only final once the database version confirms the cache.
            cached = self._rooms.get(code)
            duplicate = None
            for _ in range(3):
                state = cached or await self._fresh(code)
                if action_id and action_id in state.recent_actions:
                    duplicate = Outcome(state.recent_actions[action_id], duplicate=True)
                    version = state.version
                    break
                try:
                    version = await self._apply(state, player_id, kind, message, action_id,
                                                takeover)
                except Conflict:
                    self._drop(code)
                    cached = None
                    continue
                except ActionError:
                    if cached is None or await self._fresh(code) is cached:
                        raise
                    cached = None  # the cache was behind another process: decide again
                    continue
                break
            else:
                raise RoomError("busy", "The room is busy, please try again.", 503)
        if duplicate is not None:  # announced again: the first try may have committed without
            await self.publish(code, version, None)  # being announced (a reload, not a fold)
            return duplicate
        ms = round((time.perf_counter() - started) * 1000, 1)  # at debug; slow: warning
        (log.warning if ms > SLOW_ACTION * 1000 else log.debug)(
            "action", room=code, player=player_id, type=kind, version=version, ms=ms)
        await self.publish(code, version, self.delta_of(code, version))
        return Outcome(version)

    async def _apply(self, state: RoomState, player_id: str, kind: str,
                     message: dict[str, Any], action_id: str | None,
                     takeover: bool = False) -> int:
        seat = state.seat_of(player_id)
        claimed = message.get("seat")
        if kind not in ROOM_ACTIONS:  # a game action: the host may act for a table seat
            seat = acting_seat(state, player_id, claimed)
        elif kind != "remove" and claimed is not None and (
                seat is None or str(claimed) != str(seat.id)):
            raise RoomError("not_your_seat", "You can only act for your own seat.", 403)
        if kind not in ROOM_ACTIONS and kind not in state.plugin.actions:
            raise RoomError("unknown_action", "Unknown action.", 400)
        # who may act, then the basis: a page that was behind is shown the table as it is now
        check_action(state, player_id, kind, message,
                     lambda: self.game.check_actor(state, seat, message))
        if kind in ROOM_ACTIONS:
            return await self.actions.decide(state, player_id, kind, message, action_id)
        return await self.game.decide(state, seat, message, action_id, takeover)

    # ----- timers ----------------------------------------------------------------------------

    async def fire_timer(self, code: str) -> None:
        """Apply what is due in room ``code`` (if still due): the plug-in's automatic events
        during a game, the host hand-over outside one."""
        version = None
        async with self.lock(code):
            try:
                state = await self._fresh(code)
            except RoomError:
                return
            try:
                version = await self._due(state)
            except Conflict:
                self._drop(code)
            if version is None and code in self._rooms:
                self.timers.arm(self._rooms[code])
        if version is not None:
            log.info("timer_events", room=code, version=version)
            await self.publish(code, version, self.delta_of(code, version))

    async def _due(self, state: RoomState) -> int | None:
        """Write what is due now in ``state``'s room; the new version, or None. Call locked."""
        now = self.clock()
        if state.status == "playing" and state.game_state is not None:
            return await self.game.due(state, now)
        handoff = self.timers.handoff(state, now)
        if handoff is None or handoff[0] > now:
            return None
        log.info("host_handed_over", room=state.code, host=handoff[1].player_id)
        return await self.actions.set_room(state, None, host_player_id=handoff[1].player_id)

    async def play_out(self, code: str) -> int:
        """Test settings only (the ``/_test/rooms/<code>/finish`` route): play the running game
        of room ``code`` to its end as the server plays for away players
        (``GameActions.play_out``). Returns the new version; raises ``RoomError``."""
        async with self.lock(code):
            version = await self.game.play_out(await self._fresh(code))
        await self.publish(code, version, self.delta_of(code, version))
        return version


__all__ = ["ActionError", "Outcome", "RoomError", "RoomService"]
