"""A tap repeated before the page has caught up with the first one is the same intent, not a
stale decision (a fresh user's finding: a double-tapped Start showed a red "The table
changed" alert in a two-player room, 2 times out of 2). Also two lobby options changed in
quick succession are both kept. In Debian Chromium, at phone size; SQLite only.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.support import http
from tests.support.browser import PHONE, caught_up, create_room, join

pytestmark = [pytest.mark.browser, pytest.mark.server]

ALERT = "#room-error[data-error]"


def _room(browser, server, game: str):
    contexts = [browser.new_context(locale="en-GB", viewport=PHONE, has_touch=True)
                for _ in range(2)]
    anna, bram = pages = [ctx.new_page() for ctx in contexts]
    code = create_room(anna, server, game, "Anna")
    join(bram, server, code, "Bram")
    for page in pages:
        caught_up(page, server, code)
    return contexts, anna, bram, code


def _state(server, code: str) -> dict:
    return http.get(f"{server.url}/r/{code}/state.json").json()


def _double_tap(page, css: str) -> None:
    """Two clicks on the same button before the page hears back from the first (a thumb's
    double tap while the server or the network is slow; here both in one task, so the
    answer to the first cannot come in between)."""
    page.evaluate("(css) => { const b = document.querySelector(css); b.click(); b.click(); }",
                  css)


@pytest.mark.parametrize("action", ["start", "play-again"])
def test_a_double_tapped_room_button_acts_once_without_an_alert(server, browser,
                                                                action: str) -> None:
    contexts, anna, bram, code = _room(browser, server, "knister")
    if action == "play-again":
        anna.locator("#live [data-action=start]").tap()
        caught_up(anna, server, code)
        assert http.post(f"{server.url}/_test/rooms/{code}/finish").status_code == 200
        caught_up(anna, server, code)
    games = len(_state(server, code).get("games", [])) if action == "play-again" else 0
    _double_tap(anna, f"#live [data-action={action}]")
    expect(anna.locator("#live[data-status='playing']")).to_be_attached()
    for page in (anna, bram):
        caught_up(page, server, code)
        page.wait_for_timeout(300)  # the second tap's answer, had it been refused
        assert page.locator(ALERT).count() == 0, page.locator(ALERT).inner_text()
    state = _state(server, code)
    assert state["status"] == "playing"
    if action == "play-again":
        assert len(state.get("games", [])) == games + 1
    for ctx in contexts:
        ctx.close()


def test_two_lobby_options_changed_at_once_are_both_kept(server, browser) -> None:
    contexts, anna, bram, code = _room(browser, server, "knister")
    anna.evaluate("""() => {
        for (const [name, value] of [['match', '3'], ['timer', '30']]) {
            const select = document.querySelector(`#live select[data-option=${name}]`);
            select.value = value;
            select.dispatchEvent(new Event('change', {bubbles: true}));
        }
    }""")
    for name, value in (("match", "3"), ("timer", "30")):
        expect(bram.locator(f"#live [data-option-ro={name}]")).to_have_attribute(
            "data-value", value)
    for page in (anna, bram):
        caught_up(page, server, code)
        assert page.locator(ALERT).count() == 0, page.locator(ALERT).inner_text()
    assert anna.locator("#live select[data-option=match]").input_value() == "3"
    assert anna.locator("#live select[data-option=timer]").input_value() == "30"
    for ctx in contexts:
        ctx.close()


def test_a_second_tap_right_after_the_first_was_answered_adds_no_second_bot(server,
                                                                            browser) -> None:
    """Found by a fresh user: two taps 0.23 s apart on "Add a bot" added two bots (the
    first one's answer may come in between). The same tap within 0.6 s of the first is the
    same double tap; a later one, or one for a bot of another level, adds another bot."""
    contexts, anna, bram, code = _room(browser, server, "knister")
    anna.evaluate("""() => new Promise((done) => {
        const tap = () => document.querySelector('#live [data-action=add-bot]').click();
        tap();
        setTimeout(() => { tap(); done(); }, 230);
    })""")
    anna.wait_for_timeout(700)
    caught_up(anna, server, code)
    assert len(_state(server, code)["seats"]) == 3
    expect(anna.locator("#live .seat")).to_have_count(3)
    anna.locator("#live [data-action=add-bot]").tap()  # meant: a second bot
    expect(anna.locator("#live .seat")).to_have_count(4)
    anna.select_option("#live select[name=level]", "casual")  # another level: meant too
    anna.locator("#live [data-action=add-bot]").tap()
    expect(anna.locator("#live .seat")).to_have_count(5)
    for ctx in contexts:
        ctx.close()


@pytest.mark.parametrize("first", ["option", "add-bot"])
def test_the_hosts_own_change_then_start_at_once_starts_without_an_alert(server, browser,
                                                                          first: str) -> None:
    """Start tapped before the page has heard back from the host's own change (an option, a
    bot added) was refused as stale, "The table changed" (seen in CI: a phone test's Start
    right after choosing 3 columns did nothing). The page holds Start until its own change
    is answered, then sends it decided on the version that change made."""
    contexts, anna, bram, code = _room(browser, server, "kniffel")
    change = ("""const select = document.querySelector('#live select[data-option=columns]');
                 select.value = '3'; select.dispatchEvent(new Event('change', {bubbles: true}));"""
              if first == "option" else
              "document.querySelector('#live [data-action=add-bot]').click();")
    anna.evaluate(f"""() => {{ {change}
        document.querySelector('#live [data-action=start]').click(); }}""")
    expect(anna.locator("#live[data-status='playing']")).to_be_attached()
    for page in (anna, bram):
        caught_up(page, server, code)
        page.wait_for_timeout(300)  # a refusal's alert, had there been one
        assert page.locator(ALERT).count() == 0, page.locator(ALERT).inner_text()
    state = _state(server, code)
    assert state["status"] == "playing"
    if first == "option":
        assert state["options"]["columns"] == 3, state["options"]
    else:
        assert len(state["seats"]) == 3
    assert anna.url.endswith(f"/r/{code}")  # the bot form's submit did not load a page
    for ctx in contexts:
        ctx.close()
