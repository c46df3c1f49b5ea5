"""Reading and writing guest profiles."""

from __future__ import annotations

from sqlalchemy.ext.asyncio import AsyncSession

from app.clock import utcnow
from app.store.models import Player
from app.store.upsert import insert_for


async def get_player(session: AsyncSession, player_id: str) -> Player | None:
    """The profile for ``player_id`` (32 hex characters), or None before it has a name."""
    return await session.get(Player, player_id)


async def upsert_player(session: AsyncSession, player_id: str,
                        name: str | None = None) -> Player:
    """The profile row of ``player_id``, created on first need (race-safe: ``INSERT ... ON
    CONFLICT DO NOTHING``), with its name set to ``name`` (already cleaned) when given. The one
    place profiles are created (rooms, Knikkers, the name page); does not commit."""
    player = await session.get(Player, player_id)
    if player is None:
        stmt = insert_for(session, Player).values(id=player_id, name=name, knikkers_variant=5,
                                                  created_at=utcnow())
        await session.execute(stmt.on_conflict_do_nothing(index_elements=["id"]))
        player = await session.get(Player, player_id)
        assert player is not None
    if name is not None and player.name != name:
        player.name = name
        await session.flush()
    return player


async def save_name(session: AsyncSession, player_id: str, name: str) -> Player:
    """Create or update the profile ``player_id`` with an already cleaned ``name``; commits."""
    player = await upsert_player(session, player_id, name)
    await session.commit()
    return player
