"""Three UI languages: negotiated from Accept-Language, switchable, remembered in a cookie."""

from __future__ import annotations

import re
import subprocess
import sys

import pytest
from babel.messages.pofile import read_po

from app.i18n import LANG_COOKIE, gettext, negotiate, use_language
from app.settings import ROOT

EXTRACT_KEYWORDS = ["-k", "ActionError:2", "-k", "RoomError:2", "-k", "_error:3", "-k", "N_"]
HOME_TITLE = {
    "en": "Play with friends",
    "nl": "Speel met vrienden",
    "de": "Mit Freunden spielen",
}


@pytest.mark.parametrize(
    ("header", "expected"),
    [
        ("de-DE,de;q=0.9,en;q=0.8", "de"),
        ("nl-BE", "nl"),
        ("fr-FR,fr;q=0.9,nl;q=0.5,de;q=0.4", "nl"),
        ("en-GB;q=0.2,de;q=0.7", "de"),
        ("fr", "en"),
        ("", "en"),
        (None, "en"),
        ("de;q=abc,nl", "nl"),
    ],
)
def test_accept_language_picks_the_best_supported_language(header, expected) -> None:
    assert negotiate(header) == expected


def test_cookie_choice_beats_the_header() -> None:
    assert negotiate("de", cookie="nl") == "nl"
    assert negotiate("de", cookie="xx") == "de"


@pytest.mark.parametrize("lang", ["en", "nl", "de"])
def test_home_renders_in_each_language(client, lang: str) -> None:
    page = client.get("/", headers={"accept-language": lang}).text
    assert HOME_TITLE[lang] in page
    assert f'<html lang="{lang}">' in page


def test_language_switch_is_remembered(client) -> None:
    response = client.post("/lang", data={"lang": "de", "next": "/"},
                           headers={"accept-language": "nl"})
    assert response.status_code == 200
    assert HOME_TITLE["de"] in response.text
    assert client.cookies[LANG_COOKIE] == "de"
    assert HOME_TITLE["de"] in client.get("/", headers={"accept-language": "nl"}).text


def test_switching_language_keeps_the_whole_address(client) -> None:
    """The language form and the name link return to the page with its query (a watcher's
    ``?watch=1``, a leaderboard's period, the name page's ``next``), found by a new user."""
    page = client.get("/leaderboards?period=week&mode=games").text
    assert 'name="next" value="/leaderboards?period=week&amp;mode=games"' in page
    response = client.post("/lang", data={
        "lang": "de", "next": "/leaderboards?period=week&mode=games"},
        follow_redirects=False)
    assert response.headers["location"] == "/leaderboards?period=week&mode=games"
    client.post("/name", data={"name": "Ute", "next": "/"})
    page = client.get("/leaderboards?period=week").text
    assert 'href="/name?next=/leaderboards%3Fperiod%3Dweek"' in page


def test_unknown_language_is_refused(client) -> None:
    assert client.post("/lang", data={"lang": "xx"}).status_code == 400


@pytest.mark.parametrize("lang", ["nl", "de"])
def test_every_message_is_translated(lang: str) -> None:
    path = ROOT / "app" / "locale" / lang / "LC_MESSAGES" / "messages.po"
    with path.open("rb") as fh:
        catalog = read_po(fh)
    # a plural entry's string is a tuple of forms: every form must be there (an entry with
    # empty forms was truthy and passed: the header's "game waits for you" stayed English)
    missing = [m.id for m in catalog if m.id and (
        not (all(m.string) if isinstance(m.string, tuple) else m.string) or m.fuzzy)]
    assert missing == []


def test_catalogs_hold_exactly_the_strings_in_the_code(tmp_path) -> None:
    """Every ``_()`` / ``{% trans %}`` string is in the committed catalogs, and every catalog
    entry is still found in the code: a message the extraction cannot see (e.g. a ``_()``
    call inside an f-string) would be dropped by the next ``make messages`` and its page
    would fall back to English."""
    pot = tmp_path / "messages.pot"
    subprocess.run(
        [sys.executable, "-m", "babel.messages.frontend", "extract", "-F", "babel.cfg",
         *EXTRACT_KEYWORDS, "--no-location", "-o", str(pot), "."],
        cwd=ROOT, capture_output=True, text=True, check=True,
    )

    def ids(path) -> set[str]:
        with open(path, "rb") as fh:
            return {m.id if isinstance(m.id, str) else m.id[0] for m in read_po(fh) if m.id}

    code_ids = ids(pot)
    for lang in ("nl", "de", "en"):
        catalog_ids = ids(ROOT / "app" / "locale" / lang / "LC_MESSAGES" / "messages.po")
        assert (lang, code_ids - catalog_ids) == (lang, set())
        assert (lang, catalog_ids - code_ids) == (lang, set())


def test_german_quotes_open_low_and_close_high() -> None:
    """German text quotes „so“ (a fresh user's finding: „Bereit” closed with the English
    mark); Dutch „zo”, as Dutch typography has it."""
    closing = {"de": "“", "nl": "”"}
    for lang, close in closing.items():
        with (ROOT / "app" / "locale" / lang / "LC_MESSAGES" / "messages.po").open("rb") as fh:
            catalog = read_po(fh)
        for message in catalog:
            text = message.string if isinstance(message.string, str) else ""
            for quoted in re.findall(r"„[^„]*", text):
                assert re.match(rf"„[^“”\"]+{close}", quoted), (lang, message.id, text)


def test_english_says_whose_turn_it_is_the_english_way() -> None:
    with use_language("en"):
        assert gettext("%(name)s's turn") % {"name": "Ann"} == "Ann's turn"
