"""Room-level rules as pure functions: what an action was decided on (its basis), who takes
over as host, and when, and how the next game of a match is numbered and seated.

No database, no clock, no sockets: the room service passes in the state, who is online and
the time. See docs/rules.md, "Rooms" (stale actions, turn order, host hand-over).
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping
from datetime import datetime, timedelta
from typing import Any

from app.rooms.errors import RoomError
from app.rooms.games.base import ActionError
from app.rooms.state import RoomState, SeatInfo

HOST_GRACE = timedelta(seconds=30)
"""A host away this long outside a running game hands the host role to a present seat."""

ROOM_BASIS: dict[str, tuple[str, ...]] = {
    "start": ("version",),
    "options": ("game",),
    "next_game": ("version",),
    "rematch": ("version",),
    "play_again": ("version",),
    "remove": ("version",),
    "add_bot": ("version",),
    "add_table_seat": ("version",),
    "leave": ("game",),
    "ready": ("game",),
}
"""Per room-level message type, the fields of ``page_basis`` it must carry unchanged: the
room version for decisions that depend on the whole table (who is seated, the options, the
result), the game number for "I leave" and "I am ready", which only depend on which game the
page shows (so players at a busy Knister table are not refused for each other's moves), and
for the host's options, which carry the whole form (the host alone sets them, so the last
form sent is the host's latest choice: two options changed in quick succession both stay)."""

ONCE_ACTIONS: tuple[str, ...] = tuple(
    kind for kind, fields in ROOM_BASIS.items() if "version" in fields)
"""Room actions decided on the room version: one of them sent again before the page shows a
newer version is the same tap repeated, and the page drops it (``static/js/app.js``; the
server would refuse it as stale)."""

def room_basis(state: RoomState) -> dict[str, int]:
    """``{"version": room version, "game": number of the latest game (0 before the first)}``."""
    return {"version": state.version, "game": state.game.number if state.game else 0}


def page_basis(state: RoomState) -> dict[str, int]:
    """Everything a page showing ``state`` sends with each action: the room basis and, while
    a game state exists, the game's own (``GamePlugin.basis``: Knister ``roll``, Kniffel
    ``turn`` and ``rolls``). Rendered into the page's ``#live-version`` marker."""
    basis = room_basis(state)
    if state.game_state is not None:
        basis.update(state.plugin.basis(state.game_state))
    return basis


def required_basis(state: RoomState, kind: str) -> dict[str, int]:
    """The basis fields a message of type ``kind`` must carry, with their current values:
    ``ROOM_BASIS`` for room actions, the plug-in's whole ``basis`` for game actions (none
    when no game state exists: such an action is refused for other reasons)."""
    if kind in ROOM_BASIS:
        basis = room_basis(state)
        return {key: basis[key] for key in ROOM_BASIS[kind]}
    if state.game_state is None:
        return {}
    return dict(state.plugin.basis(state.game_state))


SEATED_ACTIONS = frozenset({"leave", "ready"})
"""Room actions any seated player takes for their own seat; every other one is the host's."""


def check_room_actor(state: RoomState, player_id: str, kind: str) -> None:
    """Who may take room action ``kind`` (one of ``ROOM_BASIS``): a seated player for
    ``SEATED_ACTIONS``, the seated host for every other. Raises ``RoomError`` ``not_seated``
    or ``not_host`` (403) for anyone else. It does not depend on the table a page showed, so
    the room service asks it before the basis: a player who may not act is told why, not
    that the table changed (docs/rules.md, "Stale actions")."""
    seat = state.seat_of(player_id)
    if kind in SEATED_ACTIONS:
        if seat is None:
            raise RoomError("not_seated", "Only seated players can do that.", 403)
    elif seat is None or player_id != state.host_player_id:
        raise RoomError("not_host", "Only the host can do that.", 403)


def basis_matches(required: Mapping[str, int], message: Mapping[str, Any]) -> bool:
    """Whether ``message`` carries every field of ``required`` (``required_basis``) as an
    integer equal to its current value."""
    return all(type(message.get(key)) is int and message.get(key) == value
               for key, value in required.items())


def check_basis(required: Mapping[str, int], message: Mapping[str, Any]) -> None:
    """Refuse a message decided on another state than the current one.

    ``required``: field -> current value (``required_basis``); ``message``: the client's
    JSON object. Raises ``RoomError("stale")`` when a field is missing, not an integer, or
    differs (the page always sends them, so a missing one means an outdated page).
    """
    if not basis_matches(required, message):
        raise RoomError("stale", "The table changed before your action arrived. "
                                 "Have a look and try again.")


def check_action(state: RoomState, player_id: str, kind: str, message: Mapping[str, Any],
                 game_actor: Callable[[], None]) -> None:
    """Whether ``player_id`` may send ``message`` (of type ``kind``) on the table as it is:
    who may act is asked first (a room action: ``check_room_actor``; a game action whose page
    showed another table: ``game_actor()``, the game's own rules on the current table), so one
    who may not is told why (not the host, not their turn) whatever their page showed, then
    the basis (``check_basis``). Raises that refusal; ``ActionError.behind`` is set when the
    page was behind too (it is then also shown the table as it is now: docs/rules.md, "Stale
    actions")."""
    required = required_basis(state, kind)
    try:
        if kind in ROOM_BASIS:
            check_room_actor(state, player_id, kind)
        elif not basis_matches(required, message):
            game_actor()
    except ActionError as refused:
        refused.behind = not basis_matches(required, message)
        raise
    check_basis(required, message)


def heir(state: RoomState, online: Collection[str], leaving: int | None = None
         ) -> SeatInfo | None:
    """Who becomes host after the current host (or after the seat ``leaving``): the next
    active seat after the host's in seat order whose player is online, else the next active
    seat at all; None when nobody else is seated. A table seat (no device) never hosts,
    nor does a bot.

    ``online``: player ids with an open socket in the room.
    """
    host = state.host_seat
    after = leaving if leaving is not None else (host.id if host else None)
    positions = [s.id for s in state.seats]
    if after in positions:
        start = positions.index(after)
        ring = state.seats[start + 1:] + state.seats[:start]
    else:
        ring = list(state.seats)
    candidates = [s for s in ring if s.status == "active" and s.id != after
                  and not s.table_seat and not s.bot]
    present = [s for s in candidates if s.player_id in online]
    if present:
        return present[0]
    return candidates[0] if candidates else None


def host_handoff(state: RoomState, online: Collection[str],
                 away_since: Mapping[str, datetime], watching_since: datetime,
                 grace: timedelta = HOST_GRACE) -> tuple[datetime, SeatInfo] | None:
    """When and to whom the host role passes because the host is away outside a running game
    (lobby or result screen), or None when it does not (host online or not seated, a game
    running, or nobody present to take over).

    ``away_since``: player id -> when this process saw them go (UTC); ``watching_since``:
    since when this process tracks the room (a host not seen since is away since then);
    ``grace``: how long the host may be away (``HOST_GRACE`` unless configured).
    Coming back before the deadline keeps the role; after it, the role stays with the heir.
    """
    if state.status == "playing":
        return None
    host = state.host_seat
    if host is None or host.player_id in online:
        return None
    successor = heir(state, online)
    if successor is None or successor.player_id not in online:
        return None
    since = away_since.get(host.player_id, watching_since)
    return since + grace, successor


def next_game(state: RoomState, continue_match: bool) -> tuple[int, dict[str, Any], list[int]]:
    """The room's next game: ``(number, options, seat order)``.

    The match's next game (``continue_match``: same match number and size, game number in the
    match + 1) or the first game of a new match (match number + 1, size from the room's
    options); the options carry ``match``, ``match_no`` and ``match_game``. The active seats
    play in table order starting one seat further on per game (docs/rules.md, "Rooms",
    "Turn order" and "Rematch and ready"). ``state`` must have an active seat.
    """
    seats = [s.id for s in state.active_seats]
    previous = state.game
    number = previous.number + 1 if previous else 1
    match_size = int(state.options.get("match", 1))
    if previous and continue_match:
        match_no = previous.options.get("match_no", 1)
        match_game = previous.options.get("match_game", 1) + 1
        match_size = previous.options.get("match", 1)
    else:
        match_no = (previous.options.get("match_no", 1) + 1) if previous else 1
        match_game = 1
    start = (number - 1) % len(seats)
    options = {**state.options, "match": match_size, "match_no": match_no,
               "match_game": match_game}
    return number, options, seats[start:] + seats[:start]


def ranking(totals: dict[int, int],
            left: Collection[int] = ()) -> list[tuple[int | None, int, int]]:
    """``(rank, seat_id, total)`` best first; equal totals share a rank (1, 2, 2, 4). Seats
    in ``left`` (taken out of the game before it ended) come last, best first, with rank
    None (docs/rules.md, "Results and personal bests")."""
    ranked = {seat: total for seat, total in totals.items() if seat not in left}
    ordered = sorted(ranked.items(), key=lambda item: (-item[1], item[0]))
    gone = sorted(((seat, total) for seat, total in totals.items() if seat in left),
                  key=lambda item: (-item[1], item[0]))
    return ([(1 + sum(1 for t in ranked.values() if t > total), seat, total)
             for seat, total in ordered] + [(None, seat, total) for seat, total in gone])
