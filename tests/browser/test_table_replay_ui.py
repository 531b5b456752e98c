"""The replay and the analysis of a finished three- or four-player game in a real browser (issue 11: "In the web
app, 3- and 4-player tables ... their finished games appear in history with record, replay and analysis").

A game against bots is played to its end through the table's WebSocket from the page's own script (the clicks of
a whole game are ``test_table_games_ui.py``'s business); then the page opens its replay from the history, at
desktop and at phone size, in German and in English, steps through it and sees every seat with its cards open,
and the analysis of every seat.
"""

from __future__ import annotations

import pytest

pytest.importorskip("fastapi", reason="needs the 'web' extra: pip install -e '.[web]'")
pytest.importorskip("playwright", reason="needs the 'browser' extra: pip install -e '.[browser]'")

from typing import TYPE_CHECKING

from browser_setup import require_chromium

require_chromium()

if TYPE_CHECKING:
    from playwright.sync_api import Page
    from tests.browser.conftest import Errors, LiveServer, NewContext, Shot

# Seat 0 passes whenever it may (so the bots bid and the game has tricks), else takes the first legal action.
_PLAY_A_GAME = """
async ([variant, seed]) => {
  const made = await fetch("/api/tables", {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ variant, bots: "heuristic", name: "Anna", seed }),
  }).then((r) => r.json());
  const ws = new WebSocket(`${location.origin.replace("http", "ws")}${made.ws_url}`);
  return await new Promise((resolve, reject) => {
    ws.onopen = () => ws.send(JSON.stringify({ type: "hello", token: made.token }));
    ws.onerror = () => reject(new Error("the socket failed"));
    ws.onmessage = (m) => {
      const s = JSON.parse(m.data);
      if (s.type === "error") reject(new Error(s.message));
      if (s.type !== "state") return;
      if (s.status === "game_over") {
        ws.close();
        resolve(s.game_over.game_id);
      } else if (s.your_turn) {
        const action = s.legal.includes("pass") ? "pass" : s.legal[0];
        ws.send(JSON.stringify({ type: "action", action }));
      }
    };
  });
}
"""


def open_replay_from_history(page: Page, server: LiveServer, game_id: int) -> None:
    """Open the history (until the finished game is stored and listed) and its replay link."""
    link = page.locator(f'table.games a.replay-link[href="#/replay/{game_id}"]')
    for _ in range(60):
        page.goto(server.url + "/#/history")
        # The list, "no games yet", or an error (e.g. 503 while the analysis worker writes: then try again).
        page.locator("table.games, .history .muted, .history .error").first.wait_for(timeout=30000)
        if link.count():
            break
        page.wait_for_timeout(250)
    link.click()
    page.locator(".tg-replay").wait_for()


def fits_the_width(page: Page) -> bool:
    return bool(page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1"))


@pytest.mark.parametrize(("variant", "seats", "seed"), [("dreierschnapsen", 3, 7), ("bauernschnapsen", 4, 6)])
def test_the_replay_of_a_finished_table_game_shows_every_seat_and_the_analysis(
    server: LiveServer, new_context: NewContext, shot: Shot, page_errors: Errors, variant: str, seats: int, seed: int
) -> None:
    page = new_context(locale="de-AT").new_page()
    errors = page_errors(page)
    page.goto(server.url + "/#/")
    game_id = page.evaluate(_PLAY_A_GAME, [variant, seed])
    replay = server.get_json(f"/api/games/{game_id}/replay")
    steps = replay["steps"]
    assert replay["players"] == seats and len(steps) > 3

    # Desktop, German: every seat around the table, and the history's link led here.
    open_replay_from_history(page, server, game_id)
    assert page.locator(".tg-replay .tg-seat").count() == seats
    assert page.locator(".step-count").inner_text().startswith(f"Schritt 0 von {len(steps) - 1}")
    # After the cut every hand is dealt and open: as many face-up cards as the step's hands hold.
    page.click('button[data-fkey="next"]')
    assert page.locator(".step-count").inner_text().startswith("Schritt 1 von")
    cards = sum(len(h) for h in steps[1]["hands"])
    assert page.locator(".tg-open-hand .card[data-card]").count() == cards > 0
    # Step on to the first card played: it lies on the table, from its seat's side.
    first_play = next(i for i, s in enumerate(steps) if s["trick"])
    for _ in range(first_play - 1):
        page.keyboard.press("ArrowRight")
    assert page.locator(".step-count").inner_text().startswith(f"Schritt {first_play} von")
    played = steps[first_play]["trick"][0]
    assert (
        page.locator(f'.tg-trick .played[data-seat="{played["seat"]}"] .card').get_attribute("data-card")
        == (played["card"])
    )
    assert page.locator(".tg-replay #tg-contract").inner_text().strip()
    assert page.locator(".log .replay-action").count() >= 1
    shot(page, f"replay-{variant}-de")
    page.keyboard.press("End")
    assert page.locator(".step-count").inner_text().startswith(f"Schritt {len(steps) - 1} von")
    assert page.locator(".game-over .result-line").inner_text().strip()

    # The analysis of every seat appears (the table search bot judges the game in the server's worker).
    page.locator(".game-over .analysis-list").wait_for(timeout=60000)
    assert page.locator(".analysis-list .analysis-seat").count() == seats
    page.click(".analysis-all summary")
    assert page.locator(".analysis-moves li").count() == len(steps) - 1
    verdicts = set(page.eval_on_selector_all(".analysis-moves li", "els => els.map(e => e.dataset.verdict)"))
    assert "not_analysed" in verdicts  # the cut has no estimate
    shot(page, f"replay-{variant}-analysis-de")
    # The English page says the same in English.
    page.select_option("#lang-select", "en")
    page.locator("text=Step").first.wait_for()
    assert page.locator(".step-count").inner_text().startswith(f"Step {len(steps) - 1} of")
    assert "mistake" in page.locator(".analysis-list").inner_text().lower()
    errors.check()

    # A phone: the same seats, nothing wider than the screen, stepping by the buttons.
    phone = new_context(width=390, height=844, locale="en-GB").new_page()
    phone_errors = page_errors(phone)
    phone.goto(server.url + "/#/")
    open_replay_from_history(phone, server, game_id)
    assert phone.locator(".tg-replay .tg-seat").count() == seats
    for _ in range(first_play):
        phone.click('button[data-fkey="next"]')
    assert phone.locator(".step-count").inner_text().startswith(f"Step {first_play} of")
    assert phone.locator(".tg-trick .played").count() == 1
    assert phone.locator(".tg-open-hand .card[data-card]").count() == sum(len(h) for h in steps[first_play]["hands"])
    assert fits_the_width(phone)
    phone.locator(".game-over .analysis-list").wait_for(timeout=60000)
    assert phone.locator(".analysis-list .analysis-seat").count() == seats
    shot(phone, f"replay-{variant}-phone-en")
    phone_errors.check()
