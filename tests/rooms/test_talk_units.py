"""The pieces of talk at the table that need no server (docs/rules.md, "Talk at the table"):
typed text cleaned, the chat switch of the lobby form, and the broadcast wire format of chat
and reaction announcements."""

from __future__ import annotations

import pytest

from app.live.broadcast import Message, decode, encode
from app.rooms.games.base import OptionError
from app.talk.lines import clean_text, parse_chat_option


@pytest.mark.parametrize(("raw", "cleaned"), [
    ("  hello   table ", "hello table"),
    ("a\tb\nc\r\nd", "a b c d"),
    ("bell\u0007 and\u200b zero-width", "bell and zero-width"),
    ("<b>as typed</b>", "<b>as typed</b>"),
    (" \n\t ", None),
    ("", None),
    (42, None),
    (None, None),
])
def test_typed_text_is_cleaned(raw, cleaned) -> None:
    assert clean_text(raw) == cleaned


@pytest.mark.parametrize(("form", "options"), [
    ({}, {}),
    ({"chat": "true"}, {}),
    ({"chat": ["false", "true"]}, {}),
    ({"chat": "false"}, {"chat": False}),
    ({"chat": ["false"]}, {"chat": False}),
    ({"chat": False}, {"chat": False}),
])
def test_the_chat_switch(form, options) -> None:
    assert parse_chat_option(form) == options


def test_a_bad_chat_switch_is_refused() -> None:
    with pytest.raises(OptionError) as refused:
        parse_chat_option({"chat": "maybe"})
    assert (refused.value.code, refused.value.field) == ("bad_option", "chat")


def test_chat_and_reaction_announcements_on_the_wire() -> None:
    chat = Message("c", "Ab12Cd34Ef56Gh78")
    react = Message("r", "Ab12Cd34Ef56Gh78", seat=17, reaction="well_played")
    assert encode(chat) == "c Ab12Cd34Ef56Gh78"
    assert encode(react) == "r Ab12Cd34Ef56Gh78 17 well_played"
    assert decode("c Ab12Cd34Ef56Gh78") == chat
    assert decode(b"r Ab12Cd34Ef56Gh78 17 well_played") == react
    assert decode("r Ab12Cd34Ef56Gh78 x nice") is None
    assert decode("c") is None
