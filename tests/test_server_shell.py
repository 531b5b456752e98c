"""The installable app (issue 24): the service worker ``/sw.js`` with its shell's files and version, the web
manifest and its icons, the offline page, and the Content Security Policy that lets exactly these in.

The browser side (the worker installed, the page offline, dark mode) is ``tests/browser/test_app_shell_ui.py``.
"""

from __future__ import annotations

import json
import re
import shutil
import struct
from collections.abc import Iterator
from pathlib import Path

import pytest

pytest.importorskip("fastapi", reason="needs the 'web' extra: pip install -e '.[web]'")

from fastapi.testclient import TestClient

from bummerl.server.app import create_app
from bummerl.server.config import STATIC_DIR, ServerConfig
from bummerl.server.routes.shell import service_worker, shell_files, shell_version
from bummerl.server.security import CONTENT_SECURITY_POLICY

I18N = ("de", "en")


@pytest.fixture()
def client(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(create_app(data_dir=tmp_path, config=ServerConfig(bot_executor="thread"))) as c:
        yield c


def worker_constants(text: str) -> tuple[str, list[str]]:
    """SHELL_VERSION and SHELL_FILES from the first two lines of a served worker."""
    first, second = text.splitlines()[:2]
    version = re.fullmatch(r'const SHELL_VERSION = "([0-9a-f]{16})";', first)
    files = re.fullmatch(r"const SHELL_FILES = (\[.*\]);", second)
    assert version and files, (first, second)
    return version.group(1), json.loads(files.group(1))


def test_the_worker_is_served_fresh_as_javascript_with_its_shell(client: TestClient) -> None:
    answer = client.get("/sw.js")
    assert answer.status_code == 200
    assert answer.headers["content-type"] == "text/javascript; charset=utf-8"
    assert answer.headers["cache-control"] == "no-cache"  # every update check reaches the server
    version, files = worker_constants(answer.text)
    assert version == shell_version(STATIC_DIR)
    assert files == shell_files(STATIC_DIR)
    # What the pages load: the scripts and style sheets of index.html, the translations, the icons, the offline page.
    page = (STATIC_DIR / "index.html").read_text(encoding="utf-8")
    for loaded in re.findall(r'(?:href|src)="([^"#:]+)"', page):
        assert f"/{loaded}" in files, loaded
    for name in ("/app.js", "/cards.js", "/i18n/de.json", "/i18n/en.json", "/offline.html", "/offline.js"):
        assert name in files
    # Never the page itself (always asked of the server), never the worker, nothing that is not a file of the shell.
    assert "/index.html" not in files and "/" not in files and "/sw.js" not in files
    assert all(not f.startswith(("/api/", "/ws/")) for f in files)
    for name in files:
        assert client.get(name).status_code == 200, name


def test_the_page_links_every_style_sheet_in_its_head_and_no_script_adds_one() -> None:
    """Every style sheet is in index.html's <head>, so a page is styled at its first paint (a sheet a script links
    on the way shows the page unstyled for a moment) and the offline worker's shell names what the page uses."""
    page = (STATIC_DIR / "index.html").read_text(encoding="utf-8")
    head = page.split("</head>", 1)[0]
    linked = set(re.findall(r'<link rel="stylesheet" href="([^"]+)"', head))
    assert linked == {p.name for p in STATIC_DIR.glob("*.css")}
    for script in STATIC_DIR.glob("*.js"):
        assert 'rel: "stylesheet"' not in script.read_text(encoding="utf-8"), script.name


def test_the_worker_leaves_the_api_and_anything_with_a_query_alone() -> None:
    source = (STATIC_DIR / "sw.js").read_text(encoding="utf-8")
    # It answers a navigation (network first) and a shell file without a query (cache first), nothing else...
    assert 'request.method !== "GET"' in source and "url.origin !== self.location.origin" in source
    assert "!url.search && SHELL.has(url.pathname)" in source
    # ... and it never writes a response into a cache: only install's addAll of SHELL_FILES fills it.
    assert "cache.put" not in source and source.count("addAll(") == 1


def test_a_changed_shell_file_changes_the_worker_and_its_cache_name(tmp_path: Path) -> None:
    static = tmp_path / "static"
    shutil.copytree(STATIC_DIR, static)
    before = service_worker(static)
    assert service_worker(static) == before  # the same files, the same worker: no reinstall
    with (static / "style.css").open("a", encoding="utf-8") as css:
        css.write("\n/* a deploy */\n")
    after = service_worker(static)
    assert worker_constants(after)[0] != worker_constants(before)[0]
    (static / "new-part.js").write_text("export const x = 1;\n", encoding="utf-8")
    assert "/new-part.js" in worker_constants(service_worker(static))[1]
    (static / "notes.txt").write_text("not a shell file", encoding="utf-8")
    assert "/notes.txt" not in shell_files(static)


def test_a_front_end_without_a_worker_has_no_sw_js(tmp_path: Path) -> None:
    static = tmp_path / "static"
    static.mkdir()
    (static / "index.html").write_text("<!doctype html><title>x</title>", encoding="utf-8")
    config = ServerConfig(bot_executor="thread", static_dir=static)
    with TestClient(create_app(data_dir=tmp_path, config=config)) as client:
        assert client.get("/sw.js").status_code == 404


def png_size(data: bytes) -> tuple[int, int]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and data[12:16] == b"IHDR"
    width, height = struct.unpack(">II", data[16:24])
    return width, height


def test_the_manifest_makes_the_app_installable(client: TestClient) -> None:
    answer = client.get("/manifest.webmanifest")
    assert answer.status_code == 200
    assert answer.headers["content-type"].startswith("application/manifest+json")
    manifest = answer.json()
    assert manifest["name"] and manifest["short_name"] == "Bummerl"
    assert manifest["start_url"] == "/" and manifest["scope"] == "/" and manifest["display"] == "standalone"
    assert re.fullmatch(r"#[0-9a-f]{6}", manifest["theme_color"])
    assert re.fullmatch(r"#[0-9a-f]{6}", manifest["background_color"])
    # Chromium installs with a 192 and a 512 px PNG; a maskable one fills a launcher's round or square mask.
    pngs = {}
    for icon in manifest["icons"]:
        got = client.get(icon["src"])
        assert got.status_code == 200, icon
        if icon["type"] == "image/png":
            width, height = png_size(got.content)
            assert icon["sizes"] == f"{width}x{height}", icon
            pngs[(width, icon["purpose"])] = icon
    assert {(192, "any"), (512, "any"), (192, "maskable"), (512, "maskable")} <= set(pngs)
    answer = client.get("/")
    # The page itself is asked of the server every time: offline, the worker's offline page answers, not an old copy.
    assert answer.headers["cache-control"] == "no-cache" and answer.headers["content-type"].startswith("text/html")
    page = answer.text
    assert '<link rel="manifest" href="manifest.webmanifest" />' in page
    assert f'<meta name="theme-color" content="{manifest["theme_color"]}" />' in page


def test_the_csp_lets_in_this_servers_worker_and_manifest_and_nothing_more(client: TestClient) -> None:
    policy = dict(part.strip().split(" ", 1) for part in CONTENT_SECURITY_POLICY.split(";"))
    assert policy["worker-src"] == "'self'" and policy["manifest-src"] == "'self'"
    assert policy["script-src"] == "'self'" and policy["style-src"] == "'self'"
    assert "unsafe" not in CONTENT_SECURITY_POLICY and "blob:" not in CONTENT_SECURITY_POLICY
    for path in ("/", "/sw.js", "/manifest.webmanifest", "/offline.html"):
        assert client.get(path).headers["content-security-policy"] == CONTENT_SECURITY_POLICY, path


def test_the_theme_is_applied_before_the_style_sheets_and_the_app() -> None:
    """theme.js is a classic script in the <head> before any style sheet or module: the page is dark (or light)
    from its first paint. The offline page loads it too."""
    for name in ("index.html", "offline.html"):
        head = (STATIC_DIR / name).read_text(encoding="utf-8").split("</head>")[0]
        theme = head.index('theme.js"></script>')
        assert theme < head.index('rel="stylesheet"') and theme < head.index('type="module"'), name
        assert '<meta name="color-scheme" content="light dark" />' in head


def test_the_offline_page_speaks_both_languages() -> None:
    page = (STATIC_DIR / "offline.html").read_text(encoding="utf-8")
    assert "Keine Verbindung" in page  # before its script runs
    for lang in I18N:
        messages = json.loads((STATIC_DIR / "i18n" / f"{lang}.json").read_text(encoding="utf-8"))
        assert {"offline_title", "offline_text", "offline_retry"} <= set(messages)
    english = json.loads((STATIC_DIR / "i18n" / "en.json").read_text(encoding="utf-8"))
    assert english["offline_title"].startswith("You are offline")
