"""Dark mode and the installable app in a real browser (issue 24).

- the page follows the system's colour scheme, the header's switch overrides it (system, light, dark) and is
  remembered, and the chosen theme stands before the app's script runs (no flash of the light page);
- the dark theme has a dark page, a dark green table and light cards;
- Chromium finds the app installable (its manifest, icons and service worker);
- the service worker caches the shell and nothing else (no API answer), a page opened while the server cannot be
  reached says so ("Keine Verbindung …") and comes back with the server, and a deploy replaces the cache.

Debian's Chromium through Playwright against a live server (``conftest.py``), at 1280x800 and 390x844 with touch.
"""

from __future__ import annotations

import pytest

pytest.importorskip("fastapi", reason="needs the 'web' extra: pip install -e '.[web]'")
pytest.importorskip("playwright", reason="needs the 'browser' extra: pip install -e '.[browser]'")

import json
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from browser_setup import CHROMIUM, require_chromium
from playwright.sync_api import Error as PlaywrightError
from ui_helpers import mid_game, open_seat, post, settled, table_at, wait_until

from bummerl.server.config import STATIC_DIR

require_chromium()

if TYPE_CHECKING:
    from playwright.sync_api import Browser, BrowserContext, Page, Route
    from tests.browser.conftest import Errors, LiveServer, Shot

#: The page's background in each theme (style.css --paper) as getComputedStyle writes it.
PAPER = {"light": "rgb(246, 243, 234)", "dark": "rgb(18, 22, 19)"}
#: The felt's middle colour (style.css --felt).
FELT = {"light": "rgb(31, 107, 58)", "dark": "rgb(26, 74, 44)"}

BACKGROUND = "getComputedStyle(document.body).backgroundColor"


def theme_of(page: Page) -> str:
    theme: str = page.evaluate("document.documentElement.dataset.theme")
    return theme


@pytest.mark.parametrize("system", ["light", "dark"])
def test_the_page_follows_the_system_and_the_switch_overrides_it(
    system: str, server: LiveServer, make: Callable[..., BrowserContext], shot: Shot, page_errors: Errors
) -> None:
    other = "light" if system == "dark" else "dark"
    page: Page = make("desktop", color_scheme=system).new_page()
    errors = page_errors(page)
    page.goto(server.url + "/")
    page.locator("#start").wait_for()
    assert theme_of(page) == "system" and page.evaluate(BACKGROUND) == PAPER[system]
    assert page.locator("meta[name=color-scheme]").get_attribute("content") == "light dark"
    if system == "dark":
        shot(page, "dark-lobby-de")
    toggle = page.locator("#theme-toggle")
    assert toggle.get_attribute("aria-label") == "Design: wie das System"
    seen = []
    for _ in range(3):
        toggle.click()
        seen.append((theme_of(page), page.evaluate(BACKGROUND), toggle.get_attribute("aria-label")))
        assert page.evaluate("document.activeElement.id") == "theme-toggle"  # the focus stays on the switch
    assert seen == [
        ("light", PAPER["light"], "Design: hell"),
        ("dark", PAPER["dark"], "Design: dunkel"),
        ("system", PAPER[system], "Design: wie das System"),
    ]
    # The opposite of the system's, remembered across a reload and on every page.
    while theme_of(page) != other:
        toggle.click()
    assert page.evaluate("localStorage.getItem('bummerl.theme')") == other
    for address in ("/#/history", "/#/rules/schnapsen", "/#/me", "/#/tournaments"):
        page.goto(server.url + address)
        page.reload()
        page.locator("#theme-toggle").wait_for()
        assert theme_of(page) == other and page.evaluate(BACKGROUND) == PAPER[other], address
        assert page.locator("meta[name=color-scheme]").get_attribute("content") == other
    errors.check()


def test_the_chosen_theme_stands_before_the_app_runs(server: LiveServer, make: Callable[..., BrowserContext]) -> None:
    """theme.js in the <head> applies the stored theme while the page is parsed: with the app's module held back
    the page is already dark, so it never flashes light."""
    context = make("desktop", color_scheme="light", service_workers="block")
    context.add_init_script("localStorage.setItem('bummerl.theme', 'dark')")
    page: Page = context.new_page()

    def hold(route: Route) -> None:
        route.abort()

    page.route("**/app.js", hold)
    page.goto(server.url + "/", wait_until="domcontentloaded")
    assert theme_of(page) == "dark"
    assert page.evaluate(BACKGROUND) == PAPER["dark"]
    assert page.locator("#nav a").count() == 0  # the app did not run: the theme is theme.js's alone


@pytest.mark.parametrize("kind", ["desktop", "phone"])
def test_the_dark_table_has_a_dark_felt_and_light_cards(
    kind: str, server: LiveServer, make: Callable[..., BrowserContext], shot: Shot, page_errors: Errors
) -> None:
    table = table_at(server.url, "schnapsen", mid_game)
    colours = {}
    for theme in ("light", "dark"):
        page: Page = make(kind, color_scheme=theme).new_page()
        errors = page_errors(page)
        open_seat(page, server.url, table["table_id"], table["token"], 0, "schnapsen")
        page.locator("button.card.in-hand.playable").first.wait_for()
        settled(page)
        colours[theme] = page.evaluate(
            """() => ({
                board: getComputedStyle(document.querySelector(".board")).backgroundImage,
                card: getComputedStyle(document.querySelector("button.card.in-hand .card-svg > rect")).fill,
                paper: getComputedStyle(document.body).backgroundColor,
            })"""
        )
        if theme == "dark" and kind == "phone":
            shot(page, "dark-table-phone-de")
        errors.check()
    for theme in ("light", "dark"):
        assert FELT[theme] in colours[theme]["board"], colours
        assert colours[theme]["paper"] == PAPER[theme]
        assert colours[theme]["card"] == "rgb(255, 253, 247)"  # the card's paper: light in both


def test_chromium_finds_the_app_installable(server: LiveServer, browser: Browser, tmp_path: Path) -> None:
    """Chromium's own check (DevTools' Page.getInstallabilityErrors) in a browser with a profile on disk: in the
    tests' usual contexts, which are incognito, it answers "in-incognito" and checks nothing else."""
    context = browser.browser_type.launch_persistent_context(
        str(tmp_path / "profile"), executable_path=str(CHROMIUM), args=["--headless", "--no-sandbox"], locale="de-AT"
    )
    try:
        page = context.new_page()
        page.goto(server.url + "/")
        page.locator("#start").wait_for()
        page.evaluate("navigator.serviceWorker.ready.then(() => true)")
        cdp = context.new_cdp_session(page)
        manifest = cdp.send("Page.getAppManifest")
        assert not manifest.get("errors"), manifest
        assert json.loads(manifest["data"])["display"] == "standalone"
        installable: dict[str, Any] = cdp.send("Page.getInstallabilityErrors")
        assert installable["installabilityErrors"] == [], installable
    finally:
        context.close()


def cached(page: Page) -> dict[str, list[str]]:
    """Every cache of the page's origin with the paths it holds."""
    found: dict[str, list[str]] = page.evaluate(
        """async () => {
            const out = {};
            for (const name of await caches.keys()) {
                const keys = await (await caches.open(name)).keys();
                out[name] = keys.map((r) => new URL(r.url).pathname + new URL(r.url).search);
            }
            return out;
        }"""
    )
    return found


def test_the_worker_caches_the_shell_and_never_an_api_answer(
    server: LiveServer, make: Callable[..., BrowserContext], page_errors: Errors
) -> None:
    page: Page = make("desktop").new_page()
    errors = page_errors(page)
    page.goto(server.url + "/")
    page.locator("#start").wait_for()
    page.evaluate("navigator.serviceWorker.ready")
    page.reload()  # now the worker controls the page: everything it loads passes it
    wait_until(page, lambda: page.evaluate("!!navigator.serviceWorker.controller"), "the worker in control")
    table = post(server.url, "/api/tables", {"variant": "schnapsen", "opponent": "random", "name": "Anna"})
    open_seat(page, server.url, table["table_id"], table["token"], 0, "schnapsen")
    page.locator("button.card.in-hand.playable").first.click()
    page.goto(server.url + "/#/history")
    page.locator("main h1").first.wait_for()
    caches = cached(page)
    worker = page.request.get(server.url + "/sw.js").text()
    version = json.loads(worker.splitlines()[0].split(" = ", 1)[1].rstrip(";"))
    shell = json.loads(worker.splitlines()[1].split(" = ", 1)[1].rstrip(";"))
    assert list(caches) == [f"bummerl-shell-{version}"], caches
    assert sorted(caches[f"bummerl-shell-{version}"]) == sorted(shell)
    assert not [path for path in caches[f"bummerl-shell-{version}"] if path.startswith(("/api/", "/ws/"))]
    errors.check()


@pytest.mark.parametrize(("kind", "theme"), [("phone", "light"), ("desktop", "dark")])
def test_a_page_opened_without_the_server_says_it_is_offline(
    kind: str, theme: str, own_server: LiveServer, make: Callable[..., BrowserContext], shot: Shot
) -> None:
    """The server stopped (as a phone without a connection finds it): a page opened then is the worker's offline
    page, in the player's theme and language, and the page asked for once the server is back.

    (Playwright's ``context.set_offline`` does not reach a service worker's own requests in Chromium: the worker
    would still fetch the page, so the test stops the server instead.)"""
    page: Page = make(kind, color_scheme=theme).new_page()
    page.goto(own_server.url + "/")
    page.locator("#start").wait_for()
    page.evaluate("navigator.serviceWorker.ready.then(() => true)")
    own_server.stop()
    page.goto("about:blank")  # from "/" an address "/#/…" would only change the fragment: no request at all
    page.goto(own_server.url + "/#/history")
    page.locator("#offline-title").wait_for()
    assert page.locator("#offline-title").inner_text() == "Keine Verbindung"
    assert page.locator("#offline-text").inner_text().startswith("Entweder hat dieses Gerät keine Verbindung")
    assert page.evaluate(BACKGROUND) == PAPER[theme]  # its style sheet and theme.js came from the cache
    if kind == "phone":
        shot(page, "offline-de")
    # In English where the player chose English; and back to the page asked for once the server is.
    page.evaluate("localStorage.setItem('bummerl.lang', JSON.stringify('en'))")
    page.reload()
    page.locator("#offline-title").wait_for()
    assert page.locator("#offline-title").inner_text() == "You are offline"
    own_server.start()
    page.locator("#offline-retry").click()
    page.locator("table.games, main h1").first.wait_for()
    assert page.locator("#offline-title").count() == 0
    assert page.url.endswith("/#/history")


def test_a_deploy_replaces_the_cached_shell(
    server: LiveServer, tmp_path: Path, make: Callable[..., BrowserContext], page_errors: Errors
) -> None:
    """A server over a copy of the front end; a shell file changes as a deploy would change it: the browser's update
    check installs the new worker, whose cache holds the new file, the old cache is gone, and the page that had just
    been loaded from the old cache loads itself again with the new files."""
    static = tmp_path / "static"
    shutil.copytree(STATIC_DIR, static)
    deployed = type(server)(tmp_path / "server", config={"static_dir": str(static)})
    deployed.start()
    try:
        page: Page = make("desktop").new_page()
        errors = page_errors(page)
        page.goto(deployed.url + "/")
        page.locator("#start").wait_for()
        page.evaluate("navigator.serviceWorker.ready")
        wait_until(page, lambda: len(cached(page)) == 1, "the first cache")
        (old,) = cached(page)
        page.reload()  # now the page is the worker's, loaded from its cache
        page.locator("#start").wait_for()
        marker = "getComputedStyle(document.documentElement).getPropertyValue('--deploy-marker')"
        assert page.evaluate(marker) == ""
        with (static / "style.css").open("a", encoding="utf-8") as css:
            css.write("\n:root {\n  --deploy-marker: 1;\n}\n")
        page.evaluate("window.beforeTheDeploy = true")
        page.evaluate("() => { navigator.serviceWorker.getRegistration().then((r) => r.update()); }")
        # The new worker takes over within the page's first seconds: the page loads itself again, with the new files.

        def loaded_again() -> bool:
            try:
                return bool(page.evaluate("!window.beforeTheDeploy"))
            except PlaywrightError:  # asked in the middle of the navigation
                return False

        wait_until(page, loaded_again, "the page loaded again", timeout=20)
        page.locator("#start").wait_for()
        caches = cached(page)
        assert len(caches) == 1 and old not in caches, caches  # the old cache deleted
        assert ":root {\n  --deploy-marker: 1;" in page.evaluate("caches.match('/style.css').then((r) => r.text())")
        assert page.evaluate(marker).strip() == "1"
        errors.check()
    finally:
        deployed.stop()


@pytest.mark.parametrize("lang", ["de", "en"])
def test_the_phone_header_keeps_two_rows_with_the_theme_switch(
    lang: str, server: LiveServer, make: Callable[..., BrowserContext], page_errors: Errors
) -> None:
    """At 390x844 the header is the brand with the links, then the two selects and the three switches (theme,
    motion, sound): every link reachable (those beyond the edge by scrolling the row, never the page)."""
    page: Page = make("phone", locale="de-AT" if lang == "de" else "en-GB").new_page()
    errors = page_errors(page)
    page.goto(server.url + "/")
    page.locator("#theme-toggle").wait_for()
    rows = page.eval_on_selector_all(
        ".topbar .brand, #nav, #prefs > *",
        "els => [...new Set(els.filter((e) => e.getClientRects().length)"
        ".map((e) => Math.round(e.getBoundingClientRect().top)))]",
    )
    assert len(rows) == 2, rows
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    last = page.locator("#nav a").last
    last.scroll_into_view_if_needed()  # as a swipe along the row does
    box = last.bounding_box()
    assert box is not None and box["x"] + box["width"] <= 390
    errors.check()
