"""A form's POST-only address opened as a page leads back to the form (a fresh user's
finding: a join refused for a full room left /r/<code>/join in the address bar, and reloading
it answered 405)."""

from __future__ import annotations

import pytest

from app.web.form_urls import FORMS


@pytest.mark.parametrize("form", sorted(FORMS))
def test_a_forms_address_opened_as_a_page_leads_back_to_the_form(client, form: str) -> None:
    response = client.get(form.replace("{code}", "ABC123"), follow_redirects=False)
    assert response.status_code == 303
    assert response.headers["location"] == FORMS[form].replace("{code}", "ABC123")


def test_a_refused_join_reloaded_shows_the_room_again(client) -> None:
    """The join form's own address, as a reload asks for it: back at the room's page."""
    created = client.post("/rooms", data={"game": "knister", "name": "Anna"})
    code = created.url.path.rsplit("/", 1)[1]
    page = client.get(f"/r/{code}/join")  # followed: the room's page
    assert page.status_code == 200 and page.url.path == f"/r/{code}"
