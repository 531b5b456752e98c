"""Issue 13's defects, names and motion in a real browser (Debian's Chromium through Playwright, a live server).

- one name per bot, the same in the lobby, at the table, in the history and in the API, in German and English;
- the table-game marriage button names a Zwanziger/Vierziger with the card ("lead Kh" before);
- 3/4-player tables (and 2-player ones) show a banner when another human seat drops;
- a friend's "Next game" no longer wipes the other's result: it stays until they close it;
- the keys panel and the record stay open at an update, the record shows its moves, "1 Karte"/"1 card";
- the table's header names its variant and house rules; Dreierschnapsen offers no partner options;
- played cards move (short, skippable by a click, off with ``prefers-reduced-motion`` or the switch) and never
  hold back the state the page shows; sounds are off until switched on.

Situations are reached by playing seats from the test over the table's WebSocket (``ui_helpers.SeatDriver``): the
page shows what the server sends, whoever acted.
"""

from __future__ import annotations

import pytest

pytest.importorskip("fastapi", reason="needs the 'web' extra: pip install -e '.[web]'")
pytest.importorskip("playwright", reason="needs the 'browser' extra: pip install -e '.[browser]'")

import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from browser_setup import require_chromium
from ui_helpers import SeatDriver, first_legal, game_over, get, open_seat, post, set_lang, wait_until

from bummerl.cards import Card

require_chromium()

if TYPE_CHECKING:
    from playwright.sync_api import BrowserContext, Page
    from tests.browser.conftest import Errors, LiveServer, Shot

#: How a marriage is called by its value (the page's words for the server's number).
MARRIAGE_WORDS = {"de": {20: "Zwanziger", 40: "Vierziger"}, "en": {20: "Zwanziger (20)", 40: "Vierziger (40)"}}


def message(page: Page, key: str, params: dict[str, Any]) -> str:
    """The page's own sentence ``key`` in its current language (i18n.js, the same module the page uses)."""
    text: str = page.evaluate("async ([k, p]) => (await import('/i18n.js')).t(k, p)", [key, params])
    return text


def seat_option_texts(page: Page) -> list[str]:
    texts: list[str] = page.eval_on_selector_all("#seat-1 option", "els => els.map(e => e.textContent)")
    return texts


def find_marriage(base: str, variant: str) -> tuple[dict[str, Any], SeatDriver, dict[str, Any]]:
    """A table of ``variant`` (heuristic bots) where seat 0 may announce a marriage now: the table, the driver
    that holds seat 0 (still connected), the state.  Seat 0 passes in the bidding and keeps its pairs."""

    def choose(state: dict[str, Any]) -> str | None:
        legal: list[str] = state["legal"]
        if any(t.startswith("marry:") for t in legal):
            return None
        if "pass" in legal:
            return "pass"
        hand = state["view"]["hand"]
        pairs = {c[-1] for c in hand if c[0] == "K" and "Q" + c[-1] in hand}
        keep = [t for t in legal if len(t) == 2 and not (t[0] in "KQ" and t[-1] in pairs)]
        return keep[0] if keep else legal[0]

    def can_marry(state: dict[str, Any] | None) -> bool:
        return bool(state) and state["game_over"] is None and any(t.startswith("marry:") for t in state["legal"])

    # Several tables at once, game after game on each (a new table per game would crowd the list of tables in play):
    # the first seat 0 that may announce a marriage is the one.
    tables = [post(base, "/api/tables", {"variant": variant, "bots": "heuristic", "name": "Anna"}) for _ in range(5)]
    drivers = [SeatDriver(base, t["table_id"], {0: t["token"]}) for t in tables]
    deadline = time.monotonic() + 90
    while time.monotonic() < deadline:
        for table, driver in zip(tables, drivers, strict=True):
            driver.step(choose, deal_on=True)
            state = driver.states.get(0)
            if state is not None and can_marry(state):
                for other in drivers:
                    if other is not driver:
                        other.close()
                return table, driver, state
    raise AssertionError("no marriage for seat 0 within 90 s")


# ------------------------------------------------------------------ one name per bot
def test_every_bot_has_one_name_in_lobby_table_history_and_api(
    server: LiveServer, make: Callable[..., BrowserContext], shot: Shot, page_errors: Errors
) -> None:
    variants = {v["name"]: v for v in get(server.url, "/api/variants")}
    # A finished two-player game against "hard" ("Strong" in the lobby, "hard" at the table before issue 13).
    duel = post(server.url, "/api/tables", {"variant": "schnapsen", "opponent": "hard", "name": "Anna"})
    driver = SeatDriver(server.url, duel["table_id"], {0: duel["token"]})
    driver.play(first_legal, game_over)
    driver.close()
    trio = post(
        server.url, "/api/tables", {"variant": "dreierschnapsen", "seats": ["search", "heuristic"], "name": "Anna"}
    )
    page = make("desktop").new_page()
    errors = page_errors(page)
    for lang in ("de", "en"):
        page.goto(server.url + "/")
        page.locator("#start").wait_for()
        set_lang(page, lang)
        # The API's name is the one the page shows: "Computer (<the bot's title in this language>)".
        for variant in ("schnapsen", "dreierschnapsen"):
            page.check(f"#variant-{variant}")
            v = variants[variant]
            want = [message(page, "computer_named", {"bot": v["bot_titles"][b][lang]}) for b in v["bots"]]
            assert seat_option_texts(page)[: len(want)] == want
        hard = message(page, "computer_named", {"bot": variants["schnapsen"]["bot_titles"]["hard"][lang]})
        assert hard == {"de": "Computer (Stark)", "en": "Computer (Strong)"}[lang]
        shot(page, f"names-lobby-{lang}")
        # The table says the same.
        open_seat(page, server.url, duel["table_id"], duel["token"], 0, "schnapsen")
        page.locator(".seat-top .seat-name").wait_for()
        assert page.locator(".seat-top .seat-name").inner_text().startswith(hard)
        open_seat(page, server.url, trio["table_id"], trio["token"], 0, "dreierschnapsen")
        page.locator(".tg-seat .seat-name").first.wait_for()
        names = {page.locator(f'.tg-seat[data-seat="{s}"] .seat-name').inner_text().strip() for s in (1, 2)}
        titles = variants["dreierschnapsen"]["bot_titles"]
        assert names == {message(page, "computer_named", {"bot": titles[b][lang]}) for b in ("search", "heuristic")}
        shot(page, f"names-table-{lang}")
        # And the history.
        page.goto(server.url + "/#/history")
        row = page.locator('table.games tbody tr[data-kind="two_player"]', has_text=hard)
        row.first.wait_for()
        assert f"Anna – {hard}" in row.first.locator("td.players").inner_text()
        shot(page, f"names-history-{lang}")
    errors.check()


# ------------------------------------------------------------------ the marriage button of a table game
def test_the_table_game_marriage_button_names_the_marriage_and_its_value(
    server: LiveServer, make: Callable[..., BrowserContext], shot: Shot, page_errors: Errors
) -> None:
    table, driver, state = find_marriage(server.url, "bauernschnapsen")
    page = make("desktop").new_page()
    errors = page_errors(page)
    open_seat(page, server.url, table["table_id"], table["token"], 0, "bauernschnapsen")
    buttons = page.locator("#tg-actions button.marry")
    buttons.first.wait_for()
    tokens = [t for t in state["legal"] if t.startswith("marry:")]
    for lang in ("de", "en"):
        set_lang(page, lang)
        texts = {str(b.get_attribute("data-token")): b.inner_text().strip() for b in buttons.all()}
        assert set(texts) == set(tokens)
        for token, text in texts.items():
            card = token.removeprefix("marry:")
            value = state["marriage_values"][card[-1]]
            word = MARRIAGE_WORDS[lang][value]
            name = Card.parse(card).name("german", lang)
            assert text == message(page, "act_marriage", {"value": word, "card": name}), text
            assert word in text and name in text and card not in text  # not "lead Kh"
        shot(page, f"marriage-button-table-{lang}")
    driver.close()
    errors.check()


# ------------------------------------------------------------------ a friend's table
@pytest.mark.parametrize("variant", ["dreierschnapsen", "schnapsen"])
def test_a_dropped_friend_shows_a_banner_and_next_game_keeps_the_others_result(
    variant: str, server: LiveServer, make: Callable[..., BrowserContext], shot: Shot, page_errors: Errors
) -> None:
    """Two humans at one table (with a bot at Dreierschnapsen' third seat): Anna deals the next game, Bert keeps
    the last result until he closes it; when Bert's page goes, Anna is told."""
    body: dict[str, Any] = {"variant": variant, "name": "Anna"}
    body.update({"seats": ["friend", "heuristic"]} if variant == "dreierschnapsen" else {"opponent": "friend"})
    table = post(server.url, "/api/tables", body)
    bert = post(server.url, "/api/join", {"code": table["join_codes"]["1"], "name": "Bert"})
    driver = SeatDriver(server.url, table["table_id"], {0: table["token"], 1: bert["token"]})
    driver.play(first_legal, game_over)
    driver.close()
    tg = variant == "dreierschnapsen"
    anna = make("desktop", "de-AT").new_page()
    anna_errors = page_errors(anna)
    bert_context = make("phone", "en-GB")
    bert_page = bert_context.new_page()
    bert_errors = page_errors(bert_page)
    open_seat(anna, server.url, table["table_id"], table["token"], 0, variant)
    open_seat(bert_page, server.url, table["table_id"], bert["token"], 1, variant)
    over = "#tg-over" if tg else ".game-over"
    anna.locator(over).wait_for()
    bert_page.locator(over).wait_for()
    # Anna deals on: her table shows the new game; Bert's result stays (and says the next game runs).
    anna.click("#tg-next" if tg else '.actions button[data-action="next_game"]')
    kept = "#tg-over-kept" if tg else ".game-over.kept"
    if tg:
        wait_until(anna, lambda: anna.get_attribute("#tgame", "data-status") == "playing", "the new game")
        wait_until(bert_page, lambda: bert_page.get_attribute("#tgame", "data-status") == "playing", "the new game")
    else:
        anna.locator(".game-over").wait_for(state="detached")
        bert_page.locator("#result-kept").wait_for()
    assert anna.locator(kept).count() == 0
    assert bert_page.locator(kept).is_visible()
    assert "next game" in bert_page.locator(kept).inner_text()
    shot(bert_page, f"result-kept-{variant}-phone-en")
    bert_page.locator(f"{kept} .result-close").click()
    bert_page.locator(kept).wait_for(state="detached")
    # Bert's page goes: Anna's table says so, in her language; when he is back, the banner goes.
    bert_page.close()
    banner = anna.locator(".banner.offline")
    banner.wait_for()
    assert banner.inner_text() == message(anna, "d_offline", {"name": "Bert"})
    shot(anna, f"offline-banner-{variant}-de")
    again = bert_context.new_page()
    open_seat(again, server.url, table["table_id"], bert["token"], 1, variant)
    banner.wait_for(state="detached")
    for e in (anna_errors, bert_errors):
        e.check()


# ------------------------------------------------------------------ small defects
def test_panels_stay_open_counted_nouns_header_and_house_rules(
    server: LiveServer, make: Callable[..., BrowserContext], shot: Shot, page_errors: Errors
) -> None:
    context = make("desktop")
    context.add_init_script("localStorage.setItem('bummerl.pace', '0')")
    page = context.new_page()
    errors = page_errors(page)
    # "1 Karten" / "1 cards": counted nouns by Intl.PluralRules.
    page.goto(server.url + "/")
    page.locator("#start").wait_for()
    for lang, one, two in (("de", "1 Karte", "2 Karten"), ("en", "1 card", "2 cards")):
        set_lang(page, lang)
        assert [message(page, "tg_cards", {"n": n}) for n in (1, 2)] == [one, two]
        assert message(page, "talon_cards", {"n": 1}) == one
    set_lang(page, "de")
    # Dreierschnapsen's house rules offer no partner options (three players have no partner); Bauernschnapsen's do.
    page.check("#variant-dreierschnapsen")
    assert page.locator("#opt-gang_partner_plays, #opt-bettler_partner_plays").count() == 0
    page.check("#variant-bauernschnapsen")
    assert page.locator("#opt-gang_partner_plays").count() == 1
    # The table's header: its variant and the options that differ from the defaults.
    options = {"bettler": False, "max_doubling": 1}
    trio = post(
        server.url, "/api/tables", {"variant": "dreierschnapsen", "bots": "random", "name": "Anna", "options": options}
    )
    open_seat(page, server.url, trio["table_id"], trio["token"], 0, "dreierschnapsen")
    line = page.locator("#variant-line")
    wait_until(page, lambda: line.count() == 1 and "Dreierschnapsen" in line.inner_text(), "the variant line")
    for part in ("Dreierschnapsen", "Mit Bettler: nein", "Höchste Verdopplung: Kontra"):
        assert part in line.inner_text()
    # A two-player game: the keys panel and the record stay open across updates; the record shows every move.
    duel = post(server.url, "/api/tables", {"variant": "schnapsen", "opponent": "random", "name": "Anna"})
    open_seat(page, server.url, duel["table_id"], duel["token"], 0, "schnapsen")
    wait_until(page, lambda: "Schnapsen" in page.locator("#variant-line").inner_text(), "the variant line")
    assert page.locator("#variant-line").inner_text().endswith(message(page, "d_standard_rules", {}))
    page.click(".keys-panel summary")
    seen_caption = False
    playable = page.locator(".seat-bottom button.card.playable")
    while not page.locator(".game-over").count():
        wait_until(page, lambda: playable.count() > 0 or page.locator(".game-over").count() > 0, "a turn")
        if page.locator(".game-over").count():
            break
        playable.first.click()
        page.wait_for_timeout(60)
        if page.locator(".trick.done .trick-caption").count():
            # The caption of the last trick stands clear of its cards.
            overlap = page.evaluate(
                """() => {
                    document.body.dispatchEvent(new MouseEvent("click", { bubbles: true }));  // motion ends
                const caption = document.querySelector(".trick.done .trick-caption");
                if (!caption) return false;  // the next card came meanwhile
                const c = caption.getBoundingClientRect();
                    return [...document.querySelectorAll(".trick.done .card")].some(e => {
                        const r = e.getBoundingClientRect();
                        return r.left < c.right && c.left < r.right && r.top < c.bottom && c.top < r.bottom;
                    });
                }"""
            )
            assert not overlap
            seen_caption = True
        assert page.locator(".keys-panel").get_attribute("open") is not None, "the keys panel closed at an update"
    assert seen_caption
    page.click(".game-over details.record summary")
    # The whole record is in view, its moves too (the tags filled a box of fixed height before).
    record = page.locator(".game-over .record-text")
    assert "deal:" in record.inner_text()
    assert record.evaluate("e => e.scrollHeight <= e.clientHeight + 1 && e.scrollWidth <= e.clientWidth + 1")
    # The page draws again (the card faces change): the record stays open.
    page.select_option("#faces-select", "french")
    page.locator(".game-over details.record").wait_for()
    assert page.locator(".game-over details.record").get_attribute("open") is not None
    assert page.locator(".keys-panel").get_attribute("open") is not None
    shot(page, "record-open-de")
    errors.check()


# ------------------------------------------------------------------ motion and sound
WATCH_MOTION = """() => new Promise(resolve => {
    const start = performance.now();
    const look = () => {
        // The page's own animations (motion.js), not a CSS transition of a card under the mouse.
        const ours = () => document.getAnimations()
            .filter(a => a.playState === "running" && !(a instanceof CSSTransition));
        const running = ours();
        if (running.length) {
            const seen = {
                durations: running.map(a => a.effect.getTiming().duration),
                trick: [...document.querySelectorAll(".trick [data-card]")].map(e => e.dataset.card),
            };
            // A click anywhere ends every animation at once.
            document.body.dispatchEvent(new MouseEvent("click", { bubbles: true }));
            seen.left = ours().length;
            resolve(seen);
        } else if (performance.now() - start > 1500) resolve(null);
        else requestAnimationFrame(look);
    };
    look();
})"""

COUNT_AUDIO = """(() => {
    window.__audioContexts = 0;
    const Real = window.AudioContext;
    if (Real) window.AudioContext = class extends Real { constructor(...a) { super(...a); window.__audioContexts++; } };
})()"""


def play_and_watch(page: Page) -> dict[str, Any] | None:
    """Play the first playable card and report the motion that follows (``None``: none within 1.5 s)."""
    page.locator(".seat-bottom button.card.playable").first.wait_for()
    # Started before the click, not awaited here (a function that returns nothing): the click comes first.
    page.evaluate(f"() => {{ window.__motion = ({WATCH_MOTION})(); }}")
    code = page.locator(".seat-bottom button.card.playable").first.get_attribute("data-card")
    page.locator(".seat-bottom button.card.playable").first.click()
    seen: dict[str, Any] | None = page.evaluate("window.__motion")
    if seen is not None:
        seen["played"] = code
    return seen


def test_motion_is_short_skippable_optional_and_never_holds_the_state(
    server: LiveServer, make: Callable[..., BrowserContext], page_errors: Errors
) -> None:
    context = make("desktop")
    context.add_init_script(COUNT_AUDIO)
    page = context.new_page()
    errors = page_errors(page)
    duel = post(server.url, "/api/tables", {"variant": "schnapsen", "opponent": "random", "name": "Anna"})
    open_seat(page, server.url, duel["table_id"], duel["token"], 0, "schnapsen")
    assert page.get_attribute("#motion-toggle", "aria-pressed") == "true"
    assert page.get_attribute("#sound-toggle", "aria-pressed") == "false"  # sounds: off by default
    seen = play_and_watch(page)
    assert seen is not None, "no animation after a card was played"
    # Short, and the card is already where the state puts it while it moves: nothing waits for the motion.
    assert seen["durations"] and max(seen["durations"]) <= 300
    assert seen["played"] in seen["trick"]
    assert seen["left"] == 0
    assert page.evaluate("window.__audioContexts") == 0
    # Sounds on (made by WebAudio when a card is played); animations off by the switch.
    page.click("#sound-toggle")
    assert page.get_attribute("#sound-toggle", "aria-pressed") == "true"
    page.click("#motion-toggle")
    assert page.get_attribute("#motion-toggle", "aria-pressed") == "false"
    chosen = page.evaluate("[localStorage.getItem('bummerl.motion'), localStorage.getItem('bummerl.sound')]")
    assert chosen == ["off", "on"]
    assert play_and_watch(page) is None
    assert page.evaluate("window.__audioContexts") >= 1
    errors.check()
    # The system asks for reduced motion: no animation, and the switch says why.
    calm = make("desktop", reduced_motion="reduce").new_page()
    calm_errors = page_errors(calm)
    other = post(server.url, "/api/tables", {"variant": "schnapsen", "opponent": "random", "name": "Anna"})
    open_seat(calm, server.url, other["table_id"], other["token"], 0, "schnapsen")
    assert calm.locator("#motion-toggle").is_disabled()
    assert play_and_watch(calm) is None
    calm_errors.check()
