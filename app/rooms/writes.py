"""The changes room actions make inside a write's transaction (``repository.Work``): each is
an async function of the session, built by a factory here, and run by
``RoomRepository.write`` together with the version bump (docs/rules.md, "Rooms")."""

from __future__ import annotations

from collections.abc import Collection
from datetime import datetime
from typing import Any, Protocol

from sqlalchemy import func, select, update
from sqlalchemy.ext.asyncio import AsyncSession

from app.players.service import upsert_player
from app.rooms.repository import INSERT_EVENTS, Work, result_of
from app.rooms.state import RoomState
from app.store.models import Game, Room, Seat


class RoomWriter(Protocol):
    """What stores a room change (``RoomActions.write``), as the seat-adding actions of
    ``app.rooms.bots.seats`` and ``app.rooms.pass_and_play`` see it."""

    async def write(self, state: RoomState, work: Any, status: str | None = None,
                    action_id: str | None = None, reload: bool = False) -> int:
        """Run ``work`` in a write of room ``state`` with its version bump (and ``status``),
        recorded under ``action_id``, rebuilding the room's state when ``reload``; returns
        the new version. Raises ``Conflict`` when another writer moved the version."""
        ...


async def nothing(session: AsyncSession) -> None:
    """No change besides the version bump (and the status passed with it)."""


async def seat_player(session: AsyncSession, state: RoomState, player_id: str,
                      name: str) -> None:
    """Give ``player_id`` a seat as ``name`` (their old one again, or the next position);
    they host a room that has no host."""
    await upsert_player(session, player_id, name)
    existing = (
        await session.execute(
            select(Seat).where(Seat.room_id == state.id, Seat.player_id == player_id)
        )
    ).scalar_one_or_none()
    if existing is not None:
        existing.status, existing.name = "active", name
    else:
        position = (
            await session.execute(
                select(func.coalesce(func.max(Seat.position), -1)).where(Seat.room_id == state.id)
            )
        ).scalar_one() + 1
        session.add(Seat(room_id=state.id, player_id=player_id, position=position, name=name))
    if state.host_player_id is None:
        await session.execute(
            update(Room).where(Room.id == state.id).values(host_player_id=player_id)
        )


def new_game(state: RoomState, number: int, options: dict[str, Any], order: list[int],
             dice_seed: str | None = None) -> Work:
    """Game ``number`` of the room, playing with ``options`` in seat ``order`` and its secret
    ``dice_seed`` (docs/dice.md; None without server dice); every seat's "ready" mark
    cleared."""
    async def work(session: AsyncSession) -> None:
        session.add(Game(room_id=state.id, number=number, kind=state.kind, options=options,
                         seat_ids=order, status="playing", dice_seed=dice_seed))
        await session.execute(update(Seat).where(Seat.room_id == state.id).values(ready=False))

    return work


def seat_gone(room_id: int, seat_id: int, status: str, host: str | None,
              events: list[dict[str, Any]]) -> Work:
    """Seat ``seat_id`` takes ``status`` (``left``/``removed``), ``host`` hosts the room, and
    the running game gets the event rows ``events`` (``event_rows``; may be empty)."""
    async def work(session: AsyncSession) -> None:
        await session.execute(update(Seat).where(Seat.id == seat_id).values(status=status))
        await session.execute(update(Room).where(Room.id == room_id)
                              .values(host_player_id=host))
        if events:
            await session.execute(INSERT_EVENTS, events)

    return work


def game_finished(game_id: int, totals: dict[int, int], now: datetime,
                  records: list[int] | None = None, left: Collection[int] = ()) -> Work:
    """Game ``game_id`` is finished at ``now`` with ``totals`` (points per seat id), the
    seats that set a personal best with it (``records``, ``app.rooms.records``) and those
    taken out of it before the end (``left``)."""
    async def work(session: AsyncSession) -> None:
        await session.execute(update(Game).where(Game.id == game_id).values(
            status="finished", finished_at=now, result=result_of(totals, records, left)))

    return work


def room_values(room_id: int, **values: Any) -> Work:
    """Set the room row's columns ``values``."""
    async def work(session: AsyncSession) -> None:
        await session.execute(update(Room).where(Room.id == room_id).values(**values))

    return work


def seat_values(seat_id: int, **values: Any) -> Work:
    """Set seat ``seat_id``'s columns ``values``."""
    async def work(session: AsyncSession) -> None:
        await session.execute(update(Seat).where(Seat.id == seat_id).values(**values))

    return work
