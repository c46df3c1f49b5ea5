"""A form's address opened as a page: ``GET`` on a URL that only takes a form's ``POST``
answers 303 to the page the form is on.

A form that fails shows its page again with the reason at the form's own address (``POST
/r/<code>/join`` for a full room or a bad name, ``POST /rooms`` for the new-room form's
errors): reloading it, sharing it or a phone restoring the tab then asked for that address
with ``GET`` and got "405: not allowed here" (a fresh user's finding). Each such address now
leads back to its form.
"""

from __future__ import annotations

from fastapi import APIRouter
from fastapi.responses import RedirectResponse

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


def _back_to(page: str):
    async def back(code: str = "") -> RedirectResponse:
        """Back to the form's page (303)."""
        return RedirectResponse(page.replace("{code}", code), status_code=303)
    return back


for _form, _page in FORMS.items():
    router.add_api_route(_form, _back_to(_page), methods=["GET"], include_in_schema=False,
                         name=f"form_page:{_form}")
