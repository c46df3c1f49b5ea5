"""The player page ``/players/<id>``: Knikkers statistics per variant with two SVG charts
(scores over time, a histogram) and the latest games, each linked to its replay, and a link to
the player's room games (``app.review.history``, ``/players/<id>/games``)."""

from __future__ import annotations

from fastapi import APIRouter, HTTPException, Request

from app.knikkers import charts, stats
from app.knikkers.abandon import abandoned_count
from app.knikkers.routes.common import parse_variant
from app.knikkers.variants import DEFAULT_VARIANT, VARIANTS, variant_label
from app.store.models import Player
from app.web.deps import CurrentPlayer, SessionDep
from app.web.templating import templates

router = APIRouter()


@router.get("/players/{player_id}", name="player_page")
async def player_page(
    request: Request, player_id: str, session: SessionDep, player: CurrentPlayer,
    variant: str = "",
):
    """Statistics of ``player_id`` (32 hex characters) in ``variant`` (default: theirs)."""
    if len(player_id) != 32 or not player_id.isalnum():
        raise HTTPException(status_code=404)
    subject = await session.get(Player, player_id)
    if subject is None:
        raise HTTPException(status_code=404)
    chosen = parse_variant(variant) or subject.knikkers_variant or DEFAULT_VARIANT
    numbers = await stats.player_stats(session, player_id, chosen)
    abandoned = await abandoned_count(session, player_id, chosen)
    scores = [score for _when, score, _game in numbers.history]
    return templates.TemplateResponse(
        request,
        "knikkers/player.html",
        {
            "player": player,
            "subject": subject,
            "variant": chosen,
            "abandoned": abandoned,
            "variant_name": variant_label(chosen),
            "variants": VARIANTS,
            "stats": numbers,
            "line": charts.score_line(scores),
            "hist": charts.histogram(scores),
        },
    )
