"""Group evenings ("nights"): the admin starts one, the group's games finished while it runs
belong to it, and its standings add up ranks (docs/rules.md, "Groups", "Nights").

Standings: each member who played in the night gets, per game of the night, their rank in
it, or one more than that game's number of seats for a game they missed; the lowest sum leads
(a shared lowest sum is a shared lead). Once the night has ended, the leaders are its winners.
"""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from app.clock import utcnow
from app.errors import N_
from app.groups.models import GroupNight, GroupResult
from app.groups.service import GroupError


@dataclass
class Standing:
    """One member's evening: ``points`` (the sum of ranks, lower is better), ``games``
    played, ``place`` (competition rank by points)."""

    player_id: str
    name: str
    points: int
    games: int
    place: int = 0


async def current_night(session: AsyncSession, group_id: int) -> GroupNight | None:
    """The group's running night, or None."""
    return (await session.execute(
        select(GroupNight).where(GroupNight.group_id == group_id,
                                 GroupNight.ended_at.is_(None)))).scalars().first()


async def latest_night(session: AsyncSession, group_id: int) -> GroupNight | None:
    """The group's most recent night (running or ended), or None."""
    return (await session.execute(
        select(GroupNight).where(GroupNight.group_id == group_id)
        .order_by(GroupNight.started_at.desc(), GroupNight.id.desc()).limit(1))).scalars().first()


async def start_night(session: AsyncSession, group_id: int) -> GroupNight:
    """Start a night for the group; ``GroupError`` night_running (409) when one runs."""
    if await current_night(session, group_id) is not None:
        raise GroupError("night_running", N_("A night is already running."), 409)
    night = GroupNight(group_id=group_id, started_at=utcnow())
    session.add(night)
    await session.flush()
    return night


async def end_night(session: AsyncSession, group_id: int) -> GroupNight:
    """End the group's running night; ``GroupError`` no_night (409) when none runs."""
    night = await current_night(session, group_id)
    if night is None:
        raise GroupError("no_night", N_("No night is running."), 409)
    night.ended_at = utcnow()
    return night


async def standings(session: AsyncSession, night_id: int) -> tuple[int, list[Standing]]:
    """The night's number of games and its members' standings, leader first."""
    rows = list((await session.execute(
        select(GroupResult).where(GroupResult.night_id == night_id))).scalars())
    seats: dict[int, int] = {}
    played: dict[str, dict[int, int]] = {}
    names: dict[str, str] = {}
    for row in rows:
        seats[row.game_id] = row.players
        if row.member:
            played.setdefault(row.player_id, {})[row.game_id] = row.rank
            names[row.player_id] = row.name
    table = [Standing(player, names[player],
                      sum(ranks.get(game, count + 1) for game, count in seats.items()),
                      len(ranks))
             for player, ranks in played.items()]
    table.sort(key=lambda s: (s.points, -s.games, s.name.casefold(), s.player_id))
    for entry in table:
        entry.place = 1 + sum(1 for other in table if other.points < entry.points)
    return len(seats), table
