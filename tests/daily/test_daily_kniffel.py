"""The daily Kniffel (docs/rules.md, "Daily challenges"): every throw's dice come from the
day's seed and the throw's place, so two players who keep the same dice see the same dice;
first attempts ranked; par is the optimal strategy's expected score; the accuracy shown."""

from __future__ import annotations

import re
from datetime import date

import pytest

from app.daily.card import result_card
from app.i18n import format_date, use_language
from app.rooms.games import GAMES
from app.rooms.games.base import Event
from app.rooms.games.kniffel import KniffelGame
from app.strategy.tables import room_house_rules
from tests.daily.play import play_daily
from tests.daily.test_daily_card import sheet_right
from tests.support.game_drivers import DRIVERS, game_settings
from tests.support.players import Guest
from tests.support.server import ServerProcess, server_env_for

pytestmark = [pytest.mark.server, pytest.mark.one_backend]
KNIFFEL = DRIVERS["kniffel-bot"]  # its moves for people: holds on odd turns


async def _attempt(guest: Guest) -> tuple[str, list[dict], int]:
    """Start an attempt and play it to the end with the driver's moves; (code, the roll
    events' payloads, the score)."""
    code, record, state, seat = await play_daily(guest, "kniffel", KNIFFEL)
    assert record["seed"] is None and record["game"].startswith("daily-kniffel-")
    rolls = [e["payload"]["dice"] for e in record["events"] if e["type"] == "roll"]
    return code, rolls, state["current"]["totals"][str(seat)]


async def test_same_dice_for_the_same_keeps_par_accuracy_and_ranking(
        settings, shared_tables, tmp_path) -> None:
    env = {**server_env_for(settings.database_url, tmp_path),
           **game_settings(KNIFFEL, shared_tables)}
    house = room_house_rules("kniffel", KniffelGame("kniffel").default_options())
    par = round(shared_tables.ensure("kniffel", **house).expected_score)
    with ServerProcess(env, log=tmp_path / "server.log") as server:
        anna, bram, cem = (Guest(server.url, n) for n in ("Anna", "Bram", "Cem"))
        code, rolls_a, score_a = await _attempt(anna)
        _, rolls_b, score_b = await _attempt(bram)
        assert rolls_a == rolls_b and score_a == score_b and len(rolls_a) > 13
        page = (await anna.http.get("/daily/kniffel")).text
        assert f'data-daily-par="{par}"' in page and f'data-daily-score="{score_a}"' in page
        accuracy = re.search(r'data-daily-accuracy="(\d+)"', page)
        assert accuracy and 0 <= int(accuracy.group(1)) <= 100
        assert 'data-daily-rank="1"' in page  # equal scores share the first place
        await _attempt(bram)  # a second attempt: not ranked
        board = (await cem.http.get("/daily/kniffel")).text
        assert board.count("data-board-rank=") == 2 and "data-daily-result" not in board
        assert "data-daily-par" not in board and "data-daily-accuracy" not in board
        assert (await cem.http.get("/daily/nope")).status_code == 404
        # the shared result's preview image: Anna's score sheet only once the day is over
        day = re.search(r'data-day="([0-9-]+)"', page).group(1)
        shared = re.search(r'data-url="([^"]+)"', page).group(1).replace(server.url, "")
        other = (await cem.http.get(shared)).text
        image = re.search(r'property="og:image" content="([^"]+)"', other).group(1)
        day_card = (await cem.http.get(image.replace(server.url, ""))).content
        assert (await anna.http.post("/_test/clock", json={"advance_seconds": 86400})) \
            .status_code == 200
        after = (await cem.http.get(image.replace(server.url, ""))).content
        assert not sheet_right(day_card) and sheet_right(after) and day_card != after
        record = (await anna.http.get(f"/r/{code}/games/1.json")).json()
        events = [Event(e["type"], e["payload"], e["seat"]) for e in record["events"]]
        seat = next(e.seat_id for e in events if e.type == "score")
        with use_language("en"):
            sheet = GAMES["kniffel"].sheet.lines(events, seat)
            title = f"Kniffel of the day · {format_date(date.fromisoformat(day))}"
        assert sum(points or 0 for section in sheet for _, points in section) <= score_a
        assert len([line for section in sheet for line in section]) == 13
        lines = (f"{score_a} points", f"Par {par}", "Rank 1 of 2")
        assert after == result_card(title, lines, None, sheet)  # the sheet the route passes
        for guest in (anna, bram, cem):
            await guest.aclose()
