"""What must hold after faults (a server SIGKILLed, Postgres or Redis restarted, several
processes), for every room game: read from the database and from the pages themselves; and
``running``, a server given time to start on a busy machine.

- ``assert_stored_once``: every acknowledged action id is stored exactly once (a game event or
  a room action), an action left unanswered at most once;
- ``assert_bot_moves_once``: every bot move was applied on the very state it was decided on
  (its action id names the last event it saw: docs/architecture.md, "Bots"), so none twice;
- ``assert_pages_show``: every open page reached a version and shows what the state is then,
  its elements as htmx would have swapped them in (``page_elements``), checked by the game's
  driver (``tests/support/game_drivers.py``).
"""

from __future__ import annotations

import asyncio
from collections import Counter
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

from sqlalchemy import select

from app.store.db import make_engine
from app.store.models import Game, GameEvent, Room, RoomAction
from tests.support.players import RoomSocket
from tests.support.server import ServerProcess

START = 60.0
"""Seconds a server may take to come up (or come back after a kill) on a busy machine."""

VOID = frozenset({"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta",
                  "source", "track", "wbr"})


@contextmanager
def running(env: dict[str, str], log: Path) -> Iterator[ServerProcess]:
    """A started server (given ``START`` seconds), stopped by its pid afterwards."""
    server = ServerProcess(env, log=log)
    try:
        yield server.start(timeout=START)
    finally:
        server.stop()


class _Elements(HTMLParser):
    """Collects the outer HTML of every element with an ``id`` in one fragment."""

    def __init__(self, text: str) -> None:
        super().__init__(convert_charrefs=False)
        self.text = text
        self.lines = [0]
        for line in text.splitlines(keepends=True):
            self.lines.append(self.lines[-1] + len(line))
        self.open: list[tuple[str, str | None, int]] = []  # tag, id, start offset
        self.found: dict[str, str] = {}

    def _offset(self) -> int:
        line, column = self.getpos()
        return self.lines[line - 1] + column

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        element_id = dict(attrs).get("id")
        start = self._offset()
        if tag in VOID:
            if element_id:
                self.found[element_id] = self.get_starttag_text() or ""
            return
        self.open.append((tag, element_id, start))

    def handle_endtag(self, tag: str) -> None:
        if not any(t == tag for t, _, _ in self.open):
            return
        end = self.text.index(">", self._offset()) + 1
        while self.open:
            open_tag, element_id, start = self.open.pop()
            if element_id:
                self.found[element_id] = self.text[start:end]
            if open_tag == tag:
                return


def page_elements(fragments: Iterable[str]) -> dict[str, str]:
    """Element id -> its outer HTML on a page that received ``fragments`` in order, each
    element of a fragment replacing the one with its id (htmx's swap by id; an element that
    holds others brings theirs along)."""
    page: dict[str, str] = {}
    for fragment in fragments:
        parser = _Elements(fragment)
        parser.feed(fragment)
        parser.close()
        page.update(parser.found)
    return page


async def assert_pages_show(sockets: Iterable[RoomSocket], state: dict[str, Any], driver: Any,
                            timeout: float = 10) -> None:
    """Every socket received a live fragment of ``state["version"]`` (the room's
    ``state.json``) within ``timeout`` seconds, and shows ``state`` as the game's ``driver``
    (``page_problems``) and the version marker say."""
    sockets = list(sockets)
    await asyncio.gather(*(s.wait_version(state["version"], timeout) for s in sockets))
    marker = f'data-version="{state["version"]}"'
    for index, sock in enumerate(sockets):
        page = page_elements(sock.fragments)
        problems = driver.page_problems(page, state)
        if marker not in page.get("live-version", ""):
            problems.append(f"version marker is not {state['version']}")
        assert not problems, f"page {index} at version {sock.version}: {problems}"


async def stored_action_ids(database_url: str, code: str) -> Counter[str]:
    """How many times each action id is stored for room ``code``: its games' events and its
    room actions, read from the database directly."""
    engine = make_engine(database_url)
    try:
        async with engine.connect() as conn:
            events = (await conn.execute(
                select(GameEvent.action_id).join(Game, Game.id == GameEvent.game_id)
                .join(Room, Room.id == Game.room_id)
                .where(Room.code == code, GameEvent.action_id.is_not(None)))).scalars()
            actions = (await conn.execute(
                select(RoomAction.action_id).join(Room, Room.id == RoomAction.room_id)
                .where(Room.code == code))).scalars()
            return Counter([*events, *actions])
    finally:
        await engine.dispose()


async def bot_moves(database_url: str, code: str) -> list[tuple[int, int, int | None, str]]:
    """``(game id, seq, seat, action id)`` of every stored bot move of room ``code``."""
    engine = make_engine(database_url)
    try:
        async with engine.connect() as conn:
            rows = (await conn.execute(
                select(GameEvent.game_id, GameEvent.seq, GameEvent.seat_id, GameEvent.action_id)
                .join(Game, Game.id == GameEvent.game_id).join(Room, Room.id == Game.room_id)
                .where(Room.code == code, GameEvent.action_id.like("bot.%"))
                .order_by(GameEvent.game_id, GameEvent.seq))).all()
            return [tuple(row) for row in rows]
    finally:
        await engine.dispose()


def assert_stored_once(stored: Counter[str], acked: Iterable[str],
                       unanswered: Iterable[str] = ()) -> None:
    """Every ``acked`` action id is stored exactly once, every ``unanswered`` one (sent,
    then the connection died) at most once; ``stored``: ``stored_action_ids``."""
    acked = list(acked)
    assert len(acked) == len(set(acked)), "an action id was acknowledged twice"
    wrong = {aid: stored[aid] for aid in acked if stored[aid] != 1}
    assert not wrong, f"acknowledged actions not stored exactly once: {wrong}"
    twice = {aid: stored[aid] for aid in unanswered if stored[aid] > 1}
    assert not twice, f"unanswered actions stored twice: {twice}"


def assert_bot_moves_once(moves: list[tuple[int, int, int | None, str]]) -> None:
    """Each bot move (``bot_moves``) is stored under the id ``bot.<game>.<seq before>.<seat>``
    of the state it was decided on: applied once, on that state and for that seat."""
    assert moves, "no bot move stored"
    wrong = [m for m in moves if m[3] != f"bot.{m[0]}.{m[1] - 1}.{m[2]}"]
    assert not wrong, f"bot moves not applied on the state they were decided on: {wrong}"
