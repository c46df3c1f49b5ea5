"""Rematch in one step over real room sockets (docs/rules.md, "Rematch and ready"): after the
last game of a match the host's "Play again" starts the next game at once, with the same
options and the start player moved on; nobody else can; twice at once makes one game; "Change
the options first" still goes back to the waiting room."""

from __future__ import annotations

import asyncio

import pytest

from tests.support.players import Guest, RoomSocket, close_all

pytestmark = pytest.mark.server


async def finished_room(server) -> tuple[str, list[Guest], list[RoomSocket]]:
    """A Knister room of Anna (host) and Bram, options changed from the defaults, whose one
    game the server played to its end; both pages show the result."""
    guests = [Guest(server.url, "Anna"), Guest(server.url, "Bram")]
    code = await guests[0].create_room("knister")
    assert (await guests[1].join(code)).status_code == 303
    socks = [await g.connect(code) for g in guests]
    version = (await guests[0].state(code))["version"]
    for sock in socks:
        await sock.wait_version(version)
    assert (await socks[0].act("options", version=version, timer="60")).ok
    version = (await guests[0].state(code))["version"]
    assert (await socks[0].act("start", version=version)).ok
    r = await guests[0].http.post(f"/_test/rooms/{code}/finish")
    assert r.status_code == 200, r.text
    state = await guests[0].state(code)
    assert state["status"] == "finished"
    for sock in socks:
        await sock.wait_version(state["version"])
    return code, guests, socks


async def test_play_again_starts_the_next_game_at_once_with_the_same_options(server) -> None:
    code, guests, (a, b) = await finished_room(server)
    assert 'data-action="play-again"' in a.last_live()
    assert 'data-action="play-again"' not in b.last_live()
    assert "you want to play again" in b.last_live()  # what "Ready" means, beside it
    assert (await b.act("ready", ready=True)).ok
    refused = await b.act("play_again")
    assert (refused.ok, refused.code) == (False, "not_host")
    before = await guests[0].state(code)
    reply = await a.act("play_again")
    assert reply.ok, reply
    state = await guests[0].state(code)
    assert state["status"] == "playing"
    assert [g["number"] for g in state["games"]] == [1, 2]
    assert state["options"] == before["options"] and state["options"]["timer"] == 60
    seats = [s["id"] for s in state["seats"]]
    assert state["games"][-1]["seat_ids"] == [seats[1], seats[0]]  # Bram starts game 2
    assert [s["ready"] for s in state["seats"]] == [False, False]
    assert state["version"] == before["version"] + 1  # one step
    await close_all(guests, [a, b])


async def test_play_again_twice_at_once_makes_one_game(server) -> None:
    code, guests, (a, b) = await finished_room(server)
    tab = await guests[0].connect(code)
    await tab.wait_version((await guests[0].state(code))["version"])
    first, second = await asyncio.gather(a.act("play_again"), tab.act("play_again"))
    assert sorted([first.ok, second.ok]) == [False, True], (first, second)
    assert {first.code, second.code} == {"", "stale"}
    assert [g["number"] for g in (await guests[0].state(code))["games"]] == [1, 2]
    await close_all(guests, [a, b, tab])


async def test_change_the_options_first_goes_back_to_the_waiting_room(server) -> None:
    code, guests, (a, b) = await finished_room(server)
    assert 'data-action="rematch"' in a.last_live()
    assert (await a.act("rematch")).ok
    state = await guests[0].state(code)
    assert state["status"] == "lobby" and [g["number"] for g in state["games"]] == [1]
    refused = await a.act("play_again")  # only from the result screen
    assert (refused.ok, refused.code) == (False, "not_finished")
    await close_all(guests, [a, b])
