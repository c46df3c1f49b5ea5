"""What of a Knikkers game a browser may see (app/knikkers/disclosure.py; docs/rules.md,
Knikkers): the public part of the engine state, and who may watch a game move by move, decided
on games stored in the test databases (SQLite and Postgres)."""

from __future__ import annotations

from datetime import date, timedelta

import pytest

from app.engines.knikkers import Game
from app.knikkers import service
from app.knikkers.disclosure import PUBLIC_KEYS, may_watch, public_state, why_hidden
from app.store.db import Database
from app.store.models import Game as GameRow

DAY = date(2026, 3, 1)
SEED = 424242
ME, YOU = "a" * 32, "b" * 32


def test_the_public_state_is_the_engine_state_without_the_seed_and_the_draw_counter() -> None:
    game = Game.new(SEED, 5)
    shown = public_state(game)
    full = game.state_dict()
    assert PUBLIC_KEYS == ("min_line", "board", "upcoming", "score", "moves", "lines_cleared",
                           "over", "can_undo")
    assert list(shown) == list(PUBLIC_KEYS)
    assert {key: full[key] for key in PUBLIC_KEYS} == shown
    assert set(full) - set(shown) == {"seed", "spawn_index"}
    assert (shown["score"], shown["moves"], shown["min_line"], shown["over"]) == (0, 0, 5, False)


class Games:
    """Knikkers games stored for the test, and ``why_hidden`` asked on them."""

    def __init__(self, url: str) -> None:
        self.db = Database(url)

    async def add(self, player: str, *, seed: int = SEED, daily: date | None = None,
                  status: str = "finished", kind: str | None = None) -> GameRow:
        async with self.db.sessionmaker() as session:
            row = await service.start_game(session, player, 5, seed=seed, daily=daily)
            row.status = status
            if kind is not None:
                row.kind = kind
            await session.commit()
            return row

    async def hidden(self, row: GameRow, viewer: str, today: date = DAY) -> str | None:
        async with self.db.sessionmaker() as session:
            reason = await why_hidden(session, row, viewer, today)
            assert await may_watch(session, row, viewer, today) is (reason is None)
            return reason


@pytest.fixture
async def games(database_url):
    stored = Games(database_url)
    yield stored
    await stored.db.dispose()


async def test_a_game_being_played_is_hidden_even_from_its_player(games) -> None:
    row = await games.add(ME, status="playing")
    assert await games.hidden(row, ME) == "playing"
    assert await games.hidden(row, YOU) == "playing"


async def test_a_finished_ordinary_game_is_watched_by_anybody(games) -> None:
    row = await games.add(ME)
    assert await games.hidden(row, ME) is None
    assert await games.hidden(row, YOU) is None


async def test_a_daily_game_is_hidden_from_others_until_its_day_is_over(games) -> None:
    row = await games.add(ME, daily=DAY)
    assert await games.hidden(row, ME) is None
    assert await games.hidden(row, YOU, DAY - timedelta(days=1)) == "daily"
    assert await games.hidden(row, YOU, DAY) == "daily"
    assert await games.hidden(row, YOU, DAY + timedelta(days=1)) is None


async def test_a_viewer_playing_the_same_seed_may_not_watch_it(games) -> None:
    row = await games.add(ME, daily=DAY - timedelta(days=1))
    assert await games.hidden(row, YOU) is None
    await games.add(YOU, daily=DAY - timedelta(days=1), status="playing")
    assert await games.hidden(row, YOU) == "same_seed"
    assert await games.hidden(row, ME) is None  # its own player always may


async def test_the_same_seed_counts_only_while_the_viewers_game_is_being_played(games) -> None:
    row = await games.add(ME)
    await games.add(YOU, status="finished")
    assert await games.hidden(row, YOU) is None
    await games.add(YOU, status="abandoned")
    assert await games.hidden(row, YOU) is None


async def test_the_same_seed_counts_only_for_the_viewers_own_knikkers_games(games) -> None:
    row = await games.add(ME)
    await games.add(YOU, seed=SEED + 1, status="playing")  # another seed
    await games.add("c" * 32, status="playing")  # somebody else's
    await games.add(YOU, status="playing", kind="knister")  # not a Knikkers game
    assert await games.hidden(row, YOU) is None
