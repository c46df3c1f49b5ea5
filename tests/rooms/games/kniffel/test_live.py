"""Kniffel, KitKniff and Yatzy played live over real WebSockets against a real uvicorn server.

Dice come from the test queue (``POST /_test/rooms/<code>/dice``), loaded right before each
roll with exactly as many faces as there are free dice, so every roll is known in advance and
every expected total is worked out by hand from the rules (never by the server's scorer).
"""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta

import pytest

from app.rooms.dice import DiceSource
from app.rooms.games.kniffel import AWAY_GRACE
from app.rooms.service import RoomService
from app.store.db import Database
from tests.support.players import Guest
from tests.support.room_service import act_as

pytestmark = [pytest.mark.server, pytest.mark.one_backend]

EXTRA_BONUS = {"kniffel": 50, "kitkniff": 100, "yatzy": 0}
JOKER_FULL_HOUSE = {"kniffel": 25, "kitkniff": 25, "yatzy": 0}  # Yatzy has no joker


class Table:
    """The guests of one room, their sockets by seat, and the room's public state."""

    def __init__(self, guests, sockets, code, seat_ids):
        self.guests, self.sockets, self.code, self.seat_ids = guests, sockets, code, seat_ids

    def socket(self, seat: int):
        return self.sockets[self.seat_ids.index(seat)]

    async def state(self) -> dict:
        return await self.guests[0].state(self.code)

    async def current(self) -> dict:
        return (await self.state())["current"]

    async def load(self, faces: list[int]) -> None:
        r = await self.guests[0].http.post(f"/_test/rooms/{self.code}/dice",
                                           json={"faces": faces})
        assert r.status_code == 200, r.text

    async def roll(self, seat: int, faces: list[int]):
        await self.load(faces)
        return await self.socket(seat).act("roll")

    async def close(self) -> None:
        for s in self.sockets:
            await s.close()
        for g in self.guests:
            await g.aclose()


async def start(server, kind: str, names=("Anna", "Bram"), **options) -> Table:
    guests = [Guest(server.url, n) for n in names]
    code = await guests[0].create_room(kind)
    for g in guests[1:]:
        assert (await g.join(code)).status_code == 303
    sockets = [await g.connect(code) for g in guests]
    if options:
        assert (await sockets[0].act("options", **options)).ok
    assert (await sockets[0].act("start")).ok
    state = await guests[0].state(code)
    return Table(guests, sockets, code, [s["id"] for s in state["seats"]])


async def play_turn(table: Table, seat: int, rolls: list[tuple[list[int], list[int]]],
                    box: str) -> list[int]:
    """Roll ``rolls`` = [(faces for the free dice, dice to hold after this roll)...], then
    score ``box``; returns the final dice."""
    for faces, hold in rolls:
        reply = await table.roll(seat, faces)
        assert reply.ok, reply
        current = await table.current()
        for die in hold:
            if not current["held"][die]:
                assert (await table.socket(seat).act("hold", die=die, held=True)).ok
    dice = (await table.current())["dice"]
    column = (await table.current())["column"]
    reply = await table.socket(seat).act("score", box=box, column=column)
    assert reply.ok, reply
    return dice


# One roll per box, with its points worked out by hand from docs/rules.md ("kniffel" scoring for
# Kniffel and KitKniff, then "yatzy" scoring).
ROLL_FOR = {
    "ones": ([1, 1, 1, 2, 3], 3, 3),
    "twos": ([2, 2, 2, 4, 5], 6, 6),
    "threes": ([3, 3, 3, 1, 2], 9, 9),
    "fours": ([4, 4, 4, 1, 2], 12, 12),
    "fives": ([5, 5, 5, 1, 2], 15, 15),
    "sixes": ([6, 6, 6, 1, 2], 18, 18),  # upper 63: bonus 35 (Yatzy 50)
    "one_pair": ([6, 6, 1, 2, 3], None, 12),
    "two_pairs": ([5, 5, 4, 4, 1], None, 18),
    "three_of_a_kind": ([4, 4, 4, 5, 6], 23, 12),
    "four_of_a_kind": ([2, 2, 2, 2, 6], 14, 8),
    "full_house": ([3, 3, 5, 5, 5], 25, 21),
    "small_straight": ([1, 2, 3, 4, 5], 30, 15),
    "large_straight": ([2, 3, 4, 5, 6], 40, 20),
    "yahtzee": ([6, 6, 6, 6, 6], 50, 50),
    "chance": ([6, 5, 4, 3, 1], 19, 19),
}
# Anna: a yahtzee of fives in three rolls (50), then 3 3 3 3 3 into full house (the joker:
# 25 and the extra bonus, 50 in Kniffel, 100 in KitKniff; Yatzy has neither: 0), then one
# roll per remaining box. Bram: one roll per box.
# Kniffel: Anna 63 + 35 + 50 + 25 + (23 + 14 + 30 + 40 + 19) + 50 = 349, Bram 98 + 201 = 299.
# Yatzy: Anna 63 + 50 + 50 + 0 + (12 + 18 + 12 + 8 + 15 + 20 + 19) = 267,
#        Bram 113 + (12 + 18 + 12 + 8 + 21 + 15 + 20 + 19 + 50) = 288.
EXPECTED_TOTALS = {"kniffel": (349, 299), "kitkniff": (399, 299), "yatzy": (267, 288)}


@pytest.mark.parametrize("kind", ["kniffel", "kitkniff", "yatzy"])
async def test_a_full_game_ends_with_hand_worked_totals_extra_bonus_and_joker(server, kind):
    table = await start(server, kind)
    a, b = (await table.current())["order"]
    column = 2 if kind == "yatzy" else 1
    boxes = [box for box, roll in ROLL_FOR.items() if roll[column] is not None]
    order_a = ["yahtzee", "full_house"] + [x for x in boxes if x not in ("yahtzee", "full_house")]
    plans = {a: order_a, b: boxes}
    for turn in range(len(boxes)):
        for seat in (a, b):
            box = plans[seat][turn]
            if seat == a and turn == 0:
                rolls = [([5, 5, 1, 2, 3], [0, 1]), ([5, 4, 4], [2]), ([5, 5], [])]
            elif seat == a and turn == 1:
                rolls = [([3, 3, 3, 3, 3], [])]
            else:
                rolls = [(ROLL_FOR[box][0], [])]
            await play_turn(table, seat, rolls, box)
    state = await table.state()
    current = state["current"]
    assert state["status"] == "finished" and current["over"] is True
    assert current["totals"] == {str(a): EXPECTED_TOTALS[kind][0],
                                 str(b): EXPECTED_TOTALS[kind][1]}
    assert state["games"][0]["totals"] == current["totals"]
    anna = current["sheets"][str(a)][0]
    assert anna["boxes"]["yahtzee"] == 50
    assert anna["boxes"]["full_house"] == JOKER_FULL_HOUSE[kind]
    assert anna["extra_bonus"] == EXTRA_BONUS[kind]
    bram = current["sheets"][str(b)][0]
    assert bram["boxes"] == {box: ROLL_FOR[box][column] for box in boxes}
    # the final screen ranks both players with their totals
    await table.sockets[1].wait_version(state["version"])
    final = table.sockets[1].last_live()
    shown = re.findall(r'data-final-total="(-?\d+)" data-player="([^"]+)"', final)
    labels = {s["id"]: s["label"] for s in state["seats"]}
    ranked = sorted(zip(EXPECTED_TOTALS[kind], (a, b), strict=True), reverse=True)
    assert shown == [(str(total), labels[seat]) for total, seat in ranked]
    await table.close()


async def test_out_of_turn_fourth_roll_and_filled_box_are_refused_and_change_nothing(server):
    table = await start(server, "kniffel")
    a, b = (await table.current())["order"]
    sa, sb = table.socket(a), table.socket(b)

    async def refused(sock, kind, code, **fields):
        before = await table.state()
        reply = await sock.act(kind, **fields)
        assert (reply.ok, reply.code) == (False, code)
        assert await table.state() == before

    await refused(sa, "score", "no_roll", box="chance")
    await refused(sa, "hold", "no_dice", die=0, held=True)
    await refused(sb, "roll", "not_your_turn")
    assert (await table.roll(a, [1, 1, 1, 2, 3])).ok
    await refused(sb, "hold", "not_your_turn", die=0, held=True)
    await refused(sb, "score", "not_your_turn", box="ones")
    await refused(sa, "hold", "bad_die", die=5, held=True)
    await refused(sa, "score", "unknown_box", box="one_pair")
    assert (await table.roll(a, [4, 4, 4, 4, 4])).ok
    assert (await table.roll(a, [1, 1, 1, 1, 1])).ok
    await table.load([6, 6, 6, 6, 6])
    await refused(sa, "roll", "no_rolls_left")
    assert (await sa.act("score", box="ones")).ok
    assert (await table.roll(b, [2, 2, 3, 3, 3])).ok
    await refused(sa, "roll", "not_your_turn")
    assert (await sb.act("score", box="full_house")).ok
    await table.roll(a, [1, 1, 2, 2, 2])
    await refused(sa, "score", "box_filled", box="ones")
    await refused(sa, "score", "bad_column", box="twos", column=1)
    await table.close()


async def test_spectators_see_the_turn_but_cannot_act(server):
    table = await start(server, "kitkniff")
    a, _ = (await table.current())["order"]
    watcher = Guest(server.url, "Zoe")
    page = await watcher.http.get(f"/r/{table.code}?watch=1")
    assert page.status_code == 200 and 'data-action="roll"' not in page.text
    ws = await watcher.connect(table.code)
    assert (await table.roll(a, [6, 6, 2, 3, 6])).ok
    assert (await table.socket(a).act("hold", die=0, held=True)).ok
    version = (await table.state())["version"]
    await ws.wait_version(version)
    live = ws.last_live()
    assert 'data-die="0" data-held="true"' in live
    assert 'data-action="roll"' not in live and "<button class=\"die" not in live
    # the sheet came with the roll (a hold re-sends only the turn panel)
    shown = "".join(ws.fragments)
    assert 'data-box="sixes" data-points="18"' in shown  # the offer is shown to everyone
    assert "Krempel" in shown
    assert 'id="kniffel-sheet"' not in live
    reply = await ws.act("score", box="sixes")
    assert (reply.ok, reply.code) == (False, "not_seated")
    await ws.close()
    await watcher.aclose()
    await table.close()


async def test_the_player_on_turn_gets_hold_buttons_and_box_offers(server):
    table = await start(server, "kniffel")
    a, b = (await table.current())["order"]
    assert (await table.roll(a, [2, 3, 4, 5, 5])).ok
    version = (await table.state())["version"]
    sa = table.socket(a)
    await sa.wait_version(version)
    live = sa.last_live()
    assert re.search(r'data-value="5" data-die="4" data-held="false"\s+ws-send '
                     r'hx-vals=\'\{"die": 4, "held": true, "type": "hold"\}\'', live)
    assert re.search(r'data-box="small_straight" data-points="30" data-column="0"\s+ws-send', live)
    assert 'data-action="roll"' in live
    other = table.socket(b)
    await other.wait_version(version)
    assert 'data-action="roll"' not in other.last_live()
    await table.close()


async def test_host_options_reach_the_game(server):
    table = await start(server, "kitkniff", columns="2", timer="120",
                        joker=["false", "true"], five_alike_full_house=["false"],
                        extra_bonus=["false"])
    state = await table.state()
    assert state["options"] == {"joker": True, "five_alike_full_house": False,
                                "extra_bonus": False, "columns": 2, "timer": 120,
                                "hints": False, "dice": "screen", "bot_takeover": True,
                                "pace": "live", "turn_deadline_hours": 24}
    current = state["current"]
    assert (current["columns"], current["timer"]) == (2, 120)
    assert current["house_rules"] == {"joker": True, "five_alike_full_house": False,
                                      "extra_bonus": False}
    assert len(current["sheets"][str(current["order"][0])]) == 2
    await table.close()


async def test_removing_the_player_on_turn_passes_the_turn(server):
    table = await start(server, "yatzy", names=("Anna", "Bram", "Cor"))
    a, b, c = (await table.current())["order"]
    assert (await table.roll(a, [1, 2, 3, 4, 5])).ok
    assert (await table.socket(a).act("score", box="small_straight")).ok
    assert (await table.roll(b, [1, 1, 3, 4, 5])).ok
    assert (await table.socket(a).act("remove", target=b)).ok
    current = await table.current()
    assert (current["current"], current["rolls"], current["active"]) == (c, 0, [a, c])
    await table.close()


async def test_kill_and_restart_mid_turn_keeps_dice_holds_and_roll_count(server):
    table = await start(server, "kniffel")
    a, b = (await table.current())["order"]
    assert (await table.roll(a, [6, 2, 6, 3, 1])).ok
    for die in (0, 2):
        assert (await table.socket(a).act("hold", die=die, held=True)).ok
    assert (await table.roll(a, [6, 4, 5])).ok
    assert (await table.socket(a).act("hold", die=1, held=True)).ok
    before = await table.current()
    assert (before["dice"], before["held"], before["rolls"]) == (
        [6, 6, 6, 4, 5], [True, True, True, False, False], 2)

    for s in table.sockets:
        await s.close()
    server.kill()
    server.restart()

    after = await table.current()
    assert (after["dice"], after["held"], after["rolls"], after["current"]) == (
        before["dice"], before["held"], before["rolls"], a)
    sockets = [await g.connect(table.code) for g in table.guests]
    table.sockets = sockets
    sa = table.socket(a)
    await sa.wait_version((await table.state())["version"])
    live = sa.last_live()
    assert 'data-die="1" data-held="true"' in live and 'data-die="4" data-held="false"' in live
    assert (await table.roll(a, [6, 6])).ok  # the third roll: the two free dice
    assert (await table.current())["dice"] == [6, 6, 6, 6, 6]
    reply = await table.roll(a, [1])
    assert (reply.ok, reply.code) == (False, "no_rolls_left")
    assert (await sa.act("score", box="yahtzee")).ok
    assert (await table.current())["current"] == b
    await table.close()


# ----- timers, through the room service on the test database (a fake clock, no waiting) --------

async def _service_room(settings, timer: int, online_players: set[str]):
    """A started two-seat Kniffel room in a ``RoomService`` whose clock the test moves;
    ``online_players`` have an open socket."""
    now = [datetime.now(UTC)]
    dice = DiceSource(allow_loaded=True)

    async def publish(code: str, version: int, delta: str | None = None) -> None:
        return None

    db = Database(settings.database_url)
    service = RoomService(db, publish, dice, online=lambda code: frozenset(online_players),
                          clock=lambda: now[0])
    code = await service.create_room("p-anna", "Anna", "kniffel")
    await service.join(code, "p-bram", "Bram")
    if timer:
        await act_as(service, code, "p-anna", {"type": "options", "timer": str(timer)})
    await act_as(service, code, "p-anna", {"type": "start"})
    return service, db, dice, code, now


async def public_now(service: RoomService, code: str) -> dict:
    state = await service.snapshot(code, -1)
    return state.plugin.public(state.game_state)


async def test_turn_timer_finishes_the_turn_automatically(settings):
    service, db, dice, code, now = await _service_room(settings, 60, {"p-anna", "p-bram"})
    state = await service.snapshot(code)
    anna, bram = state.game_state.order
    dice.load(code, [2, 2, 2, 5, 5])
    now[0] += timedelta(seconds=30)
    await service.fire_timer(code)
    assert (await public_now(service, code))["current"] == anna  # not due yet
    now[0] += timedelta(seconds=31)
    await service.fire_timer(code)
    current = await public_now(service, code)
    assert current["current"] == bram
    assert current["sheets"][str(anna)][0]["boxes"]["full_house"] == 25
    assert current["auto"] == [[anna, 0, "full_house"]]
    service.close()
    await db.dispose()


async def test_an_away_player_on_turn_is_finished_after_the_grace_period(settings):
    service, db, dice, code, now = await _service_room(settings, 0, {"p-bram"})
    state = await service.snapshot(code)
    anna, bram = state.game_state.order
    dice.load(code, [2, 3, 4, 5, 6])
    now[0] += AWAY_GRACE - timedelta(seconds=1)
    await service.fire_timer(code)
    assert (await public_now(service, code))["current"] == anna
    now[0] += timedelta(seconds=2)
    await service.fire_timer(code)
    public = await public_now(service, code)
    assert (public["current"], public["auto"]) == (bram, [[anna, 0, "large_straight"]])
    service.close()
    await db.dispose()
