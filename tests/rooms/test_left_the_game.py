"""A seat taken out of a game before it ended is not ranked (docs/rules.md, "Results and
personal bests"): the result lists it last, without a rank, marked "left the game"; the
stored result names it, so the lobby's previous result, a restarted server and the player
page say the same. (A fresh user's finding: a Knister player who left was ranked "2." with 0.)
"""

from __future__ import annotations

import re

from app.review.history import played_games
from app.store.db import Database
from app.web.room_view import ranking, render_update
from tests.rooms.games.knister.test_house_rules import play_game
from tests.support.room_service import service_room


def test_a_seat_that_left_comes_last_without_a_rank_even_with_the_most_points() -> None:
    assert ranking({1: 100, 2: 50, 3: 200, 4: 50}, left={3}) == [
        (1, 1, 100), (2, 2, 50), (2, 4, 50), (None, 3, 200)]
    assert ranking({1: 10, 2: 30}, left={1, 2}) == [(None, 2, 30), (None, 1, 10)]
    assert ranking({1: 10, 2: 30}) == [(1, 2, 30), (2, 1, 10)]


def _places(html: str) -> list[tuple[str, str]]:
    """(rank text, name) of each line of the first ranking list in ``html``."""
    ranking_list = html.split('<ol class="ranking">', 1)[1].split("</ol>", 1)[0]
    return re.findall(r'<span class="rank">([^<]*)</span>\s*<span class="name">([^<]*)</span>',
                      ranking_list)


async def test_a_knister_player_who_left_is_listed_unranked_after_the_game(settings) -> None:
    async with service_room(settings.database_url, "knister", ["Anna", "Bram", "Cees"]) as room:
        anna, _, cees = room.players
        await room.room_action(anna, "start")
        state = await room.state()
        seat_a, seat_b, seat_c = (s.id for s in state.seats)
        await room.act(cees, {"type": "leave"})
        await play_game(room, seat_a, seat_b)
        for fresh in (False, True):  # as this process has it, and from the database alone
            state = await room.state(fresh=fresh)
            assert state.status == "finished"
            assert state.game.totals == {seat_a: 57, seat_b: 65, seat_c: 0}
            assert state.game.left == [seat_c]
            html, _ = render_update(state, anna, "en", frozenset())
            assert _places(html) == [("1.", "Bram"), ("2.", "Anna"), ("–", "Cees")]
            assert f'data-left-game="{seat_c}">left the game<' in html
            assert f'data-winner="{seat_b}"' in html
        await room.room_action(anna, "rematch")  # the lobby shows the previous result
        html, _ = render_update(await room.state(), anna, "nl", frozenset())
        assert _places(html)[-1] == ("–", "Cees")
        assert "verliet het spel" in html

    db = Database(settings.database_url)
    try:
        async with db.sessionmaker() as session:
            left = await played_games(session, cees)
            stayed = await played_games(session, anna)
    finally:
        await db.dispose()
    assert [(g.score, g.rank, g.players) for g in left] == [(0, None, 3)]
    assert [(g.score, g.rank, g.players) for g in stayed] == [(57, 2, 3)]
