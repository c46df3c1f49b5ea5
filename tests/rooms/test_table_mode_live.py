"""Table mode over real WebSockets against a real uvicorn server (docs/rules.md, "Table
mode"): bad entries are refused with a translated message and change nothing; pass and play
lets only the host's device act for a seat without a phone."""

from __future__ import annotations

import pytest

from tests.support.players import Guest

pytestmark = [pytest.mark.server, pytest.mark.one_backend]


async def _room(server, kind, names=("Anna", "Bram"), lang=None, **options):
    guests = [Guest(server.url, n) for n in names]
    code = await guests[0].create_room(kind)
    for g in guests[1:]:
        assert (await g.join(code)).status_code == 303
    sockets = [await g.connect(code, accept_language=lang) for g in guests]
    if options:
        assert (await sockets[0].act("options", **options)).ok
    return guests, sockets, code


async def _close(guests, sockets):
    for s in sockets:
        await s.close()
    for g in guests:
        await g.aclose()


def _latest(sock, marker: str) -> str:
    """The newest fragment ``sock`` received that contains ``marker``."""
    return next(f for f in reversed(sock.fragments) if marker in f)


async def _refused(guest, sock, code, kind, error, message, **fields):
    """Send ``kind`` and check it is refused with ``error`` / ``message`` and that the room
    (version and game state) is exactly as before."""
    before = await guest.state(code)
    reply = await sock.act(kind, **fields)
    assert (reply.ok, reply.code, reply.message) == (False, error, message)
    assert await guest.state(code) == before


async def test_knister_bad_entries_are_refused_in_german_and_change_nothing(server) -> None:
    guests, sockets, code = await _room(server, "knister", lang="de", dice="real")
    try:
        assert (await sockets[0].act("start")).ok
        anna, bram = sockets
        await _refused(guests[0], anna, code, "enter", "bad_sum",
                       "Gib eine Summe von 2 bis 12 ein.", sum=13)
        await _refused(guests[0], anna, code, "enter", "bad_face",
                       "Jeder Würfel zeigt eine Zahl von 1 bis 6.", dice=[7, 1])
        await _refused(guests[0], bram, code, "enter", "not_your_turn",
                       "Du bist nicht mit Würfeln dran.", sum=7)
        await _refused(guests[0], anna, code, "roll", "real_dice",
                       "In diesem Raum wird mit echten Würfeln gespielt: gib ein, was du "
                       "gewürfelt hast.")
        assert (await anna.act("enter", sum=6)).ok
        assert (await anna.act("enter", dice=[3, 4])).ok  # corrected before anyone placed
        state = await guests[0].state(code)
        assert state["current"]["current_sum"] == 7 and state["current"]["rolls"] == [[3, 4]]
        assert (await bram.act("place", cell="2,2")).ok
        await _refused(guests[0], anna, code, "enter", "roll_final",
                       "Jemand hat diesen Wurf schon eingetragen: er gilt.", sum=8)
        state = await guests[0].state(code)
        assert state["current"]["sheets"][str(state["seats"][1]["id"])][2][2] == 7
    finally:
        await _close(guests, sockets)


async def test_a_placement_decided_on_an_entry_since_corrected_is_stale(server) -> None:
    guests, sockets, code = await _room(server, "knister", dice="real")
    try:
        assert (await sockets[0].act("start")).ok
        anna, bram = sockets
        entered = await anna.act("enter", sum=6)
        assert entered.ok
        await bram.wait_version(entered.version)  # Bram's page shows the sum 6
        seen = dict(bram.basis)
        assert seen["entry"] == 1
        assert (await anna.act("enter", sum=9)).ok
        reply = await bram.act("place", cell="0,0", basis=seen)
        assert (reply.ok, reply.code) == (False, "stale")
        assert (await bram.act("place", cell="0,0")).ok
        state = await guests[0].state(code)
        assert state["current"]["sheets"][str(state["seats"][1]["id"])][0][0] == 9
    finally:
        await _close(guests, sockets)


async def test_kniffel_six_dice_and_screen_mode_entries_are_refused(server) -> None:
    guests, sockets, code = await _room(server, "kniffel", lang="nl", dice="real")
    try:
        assert (await sockets[0].act("start")).ok
        anna, bram = sockets
        await _refused(guests[0], anna, code, "enter", "dice_count",
                       "Vul precies vijf dobbelstenen in.", dice=[1, 2, 3, 4, 5, 6])
        await _refused(guests[0], bram, code, "enter", "not_your_turn",
                       "Je bent niet aan de beurt.", dice=[1, 2, 3, 4, 5])
        assert (await anna.act("enter", dice=[2, 2, 2, 5, 5])).ok
        assert (await anna.act("score", box="full_house")).ok
        state = await guests[0].state(code)
        assert state["current"]["totals"][str(state["seats"][0]["id"])] == 25
    finally:
        await _close(guests, sockets)
    guests, sockets, code = await _room(server, "yatzy", lang="en")
    try:
        assert (await sockets[0].act("start")).ok
        await _refused(guests[0], sockets[0], code, "enter", "screen_dice",
                       "This room rolls the dice on screen: nothing to enter.",
                       dice=[1, 2, 3, 4, 5])
    finally:
        await _close(guests, sockets)


async def test_dice_option_is_validated_and_shown_read_only_to_guests(server) -> None:
    guests, sockets, code = await _room(server, "kitkniff")
    try:
        reply = await sockets[0].act("options", dice="wooden")
        assert (reply.ok, reply.code) == (False, "bad_option")
        assert (await sockets[0].act("options", dice="real")).ok
        assert (await guests[0].state(code))["options"]["dice"] == "real"
        page = (await guests[1].http.get(f"/r/{code}")).text
        assert '<p class="option-ro" data-option-ro="dice" data-value="real">' in page
        assert "<strong>real dice on the table</strong>" in page
        assert 'name="dice"' not in page  # no control that looks editable
        reply = await sockets[1].act("options", dice="screen")
        assert (reply.ok, reply.code) == (False, "not_host")
    finally:
        await _close(guests, sockets)


async def test_only_the_host_device_acts_for_a_table_seat(server) -> None:
    guests, sockets, code = await _room(server, "kniffel", dice="real")
    try:
        anna, bram = sockets
        reply = await bram.act("add_table_seat", name="Cor")
        assert (reply.ok, reply.code) == (False, "not_host")
        reply = await anna.act("add_table_seat", name="   ")
        assert (reply.ok, reply.code) == (False, "bad_name")
        assert (await anna.act("add_table_seat", name="Cor")).ok
        state = await guests[0].state(code)
        anna_id, bram_id, cor_id = (s["id"] for s in state["seats"])
        assert [s["name"] for s in state["seats"]] == ["Anna", "Bram", "Cor"]
        assert (await anna.act("start")).ok
        # Anna's turn, then Bram's, then Cor's (the table seat).
        reply = await bram.act("enter", seat=anna_id, dice=[1, 1, 1, 1, 1])
        assert (reply.ok, reply.code) == (False, "not_your_seat")
        assert (await anna.act("enter", dice=[1, 1, 1, 1, 1])).ok
        assert (await anna.act("score", box="yahtzee")).ok
        reply = await anna.act("enter", seat=bram_id, dice=[2, 2, 2, 2, 2])
        assert (reply.ok, reply.code) == (False, "not_your_seat")
        assert (await bram.act("enter", dice=[6, 6, 6, 6, 1])).ok
        assert (await bram.act("score", box="sixes")).ok
        before = await guests[0].state(code)
        reply = await bram.act("enter", seat=cor_id, dice=[3, 3, 3, 3, 3])
        assert (reply.ok, reply.code) == (False, "not_your_seat")
        assert await guests[0].state(code) == before
        assert (await anna.act("enter", seat=cor_id, dice=[3, 3, 4, 4, 4])).ok
        assert (await anna.act("score", seat=cor_id, box="full_house")).ok
        totals = (await guests[0].state(code))["current"]["totals"]
        assert totals == {str(anna_id): 50, str(bram_id): 24, str(cor_id): 25}
    finally:
        await _close(guests, sockets)


async def test_knister_host_places_then_fills_in_for_each_seat_without_a_phone(server) -> None:
    guests, sockets, code = await _room(server, "knister", names=("Anna",), dice="real")
    try:
        (anna,) = sockets
        assert (await anna.act("add_table_seat", name="Bram")).ok
        assert (await anna.act("add_table_seat", name="<b>Cor</b>")).ok
        state = await guests[0].state(code)
        anna_id, bram_id, cor_id = (s["id"] for s in state["seats"])
        assert (await anna.act("start")).ok
        assert "data-acting-seat" not in _latest(anna, 'id="acting-for"')  # Anna rolls first
        assert (await anna.act("enter", dice=[6, 5])).ok
        assert (await anna.act("place", cell="0,0")).ok
        assert f'data-acting-seat="{bram_id}"' in _latest(anna, 'id="acting-for"')
        assert "Filling in for: Bram" in _latest(anna, 'id="acting-for"')
        assert (await anna.act("place", seat=bram_id, cell="1,1")).ok
        acting = _latest(anna, 'id="acting-for"')
        assert "Filling in for: &lt;b&gt;Cor&lt;/b&gt;" in acting  # escaped
        assert (await anna.act("place", seat=cor_id, cell="2,2")).ok
        # Bram (no phone) rolls next: the host's device enters for him.
        reply = await anna.act("enter", sum=4)
        assert (reply.ok, reply.code) == (False, "not_your_turn")
        assert (await anna.act("enter", seat=bram_id, sum=9)).ok
        # Bram's entry may still be corrected: the host's page stays on Bram's sheet.
        assert "Filling in for: Bram" in _latest(anna, 'id="acting-for"')
        assert 'data-entry="correct"' in _latest(anna, 'id="knister-turn"')
        assert (await anna.act("enter", seat=bram_id, sum=4)).ok
        current = (await guests[0].state(code))["current"]
        assert current["rolls"][-1] in ([3, 1], [1, 3]) and current["roller"] == cor_id
        assert current["sheets"][str(bram_id)][1][1] == 11
        assert current["sheets"][str(cor_id)][2][2] == 11
        assert current["roll_pending"] and current["placed"] == []
        seats = (await guests[0].state(code))["seats"]
        assert [s["table_seat"] for s in seats] == [False, True, True]
        assert seats[0]["id"] == anna_id
    finally:
        await _close(guests, sockets)


async def test_a_knikkers_race_has_no_seats_without_a_phone(server) -> None:
    guests, sockets, code = await _room(server, "knikkers_race", names=("Anna",))
    try:
        page = (await guests[0].http.get(f"/r/{code}")).text
        assert "add-table-seat" not in page and 'name="dice"' not in page
        await _refused(guests[0], sockets[0], code, "add_table_seat", "no_table_seats",
                       "This game has no seats without a phone.", name="Cor")
    finally:
        await _close(guests, sockets)
