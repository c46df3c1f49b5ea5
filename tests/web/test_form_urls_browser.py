"""A refused join leaves the browser on the room's page (a fresh-user trial: spaces as a name
on a room's join form showed the error, but the address bar kept the POST address
/r/<code>/join, the language buttons pointed there and a reload asked to send the form
again). In Debian Chromium; SQLite only."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.support.browser import PHONE, create_room

pytestmark = [pytest.mark.browser, pytest.mark.server]


def test_a_refused_join_stays_on_the_rooms_page(server, browser) -> None:
    anna_ctx = browser.new_context(locale="en-GB", viewport=PHONE)
    code = create_room(anna_ctx.new_page(), server, "knister", "Anna")
    ctx = browser.new_context(locale="en-GB", viewport=PHONE)
    page = ctx.new_page()
    page.goto(f"{server.url}/r/{code}")
    page.fill("input[name=name]", "   ")
    page.evaluate("document.querySelector('#join-name').removeAttribute('required')")
    page.click("form[data-action=join] button[type=submit]")
    expect(page.locator("form[data-action=join] [role=alert]")).to_have_text("Please enter a name.")
    # the page's script puts the room's address in the bar once it runs (after the alert is
    # in the document: read at once, the bar could still show /join on a busy machine)
    expect(page).to_have_url(f"{server.url}/r/{code}")
    requests: list[tuple[str, str]] = []
    page.on("request", lambda r: requests.append((r.method, r.url)))
    page.reload()  # asks nothing: the room's page again
    expect(page.locator("form[data-action=join]")).to_be_visible()
    assert requests[0] == ("GET", f"{server.url}/r/{code}")
    page.fill("input[name=name]", "   ")
    page.evaluate("document.querySelector('#join-name').removeAttribute('required')")
    page.click("form[data-action=join] button[type=submit]")
    expect(page.locator("form[data-action=join] [role=alert]")).to_be_visible()
    page.click(".langs button[value=nl]")  # the language changes on the room's page
    expect(page.locator("html")).to_have_attribute("lang", "nl")
    expect(page).to_have_url(f"{server.url}/r/{code}")
    ctx.close()
    anna_ctx.close()
