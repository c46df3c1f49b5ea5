"""A player's room-game history (app/review/history.py): finished games of rooms they sat in,
with points and rank, on real SQLite and Postgres (migrated schema)."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta

from app.review.history import played_games
from app.store.db import Database
from app.store.models import Game, Player, Room, Seat

T0 = datetime(2026, 11, 30, 20, 0, tzinfo=UTC)


async def _fixture(db: Database) -> None:
    async with db.sessionmaker() as session, session.begin():
        for pid, name in (("a" * 32, "Anna"), ("b" * 32, "Bram"), ("c" * 32, "Carl")):
            session.add(Player(id=pid, name=name))
        await session.flush()
        room = Room(code="ROOMCODE1", game="knister", options={}, host_player_id="a" * 32,
                    status="finished", version=9)
        session.add(room)
        await session.flush()
        seats = [Seat(room_id=room.id, player_id=p * 32, position=i, name=n)
                 for i, (p, n) in enumerate((("a", "Anna"), ("b", "Bram"), ("c", "Carl")))]
        session.add_all(seats)
        await session.flush()
        a, b, c = (s.id for s in seats)
        session.add_all([
            Game(room_id=room.id, number=1, kind="knister", options={}, seat_ids=[a, b],
                 status="finished", result={"totals": {str(a): 30, str(b): 41}},
                 started_at=T0, finished_at=T0 + timedelta(minutes=5)),
            Game(room_id=room.id, number=2, kind="knister", options={}, seat_ids=[a, b, c],
                 status="finished", result={"totals": {str(a): 50, str(b): 50, str(c): 7}},
                 started_at=T0, finished_at=T0 + timedelta(minutes=9)),
            Game(room_id=room.id, number=3, kind="knister", options={}, seat_ids=[a, b, c],
                 status="playing", started_at=T0),
        ])


def test_history_lists_finished_room_games_with_rank_newest_first(database_url):
    async def run():
        db = Database(database_url)
        try:
            await _fixture(db)
            async with db.sessionmaker() as session:
                anna = list(reversed(await played_games(session, "a" * 32)))
                carl = await played_games(session, "c" * 32)
                nobody = await played_games(session, "d" * 32)
        finally:
            await db.dispose()
        assert [(r.number, r.score, r.rank, r.players) for r in anna] == [(2, 50, 1, 3),
                                                                         (1, 30, 2, 2)]
        assert anna[0].code == "ROOMCODE1" and anna[0].kind == "knister"
        assert anna[0].finished_at == T0 + timedelta(minutes=9)
        # Carl sat in the room for the second game only; the running game does not count.
        assert [(r.number, r.score, r.rank) for r in carl] == [(2, 7, 3)]
        assert nobody == []

    asyncio.run(run())


def test_player_page_shows_room_games(client, settings):
    async def seed():
        db = Database(settings.database_url)
        try:
            await _fixture(db)
        finally:
            await db.dispose()

    asyncio.run(seed())
    page = client.get("/players/" + "a" * 32 + "/games",
                      headers={"accept-language": "en"}).text
    assert page.count('data-kind="knister"') == 2
    assert 'data-rank="1"' in page and 'data-score="50"' in page
    assert 'data-played="ROOMCODE1/2"' in page
