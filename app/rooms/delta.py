"""What one committed game action changed, as a short text another app process can fold into
its cached copy of the room instead of rebuilding the room from the database.

The database stays the truth: a delta is only a shortcut for a process that holds the room at
exactly the version before (same game, next event number). Anything else (a gap, another
game, a room-level change, a game that ended) is rebuilt from the database as before
(``RoomMemory.snapshot``). docs/architecture.md, "Several processes".
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from app.rooms.games.base import Event
from app.rooms.state import RoomState
from app.rooms.turns import Turns


@dataclass(frozen=True)
class Delta:
    """The game events one commit appended: to game ``game_id``, numbered from ``first_seq``,
    for the client action ``action_id`` (None for the server's own events), making room
    version ``version``."""

    version: int
    game_id: int
    first_seq: int
    action_id: str | None
    events: tuple[Event, ...]
    turns: dict[str, Any] | None = None  # a turn-based room's waits after it (Turns JSON)

    def encode(self) -> str:
        """The delta as compact JSON text (event times as ISO 8601 with their UTC offset)."""
        return json.dumps({
            "v": self.version, "g": self.game_id, "s": self.first_seq, "a": self.action_id,
            "e": [[e.type, e.payload, e.seat_id, e.at.isoformat() if e.at else None]
                  for e in self.events],
            "t": self.turns,
        }, separators=(",", ":"))

    @classmethod
    def decode(cls, text: str) -> Delta | None:
        """Parse ``encode``'s text; None for anything malformed (the room is then reloaded)."""
        try:
            data: dict[str, Any] = json.loads(text)
            events = tuple(
                Event(str(kind), dict(payload), None if seat is None else int(seat),
                      datetime.fromisoformat(at) if at else None)
                for kind, payload, seat, at in data["e"])
            action_id = data["a"]
            turns = data.get("t")
            return cls(int(data["v"]), int(data["g"]), int(data["s"]),
                       None if action_id is None else str(action_id), events,
                       dict(turns) if turns else None)
        except (ValueError, TypeError, KeyError):
            return None

    def follows(self, state: RoomState) -> bool:
        """True when ``state`` is exactly the room this delta was committed on: the version
        before it, in the same game, with the event before its first."""
        game = state.game
        return (state.version == self.version - 1 and game is not None
                and game.id == self.game_id and state.status == "playing"
                and state.game_state is not None and state.last_seq + 1 == self.first_seq)

    def fold(self, state: RoomState) -> None:
        """Apply the events to ``state`` as the committing process did and move it to
        ``version`` (``RoomState.fold``, the one place committed events enter a state).
        Raises ``ValueError``, changing nothing, when the delta does not ``follow`` the state;
        the plug-in's errors propagate (the caller then rebuilds the room from the
        database)."""
        if not self.follows(state):
            raise ValueError(f"delta to version {self.version} does not follow the room "
                             f"at version {state.version}, event {state.last_seq}")
        state.fold(self.events, self.first_seq, self.version, self.action_id)
        if self.turns is not None or state.turns is not None:
            state.turns = Turns.from_json(self.turns) if self.turns else None
