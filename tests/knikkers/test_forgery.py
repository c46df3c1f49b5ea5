"""A forged request cannot create or change a score (issue 6, acceptance 4).

Scores are only written when the server's own replay of a game's log ends the game; no request
field carries a score, and another player's game is invisible (404).
"""

from __future__ import annotations

import asyncio

from sqlalchemy import func, select

from app.engines.knikkers import Game
from app.knikkers.testpositions import near_full
from app.main import SESSION_COOKIE
from app.store.db import Database
from app.store.models import GameEvent, KnikkersBest, KnikkersScore
from tests.knikkers.helpers import (
    JSON,
    as_another_guest,
    choose,
    engine_view,
    move,
    play_to_end,
    player_of,
    ranks,
    start,
    start_near_full,
    state,
    undo,
)


def _counts(client) -> tuple[int, int, int]:
    async def run() -> tuple[int, int, int]:
        db = Database(client.app.state.settings.database_url)
        try:
            async with db.sessionmaker() as session:
                counts = []
                for model in (KnikkersScore, KnikkersBest, GameEvent):
                    counts.append(await session.scalar(select(func.count()).select_from(model)))
                return tuple(counts)
        finally:
            await db.dispose()

    return asyncio.run(run())


def test_score_fields_in_a_move_are_ignored(client) -> None:
    game_id = start(client)
    s = state(client, game_id)
    src, dst = choose(engine_view(s))
    response = client.post(
        f"/knikkers/games/{game_id}/move",
        data={"src": f"{src[0]},{src[1]}", "dst": f"{dst[0]},{dst[1]}", "score": "99999",
              "points": "99999", "lines": "50", "over": "true", "status": "finished"},
        headers=JSON,
    )
    assert response.status_code == 200
    assert response.json()["score"] == 0
    assert response.json()["status"] == "playing"
    assert _counts(client)[:2] == (0, 0)


def test_there_is_no_endpoint_that_finishes_a_game_or_sets_a_score(client) -> None:
    game_id = start(client)
    before = state(client, game_id)
    for path in ("finish", "score", "result", "end", "state"):
        response = client.post(f"/knikkers/games/{game_id}/{path}",
                               data={"score": "99999"}, headers=JSON)
        assert response.status_code in (404, 405), path
    for path in ("/knikkers/scores", "/leaderboards/knikkers/5", "/knikkers/games"):
        assert client.post(path, data={"score": "99999"}).status_code in (404, 405), path
    assert state(client, game_id) == before
    assert _counts(client)[:2] == (0, 0)


def test_another_players_game_is_not_found_and_stays_unchanged(client) -> None:
    game_id = start(client)
    s = state(client, game_id)
    src, dst = choose(engine_view(s))
    move(client, game_id, src, dst)
    mine = state(client, game_id)
    with as_another_guest(client):
        intruder = client
        start(intruder, seed=7)  # the intruder is a real guest with a game of their own
        checks = [
            intruder.post(f"/knikkers/games/{game_id}/undo", headers=JSON),
            intruder.post(f"/knikkers/games/{game_id}/move",
                          data={"src": f"{dst[0]},{dst[1]}", "dst": f"{src[0]},{src[1]}"},
                          headers=JSON),
            intruder.post(f"/knikkers/games/{game_id}/move", data={"src": "x", "dst": "y"}),
            intruder.post(f"/knikkers/games/{game_id}/again", follow_redirects=False),
            intruder.get(f"/knikkers/games/{game_id}/state"),
            intruder.get(f"/knikkers/games/{game_id}"),
            intruder.get(f"/knikkers/games/{game_id}/replay"),  # not finished: nothing to watch
        ]
        assert [r.status_code for r in checks] == [404] * len(checks)
    assert state(client, game_id) == mine


def test_a_tampered_cookie_is_a_stranger_to_the_game(client) -> None:
    game_id = start(client)
    before = state(client, game_id)
    good = client.cookies[SESSION_COOKIE]
    client.cookies.clear()
    forged = good[:-4] + ("AAAA" if not good.endswith("AAAA") else "BBBB")
    client.cookies.set(SESSION_COOKIE, forged)
    assert undo(client, game_id).status_code == 404
    client.cookies.clear()
    client.cookies.set(SESSION_COOKIE, good)
    assert state(client, game_id) == before


def test_unknown_game_ids_are_404(client) -> None:
    start(client)
    assert undo(client, 999999).status_code == 404
    assert client.get("/knikkers/games/999999/state").status_code == 404
    for game_id in (0, -1):  # not an id at all: refused by validation
        assert undo(client, game_id).status_code == 422
        assert client.get(f"/knikkers/games/{game_id}/state").status_code == 422
    assert client.post("/knikkers/games/abc/undo").status_code in (404, 422)
    for huge in (2**31, 2**63, 10**30):
        assert client.get(f"/knikkers/games/{huge}").status_code in (404, 422)
        assert client.post(f"/knikkers/games/{huge}/undo").status_code in (404, 422)
        assert client.get(f"/knikkers/games/{huge}/replay").status_code in (404, 422)


def test_a_finished_game_keeps_its_score_whatever_is_sent_afterwards(client) -> None:
    game_id = start_near_full(client, free=3)
    src, dst = choose(engine_view(state(client, game_id)))
    assert move(client, game_id, src, dst).json()["over"] is True
    done = state(client, game_id)
    counts = _counts(client)
    assert counts[:2] == (1, 4)  # one score; bests for all, month, week, today
    for _ in range(3):
        assert undo(client, game_id).status_code == 409
        assert move(client, game_id, dst, src).status_code == 409
    assert state(client, game_id) == done
    assert _counts(client) == counts
    me = player_of(client, game_id)
    assert ranks(client.get("/leaderboards/knikkers/5").text) == [(1, me, done["score"])]


def test_the_leaderboard_score_is_the_replayed_score(client) -> None:
    """Even the stored result is recomputed from the log: it matches an independent replay."""
    game_id = start_near_full(client, free=6)
    s, played = play_to_end(client, game_id)

    async def log() -> list:
        db = Database(client.app.state.settings.database_url)
        try:
            async with db.sessionmaker() as session:
                rows = (await session.execute(
                    select(GameEvent).where(GameEvent.game_id == game_id).order_by(GameEvent.seq)
                )).scalars().all()
                return [{"type": "move", **e.payload} if e.type == "move" else {"type": "undo"}
                        for e in rows]
        finally:
            await db.dispose()

    events = asyncio.run(log())
    assert len(events) == len(played)
    replayed = Game.replay(1, 5, events, start=near_full(6))
    assert replayed.over
    assert s["result"]["score"] == replayed.score
    assert s["result"]["moves"] == replayed.moves
