"""Reading and writing guest profiles."""

from __future__ import annotations

from sqlalchemy.ext.asyncio import AsyncSession

from app.store.models import Player


async def get_player(session: AsyncSession, player_id: str) -> Player | None:
    """The profile for ``player_id`` (32 hex characters), or None before it has a name."""
    return await session.get(Player, player_id)


async def save_name(session: AsyncSession, player_id: str, name: str) -> Player:
    """Create or update the profile ``player_id`` with an already cleaned ``name``; commits."""
    player = await session.get(Player, player_id)
    if player is None:
        player = Player(id=player_id, name=name)
        session.add(player)
    else:
        player.name = name
    await session.commit()
    return player
