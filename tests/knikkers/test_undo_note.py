"""Knikkers undo is named "Undo" in each language ("Ongedaan maken", "Rückgängig") and says
beside the button when it is used up (docs/rules.md, "Undo")."""

from __future__ import annotations

import re

from tests.knikkers.helpers import choose, engine_view, move, start, state, undo


def test_undo_is_named_in_each_language_and_says_when_it_is_used_up(client) -> None:
    game_id = start(client, seed=2, variant=4)
    assert move(client, game_id, *choose(engine_view(state(client, game_id)))).status_code == 200
    page = client.get(f"/knikkers/games/{game_id}").text
    assert "data-undo-used" not in page
    assert undo(client, game_id).status_code == 200
    for lang, label, note in (
            ("en", "Undo", "Undo used: only the last move can be taken back, once."),
            ("nl", "Ongedaan maken", "Ongedaan maken gebruikt"),
            ("de", "Rückgängig", "Rückgängig schon benutzt")):
        page = client.get(f"/knikkers/games/{game_id}", headers={"accept-language": lang}).text
        button = re.search(r'<button[^>]*data-action="undo"[^>]*>([^<]*)</button>', page)
        assert button is not None and button.group(1) == label, lang
        assert "disabled" in button.group(0)
        assert 'aria-describedby="kn-undo-used"' in button.group(0)
        assert note in page, lang
