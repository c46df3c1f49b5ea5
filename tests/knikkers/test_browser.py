"""Knikkers in a real browser (Debian Chromium): play by clicking and by keyboard, see a refused
move flash, undo one move, and reach the end screen of a near-full test position.

Issue 6, acceptance 5. Runs on SQLite only (the browser adds nothing on Postgres). Screenshots go
to ``test-artifacts/knikkers-*.png``.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout
from playwright.sync_api import expect

from tests.knikkers.helpers import choose, engine_view
from tests.support.browser import animations_done, chromium, screenshot
from tests.support.server import ServerProcess

pytestmark = [pytest.mark.browser, pytest.mark.server]

MAX_MOVES = 20  # the near-full position (9 free cells) is over after a few moves
BOARD_EQUALS = """board => {
  const cells = document.querySelectorAll('#kn-game [data-cell]');
  if (cells.length !== 81) { return false; }
  for (const el of cells) {
    const [r, c] = el.dataset.cell.split(',').map(Number);
    const shown = el.dataset.colour === undefined ? null : Number(el.dataset.colour);
    if (shown !== board[r][c]) { return false; }
  }
  return true;
}"""


def marble_arrived(page) -> None:
    """Wait until the moved marble has travelled its path and the new ones appeared
    (static/js/knikkers.js: no ghost marble or arriving cell left, no animation running)."""
    page.wait_for_function("() => !document.querySelector('.kn-ghost, .kn-arriving, .kn-pending')")
    animations_done(page)


def _state(page, server, game_id: int) -> dict:
    response = page.request.get(f"{server.url}/knikkers/games/{game_id}/state")
    assert response.status == 200, response.text()
    return response.json()


def _cell(page, rc):
    return page.locator(f'#kn-game [data-cell="{rc[0]},{rc[1]}"]')


def _dom_board(page) -> list[list[int | None]]:
    cells = page.eval_on_selector_all(
        "#kn-game [data-cell]", "els => els.map(e => [e.dataset.cell, e.dataset.colour ?? null])"
    )
    board: list[list[int | None]] = [[None] * 9 for _ in range(9)]
    for key, colour in cells:
        r, c = (int(x) for x in key.split(","))
        board[r][c] = None if colour is None else int(colour)
    return board


def _expect_board(page, board) -> None:
    """Wait until the page shows exactly ``board`` (fails with the difference after 10 s)."""
    try:
        page.wait_for_function(BOARD_EQUALS, arg=board, timeout=10_000)
    except PlaywrightTimeout:
        assert _dom_board(page) == board  # says which cells differ
        raise


def _expect_version(page, version: int) -> None:
    expect(page.locator("#kn-game")).to_have_attribute("data-version", str(version))


def _click_move(page, version: int, src, dst) -> None:
    """Click ``src`` then ``dst`` on a page showing ``version``; wait for ``version + 1``."""
    _cell(page, src).click()
    expect(_cell(page, src)).to_have_class(re.compile(r"\bis-selected\b"))
    _cell(page, dst).click()
    _expect_version(page, version + 1)


def _keyboard_move(page, version: int, src, dst) -> None:
    """Arrow keys from the cursor to src, Enter; arrows to dst, Enter."""
    page.focus('#kn-game button[data-cell][tabindex="0"]')
    at = [int(x) for x in page.evaluate("document.activeElement.dataset.cell").split(",")]
    for target in (src, dst):
        for axis, (down, up) in enumerate((("ArrowDown", "ArrowUp"), ("ArrowRight", "ArrowLeft"))):
            for _ in range(abs(target[axis] - at[axis])):
                page.keyboard.press(down if target[axis] > at[axis] else up)
            at[axis] = target[axis]
        expect(_cell(page, target)).to_be_focused()
        page.keyboard.press("Enter")
    _expect_version(page, version + 1)


@pytest.mark.parametrize("backend", ["sqlite"], indirect=True)
def test_play_undo_and_reach_the_end_screen_in_chromium(settings, backend, tmp_path) -> None:
    env = {"DATABASE_URL": settings.database_url, "SECRET_KEY": "b" * 32,
           "VAR_DIR": str(tmp_path)}
    with ServerProcess(env) as server, chromium() as browser:
        context = browser.new_context(locale="en-GB", viewport={"width": 390, "height": 844},
                                      device_scale_factor=2, has_touch=True)
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        page.goto(server.url + "/knikkers")
        expect(page.locator("#kn-game [data-cell]")).to_have_count(81)
        screenshot(page, "knikkers-new-game")

        started = page.request.post(server.url + "/knikkers/test/near-full",
                                    form={"free": "9", "seed": "1"}, max_redirects=0)
        assert started.status == 303, started.text()
        page.goto(server.url + started.headers["location"])
        game_id = int(started.headers["location"].rsplit("/", 1)[1])
        first = _state(page, server, game_id)
        _expect_version(page, first["version"])
        _expect_board(page, first["board"])

        # an unreachable cell flashes red and changes nothing
        _cell(page, (0, 0)).click()
        _cell(page, (4, 4)).click()
        expect(_cell(page, (4, 4))).to_have_class(re.compile(r"\bis-refused\b"))
        expect(page.locator(".kn-message")).to_have_text("That marble cannot get there.")
        assert _state(page, server, game_id) == first  # the server has answered (the flash)
        screenshot(page, "knikkers-refused")
        page.keyboard.press("Escape")

        # a move by clicking, then "Undo" brings back exactly the position before
        _click_move(page, first["version"], *choose(engine_view(first)))
        moved = _state(page, server, game_id)
        assert moved["version"] == first["version"] + 1
        _expect_board(page, moved["board"])
        marble_arrived(page)  # for the screenshot
        screenshot(page, "knikkers-after-move")
        page.click("[data-action=undo]")
        _expect_version(page, moved["version"] + 1)
        undone = _state(page, server, game_id)
        assert undone["board"] == first["board"] and undone["score"] == 0
        _expect_board(page, first["board"])
        expect(page.locator("[data-action=undo]")).to_be_disabled()

        # one move by keyboard, then click until the board is full
        _keyboard_move(page, undone["version"], *choose(engine_view(undone)))
        for _ in range(MAX_MOVES):
            s = _state(page, server, game_id)
            if s["over"]:
                break
            _click_move(page, s["version"], *choose(engine_view(s)))
        else:
            raise AssertionError(f"the game is not over after {MAX_MOVES} moves")
        final = _state(page, server, game_id)
        assert final["status"] == "finished"
        dialog = page.locator("[data-game-over]")
        expect(dialog).to_be_visible()
        expect(dialog).to_contain_text("Game over")
        expect(page.locator("[data-score]")).to_have_attribute("data-score", str(final["score"]))
        expect(dialog.locator("[data-action=new-game]")).to_be_visible()
        expect(dialog.locator("[data-action=replay]")).to_be_visible()
        marble_arrived(page)
        screenshot(page, "knikkers-game-over")

        page.goto(f"{server.url}/knikkers/games/{game_id}/replay?step=1")
        expect(page.locator("#kn-replay-state")).to_have_attribute("data-step", "1")
        page.click("[data-step-link=next]")
        expect(page.locator("#kn-replay-state")).to_have_attribute("data-step", "2")
        expect(page.locator("#kn-step")).to_have_value("2")
        screenshot(page, "knikkers-replay")
        page.goto(f"{server.url}/leaderboards/knikkers/5")
        expect(page.locator("tr[data-rank]")).to_have_count(1)
        screenshot(page, "knikkers-leaderboard")
        assert errors == []
        context.close()
