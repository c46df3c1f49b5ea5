"""Helpers for the Knikkers tests: start games over HTTP, read the state, choose moves, and
write ranked results straight into the store (for leaderboard arithmetic)."""

from __future__ import annotations

import asyncio
import re
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import date, datetime

from app.engines.knikkers import Game
from app.knikkers import ranking
from app.main import SESSION_COOKIE
from app.store.db import Database
from app.store.models import Game as GameRow
from app.store.models import KnikkersScore, Player

JSON = {"accept": "application/json"}
HTMX = {"hx-request": "true"}
# A bound for every loop that plays a game to its end: far more moves than any game here takes
# (the chooser's seed-2 four-in-a-row game ends after 56 moves).
MAX_MOVES = 500


def start(client, *, seed: int = 2, variant: int = 4) -> int:
    """Start a game on a fixed seed (test hook) and return its id."""
    response = client.post("/knikkers/test/start",
                           data={"seed": str(seed), "variant": str(variant)},
                           follow_redirects=False)
    assert response.status_code == 303, response.text
    return int(response.headers["location"].rsplit("/", 1)[1])


def start_near_full(client, *, free: int = 9, seed: int = 1, variant: int = 5) -> int:
    """Start a game from the near-full test position and return its id."""
    response = client.post("/knikkers/test/near-full",
                           data={"free": str(free), "seed": str(seed), "variant": str(variant)},
                           follow_redirects=False)
    assert response.status_code == 303, response.text
    return int(response.headers["location"].rsplit("/", 1)[1])


def state(client, game_id: int) -> dict:
    """The game's JSON state (engine state_dict + id, version, status, result)."""
    response = client.get(f"/knikkers/games/{game_id}/state")
    assert response.status_code == 200, response.text
    return response.json()


@contextmanager
def as_another_guest(client, cookie: str | None = None) -> Iterator[None]:
    """Send the requests inside as a different guest, then go back to the client's own session.

    ``cookie``: that guest's session cookie (kept from an earlier block); None: a new guest.
    """
    mine = client.cookies[SESSION_COOKIE]
    client.cookies.clear()
    if cookie is not None:
        client.cookies.set(SESSION_COOKIE, cookie)
    try:
        yield
    finally:
        client.cookies.clear()
        client.cookies.set(SESSION_COOKIE, mine)


def finish(client, game_id: int) -> dict:
    """Play ``game_id`` to its end (``play_to_end``); return the final JSON state."""
    return play_to_end(client, game_id)[0]


def cell(rc) -> str:
    """``"r,c"`` for a (row, col) pair."""
    return f"{rc[0]},{rc[1]}"


def move(client, game_id: int, src, dst, **extra):
    """POST a move, asking for JSON."""
    data = {"src": cell(src), "dst": cell(dst), **extra}
    return client.post(f"/knikkers/games/{game_id}/move", data=data, headers=JSON)


def undo(client, game_id: int, **extra):
    """POST an undo, asking for JSON."""
    return client.post(f"/knikkers/games/{game_id}/undo", data=extra, headers=JSON)


def choose(game: Game):
    """A deterministic chooser: the first move (row-major) that clears a line by itself, else the
    first legal move; None when there is none."""
    board, first = game.board, None
    for r in range(9):
        for c in range(9):
            if board[r][c] is None:
                continue
            for dst in sorted(game.reachable((r, c))):
                if first is None:
                    first = ((r, c), dst)
                probe = Game.from_position(board, game.upcoming, game.min_line, 0)
                if probe.move((r, c), dst).spawned == []:
                    return (r, c), dst
    return first


def play_to_end(client, game_id: int, max_moves: int = MAX_MOVES) -> tuple[dict, list]:
    """Play ``choose``'s move until the game is over; every move must be accepted (200) and
    count as one move in the game's state. Returns the final state and the moves played
    (``[(src, dst)...]``, at least one); fails after ``max_moves`` moves."""
    s = state(client, game_id)
    assert not s["over"], "the game was over before the first move"
    played: list = []
    for _ in range(max_moves):
        src, dst = choose(engine_view(s))
        response = move(client, game_id, src, dst)
        assert response.status_code == 200, response.text
        played.append((src, dst))
        after = state(client, game_id)
        assert after["moves"] == s["moves"] + 1, (s["moves"], after["moves"])
        s = after
        if s["over"]:
            return s, played
    raise AssertionError(f"game {game_id} is not over after {max_moves} moves")


def engine_view(s: dict) -> Game:
    """An engine game with the position of a JSON state (for choosing the next move)."""
    return Game.from_position(s["board"], s["upcoming"], s["min_line"], 0)


def ranks(html: str) -> list[tuple[int, str, int]]:
    """``(rank, player, score)`` of every leaderboard row in a page, in order."""
    rows = re.findall(r'data-rank="(\d+)" data-player="([0-9a-f]+)" data-score="(\d+)"', html)
    return [(int(r), p, int(s)) for r, p, s in rows]


def guest_id(client) -> str:
    """The guest id of the client's session (via a game it owns)."""
    gid = start(client, seed=99, variant=5)
    return player_of(client, gid)


def player_of(client, game_id: int) -> str:
    """The player id owning ``game_id`` (read from the database)."""
    return _stored(client, game_id).player_id


def seed_of(client, game_id: int) -> int:
    """The seed of ``game_id`` (read from the database: no response carries it)."""
    return _stored(client, game_id).seed


def _stored(client, game_id: int) -> GameRow:
    async def run() -> GameRow:
        db = Database(client.app.state.settings.database_url)
        try:
            async with db.sessionmaker() as session:
                return await session.get(GameRow, game_id)
        finally:
            await db.dispose()

    return asyncio.run(run())


async def record_result(
    db: Database,
    player_id: str,
    score: int,
    finished_at: datetime,
    *,
    variant: int = 5,
    daily: date | None = None,
    name: str | None = None,
) -> int:
    """Store one finished game with ``score`` through the ranking write path (no replay: for
    leaderboard arithmetic only). Creates the player when missing. Returns the game id."""
    result = {"score": score, "moves": 10, "lines": score // 10}
    async with db.sessionmaker() as session:
        if await session.get(Player, player_id) is None:
            session.add(Player(id=player_id, name=name, knikkers_variant=variant))
            await session.flush()
        row = GameRow(kind="knikkers", player_id=player_id, options={"min_line": variant},
                      seat_ids=[], seed=0, status="finished", started_at=finished_at,
                      finished_at=finished_at, result=result)
        session.add(row)
        await session.flush()
        session.add(KnikkersScore(game_id=row.id, player_id=player_id, variant=variant,
                                  daily=daily, score=score, moves=10, lines=score // 10,
                                  finished_at=finished_at, duration_s=60))
        await ranking.raise_bests(session, player_id, variant, daily, row.id, result, finished_at)
        await session.commit()
        return row.id


def new_player_id() -> str:
    """A fresh 32-hex player id."""
    return uuid.uuid4().hex
