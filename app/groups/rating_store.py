"""Reading and writing ratings (``ratings`` rows; docs/rules.md, "Ratings")."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from app.groups.models import Rating
from app.groups.ratings import Skill, update


async def rate_game(session: AsyncSession, kind: str, scopes: Sequence[str],
                    totals: Mapping[str, int]) -> dict[str, dict[str, Skill]]:
    """Rate one finished game of ``kind`` in each of ``scopes`` (``all``, ``g<group id>``).

    ``totals``: player id -> final points of every seat. The players' rows of every scope
    are read in one statement, locked (``FOR UPDATE`` on Postgres, so two processes rating
    games of the same player take turns), and written back with the new ratings; returns
    scope -> player id -> new rating (``ratings.update``: people only)."""
    stored: dict[str, dict[str, Rating]] = {scope: {} for scope in scopes}
    for held in (await session.execute(
            select(Rating).where(Rating.scope.in_(list(scopes)), Rating.kind == kind,
                                 Rating.player_id.in_(list(totals))).with_for_update())
            ).scalars():
        stored[held.scope][held.player_id] = held
    found: dict[str, dict[str, Skill]] = {}
    for scope in scopes:
        rows = stored[scope]
        rated = found[scope] = update(
            {p: Skill(r.mu, r.sigma, r.games) for p, r in rows.items()}, totals)
        for player_id, skill in rated.items():
            row = rows.get(player_id)
            if row is None:
                session.add(Rating(scope=scope, kind=kind, player_id=player_id, mu=skill.mu,
                                   sigma=skill.sigma, games=skill.games))
            else:
                row.mu, row.sigma, row.games = skill.mu, skill.sigma, skill.games
    return found


async def ratings_in(session: AsyncSession, scopes: list[str], kind: str,
                     players: list[str]) -> dict[str, dict[str, Skill]]:
    """Scope -> player id -> stored rating in ``kind``, for each of ``scopes`` (players never
    rated there left out); one statement, read as columns (no ORM objects: a page reads up
    to two per member)."""
    rows: Any = await session.execute(
        select(Rating.scope, Rating.player_id, Rating.mu, Rating.sigma, Rating.games)
        .where(Rating.scope.in_(scopes), Rating.kind == kind, Rating.player_id.in_(players)))
    found: dict[str, dict[str, Skill]] = {scope: {} for scope in scopes}
    for scope, player_id, mu, sigma, games in rows:
        found[scope][player_id] = Skill(mu, sigma, games)
    return found
