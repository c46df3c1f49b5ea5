"""Test-only routes, answered only when ``settings.test_routes`` (``TEST_HOOKS=true`` outside
production); otherwise every path here is a plain 404, as if it did not exist.

- ``POST /knikkers/test/near-full`` (``variant``, ``seed``, ``free``): a game from a near-full
  board (``app.knikkers.testpositions``); the start position is stored in the game's options so
  its replay verification still works.
- ``POST /knikkers/test/start`` (``variant``, ``seed``): an ordinary new game on a fixed seed.
Both redirect (303) to the new game's page.
"""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Depends, Form, HTTPException
from fastapi.responses import RedirectResponse

from app.engines.knikkers import MAX_SEED
from app.knikkers import service
from app.knikkers.routes.common import parse_variant
from app.knikkers.testpositions import near_full
from app.web.deps import GuestId, SessionDep, require_test_routes

router = APIRouter(prefix="/knikkers/test", dependencies=[Depends(require_test_routes)])

Small = Annotated[str, Form(max_length=24)]


def _int(text: str, low: int, high: int, default: int) -> int:
    try:
        value = int(text)
    except ValueError:
        return default
    if not low <= value <= high:
        raise HTTPException(status_code=422)
    return value


@router.post("/near-full", name="knikkers_test_near_full")
async def start_near_full(
    session: SessionDep, guest_id: GuestId, variant: Small = "5", seed: Small = "1",
    free: Small = "9",
):
    """A game whose board has only ``free`` empty cells (default 9) and no lines."""
    row = await service.start_game(
        session, guest_id, parse_variant(variant) or 5,
        seed=_int(seed, 0, MAX_SEED, 1), start=near_full(_int(free, 1, 81, 9)),
    )
    return RedirectResponse(f"/knikkers/games/{row.id}", status_code=303)


@router.post("/start", name="knikkers_test_start")
async def start_seeded(
    session: SessionDep, guest_id: GuestId, variant: Small = "5", seed: Small = "1"
):
    """A new game on a chosen seed (for scripted whole games)."""
    row = await service.start_game(
        session, guest_id, parse_variant(variant) or 5, seed=_int(seed, 0, MAX_SEED, 1)
    )
    return RedirectResponse(f"/knikkers/games/{row.id}", status_code=303)
