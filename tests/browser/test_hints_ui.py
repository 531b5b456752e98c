"""Help at the table in a real browser (issue 13): a hint, the learning mode's mark, the analysis's jump into the
replay, and the question before going out with too few Augen, with its switch-off.

Each flow runs at 1280x800 and on a 390x844 phone with touch (taps instead of clicks), in German or English, and
saves its screens (``shot``).  A table is made through the API from the page itself, its seat token kept where the
lobby keeps it, so these tests do not depend on the lobby form.  Every message the page's WebSocket receives is
tapped: the page must show what the server said (the hint's advised action, the review's verdict, the Augen of
``declare_check``), nothing it worked out itself.
"""

from __future__ import annotations

import pytest

pytest.importorskip("fastapi", reason="needs the 'web' extra: pip install -e '.[web]'")
pytest.importorskip("playwright", reason="needs the 'browser' extra: pip install -e '.[browser]'")

import json
import re
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

from browser_setup import WAIT_MS, require_chromium

require_chromium()

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Locator, Page
    from tests.browser.conftest import Errors, LiveServer, Shot

DEVICES: dict[str, dict[str, Any]] = {
    "desktop": {"viewport": {"width": 1280, "height": 800}},
    "phone": {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True},
}

# Make a table through the API and keep its seat token where the lobby keeps it (api.js `seats`).
_MAKE_TABLE = """
async (body) => {
  const r = await fetch("/api/tables", {
    method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body),
  });
  const d = await r.json();
  if (!r.ok) throw new Error(JSON.stringify(d));
  const all = JSON.parse(localStorage.getItem("bummerl.seats") || "{}");
  all[d.table_id] = { token: d.token, seat: 0, kind: d.kind, variant: body.variant, saved: Date.now() };
  localStorage.setItem("bummerl.seats", JSON.stringify(all));
  return d.table_id;
}
"""

# A table game against bots played to its end through its WebSocket (seat 0 passes whenever it may).
_PLAY_A_TABLE_GAME = """
async ([variant, seed]) => {
  const made = await fetch("/api/tables", {
    method: "POST", headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ variant, bots: "heuristic", name: "Anna", seed }),
  }).then((r) => r.json());
  const ws = new WebSocket(`${location.origin.replace("http", "ws")}${made.ws_url}`);
  return await new Promise((resolve, reject) => {
    ws.onopen = () => ws.send(JSON.stringify({ type: "hello", token: made.token }));
    ws.onmessage = (m) => {
      const s = JSON.parse(m.data);
      if (s.type === "error") reject(new Error(s.message));
      if (s.type !== "state") return;
      if (s.status === "game_over") {
        ws.close();
        resolve(s.game_over.game_id);
      } else if (s.your_turn) {
        ws.send(JSON.stringify({ type: "action", action: s.legal.includes("pass") ? "pass" : s.legal[0] }));
      }
    };
  });
}
"""


STATIC = Path(__file__).resolve().parents[2] / "src" / "bummerl" / "server" / "static"

# Characters drawn from an emoji font: everything beyond the Basic Multilingual Plane (💡, 🃏, ...), the emoji
# variation selector and joiner, and the BMP's characters whose default presentation is emoji (Unicode's
# Emoji_Presentation=Yes list: ⌚ ⏰ ☕ ⚡ ✅ ❌ ❓ ⭐ ...).  Without an emoji font (Debian's Chromium on a plain
# system) each is an empty box; the page uses text symbols of common fonts (✓ ✗ ★ ▶ ←) or inline SVG instead.
_EMOJI = re.compile(
    "[\U00010000-\U0010ffff\ufe0f\u200d\u231a\u231b\u23e9-\u23ec\u23f0\u23f3\u25fd\u25fe\u2614\u2615"
    "\u2648-\u2653\u267f\u2693\u26a1\u26aa\u26ab\u26bd\u26be\u26c4\u26c5\u26ce\u26d4\u26ea\u26f2\u26f3"
    "\u26f5\u26fa\u26fd\u2705\u270a\u270b\u2728\u274c\u274e\u2753-\u2755\u2757\u2795-\u2797\u27b0"
    "\u27bf\u2b1b\u2b1c\u2b50\u2b55]"
)


def emoji_in(text: str) -> list[str]:
    return [f"U+{ord(c):04X} {c}" for c in sorted(set(_EMOJI.findall(text)))]


def test_the_pages_code_draws_no_emoji() -> None:
    """Every script, style sheet, page and translation of the front end: no glyph that needs an emoji font (see
    ``_EMOJI``)."""
    files = sorted(p for pattern in ("*.js", "*.css", "*.html", "*.svg", "i18n/*.json") for p in STATIC.glob(pattern))
    assert any(f.name == "hints.js" for f in files) and any(f.name == "de.json" for f in files)
    found = {f.name: emoji_in(f.read_text(encoding="utf-8")) for f in files}
    assert not {name: chars for name, chars in found.items() if chars}


class Tap:
    """Every message the page's WebSockets receive, in order."""

    def __init__(self, page: Page) -> None:
        self.messages: list[dict[str, Any]] = []
        page.on("websocket", lambda ws: ws.on("framereceived", self._frame))

    def _frame(self, payload: str | bytes) -> None:
        self.messages.append(json.loads(payload.decode() if isinstance(payload, bytes) else payload))

    def of(self, kind: str) -> list[dict[str, Any]]:
        return [m for m in self.messages if m.get("type") == kind]

    @property
    def state(self) -> dict[str, Any]:
        states = self.of("state")
        assert states, "no state yet"
        return states[-1]


def wait_until(page: Page, condition: Callable[[], Any], what: str, timeout: float = 20.0) -> Any:
    deadline = time.monotonic() + timeout
    while not (found := condition()):
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        page.wait_for_timeout(30)
    return found


@pytest.fixture()
def open_page(browser: Browser) -> Iterator[Callable[[str, str], Page]]:
    """A page on a fresh context of ``device`` ("desktop" or "phone" with touch) in ``lang``."""
    contexts = []

    def make(device: str, lang: str) -> Page:
        context = browser.new_context(locale="de-AT" if lang == "de" else "en-GB", **DEVICES[device])
        context.set_default_timeout(WAIT_MS)
        # The language, and no pause after a trick (the tests read states, not the animation).
        context.add_init_script(
            f"localStorage.setItem('bummerl.lang', '\"{lang}\"'); localStorage.setItem('bummerl.pace', '0');"
        )
        contexts.append(context)
        page = context.new_page()
        page.device = device  # type: ignore[attr-defined]
        return page

    yield make
    for context in contexts:
        context.close()


def press(page: Page, target: Locator) -> None:
    """A tap on a phone, a click on the desktop."""
    if getattr(page, "device", "desktop") == "phone":
        target.scroll_into_view_if_needed()
        target.tap()
    else:
        target.click()


def open_table(page: Page, server: LiveServer, body: dict[str, Any]) -> Tap:
    tap = Tap(page)
    # Any page of the server's origin will do (its localStorage is the table page's); the lobby asks nothing of the
    # database (the history may answer 503 while the analysis worker writes, which the page logs as an error).
    page.goto(server.url + "/#/")
    table_id = page.evaluate(_MAKE_TABLE, {"name": "Anna", **body})
    page.goto(f"{server.url}/#/table/{table_id}")
    wait_until(page, lambda: tap.of("state"), "the first state")
    return tap


def my_turn(page: Page, tap: Tap) -> dict[str, Any]:
    """The latest state once the page's player is to act (or the game is over)."""
    wait_until(page, lambda: tap.state["your_turn"] or tap.state["game_over"] is not None, "the player's turn")
    page.wait_for_timeout(50)  # the page draws the state it just received
    return tap.state


def action(page: Page, token: str) -> Locator:
    """The card or button that sends ``token`` at a two-player table."""
    if re.fullmatch(r"[AKQJT987][hdcs]", token):
        return page.locator(f'.seat-bottom button.card[data-card="{token}"]')
    return page.locator(f'.actions button.action[data-action="{token}"]')


def play(page: Page, tap: Tap, token: str) -> None:
    before = len(tap.of("state"))
    press(page, action(page, token))
    wait_until(page, lambda: len(tap.of("state")) > before, f"the table after {token}")


def ask_hint(page: Page, tap: Tap, state: dict[str, Any]) -> dict[str, Any]:
    press(page, page.locator("#hint-button"))
    hint: dict[str, Any] = wait_until(
        page,
        lambda: next((h for h in tap.of("hint") if h["ply"] == state["hints"]["ply"]), None),
        "the hint",
        timeout=30,
    )
    page.locator(f'#hint-line[data-best="{hint["best"]}"]').wait_for()
    return hint


# ------------------------------------------------------------------ a hint and the learning mode
@pytest.mark.parametrize(("device", "lang"), [("desktop", "de"), ("phone", "en")])
def test_a_hint_and_the_learning_modes_mark(
    server: LiveServer, open_page: Callable[[str, str], Page], shot: Shot, page_errors: Errors, device: str, lang: str
) -> None:
    page = open_page(device, lang)
    errors = page_errors(page)
    tap = open_table(page, server, {"variant": "schnapsen", "opponent": "random", "seed": 21})
    state = my_turn(page, tap)

    # The hint: the server's advised action, named and marked on the table, with its values per action.
    hint = ask_hint(page, tap, state)
    assert hint["best"] in state["legal"] and {t for t, _ in hint["values"]} == set(state["legal"])
    line = page.locator("#hint-line").inner_text()
    assert ("Tipp" if lang == "de" else "Hint") in line and len(re.findall(r"[+−]\d[.,]\d\d|0[.,]00", line)) == len(
        hint["values"]
    )
    assert page.locator(".hinted").count() == 1
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")
    assert not emoji_in(page.locator(".help-panel").inner_text())  # drawn with any font (no empty box)
    shot(page, f"hint-{device}-{lang}")

    # The learning mode (kept in localStorage): after each own move, the server's verdict; a costly one is marked.
    press(page, page.locator("#learning-mode"))
    assert page.evaluate("localStorage.getItem('bummerl.learning')") == "1"
    marked = None
    for _ in range(8):
        if state["game_over"] is not None:
            break
        hint = hint if hint["ply"] == state["hints"]["ply"] else ask_hint(page, tap, state)
        values = hint["values"]
        worst_gap = values[0][1] - values[-1][1]
        token = values[-1][0] if worst_gap >= 0.6 else values[0][0]
        reviews = len(tap.of("review"))
        play(page, tap, token)
        review = wait_until(page, lambda n=reviews: tap.of("review")[n:], "the review", timeout=30)[0]
        assert (review["ply"], review["action"]) == (state["hints"]["ply"], token)
        mark = page.locator(f'#review-line[data-verdict="{review["verdict"]}"]')
        mark.wait_for()
        assert ("mistake" in (mark.get_attribute("class") or "")) == review["mistake"]
        if review["mistake"]:
            marked = review
            break
        state = my_turn(page, tap)
    assert marked is not None, "no move was marked as a mistake"
    text = page.locator("#review-line").inner_text()
    assert "✗" in text and f"{marked['ply'] + 1}" in text and not emoji_in(text)
    shot(page, f"learning-mistake-{device}-{lang}")
    errors.check()


@pytest.mark.parametrize(("device", "lang"), [("desktop", "de"), ("phone", "en")])
def test_a_hint_at_a_table_game(
    server: LiveServer, open_page: Callable[[str, str], Page], shot: Shot, page_errors: Errors, device: str, lang: str
) -> None:
    """Dreierschnapsen against two bots: in the card play the hint values the seat's cards for its side."""
    page = open_page(device, lang)
    errors = page_errors(page)
    tap = open_table(page, server, {"variant": "dreierschnapsen", "bots": "heuristic", "seed": 7})
    for _ in range(40):
        state = my_turn(page, tap)
        assert state["game_over"] is None, "the game ended before the card play"
        if state["view"]["phase"] == "play" and len(state["legal"]) > 1:
            break
        token = "pass" if "pass" in state["legal"] else state["legal"][0]
        card = re.fullmatch(r"(?:discard:)?([AKQJT987][hdcs])", token)
        target = (
            page.locator(f'#tg-hand button.card[data-card="{card[1]}"]')
            if card
            else page.locator(f'#tg-actions button[data-token="{token}"]')
        )
        before = len(tap.of("state"))
        press(page, target)
        wait_until(page, lambda n=before: len(tap.of("state")) > n, f"the table after {token}")
    else:
        raise AssertionError("never a choice in the card play")
    hint = ask_hint(page, tap, state)
    assert hint["method"] == "search" and hint["best"] in state["legal"]
    assert {t for t, _ in hint["values"]} | set(hint["unvalued"]) == set(state["legal"])
    assert page.locator("#tg-hand .hinted, #tg-actions .hinted").count() == 1
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")
    shot(page, f"hint-table-{device}-{lang}")
    errors.check()


# ------------------------------------------------------------------ the question before going out
def _to_a_losing_declaration(page: Page, tap: Tap) -> dict[str, Any]:
    """Play the first playable card until the player may go out and the server says it would lose."""
    for _ in range(12):
        state = my_turn(page, tap)
        assert state["game_over"] is None, "the game ended before a declaration was possible"
        check = state["declare_check"].get("declare")
        if check is not None and check["wins"] is not True:
            return state
        card = next(t for t in state["legal"] if re.fullmatch(r"[AKQJT987][hdcs]", t))
        play(page, tap, card)
    raise AssertionError("never allowed to go out")


@pytest.mark.parametrize(("device", "lang"), [("desktop", "en"), ("phone", "de")])
def test_going_out_too_early_is_asked_once_and_the_question_can_be_switched_off(
    server: LiveServer, open_page: Callable[[str, str], Page], shot: Shot, page_errors: Errors, device: str, lang: str
) -> None:
    page = open_page(device, lang)
    errors = page_errors(page)
    body = {"variant": "schnapsen", "opponent": "random", "seed": 5, "options": {"auto_declare": False}}
    tap = open_table(page, server, body)
    state = _to_a_losing_declaration(page, tap)
    augen = state["declare_check"]["declare"]["augen"]

    press(page, action(page, "declare"))
    dialog = page.locator("dialog#declare-confirm")
    dialog.wait_for()
    assert f"{augen} " in page.locator("#declare-confirm-text").inner_text()  # the server's count, not the page's
    shot(page, f"confirm-declare-{device}-{lang}")
    states = len(tap.of("state"))
    press(page, page.locator("#confirm-no"))
    page.wait_for_timeout(300)
    assert not dialog.is_visible() and len(tap.of("state")) == states  # nothing was sent
    assert tap.state["your_turn"] and "declare" in tap.state["legal"]

    # Asked again; this time "don't ask again", and the declaration goes out (and loses).
    press(page, action(page, "declare"))
    dialog.wait_for()
    press(page, page.locator("#confirm-off"))
    press(page, page.locator("#confirm-yes"))
    over = wait_until(page, lambda: tap.state["game_over"], "the game's end")
    assert over["result"]["reason"] == "wrong_declaration"
    assert page.evaluate("localStorage.getItem('bummerl.confirm_declare')") == "0"
    page.locator("#confirm-declare").wait_for()  # the switch to ask again stays at hand

    # The next game: going out too early is not asked about any more.
    before = len(tap.of("state"))
    press(page, page.locator('.actions button.action[data-action="next_game"]'))
    wait_until(page, lambda: len(tap.of("state")) > before and tap.state["game_over"] is None, "the next deal")
    _to_a_losing_declaration(page, tap)
    press(page, action(page, "declare"))
    wait_until(page, lambda: tap.state["game_over"], "the declaration, unasked")
    assert not dialog.is_visible()
    errors.check()


def test_in_scharf_the_question_names_no_count(
    server: LiveServer, open_page: Callable[[str, str], Page], shot: Shot, page_errors: Errors
) -> None:
    """seeds/000: "Abgelegte Stiche dürfen nicht mehr angesehen werden": the server does not say whether the count
    suffices, so the page asks before every declaration, without a number."""
    page = open_page("desktop", "de")
    errors = page_errors(page)
    body = {"variant": "schnapsen-scharf", "opponent": "random", "seed": 5, "options": {"auto_declare": False}}
    tap = open_table(page, server, body)
    state = _to_a_losing_declaration(page, tap)
    assert state["declare_check"]["declare"] == {"wins": None, "augen": None}
    press(page, action(page, "declare"))
    page.locator("dialog#declare-confirm").wait_for()
    text = page.locator("#declare-confirm-text").inner_text()
    assert "Scharf" in text and not re.search(r"\d", text)
    shot(page, "confirm-declare-scharf-desktop-de")
    press(page, page.locator("#confirm-no"))
    errors.check()


# ------------------------------------------------------------------ the analysis's jump into the replay
def _flagged_jump(page: Page, server: LiveServer, game_id: int, jump: Locator) -> None:
    """Follow the first flagged decision's link: the replay opens at that decision and says so."""
    step = int(jump.get_attribute("data-step") or "-1")
    press(page, jump)
    page.wait_for_url(re.compile(rf"#/replay/{game_id}\?step={step}$"))
    flagged = page.locator(f'#replay-flagged[data-index="{step}"]')
    flagged.wait_for(timeout=60000)
    assert re.search(rf"\b{step}\b", page.locator(".step-count").inner_text())


@pytest.mark.parametrize(("device", "lang"), [("desktop", "de"), ("phone", "en")])
def test_a_flagged_decision_opens_the_replay_at_that_moment(
    server: LiveServer, open_page: Callable[[str, str], Page], shot: Shot, page_errors: Errors, device: str, lang: str
) -> None:
    page = open_page(device, lang)
    errors = page_errors(page)
    tap = open_table(page, server, {"variant": "schnapsen", "opponent": "random", "seed": 8})
    for _ in range(3):  # games until the analysis flags a decision
        while (state := my_turn(page, tap))["game_over"] is None:
            play(page, tap, state["legal"][0])
        game_id = state["game_over"]["game_id"]
        page.locator(".game-over .analysis-list").wait_for(timeout=60000)
        jump = page.locator(".game-over .mistakes a.jump")
        if jump.count():
            break
        before = len(tap.of("state"))
        press(page, page.locator('.actions button.action[data-action="next_game"]'))
        wait_until(page, lambda n=before: len(tap.of("state")) > n and tap.state["game_over"] is None, "the next deal")
    else:
        raise AssertionError("three games without a flagged decision")
    assert jump.first.get_attribute("href") == f"#/replay/{game_id}?step={jump.first.get_attribute('data-step')}"
    _flagged_jump(page, server, game_id, jump.first)
    shot(page, f"analysis-jump-{device}-{lang}")
    # A reload of that address opens the same moment.
    page.reload()
    page.locator("#replay-flagged").wait_for(timeout=60000)
    errors.check()


def test_a_flagged_decision_of_a_table_game_opens_its_moment(
    server: LiveServer, open_page: Callable[[str, str], Page], shot: Shot, page_errors: Errors
) -> None:
    page = open_page("desktop", "de")
    errors = page_errors(page)
    page.goto(server.url + "/#/")
    game_id = page.evaluate(_PLAY_A_TABLE_GAME, ["dreierschnapsen", 7])
    page.goto(f"{server.url}/#/replay/{game_id}")
    page.locator(".tg-replay").wait_for()
    jump = page.locator(".game-over .mistakes a.jump")
    jump.first.wait_for(timeout=60000)
    _flagged_jump(page, server, game_id, jump.first)
    assert page.locator(".tg-replay").count() == 1
    shot(page, "analysis-jump-table-desktop-de")
    errors.check()
