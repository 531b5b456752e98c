"""Helpers of the browser tests of issue 13 (``test_phone_ui.py``, ``test_defects_ui.py``).

- :func:`phone` opens a 390x844 touch context (a phone), :func:`desktop` a 1280x800 one;
- :class:`SeatDriver` plays seats of a live table over its WebSocket from the test (as a second device of the
  same player would), so a test reaches the situation it looks at in a second instead of by many clicks;
- :func:`open_seat` shows a seat's table in a page (its token in the page's ``localStorage``, as after creating
  or joining the table there);
- :func:`no_sideways_scroll`, :func:`on_first_screen`, :func:`small_controls`: what a phone must satisfy
  (:func:`layout` says where the blocks stood when one failed);
- :func:`axe_violations`: what axe-core (npm, ``node_modules/axe-core``) finds serious or critical on a page;
- :func:`felt_contrast`: the contrast of the text on the green table, measured on its pixels (axe cannot judge a
  gradient).
"""

from __future__ import annotations

import base64
import contextlib
import json
import time
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

from browser_setup import WAIT_MS
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection
from websockets.sync.client import connect as ws_connect

if TYPE_CHECKING:
    from playwright.sync_api import Browser, BrowserContext, FloatRect, Page, ViewportSize

#: Seconds between two messages of one seat (the server allows 10 a second after a burst).
SEND_INTERVAL = 0.11

PHONE: ViewportSize = {"width": 390, "height": 844}
DESKTOP: ViewportSize = {"width": 1280, "height": 800}


def phone(browser: Browser, locale: str = "de-AT", **extra: Any) -> BrowserContext:
    """A phone: 390x844, touch, the page's viewport meta honoured."""
    context = browser.new_context(viewport=PHONE, has_touch=True, is_mobile=True, locale=locale, **extra)
    context.set_default_timeout(WAIT_MS)
    return context


def desktop(browser: Browser, locale: str = "de-AT", **extra: Any) -> BrowserContext:
    context = browser.new_context(viewport=DESKTOP, locale=locale, **extra)
    context.set_default_timeout(WAIT_MS)
    return context


def contexts(browser: Browser) -> Iterator[Callable[..., BrowserContext]]:
    """A fixture body: make phone or desktop contexts (``make(kind, locale, **extra)``), all closed afterwards."""
    made: list[BrowserContext] = []

    def make(kind: str = "desktop", locale: str = "de-AT", **extra: Any) -> BrowserContext:
        context = (phone if kind == "phone" else desktop)(browser, locale, **extra)
        made.append(context)
        return context

    yield make
    for context in made:
        context.close()


def set_lang(page: Page, lang: str) -> None:
    """Switch the page's language by its selector in the header, and wait until the page has taken it."""
    page.select_option("#lang-select", lang)
    wait_until(page, lambda: page.evaluate("document.documentElement.lang") == lang, "the language")


def post(base: str, path: str, body: dict[str, Any]) -> dict[str, Any]:
    """A JSON POST to the live server; its answer."""
    request = urllib.request.Request(
        base + path, data=json.dumps(body).encode(), headers={"Content-Type": "application/json"}, method="POST"
    )
    with urllib.request.urlopen(request, timeout=10) as answer:
        data: dict[str, Any] = json.loads(answer.read())
        return data


def get(base: str, path: str) -> Any:
    with urllib.request.urlopen(base + path, timeout=10) as answer:
        return json.loads(answer.read())


class StateTap:
    """Every ``state`` message the page's WebSockets receive, in order, and the address of each socket opened."""

    def __init__(self, page: Page) -> None:
        self.states: list[dict[str, Any]] = []
        self.urls: list[str] = []
        page.on("websocket", self._opened)

    def _opened(self, ws: Any) -> None:
        self.urls.append(ws.url)
        ws.on("framereceived", self._frame)

    def _frame(self, payload: str | bytes) -> None:
        message = json.loads(payload.decode() if isinstance(payload, bytes) else payload)
        if message.get("type") == "state":
            self.states.append(message)

    @property
    def latest(self) -> dict[str, Any]:
        assert self.states, "no state message received"
        return self.states[-1]


def wait_until(page: Page, condition: Callable[[], bool], what: str, timeout: float = 20.0) -> None:
    """Poll ``condition`` (every 25 ms, in the page's time) until it holds; fail naming ``what`` after ``timeout``."""
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        page.wait_for_timeout(25)


def open_seat(page: Page, base: str, table_id: str, token: str, seat: int, variant: str) -> None:
    """Show the table in ``page`` as the seat of ``token`` (stored as the lobby stores it)."""
    page.goto(base + "/")
    page.evaluate(
        """([id, seat]) => {
            const all = JSON.parse(localStorage.getItem("bummerl.seats") || "{}");
            all[id] = seat;
            localStorage.setItem("bummerl.seats", JSON.stringify(all));
        }""",
        [table_id, {"token": token, "seat": seat, "variant": variant, "saved": 0}],
    )
    page.goto(f"{base}/#/table/{table_id}")


def no_sideways_scroll(page: Page) -> int:
    """How many pixels the page is wider than its window (0 on a page that fits)."""
    width: int = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
    return max(0, width)


def settled(page: Page) -> None:
    """Wait until no finite animation runs (a card flying in is measured where it lands, not on its way: on a busy
    machine the deal's motion may still be running when a test measures); an endless one (a glow) does not count."""
    page.wait_for_function(
        "() => document.getAnimations().every(a => a.effect && a.effect.getTiming().iterations === Infinity)",
        timeout=5000,
    )


def on_first_screen(page: Page, selector: str) -> bool:
    """Whether every element of ``selector`` lies within the first screen (the page scrolled to its top)."""
    settled(page)
    page.evaluate("window.scrollTo(0, 0)")
    inside: bool = page.eval_on_selector_all(
        selector,
        """els => els.length > 0 && els.every(e => {
            const r = e.getBoundingClientRect();
            return r.top >= 0 && r.left >= 0 && r.bottom <= window.innerHeight && r.right <= window.innerWidth;
        })""",
    )
    return inside


def layout(page: Page, selector: str) -> str:
    """Where ``selector``'s blocks stand, in CSS pixels: for a failed :func:`on_first_screen`'s message.

    Each direct child of the element ``selector`` names, as ``tag#id.class top+height``, so a flaky layout
    says in CI which block took the room.
    """
    text: str = page.eval_on_selector(
        selector,
        """el => `viewport ${window.innerWidth}x${window.innerHeight}: ` + [...el.children].map(c => {
            const r = c.getBoundingClientRect();
            const name = c.tagName.toLowerCase() + (c.id ? "#" + c.id : "") + "." + [...c.classList].join(".");
            return `${name} ${Math.round(r.top)}+${Math.round(r.height)}`;
        }).join(", ")""",
    )
    return text


class SeatDriver:
    """The seats of a live table played from the test over the table's WebSocket (as another device would).

    ``play(choose, until)`` answers each seat's turn with ``choose(state)`` until ``until(states)`` holds, where
    ``states`` maps each seat to its latest ``state`` message.
    """

    def __init__(self, base: str, table_id: str, tokens: dict[int, str]) -> None:
        url = base.replace("http://", "ws://") + f"/ws/tables/{table_id}"
        self.sockets: dict[int, ClientConnection] = {}
        self.states: dict[int, dict[str, Any]] = {}
        self.acted: dict[int, int] = {}
        self.errors: list[dict[str, Any]] = []
        self.sent_at: dict[int, float] = {}
        self._stack = contextlib.ExitStack()
        for seat, token in tokens.items():
            ws = self._stack.enter_context(ws_connect(url, open_timeout=10))
            ws.send(json.dumps({"type": "hello", "token": token}))
            self.sockets[seat] = ws
            self.acted[seat] = -1

    def pump(self, timeout: float = 0.005) -> None:
        """Read what the server sent each seat (waiting at most ``timeout`` seconds on each socket)."""
        for seat, ws in self.sockets.items():
            while True:
                try:
                    message = json.loads(ws.recv(timeout=timeout))
                except TimeoutError:
                    break
                if message.get("type") == "state":
                    self.states[seat] = message
                elif message.get("type") == "error":
                    # Refused (sent on a state that had just changed, or too fast): decide again on the newest state.
                    self.errors.append(message)
                    self.acted[seat] = -1

    def ready(self, seat: int) -> bool:
        """Whether ``seat`` may send again: the server meters what a client sends (a burst of 30, then 10 a
        second: docs/security.md), and the driver stays below it."""
        return time.monotonic() - self.sent_at.get(seat, -SEND_INTERVAL) >= SEND_INTERVAL

    def send(self, seat: int, message: dict[str, Any]) -> None:
        self.sent_at[seat] = time.monotonic()
        self.sockets[seat].send(json.dumps(message))

    def step(self, choose: Callable[[dict[str, Any]], str | None], *, deal_on: bool = False) -> None:
        """Read the news and answer each seat's turn once (``choose`` may say ``None``: wait); with ``deal_on``,
        deal the next game when one is over."""
        self.pump()
        for seat, state in self.states.items():
            if not self.ready(seat) or state["seq"] <= self.acted[seat]:
                continue
            if state["your_turn"]:
                action = choose(state)
                if action is not None:
                    self.acted[seat] = state["seq"]
                    self.send(seat, {"type": "action", "action": action})
            elif deal_on and state["game_over"] is not None:
                self.acted[seat] = state["seq"]
                self.send(seat, {"type": "next_game"})

    def play(
        self,
        choose: Callable[[dict[str, Any]], str | None],
        until: Callable[[dict[int, dict[str, Any]]], bool],
        timeout: float = 30.0,
    ) -> dict[int, dict[str, Any]]:
        deadline = time.monotonic() + timeout
        while True:
            self.step(choose)
            if len(self.states) == len(self.sockets) and until(self.states):
                return self.states
            if time.monotonic() > deadline:
                legal = [s.get("legal") for s in self.states.values()]
                raise AssertionError(f"the seats did not get there: {legal}; errors: {self.errors[-3:]}")

    def deal_next(self, seat: int) -> None:
        """Deal the next game (the game on the table is over); :meth:`play` goes on with it."""
        while not self.ready(seat):
            time.sleep(0.01)
        self.send(seat, {"type": "next_game"})
        deadline = time.monotonic() + 10
        while self.states[seat]["game_over"] is not None:
            if time.monotonic() > deadline:
                raise AssertionError(f"the next game was not dealt; errors: {self.errors[-3:]}")
            self.pump()

    def close(self) -> None:
        with contextlib.suppress(ConnectionClosed):
            self._stack.close()
        self.sockets.clear()


def game_over(states: dict[int, dict[str, Any]]) -> bool:
    return all(s["game_over"] is not None for s in states.values())


def first_legal(state: dict[str, Any]) -> str:
    """A quick way through a game: "Genug!" when allowed, a pass in the bidding, else the first legal action."""
    legal: list[str] = state["legal"]
    for token in ("declare", "pass"):
        if token in legal:
            return token
    return legal[0]


def bidding_turn(states: dict[int, dict[str, Any]]) -> bool:
    """Seat 0 may bid (or its game is over)."""
    s = states[0]
    return s["game_over"] is not None or any(t.startswith("bid:") for t in s["legal"])


def up_to_the_bidding(state: dict[str, Any]) -> str | None:
    """Seat 0's way to its first bid: cut (or the first choice) before it; ``None`` when it may bid."""
    legal: list[str] = state["legal"]
    if any(t.startswith("bid:") for t in legal):
        return None
    return "pass" if "pass" in legal else legal[0]


def mid_game(states: dict[int, dict[str, Any]]) -> bool:
    """Seat 0 to play a card with two tricks taken (or the game over, if it ended before that)."""
    state = states[0]
    if state["game_over"] is not None:
        return True
    view = state["view"]
    tricks = view.get("tricks")
    taken = len(tricks) if isinstance(tricks, list) else int(tricks or 0)
    return bool(state["your_turn"]) and taken >= 2 and view.get("phase", "play") == "play"


def table_at(base: str, variant: str, until: Callable[[dict[int, dict[str, Any]]], bool], **how: Any) -> dict[str, Any]:
    """A table of ``variant`` against heuristic bots (``how``: more of the request, e.g. ``move_seconds``), seat 0
    played (by :func:`first_legal`, or :func:`up_to_the_bidding` for :func:`bidding_turn`) to where ``until``
    holds in a game that is not over."""
    table = post(base, "/api/tables", {"variant": variant, "bots": "heuristic", "name": "Anna", **how})
    driver = SeatDriver(base, table["table_id"], {0: table["token"]})
    choose = up_to_the_bidding if until is bidding_turn else first_legal
    try:
        for _ in range(20):
            if driver.play(choose, until)[0]["game_over"] is None:
                return table
            driver.deal_next(0)
    finally:
        driver.close()
    raise AssertionError(f"{variant}: seat 0 never got there")


# Every control a finger may need, and the label that is its target: under 44x44 px on a touch screen is too small
# (WCAG 2.5.5, Apple's and Google's guidelines). A checkbox or radio counts by its label when it sits in one.
_SMALL_CONTROLS = """
() => {
  const visible = (e) => {
    const s = getComputedStyle(e);
    return e.getClientRects().length > 0 && s.visibility !== "hidden" && s.display !== "none";
  };
  const big = (r) => r.width >= 43.5 && r.height >= 43.5;
  const out = [];
  const selector =
    "button, a[href], select, input:not([type=hidden]), textarea, label[for], summary, [role=button]";
  for (const e of document.querySelectorAll(selector)) {
    if (!visible(e)) continue;
    const r = e.getBoundingClientRect();
    if (big(r)) continue;
    const label = e.closest("label");
    if (e.matches("input[type=checkbox], input[type=radio]") && label && big(label.getBoundingClientRect())) continue;
    const name = (e.id ? "#" + e.id : "") + (e.className && typeof e.className === "string" ? "." + e.className : "");
    const text = (e.textContent || e.value || "").trim().slice(0, 30);
    out.push(`${e.tagName.toLowerCase()}${name} "${text}" ${Math.round(r.width)}x${Math.round(r.height)}`);
  }
  return out;
}
"""


def small_controls(page: Page) -> list[str]:
    """Every visible control of the page smaller than 44x44 px (a checkbox or radio by its label), described."""
    found: list[str] = page.evaluate(_SMALL_CONTROLS)
    return found


#: axe-core as npm installs it (``package.json``'s devDependencies): the accessibility checks of the browser tests.
AXE = Path(__file__).resolve().parents[2] / "node_modules" / "axe-core" / "axe.min.js"

_AXE_RUN = """
async (impacts) => {
  const result = await axe.run(document, { resultTypes: ["violations"] });
  return result.violations
    .filter((v) => impacts.includes(v.impact))
    .map((v) => `${v.impact} ${v.id} (${v.help}): ` + v.nodes.slice(0, 4).map((n) => n.target.join(" ")).join(", "));
}
"""


def axe_violations(page: Page, impacts: tuple[str, ...] = ("serious", "critical")) -> list[str]:
    """What axe-core finds on the page as it stands, of the given impacts: one line per rule, its first elements.

    axe is injected as a script element: the page's context needs ``bypass_csp=True`` (the app's CSP allows no
    inline script, rightly)."""
    settled(page)
    if not page.evaluate("typeof window.axe === 'object'"):
        page.add_script_tag(path=str(AXE))
    found: list[str] = page.evaluate(_AXE_RUN, list(impacts))
    return found


#: Text on the green table (a gradient, which axe leaves "incomplete"): every element with text of its own inside
#: the felt of a two-player table (.board), a table game (.tg-table, .tg-me) or a replay, not the cards' pictures.
_FELT_TEXT = """
() => {
  const felt = document.querySelectorAll(".board, .tg-table, .tg-me");
  const out = [];
  for (const area of felt) {
    for (const e of area.querySelectorAll("*")) {
      if (e.closest("svg")) continue;
      const own = [...e.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim());
      if (!own) continue;
      const r = e.getBoundingClientRect();
      const s = getComputedStyle(e);
      if (!r.width || !r.height || s.visibility === "hidden" || Number(s.opacity) === 0) continue;
      if (r.width < 4 || r.height < 4) continue; // read by a screen reader only (.visually-hidden)
      const size = parseFloat(s.fontSize);
      const large = size >= 24 || (size >= 18.66 && Number(s.fontWeight) >= 700);
      // An opaque background of its own or of a box it sits in on the felt (a badge, a button, the help panel) is
      // what the text stands on; otherwise the felt's pixels inside the padding (a rounded chip's corners show the
      // felt the text never touches).
      let opaque = null;
      for (let up = e; up && up !== area && !opaque; up = up.parentElement) {
        const back = getComputedStyle(up).backgroundColor;
        if (back.startsWith("rgb(")) opaque = back;
      }
      const px = (name) => parseFloat(s[name]) || 0;
      const inset = {
        top: px("paddingTop") + px("borderTopWidth"),
        left: px("paddingLeft") + px("borderLeftWidth"),
        right: px("paddingRight") + px("borderRightWidth"),
        bottom: px("paddingBottom") + px("borderBottomWidth"),
      };
      e.dataset.feltText = String(out.length);
      const text = e.textContent.trim().slice(0, 30);
      out.push({ color: s.color, own: opaque, inset, large, text, cls: String(e.className) });
    }
  }
  return out;
}
"""

#: The worst contrast of a colour against the pixels of a screenshot (a PNG, base64): its 2nd and 98th percentile
#: of luminance, so that a few pixels of a rounded corner or an outline do not count.
_CONTRAST = """
async ([png, color, own]) => {
  const lin = (c) => { c /= 255; return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4; };
  const lum = (r, gr, b) => 0.2126 * lin(r) + 0.7152 * lin(gr) + 0.0722 * lin(b);
  const ratio = (x, y) => (Math.max(x, y) + 0.05) / (Math.min(x, y) + 0.05);
  const channels = (c) => c.match(/[0-9.]+/g).map(Number);
  const text = lum(...channels(color));
  if (own) return ratio(text, lum(...channels(own)));
  const img = new Image();
  img.src = "data:image/png;base64," + png;
  await img.decode();
  const canvas = document.createElement("canvas");
  canvas.width = img.width;
  canvas.height = img.height;
  const g = canvas.getContext("2d");
  g.drawImage(img, 0, 0);
  const data = g.getImageData(0, 0, img.width, img.height).data;
  const all = [];
  for (let i = 0; i < data.length; i += 4) all.push(lum(data[i], data[i + 1], data[i + 2]));
  all.sort((a, b) => a - b);
  const low = all[Math.floor(all.length * 0.02)];
  const high = all[Math.min(all.length - 1, Math.floor(all.length * 0.98))];
  return Math.min(ratio(text, low), ratio(text, high));
}
"""


def felt_contrast(page: Page) -> list[str]:
    """Every text on the green table whose contrast with the felt behind it (its pixels, the text itself hidden)
    is under WCAG AA: 4.5:1, 3:1 for large text. The page drawn anew while it measures (a state arriving): again."""
    for _ in range(3):
        found = _felt_contrast_once(page)
        if found is not None:
            return found
    raise AssertionError("the table was drawn anew during every measurement")


def _felt_contrast_once(page: Page) -> list[str] | None:
    settled(page)
    texts: list[dict[str, Any]] = page.evaluate(_FELT_TEXT)
    # The texts hidden (their colour transparent, no shadow; a card or a box among them too), each box photographed:
    # what lies behind the words.
    hidden = (
        "[data-felt-text] { color: transparent !important; text-shadow: none !important; }"
        " [data-felt-text] :is(.card, svg, img, input) { visibility: hidden !important; }"
    )
    hide = page.add_style_tag(content=hidden)
    found: list[str] = []
    drawn_anew = False
    for index, text in enumerate(texts):
        element = page.locator(f'[data-felt-text="{index}"]')
        if not element.count():
            drawn_anew = True  # its elements are gone
            break
        png = ""
        if text["own"] is None:
            element.scroll_into_view_if_needed()
            box = element.bounding_box()
            if box is None:
                drawn_anew = True
                break
            inset = text["inset"]
            clip: FloatRect = {
                "x": box["x"] + inset["left"],
                "y": box["y"] + inset["top"],
                "width": max(1.0, box["width"] - inset["left"] - inset["right"]),
                "height": max(1.0, box["height"] - inset["top"] - inset["bottom"]),
            }
            png = base64.b64encode(page.screenshot(clip=clip, animations="disabled")).decode()
        ratio: float = page.evaluate(_CONTRAST, [png, text["color"], text["own"]])
        if ratio < (3.0 if text["large"] else 4.5):
            found.append(f'"{text["text"]}" (.{text["cls"]}) {ratio:.2f}:1')
    hide.evaluate("(style) => style.remove()")
    page.evaluate("() => { for (const e of document.querySelectorAll('[data-felt-text]')) delete e.dataset.feltText; }")
    return None if drawn_anew else found
