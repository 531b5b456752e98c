"""Accessibility (issue 24): axe-core finds no serious or critical violation on any page in either theme, every
control is at least 44x44 px on a touch screen, and a game is played with the keyboard alone, bidding included.

axe-core comes from npm (``package.json``; ``ui_helpers.axe_violations`` injects it). The pages: the lobby, the
table of each of the six variants in the middle of a game (and, for Bauernschnapsen and Dreierschnapsen, while
the bidding is shown), the replay of a two-player and of a table game, the history, the profile, the rules, the
tournaments (a tournament's page too), the leaderboard, the quick match waiting for others and a table with a
move clock, each in the light and in the dark theme (the browser's ``prefers-color-scheme``). The seats are brought
to their moment over the table's WebSocket (``ui_helpers.SeatDriver``); the page only shows the table. The text on
the green table, a gradient that axe leaves unjudged, is measured on its pixels (``ui_helpers.felt_contrast``).
"""

from __future__ import annotations

import pytest

pytest.importorskip("fastapi", reason="needs the 'web' extra: pip install -e '.[web]'")
pytest.importorskip("playwright", reason="needs the 'browser' extra: pip install -e '.[browser]'")

from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any

from browser_setup import require_chromium
from ui_helpers import (
    AXE,
    SeatDriver,
    axe_violations,
    bidding_turn,
    felt_contrast,
    first_legal,
    game_over,
    mid_game,
    open_seat,
    post,
    settled,
    small_controls,
    table_at,
    wait_until,
)

require_chromium()

if TYPE_CHECKING:
    from playwright.sync_api import BrowserContext, Page
    from tests.browser.conftest import Errors, LiveServer, Shot

THEMES = ("light", "dark")
TWO_PLAYER = ("schnapsen", "schnapsen-scharf", "sechsundsechzig")
TABLE_GAMES = ("schnorps", "bauernschnapsen", "dreierschnapsen")
BIDDING = ("bauernschnapsen", "dreierschnapsen")


def finished(base: str, variant: str) -> str:
    """A game of ``variant`` played to its end against bots; its id (for the replay and the history)."""
    table = post(base, "/api/tables", {"variant": variant, "bots": "heuristic", "name": "Anna"})
    driver = SeatDriver(base, table["table_id"], {0: table["token"]})
    try:
        game_id: str = driver.play(first_legal, game_over)[0]["game_over"]["game_id"]
    finally:
        driver.close()
    return game_id


@pytest.fixture(scope="module")
def places(server: LiveServer) -> Iterator[dict[str, Any]]:
    """The tables and games the pages show, made once for the module."""
    yield {
        "tables": {v: table_at(server.url, v, mid_game) for v in TWO_PLAYER + TABLE_GAMES},
        "bidding": {v: table_at(server.url, v, bidding_turn) for v in BIDDING},
        "replays": {v: finished(server.url, v) for v in ("schnapsen", "bauernschnapsen")},
        "tournament": post(server.url, "/api/tournaments", {"name": "Wirtshaus-Cup", "variant": "schnapsen"})["id"],
    }


def themed(make: Callable[..., BrowserContext], kind: str, theme: str) -> Page:
    """A page of a browser whose system asks for ``theme``; the app's CSP bypassed so that axe can be injected."""
    page: Page = make(kind, color_scheme=theme, bypass_csp=True).new_page()
    return page


def show_table(page: Page, base: str, table: dict[str, Any], variant: str) -> None:
    open_seat(page, base, table["table_id"], table["token"], 0, variant)
    page.locator("button.card.playable:not([disabled]), #tg-actions button, #tg-hand .card").first.wait_for()


def page_addresses(places: dict[str, Any]) -> list[tuple[str, str, str]]:
    """(name, address, a selector that is there once the page is drawn) of every page that is not a table."""
    return [
        ("lobby", "/#/", "#start"),
        ("replay-schnapsen", f"/#/replay/{places['replays']['schnapsen']}", "#replay-help"),
        ("replay-bauernschnapsen", f"/#/replay/{places['replays']['bauernschnapsen']}", "#replay-help"),
        ("history", "/#/history", "table.games tbody tr"),
        ("profile", "/#/me", ".profile"),
        ("rules", "/#/rules/schnapsen", ".rules-page"),
        ("rules-table-game", "/#/rules/bauernschnapsen", ".rules-page"),
        ("tournaments", "/#/tournaments", "#create-tournament"),
        ("tournament", f"/#/tournaments/{places['tournament']}", ".tournament"),
        ("leaderboard", "/#/leaderboard", "#leaderboard"),
        ("leaderboard-bauernschnapsen", "/#/leaderboard/bauernschnapsen", "#leaderboard"),
    ]


def check_every_page(page: Page, base: str, places: dict[str, Any], check: Callable[[Page, str], list[str]]) -> None:
    """``check`` on every page named in the module docstring; fails with all that it found, page by page."""
    found: dict[str, list[str]] = {}
    for name, address, ready in page_addresses(places):
        page.goto(base + address)
        page.locator(ready).first.wait_for()
        found[name] = check(page, name)
    # The lobby's quick match while it waits for others (quickmatch.js), then called off.
    page.goto(base + "/#/")
    page.locator("#quick-match").click()
    page.locator("#qm-waiting").wait_for()
    found["quick-match-waiting"] = check(page, "quick-match-waiting")
    page.locator("#qm-cancel").click()
    page.locator("#quick-match").wait_for()
    for group in ("tables", "bidding"):
        for variant, table in places[group].items():
            show_table(page, base, table, variant)
            if group == "bidding":
                page.locator("#tg-actions button.bid").first.wait_for()
            found[f"{group}-{variant}"] = check(page, f"{group}-{variant}")
    # A table with a clock (its countdown shown), made now: a clock made with the module would have run out.
    for variant in ("schnapsen", "bauernschnapsen"):
        table = table_at(base, variant, mid_game, move_seconds=300)
        show_table(page, base, table, variant)
        found[f"clock-{variant}"] = check(page, f"clock-{variant}")
    bad = {name: what for name, what in found.items() if what}
    assert not bad, "\n".join(f"{name}: {what}" for name, what in bad.items())


@pytest.mark.parametrize("theme", THEMES)
@pytest.mark.parametrize("kind", ["desktop", "phone"])
def test_axe_finds_nothing_serious_on_any_page(
    kind: str,
    theme: str,
    server: LiveServer,
    places: dict[str, Any],
    make: Callable[..., BrowserContext],
    page_errors: Errors,
) -> None:
    """At 1280x800 and on a 390x844 touch phone, whose layout (the history as cards, the table games' order) has its
    own colours and sizes. At a table also the text on the green felt: axe leaves it unjudged (its background is a
    gradient), so it is measured on the pixels behind each text (``felt_contrast``)."""
    assert AXE.exists(), "axe-core is not installed: npm install (package.json)"
    page = themed(make, kind, theme)
    errors = page_errors(page)
    page.goto(server.url + "/")
    assert page.evaluate("matchMedia('(prefers-color-scheme: dark)').matches") == (theme == "dark")

    def check(p: Page, name: str) -> list[str]:
        at_a_table = name.startswith(("tables-", "bidding-", "clock-"))
        return axe_violations(p) + (felt_contrast(p) if at_a_table else [])

    check_every_page(page, server.url, places, check)
    errors.check()


def test_every_control_of_every_page_is_at_least_44_px_on_a_touch_screen(
    server: LiveServer, places: dict[str, Any], make: Callable[..., BrowserContext], shot: Shot, page_errors: Errors
) -> None:
    """The lobby, the table of every variant (and the bidding), the replays, the history, the profile, the rules
    and the tournaments on a 390x844 phone (``test_finished_table_ui`` opens the lobby's every form too)."""
    page: Page = make("phone").new_page()
    errors = page_errors(page)

    def check(p: Page, name: str) -> list[str]:
        assert p.evaluate("matchMedia('(pointer: coarse)').matches")
        settled(p)
        if name == "history":
            shot(p, "history-phone-de")
        return small_controls(p)

    check_every_page(page, server.url, places, check)
    errors.check()


# ---------------------------------------------------------------------------- the keyboard alone
def tab_to(page: Page, selector: str, limit: int = 150) -> None:
    """Press Tab until the focus is on an element of ``selector`` (which must be reachable by Tab alone)."""
    for _ in range(limit):
        if page.evaluate("(s) => !!document.activeElement && document.activeElement.matches(s)", selector):
            return
        page.keyboard.press("Tab")
    raise AssertionError(f"Tab never reached {selector}")


def focus_visible(page: Page) -> bool:
    """Whether the focused element shows that it has the focus (an outline or a box shadow)."""
    shown: bool = page.evaluate(
        """() => { const s = getComputedStyle(document.activeElement);
                   return (s.outlineStyle !== "none" && parseFloat(s.outlineWidth) >= 2) || s.boxShadow !== "none"; }"""
    )
    return shown


@pytest.mark.parametrize("theme", THEMES)
def test_a_two_player_game_is_played_with_the_keyboard_alone(
    theme: str, server: LiveServer, make: Callable[..., BrowserContext], shot: Shot, page_errors: Errors
) -> None:
    """A Schnapsen game from the lobby's form to its end: Tab and Enter for the form, the number keys (and Tab,
    Enter) for the cards, Enter for "next game" — no mouse, no tap."""
    page: Page = make("desktop", color_scheme=theme).new_page()
    errors = page_errors(page)
    page.goto(server.url + "/")
    page.evaluate("localStorage.setItem('bummerl.pace', '0'); localStorage.setItem('bummerl.motion', 'off')")
    page.reload()
    page.locator("#start").wait_for()
    tab_to(page, "#variant-schnapsen")
    tab_to(page, "#start")
    assert focus_visible(page), "the focused start button shows no focus"
    page.keyboard.press("Enter")
    page.wait_for_url("**/#/table/**")
    cards_played = 0
    for _ in range(80):
        page.wait_for_selector("button.card.in-hand.playable:not([disabled]), #result-banner, dialog[open]")
        if page.locator("#result-banner").count():
            break
        if page.locator("dialog[open]").count():
            page.keyboard.press("Enter")  # the question before going out: its focused answer
            page.wait_for_timeout(150)
            continue
        settled(page)
        if cards_played % 2 == 0:
            # The number key of the first card that may be played (the keys shown below the hand).
            key = page.locator("button.card.in-hand.playable:not([disabled]) .key").first.inner_text()
            page.keyboard.press(key)
        else:
            tab_to(page, "button.card.in-hand.playable:not([disabled])")
            assert focus_visible(page), "the focused card shows no focus"
            page.keyboard.press("Enter")
        cards_played += 1
        page.wait_for_timeout(150)
    page.locator("#result-banner").wait_for()
    # Both ways (a number key, then Tab and Enter) at least once. Two cards can be all: the bot's Vierziger and
    # two tricks (two cards of ours) make 66 at the earliest, as in one CI run.
    assert cards_played >= 2, cards_played
    if theme == "dark":
        shot(page, "dark-table-de")
    tab_to(page, "[data-action='next_game']")
    page.keyboard.press("Enter")
    page.wait_for_selector("button.card.in-hand.playable:not([disabled]), [data-action='next_game']")
    errors.check()


def test_bauernschnapsen_is_bid_and_played_with_the_keyboard_alone(
    server: LiveServer, make: Callable[..., BrowserContext], page_errors: Errors
) -> None:
    """Seat 0 bids (a bid button reached by Tab, pressed with Enter), then takes whatever its turn offers (a button
    of the bidding, a card) by Tab and Enter until the game is over."""
    table = table_at(server.url, "bauernschnapsen", bidding_turn)
    page: Page = make("desktop").new_page()
    errors = page_errors(page)
    page.goto(server.url + "/")
    page.evaluate("localStorage.setItem('bummerl.pace', '0'); localStorage.setItem('bummerl.motion', 'off')")
    show_table(page, server.url, table, "bauernschnapsen")
    page.locator("#tg-actions button.bid").first.wait_for()
    log_before = page.locator(".tg-log li").count()
    tab_to(page, "#tg-actions button.bid")
    assert focus_visible(page), "the focused bid button shows no focus"
    bid = page.evaluate("document.activeElement.textContent")
    page.keyboard.press("Enter")
    wait_until(page, lambda: page.locator(".tg-log li").count() > log_before, "the bid in the log")
    assert "Ansagen" in bid, bid
    cards = play_by_keyboard(page)
    page.locator("#tg-over").wait_for(timeout=30000)
    # A bid the bots beat ends the game within a trick or two: at least one card was played by the keyboard.
    assert cards >= 1, cards
    errors.check()


#: What a seat's turn offers at any table: a card of the hand, a bid, "Weiter", Kontra, Zudrehen, "Genug!" ...
TURN = (
    "button.card.in-hand.playable:not([disabled]), #tg-actions button:not([disabled]), "
    ".actions button.action:not([disabled]), [data-action='next_game']:not([disabled])"
)
#: A game's result on the page (two seats, a table game).
RESULT = "#result-banner, #tg-over"


def play_by_keyboard(page: Page) -> int:
    """Seat 0 takes what each turn offers, the first control of the page's order that it reaches by Tab, pressed
    with Enter, until the game's result stands; how many cards it played so."""
    cards = 0
    for _ in range(300):
        if page.locator(RESULT).count():
            break
        if page.locator("dialog[open]").count():
            page.keyboard.press("Enter")  # the question before going out: its focused answer
            continue
        if not page.locator(TURN).count():
            page.wait_for_timeout(100)
            continue
        settled(page)
        tab_to(page, TURN)
        cards += page.evaluate("document.activeElement.matches('button.card')")
        page.keyboard.press("Enter")
        page.wait_for_timeout(150)
    return cards


@pytest.mark.parametrize("variant", TWO_PLAYER + TABLE_GAMES)
def test_every_variant_is_played_to_its_result_with_the_keyboard_alone(
    variant: str, server: LiveServer, make: Callable[..., BrowserContext], page_errors: Errors
) -> None:
    """A game of each of the six variants against bots, seat 0 played by Tab and Enter alone (whatever its turns
    offer: cards, bids, "Weiter", Kontra, Zudrehen ...) until the result stands."""
    table = post(server.url, "/api/tables", {"variant": variant, "bots": "heuristic", "name": "Anna"})
    page: Page = make("desktop").new_page()
    errors = page_errors(page)
    page.goto(server.url + "/")
    page.evaluate("localStorage.setItem('bummerl.pace', '0'); localStorage.setItem('bummerl.motion', 'off')")
    open_seat(page, server.url, table["table_id"], table["token"], 0, variant)
    page.locator(".card").first.wait_for()
    cards = 0
    for _ in range(5):
        cards += play_by_keyboard(page)
        page.locator(RESULT).first.wait_for(timeout=30000)
        if cards:
            break
        # Seat 0 played no card: it sat out as the partner of a declarer who plays alone, or the deal was
        # thrown in. The next game, by the keyboard too.
        tab_to(page, "#tg-next")
        page.keyboard.press("Enter")
        page.locator("#tg-over").wait_for(state="detached")
    assert cards >= 1, cards
    errors.check()
