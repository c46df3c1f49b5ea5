"""Room pages over HTTP: creating, joining, the reasons a link no longer works, languages."""

from __future__ import annotations

import pytest

WAITING_ROOM = {"en": "Waiting room", "nl": "Wachtkamer", "de": "Warteraum"}


def _create(client, name="Anna", game="knister") -> str:
    response = client.post("/rooms", data={"game": game, "name": name}, follow_redirects=False)
    assert response.status_code == 303
    return response.headers["location"].rsplit("/", 1)[1]


@pytest.mark.parametrize("lang", ["en", "nl", "de"])
def test_room_page_renders_in_each_language(client, lang: str) -> None:
    code = _create(client)
    page = client.get(f"/r/{code}", headers={"accept-language": lang}).text
    assert WAITING_ROOM[lang] in page
    assert f'data-share-link="http://testserver/r/{code}"' in page
    assert "<svg" in page  # the QR code


def test_room_code_is_unguessable(client) -> None:
    codes = {_create(client) for _ in range(5)}
    assert len(codes) == 5
    assert all(len(c) == 16 for c in codes)  # 96 random bits, URL-safe


def test_unknown_room_says_so(client) -> None:
    response = client.get("/r/AAAAAAAAAAAAAAAA", headers={"accept-language": "en"})
    assert response.status_code == 404
    assert "This room does not exist." in response.text
    assert client.get("/r/..%2f..").status_code == 404


def test_visitor_gets_a_join_form_with_the_name_prefilled(client, settings) -> None:
    from fastapi.testclient import TestClient

    from app.main import create_app

    code = _create(client)
    with TestClient(create_app(settings)) as other:
        other.post("/name", data={"name": "Bram"})
        page = other.get(f"/r/{code}").text
        assert 'name="name" value="Bram"' in page
        assert 'data-action="watch"' in page
        response = other.post(f"/r/{code}/join", data={"name": "Bram"}, follow_redirects=False)
        assert response.status_code == 303
        assert 'data-action="leave"' in other.get(f"/r/{code}").text


def test_same_name_gets_separate_seats_told_apart(client, settings) -> None:
    from fastapi.testclient import TestClient

    from app.main import create_app

    code = _create(client, name="Sam")
    with TestClient(create_app(settings)) as other:
        other.post(f"/r/{code}/join", data={"name": "Sam"})
        state = other.get(f"/r/{code}/state.json").json()
    assert [s["label"] for s in state["seats"]] == ["Sam", "Sam (2)"]


def test_full_room_offers_to_watch(client, settings) -> None:
    from fastapi.testclient import TestClient

    from app.main import create_app

    code = _create(client)
    app = create_app(settings)
    for i in range(11):
        with TestClient(app) as guest:
            assert guest.post(f"/r/{code}/join", data={"name": f"P{i}"},
                              follow_redirects=False).status_code == 303
    with TestClient(app) as late:
        page = late.get(f"/r/{code}", headers={"accept-language": "en"})
        assert "This room is full." in page.text
        assert f'href="/r/{code}?watch=1"' in page.text
        refused = late.post(f"/r/{code}/join", data={"name": "Late"})
        assert refused.status_code == 409
        watching = late.get(f"/r/{code}?watch=1", headers={"accept-language": "en"}).text
        assert "You are watching." in watching
        assert "data-cell" not in watching


def test_names_with_html_are_escaped_on_the_room_page(client) -> None:
    code = _create(client, name="<img src=x onerror=alert(1)>"[:24])
    page = client.get(f"/r/{code}").text
    assert "<img src=x" not in page
    assert "&lt;img src=x" in page


def test_bad_names_and_games_are_refused(client) -> None:
    assert client.post("/rooms", data={"game": "chess", "name": "A"}).status_code == 422
    assert client.post("/rooms", data={"game": "knister", "name": " "}).status_code == 422
    code = _create(client)
    assert client.post(f"/r/{code}/join", data={"name": "\x00"}).status_code == 422


def test_test_dice_hook_is_absent_without_test_hooks(client, settings) -> None:
    from fastapi.testclient import TestClient

    from app.main import create_app

    code = _create(client)
    prod = settings.model_copy(update={"test_hooks": False})
    with TestClient(create_app(prod)) as c:
        assert c.post(f"/_test/rooms/{code}/dice", json={"faces": [6, 6]}).status_code == 404


def test_room_creation_is_rate_limited(client, settings) -> None:
    from fastapi.testclient import TestClient

    from app.main import create_app

    limited = settings.model_copy(update={"rate_limit_rooms": "3/minute"})
    with TestClient(create_app(limited)) as c:
        codes = [c.post("/rooms", data={"game": "knister", "name": "A"},
                        follow_redirects=False).status_code for _ in range(4)]
    assert codes == [303, 303, 303, 429]


def test_joins_are_rate_limited(client, settings) -> None:
    from fastapi.testclient import TestClient

    from app.main import create_app

    code = _create(client)
    limited = settings.model_copy(update={"rate_limit_joins": "2/minute"})
    with TestClient(create_app(limited)) as c:
        statuses = [c.post(f"/r/{code}/join", data={"name": "B"},
                           follow_redirects=False).status_code for _ in range(3)]
    assert statuses == [303, 303, 429]


def test_room_codes_cannot_be_enumerated_cheaply(client, settings) -> None:
    from fastapi.testclient import TestClient

    from app.main import create_app

    code = _create(client)
    limited = settings.model_copy(update={"rate_limit_misses": "5/minute"})
    with TestClient(create_app(limited)) as c:
        misses = [c.get(f"/r/{'A' * 15}{i}").status_code for i in range(6)]
        assert misses == [404] * 5 + [429]
        assert c.get(f"/r/{code}").status_code == 429  # even a real code, once over


def test_the_new_room_form_takes_a_pace_and_refuses_bad_ones_with_the_form(client) -> None:
    """Turn-based rooms from the new-room form (issue 27); a fresh-user trial found a bare
    400 page for a deadline that is not a number, and the pace choice lost on the form."""
    made = client.post("/rooms", data={"game": "kniffel", "name": "Anna", "pace": "turns",
                                       "turn_deadline_hours": "72"}, follow_redirects=False)
    assert made.status_code == 303
    code = made.headers["location"].rsplit("/", 1)[1]
    options = client.get(f"/r/{code}/state.json").json()["options"]
    assert (options["pace"], options["turn_deadline_hours"]) == ("turns", 72)
    for pace, hours in (("turns", "abc"), ("turns", "-3"), ("turns", "99999999"),
                        ("forever", "24"), ("turns", "5")):
        page = client.post("/rooms", data={"game": "kniffel", "name": "Anna", "pace": pace,
                                           "turn_deadline_hours": hours},
                           headers={"accept-language": "en"})
        assert page.status_code == 422, (pace, hours)
        assert "Choose a pace and a turn deadline from the list." in page.text
        checked = 'value="turns" checked' in page.text
        assert checked == (pace == "turns"), (pace, hours)  # the choice is kept
        assert '<option value="24" selected>' in page.text  # a bad deadline: the default
    race = client.post("/rooms", data={"game": "knikkers_race", "name": "Anna",
                                       "pace": "turns"}, headers={"accept-language": "en"})
    assert race.status_code == 422 and "This game is played live only." in race.text


def test_a_guest_reads_only_the_chosen_paces_explanation(client, settings) -> None:
    """A guest's lobby shows the host's choices read-only: a live room's pace came with the
    explanation of turn-based play, read as the room's mode (a fresh user's finding)."""
    from fastapi.testclient import TestClient

    from app.main import create_app

    live = _create(client)
    turns = client.post("/rooms", data={"game": "kniffel", "name": "Anna", "pace": "turns"},
                        follow_redirects=False).headers["location"].rsplit("/", 1)[1]
    with TestClient(create_app(settings)) as guest:
        for code, shown in ((live, False), (turns, True)):
            page = guest.post(f"/r/{code}/join", data={"name": "Bram"},
                              headers={"accept-language": "en"})
            assert page.status_code == 200 and 'data-option-ro="pace"' in page.text
            assert ("In turns, everyone gets a push" in page.text) == shown, code
