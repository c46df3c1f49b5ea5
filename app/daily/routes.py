"""Routes of the daily Knister (docs/rules.md, "Daily challenges"):

- ``GET /daily/knister``: today's challenge (UTC day): the commitment of the day's seed, your
  attempts, and once you finished one your score, par (the strong bot on the same rolls), your
  rank and the roll-by-roll comparison with the bot, the share text; the day's board (first
  attempts: names and scores only); your streak and your latest days;
- ``POST /daily/knister``: start an attempt (the first is ranked, later ones are not): a solo
  room on the day's dice, whose page follows;
- ``GET /daily/knister/<day>/s/<attempt id>``: a shared result: score, par and rank only.
"""

from __future__ import annotations

import asyncio
import hashlib
from datetime import date, timedelta
from typing import Annotated, Any

from fastapi import APIRouter, Form, HTTPException, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from sqlalchemy.exc import IntegrityError

from app.daily import store
from app.daily.par import KIND, BotGame, bot_game, rolls
from app.i18n import gettext as _
from app.rooms.dice import daily_seed
from app.web.deps import CurrentPlayer, GuestId, RoomsDep, SessionDep
from app.web.pages import seat_name
from app.web.templating import templates

router = APIRouter()


def today(request: Request) -> str:
    """The current UTC day of the server's clock (``app.state.clock``), ``YYYY-MM-DD``."""
    return str(request.app.state.clock().date().isoformat())


def _secret(request: Request) -> str:
    return str(request.app.state.settings.secret_key)


def _comparison(day_rolls: list[tuple[int, int]], mine: list[tuple[int, int]],
                bot: BotGame) -> list[dict[str, Any]]:
    """Roll by roll: the dice, the sum, where the player and the bot wrote it."""
    return [{"n": k + 1, "dice": day_rolls[k], "sum": sum(day_rolls[k]),
             "mine": mine[k] if k < len(mine) else None, "bot": bot.cells[k],
             "same": k < len(mine) and mine[k] == bot.cells[k]}
            for k in range(len(day_rolls))]


@router.get("/daily/knister", response_class=HTMLResponse, name="daily_knister")
async def daily_knister(request: Request, session: SessionDep, player: CurrentPlayer,
                        guest_id: GuestId) -> Response:
    """Today's Knister challenge (see the module)."""
    day, secret = today(request), _secret(request)
    mine = await store.attempts_of(session, guest_id, KIND, day)
    ranking = await store.board(session, KIND, day)
    done = [a for a in mine if a.finished]
    result: dict[str, Any] | None = None
    if done:  # only a player who finished sees par, rolls and grids
        shown = done[0]
        bot = await asyncio.to_thread(bot_game, secret, day)
        cells = await store.placements(session, shown.game_id) if shown.game_id else []
        rank = next((r for r, a in ranking if a.player_id == guest_id), None)
        share_url = str(request.url_for("daily_shared", day=day, attempt=shown.id)
                        if shown.number == 1 else request.url_for("daily_knister"))
        result = {"attempt": shown, "par": bot.total, "rank": rank, "of": len(ranking),
                  "lines": _comparison(rolls(secret, day), cells, bot),
                  "share_url": share_url,
                  "share_text": _share_text(day, shown.score, bot.total, rank, len(ranking),
                                            share_url)}
    yesterday = (request.app.state.clock() - timedelta(days=1)).date().isoformat()
    return templates.TemplateResponse(request, "daily/knister.html", {
        "player": player, "day": day, "attempts": mine, "result": result,
        "running": next((a for a in mine if not a.finished), None),
        "board": ranking, "me": guest_id,
        "commitment": hashlib.sha256(bytes.fromhex(daily_seed(secret, KIND, day))).hexdigest(),
        "yesterday": yesterday, "yesterday_seed": daily_seed(secret, KIND, yesterday),
        "streak": await store.streak(session, guest_id, KIND, day),
        "history": await store.history(session, guest_id, KIND)})


def _share_text(day: str, score: int | None, par: int, rank: int | None, of: int,
                url: str) -> str:
    """The short text a player shares, in their language."""
    if rank is None:
        return _("Knister of the day %(day)s: %(score)s points (par %(par)s). %(url)s") % {
            "day": day, "score": score, "par": par, "url": url}
    return _("Knister of the day %(day)s: %(score)s points (par %(par)s), rank %(rank)s of "
             "%(of)s. %(url)s") % {"day": day, "score": score, "par": par, "rank": rank,
                                   "of": of, "url": url}


@router.post("/daily/knister", name="daily_knister_play")
async def daily_knister_play(request: Request, session: SessionDep, rooms: RoomsDep,
                             player: CurrentPlayer, guest_id: GuestId,
                             name: Annotated[str, Form(max_length=200)] = "") -> Response:
    """Start an attempt at today's Knister (the first ranked, later ones not); 422 without
    a usable name, 409 when two starts race."""
    cleaned, error = seat_name(name, player)
    if error:
        raise HTTPException(422, detail=error)
    request.app.state.limits.hit("create_room", request)
    day = today(request)
    number = len(await store.attempts_of(session, guest_id, KIND, day)) + 1
    code = await rooms.create_room(guest_id, cleaned, KIND, None, solo=True, daily=day)
    try:
        await store.add(session, guest_id, KIND, day, await store.room_id(session, code),
                        number)
    except IntegrityError:
        raise HTTPException(409, detail="an attempt was started at the same time") from None
    await rooms.start_now(code, guest_id)
    return RedirectResponse(f"/r/{code}", status_code=303)


@router.get("/daily/knister/{day}/s/{attempt}", response_class=HTMLResponse,
            name="daily_shared")
async def daily_shared(request: Request, day: str, attempt: int, session: SessionDep,
                       player: CurrentPlayer) -> Response:
    """A shared result of the daily Knister of ``day``: name, score, par and rank only (no
    grid, no roll); 404 for an unknown or unfinished attempt."""
    try:
        if date.fromisoformat(day).isoformat() != day or day > today(request):
            raise ValueError(day)
    except ValueError:
        raise HTTPException(404, detail="no such day") from None
    ranking = await store.board(session, KIND, day)
    found = None
    for rank, a in ranking:
        if a.id == attempt:
            found = (rank, a)
    if found is None:
        raise HTTPException(404, detail="no such finished first attempt")
    bot = await asyncio.to_thread(bot_game, _secret(request), day)
    return templates.TemplateResponse(request, "daily/shared.html", {
        "player": player, "day": day, "rank": found[0], "attempt": found[1],
        "of": len(ranking), "par": bot.total})
