"""The host's "Add a bot" (room action ``add_bot``; docs/rules.md, "Bots").

A bot takes the next seat like a person joining: a ``players`` row with a bot id
(``identity``), a seat named ``Bot <name>``. It is removed with the room's ``remove`` action,
like any seat.
"""

from __future__ import annotations

from functools import partial
from typing import Any

from app.rooms.bots.identity import GAMES, LEVELS, bot_name, new_bot_id
from app.rooms.errors import RoomError
from app.rooms.state import RoomState
from app.rooms.writes import RoomWriter, seat_player


async def add_bot(actions: RoomWriter, state: RoomState, message: dict[str, Any],
                  action_id: str | None) -> int:
    """Seat a bot of ``message["level"]`` ("strong" default, or "casual"); returns the new
    room version. The caller checked that the host sent it. Raises ``RoomError`` while a game
    runs, when the room is full, for another level, or in a game bots do not play."""
    level = message.get("level", "strong")
    if state.kind not in GAMES:
        raise RoomError("no_bots", "Bots do not play this game.")
    if level not in LEVELS:
        raise RoomError("bad_message", "The message is malformed.", 400)
    if state.status == "playing":
        raise RoomError("game_running", "The game has already started.")
    if state.is_full:
        raise RoomError("room_full", "This room is full.")
    name = bot_name(s.name for s in state.seats)
    work = partial(seat_player, state=state, player_id=new_bot_id(level), name=name)
    return await actions.write(state, work, action_id=action_id, reload=True)
