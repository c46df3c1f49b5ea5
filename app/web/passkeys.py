"""Routes of passkeys (``app.players.passkeys``; docs/architecture.md, "Your name on every
device"), called by ``static/js/passkeys.js``:

- ``POST /passkeys/register/options`` then ``POST /passkeys/register`` (the browser's
  ``PublicKeyCredential.toJSON()``): add a passkey for the current player (201);
- ``POST /passkeys/signin/options`` then ``POST /passkeys/signin``: sign this browser in as
  the passkey's player (a new session and device id; rate-limited like link codes);
- ``POST /passkeys/<id>/remove``: remove one of the current player's passkeys (404 otherwise).

Refusals are 400 with ``{"error", "message"}``; a body over 16 KB is 413.
"""

from __future__ import annotations

import base64
from typing import Any

from fastapi import APIRouter, HTTPException, Request
from fastapi.responses import JSONResponse, RedirectResponse, Response

from app.i18n import gettext as _
from app.players import devices, passkeys
from app.players.devices import SESSION_DEVICE_KEY, device_label, new_device_id
from app.players.passkeys import PasskeyRefused
from app.players.service import get_player
from app.web.deps import SESSION_PLAYER_KEY, GuestId, SessionDep, SettingsDep
from app.web.json_body import json_object

router = APIRouter()
MAX_BODY = 16_384
REGISTER_KEY, SIGNIN_KEY = "pk_reg", "pk_auth"  # the ceremonies' challenges in the session


def _rp(request: Request, settings: Any) -> tuple[str, list[str]]:
    """The relying party id (this site's host) and the origins a ceremony may come from."""
    own = f"{request.url.scheme}://{request.url.netloc}"
    return request.url.hostname or "", [own, *sorted(settings.origins)]


def _challenge(request: Request, key: str) -> bytes:
    """The session's challenge of a ceremony, taken out (used once)."""
    value = request.session.pop(key, None)
    if not isinstance(value, str):
        raise PasskeyRefused("no_challenge")
    return base64.urlsafe_b64decode(value + "=" * (-len(value) % 4))


def _keep(request: Request, key: str, challenge: bytes) -> None:
    request.session[key] = base64.urlsafe_b64encode(challenge).rstrip(b"=").decode()


@router.post("/passkeys/register/options", name="passkey_register_options")
async def register_options(request: Request, guest_id: GuestId, session: SessionDep,
                           settings: SettingsDep) -> Response:
    """Options to create a passkey for the current player."""
    rp_id, _origins = _rp(request, settings)
    player = await get_player(session, guest_id)
    name = player.name if player is not None and player.name else _("Knobel player")
    existing = [p.id for p in await passkeys.of_player(session, guest_id)]
    options, challenge = passkeys.registration_options(rp_id, guest_id, name, existing)
    _keep(request, REGISTER_KEY, challenge)
    return Response(options, media_type="application/json")


@router.post("/passkeys/register", name="passkey_register", status_code=201)
async def register(request: Request, guest_id: GuestId, session: SessionDep,
                   settings: SettingsDep) -> Response:
    """Store the passkey the browser created (see the module's docstring)."""
    credential = await json_object(request, MAX_BODY, "credential")
    challenge = _challenge(request, REGISTER_KEY)
    rp_id, origins = _rp(request, settings)
    await passkeys.register(session, guest_id, credential, challenge, rp_id, origins,
                            device_label(request.headers.get("user-agent", "")),
                            request.app.state.clock())
    return JSONResponse({"ok": True}, status_code=201)


@router.post("/passkeys/signin/options", name="passkey_signin_options")
async def signin_options(request: Request, settings: SettingsDep) -> Response:
    """Options to sign in with any passkey of this site."""
    request.app.state.limits.hit("link", request)
    rp_id, _origins = _rp(request, settings)
    options, challenge = passkeys.authentication_options(rp_id)
    _keep(request, SIGNIN_KEY, challenge)
    return Response(options, media_type="application/json")


@router.post("/passkeys/signin", name="passkey_signin")
async def signin(request: Request, session: SessionDep, settings: SettingsDep) -> Response:
    """Sign this browser in as the player of the passkey it used."""
    request.app.state.limits.hit("link", request)
    credential = await json_object(request, MAX_BODY, "credential")
    challenge = _challenge(request, SIGNIN_KEY)
    rp_id, origins = _rp(request, settings)
    now = request.app.state.clock()
    player_id = await passkeys.sign_in(session, credential, challenge, rp_id, origins, now)
    request.session.clear()
    request.session[SESSION_PLAYER_KEY] = player_id
    device = request.session[SESSION_DEVICE_KEY] = new_device_id()
    await devices.register(session, device, player_id,
                           device_label(request.headers.get("user-agent", "")), now)
    return JSONResponse({"ok": True, "next": "/"})


@router.post("/passkeys/{passkey_id}/remove", name="passkey_remove")
async def remove(request: Request, passkey_id: str, guest_id: GuestId,
                 session: SessionDep) -> Response:
    """Remove one of the current player's passkeys."""
    if len(passkey_id) > 400 or not await passkeys.remove(session, guest_id, passkey_id):
        raise HTTPException(404, detail="no such passkey of yours")
    return RedirectResponse("/devices", status_code=303)
