"""Knister played live over real WebSockets against a real uvicorn server."""

from __future__ import annotations

import asyncio
import re

import pytest

from tests.support.players import Guest, wait_for

pytestmark = [pytest.mark.server, pytest.mark.one_backend]


async def _start_game(server, names=("Anna", "Bram")):
    guests = [Guest(server.url, n) for n in names]
    code = await guests[0].create_room("knister")
    for g in guests[1:]:
        r = await g.join(code)
        assert r.status_code == 303
    sockets = [await g.connect(code) for g in guests]
    reply = await sockets[0].act("start")
    assert reply.ok, reply
    return guests, sockets, code


async def _play_roll(guests, sockets, code, cell_for=None):
    state = await guests[0].state(code)
    roller = state["current"]["roller"]
    seat_ids = [s["id"] for s in state["seats"]]
    roller_socket = sockets[seat_ids.index(roller)]
    reply = await roller_socket.act("roll")
    assert reply.ok, reply
    state = await guests[0].state(code)
    for i, sock in enumerate(sockets):
        grid = state["current"]["sheets"][str(seat_ids[i])]
        empty = [(r, c) for r in range(5) for c in range(5) if grid[r][c] is None]
        cell = cell_for(i, empty) if cell_for else empty[0]
        reply = await sock.act("place", cell=f"{cell[0]},{cell[1]}")
        assert reply.ok, reply


async def _close(guests, sockets):
    for s in sockets:
        await s.close()
    for g in guests:
        await g.aclose()


# 25 sums (dice loaded in this order); Anna writes them row by row from the top left, Bram
# from the bottom right backwards, so Bram's grid is Anna's turned round: the same lines.
SUMS = [2, 3, 4, 5, 6, 8, 9, 10, 11, 12, 7, 7, 7, 7, 7, 5, 5, 6, 6, 6, 4, 4, 9, 9, 2]
DICE_FOR = {2: [1, 1], 3: [1, 2], 4: [1, 3], 5: [2, 3], 6: [3, 3], 7: [3, 4], 8: [4, 4],
            9: [4, 5], 10: [5, 5], 11: [5, 6], 12: [6, 6]}
# Worked out by hand (docs/rules.md, Knister): rows 2-6 straight without 7 (10), 8-12 the same
# (10), five 7s (10), 5 5 6 6 6 full house (8), 4 4 9 9 2 two pairs (3); columns
# 2 8 7 5 4, 3 9 7 5 4, 4 10 7 6 9, 5 11 7 6 9 nothing, 6 12 7 6 2 a pair (1); diagonal
# 2 9 7 6 2 a pair (1, doubled: 2), 6 11 7 5 4 nothing. 41 + 1 + 2 = 44.
HAND_TOTAL = 44


async def test_two_players_play_all_25_rolls_to_hand_worked_totals(server) -> None:
    guests, sockets, code = await _start_game(server)
    faces = [face for total in SUMS for face in DICE_FOR[total]]
    r = await guests[0].http.post(f"/_test/rooms/{code}/dice", json={"faces": faces})
    assert r.status_code == 200
    for _ in range(25):
        await _play_roll(guests, sockets, code, cell_for=lambda i, empty: empty[-1 if i else 0])
    state = await guests[0].state(code)
    assert state["status"] == "finished"
    current = state["current"]
    assert current["over"] is True
    assert [sum(roll) for roll in current["rolls"]] == SUMS
    seat_ids = [str(s["id"]) for s in state["seats"]]
    anna = current["sheets"][seat_ids[0]]
    assert anna[3] == [5, 5, 6, 6, 6]
    assert current["totals"] == {seat_ids[0]: HAND_TOTAL, seat_ids[1]: HAND_TOTAL}
    assert state["games"][0]["totals"] == current["totals"]
    await sockets[1].wait_version(state["version"])
    final = sockets[1].last_live()
    shown = re.findall(r'data-final-total="(-?\d+)" data-player="([^"]+)"', final)
    assert shown == [(str(HAND_TOTAL), "Anna"), (str(HAND_TOTAL), "Bram")]
    await _close(guests, sockets)


async def test_four_simultaneous_placements_are_each_stored_once(server) -> None:
    guests, sockets, code = await _start_game(server, ("A", "B", "C", "D"))
    state = await guests[0].state(code)
    roller = state["current"]["roller"]
    seat_ids = [s["id"] for s in state["seats"]]
    assert (await sockets[seat_ids.index(roller)].act("roll")).ok
    replies = await asyncio.gather(*(s.act("place", cell="2,2") for s in sockets))
    assert all(r.ok for r in replies)
    # each sends its placement twice more, at once: nothing more is stored
    again = await asyncio.gather(*(s.act("place", cell="1,1") for s in sockets))
    assert {r.code for r in again} == {"already_placed"}  # not "no roll yet": it was placed
    state = await guests[0].state(code)
    placed = [g[2][2] for g in state["current"]["sheets"].values()]
    assert len(set(placed)) == 1 and placed[0] is not None
    assert all(sum(v is not None for row in g for v in row) == 1
               for g in state["current"]["sheets"].values())
    assert state["current"]["roll_pending"] is False
    # exactly one next roll is possible: the next roller rolls once, a second roll is refused
    nxt = state["current"]["roller"]
    rs = sockets[seat_ids.index(nxt)]
    first, second = await asyncio.gather(rs.act("roll"), rs.act("roll"))
    assert sorted([first.ok, second.ok]) == [False, True]
    assert len((await guests[0].state(code))["current"]["rolls"]) == 2
    await _close(guests, sockets)


async def test_reconnecting_player_sees_what_was_missed(server) -> None:
    guests, sockets, code = await _start_game(server)
    state = await guests[0].state(code)
    seat_ids = [s["id"] for s in state["seats"]]
    roller = sockets[seat_ids.index(state["current"]["roller"])]
    assert (await roller.act("roll")).ok
    b_version = sockets[1].version
    await sockets[1].close()
    assert (await sockets[0].act("place", cell="0,0")).ok
    b = await guests[1].connect(code, hello=b_version)
    state = await guests[0].state(code)
    await b.wait_version(state["version"])
    live = b.last_live()
    assert 'data-placed="true"' in live
    value = state["current"]["sheets"][str(seat_ids[0])][0][0]
    assert f'data-value="{value}"' in live
    sockets[1] = b
    await _close(guests, sockets)


async def test_repeated_action_id_is_applied_once(server) -> None:
    guests, sockets, code = await _start_game(server)
    state = await guests[0].state(code)
    seat_ids = [s["id"] for s in state["seats"]]
    roller = sockets[seat_ids.index(state["current"]["roller"])]
    assert (await roller.act("roll")).ok
    first = await sockets[0].act("place", action_id="same-id-1", cell="0,0")
    second = await sockets[0].act("place", action_id="same-id-1", cell="0,1")
    assert first.ok and second.ok and second.duplicate
    grid = (await guests[0].state(code))["current"]["sheets"][str(seat_ids[0])]
    assert grid[0][1] is None and grid[0][0] is not None
    await _close(guests, sockets)


async def test_only_the_host_starts_the_rematch_and_it_creates_one_game(server) -> None:
    guests, sockets, code = await _start_game(server, ("A", "B", "C"))
    for _ in range(25):
        await _play_roll(guests, sockets, code)
    state = await guests[0].state(code)
    assert state["status"] == "finished"
    # the others may only say they are ready; both at once, and twice, is fine
    for sock in sockets[1:]:
        assert (await sock.act("rematch")).code == "not_host"
    replies = await asyncio.gather(*(s.act("ready", ready=True) for s in sockets[1:]))
    assert all(r.ok for r in replies), replies
    assert (await sockets[1].act("ready", ready=True)).ok
    state = await guests[0].state(code)
    assert [s["ready"] for s in state["seats"]] == [False, True, True]
    assert re.search(r'data-ready="\d+"', sockets[0].last_live())  # the host sees who is ready
    # the host's rematch goes back to the lobby with the result shown; a second press
    # (another tab, same page state) is refused as stale
    host_tab = await guests[0].connect(code)
    await host_tab.wait_version(state["version"])
    first, second = await asyncio.gather(sockets[0].act("rematch"), host_tab.act("rematch"))
    assert sorted([first.ok, second.ok]) == [False, True], (first, second)
    assert {first.code, second.code} == {"", "stale"}
    state = await guests[0].state(code)
    assert state["status"] == "lobby" and [g["number"] for g in state["games"]] == [1]
    assert "data-result" in sockets[1].last_live()
    # start pressed in both host tabs at once: exactly one new game
    await host_tab.wait_version(state["version"])
    first, second = await asyncio.gather(sockets[0].act("start"), host_tab.act("start"))
    assert sorted([first.ok, second.ok]) == [False, True], (first, second)
    state = await guests[0].state(code)
    assert [g["number"] for g in state["games"]] == [1, 2]
    assert state["status"] == "playing"
    assert [s["ready"] for s in state["seats"]] == [False, False, False]
    # the second game starts with the next start player
    assert state["current"]["order"][0] == state["games"][0]["seat_ids"][1]
    await host_tab.close()
    await _close(guests, sockets)


async def test_same_player_in_two_tabs_keeps_one_seat_and_both_tabs_follow(server) -> None:
    guests, sockets, code = await _start_game(server)
    second_tab = await guests[0].connect(code)
    state = await guests[0].state(code)
    assert len([s for s in state["seats"] if s["status"] == "active"]) == 2
    seat_ids = [s["id"] for s in state["seats"]]
    roller = state["current"]["roller"]
    tab = second_tab if roller == seat_ids[0] else sockets[1]
    assert (await tab.act("roll")).ok
    version = (await guests[0].state(code))["version"]
    await sockets[0].wait_version(version)
    await second_tab.wait_version(version)
    assert 'data-roll="' in sockets[0].last_live()
    await second_tab.close()
    await _close(guests, sockets)


async def test_a_tap_for_an_earlier_roll_places_nothing(server) -> None:
    # found by a fresh-user test: a page that was offline tapped "place 8" after the server had
    # moved on to the next roll, and the new roll's 11 was written into that cell
    guests, sockets, code = await _start_game(server)
    state = await guests[0].state(code)
    seat_ids = [s["id"] for s in state["seats"]]

    async def roll() -> None:
        current = (await guests[0].state(code))["current"]
        assert (await sockets[seat_ids.index(current["roller"])].act("roll")).ok

    await roll()
    for i, sock in enumerate(sockets):
        assert (await sock.act("place", cell=f"0,{i}", roll=1)).ok
    await roll()
    before = await guests[0].state(code)
    seen = len(sockets[1].fragments)
    reply = await sockets[1].act("place", cell="4,4", roll=1)
    assert reply.code == "stale"
    assert await guests[0].state(code) == before
    # the page is shown the table as it is now (the whole live block, roll 2)
    await wait_for(lambda: any('<div id="live"' in f for f in sockets[1].fragments[seen:]))
    assert sockets[1].basis["roll"] == 2
    assert (await sockets[1].act("place", cell="4,4", roll=2)).ok
    await _close(guests, sockets)


async def test_a_placement_sends_other_seats_only_what_changed(server) -> None:
    # partial updates end to end: after the first whole page, a placement reaches the other
    # seats as the version marker, the turn panel and the placer's sheet, not the whole page
    guests, sockets, code = await _start_game(server, ("A", "B", "C"))
    await _play_roll(guests, sockets, code)  # every page has had its whole live block by now
    state = await guests[0].state(code)
    seat_ids = [s["id"] for s in state["seats"]]
    assert (await sockets[seat_ids.index(state["current"]["roller"])].act("roll")).ok
    version = (await guests[0].state(code))["version"]
    for sock in sockets:
        await sock.wait_version(version)
    seen = [len(s.fragments) for s in sockets]
    assert (await sockets[0].act("place", cell="4,4")).ok
    version = (await guests[0].state(code))["version"]
    for i, sock in enumerate(sockets[1:], start=1):
        await sock.wait_version(version)
        update = next(f for f in sock.fragments[seen[i]:] if 'id="live-version"' in f)
        assert '<div id="live"' not in update
        # ids of whole parts (a grid's line explanations, line-pop-*, live inside its grid)
        ids = {i for i in re.findall(r' id="([\w-]+)"', update) if not i.startswith("line-pop-")}
        assert ids <= {"live-version", "knister-turn", f"sheet-head-{seat_ids[0]}",
                       f"sheet-grid-{seat_ids[0]}"}, ids
        assert f"sheet-grid-{seat_ids[0]}" in ids
        value = (await guests[0].state(code))["current"]["sheets"][str(seat_ids[0])][4][4]
        assert f'data-value="{value}"' in update
    await _close(guests, sockets)


async def test_every_screen_counts_down_for_an_away_placer_and_roller(server) -> None:
    guests, sockets, code = await _start_game(server, ("A", "B", "C"))
    state = await guests[0].state(code)
    seat_ids = [s["id"] for s in state["seats"]]
    roller = seat_ids.index(state["current"]["roller"])
    assert (await sockets[roller].act("roll")).ok
    away = next(i for i in range(3) if i != roller)
    await sockets[away].close()  # B or C closes the tab before placing
    for i, sock in enumerate(sockets):
        if i != away:
            await wait_for(lambda s=sock: re.search(
                rf'data-away-due="{seat_ids[away]}"><span class="countdown" '
                rf'data-deadline="\d+" data-deadline-text="away: auto-play in {{s}} s"',
                s.fragments[-1] if s.fragments else ""))
    await _close(guests, [s for i, s in enumerate(sockets) if i != away])


async def test_a_returning_player_sees_no_countdown_on_their_own_seat(server) -> None:
    # found by a fresh-user test: the page served while the player was away still counted
    # down "played for in N s" on their own seat after they were back
    guests, sockets, code = await _start_game(server, ("A", "B"))
    state = await guests[0].state(code)
    seat_ids = [s["id"] for s in state["seats"]]
    away = 1 - seat_ids.index(state["current"]["roller"])
    roller = 1 - away
    assert (await sockets[roller].act("roll")).ok
    await sockets[away].close()
    await wait_for(lambda: f'data-away-due="{seat_ids[away]}"' in sockets[roller].fragments[-1])
    page = (await guests[away].http.get(f"/r/{code}")).text  # the reload, while still away
    # their own page never counts them away (it also moved the table once the socket's first
    # update removed it); the other player's page does, until they are back
    assert 'data-away-due' not in page
    assert f'data-away-due="{seat_ids[away]}"' in sockets[roller].fragments[-1]
    version = int(re.search(r'id="live" [^>]*data-version="(\d+)"', page).group(1))
    back = await guests[away].connect(code, hello=version)
    await wait_for(lambda: any('id="seats"' in f for f in back.fragments))
    seats = next(f for f in back.fragments if 'id="seats"' in f)
    assert f'data-seat="{seat_ids[away]}" data-presence="online"' in seats
    assert "data-away-due" not in seats
    await _close(guests, [sockets[roller], back])


# A sheet in play (tests/engines/test_knister_preview.py, SHEET_IN_PLAY), cell by cell: so far
# 17 (pairs 1 + 1, three of a kind 3, the full straight 10, the diagonal's pair doubled 2),
# the final-only total 10 (the one full line).
SHEET_IN_PLAY = {(0, 0): 5, (0, 1): 5, (0, 4): 9, (1, 0): 7, (1, 1): 7, (1, 2): 7, (2, 0): 2,
                 (2, 1): 3, (2, 2): 4, (2, 3): 5, (2, 4): 6, (4, 0): 8, (4, 1): 8, (4, 4): 5}


async def test_each_sheet_shows_its_provisional_total_so_far_beside_the_final_one(
        server) -> None:
    anna = Guest(server.url, "Anna")
    code = await anna.create_room("knister")
    faces = [face for value in SHEET_IN_PLAY.values() for face in DICE_FOR[value]]
    r = await anna.http.post(f"/_test/rooms/{code}/dice", json={"faces": faces})
    assert r.status_code == 200
    sock = await anna.connect(code)
    assert (await sock.act("start")).ok
    for r_c in SHEET_IN_PLAY:
        assert (await sock.act("roll")).ok
        assert (await sock.act("place", cell=f"{r_c[0]},{r_c[1]}")).ok
    page = (await anna.http.get(f"/r/{code}")).text
    head = re.search(r'<figcaption id="sheet-head-\d+">.*?</figcaption>', page, re.S)
    assert head is not None
    assert 'data-so-far="17"' in head.group(0) and ">so far 17<" in head.group(0)
    assert 'data-total="10"' in head.group(0)
    assert "the last number counts full lines only" in page
    live = sock.last_live()  # the live update of the last placement says the same
    assert 'data-so-far="17"' in live and 'data-total="10"' in live
    await _close([anna], [sock])
