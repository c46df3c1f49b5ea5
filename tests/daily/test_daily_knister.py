"""The daily Knister (docs/rules.md, "Daily challenges") on a real server: the same 25
rolls for everyone on a day and others the next day; first attempts ranked, later ones not;
board, par and streak; and nothing of the rolls to anyone who has not finished the day's
challenge."""

from __future__ import annotations

import io
import random
import re

import pytest
from PIL import Image

from app.engines.knister import KnisterRules, score_grid
from app.engines.knister_bot import choose_cell
from tests.daily.play import play_daily
from tests.support.game_drivers import DRIVERS
from tests.support.players import Guest

pytestmark = [pytest.mark.server, pytest.mark.one_backend]
KNISTER = DRIVERS["knister"]
DAY = 86400


async def _attempt(guest: Guest) -> tuple[str, list[tuple[int, int]], int]:
    """Start an attempt, play it to the end; (room code, the 25 rolls, the score)."""
    code, record, state, seat = await play_daily(guest, "knister", KNISTER)
    assert record["seed"] is None  # the day's seed: shown from the next day on
    assert record["game"].startswith("daily-knister-")
    return code, [tuple(r) for r in state["current"]["rolls"]], state["current"]["totals"][
        str(seat)]


def _par(rolls: list[tuple[int, int]], day: str) -> int:
    """The strong bot on ``rolls`` (as docs/rules.md, "Daily challenges" says par is)."""
    grid: list[list[int | None]] = [[None] * 5 for _ in range(5)]
    rng = random.Random(f"daily-knister-{day}")
    for k, (a, b) in enumerate(rolls):
        r, c = choose_cell(grid, a + b, k, 10, rng, level="strong")
        grid[r][c] = a + b
    return score_grid(grid, KnisterRules(10)).total


def _plain_right(png: bytes) -> bool:
    """True when the right part of a preview image (where a grid goes) is one colour."""
    image = Image.open(io.BytesIO(png)).convert("RGB").crop((690, 155, 1150, 605))
    return image.getcolors(1) is not None  # None: more than one colour


def _day(page: str) -> str:
    return re.search(r'data-day="([0-9-]+)"', page).group(1)


async def test_same_rolls_for_everyone_ranked_first_attempts_par_and_streak(server) -> None:
    anna, bram, cem = (Guest(server.url, n) for n in ("Anna", "Bram", "Cem"))
    page = (await cem.http.get("/daily/knister")).text
    day = _day(page)
    assert "data-daily-board-empty" in page and "data-daily-result" not in page

    code, rolls, score = await _attempt(anna)
    assert len(rolls) == 25
    # Cem has not played: the board shows Anna's score and name, nothing of her rolls or room
    page = (await cem.http.get("/daily/knister")).text
    assert f'data-board-score="{score}"' in page and "Anna" in page
    assert "data-daily-result" not in page and "data-line=" not in page
    assert code not in page and "data-daily-par" not in page
    # Anna sees her result: score, par (the strong bot on the same rolls), rank, lines
    page = (await anna.http.get("/daily/knister")).text
    par = _par(rolls, day)
    assert f'data-daily-score="{score}"' in page and f'data-daily-par="{par}"' in page
    assert 'data-daily-rank="1"' in page and page.count("data-line=") == 25
    assert 'data-streak="1"' in page
    shared = re.search(r'data-url="([^"]+)"', page).group(1)
    text = re.search(r"data-share-text>([^<]+)<", page).group(1)
    assert f"{score} points (par {par}), rank 1 of 1" in text and shared in text
    # the shared link (another visitor): scores only
    other = (await cem.http.get(shared.replace(server.url, ""))).text
    assert f'data-daily-score="{score}"' in other and f'data-daily-par="{par}"' in other
    assert "data-line=" not in other and "data-daily-lines" not in other and code not in other
    image = re.search(r'property="og:image" content="([^"]+)"', other).group(1)
    card = await cem.http.get(image.replace(server.url, ""))
    assert card.status_code == 200 and card.headers["content-type"] == "image/png"
    assert card.content.startswith(b"\x89PNG")

    # Bram gets the same rolls; his second attempt is not ranked
    _, rolls_b, score_b = await _attempt(bram)
    assert rolls_b == rolls
    _, rolls_b2, score_b2 = await _attempt(bram)
    assert rolls_b2 == rolls
    page = (await cem.http.get("/daily/knister")).text
    assert page.count("data-board-rank=") == 2  # Anna's and Bram's first attempts only
    assert f'data-board-score="{score_b}"' in page
    page = (await bram.http.get("/daily/knister")).text
    assert "Play again (unranked)" in page
    card_path = image.replace(server.url, "")
    day_card = (await cem.http.get(card_path)).content  # scores only while the day lasts

    # the next day: other rolls; Anna's streak grows, Bram's is one
    assert (await anna.http.post("/_test/clock", json={"advance_seconds": DAY})).status_code \
        == 200
    page = (await anna.http.get("/daily/knister")).text
    assert _day(page) != day and "data-daily-board-empty" in page and 'data-streak="1"' in page
    after = (await cem.http.get(card_path)).content  # the day is over: the grid too
    assert _plain_right(day_card) and not _plain_right(after)
    _, rolls_next, _ = await _attempt(anna)
    assert rolls_next != rolls
    assert 'data-streak="2"' in (await anna.http.get("/daily/knister")).text
    home = (await anna.http.get("/")).text  # the player's page: streak and days
    me = re.search(r'href="/players/([0-9a-f]{32})/games"', home)
    assert me is not None
    history = (await cem.http.get(f"/players/{me.group(1)}/games")).text
    assert 'data-player-streak="knister:2"' in history and "data-player-daily" in history
    assert 'data-streak="1"' in (await bram.http.get("/daily/knister")).text
    for guest in (anna, bram, cem):
        await guest.aclose()


async def test_the_board_among_friends_and_the_daily_page(server) -> None:
    """Among friends: those the player shared a room with (and themself); /daily lists
    every daily challenge, Knikkers' daily game included."""
    anna, bram, dora = (Guest(server.url, n) for n in ("Anna", "Bram", "Dora"))
    code = await anna.create_room("knister")
    assert (await bram.join(code)).status_code == 303  # Anna and Bram shared a room
    for guest in (anna, bram, dora):
        await _attempt(guest)
    page = (await anna.http.get("/daily/knister")).text
    friends = page.split("data-daily-friends", 1)[1].split("</ol>", 1)[0]
    assert "Anna" in friends and "Bram" in friends and "Dora" not in friends
    assert page.count("data-board-rank=") == 3
    index = (await dora.http.get("/daily")).text
    for kind in ("knister", "kniffel", "knikkers"):
        assert f'data-daily-link="{kind}"' in index
    for guest in (anna, bram, dora):
        await guest.aclose()


async def test_a_bad_start_changes_nothing(server) -> None:
    guest = Guest(server.url, "")
    r = await guest.http.post("/daily/knister", data={"name": "   "})
    assert r.status_code == 422
    assert "data-board-rank" not in (await guest.http.get("/daily/knister")).text
    assert (await guest.http.get("/daily/s/999")).status_code == 404
    assert (await guest.http.get("/daily/s/999.png")).status_code == 404
    assert (await guest.http.get("/daily/nope")).status_code == 404
    await guest.aclose()
