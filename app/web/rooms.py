"""Room pages: create a room, open its link, take a seat, watch; a JSON view of the state."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from typing import Annotated
from urllib.parse import quote

from fastapi import APIRouter, BackgroundTasks, Body, Depends, Form, HTTPException, Request
from fastapi.responses import (
    HTMLResponse,
    JSONResponse,
    RedirectResponse,
    Response,
    StreamingResponse,
)
from sqlalchemy import literal, select

from app.errors import KnobelError
from app.groups.rooms import check_group, open_for_group
from app.i18n import current_language
from app.i18n import gettext as _
from app.players.service import get_player
from app.rooms.codes import is_code
from app.rooms.games import GAMES
from app.rooms.pace import DEADLINE_HOURS, DEFAULT_DEADLINE_HOURS, PACES
from app.rooms.room_actions import was_removed
from app.rooms.rules import ranking
from app.rooms.state import RoomState
from app.web.deps import (
    CurrentPlayer,
    GuestId,
    NameField,
    ReviewsDep,
    TalkDep,
    get_db,
    get_hub,
    get_parts,
    get_rooms,
    guest_id_from_session,
    require_test_routes,
)
from app.web.pages import SOLO_GAMES, home_context, seat_name
from app.web.qr import qr_svg
from app.web.room_view import live_context
from app.web.talk_view import TalkRenderer
from app.web.templating import templates

router = APIRouter()


async def _lookup(request: Request, code: str) -> RoomState | None:
    """The room ``code``, or None; unknown codes count against the client's miss limit so
    codes cannot be enumerated cheaply (429 once over it)."""
    limits = request.app.state.limits
    if limits.blocked("room_miss", request):
        raise HTTPException(429, detail="too many requests")
    state = await get_rooms(request).current(code) if is_code(code) else None
    if state is None:
        limits.hit("room_miss", request)
    return state


async def _room_or_404(request: Request, code: str) -> RoomState:
    state = await _lookup(request, code)
    if state is None:
        raise HTTPException(404, detail="unknown room")
    return state


def _gone(request: Request, player, reason: str, message: str, state: RoomState | None = None,
          status: int = 200) -> Response:
    game = state.game if state is not None else None
    final = ranking(game.totals, game.left) if game and game.status == "finished" else []
    return templates.TemplateResponse(
        request, "rooms/gone.html",
        {"player": player, "reason": reason, "message": message, "room": state,
         "ranking": final},
        status_code=status,
    )


async def refused_page(request: Request, exc: KnobelError) -> Response:
    """The browser's answer to a refused room request (``app.web.errors``): the room's "why
    not" page (``rooms/gone.html``) with the reason and the error's status."""
    code = request.path_params.get("code", "")
    state = await get_rooms(request).snapshot(code) if is_code(code) else None
    async with get_db(request).sessionmaker() as session:
        player = await get_player(session, guest_id_from_session(request.session))
    return _gone(request, player, exc.code, exc.message, state, status=exc.status)


@router.get("/rooms/new", response_class=HTMLResponse, name="new_room_form")
async def new_room_form(request: Request, player: CurrentPlayer, group: str = "") -> Response:
    """The new-room form (also on the home page); ``group``: open the room for that group."""
    return templates.TemplateResponse(request, "rooms/new.html",
                                      {"player": player, "games": list(GAMES),
                                       "group_code": group[:32]})


DEFAULT_GAME = next(iter(GAMES))  # the registry's first game


@router.post("/rooms", name="create_room")
async def create_room(
    request: Request,
    player: CurrentPlayer,
    guest_id: GuestId,
    game: Annotated[str, Form(max_length=16)] = DEFAULT_GAME,
    name: NameField = "",
    group: Annotated[str, Form(max_length=32)] = "",
    pace: Annotated[str, Form(max_length=8)] = "live",
    turn_deadline_hours: Annotated[str, Form(max_length=8)] = str(DEFAULT_DEADLINE_HOURS),
):
    """Create a room of ``game`` hosted by the visitor (seated as ``name``) and open it,
    played at ``pace`` (``live`` or ``turns``, with ``turn_deadline_hours`` 1, 12, 24 or
    72: ``app.rooms.pace``); ``group``: a group's code the room is played for (the visitor
    must be a member of it, else 404: ``app.groups.rooms``). A bad field re-shows the form
    with the reason (422)."""
    if group:
        await check_group(get_db(request), group, guest_id)  # GroupError: 404
    cleaned, error = seat_name(name, player)
    hours = int(turn_deadline_hours) if turn_deadline_hours.strip().isdigit() else 0
    if game not in GAMES:
        error = _("Unknown game.")
    elif pace not in PACES or hours not in DEADLINE_HOURS:
        error = _("Choose a pace and a turn deadline from the list.")
    elif pace == "turns" and not GAMES[game].turn_based:
        error = _("This game is played live only.")
    if error:
        return templates.TemplateResponse(
            request, "rooms/new.html",
            {"player": player, "games": list(GAMES), "error": error, "value": name,
             "game": game, "group_code": group, "pace": pace, "deadline": hours,
             "page_url": f"/rooms/new?group={quote(group)}" if group else "/rooms/new"},
            status_code=422)
    request.app.state.limits.hit("create_room", request)
    options = ({"pace": pace, "turn_deadline_hours": hours}
               if pace != "live" or hours != DEFAULT_DEADLINE_HOURS else None)
    code = await get_rooms(request).create_room(guest_id, cleaned, game, options)
    if group:
        await open_for_group(get_db(request), group, code, guest_id)
    return RedirectResponse(f"/r/{code}", status_code=303)


@router.post("/play-alone", name="play_alone")
async def play_alone(
    request: Request,
    player: CurrentPlayer,
    guest_id: GuestId,
    game: Annotated[str, Form(max_length=16)] = "",
    name: NameField = "",
):
    """A room of ``game`` (by default the first of ``SOLO_GAMES``) for the visitor alone
    (seated as ``name``), hints on, started at once; the room page follows. A bad game or
    name re-shows the home page's form (422)."""
    game = game or SOLO_GAMES[0]
    cleaned, error = seat_name(name, player)
    if game not in SOLO_GAMES:
        error = _("Unknown game.")
    if error:
        return templates.TemplateResponse(
            request, "home.html",
            home_context(player, solo_error=error, solo_value=name), status_code=422)
    request.app.state.limits.hit("create_room", request)
    rooms = get_rooms(request)
    code = await rooms.create_room(guest_id, cleaned, game, {"hints": "true"}, solo=True)
    await rooms.start_now(code, guest_id)
    return RedirectResponse(f"/r/{code}", status_code=303)


@router.get("/r/{code}", response_class=HTMLResponse, name="room_page")
async def room_page(request: Request, code: str, player: CurrentPlayer, guest_id: GuestId,
                    reviews: ReviewsDep, talk: TalkDep, background: BackgroundTasks,
                    watch: bool = False, join: bool = False) -> Response:
    """The room: for a seated player the table; otherwise a way in (take a seat or watch),
    or the reason the link no longer works. For a game with hints and an analysis, the
    strategy table it needs starts building (after the response) if it is not there yet."""
    if (state := await _lookup(request, code)) is None:
        return _gone(request, player, "unknown", _("This room does not exist."), status=404)
    if state.plugin.review is not None:
        background.add_task(reviews.ready, state.kind, state.options)
    seat = state.seat_of(guest_id)
    if seat is None and not watch and not was_removed(state, guest_id):  # removed: watches
        if state.options.get("solo"):
            return _gone(request, player, "solo", _("This is a game for one player."), state)
        if state.is_full:
            return _gone(request, player, "full", _("This room is full."), state)
        if state.status == "playing":
            return _gone(request, player, "running", _("The game has already started."), state)
        if state.status == "finished" and not join:
            return _gone(request, player, "finished", _("This game is over."), state)
        return templates.TemplateResponse(
            request, "rooms/join.html",
            {"player": player, "room": state, "value": (player.name or "") if player else ""})
    share_url = str(request.url_for("room_page", code=code))
    hub = get_hub(request)
    context = live_context(state, guest_id, hub.online(code) | {guest_id},
                           get_parts(request))
    lines = talk.lines(code)
    if lines is None:
        lines = await talk.load(code)
    context.update({
        "player": player,
        "share_url": share_url,
        "qr_svg": qr_svg(share_url),
        "talk_html": TalkRenderer(get_parts(request)).html(state, lines, guest_id,
                                                           current_language()),
    })
    return templates.TemplateResponse(request, "rooms/room.html", context)


@router.post("/r/{code}/join", name="join_room")
async def join_room(request: Request, code: str, player: CurrentPlayer, guest_id: GuestId,
                    name: NameField = ""):
    """Take a seat as ``name``; a bad name or a closed room says why (4xx)."""
    state = await _room_or_404(request, code)
    request.app.state.limits.hit("join", request)
    cleaned, error = seat_name(name, None)
    if error:
        return templates.TemplateResponse(
            request, "rooms/join.html",
            {"player": player, "room": state, "value": name, "error": error}, status_code=422)
    await get_rooms(request).join(code, guest_id, cleaned)  # RoomError: refused_page
    return RedirectResponse(f"/r/{code}", status_code=303)


@router.get("/r/{code}/state.json", name="room_state")
async def room_state(request: Request, code: str) -> JSONResponse:
    """The public state of a room: seats, games, and for Knister every sheet and roll.

    Nothing secret is in it (no player ids, no future dice: dice are drawn when rolled).
    """
    state = await _room_or_404(request, code)
    game = state.game
    body = {
        "code": state.code, "game": state.kind, "status": state.status,
        "version": state.version, "options": state.options,
        "host_seat": state.host_seat.id if state.host_seat else None,
        "seats": [{"id": s.id, "name": s.name, "label": s.label, "position": s.position,
                   "status": s.status, "ready": s.ready, "table_seat": s.table_seat}
                  for s in state.seats],
        "games": [{"number": g.number, "status": g.status, "seat_ids": g.seat_ids,
                   "totals": {str(k): v for k, v in g.totals.items()},
                   "records": g.records} for g in state.games],
        "current": state.plugin.public(state.game_state) if game and state.game_state else None,
    }
    return JSONResponse(body)


@router.post("/_test/rooms/{code}/dice", include_in_schema=False,
             dependencies=[Depends(require_test_routes)])
async def load_dice(request: Request, code: str, faces: Annotated[list[int], Body(embed=True)]):
    """Test settings only (``Settings.test_routes``, else 404): queue the faces the next rolls
    of room ``code`` will show."""
    await _room_or_404(request, code)
    try:
        request.app.state.dice.load(code, faces)
    except ValueError as exc:
        raise HTTPException(400, detail=str(exc)) from exc
    return {"queued": len(faces)}


@router.post("/_test/rooms/{code}/finish", include_in_schema=False,
             dependencies=[Depends(require_test_routes)])
async def finish_game(request: Request, code: str):
    """Test settings only (``Settings.test_routes``, else 404): play the running game of room
    ``code`` to its end as the server plays for away players (``RoomService.play_out``)."""
    await _room_or_404(request, code)
    version = await request.app.state.rooms.play_out(code)  # RoomError: the one handler
    return {"version": version}


@router.post("/_test/hold-connection", include_in_schema=False,
             dependencies=[Depends(require_test_routes)])
async def hold_connection(request: Request, seconds: float = 1.0) -> StreamingResponse:
    """Test settings only (``Settings.test_routes``, else 404): keep one pooled database
    connection in use for ``seconds`` (at most 10), as a long request would. The JSON answer
    ``{"held": seconds}`` is streamed: its first bytes once the connection is taken (a test
    waits for them before it crowds the pool), the rest once it is given back."""
    engine = get_db(request).engine

    async def body() -> AsyncIterator[bytes]:
        async with engine.connect() as conn:
            await conn.execute(select(literal(1)))
            yield b'{"held": '
            await asyncio.sleep(min(max(seconds, 0.0), 10.0))
        yield json.dumps(seconds).encode() + b"}"
    return StreamingResponse(body(), media_type="application/json")


@router.post("/_test/clock", include_in_schema=False,
             dependencies=[Depends(require_test_routes)])
async def advance_clock(request: Request,
                        advance_seconds: Annotated[float, Body(embed=True, ge=0,
                                                               le=366 * 86400)]):
    """Test settings only (``Settings.test_routes``, else 404): move the server's clock
    (``app.state.clock``: device-link codes, and deadlines as they move onto it) on by
    ``advance_seconds``; answers the clock's time."""
    clock = request.app.state.clock
    clock.advance(advance_seconds)
    request.app.state.scheduler.wake()  # deadlines and reminders now due are taken at once
    return {"now": clock().isoformat()}
