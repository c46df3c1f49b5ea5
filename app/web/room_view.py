"""What a room looks like to one viewer: the context for ``templates/rooms/room.html`` and the
live fragments sent over the socket (htmx out-of-band swaps)."""

from __future__ import annotations

from collections import OrderedDict
from typing import Any

from markupsafe import escape

from app.i18n import current_language, use_language
from app.rooms.state import RoomState
from app.web.templating import render_block


def ranking(totals: dict[int, int]) -> list[tuple[int, int, int]]:
    """``(rank, seat_id, total)`` best first; equal totals share a rank (1, 2, 2, 4)."""
    ordered = sorted(totals.items(), key=lambda item: (-item[1], item[0]))
    return [(1 + sum(1 for t in totals.values() if t > total), seat, total)
            for seat, total in ordered]


_SHARED: OrderedDict[tuple, str] = OrderedDict()
_SHARED_MAX = 4096


def shared_renderer(state: RoomState):
    """A ``shared(name, key, macro, *args)`` template helper: the macro's HTML for parts that
    look the same to every viewer (e.g. other players' sheets), rendered once per room
    version and language and then reused for every recipient of that version."""
    base = (state.code, id(state), state.version, current_language())

    def shared(name: str, key: object, macro, *args):
        cache_key = (*base, name, key)
        html = _SHARED.get(cache_key)
        if html is None:
            html = _SHARED[cache_key] = macro(*args)
            if len(_SHARED) > _SHARED_MAX:
                _SHARED.popitem(last=False)
        return html

    return shared


def live_context(state: RoomState, player_id: str | None, online: frozenset[str]) -> dict:
    """Template context for the live part of a room as ``player_id`` sees it."""
    viewer = state.seat_of(player_id)
    game = state.game
    plugin = state.plugin
    view: dict[str, Any] | None = None
    if game is not None and state.game_state is not None:
        view = plugin.view(state.game_state, viewer.id if viewer else None)
    labels = {s.id: s.label for s in state.seats}
    match = state.match_games()
    finished = [g for g in match if g.status == "finished"]
    match_totals: dict[int, int] = {}
    for g in finished:
        for seat, total in g.totals.items():
            match_totals[seat] = match_totals.get(seat, 0) + total
    final = game is not None and game.status == "finished"
    previous = state.games[-2] if len(state.games) > 1 and not final else None
    former = next((s for s in state.seats if s.player_id == player_id
                   and s.status in ("removed", "left")), None) if viewer is None else None
    match_size = game.options.get("match", 1) if game else state.options.get("match", 1)
    return {
        "room": state,
        "shared": shared_renderer(state),
        "viewer": viewer,
        "is_host": viewer is not None and player_id == state.host_player_id,
        "online_seats": {s.id for s in state.seats if s.player_id in online},
        "labels": labels,
        "game": game,
        "view": view,
        "template": plugin.template,
        "final": final,
        "ranking": ranking(game.totals) if final and game else [],
        "match_games": match,
        "match_size": match_size,
        "match_ranking": ranking(match_totals) if len(finished) > 1 or match_size > 1 else [],
        "previous": previous,
        "previous_ranking": ranking(previous.totals) if previous else [],
        "former_seat": former,
        "match_done": final and game is not None and
        game.options.get("match_game", 1) >= match_size,
    }


def render_live(state: RoomState, player_id: str | None, lang: str,
                online: frozenset[str]) -> str:
    """The ``live`` block as an out-of-band fragment, in ``lang``, for ``player_id``."""
    with use_language(lang):
        return render_block("rooms/room.html", "live", **live_context(state, player_id, online))


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
