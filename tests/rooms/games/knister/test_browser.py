"""Two real browsers (Debian Chromium via Playwright) play a whole Knister game by clicking."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.support import http
from tests.support.browser import chromium, screenshot, wait_css_gone
from tests.support.server import ServerProcess

pytestmark = [pytest.mark.browser, pytest.mark.server]


def _roller(server, code: str, pages: dict):
    """The page of the player whose turn it is to roll (from the room's state), once its
    Roll button shows."""
    state = http.get(f"{server.url}/r/{code}/state.json").json()
    seat = state["current"]["roller"]
    page = pages[next(s["name"] for s in state["seats"] if s["id"] == seat)]
    expect(page.locator("[data-action=roll]")).to_be_visible()
    return page


@pytest.mark.parametrize("backend", ["sqlite"], indirect=True)
def test_two_browsers_play_a_full_game(backend, server_env, tmp_path) -> None:
    with ServerProcess(server_env, log=tmp_path / "server.log") as server, chromium() as browser:
        anna_ctx = browser.new_context(locale="nl-NL", viewport={"width": 390, "height": 844})
        bram_ctx = browser.new_context(locale="de-DE", viewport={"width": 390, "height": 844})
        anna, bram = anna_ctx.new_page(), bram_ctx.new_page()

        anna.goto(server.url + "/")
        anna.fill("#player-name", "Anna")
        anna.select_option("[data-action=new-room] [name=game]", "knister")
        anna.click("[data-action=new-room] [type=submit]")
        anna.wait_for_url(re.compile(r"/r/[\w-]{16}$"))
        link = anna.get_attribute("[data-share-link]", "data-share-link")
        assert link == anna.url

        bram.goto(link)
        bram.fill("[name=name]", "Bram")
        bram.click("[data-action=join] [type=submit]")
        bram.wait_for_url(link)
        anna.wait_for_selector(".seat:has-text('Bram')")
        screenshot(anna, "knister-lobby-host")

        anna.click("[data-action=start]")
        expect(anna.locator("#live")).to_have_attribute("data-status", "playing")  # then read
        pages = [anna, bram]
        for i in range(25):
            roller = _roller(server, link.rsplit("/", 1)[1], {"Anna": anna, "Bram": bram})
            roller.click("[data-action=roll]")
            if i == 0:  # a fresh user's finding: the own sheet said "thinking…" too
                for page, mine, theirs in ((anna, "Jouw beurt", "denkt na…"),
                                           (bram, "Du bist dran", "überlegt…")):
                    own = page.locator(".sheet.mine .placed-mark")
                    other = page.locator(".sheet:not(.mine) .placed-mark")
                    expect(own).to_have_text(mine, use_inner_text=True)
                    expect(other).to_have_text(theirs, use_inner_text=True)
            for page in pages:
                page.locator(".cell.open").first.click(timeout=10_000)
            for page in pages:
                wait_css_gone(page, ".cell.open")
            if i == 12:
                screenshot(bram, "knister-mid-game")

        final = anna.request.get(anna.url + "/state.json").json()
        assert final["status"] == "finished"
        totals = {s["label"]: final["current"]["totals"][str(s["id"])] for s in final["seats"]}
        assert set(totals) == {"Anna", "Bram"}
        for page in pages:
            expect(page.locator("[data-final-total]")).to_have_count(2)
            for name, total in totals.items():
                expect(page.locator(f'[data-final-total][data-player="{name}"]')
                       ).to_have_attribute("data-final-total", str(total))
        screenshot(anna, "knister-final-nl")
        screenshot(bram, "knister-final-de")
        anna_ctx.close()
        bram_ctx.close()


@pytest.mark.parametrize("backend", ["sqlite"], indirect=True)
def test_leave_asks_first_and_cancel_keeps_the_seat(backend, server_env, tmp_path) -> None:
    # found by a fresh-user test: "Leave room" and "Remove" acted at once, hx-confirm is not
    # applied to ws-send buttons by htmx
    with ServerProcess(server_env, log=tmp_path / "server.log") as server, chromium() as browser:
        anna = browser.new_context(viewport={"width": 390, "height": 844}).new_page()
        anna.goto(server.url + "/")
        anna.fill("#player-name", "Anna")
        anna.select_option("[data-action=new-room] [name=game]", "knister")
        anna.click("[data-action=new-room] [type=submit]")
        anna.wait_for_url(re.compile(r"/r/[\w-]{16}$"))
        anna.wait_for_selector("body.online")
        asked = []

        def dismiss(dialog):
            asked.append(dialog.message)
            dialog.dismiss()

        before = anna.request.get(anna.url + "/state.json").json()
        anna.once("dialog", dismiss)
        with anna.expect_event("dialog"):
            anna.click("[data-action=leave]")
        assert asked and "?" in asked[0]

        anna.once("dialog", lambda dialog: dialog.accept())
        anna.click("[data-action=leave]")
        anna.wait_for_selector("a[href$='?join=1'], .watching", timeout=10_000)
        state = anna.request.get(anna.url + "/state.json").json()
        assert [s["status"] for s in state["seats"]] == ["left"]
        # one leave only: the cancelled one sent nothing (had it, the seat would have been
        # gone before the second click, and that click would have found no button)
        assert state["version"] == before["version"] + 1
