"""Passkeys in real Chromium (issue 27; docs/architecture.md, "Your name on every device"):
a player adds a passkey with Chromium's virtual authenticator (DevTools
``WebAuthn.addVirtualAuthenticator``); after the browser's cookies are cleared it is a new
guest, and signing in with the passkey makes it the same player again; the passkey can be
removed. The site is opened as ``localhost``: browsers refuse an IP address as a relying
party."""

from __future__ import annotations

import pytest

from tests.support.browser import virtual_authenticator, wait_css
from tests.support.page_fixtures import browser, server  # noqa: F401 - fixtures

pytestmark = pytest.mark.browser


def test_a_passkey_brings_a_cleared_browser_back_as_the_same_player(server, browser) -> None:  # noqa: F811
    site = server.url.replace("127.0.0.1", "localhost")
    context = browser.new_context()
    page = context.new_page()
    virtual_authenticator(context, page)
    page.goto(site + "/name")
    page.fill("input[name=name]", "Dora")
    page.click("form[action='/name'] button[type=submit]")
    page.goto(site + "/devices")
    page.click("[data-add-passkey]")
    wait_css(page, "[data-passkey]")
    assert page.locator("[data-passkey]").count() == 1
    assert page.locator(".whoami").inner_text() == "Dora"

    context.clear_cookies()
    page.goto(site + "/devices")
    assert page.locator(".whoami").count() == 0  # a new guest now
    assert page.locator("[data-passkey]").count() == 0
    page.click("[data-passkey-signin]")
    page.wait_for_url(site + "/")
    assert page.locator(".whoami").inner_text() == "Dora"

    page.goto(site + "/devices")
    page.click("[data-remove-passkey]")
    page.wait_for_url(site + "/devices")
    assert page.locator("[data-passkey]").count() == 0
    context.close()
