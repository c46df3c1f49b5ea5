"""One name, once, in Chromium at phone size: a new visitor types their name once on the home
page; a new room, a game alone and a game against bots all seat them under it, and the page
remembers it afterwards."""

from __future__ import annotations

import re

import httpx
import pytest
from playwright.sync_api import expect

from app.rooms.games import GAMES
from tests.support.browser import chromium, screenshot
from tests.support.server import ServerProcess, server_env_for

pytestmark = [pytest.mark.browser, pytest.mark.server]

PHONE = {"width": 390, "height": 844}
ROOM = re.compile(r"/r/([\w-]{16})$")


def seat_names(url: str, page) -> list[str]:
    code = ROOM.search(page.url).group(1)
    return [s["name"] for s in httpx.get(f"{url}/r/{code}/state.json").json()["seats"]]


@pytest.mark.parametrize("backend", ["sqlite"], indirect=True)
def test_the_name_is_asked_once_for_every_way_to_play(backend, settings, tmp_path) -> None:
    env = server_env_for(settings.database_url, tmp_path)
    with ServerProcess(env, log=tmp_path / "server.log") as server, chromium() as browser:
        page = browser.new_context(viewport=PHONE, locale="en").new_page()
        page.goto(server.url + "/")
        expect(page.locator("input[name=name]:not([type=hidden])")).to_have_count(1)
        expect(page.locator("[data-game-line]")).to_have_count(len(GAMES) + 1)  # + Knikkers
        expect(page.locator("[data-game-line=yatzy]")).to_contain_text("Like Yahtzee")
        expect(page.locator("[data-game-line=knikkers]")).to_contain_text("Like Color Lines")
        screenshot(page, "home-phone")
        page.click("[data-action=new-room] [type=submit]")  # no name yet: asked for it there
        expect(page.locator("#player-name")).to_be_focused()
        assert page.url == server.url + "/"
        page.fill("#player-name", "M" * 25)  # the field takes 24 characters at most
        expect(page.locator("#player-name")).to_have_value("M" * 24)
        expect(page.locator("[data-name-too-long=player-name]")).to_be_hidden()
        page.fill("#player-name", "Mila")
        expect(page.locator("[data-name-too-long=player-name]")).to_be_hidden()
        page.click("[data-action=new-room] [type=submit]")
        page.wait_for_url(ROOM)
        assert seat_names(server.url, page) == ["Mila"]

        page.goto(server.url + "/")
        expect(page.locator("#player-name")).to_have_value("Mila")  # remembered
        page.fill("#player-name", "Bärbel")  # the header shows a short name whole on a phone
        page.click("[data-action=save-name] [type=submit]")
        expect(page.locator(".whoami")).to_have_text("Bärbel")
        page.click(".langs button[value=de]")  # "Gruppen": the longest header
        expect(page.locator("html")).to_have_attribute("lang", "de")
        assert page.evaluate(
            "() => { const e = document.querySelector('.whoami');"
            " return e.scrollWidth <= e.clientWidth; }"), "the name is cut off in the header"
        page.click(".langs button[value=en]")
        expect(page.locator("html")).to_have_attribute("lang", "en")
        page.fill("#player-name", "Mila")
        page.click("[data-action=save-name] [type=submit]")
        expect(page.locator(".whoami")).to_have_text("Mila")
        page.click("[data-play-alone=kniffel]")
        page.wait_for_url(ROOM)
        assert seat_names(server.url, page) == ["Mila"]

        page.goto(server.url + "/")
        page.select_option("#bots-count", "1")
        page.click("[data-action=play-bots] [type=submit]")
        page.wait_for_url(ROOM)
        assert seat_names(server.url, page)[0] == "Mila"

        page.goto(server.url + "/knikkers")
        expect(page.locator("[data-action=knikkers-name]")).to_have_count(0)  # named already
