"""Errors the room service reports to a client (HTTP 4xx or a WebSocket error message); all
derive from ``app.errors.KnobelError``."""

from __future__ import annotations

from app.rooms.games.base import ActionError


class RoomError(ActionError):
    """A refused room action (``code`` stable id, ``message`` gettext msgid, ``status`` HTTP)."""

    def __init__(self, code: str, message: str, status: int = 409) -> None:
        super().__init__(code, message, status)


class Conflict(Exception):
    """Another process changed the room first; reload and try again (never reported)."""
