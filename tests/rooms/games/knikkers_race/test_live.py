"""A Knikkers race played live over real WebSockets against a real uvicorn server: two players
on one seed (loaded dice) to the ranking, a spectator's page, the public state's secrecy."""

from __future__ import annotations

import asyncio
import base64
import json
import re

import pytest

from app.engines import knikkers as engine
from app.rooms.games.knikkers_race import dice_for_seed
from tests.rooms.games.knikkers_race.helpers import SEED, cell, first_move, moves_to_the_end
from tests.support.players import Guest
from tests.support.waiting import until_async

pytestmark = [pytest.mark.server, pytest.mark.one_backend]


async def _started(guest: Guest, code: str) -> dict:
    """The public state once the server has set out the boards."""
    async def started() -> dict | None:
        state = await guest.state(code)
        return state if state["current"] and state["current"]["started"] else None
    return await until_async(started, f"room {code} sets out the boards")


def _player_id(guest: Guest) -> str:
    """The guest's player id, read from the signed session cookie's payload."""
    raw = guest.http.cookies["knobel_session"].split(".")[0]
    data = json.loads(base64.urlsafe_b64decode(raw + "=" * (-len(raw) % 4)))
    return next(v for v in data.values() if isinstance(v, str) and len(v) == 32)


def test_two_players_race_on_one_seed_to_the_ranking(server):
    async def run():
        anna, bram, carl = (Guest(server.url, n) for n in ("Anna", "Bram", "Carl"))
        code = await anna.create_room("knikkers_race")
        assert (await bram.join(code)).status_code == 303
        r = await anna.http.post(f"/_test/rooms/{code}/dice", json={"faces": dice_for_seed(SEED)})
        assert r.status_code == 200, r.text
        sa, sb = await anna.connect(code), await bram.connect(code)
        reply = await sa.act("options", variant="5", time_limit="0")
        assert reply.ok, reply
        assert (await sa.act("options", variant="6")).code == "bad_option"
        assert (await sa.act("start")).ok
        state = await _started(anna, code)
        seats = {s["name"]: s["id"] for s in state["seats"]}
        current = state["current"]
        # Both boards start from the seed's start position; nothing of the seed is public.
        expected = engine.Game.new(SEED, 5)
        for seat in seats.values():
            assert current["boards"][str(seat)]["board"] == expected.board
        text = str(state)
        assert str(SEED) not in text and "seed" not in text and "upcoming" not in text

        # A spectator's page shows both boards small, and no own board.
        watcher = await carl.http.get(f"/r/{code}?watch=1")
        assert watcher.status_code == 200
        assert watcher.text.count("data-race-board=") == 2
        assert "data-race-mine" not in watcher.text

        # Anna plays her board to the end; Bram makes three moves, then finishes his board.
        anna_moves = moves_to_the_end(SEED)
        for n, (src, dst) in enumerate(anna_moves):
            reply = await sa.act("move", src=cell(src), dst=cell(dst), moves=n)
            assert reply.ok, (n, reply)
        # A move named on an outdated board is refused, and so is an unreachable one.
        stale = await sb.act("move", src="0,0", dst="0,1", moves=5)
        assert stale.code == "stale_board"
        bram_game = engine.Game.new(SEED, 5)
        for n in range(3):
            src, dst = first_move(bram_game)
            bram_game.move(src, dst)
            assert (await sb.act("move", src=cell(src), dst=cell(dst), moves=n)).ok
        # Anna is far ahead: on Bram's page her board leaves out the balls he has not seen,
        # and the public state shows only what Bram (the racer furthest behind) has seen.
        page = (await bram.http.get(f"/r/{code}")).text
        hidden = re.search(r'data-hidden="(\d+)"', page)
        assert hidden and int(hidden.group(1)) > 0
        public = (await carl.state(code))["current"]["boards"][str(seats["Anna"])]
        assert public["hidden"] == int(hidden.group(1))
        assert (await sb.act("stop")).ok

        final = await anna.state(code)
        assert final["status"] == "finished"
        totals = final["games"][-1]["totals"]
        anna_game = engine.Game.replay(SEED, 5, [("move", s, d) for s, d in anna_moves])
        assert totals == {str(seats["Anna"]): anna_game.score,
                          str(seats["Bram"]): bram_game.score}
        assert final["current"]["over"] and final["current"]["boards"][str(seats["Anna"])][
            "board"] == anna_game.board
        # The ranking, with each board's replay, on every screen (the spectator's too).
        for guest in (anna, carl):
            page = (await guest.http.get(f"/r/{code}?watch=1")).text
            assert f'data-final-total="{anna_game.score}" data-player="Anna"' in page
            assert page.count("data-replay=") == 2
            assert f'data-replay="{seats["Anna"]}"' in page
        for s in (sa, sb):
            await s.close()
        for g in (anna, bram, carl):
            await g.aclose()

    asyncio.run(run())


def test_the_race_goes_to_the_players_history_not_the_leaderboard(server):
    async def run():
        anna = Guest(server.url, "Anna")
        code = await anna.create_room("knikkers_race")
        sa = await anna.connect(code)
        assert (await sa.act("options", variant="4", time_limit="5")).ok
        assert (await sa.act("start")).ok
        state = await _started(anna, code)
        assert state["current"]["variant"] == 4 and state["current"]["time_limit"] == 5
        assert (await sa.act("stop")).ok
        me = _player_id(anna)
        # The player's history of room games: its own page when there is one, else the
        # player page.
        history = await anna.http.get(f"/players/{me}/games")
        if history.status_code == 404:
            history = await anna.http.get(f"/players/{me}")
        assert history.status_code == 200
        assert re.search(r'data-(room-result|kind)="knikkers_race"', history.text)
        assert 'data-rank="1"' in history.text
        stats = (await anna.http.get(f"/players/{me}")).text
        assert 'data-stat="games">0<' in stats  # not a single-player Knikkers game
        for variant in (5, 4):
            board = (await anna.http.get(f"/leaderboards/knikkers/{variant}")).text
            assert f"/players/{me}" not in board
        await sa.close()
        await anna.aclose()

    asyncio.run(run())


def test_a_killed_server_loses_nothing_of_a_race(server):
    async def run():
        anna, bram = Guest(server.url, "Anna"), Guest(server.url, "Bram")
        code = await anna.create_room("knikkers_race")
        assert (await bram.join(code)).status_code == 303
        r = await anna.http.post(f"/_test/rooms/{code}/dice", json={"faces": dice_for_seed(SEED)})
        assert r.status_code == 200
        sa, sb = await anna.connect(code), await bram.connect(code)
        assert (await sa.act("start")).ok
        await _started(anna, code)
        games = {"a": engine.Game.new(SEED, 5), "b": engine.Game.new(SEED, 5)}

        async def play(sock, key, n):
            game = games[key]
            for _ in range(n):
                src, dst = first_move(game)
                reply = await sock.act("move", src=cell(src), dst=cell(dst), moves=game.moves)
                assert reply.ok, reply
                game.move(src, dst)

        await play(sa, "a", 4)
        await play(sb, "b", 2)
        before = await anna.state(code)
        await sa.close()
        await sb.close()
        server.kill()
        server.restart()
        # The seed is in the stored events: the race comes back as it was, and goes on.
        assert await anna.state(code) == before
        sa, sb = await anna.connect(code), await bram.connect(code)
        await play(sa, "a", 2)
        await play(sb, "b", 1)
        assert (await sa.act("stop")).ok and (await sb.act("stop")).ok
        final = await anna.state(code)
        seats = {s["name"]: str(s["id"]) for s in final["seats"]}
        assert final["status"] == "finished"
        assert final["current"]["boards"][seats["Anna"]]["board"] == games["a"].board
        assert final["current"]["boards"][seats["Bram"]]["board"] == games["b"].board
        assert final["games"][-1]["totals"] == {seats["Anna"]: games["a"].score,
                                                seats["Bram"]: games["b"].score}
        for s in (sa, sb):
            await s.close()
        for g in (anna, bram):
            await g.aclose()

    asyncio.run(run())
