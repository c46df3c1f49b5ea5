"""The generic room tests, run for every registered room game (``app.rooms.games.GAMES``: the
built-in games and those the ``EXTRA_GAMES`` setting adds, e.g. tests/games/), so that a new
game is covered by adding it, not by writing these again.

For each game: the lobby (a room made by the new-room form, a second player joins, the
host's options form as the page sends it is accepted and keeps the defaults), the start,
the pages of a running and a finished game for players and a spectator (every live part in
them), turns (the seats ``awaiting`` names can move; another seat's same move is refused and
changes nothing), a seat leaving a running game (the game goes on and ends; the leaver is
listed unranked), the room rebuilt from the event log alone equal to the live one (version,
``public()`` JSON, the rendered page) all along a game, a move decided on an old basis
refused as ``stale`` changing nothing, a room of bots played to the end, and every live part
rendered for players and a spectator at every stage.

Moves come from the game's own bot (``GamePlugin.bot``: the move a page would send, with the
basis it was decided on, ``app.rooms.bots.moves.next_move``); a game without a bot is played
to its end by its own timers (``RoomService.play_out``: the server plays for away players),
and the tests that need a move source (turns, stale, bots) run for the games with a bot.
Each test runs on one database backend, SQLite and Postgres in turn (``one_backend``).
"""

from __future__ import annotations

import json
import re
from collections import Counter
from datetime import timedelta
from html.parser import HTMLParser
from typing import Any

import pytest
from sqlalchemy import select

from app.rooms.bots import BotsInRooms
from app.rooms.bots.control import BotControl
from app.rooms.bots.lease import LocalLease
from app.rooms.bots.moves import next_move
from app.rooms.bots.runner import BotRunner
from app.rooms.errors import RoomError
from app.rooms.games import GAMES
from app.rooms.games.base import ActionError, Strategies
from app.rooms.rules import page_basis, ranking
from app.rooms.state import RoomState
from app.store.models import GameEvent
from app.web.room_view import ROOM_PART_IDS, ROOM_PARTS, live_context, render_update
from app.web.templating import templates
from tests.support.room_service import ServiceRoom, service_room
from tests.support.waiting import until_async

pytestmark = pytest.mark.one_backend

EVERY_GAME = list(GAMES)
WITH_BOT = [kind for kind, plugin in GAMES.items() if plugin.bot is not None]
"""The games with a move source: their bot."""
NO_TABLES: Strategies = lambda ruleset, options: None  # noqa: E731 - bots by rule of thumb
STEPS = 24
"""Moves made by the bots (as pages send them) before a game is played out by its timers."""


# ----- moves ------------------------------------------------------------------------------


def bot_moves(state: RoomState) -> dict[int, dict[str, Any]]:
    """Per seat the game awaits now, the move its bot would make (the message a page would
    send, with its basis), in ``awaiting``'s order; seats without a move are left out."""
    moves = {}
    for seat in state.plugin.awaiting(state.game_state):
        found = next_move(state, seat, "strong", NO_TABLES)
        if found is not None:
            moves[seat] = found[1]
    return moves


async def step(room: ServiceRoom) -> bool:
    """One move as a page sends it: the first awaited seat's bot move. False (nothing sent)
    once the game is over or when the game has no bot."""
    state = await room.state()
    if state.status != "playing" or state.plugin.bot is None:
        return False
    moves = bot_moves(state)
    assert moves, f"the game waits for {state.plugin.awaiting(state.game_state)}: no move"
    seat, message = next(iter(moves.items()))
    await room.act(await room.player_of(seat), message)
    return True


async def finish(room: ServiceRoom) -> None:
    """Play the running game to its end as the server plays for away players (its own
    timers: ``RoomService.play_out``); the room shows the result."""
    if (await room.state()).status == "playing":
        await room.service.play_out(room.code)
    assert (await room.state()).status == "finished"


def snapshot(state: RoomState) -> dict[str, Any]:
    """What the room shows everyone: version, status, seats, games, the game's ``public()``
    as JSON (byte for byte)."""
    public = (state.plugin.public(state.game_state) if state.game_state is not None else None)
    return {"version": state.version, "status": state.status, "last_seq": state.last_seq,
            "seats": [(s.id, s.player_id, s.name, s.status, s.label) for s in state.seats],
            "games": [(g.number, g.status, list(g.seat_ids), dict(g.totals), list(g.left))
                      for g in state.games],
            "public": json.dumps(public, sort_keys=True, default=str)}


# ----- lobby, start and pages, over HTTP ---------------------------------------------------


class FormFields(HTMLParser):
    """The fields of the first ``<form class="options">`` of a page, as htmx's ``ws-send``
    sends them: name -> value, or a list of values for a name sent more than once (a
    switch's hidden ``false`` before its checkbox)."""

    def __init__(self) -> None:
        super().__init__()
        self.fields: dict[str, Any] = {}
        self._in_form = self._done = False
        self._select: str | None = None

    def _add(self, name: str, value: str) -> None:
        if name in self.fields:
            old = self.fields[name]
            self.fields[name] = [*(old if isinstance(old, list) else [old]), value]
        else:
            self.fields[name] = value

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k: v or "" for k, v in attrs}
        if tag == "form" and "options" in a.get("class", "").split() and not self._done:
            self._in_form = True
        if not self._in_form:
            return
        if tag == "input" and a.get("name"):
            if a.get("type") != "checkbox" or "checked" in a:
                self._add(a["name"], a.get("value", ""))
        elif tag == "select":
            self._select = a.get("name")
        elif tag == "option" and self._select and "selected" in a:
            self._add(self._select, a.get("value", ""))

    def handle_endtag(self, tag: str) -> None:
        if tag == "select":
            self._select = None
        elif tag == "form" and self._in_form:
            self._in_form, self._done = False, True


def options_form(page: str) -> dict[str, Any]:
    """The host's options form of a lobby page, as the page sends it on a change."""
    parser = FormFields()
    parser.feed(page)
    assert parser._done, "the lobby has no options form"
    return parser.fields


class Visitors:
    """One ``TestClient`` as several visitors: each name keeps its own cookies."""

    def __init__(self, client) -> None:
        self.client = client
        self.jars: dict[str, dict[str, str]] = {}

    def as_(self, who: str | None):
        """The client with ``who``'s cookies (None: a stranger without any)."""
        self.client.cookies.clear()
        if who is not None:
            self.client.cookies.update(self.jars.get(who, {}))
        return self.client

    def keep(self, who: str) -> None:
        """Remember the client's cookies as ``who``'s."""
        self.jars[who] = dict(self.client.cookies.items())


def part_ids(state: RoomState, player_id: str | None) -> list[str]:
    """The ids of the live parts ``player_id`` (None: a spectator) is shown now, but those
    inside another part (``Part.within``: their macro may render several elements, each with
    an id of its own)."""
    context = live_context(state, player_id, frozenset())
    return [p.id for p in context["room_parts"] + (context["game_parts"] or [])
            if p.within is None]


@pytest.mark.parametrize("kind", EVERY_GAME)
def test_lobby_start_and_pages_for_players_and_a_spectator(client, kind: str) -> None:
    plugin = GAMES[kind]
    rooms = client.app.state.rooms
    visitors = Visitors(client)
    r = visitors.as_(None).post("/rooms", data={"game": kind, "name": "Ann"},
                                follow_redirects=False)
    assert r.status_code == 303, r.text
    code = r.headers["location"].rsplit("/", 1)[1]
    visitors.keep("Ann")
    r = visitors.as_(None).post(f"/r/{code}/join", data={"name": "Bob"}, follow_redirects=False)
    assert r.status_code == 303, r.text
    visitors.keep("Bob")

    def page(who: str | None, query: str = "", room_page: bool = True) -> str:
        response = visitors.as_(who).get(f"/r/{code}{query}")
        assert response.status_code == 200, (who, response.text[:500])
        assert (f'data-rules="{kind}"' in response.text) is room_page
        return response.text

    def current() -> RoomState:
        state = client.portal.call(rooms.current, code)
        assert state is not None
        return state

    def act(who: str, message: dict[str, Any]) -> None:
        state = current()
        player = next(s.player_id for s in state.seats if s.name == who)
        client.portal.call(rooms.act, code, player, {**page_basis(state), **message})

    lobby = page("Ann")
    assert 'data-status="lobby"' in lobby and 'data-action="start"' in lobby
    assert 'data-action="join"' in page(None, room_page=False)  # a stranger may sit down
    assert "data-readonly-note" in page("Bob")
    state = current()
    assert [s.name for s in state.active_seats] == ["Ann", "Bob"] and state.kind == kind
    before = dict(state.options)
    form = options_form(lobby)
    assert form.pop("type") == "options"
    assert plugin.parse_options(form) == plugin.default_options()
    act("Ann", {"type": "options", **form})
    after = current().options
    assert before.items() <= after.items(), (before, after)

    act("Ann", {"type": "start"})
    state = current()
    assert state.status == "playing" and state.game is not None
    assert sorted(state.game.seat_ids) == sorted(s.id for s in state.active_seats)
    players = {s.name: s.player_id for s in state.seats}
    for who, query in (("Ann", ""), ("Bob", ""), (None, "?watch=1")):
        html = page(who, query)
        assert 'data-status="playing"' in html
        for part_id in part_ids(state, players.get(who or "")):
            assert f'id="{part_id}"' in html, (who, part_id)

    r = visitors.as_("Ann").post(f"/_test/rooms/{code}/finish")
    assert r.status_code == 200, r.text
    state = current()
    assert state.status == "finished" and plugin.is_over(state.game_state)
    for who, query in (("Ann", ""), ("Bob", ""), (None, "?watch=1")):
        html = page(who, query)
        assert "data-result" in html
        shown = {name: int(total) for total, name in
                 re.findall(r'data-final-total="(-?\d+)" data-player="([^"]+)"', html)}
        assert shown == {s.label: state.game.totals[s.id] for s in state.active_seats}, who


# ----- the game itself, through the room service --------------------------------------------


@pytest.mark.parametrize("kind", WITH_BOT)
async def test_only_the_seats_the_game_awaits_can_move(database_url, kind: str) -> None:
    """For ``STEPS`` moves: every seat the game awaits has a move (its bot's); the same move
    from a seat it does not await is refused by the game's rules and changes nothing; the
    awaited seat's is applied. Then the game is played out and ranks both seats."""
    async with service_room(database_url, kind, ["Ann", "Bob"]) as room:
        await room.room_action(room.players[0], "start")
        refused = 0
        for _ in range(STEPS):
            state = await room.state()
            if state.status != "playing":
                break
            awaited = list(state.plugin.awaiting(state.game_state))
            moves = bot_moves(state)
            assert awaited and list(moves) == awaited, (awaited, moves)
            seat, message = next(iter(moves.items()))
            before = snapshot(state)  # the cached state moves on with each action
            for other in (s for s in state.game.seat_ids if s not in awaited):
                with pytest.raises(ActionError) as error:
                    await room.act(await room.player_of(other), message)
                assert error.value.code not in ("stale", "unknown_action"), error.value.code
                current = await room.service.current(room.code)  # the database's version
                assert current is not None and snapshot(current) == before
                refused += 1
            outcome = await room.act(await room.player_of(seat), message)
            assert outcome.version == before["version"] + 1 and not outcome.duplicate
        assert refused, "no move was ever refused: every seat was always awaited"
        await finish(room)
        state = await room.state(fresh=True)
        assert state.status == "finished" and state.plugin.is_over(state.game_state)
        assert set(state.game.totals) == set(state.game.seat_ids)
        assert state.game.totals == state.plugin.totals(state.game_state)
        assert all(rank is not None for rank, _, _ in ranking(state.game.totals))


@pytest.mark.parametrize("kind", EVERY_GAME)
async def test_a_seat_leaving_a_running_game_is_listed_unranked(database_url, kind: str) -> None:
    async with service_room(database_url, kind, ["Ann", "Bob", "Cem"]) as room:
        ann, _, cem = room.players
        await room.room_action(ann, "start")
        for _ in range(2):
            await step(room)
        state = await room.state()
        seat = state.seat_of(cem).id
        await room.act(cem, {"type": "leave"})
        state = await room.state()
        assert state.seat(seat).status == "left"
        assert seat in state.plugin.left_game(state.game_state)
        # the game goes on for the two left, or ends if the leaver was all it waited for
        assert state.status == "playing" or state.plugin.is_over(state.game_state)
        assert seat not in state.plugin.awaiting(state.game_state)
        for _ in range(2):  # the others play on
            await step(room)
        await finish(room)
        for fresh in (False, True):
            state = await room.state(fresh=fresh)
            assert state.status == "finished"
            assert state.game.left == [seat]
            places = ranking(state.game.totals, state.game.left)
            assert places[-1][:2] == (None, seat)
            assert all(rank is not None for rank, _, _ in places[:-1])
            assert sorted(s for _, s, _ in places) == sorted(state.game.seat_ids)
            html, _ = render_update(state, ann, "en", frozenset())
            assert f'data-left-game="{seat}"' in html


@pytest.mark.parametrize("kind", EVERY_GAME)
async def test_the_room_rebuilt_from_the_event_log_equals_the_live_one(database_url,
                                                                         kind: str) -> None:
    """In the lobby, at the start, after each of a dozen moves and at the end, the room
    dropped from memory and rebuilt from the database shows the same version, seats, games,
    public state and page to each player and a spectator."""
    async with service_room(database_url, kind, ["Ann", "Bob"]) as room:
        ann, bob = room.players

        async def check() -> None:
            live = await room.state()
            expected = snapshot(live)
            pages = {who: render_update(live, who, "en", frozenset())[0]
                     for who in (ann, bob, None)}
            assert room.service.forget(room.code)
            rebuilt = await room.service.current(room.code)
            assert rebuilt is not None and rebuilt is not live
            assert snapshot(rebuilt) == expected
            for who, html in pages.items():
                assert render_update(rebuilt, who, "en", frozenset())[0] == html, who

        await check()
        await room.room_action(ann, "start")
        await check()
        for _ in range(12):
            if not await step(room):
                break
            await check()
        await finish(room)
        await check()
        assert (await room.state()).status == "finished"


def _fresh_basis(kind: str) -> bool:
    plugin = GAMES[kind]
    return bool(plugin.basis(plugin.new_state(plugin.default_options(), [1, 2], 0)))


@pytest.mark.parametrize("kind", [kind for kind in WITH_BOT if _fresh_basis(kind)])
async def test_a_move_on_an_old_basis_is_refused_as_stale(database_url, kind: str) -> None:
    async with service_room(database_url, kind, ["Ann", "Bob"]) as room:
        await room.room_action(room.players[0], "start")
        state = await room.state()
        old = dict(state.plugin.basis(state.game_state))
        for _ in range(STEPS):  # until the game's basis moved on
            assert await step(room), "the game ended before its basis changed"
            state = await room.state()
            if state.plugin.basis(state.game_state) != old:
                break
        seat, message = next(iter(bot_moves(state).items()))
        player = await room.player_of(seat)
        before = snapshot(await room.state(fresh=True))
        missing = {k: v for k, v in message.items() if k not in old}
        for sent in ({**message, **old}, {**missing, **page_basis(state), **old}):
            with pytest.raises(RoomError) as error:
                await room.service.act(room.code, player, sent)
            assert error.value.code == "stale"
            assert snapshot(await room.state(fresh=True)) == before
        no_basis = {**page_basis(state), **missing}
        for key in old:
            no_basis.pop(key, None)
        with pytest.raises(RoomError) as error:
            await room.service.act(room.code, player, no_basis)
        assert error.value.code == "stale"
        assert snapshot(await room.state(fresh=True)) == before
        outcome = await room.act(player, message)  # on the current basis: applied
        assert outcome.version == before["version"] + 1


@pytest.mark.parametrize("kind", WITH_BOT)
async def test_a_room_of_bots_plays_to_the_end(database_url, kind: str) -> None:
    """A casual bot and the away host, whom a strong bot stands in for (someone watches: a
    room nobody has open waits), play the game to its end; every move is a bot's, stored
    once."""
    def bots(rooms):
        runner = BotRunner(rooms, NO_TABLES, LocalLease(), delay=(0.0, 0.01), poll=0.2)
        return BotsInRooms(BotControl(timedelta(0)), runner)

    async with service_room(database_url, kind, ["Ann"], bots=bots) as room:
        host = room.players[0]
        room.service.online = lambda code: frozenset({"p-watcher"})
        try:
            await room.room_action(host, "add_bot", level="casual")
            await room.room_action(host, "start")

            async def ended() -> bool:
                return (await room.state(fresh=True)).status == "finished"
            await until_async(ended, f"the bots finish the {kind} game", 120, every=0.1)
        finally:
            await room.service.bots.close()
        state = await room.state(fresh=True)
        assert [s.bot for s in state.active_seats] == [False, True]
        assert set(state.game.totals) == {s.id for s in state.active_seats}
        async with room.service.db.sessionmaker() as session:
            rows = list((await session.execute(
                select(GameEvent).order_by(GameEvent.id))).scalars())
        ids = [r.action_id for r in rows if r.action_id]
        assert ids and all(i.startswith("bot.") for i in ids)
        assert not [i for i, n in Counter(ids).items() if n > 1]
        host_seat = state.seat_of(host).id
        assert any(r.seat_id == host_seat for r in rows)  # the stand-in moved for the host
        assert all(r.payload.get("bot") for r in rows
                   if r.seat_id == host_seat and "auto" in r.payload)


# ----- rendering ---------------------------------------------------------------------------


def check_parts(state: RoomState, viewers: list[str | None]) -> None:
    """For each viewer (None: a spectator) and language: the live area renders, holding every
    part; each part's macro renders on its own (as an update sends it) with its id."""
    for lang in ("en", "nl", "de"):
        for viewer in viewers:
            html, _ = render_update(state, viewer, lang, frozenset())
            assert html.lstrip().startswith('<div id="live"'), html[:200]
            context = live_context(state, viewer, frozenset())
            for part in context["room_parts"] + (context["game_parts"] or []):
                template = (ROOM_PARTS if part.id in ROOM_PART_IDS
                            else state.plugin.parts_template)
                macro = getattr(templates.env.get_template(template).module, part.macro)
                alone = str(macro(*part.args))
                if part.within is None:  # else its elements carry ids of their own
                    assert f'id="{part.id}"' in html, (viewer, part.id)
                    assert f'id="{part.id}"' in alone, (viewer, part.id)
                else:  # e.g. no offers before a roll: no element at all
                    ids = re.findall(r' id="([^"]+)"', alone)
                    assert all(f'id="{i}"' in html for i in ids), (viewer, part.id)


@pytest.mark.parametrize("kind", EVERY_GAME)
async def test_every_live_part_renders_for_players_and_a_spectator(database_url,
                                                                   kind: str) -> None:
    async with service_room(database_url, kind, ["Ann", "Bob"]) as room:
        viewers: list[str | None] = [*room.players, None]
        check_parts(await room.state(), viewers)  # the lobby
        await room.room_action(room.players[0], "start")
        check_parts(await room.state(), viewers)
        for _ in range(3):
            if await step(room):
                check_parts(await room.state(), viewers)
        await finish(room)
        state = await room.state()
        assert state.status == "finished"
        check_parts(state, viewers)
