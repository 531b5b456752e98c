"""A tournament's clock, the list of tournaments, the organiser's cancel and a forfeit in a real browser (issue 24;
the API is tested in tests/test_server_tournament_admin.py).

The organiser (1280x800, German) makes a tournament with 30 s per move, finds it in the list of the tournaments
page, and cancels it; a stranger on a 390x844 phone sees it in the list as cancelled, without a cancel button,
and the phone's page does not scroll sideways. On a server whose clock takes a seat over at the first time-out, a
participant who never comes forfeits, and the tournament's page says so at his seat. No page may report a
JavaScript error.
"""

from __future__ import annotations

import pytest

pytest.importorskip("fastapi", reason="needs the 'web' extra: pip install -e '.[web]'")
pytest.importorskip("playwright", reason="needs the 'browser' extra: pip install -e '.[browser]'")

import json
import time
import urllib.request
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from browser_setup import require_chromium

require_chromium()

from conftest import LiveServer  # noqa: E402
from test_tournament_ui import new_tournament  # noqa: E402
from ui_helpers import SeatDriver, first_legal, no_sideways_scroll  # noqa: E402

if TYPE_CHECKING:
    from collections.abc import Callable

    from playwright.sync_api import BrowserContext
    from tests.browser.conftest import Errors, Shot


def test_a_tournament_with_a_clock_is_listed_and_cancelled_by_its_organiser(
    server: LiveServer, make: Callable[..., BrowserContext], shot: Shot, page_errors: Errors
) -> None:
    organiser = make("desktop").new_page()
    errors = page_errors(organiser)
    tournament_id = new_tournament(
        organiser, server.url, "Uhren-Cup", variant="dreierschnapsen", format="round-robin", clock="30"
    )
    status = organiser.locator("#tournament-status")
    status.locator("text=30\u00a0s pro Zug").wait_for()
    assert server.get_json(f"/api/tournaments/{tournament_id}")["move_seconds"] == 30

    # The list of the tournaments page names it, open, with its clock.
    organiser.goto(server.url + "/#/tournaments")
    row = organiser.locator(f'#tournament-list li:has(a[href="#/tournaments/{tournament_id}"])')
    row.wait_for()
    assert "Anmeldung offen" in row.inner_text() and "30\u00a0s pro Zug" in row.inner_text()
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


@pytest.fixture(scope="module")
def strict_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    """A server whose clock takes a seat over at its first time-out, after a 5 s grace for a player who is away."""
    live = LiveServer(tmp_path_factory.mktemp("bummerl-forfeit"), config={"clock_strikes": 1, "clock_grace_seconds": 5})
    live.start()
    yield live
    live.stop()


def call(base: str, path: str, body: dict[str, Any], token: str | None = None) -> Any:
    request = urllib.request.Request(base + path, data=json.dumps(body).encode(), method="POST")
    request.add_header("Content-Type", "application/json")
    if token is not None:
        request.add_header("Authorization", f"Bearer {token}")
    with urllib.request.urlopen(request, timeout=10) as answer:
        return json.loads(answer.read())


def test_a_participant_who_never_comes_forfeits_and_the_page_says_so(
    strict_server: LiveServer, make: Callable[..., BrowserContext], shot: Shot, page_errors: Errors
) -> None:
    base = strict_server.url
    made = call(base, "/api/tournaments", {"name": "Uhren-Cup", "format": "knock-out", "move_seconds": 5})
    anna = call(base, "/api/tournaments/join", {"code": made["code"], "name": "Anna"})
    call(base, "/api/tournaments/join", {"code": made["code"], "name": "Bert"})
    call(base, f"/api/tournaments/{made['id']}/start", {}, made["organiser_token"])
    state_path = f"/api/tournaments/{made['id']}"
    request = urllib.request.Request(base + state_path, headers={"Authorization": f"Bearer {anna['player_token']}"})
    with urllib.request.urlopen(request, timeout=10) as answer:
        table = json.loads(answer.read())["your_table"]
    # Anna plays each of her turns at once; Bert never opens his table.
    driver = SeatDriver(base, table["table_id"], {table["seat"]: anna["player_token"]})
    deadline = time.monotonic() + 60
    try:
        while strict_server.get_json(state_path)["status"] != "finished":
            assert time.monotonic() < deadline, "the tournament did not finish"
            driver.step(first_legal)
    finally:
        driver.close()

    page = make("phone", locale="en-GB").new_page()
    errors = page_errors(page)
    page.goto(f"{base}/#/tournaments/{made['id']}")
    page.locator("#tournament-winner", has_text="Anna").wait_for()
    bert = page.locator(".tn-table li", has_text="Bert")
    assert "forfeited (time)" in bert.inner_text() and "won" not in bert.inner_text()
    assert "won" in page.locator(".tn-table li", has_text="Anna").inner_text()
    assert "5\u00a0s per move" in page.locator("#tournament-status").inner_text()
    assert no_sideways_scroll(page) == 0
    shot(page, "tournament-forfeit-phone-390-en")
    errors.check()
