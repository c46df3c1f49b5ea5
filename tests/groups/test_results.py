"""A group's table, head-to-head, records and night from a fixture of known games, recorded
by the real recorder on SQLite and Postgres (migrated schema); values worked out by hand."""

from __future__ import annotations

import asyncio
from datetime import timedelta

import pytest
from sqlalchemy import func, select

from app.groups import history, nights
from app.groups.models import GroupMember, RatedGame, Rating
from app.groups.record import Recorder
from app.groups.seasons import season
from app.groups.table import sort_rows, table
from app.store.db import Database
from tests.groups.games import ANNA, BOT, BRAM, CARL, T0, add_game, known_games, make_group

MONTH = season("2026-11", T0)
ALL = season("all", T0)


def _run(database_url, check):
    async def run():
        db = Database(database_url)
        try:
            group_id, games = await known_games(db)
            async with db.sessionmaker() as session:
                await check(db, session, group_id, games)
        finally:
            await db.dispose()

    asyncio.run(run())


def test_the_season_table_counts_members_shared_wins_and_kniffels(database_url):
    async def check(db, session, group_id, games):
        rows = await table(session, group_id, "kniffel", MONTH)
        got = {r.name: (r.games, r.wins, round(r.rank, 3), round(r.score, 2), r.best,
                        r.feats, r.accuracy) for r in rows}
        assert got == {
            "Anna": (3, 2, 1.667, 220.0, 250, 3, None),   # ranks 1, 3, 1 (G3 shared)
            "Bram": (3, 1, 1.667, 216.67, 230, 0, None),  # ranks 2, 2, 1
            "Carl": (1, 0, 2.0, 200.0, 200, 0, None),     # G1 level with Bram
        }  # the bot is never a member
        assert [r.name for r in rows] == ["Anna", "Bram", "Carl"]  # most wins first
        assert [r.name for r in sort_rows(rows, "score")] == ["Anna", "Bram", "Carl"]
        assert [r.name for r in sort_rows(rows, "games")][-1] == "Carl"
        whole = {r.name: (r.games, r.wins) for r in await table(session, group_id, "kniffel",
                                                                 ALL)}
        assert whole == {"Anna": (4, 2), "Bram": (4, 2), "Carl": (1, 0)}
        knister = {r.name: (r.games, r.wins, r.best)
                   for r in await table(session, group_id, "knister", MONTH)}
        assert knister == {"Anna": (1, 0, 40), "Carl": (1, 1, 55)}

    _run(database_url, check)


def test_head_to_head_counts_who_finished_ahead(database_url):
    async def check(db, session, group_id, games):
        pair = await history.head_to_head(session, group_id, "kniffel", MONTH, ANNA, BRAM)
        assert (pair.games, pair.a_ahead, pair.b_ahead, pair.level) == (3, 1, 1, 1)
        assert (pair.a_best, pair.b_best) == (250, 230)
        assert round(pair.a_average, 2) == 220.0 and round(pair.b_average, 2) == 216.67
        whole = await history.head_to_head(session, group_id, "kniffel", ALL, BRAM, ANNA)
        assert (whole.games, whole.a_ahead, whole.b_ahead) == (4, 2, 1)

    _run(database_url, check)


def test_records_and_game_list(database_url):
    async def check(db, session, group_id, games):
        knister = await history.records(session, group_id, MONTH, "knister")
        assert {w: (r.value, r.name, r.code, r.number) for w, r in knister.items()} == {
            "score": (55, "Carl", "ROOMCODEGROUP001", 4)}  # Anna's 40 is lower
        kniffel = await history.records(session, group_id, MONTH, "kniffel")
        # the bot's 300 in G2 is no member's; Anna's 250 of G1; two Kniffels in G3
        assert {w: (r.value, r.name, r.number) for w, r in kniffel.items()} == {
            "score": (250, "Anna", 1), "feats": (2, "Anna", 3)}
        whole = await history.records(session, group_id, ALL, "kniffel")
        # all time: Bram's 300 of October's G5 beats November's 250
        assert {w: (r.value, r.name, r.number) for w, r in whole.items()} == {
            "score": (300, "Bram", 5), "feats": (2, "Anna", 3)}
        listed = await history.games(session, group_id, MONTH)
        assert [g.number for g in listed] == [4, 3, 2, 1]
        assert listed[2].places == [(1, "Bot Eva", 300), (2, "Bram", 220), (3, "Anna", 180)]

    _run(database_url, check)


def test_the_season_chart_per_game_and_all_time_per_month(database_url):
    async def check(db, session, group_id, games):
        month = await history.score_series(session, group_id, "kniffel", MONTH, ANNA)
        assert [s for _, s in month] == [250, 180, 230]
        whole = await history.monthly_series(session, group_id, "kniffel", ANNA)
        assert [(at.isoformat(), s) for at, s in whole] == [
            ("2026-10-01T00:00:00+00:00", 100), ("2026-11-01T00:00:00+00:00", 220)]

    _run(database_url, check)


def test_the_night_adds_up_ranks_and_a_missed_game_counts_one_behind_last(database_url):
    async def check(db, session, group_id, games):
        night = await nights.latest_night(session, group_id)
        count, standing = await nights.standings(session, night.id)
        assert count == 2  # G3 and G4
        # Anna 1 + 2; Bram 1 + (2 + 1 for the missed Knister); Carl (2 + 1) + 1
        assert [(s.name, s.points, s.place) for s in standing] == [
            ("Anna", 3, 1), ("Bram", 4, 2), ("Carl", 4, 2)]

    _run(database_url, check)


def test_a_game_is_recorded_once_and_leaving_keeps_results(database_url):
    async def check(db, session, group_id, games):
        recorder = Recorder(db)
        assert await recorder.record(games[1]) is False  # a replay or restart
        assert await recorder.scan() == []
        anna = await session.get(Rating, ("all", "kniffel", ANNA))
        assert anna.games == 4
        assert await session.get(Rating, ("all", "kniffel", BOT)) is None  # fixed prior
        group_rating = await session.get(Rating, (f"g{group_id}", "knister", CARL))
        assert group_rating.games == 1 and group_rating.mu > 25
        rated = (await session.execute(select(func.count()).select_from(RatedGame))).scalar()
        assert rated == 5
        async with db.sessionmaker() as other, other.begin():
            (await other.get(GroupMember, (group_id, CARL))).status = "left"
        rows = {r.name: r.games for r in await table(session, group_id, "kniffel", MONTH)}
        assert rows["Carl"] == 1

    _run(database_url, check)


@pytest.mark.parametrize("backend", ["sqlite"], indirect=True)
def test_scan_finds_the_games_not_recorded(database_url):
    async def run():
        db = Database(database_url)
        try:
            group_id, room = await make_group(db)
            first = await add_game(db, room, 1, "kniffel", {ANNA: 10, BRAM: 20}, T0)
            second = await add_game(db, room, 2, "kniffel", {ANNA: 30, BRAM: 20},
                                    T0 + timedelta(hours=1))
            recorder = Recorder(db)
            assert await recorder.scan() == [first, second]
            recorder.start()
            recorder.notify(second)  # also announced by the room service: recorded once
            for _ in range(200):
                if await recorder.scan() == []:
                    break
                await asyncio.sleep(0.02)
            else:
                raise AssertionError("the recorder did not record the games")
            await recorder.idle()
            await recorder.close()
            async with db.sessionmaker() as session:
                assert (await session.get(Rating, ("all", "kniffel", ANNA))).games == 2
        finally:
            await db.dispose()

    asyncio.run(run())


def test_accuracy_from_the_analysis_counts_in_the_table_and_records(database_url):
    """The recorder's accuracy source (the game review's analysis in the app) gives Anna 90
    and Bram 70 in the first game, Anna 80 in the second: Anna averages 85, Bram 70, and the
    best accuracy is Anna's 90 of game 1."""
    given = {1: {ANNA: 90, BRAM: 70}, 2: {ANNA: 80}}

    async def run():
        db = Database(database_url)
        try:
            group_id, room = await make_group(db)
            seats: dict[str, int] = {}
            async with db.sessionmaker() as session:
                from app.store.models import Seat
                for seat in (await session.execute(select(Seat))).scalars():
                    seats[seat.player_id] = seat.id

            async def accuracy(game):
                return {seats[p]: v for p, v in given[game.number].items()}

            recorder = Recorder(db, accuracy)
            for number, at in ((1, T0), (2, T0 + timedelta(hours=1))):
                game = await add_game(db, room, number, "kniffel", {ANNA: 200, BRAM: 150}, at)
                assert await recorder.record(game)
            async with db.sessionmaker() as session:
                rows = {r.name: r.accuracy for r in await table(session, group_id, "kniffel",
                                                                   MONTH)}
                found = {what: (r.value, r.name, r.number) for what, r in
                         (await history.records(session, group_id, MONTH, "kniffel")).items()}
        finally:
            await db.dispose()
        assert rows == {"Anna": 85.0, "Bram": 70.0}
        assert found["accuracy"] == (90, "Anna", 1)

    asyncio.run(run())


def test_the_page_reads_its_history_again_after_each_recorded_game(database_url):
    """``results_version`` counts up with each recorded game and with its accuracies; the
    page's kept records, games and chart (``app.groups.page._history``) are read again for a
    new version, and kept for the same one."""
    from app.groups.models import Group
    from app.groups.page import _history

    async def run():
        db = Database(database_url)
        try:
            group_id, room = await make_group(db)

            async def accuracy(game):
                return {}  # nothing found: no change, no new version

            recorder = Recorder(db, accuracy)
            first = await add_game(db, room, 1, "kniffel", {ANNA: 200, BRAM: 150}, T0)
            assert await recorder.record(first)
            async with db.sessionmaker() as session:
                group = await session.get(Group, group_id)
                assert group.results_version == 1
                records, games, series = await _history(session, group, "kniffel", MONTH, ANNA)
                assert [g.number for g in games] == [1] and [s for _, s in series] == [200]
                again = await _history(session, group, "kniffel", MONTH, ANNA)
                assert again[1] is games  # the same version: kept
            second = await add_game(db, room, 2, "kniffel", {ANNA: 250, BRAM: 100},
                                    T0 + timedelta(hours=1))
            assert await recorder.record(second)
            async with db.sessionmaker() as session:
                group = await session.get(Group, group_id)
                assert group.results_version == 2
                records, games, series = await _history(session, group, "kniffel", MONTH, ANNA)
                assert [g.number for g in games] == [2, 1]
                assert [s for _, s in series] == [200, 250]
        finally:
            await db.dispose()

    asyncio.run(run())


def test_a_tied_record_stays_with_the_earlier_game_whatever_the_recording_order(database_url):
    """Two Knister games with the same best score, recorded latest first (a restart's scan
    may do that): the record is the earlier game's; a higher score later takes it over."""
    async def run():
        db = Database(database_url)
        try:
            group_id, room = await make_group(db)
            early = await add_game(db, room, 1, "knister", {ANNA: 60, BRAM: 10}, T0)
            late = await add_game(db, room, 2, "knister", {BRAM: 60, CARL: 5},
                                  T0 + timedelta(hours=1))
            recorder = Recorder(db)
            assert await recorder.record(late) and await recorder.record(early)
            async with db.sessionmaker() as session:
                held = (await history.records(session, group_id, MONTH, "knister"))["score"]
                assert (held.name, held.number) == ("Anna", 1)
            higher = await add_game(db, room, 3, "knister", {CARL: 61, ANNA: 3},
                                    T0 + timedelta(hours=2))
            assert await recorder.record(higher)
            async with db.sessionmaker() as session:
                held = (await history.records(session, group_id, MONTH, "knister"))["score"]
                assert (held.value, held.name, held.number) == (61, "Carl", 3)
        finally:
            await db.dispose()

    asyncio.run(run())
