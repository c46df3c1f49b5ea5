"""The home page works in a real browser (Debian Chromium) in all three languages."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.support.browser import chromium, screenshot
from tests.support.server import ServerProcess

pytestmark = [pytest.mark.browser, pytest.mark.server]


def test_home_page_in_chromium_switches_language(settings, tmp_path) -> None:
    env = {"DATABASE_URL": settings.database_url, "SECRET_KEY": "s" * 32,
           "VAR_DIR": str(tmp_path)}
    with ServerProcess(env) as server, chromium() as browser:
        context = browser.new_context(locale="de-DE")
        page = context.new_page()
        page.goto(server.url + "/")
        expect(page.locator("html")).to_have_attribute("lang", "de")
        expect(page.locator(".cards h2").first).to_have_text("Mit Freunden spielen")
        page.click("button[name=lang][value=nl]")
        page.wait_for_url(server.url + "/")
        expect(page.locator("html")).to_have_attribute("lang", "nl")
        expect(page.locator(".cards h2").first).to_have_text("Speel met vrienden")
        page.wait_for_function("() => typeof htmx === 'object'")
        screenshot(page, "home-nl")
        context.close()
