"""The one error type of Knobel: a request the server refuses, with nothing changed.

Every refusal a client is told about derives from :class:`KnobelError`: room and game actions
(``app.rooms.games.base.ActionError`` and its ``RoomError``, ``OptionError``) and Knikkers
actions (``app.knikkers.service.Refused``). Each carries a stable ``code`` (pages and tests key
on it), a gettext ``msgid`` (English; ``message`` is it in the current language) and an HTTP
``status``. They are reported in one place per channel: HTTP by the exception handler in
``app.web.errors``, the room WebSocket by ``app.web.room_view.error_message``.
"""

from __future__ import annotations

from app.i18n import gettext


def N_(msgid: str) -> str:
    """Mark ``msgid`` for extraction (``make messages``) without translating it now: it is
    translated when reported, in the language of whoever it is reported to."""
    return msgid


class KnobelError(Exception):
    """A refused request; nothing changed.

    Args: ``code``, a stable id (``not_your_turn``, ``stale``...); ``msgid``, the gettext
    msgid of the visitor-facing reason; ``status``, the HTTP status (default ``409``: the
    request does not fit the current state).
    """

    status: int = 409

    def __init__(self, code: str, msgid: str, status: int | None = None) -> None:
        super().__init__(code)
        self.code = code
        self.msgid = msgid
        if status is not None:
            self.status = status

    @property
    def message(self) -> str:
        """The reason in the current language (``app.i18n.use_language``)."""
        return gettext(self.msgid)
