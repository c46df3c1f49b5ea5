"""Text people type that others see: the one step every such input goes through.

Chat lines (``app.talk.lines.clean_text``) and every name (players, seats, seats without a
phone, groups and their members: ``app.players.names.clean_name``) pass through ``shown_text``
before their own rules (docs/rules.md, "Text others see"). It keeps at most ``MAX_MARKS``
combining marks on each base character and returns NFC: a run of stacked marks (e.g. a
letter followed by 150 x U+0301) would otherwise draw a tall smear over the lines above it.
Marks are counted in the decomposed form (NFD), so ``é`` typed precomposed or as ``e`` +
U+0301 is the same one mark, and a precomposed letter cannot carry two more; the marks a
language needs (Vietnamese tones on a vowel with its own mark, Hebrew points, Arabic harakat,
Indic vowel signs) stay within the limit. Polytonic Greek with three marks on one vowel
keeps the first two.
"""

from __future__ import annotations

import unicodedata

MAX_MARKS = 2
"""Combining marks kept after one base character; further ones are dropped."""


def _kind(ch: str) -> str:
    """``mark`` for a combining mark that stacks on the character before it (a nonspacing or
    enclosing mark, ``Mn`` or ``Me``); ``none`` for what draws nothing of its own and so
    neither counts nor ends a run (variation selectors, which are ``Mn`` too, and control,
    format and unassigned characters: a zero-width space between two marks does not start
    a new run); ``base`` for everything else. ``1`` + U+FE0F + U+20E3, the keycap emoji,
    has one mark."""
    if 0xFE00 <= ord(ch) <= 0xFE0F or 0xE0100 <= ord(ch) <= 0xE01EF:
        return "none"
    category = unicodedata.category(ch)
    if category in ("Mn", "Me"):
        return "mark"
    return "none" if category[0] == "C" else "base"


def shown_text(raw: str) -> str:
    """``raw`` as others may be shown it: at most ``MAX_MARKS`` combining marks on each base
    character (counted decomposed; the first ones kept, the rest of a run dropped; marks at
    the very start count as one run), NFC-normalised. Nothing else changes: each kind of
    input applies its own rules (length, control characters) to the result."""
    if raw.isascii():
        return raw
    text = unicodedata.normalize("NFD", raw)
    kept: list[str] = []
    run = 0
    for ch in text:
        kind = _kind(ch)
        if kind == "mark":
            run += 1
            if run > MAX_MARKS:
                continue
        elif kind == "base":
            run = 0
        kept.append(ch)
    return unicodedata.normalize("NFC", "".join(kept))
