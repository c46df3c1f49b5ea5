"""Kniffel-family partial live updates are exact (the check of tests/rooms/test_live_parts.py
over random turns: rolls, holds, scores and leaves), and a hold sends only the turn panel."""

from __future__ import annotations

import random
import re
from datetime import timedelta

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from app.rooms.games import get_game
from app.rooms.games.base import Event
from app.rooms.state import GameInfo, RoomState, SeatInfo
from app.web.room_view import render_update
from tests.rooms.test_live_parts import T0, check_partial_updates


def _room(kind: str, seats: int, timer: int, columns: int) -> RoomState:
    game = get_game(kind)
    infos = [SeatInfo(id=200 + i, player_id=f"p{i}", name=f"<b>P{i}</b>", position=i,
                      status="active", label=f"<b>P{i}</b>") for i in range(seats)]
    options = {**game.default_options(), "timer": timer, "columns": columns}
    seat_ids = [s.id for s in infos]
    info = GameInfo(id=9, number=1, kind=kind, options=options, seat_ids=seat_ids,
                    status="playing", totals={}, started_at=T0)
    return RoomState(id=2, code="PARTS2", kind=kind, options=options, host_player_id="p0",
                     status="playing", version=3, seats=infos, games=[info],
                     game_state=game.new_state(options, seat_ids, 0))


def _step(state: RoomState, rng: random.Random, n: int) -> bool:
    """One random legal action of the player on turn (roll, hold or score), or rarely a
    seat leaving."""
    plugin, gs = state.plugin, state.game_state
    at = T0 + timedelta(seconds=n)
    seat = gs.current
    if len(gs.active) > 1 and rng.random() < 0.02:
        leaver = rng.choice(gs.active)
        events = plugin.remove_seat(gs, leaver)
        next(s for s in state.seats if s.id == leaver).status = "left"
    elif gs.turn.rolls == 0 or (gs.turn.rolls < 3 and gs.turn.can_roll and rng.random() < .4):
        events = plugin.decide(gs, seat, {"type": "roll"},
                               lambda k: [rng.randint(1, 6) for _ in range(k)])
    elif gs.turn.rolls < 3 and rng.random() < 0.5:
        die = rng.randrange(5)
        events = plugin.decide(gs, seat, {"type": "hold", "die": die,
                                          "held": not gs.turn.held[die]}, lambda k: [])
    else:
        card = gs.card(seat)
        box = rng.choice([b for b, v in card.boxes.items() if v is None])
        events = plugin.decide(gs, seat, {"type": "score", "box": box}, lambda k: [])
    for event in events:
        plugin.apply(gs, Event(event.type, event.payload, event.seat_id, at))
    state.version += 1
    return not plugin.is_over(gs)


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32), kind=st.sampled_from(["kniffel", "kitkniff", "yatzy"]),
       seats=st.integers(1, 4), timer=st.sampled_from([0, 60]), columns=st.sampled_from([1, 2]),
       lang=st.sampled_from(["en", "nl", "de"]))
def test_partial_updates_rebuild_the_fresh_page(seed, kind, seats, timer, columns, lang):
    state = _room(kind, seats, timer, columns)
    played = check_partial_updates(state, _step, random.Random(seed), lang, steps=50)
    assert played == 50 or state.plugin.is_over(state.game_state), played


def test_a_hold_sends_only_the_turn_panel() -> None:
    state = _room("kniffel", 3, 0, 1)
    plugin, gs = state.plugin, state.game_state
    viewers = [s.player_id for s in state.seats]
    online = frozenset(viewers)
    for event in plugin.decide(gs, gs.current, {"type": "roll"}, lambda k: [2, 3, 4, 5, 6]):
        plugin.apply(gs, Event(event.type, event.payload, event.seat_id, T0))
    state.version += 1
    delivered = {v: render_update(state, v, "en", online)[1] for v in viewers}
    for event in plugin.decide(gs, gs.current, {"type": "hold", "die": 0, "held": True},
                               lambda k: []):
        plugin.apply(gs, Event(event.type, event.payload, event.seat_id, T0))
    state.version += 1
    for v in viewers:
        update, _ = render_update(state, v, "en", online, delivered[v])
        assert set(re.findall(r' id="([\w-]+)"', update)) == {"live-version", "kniffel-turn"}
        assert 'data-die="0" data-held="true"' in update


def test_the_same_turn_of_another_game_has_another_sheet_key() -> None:
    # a rematch reaches the same turn numbers with other points: its sheet must not be taken
    # from the cache of rendered parts of the room's previous game
    keys = []
    for faces in ([2, 2, 3, 3, 4], [6, 6, 6, 6, 6]):
        state = _room("kniffel", 1, 0, 1)
        plugin, gs = state.plugin, state.game_state
        seat = gs.current
        for event in plugin.decide(gs, seat, {"type": "roll"}, lambda k, f=faces: f[:k]):
            plugin.apply(gs, event)
        for event in plugin.decide(gs, seat, {"type": "score", "box": "chance"}, lambda k: []):
            plugin.apply(gs, event)
        view = plugin.view(gs, seat)
        (sheet,) = [p for p in plugin.parts(view, seat, {seat: "A"}) if p.id == "kniffel-sheet"]
        keys.append(sheet.key)
    assert keys[0] != keys[1]


def _apply(state: RoomState, seat, action: dict, faces: list[int] | None = None) -> None:
    plugin, gs = state.plugin, state.game_state
    for event in plugin.decide(gs, seat, action, lambda k: (faces or [])[:k]):
        plugin.apply(gs, Event(event.type, event.payload, event.seat_id, T0))
    state.version += 1


def test_a_roll_sends_the_offers_and_a_score_two_columns_not_the_whole_sheet() -> None:
    # the sheet (every player's column, ~26 KB for 8 players) was re-sent to every page on
    # every roll because it holds the offers; now a roll sends only the offer of each open
    # box of the column on turn (a button for the player on turn, grey figures for the others)
    state = _room("kniffel", 8, 0, 1)
    gs = state.game_state
    viewers = [s.player_id for s in state.seats] + ["watcher"]
    online = frozenset(viewers[:-1])
    seat = gs.current
    on_turn = next(s.player_id for s in state.seats if s.id == seat)
    _apply(state, seat, {"type": "roll"}, [2, 3, 4, 5, 6])
    delivered = {v: render_update(state, v, "en", online)[1] for v in viewers}
    whole = len(render_update(state, "watcher", "en", online)[0])
    _apply(state, seat, {"type": "roll"}, [1, 1, 1, 1, 1])  # the second roll: five ones
    for v in viewers:
        update, delivered[v] = render_update(state, v, "en", online, delivered[v])
        ids = set(re.findall(r' id="([\w-]+)"', update))
        assert "kniffel-sheet" not in ids
        assert {f"offer-{seat}-0-{box}" for box in ("ones", "yahtzee", "chance")} <= ids
        assert len(ids) == 2 + 13  # the version, the turn panel and the 13 open boxes
        assert f'id="offer-{seat}-0-yahtzee" class="' in update
        assert 'data-box="yahtzee" data-points="50"' in update
        assert ('ws-send' in update) == (v == on_turn)  # only the player on turn can score
        assert len(update) < whole / 2
    _apply(state, seat, {"type": "score", "box": "yahtzee"})
    after = gs.current
    for v in viewers:
        update, delivered[v] = render_update(state, v, "en", online, delivered[v])
        ids = re.findall(r' id="([\w-]+)"', update)
        # a score sends the columns of the seat that scored and of the seat now on turn
        assert "kniffel-sheet" not in ids and len(ids) == len(set(ids))
        # table cells first: htmx parses a message in a <template>, where a <td> after a
        # <div> would be dropped
        assert update.startswith("<th id=")
        heads = {i for i in ids if i.startswith("sheet-head-")}
        assert heads == {f"sheet-head-{seat}", f"sheet-head-{after}"}
        assert {i.split("-")[1] for i in ids if i.startswith("cell-")} == {str(seat), str(after)}
        assert re.search(f'id="cell-{seat}-0-yahtzee" class="box-cell last[^"]*"[^>]*'
                         'data-filled="yahtzee" data-value="50"', update)
        # the next player's open boxes: empty offer slots, inside their cells
        assert f'id="offer-{after}-0-chance" class="offer-none"' in update
        assert len(update) < whole / 2
