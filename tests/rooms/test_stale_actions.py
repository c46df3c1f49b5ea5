"""Every state-changing room message names the state it was decided on (issue 11, part 1).

For each message type (options, ready, start, roll, place, remove, leave, next_game and
rematch in a Knister room; roll, hold and score in a Kniffel room): the same message with a
basis that is no longer current, or with none, is refused with ``stale``, leaves the room's
state byte for byte as it was, and the page is sent the table as it is now; with the current
basis it is applied. Afterwards the server is killed and restarted, and every applied
message sent again with its action id is answered as a duplicate, changing nothing.

Who may act is asked before the basis: a message from a player who may not take it (not the
host, not their turn, no seat) is refused for that reason, with or without a basis, and
changes nothing.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field

import pytest

from tests.support.players import Guest, RoomSocket, wait_for

pytestmark = [pytest.mark.server, pytest.mark.one_backend]


@dataclass
class Room:
    """Guests (the first is the host), their sockets, and every applied message."""

    server: object
    guests: list[Guest]
    sockets: list[RoomSocket]
    code: str
    applied: list[tuple[int, str, str, dict]] = field(default_factory=list)

    async def text(self) -> str:
        """The room's public state, byte for byte."""
        r = await self.guests[0].http.get(f"/r/{self.code}/state.json")
        assert r.status_code == 200
        return r.text

    async def state(self) -> dict:
        return await self.guests[0].state(self.code)

    async def ok(self, who: int, kind: str, **fields) -> None:
        """``who`` sends ``kind`` with the page's basis; it must be applied."""
        sock = self.sockets[who]
        action_id = f"{kind}-{len(self.applied)}"
        reply = await sock.act(kind, action_id=action_id, **fields)
        assert reply.ok and not reply.duplicate, (kind, fields, reply)
        self.applied.append((who, kind, action_id, fields))

    async def refused_as_stale(self, who: int, kind: str, wrong: dict, **fields) -> None:
        """``kind`` from ``who`` with the basis fields ``wrong`` changed, then with them
        missing: refused ``stale`` each time, nothing changes, the page gets a fresh view."""
        sock = self.sockets[who]
        before = await self.text()
        missing = {k: v for k, v in sock.basis.items() if k not in wrong}
        for basis in ({**sock.basis, **wrong}, missing):
            seen = len(sock.fragments)
            reply = await sock.act(kind, basis=basis, **fields)
            assert (reply.ok, reply.code) == (False, "stale"), (kind, basis, reply)
            assert await self.text() == before, (kind, basis)
            await wait_for(lambda n=seen: any('<div id="live"' in f for f in sock.fragments[n:]))
            assert sock.basis["version"] == (await self.state())["version"]

    async def close(self) -> None:
        for sock in self.sockets:
            await sock.close()
        for guest in self.guests:
            await guest.aclose()


async def open_room(server, game: str, names: tuple[str, ...]) -> Room:
    guests = [Guest(server.url, name) for name in names]
    code = await guests[0].create_room(game)
    for guest in guests[1:]:
        assert (await guest.join(code)).status_code == 303
    sockets = [await g.connect(code) for g in guests]
    room = Room(server, guests, sockets, code)
    version = (await room.state())["version"]
    for sock in sockets:
        await sock.wait_version(version)
        await wait_for(lambda s=sock: s.basis.get("version") == version)
    return room


async def load_dice(room: Room, faces: list[int]) -> None:
    r = await room.guests[0].http.post(f"/_test/rooms/{room.code}/dice",
                                       json={"faces": faces})
    assert r.status_code == 200, r.text


def index_of(room_state: dict, seat_id: int) -> int:
    return [s["id"] for s in room_state["seats"]].index(seat_id)


async def play_knister_roll(room: Room, check: bool = False) -> None:
    """The roller rolls, every active seat places in its first empty cell (checking the
    stale forms of roll and place on the way when ``check``)."""
    state = await room.state()
    current = state["current"]
    roller = index_of(state, current["roller"])
    if check:
        rolls = len(current["rolls"])
        await room.refused_as_stale(roller, "roll", {"roll": rolls - 1})
    await room.ok(roller, "roll")
    state = await room.state()
    current = state["current"]
    for n, seat in enumerate(current["active"]):
        grid = current["sheets"][str(seat)]
        r, c = next((r, c) for r in range(5) for c in range(5) if grid[r][c] is None)
        who = index_of(state, seat)
        if check and n == 0:
            await room.refused_as_stale(who, "place", {"roll": len(current["rolls"]) - 1},
                                        cell=f"{r},{c}")
        await room.ok(who, "place", cell=f"{r},{c}")


async def resend_all_as_duplicates(room: Room) -> None:
    """Kill and restart the server, reconnect, send every applied message again with its
    action id (and the page's current basis): each is a duplicate, nothing changes."""
    before = await room.text()
    for sock in room.sockets:
        await sock.close()
    room.server.kill()
    await asyncio.to_thread(room.server.restart)
    room.sockets = [await g.connect(room.code) for g in room.guests]
    version = (await room.state())["version"]
    for sock in room.sockets:
        await sock.wait_version(version)
    for who, kind, action_id, fields in room.applied:
        reply = await room.sockets[who].act(kind, action_id=action_id, **fields)
        assert reply.ok and reply.duplicate, (kind, action_id, reply)
    assert await room.text() == before


async def test_knister_room_messages_are_refused_when_stale_and_duplicates_survive_restart(
        server) -> None:
    room = await open_room(server, "knister", ("Anna", "Bram", "Cato"))
    anna, bram, cato = 0, 1, 2
    # lobby: options, ready, remove, leave and start
    await room.refused_as_stale(anna, "options", {"game": 1}, match="3")
    await room.ok(anna, "options", match="3")
    await room.refused_as_stale(bram, "ready", {"game": 1}, ready=True)
    await room.ok(bram, "ready", ready=True)
    seats = {s["name"]: s["id"] for s in (await room.state())["seats"]}
    await room.refused_as_stale(anna, "remove", {"version": 1}, target=seats["Cato"])
    await room.refused_as_stale(cato, "leave", {"game": 1})
    await room.refused_as_stale(anna, "start", {"version": 1})
    await room.ok(anna, "start")
    # game 1 of 3: roll and place, then play it out
    await play_knister_roll(room, check=True)
    for _ in range(24):
        await play_knister_roll(room)
    state = await room.state()
    assert state["status"] == "finished"
    await room.refused_as_stale(anna, "next_game", {"version": state["version"] - 1})
    await room.ok(anna, "next_game")
    state = await room.state()
    assert [g["number"] for g in state["games"]] == [1, 2]
    # game 2: a leave and a removal, each checked stale first
    await room.refused_as_stale(cato, "leave", {"game": 1})
    await room.ok(cato, "leave")
    await room.refused_as_stale(anna, "remove", {"version": 2}, target=seats["Bram"])
    await room.ok(anna, "remove", target=seats["Bram"])
    await play_knister_roll(room)
    await resend_all_as_duplicates(room)
    await room.close()


async def test_kniffel_room_messages_are_refused_when_stale_and_duplicates_survive_restart(
        server) -> None:
    room = await open_room(server, "kniffel", ("Anna", "Bram"))
    await room.ok(0, "start")
    order = (await room.state())["current"]["order"]
    state = await room.state()
    first, second = index_of(state, order[0]), index_of(state, order[1])
    await load_dice(room, [1, 2, 3, 4, 5] * 26)
    # roll, hold and score, each stale first (an earlier roll, an earlier turn, none)
    await room.refused_as_stale(first, "roll", {"rolls": 1})
    await room.ok(first, "roll")
    await room.refused_as_stale(first, "hold", {"rolls": 0}, die=0, held=True)
    await room.refused_as_stale(first, "hold", {"turn": 0}, die=0, held=True)
    await room.ok(first, "hold", die=0, held=True)
    await room.refused_as_stale(first, "score", {"rolls": 2}, box="chance")
    await room.ok(first, "score", box="chance")
    boxes = ["ones", "twos", "threes", "fours", "fives", "sixes", "three_of_a_kind",
             "four_of_a_kind", "full_house", "small_straight", "large_straight", "yahtzee"]
    await room.ok(second, "roll")
    await room.ok(second, "score", box="chance")
    for box in boxes:
        for who in (first, second):
            await room.ok(who, "roll")
            await room.ok(who, "score", box=box)
    state = await room.state()
    assert state["status"] == "finished"
    await room.refused_as_stale(0, "rematch", {"version": state["version"] - 1})
    await room.ok(0, "rematch")
    assert (await room.state())["status"] == "lobby"
    await resend_all_as_duplicates(room)
    await room.close()


async def test_a_score_from_a_page_behind_a_second_roll_is_refused(server) -> None:
    # found: the page shows dice A and "chance 13"; a second tab rolls again (dice B); the
    # first page's "score chance" wrote chance from dice B
    room = await open_room(server, "kniffel", ("Anna", "Bram"))
    await room.ok(0, "start")
    state = await room.state()
    who = index_of(state, state["current"]["order"][0])
    second_tab = await room.guests[who].connect(room.code)
    await second_tab.wait_version(state["version"])
    await load_dice(room, [1, 2, 3, 3, 4, 6, 6, 6, 2, 2])
    await room.ok(who, "roll")
    page = room.sockets[who]
    shown = dict(page.basis)  # dice 1 2 3 3 4: chance 13
    assert (await second_tab.act("roll")).ok  # dice 6 6 6 2 2
    before = await room.text()
    reply = await page.act("score", basis=shown, box="chance")
    assert (reply.ok, reply.code) == (False, "stale")
    assert await room.text() == before
    assert (await room.state())["current"]["sheets"][str(state["current"]["order"][0])][0][
        "boxes"]["chance"] is None
    await second_tab.close()
    await room.close()


async def test_roll_and_score_sent_back_to_back_score_nothing(server) -> None:
    # found: Roll and a score sent back to back from one tab: full house shown 25, written 0
    room = await open_room(server, "kniffel", ("Anna", "Bram"))
    await room.ok(0, "start")
    state = await room.state()
    who = index_of(state, state["current"]["order"][0])
    await load_dice(room, [2, 2, 3, 3, 3, 1, 4, 5, 6, 1])
    await room.ok(who, "roll")
    page = room.sockets[who]
    shown = dict(page.basis)
    roll, score = await asyncio.gather(
        page.act("roll", basis=shown), page.act("score", basis=shown, box="full_house"))
    assert roll.ok
    assert (score.ok, score.code) == (False, "stale")
    current = (await room.state())["current"]
    assert current["dice"] == [1, 4, 5, 6, 1] and current["rolls"] == 2
    assert current["sheets"][str(state["current"]["order"][0])][0]["boxes"][
        "full_house"] is None
    await room.close()


async def refused_for(room: Room, sock: RoomSocket, kind: str, basis: dict,
                      answer: tuple[str, str], **fields) -> None:
    """``kind`` from ``sock`` with ``basis`` is refused with ``answer`` (code, message);
    nothing changes; a basis that is not the page's own (none, or an older one) also brings
    the page the table as it is now."""
    before = await room.text()
    seen = len(sock.fragments)
    reply = await sock.act(kind, basis=basis, **fields)
    assert (reply.ok, reply.code, reply.message) == (False, *answer), (kind, basis, reply)
    assert await room.text() == before, (kind, basis)
    if basis != sock.basis:
        await wait_for(lambda: any('<div id="live"' in f for f in sock.fragments[seen:]))


NOT_HOST = ("not_host", "Only the host can do that.")
NOT_SEATED = ("not_seated", "Only seated players can do that.")


async def test_who_may_not_act_is_told_why_not_that_the_table_changed(server) -> None:
    """Found by a fresh user: ``{"type": "roll"}`` without its basis from the player who does
    not roll, and a non-host's options, were answered "The table changed before your action
    arrived", though it was not their turn, or they were not the host."""
    room = await open_room(server, "knister", ("Anna", "Bram"))
    bram = room.sockets[1]
    watcher = Guest(server.url, "Wim")  # watches the room without a seat
    assert (await watcher.http.get(f"/r/{room.code}?watch=1")).status_code == 200
    spectator = await watcher.connect(room.code)
    try:
        await spectator.wait_version((await room.state())["version"])
        old = {**bram.basis, "version": bram.basis["version"] - 1, "game": 1}
        for basis in ({}, old, bram.basis):
            await refused_for(room, bram, "options", basis, NOT_HOST, match="3")
            await refused_for(room, bram, "start", basis, NOT_HOST)
            await refused_for(room, bram, "remove", basis, NOT_HOST,
                              target=(await room.state())["seats"][0]["id"])
        for basis in ({}, spectator.basis):
            await refused_for(room, spectator, "ready", basis, NOT_SEATED, ready=True)
        await room.ok(0, "start")
        state = await room.state()
        roller = index_of(state, state["current"]["roller"])
        other = room.sockets[1 - roller]
        turn = ("not_your_turn", "It is not your turn to roll.")
        for basis in ({}, {**other.basis, "roll": 3}, other.basis):
            await refused_for(room, other, "roll", basis, turn)
        for basis in ({}, spectator.basis):
            await refused_for(room, spectator, "roll", basis, NOT_SEATED)
        # the roller's page behind the table is still refused as stale
        await room.refused_as_stale(roller, "roll", {"roll": 1})
        await room.ok(roller, "roll")
    finally:
        await spectator.close()
        await watcher.aclose()
        await room.close()


async def test_in_kniffel_only_the_player_on_turn_is_told_the_table_changed(server) -> None:
    room = await open_room(server, "kniffel", ("Anna", "Bram"))
    await room.ok(0, "start")
    state = await room.state()
    first, second = (index_of(state, seat) for seat in state["current"]["order"][:2])
    await load_dice(room, [2, 2, 3, 3, 3])
    await room.ok(first, "roll")
    waiting = room.sockets[second]
    turn = ("not_your_turn", "It is not your turn.")
    for basis in ({}, {**waiting.basis, "rolls": 0}):
        await refused_for(room, waiting, "roll", basis, turn)
        await refused_for(room, waiting, "hold", basis, turn, die=0, held=True)
        await refused_for(room, waiting, "score", basis, turn, box="chance")
    await room.refused_as_stale(first, "score", {"rolls": 0}, box="full_house")
    await room.ok(first, "score", box="full_house")
    await room.close()


async def test_the_last_placement_of_a_roll_from_two_tabs_is_placed_once(server) -> None:
    """Found by a fresh user: Anna placed the roll from two tabs at once, the last placement
    the roll waited for; the tab that lost was told "There is no roll to place yet"."""
    room = await open_room(server, "knister", ("Anna", "Bram"))
    await room.ok(0, "start")
    state = await room.state()
    await room.ok(index_of(state, state["current"]["roller"]), "roll")
    await room.ok(1, "place", cell="0,0")  # Bram first: Anna's placement is the last one
    second_tab = await room.guests[0].connect(room.code)
    version = (await room.state())["version"]
    await second_tab.wait_version(version)
    await wait_for(lambda: second_tab.basis.get("version") == version)
    first_tab = room.sockets[0]
    replies = await asyncio.gather(first_tab.act("place", cell="1,1"),
                                   second_tab.act("place", cell="2,2"))
    assert sorted((r.ok, r.code, r.message) for r in replies) == [
        (False, "already_placed", "You have already placed this roll."), (True, "", "")]
    state = await room.state()
    anna = str(state["seats"][0]["id"])
    grid = state["current"]["sheets"][anna]
    assert sum(v is not None for row in grid for v in row) == 1
    assert not state["current"]["roll_pending"]
    await second_tab.close()
    await room.close()
