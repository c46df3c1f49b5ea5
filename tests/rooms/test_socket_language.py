"""Errors on the room socket come in the player's language: the ``lang`` cookie (the choice
made with the language switch) or else ``Accept-Language``, as for pages (``app/i18n.py``,
``app/web/middleware.py``). Expected texts are the catalogs' translations, written out here.
"""

from __future__ import annotations

import pytest

from tests.support.players import Guest

pytestmark = pytest.mark.server

# msgid -> (nl, de), copied from app/locale/{nl,de}/LC_MESSAGES/messages.po
TEXTS = {
    "The message is malformed.": ("Het bericht is ongeldig.", "Die Nachricht ist ungültig."),
    "The message is too large.": ("Het bericht is te groot.", "Die Nachricht ist zu groß."),
    "Only the host can do that.": ("Dat kan alleen de gastheer.", "Das kann nur der Gastgeber."),
    "No game is running.": ("Er loopt geen spel.", "Es läuft kein Spiel."),
    "It is not your turn to roll.": ("Je bent niet aan de beurt om te gooien.",
                                     "Du bist nicht mit Würfeln dran."),
}
LANGS = ("nl", "de")


async def _table(server):
    """An English host, Nina who chose Dutch with the language switch (cookie), and Dirk
    whose browser asks for German (Accept-Language); all three connected, in the lobby."""
    host, nina, dirk = (Guest(server.url, n) for n in ("Host", "Nina", "Dirk"))
    code = await host.create_room("knister")
    switched = await nina.http.post("/lang", data={"lang": "nl", "next": "/"})
    assert switched.status_code == 303 and nina.http.cookies["lang"] == "nl"
    for guest in (nina, dirk):
        assert (await guest.join(code)).status_code == 303
    sockets = {
        "en": await host.connect(code),
        "nl": await nina.connect(code, accept_language="de-DE,de;q=0.9"),  # the cookie wins
        "de": await dirk.connect(code, accept_language="de-DE,de;q=0.9,en;q=0.5"),
    }
    return (host, nina, dirk), sockets, code


async def _close(guests, sockets) -> None:
    for sock in sockets.values():
        await sock.close()
    for guest in guests:
        await guest.aclose()


async def test_malformed_and_oversized_messages_are_answered_in_the_players_language(server):
    guests, sockets, code = await _table(server)
    before = await guests[0].state(code)
    for i, lang in enumerate(LANGS):
        sock = sockets[lang]
        for raw, code_id, msgid in (
            ("not json", "bad_message", "The message is malformed."),
            (b"\x00\x01binary", "bad_message", "The message is malformed."),
            ("x" * 3000, "too_large", "The message is too large."),
        ):
            reply = await sock.send_raw_for_error(raw)
            assert (reply.ok, reply.code, reply.message) == (
                False, code_id, TEXTS[msgid][i]), (lang, raw[:20])
        reply = await sock.act(5)  # an action whose type is not a string
        assert (reply.code, reply.message) == ("bad_message", TEXTS["The message is malformed."][i])
    english = await sockets["en"].send_raw_for_error("not json")
    assert english.message == "The message is malformed."
    assert await guests[0].state(code) == before
    await _close(guests, sockets)


async def test_refused_room_and_game_actions_are_answered_in_the_players_language(server):
    guests, sockets, code = await _table(server)
    before = await guests[0].state(code)
    for i, lang in enumerate(LANGS):
        # a room action only the host may do
        start = await sockets[lang].act("start", version=before["version"])
        assert (start.code, start.message) == ("not_host", TEXTS["Only the host can do that."][i])
        roll = await sockets[lang].act("roll", roll=0)  # a game action in the lobby
        assert (roll.code, roll.message) == ("not_playing", TEXTS["No game is running."][i])
    assert await guests[0].state(code) == before
    assert (await sockets["en"].act("start", version=before["version"])).ok
    state = await guests[0].state(code)
    assert state["current"]["roller"] == state["seats"][0]["id"]  # the host rolls first
    for i, lang in enumerate(LANGS):
        roll = await sockets[lang].act("roll", roll=0)  # refused by the Knister rules
        assert (roll.code, roll.message) == (
            "not_your_turn", TEXTS["It is not your turn to roll."][i])
    assert await guests[0].state(code) == state
    await _close(guests, sockets)
