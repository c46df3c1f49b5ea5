"""A game against bots, offered with "Play alone": a solo room (nobody else joins, no
invitation) with one person and 1-3 bots, started at once (docs/rules.md, "Bots"). Goes
through the room service like the lobby's buttons (same actions, same log)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from app.rooms.bots.identity import GAMES
from app.rooms.errors import RoomError
from app.rooms.rules import room_basis

if TYPE_CHECKING:
    from app.rooms.service import RoomService

MAX_BOTS = 3


async def start_against_bots(rooms: RoomService, player_id: str, name: str, kind: str,
                             bots: int, level: str = "strong") -> str:
    """Create a room of ``kind`` hosted by ``player_id`` (seated as ``name``), seat ``bots``
    bots (1..3) of ``level`` and start the game; returns the room code. Raises ``RoomError``
    (400) for another number of bots, an unknown game or level."""
    if kind not in GAMES:
        raise RoomError("no_bots", "Bots do not play this game.", 400)
    if not 1 <= bots <= MAX_BOTS:
        raise RoomError("bad_bots", "Choose one to three bots.", 400)
    code = await rooms.create_room(player_id, name, kind, solo=True)
    for _ in range(bots):
        state = await rooms.current(code)
        assert state is not None
        await rooms.act(code, player_id, {"type": "add_bot", "level": level,
                                          **room_basis(state)})
    await rooms.start_now(code, player_id)
    return code
