"""A tournament in a real browser (issue 14): the organiser makes it on the tournament page and takes part, a
friend on a phone joins by the invitation link, the organiser starts it, both see the pairing and open their
table from it.

Debian's Chromium through Playwright against a live server (``conftest.py``): the organiser at desktop size in
German, the friend on a 390x844 phone in English, each in a browser context of their own (their own
``localStorage``); no page may report a JavaScript error, and the phone's pages may not scroll sideways.
"""

from __future__ import annotations

import pytest

pytest.importorskip("fastapi", reason="needs the 'web' extra: pip install -e '.[web]'")
pytest.importorskip("playwright", reason="needs the 'browser' extra: pip install -e '.[browser]'")

import re
from typing import TYPE_CHECKING

from browser_setup import require_chromium

require_chromium()

if TYPE_CHECKING:
    from playwright.sync_api import Page
    from tests.browser.conftest import Errors, LiveServer, NewContext, Shot


def sideways(page: Page) -> int:
    """How far the page scrolls sideways (0: it fits)."""
    overflow: int = page.evaluate("document.scrollingElement.scrollWidth - window.innerWidth")
    return overflow


def new_tournament(page: Page, base: str, name: str, **choices: str) -> str:
    """Make a tournament on the tournaments page (reached by the header's link): its name and the selects of the
    form by their ids' ends (``variant="schnapsen"`` picks ``#tournament-variant``); its id."""
    page.goto(base + "/")
    page.click('#nav a[href="#/tournaments"]')  # the lobby's way in
    page.locator("#create-tournament").wait_for()
    page.fill("#tournament-name", name)
    for what, value in choices.items():
        page.select_option(f"#tournament-{what}", value)
    page.click("#create-tournament")
    page.wait_for_url(re.compile(r"#/tournaments/[A-Za-z0-9_-]+$"))
    return page.url.rsplit("/", 1)[1]


def test_a_tournament_is_made_joined_by_link_started_and_each_player_opens_their_table(
    server: LiveServer, new_context: NewContext, shot: Shot, page_errors: Errors
) -> None:
    organiser = new_context(width=1280, height=800).new_page()
    organiser_errors = page_errors(organiser)
    tournament_id = new_tournament(
        organiser, server.url, "Wirtshaus-Cup", variant="schnapsen", format="swiss", unit="game"
    )
    invite = organiser.locator("#tournament-invite").input_value()
    assert invite.startswith(f"{server.url}/#/tournaments/join/")
    assert organiser.locator("#tournament-status").get_attribute("data-status") == "open"

    # The organiser takes part too.
    organiser.fill("#organiser-join-name", "Anna")
    organiser.click("#organiser-join")
    organiser.locator("#tournament-players li", has_text="Anna").wait_for()
    shot(organiser, "tournament-open-de")

    friend = new_context(width=390, height=844, locale="en-GB").new_page()
    friend_errors = page_errors(friend)
    friend.goto(invite)
    friend.fill("#tournament-join-name", "Bert")
    friend.click("#tournament-join-button")
    friend.wait_for_url(re.compile(rf"#/tournaments/{tournament_id}$"))
    friend.locator("#tournament-players li", has_text="Bert").wait_for()
    assert "Waiting for the organiser" in friend.inner_text("#tournament")
    assert sideways(friend) <= 0

    organiser.locator("#tournament-players li", has_text="Bert").wait_for(timeout=10000)  # the page polls
    organiser.click("#start-tournament")
    organiser.locator("#open-table").wait_for()
    friend.locator("#open-table").wait_for(timeout=10000)
    # Both see the pairing of round 1: Anna against Bert at one table.
    for page in (organiser, friend):
        table = page.locator("#rounds .tn-table").first
        assert "Anna" in table.inner_text() and "Bert" in table.inner_text()
        assert page.locator("#standings tbody tr").count() == 2
        assert "null" not in page.inner_text("#tournament") and "undefined" not in page.inner_text("#tournament")
    table_id = organiser.locator("#rounds .tn-table").first.get_attribute("data-table")
    assert table_id
    assert friend.locator("#tournament-status").get_attribute("data-status") == "running"
    assert sideways(friend) <= 0
    shot(organiser, "tournament-round-1-de")
    shot(friend, "tournament-phone-390-en")

    # Each opens their own seat at the same table: their hand is dealt to them.
    for page in (organiser, friend):
        page.click("#open-table")
        page.wait_for_url(re.compile(rf"/#/table/{re.escape(table_id)}$"))
        page.locator(".seat-bottom .hand .card").first.wait_for()
        assert page.locator(".seat-bottom .hand .card").count() == 5
    assert sideways(friend) <= 0
    shot(friend, "tournament-table-phone-390-en")
    organiser_errors.check()
    friend_errors.check()
