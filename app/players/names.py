"""Display-name rules for guest players."""

from __future__ import annotations

import unicodedata

MAX_NAME_LENGTH = 24
_ALLOWED_FORMAT = {"\u200d"}  # zero-width joiner: part of many emoji
_FORBIDDEN_CATEGORIES = {"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"}


class InvalidName(ValueError):
    """A display name that breaks a rule.

    ``code`` is one of ``empty``, ``too_long``, ``control``.
    """

    def __init__(self, code: str) -> None:
        super().__init__(code)
        self.code = code


def clean_name(raw: str) -> str:
    """Return ``raw`` as a display name: NFC-normalised and trimmed, 1..24 characters.

    Raises ``InvalidName`` with code ``empty`` (nothing left after trimming), ``too_long``
    (more than 24 characters) or ``control`` (control, format, surrogate, private-use,
    unassigned or line/paragraph-separator characters). HTML is allowed: it is escaped on output.
    """
    name = unicodedata.normalize("NFC", raw or "").strip()
    if not name:
        raise InvalidName("empty")
    if any(
        unicodedata.category(ch) in _FORBIDDEN_CATEGORIES and ch not in _ALLOWED_FORMAT
        for ch in name
    ):
        raise InvalidName("control")
    if len(name) > MAX_NAME_LENGTH:
        raise InvalidName("too_long")
    return name
