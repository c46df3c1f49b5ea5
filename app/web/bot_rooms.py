"""The home page's "Play alone" against bots: a room with the visitor and 1-3 bots, started
at once (``app.rooms.bots.solo``; docs/rules.md, "Bots")."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Form, Request
from fastapi.responses import RedirectResponse, Response

from app.i18n import gettext as _
from app.rooms.bots.identity import GAMES as BOT_GAMES
from app.rooms.bots.identity import LEVELS
from app.rooms.bots.solo import MAX_BOTS, start_against_bots
from app.web.deps import CurrentPlayer, GuestId, NameField, get_rooms
from app.web.pages import home_context, seat_name
from app.web.templating import templates

router = APIRouter()


@router.post("/rooms/bots", name="play_bots")
async def play_bots(
    request: Request,
    player: CurrentPlayer,
    guest_id: GuestId,
    game: Annotated[str, Form(max_length=16)] = "",
    bots: Annotated[str, Form(max_length=4)] = "3",
    level: Annotated[str, Form(max_length=16)] = "strong",
    name: NameField = "",
) -> Response:
    """Create and start a game of ``game`` (by default the first the bots play) against
    ``bots`` (1-3) bots of ``level``; a bad field shows the home page again with the reason
    (422)."""
    game = game or BOT_GAMES[0]
    count = int(bots) if bots.isdigit() else 0
    cleaned, error = seat_name(name, player)
    if game not in BOT_GAMES:
        error = _("Unknown game.")
    elif not 1 <= count <= MAX_BOTS or level not in LEVELS:
        error = _("Choose one to three bots.")
    if error:
        return templates.TemplateResponse(
            request, "home.html",
            home_context(player, bots_error=error, value=name), status_code=422)
    request.app.state.limits.hit("create_room", request)
    code = await start_against_bots(get_rooms(request), guest_id, cleaned, game, count, level)
    return RedirectResponse(f"/r/{code}", status_code=303)
