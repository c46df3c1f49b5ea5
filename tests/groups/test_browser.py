"""Groups in Debian Chromium: Anna makes a group, Bram and Carl join by its invite link, two
Kniffel rooms are played for the group (a loaded Kniffel for Anna, then the test hook plays
the rest), and the group's table and head-to-head follow each game; the group pages have no
serious or critical axe violation in nl, de and en."""

from __future__ import annotations

import time

import pytest
from playwright.sync_api import expect

from app import i18n
from tests.rooms.games.kniffel.test_browser import roll
from tests.support import http
from tests.support.browser import ONLINE, chromium, join, score_box, screenshot
from tests.support.server import ServerProcess, server_env_for
from tests.web.test_axe_browser import AXE, COLOURS_ONLY, FULL, SIZES, axe_problems

pytestmark = [pytest.mark.browser, pytest.mark.server]


@pytest.fixture
def server(settings, tmp_path):
    """A running server on the test database (stopped by its pid afterwards)."""
    with ServerProcess(server_env_for(settings.database_url, tmp_path),
                       log=tmp_path / "server.log") as proc:
        yield proc


def _room_for_group(anna, server) -> str:
    """Anna opens a Kniffel room from the group page; its code once the lobby is online."""
    anna.select_option("#group-room-game", "kniffel")
    anna.click("form[data-action=group-room] button[type=submit]")
    expect(anna.locator("#live")).to_have_attribute("data-status", "lobby")
    expect(anna.locator("body")).to_have_class(ONLINE)
    return anna.url.rsplit("/", 1)[1]


def _play(anna, others, server, code: str) -> None:
    """Everyone sits, Anna starts; whoever is on turn throws a Kniffel (loaded dice) and
    scores it; the test hook plays the game to its end."""
    for page, name in others:
        join(page, server, code, name)
    expect(anna.locator("#live .seat[data-presence=online]")).to_have_count(3)
    anna.click("#live [data-action=start]")
    pages = [anna, *(page for page, _ in others)]
    for page in pages:
        page.wait_for_selector("#live .scoresheet")
    on_turn = [page for page in pages if page.locator("#live [data-action=roll]").count()]
    assert len(on_turn) == 1
    roll(on_turn[0], server, code, [6, 6, 6, 6, 6], 1)
    score_box(on_turn[0], "yahtzee")
    r = http.post(f"{server.url}/_test/rooms/{code}/finish")
    assert r.status_code == 200, r.text
    expect(anna.locator("#live")).to_have_attribute("data-status", "finished")


def _table_shows(page, url: str, games: int) -> None:
    """Reload the group's Kniffel table until every member's row shows ``games`` games (the
    recorder works after the game's finish is committed)."""
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        page.goto(url)
        rows = page.locator("[data-group-row]")
        if rows.count() == 3 and all(rows.nth(i).get_attribute("data-games") == str(games)
                                     for i in range(3)):
            return
        page.wait_for_timeout(200)
    raise AssertionError(f"the table did not show {games} games: {page.content()[:2000]}")


@pytest.mark.parametrize("backend", ["sqlite"], indirect=True)
def test_a_group_plays_two_kniffel_rooms_and_sees_its_table(server) -> None:
    with chromium() as browser:
        anna = browser.new_context(locale="en-GB", viewport={"width": 390, "height": 844}
                                   ).new_page()
        bram = browser.new_context(locale="en-GB").new_page()
        carl = browser.new_context(locale="en-GB").new_page()
        anna.goto(server.url + "/groups")
        anna.fill("#group-name", "Friday <club>")
        anna.fill("#group-you", "Anna")
        anna.click("form[data-action=new-group] button[type=submit]")
        expect(anna.locator("h1")).to_have_text("Friday <club>")
        group_url = anna.url
        invite = anna.locator("[data-group-invite]").get_attribute("href")
        for page, name in ((bram, "Bram"), (carl, "Carl")):
            page.goto(invite)
            page.fill("input[name=name]", name)
            page.click("form[data-action=join-group] button[type=submit]")
            expect(page.locator("h1")).to_have_text("Friday <club>")
        anna.goto(group_url)
        expect(anna.locator("[data-member]")).to_have_count(3)

        for number in (1, 2):
            anna.goto(group_url)
            code = _room_for_group(anna, server)
            _play(anna, ((bram, "Bram"), (carl, "Carl")), server, code)
            _table_shows(anna, group_url + "?kind=kniffel", number)
            # head-to-head follows each game: Anna against Bram, both at every table
            anna.select_option("#h2h-b", label="Bram")
            anna.click("form[data-action=head-to-head] button[type=submit]")
            expect(anna.locator("[data-head-to-head]")).to_have_attribute("data-games",
                                                                          str(number))

        rows = anna.locator("[data-group-row]")
        wins = sum(int(rows.nth(i).get_attribute("data-wins")) for i in range(3))
        assert wins >= 2  # one winner a game at least (a shared win counts for each)
        assert {rows.nth(i).get_attribute("data-player") for i in range(3)} == {
            "Anna", "Bram", "Carl"}
        expect(anna.locator("[data-record=feats]")).to_have_attribute("data-value", "1")
        expect(anna.locator("[data-record=feats]")).to_contain_text("Most Kniffels in a game")
        expect(anna.locator("th", has_text="Kniffels thrown")).to_have_count(1)
        # two games rated: every member's group rating is shown, marked provisional
        expect(anna.locator("[data-group-row] [data-rating][data-provisional]")).to_have_count(3)
        assert all(rows.nth(i).locator("[data-rating]").get_attribute("data-rating")
                   for i in range(3))
        pair = anna.locator("[data-head-to-head]")  # the page shows Anna against Bram
        expect(pair).to_have_attribute("data-games", "2")
        ahead = int(pair.get_attribute("data-a-ahead")) + int(pair.get_attribute("data-b-ahead"))
        assert ahead <= 2
        expect(anna.locator("svg[data-chart=group-season]")).to_be_visible()
        screenshot(anna, "group-table")


@pytest.mark.parametrize("backend", ["sqlite"], indirect=True)
def test_group_pages_have_no_serious_axe_violation(server) -> None:
    anna_http = http.client(base_url=server.url)
    try:
        made = anna_http.post("/groups", data={"name": "Sunday", "you": "Anna"})
        assert made.status_code in (200, 303)
        group_path = str(made.url.path) if made.status_code == 200 else made.headers["location"]
        code = group_path.rsplit("/", 1)[1]
        room = anna_http.post("/rooms", data={"game": "kniffel", "name": "Anna",
                                              "group": code}, follow_redirects=False)
        room_code = room.headers["location"].rsplit("/", 1)[1]
        page_html = anna_http.get(f"/groups/{code}").text
        invite = page_html.split('data-group-invite')[0].rsplit('href="', 1)[1].split('"')[0]
        cookies = dict(anna_http.cookies.items())
    finally:
        anna_http.close()
    paths = {"anna": [f"/groups/{code}", f"/groups/{code}?season=all&kind=knister",
                      "/groups", f"/r/{room_code}/group"],
             "stranger": [invite.replace(server.url, ""), "/groups"]}
    problems: list[str] = []
    with chromium() as browser:
        for lang in i18n.LANGUAGES:
            for who, pages in paths.items():
                ctx = browser.new_context(locale=lang, viewport=SIZES[FULL[lang][0]],
                                          color_scheme=FULL[lang][1])
                jar = {**(cookies if who == "anna" else {}), i18n.LANG_COOKIE: lang}
                ctx.add_cookies([{"name": k, "value": v, "url": server.url}
                                 for k, v in jar.items()])
                ctx.add_init_script(path=str(AXE))
                page = ctx.new_page()
                for path in pages:
                    response = page.goto(server.url + path)
                    assert response is not None and response.status == 200, path
                    assert page.get_attribute("html", "lang") == lang
                    # as tests/web/test_axe_browser.py: every rule in the language's own
                    # size and scheme, the colour rules in the fourth combination (English)
                    runs = [(FULL[lang], False)] + (
                        [(COLOURS_ONLY[lang], True)] if lang in COLOURS_ONLY else [])
                    for (size, scheme), colours in runs:
                        page.set_viewport_size(SIZES[size])
                        page.emulate_media(color_scheme=scheme)
                        problems += [f"{path} [{lang} {size} {scheme}] {line}"
                                     for line in axe_problems(page, contrast_only=colours)]
                ctx.close()
    assert not problems, "\n".join(problems)
