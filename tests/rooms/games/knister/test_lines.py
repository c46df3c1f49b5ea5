"""A Knister line's points as the sheet shows them (app/rooms/games/knister/lines.py): the
viewer's own lines open an explanation, the other sheets show plain text, in each language."""

from __future__ import annotations

from app.engines.knister_preview import preview_line
from app.i18n import use_language
from app.rooms.games.knister.lines import line_points

PAIR = preview_line([5, 5, None, None, 9])


def test_an_own_incomplete_line_is_a_button_with_its_explanation() -> None:
    with use_language("en"):
        html = str(line_points(7, 0, PAIR, mine=True))
    assert html.startswith('<span role="gridcell" class="line-cell"><button type="button" '
                           'class="line-points provisional" popovertarget="line-pop-7-0"')
    assert '<small class="so-far">pair</small>' in html
    assert '<div popover id="line-pop-7-0"' in html
    assert "<p>pair so far: 1 point now</p>" in html
    assert "<p>Still possible: full house, 8 points</p>" in html
    assert "<p>Scores when its last cells are filled (2 empty).</p>" in html


def test_a_diagonal_counts_double_and_sits_in_the_diagonals_cell() -> None:
    full = preview_line([4, 4, 8, 8, 11])
    with use_language("de"):
        html = str(line_points(7, 11, full, mine=True))
    assert html.startswith('<button type="button" class="line-points" ')  # no cell of its own
    assert 'data-line-now="6"' in html and ">↙6<" in html
    assert "<p>zwei Paare: 3 Punkte</p>" in html
    assert "Diagonalen zählen doppelt: 6 in der Summe." in html


def test_other_sheets_show_plain_points_without_a_popover() -> None:
    with use_language("nl"):
        html = str(line_points(8, 5, PAIR, mine=False))
    assert "popover" not in html and "<button" not in html
    assert 'title="Kolom 1: paar"' in html
    assert html.endswith(">1</span></span>")


def test_a_full_line_worth_nothing_says_0_not_blank() -> None:
    """A fresh user's finding: a full row that scores nothing looked unscored (blank)."""
    nothing = preview_line([2, 4, 6, 9, 11])
    with use_language("en"):
        mine = str(line_points(7, 0, nothing, mine=True))
        other = str(line_points(8, 0, nothing, mine=False))
        diagonal = str(line_points(7, 10, nothing, mine=True))
    assert 'data-line-now="0"' in mine and "</span>0</button>" in mine
    assert other.endswith(">0</span></span>")
    assert "</span>↘0</button>" in diagonal
    empty = str(line_points(8, 0, preview_line([None] * 5), mine=False))
    assert empty.endswith(">·</span></span>")  # not full: nothing to say yet
