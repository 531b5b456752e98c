"""What the web app does about browsers and logs: security headers, the WebSocket Origin check, log redaction.

:class:`SecurityHeaders` is a pure ASGI middleware (it never buffers a body or
touches a WebSocket) that puts a strict Content Security Policy and the other
browser protections on every HTTP answer, and ``Cache-Control: no-store`` on the
API's.  :func:`origin_allowed` decides whether a WebSocket handshake comes from
a page of this server (cross-site WebSocket hijacking); :class:`RedactSecrets`
keeps invitation codes and tokens out of uvicorn's log lines.

>>> origin_allowed("https://evil.example", "bummerl.example", ServerConfig())
False
>>> origin_allowed("https://bummerl.example", "bummerl.example", ServerConfig())
True
>>> origin_allowed(None, "bummerl.example", ServerConfig())  # not a browser
True
>>> redact('GET /?join=Zk3_q-9 HTTP/1.1')
'GET /?join=[redacted] HTTP/1.1'

docs/security.md says what each of these defends against.
"""

from __future__ import annotations

import logging
import re
from typing import Any
from urllib.parse import urlsplit

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from bummerl.server.config import ServerConfig

__all__ = [
    "CONTENT_SECURITY_POLICY",
    "MAX_BODY_BYTES",
    "SECURITY_HEADERS",
    "BodyLimit",
    "RedactSecrets",
    "SecurityHeaders",
    "install_log_redaction",
    "normalize_origin",
    "origin_allowed",
    "redact",
]

#: The front end is plain files of this server: no inline script or style (not even a ``style=``
#: attribute), no ``eval``, no other origin; its WebSocket goes to the same host (``'self'`` covers
#: ``ws:``/``wss:`` there).  Cards are inline SVG elements, so images need nothing but ``'self'``.  The
#: installable app's service worker (``/sw.js``) and manifest come from this server too: ``worker-src`` and
#: ``manifest-src`` say so outright (``default-src`` would allow no more), and no other worker may run.
CONTENT_SECURITY_POLICY = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; "
    "worker-src 'self'; manifest-src 'self'; "
    "frame-ancestors 'none'; base-uri 'none'; form-action 'self'; object-src 'none'"
)

SECURITY_HEADERS: tuple[tuple[bytes, bytes], ...] = (
    (b"content-security-policy", CONTENT_SECURITY_POLICY.encode()),
    (b"x-frame-options", b"DENY"),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
    (b"cross-origin-opener-policy", b"same-origin"),
)


#: The largest request body the API reads (the largest valid one, a table game's options, is well under 1 KiB).
MAX_BODY_BYTES = 16 * 1024


class BodyLimit:
    """Refuses a request body over ``max_bytes`` with ``413``, never holding more than that in memory.

    A ``Content-Length`` over the limit is refused at once; a body sent in chunks
    is read (up to the limit) before the app sees it, then handed on.  Nothing
    else bounds a body: the server would buffer a gigabyte that a client sends
    within the request deadline.
    """

    def __init__(self, app: ASGIApp, max_bytes: int = MAX_BODY_BYTES) -> None:
        self.app = app
        self.max_bytes = max_bytes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        for name, value in scope.get("headers", []):
            if name == b"content-length" and (not value.isdigit() or int(value) > self.max_bytes):
                await self._refuse(send)
                return
        chunks: list[bytes] = []
        size = 0
        while True:
            message = await receive()
            if message["type"] != "http.request":
                await self.app(scope, _replay([message]), send)  # the client went away: the app hears it
                return
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > self.max_bytes:
                await self._refuse(send)
                return
            chunks.append(chunk)
            if not message.get("more_body", False):
                break
        whole: Message = {"type": "http.request", "body": b"".join(chunks), "more_body": False}
        await self.app(scope, _replay([whole], then=receive), send)

    async def _refuse(self, send: Send) -> None:
        body = b'{"detail":{"code":"too_large","message":"the request body is larger than the API reads"}}'
        await send(
            {
                "type": "http.response.start",
                "status": 413,
                "headers": [
                    (b"content-type", b"application/json"),
                    (b"content-length", str(len(body)).encode()),
                    (b"connection", b"close"),
                ],
            }
        )
        await send({"type": "http.response.body", "body": body})


def _replay(messages: list[Message], then: Receive | None = None) -> Receive:
    """A ``receive`` that gives ``messages`` first, then what ``then`` gives (the client's disconnect)."""
    pending = list(messages)

    async def receive() -> Message:
        if pending:
            return pending.pop(0)
        if then is None:
            return {"type": "http.disconnect"}
        return await then()

    return receive


class SecurityHeaders:
    """Adds :data:`SECURITY_HEADERS` to every HTTP answer (keeping any the app set) and ``no-store`` under ``/api/``."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        api = scope["path"].startswith("/api/")

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", []))
                present = {name.lower() for name, _ in headers}
                headers += [(name, value) for name, value in SECURITY_HEADERS if name not in present]
                if api:
                    # Answers carry seat tokens and hidden game state: no cache may keep them.
                    headers = [(n, v) for n, v in headers if n.lower() != b"cache-control"]
                    headers.append((b"cache-control", b"no-store"))
                message = {**message, "headers": headers}
            await send(message)

        await self.app(scope, receive, send_with_headers)


# ------------------------------------------------------------------ Origin
_DEFAULT_PORTS = {"http": 80, "https": 443, "ws": 80, "wss": 443}


def normalize_origin(url: str) -> str | None:
    """``scheme://host[:port]`` of an origin or URL, lower case, without a default port; ``None`` if it is none.

    >>> normalize_origin("HTTPS://Bummerl.Example:443/path")
    'https://bummerl.example'
    >>> normalize_origin("http://[::1]:8000"), normalize_origin("null")
    ('http://[::1]:8000', None)
    """
    try:
        parts = urlsplit(url.strip())
        port = parts.port
    except ValueError:
        return None
    scheme = parts.scheme.lower()
    host = parts.hostname
    if scheme not in ("http", "https") or not host:
        return None
    netloc = f"[{host}]" if ":" in host else host
    if port is not None and port != _DEFAULT_PORTS[scheme]:
        netloc += f":{port}"
    return f"{scheme}://{netloc}"


def _netloc_of_host(host: str) -> str:
    host = host.strip().lower()
    for default in (":80", ":443"):
        if host.endswith(default):
            return host.removesuffix(default)
    return host


def origin_allowed(origin: str | None, host: str | None, config: ServerConfig) -> bool:
    """Whether a WebSocket handshake with the header ``Origin: origin`` may open a table socket.

    No ``Origin``: not a browser (a bot, a script), which no other site can steer:
    allowed.  Otherwise the origin must be one of ``config.allowed_origins`` or this
    server's own: ``config.public_url`` when it is set, else the address the browser
    connected to (its ``Host`` header).

    >>> config = ServerConfig(public_url="https://bummerl.example", allowed_origins=("https://friends.example",))
    >>> [origin_allowed(o, "bummerl.example", config) for o in
    ...  ("https://bummerl.example", "https://friends.example", "http://bummerl.example", "null")]
    [True, True, False, False]
    >>> origin_allowed("http://127.0.0.1:8000", "127.0.0.1:8000", ServerConfig())
    True
    """
    if origin is None:
        return True
    seen = normalize_origin(origin)
    if seen is None:
        return False  # "null" (a sandboxed frame, a file) or garbage
    if seen in {normalize_origin(o) for o in config.allowed_origins}:
        return True
    if config.public_url is not None:
        return seen == normalize_origin(config.public_url)
    # Same origin as the page: the host and port the browser connected to (a browser sets both
    # headers itself; a page cannot forge them).  The scheme is left out: behind a proxy that ends
    # TLS the request arrives as plain ws:// while the page's origin is https://.
    return host is not None and seen.split("://", 1)[1] == _netloc_of_host(host)


# -------------------------------------------------------------------- logs
_SECRET_QUERY = re.compile(r"([?&](?:join|token)=)[^&#\s\"']*", re.IGNORECASE)


def redact(text: str) -> str:
    """``text`` with the values of ``join=`` and ``token=`` query parameters replaced by ``[redacted]``."""
    return _SECRET_QUERY.sub(r"\1[redacted]", text)


class RedactSecrets(logging.Filter):
    """A logging filter that redacts invitation codes and tokens in a record's message and arguments.

    An invitation link is ``/#/join/CODE`` (a fragment never reaches the server);
    this catches old ``/?join=CODE`` links and anything else that puts a secret in
    a query string, before uvicorn's access log writes it down.
    """

    def filter(self, record: logging.LogRecord) -> bool:
        if isinstance(record.msg, str):
            record.msg = redact(record.msg)
        if isinstance(record.args, tuple):
            record.args = tuple(_redacted(a) for a in record.args)
        elif isinstance(record.args, dict):
            record.args = {k: _redacted(v) for k, v in record.args.items()}
        return True


def _redacted(value: Any) -> Any:
    return redact(value) if isinstance(value, str) else value


def install_log_redaction() -> None:
    """Put :class:`RedactSecrets` on uvicorn's access log and its error log (which logs WebSocket paths); once."""
    for name in ("uvicorn.access", "uvicorn.error"):
        logger = logging.getLogger(name)
        if not any(isinstance(f, RedactSecrets) for f in logger.filters):
            logger.addFilter(RedactSecrets())
