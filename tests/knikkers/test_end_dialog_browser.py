"""The Knikkers end dialog can be closed, by its button and by Esc, to look at the final board,
and opened again (issue 12), in Chromium; an empty leaderboard says so in a sentence."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.knikkers.helpers import play_to_end
from tests.support import http
from tests.support.browser import chromium
from tests.support.server import ServerProcess, server_env_for

pytestmark = [pytest.mark.browser, pytest.mark.server]


@pytest.mark.parametrize("backend", ["sqlite"], indirect=True)
def test_the_end_dialog_closes_by_button_and_esc_and_opens_again(settings, tmp_path) -> None:
    env = server_env_for(settings.database_url, tmp_path)
    with ServerProcess(env, log=tmp_path / "server.log") as server, chromium() as browser:
        context = browser.new_context(locale="en-GB", viewport={"width": 390, "height": 844})
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        page.goto(server.url + "/knikkers")  # the guest's session
        r = page.request.post(server.url + "/knikkers/test/near-full",
                              form={"free": "3", "seed": "1"}, max_redirects=0)
        game_id = int(r.headers["location"].rsplit("/", 1)[1])
        cookies = {c["name"]: c["value"] for c in context.cookies()}
        with http.client(base_url=server.url, cookies=cookies) as client:
            play_to_end(client, game_id)
        page.goto(f"{server.url}/knikkers/games/{game_id}")

        dialog = page.locator("dialog[data-game-over]")
        show = page.locator("[data-action=show-result]")
        expect(dialog).to_be_visible()
        expect(show).to_be_hidden()
        page.click("[data-action=close-result]")
        expect(dialog).to_be_hidden()
        expect(page.locator("[data-board]")).to_be_visible()
        # nothing covers the final board now: its middle cell is the element there
        assert page.evaluate("""() => {
            const box = document.querySelector('[data-cell="4,4"]').getBoundingClientRect();
            const top = document.elementFromPoint(box.x + box.width / 2, box.y + box.height / 2);
            return !!top.closest('[data-cell="4,4"]');
        }""")
        expect(show).to_be_visible()
        expect(show).to_be_focused()

        page.keyboard.press("Enter")  # "Show the result" by keyboard
        expect(dialog).to_be_visible()
        expect(show).to_be_hidden()
        page.keyboard.press("Escape")
        expect(dialog).to_be_hidden()
        expect(show).to_be_visible()
        assert errors == []


def test_an_empty_leaderboard_says_so_without_a_rank(client) -> None:
    for path in ("/leaderboards", "/leaderboards/knikkers/5", "/leaderboards/knikkers/4"):
        html = client.get(path, headers={"accept-language": "en"}).text
        assert "No games yet: play one and lead this board." in html, path
        assert "data-rank=" not in html, path
        assert "<ol" not in html.split("<main", 1)[1], path  # a sentence, not list item 1.
