"""Room-level actions: options, start, ready, next game, rematch, leave, remove, joining.

Each is decided on the room's state (the rules are in ``app.rooms.rules`` and below) and
written through the repository with the room version it was decided on (docs/rules.md,
"Rooms"). Raise ``RoomError`` when refused (nothing changed) and ``Conflict`` when another
writer got there first.
"""

from __future__ import annotations

import copy
from collections.abc import Awaitable, Callable
from datetime import datetime
from functools import partial
from typing import Any

from app.errors import N_
from app.rooms.bots.control import parse_bot_options
from app.rooms.bots.seats import add_bot
from app.rooms.dice import DiceSource
from app.rooms.errors import RoomError
from app.rooms.games.base import Event
from app.rooms.pace import deadline_hours, is_turn_based, parse_pace
from app.rooms.pass_and_play import add_table_seat
from app.rooms.repository import RoomRepository, TurnValues, event_rows, turn_values
from app.rooms.rules import check_room_actor, heir, next_game
from app.rooms.state import RoomState
from app.rooms.turns import Turns, advance, back
from app.rooms.writes import (
    game_finished,
    new_game,
    nothing,
    room_values,
    seat_gone,
    seat_player,
    seat_values,
)
from app.talk.lines import parse_chat_option

ROOM_ACTIONS = frozenset({"options", "start", "remove", "leave", "next_game", "rematch",
                          "play_again", "ready", "add_bot", "add_table_seat"})

REMOVED = N_("The host took you off this table: you cannot take a seat in this room again.")
"""Why a player the host removed cannot sit down again (a gettext msgid)."""


def was_removed(state: RoomState, player_id: str | None) -> bool:
    """True when the host took ``player_id``'s seat off the table of ``state`` (its status
    ``removed``, not ``left``): they may watch but never take a seat there again (docs/rules.md,
    "Leaving and removing")."""
    return any(s.player_id == player_id and s.status == "removed" for s in state.seats)


Reload = Callable[[str], Awaitable[RoomState | None]]
Seeds = Callable[[Any, dict[str, Any]], str | None]
"""``seeds(plugin, options)``: a new game's secret dice seed or None (``DiceSource.seed_for``)."""
SEAT_ADDERS = {"add_table_seat": add_table_seat, "add_bot": add_bot}


class RoomActions:
    """Decides and writes room-level actions.

    ``repo``: the rooms' repository; ``reload(code)``: rebuilds a room's state after a write;
    ``online(code)``: ids of who has a socket there; ``clock()``: now; ``seeds``: dice seeds."""

    def __init__(self, repo: RoomRepository, reload: Reload,
                 online: Callable[[str], frozenset[str]], clock: Callable[[], datetime],
                 seeds: Seeds = DiceSource().seed_for) -> None:
        self.repo, self.reload, self.online, self.clock = repo, reload, online, clock
        self.seeds = seeds  # docs/dice.md

    async def join(self, state: RoomState, player_id: str, name: str) -> int:
        """Seat ``player_id`` as ``name``; returns the new version (the current one when
        already seated). Raises ``RoomError`` for a player the host removed from this room
        (403: a removal sticks; one who left may come back), while a game runs, when the room
        is full or a solo room (docs/rules.md, "Solo practice")."""
        if state.seat_of(player_id):
            return state.version
        if was_removed(state, player_id):
            raise RoomError("removed", REMOVED, 403)
        if state.options.get("solo"):
            raise RoomError("solo_room", "This is a game for one player.")
        if state.status == "playing":
            raise RoomError("game_running", "The game has already started.")
        if state.is_full:
            raise RoomError("room_full", "This room is full.")
        work = partial(seat_player, state=state, player_id=player_id, name=name)
        return await self.write(state, work, reload=True)

    async def decide(self, state: RoomState, player_id: str, kind: str,
                     message: dict[str, Any], action_id: str | None) -> int:
        """Apply room action ``kind`` (one of ``ROOM_ACTIONS``) by ``player_id``; returns the
        room version after it."""
        check_room_actor(state, player_id, kind)
        seat = state.seat_of(player_id)
        if kind == "leave":
            assert seat is not None
            return await self.remove(state, seat.id, "left", action_id)
        if kind == "ready":
            assert seat is not None
            ready = message.get("ready")
            if not isinstance(ready, bool):
                raise RoomError("bad_message", "The message is malformed.", 400)
            if state.status == "playing":
                raise RoomError("game_running", "The game has already started.")
            if seat.ready == ready:
                return state.version  # pressed twice: nothing changes
            return await self.set_seat(state, seat.id, action_id, ready=ready)
        if kind == "options":
            if state.status == "playing":
                raise RoomError("game_running", "The game has already started.")
            # OptionError: bad_option
            game_options = state.plugin.parse_options(message)
            pace = parse_pace(message, game_options, state.plugin.turn_based)  # may set timer
            options = {**game_options, **parse_bot_options(message),
                       **parse_chat_option(message), **pace}
            if state.options.get("solo"):
                options["solo"] = True  # a solo room stays one (not a lobby field)
            return await self.set_room(state, action_id, options=options)
        if kind in SEAT_ADDERS:  # a seat without a phone, or a bot (docs/rules.md)
            return await SEAT_ADDERS[kind](self, state, message, action_id)
        if kind == "start":
            if state.status != "lobby":
                raise RoomError("game_running", "The game has already started.")
            return await self.start(state, action_id, continue_match=False)
        if kind in ("next_game", "rematch", "play_again"):
            return await self._after_game(state, kind, action_id)
        return await self._remove_other(state, player_id, message, action_id)

    async def _after_game(self, state: RoomState, kind: str, action_id: str | None) -> int:
        """The host's "Next game" (the match goes on), "Play again" (a new match at once, with
        the same options) or "Rematch" (back to the lobby, the result still shown, the options
        editable); docs/rules.md, "Rematch and ready"."""
        if state.status != "finished":
            raise RoomError("not_finished", "The game is not over yet.")
        game = state.game
        assert game is not None
        match_done = game.options.get("match_game", 1) >= game.options.get("match", 1)
        if kind == "next_game":
            if match_done:
                raise RoomError("match_over", "The match is over: start a rematch.")
            return await self.start(state, action_id, continue_match=True)
        if not match_done:
            raise RoomError("match_running", "The match goes on: start its next game.")
        if kind == "play_again":
            return await self.start(state, action_id, continue_match=False)
        return await self.write(state, nothing, status="lobby", action_id=action_id,
                                reload=True)

    async def _remove_other(self, state: RoomState, player_id: str, message: dict[str, Any],
                            action_id: str | None) -> int:
        """The host takes another seat (``target``) off the table."""
        try:
            target = int(str(message.get("target", message.get("seat"))))
        except (TypeError, ValueError):
            raise RoomError("bad_message", "The message is malformed.", 400) from None
        victim = state.seat(target)
        if victim is None or victim.status != "active":
            raise RoomError("no_such_seat", "There is no such seat.", 404)
        if victim.player_id == player_id:
            raise RoomError("remove_self", "Use Leave to leave the room.")
        return await self.remove(state, victim.id, "removed", action_id)

    async def start(self, state: RoomState, action_id: str | None,
                    continue_match: bool) -> int:
        """Create the next game with the active seats: the match's next game
        (``continue_match``, same options) or the first game of a new match; the start player
        moves one seat on per game; every seat's "ready" mark is cleared."""
        if not state.active_seats:
            raise RoomError("no_players", "Nobody is seated.")
        number, options, order = next_game(state, continue_match)
        turns = None
        if is_turn_based(state.options):  # the first turn's deadline starts now
            first = state.plugin.new_state(options, order, 0)
            turns = self._turns(state, Turns(), first)
        game = new_game(state, number, options, order, self.seeds(state.plugin, options))
        return await self.write(state, game, status="playing", action_id=action_id,
                                reload=True, turns=turns)

    async def back(self, state: RoomState, seat_id: int) -> int:
        """Seat ``seat_id`` of turn-based ``state`` is not away now; the new version."""
        assert state.turns is not None
        now, hours = self.clock(), deadline_hours(state.options)
        turns = turn_values(back(state.turns, seat_id, now, hours), hours, now)
        return await self.write(state, nothing, turns=turns, reload=True)

    def _turns(self, state: RoomState, before: Turns, game_state: Any) -> TurnValues:
        """The turn columns of turn-based room ``state`` once its game is at ``game_state``
        (whom it waits for, in which turn: ``turns.advance`` from ``before``, now)."""
        now, hours, plugin = self.clock(), deadline_hours(state.options), state.plugin
        return turn_values(advance(before, plugin.awaiting(game_state),
                                   plugin.turn_key(game_state), now, hours), hours, now)

    async def remove(self, state: RoomState, seat_id: int, status: str,
                     action_id: str | None) -> int:
        """Take a seat away (``left`` or ``removed``); the host role passes on with it to the
        next present seat; a game that is over without it is finished."""
        victim = state.seat(seat_id)
        assert victim is not None
        events: list[Event] = []
        if state.status == "playing" and state.game_state is not None:
            now = self.clock()
            events = [Event(e.type, e.payload, e.seat_id, now)
                      for e in state.plugin.remove_seat(state.game_state, seat_id)]
        host = state.host_player_id
        if victim.player_id == host:
            successor = heir(state, self.online(state.code), leaving=seat_id)
            host = successor.player_id if successor else None
        rows: list[dict[str, Any]] = []
        turns = None
        if events:
            assert state.game is not None  # events only come from a running game
            rows = event_rows(state.game.id, state.last_seq + 1, events, None)
            if is_turn_based(state.options):  # whom the game waits for without the seat
                after_events = copy.deepcopy(state.game_state)
                for event in events:
                    state.plugin.apply(after_events, event)
                before = state.turns or Turns()
                before = Turns(before.waits, {s: n for s, n in before.missed.items()
                                              if s != seat_id})
                turns = self._turns(state, before, after_events)
        work = seat_gone(state.id, seat_id, status, host, rows)
        version = await self.write(state, work, action_id=action_id, turns=turns)
        after = await self.reload(state.code)
        if after and after.status == "playing" and after.plugin.is_over(after.game_state):
            return await self._finish(after)
        return version

    async def _finish(self, state: RoomState) -> int:
        """Mark the game finished when removals left it over (no placements pending)."""
        assert state.game is not None
        totals = state.plugin.totals(state.game_state)
        records = await self.repo.records(state, totals)
        work = game_finished(state.game.id, totals, self.clock(), records,
                             state.plugin.left_game(state.game_state))
        turns = turn_values(None, 0, self.clock()) if is_turn_based(state.options) else None
        return await self.write(state, work, status="finished", reload=True, turns=turns)

    async def set_room(self, state: RoomState, action_id: str | None, **values: Any) -> int:
        """Set the room row's columns ``values``; returns the new version."""
        return await self.write(state, room_values(state.id, **values), action_id=action_id,
                                reload=True)

    async def set_seat(self, state: RoomState, seat_id: int, action_id: str | None,
                       **values: Any) -> int:
        """Set seat ``seat_id``'s columns ``values``; returns the new version."""
        return await self.write(state, seat_values(seat_id, **values), action_id=action_id,
                                reload=True)

    async def write(self, state: RoomState, work: Any, status: str | None = None,
                    action_id: str | None = None, reload: bool = False,
                    turns: TurnValues | None = None) -> int:
        """``repo.write`` (with the ``turns`` columns when given), then rebuild the room's
        state when ``reload``."""
        version = await self.repo.write(state, work, status=status, action_id=action_id,
                                        turns=turns)
        if reload:
            await self.reload(state.code)
        return version
