"""Knikkers "New game" in Debian Chromium on a phone: during a game with moves it asks first
on a page without inline script; "Back to my game" keeps playing it, "Abandon it and start a
new game" leaves it abandoned and opens a new one (docs/rules.md, "End of game and ranking")."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.knikkers.helpers import JSON, cell, choose, engine_view
from tests.support.browser import PHONE, chromium, screenshot
from tests.support.server import ServerProcess

pytestmark = [pytest.mark.browser, pytest.mark.server]

INLINE_SCRIPT = """() => [
    ...[...document.scripts].filter(s => !s.src).map(s => 'script'),
    ...[...document.body.querySelectorAll('*')].flatMap(el => [...el.attributes]
        .filter(a => a.name.startsWith('on') || a.name === 'style')
        .map(a => el.tagName + ' ' + a.name))]"""  # <html>'s style: feel.js, through the CSSOM


def _state(page, server, game_id: int) -> dict:
    response = page.request.get(f"{server.url}/knikkers/games/{game_id}/state")
    assert response.status == 200, response.text()
    return response.json()


@pytest.mark.parametrize("backend", ["sqlite"], indirect=True)
def test_new_game_asks_first_and_abandons_only_when_confirmed(settings, backend,
                                                             tmp_path) -> None:
    env = {"DATABASE_URL": settings.database_url, "SECRET_KEY": "b" * 32,
           "VAR_DIR": str(tmp_path)}
    with ServerProcess(env, log=tmp_path / "server.log") as server, chromium() as browser:
        page = browser.new_context(locale="en-GB", viewport=PHONE, has_touch=True).new_page()
        page.goto(server.url + "/knikkers")
        started = page.request.post(server.url + "/knikkers/test/start",
                                    form={"seed": "2", "variant": "4"}, max_redirects=0)
        assert started.status == 303, started.text()
        game_id = int(started.headers["location"].rsplit("/", 1)[1])
        src, dst = choose(engine_view(_state(page, server, game_id)))
        moved = page.request.post(f"{server.url}/knikkers/games/{game_id}/move",
                                  form={"src": cell(src), "dst": cell(dst)}, headers=JSON)
        assert moved.ok, moved.text()
        page.goto(f"{server.url}/knikkers/games/{game_id}")
        before = _state(page, server, game_id)

        page.click(".kn-tools [data-action=new-game]")
        expect(page.locator("h1")).to_have_text("Start a new game?")
        expect(page.locator("[data-confirm-new]")).to_contain_text("counts as abandoned")
        assert page.evaluate(INLINE_SCRIPT) == []
        screenshot(page, "knikkers-confirm-new")
        page.click("[data-action=keep-playing]")
        expect(page).to_have_url(f"{server.url}/knikkers/games/{game_id}")
        assert _state(page, server, game_id) == before

        page.click(".kn-tools [data-action=new-game]")
        page.click("[data-action=abandon-and-new]")
        expect(page.locator("#kn-game")).to_be_visible()
        new_id = int(page.url.rsplit("/", 1)[1])
        assert new_id != game_id
        assert _state(page, server, game_id)["status"] == "abandoned"
        assert _state(page, server, new_id)["moves"] == 0
