"""The room WebSocket: ``/r/<code>/ws``, one per open room page (htmx ws extension).

Client messages are JSON objects ``{"type": ..., "action_id": ..., ...}`` (htmx sends the
clicked element's values plus ``HEADERS``, which are ignored). The first message of a
(re)connected page is ``{"type": "hello", "version": N}``; the server answers with the live
room when the client is behind. Every refused message gets an error fragment and the
connection stays open.
"""

from __future__ import annotations

import json

import structlog
from fastapi import APIRouter, WebSocket, WebSocketDisconnect

from app.errors import N_, KnobelError
from app.live.connection import Connection
from app.live.direct import RAW_SEND
from app.live.origin import origin_allowed
from app.rooms.codes import is_code
from app.rooms.games.base import ActionError
from app.talk.service import TALK_ACTIONS, TalkService
from app.web.deps import SESSION_PLAYER_KEY, HubDep, RoomsDep, TalkDep
from app.web.errors import error_message
from app.web.ratelimit import SocketRates
from app.web.room_view import render_ack

log = structlog.get_logger("knobel.socket")
router = APIRouter()

MAX_MESSAGE_BYTES = 2048
MAX_SOCKETS_PER_PLAYER = 8  # tabs of one player in one room
# The socket's own refusals (the room service's come as ``KnobelError`` too).
TOO_MANY_TABS = KnobelError(
    "too_many_tabs", N_("This room is open in too many of your tabs: close one."), 429)
BAD_MESSAGE = KnobelError("bad_message", N_("The message is malformed."), 400)
TOO_LARGE = KnobelError("too_large", N_("The message is too large."), 413)
RATE_LIMITED = KnobelError("rate_limited", N_("Too many messages, slow down."), 429)
SERVER_ERROR = KnobelError("server_error", N_("Something went wrong."), 500)


@router.websocket("/r/{code}/ws")
async def room_socket(websocket: WebSocket, code: str, service: RoomsDep,
                      hub: HubDep, talk: TalkDep) -> None:
    """Serve one room page's socket until it closes.

    Refused before the handshake completes (HTTP 403): a foreign ``Origin``, no guest
    session, or an unknown room.
    """
    settings = websocket.app.state.settings
    origin = websocket.headers.get("origin")
    if not origin_allowed(origin, websocket.headers.get("host"), settings.origins):
        log.info("ws_refused_origin", room=code)
        await websocket.close(code=1008)
        return
    player_id = websocket.session.get(SESSION_PLAYER_KEY) if "session" in websocket.scope \
        else None
    if not isinstance(player_id, str) or not is_code(code) or \
            await service.snapshot(code) is None:
        await websocket.close(code=1008)
        return
    lang = websocket.scope.get("state", {}).get("lang", "en")
    if sum(c.player_id == player_id for c in hub.rooms.get(code, ())) >= \
            MAX_SOCKETS_PER_PLAYER:
        log.info("ws_refused_too_many", room=code, player=player_id)
        await websocket.accept()  # to say why, in the player's language, then close
        await websocket.send_text(error_message(lang, TOO_MANY_TABS))
        await websocket.close(code=1008)
        return
    rates: SocketRates = websocket.app.state.socket_rates
    await websocket.accept()
    conn = Connection(websocket, code, player_id, lang, websocket.scope.get(RAW_SEND))
    await hub.add(conn)
    try:
        while True:
            message = await websocket.receive()
            if message["type"] == "websocket.disconnect":
                break
            text = message.get("text")
            if text is None:
                conn.send(error_message(lang, BAD_MESSAGE))
                continue
            try:
                await _handle(conn, text, service, hub, rates, talk)
            except Exception:
                log.exception("message_failed", room=code, player=player_id)
                conn.send(error_message(lang, SERVER_ERROR))
    except WebSocketDisconnect:
        pass
    finally:
        await hub.remove(conn)


async def _handle(conn: Connection, text: str, service, hub, rates: SocketRates,
                  talk: TalkService) -> None:
    """Check size, shape and rate of one message, then apply it: a talk message (chat line,
    reaction) by the talk service, apart from the room (no lock, no basis, no version), any
    other by the room service."""
    if len(text.encode("utf-8", "replace")) > MAX_MESSAGE_BYTES:
        conn.send(error_message(conn.lang, TOO_LARGE))
        return
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):
        data = None
    if not isinstance(data, dict):
        conn.send(error_message(conn.lang, BAD_MESSAGE))
        return
    data.pop("HEADERS", None)
    raw_id = data.get("action_id")
    action_id = raw_id if isinstance(raw_id, str) and len(raw_id) <= 64 else None
    if not rates.hit(conn.code, conn.player_id):
        conn.send(error_message(conn.lang, RATE_LIMITED, action_id))
        return
    if isinstance(data.get("type"), str) and data["type"] in TALK_ACTIONS:
        await _talk(conn, data, talk, action_id)
        return
    if data.get("type") == "hello":
        version = data.get("version")
        known = version if isinstance(version, int) and not isinstance(version, bool) else -1
        state = await service.current(conn.code)
        if state is not None and known == state.version and known >= 0:
            hub.shown(conn, state, _own_ids(data.get("own")))
            conn.send(render_ack(None, state.version))
        else:
            await hub.send_snapshot(conn, known)
        if state is not None and state.turns is not None:  # a turn-based room: back?
            await service.came_back(conn.code, conn.player_id)
        return
    try:
        outcome = await service.act(conn.code, conn.player_id, data)
    except KnobelError as exc:
        conn.send(error_message(conn.lang, exc, action_id))
        # the page was behind (refused as stale, or for another reason on an older table),
        # or its options form holds a value the room refused (the host's select would keep
        # showing it): show it the table as it is now
        if exc.code in ("stale", "bad_option") or isinstance(exc, ActionError) and exc.behind:
            await hub.send_snapshot(conn)
        return
    except Exception:  # e.g. the database is unreachable: nothing was committed
        log.exception("action_failed", room=conn.code, player=conn.player_id)
        conn.send(error_message(conn.lang, SERVER_ERROR, action_id))
        return
    conn.send(render_ack(action_id, outcome.version, outcome.duplicate))


def _own_ids(listed: object) -> frozenset[str]:
    """The part ids a page's hello lists as its own (``#own-parts``; anything else: none)."""
    if not isinstance(listed, str):
        return frozenset()
    return frozenset(i for i in listed.split() if len(i) <= 40)


async def _talk(conn: Connection, data: dict, talk: TalkService, action_id: str | None) -> None:
    """Apply one talk message; acknowledged with the room version the page shows (a chat
    line makes none)."""
    try:
        await talk.act(conn.code, conn.player_id, data)
    except KnobelError as exc:
        conn.send(error_message(conn.lang, exc, action_id))
        return
    conn.send(render_ack(action_id, conn.last_version))
