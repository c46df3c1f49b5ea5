"""Routes of a player's devices (docs/architecture.md, "Your name on every device"):

- ``GET /devices``: the devices signed in as the visitor (this one registered and marked),
  each with "Sign out"; "Use on another device" (``[data-link-device]``);
- ``POST /devices/link``: a one-time code (and its QR and link) valid 10 minutes;
- ``GET /link/<code>``: who the code signs in as, with a button; ``POST`` the same path signs
  this device in (404 unknown, 410 expired or used; rate-limited per address);
- ``GET /link?code=...``: a typed code, on to ``/link/<code>``;
- ``POST /devices/<id>/revoke``: sign one of the visitor's devices out (404 for another's).
"""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, HTTPException, Query, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response

from app.players import devices, links, passkeys
from app.players.devices import SESSION_DEVICE_KEY, device_label, is_device_id, new_device_id
from app.players.service import get_player
from app.web.deps import SESSION_PLAYER_KEY, CurrentPlayer, GuestId, SessionDep
from app.web.qr import qr_svg
from app.web.templating import templates

router = APIRouter()


def _device(request: Request) -> str:
    """This browser's device id (made now when its session has none)."""
    device = request.session.get(SESSION_DEVICE_KEY)
    if not is_device_id(device):
        device = request.session[SESSION_DEVICE_KEY] = new_device_id()
    return str(device)


async def _page(request: Request, session: SessionDep, guest_id: str, player: object,
                **extra: object) -> Response:
    now = request.app.state.clock()
    current = _device(request)
    await devices.register(session, current, guest_id,
                           device_label(request.headers.get("user-agent", "")), now)
    return templates.TemplateResponse(request, "players/devices.html", {
        "player": player, "devices": await devices.listed(session, guest_id),
        "passkeys": await passkeys.of_player(session, guest_id), "current": current, **extra})


@router.get("/devices", response_class=HTMLResponse, name="devices")
async def devices_page(request: Request, session: SessionDep, guest_id: GuestId,
                       player: CurrentPlayer) -> Response:
    """The visitor's devices (this one registered now)."""
    return await _page(request, session, guest_id, player)


@router.post("/devices/link", response_class=HTMLResponse, name="device_link")
async def device_link(request: Request, session: SessionDep, guest_id: GuestId,
                      player: CurrentPlayer) -> Response:
    """A new one-time code for this player, shown with its QR code and link."""
    request.app.state.limits.hit("link", request)
    code, expires = await links.create(session, guest_id, request.app.state.clock())
    url = str(request.url_for("link", code=code))
    return await _page(request, session, guest_id, player, code=code, link=url,
                       qr=qr_svg(url), minutes=int(links.VALID.total_seconds() // 60))


@router.get("/link", name="link_typed")
async def link_typed(code: Annotated[str, Query(max_length=40)] = "") -> Response:
    """A code typed on the devices page: on to its page."""
    cleaned = links.normalise(code)
    if not cleaned:
        return RedirectResponse("/devices", status_code=303)
    return RedirectResponse(f"/link/{cleaned}", status_code=303)


@router.get("/link/{code}", response_class=HTMLResponse, name="link")
async def link_page(request: Request, code: str, session: SessionDep, guest_id: GuestId,
                    player: CurrentPlayer) -> Response:
    """Who ``code`` signs this device in as, and a button to do it (errors: see module)."""
    request.app.state.limits.hit("link", request)
    if len(code) > 40:
        raise HTTPException(404, detail="no such code")
    owner = await links.peek(session, code, request.app.state.clock())
    who = await get_player(session, owner)
    return templates.TemplateResponse(request, "players/link.html", {
        "player": player, "code": links.normalise(code), "who": who,
        "same": owner == guest_id})


@router.post("/link/{code}", name="link_redeem")
async def link_redeem(request: Request, code: str, session: SessionDep) -> Response:
    """Sign this device in as the player ``code`` was made by (once)."""
    request.app.state.limits.hit("link", request)
    if len(code) > 40:
        raise HTTPException(404, detail="no such code")
    now = request.app.state.clock()
    owner = await links.redeem(session, code, now)
    request.session.clear()
    request.session[SESSION_PLAYER_KEY] = owner
    device = request.session[SESSION_DEVICE_KEY] = new_device_id()
    await devices.register(session, device, owner,
                           device_label(request.headers.get("user-agent", "")), now)
    return RedirectResponse("/", status_code=303)


@router.post("/devices/{device_id}/revoke", name="device_revoke")
async def device_revoke(request: Request, device_id: str, session: SessionDep,
                        guest_id: GuestId) -> Response:
    """Sign ``device_id`` out (one of the visitor's devices; 404 otherwise). Signing out
    this device starts a new guest here."""
    if not is_device_id(device_id) or not await devices.revoke(
            session, guest_id, device_id, request.app.state.clock()):
        raise HTTPException(404, detail="no such device of yours")
    request.app.state.revoked_devices.add(device_id)
    if device_id == request.session.get(SESSION_DEVICE_KEY):
        request.session.clear()
        return RedirectResponse("/", status_code=303)
    return RedirectResponse("/devices", status_code=303)
