"""The replay viewer: a finished game, move by move from its log, at a shareable link.

``/knikkers/games/<id>/replay?step=<n>`` shows the position after the first ``n`` counted
moves of the log (0 = the start; undone moves and their undos are left out, so there are as
many steps as the game has moves), rebuilt by the engine from the seed (which the page never
shows). A game still being played is a 404; a finished one its viewer may not watch yet (a
daily game before its day is over, ``app.knikkers.disclosure``) is a 403 page saying when
they can.
"""

from __future__ import annotations

from fastapi import APIRouter, HTTPException, Request

from app.knikkers import disclosure, log, service
from app.knikkers.routes.common import GameId, is_htmx, today
from app.knikkers.variants import variant_label
from app.store.models import Game, Player
from app.web.deps import CurrentPlayer, GuestId, SessionDep
from app.web.templating import templates

router = APIRouter()


@router.get("/knikkers/games/{game_id}/replay", name="knikkers_replay")
async def replay(
    request: Request,
    game_id: GameId,
    session: SessionDep,
    guest_id: GuestId,
    player: CurrentPlayer,
    step: int = 0,
):
    """The position after ``step`` counted moves of finished game ``game_id``: 404 for no such
    game or one still being played, 403 (``knikkers/replay_hidden.html``) while the viewer may not
    watch it yet."""
    row = await session.get(Game, game_id)
    if row is None or row.kind != "knikkers" or row.status != "finished":
        raise HTTPException(status_code=404)
    reason = await disclosure.why_hidden(session, row, guest_id, today())
    if reason is not None:
        return templates.TemplateResponse(
            request, "knikkers/replay_hidden.html",
            {"player": player, "reason": reason, "daily": log.daily_of(row),
             "variant": log.variant_of(row)},
            status_code=403,
        )
    actions = log.counted_moves(await service.load_actions(session, game_id))
    step = max(0, min(step, len(actions)))
    game = log.rebuild(row, actions[:step])
    owner = await session.get(Player, row.player_id) if row.player_id else None
    variant = log.variant_of(row)
    context = {
        "player": player,
        "row": row,
        "owner": owner,
        "game": game,
        "step": step,
        "steps": len(actions),
        "last": actions[step - 1] if step else None,
        "variant": variant,
        "variant_name": variant_label(variant),
        "daily": log.daily_of(row),
        "result": row.result or {},
    }
    return templates.TemplateResponse(
        request, "knikkers/replay.html", context,
        block_name="replay_state" if is_htmx(request) else None,
    )
