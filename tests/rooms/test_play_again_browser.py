"""Rematch in one step in Chromium at phone size (docs/rules.md, "Rematch and ready"): after
a game the guest's "Ready" says what it means, and the host's "Play again" takes both phones
straight into the next game, which the other seat starts."""

from __future__ import annotations

import re

import httpx
import pytest
from playwright.sync_api import expect

from tests.support.browser import chromium, screenshot
from tests.support.server import ServerProcess

pytestmark = [pytest.mark.browser, pytest.mark.server]

PHONE = {"width": 390, "height": 844}


@pytest.mark.parametrize("backend", ["sqlite"], indirect=True)
def test_play_again_starts_the_next_game_on_both_phones(backend, server_env, tmp_path) -> None:
    with ServerProcess(server_env, log=tmp_path / "server.log") as server, chromium() as browser:
        anna = browser.new_context(viewport=PHONE).new_page()
        bram = browser.new_context(viewport=PHONE).new_page()
        anna.goto(server.url + "/")
        anna.fill("#player-name", "Anna")
        anna.click("[data-action=new-room] [type=submit]")
        anna.wait_for_url(re.compile(r"/r/[\w-]{16}$"))
        link = anna.url
        code = link.rsplit("/", 1)[1]
        bram.goto(link)
        bram.fill("[name=name]", "Bram")
        bram.click("[data-action=join] [type=submit]")
        bram.wait_for_url(link)
        anna.locator(".seat-name", has_text="Bram").wait_for()
        anna.click("[data-action=start]")
        expect(anna.locator("[data-action=roll]")).to_be_visible()
        r = httpx.post(f"{server.url}/_test/rooms/{code}/finish")
        assert r.status_code == 200, r.text

        ready = bram.locator("#live [data-action=ready]")
        expect(ready).to_be_visible()
        expect(ready).to_have_accessible_description(re.compile("you want to play again"))
        expect(bram.locator("#live [data-action=play-again]")).to_have_count(0)
        ready.click()
        expect(anna.locator("#seats [data-ready]")).to_have_count(1)
        play_again = anna.locator("#live [data-action=play-again]")
        expect(play_again).to_be_visible()
        screenshot(anna, "play-again-phone")
        play_again.click()
        for page in (anna, bram):
            expect(page.locator("#live")).to_have_attribute("data-status", "playing")
        expect(bram.locator("[data-action=roll]")).to_be_visible()  # game 2: Bram starts
        expect(anna.locator("[data-action=roll]")).to_have_count(0)
        expect(anna.locator("#seats [data-ready]")).to_have_count(0)
        state = httpx.get(f"{server.url}/r/{code}/state.json").json()
        assert [g["number"] for g in state["games"]] == [1, 2]
