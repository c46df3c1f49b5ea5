"""Bots in Debian Chromium: one person and three bots play a whole Knister and a whole Kniffel
game; a player who closes the tab mid-game is played by a bot and the game ends
(docs/rules.md, "Bots")."""

from __future__ import annotations

import time

import pytest
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import expect

from tests.support import http
from tests.support.browser import chromium, create_room, join, screenshot
from tests.support.server import ServerProcess

pytestmark = [pytest.mark.browser, pytest.mark.server]

FAST = {"BOT_DELAY_MIN": "0", "BOT_DELAY_MAX": "0.02"}
GAME_SECONDS = 90


def add_bots(page, levels) -> None:
    for n, level in enumerate(levels, start=1):
        page.select_option("#live select[name=level]", level)
        page.click("#live [data-action=add-bot]")
        expect(page.locator("#live [data-bot]")).to_have_count(n)


def play_until_over(page, kind: str, seconds: float = GAME_SECONDS) -> None:
    """Play the person's moves by clicking (roll when it is their turn; Knister: the first
    open cell; Kniffel: the first offered box after one roll, one that scores if there is
    one, as a 0 takes a second tap) until the game is over."""
    moves = (("#live .cell.open",) if kind == "knister" else
             ("#live button[data-box]:not([data-points='0'])", "#live button[data-box]")
             ) + ("#live [data-action=roll]",)
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if page.locator("#live").get_attribute("data-status") == "finished":
            return
        for selector in moves:
            target = page.locator(selector)
            try:
                if target.count():
                    target.first.click(timeout=2000)
                    break
            except PlaywrightError:
                pass  # swapped out meanwhile: look again
        page.wait_for_timeout(100)
    pytest.fail(f"the {kind} game did not end within {seconds} s")


def server_for(server_env, tmp_path, **extra) -> ServerProcess:
    server = ServerProcess({**server_env, **FAST, **extra}, log=tmp_path / "server.log")
    return server.start(timeout=60)


@pytest.mark.parametrize("backend", ["sqlite"], indirect=True)
@pytest.mark.parametrize("kind", ["knister", "kniffel"])
def test_one_person_and_three_bots_play_a_whole_game(backend, kind, server_env, tmp_path,
                                                    strategy_dir) -> None:
    server = server_for(server_env, tmp_path, STRATEGY_DIR=str(strategy_dir))
    try:
        with chromium() as browser:
            page = browser.new_context(viewport={"width": 390, "height": 844}).new_page()
            code = create_room(page, server, kind, "Anna")
            add_bots(page, ["strong", "casual", "strong"])
            expect(page.locator("#live .seat")).to_have_count(4)
            # no bot is named like the player (docs/rules.md, "Bots"): not "Bot Anna"
            expect(page.locator("#live .seat .seat-name")).to_have_text(
                ["Anna", "Bot Bram", "Bot Clara", "Bot Daan"])
            screenshot(page, f"bots-lobby-{kind}")
            page.click("#live [data-action=start]")
            expect(page.locator("#live")).to_have_attribute("data-status", "playing")
            play_until_over(page, kind)
            state = http.get(f"{server.url}/r/{code}/state.json").json()
            assert state["status"] == "finished"
            totals = state["games"][-1]["totals"]
            assert sorted(int(s) for s in totals) == sorted(s["id"] for s in state["seats"])
            expect(page.locator("[data-final-total]")).to_have_count(4)  # bots are ranked
            screenshot(page, f"bots-final-{kind}")
    finally:
        server.stop()


@pytest.mark.parametrize("backend", ["sqlite"], indirect=True)
def test_a_player_who_closes_the_tab_is_played_by_a_bot(backend, server_env, tmp_path) -> None:
    server = server_for(server_env, tmp_path, BOT_TAKEOVER_SECONDS="2")
    try:
        with chromium() as browser:
            anna = browser.new_context(viewport={"width": 390, "height": 844}).new_page()
            bram_ctx = browser.new_context(viewport={"width": 390, "height": 844})
            bram = bram_ctx.new_page()
            code = create_room(anna, server, "knister", "Anna")
            join(bram, server, code, "Bram")
            expect(anna.locator("#live .seat[data-presence=online]")).to_have_count(2)
            anna.click("#live [data-action=start]")
            expect(bram.locator("#live")).to_have_attribute("data-status", "playing")
            bram_ctx.close()  # Bram closes the tab before the first roll
            anna.click("#live [data-action=roll]")  # Anna starts: she rolls first
            anna.locator("#live .cell.open").first.click()
            # after the grace a bot places for Bram: his seat says so
            expect(anna.locator("#live [data-taken-over]")).to_have_count(1, timeout=15_000)
            screenshot(anna, "bots-takeover")
            play_until_over(anna, "knister")
            state = http.get(f"{server.url}/r/{code}/state.json").json()
            bram_seat = next(s["id"] for s in state["seats"] if s["name"] == "Bram")
            grid = state["current"]["sheets"][str(bram_seat)]
            assert all(v is not None for row in grid for v in row)  # the bot filled it
            expect(anna.locator('[data-final-total][data-player="Bram"]')).to_have_count(1)
    finally:
        server.stop()
