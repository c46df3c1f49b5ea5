"""A SIGKILLed server loses nothing: clients reconnect and the game finishes exactly as an
uninterrupted game with the same rolls and the same choices."""

from __future__ import annotations

import random

import pytest

from tests.support.players import Guest

pytestmark = pytest.mark.server

FACES = [random.Random(7).randint(1, 6) for _ in range(50)]


def _choose(roll_index: int, seat_index: int, empty: list[tuple[int, int]]):
    return empty[(roll_index * 7 + seat_index * 3) % len(empty)]


async def _setup(server, names=("Anna", "Bram", "Cem")):
    guests = [Guest(server.url, n) for n in names]
    code = await guests[0].create_room()
    for g in guests[1:]:
        assert (await g.join(code)).status_code == 303
    return guests, code


async def _connect(guests, code):
    return [await g.connect(code) for g in guests]


async def _play(guests, sockets, code, rolls: range) -> None:
    for roll_index in rolls:
        state = await guests[0].state(code)
        seat_ids = [s["id"] for s in state["seats"]]
        roller = state["current"]["roller"]
        assert (await sockets[seat_ids.index(roller)].act("roll")).ok
        state = await guests[0].state(code)
        for i, sock in enumerate(sockets):
            grid = state["current"]["sheets"][str(seat_ids[i])]
            empty = [(r, c) for r in range(5) for c in range(5) if grid[r][c] is None]
            r, c = _choose(roll_index, i, empty)
            assert (await sock.act("place", cell=f"{r},{c}")).ok


def _by_position(state):
    order = [s["id"] for s in state["seats"]]
    return [state["current"]["sheets"][str(s)] for s in order]


async def test_sigkill_mid_game_loses_nothing(server) -> None:
    guests, code = await _setup(server)
    r = await guests[0].http.post(f"/_test/rooms/{code}/dice", json={"faces": FACES})
    assert r.status_code == 200
    sockets = await _connect(guests, code)
    assert (await sockets[0].act("start")).ok
    await _play(guests, sockets, code, range(10))
    before_kill = await guests[0].state(code)

    server.kill()
    server.restart()
    # the dice queue lived in the killed process: queue the faces not yet used
    r = await guests[0].http.post(f"/_test/rooms/{code}/dice", json={"faces": FACES[20:]})
    assert r.status_code == 200
    after_restart = await guests[0].state(code)
    assert after_restart == before_kill
    sockets = await _connect(guests, code)
    await _play(guests, sockets, code, range(10, 25))
    interrupted = await guests[0].state(code)
    assert interrupted["status"] == "finished"

    # the same game without interruption, in a second room
    others, code2 = await _setup(server)
    r = await others[0].http.post(f"/_test/rooms/{code2}/dice", json={"faces": FACES})
    assert r.status_code == 200
    sockets2 = await _connect(others, code2)
    assert (await sockets2[0].act("start")).ok
    await _play(others, sockets2, code2, range(25))
    straight = await others[0].state(code2)

    assert _by_position(interrupted) == _by_position(straight)
    assert interrupted["current"]["rolls"] == straight["current"]["rolls"]
    # the same totals seat by seat as the game played without a crash
    order, order2 = ([str(s["id"]) for s in st["seats"]] for st in (interrupted, straight))
    assert [interrupted["current"]["totals"][s] for s in order] == [
        straight["current"]["totals"][s] for s in order2]
