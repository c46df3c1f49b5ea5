"""Display names: trimmed, 1..24 characters, no control characters."""

from __future__ import annotations

import pytest

from app.players.names import InvalidName, clean_name


def test_name_is_trimmed() -> None:
    assert clean_name("  Anna  ") == "Anna"


@pytest.mark.parametrize(
    ("raw", "code"),
    [
        ("", "empty"),
        ("   ", "empty"),
        ("x" * 25, "too_long"),
        ("An\x00na", "control"),
        ("An\nna", "control"),
        ("An\u202ena", "control"),  # right-to-left override
        ("An\x7fna", "control"),
        ("\ufffd\ufffd", "control"),  # bytes that were not UTF-8 (%FF%FE in a form)
        ("Anna\ufffd", "control"),
    ],
)
def test_bad_names_are_refused_with_a_reason(raw: str, code: str) -> None:
    with pytest.raises(InvalidName) as err:
        clean_name(raw)
    assert err.value.code == code


def test_exactly_24_characters_is_allowed() -> None:
    assert clean_name("y" * 24) == "y" * 24


def test_html_and_emoji_are_kept_as_text() -> None:
    assert clean_name("<b>Jörg</b>") == "<b>Jörg</b>"
    assert clean_name("👨\u200d👩\u200d👧 Fam") == "👨\u200d👩\u200d👧 Fam"


@pytest.mark.parametrize("raw", ["\u2800", "\u3164\u3164", "\u115f", " \u2800 "])
def test_invisible_names_are_refused(raw: str) -> None:
    with pytest.raises(InvalidName) as err:
        clean_name(raw)
    assert err.value.code == "empty"


@pytest.mark.parametrize("raw", ["Alice\u200d", "\u200dAlice", "Al\u200dice"])
def test_a_joiner_outside_an_emoji_is_refused(raw: str) -> None:
    with pytest.raises(InvalidName) as err:
        clean_name(raw)
    assert err.value.code == "control"


def test_look_alike_names_share_a_key() -> None:
    from app.players.names import name_key

    assert name_key("Alice") == name_key("ALICE") == name_key("Ａｌｉｃｅ")
    assert name_key("Alice") != name_key("Alicia")
