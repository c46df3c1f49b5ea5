"""Display-name rules for guest players."""

from __future__ import annotations

import unicodedata

from app.typed import shown_text

MAX_NAME_LENGTH = 24
MAX_TYPED = 1000
"""Characters of a typed name (trimmed) beyond which it is refused as too long at once,
before any other work: marks dropped by ``shown_text`` shorten a name, but no usable name
is that long, and a form's name field has no limit of its own (``app.web.deps.NameField``)."""
_ZWJ = "\u200d"  # zero-width joiner: allowed only inside emoji sequences
_FORBIDDEN_CATEGORIES = {"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"}
# letters that render as nothing (fillers, blank braille): they never make a name visible
_INVISIBLE = {"\u115f", "\u1160", "\u2800", "\u3164", "\uffa0", "\u180e"}
_EMOJI_CATEGORIES = {"So", "Sk", "Mn"}
_REPLACEMENT = "\ufffd"  # what bytes that are not UTF-8 decode to: broken input, never typed


class InvalidName(ValueError):
    """A display name that breaks a rule.

    ``code`` is one of ``empty``, ``too_long``, ``control``.
    """

    def __init__(self, code: str) -> None:
        super().__init__(code)
        self.code = code


def clean_name(raw: str) -> str:
    """Return ``raw`` as a display name: as others may be shown it (``app.typed.shown_text``:
    NFC-normalised, at most two combining marks per character) and trimmed, 1..24 characters.

    Raises ``InvalidName`` with code ``empty`` (nothing visible left after trimming: blank
    fillers and separators do not count), ``too_long`` (more than 24 characters) or ``control``
    (control, format, surrogate, private-use, unassigned or line/paragraph-separator
    characters; a zero-width joiner outside an emoji sequence; U+FFFD, which bytes that are not
    UTF-8 decode to). HTML is allowed: it is escaped
    on output.
    """
    typed = (raw or "").strip()
    if len(typed) > MAX_TYPED:
        raise InvalidName("too_long")
    name = shown_text(typed).strip()
    if not any(_visible(ch) for ch in name):
        raise InvalidName("empty")
    for i, ch in enumerate(name):
        if ch == _ZWJ:
            around = name[i - 1:i] + name[i + 1:i + 2]
            if len(around) != 2 or not all(
                unicodedata.category(c) in _EMOJI_CATEGORIES for c in around
            ):
                raise InvalidName("control")
        elif unicodedata.category(ch) in _FORBIDDEN_CATEGORIES or ch == _REPLACEMENT:
            raise InvalidName("control")
    if len(name) > MAX_NAME_LENGTH:
        raise InvalidName("too_long")
    return name


def _visible(ch: str) -> bool:
    """True for a character that shows ink: a letter, digit, punctuation mark or symbol."""
    return ch not in _INVISIBLE and unicodedata.category(ch)[0] in "LNPS"


def name_key(name: str) -> str:
    """The form two names are compared in to tell seats apart (NFKC, case-folded, no joiners
    or variation selectors): ``Alice``, ``ALICE`` and full-width ``Ａｌｉｃｅ`` are the same."""
    folded = unicodedata.normalize("NFKC", name).casefold()
    return "".join(ch for ch in folded if ch != _ZWJ and not 0xFE00 <= ord(ch) <= 0xFE0F)
