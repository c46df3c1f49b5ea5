"""Production logs: one JSON object per line, with room and player ids, never message
contents or session secrets."""

from __future__ import annotations

import asyncio
import json

import pytest

from app.main import SESSION_COOKIE
from tests.support.players import Guest
from tests.support.server import ServerProcess

pytestmark = pytest.mark.server

SECRET_NAME = "Zorro-7f3a"


@pytest.mark.parametrize("backend", ["sqlite"], indirect=True)
def test_logs_are_json_lines_with_ids_and_no_secrets(settings, tmp_path, backend) -> None:
    log_path = tmp_path / "server.log"
    env = {"DATABASE_URL": settings.database_url, "SECRET_KEY": "k" * 40,
           "VAR_DIR": str(tmp_path), "LOG_JSON": "true", "LOG_LEVEL": "debug"}

    async def play(url: str) -> tuple[str, str]:
        guest = Guest(url, SECRET_NAME)
        code = await guest.create_room()
        sock = await guest.connect(code)
        reply = await sock.act("start")
        assert reply.ok
        await sock.act("place", cell="0,0", note="a private message text")
        await sock.close()
        cookie = guest.http.cookies[SESSION_COOKIE]
        await guest.aclose()
        return code, cookie

    with ServerProcess(env, log=log_path) as server:
        code, cookie = asyncio.run(play(server.url))
    lines = [line for line in log_path.read_text().splitlines() if line.strip()]
    events = [json.loads(line) for line in lines]  # every line is one JSON object
    actions = [e for e in events if e.get("event") == "action"]
    assert actions and all(e["room"] == code and len(e["player"]) == 32 for e in actions)
    text = log_path.read_text()
    assert SECRET_NAME not in text
    assert "private message" not in text
    assert cookie not in text and "k" * 40 not in text
