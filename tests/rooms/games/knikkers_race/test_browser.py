"""A Knikkers race in real browsers (Debian Chromium via Playwright): two players race on one
seed (loaded dice) by clicking their marbles, a third person watches; everyone sees the
others' small boards live, then the ranking with each board's replay."""

from __future__ import annotations

import re
import time

import pytest
from playwright.sync_api import expect

from app.engines import knikkers as engine
from app.rooms.games.knikkers_race import dice_for_seed
from tests.rooms.games.knikkers_race.helpers import SEED, cell, first_move, moves_to_the_end
from tests.support.browser import chromium, create_room, join, screenshot, wait_css
from tests.support.server import ServerProcess

pytestmark = [pytest.mark.browser, pytest.mark.server]


def _board(page, scope: str) -> list[list[int | None]]:
    """The colours shown by the board under ``scope`` (a CSS selector), 9 rows of 9."""
    cells = page.eval_on_selector_all(
        f"{scope} [data-cell]", "els => els.map(e => [e.dataset.cell, e.dataset.colour ?? null])")
    board: list[list[int | None]] = [[None] * 9 for _ in range(9)]
    for key, colour in cells:
        r, c = (int(x) for x in key.split(","))
        board[r][c] = None if colour is None else int(colour)
    return board


def _move(page, n: int, src, dst) -> None:
    """Click marble ``src``, then cell ``dst``, on a page whose board shows ``n`` moves; wait
    until it shows ``n + 1``."""
    mine = page.locator("#race-mine")
    wait_css(page, f"#race-mine[data-moves='{n}']")
    mine.locator(f'[data-cell="{cell(src)}"]').click()
    mine.locator(f'[data-cell="{cell(dst)}"]').click()
    wait_css(page, f"#race-mine[data-moves='{n + 1}']")


@pytest.mark.parametrize("backend", ["sqlite"], indirect=True)
def test_two_players_race_on_one_seed_while_a_third_watches(backend, server_env,
                                                             tmp_path) -> None:
    started = time.monotonic()
    with ServerProcess(server_env, log=tmp_path / "server.log") as server, chromium() as browser:
        pages = {}
        for name, locale in (("Anna", "nl-NL"), ("Bram", "de-DE"), ("Carl", "en-GB")):
            context = browser.new_context(locale=locale, viewport={"width": 1000, "height": 900})
            pages[name] = context.new_page()
        anna, bram, carl = pages["Anna"], pages["Bram"], pages["Carl"]
        code = create_room(anna, server, "knikkers_race", "Anna")
        join(bram, server, code, "Bram")
        carl.goto(f"{server.url}/r/{code}?watch=1")
        loaded = anna.request.post(f"{server.url}/_test/rooms/{code}/dice",
                                   data={"faces": dice_for_seed(SEED)})
        assert loaded.ok, loaded.text()

        # The host picks the options: "5 op een rij", 10 minutes; everyone sees them.
        anna.select_option("form.options select[name=time_limit]", "10")
        expect(bram.locator("[data-option-ro=time_limit]")).to_have_attribute("data-value", "10")
        expect(bram.locator("[data-option-ro=variant]")).to_have_attribute("data-value", "5")
        screenshot(anna, "race-lobby-host")
        anna.click("[data-action=start]")

        # Both boards start from the seed's start position, the same for both players.
        start = engine.Game.new(SEED, 5)
        for page in (anna, bram):
            expect(page.locator("#race-mine [data-cell]")).to_have_count(81)
            assert _board(page, "#race-mine") == start.board
            upcoming = page.eval_on_selector_all(
                "#race-mine [data-upcoming]", "els => els.map(e => Number(e.dataset.upcoming))")
            assert upcoming == list(start.upcoming)
            expect(page.locator("[data-race-board]")).to_have_count(1)
            # The time limit counts down in minutes and seconds.
            expect(page.locator("#race-status .timer[data-deadline]")).to_have_text(
                re.compile(r"\b(10:00|9:[0-5]\d)\b"))
        expect(carl.locator("[data-race-board]")).to_have_count(2)
        expect(carl.locator("#race-mine")).to_have_count(0)

        # Bram makes three moves; Anna sees his small board follow, Carl too.
        bram_game = engine.Game.new(SEED, 5)
        for n in range(3):
            src, dst = first_move(bram_game)
            bram_game.move(src, dst)
            _move(bram, n, src, dst)
        bram_seat = bram.get_attribute("#race-mine", "data-race-mine")
        for page in (anna, carl):
            small = page.locator(f'[data-race-board="{bram_seat}"]')
            expect(small.locator("[data-score]")).to_have_attribute(
                "data-score", str(bram_game.score))
            expect(small).to_contain_text("3")

        # Anna plays her board until it is full.
        anna_moves = moves_to_the_end(SEED)
        for n, (src, dst) in enumerate(anna_moves):
            _move(anna, n, src, dst)
            if n == 12:
                screenshot(anna, "race-mid-game")
        anna_game = engine.Game.replay(SEED, 5, [("move", s, d) for s, d in anna_moves])
        expect(anna.locator("#race-mine")).to_have_attribute("data-done", "")
        expect(anna.locator("#race-mine [data-score]")).to_have_attribute(
            "data-score", str(anna_game.score))
        # Anna is far ahead: Bram is not shown her marbles still to come for him.
        anna_seat = anna.get_attribute("#race-mine", "data-race-mine")
        expect(bram.locator(f'[data-race-board="{anna_seat}"] [data-hidden]')).to_be_visible()
        screenshot(bram, "race-behind")

        # Bram finishes his board: the ranking shows on every screen, with both replays.
        bram.once("dialog", lambda dialog: dialog.accept())
        bram.click("[data-action=stop]")
        for page in (anna, bram, carl):
            expect(page.locator("#live")).to_have_attribute("data-status", "finished")
            expect(page.locator('[data-final-total][data-player="Anna"]')).to_have_attribute(
                "data-final-total", str(anna_game.score))
            expect(page.locator('[data-final-total][data-player="Bram"]')).to_have_attribute(
                "data-final-total", str(bram_game.score))
            expect(page.locator("[data-replay]")).to_have_count(2)
        # Now every board shows whole, also to the spectator.
        assert _board(carl, f'[data-race-board="{anna_seat}"]') == anna_game.board
        # The spectator steps Anna's replay back to the start position.
        replay = carl.locator(f'[data-replay="{anna_seat}"]')
        replay.locator("input[data-replay-step]").fill("0")
        assert _board(carl, f'[data-replay="{anna_seat}"]') == start.board
        expect(replay.locator("[data-replay-score]")).to_have_text("0")
        screenshot(carl, "race-ranking-spectator")
    assert time.monotonic() - started < 60
