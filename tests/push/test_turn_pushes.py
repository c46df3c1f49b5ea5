"""Pushes of turn-based rooms (issue 27): "your turn" when a wait begins, a reminder before
its deadline, each once per wait, in each subscription's language, never to a player who has
the room open; through the scheduler, the queue and a local push service (tests/push
test_push.py's), decrypted as the browser would."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

from app.push import store
from app.push.keys import load_vapid
from app.push.sender import PushSender
from app.push.turns import TurnNotifier
from app.rooms.deadlines import TurnScheduler
from tests.push.test_push import Browser, push_service  # noqa: F401 - the fixture
from tests.rooms.test_turn_based import Clock, kniffel_turn
from tests.support.room_service import service_room

TWELVE_HOURS = {"pace": "turns", "turn_deadline_hours": "12"}


async def _nothing(room_id: int, code: str) -> None:
    """No deadline is played here."""


async def test_your_turn_and_a_reminder_reach_the_waiting_player_once_in_their_language(
        database_url: str, tmp_path: Path, push_service) -> None:  # noqa: F811
    clock = Clock()
    open_here: set[str] = set()
    async with service_room(database_url, "kniffel", ["Anna", "Bram"], options=TWELVE_HOURS,
                            clock=clock) as room:
        db = room.service.db
        browsers = {}
        for player, lang in zip(room.players, ("nl", "de"), strict=True):
            browsers[player] = Browser(f"{push_service.origin}/sub/{lang}")
            keys = browsers[player].to_json()["keys"]
            async with db.sessionmaker() as session:
                await store.subscribe(session, player, browsers[player].endpoint,
                                      keys["p256dh"], keys["auth"], lang)
        notifier = TurnNotifier(db, clock, lambda code: frozenset(open_here))
        rounds = TurnScheduler(db, clock, _nothing, notifier.notify)
        sender = PushSender(db, load_vapid("", tmp_path), "mailto:t@example.org", clock=clock)
        await room.room_action(room.players[0], "start")
        state = await room.state()
        first = next(p for p in room.players
                     if state.seat_of(p).id == state.game_state.current)
        open_here.add(first)  # the first player has the room open: no push for them
        await rounds.round()
        assert await sender.send_due() == 0
        open_here.clear()
        other = next(p for p in room.players if p != first)
        clock.advance(minutes=2)
        await kniffel_turn(room, first)  # now the other waits
        await rounds.round()
        assert await sender.send_due() == 1
        await rounds.round()  # decided once
        assert await sender.send_due() == 0
        names = {room.players[0]: "Anna", room.players[1]: "Bram"}
        texts = {"nl": "%s heeft gespeeld; jij bent aan de beurt in Kniffel",
                 "de": "%s hat gespielt; du bist dran in Kniffel"}
        lang = "nl" if other == room.players[0] else "de"
        path, _headers, body = push_service.received[-1]
        assert path == f"/sub/{lang}"
        assert browsers[other].decrypt(body) == {
            "title": "Knobel · Kniffel", "body": texts[lang] % names[first],
            "url": f"/r/{room.code}", "tag": f"turn-{room.code}"}
        clock.advance(hours=9)  # three hours before the deadline: the reminder
        await rounds.round()
        assert await sender.send_due() == 1
        reminder = browsers[other].decrypt(push_service.received[-1][2])["body"]
        assert reminder == {"nl": "Jij bent aan de beurt in Kniffel: nog ongeveer 3 uur.",
                            "de": "Du bist dran in Kniffel: noch etwa 3 Std."}[lang]
        clock.advance(hours=1)
        await rounds.round()
        assert await sender.send_due() == 0
        assert len(push_service.received) == 2
        assert timedelta(0) < (await room.state()).turns.waits[
            (await room.state()).seat_of(other).id].due - clock.now
