"""Hints and the game analysis in Debian Chromium: a hints-on Kniffel room shows the player on
turn the best keep (dice outlined) and the best box (marked) with expected final scores; the
finished game shows each player's accuracy, and its review page lists every turn."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.rooms.games.kniffel.test_analysis import FILLERS
from tests.rooms.games.kniffel.test_browser import hold, roll
from tests.support.browser import (
    PHONE,
    caught_up,
    chromium,
    host_and_guest,
    score_box,
    screenshot,
    wait_css,
    wait_css_gone,
)
from tests.support.server import ServerProcess, server_env_for

pytestmark = [pytest.mark.browser, pytest.mark.server]


@pytest.fixture
def server_env(settings, tmp_path, shared_tables, kniffel_strategy) -> dict[str, str]:
    """A server whose strategy folder holds the Kniffel table (built once per session)."""
    return server_env_for(settings.database_url, tmp_path,
                          STRATEGY_DIR=str(shared_tables.folder))


@pytest.fixture
def server(server_env, tmp_path):
    """A running server (stopped by its pid afterwards)."""
    with ServerProcess(server_env, log=tmp_path / "server.log") as proc:
        yield proc


@pytest.mark.parametrize("backend", ["sqlite"], indirect=True)
def test_hints_then_accuracy_and_review_of_the_finished_game(server) -> None:
    with chromium() as browser:
        anna, bram, code = host_and_guest(browser, server, "kniffel")

        # the host switches hints on; the guest sees the option, read-only
        caught_up(anna, server, code)  # no update on its way replaces the form
        anna.check("input[data-option=hints]")
        bram.wait_for_selector("[data-option-ro=hints][data-value=true]")
        anna.click("#live [data-action=start]")
        for page in (anna, bram):
            page.wait_for_selector("#live .scoresheet")

        # Anna rolls two fives: she asks for a hint; nothing is held or written for her
        roll(anna, server, code, [5, 2, 5, 3, 1], 1)
        expect(bram.locator("#live [data-action=show-hint]")).to_have_count(0)
        anna.click("#live [data-action=show-hint]")
        area = anna.locator("#live #kniffel-hint[data-hint-state=shown]")
        expect(area).to_be_visible()
        keep = area.locator("[data-hint=keep]")
        box = area.locator("[data-hint=box]")
        expect(keep).to_contain_text("expected final score")
        expect(box).to_contain_text("expected final score")
        assert 150 < float(keep.get_attribute("data-expected")) < 300
        assert 150 < float(box.get_attribute("data-expected")) < 300
        outlined = area.get_attribute("data-keep-dice").split(",")
        expect(anna.locator("#live .die.hint-keep")).to_have_count(len(outlined))
        best_box = area.get_attribute("data-hint-box")
        expect(anna.locator(f"#live .offer.hint-box [data-box={best_box}]")).to_have_count(1)
        expect(area.locator("[data-other-box]").first).to_be_attached()
        expect(anna.locator("#live [data-die][data-held=true]")).to_have_count(0)
        screenshot(anna, "kniffel-hint")

        # the whole game, one roll a turn (loaded dice): Anna's first turn goes into ones
        score_box(anna, "ones")
        turns = [*FILLERS, ("chance", [1, 1, 1, 1, 1])]
        plays = [(bram, *turns[0])] + [(page, *turn) for turn in turns[1:]
                                      for page in (anna, bram)]
        for page, name, faces in plays:
            wait_css(page, "#live [data-action=roll]")
            roll(page, server, code, faces, 1)
            score_box(page, name)  # a 0 takes a second tap
            wait_css_gone(page, "#live button[data-box]")

        # the result: each player's accuracy, then the review lists every turn
        for page in (anna, bram):
            expect(page.locator("#live [data-result]")).to_be_visible()
            expect(page.locator("#live [data-accuracy-seat] [data-accuracy]")).to_have_count(2)
        value = anna.locator("#live [data-accuracy-seat] [data-accuracy]").first
        assert 0 <= int(value.get_attribute("data-accuracy")) <= 100
        screenshot(anna, "kniffel-accuracy")
        anna.click("#live [data-review-link]")
        expect(anna.locator("[data-review-turn]")).to_have_count(26)
        expect(anna.locator("[data-summary-seat] [data-accuracy]")).to_have_count(2)
        screenshot(anna, "kniffel-review")


@pytest.mark.parametrize("backend", ["sqlite"], indirect=True)
def test_play_alone_from_the_home_page_starts_a_solo_game_with_hints(server) -> None:
    with chromium() as browser:
        context = browser.new_context(locale="de-DE", viewport={"width": 390, "height": 844})
        page = context.new_page()
        page.goto(server.url + "/")
        page.fill("#player-name", "Anna")
        page.click("[data-play-alone=kniffel]")
        expect(page.locator("#live")).to_have_attribute("data-status", "playing")
        expect(page.locator("details.share")).to_be_hidden()
        expect(page.locator("#live .seat")).to_have_count(1)
        # the socket first (as create_room waits for it): a tap on Roll before the page's
        # socket is open could go nowhere on a busy machine
        wait_css(page, "body.online")
        code = page.url.rsplit("/", 1)[1]
        roll(page, server, code, [6, 6, 6, 2, 3], 1)
        page.click("#live [data-action=show-hint]")
        area = page.locator("#live #kniffel-hint[data-hint-state=shown]")
        expect(area.locator("[data-hint=keep]")).to_contain_text("erwartete Endpunktzahl")
        expect(area.locator("[data-hint=keep]")).to_have_attribute("data-keep", "666")
        expect(page.locator("#live .die.hint-keep")).to_have_count(3)
        screenshot(page, "kniffel-solo-hint-de")
        context.close()


def _mark(page, selector: str) -> dict:
    """The look of ``selector``: outline style and its ::after label (CSS ``content``)."""
    return page.eval_on_selector(selector, """el => ({
        outline: getComputedStyle(el).outlineStyle,
        label: getComputedStyle(el, '::after').content,
        lifted: getComputedStyle(el).transform })""")


@pytest.mark.parametrize("backend", ["sqlite"], indirect=True)
def test_a_suggested_keep_looks_and_reads_unlike_a_held_die(server) -> None:
    with chromium() as browser:
        page = browser.new_context(locale="en-GB", viewport=PHONE).new_page()
        page.goto(server.url + "/")
        r = page.request.post(server.url + "/play-alone", form={"game": "kniffel",
                                                                "name": "Anna"})
        assert r.ok
        page.goto(r.url)
        code = page.url.rsplit("/", 1)[1]

        # five sixes: the hint keeps all five (roll no more): the row says so, no die is ringed
        roll(page, server, code, [6, 6, 6, 6, 6], 1)
        page.click("#live [data-action=show-hint]")
        area = page.locator("#live #kniffel-hint[data-hint-state=shown]")
        expect(area.locator("[data-keep=all]")).to_have_text("roll no more")
        row = page.locator("#live .dice[data-roll]")
        expect(row).to_have_class(re.compile(r"\bhint-stop\b"))
        expect(page.locator("#live .die.hint-keep")).to_have_count(0)
        assert _mark(page, "#live .dice[data-roll]")["label"] == '"roll no more"'
        screenshot(page, "kniffel-hint-keep-all")
        score_box(page, "yahtzee")

        # 5 2 5 3 1 with the 2 held: the suggested dice are ringed and say "keep", the held
        # one is lifted and says "held"
        roll(page, server, code, [5, 2, 5, 3, 1], 1)
        hold(page, 1)
        page.click("#live [data-action=show-hint]")
        keep = area.get_attribute("data-keep-dice").split(",")
        assert keep and "1" not in keep and len(keep) < 5, keep
        expect(page.locator("#live .die.hint-keep")).to_have_count(len(keep))
        expect(row).not_to_have_class(re.compile(r"\bhint-stop\b"))
        page.evaluate("document.activeElement && document.activeElement.blur()")  # no focus ring
        for die in keep:
            expect(page.locator(f"#live [data-die='{die}']")).to_have_attribute(
                "data-mark", "keep")
            suggested = _mark(page, f"#live [data-die='{die}']")
            assert (suggested["outline"], suggested["label"]) == ("dashed", '"keep"')
            assert suggested["lifted"] == "none"
        expect(page.locator("#live [data-die='1']")).to_have_attribute("data-mark", "held")
        held = _mark(page, "#live [data-die='1']")
        assert (held["outline"], held["label"]) == ("none", '"held"')
        assert held["lifted"] != "none"  # raised
        others = [d for d in "01234" if d not in keep and d != "1"]
        for die in others:
            expect(page.locator(f"#live [data-die='{die}']")).not_to_have_attribute(
                "data-mark", re.compile(".*"))
        screenshot(page, "kniffel-hint-keep-and-held")


RINGS = r"""() => {
  // the dice at rest: a die still in its roll animation is turned and scaled, and its box
  // while it spins is not where it lies (on a busy machine the check could land mid-roll)
  document.getAnimations().forEach((a) => { if (a.animationName === "roll") a.finish(); });
  // the box each ring draws (a die's dashed outline, or the whole row's), with what it must
  // keep clear of: the status line above the dice, the other dice and their rings; and the
  // turn panel it must stay inside
  const drawn = (el) => {
    const r = el.getBoundingClientRect(), s = getComputedStyle(el);
    const out = s.outlineStyle === "none" ? 0
      : Math.max(0, parseFloat(s.outlineOffset) + parseFloat(s.outlineWidth));
    return {left: r.left - out, right: r.right + out, top: r.top - out, bottom: r.bottom + out};
  };
  const meets = (a, b) =>
    a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
  const status = document.querySelector("#live .kniffel .turn .status");
  const text = [...status.children].map((c) => c.getBoundingClientRect());
  const panel = document.querySelector("#live .kniffel .turn").getBoundingClientRect();
  const dice = [...document.querySelectorAll("#live .kniffel .dice [data-die]")];
  const rings = [...document.querySelectorAll(
    "#live .kniffel .hint-keep, #live .kniffel .hint-stop, #live .kniffel .dice .guide-target")];
  const problems = [];
  for (const el of rings) {
    const ring = drawn(el), name = el.getAttribute("data-die") || "row";
    if (text.some((t) => meets(ring, t))) problems.push(name + " covers the status line");
    if (ring.left < panel.left || ring.right > panel.right || ring.top < panel.top)
      problems.push(name + " leaves the turn panel");
    for (const other of dice) {
      if (other === el || el.contains(other)) continue;
      if (meets(ring, drawn(other))) {
        problems.push(name + " meets die " + other.getAttribute("data-die"));
      }
    }
  }
  return {rings: rings.length, problems};
}"""
"""The rings of a shown hint (``hint-keep`` dice, a ``hint-stop`` row) or of the guided round's
dice to keep (``guide-target``), and every way one of them covers its neighbours."""


@pytest.mark.parametrize("backend", ["sqlite"], indirect=True)
def test_keep_rings_leave_the_status_line_and_the_other_dice_readable(server) -> None:
    """Found by a fresh user: in a Kniffel room with hints on a 390 px phone, after a roll, a
    held die and "Show hint", the dashed rings of the dice to keep covered and clipped "Your
    turn · Roll 1 of 3" above the dice."""
    with chromium() as browser:
        anna, bram, code = host_and_guest(browser, server, "kniffel")
        caught_up(anna, server, code)  # no update on its way replaces the form
        anna.check("input[data-option=hints]")
        anna.click("#live [data-action=start]")
        roll(anna, server, code, [5, 2, 5, 3, 1], 1)
        hold(anna, 0)  # a held die is lifted: its ring with it
        anna.click("#live [data-action=show-hint]")
        area = anna.locator("#live #kniffel-hint[data-hint-state=shown]")
        keep = area.get_attribute("data-keep-dice").split(",")
        assert "0" in keep and len(keep) < 5, keep
        expect(anna.locator("#live .die.hint-keep")).to_have_count(len(keep))
        anna.evaluate("document.activeElement && document.activeElement.blur()")
        for size in (PHONE, {"width": 1280, "height": 800}):
            anna.set_viewport_size(size)
            anna.evaluate("window.scrollTo(0, 0)")
            found = anna.evaluate(RINGS)
            assert (found["rings"], found["problems"]) == (len(keep), []), size
            screenshot(anna, f"kniffel-hint-rings-{size['width']}")
        # all five kept: the row's ring keeps clear of the status line too
        score_box(anna, "fives")
        roll(bram, server, code, [1, 1, 2, 2, 3], 1)
        score_box(bram, "ones")
        roll(anna, server, code, [6, 6, 6, 6, 6], 1)
        anna.click("#live [data-action=show-hint]")
        expect(anna.locator("#live .dice.hint-stop")).to_have_count(1)
        for size in (PHONE, {"width": 1280, "height": 800}):
            anna.set_viewport_size(size)
            anna.evaluate("window.scrollTo(0, 0)")
            found = anna.evaluate(RINGS)
            assert (found["rings"], found["problems"]) == (1, []), size
            screenshot(anna, f"kniffel-hint-stop-{size['width']}")
