"""Fuzzing the room socket: malformed, oversized, out-of-order and duplicate messages from a
seated player change nothing, crash nothing, and the connection stays open or closes cleanly.

Every JSON object sent carries the basis the page shows (the ``#live-version`` marker's
``data-basis``), as the page's own script adds it, so the cell, seat, type and room checks
are reached instead of every message being refused as ``stale`` (docs/rules.md, "Stale
actions"). ``test_each_fuzzed_message_is_refused_by_its_rule`` works out the answer to every
message by hand (a small model of the table) and counts the refusals per rule."""

from __future__ import annotations

import asyncio
import json
import random
import uuid
from collections import Counter
from dataclasses import dataclass

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from websockets.exceptions import ConnectionClosed

from app.rooms.rules import ROOM_BASIS
from tests.support import http
from tests.support.players import Guest, wait_for

pytestmark = [pytest.mark.server, pytest.mark.one_backend]

# every action type the room knows except those a non-host seated player may legally do
# (leave, next_game); the fuzzer has already placed the current roll and is not the roller.
TYPES = ["hello", "roll", "place", "options", "start", "remove", "hold", "score", "undo",
         "", "PLACE", "roll ", None]
scalars = st.one_of(st.none(), st.booleans(), st.integers(-2**70, 2**70),
                    st.floats(allow_nan=True), st.text(max_size=40))
values = st.recursive(scalars, lambda inner: st.one_of(
    st.lists(inner, max_size=4), st.dictionaries(st.text(max_size=8), inner, max_size=4)),
    max_leaves=12)
cells = st.one_of(st.sampled_from(["0,0", "4,4", "2,2", "5,5", "-1,0", "a,b", "0", "1,2,3"]),
                  st.lists(st.integers(-3, 8), max_size=3), values)
objects = st.fixed_dictionaries(
    {"type": st.sampled_from(TYPES)},
    optional={"cell": cells, "action_id": st.one_of(st.text(max_size=80), values),
              "seat": values, "target": values, "version": values, "die": values,
              "box": values, "HEADERS": values, "timer": values, "match": values})
messages = st.one_of(
    objects,  # a dict: sent with the page's current basis under it
    st.text(max_size=200),
    st.binary(max_size=200),
    st.integers(2100, 9000).map(lambda n: json.dumps({"type": "place", "pad": "x" * n})),
    values.map(lambda v: json.dumps(v, default=str)),
    st.just("[" * 3000 + "]" * 3000),  # deeply nested JSON
)

_room: dict = {}
CLEAN_CLOSE = (1000, 1008, 1009, 1013)


async def _setup(server) -> None:
    anna, bram, cem = (Guest(server.url, n) for n in ("Anna", "Bram", "Cem"))
    code = await anna.create_room()
    assert (await bram.join(code)).status_code == 303
    assert (await cem.join(code)).status_code == 303
    a, b, c = [await g.connect(code) for g in (anna, bram, cem)]
    assert (await a.act("start")).ok
    state = await anna.state(code)
    seats = [s["id"] for s in state["seats"]]
    socks = [a, b, c]
    assert (await socks[seats.index(state["current"]["roller"])].act("roll")).ok
    state = await anna.state(code)
    fuzzer = next(i for i, s in enumerate(seats) if s != state["current"]["roller"]
                  and i != 0)
    assert (await socks[fuzzer].act("place", cell="1,1")).ok
    _room.update(code=code, guest=[anna, bram, cem][fuzzer],
                 before=await anna.state(code))
    for s in socks:
        await s.close()


@settings(max_examples=40, deadline=None, derandomize=True, database=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(batch=st.lists(messages, min_size=20, max_size=80))
def test_fuzzed_messages_change_nothing(server, batch) -> None:
    async def run() -> None:
        if _room.get("url") != server.url:
            _room.clear()
            _room["url"] = server.url
            await _setup(server)
        guest = Guest(server.url, "fuzz")
        guest.http.cookies = _room["guest"].http.cookies
        sock = await guest.connect(_room["code"])
        closed_cleanly = True
        try:
            await sock.wait_version(_room["before"]["version"])  # its basis is the room's
            for raw in batch:
                if isinstance(raw, dict):  # what the page sends: the fields over its basis
                    raw = json.dumps({**sock.basis, **raw}, default=str)
                await sock.send_raw(raw)
            # the socket handles messages in order: the hello's answer (the whole room) comes
            # after every fuzzed message was dealt with, or the server closed the socket
            seen = len(sock.fragments)
            await sock.send_raw(json.dumps({"type": "hello", "version": -1}))
            await wait_for(lambda: sock._reader.done() or any(
                '<div id="live"' in f for f in sock.fragments[seen:]))
            if sock._reader.done():
                closed_cleanly = sock.ws.close_code in CLEAN_CLOSE
        except ConnectionClosed as exc:
            closed_cleanly = exc.rcvd is not None and exc.rcvd.code in CLEAN_CLOSE
        assert closed_cleanly
        async with http.async_client(base_url=server.url) as web:
            assert (await web.get("/healthz")).status_code == 200
            after = (await web.get(f"/r/{_room['code']}/state.json")).json()
        assert after == _room["before"]
        await sock.close()
        await guest.aclose()

    asyncio.run(run())


# ----- every message's answer worked out by hand -------------------------------------------

SEED = 20261201
BATCHES, PER_BATCH = 8, 30
_DICE = random.Random(SEED)
FACES = [_DICE.randint(1, 6) for _ in range(2 * 25)]
"""The loaded dice: roll ``k`` of the game (0-based) shows ``FACES[2k:2k+2]``."""
BAD_CELLS = ["5,5", "-1,0", "a,b", "0", "1,2,3", "4,9", [5, 0], [0], 7, {"r": 1}, None]
ROOM_ACTIONS = ["start", "options", "remove", "add_bot", "add_table_seat", "next_game",
                "rematch"]
REACHED = {"ok", "stale", "bad_cell", "cell_taken", "already_placed", "no_roll", "waiting",
           "not_your_turn", "not_your_seat", "unknown_action", "bad_message", "not_host",
           "game_running", "too_large"}
"""Every answer the seeded messages must meet at least once: each rule is reached."""


@dataclass
class Table:
    """What the fuzzing player (Bram, at a table of two) faces, as the test knows it: a roll
    pending or not, whether he and Anna placed it, whether he rolls next, the cells of his
    sheet that are filled, the number of rolls so far. Updated by hand for every message
    that is applied (docs/rules.md, "Who rolls": the roll passes round the table)."""

    pending: bool
    placed: bool
    anna_placed: bool
    his_roll: bool
    filled: set[tuple[int, int]]
    rolls: int

    @staticmethod
    def read(state: dict, bram: int) -> Table:
        current = state["current"]
        grid = current["sheets"][str(bram)]
        return Table(current["roll_pending"], bram in current["placed"],
                     any(s != bram for s in current["placed"]), current["roller"] == bram,
                     {(r, c) for r in range(5) for c in range(5) if grid[r][c] is not None},
                     len(current["rolls"]))

    def roll(self) -> str:
        """The answer to Bram's roll (docs/rules.md, "Knister"): applied when it is his turn
        and no roll waits for placements."""
        if self.pending:
            return "waiting"
        if not self.his_roll:
            return "not_your_turn"
        self.pending, self.placed, self.anna_placed = True, False, False
        self.his_roll, self.rolls = False, self.rolls + 1  # Anna rolls next
        return "ok"

    def place(self, cell: tuple[int, int]) -> str:
        """The answer to Bram placing the pending roll in ``cell`` (a cell of the sheet)."""
        if self.placed:  # also once both placed, until the next roll
            return "already_placed"
        if not self.pending:
            return "no_roll"
        if cell in self.filled:
            return "cell_taken"
        self.placed = True
        self.filled.add(cell)
        self.pending = not self.anna_placed  # both placed: the roll is written down
        return "ok"


def _message(rng: random.Random, table: Table, basis: dict, anna: int
             ) -> tuple[str | bytes, str, str]:
    """One fuzzed message for the current ``table``: ``(what is sent, the action id its
    answer names, the answer expected)``. Each message has at most one thing wrong."""
    action_id = uuid.uuid4().hex
    free = [(r, c) for r in range(5) for c in range(5) if (r, c) not in table.filled]
    cell = rng.choice(free)
    as_sent = rng.choice([f"{cell[0]},{cell[1]}", list(cell)])
    kind = rng.choices(
        ["place", "taken", "bad_cell", "roll", "stale", "seat", "unknown", "type", "id",
         "room", "room_stale", "ready", "text", "array", "large", "binary"],
        weights=[4, 2, 2, 3, 2, 1, 1, 1, 1, 2, 1, 1, 1, 1, 1, 1])[0]

    def sent(fields: dict, answer: str, ident: str = action_id) -> tuple[str, str, str]:
        return json.dumps({**basis, "action_id": action_id, **fields}), ident, answer

    if kind == "place":
        return (*sent({"type": "place", "cell": as_sent}, "")[:2], table.place(cell))
    if kind == "taken" and table.filled:
        taken = rng.choice(sorted(table.filled))
        return (*sent({"type": "place", "cell": f"{taken[0]},{taken[1]}"}, "")[:2],
                table.place(taken))
    if kind == "bad_cell":
        return sent({"type": "place", "cell": rng.choice(BAD_CELLS)}, "bad_cell")
    if kind == "roll":
        return (*sent({"type": "roll"}, "")[:2], table.roll())
    if kind == "stale":  # the page's roll count, but wrong, missing or not an integer
        fields = {k: v for k, v in basis.items() if k != "roll"}
        wrong = rng.choice([basis["roll"] - 1, basis["roll"] + 1, str(basis["roll"]),
                            float(basis["roll"]), True, None])
        if wrong is not None:
            fields["roll"] = wrong
        message = rng.choice([{"type": "place", "cell": as_sent}, {"type": "roll"}])
        # who may act is asked first: a roll when it is not his turn is told so
        answer = ("not_your_turn" if message["type"] == "roll" and not table.pending
                  and not table.his_roll else "stale")
        return json.dumps({**fields, "action_id": action_id, **message}), action_id, answer
    if kind == "seat":  # a placement for Anna's seat
        return sent({"type": "place", "cell": as_sent, "seat": anna}, "not_your_seat")
    if kind == "unknown":
        return sent({"type": rng.choice(["hold", "score", "undo", "PLACE", "roll ", ""])},
                    "unknown_action")
    if kind == "type":
        return sent({"type": rng.choice([None, 7, ["place"], {"a": 1}, True])}, "bad_message")
    if kind == "id":  # an action id that is not a short string: refused, answered without it
        bad = rng.choice([12345, "x" * 65, ["a"], 1.5])
        return (json.dumps({**basis, "type": "place", "cell": as_sent, "action_id": bad}), "",
                "bad_message")
    if kind == "room":  # decisions for the host only (during a game)
        return sent({"type": rng.choice(ROOM_ACTIONS), "target": anna}, "not_host")
    if kind == "room_stale":  # decided on another room version (or game: the options): he
        room_action = rng.choice(ROOM_ACTIONS)  # is not the host, which is asked first
        field = ROOM_BASIS[room_action][0]
        return sent({"type": room_action, field: basis[field] - 1}, "not_host")
    if kind == "ready":  # only in the lobby; "ready" must be true or false
        ready = rng.choice([True, False, "yes", 1])
        return sent({"type": "ready", "ready": ready},
                    "game_running" if isinstance(ready, bool) else "bad_message")
    if kind == "text":
        return rng.choice(["{", "place 1,1", "", "{'type': 'roll'}", "[1,"]), "", "bad_message"
    if kind == "array":
        return json.dumps(rng.choice([[basis], 7, "roll", None])), "", "bad_message"
    if kind == "large":  # over 2048 bytes
        return (json.dumps({**basis, "type": "place", "cell": as_sent,
                            "pad": "x" * rng.randint(2100, 4000)}), "", "too_large")
    if kind == "binary":
        return json.dumps({**basis, "type": "roll"}).encode(), "", "bad_message"
    return _message(rng, table, basis, anna)  # "taken" with nothing filled yet: again


async def _advance(rng: random.Random, guests: dict, sockets: dict, code: str) -> None:
    """Play 0-3 legal steps of the table (a roll by the roller, or a placement by someone
    who has not placed), so the batches meet every situation."""
    for _ in range(rng.randint(0, 3)):
        current = (await guests["anna"].state(code))["current"]
        seats = {s["id"]: s["name"] for s in (await guests["anna"].state(code))["seats"]}
        if not current["roll_pending"]:
            who = seats[current["roller"]].lower()
            assert (await sockets[who].act("roll")).ok
            continue
        waiting = [s for s in current["order"] if s not in current["placed"]]
        seat = rng.choice(waiting)
        grid = current["sheets"][str(seat)]
        free = [f"{r},{c}" for r in range(5) for c in range(5) if grid[r][c] is None]
        assert (await sockets[seats[seat].lower()].act("place", cell=rng.choice(free))).ok


async def test_each_fuzzed_message_is_refused_by_its_rule(server) -> None:
    """240 seeded messages from Bram, each with at most one thing wrong and the page's
    current basis, in 8 batches at different moments of a Knister game: each gets the
    answer worked out for it (applied, or refused by the rule it breaks), the refusals per
    rule are counted, and the room changes by exactly the messages applied."""
    rng = random.Random(SEED)
    guests = {n.lower(): Guest(server.url, n) for n in ("Anna", "Bram")}
    code = await guests["anna"].create_room()
    assert (await guests["bram"].join(code)).status_code == 303
    sockets = {n: await g.connect(code) for n, g in guests.items()}
    loaded = await guests["anna"].http.post(f"/_test/rooms/{code}/dice",
                                            json={"faces": FACES})
    assert loaded.status_code == 200
    assert (await sockets["anna"].act("start")).ok
    state = await guests["anna"].state(code)
    anna, bram = (s["id"] for s in state["seats"])
    expected: Counter[str] = Counter()
    answered: Counter[str] = Counter()
    sock = sockets["bram"]
    for batch in range(BATCHES):
        if batch:  # the first batch before the game's first roll (nothing to place yet)
            await _advance(rng, guests, sockets, code)
        before = await guests["anna"].state(code)
        await sock.wait_version(before["version"])
        table = Table.read(before, bram)
        rolls_before, applied = table.rolls, 0
        for n in range(PER_BATCH):
            text, action_id, answer = _message(rng, table, sock.basis, anna)
            reply = await sock.send_raw_for_reply(text, action_id)
            got = "ok" if reply.ok else reply.code
            assert got == answer, (batch, n, text[:300], reply)
            expected[answer] += 1
            answered[got] += 1
            if reply.ok:
                applied += 1
                await sock.wait_version(reply.version)  # the page shows what it did
        after = await guests["anna"].state(code)
        # the room changed by the messages applied, and by nothing refused
        assert after["version"] == before["version"] + applied
        grid_before, grid_after = (s["current"]["sheets"][str(bram)] for s in (before, after))
        changed = {(r, c) for r in range(5) for c in range(5)
                   if grid_before[r][c] != grid_after[r][c]}
        assert changed == table.filled - Table.read(before, bram).filled
        for r, c in changed:  # Bram's placement holds the sum of the dice loaded for the roll
            roll = len(after["current"]["rolls"]) - 1
            assert grid_after[r][c] == FACES[2 * roll] + FACES[2 * roll + 1]
        assert len(after["current"]["rolls"]) == table.rolls
        assert after["current"]["rolls"][rolls_before:] == [
            FACES[2 * k:2 * k + 2] for k in range(rolls_before, table.rolls)]
        assert after["current"]["sheets"][str(anna)] == before["current"]["sheets"][str(anna)]
    assert answered == expected  # per rule: as many refusals as messages that break it
    assert set(expected) >= REACHED, REACHED - set(expected)
    assert expected["stale"] < sum(expected.values()) // 5  # validation is reached
    print("\nanswers per rule:", dict(sorted(expected.items())))
    for s in sockets.values():
        await s.close()
    for g in guests.values():
        await g.aclose()
