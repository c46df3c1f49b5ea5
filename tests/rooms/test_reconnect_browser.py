"""A room page the server closed comes back by itself, in Debian Chromium: after a restart of
the server process and after a close for an over-size message (1009), the page opens a new
socket without a reload, catches up with the moves made meanwhile and drops its
"reconnecting" banner (docs/architecture.md, "The path of one action")."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.support import http
from tests.support.browser import ONLINE, chromium, create_room, join, score_box
from tests.support.server import ServerProcess

pytestmark = [pytest.mark.browser, pytest.mark.server, pytest.mark.one_backend]

OFFLINE = re.compile(r"\boffline\b")


def _state(server, code: str) -> dict:
    return http.get(f"{server.url}/r/{code}/state.json").json()


def _load(server, code: str, faces: list[int]) -> None:
    r = http.post(f"{server.url}/_test/rooms/{code}/dice", json={"faces": faces})
    assert r.status_code == 200, r.text


def _score_chance(page, server, code: str, faces: list[int], box: str = "chance") -> None:
    """The player of ``page`` rolls ``faces`` and scores them in ``box``."""
    _load(server, code, faces)
    page.click("#live [data-action=roll]")
    expect(page.locator("#live .dice")).to_have_attribute(
        "data-roll", "".join(map(str, faces)))
    score_box(page, box)


def _sockets_opened(page) -> list:
    """Every WebSocket ``page`` opens from now on, in order."""
    opened: list = []
    page.on("websocket", lambda ws: opened.append(ws))
    return opened


def _bram_on_turn(anna, server, code: str) -> tuple[dict, int]:
    """Start the game on Anna's page; when Anna begins, she scores a chance of 13 so that
    Bram is on turn. Returns the room state and Bram's seat id."""
    anna.click("#live [data-action=start]")
    expect(anna.locator("#live .scoresheet")).to_be_visible()
    state = _state(server, code)
    seats = {s["name"]: s["id"] for s in state["seats"]}
    if state["current"]["order"][0] == seats["Anna"]:
        _score_chance(anna, server, code, [1, 2, 3, 3, 4])
    return state, seats["Bram"]


def _shows_bram_chance(anna, bram_seat: int) -> None:
    """Anna's page is live: Bram's chance of 22 shows, her turn is on, no banner."""
    expect(anna.locator(f"#live [data-slot='{bram_seat}/0/chance']")).to_have_attribute(
        "data-value", "22", timeout=10_000)
    expect(anna.locator("body")).to_have_class(ONLINE)
    expect(anna.locator(".conn-status")).to_be_hidden()
    expect(anna.locator("#live [data-action=roll]")).to_be_enabled()


@pytest.mark.parametrize("backend", ["postgres"], indirect=True)  # two processes, one database
def test_a_page_comes_back_after_a_server_restart_and_shows_the_moves_made_meanwhile(
        backend, server, server_env, tmp_path) -> None:
    with chromium() as browser, \
            ServerProcess(server_env, log=tmp_path / "other.log") as other:
        anna = browser.new_context(locale="en-GB", viewport={"width": 1024, "height": 800}) \
            .new_page()
        bram = browser.new_context(locale="en-GB").new_page()
        code = create_room(anna, server, "kniffel", "Anna")
        join(bram, other, code, "Bram")  # Bram plays through the other process
        expect(anna.locator("#live .seat")).to_have_count(2)
        _, bram_seat = _bram_on_turn(anna, server, code)
        expect(bram.locator("#live [data-action=roll]")).to_be_enabled()
        opened = _sockets_opened(anna)

        server.stop()  # Anna's process goes away under her open page
        expect(anna.locator("body")).to_have_class(OFFLINE)
        expect(anna.locator(".conn-status")).to_be_visible()
        _score_chance(bram, other, code, [6, 6, 6, 2, 2])  # meanwhile, on the other process
        server.restart()

        _shows_bram_chance(anna, bram_seat)
        assert opened, "the page never opened a new socket"
        assert anna.evaluate("performance.getEntriesByType('navigation').length") == 1


@pytest.mark.parametrize("backend", ["sqlite"], indirect=True)
def test_a_page_closed_for_an_oversize_message_reconnects_and_catches_up(server) -> None:
    with chromium() as browser:
        anna = browser.new_context(locale="en-GB").new_page()
        bram = browser.new_context(locale="en-GB").new_page()
        code = create_room(anna, server, "kniffel", "Anna")
        join(bram, server, code, "Bram")
        expect(anna.locator("#live .seat[data-presence=online]")).to_have_count(2)
        _, bram_seat = _bram_on_turn(anna, server, code)
        opened = _sockets_opened(anna)
        closes: list[int] = []
        anna.expose_function("reportClose", lambda code: closes.append(code))
        anna.evaluate("""() => {
            document.addEventListener('htmx:wsClose', e => reportClose(e.detail.event.code));
            const socketElt = document.querySelector('[ws-connect]');
            socketElt['htmx-internal-data'].webSocket.send('x'.repeat(70000));
        }""")
        _score_chance(bram, server, code, [6, 6, 6, 2, 2])

        _shows_bram_chance(anna, bram_seat)
        assert closes[:1] in ([1009], [1006])  # Chromium may see the reset before the frame
        assert opened, "the page never opened a new socket"


class ClosingProxy:
    """Stands between a page and the room socket: ``holding`` keeps back what the server
    sends (the page falls behind), ``close(code)`` closes the page's socket with that code
    as a server would and drops what was held; the page's next socket goes through again."""

    def __init__(self, page) -> None:
        self.holding = False
        self.connected = 0
        self.page_side = None
        page.route_web_socket("**/ws", self._route)

    def _route(self, ws) -> None:
        server_side = ws.connect_to_server()
        self.page_side = ws
        self.connected += 1
        ws.on_message(lambda message: server_side.send(message))
        server_side.on_message(lambda message: None if self.holding else ws.send(message))

    def close(self, code: int) -> None:
        self.page_side.close(code=code, reason="test")
        self.holding = False


MOVES = [([6, 6, 6, 2, 2], "chance", 22), ([5, 5, 5, 2, 2], "chance", 19),
         ([1, 1, 2, 3, 4], "ones", 2), ([1, 1, 1, 3, 4], "ones", 3),
         ([2, 2, 2, 3, 4], "twos", 6), ([2, 2, 3, 3, 4], "twos", 4)]


@pytest.mark.parametrize("backend", ["sqlite"], indirect=True)
def test_a_page_closed_with_any_code_reconnects_and_catches_up(server) -> None:
    with chromium() as browser:
        pages = {}
        code = ""
        for name in ("Anna", "Bram"):
            pages[name] = browser.new_context(locale="en-GB").new_page()
            if name == "Anna":
                code = create_room(pages[name], server, "kniffel", name)
            else:
                join(pages[name], server, code, name)
        pages["Anna"].click("#live [data-action=start]")
        seats = {s["id"]: s["name"] for s in _state(server, code)["seats"]}
        watcher = browser.new_context(locale="en-GB").new_page()
        proxy = ClosingProxy(watcher)
        watcher.goto(f"{server.url}/r/{code}")
        watcher.get_by_role("link", name="Watch").click()  # a latecomer watches
        expect(watcher.locator("#live .scoresheet")).to_be_visible()
        expect(watcher.locator("body")).to_have_class(ONLINE)

        for close_code, (faces, box, points) in zip([1000, 1001, 1008, 1009, 4000, 1011],
                                                    MOVES, strict=True):
            seat = _state(server, code)["current"]["current"]
            proxy.holding = True  # the page misses this move
            _score_chance(pages[seats[seat]], server, code, faces, box)
            sockets = proxy.connected
            proxy.close(close_code)
            expect(watcher.locator(f"#live [data-slot='{seat}/0/{box}']")).to_have_attribute(
                "data-value", str(points), timeout=10_000)
            expect(watcher.locator("body")).to_have_class(ONLINE)
            expect(watcher.locator(".conn-status")).to_be_hidden()
            assert proxy.connected == sockets + 1, close_code
