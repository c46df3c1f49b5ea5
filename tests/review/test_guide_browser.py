"""A first game that teaches, in Chromium at phone size (docs/rules.md, "Guided first
round"): "How to play" on the home page starts a guided Knister round of 5 rolls and a guided
Kniffel round of 2 turns; at each step the panel names the strong bot's move and why, the
player follows it (or not: the next step says how the move compares), and the panel ends the
round. The panel stays in view at the foot of the phone's screen, also when the player has
scrolled down to the sheet, and what it points at is brought above it. Dice are loaded (test
hook) so the advice is known: five sixes go into the Kniffel box (50), 2-3-4-5-6 into the
large straight (40)."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.review.test_browser import RINGS
from tests.support import http
from tests.support.browser import chromium, screenshot
from tests.support.server import ServerProcess, server_env_for

pytestmark = [pytest.mark.browser, pytest.mark.server]

PHONE = {"width": 390, "height": 844}
KNISTER_ROLLS = [(3, 4), (2, 5), (1, 5), (4, 4), (6, 6)]  # sums 7, 7, 6, 8, 12


@pytest.fixture
def server(settings, tmp_path, shared_tables, kniffel_strategy):
    """A server whose strategy folder holds the Kniffel table (built once per session)."""
    env = server_env_for(settings.database_url, tmp_path, STRATEGY_DIR=str(shared_tables.folder))
    with ServerProcess(env, log=tmp_path / "server.log") as proc:
        yield proc


def load(server, page, faces) -> None:
    code = page.url.rsplit("/", 1)[1]
    r = http.post(f"{server.url}/_test/rooms/{code}/dice", json={"faces": list(faces)})
    assert r.status_code == 200, r.text


def roll_step(server, page, number: int, faces) -> None:
    """At guided step ``number`` (a roll is asked for), throw ``faces`` (loaded) by "Roll"."""
    guide = page.locator("#guide-step")
    expect(guide).to_have_attribute("data-guide-phase", "roll")
    expect(guide).to_have_attribute("data-guide-step", str(number))
    load(server, page, faces)
    page.click("#live [data-action=roll]")


def start(browser, server, game: str, locale: str):
    """A phone page that started the guided round of ``game`` from the home page; returns
    ``(page, the guide panel's step)``."""
    page = browser.new_context(viewport=PHONE, locale=locale).new_page()
    page.goto(server.url + "/")
    page.fill("#player-name", "Lou")
    page.click(f"[data-learn={game}]")
    page.wait_for_url(re.compile(r"/r/[\w-]{16}$"))
    return page, page.locator("#guide-step")


def in_view(page, css: str) -> None:
    """``css`` (an element) is fully on screen, and not under the guide panel fixed at the
    foot of the screen, nor under the header (unless it is the panel itself)."""
    box = page.evaluate("""(css) => {
        const el = document.querySelector(css), guide = document.getElementById('guide');
        const r = el.getBoundingClientRect(), g = guide.getBoundingClientRect();
        const bar = document.querySelector('.topbar').getBoundingClientRect();
        return {top: r.top, bottom: r.bottom, guide: guide.contains(el) ? innerHeight : g.top,
                header: bar.bottom, height: innerHeight};
    }""", css)
    assert box["header"] <= box["top"] and box["bottom"] <= min(box["guide"], box["height"]), box


def to_the_bottom(page) -> None:
    """The player scrolls down to the foot of the page (the sheet's last rows)."""
    page.evaluate("() => window.scrollTo(0, document.body.scrollHeight)")
    page.wait_for_function("() => window.scrollY > 0")


@pytest.mark.parametrize("backend", ["sqlite"], indirect=True)
def test_the_guided_knister_round_to_its_end(server) -> None:
    with chromium() as browser:
        page, guide = start(browser, server, "knister", "en")
        for n, faces in enumerate(KNISTER_ROLLS, 1):
            roll_step(server, page, n, faces)
            expect(guide).to_have_attribute("data-guide-phase", "place")
            total = sum(faces)
            cell = guide.get_attribute("data-guide-cell")
            r, c = (int(x) + 1 for x in cell.split(","))
            # the advised cell is ringed on the board, and no other
            expect(page.locator("#live .guide-target")).to_have_count(1)
            expect(page.locator(f'#live [data-cell="{cell}"]')).to_have_class(
                re.compile(r"\bguide-target\b"))
            expect(guide.locator("[data-guide-advice]")).to_have_text(
                f"You rolled {total}. The strong bot would write it in row {r}, column {c}.")
            ways = 6 - abs(7 - total)  # 7: 6 of 36, 6 and 8: 5, 12: 1
            expect(guide).to_contain_text(f"The sum {total} comes up in {ways} of 36 throws")
            in_view(page, f'#live [data-cell="{cell}"]')  # not under the panel
            if n == 1:
                screenshot(page, "guide-knister-phone")
            if n == 3:  # the player goes their own way: the guide says so, where it is seen
                chosen = page.locator("#live button.cell.open").evaluate_all(
                    "(cells, advised) => cells.map((c) => c.dataset.cell)"
                    ".filter((c) => c !== advised)[0]", cell)
            else:
                chosen = cell
            to_the_bottom(page)
            page.click(f'#live [data-cell="{chosen}"]')
            written = page.locator(f'#live [data-cell="{chosen}"]')
            expect(written).not_to_have_class(re.compile(r"\bopen\b"))
            expect(written).to_have_text(str(total))
            feedback = guide.locator("[data-guide-feedback]")
            expect(feedback).to_have_attribute("data-guide-feedback",
                                               "other" if n == 3 else "same")
            cr, cc = (int(x) + 1 for x in chosen.split(","))
            expect(feedback).to_contain_text(f"You wrote the {total} in row {cr}, column {cc}")
            if n == 3:
                expect(feedback).to_contain_text(f"would have written it in row {r}, column {c}")
                screenshot(page, "guide-knister-feedback-phone")
            in_view(page, "#guide-step [data-guide-feedback]")
        expect(guide).to_have_attribute("data-guide-phase", "done")
        expect(guide).to_contain_text("Guided round over")
        in_view(page, "#guide-step h2")


@pytest.mark.parametrize("backend", ["sqlite"], indirect=True)
def test_the_guided_kniffel_round_to_its_end_in_dutch(server) -> None:
    with chromium() as browser:
        page, guide = start(browser, server, "kniffel", "nl-NL")
        # turn 1: three sixes are kept (ringed on the board), two dice thrown again
        expect(guide).to_contain_text("beurt 1 van 2")
        roll_step(server, page, 1, [6, 6, 6, 2, 1])
        expect(guide).to_have_attribute("data-guide-phase", "keep")
        expect(guide).to_have_attribute("data-keep-dice", "0,1,2")
        rings = page.locator("#live .guide-target")
        expect(rings).to_have_count(3)
        # the rings leave the status line above the dice and the other dice readable, also
        # at the widest of their pulse (held there, then let go)
        page.evaluate("""() => document.getAnimations().forEach((a) => {
            if (a.animationName && a.animationName.startsWith("guide-pulse")) {
                a.pause(); a.currentTime = a.effect.getComputedTiming().duration / 2; } })""")
        assert page.evaluate(RINGS) == {"rings": 3, "problems": []}
        page.evaluate("() => document.getAnimations().forEach((a) => a.play())")
        for i in range(3):
            expect(page.locator(f'#live [data-die="{i}"]')).to_have_class(
                re.compile(r"\bguide-target\b"))
            page.click(f'#live [data-die="{i}"]')
            expect(page.locator(f'#live [data-die="{i}"]')).to_have_attribute("data-held", "true")
        load(server, page, [6, 6])
        page.click("#live [data-action=roll]")
        for n, faces, box, advice in (
                (1, None, "yahtzee", "Kniffel (50 punten)"),
                (2, [2, 3, 4, 5, 6], "large_straight", "(40 punten)")):
            expect(guide).to_contain_text(f"beurt {n} van 2")
            if faces:
                # the turn before followed the bot: said so (a fresh user's finding: the
                # guide said nothing about the player's own choice)
                expect(guide.locator("[data-guide-feedback]")).to_have_attribute(
                    "data-guide-feedback", "same")
                roll_step(server, page, n, faces)
            expect(guide).to_have_attribute("data-guide-phase", "box")
            expect(page.locator("#live .guide-target")).to_have_count(1)
            expect(page.locator(f"#live .offer [data-box='{box}']")).to_have_class(
                re.compile(r"\bguide-target\b"))
            expect(guide).to_have_attribute("data-guide-box", box)
            expect(guide.locator("[data-guide-advice]")).to_contain_text(advice)
            if n == 1:
                screenshot(page, "guide-kniffel-phone-nl")
            in_view(page, f"#live .offer [data-box='{box}']")  # not under the panel
            # the second turn goes its own way: Chance (20) instead of the large straight
            to_the_bottom(page)
            page.click(f"#live button[data-box='{box if n == 1 else 'chance'}']")
        expect(guide).to_have_attribute("data-guide-phase", "done")
        expect(guide).to_contain_text("Begeleide ronde voorbij")
        in_view(page, "#guide-step h2")
        in_view(page, "#guide-step [data-guide-feedback]")
        feedback = guide.locator("[data-guide-feedback]")
        expect(feedback).to_have_attribute("data-guide-feedback", "other")
        expect(feedback).to_contain_text("Kans in (20 punten)")
        expect(feedback).to_contain_text("Grote straat")
        screenshot(page, "guide-kniffel-feedback-nl")
