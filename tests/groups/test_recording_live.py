"""A room game played for a group through the room service feeds the group's table and the
ratings once, right after the commit that finished it (the room repository's ``finished``
hook, docs/architecture.md "Groups"); on SQLite and Postgres."""

from __future__ import annotations

import asyncio

from sqlalchemy import func, select

from app.clock import utcnow
from app.groups import service as groups
from app.groups.models import Group, RatedGame, Rating
from app.groups.record import Recorder
from app.groups.seasons import season
from app.groups.table import table
from app.rooms.dice import DiceSource
from app.rooms.rules import page_basis
from app.rooms.service import RoomService
from app.store.db import Database

ANNA, BRAM = "a" * 32, "b" * 32


async def _publish(code: str, version: int, delta: str | None = None) -> None:
    """Nobody listens."""


async def _group_room(db: Database, rooms: RoomService, kind: str) -> tuple[str, Group]:
    """A room of ``kind`` with Anna (host) and Bram, played for their new group Friday."""
    code = await rooms.create_room(ANNA, "Anna", kind)
    await rooms.join(code, BRAM, "Bram")
    async with db.sessionmaker() as session, session.begin():
        group = await groups.create_group(session, ANNA, "Anna", "Friday")
        await groups.join(session, group, BRAM, "Bram")
        await groups.attach_room(session, group, code, ANNA)
    return code, group


def test_a_finished_room_game_is_recorded_once_for_its_group(database_url):
    async def run():
        db = Database(database_url)
        recorder = Recorder(db)
        finished: list[int] = []

        def notify(game_id: int) -> None:
            finished.append(game_id)
            recorder.notify(game_id)

        rooms = RoomService(db, _publish, DiceSource(allow_loaded=True), finished=notify)
        recorder.start()
        try:
            code, group = await _group_room(db, rooms, "kniffel")
            state = await rooms.current(code)
            await rooms.act(code, ANNA, {**page_basis(state), "type": "start"})
            assert finished == []
            await rooms.play_out(code)
            assert len(finished) == 1
            await recorder.idle()
            async with db.sessionmaker() as session:
                rows = {r.name: (r.games, r.wins) for r in await table(
                    session, group.id, "kniffel", season("all", utcnow()))}
                rated = (await session.execute(
                    select(func.count()).select_from(RatedGame))).scalar()
                anna = await session.get(Rating, ("all", "kniffel", ANNA))
                in_group = await session.get(Rating, (f"g{group.id}", "kniffel", ANNA))
        finally:
            await recorder.close()
            rooms.close()
            await db.dispose()
        assert set(rows) == {"Anna", "Bram"} and {g for g, _ in rows.values()} == {1}
        assert sum(w for _, w in rows.values()) >= 1
        assert rated == 1 and anna.games == 1 and in_group.games == 1

    asyncio.run(run())


def test_a_game_that_ends_when_a_player_leaves_is_recorded_for_its_group(database_url):
    """Knister, last roll: Anna has written it, Bram leaves before writing: the game is over
    by his leaving (``RoomActions.remove``), and counts for the group like any other."""
    async def run():
        db = Database(database_url)
        recorder = Recorder(db)
        dice = DiceSource(allow_loaded=True)
        rooms = RoomService(db, _publish, dice, finished=recorder.notify)
        recorder.start()
        try:
            code, group = await _group_room(db, rooms, "knister")
            dice.load(code, [3, 4] * 25)  # every roll a 7

            async def act(player: str, **message) -> None:
                state = await rooms.current(code)
                await rooms.act(code, player, {**page_basis(state), **message})  # or raises

            await act(ANNA, type="start")
            by_seat = {s.id: s.player_id for s in (await rooms.current(code)).seats}
            for n in range(25):
                game = (await rooms.current(code)).game_state
                await act(by_seat[game.roller], type="roll")
                await act(ANNA, type="place", cell=f"{n // 5},{n % 5}")
                if n < 24:
                    await act(BRAM, type="place", cell=f"{n // 5},{n % 5}")
            state = await rooms.current(code)
            assert state.status == "playing"  # Bram's last sum is due
            assert state.game_state.sheets[state.seats[0].id].grid[4][4] == 7
            await act(BRAM, type="leave")
            assert (await rooms.current(code)).status == "finished"
            await recorder.idle()
            async with db.sessionmaker() as session:
                rows = {r.name: (r.games, r.wins, r.best) for r in await table(
                    session, group.id, "knister", season("all", utcnow()))}
        finally:
            await recorder.close()
            rooms.close()
            await db.dispose()
        # all sevens: every row, column and diagonal is five of a kind
        assert rows["Anna"][:2] == (1, 1)
        assert rows["Bram"][0] == 1 and rows["Bram"][1] == 0

    asyncio.run(run())
