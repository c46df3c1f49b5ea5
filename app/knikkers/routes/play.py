"""The Knikkers game: start or resume, the game page, moves, undo, new game, replay the seed,
the daily game, and the remembered variant.

Routes stay thin: parse the form, call ``app.knikkers.service``, render. htmx requests get the
``game`` block of ``knikkers/game.html``; ``Accept: application/json`` gets the state as JSON;
plain form posts are redirected back to the page (or shown the page with the reason, 4xx).
No response carries the seed (``app.knikkers.disclosure``).
"""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Form, HTTPException, Request
from fastapi.responses import JSONResponse, RedirectResponse, Response

from app.clock import as_utc
from app.errors import KnobelError
from app.knikkers import disclosure, leaderboard, log, service, view
from app.knikkers.abandon import ABANDONED, abandon
from app.knikkers.routes.common import (
    GameId,
    is_htmx,
    parse_cell,
    parse_variant,
    parse_version,
    today,
    wants_json,
)
from app.knikkers.variants import DEFAULT_VARIANT, variant_label
from app.store.models import Player
from app.web.deps import (
    CurrentPlayer,
    GuestId,
    SessionDep,
    SettingsDep,
    get_db,
    guest_id_from_session,
)
from app.web.safety import safe_next
from app.web.templating import templates

router = APIRouter()

ShortField = Annotated[str, Form(max_length=16)]
ActionId = Annotated[str, Form(max_length=64)]


def game_url(game_id: int) -> str:
    """The page of game ``game_id``."""
    return f"/knikkers/games/{game_id}"


def _to_game(game_id: int) -> RedirectResponse:
    return RedirectResponse(game_url(game_id), status_code=303)


def _remembered(player: Player | None) -> int:
    return player.knikkers_variant if player and player.knikkers_variant else DEFAULT_VARIANT


@router.get("/knikkers", name="knikkers")
async def knikkers_home(session: SessionDep, guest_id: GuestId, player: CurrentPlayer):
    """Resume the player's game in progress, or start one of their remembered variant."""
    row = await service.current_game(session, guest_id)
    if row is None:
        row = await service.start_game(session, guest_id, _remembered(player))
    return _to_game(row.id)


@router.post("/knikkers/new", name="knikkers_new")
async def new_game(session: SessionDep, guest_id: GuestId, player: CurrentPlayer):
    """"Nieuw spel": a new seed in the remembered variant (no game is touched)."""
    row = await service.start_game(session, guest_id, _remembered(player))
    return _to_game(row.id)


@router.post("/knikkers/games/{game_id}/new", name="knikkers_new_from")
async def new_game_from(
    request: Request, game_id: GameId, session: SessionDep, guest_id: GuestId,
    player: CurrentPlayer, confirm: Annotated[str, Form(max_length=16)] = "",
):
    """"New game" asked on the page of game ``game_id``: when that game is the player's, still
    being played and has moves, the page asking first is shown (nothing changes) unless
    ``confirm`` is ``"abandon"``: then it is marked abandoned (docs/rules.md, "End of game and
    ranking"). Then, as ``/knikkers/new``, a new game starts.
    """
    try:
        left: service.Loaded | None = await service.load(session, game_id, guest_id)
    except service.GameNotFound:
        left = None
    if left is not None and left.row.status == "playing" and left.game.moves > 0:
        if confirm != "abandon":
            return templates.TemplateResponse(request, "knikkers/confirm_new.html", {
                "player": player, "row": left.row, "game": left.game})
        await abandon(session, left.row.id, guest_id)
    return await new_game(session, guest_id, player)


@router.post("/knikkers/daily", name="knikkers_daily")
async def daily_game(
    session: SessionDep,
    guest_id: GuestId,
    player: CurrentPlayer,
    settings: SettingsDep,
    variant: ShortField = "",
):
    """Start (or resume) today's daily game of ``variant`` (default: the remembered one)."""
    chosen = parse_variant(variant) or _remembered(player)
    row = await service.start_daily(session, guest_id, chosen, today(),
                                    secret=settings.secret_key)
    return _to_game(row.id)


@router.post("/knikkers/variant", name="knikkers_variant")
async def choose_variant(
    session: SessionDep,
    guest_id: GuestId,
    variant: ShortField,
    next: Annotated[str, Form(max_length=500)] = "/knikkers",
):
    """Remember the variant for the player's next games; never touches a game in progress."""
    chosen = parse_variant(variant)
    if chosen is None:
        raise HTTPException(status_code=422)
    profile = await service.ensure_player(session, guest_id)
    profile.knikkers_variant = chosen
    await session.commit()
    return RedirectResponse(safe_next(next, "/knikkers"), status_code=303)


@router.get("/knikkers/games/{game_id}", name="knikkers_game")
async def game_page(
    request: Request, game_id: GameId, session: SessionDep, guest_id: GuestId
):
    """The game page for its player; anybody else is sent to the replay of a finished game
    (which decides whether they may watch it yet)."""
    loaded = await _load(session, game_id)
    if loaded.row.player_id != guest_id:
        if loaded.row.status == "finished":
            return RedirectResponse(f"{game_url(game_id)}/replay", status_code=303)
        raise HTTPException(status_code=404)
    if loaded.row.status == ABANDONED:  # left for a new game: back to the one being played
        return RedirectResponse("/knikkers", status_code=303)
    return await render_game(request, session, loaded, guest_id)


@router.get("/knikkers/games/{game_id}/state", name="knikkers_state")
async def game_state(game_id: GameId, session: SessionDep, guest_id: GuestId) -> JSONResponse:
    """The state as JSON (``state_json``) for its player, or for anybody who may watch the
    finished game (``disclosure.may_watch``); 404 otherwise."""
    loaded = await _load(session, game_id)
    if loaded.row.player_id != guest_id and not await disclosure.may_watch(
        session, loaded.row, guest_id, today()
    ):
        raise HTTPException(status_code=404)
    return JSONResponse(state_json(loaded))


@router.post("/knikkers/games/{game_id}/move", name="knikkers_move")
async def move(
    request: Request,
    game_id: GameId,
    session: SessionDep,
    guest_id: GuestId,
    src: ShortField = "",
    dst: ShortField = "",
    version: ShortField = "",
    action_id: ActionId = "",
):
    """Move the ball on ``src`` ("r,c") to ``dst``. Refused: 422 (rules) or 409 (over/stale)."""
    a, b = parse_cell(src), parse_cell(dst)

    async def act() -> service.Outcome:
        if a is None or b is None:
            await _load_own(session, game_id, guest_id)
            raise service.Refused("not_a_cell")
        return await service.move(
            session, game_id, guest_id, a, b,
            version=parse_version(version), action_id=action_id or None,
        )

    return await _perform(request, session, game_id, guest_id, act)


@router.post("/knikkers/games/{game_id}/undo", name="knikkers_undo")
async def undo(
    request: Request,
    game_id: GameId,
    session: SessionDep,
    guest_id: GuestId,
    version: ShortField = "",
    action_id: ActionId = "",
):
    """"Terug": take back the last move. Refused (422) when there is none to take back."""

    async def act() -> service.Outcome:
        return await service.undo(
            session, game_id, guest_id,
            version=parse_version(version), action_id=action_id or None,
        )

    return await _perform(request, session, game_id, guest_id, act)


async def _perform(request: Request, session, game_id: int, guest_id: str, act):
    """Run one move or undo: 404 for a game that is not the player's, else the accepted
    response; a refused action (``service.Refused``) is reported by ``app.web.errors`` (JSON,
    or the board with the refusal: ``refused_page``)."""
    try:
        outcome = await act()
    except service.GameNotFound as exc:
        raise HTTPException(status_code=404) from exc
    return await _accepted(request, session, outcome, guest_id)  # Refused: refused_page


@router.post("/knikkers/games/{game_id}/again", name="knikkers_again")
async def play_again(game_id: GameId, session: SessionDep, guest_id: GuestId):
    """"Herspelen": a new game of its own on the same seed (the player's own finished games
    only; 409 for a game still being played)."""
    loaded = await _load_own(session, game_id, guest_id)
    try:
        row = await service.play_again(session, loaded.row, today())
    except service.Refused as refused:
        raise HTTPException(status_code=refused.status, detail=refused.code) from refused
    return _to_game(row.id)


async def _load(session: SessionDep, game_id: int) -> service.Loaded:
    try:
        return await service.load(session, game_id)
    except service.GameNotFound as exc:
        raise HTTPException(status_code=404) from exc


async def _load_own(session: SessionDep, game_id: int, guest_id: str) -> service.Loaded:
    try:
        return await service.load(session, game_id, guest_id)
    except service.GameNotFound as exc:
        raise HTTPException(status_code=404) from exc


async def _accepted(
    request: Request, session: SessionDep, outcome: service.Outcome, guest_id: str
) -> Response:
    if wants_json(request):
        body = state_json(outcome.loaded)
        if outcome.result is not None:
            body["move"] = {
                "points": outcome.result.points,
                "path": outcome.result.path,
                "lines": outcome.result.lines,
                "spawned": outcome.result.spawned,
            }
        return JSONResponse(body)
    if not is_htmx(request):
        return _to_game(outcome.loaded.row.id)
    return await render_game(request, session, outcome.loaded, guest_id, outcome=outcome)


async def refused_page(request: Request, refused: KnobelError) -> Response:
    """The browser's answer to a refused move or undo (``app.web.errors``): the board, or only
    its ``game`` block for htmx, with the refusal shown and its status (409/422)."""
    game_id = int(request.path_params["game_id"])
    guest_id = guest_id_from_session(request.session)
    async with get_db(request).sessionmaker() as session:
        loaded = await _load_own(session, game_id, guest_id)
        return await render_game(request, session, loaded, guest_id, refused=refused,
                                 status=refused.status)


def state_json(loaded: service.Loaded) -> dict:
    """The JSON form of a game: ``disclosure.public_state`` (never the seed) + id, version,
    status, result."""
    return {
        **disclosure.public_state(loaded.game),
        "id": loaded.row.id,
        "version": loaded.version,
        "status": loaded.row.status,
        "result": loaded.row.result,
    }


async def render_game(
    request: Request,
    session: SessionDep,
    loaded: service.Loaded,
    guest_id: str,
    *,
    outcome: service.Outcome | None = None,
    refused: KnobelError | None = None,
    status: int = 200,
) -> Response:
    """The game page, or only its ``game`` block for htmx."""
    # fetched here: a refused action rolls back, which expires the request's profile object
    player = await session.get(Player, guest_id)
    row = loaded.row
    variant = log.variant_of(row)
    context = {
        "player": player,
        "row": row,
        "game": loaded.game,
        "version": loaded.version,
        "variant": variant,
        "variant_name": variant_label(variant),
        "daily": log.daily_of(row),
        "over": row.status == "finished",
        "result": row.result or {},
        "record": await leaderboard.record(session, row.player_id or "", variant),
        "elapsed": service.elapsed_seconds(row),
        "started_iso": as_utc(row.started_at).isoformat(),
        "anim": view.animation(outcome.result, outcome.before) if outcome else {},
        "refused": refused,
        "remembered": _remembered(player),
    }
    return templates.TemplateResponse(
        request,
        "knikkers/game.html",
        context,
        status_code=status,
        block_name="game" if is_htmx(request) else None,
    )
