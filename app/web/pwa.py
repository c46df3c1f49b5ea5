"""The installable web app: ``GET /manifest.webmanifest`` (name, icons, colours, start page, in
the visitor's language) and ``GET /sw.js``, the service worker at the root scope
(``static/js/sw.js``: shows push notifications, opens the room a notification names)."""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import FileResponse, JSONResponse, Response

from app.i18n import current_language
from app.i18n import gettext as _
from app.settings import ROOT

router = APIRouter()
SERVICE_WORKER = ROOT / "static" / "js" / "sw.js"


@router.get("/manifest.webmanifest", name="manifest", include_in_schema=False)
async def manifest(request: Request) -> Response:
    """The web app manifest (application/manifest+json)."""
    icon = str(request.url_for("static", path="icons/icon-192.png"))
    large = str(request.url_for("static", path="icons/icon-512.png"))
    maskable = str(request.url_for("static", path="icons/maskable-512.png"))
    body = {
        "id": "/", "name": "Knobel", "short_name": "Knobel", "lang": current_language(),
        "description": _("Knister, Kniffel and Knikkers with friends"),
        "start_url": "/", "scope": "/", "display": "standalone",
        "background_color": "#ffffff", "theme_color": "#c0392b",
        "icons": [
            {"src": icon, "sizes": "192x192", "type": "image/png", "purpose": "any"},
            {"src": large, "sizes": "512x512", "type": "image/png", "purpose": "any"},
            {"src": maskable, "sizes": "512x512", "type": "image/png", "purpose": "maskable"},
        ],
    }
    return JSONResponse(body, media_type="application/manifest+json",
                        headers={"Cache-Control": "no-cache"})


@router.get("/sw.js", name="service_worker", include_in_schema=False)
async def service_worker() -> Response:
    """The service worker script, at the root so its scope is the whole site."""
    return FileResponse(SERVICE_WORKER, media_type="text/javascript",
                        headers={"Cache-Control": "no-cache"})
