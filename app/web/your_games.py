"""``GET /games``, "Your games": the player's rooms where it is their turn (soonest deadline
first), their other unfinished rooms, the ones finished lately (``app.rooms.your_games``),
and the switch for push notifications when it is their turn (``static/js/push.js``)."""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, JSONResponse, Response

from app.players.service import get_player
from app.rooms.your_games import TurnCounts, YourGames, your_games
from app.web.deps import CurrentPlayer, DbDep, GuestId
from app.web.templating import templates, your_turn_count

router = APIRouter()


@router.get("/games", response_class=HTMLResponse, name="your_games")
async def your_games_page(request: Request, guest_id: GuestId, db: DbDep) -> Response:
    """The page; a guest without a profile (no name yet) has no rooms and sees the way to
    open one. Three queries in one session (the player, their rooms, the names at those
    tables): the header's count on this page is the list's own, not read again (and kept
    for the next pages: ``TurnCounts``)."""
    now = request.app.state.clock()
    games = YourGames([], [], [])
    async with db.sessionmaker() as session:
        player = await get_player(session, guest_id)
        if player is not None:
            games = await your_games(session, guest_id, now)
    counts: TurnCounts = request.app.state.turn_counts
    counts.put(guest_id, len(games.your_turn))
    request.state.your_turn_count = len(games.your_turn)
    return templates.TemplateResponse(request, "your_games.html", {
        "player": player, "games": games, "now": now})


@router.get("/games/count", name="your_turn_count")
async def your_turn_count_now(request: Request, player: CurrentPlayer) -> JSONResponse:
    """``{"count": n}``: how many games wait for the player now (the header's badge, kept a
    few seconds per player: ``TurnCounts``); ``{"count": null}`` for a guest without a name.
    ``static/js/badge.js`` asks for it while a page without a room socket stays open."""
    return JSONResponse({"count": your_turn_count(request)},
                        headers={"Cache-Control": "no-store"})
