"""The house rule ``close_min_facedown`` in the lobby: the server describes it, the page shows it in German and
English, and a table created with it plays under it (RULES.md: "Option `close_min_facedown` (default 2, as
`003`): 1 also allows closing with a single face-down card left").

The page restates no rule: the field, its choices and its default come from ``/api/variants``; the page only
words them (``opt_close_min_facedown*`` in ``i18n.js``).
"""

from __future__ import annotations

import pytest

pytest.importorskip("fastapi", reason="needs the 'web' extra: pip install -e '.[web]'")
pytest.importorskip("playwright", reason="needs the 'browser' extra: pip install -e '.[browser]'")

import json
import re
import urllib.request
from typing import TYPE_CHECKING

from browser_setup import require_chromium

require_chromium()

if TYPE_CHECKING:
    from tests.browser.conftest import Errors, LiveServer, NewContext, Shot

FIELD = "#opt-close_min_facedown"


@pytest.mark.parametrize(("width", "height"), [(1280, 800), (390, 844)])
def test_the_lobby_offers_the_house_rule_and_the_table_keeps_it(
    server: LiveServer, new_context: NewContext, shot: Shot, page_errors: Errors, width: int, height: int
) -> None:
    page = new_context(width=width, height=height).new_page()
    errors = page_errors(page)
    page.goto(server.url + "/")
    page.locator("#start").wait_for()
    for variant in ("schnapsen", "schnapsen-scharf", "sechsundsechzig", "schnorps"):
        page.check(f"#variant-{variant}")
        field = page.locator(FIELD)
        field.wait_for()
        assert field.input_value() == "2"  # the server's default (seeds/003)
        texts = field.locator("option").all_inner_texts()
        assert texts == ["eine (Hausregel)", "zwei (übliche Regel)"]
    for variant in ("bauernschnapsen", "dreierschnapsen"):  # no closing at the table games
        page.check(f"#variant-{variant}")
        page.locator("#start").wait_for()
        assert page.locator(FIELD).count() == 0
    page.select_option("#lang-select", "en")
    page.check("#variant-schnapsen")
    label = page.locator(f'label[for="{FIELD[1:]}"]')
    assert label.inner_text().startswith("Closing (Zudrehen, Decken): face-down cards that must still lie above")
    page.select_option(FIELD, "1")
    assert page.locator(FIELD + " option:checked").inner_text() == "one (house rule)"
    shot(page, f"lobby-close-min-facedown-{width}")
    page.select_option("#seat-1", "random")
    page.fill("#player-name", "Anna")
    page.click("#start")
    page.wait_for_url(re.compile(r"#/table/"))
    table_id = page.url.rsplit("/", 1)[-1]
    with urllib.request.urlopen(f"{server.url}/api/tables/{table_id}") as response:
        summary = json.load(response)
    assert summary["variant"] == "schnapsen" and summary["options"]["close_min_facedown"] == 1
    errors.check()
