"""A table that feels finished (issue 24, "A table that feels finished"): German as a native speaker writes it,
numbers in the page's language, a lost Bummerl told as a loss, the learning mode's verdicts kept, bid buttons
complete at once, and the table's boxes where they belong.

Each check runs at 1280x800 and on a 390x844 phone with touch. The seats are played over the table's WebSocket
(``SeatDriver``) so that a test reaches its moment in seconds; the page only shows the table.
"""

from __future__ import annotations

import pytest

pytest.importorskip("fastapi", reason="needs the 'web' extra: pip install -e '.[web]'")
pytest.importorskip("playwright", reason="needs the 'browser' extra: pip install -e '.[browser]'")

import re
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from browser_setup import require_chromium
from ui_helpers import (
    SeatDriver,
    first_legal,
    game_over,
    no_sideways_scroll,
    open_seat,
    post,
    settled,
    small_controls,
)

require_chromium()

if TYPE_CHECKING:
    from playwright.sync_api import BrowserContext, Locator, Page
    from tests.browser.conftest import Errors, LiveServer, Shot

DEVICES = ("desktop", "phone")


def lose_a_bummerl(base: str) -> dict[str, Any]:
    """A Schnapsen table whose Bummerl seat 0 lost: it says "Genug!" at once in every game (too few Augen)."""
    table = post(base, "/api/tables", {"variant": "schnapsen", "opponent": "random", "name": "Anna", "seed": 5})
    driver = SeatDriver(base, table["table_id"], {0: table["token"]})
    try:
        for _ in range(12):
            states = driver.play(first_legal, game_over)
            if states[0]["game_over"].get("match_over"):
                return table
            driver.deal_next(0)
    finally:
        driver.close()
    raise AssertionError("the Bummerl did not end in 12 games")


@pytest.mark.parametrize("device", DEVICES)
def test_a_lost_bummerl_in_german_and_in_the_colour_of_a_loss(
    server: LiveServer, make: Callable[..., BrowserContext], shot: Shot, page_errors: Errors, device: str
) -> None:
    table = lose_a_bummerl(server.url)
    page: Page = make(device).new_page()
    errors = page_errors(page)
    open_seat(page, server.url, table["table_id"], table["token"], 0, "schnapsen")
    match = page.locator("#result-match")
    match.wait_for()
    text = match.inner_text()
    # "Du kriegt das Bummerl" was the bug: the second person, lower case after the dash.
    assert "du kriegst das Bummerl" in text and "kriegt" not in text, text
    assert "lost" in (match.get_attribute("class") or "")
    colour = match.evaluate("e => getComputedStyle(e).color")
    assert colour == "rgb(179, 38, 30)", colour  # --danger, not the felt's green of a win
    # The analysis names each seat's mistakes in words, numbers with the German decimal comma.
    page.locator(".game-over .analysis-list").wait_for(timeout=60000)
    for line in page.locator(".analysis-seat").all_inner_texts():
        assert re.fullmatch(r".+: (keine Fehler|ein Fehler, \d+,\d\d .+|\d+ Fehler, zusammen \d+,\d\d .+)", line), line
    body = page.locator("body").inner_text()
    assert not re.search(r"\bDu (kriegt|spielt|gewinnt|gibt|hat|nimmt)\b", body), body
    assert not re.search(r"\d\.\d\d erwartete", body)
    assert no_sideways_scroll(page) == 0
    shot(page, f"finished-lost-bummerl-{device}")
    errors.check()


def press(page: Page, target: Locator, device: str) -> None:
    """A tap on the phone, a click on the laptop."""
    if device == "phone":
        target.tap()
    else:
        target.click()


MY_CARD = "button.card.in-hand.playable:not([disabled])"


@pytest.mark.parametrize("device", DEVICES)
def test_the_learning_mode_keeps_the_verdict_of_zudrehen_and_of_the_move_after_it(
    server: LiveServer, make: Callable[..., BrowserContext], shot: Shot, page_errors: Errors, device: str
) -> None:
    """Zudrehen and the card led at once after it: both decisions keep their verdict (the page sends one review at a
    time, as the server computes one per seat; before, the second request replaced the first)."""
    page: Page = make(device).new_page()
    errors = page_errors(page)
    page.goto(server.url + "/")
    page.evaluate("localStorage.setItem('bummerl.pace', '0'); localStorage.setItem('bummerl.motion', '0')")
    table = post(server.url, "/api/tables", {"variant": "schnapsen", "opponent": "random", "name": "Anna", "seed": 2})
    open_seat(page, server.url, table["table_id"], table["token"], 0, "schnapsen")
    page.locator("#learning-mode").wait_for()
    press(page, page.locator("#learning-mode"), device)
    closed = False
    for _ in range(60):
        page.wait_for_selector(f"{MY_CARD}, [data-action='next_game']:not([disabled])")
        if page.locator("[data-action='next_game']:not([disabled])").count():
            press(page, page.locator("[data-action='next_game']:not([disabled])"), device)
            continue
        close = page.locator("[data-action='close']")
        if close.count():
            press(page, close, device)
            # Still one's own lead after Zudrehen: the card follows at once, while Zudrehen is being judged.
            page.locator(".trump-card.turned").wait_for(state="attached", timeout=5000)
            page.wait_for_selector(MY_CARD)
            press(page, page.locator(MY_CARD).first, device)
            closed = True
            break
        press(page, page.locator(MY_CARD).first, device)
        page.wait_for_timeout(50)
    assert closed, "no Zudrehen was possible"
    lines = page.locator("#review-list li")
    page.wait_for_function(
        "() => { const l = [...document.querySelectorAll('#review-list li')];"
        " return l.length >= 2 && l.slice(-2).every((e) => e.dataset.verdict); }",
        timeout=60000,
    )
    texts = lines.all_inner_texts()
    verdicts = [v for v in page.eval_on_selector_all("#review-list li", "els => els.map(e => e.dataset.verdict)")]
    assert all(verdicts), texts
    close_line = texts[-2]
    assert "Zudrehen" in close_line and "prüft" not in close_line, texts
    assert "prüft" not in texts[-1], texts
    assert page.locator("#review-line").inner_text() == texts[-1]
    assert no_sideways_scroll(page) == 0
    shot(page, f"finished-learning-{device}")
    errors.check()


def test_every_control_is_at_least_44_px_on_a_touch_screen(
    server: LiveServer, make: Callable[..., BrowserContext], shot: Shot, page_errors: Errors
) -> None:
    """The lobby (every variant's form), a two-player table and a Bauernschnapsen table on a 390x844 phone."""
    page: Page = make("phone").new_page()
    errors = page_errors(page)
    page.goto(server.url + "/")
    page.locator("#start").wait_for()
    assert page.evaluate("matchMedia('(pointer: coarse)').matches")
    for variant in ("schnapsen", "bauernschnapsen"):
        page.locator(f"#variant-{variant}").check()
        page.locator("#options").evaluate("d => (d.open = true)")
        small = small_controls(page)
        assert not small, f"{variant}: {small}"
    shot(page, "finished-touch-lobby")
    duel = post(server.url, "/api/tables", {"variant": "schnapsen", "opponent": "random", "name": "Anna", "seed": 2})
    open_seat(page, server.url, duel["table_id"], duel["token"], 0, "schnapsen")
    page.wait_for_selector(MY_CARD)
    small = small_controls(page)
    assert not small, f"two-player table: {small}"
    shot(page, "finished-touch-duel")
    four = post(server.url, "/api/tables", {"variant": "bauernschnapsen", "bots": "heuristic", "name": "Anna"})
    open_seat(page, server.url, four["table_id"], four["token"], 0, "bauernschnapsen")
    page.wait_for_selector("#tgame")
    page.wait_for_timeout(500)
    small = small_controls(page)
    assert not small, f"Bauernschnapsen table: {small}"
    shot(page, "finished-touch-bauernschnapsen")
    errors.check()


@pytest.mark.parametrize("device", DEVICES)
def test_the_lobby_names_the_opponent_and_the_replay_says_what_works_on_this_screen(
    server: LiveServer, make: Callable[..., BrowserContext], shot: Shot, page_errors: Errors, device: str
) -> None:
    """The lobby says "Regeln" once (the header's link), asks for the one opponent as such (not "Platz 2"); the
    replay's help names the arrow keys on a laptop and the buttons and the slider on a touch phone."""
    page: Page = make(device).new_page()
    errors = page_errors(page)
    page.goto(server.url + "/")
    page.locator("#start").wait_for()
    page.locator("#variant-schnapsen").check()
    text = page.locator("body").inner_text()
    # The list of tables in play names a table's "eigene Regeln" (other tests' tables in a whole run): not the form.
    if page.locator("#live-tables").count():
        text = text.replace(page.locator("#live-tables").inner_text(), "")
    assert len(re.findall(r"\bRegeln\b", text)) == 1, text
    assert "Platz 2" not in text and "Wer spielt gegen dich?" in page.locator("label[for=seat-1]").inner_text()
    assert page.locator("#options summary").inner_text().strip() == "Optionen"
    assert page.locator("#lobby-rules").inner_text() == "So spielt man Schnapsen (weich)"
    shot(page, f"finished-lobby-{device}")
    table = post(server.url, "/api/tables", {"variant": "schnapsen", "opponent": "random", "name": "Anna", "seed": 4})
    driver = SeatDriver(server.url, table["table_id"], {0: table["token"]})
    try:
        game_id = driver.play(first_legal, game_over)[0]["game_over"]["game_id"]
    finally:
        driver.close()
    page.goto(f"{server.url}/#/replay/{game_id}")
    help_text = page.locator("#replay-help").inner_text()
    if device == "phone":
        assert "Pfeiltasten" not in help_text and "Schieberegler" in help_text, help_text
    else:
        assert "Pfeiltasten" in help_text, help_text
    assert no_sideways_scroll(page) == 0
    errors.check()


def box(page: Page, selector: str) -> dict[str, float]:
    found = page.locator(selector).first.bounding_box()
    assert found is not None, f"{selector} is not drawn"
    return found


def assert_caption_clear(page: Page, trick: str) -> None:
    """The caption of the trick ``trick`` (a selector) covers none of its played cards, once it stands (the last
    trick's motion finished)."""
    settled(page)
    page.locator(f"{trick} .trick-caption").first.wait_for(state="visible")
    caption = box(page, f"{trick} .trick-caption")
    for card in page.locator(f"{trick} .played .card").all():
        found = card.bounding_box()
        assert found is not None and not overlap(caption, found), "the last trick's caption covers a card"


def overlap(a: dict[str, float], b: dict[str, float]) -> bool:
    """Whether two boxes share more than a pixel's line."""
    return (
        min(a["x"] + a["width"], b["x"] + b["width"]) - max(a["x"], b["x"]) > 1
        and min(a["y"] + a["height"], b["y"] + b["height"]) - max(a["y"], b["y"]) > 1
    )


# The hint's mark on the card whose place is right below the seat's name (the page marks one card; a test marks
# the one where a raise would meet the name).
_MARK_THE_CARD_BELOW_THE_NAME = """
() => {
  const name = document.querySelector(".seat-bottom .seat-name").getBoundingClientRect();
  const middle = (name.left + name.right) / 2;
  for (const card of document.querySelectorAll(".seat-bottom button.card.in-hand")) {
    const r = card.getBoundingClientRect();
    if (r.left <= middle && middle <= r.right) card.classList.add("hinted");
  }
}
"""

# Each hinted card's box with its outline (an outline is drawn outside the box, over what lies there).
_HINTED_BOXES = """
() => [...document.querySelectorAll("button.card.in-hand.hinted")].map((e) => {
  const r = e.getBoundingClientRect();
  const s = getComputedStyle(e);
  const out = s.outlineStyle === "none" ? 0 : parseFloat(s.outlineWidth) + parseFloat(s.outlineOffset);
  return { x: r.x - out, y: r.y - out, width: r.width + 2 * out, height: r.height + 2 * out };
})
"""


def felt_below_hand(page: Page) -> float:
    """How much bare felt lies below the last thing drawn on it (the hand, its numbers, the buttons, the help)."""
    gap: float = page.evaluate(
        "() => { const felt = document.querySelector('.board');"
        " const bottom = Math.max(...[...felt.querySelectorAll('*')].map((e) => e.getBoundingClientRect().bottom));"
        " return felt.getBoundingClientRect().bottom - bottom; }"
    )
    return gap


@pytest.mark.parametrize("device", DEVICES)
def test_the_two_player_table_boxes_stay_apart(
    server: LiveServer, make: Callable[..., BrowserContext], shot: Shot, page_errors: Errors, device: str
) -> None:
    """The hinted card stays below "Du (Geber)"; no empty felt below the hand; at the game's end the last trick's
    caption stands below its cards, not over them."""
    page: Page = make(device).new_page()
    errors = page_errors(page)
    table = post(server.url, "/api/tables", {"variant": "schnapsen", "opponent": "random", "name": "Anna", "seed": 2})
    open_seat(page, server.url, table["table_id"], table["token"], 0, "schnapsen")
    page.wait_for_selector(MY_CARD)
    press(page, page.locator("#hint-button"), device)
    page.locator(".hinted").wait_for(timeout=30000)
    page.wait_for_timeout(300)  # the raise's transition, if any
    # Whichever card the hint marks, the one right below "Du (Geber)" too: raised and outlined, it stays below it.
    page.evaluate(_MARK_THE_CARD_BELOW_THE_NAME)
    page.wait_for_timeout(300)  # the raise's transition, if any
    label = box(page, ".seat-bottom .seat-name")
    for marked in page.evaluate(_HINTED_BOXES):
        assert not overlap(marked, label), f"a hinted card {marked} covers the seat's name {label}"
    assert felt_below_hand(page) < 40
    shot(page, f"finished-hint-{device}")
    # The game's end: the last trick with its caption below the cards.
    page.close()
    driver = SeatDriver(server.url, table["table_id"], {0: table["token"]})
    try:
        driver.play(first_legal, game_over)
    finally:
        driver.close()
    page = make(device).new_page()
    open_seat(page, server.url, table["table_id"], table["token"], 0, "schnapsen")
    page.locator(".trick .trick-caption").wait_for()
    assert felt_below_hand(page) < 40
    assert_caption_clear(page, ".trick")
    assert no_sideways_scroll(page) == 0
    shot(page, f"finished-last-trick-{device}")
    errors.check()


@pytest.mark.parametrize("device", DEVICES)
def test_a_schnorps_role_stays_on_one_line_and_a_waiting_friend_table_keeps_tipp_on_the_first_screen(
    server: LiveServer, make: Callable[..., BrowserContext], shot: Shot, page_errors: Errors, device: str
) -> None:
    """Schnorps for three: "spielt (Vorhand)" is one badge on one line. A friend table waiting for its guest: the
    invitation does not push the help panel (Tipp) below the first screen."""
    page: Page = make(device).new_page()
    errors = page_errors(page)
    body = {"variant": "schnorps", "seats": ["random", "random"], "name": "Anna", "seed": 3}
    table = post(server.url, "/api/tables", body)
    open_seat(page, server.url, table["table_id"], table["token"], table.get("seat", 0), "schnorps")
    page.locator(".round-chip").first.wait_for()
    for chip in page.locator(".round-chip").all():
        lines = chip.evaluate("e => e.getClientRects().length")
        found = chip.bounding_box()
        assert lines == 1 and found is not None and found["height"] < 30, chip.inner_text()
    assert no_sideways_scroll(page) == 0
    shot(page, f"finished-schnorps-{device}")
    friend = post(server.url, "/api/tables", {"variant": "schnapsen", "opponent": "friend", "name": "Anna"})
    open_seat(page, server.url, friend["table_id"], friend["token"], 0, "schnapsen")
    page.locator("#help-panel").wait_for()
    page.evaluate("window.scrollTo(0, 0)")
    shot(page, f"finished-friend-waiting-{device}")
    # No empty band of felt between the hand (with its numbers) and the help panel while no button is offered.
    hand = box(page, ".seat-bottom .hand")
    assert box(page, "#help-panel")["y"] - (hand["y"] + hand["height"]) < 40
    if device == "desktop":
        help_box = box(page, "#help-panel")
        assert help_box["y"] + help_box["height"] <= 800, help_box
    assert no_sideways_scroll(page) == 0
    errors.check()


@pytest.mark.parametrize("device", DEVICES)
def test_the_history_is_a_list_of_cards_on_a_phone(
    server: LiveServer, make: Callable[..., BrowserContext], shot: Shot, page_errors: Errors, device: str
) -> None:
    """At 390x844 the history is a card per game with labelled lines, nothing to swipe sideways; at 1280x800 the
    table with its column heads."""
    for variant, body in (
        ("schnapsen", {"opponent": "random"}),
        ("bauernschnapsen", {"bots": "heuristic"}),
    ):
        table = post(server.url, "/api/tables", {"variant": variant, "name": "Anna mit einem langen Namen", **body})
        driver = SeatDriver(server.url, table["table_id"], {0: table["token"]})
        try:
            driver.play(first_legal, game_over, timeout=60)
        finally:
            driver.close()
    page: Page = make(device).new_page()
    errors = page_errors(page)
    page.goto(server.url + "/#/history")
    page.locator("table.games tbody tr").first.wait_for()
    assert page.locator("table.games tbody tr").count() >= 2
    scroll = page.evaluate(
        "() => [...document.querySelectorAll('.history .scroll, table.games')]"
        ".map((e) => [e.scrollWidth, e.clientWidth])"
    )
    for scroll_width, client_width in scroll:
        assert scroll_width <= client_width, scroll
    assert no_sideways_scroll(page) == 0
    heads = page.locator("table.games thead")
    if device == "phone":
        assert not heads.is_visible()
        first = page.locator("table.games tbody tr").first
        label = first.locator("td.players").evaluate("e => getComputedStyle(e, '::before').content")
        assert "Spieler" in label, label
        row = first.bounding_box()
        assert row is not None and row["width"] <= 390
    else:
        assert heads.is_visible()
    shot(page, f"finished-history-{device}")
    errors.check()


@pytest.mark.parametrize("device", DEVICES)
def test_a_table_games_last_trick_caption_stands_below_its_cards_at_the_end(
    server: LiveServer, make: Callable[..., BrowserContext], shot: Shot, page_errors: Errors, device: str
) -> None:
    table = post(server.url, "/api/tables", {"variant": "bauernschnapsen", "bots": "heuristic", "name": "Anna"})
    driver = SeatDriver(server.url, table["table_id"], {0: table["token"]})
    try:
        driver.play(first_legal, game_over, timeout=60)
    finally:
        driver.close()
    page: Page = make(device).new_page()
    errors = page_errors(page)
    open_seat(page, server.url, table["table_id"], table["token"], 0, "bauernschnapsen")
    page.locator("#tg-result").wait_for()
    if page.locator(".tg-trick .trick-caption").count():
        assert_caption_clear(page, ".tg-trick")
    assert no_sideways_scroll(page) == 0
    shot(page, f"finished-tg-end-{device}")
    errors.check()
