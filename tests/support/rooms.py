"""Driving the room service directly (no sockets), as a page would: every message carries
the basis of the state the page shows (``app.rooms.rules.page_basis``)."""

from __future__ import annotations

from typing import Any

from app.rooms.rules import page_basis
from app.rooms.service import Outcome, RoomService


async def act_as(service: RoomService, code: str, player_id: str,
                 message: dict[str, Any]) -> Outcome:
    """Apply ``message`` for ``player_id`` in room ``code`` with the basis of the room as the
    database has it now (fields in ``message`` override it, to send a stale one)."""
    state = await service.current(code)
    assert state is not None, code
    return await service.act(code, player_id, {**page_basis(state), **message})
