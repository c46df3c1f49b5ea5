"""HTML error pages for browsers; JSON for everything else."""

from __future__ import annotations

from fastapi import FastAPI, Request
from fastapi.exception_handlers import http_exception_handler
from starlette.exceptions import HTTPException as StarletteHTTPException

from app.i18n import gettext as _
from app.web.templating import templates


def install_error_pages(app: FastAPI) -> None:
    """Render 4xx/5xx as a translated HTML page when the client asks for HTML."""

    @app.exception_handler(StarletteHTTPException)
    async def _html_errors(request: Request, exc: StarletteHTTPException):
        if "text/html" not in request.headers.get("accept", ""):
            return await http_exception_handler(request, exc)
        message = {
            404: _("This page does not exist."),
            405: _("That is not allowed here."),
        }.get(exc.status_code, _("Something went wrong."))
        return templates.TemplateResponse(
            request,
            "error.html",
            {"status": exc.status_code, "message": message, "player": None},
            status_code=exc.status_code,
        )
