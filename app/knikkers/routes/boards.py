"""Leaderboard pages: ``/leaderboards`` (index), ``/leaderboards/knikkers/<variant>`` (variant =
``5`` or ``4``, the line length) with ``period`` = all | month | week | today, ``mode`` =
players (one row per player, their best) | games (every game), ``after`` = keyset cursor; and the
daily boards ``/leaderboards/knikkers/<variant>/daily/<YYYY-MM-DD>``.
"""

from __future__ import annotations

from datetime import date

from fastapi import APIRouter, HTTPException, Request
from fastapi.responses import RedirectResponse

from app.clock import utcnow
from app.knikkers import leaderboard
from app.knikkers.leaderboard import MODES, Board
from app.knikkers.periods import PERIODS
from app.knikkers.routes.common import today, variant_or_404
from app.knikkers.variants import VARIANTS, variant_label
from app.web.deps import CurrentPlayer, GuestId, SessionDep
from app.web.templating import templates

router = APIRouter()

PREVIEW = 3


@router.get("/leaderboards", name="leaderboards")
async def index(request: Request, session: SessionDep, player: CurrentPlayer):
    """Every board: per variant its periods, today's daily board and a short preview."""
    now = utcnow()
    previews = {
        v: (await leaderboard.page(session, Board.for_period(v, "all", now), limit=PREVIEW))
        for v in VARIANTS
    }
    return templates.TemplateResponse(
        request,
        "knikkers/leaderboards.html",
        {"player": player, "variants": VARIANTS, "previews": previews, "today": today(),
         "periods": PERIODS},
    )


@router.get("/leaderboards/knikkers/{variant}", name="leaderboard")
async def variant_board(
    request: Request,
    variant: str,
    session: SessionDep,
    guest_id: GuestId,
    player: CurrentPlayer,
    period: str = "all",
    mode: str = "players",
    after: str = "",
):
    """One variant's leaderboard for a period, ranked with ties, with the viewer's own row."""
    number = variant_or_404(variant)
    period = period if period in PERIODS else "all"
    mode = mode if mode in MODES else "players"
    board = Board.for_period(number, period, utcnow())
    result = await leaderboard.page(session, board, mode=mode, after=after[:80] or None,
                                    viewer=guest_id)
    return _render(request, player, number, result, period=period, mode=mode, after=after)


@router.get("/leaderboards/knikkers/{variant}/daily", name="leaderboard_daily_today")
async def daily_today(variant: str):
    """Today's daily board."""
    number = variant_or_404(variant)
    return RedirectResponse(
        f"/leaderboards/knikkers/{number}/daily/{today().isoformat()}", status_code=303
    )


@router.get("/leaderboards/knikkers/{variant}/daily/{day}", name="leaderboard_daily")
async def daily_board(
    request: Request,
    variant: str,
    day: str,
    session: SessionDep,
    guest_id: GuestId,
    player: CurrentPlayer,
    mode: str = "players",
    after: str = "",
):
    """The daily game's board of ``day`` (YYYY-MM-DD)."""
    number = variant_or_404(variant)
    try:
        when = date.fromisoformat(day)
    except ValueError as exc:
        raise HTTPException(status_code=404) from exc
    mode = mode if mode in MODES else "players"
    result = await leaderboard.page(
        session, Board.for_daily(number, when), mode=mode, after=after[:80] or None,
        viewer=guest_id,
    )
    return _render(request, player, number, result, mode=mode, after=after, daily=when)


def _render(request, player, variant, result, *, mode, after, period="all", daily=None):
    return templates.TemplateResponse(
        request,
        "knikkers/leaderboard.html",
        {
            "player": player,
            "variant": variant,
            "variant_name": variant_label(variant),
            "variants": VARIANTS,
            "periods": PERIODS,
            "period": period,
            "mode": mode,
            "page": result,
            "after": after,
            "daily": daily,
            "today": today(),
        },
    )
