"""A fixture of known finished games in a group's room, stored as the rooms store them (rooms,
seats, games with their totals, Kniffel events), for the groups' tests."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from app.groups.models import Group, GroupMember, GroupNight, GroupRoom
from app.groups.record import Recorder
from app.store.db import Database
from app.store.models import Game, GameEvent, Player, Room, Seat

T0 = datetime(2026, 11, 10, 20, 0, tzinfo=UTC)  # a day of the season 2026-11
ANNA, BRAM, CARL = "a" * 32, "b" * 32, "c" * 32
BOT = "bot-s-0123456789abcdef"
NAMES = {ANNA: "Anna", BRAM: "Bram", CARL: "Carl", BOT: "Bot Eva"}
KNIFFEL = [6, 6, 6, 6, 6]


async def make_group(db: Database, name: str = "Sunday") -> tuple[int, str]:
    """A group of Anna (admin), Bram and Carl with one room (``ROOMCODE-GROUP1``, seats for
    the three and a strong bot); returns (group id, room code)."""
    async with db.sessionmaker() as session, session.begin():
        for pid, who in NAMES.items():
            session.add(Player(id=pid, name=who))
        await session.flush()
        group = Group(code="GROUPCODE0000001", name=name, admin_player_id=ANNA,
                      invite="INVITE0000000001")
        session.add(group)
        room = Room(code="ROOMCODEGROUP001", game="kniffel", options={},
                    host_player_id=ANNA, status="finished", version=1)
        session.add(room)
        await session.flush()
        for pid in (ANNA, BRAM, CARL):
            session.add(GroupMember(group_id=group.id, player_id=pid, name=NAMES[pid]))
        for i, pid in enumerate((ANNA, BRAM, CARL, BOT)):
            session.add(Seat(room_id=room.id, player_id=pid, position=i, name=NAMES[pid]))
        session.add(GroupRoom(room_id=room.id, group_id=group.id))
        return group.id, room.code


async def add_night(db: Database, group_id: int, start: datetime,
                    end: datetime | None) -> int:
    """A night of the group from ``start`` to ``end``; its id."""
    async with db.sessionmaker() as session, session.begin():
        night = GroupNight(group_id=group_id, started_at=start, ended_at=end)
        session.add(night)
        await session.flush()
        return night.id


async def add_game(db: Database, room_code: str, number: int, kind: str,
                   totals: dict[str, int], at: datetime,
                   thrown: dict[str, int] | None = None) -> int:
    """A finished game ``number`` of ``kind`` in the room with ``totals`` (player -> points),
    finished ``at``; ``thrown``: player -> turns scored with five of a kind (as ``roll`` and
    ``score`` events). Returns the game id."""
    from sqlalchemy import select

    async with db.sessionmaker() as session, session.begin():
        room = (await session.execute(select(Room).where(Room.code == room_code))).scalar_one()
        seats = {s.player_id: s.id for s in (await session.execute(
            select(Seat).where(Seat.room_id == room.id))).scalars()}
        order = [seats[p] for p in totals]
        game = Game(room_id=room.id, number=number, kind=kind, options={}, seat_ids=order,
                    status="finished",
                    result={"totals": {str(seats[p]): v for p, v in totals.items()}},
                    started_at=at - timedelta(minutes=20), finished_at=at)
        session.add(game)
        await session.flush()
        seq = 0
        for player in totals:
            for dice in [KNIFFEL] * (thrown or {}).get(player, 0) + [[1, 2, 3, 4, 6]]:
                for type_, payload in (("roll", {"dice": dice, "held": [False] * 5}),
                                       ("score", {"box": "chance", "column": 0, "points": 1})):
                    seq += 1
                    session.add(GameEvent(game_id=game.id, seq=seq, type=type_,
                                          payload=payload, seat_id=seats[player]))
        return game.id


async def known_games(db: Database) -> tuple[int, list[int]]:
    """G5 (October) A 100 B 300; G1 A 250 B 200 C 200 (A throws one Kniffel); G2 A 180
    B 220 bot 300; G3 A 230 B 230 (A throws two); G4 Knister A 40 C 55. A night runs over
    G3 and G4. Every game recorded in the order it finished."""
    group_id, room = await make_group(db)
    await add_night(db, group_id, T0 + timedelta(hours=1, minutes=30), T0 + timedelta(hours=4))
    games = [
        await add_game(db, room, 5, "kniffel", {ANNA: 100, BRAM: 300}, T0 - timedelta(days=30)),
        await add_game(db, room, 1, "kniffel", {ANNA: 250, BRAM: 200, CARL: 200}, T0,
                       thrown={ANNA: 1}),
        await add_game(db, room, 2, "kniffel", {ANNA: 180, BRAM: 220, BOT: 300},
                       T0 + timedelta(hours=1)),
        await add_game(db, room, 3, "kniffel", {ANNA: 230, BRAM: 230}, T0 + timedelta(hours=2),
                       thrown={ANNA: 2}),
        await add_game(db, room, 4, "knister", {ANNA: 40, CARL: 55}, T0 + timedelta(hours=3)),
    ]
    recorder = Recorder(db)
    for game_id in games:
        assert await recorder.record(game_id) is True
    return group_id, games
