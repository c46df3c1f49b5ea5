"""Bots in rooms (docs/rules.md, "Bots"; docs/architecture.md, "Bots"): who is a bot
(``identity``), which seats bots play and the "bot takes over" option (``control``), the
host's "Add a bot" (``seats``), a bot's next move (``moves``), the runner that sends the moves
through the room service (``runner``) and the lease that gives one process a room's bots
(``lease``). ``install`` builds them for a room service, which calls it at its construction
(``RoomService(bots=...)``)."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from app.rooms.bots.control import BotControl
    from app.rooms.bots.moves import Strategies
    from app.rooms.bots.runner import BotRunner
    from app.rooms.games.base import Presence
    from app.rooms.service import RoomService
    from app.rooms.state import RoomState
    from app.settings import Settings


class BotsInRooms:
    """The bots of a room service (``app.rooms.service.RoomBots``): ``control`` marks the
    seats they play and adjusts what the plug-ins see, ``runner`` moves them."""

    def __init__(self, control: BotControl, runner: BotRunner) -> None:
        self.control = control
        self.runner = runner

    def adjust(self, state: RoomState, table: Presence) -> Presence:
        """``BotControl.adjust``: bot seats are present, every seat while bots take over."""
        return self.control.adjust(state, table)

    def mark(self, state: RoomState, table: Presence, now: datetime) -> datetime | None:
        """``BotControl.mark``: the seats taken over now and the next takeover, or None."""
        return self.control.mark(state, table, now)

    def watch(self, state: RoomState) -> None:
        """``BotRunner.watch``: wake or start the room's driver."""
        self.runner.watch(state)

    def start(self) -> None:
        """``BotRunner.start``: the scan of running bot rooms, in the background."""
        self.runner.start()

    async def close(self) -> None:
        """``BotRunner.close``: stop every driver and give up their leases."""
        await self.runner.close()


def install(rooms: RoomService, strategies: Strategies, settings: Settings) -> BotsInRooms:
    """The bots of ``rooms``, to pass to it at its construction as
    ``RoomService(bots=lambda rooms: install(rooms, strategies, settings))``: bot seats count
    as present, away players are taken over after ``settings.bot_takeover_seconds``, and
    moves wait ``settings.bot_delay_min``..``bot_delay_max`` seconds; the app ``start``s and
    ``close``s them (the service keeps them as ``RoomService.bots``)."""
    from app.rooms.bots.control import BotControl
    from app.rooms.bots.lease import make_lease
    from app.rooms.bots.runner import BotRunner

    low = min(settings.bot_delay_min, settings.bot_delay_max)
    runner = BotRunner(rooms, strategies, make_lease(settings.broadcast_url),
                       delay=(low, max(settings.bot_delay_min, settings.bot_delay_max)))
    return BotsInRooms(BotControl(timedelta(seconds=settings.bot_takeover_seconds)), runner)
