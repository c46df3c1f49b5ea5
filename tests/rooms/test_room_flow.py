"""Room rules through the room service on the test databases (issue 11, parts 2 and 3).

Turn order across leaves, removals, rejoins and a restart; the host hand-over when the host
is away outside a game; away players' countdowns; timers armed and fired by the service's
own scheduling (a clock the test moves, no fixed sleeps).
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from app.rooms.dice import DiceSource
from app.rooms.errors import RoomError
from app.rooms.games.kniffel import AWAY_GRACE
from app.rooms.games.knister import AWAY_ROLLER_GRACE
from app.rooms.rules import HOST_GRACE
from app.rooms.service import RoomService
from app.store.db import Database
from tests.support.room_service import act_as
from tests.support.waiting import until_async


class Harness:
    """A ``RoomService`` on the test database with a movable clock and a presence set, whose
    published versions are recorded (as the hub would receive them)."""

    def __init__(self, settings, online: set[str]) -> None:
        self.now = datetime.now(UTC)
        self.online = online
        self.away: dict[str, datetime] = {}
        self.published: list[int] = []
        self.dice = DiceSource(allow_loaded=True)
        self.db = Database(settings.database_url)
        self.settings = settings
        self.service = self._service()

    def _service(self) -> RoomService:
        async def publish(code: str, version: int, delta: str | None = None) -> None:
            self.published.append(version)

        return RoomService(self.db, publish, self.dice,
                           online=lambda code: frozenset(self.online),
                           away_since=lambda code: self.away, clock=lambda: self.now)

    def go_away(self, code: str, player: str) -> None:
        """``player`` closes their last tab now."""
        self.online.discard(player)
        self.away[player] = self.now
        self.service.presence_changed(code)

    async def restart(self) -> None:
        """A new service on the same database: state comes back from the event log."""
        self.service.close()
        self.service = self._service()

    async def advance(self, seconds: float, code: str, fires: bool) -> None:
        """Move the clock. When something is due (``fires``), the service's own timer,
        re-armed for the new time as a presence change does, must apply it: wait (bounded)
        for the version it publishes. Otherwise ask the service to apply what is due and
        check that it published nothing."""
        self.now += timedelta(seconds=seconds)
        before = len(self.published)
        if fires:
            self.service.presence_changed(code)
            await until_async(lambda: len(self.published) > before,
                              "the timer publishes what was due", 5, every=0.01)
            async with self.service.lock(code):  # the timer's write has finished
                pass
        else:
            await self.service.fire_timer(code)
            assert len(self.published) == before, "something was done before it was due"

    async def state(self, code: str):
        return await self.service.current(code)

    async def close(self) -> None:
        self.service.close()
        await self.db.dispose()


@pytest.fixture
async def harness(settings):
    h = Harness(settings, {"p-ann", "p-bob", "p-cat", "p-dan"})
    yield h
    await h.close()


async def _room(h: Harness, game: str, names=("Ann", "Bob", "Cat", "Dan")) -> str:
    code = await h.service.create_room(f"p-{names[0].lower()}", names[0], game)
    for name in names[1:]:
        await h.service.join(code, f"p-{name.lower()}", name)
    return code


async def _roll_and_place(h: Harness, code: str, dice: list[int]) -> int:
    """The roller rolls ``dice``; every active seat places in its first empty cell; returns
    the roller's seat id."""
    state = await h.state(code)
    roller = state.game_state.roller
    player = state.seat(roller).player_id
    h.dice.load(code, dice)
    await act_as(h.service, code, player, {"type": "roll"})
    state = await h.state(code)
    for seat in state.game_state.active:
        grid = state.game_state.sheets[seat].grid
        r, c = next((r, c) for r in range(5) for c in range(5) if grid[r][c] is None)
        await act_as(h.service, code, state.seat(seat).player_id,
                     {"type": "place", "cell": f"{r},{c}"})
    return roller


async def test_knister_roller_after_leave_remove_restart_and_rejoin(harness) -> None:
    h = harness
    code = await _room(h, "knister")
    await act_as(h.service, code, "p-ann", {"type": "start"})
    seats = {s.name: s.id for s in (await h.state(code)).seats}
    ann, bob, cat, dan = (seats[n] for n in ("Ann", "Bob", "Cat", "Dan"))
    assert [await _roll_and_place(h, code, [1, 2]) for _ in range(5)] == [
        ann, bob, cat, dan, ann]
    await act_as(h.service, code, "p-cat", {"type": "leave"})  # after Ann: Bob (not Cat)
    assert (await h.state(code)).game_state.roller == bob
    assert await _roll_and_place(h, code, [3, 3]) == bob
    await act_as(h.service, code, "p-ann", {"type": "remove", "target": dan})  # Dan was next
    assert (await h.state(code)).game_state.roller == ann
    with pytest.raises(RoomError) as err:  # a rejoin during the game is refused
        await h.service.join(code, "p-cat", "Cat")
    assert err.value.code == "game_running"
    await h.restart()  # from the event log alone
    assert (await h.state(code)).game_state.roller == ann
    rollers = [await _roll_and_place(h, code, [2, 2]) for _ in range(25 - 6)]
    assert rollers == [ann, bob] * 9 + [ann]
    state = await h.state(code)
    assert state.status == "finished"
    # the next game, with Cat back (she left); Dan, whom the host removed, may not sit down
    # again (docs/rules.md, "Leaving and removing"): everyone in seat order from the next
    # start player
    await act_as(h.service, code, "p-ann", {"type": "rematch"})
    await h.service.join(code, "p-cat", "Cat")
    with pytest.raises(RoomError) as err:
        await h.service.join(code, "p-dan", "Dan")
    assert err.value.code == "removed"
    await act_as(h.service, code, "p-ann", {"type": "start"})
    state = await h.state(code)
    assert state.game_state.order == [bob, cat, ann]
    assert [await _roll_and_place(h, code, [6, 5]) for _ in range(5)] == [
        bob, cat, ann, bob, cat]


async def test_kniffel_next_player_after_the_player_on_turn_leaves(harness) -> None:
    h = harness
    code = await _room(h, "kniffel", ("Ann", "Bob", "Cat"))
    await act_as(h.service, code, "p-ann", {"type": "start"})
    seats = {s.name: s.id for s in (await h.state(code)).seats}
    h.dice.load(code, [1, 1, 1, 1, 1])
    await act_as(h.service, code, "p-ann", {"type": "roll"})
    await act_as(h.service, code, "p-ann", {"type": "score", "box": "ones"})
    h.dice.load(code, [2, 2, 2, 2, 2])
    await act_as(h.service, code, "p-bob", {"type": "roll"})
    await act_as(h.service, code, "p-bob", {"type": "leave"})  # Bob leaves on turn
    state = await h.state(code)
    assert state.game_state.current == seats["Cat"]
    await h.restart()
    assert (await h.state(code)).game_state.current == seats["Cat"]


async def test_an_away_host_hands_over_in_the_lobby_and_the_new_host_starts(harness) -> None:
    h = harness
    code = await _room(h, "knister", ("Ann", "Bob", "Cat"))
    seats = {s.name: s.id for s in (await h.state(code)).seats}
    h.go_away(code, "p-ann")
    state = await h.state(code)
    due, heir = state.host_handoff
    assert (due - h.now, heir.id) == (timedelta(seconds=30), seats["Bob"])
    await h.advance(29, code, fires=False)
    assert (await h.state(code)).host_player_id == "p-ann"
    with pytest.raises(RoomError) as err:
        await act_as(h.service, code, "p-bob", {"type": "start"})
    assert err.value.code == "not_host"
    await h.advance(2, code, fires=True)  # the service's own timer hands over
    state = await h.state(code)
    assert state.host_player_id == "p-bob" and state.host_handoff is None
    h.online.add("p-ann")  # coming back does not take it back
    h.service.presence_changed(code)
    await h.advance(60, code, fires=False)
    assert (await h.state(code)).host_player_id == "p-bob"
    await act_as(h.service, code, "p-bob", {"type": "start"})
    assert (await h.state(code)).status == "playing"


async def test_the_host_grace_runs_from_when_the_host_left_not_from_the_load(harness) -> None:
    h = harness
    code = await _room(h, "knister", ("Ann", "Bob"))
    assert (await h.state(code)).host_handoff is None  # loaded now, the host online
    h.now += timedelta(seconds=100)
    h.go_away(code, "p-ann")
    due, heir = (await h.state(code)).host_handoff
    assert (due - h.now, heir.player_id) == (timedelta(seconds=30), "p-bob")
    await h.advance(29, code, fires=False)
    assert (await h.state(code)).host_player_id == "p-ann"
    await h.advance(1, code, fires=True)
    assert (await h.state(code)).host_player_id == "p-bob"


async def test_no_host_hand_over_countdown_during_a_running_game(harness) -> None:
    h = harness
    code = await _room(h, "knister", ("Ann", "Bob"))
    await act_as(h.service, code, "p-ann", {"type": "start"})
    h.go_away(code, "p-ann")
    assert (await h.state(code)).host_handoff is None
    h.dice.load(code, [2, 3])
    await h.advance(max(HOST_GRACE, AWAY_ROLLER_GRACE).total_seconds() + 1, code, fires=True)
    state = await h.state(code)
    assert state.game_state.rolls == [(2, 3)]  # the game's own timer rolled for Ann
    assert (state.host_player_id, state.host_handoff) == ("p-ann", None)


async def test_an_away_host_skips_away_seats_and_stays_without_anyone_present(harness) -> None:
    h = harness
    code = await _room(h, "knister", ("Ann", "Bob", "Cat"))
    seats = {s.name: s.id for s in (await h.state(code)).seats}
    h.go_away(code, "p-bob")
    h.go_away(code, "p-ann")
    assert (await h.state(code)).host_handoff[1].id == seats["Cat"]  # Bob is away too
    h.go_away(code, "p-cat")
    assert (await h.state(code)).host_handoff is None  # nobody to hand over to
    await h.advance(120, code, fires=False)
    assert (await h.state(code)).host_player_id == "p-ann"


async def test_the_host_hands_over_on_the_result_screen_too(harness) -> None:
    h = harness
    code = await _room(h, "knister", ("Ann", "Bob"))
    await act_as(h.service, code, "p-ann", {"type": "start"})
    for _ in range(25):
        await _roll_and_place(h, code, [1, 1])
    assert (await h.state(code)).status == "finished"
    h.go_away(code, "p-ann")
    await h.advance(31, code, fires=True)
    state = await h.state(code)
    assert state.host_player_id == "p-bob"
    await act_as(h.service, code, "p-bob", {"type": "rematch"})
    assert (await h.state(code)).status == "lobby"


async def test_away_knister_roller_has_a_countdown_and_is_rolled_for_by_the_timer(
        harness) -> None:
    h = harness
    code = await _room(h, "knister", ("Ann", "Bob"))
    await act_as(h.service, code, "p-ann", {"type": "start"})
    seats = {s.name: s.id for s in (await h.state(code)).seats}
    h.go_away(code, "p-ann")  # Ann is the first roller
    state = await h.state(code)
    assert set(state.away_due) == {seats["Ann"]}
    # grace from the game's start (stamped by the database a moment after the test's clock)
    assert timedelta(0) <= state.away_due[seats["Ann"]] - AWAY_ROLLER_GRACE - h.now < timedelta(
        seconds=5)
    h.dice.load(code, [4, 5])
    # the clock moves from the stamped deadline, not from the test's start: on a busy machine
    # the game starts seconds after the test's clock was read, and a clock moved by the grace
    # alone stayed short of the deadline (the timer then never found anything due)
    due = state.away_due[seats["Ann"]]
    await h.advance((due - h.now).total_seconds() - 6, code, fires=False)
    await h.advance(7, code, fires=True)
    state = await h.state(code)
    assert state.game_state.rolls == [(4, 5)]
    assert 0 in state.game_state.auto_rolls
    # now Ann must place the 9, and her countdown is the placement grace
    assert set(state.away_due) == {seats["Ann"]}


async def test_away_kniffel_player_on_turn_is_finished_by_the_timer(harness) -> None:
    h = harness
    code = await _room(h, "kniffel", ("Ann", "Bob"))
    await act_as(h.service, code, "p-ann", {"type": "start"})
    seats = {s.name: s.id for s in (await h.state(code)).seats}
    h.go_away(code, "p-ann")
    state = await h.state(code)
    assert set(state.away_due) == {seats["Ann"]}
    assert timedelta(0) <= state.away_due[seats["Ann"]] - AWAY_GRACE - h.now < timedelta(
        seconds=5)
    h.dice.load(code, [3, 3, 3, 5, 5])
    # the clock moves from the stamped deadline, not from the test's start: on a busy machine
    # the game starts seconds after the test's clock was read, and a clock moved by the grace
    # alone stayed short of the deadline (the timer then never found anything due)
    due = state.away_due[seats["Ann"]]
    await h.advance((due - h.now).total_seconds() - 6, code, fires=False)
    await h.advance(7, code, fires=True)
    state = await h.state(code)
    assert state.game_state.current == seats["Bob"]
    assert state.game_state.cards[seats["Ann"]][0].boxes["full_house"] == 25
    assert state.away_due == {}  # Bob is online


async def test_ready_marks_are_per_seat_idempotent_and_cleared_at_the_start(harness) -> None:
    h = harness
    code = await _room(h, "knister", ("Ann", "Bob", "Cat"))
    await act_as(h.service, code, "p-bob", {"type": "ready", "ready": True})
    version = (await h.state(code)).version
    outcome = await act_as(h.service, code, "p-bob", {"type": "ready", "ready": True})
    assert outcome.version == version  # pressed twice: nothing changes
    with pytest.raises(RoomError) as err:
        await act_as(h.service, code, "p-cat", {"type": "ready"})
    assert err.value.code == "bad_message"
    assert [s.ready for s in (await h.state(code)).seats] == [False, True, False]
    await act_as(h.service, code, "p-ann", {"type": "start"})
    assert [s.ready for s in (await h.state(code)).seats] == [False, False, False]
    with pytest.raises(RoomError) as err:
        await act_as(h.service, code, "p-cat", {"type": "ready", "ready": True})
    assert err.value.code == "game_running"


async def test_in_a_match_only_next_game_and_after_it_only_rematch(harness) -> None:
    h = harness
    code = await _room(h, "knister", ("Ann", "Bob"))
    await act_as(h.service, code, "p-ann", {"type": "options", "match": "3"})
    await act_as(h.service, code, "p-ann", {"type": "start"})
    for number in (1, 2, 3):
        for _ in range(25):
            await _roll_and_place(h, code, [1, 1])
        assert (await h.state(code)).status == "finished"
        kind, wrong, code_wrong = (("next_game", "rematch", "match_running") if number < 3
                                   else ("rematch", "next_game", "match_over"))
        with pytest.raises(RoomError) as err:
            await act_as(h.service, code, "p-ann", {"type": wrong})
        assert err.value.code == code_wrong
        with pytest.raises(RoomError) as err:
            await act_as(h.service, code, "p-bob", {"type": kind})
        assert err.value.code == "not_host"
        await act_as(h.service, code, "p-ann", {"type": kind})
    state = await h.state(code)
    assert state.status == "lobby" and [g.number for g in state.games] == [1, 2, 3]
