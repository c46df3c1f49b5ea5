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


# ---- a form refused and shown again names its page, not the POST address ------------------
# (a fresh-user trial: spaces as a name on a room's join form left the browser on
# /r/<code>/join: the language buttons pointed there and a reload asked to send the form again)

HTML = {"accept": "text/html", "accept-language": "en"}


def _address(text: str) -> tuple[str | None, str | None]:
    """The page address a refused form's page gives the browser (the meta that
    static/js/app.js puts in the address bar) and its language buttons' ``next``."""
    import html
    import re

    meta = re.search(r'<meta name="knobel-page-address" content="([^"]*)">', text)
    lang = re.search(r'<form class="langs"[^>]*>\s*<input type="hidden" name="next" '
                     r'value="([^"]*)">', text)
    return (html.unescape(meta[1]) if meta else None, html.unescape(lang[1]) if lang else None)


def test_a_refused_join_names_the_rooms_page(client) -> None:
    from tests.groups.test_pages import Visitor

    created = client.post("/rooms", data={"game": "knister", "name": "Anna"},
                          follow_redirects=False)
    code = created.headers["location"].rsplit("/", 1)[1]
    refused = Visitor(client).post(f"/r/{code}/join", data={"name": "   "}, headers=HTML)
    assert refused.status_code == 422 and "Please enter a name." in refused.text
    assert _address(refused.text) == (f"/r/{code}", f"/r/{code}")


@pytest.mark.parametrize(("path", "form", "page"), [
    ("/rooms", {"game": "knister", "name": "   "}, "/rooms/new"),
    ("/rooms", {"game": "chess", "name": "Anna"}, "/rooms/new"),
    ("/play-alone", {"game": "knister", "name": "   "}, "/"),
    ("/rooms/bots", {"game": "knister", "bots": "9", "name": "Anna"}, "/"),
    ("/name", {"name": "   ", "next": "/knikkers"}, "/name?next=/knikkers"),
    ("/name", {"name": "   "}, "/name"),
    ("/groups", {"name": "   ", "you": "Anna"}, "/groups"),
])
def test_every_refused_form_names_its_page(client, path, form, page) -> None:
    refused = client.post(path, data=form, headers=HTML)
    assert refused.status_code == 422
    assert _address(refused.text) == (page, page)


def test_a_refused_group_invite_and_a_room_form_for_a_group_name_their_pages(client) -> None:
    from tests.groups.test_pages import Visitor, _invite

    made = client.post("/groups", data={"name": "Club", "you": "Anna"}, follow_redirects=False)
    group = made.headers["location"].rsplit("/", 1)[1]
    invite = _invite(client, group)
    refused = Visitor(client).post(invite, data={"name": "   "}, headers=HTML)
    assert refused.status_code == 422
    assert _address(refused.text) == (invite, invite)
    refused = client.post("/rooms", data={"game": "chess", "name": "Anna", "group": group},
                          headers=HTML)
    assert refused.status_code == 422
    assert _address(refused.text) == (f"/rooms/new?group={group}",) * 2


def test_a_page_opened_with_get_gives_no_address_to_replace(client) -> None:
    page = client.get("/rooms/new?x=1", headers=HTML).text
    assert _address(page) == (None, "/rooms/new?x=1")
