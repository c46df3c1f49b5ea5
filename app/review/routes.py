"""Routes of hints and game reviews (docs/rules.md, "Hints and game analysis"):

- ``GET /r/<code>/hint``: the hint area of the player on turn (an htmx fragment), or "Preparing
  hints…" that asks again by itself while the strategy table is being built;
- ``GET /r/<code>/games/<n>/accuracy``: the accuracy per player shown on the result screen (a
  fragment; "being prepared" asks again by itself);
- ``GET /r/<code>/games/<n>/review``: every turn of a finished game, the choices made, the
  optimal ones and the expected points lost;
- ``GET /players/<id>/games``: a player's finished room games and numbers per rule set.
"""

from __future__ import annotations

from datetime import date

from fastapi import APIRouter, BackgroundTasks, HTTPException, Request
from fastapi.responses import HTMLResponse, Response

from app.daily import store as daily_store
from app.knikkers import charts
from app.review.history import per_kind, played_games
from app.rooms.codes import is_code
from app.rooms.games import GAMES
from app.rooms.state import GameInfo, RoomState
from app.store.models import Player
from app.web.deps import CurrentPlayer, GuestId, ReviewsDep, RoomsDep, SessionDep
from app.web.ids import GameNumber
from app.web.templating import templates

router = APIRouter()
RETRY_MS = 2000  # how soon a "being prepared" fragment asks again
LISTED = 50  # games listed on the history page (all count in the numbers)
DAILY_KINDS = ("knister", "kniffel")  # the daily challenges (app/daily)
ANALYSE_PER_VISIT = 5  # games without an analysis analysed after a history page is sent


async def _room(rooms: RoomsDep, code: str) -> RoomState:
    state = await rooms.current(code) if is_code(code) else None
    if state is None:
        raise HTTPException(404, detail="unknown room")
    return state


def _finished_game(state: RoomState, number: int) -> GameInfo:
    """Game ``number`` of the room when it is finished and has an analysis, else 404 (a
    running game has no review: it would be a hint for everyone)."""
    game = next((g for g in state.games if g.number == number), None)
    if game is None or game.status != "finished" or state.plugin.review is None:
        raise HTTPException(404, detail="no such finished game")
    return game


@router.get("/r/{code}/hint", response_class=HTMLResponse, name="room_hint")
async def room_hint(request: Request, code: str, rooms: RoomsDep, reviews: ReviewsDep,
                    guest_id: GuestId) -> Response:
    """The hint for the dice on the table, for the player on turn of a room with hints on
    (403 for anyone else, 409 when no hint can be given now: no game, not rolled yet)."""
    state = await _room(rooms, code)
    seat = state.seat_of(guest_id)
    game, game_state = state.game, state.game_state
    review = state.plugin.review
    if game is None or state.status != "playing" or review is None:
        raise HTTPException(409, detail="no game running")
    if not game.options.get("hints"):
        raise HTTPException(403, detail="hints are off in this room")
    if seat is None or not review.on_turn(game_state, seat.id):
        raise HTTPException(403, detail="only the player on turn gets hints")
    position = review.position(game_state, seat.id)
    if position is None:
        raise HTTPException(409, detail="roll first")
    context = {"code": code, "retry_ms": RETRY_MS, **review.hint_context(game_state)}
    found = await reviews.hint(game.kind, game.options, position)
    return templates.TemplateResponse(request, review.hint_template, {**context, "hint": found})


@router.get("/r/{code}/games/{number}/accuracy", response_class=HTMLResponse,
            name="game_accuracy")
async def game_accuracy(request: Request, code: str, number: GameNumber, rooms: RoomsDep,
                        reviews: ReviewsDep) -> Response:
    """Each player's accuracy in finished game ``number`` (a fragment for the result screen),
    or "Analysis is being prepared" (asking again by itself)."""
    state = await _room(rooms, code)
    game = _finished_game(state, number)
    analysis = await reviews.analysis(game)  # errors: 500 (logged); the screen keeps its result
    labels = {s.id: s.label for s in state.seats}
    return templates.TemplateResponse(request, "review/_accuracy.html", {
        "code": code, "game": game, "analysis": analysis, "labels": labels,
        "retry_ms": RETRY_MS})


@router.get("/r/{code}/games/{number}/review", response_class=HTMLResponse, name="game_review")
async def game_review(request: Request, code: str, number: GameNumber, rooms: RoomsDep,
                      reviews: ReviewsDep, player: CurrentPlayer) -> Response:
    """The review of finished game ``number`` of room ``code``: per player every turn."""
    state = await _room(rooms, code)
    game = _finished_game(state, number)
    analysis = await reviews.analysis(game)
    seats = {s.id: s for s in state.seats}
    review = state.plugin.review
    assert review is not None  # _finished_game: a reviewed kind
    return templates.TemplateResponse(request, review.review_template, {
        "player": player, "room": state, "game": game, "analysis": analysis,
        "labels": {s.id: s.label for s in state.seats}, "seats": seats,
        "order": [s for s in game.seat_ids if s in seats]})


@router.get("/players/{player_id}/games", response_class=HTMLResponse, name="player_games")
async def player_games(request: Request, player_id: str, session: SessionDep,
                       player: CurrentPlayer, reviews: ReviewsDep,
                       background: BackgroundTasks) -> Response:
    """The finished room games of ``player_id`` (32 hex characters): date, rule set, score,
    rank, accuracy and a review link each; per rule set games, average, best, average accuracy
    and a chart of scores over time. Kniffel-family games not analysed yet are analysed after
    the page is sent (a few per visit)."""
    if len(player_id) != 32 or not player_id.isalnum():
        raise HTTPException(status_code=404)
    subject = await session.get(Player, player_id)
    if subject is None:
        raise HTTPException(status_code=404)
    played = await played_games(session, player_id)
    missing = [g.game for g in reversed(played)
               if g.accuracy is None and GAMES[g.kind].review is not None][:ANALYSE_PER_VISIT]
    for game in missing:
        background.add_task(reviews.analysis, game)
    kinds = per_kind(played)
    today = request.app.state.clock().date().isoformat()
    daily = [(kind, await daily_store.streak(session, player_id, kind, today),
              [(date.fromisoformat(day), score) for day, score in
               await daily_store.history(session, player_id, kind, limit=14)])
             for kind in DAILY_KINDS]  # docs/rules.md, "Daily challenges"
    # Give the connection back now: the analyses run after the response, each in a session
    # of its own, and must not wait for one this request still holds (tests/rooms/
    # test_pool_pressure.py shows that wait).
    await session.close()
    return templates.TemplateResponse(request, "review/history.html", {
        "player": player, "subject": subject, "games": list(reversed(played))[:LISTED],
        "total": len(played), "kinds": kinds, "daily": daily,
        "lines": {k.kind: charts.score_line([score for _, score in k.history]) for k in kinds},
        "reviewable": {kind for kind, plugin in GAMES.items() if plugin.review is not None}})
