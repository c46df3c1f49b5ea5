"""A move and an undo sent back to back, on two connections at once, against a real server:
the game ends exactly before or exactly after the move, never in between and never broken.

Issue 6, acceptance 2. Each action locks the game row first (service._lock), so the two are
applied one after the other in some order: undo first is refused (nothing to undo) and the move
stands; move first and the undo takes it back.
"""

from __future__ import annotations

import asyncio
import threading

import pytest

from app.engines.knikkers import Game
from app.knikkers import service
from app.main import SESSION_COOKIE
from app.store.db import Database
from tests.knikkers.helpers import JSON, choose
from tests.support import http
from tests.support.server import ServerProcess

pytestmark = pytest.mark.server

SEED, VARIANT, TRIALS = 5, 5, 12


def _race(server: ServerProcess, cookie: str, game_id: int, src, dst) -> list[int]:
    barrier = threading.Barrier(2)
    statuses: list[int] = []
    failures: list[BaseException] = []

    def send(path: str, data: dict) -> None:
        try:
            with http.client(base_url=server.url, cookies={SESSION_COOKIE: cookie},
                              headers=JSON, timeout=30) as client:
                barrier.wait(timeout=30)
                statuses.append(client.post(path, data=data).status_code)
        except BaseException as exc:  # handed to the test thread below, never dropped
            failures.append(exc)
            raise

    move = {"src": f"{src[0]},{src[1]}", "dst": f"{dst[0]},{dst[1]}"}
    threads = [
        threading.Thread(target=send, args=(f"/knikkers/games/{game_id}/move", move)),
        threading.Thread(target=send, args=(f"/knikkers/games/{game_id}/undo", {})),
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert not any(thread.is_alive() for thread in threads), "a request did not finish"
    if failures:
        raise failures[0]
    return statuses


def _position(s: dict) -> dict:
    keep = ("board", "upcoming", "score", "moves", "lines_cleared", "over")
    return {k: s[k] for k in keep}


def _stored_log_replays(database_url: str, game_id: int) -> Game:
    async def run() -> Game:
        db = Database(database_url)
        try:
            async with db.sessionmaker() as session:
                return await service.load(session, game_id)
        finally:
            await db.dispose()

    return asyncio.run(run()).game


def test_move_and_undo_at_once_leave_the_game_before_or_after_the_move(settings, tmp_path):
    env = {"DATABASE_URL": settings.database_url, "SECRET_KEY": "c" * 32,
           "VAR_DIR": str(tmp_path)}
    outcomes, script = [], []
    with ServerProcess(env) as server, http.client(base_url=server.url, headers=JSON,
                                                     timeout=30) as client:
        started = client.post("/knikkers/test/start", data={"seed": SEED, "variant": VARIANT})
        assert started.status_code == 303, started.text
        game_id = int(started.headers["location"].rsplit("/", 1)[1])
        cookie = client.cookies[SESSION_COOKIE]

        def send(action: str, src=None, dst=None) -> None:
            data = {"src": f"{src[0]},{src[1]}", "dst": f"{dst[0]},{dst[1]}"} if src else {}
            response = client.post(f"/knikkers/games/{game_id}/{action}", data=data)
            assert response.status_code == 200
            script.append(("move", src, dst) if src else ("undo",))

        for _trial in range(TRIALS):
            s = client.get(f"/knikkers/games/{game_id}/state").json()
            if s["over"]:
                break
            assert s["can_undo"] is False  # so an undo that wins the race has nothing to take
            before = Game.replay(SEED, VARIANT, script)
            src, dst = choose(before)
            after = Game.replay(SEED, VARIANT, [*script, ("move", src, dst)])
            statuses = sorted(_race(server, cookie, game_id, src, dst))
            now = client.get(f"/knikkers/games/{game_id}/state").json()
            if _position(now) == _position(before.state_dict()):
                outcomes.append("before")
                assert statuses == [200, 200]
                assert now["version"] == s["version"] + 2
                script += [("move", src, dst), ("undo",)]
            else:
                outcomes.append("after")
                assert statuses == [200, 422]
                assert _position(now) == _position(after.state_dict())
                assert now["version"] == s["version"] + 1
                script.append(("move", src, dst))
                send("undo")
            # advance one move net, ending on an undo: a new position with nothing to undo
            send("move", *choose(Game.replay(SEED, VARIANT, script)))
            if client.get(f"/knikkers/games/{game_id}/state").json()["over"]:
                break
            send("move", *choose(Game.replay(SEED, VARIANT, script)))
            send("undo")
        final = client.get(f"/knikkers/games/{game_id}/state").json()
    assert len(outcomes) == TRIALS and set(outcomes) <= {"before", "after"}
    assert _position(final) == _position(Game.replay(SEED, VARIANT, script).state_dict())
    replayed = _stored_log_replays(settings.database_url, game_id)
    assert _position(replayed.state_dict()) == _position(final)
