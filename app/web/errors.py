"""How every HTTP error is reported: one exception handler per error type, installed once.

- ``app.errors.KnobelError`` (a refused action: rooms, games, Knikkers): JSON
  ``{"error": code, "message": translated reason}`` with the error's status for clients that
  ask for JSON; for browsers the page registered for the error's type (e.g. the Knikkers board
  with the refusal, a room's "why not" page), else the error page with the reason.
- A database pool that stays exhausted (``sqlalchemy.exc.TimeoutError``): 503 ``server_busy``
  with ``Retry-After``, reported like a refusal.
- ``HTTPException`` and unparsable paths or queries: a translated HTML page for browsers,
  FastAPI's JSON for everything else.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping

import structlog
from fastapi import FastAPI, Request
from fastapi.exception_handlers import (
    http_exception_handler,
    request_validation_exception_handler,
)
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from sqlalchemy.exc import TimeoutError as PoolTimeout
from starlette.exceptions import HTTPException as StarletteHTTPException

from app.errors import N_, KnobelError
from app.i18n import gettext as _
from app.i18n import use_language
from app.web.room_view import render_error
from app.web.templating import templates

log = structlog.get_logger("knobel.web")

SERVER_BUSY = KnobelError("server_busy", N_("The server is busy: please try again in a moment."),
                          503)
"""No database connection came free in time (``DB_POOL_TIMEOUT``): nothing was done."""

ErrorPage = Callable[[Request, KnobelError], Awaitable[Response]]
"""``page(request, error)``: the HTML answer to a browser whose request ``error`` refused."""


def wants_json(request: Request) -> bool:
    """True when the client asked for JSON (scripts and tests)."""
    return "application/json" in request.headers.get("accept", "")


def install_error_pages(app: FastAPI,
                        pages: Mapping[type[KnobelError], ErrorPage] | None = None) -> None:
    """Install the handlers. ``pages``: the browser page for each ``KnobelError`` subclass
    (the nearest registered base class of a raised error counts).

    Render 4xx/5xx as a translated HTML page when the client asks for HTML; a request whose
    path or query does not parse (e.g. ``/knikkers/games/abc``) is a 404 page for a browser (400
    for a form it sent) and the usual 422 JSON for other clients."""
    views = dict(pages or {})

    @app.exception_handler(KnobelError)
    async def _refused(request: Request, exc: KnobelError) -> Response:
        if wants_json(request):
            return JSONResponse({"error": exc.code, "message": exc.message},
                                status_code=exc.status)
        page = next((views[c] for c in type(exc).__mro__ if c in views), None)
        if page is not None:
            return await page(request, exc)
        return _page(request, exc.status, exc.message)

    @app.exception_handler(PoolTimeout)
    async def _busy(request: Request, exc: PoolTimeout) -> Response:
        # every pooled database connection stayed in use for DB_POOL_TIMEOUT seconds
        log.warning("database_busy", path=request.url.path)
        response = await _refused(request, SERVER_BUSY)
        response.headers["Retry-After"] = "2"
        return response

    @app.exception_handler(RequestValidationError)
    async def _html_validation(request: Request, exc: RequestValidationError):
        if "text/html" not in request.headers.get("accept", ""):
            return await request_validation_exception_handler(request, exc)
        return _page(request, 404 if request.method == "GET" else 400)

    @app.exception_handler(StarletteHTTPException)
    async def _html_errors(request: Request, exc: StarletteHTTPException):
        if "text/html" not in request.headers.get("accept", ""):
            return await http_exception_handler(request, exc)
        return _page(request, exc.status_code)


def _page(request: Request, status: int, message: str | None = None) -> Response:
    """The translated error page for HTTP ``status`` (``message``: the reason, translated)."""
    message = message or {
        404: _("This page does not exist."),
        405: _("That is not allowed here."),
    }.get(status, _("Something went wrong."))
    return templates.TemplateResponse(
        request,
        "error.html",
        {"status": status, "message": message, "player": None},
        status_code=status,
    )


def error_message(lang: str, error: KnobelError, action_id: str | None = None) -> str:
    """How a refusal is reported over the room WebSocket: the error fragment (see
    ``app.web.room_view.render_error``) with the reason in language ``lang``."""
    with use_language(lang):
        return render_error(error.code, error.message, action_id)
