"""Routes of the daily challenges (docs/rules.md, "Daily challenges"), ``<kind>`` being
``knister`` or ``kniffel``:

- ``GET /daily/<kind>``: today's challenge (UTC day): the commitment of the day's seed, your
  attempts, and once you finished one your score, par, your rank and (Knister) the roll-by-roll
  comparison with the strong bot or (Kniffel) your accuracy, the share text; the day's board
  (first attempts: names and scores only); your streak and your latest days;
- ``POST /daily/<kind>``: start an attempt (the first is ranked, later ones are not): a solo
  room on the day's dice, whose page follows;
- ``GET /daily/s/<attempt id>``: a shared result (a ranked first attempt): score, par and
  rank only; its preview image ``/daily/s/<attempt id>.png`` (once the day is over with the
  Knister grid or the Kniffel score sheet).
"""

from __future__ import annotations

import asyncio
import hashlib
from datetime import date, timedelta
from typing import Any

from fastapi import APIRouter, HTTPException, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from sqlalchemy.exc import IntegrityError

from app.daily import store
from app.daily.card import Sheet, result_card
from app.daily.par import bot_game, rolls
from app.errors import N_, KnobelError
from app.i18n import format_date
from app.i18n import gettext as _
from app.rooms.dice import daily_seed
from app.rooms.dice_check import game_events
from app.rooms.games import get_game
from app.web.deps import CurrentPlayer, GuestId, NameField, ReviewsDep, RoomsDep, SessionDep
from app.web.ids import RowId
from app.web.pages import seat_name
from app.web.templating import templates

router = APIRouter()
TITLES = {"knister": N_("Knister of the day"), "kniffel": N_("Kniffel of the day")}
"""The daily challenges by game kind (the Kniffel one plays the Kniffel rule set)."""


def today(request: Request) -> str:
    """The current UTC day of the server's clock (``app.state.clock``), ``YYYY-MM-DD``."""
    return str(request.app.state.clock().date().isoformat())


def _kind(kind: str) -> str:
    if kind not in TITLES:
        raise HTTPException(404, detail="no such daily challenge")
    return kind


def _secret(request: Request) -> str:
    return str(request.app.state.settings.secret_key)


async def par_of(request: Request, kind: str, day: str) -> int | None:
    """Par of ``kind``'s challenge of ``day``: Knister, the strong bot's score on the day's
    rolls (``par.bot_game``); Kniffel, the optimal strategy's expected score, rounded (None
    while its table is being built)."""
    if kind == "knister":
        return (await asyncio.to_thread(bot_game, _secret(request), day)).total
    strategy = request.app.state.strategy.for_options(kind, get_game(kind).default_options())
    return None if strategy is None else round(strategy.expected_score)


async def _details(request: Request, session: SessionDep, rooms: RoomsDep,
                   reviews: ReviewsDep, kind: str, day: str,
                   attempt: store.Attempt) -> dict[str, Any]:
    """What only a player who finished sees: Knister's lines against the bot (the rolls),
    Kniffel's accuracy (None while it is being worked out)."""
    if kind == "knister":
        bot = await asyncio.to_thread(bot_game, _secret(request), day)
        mine = await store.placements(session, attempt.game_id) if attempt.game_id else []
        day_rolls = rolls(_secret(request), day)
        return {"lines": [{"n": k + 1, "dice": day_rolls[k], "sum": sum(day_rolls[k]),
                           "mine": mine[k] if k < len(mine) else None, "bot": bot.cells[k],
                           "same": k < len(mine) and mine[k] == bot.cells[k]}
                          for k in range(len(day_rolls))]}
    state = await rooms.current(attempt.code)
    game = state.games[0] if state is not None and state.games else None
    analysis = await reviews.analysis(game) if game is not None else None
    summary = getattr(analysis, "summary", None) or {}
    found = next(iter(summary.values()), None)
    return {"accuracy": getattr(found, "accuracy", None)}


@router.get("/daily", response_class=HTMLResponse, name="daily_index")
async def daily_index(request: Request, player: CurrentPlayer) -> Response:
    """Every daily challenge on one page: Knister and Kniffel of the day, and Knikkers'
    daily game (started by its own form, ``/knikkers/daily``)."""
    return templates.TemplateResponse(request, "daily/index.html", {
        "player": player, "day": today(request), "day_date": date.fromisoformat(today(request)),
        "challenges": [(kind, _(title)) for kind, title in TITLES.items()]})


@router.get("/daily/{kind}", response_class=HTMLResponse, name="daily")
async def daily(request: Request, kind: str, session: SessionDep, rooms: RoomsDep,
                reviews: ReviewsDep, player: CurrentPlayer, guest_id: GuestId) -> Response:
    """Today's challenge of ``kind`` (see the module); 404 for another kind."""
    kind, day, secret = _kind(kind), today(request), _secret(request)
    mine = await store.attempts_of(session, guest_id, kind, day)
    ranking = await store.board(session, kind, day)
    done = [a for a in mine if a.finished]
    result: dict[str, Any] | None = None
    if done:  # only a player who finished sees par, rolls and grids
        shown = done[0]
        par = await par_of(request, kind, day)
        rank = next((r for r, a in ranking if a.player_id == guest_id), None)
        share_url = str(request.url_for("daily_shared", attempt=shown.id)
                        if shown.number == 1 else request.url_for("daily", kind=kind))
        result = {"attempt": shown, "par": par, "rank": rank, "of": len(ranking),
                  "share_url": share_url,
                  "share_text": share_text(kind, day, shown.score, par, rank, len(ranking),
                                           share_url),
                  **await _details(request, session, rooms, reviews, kind, day, shown)}
    yesterday = request.app.state.clock().date() - timedelta(days=1)
    known = await store.friends(session, guest_id)  # the board among friends
    return templates.TemplateResponse(request, "daily/day.html", {
        "player": player, "kind": kind, "title": _(TITLES[kind]), "day": day,
        "day_date": date.fromisoformat(day),
        "attempts": mine, "result": result,
        "running": next((a for a in mine if not a.finished), None),
        "board": ranking, "me": guest_id,
        "friends": [(r, a) for r, a in ranking if a.player_id in known],
        "commitment": hashlib.sha256(bytes.fromhex(daily_seed(secret, kind, day))).hexdigest(),
        "yesterday": yesterday, "yesterday_seed": daily_seed(secret, kind,
                                                             yesterday.isoformat()),
        "streak": await store.streak(session, guest_id, kind, day),
        "history": [(date.fromisoformat(d), score)
                    for d, score in await store.history(session, guest_id, kind)]})


def share_text(kind: str, day: str, score: int | None, par: int | None, rank: int | None,
               of: int, url: str) -> str:
    """The short text a player shares, in their language: the challenge, the day, score,
    par, rank (when ranked) and the link."""
    values = {"game": _(TITLES[kind]), "day": format_date(date.fromisoformat(day)),
              "score": score,
              "par": "…" if par is None else par, "rank": rank, "of": of, "url": url}
    if rank is None:
        return _("%(game)s %(day)s: %(score)s points (par %(par)s). %(url)s") % values
    return _("%(game)s %(day)s: %(score)s points (par %(par)s), rank %(rank)s of %(of)s. "
             "%(url)s") % values


@router.post("/daily/{kind}", name="daily_play")
async def daily_play(request: Request, kind: str, session: SessionDep, rooms: RoomsDep,
                     player: CurrentPlayer, guest_id: GuestId,
                     name: NameField = "") -> Response:
    """Start an attempt at today's challenge of ``kind`` (the first ranked, later ones not);
    404 for another kind, 422 without a usable name, 409 when two starts race."""
    kind = _kind(kind)
    cleaned, error = seat_name(name, player)
    if error:  # the reason itself, already in the visitor's language (not a msgid)
        raise KnobelError("bad_name", error, 422)
    request.app.state.limits.hit("create_room", request)
    day = today(request)
    number = len(await store.attempts_of(session, guest_id, kind, day)) + 1
    code = await rooms.create_room(guest_id, cleaned, kind, None, solo=True, daily=day)
    try:
        await store.add(session, guest_id, kind, day, await store.room_id(session, code),
                        number)
    except IntegrityError:
        raise HTTPException(409, detail="an attempt was started at the same time") from None
    await rooms.start_now(code, guest_id)
    return RedirectResponse(f"/r/{code}", status_code=303)


async def _shared(request: Request, session: SessionDep, attempt: int) -> dict[str, Any]:
    """What a shared result shows: ``kind``, ``title``, ``day`` (and ``day_date``), ``rank``,
    ``attempt`` (its name and score), ``of`` (ranked players) and ``par``; 404 for an
    attempt that is not a finished first attempt."""
    found_day = await store.kind_and_day(session, attempt)
    if found_day is None or found_day[0] not in TITLES:
        raise HTTPException(404, detail="no such attempt")
    kind, day = found_day
    ranking = await store.board(session, kind, day)
    found = next(((rank, a) for rank, a in ranking if a.id == attempt), None)
    if found is None:
        raise HTTPException(404, detail="no such finished first attempt")
    return {"kind": kind, "title": _(TITLES[kind]), "day": day,
            "day_date": date.fromisoformat(day), "rank": found[0], "attempt": found[1],
            "of": len(ranking), "par": await par_of(request, kind, day)}


@router.get("/daily/s/{attempt:int}", response_class=HTMLResponse, name="daily_shared")
async def daily_shared(request: Request, attempt: RowId, session: SessionDep,
                       player: CurrentPlayer) -> Response:
    """A shared result of a daily challenge: name, score, par and rank only (no grid, no
    roll), with its preview image (``og:image``); 404 for an unknown or unfinished
    attempt."""
    shared = await _shared(request, session, attempt)
    image = str(request.url_for("daily_card", attempt=attempt))
    return templates.TemplateResponse(request, "daily/shared.html", {
        "player": player, "image": image, **shared})


async def sheet_of(session: SessionDep, kind: str,
                   attempt: store.Attempt) -> Sheet | None:
    """The score sheet of ``attempt`` (a finished one) as its game's plug-in gives it
    (``GameSheet.lines``: sections of translated box names and points, in the current
    language), None for a game without one or an attempt without a game or seat."""
    plugin_sheet = get_game(kind).sheet
    if plugin_sheet is None or attempt.game_id is None:
        return None
    seat = await store.seat_id(session, attempt.code, attempt.player_id)
    if seat is None:
        return None
    return plugin_sheet.lines(await game_events(session, attempt.game_id), seat)


@router.get("/daily/s/{attempt:int}.png", name="daily_card")
async def daily_card(request: Request, attempt: RowId, session: SessionDep) -> Response:
    """The shared result's preview image (PNG, 1200 x 630, ``card.result_card``): the day,
    the score, par and rank, in the viewer's language, and once the day is over the grid
    (Knister) or the score sheet (a game whose plug-in has a ``sheet``: Kniffel); 404 as
    ``daily_shared``."""
    shared = await _shared(request, session, attempt)
    par = "…" if shared["par"] is None else shared["par"]
    lines = (_("%(score)s points") % {"score": shared["attempt"].score},
             _("Par %(par)s") % {"par": par},
             _("Rank %(rank)s of %(of)s") % {"rank": shared["rank"], "of": shared["of"]})
    title = f"{shared['title']} · {format_date(shared['day_date'])}"
    attempt_row: store.Attempt = shared["attempt"]
    over = shared["day"] < today(request)  # grid and sheet only once nobody can play the day
    grid = sheet = None
    if over and attempt_row.game_id is not None:
        if shared["kind"] == "knister":
            grid = await store.grid(session, attempt_row.game_id)
        else:
            sheet = await sheet_of(session, shared["kind"], attempt_row)
    png = await asyncio.to_thread(result_card, title, lines, grid, sheet)
    return Response(png, media_type="image/png",
                    headers={"Cache-Control": "public, max-age=300"})
