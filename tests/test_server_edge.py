"""The server's connection edge under attack (issue #10, docs/security.md): each test is one attack on a real server.

The server is ``create_app`` under uvicorn with the settings of ``bummerl serve``
(:func:`bummerl.server.edge.uvicorn_config`) on 127.0.0.1 and a free port, in a
thread of the test process, with timeouts of a fraction of a second; the access
log and the bot workers are checked on ``bummerl serve`` itself in a subprocess.
The attacker is a raw socket or the ``websockets`` client, never a test client
that would skip uvicorn.
"""

from __future__ import annotations

import pytest

pytest.importorskip("fastapi", reason="needs the 'web' extra: pip install -e '.[web]'")

import contextlib
import json
import os
import re
import select
import signal
import socket
import subprocess
import sys
import time
import unicodedata
from collections.abc import Callable
from pathlib import Path
from typing import Any

from hypothesis import given
from hypothesis import strategies as st
from websockets.exceptions import ConnectionClosed, InvalidStatus
from websockets.sync.client import ClientConnection
from websockets.sync.client import connect as ws_connect

from bummerl.server.config import STATIC_DIR, ServerConfig
from bummerl.server.edge import uvicorn_config
from bummerl.server.messages import MAX_NAME_CHARS, player_name
from bummerl.server.security import CONTENT_SECURITY_POLICY
from live_server import (
    ThreadServer,
    body_json,
    free_port,
    header,
    http,
    status,
)

#: The process table and open files, read from /proc (Linux).
needs_proc = pytest.mark.skipif(not Path("/proc/self/fd").is_dir(), reason="reads /proc (Linux)")


def create_table(server: ThreadServer, **body: Any) -> dict[str, Any]:
    answer = http(server.port, "POST", "/api/tables", {"opponent": "random", **body})
    assert status(answer) == 201, answer
    table: dict[str, Any] = body_json(answer)
    return table


def closed_within(sock: socket.socket, seconds: float, drip: bytes = b"", every: float = 0.1) -> tuple[bytes, float]:
    """Read ``sock`` until the server closes it, sending ``drip`` every ``every`` seconds meanwhile.

    Returns what came and when the connection ended; fails if it is still open after ``seconds``.
    """
    start = time.monotonic()
    got = b""
    with contextlib.suppress(ConnectionResetError, BrokenPipeError):
        while time.monotonic() - start < seconds:
            if drip:
                sock.sendall(drip)
            readable, _, _ = select.select([sock], [], [], every)
            if readable:
                chunk = sock.recv(65536)
                if not chunk:
                    return got, time.monotonic() - start
                got += chunk
        raise AssertionError(f"the server kept the connection open for {seconds} s (got {got[:80]!r})")
    return got, time.monotonic() - start


def close_of(ws: ClientConnection, within: float) -> tuple[int, str]:
    """Receive until the server closes the WebSocket; its close code and reason."""
    deadline = time.monotonic() + within
    try:
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise AssertionError(f"the WebSocket was still open after {within} s")
            with contextlib.suppress(TimeoutError):
                ws.recv(timeout=left)
    except ConnectionClosed as closed:
        assert closed.rcvd is not None, "closed without a close frame"
        return closed.rcvd.code, closed.rcvd.reason


def hello(ws: ClientConnection, token: str | None = None) -> None:
    ws.send(json.dumps({"type": "hello", "token": token}))
    assert json.loads(ws.recv(timeout=3))["type"] == "welcome"


# ------------------------------------------------------ 1. hello and idle sockets
def test_a_websocket_that_sends_no_valid_hello_is_closed(serve: Callable[..., ThreadServer]) -> None:
    server = serve()
    table = create_table(server)
    path = f"/ws/tables/{table['table_id']}"
    with server.ws(path) as silent, server.ws(path) as pinging, server.ws(path) as guessing:
        start = time.monotonic()
        pinging.send('{"type": "ping"}')  # a ping is no hello: the deadline stands
        guessing.send('{"type": "hello", "token": "guess"}')  # a hello with a wrong token neither
        for ws in (silent, pinging, guessing):
            code, reason = close_of(ws, within=5)
            assert (code, reason) == (4408, "no valid hello within 0.5 s")
        assert 0.4 < time.monotonic() - start < 3


def test_an_idle_websocket_is_closed_and_pings_keep_one_open(serve: Callable[..., ThreadServer]) -> None:
    server = serve()
    path = f"/ws/tables/{create_table(server)['table_id']}"
    with (
        server.ws(path) as silent,
        server.ws(path) as app_pings,
        server.ws(path, ping_interval=0.25, ping_timeout=1) as protocol_pings,
    ):
        for ws in (silent, app_pings, protocol_pings):
            hello(ws)
        start = time.monotonic()
        while time.monotonic() - start < 2.2:  # over twice the idle timeout
            app_pings.send('{"type": "ping"}')
            time.sleep(0.3)
        code, reason = close_of(silent, within=1)
        assert (code, reason) == (4408, "no message for 1 s")
        for ws in (app_pings, protocol_pings):
            ws.send('{"type": "ping"}')
            while json.loads(ws.recv(timeout=2))["type"] != "pong":
                pass


def test_a_client_that_never_answers_websocket_pings_is_dropped(serve: Callable[..., ThreadServer]) -> None:
    """A dead peer (a phone gone offline) answers no ping: uvicorn's keepalive closes the socket (1011)."""
    server = serve(ws_ping_interval=0.2, ws_ping_timeout=0.3, idle_timeout=30)
    path = f"/ws/tables/{create_table(server)['table_id']}"
    with socket.create_connection(("127.0.0.1", server.port), timeout=3) as raw:
        key = "dGhlIHNhbXBsZSBub25jZQ=="
        raw.sendall(
            f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n".encode()
        )
        handshake = raw.recv(65536)  # a client speaks only after the 101 (uvicorn drops bytes sent with the head)
        assert handshake.startswith(b"HTTP/1.1 101")
        raw.sendall(masked_text_frame('{"type": "hello"}'))
        got, seconds = closed_within(raw, 5)
    assert b"\x88" in got and b"keepalive ping timeout" in got  # the close frame
    assert seconds < 2.5


def masked_text_frame(text: str) -> bytes:
    payload = text.encode()
    mask = os.urandom(4)
    assert len(payload) < 126
    return bytes([0x81, 0x80 | len(payload)]) + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload))


def test_the_front_end_pings_well_within_the_idle_timeout() -> None:
    api_js = (STATIC_DIR / "api.js").read_text()
    ping_ms = int(re.search(r"const PING_MS = (\d+);", api_js).group(1))  # type: ignore[union-attr]
    assert 'setInterval(() => this.send({ type: "ping" }), PING_MS)' in api_js
    # Chrome runs a hidden tab's timers once a minute at worst: even then a ping comes in time.
    assert ping_ms / 1000 + 60 < ServerConfig().idle_timeout


def test_serve_sets_uvicorn_s_websocket_pings_keep_alive_and_frame_size() -> None:
    config = uvicorn_config(object(), ServerConfig(), host="127.0.0.1", port=1, log_config=None)
    assert (config.ws_ping_interval, config.ws_ping_timeout, config.timeout_keep_alive) == (20.0, 20.0, 5)
    assert config.ws_max_size == 16 * 1024
    assert config.limit_concurrency is None  # the transport caps refuse earlier (docs/security.md)
    assert config.ws_per_message_deflate is False


def test_a_websocket_that_asks_for_compression_gets_plain_frames(serve: Callable[..., ThreadServer]) -> None:
    """A browser asks for ``permessage-deflate``; the server leaves it out (zlib on every frame cost the server
    a sixth of its actions per CPU second flat out: bench/web_load.py, docs/web.md "Many people at once")."""
    server = serve()
    table = create_table(server)
    with server.ws(table["ws_url"], compression="deflate") as ws:
        assert ws.response is not None
        assert "Sec-WebSocket-Extensions" not in ws.response.headers
        ws.send(json.dumps({"type": "hello", "token": table["token"]}))
        assert json.loads(ws.recv(timeout=3))["type"] == "welcome"


# -------------------------------------------------- 2. slow-loris and connection caps
def test_a_request_head_sent_slowly_is_cut_off(serve: Callable[..., ThreadServer]) -> None:
    server = serve()
    with socket.create_connection(("127.0.0.1", server.port), timeout=3) as s:
        s.sendall(b"GET /api/bots HTTP/1.1\r\nHost: 127.0.0.1\r\n")
        got, seconds = closed_within(s, 5, drip=b"X-Slow: 1\r\n")  # one header line every 0.1 s, forever
    assert got.startswith(b"HTTP/1.1 408 ") and 0.4 < seconds < 2.5


def test_a_request_body_sent_slowly_is_answered_408(serve: Callable[..., ThreadServer]) -> None:
    """Issue 24's security review: the head came whole, the body a byte at a time; the cut came without the 408."""
    server = serve()
    with socket.create_connection(("127.0.0.1", server.port), timeout=3) as s:
        s.sendall(
            b"POST /api/tables HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
            b"Content-Length: 2000\r\n\r\n{"
        )
        got, seconds = closed_within(s, 5, drip=b" ")  # one byte of the body every 0.1 s, forever
    assert got.startswith(b"HTTP/1.1 408 ") and b"connection: close" in got.lower()
    assert got.count(b"HTTP/1.1 ") == 1  # the app wrote nothing after it
    assert 0.4 < seconds < 2.5


def test_a_connection_that_sends_nothing_is_closed(serve: Callable[..., ThreadServer]) -> None:
    server = serve()
    with socket.create_connection(("127.0.0.1", server.port), timeout=3) as s:
        got, seconds = closed_within(s, 5)
    assert got.startswith(b"HTTP/1.1 408 ") and 0.4 < seconds < 2.5


def test_an_idle_keep_alive_connection_is_closed(serve: Callable[..., ThreadServer]) -> None:
    server = serve(request_timeout=30)
    with socket.create_connection(("127.0.0.1", server.port), timeout=3) as s:
        s.sendall(b"GET /api/bots HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        got, seconds = closed_within(s, 5)
    assert got.startswith(b"HTTP/1.1 200 ") and 0.9 < seconds < 3  # keep_alive_timeout=1


def test_bytes_between_requests_do_not_keep_a_connection_open(serve: Callable[..., ThreadServer]) -> None:
    """Each byte stops uvicorn's keep-alive timer; the request deadline starts instead."""
    server = serve(keep_alive_timeout=30)
    with socket.create_connection(("127.0.0.1", server.port), timeout=3) as s:
        s.sendall(b"GET /api/bots HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        assert s.recv(65536).startswith(b"HTTP/1.1 200 ")
        _, seconds = closed_within(s, 5, drip=b"\r\n")
    assert seconds < 2.5


def test_connections_of_one_client_are_capped_websockets_included(serve: Callable[..., ThreadServer]) -> None:
    server = serve(max_connections_per_client=3, request_timeout=10, hello_timeout=10, idle_timeout=30)
    path = f"/ws/tables/{create_table(server)['table_id']}"
    with contextlib.ExitStack() as stack:
        ws = stack.enter_context(server.ws(path))
        hello(ws)
        idle = [stack.enter_context(socket.create_connection(("127.0.0.1", server.port))) for _ in range(2)]
        with socket.create_connection(("127.0.0.1", server.port), timeout=3) as fourth:
            got, _ = closed_within(fourth, 2)
        assert got.startswith(b"HTTP/1.1 503 ")
        # A WebSocket handshake over the cap: a 503, or closed before the request.  (A raw socket: the
        # websockets client, refused at the wrong moment, could trip over its own assertion on the broken pipe.)
        with socket.create_connection(("127.0.0.1", server.port), timeout=3) as upgrade:
            with contextlib.suppress(BrokenPipeError, ConnectionResetError):
                upgrade.sendall(
                    f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{server.port}\r\nUpgrade: websocket\r\n"
                    "Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
                    "Sec-WebSocket-Version: 13\r\n\r\n".encode()
                )
            got, _ = closed_within(upgrade, 2)
        assert got == b"" or got.startswith(b"HTTP/1.1 503 "), got[:80]
        ws.close()  # a WebSocket gives its slot back when it closes
        wait_for(lambda: server.open_connections == 2, "the WebSocket's slot to be free")
        assert status(http(server.port, "GET", "/api/bots")) == 200
        for s in idle:
            s.close()
    wait_for(lambda: server.open_connections == 0, "every slot to be free")


@needs_proc
def test_idle_sockets_cannot_use_up_the_file_descriptors(serve: Callable[..., ThreadServer]) -> None:
    server = serve(max_connections_per_client=0, max_connections=10, request_timeout=10)
    before = len(os.listdir("/proc/self/fd"))
    with contextlib.ExitStack() as stack:
        clients = [stack.enter_context(socket.create_connection(("127.0.0.1", server.port))) for _ in range(60)]
        time.sleep(0.3)
        # Client and server ends of a connection live in this process: 60 client sockets, at most 10 accepted.
        assert len(os.listdir("/proc/self/fd")) <= before + len(clients) + 10 + 2
        assert server.open_connections == 10
        with socket.create_connection(("127.0.0.1", server.port), timeout=3) as extra:
            got, _ = closed_within(extra, 2)  # (a client that sent its request may see a reset instead)
        assert got.startswith(b"HTTP/1.1 503 ")
    wait_for(lambda: server.open_connections == 0, "the slots to be free")
    assert status(http(server.port, "GET", "/api/bots")) == 200


def test_the_connection_cap_is_lowered_to_fit_the_file_limit() -> None:
    code = (
        "import resource; resource.setrlimit(resource.RLIMIT_NOFILE, (300, 300));"
        "from bummerl.server.edge import fit_file_limit, FD_RESERVE;"
        "print(fit_file_limit(1000), fit_file_limit(20), 300 - FD_RESERVE)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.split()
    assert out[0] == out[2] and out[1] == "20"


def wait_for(condition: Callable[[], bool], what: str, seconds: float = 3) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        time.sleep(0.02)


# ------------------------------------------------------------ 3. the Origin check
def test_a_websocket_from_another_site_is_refused(serve: Callable[..., ThreadServer]) -> None:
    server = serve()
    path = f"/ws/tables/{create_table(server)['table_id']}"
    with pytest.raises(InvalidStatus) as refused:
        server.ws(path, origin="https://evil.example")
    assert refused.value.response.status_code == 403
    for origin in (f"http://127.0.0.1:{server.port}", None):  # the page's own origin; not a browser
        with server.ws(path, origin=origin) as ws:
            hello(ws)


def test_with_a_public_url_only_its_origin_and_the_allowed_ones_may_connect(
    serve: Callable[..., ThreadServer],
) -> None:
    server = serve(public_url="https://bummerl.example", allowed_origins=("https://friends.example",))
    path = f"/ws/tables/{create_table(server)['table_id']}"
    for origin in ("https://bummerl.example", "https://friends.example"):
        with server.ws(path, origin=origin) as ws:
            hello(ws)
    # The Host header is no longer the measure (DNS rebinding: a page of evil.example on our address).
    with pytest.raises(InvalidStatus):
        server.ws(path, origin=f"http://127.0.0.1:{server.port}")


# ------------------------------------------------------------ 4. the public URL
def test_a_forged_host_header_never_comes_back(serve: Callable[..., ThreadServer]) -> None:
    server = serve()
    forged = {"Host": "evil.example"}
    created = http(server.port, "POST", "/api/tables", {"opponent": "friend"}, forged)
    table = body_json(created)
    assert table["invite_url"] == f"/#/join/{table['join_code']}"
    bearer = {**forged, "Authorization": f"Bearer {table['token']}"}
    answers = [
        created,
        http(server.port, "GET", f"/api/tables/{table['table_id']}/invite", headers=bearer),
        http(
            server.port,
            "POST",
            "/api/tables",
            {"variant": "bauernschnapsen", "seats": ["friend", "random", "random"]},
            forged,
        ),
        http(server.port, "GET", "/api/tables/", headers=forged),  # a slash redirect
        http(server.port, "GET", "/", headers=forged),
        http(server.port, "GET", "/no/such/page", headers=forged),
    ]
    assert status(answers[2]) == 201 and status(answers[3]) in (307, 404)
    for answer in answers:
        assert b"evil.example" not in answer, answer[:300]

    public = serve(public_url="https://bummerl.example")
    table = body_json(http(public.port, "POST", "/api/tables", {"opponent": "friend"}, forged))
    assert table["invite_url"] == f"https://bummerl.example/#/join/{table['join_code']}"


# ------------------------------------------------- 5. join codes out of the access log
class BummerlServe:
    """``bummerl serve`` in a subprocess, its output in a file."""

    def __init__(self, data_dir: Path, *flags: str) -> None:
        self.port = free_port()
        data_dir.mkdir(parents=True, exist_ok=True)
        self.log_path = data_dir / "serve.log"
        args = ["serve", "--port", str(self.port), "--data-dir", str(data_dir), *flags]
        with self.log_path.open("wb") as log:
            self.process = subprocess.Popen([sys.executable, "-m", "bummerl", *args], stdout=log, stderr=log)
        deadline = time.monotonic() + 30
        while True:
            assert self.process.poll() is None, self.log()
            assert time.monotonic() < deadline, f"bummerl serve did not answer: {self.log()}"
            with contextlib.suppress(OSError):
                if status(http(self.port, "GET", "/api/bots")) == 200:
                    return
            time.sleep(0.1)

    def log(self) -> str:
        return self.log_path.read_text(errors="replace")

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()


def test_join_codes_and_tokens_stay_out_of_the_access_log(tmp_path: Path) -> None:
    serve = BummerlServe(tmp_path, "--log-level", "info", "--bot-workers", "1")
    try:
        table = body_json(http(serve.port, "POST", "/api/tables", {"opponent": "friend"}))
        code = table["join_code"]
        assert status(http(serve.port, "GET", f"/?join={code}")) == 200  # an invitation link of the old form
        assert status(http(serve.port, "GET", f"/api/tables?token={table['token']}&x=1")) == 200
        assert status(http(serve.port, "POST", "/api/join", {"code": code, "name": "Bert"})) == 200
        with ws_connect(
            f"ws://127.0.0.1:{serve.port}/ws/tables/{table['table_id']}?token={table['token']}", proxy=None
        ) as ws:
            hello(ws)
    finally:
        serve.stop()
    log = serve.log()
    assert '"GET /?join=[redacted] HTTP/1.1" 200' in log, log  # the access log was on
    assert "token=[redacted]&x=1" in log
    assert code not in log and table["token"] not in log


# ----------------------------------------------------------- 6. security headers
def test_every_answer_carries_the_security_headers(serve: Callable[..., ThreadServer]) -> None:
    server = serve()
    answers = {
        "/": http(server.port, "GET", "/"),
        "/app.js": http(server.port, "GET", "/app.js"),
        "/api/bots": http(server.port, "GET", "/api/bots"),
        "/api/nope": http(server.port, "GET", "/api/nope"),
        "/api/tables (422)": http(server.port, "POST", "/api/tables", {"seed": -1}),
    }
    assert [status(a) for a in answers.values()] == [200, 200, 200, 404, 422]
    for where, answer in answers.items():
        assert header(answer, "Content-Security-Policy") == CONTENT_SECURITY_POLICY, where
        assert header(answer, "X-Frame-Options") == "DENY", where
        assert header(answer, "X-Content-Type-Options") == "nosniff", where
        assert header(answer, "Referrer-Policy") == "no-referrer", where
        assert header(answer, "Cross-Origin-Opener-Policy") == "same-origin", where
        assert (header(answer, "Cache-Control") == "no-store") == where.startswith("/api/"), where


def test_the_front_end_needs_no_inline_script_or_style() -> None:
    """What the policy forbids is not in the page: inline scripts, style attributes or elements, eval."""
    # The pages' scripts are files: theme.js (a classic script: the theme before the first paint) and the modules.
    scripts = {
        "index.html": ['<script src="theme.js"></script>', '<script type="module" src="app.js"></script>'],
        "offline.html": ['<script src="/theme.js"></script>', '<script type="module" src="/offline.js"></script>'],
    }
    for name, expected in scripts.items():
        assert re.findall(r"<script[^>]*>.*?</script>", (STATIC_DIR / name).read_text(), re.S) == expected, name
    # A style attribute, not a data-style= one (quickmatch.js marks its style sheet's <link> with it).
    forbidden = (r"(?<![-\w])style=", "<style", r"\.style\.", r"eval\(", "new Function", "<script")
    for path in STATIC_DIR.glob("*.[jh]*"):
        text = path.read_text()
        for pattern in forbidden:
            allowed = path.name in scripts and pattern == "<script"  # the script files above
            assert allowed or not re.search(pattern, text), (path.name, pattern)


def test_the_translations_are_served_as_json_modules(serve: Callable[..., ThreadServer]) -> None:
    """i18n.js imports i18n/de.json and i18n/en.json as JSON modules; a browser refuses one whose type is not JSON
    (and nosniff forbids guessing), so the page would show no word. pyproject.toml ships the folder in the wheel."""
    server = serve()
    for lang in ("de", "en"):
        answer = http(server.port, "GET", f"/i18n/{lang}.json")
        assert status(answer) == 200
        assert header(answer, "Content-Type") == "application/json"
        assert body_json(answer)["language"] == ("Sprache" if lang == "de" else "Language")
    pyproject = (STATIC_DIR.parents[3] / "pyproject.toml").read_text(encoding="utf-8")
    assert '"server/static/i18n/*.json"' in pyproject


# ------------------------------------------------------------- 7. player names
#: What a name must never contain (the issue's list, written out independently of the code).
HIDDEN = {0x061C, 0x200E, 0x200F, *range(0x202A, 0x202F), *range(0x2066, 0x206A), 0x2028, 0x2029}


def hidden(char: str) -> bool:
    return ord(char) in HIDDEN or unicodedata.category(char) in ("Cc", "Cs", "Co", "Cn")


DANGEROUS = st.sampled_from(["\u202e", "\u202d", "\u2066", "\u2069", "\u200e", "\u061c", "\u2028", "\n", "\x00"])


@given(st.text(st.characters() | DANGEROUS | st.just(" "), max_size=48))
def test_an_accepted_name_holds_no_hidden_character(raw: str) -> None:
    try:
        name = player_name(raw)
    except ValueError as exc:
        assert str(exc).startswith("a name ")
        return
    assert not any(hidden(c) for c in name)
    assert name == unicodedata.normalize("NFC", name) == name.strip() and "  " not in name
    assert 1 <= len(name) <= MAX_NAME_CHARS


@given(st.text(st.characters(categories=["Lu", "Ll", "Lt", "Lm", "Lo", "Mn", "Nd"]), min_size=1, max_size=15))
def test_letters_of_every_script_are_kept(raw: str) -> None:
    if not unicodedata.normalize("NFC", raw).strip() or unicodedata.category(raw[0]) == "Mn":
        return  # a lone combining mark is not a name, but nothing to refuse either
    assert player_name(raw) == unicodedata.normalize("NFC", raw)


@pytest.mark.parametrize(
    "name",
    [
        "Zoë Anna",
        "Ελένη",
        "Сергей",
        "محمد",
        "דוד",
        "देवनागरी",
        "王小明",
        "می\u200cخواهم",  # Persian with a zero-width non-joiner
        "👩\u200d💻 Kim",  # a ZWJ sequence
        "❤\ufe0f Lea",  # a variation selector
        "🏴\U000e0067\U000e0062\U000e0073\U000e0063\U000e0074\U000e007f Ian",  # the flag of Scotland (tag characters)
    ],
)
def test_names_of_every_script_and_emoji_are_kept(name: str) -> None:
    assert player_name(name) == name


def test_spaces_are_normalised() -> None:
    assert player_name(" Anna \u3000\u00a0 Maria ") == "Anna Maria"
    assert player_name("Zoe\u0308") == "Zoë"


@pytest.mark.parametrize(
    ("path", "body"),
    [
        ("/api/tables", {"opponent": "random"}),
        ("/api/tables", {"variant": "bauernschnapsen"}),
        ("/api/join", {"code": "anything"}),
    ],
)
def test_a_name_with_a_bidi_override_is_refused(serve: Callable[..., ThreadServer], path: str, body: Any) -> None:
    server = serve()
    for name in ("Anna\u202egpj.exe", "Anna\u2066", "An\u200bna", "Anna\u2028Bert", "\U000e0041nna"):
        answer = http(server.port, "POST", path, {**body, "name": name})
        assert status(answer) == 422, answer
        assert "a name may not contain U+" in body_json(answer)["detail"][0]["msg"]


# ------------------------------------------------- 8. bot workers die with the server
def descendants(pid: int) -> set[int]:
    """Every process below ``pid``, read from /proc."""
    children: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            with contextlib.suppress(OSError):
                stat = Path(f"/proc/{entry}/stat").read_text()
                parent = int(stat.rsplit(")", 1)[1].split()[1])
                children.setdefault(parent, []).append(int(entry))
    found: set[int] = set()
    todo = [pid]
    while todo:
        for child in children.get(todo.pop(), []):
            found.add(child)
            todo.append(child)
    return found


def running(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state not in ("Z", "X")


@needs_proc
def test_bot_workers_exit_when_the_server_is_killed(tmp_path: Path) -> None:
    serve = BummerlServe(tmp_path, "--bot-workers", "2")
    workers: set[int] = set()
    try:
        wait_for(lambda: len(descendants(serve.process.pid)) >= 2, "the bot workers", seconds=10)
        workers = descendants(serve.process.pid)
        os.kill(serve.process.pid, signal.SIGKILL)
        serve.process.wait()
        wait_for(lambda: not any(running(p) for p in workers), "the workers to exit", seconds=5)
    finally:
        serve.stop()
        for pid in workers:  # only if the test failed: they are this test's own processes
            with contextlib.suppress(OSError):
                if running(pid):
                    os.kill(pid, signal.SIGKILL)
