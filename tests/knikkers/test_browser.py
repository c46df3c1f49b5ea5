"""Knikkers in a real browser (Debian Chromium): play by clicking and by keyboard, see a refused
move flash, undo one move, and reach the end screen of a near-full test position.

Issue 6, acceptance 5. Runs on SQLite only (the browser adds nothing on Postgres). Screenshots go
to ``test-artifacts/knikkers-*.png``.
"""

from __future__ import annotations

import pytest

from tests.knikkers.helpers import choose, engine_view
from tests.support.browser import chromium, screenshot
from tests.support.server import ServerProcess

pytestmark = [pytest.mark.browser, pytest.mark.server]


def _state(page, server, game_id: int) -> dict:
    return page.request.get(f"{server.url}/knikkers/games/{game_id}/state").json()


def _version(page) -> str:
    return page.get_attribute("#kn-game", "data-version")


def _wait_for_new_version(page, old: str) -> None:
    page.wait_for_function(
        "v => { const g = document.getElementById('kn-game');"
        " return g && g.dataset.version !== v }",
        arg=old,
    )


def _click_move(page, src, dst) -> None:
    old = _version(page)
    page.click(f'[data-cell="{src[0]},{src[1]}"]')
    assert "is-selected" in page.get_attribute(f'[data-cell="{src[0]},{src[1]}"]', "class")
    page.click(f'[data-cell="{dst[0]},{dst[1]}"]')
    _wait_for_new_version(page, old)


def _keyboard_move(page, src, dst) -> None:
    """Arrow keys from the cursor to src, Enter; arrows to dst, Enter."""
    old = _version(page)
    page.focus('#kn-game button[data-cell][tabindex="0"]')
    at = [int(x) for x in page.evaluate("document.activeElement.dataset.cell").split(",")]
    for target in (src, dst):
        while at[0] != target[0]:
            page.keyboard.press("ArrowDown" if target[0] > at[0] else "ArrowUp")
            at[0] += 1 if target[0] > at[0] else -1
        while at[1] != target[1]:
            page.keyboard.press("ArrowRight" if target[1] > at[1] else "ArrowLeft")
            at[1] += 1 if target[1] > at[1] else -1
        assert page.evaluate("document.activeElement.dataset.cell") == f"{target[0]},{target[1]}"
        page.keyboard.press("Enter")
    _wait_for_new_version(page, old)


def _dom_board(page) -> list[list[int | None]]:
    cells = page.eval_on_selector_all(
        "#kn-game [data-cell]", "els => els.map(e => [e.dataset.cell, e.dataset.colour ?? null])"
    )
    board: list[list[int | None]] = [[None] * 9 for _ in range(9)]
    for key, colour in cells:
        r, c = (int(x) for x in key.split(","))
        board[r][c] = None if colour is None else int(colour)
    return board


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
        assert page.locator("[data-cell]").count() == 81
        screenshot(page, "knikkers-new-game")

        started = page.request.post(server.url + "/knikkers/test/near-full",
                                    form={"free": "9", "seed": "1"}, max_redirects=0)
        page.goto(server.url + started.headers["location"])
        game_id = int(started.headers["location"].rsplit("/", 1)[1])
        first = _state(page, server, game_id)
        assert _dom_board(page) == first["board"]

        # an unreachable cell flashes red and changes nothing
        page.click('[data-cell="0,0"]')
        page.click('[data-cell="4,4"]')
        page.wait_for_selector('[data-cell="4,4"].is-refused')
        assert page.inner_text(".kn-message") == "That marble cannot get there."
        assert _state(page, server, game_id) == first
        screenshot(page, "knikkers-refused")
        page.keyboard.press("Escape")

        # a move by clicking, then "Undo" brings back exactly the position before
        _click_move(page, *choose(engine_view(first)))
        moved = _state(page, server, game_id)
        assert moved["version"] == 1 and _dom_board(page) == moved["board"]
        page.wait_for_timeout(700)  # let the marble travel, for the screenshot
        screenshot(page, "knikkers-after-move")
        old = _version(page)
        page.click("[data-action=undo]")
        _wait_for_new_version(page, old)
        undone = _state(page, server, game_id)
        assert undone["board"] == first["board"] and undone["score"] == 0
        assert page.is_disabled("[data-action=undo]")

        # one move by keyboard, then click until the board is full
        _keyboard_move(page, *choose(engine_view(undone)))
        for _ in range(20):
            s = _state(page, server, game_id)
            if s["over"]:
                break
            _click_move(page, *choose(engine_view(s)))
        page.wait_for_selector("[data-game-over]")
        final = _state(page, server, game_id)
        assert final["status"] == "finished"
        dialog = page.locator("[data-game-over]")
        assert dialog.is_visible()
        assert "Game over" in dialog.inner_text()
        assert page.get_attribute("[data-score]", "data-score") == str(final["score"])
        assert page.locator("[data-game-over] [data-action=new-game]").is_visible()
        assert page.locator("[data-game-over] [data-action=replay]").is_visible()
        page.wait_for_timeout(700)
        screenshot(page, "knikkers-game-over")

        page.goto(f"{server.url}/knikkers/games/{game_id}/replay?step=1")
        page.click("[data-step-link=next]")
        page.wait_for_selector('#kn-replay-state[data-step="2"]')
        assert page.input_value("#kn-step") == "2"
        screenshot(page, "knikkers-replay")
        page.goto(f"{server.url}/leaderboards/knikkers/5")
        assert page.locator("tr[data-rank]").count() == 1
        screenshot(page, "knikkers-leaderboard")
        assert errors == []
        context.close()
