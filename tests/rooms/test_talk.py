"""Talk at the table over real room sockets (docs/rules.md, "Talk at the table"): chat lines
are escaped, at most 200 characters, at most 5 messages in 10 s per player, the host takes one
away, spectators read but do not write, the host turns the chat off, a page opened later shows
the newest 50 lines; reactions reach every page; and a chat line never makes a move stale."""

from __future__ import annotations

import asyncio
import re

import pytest

from app.store.db import Database
from app.store.models import ChatMessage, Room, Seat
from tests.support.players import Guest, RoomSocket, close_all, wait_for

pytestmark = [pytest.mark.server, pytest.mark.one_backend]

LINE = re.compile(r'data-chat-line="(\d+)"[^>]*><span class="chat-name">([^<]*):</span> '
                  r'<span class="chat-body">([^<]*)</span>')


def shown_lines(sock: RoomSocket) -> list[tuple[str, str]]:
    """``(name, body as HTML)`` of the newest chat log this page was sent."""
    log = next(f for f in reversed(sock.fragments) if 'id="chat-log"' in f)
    log = log[log.index('id="chat-log"'):]
    log = log[:log.index("</div>")]
    return [(m.group(2), m.group(3)) for m in LINE.finditer(log)]


async def wait_lines(sock: RoomSocket, count: int) -> list[tuple[str, str]]:
    """Wait until the page's chat log shows ``count`` lines; returns them."""
    def shown() -> bool:
        try:
            return len(shown_lines(sock)) == count
        except StopIteration:
            return False
    await wait_for(shown)
    return shown_lines(sock)


async def table(server, names=("Anna", "Bram")) -> tuple[str, list[Guest], list[RoomSocket]]:
    """A Knister room with ``names`` seated (the first hosts), each with an open page that
    shows the current version and its talk parts."""
    guests = [Guest(server.url, name) for name in names]
    code = await guests[0].create_room("knister")
    for guest in guests[1:]:
        assert (await guest.join(code)).status_code == 303
    socks = [await g.connect(code) for g in guests]
    version = (await guests[0].state(code))["version"]
    for sock in socks:
        await sock.wait_version(version)
        await wait_lines(sock, 0)
    return code, guests, socks


async def test_a_chat_line_is_escaped_and_reaches_every_page(server) -> None:
    code, guests, (a, b) = await table(server)
    reply = await a.act("chat", text='  <script>alert("x")</script> & \u0007 <b>hi</b>  ')
    assert reply.ok, reply
    for sock in (a, b):
        assert await wait_lines(sock, 1) == [
            ("Anna", "&lt;script&gt;alert(&#34;x&#34;)&lt;/script&gt; &amp; &lt;b&gt;hi&lt;/b&gt;")]
        assert "<script>" not in "".join(sock.fragments)
    await close_all(guests, [a, b])


async def test_a_line_has_at_most_200_characters(server) -> None:
    code, guests, (a, b) = await table(server)
    too_long = await a.act("chat", text="é" * 201)
    assert (too_long.ok, too_long.code, too_long.message) == (
        False, "chat_too_long", "A message has at most 200 characters.")
    empty = await a.act("chat", text=" \n\t ")
    assert (empty.ok, empty.code) == (False, "chat_empty")
    assert (await a.act("chat", text="é" * 200)).ok
    assert await wait_lines(b, 1) == [("Anna", "é" * 200)]
    await close_all(guests, [a, b])


async def test_the_sixth_message_in_ten_seconds_is_refused(server) -> None:
    code, guests, (a, b) = await table(server)
    for n in range(3):
        assert (await a.act("chat", text=f"line {n}")).ok
    assert (await a.act("react", reaction="nice")).ok
    assert (await a.act("chat", text="line 3")).ok
    refused = await a.act("chat", text="line 4")
    assert (refused.ok, refused.code, refused.message) == (
        False, "chat_rate",
        "You are talking too fast: wait a few seconds (at most 5 messages in 10 seconds).")
    refused = await a.act("react", reaction="ouch")
    assert (refused.ok, refused.code) == (False, "chat_rate")
    assert (await b.act("chat", text="mine")).ok  # the rate is per player
    assert [body for _, body in await wait_lines(b, 5)] == [
        "line 0", "line 1", "line 2", "line 3", "mine"]
    await close_all(guests, [a, b])


async def test_the_host_removes_a_line_and_nobody_else_can(server) -> None:
    code, guests, (a, b) = await table(server)
    assert (await b.act("chat", text="first")).ok
    assert (await b.act("chat", text="rude")).ok
    await wait_lines(a, 2)
    ids = re.findall(r'data-chat-line="(\d+)"', next(
        f for f in reversed(a.fragments) if 'id="chat-log"' in f))
    assert len(ids) == 2
    assert 'data-action="unchat"' in next(f for f in reversed(a.fragments) if 'id="chat-log"' in f)
    assert 'data-action="unchat"' not in next(
        f for f in reversed(b.fragments) if 'id="chat-log"' in f)
    refused = await b.act("unchat", line=int(ids[1]))
    assert (refused.ok, refused.code) == (False, "not_host")
    assert (await a.act("unchat", line=int(ids[1]))).ok
    for sock in (a, b):
        assert await wait_lines(sock, 1) == [("Bram", "first")]
    again = await a.act("unchat", line=int(ids[1]))
    assert (again.ok, again.code) == (False, "no_such_message")
    await close_all(guests, [a, b])


async def test_a_spectator_reads_but_cannot_write_or_react(server) -> None:
    code, guests, (a, b) = await table(server)
    watcher = Guest(server.url, "Cleo")
    await watcher.http.get(f"/r/{code}?watch=1")
    w = await watcher.connect(code)
    await wait_lines(w, 0)
    assert "only seated players can talk" in next(
        f for f in reversed(w.fragments) if 'id="talk-controls"' in f)
    for kind, fields in (("chat", {"text": "hello"}), ("react", {"reaction": "nice"})):
        refused = await w.act(kind, **fields)
        assert (refused.ok, refused.code, refused.message) == (
            False, "not_seated", "Only seated players can talk at the table."), kind
    assert (await a.act("chat", text="welcome")).ok
    assert await wait_lines(w, 1) == [("Anna", "welcome")]
    await close_all([*guests, watcher], [a, b, w])


async def test_the_host_turns_the_chat_off(server) -> None:
    code, guests, (a, b) = await table(server)
    assert (await b.act("chat", text="before")).ok
    version = (await guests[0].state(code))["version"]
    assert (await a.act("options", version=version, chat="false")).ok
    assert (await guests[0].state(code))["options"]["chat"] is False
    await wait_for(lambda: 'data-chat="off"' in next(
        f for f in reversed(b.fragments) if 'id="chat-log"' in f))
    refused = await b.act("chat", text="after")
    assert (refused.ok, refused.code, refused.message) == (
        False, "chat_off", "The host turned the chat off.")
    assert (await b.act("react", reaction="ouch")).ok  # reactions stay
    version = (await guests[0].state(code))["version"]
    assert (await a.act("options", version=version, chat=["false", "true"])).ok
    assert "chat" not in (await guests[0].state(code))["options"]
    assert await wait_lines(b, 1) == [("Bram", "before")]
    await close_all(guests, [a, b])


async def test_a_reaction_is_shown_on_the_senders_seat_for_everyone(server) -> None:
    code, guests, (a, b) = await table(server)
    seat = re.search(r'data-seat="(\d+)"[^>]*>\s*<span class="dot"[^>]*></span>\s*'
                     r'<span class="seat-name">Bram<', "".join(a.fragments)).group(1)
    assert (await b.act("react", reaction="well_played")).ok
    for sock in (a, b):
        await wait_for(lambda s=sock: any(
            'id="reaction-flash"' in f and f'data-seat="{seat}" data-reaction="well_played"' in f
            for f in s.fragments))
    flash = next(f for f in a.fragments if 'id="reaction-flash"' in f)
    assert "Bram: well played" in flash
    refused = await b.act("react", reaction="boo")
    assert (refused.ok, refused.code) == (False, "bad_message")
    await close_all(guests, [a, b])


async def test_a_move_right_after_a_chat_line_is_not_stale(server) -> None:
    code, guests, (a, b) = await table(server)
    version = (await guests[0].state(code))["version"]
    # room actions name the room version: a chat line makes none
    assert (await b.act("chat", text="30 s please")).ok
    options = await a.act("options", version=version, timer="30")
    assert (options.ok, options.version) == (True, version + 1), options
    version = options.version
    assert (await a.act("chat", text="ok")).ok
    assert (await a.act("start", version=version)).ok
    basis = dict(a.basis)
    seen = len(b.fragments)
    # the roller sends a chat line and its roll at once, both decided on the same page
    chat, roll = await asyncio.gather(a.act("chat", text="here goes", basis=basis),
                                      a.act("roll", basis=basis))
    assert chat.ok, chat
    assert roll.ok, roll
    assert roll.version == basis["version"] + 1
    # another player's move decided before the chat line arrived is not stale either
    await b.wait_version(roll.version)
    basis_b = dict(b.basis)
    assert (await b.act("chat", text="good luck")).ok
    placed = await b.act("place", cell="0,0", basis=basis_b)
    assert placed.ok, placed
    await wait_lines(a, 4)
    chat_only = [f for f in b.fragments[seen:] if 'id="chat-log"' in f]
    assert chat_only and all('id="live' not in f for f in chat_only)
    await close_all(guests, [a, b])


async def test_a_page_opened_later_shows_the_newest_50_lines(server, settings) -> None:
    anna = Guest(server.url, "Anna")
    code = await anna.create_room("knister")
    db = Database(settings.database_url)
    try:  # 55 stored lines (as many through sockets would take a minute: the rate)
        async with db.sessionmaker() as session, session.begin():
            room = (await session.execute(
                Room.__table__.select().where(Room.code == code))).one()
            seat = (await session.execute(
                Seat.__table__.select().where(Seat.room_id == room.id))).one()
            session.add_all([ChatMessage(room_id=room.id, seat_id=seat.id,
                                         player_id=seat.player_id, name="Anna",
                                         body=f"line {n}") for n in range(55)])
    finally:
        await db.dispose()
    page = await anna.http.get(f"/r/{code}")
    bodies = re.findall(r'<span class="chat-body">([^<]*)</span>', page.text)
    assert bodies == [f"line {n}" for n in range(5, 55)]
    late = Guest(server.url, "Dora")
    assert (await late.join(code)).status_code == 303
    d = await late.connect(code)
    assert [body for _, body in await wait_lines(d, 50)] == [f"line {n}" for n in range(5, 55)]
    await close_all([anna, late], [d])


async def test_a_line_carries_at_most_two_combining_marks_per_character(server) -> None:
    """A fresh-user trial: "ok x" and 150 x U+0301 was broadcast as typed and drew a tall
    smear over the line above (docs/rules.md, "Text others see")."""
    code, guests, (a, b) = await table(server)
    assert (await a.act("chat", text="ok x" + "\u0301" * 150)).ok
    for sock in (a, b):
        assert await wait_lines(sock, 1) == [("Anna", "ok x\u0301\u0301")]
    await close_all(guests, [a, b])
