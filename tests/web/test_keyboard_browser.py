"""Everything playable by mouse is playable by keyboard, with a visible focus (issue 12):
a Knister turn (Tab to Roll, Enter; Tab and arrows to a cell, Space) and a Kniffel turn
(roll, hold a die, roll again, score a box), using only ``page.keyboard``, in Chromium."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.support import http
from tests.support.browser import caught_up, chromium, create_room
from tests.support.server import ServerProcess, server_env_for

pytestmark = [pytest.mark.browser, pytest.mark.server]

MAX_TABS = 120


def load(server, code: str, faces: list[int]) -> None:
    """Queue the next dice of room ``code`` (test hook)."""
    r = http.post(f"{server.url}/_test/rooms/{code}/dice", json={"faces": faces})
    assert r.status_code == 200, r.text


def focused_matches(page, selector: str) -> bool:
    return page.evaluate("(s) => !!document.activeElement && document.activeElement.matches(s)",
                         selector)


def tab_to(page, selector: str) -> None:
    """Press Tab until the focused element matches ``selector`` (fails after MAX_TABS), then
    check the focus is visible: ``:focus-visible`` applies and draws an outline."""
    if focused_matches(page, selector) and not page.evaluate(
            "() => document.activeElement.matches(':focus-visible')"):
        # the focus came there after a click (the test's set-up), so without its ring: a
        # keyboard user's first keys, away and back, bring the ring
        page.keyboard.press("Shift+Tab")
        page.keyboard.press("Tab")
    for _ in range(MAX_TABS):
        if focused_matches(page, selector):
            break
        page.keyboard.press("Tab")
    else:
        raise AssertionError(f"Tab never reached {selector}")
    assert_focus_visible(page)


def assert_focus_visible(page) -> None:
    style = page.evaluate("""() => {
        const el = document.activeElement;
        const css = getComputedStyle(el);
        return {visible: el.matches(':focus-visible'), outline: css.outlineStyle,
                width: parseFloat(css.outlineWidth)};
    }""")
    assert style["visible"] and style["outline"] != "none" and style["width"] >= 2, style


def start_alone(page, server, game: str, timer: str | None = None) -> str:
    """A room of ``game`` with the page's player alone at the table, started (setup only;
    ``timer``: the turn timer option to choose first)."""
    code = create_room(page, server, game, "Anna")
    if timer is not None:
        caught_up(page, server, code)  # no update on its way replaces the form
        page.select_option("select[data-option=timer]", timer)
        expect(page.locator(f"select[data-option=timer] option[value='{timer}'][selected]")
               ).to_have_count(1)
    page.click("#live [data-action=start]")
    expect(page.locator("#live")).to_have_attribute("data-status", "playing")
    return code


def room_state(server, code: str) -> dict:
    return http.get(f"{server.url}/r/{code}/state.json").json()


@pytest.mark.parametrize("backend", ["sqlite"], indirect=True)
def test_a_knister_turn_by_keyboard_only(settings, tmp_path) -> None:
    env = server_env_for(settings.database_url, tmp_path)
    with ServerProcess(env, log=tmp_path / "server.log") as server, chromium() as browser:
        page = browser.new_context(viewport={"width": 390, "height": 844}).new_page()
        code = start_alone(page, server, "knister")
        load(server, code, [3, 4])
        tab_to(page, "#live [data-action=roll]")
        page.keyboard.press("Enter")
        expect(page.locator("#live .dice")).to_have_attribute("data-roll", "7")
        # Roll is gone after rolling: the focus goes on to an open cell, not the page's top
        page.wait_for_function(
            "() => document.activeElement && document.activeElement.matches('button.cell.open')")
        assert_focus_visible(page)
        tab_to(page, "#live button.cell.open[data-cell='0,0']")
        page.keyboard.press("ArrowRight")
        page.keyboard.press("ArrowDown")
        assert focused_matches(page, "button[data-cell='1,1']")
        assert_focus_visible(page)
        page.keyboard.press("Space")
        expect(page.locator("#live .cell[data-cell='1,1']")).to_have_attribute("data-value", "7")
        sheet = next(iter(room_state(server, code)["current"]["sheets"].values()))
        assert sheet[1][1] == 7 and sum(v is not None for row in sheet for v in row) == 1
        # the next roll is reached by keyboard again (the focus stays in the game)
        load(server, code, [6, 6])
        tab_to(page, "#live [data-action=roll]")
        page.keyboard.press("Enter")
        expect(page.locator("#live .dice")).to_have_attribute("data-roll", "12")


@pytest.mark.parametrize("backend", ["sqlite"], indirect=True)
def test_a_kniffel_turn_by_keyboard_only(settings, tmp_path) -> None:
    env = server_env_for(settings.database_url, tmp_path)
    with ServerProcess(env, log=tmp_path / "server.log") as server, chromium() as browser:
        page = browser.new_context(viewport={"width": 1280, "height": 800}).new_page()
        code = start_alone(page, server, "kniffel", timer="60")
        # the turn timer: an SVG icon (no emoji font needed) beside a live countdown
        expect(page.locator("#live .timer svg.icon-timer")).to_be_visible()
        load(server, code, [5, 2, 5, 3, 1])
        tab_to(page, "#live [data-action=roll]")
        page.keyboard.press("Enter")
        expect(page.locator("#live .dice")).to_have_attribute("data-roll-count", "1")
        for die in (0, 2):
            tab_to(page, f"#live button[data-die='{die}']")
            page.keyboard.press("Space")
            expect(page.locator(f"#live [data-die='{die}']")).to_have_attribute("data-held",
                                                                                 "true")
            # the focus stays on the die just held, so the next Tab goes on from there
            assert focused_matches(page, f"button[data-die='{die}']")
        load(server, code, [5, 6, 4])
        tab_to(page, "#live [data-action=roll]")
        page.keyboard.press("Enter")
        expect(page.locator("#live .dice")).to_have_attribute("data-roll", "55564")
        tab_to(page, "#live button[data-box=fives]")
        page.keyboard.press("Enter")
        expect(page.locator("#live [data-slot$='/fives'][data-filled]")).to_have_attribute(
            "data-value", "15")
        current = room_state(server, code)["current"]
        assert current is not None
        # the next turn runs against the clock: the countdown keeps its icon
        timer = page.locator("#live .timer[data-deadline]")
        expect(timer.locator("[data-timer-text]")).to_have_text(re.compile(r"^\d+ s$"))
        expect(timer.locator("svg.icon-timer")).to_be_visible()


@pytest.mark.parametrize("backend", ["sqlite"], indirect=True)
def test_scoring_by_keyboard_keeps_the_focus_in_the_sheet_not_on_leave(settings,
                                                                       tmp_path) -> None:
    # found by a fresh-user test: once a box was scored and the turn passed on, the focus
    # went to "Leave room" (the first action left in the live area), one Enter from its
    # confirmation
    env = server_env_for(settings.database_url, tmp_path)
    with ServerProcess(env, log=tmp_path / "server.log") as server, chromium() as browser:
        page = browser.new_context(viewport={"width": 1280, "height": 800}).new_page()
        create_room(page, server, "kniffel", "Anna")
        page.click("#live [data-action=add-bot]")
        expect(page.locator("#live [data-bot]")).to_have_count(1)
        page.click("#live [data-action=start]")
        expect(page.locator("#live [data-action=roll]")).to_be_visible(timeout=30_000)
        tab_to(page, "#live [data-action=roll]")
        page.keyboard.press("Enter")
        expect(page.locator("#live .dice")).to_have_attribute("data-roll-count", "1")
        tab_to(page, "#live button[data-box=chance]")
        page.keyboard.press("Enter")
        expect(page.locator("#live [data-slot$='/chance'][data-filled]")).to_have_count(1)
        focused = page.evaluate("() => [document.activeElement.id, "
                                "document.activeElement.getAttribute('data-action')]")
        assert focused == ["kniffel-sheet", None]


@pytest.mark.parametrize("backend", ["sqlite"], indirect=True)
def test_a_tap_keeps_the_focus_without_a_ring_and_keys_bring_the_ring_back(settings,
                                                                            tmp_path) -> None:
    """A fresh user's finding: on a phone, the die or box just tapped wore a focus ring after
    every update (the focus came back with ``focusVisible: true`` whatever moved it)."""
    env = server_env_for(settings.database_url, tmp_path)
    with ServerProcess(env, log=tmp_path / "server.log") as server, chromium() as browser:
        page = browser.new_context(viewport={"width": 390, "height": 844},
                                   has_touch=True).new_page()
        code = start_alone(page, server, "kniffel")
        load(server, code, [5, 2, 5, 3, 1])
        page.locator("#live [data-action=roll]").tap()
        expect(page.locator("#live .dice")).to_have_attribute("data-roll-count", "1")
        page.locator("#live button[data-die='0']").tap()
        expect(page.locator("#live [data-die='0']")).to_have_attribute("data-held", "true")
        ring = "() => document.activeElement.matches(':focus-visible')"
        assert focused_matches(page, "button[data-die='0']")  # the focus came back ...
        assert page.evaluate(ring) is False  # ... without its ring
        # by keys, the ring comes back with the focus
        tab_to(page, "#live button[data-die='2']")
        page.keyboard.press("Space")
        expect(page.locator("#live [data-die='2']")).to_have_attribute("data-held", "true")
        assert focused_matches(page, "button[data-die='2']")
        assert_focus_visible(page)
