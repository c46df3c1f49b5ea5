"""Signing out revoked devices (docs/architecture.md, "Your name on every device"): an ASGI
middleware inside the session middleware that gives each player's browser a device id in its
signed session and, when another device of the player revoked it, starts a new guest session
on its next request or socket (the player's seats and history stay with the player)."""

from __future__ import annotations

from starlette.types import ASGIApp, Receive, Scope, Send

from app.players.devices import (
    SESSION_DEVICE_KEY,
    RevokedDevices,
    is_device_id,
    new_device_id,
)

SESSION_PLAYER_KEY = "pid"  # as app.web.deps names it


class DeviceMiddleware:
    """Checks the session's device id against ``revoked`` on every HTTP request and socket;
    adds a device id to a player's session that has none."""

    def __init__(self, app: ASGIApp, revoked: RevokedDevices) -> None:
        self.app = app
        self.revoked = revoked

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] in ("http", "websocket") and "session" in scope:
            session = scope["session"]
            device = session.get(SESSION_DEVICE_KEY)
            if is_device_id(device):
                if await self.revoked.is_revoked(device):
                    session.clear()  # a new guest from here on (deps make the player id)
                    session[SESSION_DEVICE_KEY] = new_device_id()
            elif SESSION_PLAYER_KEY in session:
                session[SESSION_DEVICE_KEY] = new_device_id()
        await self.app(scope, receive, send)
