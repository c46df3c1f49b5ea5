"""One die's picture (``app/web/dice_html.py``): exact markup, translated labels, pips."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st
from markupsafe import Markup

from app.i18n import use_language
from app.web.dice_html import die


def test_a_picture_die() -> None:
    with use_language("en"):
        assert str(die(2, 3, False)) == (
            '\n<span class="die" role="img" aria-label="Die showing 2" data-value="2" '
            'data-die="3" data-held="false"><svg viewBox="0 0 30 30" aria-hidden="true">'
            '<rect x="1" y="1" width="28" height="28" rx="6"/><circle cx="7" cy="7" r="2.6"/>'
            '<circle cx="23" cy="23" r="2.6"/></svg></span>')


def test_a_held_button_die_with_its_attributes() -> None:
    extra = Markup("ws-send hx-vals='{\"type\": \"hold\"}'")
    with use_language("de"):
        html = str(die(1, 0, True, True, extra))
    assert html.startswith(
        '\n<button class="die held" type="button" aria-pressed="true" '
        'aria-label="Würfel zeigt 1 (gehalten)" data-value="1" data-die="0" data-held="true" '
        "ws-send hx-vals='{\"type\": \"hold\"}'><svg")
    assert html.endswith('<circle cx="15" cy="15" r="2.6"/></svg></button>')


def test_the_label_is_in_the_current_language_even_when_cached() -> None:
    with use_language("nl"):
        dutch = str(die(6))
    with use_language("en"):
        english = str(die(6))
    assert 'aria-label="Dobbelsteen met 6"' in dutch
    assert 'aria-label="Die showing 6"' in english


@given(st.integers(1, 6), st.one_of(st.none(), st.integers(0, 4)), st.booleans())
def test_a_face_shows_its_value_in_pips(value, index, held) -> None:
    with use_language("en"):
        html = str(die(value, index, held))
    assert html.count("<circle") == value
    assert f'data-value="{value}"' in html


def test_no_seventh_face() -> None:
    with pytest.raises(KeyError):
        die(7)
