"""Fuzzing the room socket: malformed, oversized, out-of-order and duplicate messages from a
seated player change nothing, crash nothing, and the connection stays open or closes cleanly."""

from __future__ import annotations

import asyncio
import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from websockets.exceptions import ConnectionClosed

from tests.support import http
from tests.support.players import Guest, wait_for

pytestmark = pytest.mark.server

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
    objects.map(json.dumps),
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


@settings(max_examples=40, deadline=None,
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
            for raw in batch:
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
