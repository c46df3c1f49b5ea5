""""Your games" in Debian Chromium on a 390 px phone: the rows in their order, the header's
badge and the tab title's "(N)"; the header still fits the phone with the link and the
badge, in every language; the notify-me section takes a state from push.js. SQLite only."""

from __future__ import annotations

import asyncio
import re
from concurrent.futures import ThreadPoolExecutor
from datetime import timedelta

import pytest
from playwright.sync_api import expect

from app.clock import utcnow
from app.main import SESSION_COOKIE
from tests.support.browser import PHONE, screenshot
from tests.support.http import session_cookie
from tests.web.test_your_games import BRAM, CARL, ME, add_room, seed

pytestmark = [pytest.mark.browser, pytest.mark.server]


def test_your_games_shows_the_rows_the_badge_and_the_count_in_the_title(server,
                                                                        browser) -> None:
    now = utcnow()

    async def build(session) -> None:
        both = [(ME, "active"), (BRAM, "active")]
        await add_room(session, "LATER", both, waits={ME: now + timedelta(hours=20)})
        await add_room(session, "SOON", both + [(CARL, "active")],
                       waits={ME: now + timedelta(hours=2)})
        await add_room(session, "THEIRS", both, waits={BRAM: now + timedelta(hours=1)},
                       kind="knister")
        await add_room(session, "LOBBY", both, status="lobby")

    # Playwright's sync API runs an event loop in this thread: the seeding runs in another
    with ThreadPoolExecutor(1) as pool:
        pool.submit(asyncio.run, seed(server.env["DATABASE_URL"], build)).result()
    cookie = session_cookie(server.env["SECRET_KEY"], ME)
    for lang in ("en-GB", "nl-NL", "de-DE"):
        context = browser.new_context(locale=lang, viewport=PHONE, has_touch=True)
        context.add_cookies([{"name": SESSION_COOKIE, "value": cookie, "url": server.url}])
        page = context.new_page()
        page.goto(server.url + "/games")
        rows = page.locator("[data-game-row]")
        expect(rows).to_have_count(4)
        # then the others, latest activity first: THEIRS' last move an hour ago, the
        # waiting room made a day ago
        assert [rows.nth(i).get_attribute("data-room") for i in range(4)] == [
            "SOON", "LATER", "THEIRS", "LOBBY"]
        assert [rows.nth(i).get_attribute("data-your-turn") for i in range(4)] == [
            "true", "true", "false", "false"]
        assert page.title().startswith("(2) ")
        # the ISO deadline is no countdown of the room pages' script (static/js/app.js)
        page.wait_for_timeout(600)
        expect(rows.first.locator(".game-state")).to_have_text(
            {"en-GB": "Your turn: 2 hours left", "nl-NL": "Jouw beurt: nog 2 uur",
             "de-DE": "Du bist dran: noch 2 Stunden"}[lang])
        badge = page.locator(".topbar [data-your-turn-count]")
        expect(badge).to_be_visible()
        assert badge.get_attribute("data-your-turn-count") == "2"
        assert badge.inner_text().startswith("2")
        # the header fits the phone: nothing wider than the screen, the whole link shown
        width = page.evaluate("() => [document.documentElement.scrollWidth, innerWidth]")
        wide = page.evaluate("""() => [...document.querySelectorAll('body *')]
            .filter((el) => el.getBoundingClientRect().right > innerWidth + 0.5)
            .map((el) => el.tagName + '.' + el.className + ' ' + el.textContent.slice(0, 30))
            .concat([...document.querySelectorAll('.topbar > *')].map((el) =>
                el.className + ':' + Math.round(el.getBoundingClientRect().width)))""")
        assert width[0] <= width[1], (lang, width, wide)
        box = page.locator(".your-games-link").bounding_box()
        assert box is not None and box["x"] + box["width"] <= PHONE["width"], (lang, box)
        name = page.locator(".topbar .whoami").bounding_box()
        assert name is not None and name["width"] >= 40, (lang, name)  # "Anna" still shows
        # push.js gave the notify-me section its state (headless: off, blocked or unsupported)
        expect(page.locator("[data-push]")).to_have_attribute(
            "data-push", re.compile(r"^(on|off|blocked|unsupported)$"))
        if lang == "en-GB":
            screenshot(page, "your-games-phone")
            # one tap opens the room
            rows.first.tap()
            page.wait_for_url(f"{server.url}/r/SOON")
            # every page's header carries the count; the tab title only on /games
            expect(page.locator(".topbar [data-your-turn-count='2']")).to_be_visible()
            assert not page.title().startswith("(")
        context.close()


def test_a_page_left_open_shows_the_count_again_when_shown_again(server, browser) -> None:
    """A page without a room socket asks for the count again while shown (every minute) and
    at once when shown again (a fresh user's finding: the count stayed as loaded)."""
    now = utcnow()

    async def build(session) -> None:
        await add_room(session, "CARLS", [(CARL, "active"), (BRAM, "active")],
                       waits={BRAM: now + timedelta(hours=3)})

    async def my_turn_now(url: str) -> None:
        from sqlalchemy import update

        from app.store.db import Database
        from app.store.models import Room, Seat
        db = Database(url)
        try:
            async with db.sessionmaker() as session, session.begin():
                room_id = (await session.execute(
                    Room.__table__.select().where(Room.code == "CARLS"))).first().id
                seat = (await session.execute(Seat.__table__.select().where(
                    Seat.player_id == CARL, Seat.room_id == room_id))).first()
                due = (now + timedelta(hours=2)).isoformat()
                await session.execute(update(Room).where(Room.code == "CARLS").values(
                    turns={"waits": {str(seat.id): {"since": now.isoformat(), "due": due}},
                           "missed": {}, "turn": 1}))
        finally:
            await db.dispose()

    with ThreadPoolExecutor(1) as pool:
        pool.submit(asyncio.run, seed(server.env["DATABASE_URL"], build)).result()
    context = browser.new_context(locale="en-GB", viewport=PHONE)
    context.add_cookies([{"name": SESSION_COOKIE, "value": session_cookie(
        server.env["SECRET_KEY"], CARL), "url": server.url}])
    page = context.new_page()
    page.goto(server.url + "/")
    badge = page.locator(".topbar [data-your-turn-count]")
    assert badge.get_attribute("data-your-turn-count") == "0" and badge.is_hidden()
    with ThreadPoolExecutor(1) as pool:
        pool.submit(asyncio.run, my_turn_now(server.env["DATABASE_URL"])).result()
    # shown again (the count is kept 5 s per player by the server: asked until it moved)
    for _ in range(30):
        page.evaluate("() => document.dispatchEvent(new Event('visibilitychange'))")
        if badge.get_attribute("data-your-turn-count") == "1":
            break
        page.wait_for_timeout(500)
    expect(badge).to_have_attribute("data-your-turn-count", "1")
    expect(badge).to_be_visible()
    expect(badge.locator("[data-turn-count-label]")).to_have_text(" game waits for you")
    context.close()
