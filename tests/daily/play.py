"""Playing a daily challenge to its end over HTTP and the room socket, as a player would."""

from __future__ import annotations

from typing import Any

from tests.support.players import Guest


async def play_daily(guest: Guest, kind: str, driver: Any) -> tuple[str, dict, dict, int]:
    """Start ``guest``'s attempt at the daily ``kind`` and play it to the end with
    ``driver``'s moves (``tests.support.game_drivers``); returns the room code, the game's
    public record (``/r/<code>/games/1.json``), the room's last state and the guest's seat."""
    r = await guest.http.post(f"/daily/{kind}", data={"name": guest.name})
    assert r.status_code == 303, r.text
    code = r.headers["location"].rsplit("/", 1)[1]
    sock = await guest.connect(code)
    state = await guest.state(code)
    seat = state["seats"][0]["id"]
    while state["status"] == "playing":
        move = driver.next_move(state, [seat])
        assert move is not None
        assert (await sock.act(move.kind, **move.fields)).ok
        state = await guest.state(code)
    await sock.close()
    record = (await guest.http.get(f"/r/{code}/games/1.json")).json()
    return code, record, state, seat
