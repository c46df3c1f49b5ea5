"""UI languages (Dutch, German, English) through Babel gettext catalogs.

The catalogs live in ``app/locale/<lang>/LC_MESSAGES/messages.po`` (committed) and are compiled
to ``.mo`` at install (``make catalogs``). The active language is a context variable, so a page
and every WebSocket fragment are rendered in the language of the person who receives them.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from datetime import UTC, date, datetime, timedelta
from functools import cache, lru_cache
from pathlib import Path

import pyphen
from babel import Locale
from babel import dates as babel_dates
from babel import numbers as babel_numbers
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


def preload() -> None:
    """Load every language's catalog and the Babel (CLDR) data its numbers and dates need,
    now rather than on the first page in that language. A long-running server calls it at
    start-up (``app.main``): the few MB it keeps for the process's life are then allocated
    with the other start-up objects, not scattered among the short-lived objects of the
    first rooms, where they would keep the heap's arenas from being given back
    (bench/soak.py; bench/README.md, session 7)."""
    moment = datetime(2026, 1, 1, 12, 0, tzinfo=UTC)
    for lang in LANGUAGES:
        translations(lang)
        with use_language(lang):
            format_number(12345)
            format_number(1.5)
            format_decimal(1.5)
            format_date(moment)
            format_datetime(moment)


# ----- numbers and dates, in the current language (Babel CLDR data) -------------------------
# One set of formatters for every number and date a page prints (templating installs them as
# the ``number``, ``decimal``, ``date`` and ``datetime`` filters), so 12345 reads ``12.345``
# in Dutch and German and ``12,345`` in English, and dates are written the local way.


def format_number(value: int | float | None) -> str:
    """``value`` (a count, a score) with the current language's grouping: ``12.345`` (nl,
    de), ``12,345`` (en); ``–`` for None."""
    if value is None:
        return "–"
    if type(value) is int:  # scores and counts: the same few thousand over and over
        return _format_int(value, _current.get())
    locale = _locale(_current.get())
    return locale.decimal_formats[None].apply(value, locale)  # the language's own pattern


@lru_cache(maxsize=4096)
def _format_int(value: int, lang: str) -> str:
    """``format_number`` of an int in ``lang`` (Babel's formatting takes ~10 µs a call)."""
    return babel_numbers.format_decimal(value, locale=lang)


@lru_cache(maxsize=8)
def _locale(lang: str) -> Locale:
    """Babel's ``Locale`` of ``lang``, parsed once (each Babel call would parse it again)."""
    return Locale.parse(lang)


@lru_cache(maxsize=16)
def _pattern(pattern: str) -> babel_numbers.NumberPattern:
    """A CLDR number pattern (``#,##0.0``), parsed once."""
    return babel_numbers.parse_pattern(pattern)


def format_decimal(value: float | None, digits: int = 1) -> str:
    """``value`` with exactly ``digits`` decimals and grouping: ``11.172,5`` (nl, de),
    ``11,172.5`` (en); ``–`` for None."""
    if value is None:
        return "–"
    return _format_decimal(value, digits, _current.get())


@lru_cache(maxsize=4096)
def _format_decimal(value: float, digits: int, lang: str) -> str:
    """``format_decimal`` in ``lang``: a page's averages are the same from view to view
    (a table of 30 rows has 120 of them; Babel takes ~10 µs each)."""
    pattern = "#,##0." + "0" * digits if digits > 0 else "#,##0"
    return _pattern(pattern).apply(value, _locale(lang))


HYPHENATION = {"nl": "nl_NL", "de": "de_DE", "en": "en_GB"}
"""The Pyphen (LibreOffice hyphenation) dictionary of each language."""
SHY = "\u00ad"


def hyphenate(text: str) -> str:
    """``text`` with soft hyphens (U+00AD) where the current language's hyphenation allows a
    break, in words of 8 letters or more: a narrow column (a Kniffel sheet's box names on a
    phone) then breaks "Dreier-pasch" with a hyphen instead of "Dreierpa/sch". Safe in
    markup: only characters are added."""
    return _hyphenated(text, _current.get())


@lru_cache(maxsize=1024)
def _hyphenated(text: str, lang: str) -> str:
    dictionary = _dictionary(lang)
    return " ".join(dictionary.inserted(word, hyphen=SHY) if len(word) >= 8 else word
                    for word in text.split(" "))


@lru_cache(maxsize=4)
def _dictionary(lang: str) -> pyphen.Pyphen:
    return pyphen.Pyphen(lang=HYPHENATION.get(lang, "en_GB"))


def format_date(value: date | datetime | None, form: str = "medium") -> str:
    """A calendar day the local way (``form``: a Babel/CLDR date format, ``medium`` by
    default): ``30 nov 2026`` (nl), ``30.11.2026`` (de), ``Nov 30, 2026`` (en). A datetime
    is taken in UTC. ``""`` for None."""
    if value is None:
        return ""
    if isinstance(value, datetime):
        value = _utc(value).date()
    return babel_dates.format_date(value, format=form, locale=_locale(_current.get()))


def format_datetime(value: datetime | None) -> str:
    """A moment (UTC) as the local medium date and short time: ``30.11.2026, 21:45`` (de),
    ``Nov 30, 2026, 9:45 PM`` (en). ``""`` for None."""
    if value is None:
        return ""
    value = _utc(value)
    return _format_minute(value.replace(second=0, microsecond=0), _current.get())


@lru_cache(maxsize=4096)
def _format_minute(value: datetime, lang: str) -> str:
    """``format_datetime`` of a whole UTC minute in ``lang`` (a list of the latest games
    shows the same moments from view to view; Babel takes ~25 µs for one)."""
    locale = _locale(lang)
    day = babel_dates.format_date(value.date(), format="medium", locale=locale)
    time = babel_dates.format_time(value, format="short", locale=locale)
    return str(locale.datetime_formats["medium"]).format(time, day)



def format_timedelta(value: timedelta) -> str:
    """A length of time rounded to its largest unit, the local way: ``5 hours`` (en),
    ``5 uur`` (nl), ``5 Stunden`` (de); a negative one as its size."""
    return babel_dates.format_timedelta(abs(value), locale=_locale(_current.get()))

def format_ago(value: timedelta) -> str:
    """How long ago, the local way, rounded to the largest unit: ``2 hours ago`` (en),
    ``2 uur geleden`` (nl), ``vor 2 Stunden`` (de); ``value`` is the time passed (a negative
    one counts as none)."""
    return babel_dates.format_timedelta(-max(value, timedelta(0)), add_direction=True,
                                        locale=_locale(_current.get()))


def _utc(value: datetime) -> datetime:
    """``value`` as an aware UTC datetime (naive values are UTC already: SQLite gives those)."""
    return value.replace(tzinfo=UTC) if value.tzinfo is None else value.astimezone(UTC)
