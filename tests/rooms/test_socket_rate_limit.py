"""The room socket's message rate limit (``WS_MESSAGE_RATE``, per player and room): messages
over the limit are answered ``rate_limited`` and change nothing; another player's quota is
untouched. A server with a limit of 3 messages an hour, so the test never races a window."""

from __future__ import annotations

import pytest

from tests.support.players import Guest
from tests.support.server import ServerProcess

pytestmark = pytest.mark.server

LIMIT = 3


@pytest.fixture
def limited_server(server_env, tmp_path):
    """A server allowing each player ``LIMIT`` messages an hour per room."""
    env = {**server_env, "WS_MESSAGE_RATE": f"{LIMIT}/hour"}
    with ServerProcess(env, log=tmp_path / "server.log") as proc:
        yield proc


async def test_messages_over_the_rate_are_refused_and_change_nothing(limited_server) -> None:
    host, bram = Guest(limited_server.url, "Anna"), Guest(limited_server.url, "Bram")
    code = await host.create_room("knister")
    assert (await bram.join(code)).status_code == 303
    a = await host.connect(code, hello=None)  # a hello would count as a message too
    b = await bram.connect(code, hello=None)
    allowed = [{"timer": "30"}, {"timer": "30", "match": "3"},
               {"timer": "30", "match": "3", "straight_without_seven": "12"}]
    version = (await host.state(code))["version"]
    for options in allowed:  # each names the game shown (stale actions fail)
        reply = await a.act("options", version=version, game=0, **options)
        assert (reply.ok, reply.version) == (True, version + 1), reply
        version = reply.version
    before = await host.state(code)
    assert (before["version"], before["status"], before["options"]) == (
        version, "lobby", {"timer": 30, "match": 3, "straight_without_seven": 12,
                           "dice": "screen", "bot_takeover": True, "pace": "live",
                           "turn_deadline_hours": 24})

    excess = [await a.act("options", version=version, timer="60"),
              await a.act("start", version=version), await a.act("leave", version=version),
              await a.act("options", version=version, match="1")]
    assert [(r.ok, r.code, r.message) for r in excess] == [
        (False, "rate_limited", "Too many messages, slow down.")] * 4
    assert await host.state(code) == before  # nothing of the excess was applied

    # the limit is per player: Bram's first message is decided on its merits
    other = await b.act("start", version=version)
    assert (other.code, other.message) == ("not_host", "Only the host can do that.")
    for sock in (a, b):
        await sock.close()
    for guest in (host, bram):
        await guest.aclose()
