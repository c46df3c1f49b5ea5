"""Every page of the site, reached on a running server (for the page-wide checks: number and
date formatting, axe-core, screenshots).

``build_site(server_url, database_url)`` makes the states the pages need through the test
hooks and the room protocol: per room game in the registry (``app.rooms.games.GAMES``, so a
new game is covered without touching this file) a lobby, a running game (its chat showing a
line) and a finished one; the guided first rounds of Knister and Kniffel; Knikkers games
(running, just over), the review of each finished game that has one, the
players' room-game history and, written through the ranking write path, one
finished Knikkers game scoring ``BIG_SCORE``, so every board, the player page and that replay
have a 5-digit number to print. The finished room games' totals are set to ``BIG_SCORE`` and
up, so their result screens print 5-digit totals too.
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

from sqlalchemy import select, update

from app.rooms.games import GAMES
from app.store.db import Database
from app.store.models import Game as GameRow
from app.store.models import Room
from tests.knikkers.helpers import play_to_end, record_result
from tests.support import databases as dbs
from tests.support import http
from tests.support.players import Guest
from tests.support.server import ServerProcess, server_env_for
from tests.support.waiting import until_async

BIG_SCORE = 12345
BIG_AT = datetime(2026, 3, 14, 15, 9, tzinfo=UTC)  # when the 5-digit game finished (UTC)
ISO_DAY = BIG_AT.date().isoformat()
UNKNOWN_ROOM = "Zz" * 8  # a well-formed code no room has


@dataclass(frozen=True)
class SitePage:
    """One page to check: ``name`` (for reports and screenshot files), its ``path``, whose
    cookies open it (``anna`` the host and Knikkers player, ``bram`` a seated guest,
    ``stranger`` a new visitor), the HTTP ``status`` expected, the ``game`` it shows (a room
    game kind or ``knikkers``; None for other pages) and whether it prints ``BIG_SCORE``
    (``big``) and the date of that game (``big_date``); ``shot``: worth a screenshot (each
    game's own screens, and the Knikkers pages)."""

    name: str
    path: str
    who: str = "stranger"
    status: int = 200
    game: str | None = None
    big: bool = False
    big_date: bool = False
    shot: bool = False


@dataclass
class Site:
    """The pages and the session cookies of each visitor (``who`` -> cookie dict)."""

    url: str
    pages: list[SitePage]
    cookies: dict[str, dict[str, str]] = field(default_factory=dict)


def build_site(server_url: str, database_url: str) -> Site:
    """Make every page's state on the server at ``server_url`` (see the module docstring)."""
    return asyncio.run(_build(server_url, database_url))


async def _build(url: str, database_url: str) -> Site:
    anna, bram = Guest(url, "Anna"), Guest(url, "Bram")
    stranger = http.async_client(base_url=url)
    try:
        r = await anna.http.post("/name", data={"name": "Anna", "next": "/"})
        assert r.status_code in (200, 303), r.text
        await stranger.get("/")
        pages = [
            SitePage("home", "/"),
            SitePage("name", "/name"),
            SitePage("new-room", "/rooms/new"),
            SitePage("not-found", "/no/such/page", status=404),
            SitePage("room-unknown", f"/r/{UNKNOWN_ROOM}", status=404),
        ]
        for kind in GAMES:
            pages += await _room_pages(anna, bram, kind, database_url)
        pages += await _guide_pages(anna)
        pages += await _knikkers_pages(anna, url, database_url)
        pages += await _daily_pages(anna)
        return Site(url, pages, {
            "anna": dict(anna.http.cookies.items()),
            "bram": dict(bram.http.cookies.items()),
            "stranger": dict(stranger.cookies.items()),
        })
    finally:
        await anna.aclose()
        await bram.aclose()
        await stranger.aclose()


async def _room_pages(anna: Guest, bram: Guest, kind: str, database_url: str) -> list[SitePage]:
    """A lobby, a running game (after a first roll where the game has one) and a finished
    game with 5-digit totals, of room game ``kind``."""
    codes = []
    for _ in range(3):
        code = await anna.create_room(kind)
        r = await bram.join(code)
        assert r.status_code in (200, 303), r.text
        codes.append(code)
    lobby, running, finished = codes
    for code in (running, finished):
        sock = await anna.connect(code)
        try:
            reply = await sock.act("start")
            assert reply.ok, reply
            if code == running and "roll" in GAMES[kind].actions:
                await sock.act("roll")  # refused where Anna does not roll first: fine
            if code == running:  # the chat shows a line (and the host's "Remove")
                assert (await sock.act("chat", text="Good luck, <b>all</b>!")).ok
        finally:
            await sock.close()
    r = await anna.http.post(f"/_test/rooms/{finished}/finish")
    assert r.status_code == 200, r.text
    await _set_totals(database_url, finished)
    reviews = []
    if GAMES[kind].review is not None:
        path = f"/r/{finished}/games/1/review"
        await _until_analysed(anna, path)
        reviews.append(SitePage(f"{kind}-review", path, "anna", game=kind, shot=True))
    if getattr(GAMES[kind], "dice_log", None) is not None:  # docs/dice.md: its verify pages
        reviews += [SitePage(f"{kind}-verify", f"/r/{finished}/games/1/verify", "bram",
                             game=kind),
                    SitePage(f"{kind}-verify-running", f"/r/{running}/games/1/verify",
                             game=kind)]
    return reviews + [
        SitePage(f"{kind}-lobby", f"/r/{lobby}", "anna", game=kind, shot=True),
        SitePage(f"{kind}-lobby-guest", f"/r/{lobby}", "bram", game=kind, shot=True),
        SitePage(f"{kind}-join", f"/r/{lobby}", game=kind),
        SitePage(f"{kind}-game", f"/r/{running}", "anna", game=kind, shot=True),
        SitePage(f"{kind}-game-guest", f"/r/{running}", "bram", game=kind, shot=True),
        SitePage(f"{kind}-watch", f"/r/{running}?watch=1", game=kind),
        SitePage(f"{kind}-running-gone", f"/r/{running}", game=kind),
        SitePage(f"{kind}-result", f"/r/{finished}", "anna", game=kind, big=True,
                 shot=True),
        SitePage(f"{kind}-finished-gone", f"/r/{finished}", game=kind, big=True),
    ]


async def _daily_pages(anna: Guest) -> list[SitePage]:
    """The daily Knister before playing (Bram), after (Anna: her result, par, the lines)
    and the shared result (docs/rules.md, "Daily challenges")."""
    r = await anna.http.post("/daily/knister", data={"name": "Anna"})
    assert r.status_code == 303, r.text
    code = r.headers["location"].rsplit("/", 1)[1]
    r = await anna.http.post(f"/_test/rooms/{code}/finish")
    assert r.status_code == 200, r.text
    page = (await anna.http.get("/daily/knister")).text
    shared = page.split('data-url="', 1)[1].split('"', 1)[0].split("/daily/", 1)[1]
    return [SitePage("daily-knister", "/daily/knister", "anna", shot=True),
            SitePage("daily-knister-guest", "/daily/knister", "bram"),
            SitePage("daily-knister-shared", f"/daily/{shared}"),
            SitePage("daily-kniffel", "/daily/kniffel", "bram")]


async def _guide_pages(anna: Guest) -> list[SitePage]:
    """A guided first round of Knister and of Kniffel ("How to play"), at its first step."""
    pages = []
    for kind in ("knister", "kniffel"):
        r = await anna.http.post("/learn", data={"game": kind, "name": anna.name})
        assert r.status_code == 303, r.text
        code = r.headers["location"].rsplit("/", 1)[1]
        pages.append(SitePage(f"{kind}-guide", f"/r/{code}", "anna", game=kind, shot=True))
    return pages


async def _until_analysed(guest: Guest, path: str, timeout: float = 120) -> None:
    """Wait until the review at ``path`` shows its analysis (the strategy table it needs is
    built in the background the first time), so every run checks the same page."""
    async def analysed() -> bool:
        r = await guest.http.get(path)
        assert r.status_code == 200, r.text
        return 'data-analysis="preparing"' not in r.text
    await until_async(analysed, f"{path} shows its analysis", timeout, every=0.5)


async def _set_totals(database_url: str, code: str) -> None:
    """Give the finished game of room ``code`` the totals ``BIG_SCORE``, ``BIG_SCORE + 1``...
    and bump the room's version, so every process reloads it."""
    db = Database(database_url)
    try:
        async with db.sessionmaker() as session:
            room = await session.scalar(select(Room).where(Room.code == code))
            assert room is not None
            game = await session.scalar(select(GameRow).where(GameRow.room_id == room.id))
            assert game is not None and game.result is not None
            totals = {seat: BIG_SCORE + i for i, seat in enumerate(game.result["totals"])}
            game.result = {**game.result, "totals": totals}
            await session.execute(update(Room).where(Room.id == room.id)
                                  .values(version=Room.version + 1))
            await session.commit()
    finally:
        await db.dispose()


async def _knikkers_pages(anna: Guest, url: str, database_url: str) -> list[SitePage]:
    """Anna's running Knikkers game, one just over, a 5-digit game of hers in the leaderboards,
    her player page and that game's replay; the leaderboards of the other variant stay empty."""
    r = await anna.http.post("/knikkers/test/near-full", data={"free": "3", "seed": "1"})
    over = int(r.headers["location"].rsplit("/", 1)[1])
    with http.client(base_url=url, cookies=dict(anna.http.cookies.items())) as sync:
        await asyncio.to_thread(play_to_end, sync, over)
    r = await anna.http.post("/knikkers/test/start", data={"seed": "3", "variant": "5"})
    running = int(r.headers["location"].rsplit("/", 1)[1])
    anna_id = await _player_id(anna, running)
    db = Database(database_url)
    try:
        big = await record_result(db, anna_id, BIG_SCORE, BIG_AT, variant=5, name="Anna")
    finally:
        await db.dispose()
    return [
        SitePage("knikkers-game", f"/knikkers/games/{running}", "anna", game="knikkers",
                 big=True, shot=True),
        SitePage("knikkers-over", f"/knikkers/games/{over}", "anna", game="knikkers", big=True,
                 shot=True),
        SitePage("knikkers-replay", f"/knikkers/games/{big}/replay?step=0", game="knikkers",
                 big=True, big_date=False),
        SitePage("knikkers-replay-end", f"/knikkers/games/{over}/replay?step=999",
                 game="knikkers", shot=True),
        SitePage("leaderboards", "/leaderboards", big=True),
        SitePage("leaderboard", "/leaderboards/knikkers/5", big=True, big_date=True,
                 shot=True),
        SitePage("leaderboard-empty", "/leaderboards/knikkers/4"),
        SitePage("leaderboard-games", "/leaderboards/knikkers/5?mode=games", big=True,
                 big_date=True),
        SitePage("leaderboard-daily", f"/leaderboards/knikkers/5/daily/{ISO_DAY}",
                 big_date=True),
        SitePage("player", f"/players/{anna_id}", big=True, big_date=True, shot=True),
        SitePage("room-games", f"/players/{anna_id}/games", big=True, shot=True),
        SitePage("player-empty", f"/players/{anna_id}?variant=4"),
    ]


async def _player_id(guest: Guest, game_id: int) -> str:
    """Anna's player id, from the "Your statistics" link of her Knikkers game ``game_id``."""
    r = await guest.http.get(f"/knikkers/games/{game_id}")
    found = re.search(r'href="/players/([0-9a-f]+)"', r.text)
    assert found, r.text
    return found.group(1)


@contextmanager
def served_site(folder: Path, strategy_dir: Path) -> Iterator[Site]:
    """One server on its own SQLite database in ``folder`` with every page's state made
    (``build_site``; the reviews' strategy tables in ``strategy_dir``), stopped afterwards."""
    url = dbs.create_sqlite_database(folder)
    dbs.migrate(url)
    env = server_env_for(url, folder, STRATEGY_DIR=str(strategy_dir))
    with ServerProcess(env, log=folder / "server.log") as server:
        yield build_site(server.url, url)
