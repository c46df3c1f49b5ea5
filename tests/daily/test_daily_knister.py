"""The daily Knister (docs/rules.md, "Daily challenges") on a real server: the same 25
rolls for everyone on a day and others the next day; first attempts ranked, later ones not;
board, par and streak; and nothing of the rolls to anyone who has not finished the day's
challenge."""

from __future__ import annotations

import random
import re

import pytest

from app.engines.knister import KnisterRules, score_grid
from app.engines.knister_bot import choose_cell
from tests.support.game_drivers import DRIVERS
from tests.support.players import Guest

pytestmark = [pytest.mark.server, pytest.mark.one_backend]
KNISTER = DRIVERS["knister"]
DAY = 86400


async def _attempt(guest: Guest) -> tuple[str, list[tuple[int, int]], int]:
    """Start an attempt, play it to the end; (room code, the 25 rolls, the score)."""
    r = await guest.http.post("/daily/knister", data={"name": guest.name})
    assert r.status_code == 303, r.text
    code = r.headers["location"].rsplit("/", 1)[1]
    sock = await guest.connect(code)
    state = await guest.state(code)
    seat = state["seats"][0]["id"]
    while state["status"] == "playing":
        move = KNISTER.next_move(state, [seat])
        assert move is not None
        assert (await sock.act(move.kind, **move.fields)).ok
        state = await guest.state(code)
    await sock.close()
    record = (await guest.http.get(f"/r/{code}/games/1.json")).json()
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

    # the next day: other rolls; Anna's streak grows, Bram's is one
    assert (await anna.http.post("/_test/clock", json={"advance_seconds": DAY})).status_code \
        == 200
    page = (await anna.http.get("/daily/knister")).text
    assert _day(page) != day and "data-daily-board-empty" in page and 'data-streak="1"' in page
    _, rolls_next, _ = await _attempt(anna)
    assert rolls_next != rolls
    assert 'data-streak="2"' in (await anna.http.get("/daily/knister")).text
    assert 'data-streak="1"' in (await bram.http.get("/daily/knister")).text
    for guest in (anna, bram, cem):
        await guest.aclose()


async def test_a_bad_start_changes_nothing(server) -> None:
    guest = Guest(server.url, "")
    r = await guest.http.post("/daily/knister", data={"name": "   "})
    assert r.status_code == 422
    assert "data-board-rank" not in (await guest.http.get("/daily/knister")).text
    assert (await guest.http.get("/daily/knister/2020-13-01/s/1")).status_code == 404
    assert (await guest.http.get("/daily/knister/2020-01-01/s/999")).status_code == 404
    await guest.aclose()
