"""UI languages (Dutch, German, English) through Babel gettext catalogs.

The catalogs live in ``app/locale/<lang>/LC_MESSAGES/messages.po`` (committed) and are compiled
to ``.mo`` at install (``make catalogs``). The active language is a context variable, so a page
and every WebSocket fragment are rendered in the language of the person who receives them.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from functools import cache
from pathlib import Path

from babel.support import NullTranslations, Translations

LANGUAGES: dict[str, str] = {"nl": "Nederlands", "de": "Deutsch", "en": "English"}
DEFAULT_LANGUAGE = "en"
LANG_COOKIE = "lang"
LOCALE_DIR = Path(__file__).resolve().parent / "locale"

_current: ContextVar[str] = ContextVar("knobel_language", default=DEFAULT_LANGUAGE)


@cache
def translations(lang: str) -> NullTranslations:
    """The compiled catalog for ``lang`` (one of ``LANGUAGES``); English is the source text."""
    if lang == "en":
        return NullTranslations()
    return Translations.load(LOCALE_DIR, [lang], domain="messages")


def negotiate(accept_language: str | None, cookie: str | None = None) -> str:
    """Pick the UI language: the cookie's choice, else the best ``Accept-Language`` match.

    ``accept_language`` is the raw header (``"de-DE,de;q=0.9,en;q=0.8"``); unknown or
    malformed parts are ignored. Falls back to English.
    """
    if cookie in LANGUAGES:
        return cookie
    ranked: list[tuple[float, int, str]] = []
    for index, part in enumerate((accept_language or "").split(",")):
        tag, _, params = part.strip().partition(";")
        quality = 1.0
        if params.strip().startswith("q="):
            try:
                quality = float(params.strip()[2:])
            except ValueError:
                continue
        primary = tag.strip().lower().split("-")[0]
        if primary in LANGUAGES and quality > 0:
            ranked.append((-quality, index, primary))
    return min(ranked)[2] if ranked else DEFAULT_LANGUAGE


def current_language() -> str:
    """The language of the text being rendered now."""
    return _current.get()


@contextmanager
def use_language(lang: str) -> Iterator[None]:
    """Render everything inside the ``with`` block in ``lang``."""
    token = _current.set(lang if lang in LANGUAGES else DEFAULT_LANGUAGE)
    try:
        yield
    finally:
        _current.reset(token)


def gettext(message: str) -> str:
    """Translate ``message`` into the current language."""
    return translations(_current.get()).gettext(message)


def ngettext(singular: str, plural: str, n: int) -> str:
    """Translate a message with a count ``n`` into the current language."""
    return translations(_current.get()).ngettext(singular, plural, n)


def set_language(lang: str) -> None:
    """Set the current language for the running task (a request or a socket)."""
    _current.set(lang if lang in LANGUAGES else DEFAULT_LANGUAGE)


_ = gettext
