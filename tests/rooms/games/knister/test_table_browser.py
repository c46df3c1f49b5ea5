"""Knister at a real table (docs/rules.md, "Table mode"): two phones in real Chromium, the
roller enters each sum by tapping it (``data-enter-sum``), everyone places, to the end; the
totals are the engine's for the same sums, and the result prints on one A4 page."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.support import http
from tests.support.browser import (
    caught_up,
    chromium,
    create_room,
    join,
    pdf_pages,
    screenshot,
    wait_css,
    wait_css_gone,
)

pytestmark = [pytest.mark.browser, pytest.mark.server]

PHONE = {"width": 390, "height": 844}
SUMS = [7, 6, 8, 5, 9, 4, 10, 3, 11, 2, 12, 7, 7, 6, 8, 6, 8, 5, 9, 7, 4, 10, 7, 3, 11]


def _roller(server, code: str, pages: dict):
    """The page of the player whose turn it is to throw, once it offers a new entry."""
    state = http.get(f"{server.url}/r/{code}/state.json").json()
    seat = state["current"]["roller"]
    page = pages[next(s["name"] for s in state["seats"] if s["id"] == seat)]
    expect(page.locator("[data-entry=new] [data-enter-sum]")).to_have_count(11)
    return page


@pytest.mark.parametrize("backend", ["sqlite"], indirect=True)
def test_two_phones_enter_real_sums_to_the_end(server) -> None:
    with chromium() as browser:
        anna_ctx = browser.new_context(locale="en-GB", viewport=PHONE)
        bram_ctx = browser.new_context(locale="de-DE", viewport=PHONE)
        anna, bram = anna_ctx.new_page(), bram_ctx.new_page()
        code = create_room(anna, server, "knister", "Anna")
        join(bram, server, code, "Bram")
        anna.wait_for_selector("#live .seat[data-presence=online] >> nth=1")
        caught_up(anna, server, code)  # no update on its way replaces the form
        anna.select_option("select[name=dice]", "real")
        expect(bram.locator("[data-option-ro=dice]")).to_have_attribute("data-value", "real")
        expect(bram.locator("select[name=dice]")).to_have_count(0)
        anna.click("[data-action=start]")

        pages = {"Anna": anna, "Bram": bram}
        for i, total in enumerate(SUMS):
            roller = _roller(server, code, pages)
            if i == 0:  # a wrong sum first, corrected before anyone placed
                roller.click("[data-entry=new] [data-enter-sum='12']")
                roller.click("[data-entry=correct] summary")  # folded under the grid's top
                roller.click("[data-entry=correct] [data-enter-sum='7']")
                expect(roller.locator("#knister-turn .dice")).to_have_attribute("data-roll", "7")
            else:
                roller.click(f"[data-entry=new] [data-enter-sum='{total}']")
            for page in pages.values():
                wait_css(page, f"#knister-turn .dice[data-roll='{total}']")
                page.locator(".cell.open").first.click(timeout=10_000)
            for page in pages.values():
                wait_css_gone(page, ".cell.open")
            if i == 10:
                screenshot(bram, "knister-table-mid-game")

        final = http.get(f"{server.url}/r/{code}/state.json").json()
        assert final["status"] == "finished"
        # each fills row by row (docs/rules.md, "Knister scoring"): rows 7 6 8 5 9 and
        # 6 8 5 9 7 are straights with a 7 (8 each), 12 7 7 6 8 a pair (1), the other two
        # nothing: 17; columns 7 4 12 6 4, 6 10 7 8 10 and 8 3 7 5 7 a pair each: 3; the
        # diagonal 7 10 7 9 11 a pair, counted double: 2; the other diagonal nothing
        expected = 17 + 3 + 2
        assert set(final["current"]["totals"].values()) == {expected}
        for page in pages.values():
            for name in pages:
                expect(page.locator(f'[data-final-total][data-player="{name}"]')
                       ).to_have_attribute("data-final-total", str(expected))
        expect(anna.locator("[data-action=print]")).to_be_visible()
        screenshot(anna, "knister-table-final")
        anna.emulate_media(media="print")
        expect(anna.locator("[data-action=print]")).to_be_hidden()
        expect(anna.locator(".sheet")).to_have_count(2)
        expect(anna.locator(".sheet").first).to_be_visible()
        screenshot(anna, "knister-table-print")
        pdf = anna.pdf(format="A4", print_background=True)
        assert pdf_pages(pdf) == 1
        anna_ctx.close()
        bram_ctx.close()
