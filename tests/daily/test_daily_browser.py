"""Chromium plays the daily Knister to the end, sees par and the roll-by-roll comparison,
shares its result (the copied text checked) and another browser opens the shared link, whose
preview image is a PNG (docs/rules.md, "Daily challenges")."""

from __future__ import annotations

import io
import re

import pytest
from PIL import Image
from playwright.sync_api import expect

from tests.support.browser import chromium, screenshot, wait_css_gone

pytestmark = [pytest.mark.browser, pytest.mark.server, pytest.mark.one_backend]


def test_play_the_daily_knister_share_and_open_the_link(server) -> None:
    with chromium() as browser:
        ctx = browser.new_context(locale="en-GB", viewport={"width": 390, "height": 844})
        ctx.grant_permissions(["clipboard-read", "clipboard-write"], origin=server.url)
        # the copy path (a desktop Chromium may offer no share sheet; make sure it does not)
        ctx.add_init_script("Object.defineProperty(navigator, 'share', {value: undefined})")
        page = ctx.new_page()
        page.goto(server.url + "/daily/knister")
        expect(page.locator("[data-daily-board-empty]")).to_be_visible()
        page.fill("#daily-name", "Anna")
        page.click("[data-daily-play]")
        page.wait_for_url(re.compile(r"/r/[\w-]{16}$"))
        expect(page.locator("[data-dice-commitment]")).to_have_count(1)
        for _ in range(25):
            page.click("[data-action=roll]", timeout=10_000)
            page.locator(".cell.open").first.click(timeout=10_000)
            wait_css_gone(page, ".cell.open")
        page.click("[data-daily-back]", timeout=10_000)
        page.wait_for_url(server.url + "/daily/knister")
        score = page.get_attribute("[data-daily-score]", "data-daily-score")
        par = page.get_attribute("[data-daily-par]", "data-daily-par")
        assert score and par
        expect(page.locator("[data-daily-lines] tbody tr")).to_have_count(25)
        expect(page.locator("[data-daily-rank]")).to_have_attribute("data-daily-rank", "1")
        screenshot(page, "daily-knister-result")

        page.click("[data-daily-share]")
        expect(page.locator("[data-daily-share]")).to_have_attribute("data-shared", "copied")
        copied = page.evaluate("navigator.clipboard.readText()")
        link = page.get_attribute("[data-daily-share]", "data-url")
        assert f"{score} points (par {par}), rank 1 of 1" in copied and link in copied

        other = browser.new_context(locale="nl-NL")
        shared = other.new_page()
        shared.goto(link)
        expect(shared.locator("[data-daily-score]")).to_have_attribute("data-daily-score",
                                                                       score)
        expect(shared.locator("[data-daily-lines]")).to_have_count(0)
        image = shared.get_attribute("meta[property='og:image']", "content")
        answer = other.request.get(image)
        assert answer.status == 200 and answer.headers["content-type"] == "image/png"
        png = answer.body()
        assert png.startswith(b"\x89PNG") and Image.open(io.BytesIO(png)).size == (1200, 630)
        other.close()
        ctx.close()
