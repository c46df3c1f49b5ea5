"""Presence across two app processes on Postgres + Redis (``app/live/presence.py``, README
"Configuration": ``PRESENCE_TTL_SECONDS``): when a replica dies (SIGKILL: it never says
goodbye), its players stop counting as online on the survivor within the presence TTL, so
the survivor hands the host role over in the waiting room and, in a running game, a bot
plays for the player who was on the dead replica (docs/rules.md, "Host hand-over" and
"Bots": "Bot takes over")."""

from __future__ import annotations

import asyncio
import re
import time

import pytest
from sqlalchemy import select

from app.store.db import Database
from app.store.models import Game, GameEvent, Room
from tests.support.players import Guest, RoomSocket
from tests.support.server import ServerProcess, server_env_for

pytestmark = pytest.mark.server

TTL = 3.0  # PRESENCE_TTL_SECONDS of both processes (each re-announces every second)
GRACE = 1.0  # HOST_GRACE_SECONDS and BOT_TAKEOVER_SECONDS
LATE = 2.0  # seconds a busy machine may add to a deadline (both processes, the test)
START = 60.0  # seconds a server may take to come up on a busy machine
ONLINE = re.compile(r'data-seat="(\d+)" data-presence="online"')
TAKEN_OVER = re.compile(r'data-taken-over="(\d+)"')
SEATS = 'id="seats"'  # the seats list part (templates/rooms/_parts.html)


def _shown(sock: RoomSocket, pattern: re.Pattern[str]) -> set[int]:
    """The seats matching ``pattern`` in the seats list ``sock``'s page shows now: the newest
    fragment that brought the list. (Not simply the newest live fragment: an update sends only
    the parts that changed, so one without the seats list says nothing of them. Reading it as
    "none" made this test fail now and then, when a bot's roll and place came within one
    look.)"""
    newest = next((f for f in reversed(sock.fragments) if SEATS in f), "")
    return {int(seat) for seat in pattern.findall(newest)}


async def _until(sock: RoomSocket, pattern: re.Pattern[str], seats: set[int],
                 timeout: float) -> float:
    """Wait until ``sock``'s page shows exactly ``seats`` matching ``pattern``; seconds taken."""
    started = time.monotonic()
    while time.monotonic() - started < timeout:
        if sock.fragments and _shown(sock, pattern) == seats:
            return time.monotonic() - started
        await asyncio.sleep(0.05)
    raise AssertionError(f"{pattern.pattern}: {_shown(sock, pattern)}, not {seats}")


async def _room(host: Guest, guest: Guest) -> tuple[str, RoomSocket, RoomSocket, dict]:
    """A Knister room of ``host`` (seat 1) and ``guest``, both connected; (code, sockets,
    seat ids by name)."""
    code = await host.create_room()
    assert (await guest.join(code)).status_code == 303
    sockets = await host.connect(code), await guest.connect(code)
    seats = {s["name"]: s["id"] for s in (await host.state(code))["seats"]}
    return code, *sockets, seats


async def _events(database_url: str, code: str) -> list[tuple[str, int | None, dict]]:
    """(type, seat, payload) of every stored event of room ``code``'s games, in order."""
    db = Database(database_url)
    try:
        async with db.sessionmaker() as session:
            rows = await session.execute(
                select(GameEvent.type, GameEvent.seat_id, GameEvent.payload)
                .join(Game, Game.id == GameEvent.game_id).join(Room, Room.id == Game.room_id)
                .where(Room.code == code).order_by(GameEvent.seq))
            return [tuple(row) for row in rows]
    finally:
        await db.dispose()


@pytest.mark.parametrize("backend", ["postgres"], indirect=True)
async def test_a_killed_replicas_players_go_away_so_host_and_seat_are_taken_over(
        backend, settings, redis_url, tmp_path) -> None:
    env = server_env_for(
        settings.database_url, tmp_path, BROADCAST_URL=redis_url,
        PRESENCE_TTL_SECONDS=str(TTL), HOST_GRACE_SECONDS=str(GRACE),
        BOT_TAKEOVER_SECONDS=str(GRACE), BOT_DELAY_MIN="0", BOT_DELAY_MAX="0.05")
    survivor = ServerProcess(env, log=tmp_path / "survivor.log")
    doomed = ServerProcess(env, log=tmp_path / "doomed.log")
    try:
        await asyncio.gather(asyncio.to_thread(survivor.start, START),
                             asyncio.to_thread(doomed.start, START))
        anna, bram = Guest(doomed.url, "Anna"), Guest(survivor.url, "Bram")
        lobby, lobby_a, lobby_b, seats = await _room(anna, bram)
        game, game_a, game_b, game_seats = await _room(anna, bram)
        assert (await game_a.act("start")).ok
        both, game_both = set(seats.values()), set(game_seats.values())
        await _until(lobby_b, ONLINE, both, 10)  # the survivor has heard of Anna
        await _until(game_b, ONLINE, game_both, 10)
        assert (await bram.state(lobby))["host_seat"] == seats["Anna"]

        doomed.kill()
        away = await _until(lobby_b, ONLINE, {seats["Bram"]}, TTL + LATE)
        await _until(game_b, ONLINE, {game_seats["Bram"]}, LATE)
        # Anna's page on the dead replica stops counting: the host role passes to Bram...
        deadline = time.monotonic() + GRACE + LATE
        while (await bram.state(lobby))["host_seat"] != seats["Bram"]:
            assert time.monotonic() < deadline, "the host role was never handed over"
            await asyncio.sleep(0.1)
        # ... and in the running game a bot plays Anna's seat: her roll and her placement
        await _until(game_b, TAKEN_OVER, {game_seats["Anna"]}, GRACE + LATE)
        deadline = time.monotonic() + LATE
        while [t for t, seat, _ in await _events(settings.database_url, game)
               if seat == game_seats["Anna"]] != ["roll", "place"]:
            assert time.monotonic() < deadline, "no bot moved for Anna"
            await asyncio.sleep(0.1)
        events = await _events(settings.database_url, game)
        marks = [(t, p.get("auto"), p.get("bot")) for t, seat, p in events
                 if seat == game_seats["Anna"]]
        assert marks == [("roll", True, True), ("place", True, True)]
        print(f"\nthe survivor showed Anna away {away:.1f} s after her replica died "
              f"(TTL {TTL:.0f} s)")
        for sock in (lobby_a, lobby_b, game_a, game_b):  # Anna's: closed by the crash
            await sock.close()
        await anna.aclose()
        await bram.aclose()
    finally:
        doomed.stop()
        survivor.stop()
