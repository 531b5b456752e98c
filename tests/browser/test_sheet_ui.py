"""The Bummerl sheet, the player's statistics and the log after a reload, in a real browser (issue 13, "Remember").

Debian's Chromium through Playwright against a live server, at 1280x800 and at 390x844 with touch:

- after a game the score sheet stands beside the table (below it on a phone), its lines and standing as the
  server's sheet says, and it downloads as text in the page's language;
- after two games the profile page (``#/me``) shows them: games won per variant and bot, the Bummerl, the
  rating with its interval, the longest run; a code moves the profile to a second device;
- the table's log ("what happened") is the same after a reload.

Games are played from the test over the table's WebSocket (``ui_helpers.SeatDriver``, as another device of the
same seat would): the page shows what the server sends, whoever acted.  Screenshots in German and English.
"""

from __future__ import annotations

import re

import pytest

pytest.importorskip("fastapi", reason="needs the 'web' extra: pip install -e '.[web]'")
pytest.importorskip("playwright", reason="needs the 'browser' extra: pip install -e '.[browser]'")

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from browser_setup import require_chromium
from ui_helpers import (
    SeatDriver,
    first_legal,
    game_over,
    get,
    no_sideways_scroll,
    open_seat,
    post,
    set_lang,
    wait_until,
)

require_chromium()

if TYPE_CHECKING:
    from playwright.sync_api import BrowserContext, FloatRect, Page, Response
    from tests.browser.conftest import Errors, LiveServer, Shot

SIZES = ["desktop", "phone"]


def message(page: Page, key: str, params: dict[str, Any]) -> str:
    """The page's own sentence ``key`` in its current language (i18n.js, the module the page uses)."""
    text: str = page.evaluate("async ([k, p]) => (await import('/i18n.js')).t(k, p)", [key, params])
    return text


def box(page: Page, selector: str) -> FloatRect:
    """Where ``selector`` is on the page, once it is shown (a table's panels render after its first state)."""
    page.locator(selector).first.wait_for()
    found = page.locator(selector).first.bounding_box()
    assert found is not None, f"{selector} is not on the page"
    return found


def play_games(server: LiveServer, table: dict[str, Any], games: int) -> dict[str, Any]:
    """Play ``games`` games of the table from seat 0's socket; the last state."""
    driver = SeatDriver(server.url, table["table_id"], {0: table["token"]})
    try:
        for n in range(games):
            states = driver.play(first_legal, game_over)
            if n < games - 1:
                driver.send(0, {"type": "next_game"})
                driver.play(first_legal, lambda s: s[0]["game_over"] is None)
        return states[0]
    finally:
        driver.close()


def play_on(state: dict[str, Any]) -> str:
    """A card or a marriage, never going out or closing: the game goes on."""
    legal: list[str] = state["legal"]
    return next((a for a in legal if a != "close" and not a.startswith("declare")), legal[0])


def no_missing_values(page: Page) -> None:
    """No cell, caption or line of the sheet says "null", "undefined" or "NaN" (a value the page did not have)."""
    texts: list[str] = page.eval_on_selector_all(
        "#sheet th, #sheet td, #sheet caption, #sheet p, #sheet summary", "els => els.map(e => e.textContent)"
    )
    assert texts, "the sheet has no text"
    panel = page.locator("#sheet").inner_text()
    bad = [x for x in [*texts, panel] if re.search(r"\b(null|undefined|NaN)\b", x)]
    assert not bad, f"the sheet shows a missing value: {bad}"


def sheet_standings(page: Page) -> list[list[int]]:
    rows: list[list[int]] = page.eval_on_selector_all(
        "#sheet .sheet-scroll tr.game",
        "rows => rows.map(r => [...r.querySelectorAll('td.num')].map(td => Number(td.textContent)))",
    )
    return rows


# ---------------------------------------------------------------------------- the sheet
@pytest.mark.parametrize("size", SIZES)
def test_the_sheet_stands_beside_the_table_after_a_game(
    server: LiveServer, make: Callable[..., BrowserContext], shot: Shot, page_errors: Errors, size: str
) -> None:
    """seeds/000: the Bummerl is noted counting down from 7; each line says who dealt, who won how much and how."""
    table = post(server.url, "/api/tables", {"variant": "schnapsen", "opponent": "random", "name": "Anna"})
    last = play_games(server, table, 1)
    page = make(size).new_page()
    errors = page_errors(page)
    open_seat(page, server.url, table["table_id"], table["token"], 0, "schnapsen")
    page.locator("#sheet .sheet-scroll tr.game").first.wait_for()
    sheet = get(server.url, f"/api/tables/{table['table_id']}/sheet")
    line = sheet["matches"][0]["games"][0]
    assert sheet_standings(page) == [line["standing"]] == [last["match"]["standing"]]
    start = page.eval_on_selector_all("#sheet tr.start td.num", "tds => tds.map(td => Number(td.textContent))")
    assert start == [7, 7]
    what = page.locator("#sheet tr.what-row td.what").inner_text()
    winner = "Anna" if line["winner"] == 0 else None
    assert str(line["points"]) in what and (winner is None or message(page, "tg_you", {}) in what or winner in what)
    board, side = box(page, ".board"), box(page, "#sheet")
    if size == "desktop":
        assert side["x"] >= board["x"] + board["width"] - 1  # beside the table
    else:
        assert side["y"] >= board["y"] + board["height"] - 1 and no_sideways_scroll(page) == 0  # below it
    # The download: the sheet in the page's words.
    with page.expect_download() as download:
        page.locator("#sheet a.sheet-download").click()
    text = Path(download.value.path()).read_text(encoding="utf-8")
    assert text.startswith(message(page, "sc_heading", {})) and "Anna" in text and str(line["points"]) in text
    assert not re.search(r"\b(null|undefined|NaN)\b", text)
    no_missing_values(page)
    shot(page, f"sheet-{size}-de")
    set_lang(page, "en")
    page.locator("#sheet-title", has_text="Score sheet").wait_for()
    no_missing_values(page)
    shot(page, f"sheet-{size}-en")
    errors.check()


@pytest.mark.parametrize("size", SIZES)
def test_a_table_games_sheet_runs_to_24_beside_its_table(
    server: LiveServer, make: Callable[..., BrowserContext], shot: Shot, page_errors: Errors, size: str
) -> None:
    """seeds/004: the teams play to 24 points; the sheet keeps each team's running score."""
    table = post(server.url, "/api/tables", {"variant": "bauernschnapsen", "bots": "random", "name": "Anna"})
    last = play_games(server, table, 1)
    page = make(size).new_page()
    errors = page_errors(page)
    open_seat(page, server.url, table["table_id"], table["token"], 0, "bauernschnapsen")
    page.locator("#sheet .sheet-scroll tr.game").first.wait_for()
    assert sheet_standings(page) == [last["match"]["scores"]]
    assert page.locator("#sheet thead th.num").count() == 2  # two teams
    tgame, side = box(page, "#tgame"), box(page, "#sheet")
    if size == "desktop":
        assert side["x"] >= tgame["x"] + tgame["width"] - 1
    else:
        assert side["y"] >= tgame["y"] + tgame["height"] - 1 and no_sideways_scroll(page) == 0
    no_missing_values(page)
    shot(page, f"sheet-bauernschnapsen-{size}-de")
    set_lang(page, "en")
    page.locator("#sheet-title", has_text="Score sheet").wait_for()
    no_missing_values(page)
    shot(page, f"sheet-bauernschnapsen-{size}-en")
    errors.check()


# ---------------------------------------------------------------------------- statistics
@pytest.mark.parametrize("size", SIZES)
def test_statistics_after_two_games_and_a_code_for_another_device(
    server: LiveServer, make: Callable[..., BrowserContext], shot: Shot, page_errors: Errors, size: str
) -> None:
    """The seat is recorded for this browser's player when the table opens; after two games the profile counts
    them against the bot with a rating and its interval; a code shown there moves the profile to a phone."""
    table = post(server.url, "/api/tables", {"variant": "schnapsen", "opponent": "random", "name": "Anna"})
    context = make(size)
    page = context.new_page()
    errors = page_errors(page)
    open_seat(page, server.url, table["table_id"], table["token"], 0, "schnapsen")
    page.locator(".seat-bottom .hand .card").first.wait_for()
    recorded = "(id) => Boolean((JSON.parse(localStorage.getItem('bummerl.seats') || '{}')[id] || {}).player)"
    wait_until(page, lambda: page.evaluate(recorded, table["table_id"]), "the seat recorded for the player")
    last = play_games(server, table, 2)
    won = sum(
        1
        for line in get(server.url, f"/api/tables/{table['table_id']}/sheet")["matches"][0]["games"]
        if line["winner"] == 0
    )
    page.click('#nav a[href="#/me"]')
    page.locator("#profile-summary").wait_for()
    summary = page.locator("#profile-summary").inner_text()
    assert summary.startswith(f"2 Spiele: {won} gewonnen, {2 - won} verloren")
    row = page.locator('#profile-stats tr[data-variant="schnapsen"][data-opponent="random"]')
    assert row.locator("td.games").inner_text() == "2" and row.locator("td.won").inner_text() == str(won)
    rating = row.locator("td.rating").inner_text()
    assert "…" in rating and rating != "–"
    # Two games without a stand: a run of two, one or none.
    assert page.locator("#profile-runs").inner_text().startswith(f"Längste Siegesserie: {won} Spiel")
    assert (
        last["match"]["standing"] == get(server.url, f"/api/tables/{table['table_id']}/sheet")["matches"][0]["standing"]
    )
    if size == "phone":
        assert no_sideways_scroll(page) == 0
    shot(page, f"profile-{size}-de")
    set_lang(page, "en")
    page.locator("#profile-summary", has_text="2 games").wait_for()
    shot(page, f"profile-{size}-en")
    if size == "phone":
        errors.check()
        return
    # A second device (a phone): the code shown here, typed there, shows the same statistics.
    page.click("#make-code")
    code = page.locator("#transfer-code .code").inner_text()
    assert len(code) == 11 and code[5] == "-"
    other = make("phone").new_page()
    other_errors = page_errors(other)
    other.goto(server.url + "/#/me")
    other.locator("#profile-none").wait_for()
    other.fill("#transfer-input", code.lower())
    other.click("#use-code")
    other.locator("#profile-summary").wait_for()
    assert other.locator("#profile-summary").inner_text().startswith("2 Spiele")
    shot(other, "profile-transferred-phone-de")
    errors.check()
    other_errors.check()


def test_a_second_browser_opening_the_same_seat_records_nothing_and_logs_no_error(
    server: LiveServer, make: Callable[..., BrowserContext], page_errors: Errors
) -> None:
    """The seat's link opened on a second device (another browser, so another player): the seat stays recorded
    for the first browser's player, the second is told so by a 200 (a 4xx would be an error in its console)."""
    table = post(server.url, "/api/tables", {"variant": "schnapsen", "opponent": "random", "name": "Anna"})
    entry = "(id) => (JSON.parse(localStorage.getItem('bummerl.seats') || '{}')[id] || {}).player || null"
    me = "() => (JSON.parse(localStorage.getItem('bummerl.player') || 'null') || {}).id || null"
    pages: list[Page] = []
    errors = []
    for size in ("desktop", "phone"):
        page = make(size).new_page()
        errors.append(page_errors(page))
        answers: list[int] = []

        def seen(response: Response, answers: list[int] = answers) -> None:
            if "/api/players/me/seats" in response.url:
                answers.append(response.status)

        page.on("response", seen)
        open_seat(page, server.url, table["table_id"], table["token"], 0, "schnapsen")
        page.locator(".seat-bottom .hand .card").first.wait_for()

        def answered(page: Page = page) -> Any:
            return page.evaluate(entry, table["table_id"])

        wait_until(page, answered, "the seat's claim answered")
        assert answers == [200]  # the second browser too: nothing recorded is no error
        pages.append(page)
    first, second = pages
    assert first.evaluate(entry, table["table_id"]) == first.evaluate(me)  # recorded for the first player
    assert second.evaluate(me) not in (None, first.evaluate(me))  # the second browser has a player of its own ...
    assert second.evaluate(entry, table["table_id"]) == "-"  # ... for whom this seat is recorded: nothing to retry
    for found in errors:
        found.check()


# ---------------------------------------------------------------------------- the log after a reload
@pytest.mark.parametrize("size", SIZES)
def test_the_log_is_the_same_after_a_reload(
    server: LiveServer, make: Callable[..., BrowserContext], shot: Shot, page_errors: Errors, size: str
) -> None:
    """The log is rebuilt from the server's stored events: a reload shows what happened so far in this game."""
    # The random bot may say "Genug" (wrongly) whenever it has won a trick: a practice table's seed makes its
    # choices and the deal the same on every run, and seed 2 gives a first game that lasts three tricks (seed 1
    # ends after two). Should the engine or the bot change, a game that ends early is followed by the next one:
    # the log checked is always that of a game three tricks in.
    table = post(server.url, "/api/tables", {"variant": "schnapsen", "opponent": "random", "name": "Anna", "seed": 2})
    driver = SeatDriver(server.url, table["table_id"], {0: table["token"]})
    try:
        # Three tricks played, then the table waits for seat 0: nothing moves while the page reloads.
        for _ in range(8):
            states = driver.play(
                play_on,
                lambda s: s[0]["game_over"] is not None or (s[0]["your_turn"] and len(s[0]["view"]["tricks"]) >= 3),
            )
            if states[0]["game_over"] is None:
                break
            driver.deal_next(0)
            driver.play(play_on, lambda s: s[0]["game_over"] is None)
        assert states[0]["game_over"] is None and len(states[0]["view"]["tricks"]) >= 3, "no game lasted 3 tricks"
    finally:
        driver.close()
    page = make(size).new_page()
    errors = page_errors(page)
    open_seat(page, server.url, table["table_id"], table["token"], 0, "schnapsen")
    page.locator(".log li").first.wait_for()
    before = page.eval_on_selector_all(".log li", "els => els.map(e => e.textContent)")
    assert len([x for x in before if x]) >= 6  # the deal, six cards, three tricks
    page.reload()
    page.locator(".log li").first.wait_for()
    wait_until(
        page,
        lambda: page.eval_on_selector_all(".log li", "els => els.map(e => e.textContent)") == before,
        "the same log",
    )
    shot(page, f"log-after-reload-{size}-de")
    errors.check()


def test_a_table_games_log_is_the_same_after_a_reload(
    server: LiveServer, make: Callable[..., BrowserContext], page_errors: Errors
) -> None:
    table = post(server.url, "/api/tables", {"variant": "dreierschnapsen", "bots": "random", "name": "Anna"})
    driver = SeatDriver(server.url, table["table_id"], {0: table["token"]})
    try:
        # Until seat 0 plays a card (the table waits for it) or the game is over: a page reload changes nothing.
        driver.play(
            play_on, lambda s: s[0]["game_over"] is not None or (s[0]["your_turn"] and s[0]["view"]["phase"] == "play")
        )
    finally:
        driver.close()
    page = make("phone").new_page()
    errors = page_errors(page)
    open_seat(page, server.url, table["table_id"], table["token"], 0, "dreierschnapsen")
    page.locator("#tg-log li").first.wait_for()
    before = page.eval_on_selector_all("#tg-log li", "els => els.map(e => e.textContent)")
    page.reload()
    page.locator("#tg-log li").first.wait_for()
    after = page.eval_on_selector_all("#tg-log li", "els => els.map(e => e.textContent)")
    assert after == before and len(before) >= 2
    errors.check()
