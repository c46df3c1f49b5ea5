"""A turn-based Kniffel room in Debian Chromium (issue 27): Anna opens it from the new-room
form with the pace "turns"; Anna and Bram, each in their own browser, play turns days apart
(the test clock, ``POST /_test/clock``); "Your games" shows the room first with "your turn" to
the player it waits for; a device link signs a third browser in as Anna, who plays her next
turn there; a passkey brings Anna's first browser back after its cookies are cleared; when a
deadline passes the bot plays that turn. The site is opened as ``localhost`` (browsers
refuse an IP address for passkeys). One server and one browser for the module (SQLite).
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.support import http
from tests.support.browser import PHONE, score_box, virtual_authenticator, wait_css
from tests.support.page_fixtures import browser, server  # noqa: F401 - fixtures

pytestmark = [pytest.mark.browser, pytest.mark.server]

DAY = 86_400
BOXES = ["chance", "ones", "twos", "threes", "fours", "fives"]


def _state(server, code: str) -> dict:  # noqa: F811
    return http.get(f"{server.url}/r/{code}/state.json").json()


def _advance(server, seconds: int) -> None:  # noqa: F811
    r = http.post(f"{server.url}/_test/clock", json={"advance_seconds": seconds})
    assert r.status_code == 200, r.text


def _play_turn(server, page, code: str, box: str) -> None:  # noqa: F811
    """The player of ``page``, on turn, rolls 1 2 3 3 4 and scores ``box``."""
    r = http.post(f"{server.url}/_test/rooms/{code}/dice", json={"faces": [1, 2, 3, 3, 4]})
    assert r.status_code == 200, r.text
    page.click("#live [data-action=roll]")
    wait_css(page, "#live .dice[data-roll='12334']")
    score_box(page, box)


def _current_player(server, code: str, seats: dict[int, str]) -> str:  # noqa: F811
    return seats[_state(server, code)["current"]["current"]]


def _your_games(page, site: str, code: str) -> tuple[str | None, str | None]:
    """The first row of ``page``'s player's Your games: its room and "your turn"."""
    page.goto(site + "/games")
    row = page.locator("[data-game-row]").first
    expect(row).to_be_attached()
    return row.get_attribute("data-room"), row.get_attribute("data-your-turn")


def test_a_turn_based_room_over_days_on_three_devices(server, browser) -> None:  # noqa: F811
    site = server.url.replace("127.0.0.1", "localhost")
    anna_ctx, bram_ctx, third_ctx = (
        browser.new_context(locale="en-GB", viewport=PHONE, has_touch=True) for _ in range(3))
    anna, bram = anna_ctx.new_page(), bram_ctx.new_page()
    virtual_authenticator(anna_ctx, anna)

    anna.goto(site + "/rooms/new")
    anna.select_option("select[name=game]", "kniffel")
    anna.fill("input[name=name]", "Anna")
    anna.check("input[name=pace][value=turns]")
    anna.select_option("select[name=turn_deadline_hours]", "72")
    anna.click("form.new-room button[type=submit]")
    wait_css(anna, "#live[data-status='lobby']")
    code = anna.url.rsplit("/", 1)[1]
    bram.goto(f"{site}/r/{code}")
    bram.fill("input[name=name]", "Bram")
    bram.click("form[data-action=join] button[type=submit]")
    wait_css(bram, "#live[data-status='lobby']")
    expect(bram.locator("#live [data-option-ro=pace]")).to_have_attribute("data-value", "turns")
    state = _state(server, code)
    assert (state["options"]["pace"], state["options"]["turn_deadline_hours"]) == ("turns", 72)
    wait_css(anna, f"#live[data-version='{state['version']}']")
    anna.click("#live [data-action=start]")
    wait_css(anna, "#live[data-status='playing']")
    seats = {s["id"]: s["name"] for s in _state(server, code)["seats"]}
    pages = {"Anna": anna, "Bram": bram}
    boxes = {"Anna": list(BOXES), "Bram": list(BOXES)}

    for _ in range(3):  # turns a day apart
        mover = _current_player(server, code, seats)
        other = "Bram" if mover == "Anna" else "Anna"
        # the player it waits for sees the room first, as their turn; the other not
        assert _your_games(pages[mover], site, code) == (code, "true")
        assert _your_games(pages[other], site, code)[1] == "false"
        expect(pages[mover].locator(".topbar [data-your-turn-count]")).to_have_attribute(
            "data-your-turn-count", "1")
        pages[mover].locator(f"[data-game-row][data-room='{code}']").click()
        wait_css(pages[mover], "#live[data-status='playing']")
        # the room shows the deadline at the seat on turn, in the reader's time zone
        expect(pages[mover].locator("#live .seat.me [data-turn-due] time")).to_have_text(
            re.compile(r"^turn until \w+ \d\d:\d\d"))
        _play_turn(server, pages[mover], code, boxes[mover].pop(0))
        # the header's count follows the room without a reload (a fresh user's finding)
        expect(pages[mover].locator(".topbar [data-your-turn-count]")).to_have_attribute(
            "data-your-turn-count", "0")
        _advance(server, DAY)

    # a device link signs a third browser in as Anna, who plays her next turn there
    if _current_player(server, code, seats) != "Anna":
        bram.goto(f"{site}/r/{code}")
        wait_css(bram, "#live[data-status='playing']")
        _play_turn(server, bram, code, boxes["Bram"].pop(0))
    anna.goto(site + "/devices")
    anna.click("[data-link-device]")
    link = anna.locator("[data-device-code]").get_attribute("data-device-code")
    third = third_ctx.new_page()
    third.goto(f"{site}/link/{link}")
    third.click("[data-link-confirm]")
    expect(third.locator(".topbar .whoami")).to_have_text("Anna")
    assert _your_games(third, site, code) == (code, "true")
    third.goto(f"{site}/r/{code}")
    wait_css(third, "#live[data-status='playing']")
    _play_turn(server, third, code, boxes["Anna"].pop(0))
    assert _current_player(server, code, seats) == "Bram"

    # a passkey brings Anna's first browser back after its cookies are cleared
    anna.goto(site + "/devices")
    anna.click("[data-add-passkey]")
    wait_css(anna, "[data-passkey]")
    anna_ctx.clear_cookies()
    anna.goto(site + "/devices")
    assert anna.locator(".topbar .whoami").count() == 0
    anna.click("[data-passkey-signin]")
    anna.wait_for_url(site + "/")
    expect(anna.locator(".topbar .whoami")).to_have_text("Anna")
    anna.goto(f"{site}/r/{code}")
    wait_css(anna, "#live[data-status='playing']")
    expect(anna.locator("#live .seat.me .seat-name")).to_have_text("Anna")

    # Bram lets his deadline pass: the bot plays his turn, once, and it is Anna's again
    before = _state(server, code)["version"]
    _advance(server, 73 * 3600)
    expect(anna.locator("#live .turn[data-my-turn=true]")).to_be_attached(timeout=15_000)
    after = _state(server, code)
    assert _current_player(server, code, seats) == "Anna" and after["version"] > before
    assert _your_games(third, site, code) == (code, "true")
    for ctx in (anna_ctx, bram_ctx, third_ctx):
        ctx.close()
