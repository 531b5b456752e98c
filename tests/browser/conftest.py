"""Fixtures of the browser tests: a real server in a subprocess and Debian's Chromium driven by Playwright.

The test modules skip themselves when /usr/bin/chromium is missing (see ``test_web_ui.py``).  The server
is ``bummerl.server.app.create_app`` under uvicorn on 127.0.0.1 and a free port, with a fresh
SQLite database in the pytest temporary folder.  The browser is ``/usr/bin/chromium`` from Debian's
``chromium`` package, started by the ``playwright`` Python package through ``executable_path`` — Playwright's
own browser download (``playwright install``) is never used.

Screenshots go to ``tests/browser/screenshots/`` (git-ignored), or to ``$BUMMERL_SCREENSHOTS``.
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

if TYPE_CHECKING:
    from playwright.sync_api import Browser, BrowserContext, Page

from browser_setup import CHROMIUM, WAIT_MS

CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]

SCREENSHOTS = Path(os.environ.get("BUMMERL_SCREENSHOTS", Path(__file__).resolve().parent / "screenshots"))

# The server as its own process, as `bummerl serve` runs it: a bot thinks in a thread of it, analyses use the fast
# "easy" level so the post-game analysis is there within the tests' time.
_SERVER_CODE = """
import dataclasses
import json
import sys
from pathlib import Path
import uvicorn
from bummerl.server.app import create_app
from bummerl.server.config import ServerConfig
from bummerl.server.edge import uvicorn_config
port, data = int(sys.argv[1]), Path(sys.argv[2])
# The browser tests share one server and one address: the per-client limits (docs/security.md) are raised
# so that they test the page, not the limits (tests/test_server_limits.py does).
config = ServerConfig(
    data_dir=data, bot_executor="thread", analysis_executor="thread", analysis_level="easy",
    create_rate="1000/minute", api_rate="1000/second", analysis_rate="1000/minute", max_tables_per_client=1000,
    connect_rate="1000/minute", join_rate="1000/minute",
)
# A test's own settings (LiveServer(config=...)), e.g. the move clock's strikes; a folder (static_dir) by its path.
settings = json.loads(sys.argv[3])
if "static_dir" in settings:
    settings["static_dir"] = Path(settings["static_dir"])
config = dataclasses.replace(config, **settings)
# Configured as `bummerl serve` configures uvicorn (the edge's protocols, timeouts and caps).
uvicorn.Server(uvicorn_config(create_app(config=config), config, host="127.0.0.1", port=port)).run()
"""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


class LiveServer:
    """``bummerl serve`` in a subprocess; :meth:`restart` keeps the port and the database."""

    def __init__(self, data_dir: Path, config: dict[str, Any] | None = None) -> None:
        """``config``: settings of :class:`~bummerl.server.config.ServerConfig` this server has besides the tests'."""
        self.data_dir = data_dir
        self.config = config or {}
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.process: subprocess.Popen[bytes] | None = None
        self.log_path = data_dir / "server.log"

    def start(self) -> None:
        self.data_dir.mkdir(parents=True, exist_ok=True)
        log = self.log_path.open("ab")
        self.process = subprocess.Popen(
            [sys.executable, "-c", _SERVER_CODE, str(self.port), str(self.data_dir), json.dumps(self.config)],
            stdout=log,
            stderr=subprocess.STDOUT,
        )
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"the server exited with {self.process.returncode}: {self.log()}")
            try:
                with urllib.request.urlopen(self.url + "/api/bots", timeout=1) as answer:
                    if answer.status == 200:
                        return
            except (urllib.error.URLError, OSError):
                time.sleep(0.1)
        raise RuntimeError(f"the server did not answer within 30 s: {self.log()}")

    def stop(self) -> None:
        if self.process is None:
            return
        self.process.terminate()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        self.process = None

    def restart(self) -> None:
        self.stop()
        self.start()

    def log(self) -> str:
        return self.log_path.read_text(errors="replace")[-3000:] if self.log_path.exists() else ""

    def get_json(self, path: str) -> Any:
        with urllib.request.urlopen(self.url + path, timeout=10) as answer:
            return json.loads(answer.read())


@pytest.fixture(scope="session")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    live = LiveServer(tmp_path_factory.mktemp("bummerl-web"))
    live.start()
    yield live
    live.stop()


@pytest.fixture()
def own_server(tmp_path: Path) -> Iterator[LiveServer]:
    """A server for one test that restarts it (the shared one stays up)."""
    live = LiveServer(tmp_path / "server")
    live.start()
    yield live
    live.stop()


@pytest.fixture(scope="session")
def browser() -> Iterator[Browser]:
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        # CI installs the browser extra: there a missing package is a broken setup, not a reason to skip.
        if os.environ.get("CI"):
            raise
        pytest.skip("browser tests need the playwright package: pip install -e '.[browser]'")

    with sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS, headless=True)
        yield chromium
        chromium.close()


class PageErrors:
    """JavaScript errors of a page: a test fails on any."""

    def __init__(self, page: Page) -> None:
        self.errors: list[str] = []
        page.on("pageerror", lambda exc: self.errors.append(str(exc)))
        page.on("console", lambda m: self.errors.append(m.text) if m.type == "error" else None)

    def check(self, expected: str | None = None) -> None:
        """Fail on any error, except those containing ``expected`` (e.g. refused connections while a
        test has stopped the server on purpose)."""
        errors = [e for e in self.errors if expected is None or expected not in e]
        assert not errors, f"JavaScript errors: {errors}"


if TYPE_CHECKING:
    #: The fixtures' types, for the test modules' annotations.
    NewContext = Callable[..., BrowserContext]
    Shot = Callable[[Page, str], Path]
    Errors = Callable[[Page], PageErrors]


@pytest.fixture()
def new_context(browser: Browser) -> Iterator[Callable[..., BrowserContext]]:
    """Make browser contexts (each with its own localStorage, i.e. another person); closed after the test."""
    made: list[BrowserContext] = []

    def make(width: int = 1280, height: int = 900, locale: str = "de-AT") -> BrowserContext:
        context = browser.new_context(viewport={"width": width, "height": height}, locale=locale)
        context.set_default_timeout(WAIT_MS)
        made.append(context)
        return context

    yield make
    for context in made:
        context.close()


@pytest.fixture()
def make(browser: Browser) -> Iterator[Callable[..., BrowserContext]]:
    """Browser contexts by kind: ``make("phone")`` (390x844, touch) or ``make("desktop")`` (1280x800), with a
    locale; every one closed after the test (``ui_helpers.contexts``)."""
    # Imported here: ui_helpers needs the web extra's websockets, and this conftest loads without it (the
    # browser tests then skip).
    from ui_helpers import contexts

    yield from contexts(browser)


@pytest.fixture()
def shot() -> Callable[[Page, str], Path]:
    """Save a full-page screenshot under SCREENSHOTS and return its path."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)

    def take(page: Page, name: str) -> Path:
        path = SCREENSHOTS / f"{name}.png"
        page.screenshot(path=str(path), full_page=True)
        return path

    return take


@pytest.fixture()
def page_errors() -> Callable[[Page], PageErrors]:
    return PageErrors
