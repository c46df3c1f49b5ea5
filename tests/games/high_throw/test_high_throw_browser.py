"""Two players play a game of high throw in Debian Chromium, from the new-room form to the
result screen: the test-only game added by the ``EXTRA_GAMES`` setting runs in a real server
and browser as the built-in games do (its templates from its own folder, no styles or
scripts of its own). One server and one browser for the module; SQLite only."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.support import http, page_fixtures
from tests.support.browser import host_and_guest, screenshot

pytestmark = [pytest.mark.browser, pytest.mark.server]
server, browser = page_fixtures.server, page_fixtures.browser  # the module's own (SQLite)


def test_two_players_throw_in_turn_to_the_result(server, browser) -> None:
    anna, bram, code = host_and_guest(browser, server, "high_throw")
    pages = {"Anna": anna, "Bram": bram}
    expect(anna.locator("select[name=dice_count]")).to_have_value("2")
    expect(anna.locator("[data-rules=high_throw] summary")).to_contain_text("High throw")
    r = http.post(f"{server.url}/_test/rooms/{code}/dice", json={"faces": [2, 3, 6, 4]})
    assert r.status_code == 200, r.text
    anna.click("[data-action=start]")
    for page in pages.values():
        expect(page.locator("#live")).to_have_attribute("data-status", "playing")

    for throw in range(2):
        state = http.get(f"{server.url}/r/{code}/state.json").json()
        roller = state["current"]["roller"]
        name = next(s["name"] for s in state["seats"] if s["id"] == roller)
        other = pages["Bram" if name == "Anna" else "Anna"]
        expect(other.locator("#throw-turn")).to_contain_text(f"{name} rolls next")
        expect(other.locator("[data-action=roll]")).to_have_count(0)
        page = pages[name]
        expect(page.locator("#throw-turn")).to_contain_text("Your turn to roll")
        if throw == 0:
            screenshot(page, "high-throw-turn")
        page.click("[data-action=roll]")
        for seen in pages.values():
            expect(seen.locator(f"#throw-seat-{roller} [data-throw-total]")).to_have_attribute(
                "data-throw-total", "5" if throw == 0 else "10")

    state = http.get(f"{server.url}/r/{code}/state.json").json()
    assert state["status"] == "finished"
    first, second = state["current"]["order"]
    winner = next(s["name"] for s in state["seats"] if s["id"] == second)
    loser = next(s["name"] for s in state["seats"] if s["id"] == first)
    for name, page in pages.items():
        expect(page.locator("#live")).to_have_attribute("data-status", "finished")
        expect(page.locator("[data-result] .winner")).to_have_text(
            "You win!" if name == winner else f"{winner} wins!")
        expect(page.locator(f'[data-final-total][data-player="{winner}"]')).to_have_attribute(
            "data-final-total", "10")
        expect(page.locator(f'[data-final-total][data-player="{loser}"]')).to_have_attribute(
            "data-final-total", "5")
    screenshot(pages[winner], "high-throw-result")
