"""Site pages: home, the name page, the language switch, "coming soon" pages."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Form, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response

from app import i18n
from app.i18n import gettext as _
from app.players.names import InvalidName, clean_name
from app.players.service import save_name
from app.rooms.games import GAMES
from app.rooms.listing import rooms_of
from app.store.models import Player
from app.web.deps import CurrentPlayer, GuestId, NameField, SessionDep
from app.web.form_urls import name_page
from app.web.safety import safe_next
from app.web.templating import templates

router = APIRouter()

ONE_YEAR = 365 * 24 * 3600


def name_error_message(code: str) -> str:
    """The visitor-facing message for an ``InvalidName`` code, in the current language."""
    return {
        "empty": _("Please enter a name."),
        "too_long": _("A name can be at most 24 characters long."),
        "control": _("A name cannot contain control characters."),
    }.get(code, _("This name cannot be used."))


def seat_name(name: str, player: Player | None) -> tuple[str, str | None]:
    """The name a form seats its visitor under: ``name`` as typed, else the guest's saved
    name, cleaned (``clean_name``). Returns ``(cleaned, None)``, or ``("", message)`` with
    the visitor-facing reason (``name_error_message``) for a name that cannot be used."""
    try:
        return clean_name(name or ((player.name or "") if player else "")), None
    except InvalidName as exc:
        return "", name_error_message(exc.code)


SOLO_GAMES = [kind for kind, plugin in GAMES.items() if plugin.solo_practice]
"""The games offered to play alone, with hints and the analysis (docs/rules.md, "Solo
practice"), in the registry's order."""


def home_context(player: Player | None, **extra: object) -> dict[str, object]:
    """What the home page's template needs (``player``, the games, the solo games), plus
    ``extra`` (a form's error and value when the page is shown again with it)."""
    return {"player": player, "games": list(GAMES), "solo_games": SOLO_GAMES, **extra}


@router.get("/", response_class=HTMLResponse, name="home")
async def home(request: Request, player: CurrentPlayer, session: SessionDep,
               guest_id: GuestId) -> Response:
    """The home page: the guest's rooms that are still open, new room, play alone, Knikkers,
    leaderboards, your games."""
    return templates.TemplateResponse(request, "home.html", home_context(
        player, my_rooms=await rooms_of(session, guest_id), now=request.app.state.clock()))


@router.get("/name", response_class=HTMLResponse, name="name_form")
async def name_form(request: Request, player: CurrentPlayer, next: str = "/") -> Response:
    """The form where a guest picks a display name."""
    return templates.TemplateResponse(
        request,
        "name.html",
        {"player": player, "next": safe_next(next), "value": (player.name or "") if player else ""},
    )


@router.post("/name", name="name_save")
async def name_save(
    request: Request,
    session: SessionDep,
    guest_id: GuestId,
    name: NameField = "",
    next: Annotated[str, Form(max_length=500)] = "/",
):
    """Save the guest's display name; a bad name re-shows the form with a message (422)."""
    try:
        cleaned = clean_name(name)
    except InvalidName as exc:
        return templates.TemplateResponse(
            request,
            "name.html",
            {"player": None, "next": safe_next(next), "value": name,
             "error": name_error_message(exc.code), "page_url": name_page(safe_next(next))},
            status_code=422,
        )
    await save_name(session, guest_id, cleaned)
    return RedirectResponse(safe_next(next), status_code=303)


@router.post("/lang", name="set_language")
async def set_language(
    lang: Annotated[str, Form(max_length=8)], next: Annotated[str, Form(max_length=500)] = "/"
):
    """Switch the UI language and remember it in a cookie; unknown codes get 400."""
    if lang not in i18n.LANGUAGES:
        return HTMLResponse(_("Unknown language."), status_code=400)
    response = RedirectResponse(safe_next(next), status_code=303)
    response.set_cookie(i18n.LANG_COOKIE, lang, max_age=ONE_YEAR, samesite="lax", httponly=True)
    return response


@router.get("/soon/{feature}", response_class=HTMLResponse, name="coming_soon")
async def coming_soon(request: Request, feature: str, player: CurrentPlayer) -> Response:
    """A placeholder page for a part of the product that is still being built."""
    return templates.TemplateResponse(request, "soon.html", {"player": player})
