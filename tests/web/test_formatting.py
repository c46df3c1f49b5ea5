"""Every number and date is printed for the page's language (issue 12): 12345 reads ``12.345``
in Dutch and German and ``12,345`` in English, dates the local way, on every page of the site
(``tests.support.site``: home, name, each room game's lobby, game and result, Knikkers game,
replay, leaderboards, player page, error pages), and no page draws an emoji."""

from __future__ import annotations

import re
from html.parser import HTMLParser

import pytest

from app import i18n
from tests.support import http
from tests.support.server import ServerProcess, server_env_for
from tests.support.site import BIG_AT, BIG_SCORE, build_site

pytestmark = [pytest.mark.server, pytest.mark.one_backend]

GROUPED = {"nl": "12.345", "de": "12.345", "en": "12,345"}
ISO_DATE = re.compile(r"\b\d{4}-\d{2}-\d{2}\b")
RAW_BIG = re.compile(r"(?<![\d.,])\d{5,}(?![\d.,])")  # 5+ digits without grouping
# Pictographs that need an emoji font (the timer icon showed as a box): misc technical
# (U+2300-23FF, e.g. the stopwatch), dingbats and symbols, and everything above U+1F000.
EMOJI = re.compile("[\u2300-\u23ff\u2600-\u27bf\u2b00-\u2bff\ufe0f\U0001f000-\U0010ffff]")
READ_ATTRIBUTES = ("aria-label", "title", "alt", "placeholder")
URL = re.compile(r"https?://\S+")  # a link written out (a share text's), not read as a number


class _Text(HTMLParser):
    """What a reader sees or hears: text nodes (not scripts or styles) and the attributes
    read out (``READ_ATTRIBUTES``, and a button's or option's value is not among them)."""

    def __init__(self) -> None:
        super().__init__()
        self.parts: list[str] = []
        self._skip = 0

    def handle_starttag(self, tag, attrs) -> None:
        if tag in ("script", "style"):
            self._skip += 1
        self.parts += [value or "" for name, value in attrs if name in READ_ATTRIBUTES]

    def handle_endtag(self, tag) -> None:
        if tag in ("script", "style"):
            self._skip -= 1

    def handle_data(self, data) -> None:
        if not self._skip:
            self.parts.append(data)


def visible_text(html: str) -> str:
    """The page's text as read (see ``_Text``), one space between the pieces."""
    parser = _Text()
    parser.feed(html)
    return " ".join(" ".join(parser.parts).split())


def local_date(lang: str) -> str:
    """The 5-digit game's day as the app writes it in ``lang``."""
    with i18n.use_language(lang):
        return i18n.format_date(BIG_AT)


def test_the_formatters_follow_the_language() -> None:
    expected = {"nl": ("12.345", "11.172,5", "14 mrt 2026"),
                "de": ("12.345", "11.172,5", "14.03.2026"),
                "en": ("12,345", "11,172.5", "Mar 14, 2026")}
    for lang, (number, decimal, day) in expected.items():
        with i18n.use_language(lang):
            assert (i18n.format_number(BIG_SCORE), i18n.format_decimal(11172.5),
                    i18n.format_date(BIG_AT)) == (number, decimal, day)
            assert i18n.format_number(None) == "–" and i18n.format_date(None) == ""


def test_every_page_prints_numbers_and_dates_for_its_language(settings, tmp_path,
                                                              shared_tables) -> None:
    env = server_env_for(settings.database_url, tmp_path,
                         STRATEGY_DIR=str(shared_tables.folder))  # reviews' tables, built once
    with ServerProcess(env, log=tmp_path / "server.log") as server:
        _check_every_page(build_site(server.url, settings.database_url))


def _check_every_page(site) -> None:
    assert {p.game for p in site.pages} >= {"knikkers", "knister", "kniffel"}
    problems: list[str] = []
    for lang in i18n.LANGUAGES:
        for page in site.pages:
            cookies = {**site.cookies[page.who], i18n.LANG_COOKIE: lang}
            r = http.get(site.url + page.path, cookies=cookies, timeout=20)
            where = f"{page.name} [{lang}] {page.path}"
            if r.status_code != page.status:
                problems.append(f"{where}: status {r.status_code}, expected {page.status}")
                continue
            text = URL.sub(" ", visible_text(r.text))  # a link's port or path is no number
            if page.big and GROUPED[lang] not in text:
                problems.append(f"{where}: no {GROUPED[lang]!r}")
            if page.big_date and local_date(lang) not in text:
                problems.append(f"{where}: no {local_date(lang)!r}")
            for raw in RAW_BIG.findall(text):
                problems.append(f"{where}: unformatted number {raw!r}")
            for iso in ISO_DATE.findall(text):
                problems.append(f"{where}: ISO date {iso!r}")
            for glyph in EMOJI.findall(r.text):
                problems.append(f"{where}: emoji {glyph!r} (U+{ord(glyph):04X})")
    assert not problems, "\n".join(problems)


def test_no_template_script_style_or_message_draws_an_emoji() -> None:
    """Icons are inline SVG (``templates/_icons.html``): no glyph that needs an emoji font in
    any template, script, style sheet, Python module or catalog."""
    from app.settings import ROOT
    from app.web.templating import template_folders

    found = []
    places = [(folder, "*.html") for folder in template_folders()] + [
        (ROOT / folder, pattern) for folder, pattern in (
            ("static/js", "*.js"), ("static/css", "*.css"), ("app", "*.py"),
            ("app/locale", "*.po"))]
    for folder, pattern in places:
        for path in sorted(folder.rglob(pattern)):
            for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
                found += [f"{path.relative_to(ROOT)}:{number}: U+{ord(g):04X}"
                          for g in EMOJI.findall(line)]
    assert not found, "\n".join(found)
