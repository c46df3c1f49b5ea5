"""Talk at the table in Chromium at phone size (docs/rules.md, "Talk at the table"): two
players chat (markup shows as text), a reaction shows on the sender's seat on the other
phone, the host takes a line away, and a roll right after a chat line is taken (not stale)."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.support.browser import chromium, screenshot
from tests.support.server import ServerProcess

pytestmark = [pytest.mark.browser, pytest.mark.server]

PHONE = {"width": 390, "height": 844}


@pytest.mark.parametrize("backend", ["sqlite"], indirect=True)
def test_two_players_talk_and_play_on(backend, server_env, tmp_path) -> None:
    alerts: list[str] = []

    def dialog(d) -> None:
        if d.type == "confirm":
            d.accept()
        else:
            alerts.append(d.message)
            d.dismiss()

    with ServerProcess(server_env, log=tmp_path / "server.log") as server, chromium() as browser:
        anna = browser.new_context(viewport=PHONE).new_page()
        bram = browser.new_context(viewport=PHONE).new_page()
        for page in (anna, bram):
            page.on("dialog", dialog)
        anna.goto(server.url + "/")
        anna.fill("#player-name", "Anna")
        anna.click("[data-action=new-room] [type=submit]")
        anna.wait_for_url(re.compile(r"/r/[\w-]{16}$"))
        link = anna.url
        bram.goto(link)
        bram.fill("[name=name]", "Bram")
        bram.click("[data-action=join] [type=submit]")
        bram.wait_for_url(link)
        anna.locator(".seat-name", has_text="Bram").wait_for()
        for page in (anna, bram):
            page.wait_for_selector("body.online")

        anna.fill("#chat-text", "<img src=x onerror=alert(1)> hi")
        anna.click(".chat-form [type=submit]")
        for page in (anna, bram):
            expect(page.locator("#chat-log .chat-line .chat-body")).to_have_text(
                ["<img src=x onerror=alert(1)> hi"])
            expect(page.locator("#chat-log .chat-line img")).to_have_count(0)
        expect(anna.locator("#chat-text")).to_have_value("")  # emptied once taken

        bram.click("#talk-controls button[data-reaction=nice]")
        bram_seat = anna.locator("#seats .seat", has_text="Bram")
        expect(bram_seat.locator(".reaction-bubble")).to_contain_text("nice")
        screenshot(anna, "talk-reaction-phone")
        expect(bram_seat.locator(".reaction-bubble")).to_have_count(0, timeout=8000)

        bram.fill("#chat-text", "rude")
        bram.press("#chat-text", "Enter")
        expect(anna.locator("#chat-log .chat-line")).to_have_count(2)
        expect(bram.locator("#chat-log .chat-remove")).to_have_count(0)  # only the host
        anna.locator("#chat-log .chat-line", has_text="rude").locator(".chat-remove").click()
        for page in (anna, bram):
            expect(page.locator("#chat-log .chat-line")).to_have_count(1)

        anna.click("[data-action=start]")
        expect(anna.locator("[data-action=roll]")).to_be_visible()
        bram.fill("#chat-text", "good luck")
        bram.press("#chat-text", "Enter")
        expect(anna.locator("#chat-log .chat-line")).to_have_count(2)
        anna.click("[data-action=roll]")  # decided before the chat line: still current
        expect(anna.locator("#live .cell.open").first).to_be_visible()
        expect(anna.locator("#room-error")).not_to_have_attribute("data-error", "stale")
        anna.locator("#live .cell.open").first.click()
        bram.locator("#live .cell.open").first.click()
        for page in (anna, bram):
            page.wait_for_selector("#live .cell.open", state="detached")
        screenshot(bram, "talk-game-phone")

        # too many messages: the refusal shows where the player is, at the foot of the
        # page by the chat, not at the top of a page scrolled away from it
        bram.locator("#chat-text").scroll_into_view_if_needed()
        for _ in range(6):
            bram.click("#talk-controls button[data-reaction=ouch]")
        error = bram.locator("#room-error")
        expect(error).to_have_attribute("data-error", "chat_rate")
        expect(error).to_be_in_viewport()
        expect(bram.locator("#chat-text")).to_be_in_viewport()
        screenshot(bram, "talk-too-fast-phone")
    assert alerts == []
