"""A Kniffel game with a turn timer shows the first turn's countdown at once: that turn began
with the game (there is no turn event yet), and its clock runs from the game's start, as the
server's timer does (docs/rules.md, "Away players and timers")."""

from __future__ import annotations

import re
from datetime import timedelta

from app.web.room_view import render_update
from tests.support.room_service import service_room


async def test_the_first_turn_counts_down_from_the_start_of_the_game(database_url) -> None:
    async with service_room(database_url, "kniffel", ["Ann", "Bob"], {"timer": "60"}) as room:
        await room.room_action(room.players[0], "start")
        state = await room.state()
        assert state.game is not None and state.game.started_at is not None
        assert state.game_state.turn_started_at is None  # no turn event yet
        due = int((state.game.started_at + timedelta(seconds=60)).timestamp() * 1000)
        online = frozenset(room.players)
        for player in room.players:  # the player on turn and the one waiting
            html, _ = render_update(state, player, "en", online)
            timer = re.search(r'<span class="timer" data-timer="60"[^>]*>', html)
            assert timer is not None, html
            assert f'data-deadline="{due}"' in timer.group(0)
