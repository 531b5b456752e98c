"""The one table page (issue 23): what used to differ between the two-player page and the three- and four-player
page, checked where it differed.

- the own hand is an accessible group with a name ("Deine Karten" / "Your cards") at every table, also at a
  Bauernschnapsen and a Dreierschnapsen table;
- at a four-seat table the trick is laid out by seat position: no card of the trick covers another card, a card of
  the partner's or a seat's name, on a 390x844 phone and at 1280x800;
- two bots of one kind are named apart ("Computer 1 (Faustregeln)", "Computer 2 (Faustregeln)") in the seats, the
  standing and the log.

Debian's Chromium through Playwright against a live server (``conftest.py``); the situations are reached by playing
seat 0 from the test over the table's WebSocket (``ui_helpers.SeatDriver``), then the page shows them.
"""

from __future__ import annotations

import pytest

pytest.importorskip("fastapi", reason="needs the 'web' extra: pip install -e '.[web]'")
pytest.importorskip("playwright", reason="needs the 'browser' extra: pip install -e '.[browser]'")

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from browser_setup import require_chromium
from ui_helpers import SeatDriver, first_legal, game_over, open_seat, post, set_lang

require_chromium()

if TYPE_CHECKING:
    from playwright.sync_api import BrowserContext, Page
    from tests.browser.conftest import Errors, LiveServer, Shot


def table_with_bots(server: LiveServer, variant: str) -> dict[str, Any]:
    """A table of ``variant`` with the heuristic bot ("Faustregeln") at every other seat."""
    return post(server.url, "/api/tables", {"variant": variant, "bots": "heuristic", "name": "Anna"})


@pytest.mark.parametrize("variant", ["bauernschnapsen", "dreierschnapsen"])
def test_the_own_hand_is_a_named_group_at_a_table_game(
    variant: str, server: LiveServer, make: Callable[..., BrowserContext], page_errors: Errors
) -> None:
    table = table_with_bots(server, variant)
    page = make("desktop").new_page()
    errors = page_errors(page)
    open_seat(page, server.url, table["table_id"], table["token"], 0, variant)
    page.locator("#tg-hand .card").first.wait_for()
    for lang, name in (("de", "Deine Karten"), ("en", "Your cards")):
        set_lang(page, lang)
        group = page.get_by_role("group", name=name, exact=True)
        assert group.count() == 1, f"no group named {name!r}"
        assert group.locator(".card").count() == page.locator("#tg-hand .card").count() > 0
    errors.check()


def boxes_overlapping(page: Page) -> list[str]:
    """Every pair of a trick's card and another card or seat name whose boxes overlap (motion finished first)."""
    found: list[str] = page.evaluate(
        """() => {
            document.body.dispatchEvent(new MouseEvent("click", { bubbles: true }));
            const trick = [...document.querySelectorAll("#tg-trick .card")];
            const others = [...document.querySelectorAll(".tg-seat .card, .tg-seat .seat-name, #tg-hand .card")];
            const box = (e) => e.getBoundingClientRect();
            const meet = (a, b) => a.left < b.right - 0.5 && b.left < a.right - 0.5 && a.top < b.bottom - 0.5
                && b.top < a.bottom - 0.5;
            const out = [];
            trick.forEach((card, i) => {
                for (const other of [...trick.slice(i + 1), ...others]) {
                    const what = other.dataset.card || other.textContent;
                    if (meet(box(card), box(other))) out.push(`${card.dataset.card} / ${what}`);
                }
            });
            return trick.length ? out : ["no trick shown"];
        }"""
    )
    return found


@pytest.mark.parametrize("kind", ["phone", "desktop"])
def test_no_card_of_a_four_seat_trick_covers_another(
    kind: str, server: LiveServer, make: Callable[..., BrowserContext], shot: Shot, page_errors: Errors
) -> None:
    table = table_with_bots(server, "bauernschnapsen")
    driver = SeatDriver(server.url, table["table_id"], {0: table["token"]})
    # A game that ends with tricks on the table (not a redeal): its last trick of four cards stays in view.
    for _ in range(10):
        state = driver.play(first_legal, game_over)[0]
        if state["view"]["tricks"]:
            break
        driver.deal_next(0)
    else:
        raise AssertionError("no game with a trick")
    driver.close()
    page = make(kind).new_page()
    errors = page_errors(page)
    open_seat(page, server.url, table["table_id"], table["token"], 0, "bauernschnapsen")
    page.locator("#tg-over").wait_for()
    # The last trick (four cards), or the cards of a trick the game ended in.
    assert page.locator("#tg-trick .card").count() >= 2
    assert boxes_overlapping(page) == []
    # In one step in the page: the table may be drawn anew (the sheet, the rules arriving) between Playwright's
    # finding the trick and scrolling to it, which fails on an element no longer attached.
    page.eval_on_selector("#tg-trick", "e => e.scrollIntoView({ block: 'center' })")
    shot(page, f"table-page-trick-4-{kind}")
    errors.check()


@pytest.mark.parametrize("variant", ["bauernschnapsen", "dreierschnapsen"])
def test_two_bots_of_one_kind_are_named_apart(
    variant: str, server: LiveServer, make: Callable[..., BrowserContext], page_errors: Errors
) -> None:
    table = table_with_bots(server, variant)
    driver = SeatDriver(server.url, table["table_id"], {0: table["token"]})
    driver.play(first_legal, game_over)
    driver.close()
    page = make("desktop").new_page()
    errors = page_errors(page)
    open_seat(page, server.url, table["table_id"], table["token"], 0, variant)
    page.locator("#tg-over").wait_for()
    bots = 3 if variant == "bauernschnapsen" else 2
    for lang, word in (("de", "Faustregeln"), ("en", "Rules of thumb")):
        set_lang(page, lang)
        seats = page.locator(".tg-seat .seat-name").all_inner_texts()
        expected = [f"Computer {n} ({word})" for n in range(1, bots + 1)]
        assert [s.replace(" ★", "").strip() for s in seats] == expected
        # The standing and the log call them so too; none is the bare "Computer (…)" any more.
        score = page.locator("#tg-score").inner_text()
        log = page.locator("#tg-log").inner_text()
        assert f"Computer ({word})" not in score + log
        assert any(name in log for name in expected)
        if variant == "bauernschnapsen":
            assert f"Du & Computer 2 ({word})" in score or f"You & Computer 2 ({word})" in score
    errors.check()
