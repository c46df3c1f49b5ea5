"""Kniffel pass and play at a real table (docs/rules.md, "Table mode"): one phone in real
Chromium holds the host's seat and a seat without a phone; the phone enters the five dice of
every turn for both (showing "Filling in for: Bram" on Bram's turns) and picks the box, to the
end; the totals are the ones worked out by hand for the same entries."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from app.engines.kniffel import KNIFFEL_BOXES
from tests.support import http
from tests.support.browser import (
    caught_up,
    chromium,
    create_room,
    pdf_pages,
    screenshot,
    wait_css,
)

pytestmark = [pytest.mark.browser, pytest.mark.server]

# Per turn (Anna, Bram, Anna, ...): the five dice entered and the box chosen.
ANNA = [((1, 1, 1, 2, 3), "ones"), ((2, 2, 2, 5, 6), "twos"), ((3, 3, 3, 3, 1), "threes"),
        ((4, 4, 4, 1, 2), "fours"), ((5, 5, 5, 2, 2), "fives"), ((6, 6, 6, 1, 1), "sixes"),
        ((3, 3, 3, 4, 5), "three_of_a_kind"), ((2, 2, 2, 2, 6), "four_of_a_kind"),
        ((2, 2, 3, 3, 3), "full_house"), ((1, 2, 3, 4, 6), "small_straight"),
        ((2, 3, 4, 5, 6), "large_straight"), ((6, 6, 6, 6, 6), "yahtzee"),
        ((6, 5, 4, 6, 5), "chance")]
BRAM = [((1, 2, 3, 4, 5), "large_straight"), ((1, 1, 2, 2, 2), "ones"),
        ((2, 2, 4, 5, 6), "twos"), ((3, 3, 5, 5, 1), "threes"), ((4, 4, 4, 4, 6), "fours"),
        ((5, 6, 5, 6, 5), "fives"), ((6, 6, 1, 2, 3), "sixes"), ((1, 1, 1, 1, 1), "yahtzee"),
        ((4, 4, 4, 4, 4), "four_of_a_kind"), ((3, 4, 5, 6, 6), "small_straight"),
        ((1, 1, 5, 5, 5), "full_house"), ((2, 3, 6, 6, 6), "three_of_a_kind"),
        ((1, 1, 2, 2, 3), "chance")]


# The totals worked out by hand (docs/rules.md, "Kniffel"; the room's default options).
# Anna: upper 3 + 6 + 12 + 12 + 15 + 18 = 66, bonus 35; three of a kind 18, four of a kind
# 14, full house 25, small straight 30, large straight 40, Kniffel 50, chance 26: 203.
ANNA_TOTAL = 66 + 35 + 203
# Bram: upper 2 + 4 + 6 + 16 + 15 + 12 = 55, no bonus; large straight 40, Kniffel 50, then
# five fours with the Kniffel box at 50: four of a kind 20 and an extra bonus of 50; small
# straight 30, full house 25, three of a kind 23, chance 9: 247.
BRAM_TOTAL = 55 + 40 + 50 + 20 + 50 + 30 + 25 + 23 + 9


@pytest.mark.parametrize("backend", ["sqlite"], indirect=True)
def test_one_phone_fills_in_for_a_seat_without_a_phone_to_the_end(server) -> None:
    assert sorted(b for _, b in ANNA) == sorted(KNIFFEL_BOXES) == sorted(b for _, b in BRAM)
    with chromium() as browser:
        ctx = browser.new_context(locale="en-GB", viewport={"width": 390, "height": 844})
        page = ctx.new_page()
        code = create_room(page, server, "kniffel", "Anna")
        caught_up(page, server, code)  # no update on its way replaces the form
        page.select_option("select[name=dice]", "real")
        # the server's answer (the lobby re-rendered with the option chosen), not just the
        # select's own value: the next action must be decided on the new room version
        page.wait_for_selector("#live select[name=dice] option[value='real'][selected]",
                               state="attached")
        page.fill("#table-seat-name", "Bram")
        page.click("[data-action=add-table-seat] [type=submit]")
        expect(page.locator("#live .seat [data-table-seat]")).to_have_count(1)
        expect(page.locator("#live .seat:has([data-table-seat])")).to_contain_text("Bram")
        screenshot(page, "kniffel-table-lobby")
        caught_up(page, server, code)
        page.click("[data-action=start]")

        turns = [t for pair in zip(ANNA, BRAM, strict=True) for t in pair]
        for n, (dice, box) in enumerate(turns, start=1):
            turn = page.locator("#kniffel-turn")
            wait_css(page, f"#kniffel-turn .dice[data-roll-index='{n}']")
            if n % 2 == 0:
                expect(page.locator("#acting-for")).to_have_text("Filling in for: Bram")
                expect(turn.locator(".turn-name")).to_have_text("Bram's turn, on this device")
            else:
                expect(page.locator("#acting-for")).to_be_hidden()
                expect(turn.locator(".turn-name")).to_have_text("Your turn")
            if n == 2:  # a wrong entry first: corrected before the box is chosen
                for i in range(5):
                    turn.locator(f"[data-enter-die='{i}'] [data-face='6']").click()
                turn.locator("[data-action=enter]").click()
                expect(page.locator("#live button[data-box=yahtzee]")).to_have_attribute(
                    "data-points", "50")
            for i, face in enumerate(dice):
                turn.locator(f"[data-enter-die='{i}'] [data-face='{face}']").click()
            turn.locator("[data-action=enter]").click()
            wait_css(page, f"#kniffel-turn .dice[data-roll='{''.join(map(str, dice))}']")
            if n == 2:
                screenshot(page, "kniffel-pass-and-play")
            page.click(f"#live button[data-box='{box}']")

        wait_css(page, "#live[data-status='finished']")  # the last box is in
        final = http.get(f"{server.url}/r/{code}/state.json").json()
        assert final["status"] == "finished"
        anna_id, bram_id = (s["id"] for s in final["seats"])
        expected = {str(anna_id): ANNA_TOTAL, str(bram_id): BRAM_TOTAL}
        assert final["current"]["totals"] == expected
        for seat_id, total in expected.items():
            expect(page.locator(f"[data-seat-total][data-seat='{seat_id}']")).to_have_attribute(
                "data-seat-total", str(total))
        for name, total in (("Anna", ANNA_TOTAL), ("Bram", BRAM_TOTAL)):
            expect(page.locator(f'[data-final-total][data-player="{name}"]')
                   ).to_have_attribute("data-final-total", str(total))
        screenshot(page, "kniffel-pass-and-play-final")
        page.emulate_media(media="print")
        screenshot(page, "kniffel-pass-and-play-print")
        expect(page.locator("#kniffel-sheet")).to_be_visible()
        pdf = page.pdf(format="A4")
        assert pdf_pages(pdf) == 1
        ctx.close()
