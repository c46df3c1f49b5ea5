"""A form's address opened as a page: ``GET`` on a URL that only takes a form's ``POST``
answers 303 to the page the form is on.

A form that fails shows its page again with the reason at the form's own address (``POST
/r/<code>/join`` for a full room or a bad name, ``POST /rooms`` for the new-room form's
errors): reloading it, sharing it or a phone restoring the tab then asked for that address
with ``GET`` and got "405: not allowed here" (a fresh user's finding). Each such address now
leads back to its form.
"""

from __future__ import annotations

from urllib.parse import quote

from fastapi import APIRouter
from fastapi.responses import RedirectResponse
from starlette.requests import Request

router = APIRouter()

FORMS: dict[str, str] = {
    "/r/{code}/join": "/r/{code}",
    "/rooms": "/rooms/new",
    "/play-alone": "/",
    "/rooms/bots": "/",
    "/groups/{code}/rename": "/groups/{code}",
    "/groups/{code}/invite": "/groups/{code}",
    "/groups/{code}/leave": "/groups/{code}",
    "/groups/{code}/remove": "/groups/{code}",
    "/groups/{code}/admin": "/groups/{code}",
    "/groups/{code}/night": "/groups/{code}",
    "/groups/{code}/night/end": "/groups/{code}",
}
"""A form's ``POST`` address -> the page its form is on (``{code}`` carried over)."""


SAME_PAGE = frozenset({"/name", "/groups", "/groups/join/{token}"})
"""Forms whose ``POST`` address is also their page's (``GET`` shows the form)."""


def page_address(request: Request) -> str:
    """The address of the page ``request`` shows, as its language buttons and the browser's
    address bar should have it: the request's own path and query for a ``GET``; for a form
    shown again after a refused ``POST`` (a bad name, a full room, a removed player), the
    page the form is on (``FORMS``: ``/r/<code>/join`` -> ``/r/<code>``; ``/name`` keeps
    its ``next``), so switching the language or reloading never goes back to the ``POST``
    address (a fresh-user trial: a refused join left the browser on ``/r/<code>/join``).
    ``base.html`` has the browser put it in the address bar (``history.replaceState``,
    ``static/js/app.js``)."""
    if request.method != "POST":
        query = request.url.query
        return request.url.path + (f"?{query}" if query else "")
    route = request.scope.get("route")
    template = getattr(route, "path", "")
    params = {k: str(v) for k, v in request.path_params.items()}
    if template in FORMS:
        page = FORMS[template]
        return page.replace("{code}", params.get("code", ""))
    if template in SAME_PAGE:
        return request.url.path
    return ""


def name_page(next_page: str) -> str:
    """The name page's own address with its ``next`` (where it goes once saved)."""
    return "/name" if next_page == "/" else f"/name?next={quote(next_page, safe='/')}"


def _back_to(page: str):
    async def back(code: str = "") -> RedirectResponse:
        """Back to the form's page (303)."""
        return RedirectResponse(page.replace("{code}", code), status_code=303)
    return back


for _form, _page in FORMS.items():
    router.add_api_route(_form, _back_to(_page), methods=["GET"], include_in_schema=False,
                         name=f"form_page:{_form}")
