"""Two players play Kniffel in Debian Chromium by clicking: options, holds, re-rolls, boxes."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.support import http
from tests.support.browser import (
    caught_up,
    chromium,
    host_and_guest,
    score_box,
    screenshot,
    wait_css,
)

pytestmark = [pytest.mark.browser, pytest.mark.server]


def load(server, code: str, faces: list[int]) -> None:
    """Queue the next dice of room ``code`` (test hook)."""
    r = http.post(f"{server.url}/_test/rooms/{code}/dice", json={"faces": faces})
    assert r.status_code == 200, r.text


def state(server, code: str) -> dict:
    r = http.get(f"{server.url}/r/{code}/state.json")
    assert r.status_code == 200, r.text
    return r.json()


def expect_dice(page, dice: list[tuple[int, bool]]) -> None:
    """Wait until the page shows exactly ``dice`` as (value, held), in order."""
    expect(page.locator("#live [data-die]")).to_have_count(len(dice))
    for i, (value, held) in enumerate(dice):
        die = page.locator(f"#live [data-die='{i}']")
        expect(die).to_have_attribute("data-value", str(value))
        expect(die).to_have_attribute("data-held", "true" if held else "false")


def expect_filled(page, boxes: list[tuple[str, str]]) -> None:
    """Wait until the score sheet's filled boxes are exactly ``boxes`` (slot, points)."""
    expect(page.locator("#live .scoresheet [data-filled]")).to_have_count(len(boxes))
    for slot, points in boxes:
        expect(page.locator(f"#live [data-slot='{slot}']")).to_have_attribute("data-value",
                                                                              points)


def roll(page, server, code, faces, count) -> None:
    load(server, code, faces)
    page.click("#live [data-action=roll]")
    wait_css(page, f"#live .dice[data-roll-count='{count}']")


def hold(page, die: int) -> None:
    page.click(f"#live button[data-die='{die}']")
    wait_css(page, f"#live [data-die='{die}'][data-held='true']")



@pytest.mark.parametrize("backend", ["sqlite"], indirect=True)
def test_two_players_play_kniffel_turns_by_clicking(server) -> None:
    with chromium() as browser:
        anna, bram, code = host_and_guest(browser, server, "kniffel")

        # the host's switches reach the room, unchecked ones too (hidden "false" inputs)
        caught_up(anna, server, code)  # no update on its way replaces the form
        anna.check("input[data-option=five_alike_full_house]")
        anna.wait_for_function(
            "() => document.querySelector('input[data-option=five_alike_full_house]').checked")
        bram.wait_for_selector("[data-option-ro=five_alike_full_house][data-value=true]")
        anna.select_option("select[data-option=columns]", "2")
        bram.wait_for_selector("[data-option-ro=columns][data-value='2']", state="attached")
        options = state(server, code)["options"]
        assert (options["five_alike_full_house"], options["columns"], options["joker"]) == (
            True, 2, True)
        screenshot(bram, "kniffel-lobby-guest")

        anna.click("#live [data-action=start]")
        for page in (anna, bram):
            page.wait_for_selector("#live .scoresheet")

        # Anna: roll, hold two fives, re-roll the others, then take the fives box
        expect(bram.locator("#live [data-action=roll]")).to_have_count(0)
        roll(anna, server, code, [5, 2, 5, 3, 1], 1)
        hold(anna, 0)
        hold(anna, 2)
        bram.wait_for_selector("#live [data-die='2'][data-held='true']")  # holds are live
        expect(bram.locator("#live button[data-die]")).to_have_count(0)
        roll(anna, server, code, [5, 6, 4], 2)
        expect_dice(anna, [(5, True), (5, False), (5, True), (6, False), (4, False)])
        expect(anna.locator("#live button[data-box=fives]")).to_have_attribute("data-points",
                                                                               "15")
        screenshot(anna, "kniffel-anna-choosing")
        score_box(anna, "fives")

        # Bram: full house in two rolls, scored with the five-alike house rule off the table
        bram.wait_for_selector("#live [data-action=roll]")
        roll(bram, server, code, [3, 3, 2, 3, 6], 1)
        for die in (0, 1, 3):
            hold(bram, die)
        roll(bram, server, code, [2, 1], 2)
        hold(bram, 2)
        anna.wait_for_selector("#live [data-die='4'][data-value='1']")
        roll(bram, server, code, [2], 3)
        expect(bram.locator("#live [data-action=roll]")).to_have_count(0)
        expect(bram.locator("#live button[data-box=full_house]")).to_have_attribute(
            "data-points", "25")
        screenshot(bram, "kniffel-bram-third-roll")
        score_box(bram, "full_house")

        # Anna again: a single roll into chance
        anna.wait_for_selector("#live [data-action=roll]")
        roll(anna, server, code, [6, 6, 1, 2, 4], 1)
        score_box(anna, "chance")

        final = state(server, code)
        bram.wait_for_selector(f"#live[data-version='{final['version']}']")
        anna.wait_for_selector(f"#live[data-version='{final['version']}']")
        a, b = final["current"]["order"]
        sheet = [(f"{a}/0/fives", "15"), (f"{a}/0/chance", "19"), (f"{b}/0/full_house", "25")]
        expect_filled(anna, sheet)
        expect_filled(bram, sheet)
        expect(anna.locator(f"#live [data-slot='{a}/0/chance']")).to_have_attribute("data-last",
                                                                                    "true")
        expect(anna.locator("#live [data-last]")).to_have_count(2)
        screenshot(anna, "kniffel-anna-sheet")
        screenshot(bram, "kniffel-bram-sheet")
