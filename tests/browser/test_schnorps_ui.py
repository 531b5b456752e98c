"""Schnorps for three in a real browser (issue 13: "Schnorps for more than two (seed 001, RULES.md "Matches"):
with three or four participants two play and the others wait in turn; the loser pays all. In the terminal and
the web.").

The lobby offers 2, 3 or 4 participants for Schnorps (from ``GET /api/variants``' ``participants``) and a seat
field for each other participant; the table shows the round (who deals, who plays, who waits, everyone's Marken).
seeds/001: "Der erste Geber ... gibt die Karten dem vor ihm Sitzenden u. dem nach diesem Folgenden": the dealer
waits, and while this page's participant waits it sees what a spectator sees, no hand (every ``state`` frame is
tapped and checked).  Then the deal passes on ("Hierauf gibt der, welcher zuerst die Vorhand hatte ...") and the
page's participant plays by clicks (taps on the phone); after each game the loser pays every participant ("Der
Verlierende muß ... an alle Theilnehmer zahlen").

At 1280x800 and at 390x844 with touch; screenshots of the lobby, the waiting and the playing table and the
result, in German and English.
"""

from __future__ import annotations

import pytest

pytest.importorskip("fastapi", reason="needs the 'web' extra: pip install -e '.[web]'")
pytest.importorskip("playwright", reason="needs the 'browser' extra: pip install -e '.[browser]'")

import json
import re
import time
import urllib.request
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING

from browser_setup import WAIT_MS, require_chromium
from ui_helpers import StateTap, no_sideways_scroll, wait_until

from bummerl.schnorps_round import draw_first_dealer

require_chromium()

if TYPE_CHECKING:
    from playwright.sync_api import Browser, BrowserContext, Page
    from tests.browser.conftest import Errors, LiveServer, Shot

#: A practice seed whose first dealer is participant 0 (the page's): it waits the first game and plays the second.
SEED = next(s for s in range(100) if draw_first_dealer(s, 3) == 0)


@pytest.fixture(params=[(1280, 800, False), (390, 844, True)], ids=["desktop", "phone"])
def context(request: pytest.FixtureRequest, browser: Browser) -> Iterator[BrowserContext]:
    width, height, touch = request.param
    made = browser.new_context(
        viewport={"width": width, "height": height},
        locale="de-AT",
        has_touch=touch,
        is_mobile=touch,
        reduced_motion="reduce",
    )
    made.set_default_timeout(WAIT_MS)
    # No pause after a trick (table.js's `bummerl.pace`) and no animation: the test reads states, not motion.
    made.add_init_script("localStorage.setItem('bummerl.pace', '0')")
    yield made
    made.close()


def press(page: Page, selector: str, touch: bool) -> None:
    """A click, or a tap on a touch screen."""
    if touch:
        page.tap(selector)
    else:
        page.click(selector)


def answered(tap: StateTap, count: int) -> Callable[[], bool]:
    """Whether a state arrived after the first ``count``."""
    return lambda: len(tap.states) > count


def test_schnorps_for_three_in_the_browser(
    server: LiveServer, context: BrowserContext, shot: Shot, page_errors: Errors
) -> None:
    page = context.new_page()
    width = page.viewport_size["width"] if page.viewport_size else 0
    touch = width < 600
    errors = page_errors(page)
    tap = StateTap(page)
    page.goto(server.url + "/#/")
    page.locator("#start").wait_for()
    press(page, "#variant-schnorps", touch)
    # The server says how many may take part; the page offers exactly that.
    field = page.locator("#participants")
    field.wait_for()
    assert field.locator("option").all_inner_texts() == ["2 Mitspieler", "3 Mitspieler", "4 Mitspieler"]
    assert page.locator("#seat-2").count() == 0
    page.select_option("#participants", "3")
    page.locator("#seat-2").wait_for()
    assert page.locator("#seat-3").count() == 0
    for seat in (1, 2):
        page.select_option(f"#seat-{seat}", "random")
    page.fill("#player-name", "Anna")
    press(page, ".seed-field summary", touch)
    page.fill("#seed", str(SEED))
    shot(page, f"schnorps-lobby-de-{width}")
    page.select_option("#lang-select", "en")
    page.locator("label[for=participants]", has_text="Participants").wait_for()
    assert page.locator("#participants option:checked").inner_text() == "3 participants"
    shot(page, f"schnorps-lobby-en-{width}")
    page.select_option("#lang-select", "de")
    press(page, "#start", touch)
    page.wait_for_url(re.compile(r"#/table/"))

    # Game 1: participant 0 deals and waits; the two after them play (seeds/001).
    rows = page.locator("#round-score tbody tr")
    wait_until(page, lambda: rows.count() == 3, "the round's panel")
    wait_until(page, lambda: bool(tap.states), "a state")
    first = tap.states[0]
    assert first["kind"] == "schnorps_round" and first["match"]["dealer"] == 0
    assert first["match"]["players"] == [1, 2] and first["game_seat"] is None
    assert rows.nth(0).locator(".round-role").inner_text() == "gibst"  # "Du gibst": the own row in the second person
    page.locator(".round-waiting").wait_for()
    assert "Du wartest dieses Spiel ab" in page.locator(".status-line").inner_text()
    shot(page, f"schnorps-waiting-de-{width}")
    page.select_option("#lang-select", "en")
    page.locator("text=You sit this game out").first.wait_for()
    assert rows.nth(0).locator(".round-role").inner_text() == "deal"
    shot(page, f"schnorps-waiting-en-{width}")
    page.select_option("#lang-select", "de")
    wait_until(page, lambda: bool(tap.latest["game_over"]), "the bots to finish game 1", timeout=30)
    # While it waited, the page was sent no hand, no card known of one and nothing to do.
    for state in tap.states:
        assert state["game_seat"] is None
        assert state["view"]["hand"] == [] and state["view"]["opponent_known"] == [] and state["legal"] == []
    assert page.locator(".seat-bottom .hand .card:not(.back)").count() == 0
    banner = page.locator("#result-banner")
    banner.wait_for()
    result = tap.latest["game_over"]["result"]["round"]
    first_game = tap.latest["game_over"]["game_id"]
    if result["winner"] is not None:
        # The loser pays each of the others, the waiting participant too.
        assert result["payments"][0] == result["marken"] and sum(result["payments"]) == 0
        assert "zahlt allen anderen je" in banner.inner_text()
    assert page.locator(".round-marken").nth(0).inner_text() == f"{result['balance'][0]:+d}".replace("+0", "0")
    shot(page, f"schnorps-game1-over-de-{width}")

    # Game 2: the first Vorhand deals ("Hierauf gibt der, welcher zuerst die Vorhand hatte"); participant 0 plays.
    seen = len(tap.states)
    press(page, 'button[data-action="next_game"]', touch)
    wait_until(page, lambda: len(tap.states) > seen and not tap.latest["game_over"], "game 2")
    match = tap.latest["match"]
    if result["winner"] is not None:
        assert (match["dealer"], match["players"]) == (1, [2, 0])
    clicks = 0
    deadline = time.monotonic() + 60
    while not tap.latest["game_over"]:
        assert time.monotonic() < deadline, "game 2 took too long"
        state = tap.latest
        if not state["your_turn"]:
            page.wait_for_timeout(25)
            continue
        assert state["game_seat"] == state["match"]["players"].index(0)
        legal_cards = [tok for tok in state["legal"] if re.fullmatch(r"[AKQJT987][hdcs]", tok)]
        selector = f'.seat-bottom button.card.playable[data-card="{legal_cards[0]}"]'
        page.locator(selector).wait_for()
        if clicks == 1:
            shot(page, f"schnorps-playing-de-{width}")
            assert no_sideways_scroll(page) == 0
        before = answered(tap, len(tap.states))
        press(page, selector, touch)
        clicks += 1
        wait_until(page, before, "the server's answer")
    assert clicks >= 1
    page.locator("#result-banner").wait_for()
    over = tap.latest
    total = over["match"]["balance"]
    assert sum(total) == 0 and total == over["game_over"]["result"]["round"]["balance"]
    shot(page, f"schnorps-game2-over-de-{width}")
    page.select_option("#lang-select", "en")
    page.locator("text=Marken of the round").first.wait_for()
    shot(page, f"schnorps-game2-over-en-{width}")
    assert no_sideways_scroll(page) == 0
    # The replay of the first game names its two players (participants 1 and 2), not the table's first seats.
    page.goto(f"{server.url}/#/replay/{first_game}")
    names = page.locator(".seat-name")
    wait_until(page, lambda: names.count() == 2, "the replay")
    assert all("Anna" not in text for text in names.all_inner_texts())
    errors.check()


def test_schnorps_for_four_invites_a_friend_per_seat(
    server: LiveServer, context: BrowserContext, shot: Shot, page_errors: Errors
) -> None:
    """Four participants, two of them invited friends: the table shows one invitation link per open seat, and
    the one a friend used goes."""
    page = context.new_page()
    width = page.viewport_size["width"] if page.viewport_size else 0
    touch = width < 600
    errors = page_errors(page)
    page.goto(server.url + "/#/")
    page.locator("#start").wait_for()
    press(page, "#variant-schnorps", touch)
    page.select_option("#participants", "4")
    page.locator("#seat-3").wait_for()
    for seat, who in ((1, "friend"), (2, "random"), (3, "friend")):
        page.select_option(f"#seat-{seat}", who)
    press(page, "#start", touch)
    page.wait_for_url(re.compile(r"#/table/"))
    invites = page.locator(".round-invite input")
    wait_until(page, lambda: invites.count() == 2, "two invitations")
    links = [invites.nth(i).input_value() for i in range(2)]
    assert all("#/join/" in link for link in links)
    shot(page, f"schnorps-invite-de-{width}")
    # A friend takes seat 2 (index 1): one invitation is left, for seat 4.
    code = links[0].rsplit("/", 1)[-1]
    request = urllib.request.Request(
        server.url + "/api/join",
        data=json.dumps({"code": code, "name": "Bea"}).encode(),
        headers={"Content-Type": "application/json"},
    )
    with urllib.request.urlopen(request) as answer:
        assert json.load(answer)["seat"] == 1
    wait_until(page, lambda: invites.count() == 1, "the used invitation to go")
    assert "Platz 4" in page.locator(".round-invite").inner_text()
    errors.check()
