"""Game actions in a room: a seat's action or a due timer goes to the game's plug-in (pure
rules), and the events it returns are folded into the cached state and appended to the store
in one write (docs/architecture.md, "The path of one action")."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Any, Literal

import structlog

from app.rooms.bots.control import as_takeover
from app.rooms.delta import Delta
from app.rooms.dice import DiceSource
from app.rooms.errors import RoomError
from app.rooms.games.base import ActionError, Event, Presence
from app.rooms.pace import deadline_hours, is_turn_based
from app.rooms.repository import RoomRepository, event_rows, turn_values
from app.rooms.state import RoomState, SeatInfo
from app.rooms.timers import RoomTimers
from app.rooms.turns import Turns, advance

log = structlog.get_logger("knobel.rooms")


def next_turns(state: RoomState, now: datetime, acted: int | None, missed: int | None,
               over: bool) -> Turns | None | Literal[False]:
    """Whom a turn-based room waits for after the events just folded into ``state``
    (``turns.advance``); None once the game is ``over``; False in a live room (nothing to
    store)."""
    if not is_turn_based(state.options):
        return False
    if over or state.game_state is None:
        return None
    plugin, game_state = state.plugin, state.game_state
    return advance(state.turns or Turns(), plugin.awaiting(game_state),
                   plugin.turn_key(game_state), now, deadline_hours(state.options), acted, missed)


WHO_REFUSALS = frozenset({"not_playing", "not_your_turn"})
"""The plug-ins' refusals of who acts (a seat out of the game, not on turn), as opposed to
refusals of what is done (a filled cell, no roll yet...)."""


def _no_dice(n: int) -> list[int]:
    """Dice for a decision that is not written (``GameActions.check_actor``): ``n`` ones,
    drawn from no seed and no test queue."""
    return [1] * n


class GameActions:
    """Decides and writes game events. ``repo``: the rooms' repository; ``timers``: re-armed
    after each write (and the plug-in's view of the table); ``dice``: the server's dice;
    ``clock()``: now (UTC); ``drop(code)``: forget a room's cached state (a write failed);
    ``committed(code, delta)``: keep the events of a room's latest commit to announce them
    (``RoomMemory.committed``)."""

    def __init__(self, repo: RoomRepository, timers: RoomTimers, dice: DiceSource,
                 clock: Callable[[], datetime], drop: Callable[[str], None],
                 committed: Callable[[str, Delta | None], None]) -> None:
        self.repo, self.timers, self.dice, self.clock, self.drop = repo, timers, dice, clock, drop
        self.committed = committed

    async def decide(self, state: RoomState, seat: SeatInfo | None, message: dict[str, Any],
                     action_id: str | None, takeover: bool = False) -> int:
        """Apply a game action of ``seat`` (the player's own seat, or a table seat the host
        fills in for; None when not seated); returns the new room version. ``takeover``: a
        bot plays an away player's seat (its events are marked, docs/rules.md "Bots").
        Raises ``RoomError`` (not seated, no game running) or the plug-in's ``ActionError``;
        nothing changes then."""
        if seat is None:
            raise RoomError("not_seated", "Only seated players can do that.", 403)
        if state.status != "playing" or state.game_state is None:
            raise RoomError("not_playing", "No game is running.")
        events = state.plugin.decide(state.game_state, seat.id, message,
                                     self.dice.for_game(state))
        if takeover:
            events = as_takeover(events)
            wait = state.turns.waits.get(seat.id) if state.turns else None
            overdue = wait is not None and wait.due <= self.clock()
            return await self.append(state, events, action_id,
                                     missed=seat.id if overdue else None)
        return await self.append(state, events, action_id, acted=seat.id)

    def check_actor(self, state: RoomState, seat: SeatInfo | None,
                    message: dict[str, Any]) -> None:
        """Raise the refusal of who acts, if the table as it is now has one for ``seat``'s
        game action ``message``: ``not_seated`` (``RoomError``, no seat), or the plug-in's
        ``not_playing`` or ``not_your_turn`` (``WHO_REFUSALS``). The plug-in's ``decide`` is
        pure, so it is asked on the current state and its events are dropped; any other
        refusal, or none, returns. No game running: returns (the page shows an older
        table). The room service asks this when a game action's basis is not the current
        one, so a player who may not act is told why, not that the table changed."""
        if seat is None:
            raise RoomError("not_seated", "Only seated players can do that.", 403)
        if state.status != "playing" or state.game_state is None:
            return
        try:
            state.plugin.decide(state.game_state, seat.id, message, _no_dice)
        except ActionError as refused:
            if refused.code in WHO_REFUSALS:
                raise

    def table(self, state: RoomState) -> Presence:
        """The plug-in's view of the table (``RoomTimers.table``)."""
        return self.timers.table(state)

    async def due(self, state: RoomState, now: datetime) -> int | None:
        """Write the plug-in's automatic events due at ``now`` in a running game; the new
        version, or None when nothing is due."""
        assert state.game_state is not None
        events = state.plugin.on_timer(state.game_state, self.table(state), now,
                                       self.dice.for_game(state))
        return await self.append(state, events, None) if events else None

    async def play_out(self, state: RoomState) -> int:
        """Play ``state``'s running game to its end as the server plays for away players, as
        if every seat had been away for long and every timer had run out (the plug-in's
        ``on_timer``; test settings only). Returns the new version. Raises ``RoomError`` when
        no game is running or the plug-in stops proposing events before the game is over."""
        if state.status != "playing" or state.game_state is None or state.game is None:
            raise RoomError("not_playing", "No game is running.")
        long_ago = datetime(2000, 1, 1, tzinfo=UTC)
        seats = list(state.game.seat_ids)
        table = Presence(seat_ids=seats, away_since=dict.fromkeys(seats, long_ago),
                      started_at=long_ago, watching_since=long_ago)
        later = self.clock() + timedelta(days=1)
        version = state.version
        while not state.plugin.is_over(state.game_state):
            events = state.plugin.on_timer(state.game_state, table, later,
                                           self.dice.for_game(state))
            if not events:
                raise RoomError("stuck", "The game cannot be played out.", 409)
            version = await self.append(state, events, None)
        return version

    async def append(self, state: RoomState, events: list[Event], action_id: str | None,
                     acted: int | None = None, missed: int | None = None) -> int:
        """Fold ``events`` into the cached state (``RoomState.folding``) and store them
        (finishing the game when they end it); a failed write drops the cached state and
        raises (``Conflict`` when another writer got there first). Returns the new version.
        In a turn-based room the same write sets whom the table waits for next
        (``turns.advance``: ``acted``, the seat whose own player acted; ``missed``, the seat
        a bot played for after its deadline)."""
        now = self.clock()
        events = [Event(e.type, e.payload, e.seat_id, now) for e in events]
        plugin, game = state.plugin, state.game
        assert game is not None
        first_seq, version = state.last_seq + 1, state.version + 1
        try:
            # optimistic: the events are applied before the write (which stores the result
            # they make); the state moves to ``version`` once committed, and a failed write
            # drops it
            with state.folding(events, first_seq, version, action_id):
                over = plugin.is_over(state.game_state)
                totals = plugin.totals(state.game_state) if over else None
                records = await self.repo.records(state, totals) if totals is not None else []
                turns = next_turns(state, now, acted, missed, over)
                store = turns is not False and turns != state.turns  # else: as it was
                await self.repo.append(state, event_rows(game.id, first_seq, events, action_id),
                                       totals, now, records, plugin.left_game(state.game_state),
                                       turns=turn_values(turns or None, deadline_hours(
                                           state.options), now) if store else None)
        except BaseException:
            self.drop(state.code)
            raise
        if turns is not False:
            state.turns = turns
        # other processes fold these events (a finished game is reloaded: its result and
        # records come from the database)
        self.committed(state.code, None if totals is not None else Delta(
            version, game.id, first_seq, action_id, tuple(events),
            turns.to_json() if turns else None))
        if totals is not None:
            game.status, game.totals, state.status = "finished", totals, "finished"
            game.records, game.left = records, sorted(plugin.left_game(state.game_state))
            log.info("game_finished", room=state.code, game=game.id, totals=totals)
        self.timers.arm(state)
        return version
