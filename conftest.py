"""Test collection with missing extras: what needs an extra that is not installed is skipped, with the reason.

``./run.sh test`` installs every extra and so runs everything.  A narrower
install (``pip install -e '.[dev]'``: the engine, the bots, the CLI) still
collects: each test module of the web app, the browser, PostgreSQL, the RL
frameworks or Ray starts with ``pytest.importorskip(..., reason="needs the '<extra>'
extra: ...")`` and is reported as skipped for that reason, and the doctests of
the modules in :data:`EXTRAS` (which cannot even be imported) are left out, as the
summary says.  Under ``CI`` a skip for a missing extra is a failure: CI must
run everything.
"""

from __future__ import annotations

import dataclasses
import importlib.util
import os
from collections.abc import Callable, Generator, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

if TYPE_CHECKING:
    from live_server import ThreadServer

ROOT = Path(__file__).resolve().parent
PACKAGE = ROOT / "src" / "bummerl"
#: Source paths whose modules need an extra to be imported at all (their doctests are left out without it):
#: path -> (extra, the modules that extra installs).
WEB = ("fastapi", "uvicorn", "sqlalchemy", "alembic", "limits", "websockets", "platformdirs")
EXTRAS: dict[Path, tuple[str, tuple[str, ...]]] = {
    PACKAGE / "server": ("web", WEB),
    PACKAGE / "rl" / "openspiel.py": ("openspiel", ("pyspiel", "numpy")),
    PACKAGE / "rl" / "openspiel_bots.py": ("openspiel", ("pyspiel", "numpy")),
    PACKAGE / "rl" / "pettingzoo.py": ("pettingzoo", ("pettingzoo", "gymnasium", "numpy")),
    PACKAGE / "rl" / "gym.py": ("pettingzoo", ("pettingzoo", "gymnasium", "numpy")),
    PACKAGE / "rl" / "vector.py": ("pettingzoo", ("gymnasium", "numpy")),
    PACKAGE / "arena" / "ray_backend.py": ("ray", ("ray",)),
}

_left_out: list[str] = []


def _missing(modules: tuple[str, ...]) -> str | None:
    return next((m for m in modules if importlib.util.find_spec(m) is None), None)


def pytest_ignore_collect(collection_path: Path, config: pytest.Config) -> bool | None:
    if os.environ.get("CI"):
        return None
    for path, (extra, modules) in EXTRAS.items():
        if collection_path == path or collection_path.is_relative_to(path):
            missing = _missing(modules)
            if missing is None:
                return None
            _left_out.append(f"{collection_path.relative_to(ROOT)} needs the '{extra}' extra ({missing} is missing)")
            return True
    return None


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The browser tests run last.

    Their Playwright is session-scoped (one Chromium for every browser test), and Playwright's sync API keeps an
    event loop running in the main thread until the session ends: every ``asyncio.run`` after the first browser
    test would fail with "cannot be called from a running event loop" (doctests and tests of the server's
    asyncio parts).  A stable sort keeps every other order as collected.
    """
    browser = ROOT / "tests" / "browser"
    items.sort(key=lambda item: item.path.is_relative_to(browser))


@pytest.hookimpl(wrapper=True)
def pytest_make_collect_report(collector: pytest.Collector) -> Generator[None, Any, Any]:
    report = yield
    if os.environ.get("CI") and report.skipped and "extra:" in str(report.longrepr):
        # CI installs every extra: a module skipped for a missing one is a broken set-up.
        report.outcome = "failed"
    return report


def pytest_terminal_summary(terminalreporter: Any) -> None:
    if _left_out:
        terminalreporter.write_line(f"doctests left out: {_left_out[0]} (and {len(_left_out) - 1} more modules)")


@pytest.fixture
def serve(tmp_path: Path) -> Iterator[Callable[..., ThreadServer]]:
    """Start a real server (``tests/live_server.py``: uvicorn on 127.0.0.1, in a thread) with ``FAST`` changed
    by the keyword arguments; every server started is stopped after the test.  Imported when a test asks for
    it: the web app needs its extra."""
    from live_server import FAST, ThreadServer

    started: list[ThreadServer] = []

    def start(**changes: Any) -> ThreadServer:
        server = ThreadServer(tmp_path / f"server{len(started)}", dataclasses.replace(FAST, **changes))
        started.append(server.start())
        return server

    yield start
    for server in started:
        server.stop()
