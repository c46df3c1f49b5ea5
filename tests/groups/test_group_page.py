"""The group page over HTTP on a fixture of known games (``tests/groups/games.py``:
``known_games``, values worked out by hand there), SQLite and Postgres: the season's table and
its sorting, the columns a game kind declares (``GameRecords``, ``GamePlugin.review``), the
records and their links, head-to-head, the game list, the night's winner, the rating's
explanation, a member leaving (their results stay), and bad query values."""

from __future__ import annotations

import asyncio
import re
from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient

from app.groups import page
from app.groups.page import counted
from app.main import SESSION_COOKIE, create_app
from app.settings import Settings
from app.store.db import Database
from tests.groups.games import ANNA, BRAM, known_games
from tests.support.http import session_cookie

EN = {"accept-language": "en"}
CODE = "GROUPCODE0000001"
NOVEMBER = f"/groups/{CODE}?season=2026-11"


@pytest.fixture
def anna(settings: Settings) -> Iterator[TestClient]:
    """Anna (the admin) on an app whose database holds the known games, all recorded."""
    async def seed() -> None:
        db = Database(settings.database_url)
        try:
            await known_games(db)
        finally:
            await db.dispose()

    asyncio.run(seed())
    page._kept.clear()  # history kept by an earlier test's group of the same id and version
    with TestClient(create_app(settings), base_url="http://testserver") as client:
        client.cookies.set(SESSION_COOKIE, session_cookie(settings.secret_key, ANNA))
        yield client


def _rows(html: str) -> list[tuple[str, str, str]]:
    """``(player, games, wins)`` of each table row, in order."""
    return re.findall(r'<tr data-group-row data-player="([^"]*)" data-games="(\d+)" '
                      r'data-wins="(\d+)"', html)


def _be(client: TestClient, settings: Settings, player: str) -> None:
    """From now on the client is ``player`` (only their session cookie)."""
    client.cookies.clear()
    client.cookies.set(SESSION_COOKIE, session_cookie(settings.secret_key, player))


def test_the_season_table_its_columns_and_sorting(anna):
    html = anna.get(f"{NOVEMBER}&kind=kniffel", headers=EN).text
    assert _rows(html) == [("Anna", "3", "2"), ("Bram", "3", "1"), ("Carl", "1", "0")]
    assert "Bot Eva" not in html.split("data-group-table")[1].split("</table>")[0]
    assert "Kniffels thrown" in html and "Average accuracy" in html
    assert re.findall(r'data-feats="(\d+)"', html) == ["3", "0", "0"]
    assert 'aria-sort="descending"><a href="?season=2026-11&amp;kind=kniffel&sort=wins"' \
        in html
    by_score = anna.get(f"{NOVEMBER}&kind=kniffel&sort=score", headers=EN).text
    assert [r[0] for r in _rows(by_score)] == ["Anna", "Bram", "Carl"]
    by_games = anna.get(f"{NOVEMBER}&kind=kniffel&sort=games", headers=EN).text
    assert [r[0] for r in _rows(by_games)][-1] == "Carl"
    assert 'aria-sort="descending"><a href="?season=2026-11&amp;kind=kniffel&sort=games"' \
        in by_games
    whole = anna.get(f"/groups/{CODE}?season=all&kind=kniffel", headers=EN).text
    assert _rows(whole)[:2] == [("Bram", "4", "2"), ("Anna", "4", "2")]  # Bram ranks 1.5
    # Knister declares no feat and has no analysis: neither column is shown
    knister = anna.get(f"{NOVEMBER}&kind=knister", headers=EN).text
    assert _rows(knister) == [("Carl", "1", "1"), ("Anna", "1", "0")]
    assert "Kniffels thrown" not in knister and "Average accuracy" not in knister
    assert "data-rating-help" in html and "provisional" in html
    # each member's group rating (provisional: fewer than 10 games) and global rating
    assert len(re.findall(r'data-rating="-?[\d.]+" data-provisional>', html)) == 3
    assert len(re.findall(r"data-global-rating>-?[\d.,]+<", html)) == 3


def test_the_labels_come_from_the_games():
    assert counted("yatzy").feat == "Yatzys thrown"
    assert counted("kniffel").records == (("feats", "Most Kniffels in a game"),
                                          ("accuracy", "Best accuracy"))
    assert counted("knister").records == (("score", "Highest Knister score"),)
    assert counted("knister").feat is None and not counted("knister").analysed
    assert counted("knikkers_race").records == () and counted("nonsense").records == ()


def test_records_link_to_the_reviews_and_the_game_list(anna):
    html = anna.get(f"{NOVEMBER}&kind=kniffel", headers=EN).text
    feats = re.search(r'<li data-record="feats" data-value="2">(.*?)</li>', html, re.S)
    assert feats and "Most Kniffels in a game" in feats[1] and "Anna" in feats[1]
    assert 'href="/r/ROOMCODEGROUP001/games/3/review" data-record-link' in feats[1]
    assert 'data-record="score"' not in html  # Kniffel keeps no highest-score record
    knister = anna.get(f"{NOVEMBER}&kind=knister", headers=EN).text
    score = re.search(r'<li data-record="score" data-value="55">(.*?)</li>', knister, re.S)
    assert score and "Highest Knister score" in score[1] and "Carl" in score[1]
    assert 'href="/r/ROOMCODEGROUP001" data-record-link' in score[1]  # no review: the room
    games = re.findall(r'data-group-game="ROOMCODEGROUP001/(\d+)"', html)
    assert games == ["4", "3", "2", "1"]  # November's games, newest first
    assert "1. Bot Eva (300), 2. Bram (220), 3. Anna (180)" in html  # the bot's seat counts
    assert html.count('href="/r/ROOMCODEGROUP001/games/') == 3 + 1  # 3 Kniffel + the record
    assert "/games/4/review" not in html  # the Knister game has no review


def test_the_season_chart(anna):
    month = anna.get(f"{NOVEMBER}&kind=kniffel", headers=EN).text
    assert "Your points per game" in month and 'data-chart="group-season"' in month
    assert month.count('<circle class="dot"') == 3  # Anna's three November games
    whole = anna.get(f"/groups/{CODE}?season=all&kind=kniffel", headers=EN).text
    assert "Your average points per game, by month" in whole
    assert whole.count('<circle class="dot"') == 2  # October and November


def test_head_to_head_and_the_nights_winner(anna, settings):
    html = anna.get(f"{NOVEMBER}&kind=kniffel&a={ANNA}&b={BRAM}", headers=EN).text
    assert re.search(r'data-head-to-head data-games="3" data-a-ahead="1" data-b-ahead="1"',
                     html)
    assert 'data-night-winner="Anna"' in html
    assert re.findall(r'data-night-row data-player="(\w+)" data-points="(\d+)"', html) == [
        ("Anna", "3"), ("Bram", "4"), ("Carl", "4")]
    stranger = "d" * 32
    odd = anna.get(f"{NOVEMBER}&kind=kniffel&a={ANNA}&b={stranger}", headers=EN)
    assert odd.status_code == 200 and "data-head-to-head " not in odd.text


def test_bad_query_values_show_the_default_view(anna):
    for query in ("?season=2026-13&kind=chess&sort=nonsense", "?season=<x>&kind=&sort=",
                  "?a=%3Cscript%3E&b=x"):
        r = anna.get(f"/groups/{CODE}{query}", headers=EN)
        assert r.status_code == 200 and "<script>" not in r.text.split("<main")[1]


def test_a_member_who_leaves_keeps_their_results(anna, settings):
    _be(anna, settings, BRAM)
    r = anna.post(f"/groups/{CODE}/leave", follow_redirects=False)
    assert r.status_code == 303 and r.headers["location"] == "/groups"
    assert anna.get(f"/groups/{CODE}", headers=EN).status_code == 404
    _be(anna, settings, ANNA)
    html = anna.get(f"{NOVEMBER}&kind=kniffel", headers=EN).text
    assert ("Bram", "3", "1") in _rows(html)  # the table keeps his games, under his name
    assert 'data-member="Bram"' not in html  # no longer a member
    _be(anna, settings, "d" * 32)
    stranger = anna.get(f"/groups/{CODE}", headers=EN)
    assert stranger.status_code == 404 and "Anna" not in stranger.text


def test_the_page_reads_few_statements_and_its_history_once_per_version(database_url):
    """The group page's reads (bench/groups.py): the group with its members, the table, the
    ratings, the records, the game list, the viewer's series, the night and its standings,
    the open rooms: 9 statements; the same page again (same ``results_version``) 6, the
    history being kept."""
    from sqlalchemy import event

    from app.clock import utcnow
    from app.groups.service import group_and_members

    async def run() -> list[int]:
        db = Database(database_url)
        try:
            await known_games(db)
            page._kept.clear()
            statements: list[str] = []
            event.listen(db.engine.sync_engine, "before_cursor_execute",
                         lambda conn, cursor, statement, *args: statements.append(statement))
            counts = []
            for _ in range(2):
                statements.clear()
                async with db.sessionmaker() as session:
                    group, everyone = await group_and_members(session, CODE, ANNA)
                    view = page.choice(utcnow(), "2026-11", "kniffel", None, None, None)
                    context = await page.group_context(session, group, everyone, ANNA, view,
                                                       utcnow())
                    assert len(context["rows"]) == 3 and len(context["games"]) == 4
                counts.append(len(statements))
            return counts
        finally:
            await db.dispose()

    assert asyncio.run(run()) == [9, 6]
