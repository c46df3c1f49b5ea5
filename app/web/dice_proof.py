"""Routes of dice anyone can check (docs/dice.md):

- ``GET /r/<code>/games/<n>.json``: the game's public record: the function's name, the
  commitment, the logged events and throws, and once the game is over its seed;
- ``GET /r/<code>/games/<n>/verify``: the page recomputing every throw from the revealed seed
  ("all N throws match", or which do not); before the end it shows the commitment only.

A game without a seed (real dice, a game whose dice are not drawn from one, or one from before
seeds) is 404 on both.
"""

from __future__ import annotations

from fastapi import APIRouter, HTTPException, Request
from fastapi.responses import HTMLResponse, JSONResponse, Response

from app.rooms.codes import is_code
from app.rooms.dice_check import DiceRecord, checkable, game_events, public_json, record
from app.rooms.state import GameInfo, RoomState
from app.web.deps import CurrentPlayer, RoomsDep, SessionDep
from app.web.ids import GameNumber
from app.web.templating import templates

router = APIRouter()


async def _checked(rooms: RoomsDep, session: SessionDep, code: str,
                   number: int) -> tuple[RoomState, GameInfo, DiceRecord]:
    """Room ``code``, its game ``number`` and that game's dice record; 404 for an unknown
    room or game, or a game without a seed."""
    state = await rooms.current(code) if is_code(code) else None
    if state is None:
        raise HTTPException(404, detail="unknown room")
    game = next((g for g in state.games if g.number == number), None)
    if game is None or not checkable(state.plugin, game):
        raise HTTPException(404, detail="no game with checkable dice")
    events = await game_events(session, game.id)
    return state, game, record(state.plugin, state.code, game, events)


@router.get("/r/{code}/games/{number:int}.json", name="game_dice_json")
async def game_json(code: str, number: GameNumber, rooms: RoomsDep,
                    session: SessionDep) -> JSONResponse:
    """Game ``number`` of room ``code`` as public JSON (``dice_check.public_json``): the seed
    only once the game is over."""
    state, game, dice = await _checked(rooms, session, code, number)
    return JSONResponse(public_json(state.code, game, dice))


@router.get("/r/{code}/games/{number:int}/verify", response_class=HTMLResponse,
            name="game_verify")
async def game_verify(request: Request, code: str, number: GameNumber, rooms: RoomsDep,
                      session: SessionDep, player: CurrentPlayer) -> Response:
    """The verify page of game ``number`` of room ``code``: every throw recomputed from the
    revealed seed and compared with the log (before the end: the commitment and how to check
    it afterwards)."""
    state, game, dice = await _checked(rooms, session, code, number)
    return templates.TemplateResponse(request, "rooms/verify.html", {
        "player": player, "room": state, "game": game, "dice": dice,
        "labels": {s.id: s.label for s in state.seats}})
