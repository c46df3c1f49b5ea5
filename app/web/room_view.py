"""What a room looks like to one viewer: the context for ``templates/rooms/room.html`` and the
live fragments sent over the socket (htmx out-of-band swaps)."""

from __future__ import annotations

from collections.abc import Hashable
from datetime import datetime
from typing import Any

from markupsafe import escape

from app.i18n import use_language
from app.rooms.dice_check import shown
from app.rooms.games.base import Part
from app.rooms.pass_and_play import present_seats, proxy_seat
from app.rooms.rules import page_basis, ranking
from app.rooms.state import RoomState
from app.web.part_cache import Delivered, PartCache, Shared, Spectator
from app.web.part_sends import assemble, to_send
from app.web.templating import render_block

ROOM_PARTS = "rooms/_parts.html"
ROOM_PART_IDS = frozenset({"live-version", "seats", "acting-for"})


def _frame(state: RoomState, online: frozenset[str], shared: Shared) -> dict[str, Any]:
    """What every viewer of ``state`` is shown alike while ``online`` are online: seat labels,
    the match and its rankings, who is present, the away countdowns and the version marker.
    Built once per room version, presence and countdowns (kept in ``shared``, the state's
    ``SharedViews`` entry)."""
    away_due = {seat: _epoch_ms(due) for seat, due in state.away_due.items()}
    handoff = ((_epoch_ms(state.host_handoff[0]), state.host_handoff[1].id)
               if state.host_handoff else None)
    away_key, taken_over = tuple(sorted(away_due.items())), tuple(sorted(state.taken_over))
    # a turn-based room: each awaited seat's deadline (shown in the reader's time zone)
    turn_due = tuple(sorted((seat, wait.due.isoformat())
                            for seat, wait in state.turns.waits.items())) if state.turns else ()
    key = (state.version, online, away_key, handoff, taken_over, turn_due)
    cached = shared.frame
    if cached is not None and cached[0] == key:
        frame: dict[str, Any] = cached[1]
        return frame
    game = state.game
    match = state.match_games()
    finished = [g for g in match if g.status == "finished"]
    match_totals: dict[int, int] = {}
    match_played: dict[int, int] = {}  # games of the match each seat played
    for g in finished:
        for seat, total in g.totals.items():
            match_totals[seat] = match_totals.get(seat, 0) + total
            match_played[seat] = match_played.get(seat, 0) + 1
    final = game is not None and game.status == "finished"
    previous = state.games[-2] if len(state.games) > 1 and not final else None
    match_size = game.options.get("match", 1) if game else state.options.get("match", 1)
    online_seats = present_seats(state, online) | {s.id for s in state.seats if s.bot}
    seats = state.active_seats
    frame = {
        "labels": {s.id: s.label for s in state.seats},
        "match": match,
        "final": final,
        "previous": previous,
        "match_size": match_size,
        "online_seats": online_seats,
        "seats": seats,
        "away_due": away_due,
        "away_key": away_key,
        "handoff": handoff,
        "taken_over": taken_over,
        "turn_due": turn_due,
        "version_part": Part("live-version", ("version", state.version, state.status),
                             "live_version", (state.version, state.status, page_basis(state))),
        "seats_key": tuple((s.id, s.label, s.player_id == state.host_player_id,
                            s.id in online_seats, s.ready) for s in seats),
        "ranking": ranking(game.totals, game.left) if final and game else [],
        "match_ranking": ranking(match_totals) if len(finished) > 1 or match_size > 1
        else [],
        "match_played": match_played,
        "match_finished": len(finished),
        "previous_ranking": ranking(previous.totals, previous.left) if previous else [],
        "match_done": final and game is not None and
        game.options.get("match_game", 1) >= match_size,
        "dice": shown(state.plugin, game),  # docs/dice.md: (commitment, seed once over)
    }
    shared.frame = (key, frame)
    return frame


def live_context(state: RoomState, player_id: str | None, online: frozenset[str],
                 parts: PartCache | None = None) -> dict:
    """Template context for the live part of a room as ``player_id`` sees it (``parts``: the
    app's rendered parts and shared views; a private cache when None). What all viewers share
    is built once per version (``_frame``, kept in ``parts.views``); only the viewer's seat,
    game view and parts are their own."""
    cache = parts if parts is not None else PartCache()
    shared = cache.views.of(state)
    frame = _frame(state, online, shared)
    viewer = state.seat_of(player_id)
    game = state.game
    plugin = state.plugin
    view: dict[str, Any] | None = None
    proxy = None  # the table seat the host's device fills in for now (pass and play)
    is_host = viewer is not None and player_id == state.host_player_id
    labels = frame["labels"]
    game_parts = None
    if game is not None and state.game_state is not None:
        if is_host and plugin.pass_and_play and state.status == "playing":
            proxy = proxy_seat(state, viewer, plugin.awaiting(state.game_state))
        view, game_parts = _game_view(state, proxy or (viewer.id if viewer else None),
                                      proxy is not None, labels, shared)
    former = next((s for s in state.seats if s.player_id == player_id
                   and s.status in ("removed", "left")), None) if viewer is None else None
    viewer_id = viewer.id if viewer else None
    sheet_seat = proxy or viewer_id  # whose sheet this page fills
    online_seats, away_due, handoff = frame["online_seats"], frame["away_due"], frame["handoff"]
    room_parts = [
        frame["version_part"],
        Part("seats", ("seats", frame["seats_key"], viewer_id, is_host, state.status,
                       frame["away_key"], handoff, frame["taken_over"], frame["turn_due"]),
             "seats_list", (frame["seats"], state.host_player_id, viewer_id, is_host,
                            online_seats, state.status, away_due, handoff, state.taken_over,
                            dict(frame["turn_due"]))),
        Part("acting-for", ("acting-for", proxy, labels.get(proxy) if proxy else None),
             "acting_for", (proxy, labels.get(proxy) if proxy else None)),
    ]
    code = state.code
    own = frozenset() if player_id is None else own_parts(
        state, online, cache, room_parts + (game_parts or []))

    def part_html(part: Part) -> str:
        return cache.render(code, part, part_template(state, part))

    own_elements = frozenset(i for p in room_parts + (game_parts or []) if p.id in own
                             for i in p.element_ids()) if own else frozenset()

    return {
        "room": state,
        "part_html": part_html,
        "room_parts": room_parts,
        "game_parts": game_parts,
        "own": own,
        "own_elements": own_elements,
        "own_ids": " ".join(sorted(own_elements)),
        "viewer": viewer,
        "sheet_seat": sheet_seat,
        "is_host": is_host,
        "online_seats": online_seats,
        "labels": labels,
        "game": game,
        "view": view,
        "template": plugin.template,
        "final": frame["final"],
        "ranking": frame["ranking"],
        "match_games": frame["match"],
        "match_size": frame["match_size"],
        "match_ranking": frame["match_ranking"],
        "match_played": frame["match_played"],
        "match_finished": frame["match_finished"],
        "previous": frame["previous"],
        "previous_ranking": frame["previous_ranking"],
        "former_seat": former,
        "match_done": frame["match_done"],
        **dict(zip(("dice_commitment", "dice_seed"), frame["dice"], strict=True)),
    }


def part_template(state: RoomState, part: Part) -> str:
    """The template whose macro renders ``part`` (the room's own parts, or the game's)."""
    return ROOM_PARTS if part.id in ROOM_PART_IDS else state.plugin.parts_template


def spectator(state: RoomState, online: frozenset[str], parts: PartCache) -> Spectator:
    """The room as a viewer without a seat sees it while ``online`` are online: built once
    per version and presence (kept in ``parts.views``)."""
    shared = parts.views.of(state)
    found = shared.spectators.get(online)
    if found is None:
        context = live_context(state, None, online, parts)
        layout = _layout(context)
        shown = context["room_parts"] + (context["game_parts"] or [])
        delivered = Delivered(layout, {p.id: p.key for p in shown}) if layout else None
        found = shared.spectators[online] = Spectator(delivered, shown)
    return found


def own_parts(state: RoomState, online: frozenset[str], parts: PartCache,
              shown: list[Part]) -> frozenset[str]:
    """The ids of the parts of ``shown`` (one viewer's) that differ from what a viewer
    without a seat is shown: the viewer's own (its sheet to fill, "your turn", its seat)."""
    seen = spectator(state, online, parts).delivered
    keys = seen.keys if seen is not None else {}
    return frozenset(p.id for p in shown if p.id not in keys or keys[p.id] != p.key)


def _game_view(state: RoomState, seat: int | None, proxy: bool, labels: dict[int, str],
               shared: Shared) -> tuple[dict[str, Any], list[Part]]:
    """The game's view and parts as ``seat`` sees them (``proxy``: the page fills in for that
    seat). Viewers of the same ``view_group`` (e.g. in Kniffel everyone but the player on
    turn) share one view and parts per version (kept in ``shared``, the state's
    ``SharedViews`` entry), so their keys are built once, not per viewer."""
    plugin = state.plugin
    group = (plugin.view_group(state.game_state, seat), proxy)
    found = shared.games.get(group)
    if found is not None:
        return found
    view = plugin.view(state.game_state, seat)
    view["room_code"] = state.code  # for links and requests a game's parts make
    view["proxy"] = proxy  # the page fills in for a seat without a phone
    game = state.game
    view["game_started_at"] = game.started_at if game else None  # e.g. the first turn's clock
    found = shared.games[group] = (view, plugin.parts(view, seat, labels))
    return found


def _epoch_ms(moment: datetime) -> int:
    """``moment`` (aware UTC) as milliseconds since the epoch, for a page's countdown."""
    return int(moment.timestamp() * 1000)


def _layout(context: dict) -> Hashable | None:
    """The live area's frame for one viewer, or None when it has no separate parts (lobby,
    result, a game without parts): everything outside the parts, and the part ids in order."""
    state: RoomState = context["room"]
    if state.status != "playing" or context["game_parts"] is None or context["final"]:
        return None
    game, viewer, former = context["game"], context["viewer"], context["former_seat"]
    return (state.status, game.id, game.status, viewer.id if viewer else None,
            context["sheet_seat"],
            tuple(s.status for s in state.seats),
            former.status if former else None, state.is_full,
            context["previous"].id if context["previous"] else None, context["match_size"],
            tuple(p.id for p in context["room_parts"]), tuple(p.id for p in context["game_parts"]))


def render_update(state: RoomState, player_id: str | None, lang: str, online: frozenset[str],
                  have: Delivered | None = None, html: bool = True,
                  parts: PartCache | None = None) -> tuple[str, Delivered | None]:
    """What to send a viewer whose page shows ``have`` so that it shows ``state``.

    Returns ``(html, delivered)``: the whole live block (when ``have`` is None or the frame
    changed), or only the version marker and the parts whose key changed, each an
    out-of-band swap by id (each part rendered once per key and language in ``parts``, the
    app's cache); ``delivered`` is what the page shows afterwards (None when the
    live area has no parts, so the next update is whole again). With ``html=False`` nothing
    is rendered (``""``): only what a page showing ``state`` shows is described.
    """
    with use_language(lang):
        context = live_context(state, player_id, online, parts)
        layout = _layout(context)
        if layout is None:
            return (render_block("rooms/room.html", "live", **context) if html else ""), None
        shown = context["room_parts"] + context["game_parts"]
        now = Delivered(layout, {p.id: p.key for p in shown}, context["own"],
                        own_elements=context["own_elements"])
        if not html:
            return "", now
        if have is None or have.layout != layout:
            return render_block("rooms/room.html", "live", **context), now
        update = assemble([context["part_html"](p) for p in to_send(shown, have)],
                          now.own_elements if now.own_elements != have.own_elements else None)
        if update is None:
            return render_block("rooms/room.html", "live", **context), now
        return update, now


PRESENCE_PARTS = ("seats",)
"""Room parts that show who is online (with the away countdowns): they can change without a
new room version, so a page is sent them again when its socket says hello."""


def render_error(code: str, message: str, action_id: str | None = None) -> str:
    """An error fragment: replaces ``#room-error`` with the (already translated) message."""
    aid = f' data-action-id="{escape(action_id)}"' if action_id else ""
    return (f'<div id="room-error" hx-swap-oob="true" role="alert" class="toast error" '
            f'data-error="{escape(code)}"{aid}>{escape(message)}</div>')


def render_ack(action_id: str | None, version: int, duplicate: bool = False) -> str:
    """An acknowledgement fragment: the action ``action_id`` is committed at ``version``."""
    aid = escape(action_id or "")
    return (f'<div id="room-ack" hx-swap-oob="true" hidden data-ack="{aid}" '
            f'data-version="{version}" data-duplicate="{str(duplicate).lower()}"></div>'
            '<div id="room-error" hx-swap-oob="true" role="alert" class="toast"></div>')
