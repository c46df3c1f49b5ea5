""""Your games" (``GET /games``, app/web/your_games.py over app/rooms/your_games.py) and the
header's count of games waiting for the player, on SQLite and Postgres (migrated schema).

The rooms, seats and ``rooms.turns`` are written directly (the turn engine writes them in the
app), in the shape of migration r001's contract: ``{"waits": {"<seat id>": {"since", "due",
"reminded"}}, "missed": {"<seat id>": n}}``."""

from __future__ import annotations

import asyncio
import re
from datetime import UTC, datetime, timedelta

import pytest
from sqlalchemy import event

from app.clock import utcnow
from app.main import SESSION_COOKIE
from app.players.service import get_player
from app.rooms.your_games import YourGame, order, turn_of, your_games
from app.store.db import Database
from app.store.models import Game, Player, Room, Seat
from tests.support.http import session_cookie

ME, BRAM, CARL, EVE = "a" * 32, "b" * 32, "c" * 32, "e" * 32
NAMES = {ME: "Anna", BRAM: "Bram", CARL: "Carl", EVE: "Eve"}
ROW = re.compile(r"<a class=\"game-row[^\"]*\" href=\"/r/(\w+)\" data-game-row "
                 r"data-room=\"(\w+)\"\s+"
                 r"data-your-turn=\"(true|false)\" data-status=\"(\w+)\""
                 r"(?: data-deadline=\"([^\"]+)\")?>")


def iso(moment: datetime) -> str:
    return moment.astimezone(UTC).isoformat()


async def add_room(session, code: str, seats: list[tuple[str, str]], *, status: str = "playing",
                   kind: str = "kniffel", waits: dict[str, datetime] | None = None,
                   missed: dict[str, int] | None = None, started: datetime | None = None,
                   finished: datetime | None = None, created: datetime | None = None,
                   turn_based: bool = True) -> Room:
    """A room of ``kind`` with ``seats`` (player id, seat status) in order; ``waits``: the
    players the table waits for and their deadlines; a game started at ``started`` (and
    finished at ``finished``) when given."""
    room = Room(code=code, game=kind, status=status, host_player_id=seats[0][0],
                options={"pace": "turns" if turn_based else "live"},
                created_at=created or utcnow() - timedelta(days=1))
    session.add(room)
    await session.flush()
    made = [Seat(room_id=room.id, player_id=pid, position=i, name=NAMES[pid], status=state)
            for i, (pid, state) in enumerate(seats)]
    session.add_all(made)
    await session.flush()
    seat_of = {s.player_id: s.id for s in made}
    if turn_based and status == "playing":
        now = utcnow()
        room.turns = {
            "waits": {str(seat_of[p]): {"since": iso(now - timedelta(hours=1)), "due": iso(due),
                                        "reminded": False} for p, due in (waits or {}).items()},
            "missed": {str(seat_of[p]): n for p, n in (missed or {}).items()}}
        room.turn_due_at = min((waits or {}).values(), default=None)
    if started is not None:
        session.add(Game(room_id=room.id, number=1, kind=kind, seat_ids=list(seat_of.values()),
                         status="finished" if finished else "playing", started_at=started,
                         finished_at=finished))
    return room


async def seed(url: str, build) -> None:
    db = Database(url)
    try:
        async with db.sessionmaker() as session, session.begin():
            for pid, name in NAMES.items():  # a module's server may hold them already
                await session.merge(Player(id=pid, name=name))
            await session.flush()
            await build(session)
    finally:
        await db.dispose()


def as_me(client, settings) -> None:
    client.cookies.clear()
    client.cookies.set(SESSION_COOKIE, session_cookie(settings.secret_key, ME))


def row_html(page: str, code: str) -> str:
    """The HTML of room ``code``'s row."""
    return page.split(f'data-room="{code}"', 1)[1].split("</li>", 1)[0]


def rows(page: str) -> list[tuple[str, str, str, str | None]]:
    """(room, your turn, status, deadline) of every row, in the page's order."""
    found = ROW.findall(page)
    assert all(href == room for href, room, *_ in found)
    return [(room, turn, status, deadline or None) for _, room, turn, status, deadline in found]


def test_your_turn_first_by_deadline_then_the_others_then_finished(client, settings) -> None:
    now = utcnow()
    due = {"SOON": now + timedelta(hours=1, minutes=5),
           "LATER": now + timedelta(hours=5, minutes=5), "LATE": now - timedelta(hours=2)}

    async def build(session) -> None:
        active = [(ME, "active"), (BRAM, "active")]
        await add_room(session, "LATER", active, waits={ME: due["LATER"], BRAM: due["SOON"]},
                       kind="knister", started=now - timedelta(days=2))
        await add_room(session, "SOON", active + [(CARL, "active")], waits={ME: due["SOON"]},
                       started=now - timedelta(days=3))
        await add_room(session, "LATE", active, waits={ME: due["LATE"]}, missed={ME: 3},
                       started=now - timedelta(days=4))
        await add_room(session, "BRAMS", active, waits={BRAM: due["SOON"]},
                       started=now - timedelta(hours=1))
        await add_room(session, "LOBBY", active, status="lobby",
                       created=now - timedelta(minutes=10))
        await add_room(session, "LIVE", active, turn_based=False, started=now - timedelta(hours=3))
        await add_room(session, "DONE", active, status="finished",
                       started=now - timedelta(days=3), finished=now - timedelta(days=2))
        await add_room(session, "DONE2", active, status="finished",
                       started=now - timedelta(days=3), finished=now - timedelta(hours=2))
        await add_room(session, "OLD", active, status="finished",
                       started=now - timedelta(days=30), finished=now - timedelta(days=20))
        await add_room(session, "GONE", [(ME, "left"), (BRAM, "active")], waits={ME: due["SOON"]})
        await add_room(session, "EVES", [(EVE, "active"), (BRAM, "active")],
                       waits={EVE: due["SOON"]})
        lesson = await add_room(session, "LESSON", [(ME, "active")], turn_based=False,
                                started=now - timedelta(minutes=5))
        lesson.options = {"guide": True}  # a guided first round: a lesson, not a game

    asyncio.run(seed(settings.database_url, build))
    as_me(client, settings)
    page = client.get("/games", headers={"accept-language": "en"})
    assert page.status_code == 200
    assert rows(page.text) == [
        ("LATE", "true", "playing", iso(due["LATE"])),
        ("SOON", "true", "playing", iso(due["SOON"])),
        ("LATER", "true", "playing", iso(due["LATER"])),
        ("BRAMS", "false", "playing", None),
        ("LIVE", "false", "playing", None),
        ("LOBBY", "false", "lobby", None),  # not started yet: under a heading of its own
        ("DONE2", "false", "finished", None),
        ("DONE", "false", "finished", None),
    ]
    text = page.text
    assert "<title>(3) Your games · Knobel</title>" in text
    assert 'data-your-turn-count="3"' in text and "<span data-turn-count-number>3<" in text
    assert "Your turn: 1 hour left" in text and "Your turn: 5 hours left" in text
    assert "Your turn: the time is up" in text
    assert text.count("data-away") == 1  # missed three turns: a bot plays for Anna in LATE
    assert "with Bram, Carl" in text and "Anna" not in text.split('id="your-games-title"')[1]
    assert 'href="/r/EVES"' not in text and 'href="/r/GONE"' not in text
    assert "LESSON" not in text  # the guided first round is no game of the list
    # the home page's rooms: the same rooms not finished, told apart by who is at the table
    home = client.get("/", headers={"accept-language": "en"}).text
    assert 'data-my-room="LESSON"' not in home and 'data-my-room="BRAMS"' in home
    brams = home.split('data-my-room="BRAMS"', 1)[1].split("</li>", 1)[0]
    assert "with Bram<" in brams and "Opened 1 day ago<" in brams
    # whom a turn-based table waits for, and when each room last moved (rooms of the same
    # game with the same people told apart)
    brams = row_html(text, "BRAMS")
    assert "Waiting for Bram<" in brams and "Last move 1 hour ago<" in brams
    assert "Opened 10 minutes ago<" in row_html(text, "LOBBY")
    assert "Waiting for" not in row_html(text, "LIVE")  # a live room stores no waits
    assert "Not started yet" in text
    # push.js only here, with the section it drives; the header's script everywhere
    assert "js/push.js" in text and "data-push-enable" in text and "data-push-disable" in text
    home = client.get("/", headers={"accept-language": "en"}).text
    assert "js/push.js" not in home and "js/badge.js" in home
    assert 'data-your-turn-count="3"' in home and "<span data-turn-count-number>3<" in home


def test_the_page_speaks_the_players_language(client, settings) -> None:
    now = utcnow()

    async def build(session) -> None:
        await add_room(session, "SOON", [(ME, "active"), (BRAM, "active")],
                       waits={ME: now + timedelta(hours=5, minutes=5)})

    asyncio.run(seed(settings.database_url, build))
    as_me(client, settings)
    nl = client.get("/games", headers={"accept-language": "nl"}).text
    de = client.get("/games", headers={"accept-language": "de"}).text
    assert "5 uur" in nl and "Jouw spellen" in nl
    assert "5 Stunden" in de and "Deine Spiele" in de
    # the header's count says what it counts in the page's language, also to screen readers
    # and in the words the script swaps in (a fresh user's finding: English in every language)
    assert '<span class="visually-hidden" data-turn-count-label> spel wacht op jou<' in nl
    assert 'data-many="spellen wachten op jou"' in nl
    assert '<span class="visually-hidden" data-turn-count-label> Spiel wartet auf dich<' in de


def test_a_hostile_name_is_escaped(client, settings) -> None:
    NAMES[BRAM] = "<img src=x onerror=a()>\""
    try:
        async def build(session) -> None:
            await add_room(session, "EVIL", [(ME, "active"), (BRAM, "active")],
                           waits={ME: utcnow() + timedelta(hours=3)})

        asyncio.run(seed(settings.database_url, build))
    finally:
        NAMES[BRAM] = "Bram"
    as_me(client, settings)
    text = client.get("/games").text
    assert "<img src=x" not in text
    assert "with &lt;img src=x onerror=a()&gt;&#34;" in text


def test_sixty_games_take_the_same_queries_as_one(client, settings) -> None:
    """A player with 60 running games (20 of them their turn): every row is listed, and the
    page reads the database as often as for one game (player, rooms, names)."""
    now = utcnow()

    def build(count: int, prefix: str):
        async def run(session) -> None:
            for i in range(count):
                await add_room(session, f"{prefix}{i:03d}", [(ME, "active"), (BRAM, "active")],
                               waits={ME if i % 3 == 0 else BRAM: now + timedelta(hours=i + 1)},
                               started=now - timedelta(minutes=i))
        return run

    def queries() -> int:
        """The statements of the page's reads (the player, their rooms, the names at those
        tables) on an engine of their own: the app's background jobs (bots, deadlines,
        pushes) share the app's engine and were counted in with the page (seen in CI)."""
        statements: list[str] = []

        async def read() -> None:
            db = Database(settings.database_url)
            event.listen(db.engine.sync_engine, "before_cursor_execute",
                         lambda conn, cursor, statement, *args: statements.append(statement))
            try:
                async with db.sessionmaker() as session:
                    assert await get_player(session, ME) is not None
                    await your_games(session, ME, utcnow())
            finally:
                await db.dispose()

        asyncio.run(read())
        return len(statements)

    as_me(client, settings)
    asyncio.run(seed(settings.database_url, build(1, "ONE")))
    one = queries()
    assert client.get("/games").status_code == 200
    db = Database(settings.database_url)

    async def more() -> None:
        try:
            async with db.sessionmaker() as session, session.begin():
                await build(60, "MANY")(session)
        finally:
            await db.dispose()

    asyncio.run(more())
    sixty = queries()
    assert sixty == one <= 3
    page = client.get("/games").text
    found = rows(page)
    assert len(found) == 61
    assert [turn for _, turn, *_ in found] == ["true"] * 21 + ["false"] * 40
    assert 'data-your-turn-count="21"' in page


def test_the_header_counts_the_games_waiting_on_every_page(client, settings) -> None:
    async def build(session) -> None:
        soon = utcnow() + timedelta(hours=2)
        await add_room(session, "ONE", [(ME, "active"), (BRAM, "active")], waits={ME: soon})
        await add_room(session, "TWO", [(BRAM, "active"), (ME, "active")], waits={ME: soon})
        await add_room(session, "NOPE", [(ME, "active"), (BRAM, "active")], waits={BRAM: soon})

    asyncio.run(seed(settings.database_url, build))
    as_me(client, settings)
    for path in ("/", "/groups", "/rooms/new", "/name"):
        text = client.get(path).text
        assert re.search(r'<span class="turn-count" data-your-turn-count="2"[^>]*>'
                         r'<span data-turn-count-number>2<', text), path
        assert 'href="/games"' in text
    # the count alone, for a page left open (static/js/badge.js), never kept by a cache
    count = client.get("/games/count")
    assert count.json() == {"count": 2} and count.headers["cache-control"] == "no-store"
    client.cookies.clear()
    client.cookies.set(SESSION_COOKIE, session_cookie(settings.secret_key, CARL))
    text = client.get("/").text
    assert 'data-your-turn-count="0" hidden' in text  # Carl: nothing waits for him
    assert client.get("/games/count").json() == {"count": 0}
    client.cookies.clear()
    assert client.get("/games/count").json() == {"count": None}  # a guest without a name


@pytest.mark.parametrize("query", ["", "?x", "?x=%00&page=-1&sort=%3Cscript%3E", "?" + "a" * 3000])
def test_a_guest_without_a_name_sees_the_empty_page(client, query: str) -> None:
    response = client.get("/games" + query)
    assert response.status_code == 200
    assert "data-games-empty" in response.text and "data-game-row" not in response.text
    assert 'href="/rooms/new"' in response.text
    assert "<title>Your games · Knobel</title>" in response.text


def test_a_named_player_without_games_sees_the_empty_page(client, settings) -> None:
    asyncio.run(seed(settings.database_url, lambda session: asyncio.sleep(0)))
    as_me(client, settings)
    text = client.get("/games?junk=1").text
    assert "data-games-empty" in text and 'data-your-turn-count="0" hidden' in text


@pytest.mark.parametrize("turns", [None, [], "x", {}, {"waits": []}, {"waits": {"7": "soon"}},
                                   {"waits": {"7": {"due": 5}}, "missed": {"7": "3"}},
                                   {"waits": {"7": {"due": "not a time"}}, "missed": []}])
def test_any_shape_of_turns_is_read_without_failing(turns) -> None:
    waits, due, away = turn_of(turns, 7)
    assert due is None and away is False
    assert waits == (isinstance(turns, dict) and isinstance(turns.get("waits"), dict)
                     and "7" in turns["waits"])


def test_order_puts_deadlines_first_and_keeps_twenty_finished() -> None:
    t = datetime(2026, 12, 6, 12, tzinfo=UTC)
    games = [YourGame(f"F{i:02d}", "kniffel", "finished", active=t - timedelta(hours=i))
             for i in range(25)]
    games += [YourGame("NODUE", "kniffel", "playing", your_turn=True),
              YourGame("DUE", "kniffel", "playing", your_turn=True, deadline=t),
              YourGame("OLDER", "kniffel", "lobby", active=t - timedelta(days=1)),
              YourGame("NEWER", "kniffel", "playing", active=t, turn_based=True),
              YourGame("LIVE", "kniffel", "playing", active=t)]
    listed = order(games)
    assert [g.code for g in listed.your_turn] == ["DUE", "NODUE"]
    assert [g.code for g in listed.waiting] == ["NEWER"]
    # a live game is not "waiting for the others": whose turn it is there is not stored
    assert [g.code for g in listed.live] == ["LIVE"]
    assert [g.code for g in listed.lobby] == ["OLDER"]  # not started yet: a list of its own
    assert [g.code for g in listed.finished] == [f"F{i:02d}" for i in range(20)]


def test_turn_counts_are_kept_a_few_seconds_per_player(database_url) -> None:
    """``TurnCounts`` reads a player's count once per ``ttl`` (a move elsewhere shows within
    it), keeps at most ``size`` players, and takes a count put by ``GET /games``."""
    from app.rooms.your_games import TurnCounts

    now = [0.0]
    counts = TurnCounts(ttl=5, size=2, clock=lambda: now[0])

    async def run() -> list[int]:
        await seed(database_url, lambda session: add_room(
            session, "ONE", [(ME, "active"), (BRAM, "active")],
            waits={ME: utcnow() + timedelta(hours=1)}))
        db = Database(database_url)
        seen = []
        try:
            async with db.sessionmaker() as session:
                seen.append(await counts.get(session, ME))
                await session.execute(Room.__table__.update().values(turns=None))
                await session.commit()
                seen.append(await counts.get(session, ME))  # kept: still 1
                now[0] = 5.1
                seen.append(await counts.get(session, ME))  # read again: 0
                counts.put(BRAM, 4)
                counts.put(CARL, 2)  # the oldest (Anna) is dropped
                assert ME not in counts._counts
                seen.append(await counts.get(session, BRAM))
        finally:
            await db.dispose()
        return seen

    assert asyncio.run(run()) == [1, 1, 0, 4]
