"""A visitor who opens a room's link while its game runs is told so, and the page looks again
by itself: once the game is over it offers the next game without a reload (a fresh user's
finding: the page stayed "The game has already started" until reloaded). Debian Chromium;
SQLite only."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from playwright.sync_api import expect

from tests.support import http
from tests.support.browser import (
    PHONE,
    caught_up,
    chromium,
    create_room,
    join,
    sqlite_server,
)

pytestmark = [pytest.mark.browser, pytest.mark.server]


@pytest.fixture(scope="module")
def server(tmp_path_factory) -> Iterator[object]:
    with sqlite_server(tmp_path_factory.mktemp("way-in")) as proc:
        yield proc


def test_the_game_running_page_offers_the_next_game_when_it_ends(server) -> None:
    with chromium() as browser:
        contexts = [browser.new_context(locale="en-GB", viewport=PHONE) for _ in range(3)]
        anna, bram, cem = (ctx.new_page() for ctx in contexts)
        code = create_room(anna, server, "knister", "Anna")
        join(bram, server, code, "Bram")
        caught_up(anna, server, code)
        anna.click("#live [data-action=start]")
        caught_up(anna, server, code)
        cem.goto(f"{server.url}/r/{code}")
        expect(cem.locator("[data-room-closed=running]")).to_be_visible()
        expect(cem.locator("[data-waits-for-room]")).to_contain_text("by itself")
        assert http.post(f"{server.url}/_test/rooms/{code}/finish").status_code == 200
        # the next look (every 5 s) finds the game over: the page offers the next game
        expect(cem.locator("[data-room-closed=finished]")).to_be_visible(timeout=12_000)
        # the same ranking as the room's own result (a fresh user's finding: a tie read
        # "1." and "2." here, "1." and "1." in the room)
        ranks = ("(items) => items.map((li) => "
                 "[li.dataset.rank, li.querySelector('.rank').textContent])")
        room_ranks = anna.locator("#live .result [data-rank]").evaluate_all(ranks)
        assert cem.locator(".ranking [data-rank]").evaluate_all(ranks) == room_ranks
        cem.click(f"a[href='/r/{code}?join=1']")
        cem.fill("input[name=name]", "Cem")
        for ctx in contexts:
            ctx.close()
