"""Script and HTML in names and room options stay inert in every page and live fragment,
checked in a real browser (no dialog may fire, the text shows literally)."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.support.browser import chromium, screenshot
from tests.support.server import ServerProcess

pytestmark = [pytest.mark.browser, pytest.mark.server]

PAYLOADS = ['<svg onload=alert(1)>', '"><b onclick=alert(2)>x', "{{7*7}}<i>x</i>",
            "<script>alert(3)</script>"[:24], "';alert(4);'"]


@pytest.mark.parametrize("backend", ["sqlite"], indirect=True)
def test_payload_names_are_inert_everywhere(backend, server_env, tmp_path) -> None:
    dialogs: list[str] = []
    with ServerProcess(server_env, log=tmp_path / "server.log") as server, chromium() as browser:
        pages = []
        for i, name in enumerate(PAYLOADS):
            context = browser.new_context()
            page = context.new_page()
            page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
            pages.append(page)
            if i == 0:
                page.goto(server.url + "/")
                page.fill("#player-name", name)
                page.click("[data-action=new-room] [type=submit]")
                page.wait_for_url(re.compile(r"/r/[\w-]{16}$"))
                link = page.url
            else:
                page.goto(link)
                page.fill("[name=name]", name)
                page.click("[data-action=join] [type=submit]")
                page.wait_for_url(link)
        host = pages[0]
        for name in PAYLOADS:
            host.locator(".seat-name", has_text=name).wait_for(timeout=10_000)
        # an option carrying a payload is refused over the socket, and nothing renders it
        host.evaluate("""() => {
            const s = document.querySelector('select[name=timer]');
            s.options[1].value = '<img src=x onerror=alert(9)>';
            s.selectedIndex = 1;
            s.dispatchEvent(new Event('change', {bubbles: true}));
        }""")
        host.wait_for_selector("[data-error=bad_option]")
        host.click("[data-action=start]")
        host.wait_for_selector("[data-roll-index]")
        roller = host  # the host has the first seat and rolls first
        expect(roller.locator("[data-action=roll]")).to_be_visible()
        roller.click("[data-action=roll]")
        for page in pages:
            page.locator(".cell.open").first.click()
        for page in pages:
            page.wait_for_selector(".cell.open", state="detached")
            assert page.evaluate("document.querySelectorAll('svg[onload], b[onclick], i')"
                                 ".length") == 0
        spectator_ctx = browser.new_context()
        spectator = spectator_ctx.new_page()
        spectator.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
        spectator.goto(link + "?watch=1")
        spectator.wait_for_selector(".sheet")
        closed = browser.new_context().new_page()
        closed.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
        closed.goto(link)  # game running: the "watch" page lists nothing unsafe either
        screenshot(host, "xss-room")
        for page in pages + [spectator]:  # every page has rendered the names
            expect(page.locator("body")).to_contain_text("<svg onload=alert(1)>")
        expect(spectator.locator("body")).to_contain_text("{{7*7}}<i>x</i>")
        text = spectator.inner_text("body")
        assert "49" not in text.split("{{7*7}}")[0][-3:]
    assert dialogs == []
