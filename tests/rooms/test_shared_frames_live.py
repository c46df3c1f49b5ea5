"""One render per version over real sockets (issue 28): in a Kniffel room with hints, three
seated players and a spectator get, for every version, the very same shared frame (byte for
byte); the spectator gets nothing else; only the player on turn is ever sent the hint button,
and a hint the player on turn asks for (over HTTP) never reaches any socket."""

from __future__ import annotations

import re

import pytest

from app.web.room_frames import SHARED
from tests.support.players import LIVE, Guest

pytestmark = [pytest.mark.server, pytest.mark.one_backend]

HINT_SHOWN = re.compile(r'data-hint-state="(?:preparing|shown)"|data-hint="')


def _version(frame: str) -> int | None:
    m = LIVE.search(frame)
    return int(m.group(1)) if m else None


async def test_every_viewer_gets_the_same_shared_frame_and_only_the_player_on_turn_a_hint(
        server) -> None:
    names = ("Anna", "Bram", "Cor")
    guests = [Guest(server.url, n) for n in names]
    watcher = Guest(server.url, "Wim")
    code = await guests[0].create_room("kniffel")
    for g in guests[1:]:
        assert (await g.join(code)).status_code == 303
    assert (await watcher.http.get(f"/r/{code}")).status_code == 200  # a guest, no seat
    sockets = [await g.connect(code) for g in guests]
    spectator = await watcher.connect(code)
    every = [*sockets, spectator]
    assert (await sockets[0].act("options", hints=["false", "true"])).ok
    assert (await sockets[0].act("start")).ok
    state = await guests[0].state(code)
    seat_ids = [s["id"] for s in state["seats"]]
    hints_asked = []
    start = {id(s): len(s.fragments) for s in every}  # from the start of the game
    for turn in range(4):
        current = (await guests[0].state(code))["current"]
        on_turn = seat_ids.index(current["current"])
        player = sockets[on_turn]
        for faces in ([1, 2, 3, 4, 6], [5, 5, 5, 5]):
            r = await guests[0].http.post(f"/_test/rooms/{code}/dice", json={"faces": faces})
            assert r.status_code == 200, r.text
            reply = await player.act("roll")
            assert reply.ok, reply
            for s in every:
                await s.wait_version(reply.version)
            hint = await guests[on_turn].http.get(f"/r/{code}/hint")  # the player asks
            assert hint.status_code == 200 and HINT_SHOWN.search(hint.text), hint.text
            hints_asked.append(hint.text)
            if faces == [1, 2, 3, 4, 6]:
                assert (await player.act("hold", die=0, held=True)).ok
        reply = await player.act("score", box="chance" if turn < 3 else "fives")
        assert reply.ok, reply
        for s in every:
            await s.wait_version(reply.version)
        # only the player on turn was ever sent the hint button this turn
        for i, s in enumerate(sockets):
            got = "".join(s.fragments[start[id(s)]:])
            assert ('data-action="show-hint"' in got) == (i == on_turn), (i, on_turn)
        start = {id(s): len(s.fragments) for s in every}
    shared_by_version: dict[int, set[str]] = {}
    for s in every:
        for frame in s.fragments:
            assert not HINT_SHOWN.search(frame)  # no hint ever travels on a socket
            if frame.startswith(SHARED):
                shared_by_version.setdefault(_version(frame), set()).add(frame)
    assert len(shared_by_version) >= 12
    for version, frames in shared_by_version.items():
        assert len(frames) == 1, version  # byte-identical for all four viewers
        (frame,) = frames
        assert all(frame in s.fragments for s in every), version
    # the spectator is sent nothing of its own: after its first whole live area, every
    # update it got was a shared frame (acks and talk aside)
    updates = [f for f in spectator.fragments if 'id="live' in f or "own-parts" in f]
    assert updates[0].lstrip().startswith('<div id="live"')
    assert all(f.startswith(SHARED) for f in updates[1:] if 'id="live"' not in f)
    for s in every:
        await s.close()
    for g in (*guests, watcher):
        await g.aclose()
