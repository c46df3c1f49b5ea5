"""Routes of the guided first round (docs/rules.md, "Guided first round"):

- ``POST /learn``: a solo room of Knister or Kniffel with the ``guide`` option, started at
  once (the home page's "How to play");
- ``GET /r/<code>/guide``: the current step's explanation for the seated player (an htmx
  fragment the room page asks for after every update).
"""

from __future__ import annotations

from functools import partial
from typing import Annotated, Any

from fastapi import APIRouter, Form, HTTPException, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response

from app.i18n import gettext as _
from app.review.guide import ShownAdvice
from app.rooms.codes import is_code
from app.rooms.games import GAMES
from app.rooms.games.capabilities import GuideInput
from app.web.deps import (
    CurrentPlayer,
    GuestId,
    NameField,
    ReviewsDep,
    RoomsDep,
    StrategyDep,
)
from app.web.pages import seat_name
from app.web.templating import templates

router = APIRouter()
SHOWN: ShownAdvice[Any] = ShownAdvice()
"""The advice each guide showed (Kniffel hints per turn, Knister cells per roll), for the next
step's feedback (per process: a guided round is one player on one page; after a restart the
feedback on the step before is left out)."""


@router.post("/learn", name="learn")
async def learn(request: Request, player: CurrentPlayer, guest_id: GuestId, rooms: RoomsDep,
                game: Annotated[str, Form(max_length=16)] = "",
                name: NameField = "") -> Response:
    """Start a guided round of ``game`` (a kind whose plug-in has a ``guide``) for the visitor
    alone (seated as ``name``, their saved name, or "You"; no ``game``: the first game of
    the registry with a guide); 400 for another game."""
    game = game or next(kind for kind, plugin in GAMES.items() if plugin.guide is not None)
    guide = GAMES[game].guide if game in GAMES else None
    if guide is None:
        raise HTTPException(400, detail="no guided round for this game")
    cleaned, error = seat_name(name, player)
    if error:
        cleaned = _("You")
    request.app.state.limits.hit("create_room", request)
    code = await rooms.create_room(guest_id, cleaned, game, dict(guide.room_options) or None,
                                   solo=True, guide=True)
    await rooms.start_now(code, guest_id)
    return RedirectResponse(f"/r/{code}", status_code=303)


@router.get("/r/{code}/guide", response_class=HTMLResponse, name="room_guide")
async def room_guide(request: Request, code: str, rooms: RoomsDep, reviews: ReviewsDep,
                     strategy: StrategyDep, guest_id: GuestId) -> Response:
    """The guided round's current step for the seated player of a guided room (404 for a
    room without a guide, 403 for anyone not seated)."""
    state = await rooms.current(code) if is_code(code) else None
    guide = state.plugin.guide if state is not None else None
    if (state is None or guide is None or not state.options.get("guide")
            or state.game is None):
        raise HTTPException(404, detail="no guided round here")
    seat = state.seat_of(guest_id)
    if seat is None:
        raise HTTPException(403, detail="only the player gets the guide")
    game, game_state, review = state.game, state.game_state, state.plugin.review
    hint = None
    if review is not None and guide.wants_hint(game_state, seat.id):
        position = review.position(game_state, seat.id)
        if position is not None:
            hint = await reviews.hint(game.kind, game.options, position)
    step, shown = guide.step(GuideInput(
        game_state, seat.id, state.status == "playing", f"{game.id}.{seat.id}",
        state.last_seq, game.options, strategy.for_options, hint,
        partial(SHOWN.recall, code, seat.id)))
    if shown is not None:
        SHOWN.remember(code, seat.id, *shown)
    return templates.TemplateResponse(request, "review/_guide.html", {
        "step": step, "code": code, "version": state.version, "game": state.plugin.folder,
        "guide_template": guide.template})
