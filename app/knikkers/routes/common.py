"""Small helpers shared by the Knikkers routes."""

from __future__ import annotations

import re
from datetime import date
from typing import Annotated

from fastapi import HTTPException, Path, Request

from app.clock import utcnow
from app.knikkers import view
from app.knikkers.variants import parse_variant, variant_label
from app.web.errors import wants_json as wants_json  # shared with the Knikkers routes
from app.web.ids import MAX_ID
from app.web.templating import templates

GameId = Annotated[int, Path(ge=1, le=MAX_ID, description="a Knikkers game id")]

_CELL = re.compile(r"^\s*([0-8])\s*,\s*([0-8])\s*$")


def install_globals() -> None:
    """Make the Knikkers view helpers available to every template (idempotent)."""
    env = templates.env
    env.globals.setdefault("kn_colour_name", view.colour_name)
    env.globals.setdefault("kn_cell_label", view.cell_label)
    env.globals.setdefault("kn_duration", view.duration)
    env.globals.setdefault("kn_variant_label", variant_label)


install_globals()


def today() -> date:
    """Today's date in UTC (the boundary of the daily game and of the periods)."""
    return utcnow().date()


def parse_cell(text: str | None) -> tuple[int, int] | None:
    """``(row, col)`` from ``"r,c"`` (the ``data-cell`` form, 0..8 each), else None."""
    match = _CELL.match(text or "")
    return (int(match.group(1)), int(match.group(2))) if match else None


def parse_version(text: str | None) -> int | None:
    """The client's last seen event seq, or None when absent or not a small number."""
    text = (text or "").strip()
    return int(text) if text.isdigit() and len(text) < 10 else None


def variant_or_404(value: str) -> int:
    """The variant from a URL segment ("5" or "4"); HTTP 404 otherwise."""
    variant = parse_variant(value)
    if variant is None:
        raise HTTPException(status_code=404)
    return variant


def is_htmx(request: Request) -> bool:
    """True for an htmx request (it wants a fragment, not a page)."""
    return request.headers.get("hx-request") == "true"
