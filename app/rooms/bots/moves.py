"""A bot's next move in a running room game, as the message a page would send (docs/rules.md,
"Bots"): the game's bot (``GamePlugin.bot``, in the game's package) chooses; this adds the
basis fields and an action id, for ``RoomService.act``.

Each move has an action id fixed by the state it was decided on (game, last event, seat), so
the same move sent twice, by one process or two, is applied once (the room service's
duplicate check), and a move decided on a state that is gone is refused (basis check).
"""

from __future__ import annotations

from typing import Any

from app.rooms.games.base import Strategies as Strategies  # the bots' callers name it here
from app.rooms.rules import required_basis
from app.rooms.state import RoomState


def next_move(state: RoomState, seat: int, level: str,
              strategies: Strategies) -> tuple[str, dict[str, Any]] | None:
    """``(action_id, message)`` of ``seat``'s next move at ``level`` in the running game of
    ``state``, or None when it has nothing to do now. The message carries the basis it was
    decided on. Rules: docs/rules.md, "Bots"."""
    game, game_state = state.game, state.game_state
    if game is None or game_state is None or state.status != "playing":
        return None
    bot = state.plugin.bot
    if bot is None:
        return None
    message = bot.move(game_state, seat, level, f"{game.id}.{seat}", state.last_seq,
                       game.options, strategies)
    if message is None:
        return None
    message.update(required_basis(state, message["type"]))
    return f"bot.{game.id}.{state.last_seq}.{seat}", message
