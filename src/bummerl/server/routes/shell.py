"""The installable app's shell: ``GET /sw.js``, the service worker, with the list of files it caches and its version,
and ``GET /``, the page, never answered from a cache.

The service worker (``static/sw.js``) caches the files the page is made of, so that the app starts from the cache
and, opened without a connection, says so (``offline.html``) instead of failing. Which files those are, and which
version of them, only the server knows: it lists the shell files of the static folder (:func:`shell_files`) and
hashes their names and bytes (:func:`shell_version`), and sends ``sw.js`` with both in its first two lines. A deploy
that changes any shell file changes the hash, so ``sw.js`` changes byte for byte: the browser installs the new worker,
which fills a cache of the new name and deletes the old one. A package version would not do: it changes at a
release, not at every change of a file (a fix deployed from a branch, a development server), and a cache named by
it would keep serving the old files. Hashing the few hundred KiB of the shell takes a millisecond or two, so it is
done for each request of ``/sw.js`` (the browser asks at most once a navigation) and a file changed while the
server runs is seen at once.

The page itself (``index.html`` at ``/``) is sent with ``Cache-Control: no-cache``: the browser asks the server
each time, so that a page opened without a connection reaches the worker's offline page instead of an old copy from
the browser's HTTP cache, and a deploy's page is seen at once.

The shell is what the pages load: the offline page, the scripts, the style sheets, the translations
(``i18n/*.json``), the icons and the manifest. This module must never list anything else: never an API answer,
never a WebSocket (the worker leaves every other request alone, docs/security.md), and no card: cards are drawn by
``cards.js`` from the state the table sends.

>>> from fastapi.testclient import TestClient
>>> from bummerl.server.app import create_app
>>> from bummerl.server.config import ServerConfig
>>> with TestClient(create_app("sqlite://", config=ServerConfig(bot_executor="thread"))) as client:
...     worker = client.get("/sw.js")
>>> worker.headers["content-type"], worker.headers["cache-control"]
('text/javascript; charset=utf-8', 'no-cache')
>>> worker.text.startswith('const SHELL_VERSION = "')
True
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

from fastapi import APIRouter, Response
from fastapi.responses import FileResponse

from bummerl.server.routes.deps import PartsDep

__all__ = ["SHELL_SUFFIXES", "router", "service_worker", "shell_files", "shell_version"]

router = APIRouter()

#: The kinds of file a page loads; anything else in the static folder (a note, a source file) is not shell.
SHELL_SUFFIXES = frozenset({".html", ".js", ".css", ".json", ".svg", ".png", ".webmanifest"})
#: The worker itself is never in its own cache: the browser fetches it for every update check.
WORKER = "sw.js"
#: The page itself: asked of the server every time, so never in the cache.
PAGE = "index.html"


def shell_files(static: Path) -> list[str]:
    """The shell's addresses (``/style.css``, ``/i18n/de.json``), sorted. Not ``index.html``: a page is always
    asked of the server (the worker answers ``offline.html`` in its place when there is none), never of the cache.

    >>> from bummerl.server.config import STATIC_DIR
    >>> files = shell_files(STATIC_DIR)
    >>> "/offline.html" in files and "/i18n/de.json" in files and "/app.js" in files
    True
    >>> "/index.html" in files or "/sw.js" in files
    False
    """
    found: list[str] = []
    for path in sorted(static.rglob("*")):
        relative = path.relative_to(static).as_posix()
        if not path.is_file() or path.suffix not in SHELL_SUFFIXES or relative in (WORKER, PAGE):
            continue
        if any(part.startswith(".") for part in path.relative_to(static).parts):
            continue  # an editor's or a tool's hidden file
        found.append(f"/{relative}")
    return found


def shell_version(static: Path, files: list[str] | None = None) -> str:
    """A hash of the shell's names and bytes (16 hex digits): it changes when any shell file does."""
    digest = hashlib.sha256()
    for address in files if files is not None else shell_files(static):
        relative = address.removeprefix("/")
        digest.update(relative.encode() + b"\0")
        digest.update((static / relative).read_bytes() + b"\0")
    return digest.hexdigest()[:16]


def service_worker(static: Path) -> str:
    """``static/sw.js`` with a first line that names the shell's version and files (the worker's constants)."""
    files = shell_files(static)
    head = f"const SHELL_VERSION = {json.dumps(shell_version(static, files))};\n"
    head += f"const SHELL_FILES = {json.dumps(files)};\n"
    return head + (static / WORKER).read_text(encoding="utf-8")


@router.get("/sw.js", include_in_schema=False)
def worker_script(p: PartsDep) -> Response:
    # A plain function (FastAPI runs it in a thread): it reads and hashes files. "no-cache": the browser asks for
    # the worker again at every update check instead of trusting a copy in its HTTP cache.
    if not (p.config.static_dir / WORKER).is_file():  # a front end of its own without a worker (tests, embedders)
        return Response(status_code=404)
    return Response(
        service_worker(p.config.static_dir),
        media_type="text/javascript",
        headers={"Cache-Control": "no-cache"},
    )


@router.get("/", include_in_schema=False)
def page(p: PartsDep) -> Response:
    # Marked to be asked for every time (it is about 1 KiB): without it the browser may keep the page for hours by
    # its heuristics (from Last-Modified) and never ask, and an offline visit would find that copy.
    index = p.config.static_dir / PAGE
    if not index.is_file():
        return Response(status_code=404)
    return FileResponse(index, media_type="text/html", headers={"Cache-Control": "no-cache"})
