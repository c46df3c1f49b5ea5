"""Pass and play: seats without a device of their own ("table seats"), played from the host's.

Rules: docs/rules.md, "Table mode". The host adds a table seat in the waiting room by name;
it is a seat like any other (turn order, sheets, results, history), held by a player id that
no browser can have (``TABLE_PLAYER_PREFIX`` + random hex; guests' ids are 32 hex
characters from the signed session cookie). A game action may name the seat it is for
(``"seat": id``): a player may act for their own seat and, from the host's device only, for
an active table seat of the room; never for another player's seat.
"""

from __future__ import annotations

import secrets
from collections.abc import Collection, Sequence
from functools import partial
from typing import Any

from app.players.names import InvalidName, clean_name
from app.rooms.errors import RoomError
from app.rooms.state import TABLE_PLAYER_PREFIX, RoomState, SeatInfo
from app.rooms.writes import RoomWriter, seat_player


def new_table_player_id() -> str:
    """A fresh player id for a table seat: ``table-`` and 26 hex digits (32 characters)."""
    return TABLE_PLAYER_PREFIX + secrets.token_hex(13)


def is_table_seat(seat: SeatInfo) -> bool:
    """True for a seat without a device of its own (added by the host)."""
    return seat.table_seat


def present_seats(state: RoomState, online: Collection[str]) -> set[int]:
    """Ids of the seats someone is present for: each seat whose player has a page of the room
    open (``online``: player ids), and every active table seat while the host's is open (the host's
    device plays for them, so the table never waits for them as away)."""
    host_here = state.host_player_id in online
    return {s.id for s in state.seats
            if s.player_id in online
            or (host_here and is_table_seat(s) and s.status == "active")}


def acting_seat(state: RoomState, player_id: str, claimed: Any) -> SeatInfo | None:
    """The seat a game action of ``player_id`` is for: their own (``claimed`` None or their
    own seat id), or the active table seat ``claimed`` names when ``player_id`` is the host
    and seated; None for a spectator who names no seat.

    Raises ``RoomError("not_your_seat", 403)`` for any other claim (another player's seat, a
    table seat claimed by someone other than the host, an unknown or inactive seat).
    """
    own = state.seat_of(player_id)
    if claimed is None:
        return own
    if own is not None and str(claimed) == str(own.id):
        return own
    target = next((s for s in state.seats if str(s.id) == str(claimed)), None)
    if (target is not None and target.status == "active" and is_table_seat(target)
            and own is not None and player_id == state.host_player_id):
        return target
    raise RoomError("not_your_seat", "You can only act for your own seat.", 403)


def proxy_seat(state: RoomState, viewer: SeatInfo | None, awaiting: Sequence[int]) -> int | None:
    """The table seat whose sheet the host's device fills now ("Filling in for: …"): the
    first table seat the game waits for (``awaiting``: seat ids in the order the game wants
    them, ``awaiting`` of the plug-in), unless the host's own move comes before it; None for
    everyone else."""
    if viewer is None or viewer.player_id != state.host_player_id:
        return None
    table = {s.id for s in state.active_seats if is_table_seat(s)}
    for seat in awaiting:
        if seat == viewer.id:
            return None
        if seat in table:
            return seat
    return None


async def add_table_seat(actions: RoomWriter, state: RoomState, message: dict[str, Any],
                         action_id: str | None) -> int:
    """The host's "add a seat without a phone": seat ``message["name"]`` (cleaned like a
    guest's name) as a table seat; returns the new version. Raises ``RoomError``: the game
    has no seats without a phone (``GamePlugin.pass_and_play``, e.g. the Knikkers race) or
    the room is a solo room, a game is running, the room is full, or the name is not valid
    (400)."""
    if not state.plugin.pass_and_play or state.options.get("solo"):
        raise RoomError("no_table_seats", "This game has no seats without a phone.")
    if state.status == "playing":
        raise RoomError("game_running", "The game has already started.")
    if state.is_full:
        raise RoomError("room_full", "This room is full.")
    try:
        name = clean_name(str(message.get("name") or ""))
    except InvalidName:
        raise RoomError("bad_name", "Enter a name of 1 to 24 characters.", 400) from None
    work = partial(seat_player, state=state, player_id=new_table_player_id(), name=name)
    return await actions.write(state, work, action_id=action_id, reload=True)
