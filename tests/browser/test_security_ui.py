"""The page under the server's browser protections (docs/security.md): its Content Security Policy, and
invitation codes kept out of every request.

The server sends ``bummerl.server.security.CONTENT_SECURITY_POLICY`` on every answer; Chromium reports a
blocked script, style or connection as a ``securitypolicyviolation`` event and a console error.  The test goes
through the lobby, a table against a bot (inline SVG cards, the WebSocket), an invitation that a friend accepts
by an old-style link ``/?join=CODE`` (rewritten at once to ``/#/join/CODE``) and the history, and fails on any
report.
"""

from __future__ import annotations

import pytest

pytest.importorskip("fastapi", reason="needs the 'web' extra: pip install -e '.[web]'")
pytest.importorskip("playwright", reason="needs the 'browser' extra: pip install -e '.[browser]'")

import re
from collections.abc import Callable
from typing import TYPE_CHECKING

from browser_setup import require_chromium

from bummerl.server.security import CONTENT_SECURITY_POLICY

require_chromium()

if TYPE_CHECKING:
    from playwright.sync_api import BrowserContext, Page
    from tests.browser.conftest import LiveServer, PageErrors

#: Collects what the page itself reports as blocked.
WATCH_VIOLATIONS = """
window.__violations = [];
document.addEventListener("securitypolicyviolation", (e) => {
  window.__violations.push(`${e.violatedDirective} ${e.blockedURI}`);
});
"""


def test_the_page_runs_under_its_content_security_policy(
    own_server: LiveServer, new_context: Callable[..., BrowserContext], page_errors: Callable[[Page], PageErrors]
) -> None:
    server = own_server  # its own: the shared server's per-client creation limit is the other tests'
    page = new_context().new_page()
    page.add_init_script(WATCH_VIOLATIONS)
    errors = page_errors(page)
    answer = page.goto(server.url + "/")
    assert answer is not None and answer.headers["content-security-policy"] == CONTENT_SECURITY_POLICY

    page.locator("#start").wait_for()
    page.select_option("#seat-1", "random")
    page.click("#start")
    page.wait_for_url(re.compile(r"#/table/"))
    page.locator(".seat-bottom .hand .card svg").first.wait_for()
    page.locator(".seat-bottom button.card.playable").first.click()

    page.goto(server.url + "/#/")
    page.locator("#start").wait_for()
    page.select_option("#seat-1", "friend")
    page.click("#start")
    page.locator("#copy-invite").wait_for()

    invite = page.locator("#copy-invite").input_value()
    assert invite.startswith(f"{server.url}/#/join/")
    code = invite.rsplit("/", 1)[1]

    friend = new_context().new_page()
    friend.add_init_script(WATCH_VIOLATIONS)
    friend_errors = page_errors(friend)
    friend.goto(f"{server.url}/?join={code}")  # a link from before the code moved into the fragment
    friend.locator("#join-name").wait_for()
    assert friend.url == invite  # rewritten before anything else: no later request carries the code
    friend.fill("#join-name", "Bert")
    friend.click("#join-button")
    friend.wait_for_url(re.compile(r"#/table/"))
    friend.locator(".seat-bottom .hand .card").first.wait_for()

    page.goto(server.url + "/#/history")
    page.wait_for_load_state("networkidle")
    for p in (page, friend):
        violations = p.evaluate("window.__violations")
        assert violations == [], violations
    errors.check()
    friend_errors.check()
