"""Who is online in a room, over every process (``app/live/presence.py``): this process's
sockets, other processes' announcements that run out ``ttl`` seconds after they were made,
and since when each player has been away (docs/rules.md, "Away players and timers").

The monotonic clock is the test's; away times are the real UTC time of the change."""

from __future__ import annotations

from datetime import datetime

from app.clock import utcnow
from app.live.presence import Presence

ROOM = "ROOM"


class Clock:
    """Monotonic seconds that move only when the test says."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def _presence(ttl: float = 15.0) -> tuple[Presence, Clock]:
    clock = Clock()
    return Presence(ttl=ttl, clock=clock), clock


def test_a_player_is_online_here_until_their_last_socket_closes() -> None:
    presence, _ = _presence()
    presence.opened(ROOM, "ann")
    presence.opened(ROOM, "ann")  # a second tab
    presence.opened(ROOM, "bob")
    presence.closed(ROOM, "ann")
    assert presence.local(ROOM) == presence.online(ROOM) == {"ann", "bob"}
    presence.closed(ROOM, "ann")
    presence.closed(ROOM, "bob")
    presence.closed(ROOM, "bob")  # a close without an open changes nothing
    presence.closed("OTHER", "bob")
    assert presence.online(ROOM) == frozenset()
    assert presence._local == {}  # nothing kept for an empty room


def test_another_process_announcement_runs_out_after_the_ttl() -> None:
    presence, clock = _presence(ttl=15)
    presence.announced(ROOM, "p2", frozenset({"ann"}))
    assert presence.local(ROOM) == frozenset()
    clock.now += 14.999
    assert presence.online(ROOM) == {"ann"}
    clock.now += 0.001
    assert presence.online(ROOM) == frozenset()  # exactly 15 s after it was made


def test_an_announcement_is_valid_for_15_seconds_by_default() -> None:
    clock = Clock()
    presence = Presence(clock=clock)
    presence.announced(ROOM, "p2", frozenset({"ann"}))
    clock.now += 14.999
    assert presence.online(ROOM) == {"ann"}
    clock.now += 0.001
    assert presence.online(ROOM) == frozenset()


def test_each_announcement_is_valid_for_the_ttl_from_when_it_came() -> None:
    presence, clock = _presence(ttl=15)
    presence.announced(ROOM, "p2", frozenset({"ann"}))
    clock.now += 10
    presence.announced(ROOM, "p2", frozenset({"ann", "bob"}))  # the heartbeat
    assert presence.next_expiry() == clock.now + 15
    clock.now += 14.5
    assert presence.online(ROOM) == {"ann", "bob"}
    clock.now += 0.5
    assert presence.online(ROOM) == frozenset()


def test_an_empty_announcement_withdraws_the_process_at_once() -> None:
    presence, _ = _presence()
    presence.announced(ROOM, "p2", frozenset({"ann"}))
    presence.announced(ROOM, "p3", frozenset({"bob"}))
    presence.announced(ROOM, "p2", frozenset())
    assert presence.online(ROOM) == {"bob"}
    presence.announced(ROOM, "p3", frozenset())
    presence.announced("OTHER", "p3", frozenset())
    assert presence.online(ROOM) == frozenset()
    assert presence._remote == {} and presence.next_expiry() is None


def test_a_player_on_two_processes_stays_online_while_one_announces() -> None:
    presence, clock = _presence(ttl=15)
    presence.opened(ROOM, "cat")
    presence.announced(ROOM, "p2", frozenset({"ann", "cat"}))
    clock.now += 5
    presence.announced(ROOM, "p3", frozenset({"ann"}))
    clock.now += 10  # p2 ran out, p3 has 5 s left
    assert presence.online(ROOM) == {"ann", "cat"}
    assert presence.next_expiry() == 1000.0 + 15  # p2's, not yet dropped


def test_expire_drops_what_ran_out_and_says_who_was_online_before() -> None:
    presence, clock = _presence(ttl=15)
    presence.opened(ROOM, "cat")
    presence.announced(ROOM, "p2", frozenset({"ann"}))
    presence.announced("CALM", "p2", frozenset({"dan"}))
    clock.now += 5
    presence.announced(ROOM, "p3", frozenset({"bob"}))
    presence.announced("CALM", "p2", frozenset({"dan"}))
    assert presence.expire() == []  # nothing ran out yet
    clock.now += 10  # p2's announcement in ROOM has run out
    assert presence.expire() == [(ROOM, frozenset({"ann", "bob", "cat"}))]
    assert presence.expire() == []  # dropped once
    assert presence.online(ROOM) == {"bob", "cat"}
    assert presence.next_expiry() == 1000.0 + 5 + 15
    clock.now += 5
    assert sorted(presence.expire()) == [
        ("CALM", frozenset({"dan"})), (ROOM, frozenset({"bob", "cat"}))]
    assert presence._remote == {} and presence.next_expiry() is None


def test_settle_notes_who_went_away_and_forgets_who_came_back() -> None:
    presence, clock = _presence(ttl=15)
    presence.announced(ROOM, "p2", frozenset({"ann", "bob"}))
    before = presence.online(ROOM)
    assert not presence.settle(ROOM, before)  # nothing changed
    assert presence.away_since(ROOM) == {}
    clock.now += 15
    for code, was in presence.expire():
        started = utcnow()
        assert presence.settle(code, was)
        ended = utcnow()
    away = presence.away_since(ROOM)
    assert set(away) == {"ann", "bob"}
    assert all(isinstance(t, datetime) and started <= t <= ended for t in away.values())
    presence.opened(ROOM, "ann")  # Ann is back, on this process
    assert presence.settle(ROOM, frozenset())
    assert set(presence.away_since(ROOM)) == {"bob"}


def test_forget_drops_what_is_kept_for_a_room() -> None:
    presence, clock = _presence()
    presence.announced(ROOM, "p2", frozenset({"ann"}))
    clock.now += 15
    for code, was in presence.expire():
        presence.settle(code, was)
    presence.announced(ROOM, "p2", frozenset({"bob"}))
    presence.announced("OTHER", "p2", frozenset({"cat"}))
    presence.forget(ROOM)
    assert presence.online(ROOM) == frozenset() and presence.away_since(ROOM) == {}
    assert presence.online("OTHER") == {"cat"}
    presence.forget(ROOM)  # nothing kept: nothing to drop
    presence.forget("NEVER")
