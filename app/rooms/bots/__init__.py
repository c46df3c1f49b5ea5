"""Bots in rooms (docs/rules.md, "Bots"; docs/architecture.md, "Bots"): who is a bot
(``identity``), which seats bots play and the "bot takes over" option (``control``), the
host's "Add a bot" (``seats``), a bot's next move (``moves``), the runner that sends the moves
through the room service (``runner``) and the lease that gives one process a room's bots
(``lease``). ``install`` wires them into the app."""

from __future__ import annotations

from datetime import timedelta
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from app.rooms.bots.moves import Strategies
    from app.rooms.bots.runner import BotRunner
    from app.rooms.service import RoomService
    from app.settings import Settings


def install(rooms: RoomService, strategies: Strategies, settings: Settings) -> BotRunner:
    """A ``BotRunner`` for ``rooms``, hooked into its timers (bot seats count as present,
    away players are taken over after ``settings.bot_takeover_seconds``); start its ``scan``
    and ``close`` it with the app."""
    from app.rooms.bots.control import BotControl
    from app.rooms.bots.lease import make_lease
    from app.rooms.bots.runner import BotRunner

    low = min(settings.bot_delay_min, settings.bot_delay_max)
    runner = BotRunner(rooms, strategies, make_lease(settings.broadcast_url),
                       delay=(low, max(settings.bot_delay_min, settings.bot_delay_max)))
    rooms.timers.bots = BotControl(timedelta(seconds=settings.bot_takeover_seconds))
    rooms.timers.watch = runner.watch
    return runner
