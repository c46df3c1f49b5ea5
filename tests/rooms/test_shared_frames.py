"""One render per version (issue 28): every viewer of a room in step gets the very same shared
frame for a version, exactly what a spectator gets; a seated player's own parts come in a
frame of its own; a page that swaps every frame it is sent (keeping its own parts in shared
frames, as static/js/app.js does) shows what a freshly loaded page shows; nobody but the
player on turn is ever sent the hint button.

The room state is built in memory and rendered the way the hub renders it
(``RoomRenderer``); the pages are strings swapped the way htmx swaps them
(``tests/support/fragments.py``)."""

from __future__ import annotations

import random
import re

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from app.i18n import use_language
from app.rooms.games.base import Event
from app.web.part_cache import PartCache
from app.web.room_frames import KEPT, SHARED, RoomRenderer
from app.web.room_view import live_context, part_template, render_update
from tests.rooms.games.kniffel import test_live_parts as kniffel_parts
from tests.rooms.test_live_parts import KNISTER, LIVE_OPEN, T0
from tests.rooms.test_live_parts import _room as knister_room
from tests.rooms.test_live_parts import _step as knister_step
from tests.support.fragments import apply, own_ids, top_level

OPEN_CELL = re.compile(r"<button[^>]*data-cell=")  # a cell of your own grid to tap
WATCHER = "watcher"  # a viewer without a seat: what it gets is what everyone may see


def _normal(page: str) -> str:
    return LIVE_OPEN.sub("", page)


def play(state, step, rng: random.Random, lang: str, steps: int, on_frames=None) -> dict:
    """Play ``step`` up to ``steps`` times; after each, deliver to every seat and a watcher
    as the hub does and check each page against a fresh one. Returns counts of frames."""
    renderer = RoomRenderer(PartCache())
    viewers = [s.player_id for s in state.seats] + [WATCHER]
    online = frozenset(viewers[:-1])
    pages, delivered = {}, {}
    for v in viewers:
        frames, delivered[v] = renderer.update(state, v, lang, online)
        (pages[v],) = frames  # a page with nothing yet gets the whole live area
    counts = {"shared": 0, "shared_to": 0, "own": 0, "alone": 0}
    for n in range(steps):
        playing = step(state, rng, n)
        if n % 7 == 3:  # someone drops off and comes back: presence changes
            online = online ^ {rng.choice(viewers[:-1])}
        sent = {}
        for v in viewers:
            frames, delivered[v] = renderer.update(state, v, lang, online, delivered[v])
            sent[v] = frames
            for frame in frames:
                if frame is not frames[0] and frames[0].startswith(SHARED):
                    # the own frame after a shared one changes something the page shows:
                    # the server knew what the shared frame did to this page
                    changed = [i for i, element in top_level(frame) if i != "own-parts"
                               and element.replace(' hx-swap-oob="true"', "", 1)
                               not in pages[v]]
                    assert changed or all(i == "own-parts" for i, _ in top_level(frame)), \
                        (n, v, frame[:300])
                pages[v] = apply(pages[v], frame, SHARED)
            fresh, _ = render_update(state, v, lang, online)  # a page loaded now
            assert _normal(pages[v]) == _normal(fresh), (n, v)
            assert "<b>" not in "".join(frames)  # names stay escaped
        if on_frames:
            on_frames(state, sent)
        if n % 5 == 0:  # every part names the elements its macro renders (Part.elements)
            with use_language(lang):
                context = live_context(state, viewers[0], online, renderer.parts)
                for part in context["room_parts"] + (context["game_parts"] or []):
                    html = renderer.parts.render(state.code, part, part_template(state, part))
                    ids = tuple(i for i, _ in top_level(html))
                    assert ids == part.element_ids() or not html.strip(), (part.id, ids)
        shared = [f for frames in sent.values() for f in frames if f.startswith(SHARED)]
        if shared:
            counts["shared"] += 1
            counts["shared_to"] += len(shared)
            # one frame object, the same bytes for all, and exactly the watcher's
            assert all(f is shared[0] for f in shared)
            assert sent[WATCHER] == (shared[0],)
        for frames in sent.values():
            counts["own"] += sum(not f.startswith(SHARED) and 'id="live"' not in f
                                 for f in frames)
            counts["alone"] += sum('id="live"' in f for f in frames)
        if not playing:
            break
    return counts


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32), seats=st.integers(1, 4), timer=st.sampled_from([0, 30]),
       lang=st.sampled_from(["en", "nl", "de"]))
def test_knister_pages_in_step_share_one_frame(seed: int, seats: int, timer: int,
                                               lang: str) -> None:
    state = knister_room(seats, timer)
    counts = play(state, knister_step, random.Random(seed), lang, 60)
    assert counts["shared"] > 0


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32), kind=st.sampled_from(["kniffel", "kitkniff", "yatzy"]),
       seats=st.integers(1, 4), columns=st.sampled_from([1, 2]),
       lang=st.sampled_from(["en", "nl", "de"]))
def test_kniffel_pages_in_step_share_one_frame(seed, kind, seats, columns, lang) -> None:
    state = kniffel_parts._room(kind, seats, 0, columns)
    state.game_state.hints = True  # the option "hints": a hint button for the player on turn

    def only_the_player_on_turn_gets_the_hint(state, sent) -> None:
        on_turn = next((s.player_id for s in state.seats
                        if s.id == state.game_state.current), None)
        for viewer, frames in sent.items():
            if viewer != on_turn:
                assert not any('data-action="show-hint"' in f for f in frames), viewer

    counts = play(state, kniffel_parts._step, random.Random(seed), lang, 50,
                  only_the_player_on_turn_gets_the_hint)
    assert counts["shared"] > 0


def _table(seats: int):
    """A Knister room of ``seats`` seats (all online) and a watcher, each page delivered the
    room once: ``(state, renderer, viewers, online, delivered)``."""
    state = knister_room(seats, 0)
    renderer = RoomRenderer(PartCache())
    viewers = [s.player_id for s in state.seats] + [WATCHER]
    online = frozenset(viewers[:-1])
    delivered = {v: renderer.update(state, v, "en", online)[1] for v in viewers}
    return state, renderer, viewers, online, delivered


def test_a_knister_placement_is_one_shared_frame_and_the_placer_own() -> None:
    """8 seats: after a roll, a placement reaches the seven others as the shared frame only,
    and the placer as the shared frame and its own (its grid and turn panel)."""
    state, renderer, viewers, online, delivered = _table(8)
    knister_step(state, random.Random(1), 0)  # the roll: a shared frame, and each seat's own grid
    roll = {v: renderer.update(state, v, "en", online, delivered[v]) for v in viewers}
    delivered = {v: found[1] for v, found in roll.items()}
    assert all(len(roll[v][0]) == 2 for v in viewers[:-1]) and len(roll[WATCHER][0]) == 1
    assert all(roll[v][0][0] is roll[WATCHER][0][0] for v in viewers)
    gs = state.game_state
    placer = next(s for s in state.seats if s.id == gs.order[0])
    KNISTER.apply(gs, Event("place", {"cell": [0, 0], "value": gs.current_sum, "auto": False},
                            placer.id, T0))
    state.version += 1
    sent = {v: renderer.update(state, v, "en", online, delivered[v])[0] for v in viewers}
    shared = sent[WATCHER][0]
    assert shared.startswith(SHARED) and f'id="sheet-grid-{placer.id}"' in shared
    assert "data-cell" not in shared  # the placer's grid as everyone else sees it
    for v in viewers:
        assert sent[v][0] is shared
        if v != placer.player_id:
            assert len(sent[v]) == 1, v  # nothing of their own changed
    own = sent[placer.player_id][1]
    # its grid as its own; its turn panel, its own while it could place, now as everyone's
    assert [i for i, _ in top_level(own)] == ["knister-turn", f"sheet-grid-{placer.id}",
                                               "own-parts"]
    assert "data-cell" in own and 'data-ids="seats sheet-grid-100"' in own
    assert f"sheet-grid-{placer.id}" in own_ids(render_update(state, placer.player_id,
                                                              "en", online)[0])


def test_a_page_that_lost_its_own_frame_gets_its_own_parts_on_hello() -> None:
    """The connection dropped between a version's shared frame and the page's own frame
    (a fresh Chromium test's finding: after going offline during a roll, the page showed the
    dice but no cell to tap): its hello says the version and lists its own parts as they
    were; it is sent its own parts again, and then shows what a fresh page shows."""
    state = knister_room(3, 0)
    renderer = RoomRenderer(PartCache())
    online = frozenset(s.player_id for s in state.seats)
    page, have = renderer.update(state, "p1", "en", online)
    (page,) = page
    knister_step(state, random.Random(2), 0)  # the roll
    frames, _ = renderer.update(state, "p1", "en", online, have)
    shared, own = frames
    assert shared.startswith(SHARED) and OPEN_CELL.search(own)
    page = apply(page, shared, SHARED)  # ... and the own frame never came
    assert not OPEN_CELL.search(page)
    frames, _ = renderer.refresh(state, "p1", "en", online, frozenset(own_ids(page)))
    for frame in frames:
        page = apply(page, frame, SHARED)
    assert _normal(page) == _normal(render_update(state, "p1", "en", online)[0])


def test_a_kniffel_column_is_kept_cell_by_cell_while_it_is_the_players_own() -> None:
    """A part can be several elements (a Kniffel column: one per cell); the page lists them
    all, so a shared frame leaves every cell of its own column alone (the browser's focus
    stays on the box it scored until its own frame comes: tests/web/test_keyboard_browser)."""
    state = kniffel_parts._room("kniffel", 2, 0, 1)
    renderer = RoomRenderer(PartCache())
    online = frozenset(s.player_id for s in state.seats)
    plugin, gs = state.plugin, state.game_state
    anna = next(s for s in state.seats if s.id == gs.current)
    (page,), have = renderer.update(state, anna.player_id, "en", online)

    def act(message: dict, faces=()) -> tuple[str, ...]:
        nonlocal have
        for event in plugin.decide(gs, anna.id, message, lambda k: list(faces)[:k]):
            plugin.apply(gs, Event(event.type, event.payload, event.seat_id, T0))
        state.version += 1
        frames, have = renderer.update(state, anna.player_id, "en", online, have)
        return frames

    for frame in act({"type": "roll"}, [2, 3, 4, 5, 6]):
        page = apply(page, frame, SHARED)
    listed = own_ids(page)
    assert f"cell-{anna.id}-0-chance" in listed and f"offer-{anna.id}-0-chance" in listed
    shared, own = act({"type": "score", "box": "chance"})
    assert f'id="cell-{anna.id}-0-chance"' in shared  # the spectator's new cell ...
    kept = apply(page, shared, SHARED)
    assert f'<button id="offer-{anna.id}-0-chance"' in kept  # ... left alone on her page
    page = apply(kept, own, SHARED)
    assert 'id="offer-' not in page.split(f'id="cell-{anna.id}-0-chance"', 1)[1][:200]
    assert _normal(page) == _normal(render_update(state, anna.player_id, "en", online)[0])


def play_missing(state, step, rng: random.Random, lang: str, steps: int) -> dict:
    """Like ``play``, but each page is left out of a delivery now and then (the server fell
    behind, its next delivery jumps versions): pages that stand at the same earlier
    spectator page get one shared frame object from there, and every page delivered shows
    what a fresh page shows. Returns counts of deliveries that jumped versions."""
    renderer = RoomRenderer(PartCache())
    viewers = [s.player_id for s in state.seats] + [WATCHER]
    online = frozenset(viewers[:-1])
    pages, delivered, behind = {}, {}, dict.fromkeys(viewers, 0)
    for v in viewers:
        (pages[v],), delivered[v] = renderer.update(state, v, lang, online)
    counts = {"jumps": 0, "shared": 0, "too_far": 0}
    for n in range(steps):
        playing = step(state, rng, n)
        by_since: dict[int, list[str]] = {}
        for v in viewers:
            if rng.random() < 0.4 and behind[v] < KEPT + 2:
                behind[v] += 1  # this page misses the version
                continue
            have = delivered[v]
            frames, delivered[v] = renderer.update(state, v, lang, online, have)
            if behind[v] and have is not None:
                counts["jumps"] += 1
                if frames and frames[0].startswith(SHARED):
                    counts["shared"] += 1
                    by_since.setdefault(id(have.stream), []).append(frames[0])
                elif behind[v] >= KEPT:
                    counts["too_far"] += 1
            elif frames and frames[0].startswith(SHARED):
                by_since.setdefault(id(have.stream), []).append(frames[0])
            behind[v] = 0
            for frame in frames:
                pages[v] = apply(pages[v], frame, SHARED)
            fresh, _ = render_update(state, v, lang, online)
            assert _normal(pages[v]) == _normal(fresh), (n, v)
        for frames in by_since.values():  # one frame object for pages standing alike
            assert all(f is frames[0] for f in frames)
        if not playing:
            break
    return counts


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32), seats=st.integers(2, 4),
       lang=st.sampled_from(["en", "nl", "de"]))
def test_knister_pages_that_missed_versions_share_the_frame_from_where_they_stand(
        seed: int, seats: int, lang: str) -> None:
    counts = play_missing(knister_room(seats, 0), knister_step, random.Random(seed), lang, 60)
    assert counts["shared"] > 0


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32), kind=st.sampled_from(["kniffel", "kitkniff", "yatzy"]),
       seats=st.integers(2, 4), lang=st.sampled_from(["en", "nl", "de"]))
def test_kniffel_pages_that_missed_versions_share_the_frame_from_where_they_stand(
        seed, kind, seats, lang) -> None:
    state = kniffel_parts._room(kind, seats, 0, 1)
    counts = play_missing(state, kniffel_parts._step, random.Random(seed), lang, 50)
    assert counts["shared"] > 0


def test_a_page_two_versions_behind_gets_the_same_shared_frame_as_the_others() -> None:
    """Three Knister placements land while the server delivers nothing (it was behind); then
    every page of the room, all three versions behind, gets one shared frame, the very same
    object as the watcher's, and only the placers their own frames."""
    state, renderer, viewers, online, delivered = _table(4)
    knister_step(state, random.Random(3), 0)  # the roll, delivered to everyone
    delivered = {v: renderer.update(state, v, "en", online, delivered[v])[1] for v in viewers}
    gs = state.game_state
    placers = []
    for cell in ([0, 0], [0, 1], [0, 2]):  # three seats place; nothing is delivered
        seat = next(s for s in gs.order if s not in gs.placed)
        placers.append(next(s.player_id for s in state.seats if s.id == seat))
        KNISTER.apply(gs, Event("place", {"cell": cell, "value": gs.current_sum, "auto": False},
                                seat, T0))
        state.version += 1
        renderer.update(state, WATCHER, "en", online, None)  # the room's stream moves on
    sent = {v: renderer.update(state, v, "en", online, delivered[v])[0] for v in viewers}
    shared = sent[WATCHER][0]
    assert shared.startswith(SHARED) and sent[WATCHER] == (shared,)
    assert all(sent[v][0] is shared for v in viewers)
    assert [v for v in viewers if len(sent[v]) > 1] == placers
