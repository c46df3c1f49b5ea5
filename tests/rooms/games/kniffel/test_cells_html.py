"""The score sheet's cells built in Python (app/rooms/games/kniffel/cells_html.py): exact HTML
for the player on turn and everyone else, names escaped, in the page's language."""

from __future__ import annotations

from app.i18n import use_language
from app.rooms.games.kniffel import cells_html
from app.rooms.games.kniffel.view import sheet_rows
from tests.rooms.games.kniffel.test_plugin import A, B, act, faces, new

LABELS = {A: 'Anna <b>&"', B: "Bram"}


def _rolled(columns: int = 1):
    """A game of A and B where A rolled 6 6 6 6 3 (four sixes) and scored nothing yet."""
    game, state = new(columns=columns)
    act(game, state, A, {"type": "roll"}, faces(6, 6, 6, 6, 3))
    return game, state


def test_the_player_on_turn_gets_a_button_per_open_box_everyone_else_a_grey_figure() -> None:
    game, state = _rolled()
    mine, theirs = game.view(state, A), game.view(state, B)
    with use_language("en"):
        assert cells_html.offer(mine, A, 0, "sixes") == (
            '<button id="offer-11-0-sixes" class="offer-btn" data-box="sixes" '
            'data-points="24" data-column="0"\n                    ws-send '
            'hx-vals=\'{"box": "sixes", "column": 0, "type": "score"}\'\n'
            '                    aria-label="Sixes: write 24">24</button>')
        assert cells_html.offer(theirs, A, 0, "sixes") == (
            '<span id="offer-11-0-sixes" class="ghost" data-box="sixes" data-points="24" '
            'data-column="0">24</span>')
        # nothing to score there: the button asks to be tapped twice
        zero = cells_html.offer(mine, A, 0, "ones")
        assert ' class="offer-btn zero"' in zero
        assert 'data-zero-confirm="Tap again to score 0"' in zero
    with use_language("de"):
        assert 'aria-label="Sechser: 24 eintragen"' in cells_html.offer(mine, A, 0, "sixes")
    with use_language("nl"):
        assert 'data-zero-confirm="Tik nogmaals voor 0"' in cells_html.offer(mine, A, 0, "ones")


def test_offers_list_every_open_box_upper_first_and_nothing_once_the_game_is_over() -> None:
    game, state = _rolled()
    view = game.view(state, B)
    with use_language("nl"):
        html = cells_html.offers(view)
    ids = [chunk.split('"')[0] for chunk in html.split('id="')[1:]]
    assert ids == [f"offer-{A}-0-{box}" for box in (*view["boxes_upper"], *view["boxes_lower"])]
    assert html.startswith("\n") and html.endswith("\n")
    view["over"] = True
    assert cells_html.offers(view) == ""


def test_a_column_names_its_player_escaped_and_every_cell_has_its_id() -> None:
    game, state = _rolled()
    act(game, state, A, {"type": "score", "box": "sixes", "column": 0})
    view = game.view(state, B)
    rows = sheet_rows(view)
    with use_language("en"):
        html = cells_html.column(view, LABELS, A, rows)
    assert "Anna &lt;b&gt;&amp;&#34;</th>" in html and "<b>" not in html
    assert html.count("<td ") + html.count("<th ") == len(rows)
    assert ('<td id="cell-11-0-sixes" class="box-cell last seat-end" data-slot="11/0/sixes"\n'
            '              data-filled="sixes" data-value="24"\n'
            '              data-last="true"\n              >24</td>') in html
    assert ('data-column-total="24" data-seat-total="24" data-seat="11">24</td>') in html
    # four sixes: ahead of "three of each face" by 6 in the upper total
    assert '<small class="par ahead" title="compared with three of each face">+6</small>' in html
    with use_language("nl"):
        dutch = cells_html.column(view, LABELS, A, rows)
    assert 'title="vergeleken met drie van elk getal">+6</small>' in dutch


def test_a_box_the_server_filled_says_so_in_the_readers_language() -> None:
    game, state = _rolled(columns=2)
    state.auto.add((A, 1, "ones"))
    view = game.view(state, B)
    with use_language("nl"):
        cell = cells_html.seat_cell(view, LABELS, A, 1, "ones")
    assert cell.startswith('<td id="cell-11-1-ones" class="box-cell auto seat-end"')
    assert 'title="automatisch ingevuld"' in cell
    with use_language("en"):
        assert cells_html.seat_cell(view, LABELS, A, 0, "colno") == (
            '<th id="cell-11-0-colno" scope="col" class="col-no open-col">1</th>')
        assert cells_html.seat_cell(view, LABELS, B, 0, "grand") == (
            '<td id="cell-22-grand" colspan="2" class="seat-end" data-seat-total="0" '
            'data-seat="22">0</td>')
