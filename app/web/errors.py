"""HTML error pages for browsers; JSON for everything else."""

from __future__ import annotations

from fastapi import FastAPI, Request
from fastapi.exception_handlers import (
    http_exception_handler,
    request_validation_exception_handler,
)
from fastapi.exceptions import RequestValidationError
from starlette.exceptions import HTTPException as StarletteHTTPException

from app.i18n import gettext as _
from app.web.templating import templates


def install_error_pages(app: FastAPI) -> None:
    """Render 4xx/5xx as a translated HTML page when the client asks for HTML; a request whose
    path or query does not parse (e.g. ``/knikkers/games/abc``) is a 404 page for a browser (400
    for a form it sent) and the usual 422 JSON for other clients."""

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


def _page(request: Request, status: int):
    """The translated error page for HTTP ``status``."""
    message = {
        404: _("This page does not exist."),
        405: _("That is not allowed here."),
    }.get(status, _("Something went wrong."))
    return templates.TemplateResponse(
        request,
        "error.html",
        {"status": status, "message": message, "player": None},
        status_code=status,
    )
