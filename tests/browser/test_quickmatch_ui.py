"""Quick match in a real browser (issue 24: "Two browsers that press Quick match for the same variant sit at one
table within seconds; a Bauernschnapsen quick match with one person fills the other seats with bots after the
chosen wait").

Debian's Chromium through Playwright against a live server (``conftest.py``): one person at 1280x800 in German,
another on a 390x844 touch phone in English, each in a browser context of their own (their own player key). The
second one joins the first through the lobby's list of people waiting. No page may report a JavaScript error, the
phone's lobby may not scroll sideways, and the panel's controls are at least 44x44 px on the phone.
"""

from __future__ import annotations

import pytest

pytest.importorskip("fastapi", reason="needs the 'web' extra: pip install -e '.[web]'")
pytest.importorskip("playwright", reason="needs the 'browser' extra: pip install -e '.[browser]'")

import re
import time
from typing import TYPE_CHECKING

from browser_setup import require_chromium

require_chromium()

from ui_helpers import axe_violations, no_sideways_scroll, small_controls, wait_until  # noqa: E402

if TYPE_CHECKING:
    from collections.abc import Callable

    from playwright.sync_api import BrowserContext, Page
    from tests.browser.conftest import Errors, LiveServer, Shot

TABLE_URL = re.compile(r"#/table/[A-Za-z0-9_-]+$")


def lobby(page: Page, base: str, name: str, variant: str | None = None, preset: str | None = None) -> None:
    """The lobby with the player's name typed, and the quick match's game and rules chosen (if given)."""
    page.goto(base + "/")
    page.locator("#quick-match").wait_for()
    page.fill("#player-name", name)
    if variant is not None:
        page.select_option("#qm-variant", variant)
    if preset is not None:
        page.select_option("#qm-preset", preset)


def panel_small_controls(page: Page) -> list[str]:
    """The quick-match panel's controls under 44x44 px (the rest of the lobby has its own test)."""
    return [c for c in small_controls(page) if "#qm-" in c or "qm-" in c or "#quick-match" in c]


def test_two_browsers_that_press_quick_match_sit_at_one_table(
    server: LiveServer, make: Callable[..., BrowserContext], shot: Shot, page_errors: Errors
) -> None:
    anna = make("desktop").new_page()
    anna_errors = page_errors(anna)
    lobby(anna, server.url, "Anna", "sechsundsechzig", "standard")
    assert anna.locator("#qm-bots").count() == 0  # a two-player game waits for a person
    anna.click("#quick-match")
    waiting = anna.locator("#qm-waiting")
    waiting.wait_for()
    assert "Sechsundsechzig" in waiting.inner_text() and "Standard" in waiting.inner_text()
    anna.locator(".qm-waiting-time", has_text="0:0").wait_for()

    bert = make("phone", locale="en-GB").new_page()
    bert_errors = page_errors(bert)
    lobby(bert, server.url, "Bert")
    assert bert.evaluate("document.documentElement.lang") == "en"
    # The lobby lists the queue where Anna waits (no name), with a button to join it.
    row = bert.locator("#qm-open li", has_text="Sechsundsechzig")
    row.wait_for(timeout=15000)
    assert "Anna" not in bert.locator("#qm-open").inner_text()
    assert "1 of 2" in row.inner_text()
    assert no_sideways_scroll(bert) == 0
    assert panel_small_controls(bert) == []
    # Anna's counts say somebody waits.
    anna.locator("#qm-counts", has_text="1 wartet").wait_for(timeout=15000)
    shot(anna, "quick-match-de")
    shot(bert, "quick-match-phone-390-en")

    started = time.monotonic()
    row.locator(".qm-join").click()
    bert.wait_for_url(TABLE_URL, timeout=10000)
    anna.wait_for_url(TABLE_URL, timeout=10000)
    took = time.monotonic() - started
    assert took < 5.0, f"seated after {took:.1f} s"
    table_id = anna.url.rsplit("/", 1)[1]
    assert bert.url.rsplit("/", 1)[1] == table_id

    summary = server.get_json(f"/api/tables/{table_id}")
    assert sorted(p["name"] for p in summary["players"]) == ["Anna", "Bert"]
    assert summary["variant"] == "sechsundsechzig" and summary["practice"] is False
    assert summary["move_seconds"] == 30
    # Each page plays its own seat: its hand is drawn, and both are connected.
    for page in (anna, bert):
        page.locator(".seat-bottom .hand .card").first.wait_for(timeout=15000)
    # The table's line says it is rated (a quick-match table) and its time per move.
    assert (
        anna.locator("#rated-badge").inner_text() == "Gewertet" and bert.locator("#rated-badge").inner_text() == "Rated"
    )
    assert "30\xa0s pro Zug" in anna.locator("#variant-line").inner_text()
    assert "30\xa0s per move" in bert.locator("#variant-line").inner_text()
    deadline = time.monotonic() + 10
    while not all(p["connected"] for p in server.get_json(f"/api/tables/{table_id}")["players"]):
        assert time.monotonic() < deadline, "both seats connected"
        time.sleep(0.1)
    # The lobby's way back to the table: the seat was stored as the lobby stores its own tables.
    anna.goto(server.url + "/")
    anna.locator(f'a[href="#/table/{table_id}"]').wait_for()
    anna_errors.check()
    bert_errors.check()


def test_bauernschnapsen_alone_gets_three_bots_after_the_chosen_wait(
    server: LiveServer, make: Callable[..., BrowserContext], shot: Shot, page_errors: Errors
) -> None:
    page = make("phone").new_page()
    errors = page_errors(page)
    lobby(page, server.url, "Cleo", "bauernschnapsen", "short")
    page.select_option("#qm-bots", "10")
    assert no_sideways_scroll(page) == 0
    assert panel_small_controls(page) == []
    started = time.monotonic()
    page.click("#quick-match")
    page.locator("#qm-waiting").wait_for()
    page.locator(".qm-bots-in", has_text="Computer").wait_for()
    shot(page, "quick-match-waiting-phone-390-de")
    page.wait_for_url(TABLE_URL, timeout=25000)
    took = time.monotonic() - started
    assert 9.5 <= took < 20.0, f"seated with bots after {took:.1f} s (the wait was 10 s)"
    table_id = page.url.rsplit("/", 1)[1]
    summary = server.get_json(f"/api/tables/{table_id}")
    assert summary["variant"] == "bauernschnapsen" and summary["options"] == {"match_target": 12}
    assert [p["kind"] for p in summary["players"]] == ["human", "bot", "bot", "bot"]
    assert summary["players"][0]["name"] == "Cleo"
    page.locator(".seat-bottom .hand .card, #tg-hand .card").first.wait_for(timeout=15000)
    errors.check()


def test_a_wait_is_cancelled_and_leaves_nobody_in_the_queue(
    server: LiveServer, make: Callable[..., BrowserContext], page_errors: Errors
) -> None:
    page = make("desktop", bypass_csp=True).new_page()  # the CSP bypassed so that axe can be injected
    errors = page_errors(page)
    lobby(page, server.url, "Dora", "schnorps")
    page.click("#quick-match")
    page.locator("#qm-waiting").wait_for()
    assert axe_violations(page) == []  # the lobby while waiting: nothing serious or critical (axe-core)
    # The counts are kept 2 s: the queue shows within that, and is gone as soon after the cancel.
    wait_until(page, lambda: any(q["variant"] == "schnorps" for q in queues(server)), "the queue", timeout=5)
    page.click("#qm-cancel")
    page.locator("#quick-match").wait_for()
    wait_until(page, lambda: not any(q["variant"] == "schnorps" for q in queues(server)), "no queue", timeout=5)
    # A reload while waiting waits on with the same ticket (kept for the tab).
    page.click("#quick-match")
    page.locator("#qm-waiting").wait_for()
    ticket = page.evaluate("JSON.parse(sessionStorage.getItem('bummerl.quickmatch')).ticket")
    page.reload()
    page.locator("#qm-waiting").wait_for()
    assert page.evaluate("JSON.parse(sessionStorage.getItem('bummerl.quickmatch')).ticket") == ticket
    page.click("#qm-cancel")
    page.locator("#quick-match").wait_for()
    errors.check()


def queues(server: LiveServer) -> list[dict[str, object]]:
    found: list[dict[str, object]] = server.get_json("/api/lobby/counts")["queues"]
    return found
