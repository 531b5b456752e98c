"""A tournament's clock, the list of tournaments and the organiser's cancel in a real browser (issue 24; the API is
tested in tests/test_server_tournament_admin.py).

The organiser (1280x800, German) makes a tournament with 30 s per move, finds it in the list of the tournaments
page, and cancels it; a stranger on a 390x844 phone sees it in the list as cancelled, without a cancel button,
and the phone's page does not scroll sideways. No page may report a JavaScript error.
"""

from __future__ import annotations

import pytest

pytest.importorskip("fastapi", reason="needs the 'web' extra: pip install -e '.[web]'")
pytest.importorskip("playwright", reason="needs the 'browser' extra: pip install -e '.[browser]'")

from typing import TYPE_CHECKING

from browser_setup import require_chromium

require_chromium()

from test_tournament_ui import new_tournament  # noqa: E402
from ui_helpers import no_sideways_scroll  # noqa: E402

if TYPE_CHECKING:
    from collections.abc import Callable

    from playwright.sync_api import BrowserContext
    from tests.browser.conftest import Errors, LiveServer, Shot


def test_a_tournament_with_a_clock_is_listed_and_cancelled_by_its_organiser(
    server: LiveServer, make: Callable[..., BrowserContext], shot: Shot, page_errors: Errors
) -> None:
    organiser = make("desktop").new_page()
    errors = page_errors(organiser)
    tournament_id = new_tournament(
        organiser, server.url, "Uhren-Cup", variant="dreierschnapsen", format="round-robin", clock="30"
    )
    status = organiser.locator("#tournament-status")
    status.locator("text=30 s pro Zug").wait_for()
    assert server.get_json(f"/api/tournaments/{tournament_id}")["move_seconds"] == 30

    # The list of the tournaments page names it, open, with its clock.
    organiser.goto(server.url + "/#/tournaments")
    row = organiser.locator(f'#tournament-list li:has(a[href="#/tournaments/{tournament_id}"])')
    row.wait_for()
    assert "Anmeldung offen" in row.inner_text() and "30 s pro Zug" in row.inner_text()
    shot(organiser, "tournament-list-de")

    # Its organiser cancels it (after the browser's question), and the page says so.
    row.locator("a").click()
    organiser.locator("#cancel-tournament").wait_for()
    organiser.once("dialog", lambda dialog: dialog.accept())
    organiser.click("#cancel-tournament")
    organiser.locator("#tournament-cancelled").wait_for()
    assert status.get_attribute("data-status") == "cancelled"
    assert organiser.locator("#cancel-tournament").count() == 0
    assert server.get_json(f"/api/tournaments/{tournament_id}")["status"] == "cancelled"

    # A stranger on a phone sees it cancelled in the list, and on its page no cancel button.
    stranger = make("phone", locale="en-GB").new_page()
    stranger_errors = page_errors(stranger)
    stranger.goto(server.url + "/#/tournaments")
    listed = stranger.locator(f'#tournament-list li:has(a[href="#/tournaments/{tournament_id}"])')
    listed.wait_for()
    assert listed.get_attribute("data-status") == "cancelled" and "Cancelled" in listed.inner_text()
    assert no_sideways_scroll(stranger) == 0
    listed.locator("a").click()
    stranger.locator("#tournament-cancelled").wait_for()
    assert stranger.locator("#cancel-tournament").count() == 0
    errors.check()
    stranger_errors.check()
