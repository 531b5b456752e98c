"""The web page in a real browser: whole games by clicks and keys, marriages, exchange, Zudrehen, languages,
card faces, reconnecting, watching and inviting a friend (issue 5).

Every test drives Debian's Chromium through Playwright against a live server (``conftest.py``).  Situations
that need particular cards are reached by a table ``seed`` found here with the engine (the server deals
``Session(variant, seed).new_match().deal_next()`` first), so no seed number is hard-coded.

While a test plays, every ``state`` message the page receives is tapped from its WebSocket, and the page is
checked against it: a card is clickable and an action button shown exactly when its token is in ``legal``.
"""

from __future__ import annotations

import pytest

pytest.importorskip("fastapi", reason="needs the 'web' extra: pip install -e '.[web]'")
pytest.importorskip("playwright", reason="needs the 'browser' extra: pip install -e '.[browser]'")

import re
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from browser_setup import require_chromium
from ui_helpers import StateTap, wait_until

from bummerl.cards import CARDS, FACES, LANGUAGES, Card
from bummerl.game import Game
from bummerl.match import Session

require_chromium()

if TYPE_CHECKING:
    from playwright.sync_api import Locator, Page
    from tests.browser.conftest import Errors, LiveServer, NewContext, Shot

SPECIAL = re.compile(r"^(marry:.+|exchange|close|declare(:.)?)$")


# ---------------------------------------------------------------------------- helpers
def first_game(variant: str, seed: int) -> Game:
    """The first game the server deals at a table created with ``seed``."""
    return Session(variant, seed).new_match().deal_next()


def find_seed(variant: str, want: Callable[[list[str]], bool]) -> int:
    """The smallest seed whose first game lets seat 0 (the page's player, Vorhand) act as ``want`` asks."""
    for seed in range(1, 5000):
        game = first_game(variant, seed)
        if game.to_move == 0 and want([a.token for a in game.legal_actions()]):
            return seed
    raise AssertionError("no seed in 1..4999 deals that situation")


def wait_for_turn(page: Page, tap: StateTap, after: int = 0) -> dict[str, Any]:
    """The first stable state after message ``after`` in which the page's player must act, or the game is over."""
    wait_until(
        page,
        lambda: len(tap.states) > after and (tap.latest["your_turn"] or tap.latest["game_over"] is not None),
        "the player's turn",
    )
    return tap.latest


def wait_for_new_deal(page: Page, tap: StateTap, after: int) -> None:
    wait_until(page, lambda: len(tap.states) > after and tap.latest["game_over"] is None, "the next deal")


def dom_offers(page: Page) -> tuple[set[str], set[str]]:
    """The cards the page lets its player click, and the game actions it offers as buttons."""
    cards = set(page.eval_on_selector_all(".seat-bottom button.card.playable", "els => els.map(e => e.dataset.card)"))
    actions = set(
        page.eval_on_selector_all(".actions button.action[data-action]", "els => els.map(e => e.dataset.action)")
    )
    return cards, {a for a in actions if SPECIAL.match(a)}


def assert_offers_match(page: Page, state: dict[str, Any]) -> None:
    """The page offers exactly the server's legal actions: nothing more, nothing less."""
    legal = state["legal"]
    want = ({t for t in legal if not SPECIAL.match(t)}, {t for t in legal if SPECIAL.match(t)})
    deadline = time.monotonic() + 3
    while dom_offers(page) != want and time.monotonic() < deadline:
        page.wait_for_timeout(25)
    assert dom_offers(page) == want


def start_game(
    page: Page,
    server: LiveServer,
    *,
    variant: str = "schnapsen",
    opponent: str = "random",
    seed: int | None = None,
    auto_declare: bool | None = None,
    move_seconds: int | None = None,
) -> str:
    """Create a table from the lobby form, as a player would (``move_seconds``: its clock); returns the table id."""
    page.goto(server.url + "/")
    page.locator("#start").wait_for()
    page.check(f"#variant-{variant}")
    if auto_declare is not None:
        page.set_checked("#opt-auto_declare", auto_declare)
    page.select_option("#seat-1", opponent)
    page.fill("#player-name", "Anna")
    if move_seconds is not None:
        page.get_by_label("Zeit pro Zug").select_option(str(move_seconds))  # the select is labelled
    if seed is not None:
        page.click("details.seed-field summary")
        page.fill("#seed", str(seed))
    page.click("#start")
    page.wait_for_url(re.compile(r"#/table/"))
    if opponent != "friend":
        page.locator(".seat-bottom .hand .card").first.wait_for()
    return page.url.rsplit("/", 1)[-1]


def attr(locator: Locator, name: str) -> str:
    """An attribute the page must have set."""
    value = locator.get_attribute(name)
    assert value is not None, f"no {name} attribute"
    return value


def hand(page: Page) -> list[str]:
    result: list[str] = page.eval_on_selector_all(".seat-bottom .hand .card", "els => els.map(e => e.dataset.card)")
    return result


def play_game_by_clicks(page: Page, tap: StateTap, *, declare_at: int = 66) -> dict[str, Any]:
    """Play until the game ends: the first clickable card, or "Genug!" once the player's Augen reach 66.

    Checks before every decision that the page offers exactly the legal actions.
    """
    seen = 0
    while True:
        state = wait_for_turn(page, tap, seen)
        if state["game_over"] is not None:
            return state
        assert_offers_match(page, state)
        seen = len(tap.states)
        view = state["view"]
        mine = view["augen"][state["seat"]] if view["augen"] is not None else 0
        if "declare" in state["legal"] and mine >= declare_at:
            page.click('.actions button[data-action="declare"]')
        else:
            page.locator(".seat-bottom button.card.playable").first.click()


# ---------------------------------------------------------------------------- tests
def test_whole_bummerl_against_random_by_clicks(
    server: LiveServer, new_context: NewContext, shot: Shot, page_errors: Errors
) -> None:
    """A Bummerl against the random bot, played by clicks to its end, then the history and a replay.

    RULES.md, Going out: "Going out (Ausmelden, "genug"): explicit" (auto_declare off: the page offers
    "Genug!" only when the server lists ``declare``).  seeds/000 "Partien und Bummerl": both start at 7 and
    count down; the first to reach 0 wins.
    """
    context = new_context()
    # No pause after each trick (the page's pacing for human eyes, tested in the other games): a whole
    # Bummerl stays quick.
    context.add_init_script("localStorage.setItem('bummerl.pace', '0')")
    page = context.new_page()
    errors = page_errors(page)
    tap = StateTap(page)
    page.goto(server.url + "/")
    page.locator("#start").wait_for()
    shot(page, "lobby-de")
    start_game(page, server, auto_declare=False)
    shot(page, "table-start-de")
    games = 0
    while True:
        state = play_game_by_clicks(page, tap)
        games += 1
        page.locator(".game-over .result-line").wait_for()
        over = state["game_over"]
        if games == 1:
            # After each game: the result, both hands as dealt, the record and the analysis.
            assert page.locator(".game-over .dealt-hand .card").count() == 10
            dealt = set(page.eval_on_selector_all(".dealt-hand .card", "els => els.map(e => e.dataset.card)"))
            assert dealt == set(over["hands_at_deal"][0]) | set(over["hands_at_deal"][1])
            link = page.locator(".game-over a.download")
            record = page.request.get(server.url + attr(link, "href"))
            assert record.ok and record.text() == over["record"]
            page.locator(".game-over .analysis-list").wait_for(timeout=60000)
            shot(page, "game-over-de")
            # The talon was drawn face down (the events say "draw" without a card): the log leaves it out.
            drawn = [e for s in tap.states for e in s["events"] if e["type"] == "draw"]
            assert all(e["card"] is None for e in drawn[:-1])  # the last may take the face-up trump card
            assert "draw" not in page.locator(".log").inner_text()
        match = state["match"]
        standing = page.eval_on_selector_all(".score tr.standing td", "els => els.map(e => Number(e.textContent))")
        assert standing == [match["standing"][0], match["standing"][1]]
        if over["match_over"]:
            break
        assert games < 30, "a Bummerl against the random bot should end well before 30 games"
        before = len(tap.states)
        page.click('.actions button[data-action="next_game"]')
        wait_for_new_deal(page, tap, before)
    assert min(match["standing"]) == 0
    winner_text = page.locator(".game-over .match-line").inner_text()
    assert ("Du gewinnst" in winner_text) == (match["winner"] == 0)
    shot(page, "bummerl-over-de")

    # The history lists the games; a replay steps through one with buttons and keys.
    page.click('#nav a[href="#/history"]')
    page.locator("table.games tbody tr").first.wait_for()
    assert page.locator("table.games tbody tr").count() >= games
    shot(page, "history-de")
    page.locator("a.replay-link").first.click()
    page.locator(".replay-board").wait_for()
    assert page.locator(".step-count").inner_text().startswith("Schritt 0 von")
    page.click('button[data-fkey="next"]')
    page.keyboard.press("ArrowRight")
    assert page.locator(".step-count").inner_text().startswith("Schritt 2 von")
    # A replay shows both hands open: as many face-up cards as the step's hands hold.
    assert page.locator(".replay-board .seat .hand .card[data-card]").count() >= 8
    page.keyboard.press("End")
    shot(page, "replay-de")
    errors.check()


def test_marriage_announced_by_keyboard(
    server: LiveServer, new_context: NewContext, shot: Shot, page_errors: Errors
) -> None:
    """A marriage: M, then the number of the King; the two cards are shown with the marriage.

    RULES.md, Marriage: "only the player on lead, by showing K and O of a suit and leading one of them".
    """
    seed = find_seed("schnapsen", lambda legal: any(t.startswith("marry:K") for t in legal))
    game = first_game("schnapsen", seed)
    king = next(t[6:] for t in (a.token for a in game.legal_actions()) if t.startswith("marry:K"))
    page = new_context().new_page()
    errors = page_errors(page)
    tap = StateTap(page)
    start_game(page, server, seed=seed)
    state = wait_for_turn(page, tap)
    assert sorted(hand(page)) == sorted(c.code for c in game.hands[0])
    assert_offers_match(page, state)
    shot(page, "marriage-offered-de")
    # The button names the marriage from the server's marriage_values (docs/web.md): 40 in trumps, else 20.
    value = "Vierziger" if king[-1] == game.trump.letter else "Zwanziger"
    assert state["marriage_values"][king[-1]] == (40 if value == "Vierziger" else 20)
    assert f"{value} ansagen" in page.locator(f'[data-action="marry:{king}"]').inner_text()
    marriages = [t for t in state["legal"] if t.startswith("marry:")]
    page.keyboard.press("m")
    if len(marriages) > 1:
        # Marriage mode: only cards that can be led with a marriage stay clickable.
        wait_until(page, lambda: dom_offers(page)[0] == {t[6:] for t in marriages}, "marriage mode")
    page.keyboard.press(str(hand(page).index(king) + 1))
    wait_until(page, lambda: any(e["type"] == "marriage" for s in tap.states for e in s["events"]), "the marriage")
    suit = Card.parse(king).suit.name_in("german", "de")
    item = page.locator(".marriages-panel .marriage-item").first
    item.wait_for()
    assert f"Du: {value} in {suit}" in item.inner_text()
    shown = [item.locator(".card").nth(i).get_attribute("data-card") for i in range(2)]
    assert shown == [f"K{king[-1]}", f"Q{king[-1]}"]
    assert page.locator(".log").inner_text().count(f"{value} in {suit}") == 1
    shot(page, "marriage-announced-de")
    errors.check()


def test_trump_exchange_by_click(server: LiveServer, new_context: NewContext, shot: Shot, page_errors: Errors) -> None:
    """The trump exchange: the Unter goes under the talon, the face-up trump card into the hand.

    RULES.md, Trump exchange: "the player on lead holding the trump Unter ... may swap it for the face-up trump
    card before leading, while the talon is open. Weich: allowed also before the very first lead".
    """
    seed = find_seed("schnapsen", lambda legal: "exchange" in legal)
    game = first_game("schnapsen", seed)
    assert game.trump_card is not None
    trump_card = game.trump_card.code
    unter = f"J{game.trump.letter}"
    page = new_context().new_page()
    errors = page_errors(page)
    tap = StateTap(page)
    start_game(page, server, seed=seed)
    assert_offers_match(page, wait_for_turn(page, tap))
    assert page.locator(".pile .trump-card").get_attribute("data-card") == trump_card
    n = len(tap.states)
    page.click('.actions button[data-action="exchange"]')
    state = wait_for_turn(page, tap, n)
    assert "exchange" not in state["legal"]
    trump_now = page.locator(".pile .trump-card")
    wait_until(page, lambda: trump_now.get_attribute("data-card") == unter, "the new trump card")
    assert trump_card in hand(page) and unter not in hand(page)
    assert page.locator('.actions button[data-action="exchange"]').count() == 0
    assert_offers_match(page, state)
    shot(page, "exchange-done-de")
    errors.check()


def test_zudrehen_by_keyboard_then_strict_play(
    server: LiveServer, new_context: NewContext, shot: Shot, page_errors: Errors
) -> None:
    """Zudrehen with Z; afterwards the page offers only what Farbzwang and Stichzwang allow, to the end.

    RULES.md, Closing: "From then on the talon rules of an exhausted talon apply" — "Farbzwang before
    Stichzwang" (the page shows the server's legal list; the test checks every decision).
    """
    seed = find_seed("schnapsen", lambda legal: "close" in legal)
    page = new_context().new_page()
    errors = page_errors(page)
    tap = StateTap(page)
    start_game(page, server, seed=seed)
    wait_for_turn(page, tap)
    n = len(tap.states)
    page.keyboard.press("z")
    state = wait_for_turn(page, tap, n)
    assert state["view"]["closed_by"] == 0
    page.locator(".stock-caption", has_text="Du hast zugedreht.").wait_for()
    assert "turned" in (page.locator(".pile .trump-card").get_attribute("class") or "")
    assert "Du drehst zu" in page.locator(".log").inner_text()
    shot(page, "zugedreht-de")
    final = play_game_by_clicks(page, tap)
    assert final["game_over"]["result"]["reason"] in ("closer_won", "closer_failed")
    page.locator(".game-over .result-line").wait_for()
    reason = page.locator(".game-over").inner_text()
    assert "zugedreht" in reason
    errors.check()


def test_language_and_faces_are_remembered(
    server: LiveServer, new_context: NewContext, shot: Shot, page_errors: Errors
) -> None:
    """English and French faces chosen in the header stay chosen after a reload; card names follow them."""
    context = new_context()
    page = context.new_page()
    errors = page_errors(page)
    start_game(page, server)
    first = page.locator(".seat-bottom .hand .card").first
    code = attr(first, "data-card")
    # A card button is named by its picture (render.js cardButton): the card's name is the <svg role=img>'s label.
    assert attr(first.locator("svg[role=img]"), "aria-label").startswith(Card.parse(code).name("german", "de"))
    page.select_option("#lang-select", "en")
    page.select_option("#faces-select", "french")
    english = Card.parse(code).name("french", "en")
    assert attr(page.locator(f'.seat-bottom .card[data-card="{code}"] svg[role=img]'), "aria-label").startswith(english)
    assert page.locator("#nav").inner_text().startswith("New game")
    shot(page, "table-en-french")
    page.reload()
    page.locator(f'.seat-bottom .card[data-card="{code}"]').wait_for()
    assert page.locator("#lang-select").input_value() == "en"
    assert page.locator("#faces-select").input_value() == "french"
    assert attr(page.locator(f'.seat-bottom .card[data-card="{code}"] svg[role=img]'), "aria-label").startswith(english)
    assert page.locator("html").get_attribute("lang") == "en"
    # The page names every card as the terminal does (bummerl.cards), in both faces and languages.
    names = page.evaluate(
        """async (codes) => {
            const { cardName } = await import("/cards.js");
            const out = {};
            for (const faces of ["german", "french"])
                for (const lang of ["de", "en"])
                    out[`${faces}/${lang}`] = codes.map((c) => cardName(c, faces, lang));
            return out;
        }""",
        [c.code for c in CARDS],
    )
    for faces in FACES:
        for lang in LANGUAGES:
            assert names[f"{faces}/{lang}"] == [c.name(faces, lang) for c in CARDS]
    keys = page.evaluate('async () => (await import("/i18n.js")).MESSAGE_KEYS')
    assert sorted(keys["de"]) == sorted(keys["en"]), "every sentence of the page exists in German and English"
    # French faces print A/10/K/Q/J in English, A/10/K/D/B in German.
    page.select_option("#lang-select", "de")
    labels = page.eval_on_selector_all(".seat-bottom .card svg text", "els => els.map(e => e.textContent)")
    assert set(labels) <= {"A", "10", "K", "D", "B"}
    errors.check()


def test_reload_and_lost_connection_continue_the_game(
    own_server: LiveServer, new_context: NewContext, shot: Shot, page_errors: Errors
) -> None:
    """A closed tab (reload) and a lost connection (the server restarts): the page reconnects with its seat
    token and the game goes on where it stood."""
    context = new_context()
    page = context.new_page()
    errors = page_errors(page)
    tap = StateTap(page)
    table = start_game(page, own_server)
    wait_for_turn(page, tap)
    n = len(tap.states)
    page.locator(".seat-bottom button.card.playable").first.click()
    state = wait_for_turn(page, tap, n)
    before = sorted(state["view"]["hand"])
    tricks = state["view"]["tricks_won"]

    # Close the tab, open the table again.
    page.close()
    page = context.new_page()
    errors = page_errors(page)
    tap = StateTap(page)
    page.goto(f"{own_server.url}/#/table/{table}")
    state = wait_for_turn(page, tap)
    assert sorted(hand(page)) == before and state["view"]["tricks_won"] == tricks
    assert state["role"] == "player"

    # Lose the connection: the page says so, retries with backoff, and finds the game as it stood.
    own_server.stop()
    page.locator(".banner.warn").wait_for()
    shot(page, "reconnecting-de")
    own_server.start()
    n = len(tap.states)
    wait_until(page, lambda: len(tap.states) > n, "the state after reconnecting", timeout=30)
    state = wait_for_turn(page, tap, n)
    assert sorted(state["view"]["hand"]) == before
    page.locator(".banner.warn").wait_for(state="detached")
    n = len(tap.states)
    page.locator(".seat-bottom button.card.playable").first.click()
    wait_until(page, lambda: len(tap.states) > n, "the game to go on")
    assert sum(tap.latest["view"]["tricks_won"]) >= sum(tricks)
    errors.check(expected="ERR_CONNECTION_REFUSED")


def test_friend_invite_and_spectator_phone(
    server: LiveServer, new_context: NewContext, shot: Shot, page_errors: Errors
) -> None:
    """A friend joins by the invite link and plays Schnapsen scharf; a spectator on a phone watches and sees no
    hand.

    Scharf shows no running Augen: seeds/000, "Das scharfe Schnapsen": "Abgelegte Stiche dürfen nichtmehr
    angesehen werden".
    """
    anna = new_context().new_page()
    errors = page_errors(anna)
    tap = StateTap(anna)
    # A clock chosen in the lobby (long enough never to run out here): the table keeps it.
    table = start_game(anna, server, variant="schnapsen-scharf", opponent="friend", move_seconds=120)
    assert server.get_json(f"/api/tables/{table}")["move_seconds"] == 120
    invite = anna.locator("#copy-invite")
    invite.wait_for()
    url = invite.input_value()
    assert url.startswith(server.url) and "#/join/" in url and "?" not in url  # the code never reaches a server
    shot(anna, "invite-de")

    bert = new_context(locale="en-GB").new_page()
    bert_errors = page_errors(bert)
    bert_tap = StateTap(bert)
    bert.goto(url)
    bert.fill("#join-name", "Bert")
    bert.click("#join-button")
    bert.locator(".seat-bottom .hand .card").first.wait_for()
    assert "join" not in bert.url and bert.url.endswith(f"#/table/{table}")
    anna.locator(".seat-top .seat-name", has_text="Bert").wait_for()

    for page in (anna, bert):
        assert page.locator(".score tr.augen").count() == 0
    assert "keine Augenanzeige" in anna.locator(".score-panel").inner_text()
    assert "no running totals" in bert.locator(".score-panel").inner_text()

    # Whoever is to move plays a card.
    wait_until(anna, lambda: bool(tap.states) and tap.latest["status"] == "playing", "the game to start")
    mover, mover_tap = (anna, tap) if tap.latest["your_turn"] else (bert, bert_tap)
    state = wait_for_turn(mover, mover_tap)
    assert_offers_match(mover, state)
    n = len(mover_tap.states)
    mover.locator(".seat-bottom button.card.playable").first.click()
    wait_until(mover, lambda: len(mover_tap.states) > n, "the card to be played")

    # A spectator on a phone: the table, the played card, no hand, no action.
    phone = new_context(width=390, height=844).new_page()
    phone_errors = page_errors(phone)
    phone_tap = StateTap(phone)
    phone.goto(f"{server.url}/#/watch/{table}")
    phone.locator(".spectating").wait_for()
    wait_until(phone, lambda: bool(phone_tap.states), "the spectator's state")
    spectator_state = phone_tap.latest
    assert spectator_state["role"] == "spectator" and spectator_state["view"]["hand"] == []
    assert phone.locator(".seat .hand .card[data-card]").count() == 0
    assert phone.locator(".seat .hand .card.back").count() == sum(spectator_state["view"]["hand_sizes"])
    assert phone.locator("button.card").count() == 0 and phone.locator(".actions button.action").count() == 0
    assert phone.locator(".trick .card[data-card]").count() >= 1
    overflow = phone.evaluate("document.scrollingElement.scrollWidth - window.innerWidth")
    assert overflow <= 0, f"the page is {overflow}px wider than a phone"
    shot(phone, "spectator-phone-390")
    for e in (errors, bert_errors, phone_errors):
        e.check()


def test_phone_player_view(server: LiveServer, new_context: NewContext, shot: Shot, page_errors: Errors) -> None:
    """A player's table fits a 390x844 phone: no sideways scrolling, every card of the hand on screen.

    Schnorps has the largest hand (seeds/001: six cards each) and counts Marken up instead of a Bummerl down.
    """
    page = new_context(width=390, height=844).new_page()
    errors = page_errors(page)
    tap = StateTap(page)
    start_game(page, server, variant="schnorps")
    state = wait_for_turn(page, tap)
    assert len(hand(page)) == len(state["view"]["hand"]) == 6
    assert page.locator(".score tr.standing th").inner_text() == "Marken"
    overflow = page.evaluate("document.scrollingElement.scrollWidth - window.innerWidth")
    assert overflow <= 0, f"the page is {overflow}px wider than a phone"
    boxes = [page.locator(".seat-bottom .hand .card").nth(i).bounding_box() for i in range(len(hand(page)))]
    assert all(b is not None and b["x"] >= 0 and b["x"] + b["width"] <= 390 for b in boxes)
    shot(page, "table-phone-390-schnorps")
    page.goto(server.url + "/")
    page.locator("#start").wait_for()
    shot(page, "lobby-phone-390")
    errors.check()
