"""Leaderboards: ranks with ties, one row per player, periods, the viewer's own row, keyset
pages, the daily board (issue 6, acceptance 3). Every test runs on SQLite and on Postgres."""

from __future__ import annotations

import asyncio
import random
import re
from datetime import UTC, datetime, timedelta

import pytest
from sqlalchemy import func, select

from app.knikkers import leaderboard
from app.knikkers.leaderboard import Board
from app.knikkers.seeds import daily_seed
from app.store.db import Database
from app.store.models import KnikkersBest, KnikkersScoreCount
from tests.knikkers.helpers import (
    new_player_id,
    play_to_end,
    player_of,
    ranks,
    record_result,
    seed_of,
    start,
    state,
)

NOW = datetime(2026, 3, 4, 12, 0, tzinfo=UTC)  # a Wednesday; the week began on Monday 2 March


def _run(settings, scenario):
    async def main():
        db = Database(settings.database_url)
        try:
            return await scenario(db)
        finally:
            await db.dispose()

    return asyncio.run(main())


def _fill(settings, rows) -> list[str]:
    """Record ``(player_index, score, finished_at[, variant, daily])`` rows; return player ids."""
    players: dict[int, str] = {}

    async def scenario(db):
        for item in rows:
            index, score, when, *rest = item
            pid = players.setdefault(index, new_player_id())
            variant = rest[0] if rest else 5
            daily = rest[1] if len(rest) > 1 else None
            await record_result(db, pid, score, when, variant=variant, daily=daily,
                                name=f"P{index}")

    _run(settings, scenario)
    return [players[i] for i in sorted(players)]


def _page(settings, board, **kwargs):
    async def scenario(db):
        async with db.sessionmaker() as session:
            return await leaderboard.page(session, board, **kwargs)

    return _run(settings, scenario)


def _triples(page) -> list[tuple[int, str, int]]:
    return [(e.rank, e.player_id, e.score) for e in page.entries]


def test_equal_scores_share_a_rank_and_the_next_rank_skips(settings, client) -> None:
    now = datetime.now(UTC)
    a, b, c, d = _fill(settings, [(0, 100, now), (1, 90, now - timedelta(seconds=2)),
                                  (2, 90, now - timedelta(seconds=1)), (3, 80, now)])
    assert ranks(client.get("/leaderboards/knikkers/5").text) == [
        (1, a, 100), (2, b, 90), (2, c, 90), (4, d, 80)]


def test_one_row_per_player_with_their_best_and_a_switch_to_all_games(settings, client):
    now = datetime.now(UTC)
    a, b = _fill(settings, [(0, 50, now), (0, 120, now), (0, 70, now), (1, 100, now)])
    assert ranks(client.get("/leaderboards/knikkers/5").text) == [(1, a, 120), (2, b, 100)]
    assert ranks(client.get("/leaderboards/knikkers/5?mode=games").text) == [
        (1, a, 120), (2, b, 100), (3, a, 70), (4, a, 50)]


def test_an_equal_score_later_keeps_the_earlier_best(settings) -> None:
    (a,) = _fill(settings, [(0, 100, NOW - timedelta(hours=1)), (0, 100, NOW), (0, 90, NOW)])
    entry = _page(settings, Board.for_period(5, "all", NOW)).entries[0]
    assert (entry.player_id, entry.score) == (a, 100)
    assert entry.finished_at.replace(tzinfo=UTC) == NOW - timedelta(hours=1)


@pytest.mark.parametrize(
    ("period", "expected"),
    [("all", [50, 40, 30, 20, 10]), ("month", [30, 20, 10]), ("week", [20, 10]),
     ("today", [10])],
)
@pytest.mark.parametrize("mode", ["players", "games"])
def test_periods_count_the_games_finished_in_them(settings, period, expected, mode) -> None:
    _fill(settings, [
        (0, 10, NOW - timedelta(hours=2)),                     # today
        (1, 20, datetime(2026, 3, 2, 0, 0, tzinfo=UTC)),       # Monday of this week
        (2, 30, datetime(2026, 3, 1, 23, 59, tzinfo=UTC)),     # this month, last week
        (3, 40, datetime(2026, 2, 28, 23, 59, tzinfo=UTC)),    # last month
        (4, 50, datetime(2025, 3, 4, 12, 0, tzinfo=UTC)),      # a year ago
    ])
    page = _page(settings, Board.for_period(5, period, NOW), mode=mode)
    assert [e.score for e in page.entries] == expected


def test_a_period_best_is_the_best_within_the_period(settings) -> None:
    (a,) = _fill(settings, [(0, 300, datetime(2026, 2, 10, tzinfo=UTC)), (0, 40, NOW)])
    assert _triples(_page(settings, Board.for_period(5, "all", NOW))) == [(1, a, 300)]
    assert _triples(_page(settings, Board.for_period(5, "month", NOW))) == [(1, a, 40)]


def test_the_viewers_own_row_and_rank_are_shown_outside_the_page(settings, client) -> None:
    me = player_of(client, start(client, seed=3, variant=4))  # a real guest (4: no 5-games)
    now = datetime.now(UTC)
    others = _fill(settings, [(i, 300 - i, now) for i in range(60)] + [(60, 100, now)])

    async def mine(db):
        await record_result(db, me, 100, now)
        await record_result(db, me, 20, now)

    _run(settings, mine)
    html = client.get("/leaderboards/knikkers/5").text
    rows = ranks(html)
    assert len(rows) == 51  # the page of 50, then the viewer's own row
    assert rows[:50] == [(i + 1, others[i], 300 - i) for i in range(50)]
    assert rows[50] == (61, me, 100)  # tied with the 61st player: same rank
    own = re.search(r'<tbody class="lb-me" data-me>(.*?)</tbody>', html, re.S).group(1)
    assert f'data-rank="61" data-player="{me}" data-score="100"' in own


def test_the_own_row_is_not_repeated_when_it_is_on_the_page(settings, client) -> None:
    me = player_of(client, start(client, seed=3, variant=4))
    now = datetime.now(UTC)
    _fill(settings, [(0, 500, now)])
    _run(settings, lambda db: record_result(db, me, 400, now))
    html = client.get("/leaderboards/knikkers/5").text
    assert 'data-me' not in html
    assert re.search(rf'<tr data-rank="2" data-player="{me}" data-score="400" class="is-me"', html)


def test_keyset_pages_continue_the_ranking_across_a_tie(settings, client) -> None:
    now = datetime.now(UTC)
    scores = [1000 - i for i in range(48)] + [500] * 4 + [400 - i for i in range(10)]
    players = _fill(settings, [(i, s, now + timedelta(microseconds=i))
                               for i, s in enumerate(scores)])
    first = client.get("/leaderboards/knikkers/5").text
    after = re.search(r'href="([^"]*after=[^"]*)" ?rel="next"|rel="next" href="([^"]*)"', first)
    link = (after.group(1) or after.group(2)).replace("&amp;", "&")
    second = client.get(link).text
    rows = ranks(first) + ranks(second)
    assert [p for _r, p, _s in rows] == players
    assert [s for _r, _p, s in rows] == scores
    assert [r for r, _p, _s in rows] == [1 + sum(t > s for t in scores) for s in scores]
    assert ranks(first)[-2:] == [(49, players[48], 500), (49, players[49], 500)]
    assert ranks(second)[:3] == [(49, players[50], 500), (49, players[51], 500),
                                 (53, players[52], 400)]
    assert 'rel="next"' not in second


def test_keyset_pages_in_all_games_mode(settings) -> None:
    now = datetime.now(UTC)
    _fill(settings, [(i % 3, 100 - i // 2, now + timedelta(microseconds=i)) for i in range(9)])
    board = Board.for_period(5, "all", now)
    one = _page(settings, board, mode="games", limit=4)
    two = _page(settings, board, mode="games", limit=4, after=one.next_after)
    three = _page(settings, board, mode="games", limit=4, after=two.next_after)
    scores = [e.score for p in (one, two, three) for e in p.entries]
    assert scores == [100, 100, 99, 99, 98, 98, 97, 97, 96]
    assert [e.rank for p in (one, two, three) for e in p.entries] == [1, 1, 3, 3, 5, 5, 7, 7, 9]
    assert three.next_after is None


def test_a_malformed_cursor_is_the_first_page(settings, client) -> None:
    now = datetime.now(UTC)
    (a,) = _fill(settings, [(0, 10, now)])
    for junk in ("x", "1.2", "1.2.zz", "9" * 40 + ".1.abc", "1.99999999999999999999.x",
                 "99999999999.1." + "a" * 32, "1.9999999999999999999999." + "a" * 32):
        assert ranks(client.get(f"/leaderboards/knikkers/5?after={junk}").text) == [(1, a, 10)]
    games = client.get("/leaderboards/knikkers/5?mode=games&after=1.1.99999999999")
    assert ranks(games.text) == [(1, a, 10)]


def test_the_daily_board_holds_only_that_days_daily_games(settings, client) -> None:
    today = datetime.now(UTC).date()
    now = datetime.now(UTC)
    a, b, c = _fill(settings, [(0, 30, now, 5, today), (1, 40, now, 5, today), (2, 100, now),
                               (0, 70, now, 5, today - timedelta(days=1))])
    daily = client.get(f"/leaderboards/knikkers/5/daily/{today.isoformat()}").text
    assert ranks(daily) == [(1, b, 40), (2, a, 30)]
    yesterday = client.get(
        f"/leaderboards/knikkers/5/daily/{(today - timedelta(days=1)).isoformat()}").text
    assert ranks(yesterday) == [(1, a, 70)]
    assert ranks(client.get(f"/leaderboards/knikkers/4/daily/{today.isoformat()}").text) == []
    # daily games are games of their variant too
    assert ranks(client.get("/leaderboards/knikkers/5").text) == [
        (1, c, 100), (2, a, 70), (3, b, 40)]
    assert client.get("/leaderboards/knikkers/5/daily/not-a-date").status_code == 404


def test_the_daily_game_is_one_seed_for_everyone_and_ranked_on_its_board(client) -> None:
    today = datetime.now(UTC).date()
    first = client.post("/knikkers/daily", data={"variant": "5"}, follow_redirects=False)
    again = client.post("/knikkers/daily", data={"variant": "5"}, follow_redirects=False)
    assert first.headers["location"] == again.headers["location"]  # resumed, not restarted
    game_id = int(first.headers["location"].rsplit("/", 1)[1])
    s = state(client, game_id)
    secret = client.app.state.settings.secret_key
    assert seed_of(client, game_id) == daily_seed(secret, 5, today)
    four = client.post("/knikkers/daily", data={"variant": "4"}, follow_redirects=False)
    four_id = int(four.headers["location"].rsplit("/", 1)[1])
    assert state(client, four_id)["min_line"] == 4
    assert seed_of(client, four_id) == daily_seed(secret, 4, today)
    s, _ = play_to_end(client, game_id)
    me = player_of(client, game_id)
    board = client.get(f"/leaderboards/knikkers/5/daily/{today.isoformat()}").text
    assert ranks(board) == [(1, me, s["score"])]
    assert ranks(client.get("/leaderboards/knikkers/5").text) == [(1, me, s["score"])]
    assert ranks(client.get(f"/leaderboards/knikkers/4/daily/{today.isoformat()}").text) == []


def test_rank_of_counts_strictly_better_scores(settings) -> None:
    _fill(settings, [(0, 50, NOW), (1, 40, NOW), (2, 40, NOW), (3, 10, NOW)])

    async def scenario(db):
        async with db.sessionmaker() as session:
            board = Board.for_period(5, "all", NOW)
            return [await leaderboard.rank_of(session, board, s) for s in (60, 50, 40, 30, 10)]

    assert _run(settings, scenario) == [1, 1, 2, 4, 4]


def test_bests_are_kept_per_board(settings) -> None:
    _fill(settings, [(0, 10, NOW, 5, NOW.date())])

    async def scenario(db):
        async with db.sessionmaker() as session:
            return sorted((await session.execute(select(KnikkersBest.board))).scalars())

    assert _run(settings, scenario) == [
        "all", "daily:2026-03-04", "day:2026-03-04", "month:2026-03-01", "week:2026-03-02"]


def test_the_leaderboard_index_links_every_board(client) -> None:
    html = client.get("/leaderboards").text
    for v in (5, 4):
        for period in ("all", "month", "week", "today"):
            assert f'href="/leaderboards/knikkers/{v}?period={period}"' in html
    assert client.get("/leaderboards/knikkers/6").status_code == 404
    assert client.get("/leaderboards/knikkers/5?period=bogus&mode=bogus").status_code == 200


def test_score_counts_stay_in_step_with_the_bests(settings) -> None:
    rng = random.Random(5)
    rows = [(rng.randrange(12), 2 * rng.randrange(30), NOW - timedelta(days=rng.randrange(40)),
             rng.choice((4, 5)), rng.choice((None, NOW.date())))
            for _ in range(150)]
    _fill(settings, rows)

    async def scenario(db):
        async with db.sessionmaker() as session:
            bests = (await session.execute(
                select(KnikkersBest.variant, KnikkersBest.board, KnikkersBest.score,
                       func.count()).group_by(KnikkersBest.variant, KnikkersBest.board,
                                              KnikkersBest.score))).all()
            counts = (await session.execute(
                select(KnikkersScoreCount.variant, KnikkersScoreCount.board,
                       KnikkersScoreCount.score, KnikkersScoreCount.players)
                .where(KnikkersScoreCount.players != 0))).all()
            board = Board.for_period(5, "all", NOW)
            ranked = [await leaderboard.rank_of(session, board, s, "players")
                      for s in range(0, 62, 3)]
            direct = [1 + int(await session.scalar(
                select(func.count()).select_from(KnikkersBest).where(
                    KnikkersBest.variant == 5, KnikkersBest.board == "all",
                    KnikkersBest.score > s))) for s in range(0, 62, 3)]
            return sorted(map(tuple, bests)), sorted(map(tuple, counts)), ranked, direct

    bests, counts, ranked, direct = _run(settings, scenario)
    assert counts == bests
    assert ranked == direct
