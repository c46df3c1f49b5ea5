"""Routes of push notifications (docs/architecture.md, "Push notifications"):

- ``GET /push/key``: the server's VAPID public key (``{"key": ...}``), for
  ``pushManager.subscribe``;
- ``POST /push/subscriptions``: store the browser's ``PushSubscription.toJSON()`` for the
  current player (201; 400 for a malformed one or an endpoint the server may not post to,
  409 for another player's, 413 beyond 4 KB);
- ``DELETE /push/subscriptions`` with ``{"endpoint": ...}``: remove the current player's
  (204; 404 when they have none such).
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, HTTPException, Request
from fastapi.responses import JSONResponse, Response

from app.i18n import current_language
from app.players.service import upsert_player
from app.push import store
from app.push.endpoints import BadSubscription, check_endpoint, check_keys
from app.push.keys import public_key
from app.web.deps import GuestId, SessionDep, SettingsDep
from app.web.json_body import json_object

router = APIRouter()
MAX_BODY = 4096  # bytes of a subscription's JSON


def _endpoint(data: dict[str, Any], request: Request, settings: Any) -> str:
    endpoint = data.get("endpoint")
    if not isinstance(endpoint, str):
        raise HTTPException(400, detail="endpoint: missing")
    try:
        return check_endpoint(endpoint, settings.push_host_list, settings.test_routes)
    except BadSubscription as error:
        raise HTTPException(400, detail=str(error)) from None


@router.get("/push/key", name="push_key")
async def push_key(request: Request) -> JSONResponse:
    """The VAPID public key browsers subscribe with (base64url)."""
    return JSONResponse({"key": public_key(request.app.state.vapid)})


@router.post("/push/subscriptions", name="push_subscribe", status_code=201)
async def push_subscribe(request: Request, guest_id: GuestId, session: SessionDep,
                         settings: SettingsDep) -> Response:
    """Store the current player's subscription (see the module's docstring for errors)."""
    request.app.state.limits.hit("push", request)
    data = await json_object(request, MAX_BODY, "subscription")
    endpoint = _endpoint(data, request, settings)
    keys = data.get("keys")
    if not isinstance(keys, dict):
        raise HTTPException(400, detail="keys: missing")
    try:
        check_keys(keys.get("p256dh"), keys.get("auth"))  # type: ignore[arg-type]
    except BadSubscription as error:
        raise HTTPException(400, detail=str(error)) from None
    await upsert_player(session, guest_id)
    try:
        await store.subscribe(session, guest_id, endpoint, keys["p256dh"], keys["auth"],
                              current_language())
    except store.TakenSubscription:
        raise HTTPException(409, detail="this subscription belongs to someone else") from None
    return JSONResponse({"ok": True}, status_code=201)


@router.delete("/push/subscriptions", name="push_unsubscribe")
async def push_unsubscribe(request: Request, guest_id: GuestId, session: SessionDep,
                           settings: SettingsDep) -> Response:
    """Remove the current player's subscription with the body's ``endpoint``."""
    data = await json_object(request, MAX_BODY, "subscription")
    endpoint = data.get("endpoint")
    if not isinstance(endpoint, str) or not endpoint:
        raise HTTPException(400, detail="endpoint: missing")
    if not await store.unsubscribe(session, guest_id, endpoint):
        raise HTTPException(404, detail="no such subscription of yours")
    return Response(status_code=204)
