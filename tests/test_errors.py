"""One error hierarchy (issue 15): every refusal a client is told about is a ``KnobelError``
with a stable code, a gettext msgid translated when reported, and an HTTP status."""

from __future__ import annotations

from app.errors import KnobelError
from app.i18n import use_language
from app.knikkers.service import Refused
from app.rooms.errors import RoomError
from app.rooms.games.base import ActionError, OptionError
from app.web.errors import error_message


def test_room_game_and_knikkers_refusals_share_one_base() -> None:
    errors = [ActionError("not_your_turn", "It is not your turn."),
              RoomError("room_full", "This room is full."),
              RoomError("busy", "The room is busy, please try again.", 503),
              OptionError("timer"), Refused("taken", (2, 3)), Refused("stale")]
    assert all(isinstance(e, KnobelError) for e in errors)
    assert [(e.code, e.status) for e in errors] == [
        ("not_your_turn", 409), ("room_full", 409), ("busy", 503), ("bad_option", 400),
        ("taken", 422), ("stale", 409)]
    option = errors[3]
    assert isinstance(option, OptionError) and isinstance(option, ActionError)
    assert option.field == "timer"


def test_the_message_is_translated_when_it_is_read() -> None:
    refused = Refused("taken")
    with use_language("en"):
        assert refused.message == "That cell is taken."
    with use_language("nl"):
        assert refused.message not in ("", "That cell is taken.")
    assert refused.msgid == "That cell is taken."


def test_a_websocket_refusal_is_one_fragment_in_the_connections_language() -> None:
    html = error_message("en", RoomError("not_host", "Only the host can do that.", 403), "a1")
    assert html == ('<div id="room-error" hx-swap-oob="true" role="alert" class="toast error" '
                    'data-error="not_host" data-action-id="a1">Only the host can do that.</div>')
    assert "Only the host can do that." not in error_message(
        "de", RoomError("not_host", "Only the host can do that.", 403))
