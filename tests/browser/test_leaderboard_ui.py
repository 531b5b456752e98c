"""The leaderboard and the profile's ratings against people in a browser (issue 24), at 1280x800 and on a phone
(390x844, touch): the header's link, the variant chosen on the page, the best first with the own row marked, the
own rating and place above the list, a provisional rating, an empty board; no sideways scroll and no control
under 44x44 px on the phone; in German and English, with the screenshots of docs/web-ui.md.

Debian's Chromium through Playwright against a live server of its own (``conftest.py``).  The rated games are
stored in the server's database from the test, as the server stores a quick match's games, and rated there by
the server's own :class:`~bummerl.server.people_ratings.PeopleRatings`: playing 80 games through the page would
test the table, not the leaderboard.
"""

from __future__ import annotations

import pytest

pytest.importorskip("fastapi", reason="needs the 'web' extra: pip install -e '.[web]'")
pytest.importorskip("playwright", reason="needs the 'browser' extra: pip install -e '.[browser]'")

import json
from collections.abc import Callable
from typing import TYPE_CHECKING

from browser_setup import require_chromium
from ui_helpers import axe_violations, no_sideways_scroll, set_lang, small_controls

from bummerl.server.people_ratings import MIN_GAMES, PeopleRatings
from bummerl.server.players import PlayerStore
from bummerl.server.storage import Repository, SeatData, hash_token

require_chromium()

if TYPE_CHECKING:
    from playwright.sync_api import BrowserContext, Page
    from tests.browser.conftest import Errors, LiveServer, Shot

#: A name without a place to break it (40 characters, the most the server takes).
LONG_NAME = "Annamaria_Berghofer-Kleinschmidt_Wien_XX"
#: The players by strength (the stronger wins every game between two), and the one this browser is.
PLAYERS = ["Resi", LONG_NAME, "Ferdl", "Anna", "Poldi", "Mizzi", "Gustl", "Vroni", "Hansi"]
ME = "Anna"
#: A player with too few games to be listed (provisional).
NEWCOMER = "Sepp"


def seed_ratings(server: LiveServer) -> dict[str, tuple[str, str]]:
    """Rated Schnapsen games between the players, stored and rated in the live server's database: every pair
    plays once or twice, the stronger winning, so that everyone has at least MIN_GAMES games; the newcomer plays
    one.  The players' ids and keys by name."""
    pairs = [(a, b) for i, a in enumerate(PLAYERS) for b in PLAYERS[i + 1 :]]  # the stronger first: it wins
    pairs += pairs[: len(PLAYERS) * 2]
    pairs.append((NEWCOMER, "Hansi"))
    return store_games(server, [*PLAYERS, NEWCOMER], pairs)


def store_games(server: LiveServer, names: list[str], pairs: list[tuple[str, str]]) -> dict[str, tuple[str, str]]:
    """One rated game per pair, the first named winning, stored and rated as the server does a quick match's."""
    repo = Repository(f"sqlite:///{server.data_dir / 'bummerl.db'}")
    players, ratings = PlayerStore(repo), PeopleRatings(repo)
    made = {name: players.create(name) for name in names}
    ids = {name: (p.id, key) for name, (p, key) in made.items()}
    for n, (first, second) in enumerate(pairs):
        table_id = f"lb{n}"
        seats = [SeatData(0, "human", None, first, True, None), SeatData(1, "friend", None, second, True, None)]
        tokens = {0: hash_token(f"{n}a"), 1: hash_token(f"{n}b")}
        repo.create_table(table_id, "schnapsen", {}, n, 7, seats, tokens, rated=True)  # as a quick match's
        for seat, name in enumerate((first, second)):
            players.claim_seat(ids[name][0], table_id, seat)
        game = repo.start_game(table_id, 0, 0, 0, "x", None)
        repo.finish_game(game, {"winner": 0, "points": 2, "reason": "declared", "augen": [66, 30]}, "r")
        ratings.rate_table_of(game)
    repo.dispose()
    return ids


def as_player(context: BrowserContext, player: tuple[str, str]) -> None:
    """This browser is the player (its key in localStorage, as profile.js keeps it after POST /api/players)."""
    value = json.dumps({"id": player[0], "key": player[1]})
    context.add_init_script(f"localStorage.setItem('bummerl.player', {json.dumps(value)});")


def board_rows(page: Page) -> list[dict[str, str]]:
    rows: list[dict[str, str]] = page.evaluate(
        """() => [...document.querySelectorAll('#lb-table tbody tr')].map(tr => ({
            rank: tr.querySelector('.rank').textContent,
            name: tr.querySelector('.who').textContent,
            rating: tr.querySelector('.rating').textContent,
            me: tr.classList.contains('me') ? tr.querySelector('.you').textContent : '',
        }))"""
    )
    return rows


def test_the_leaderboard_and_the_profile_on_a_desktop_and_a_phone(
    own_server: LiveServer, make: Callable[..., BrowserContext], shot: Shot, page_errors: Errors
) -> None:
    ids = seed_ratings(own_server)
    for kind in ("desktop", "phone"):
        context = make(kind, bypass_csp=True)  # axe-core is injected as a script
        as_player(context, ids[ME])
        page = context.new_page()
        errors = page_errors(page)
        page.goto(own_server.url + "/#/")
        page.click('#nav a[href="#/leaderboard"]')  # the header's link: Schnapsen's board by default
        page.locator("#lb-table").wait_for()
        assert page.locator('#nav a[href="#/leaderboard"]').get_attribute("aria-current") is not None
        rows = board_rows(page)
        # The best first; everyone with enough games, not the newcomer; this browser's player marked by words.
        assert [r["name"] for r in rows] == PLAYERS
        assert [int(r["rank"]) for r in rows] == list(range(1, len(PLAYERS) + 1))
        assert [int(r["rating"]) for r in rows] == sorted((int(r["rating"]) for r in rows), reverse=True)
        assert [r["name"] for r in rows if r["me"]] == [ME] and rows[PLAYERS.index(ME)]["me"] == " (du)"
        place = PLAYERS.index(ME) + 1
        assert f"Platz {place}" in page.locator("#lb-mine").inner_text()
        assert page.locator("#lb-table tr.me").get_attribute("aria-current") == "true"
        assert no_sideways_scroll(page) == 0, f"the leaderboard is wider than the {kind}"
        if kind == "phone":
            assert small_controls(page) == []
        assert axe_violations(page) == []
        shot(page, "leaderboard-de" if kind == "desktop" else "leaderboard-phone-390-de")
        # Another variant is chosen on the page: nobody is rated there yet.
        page.select_option("#lb-variant", "sechsundsechzig")
        page.locator("#lb-empty").wait_for()
        assert page.url.endswith("#/leaderboard/sechsundsechzig")
        assert str(MIN_GAMES) in page.locator("#lb-empty").inner_text()
        assert "noch kein gewertetes Spiel" in page.locator("#lb-mine").inner_text()
        # In English, the same board.
        page.goto(own_server.url + "/#/leaderboard/schnapsen")
        page.locator("#lb-table").wait_for()
        set_lang(page, "en")
        page.locator("h1", has_text="Leaderboard").wait_for()
        assert board_rows(page)[PLAYERS.index(ME)]["me"] == " (you)"
        assert f"rank {place}" in page.locator("#lb-mine").inner_text()
        assert no_sideways_scroll(page) == 0
        set_lang(page, "de")
        # The profile shows the rating against people beside the ratings against the bots, with its board.
        page.goto(own_server.url + "/#/me")
        people = page.locator('#profile-people li[data-variant="schnapsen"]')
        people.wait_for()
        assert f"Platz {place}" in people.inner_text()
        assert people.locator(".people-rating").inner_text() == rows[place - 1]["rating"]
        assert no_sideways_scroll(page) == 0, f"the profile is wider than the {kind}"
        if kind == "phone":
            assert small_controls(page) == []
        assert axe_violations(page) == []
        shot(page, f"profile-people-{kind}-de")
        people.locator("a").click()
        page.locator("#lb-table").wait_for()
        errors.check()


def test_a_newcomer_sees_a_provisional_rating_and_a_long_name_keeps_its_mark(
    own_server: LiveServer, make: Callable[..., BrowserContext], page_errors: Errors
) -> None:
    ids = seed_ratings(own_server)
    context = make("phone")
    as_player(context, ids[NEWCOMER])
    page = context.new_page()
    errors = page_errors(page)
    page.goto(own_server.url + "/#/leaderboard/schnapsen")
    page.locator("#lb-table").wait_for()
    assert not [r for r in board_rows(page) if r["me"]]  # not listed yet
    mine = page.locator("#lb-mine").inner_text()
    assert "vorläufig" in mine and f"1 gewertetes Spiel von {MIN_GAMES}" in mine
    page.goto(own_server.url + "/#/me")
    people = page.locator('#profile-people li[data-variant="schnapsen"]')
    people.wait_for()
    assert f"vorläufig (1 von {MIN_GAMES} Spielen)" in people.inner_text()
    # A long name of one's own is cut on a phone, its "(du)" is not.
    long = make("phone")
    as_player(long, ids[LONG_NAME])
    page = long.new_page()
    page.goto(own_server.url + "/#/leaderboard/schnapsen")
    page.locator("#lb-table tr.me .you").wait_for()
    inside = page.evaluate(
        """() => {
            const cell = document.querySelector('#lb-table tr.me td.name').getBoundingClientRect();
            const mark = document.querySelector('#lb-table tr.me .you').getBoundingClientRect();
            return mark.width > 0 && mark.left >= cell.left && mark.right <= cell.right + 0.5;
        }"""
    )
    assert inside and no_sideways_scroll(page) == 0
    # A browser without a player sees the board and is told how to get on it.
    anonymous = make("desktop").new_page()
    anonymous.goto(own_server.url + "/#/leaderboard/scharf")  # an alias names its variant
    anonymous.locator("#lb-empty").wait_for()
    assert anonymous.locator("#lb-variant").input_value() == "schnapsen-scharf"
    anonymous.goto(own_server.url + "/#/leaderboard/chess")  # a typo, an old link
    assert "gibt es nicht" in anonymous.locator("#leaderboard .notice.error").inner_text()
    anonymous.select_option("#lb-variant", "schnapsen")  # and the way out
    anonymous.locator("#lb-table").wait_for()
    errors.check()


def test_the_leaderboard_turns_its_pages_by_keyboard(
    own_server: LiveServer, make: Callable[..., BrowserContext], page_errors: Errors
) -> None:
    """52 listed players: 50 on the first page, the last two on the second; a button with nothing behind it is
    disabled, and the focus goes to the other one."""
    names = [f"Spieler {i:02d}" for i in range(52)]
    # Each plays the next five around a ring: ten games each, the one named first winning.
    store_games(own_server, names, [(names[i], names[(i + k) % 52]) for i in range(52) for k in range(1, 6)])
    page = make("desktop").new_page()
    errors = page_errors(page)
    page.goto(own_server.url + "/#/leaderboard/schnapsen")
    page.locator("#lb-table").wait_for()
    assert len(board_rows(page)) == 50 and page.locator("#lb-prev").is_disabled()
    assert "Plätze 1–50 von 52" in page.locator(".lb-pages").inner_text()
    page.focus("#lb-next")
    page.keyboard.press("Enter")
    page.locator(".lb-pages", has_text="Plätze 51–52 von 52").wait_for()
    assert [r["rank"] for r in board_rows(page)] == ["51", "52"]
    # The last page: "next" is disabled, and the focus went to "previous" (a keyboard user is not lost).
    assert page.locator("#lb-next").is_disabled() and page.evaluate("document.activeElement.id") == "lb-prev"
    page.keyboard.press("Enter")
    page.locator(".lb-pages", has_text="Plätze 1–50 von 52").wait_for()
    assert page.evaluate("document.activeElement.id") == "lb-next"
    errors.check()
