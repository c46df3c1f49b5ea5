"""Routes of the guided first round (docs/rules.md, "Guided first round"):

- ``POST /learn``: a solo room of Knister or Kniffel with the ``guide`` option, started at
  once (the home page's "How to play");
- ``GET /r/<code>/guide``: the current step's explanation for the seated player (an htmx
  fragment the room page asks for after every update).
"""

from __future__ import annotations

import dataclasses
from typing import Annotated

from fastapi import APIRouter, Form, HTTPException, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response

from app.i18n import gettext as _
from app.review.guide import (
    KNIFFEL_TURNS,
    KNISTER_ROLLS,
    CellAdvice,
    ShownAdvice,
    box_feedback,
    cell_feedback,
    kniffel_step,
    knister_step,
)
from app.rooms.codes import is_code
from app.rooms.games.kniffel.hints import Hint
from app.rooms.games.knister.state import KnisterState
from app.web.deps import CurrentPlayer, GuestId, ReviewsDep, RoomsDep, StrategyDep
from app.web.pages import seat_name
from app.web.templating import templates

router = APIRouter()
SHOWN_HINTS: ShownAdvice[Hint] = ShownAdvice()
SHOWN_CELLS: ShownAdvice[CellAdvice] = ShownAdvice()
"""The advice the guide showed (Kniffel hints per turn, Knister cells per roll), for the next
step's feedback (per process: a guided round is one player on one page; after a restart the
feedback on the step before is left out)."""
LEARN_GAMES = {"knister": {}, "kniffel": {"hints": "true"}}
"""The games with a guided round, and the room options it starts with."""


@router.post("/learn", name="learn")
async def learn(request: Request, player: CurrentPlayer, guest_id: GuestId, rooms: RoomsDep,
                game: Annotated[str, Form(max_length=16)] = "knister",
                name: Annotated[str, Form(max_length=200)] = "") -> Response:
    """Start a guided round of ``game`` for the visitor alone (seated as ``name``, their saved
    name, or "You"); 400 for another game."""
    if game not in LEARN_GAMES:
        raise HTTPException(400, detail="no guided round for this game")
    cleaned, error = seat_name(name, player)
    if error:
        cleaned = _("You")
    request.app.state.limits.hit("create_room", request)
    code = await rooms.create_room(guest_id, cleaned, game, dict(LEARN_GAMES[game]) or None,
                                   solo=True, guide=True)
    await rooms.start_now(code, guest_id)
    return RedirectResponse(f"/r/{code}", status_code=303)


@router.get("/r/{code}/guide", response_class=HTMLResponse, name="room_guide")
async def room_guide(request: Request, code: str, rooms: RoomsDep, reviews: ReviewsDep,
                     strategy: StrategyDep, guest_id: GuestId) -> Response:
    """The guided round's current step for the seated player of a guided room (404 for a
    room without a guide, 403 for anyone not seated)."""
    state = await rooms.current(code) if is_code(code) else None
    if state is None or not state.options.get("guide") or state.game is None:
        raise HTTPException(404, detail="no guided round here")
    seat = state.seat_of(guest_id)
    if seat is None:
        raise HTTPException(403, detail="only the player gets the guide")
    game_state = state.game_state
    if isinstance(game_state, KnisterState):
        step = knister_step(state, seat.id, strategy.for_options)
        rolled = len(game_state.rolls)
        if step.phase == "place" and step.cell is not None and step.sum is not None:
            grid = game_state.sheets[seat.id].grid
            empty = frozenset((r, c) for r in range(5) for c in range(5) if grid[r][c] is None)
            advised = (step.cell[0] - 1, step.cell[1] - 1)
            SHOWN_CELLS.remember(code, seat.id, rolled, CellAdvice(step.sum, advised, empty))
        elif step.phase in ("roll", "done") and 1 <= rolled <= KNISTER_ROLLS:
            on_cell = cell_feedback(game_state, seat.id,
                                    SHOWN_CELLS.recall(code, seat.id, rolled))
            step = dataclasses.replace(step, feedback=on_cell)
    else:
        turn, card = game_state.turn, game_state.card(seat.id)
        found = None
        if turn.rolls and card is not None and game_state.current == seat.id:
            found = await reviews.hint(state.game.kind, state.game.options, card.copy(),
                                       turn.dice, turn.held, turn.rolls)
        step = kniffel_step(state, seat.id, found)
        if found is not None:
            SHOWN_HINTS.remember(code, seat.id, game_state.turn_no, found)
        before = game_state.turn_no - 1  # the turn whose box the player wrote last
        if step.phase in ("roll", "done") and 1 <= before <= KNIFFEL_TURNS:
            on_box = box_feedback(game_state, seat.id, SHOWN_HINTS.recall(code, seat.id, before))
            step = dataclasses.replace(step, feedback=on_box)
    return templates.TemplateResponse(request, "review/_guide.html",
                                      {"step": step, "code": code, "version": state.version})
