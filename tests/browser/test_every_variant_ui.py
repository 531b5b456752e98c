"""Issue 23's done-when, read literally: the one table page serves all six variants, at 390x844 (touch) and at
1280x800. For each variant a table against bots is opened on a phone, the own hand is a named group, the game is
played to its end and the result stands on the page with nothing scrolling sideways; the same table then opens
at 1280x800 with the result shown. No page error at either size.

Debian's Chromium through Playwright against a live server (``conftest.py``); seat 0 is played from the test over
the table's WebSocket (``ui_helpers.SeatDriver``), as another device of the same player would, and the page shows
what happens.
"""

from __future__ import annotations

import pytest

pytest.importorskip("fastapi", reason="needs the 'web' extra: pip install -e '.[web]'")
pytest.importorskip("playwright", reason="needs the 'browser' extra: pip install -e '.[browser]'")

from collections.abc import Callable
from typing import TYPE_CHECKING

from browser_setup import require_chromium
from ui_helpers import SeatDriver, first_legal, game_over, no_sideways_scroll, open_seat, post

require_chromium()

if TYPE_CHECKING:
    from playwright.sync_api import BrowserContext, Page
    from tests.browser.conftest import Errors, LiveServer

VARIANTS = ("schnapsen", "schnapsen-scharf", "sechsundsechzig", "schnorps", "bauernschnapsen", "dreierschnapsen")
#: What the page shows once a game is over: the two-player banner, the table games' result.
RESULT = "#result-banner, #tg-over"


def own_hand_named(page: Page) -> int:
    """The cards in the group named "Deine Karten" (the page's language is German)."""
    group = page.get_by_role("group", name="Deine Karten", exact=True)
    assert group.count() == 1, "the own hand is not one group named 'Deine Karten'"
    return group.locator(".card").count()


@pytest.mark.parametrize("variant", VARIANTS)
def test_every_variant_plays_to_its_result_on_a_phone_and_a_desktop(
    variant: str, server: LiveServer, make: Callable[..., BrowserContext], page_errors: Errors
) -> None:
    table = post(server.url, "/api/tables", {"variant": variant, "bots": "heuristic", "name": "Anna"})
    phone = make("phone").new_page()
    errors = page_errors(phone)
    open_seat(phone, server.url, table["table_id"], table["token"], 0, variant)
    phone.locator(".card").first.wait_for()
    phone.wait_for_function(
        "() => [...document.querySelectorAll('[role=group]')].some(g => g.getAttribute('aria-label') === "
        "'Deine Karten' && g.querySelector('.card'))"
    )
    assert own_hand_named(phone) > 0
    assert no_sideways_scroll(phone) == 0
    driver = SeatDriver(server.url, table["table_id"], {0: table["token"]})
    driver.play(first_legal, game_over)
    driver.close()
    phone.locator(RESULT).first.wait_for()
    assert no_sideways_scroll(phone) == 0
    desk = make("desktop").new_page()
    desk_errors = page_errors(desk)
    open_seat(desk, server.url, table["table_id"], table["token"], 0, variant)
    desk.locator(RESULT).first.wait_for()
    assert no_sideways_scroll(desk) == 0
    errors.check()
    desk_errors.check()
