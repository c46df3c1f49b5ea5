"""Play feel in Debian Chromium (issue 12): the rules panel, Knister line points that explain
themselves by tap, "Your rooms" leading back into a running game, turn alerts and the sound
switch, the name counter, read-only lobby options for guests, the host's Remove only where it
is useful, and the desktop layout (Knister sheets, Knikkers buttons).

One server and one browser for the module; SQLite only (the browser adds nothing on Postgres).
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.support import http
from tests.support.browser import (
    caught_up,
    create_room,
    join,
    screenshot,
    wait_css,
)

pytestmark = [pytest.mark.browser, pytest.mark.server]

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 800}
HIDDEN_TAB = """
Object.defineProperty(document, 'hidden', {configurable: true, get: () => true});
Object.defineProperty(document, 'visibilityState', {configurable: true, get: () => 'hidden'});
window.__vibrations = [];
navigator.vibrate = (pattern) => { window.__vibrations.push(pattern); return true; };
"""


def load(server, code: str, faces: list[int]) -> None:
    r = http.post(f"{server.url}/_test/rooms/{code}/dice", json={"faces": faces})
    assert r.status_code == 200, r.text


def roll(page, server, code: str, dice: tuple[int, int]) -> None:
    load(server, code, list(dice))
    page.click("#live [data-action=roll]")
    wait_css(page, f"#live .dice[data-roll='{sum(dice)}']")


def place(page, cell: str) -> None:
    page.click(f"#live button.cell.open[data-cell='{cell}']")
    wait_css(page, f"#live .sheet.mine [data-cell='{cell}'][data-value]")


def knister_pair(server, browser, bram_viewport) -> tuple[Any, Any, Any, Any, str]:
    """Anna (desktop) and Bram (``bram_viewport``) in a started Knister room:
    ``(anna's context, bram's context, anna's page, bram's page, room code)``."""
    anna_ctx = browser.new_context(locale="en-GB", viewport=DESKTOP)
    bram_ctx = browser.new_context(locale="en-GB", viewport=bram_viewport)
    anna, bram = anna_ctx.new_page(), bram_ctx.new_page()
    code = create_room(anna, server, "knister", "Anna")
    join(bram, server, code, "Bram")
    caught_up(anna, server, code)  # Bram's seat is on Anna's page: her start is not stale
    anna.click("[data-action=start]")
    expect(bram.locator("#live")).to_have_attribute("data-status", "playing")
    return anna_ctx, bram_ctx, anna, bram, code


def test_the_rules_panel_is_on_every_room_page_in_the_page_language(server, browser) -> None:
    for locale, title, sentence in (
            ("nl-NL", "Spelregels van Knister", "De twee diagonalen tellen dubbel"),
            ("de-DE", "Spielregeln von Knister", "Die beiden Diagonalen zählen doppelt"),
            ("en-GB", "Rules of Knister", "The two diagonals count double")):
        ctx = browser.new_context(locale=locale, viewport=PHONE)
        page = ctx.new_page()
        create_room(page, server, "knister", "Anna")
        rules = page.locator("[data-rules=knister]")
        expect(rules.locator("summary")).to_have_text(title)
        expect(rules.get_by_text(sentence)).to_be_hidden()  # folded until asked for
        rules.locator("summary").click()
        expect(rules.get_by_text(sentence)).to_be_visible()
        expect(rules.locator("[data-rules-table=lines] tbody tr")).to_have_count(9)
        # the lobby explains each option where it is chosen
        fields = page.locator("#live form.options").locator("select, input[type=checkbox]")
        expect(page.locator("#live form.options [data-option-help]")).to_have_count(
            fields.count())
        page.click("[data-action=start]")
        expect(page.locator("#live")).to_have_attribute("data-status", "playing")
        expect(rules.get_by_text(sentence)).to_be_visible()  # open while the game updates
        ctx.close()


def test_knister_line_points_show_the_line_so_far_and_explain_on_a_tap(server, browser) -> None:
    ctx = browser.new_context(locale="en-GB", viewport=PHONE, has_touch=True)
    page = ctx.new_page()
    code = create_room(page, server, "knister", "Anna")
    page.click("[data-action=start]")
    for i, dice in enumerate([(2, 3), (1, 4), (4, 5)]):
        roll(page, server, code, dice)
        place(page, f"0,{i}")
    row = page.locator("#live .sheet.mine button.line-points[data-line='0']")
    expect(row).to_have_attribute("data-line-so-far", "pair")
    expect(row).to_have_attribute("data-line-now", "1")
    expect(row).to_contain_text("1")
    expect(row).to_contain_text("pair")
    pop = page.locator("#line-pop-" + page.get_attribute("#live .sheet.mine", "data-sheet") + "-0")
    expect(pop).to_be_hidden()
    row.tap()
    expect(pop).to_be_visible()
    expect(pop).to_contain_text("pair so far: 1 point now")
    expect(pop).to_contain_text("Still possible: full house, 8 points")
    expect(pop).to_contain_text("Scores when its last cells are filled (2 empty)")
    screenshot(page, "feel-knister-line-popover-phone")
    pop.get_by_role("button", name="Close").tap()
    expect(pop).to_be_hidden()
    # a diagonal explains that it counts double
    diagonal = page.locator("#live .sheet.mine button.line-points[data-line='10']")
    diagonal.tap()
    expect(page.locator("[popover]:popover-open")).to_contain_text("Diagonals count double")
    ctx.close()


def test_your_rooms_lead_back_into_a_running_game(server, browser) -> None:
    ctx = browser.new_context(locale="en-GB", viewport=PHONE)
    page = ctx.new_page()
    code = create_room(page, server, "knister", "Anna")
    page.click("[data-action=start]")
    expect(page.locator("#live")).to_have_attribute("data-status", "playing")
    page.goto(server.url + "/")
    link = page.locator(f"[data-my-rooms] a[data-my-room='{code}']")
    expect(link).to_have_text("Knister")
    link.click()
    expect(page).to_have_url(f"{server.url}/r/{code}")
    expect(page.locator("#live")).to_have_attribute("data-status", "playing")
    expect(page.locator("#live [data-action=roll]")).to_be_visible()
    ctx.close()


def test_a_hidden_tab_is_told_of_its_turn_and_sound_can_be_switched_off(server, browser) -> None:
    anna_ctx = browser.new_context(locale="en-GB", viewport=DESKTOP)
    bram_ctx = browser.new_context(locale="en-GB", viewport=PHONE, has_touch=True)
    bram_ctx.add_init_script(HIDDEN_TAB)
    anna, bram = anna_ctx.new_page(), bram_ctx.new_page()
    code = create_room(anna, server, "knister", "Anna")
    join(bram, server, code, "Bram")
    caught_up(anna, server, code)  # Bram's seat is on Anna's page: her start is not stale
    anna.click("[data-action=start]")
    expect(bram.locator("#live")).to_have_attribute("data-status", "playing")
    title = bram.title()
    roll(anna, server, code, (3, 4))
    # Bram's tab is hidden: a roll waits for his placement
    expect(bram).to_have_title(re.compile(r"^Your turn! · "))
    assert bram.evaluate("window.__vibrations.length") == 1
    assert bram.evaluate("window.KnobelAlerts.played") == ["roll", "turn"]
    place(bram, "2,2")
    expect(bram).to_have_title(title)  # his turn is over
    # sound off, remembered across a reload: the next roll plays nothing
    toggle = bram.locator("[data-sound-toggle]")
    expect(toggle).to_have_attribute("aria-pressed", "true")
    toggle.click()
    expect(toggle).to_have_attribute("aria-pressed", "false")
    expect(toggle).to_contain_text("Sound off")
    place(anna, "0,0")
    bram.reload()
    expect(bram.locator("[data-sound-toggle]")).to_have_attribute("aria-pressed", "false")
    expect(bram.locator("body")).to_have_class(re.compile(r"\bonline\b"))
    roll(bram, server, code, (1, 1))  # Bram's roll, then both place
    place(bram, "1,1")
    place(anna, "1,1")
    roll(anna, server, code, (2, 2))  # Anna's roll waits for Bram again
    expect(bram).to_have_title(re.compile(r"^Your turn! · "))
    assert bram.evaluate("window.__vibrations.length") == 1  # vibration with sound off too
    assert bram.evaluate("window.KnobelAlerts.played") == []
    anna_ctx.close()
    bram_ctx.close()


def test_a_page_nobody_tapped_yet_stays_silent_without_console_warnings(server,
                                                                        browser) -> None:
    """Browsers refuse sound before the first tap and warn at every try: a watcher who only
    opened the link gets no sound and no "AudioContext was not allowed to start" warnings
    (a new user saw seven per update)."""
    anna_ctx = browser.new_context(locale="en-GB", viewport=DESKTOP)
    eve_ctx = browser.new_context(locale="en-GB", viewport=PHONE)
    # Chromium under Playwright counts every page as tapped: Eve's page is not
    eve_ctx.add_init_script("Object.defineProperty(navigator, 'userActivation', "
                            "{value: {hasBeenActive: false, isActive: false}});")
    anna, eve = anna_ctx.new_page(), eve_ctx.new_page()
    code = create_room(anna, server, "knister", "Anna")
    anna.click("[data-action=start]")
    console: list[str] = []
    eve.on("console", lambda message: console.append(message.text))
    eve.goto(f"{server.url}/r/{code}?watch=1")
    expect(eve.locator("#live")).to_have_attribute("data-status", "playing")
    roll(anna, server, code, (3, 4))
    expect(eve.locator("#live .dice")).to_be_visible()
    eve.wait_for_function("() => window.KnobelAlerts.played.includes('roll')")
    assert eve.evaluate("window.KnobelAlerts.silenced") >= 1  # no AudioContext was made
    assert not [m for m in console if "AudioContext" in m], console
    anna_ctx.close()
    eve_ctx.close()


def test_losing_the_network_shows_at_once_and_the_page_catches_up_when_it_returns(
        server, browser) -> None:
    """The browser says the network is gone: the page says "Connection lost, reconnecting…"
    at once (its socket may look open for long), and when the network is back it reconnects
    and shows what happened meanwhile (a new user saw no sign of the drop)."""
    anna_ctx, bram_ctx, anna, bram, code = knister_pair(server, browser, PHONE)
    banner = bram.locator(".conn-status")
    expect(banner).to_be_hidden()
    bram_ctx.set_offline(True)
    expect(banner).to_be_visible()
    expect(banner).to_contain_text("Connection lost, reconnecting")
    roll(anna, server, code, (3, 4))
    bram_ctx.set_offline(False)
    expect(banner).to_be_hidden()
    expect(bram.locator("#live .dice[data-roll='7']")).to_be_visible()
    place(bram, "2,2")
    anna_ctx.close()
    bram_ctx.close()


def test_a_name_field_takes_at_most_24_characters(server, browser) -> None:
    """Every name input carries maxlength=24: the 25th character is not taken. A longer
    name the server sends back (refused, kept as typed) shows "25/24" and the message."""
    ctx = browser.new_context(locale="en-GB", viewport=PHONE)
    page = ctx.new_page()
    page.goto(server.url + "/name")
    field = page.locator("#name")
    expect(field).to_have_attribute("maxlength", "24")
    field.fill("Abcdefghijklmnopqrstuvwx")  # 24
    expect(page.locator("[data-name-count=name]")).to_have_text("24/24")
    expect(page.locator("[data-name-too-long=name]")).to_be_hidden()
    field.press("y")  # the 25th character is not taken
    expect(field).to_have_value("Abcdefghijklmnopqrstuvwx")
    expect(page.locator("[data-name-count=name]")).to_have_text("24/24")
    expect(page.locator("[data-name-too-long=name]")).to_be_hidden()
    page.evaluate("document.querySelector('#name').value = 'Abcdefghijklmnopqrstuvwxy'")
    field.dispatch_event("input")
    expect(page.locator("[data-name-count=name]")).to_have_text("25/24")
    expect(page.locator("[data-name-too-long=name]")).to_have_text(
        "A name can be at most 24 characters long.")
    expect(field).to_have_attribute("aria-invalid", "true")
    ctx.close()


def test_guests_see_read_only_options_and_the_host_removes_only_where_useful(
        server, browser) -> None:
    anna_ctx = browser.new_context(locale="en-GB", viewport=DESKTOP)
    bram_ctx = browser.new_context(locale="en-GB", viewport=PHONE)
    anna, bram = anna_ctx.new_page(), bram_ctx.new_page()
    code = create_room(anna, server, "knister", "Anna")
    join(bram, server, code, "Bram")
    expect(bram.locator("[data-readonly-note]")).to_have_text("Only the host can change these.")
    # plain text, not disabled controls that look editable: each option and its value
    expect(bram.locator("#live .options select, #live .options input")).to_have_count(0)
    shown = bram.locator("#live .options [data-option-ro]")
    # match, straight, timer, dice, pace, bot takes over, chat (the turn deadline only when
    # the pace is "turns")
    expect(shown).to_have_count(7)
    for name, text in (("match", "Match: 1 game"), ("straight_without_seven",
                       "Straight without a 7: 10 points"), ("timer", "Placement timer: off"),
                       ("dice", "Dice: on screen"),
                       ("pace", "Pace: Live: everyone at the table now"),
                       ("bot_takeover", "A bot plays for a player who is away, until they "
                                        "are back: on")):
        expect(bram.locator(f"[data-option-ro={name}]")).to_contain_text(text)
    expect(anna.locator("[data-readonly-note]")).to_have_count(0)
    bram_seat = anna.locator("#live .seat", has_text="Bram")
    expect(bram_seat.locator("[data-action=remove-seat]")).to_be_visible()  # lobby: useful
    anna.click("[data-action=start]")
    expect(anna.locator("#live")).to_have_attribute("data-status", "playing")
    expect(bram_seat).to_have_attribute("data-presence", "online")
    expect(bram_seat.locator("[data-action=remove-seat]")).to_have_count(0)  # playing, online
    bram_ctx.close()  # Bram goes away
    expect(bram_seat).to_have_attribute("data-presence", "away")
    remove = bram_seat.locator("[data-action=remove-seat]")
    expect(remove).to_be_visible()
    asked = []
    anna.once("dialog", lambda d: (asked.append(d.message), d.accept()))
    remove.click()
    expect(anna.locator("#live .seat", has_text="Bram")).to_have_count(0)
    assert asked == ["Remove Bram from the room?"]
    anna_ctx.close()


def test_desktop_uses_the_space_for_knister_sheets_and_shows_knikkers_buttons(
        server, browser) -> None:
    anna_ctx, bram_ctx, anna, bram, code = knister_pair(server, browser, DESKTOP)
    other = anna.locator("#live .sheet:not(.mine)")
    mine = anna.locator("#live .sheet.mine")
    expect(other).to_have_count(1)
    other_box, mine_box = other.bounding_box(), mine.bounding_box()
    assert other_box["width"] >= 240, other_box
    assert other_box["x"] > mine_box["x"] + mine_box["width"] - 1  # beside mine, not below
    screenshot(anna, "feel-knister-desktop")
    bram_ctx.close()
    page = anna_ctx.new_page()
    page.goto(server.url + "/knikkers")
    for action in ("undo", "new-game"):
        expect(page.locator(f".kn-tools [data-action={action}]")).to_be_in_viewport(ratio=1)
    assert page.evaluate("window.scrollY") == 0
    screenshot(page, "feel-knikkers-desktop")
    anna_ctx.close()


def test_the_end_of_a_knister_game_comes_into_view_on_a_phone(server, browser) -> None:
    ctx = browser.new_context(locale="de-DE", viewport=PHONE, has_touch=True)
    page = ctx.new_page()
    code = create_room(page, server, "knister", "Anna")
    page.click("[data-action=start]")
    for n in range(25):  # the last cells are at the bottom of the sheet, the result on top
        roll(page, server, code, (1, 1 + n % 5))
        place(page, f"{n // 5},{n % 5}")
    expect(page.locator("#live")).to_have_attribute("data-status", "finished")
    result = page.locator("#live [data-result]")
    expect(result).to_be_in_viewport()
    expect(result.locator("[data-winner]")).to_have_text("Spielende")  # alone: nobody to beat
    expect(page.locator("#live [data-my-turn=true]")).to_have_count(0)
    assert page.evaluate("window.KnobelAlerts.played").count("end") == 1
    ctx.close()
