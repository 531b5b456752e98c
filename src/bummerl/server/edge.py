"""The server's connection edge: caps on open connections, a deadline per request, the WebSocket's last frame.

uvicorn makes one protocol object per accepted connection.  :func:`edge_protocols`
makes subclasses of its httptools HTTP protocol and of its websockets (Sans-I/O)
WebSocket protocol that

- count the open connections of each client key (:func:`~bummerl.server.clients.client_key`:
  an IPv4 address, an IPv6 /64) and of all clients, and refuse a connection over
  a cap as soon as it is accepted (``503``, then closed), so idle sockets cannot
  use up the process's file descriptors.  A WebSocket is an upgraded HTTP
  connection: it keeps the slot it was counted in until it closes;
- give every request a deadline for its head and body (``request_timeout``), so a
  client that sends slowly (slow-loris) is cut off with ``408``; between requests
  uvicorn's keep-alive timeout closes an idle connection;
- tell the app when the client last sent a WebSocket frame, WebSocket pings
  included (``scope["extensions"]["bummerl.client_frames"]``), for the idle timeout
  of :mod:`bummerl.server.app`.

:func:`uvicorn_config` puts them together with the rest of the edge settings of
:class:`~bummerl.server.config.ServerConfig`; ``bummerl serve`` and the tests run
the app through it.

>>> limiter = ConnectionLimiter(per_client=2, total=3)
>>> [limiter.acquire("203.0.113.7") for _ in range(3)]
[True, True, False]
>>> limiter.acquire("198.51.100.1"), limiter.acquire("198.51.100.2")
(True, False)
>>> limiter.release("203.0.113.7")
>>> limiter.acquire("198.51.100.2"), limiter.open_count("203.0.113.7"), limiter.count
(True, 1, 3)

Nothing here knows the game, and nothing reads a request beyond what uvicorn parses.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable, Mapping
from typing import Any, ClassVar

import uvicorn
from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from websockets.frames import Frame
from websockets.http11 import Request

from bummerl.server.clients import client_key
from bummerl.server.config import ServerConfig

__all__ = [
    "CLIENT_FRAMES",
    "FD_RESERVE",
    "WS_MAX_SIZE",
    "ConnectionLimiter",
    "EdgeHttpProtocol",
    "EdgeWebSocketProtocol",
    "edge_protocols",
    "fit_file_limit",
    "last_client_frame",
    "uvicorn_config",
]

log = logging.getLogger("bummerl.server")

#: The ASGI scope extension that carries ``{"last": <callable>}``: the event loop's time of the client's last frame.
CLIENT_FRAMES = "bummerl.client_frames"
#: File descriptors kept free for everything but client sockets: the listening socket, the database, the
#: pipes to bot and analysis workers, static files being sent, logs.
FD_RESERVE = 256
#: The largest WebSocket message a client may send (uvicorn's default is 16 MiB; ours are ~100 bytes and
#: at most :data:`bummerl.server.messages.MAX_MESSAGE_CHARS` characters).
WS_MAX_SIZE = 16 * 1024


def _plain_response(status: bytes, body: bytes, *headers: bytes) -> bytes:
    """A whole ``text/plain`` HTTP/1.1 answer that closes the connection, written before any app runs."""
    lines = [
        b"HTTP/1.1 " + status,
        b"content-type: text/plain; charset=utf-8",
        b"x-content-type-options: nosniff",
        *headers,
        b"connection: close",
        b"content-length: %d" % len(body),
    ]
    return b"\r\n".join(lines) + b"\r\n\r\n" + body


_REFUSED = _plain_response(b"503 Service Unavailable", b"too many open connections", b"retry-after: 10")
_TIMED_OUT = _plain_response(b"408 Request Timeout", b"the request came too slowly")


class ConnectionLimiter:
    """Open connections per client key and in all; ``0`` for a cap means none.

    Counted on the event loop only, so it needs no lock.
    """

    def __init__(self, per_client: int, total: int) -> None:
        self.per_client = per_client
        self.total = total
        self.count = 0
        self._open: dict[str, int] = {}
        self._refused = 0
        self._warned_at = 0.0

    def acquire(self, key: str) -> bool:
        """Count a new connection of ``key``; ``False`` (and nothing counted) when a cap is reached."""
        held = self._open.get(key, 0)
        if (self.total and self.count >= self.total) or (self.per_client and held >= self.per_client):
            self._note_refusal(key, held)
            return False
        self._open[key] = held + 1
        self.count += 1
        return True

    def release(self, key: str) -> None:
        """Forget one connection of ``key``."""
        held = self._open.get(key, 0) - 1
        if held > 0:
            self._open[key] = held
        else:
            self._open.pop(key, None)
        self.count = max(0, self.count - 1)

    def open_count(self, key: str) -> int:
        return self._open.get(key, 0)

    def _note_refusal(self, key: str, held: int) -> None:
        # Under attack this happens thousands of times a second: one line a minute says so.
        self._refused += 1
        now = time.monotonic()
        if now - self._warned_at >= 60:
            log.warning(
                "refused %d connection(s) over the caps (%d open in all, %d of %s; caps %d and %d per client)",
                self._refused,
                self.count,
                held,
                key,
                self.total,
                self.per_client,
            )
            self._refused = 0
            self._warned_at = now


class EdgeWebSocketProtocol(WebSocketsSansIOProtocol):
    """uvicorn's WebSocket protocol that notes the client's frames and gives back its connection slot."""

    limiter: ClassVar[ConnectionLimiter]

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)  # uvicorn makes the protocol with its own arguments: passed on as given
        #: The client key whose slot this connection holds (handed over by the HTTP protocol).
        self.client_key: str | None = None
        self.last_frame = self.loop.time()

    def last_frame_at(self) -> float:
        """The event loop's time of the client's last data frame or ping (not a pong: those only answer ours)."""
        return self.last_frame

    def handle_connect(self, event: Request) -> None:
        super().handle_connect(event)
        if self.response.status_code == 101:
            self.scope.setdefault("extensions", {})[CLIENT_FRAMES] = {"last": self.last_frame_at}

    def handle_text(self, event: Frame) -> None:
        self.last_frame = self.loop.time()
        super().handle_text(event)

    def handle_bytes(self, event: Frame) -> None:
        self.last_frame = self.loop.time()
        super().handle_bytes(event)

    def handle_cont(self, event: Frame) -> None:
        self.last_frame = self.loop.time()
        super().handle_cont(event)

    def handle_ping(self) -> None:
        self.last_frame = self.loop.time()
        super().handle_ping()

    def connection_lost(self, exc: Exception | None) -> None:
        try:
            super().connection_lost(exc)
        finally:
            if self.client_key is not None:
                self.limiter.release(self.client_key)
                self.client_key = None


class EdgeHttpProtocol(HttpToolsProtocol):
    """uvicorn's httptools protocol with the connection caps and a deadline for each request."""

    limiter: ClassVar[ConnectionLimiter]
    request_timeout: ClassVar[float]
    websocket_class: ClassVar[type[EdgeWebSocketProtocol]]

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)  # uvicorn makes the protocol with its own arguments: passed on as given
        if self.ws_protocol_class is not None:
            # Upgrades must go to the WebSocket protocol that gives the slot back when it closes.
            self.ws_protocol_class = self.websocket_class
        self.client_key: str | None = None
        self.refused = False
        self.deadline: asyncio.TimerHandle | None = None

    # ------------------------------------------------------------ the caps
    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        super().connection_made(transport)  # type: ignore[arg-type]
        key = client_key(self.client[0] if self.client else None)
        if not self.limiter.acquire(key):
            self.refused = True
            self.transport.write(_REFUSED)
            self.transport.close()
            return
        self.client_key = key
        self._arm()  # a client that connects and sends nothing is closed too

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        if self.client_key is not None:
            self.limiter.release(self.client_key)
            self.client_key = None
        super().connection_lost(exc)

    def handle_websocket_upgrade(self) -> None:
        self._disarm()
        key, self.client_key = self.client_key, None
        super().handle_websocket_upgrade()
        protocol = self.transport.get_protocol()
        if isinstance(protocol, EdgeWebSocketProtocol):
            protocol.client_key = key  # it closes later than now: connection_lost runs on the next loop turn
        elif key is not None:
            self.limiter.release(key)

    # -------------------------------------------------- the request deadline
    def data_received(self, data: bytes) -> None:
        if self.refused:
            return
        if self.deadline is None and (self.cycle is None or self.cycle.response_complete):
            # Bytes between requests start the next one's deadline, even if they never begin a request.
            self._arm()
        super().data_received(data)

    def on_message_begin(self) -> None:
        super().on_message_begin()
        self._arm()

    def on_message_complete(self) -> None:
        self._disarm()
        super().on_message_complete()

    def _arm(self) -> None:
        if self.deadline is None and self.request_timeout > 0:
            self.deadline = self.loop.call_later(self.request_timeout, self._request_timed_out)

    def _disarm(self) -> None:
        if self.deadline is not None:
            self.deadline.cancel()
            self.deadline = None

    def _request_timed_out(self) -> None:
        self.deadline = None
        if self.transport.is_closing():
            return
        cycle = self.cycle
        if cycle is None or cycle.response_complete:
            self.transport.write(_TIMED_OUT)  # no response is under way that this would cut into
        elif not cycle.response_started:
            # The head came and the app waits for the rest of the body: it hears of a gone client (receive()
            # answers http.disconnect) and may write nothing more; the client gets the 408.
            cycle.disconnected = True
            cycle.message_event.set()
            self.transport.write(_TIMED_OUT)
        self.transport.close()


def edge_protocols(config: ServerConfig) -> type[EdgeHttpProtocol]:
    """The HTTP protocol class for ``uvicorn.Config(http=...)``, with its own counters and ``config``'s caps.

    Each call makes a fresh limiter: one per server.
    """
    shared = ConnectionLimiter(config.max_connections_per_client, config.max_connections)

    class WebSocketProtocol(EdgeWebSocketProtocol):
        limiter = shared

    class HttpProtocol(EdgeHttpProtocol):
        limiter = shared
        request_timeout = config.request_timeout
        websocket_class = WebSocketProtocol

    return HttpProtocol


def fit_file_limit(wanted: int, reserve: int = FD_RESERVE) -> int:
    """How many connections this process can hold: ``wanted``, or fewer when the file limit is too low.

    Raises the soft ``RLIMIT_NOFILE`` towards the hard one when ``wanted`` connections
    plus ``reserve`` would not fit.  Every open socket is a file descriptor; a
    process out of them cannot accept a connection, open its database or start a worker.
    """
    try:
        import resource
    except ImportError:  # pragma: no cover - not on Windows
        return wanted
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    need = wanted + reserve
    if soft != resource.RLIM_INFINITY and soft < need:
        target = need if hard == resource.RLIM_INFINITY else min(need, hard)
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
            soft = target
        except (ValueError, OSError):
            pass
    if soft == resource.RLIM_INFINITY:
        return wanted
    return max(1, min(wanted, soft - reserve))


def last_client_frame(scope: Mapping[str, Any]) -> Callable[[], float] | None:
    """The clock of :data:`CLIENT_FRAMES` in a WebSocket's scope, if the server provides it."""
    extension = (scope.get("extensions") or {}).get(CLIENT_FRAMES)
    last = extension.get("last") if isinstance(extension, dict) else None
    return last if callable(last) else None


def uvicorn_config(
    app: Any, config: ServerConfig, *, host: str, port: int, log_level: str = "warning", **more: Any
) -> uvicorn.Config:
    """The uvicorn settings of ``bummerl serve``: the edge protocols, WebSocket pings, keep-alive, sizes.

    ``limit_concurrency`` stays unset: uvicorn checks it only once a request head
    has been read, so idle sockets never reach it, while the caps here refuse a
    connection at accept.  ``more`` goes to ``uvicorn.Config`` as it is.
    """
    return uvicorn.Config(
        app,
        host=host,
        port=port,
        log_level=log_level,
        http=edge_protocols(config),
        ws_max_size=WS_MAX_SIZE,
        ws_ping_interval=config.ws_ping_interval,
        ws_ping_timeout=config.ws_ping_timeout,
        ws_per_message_deflate=config.ws_per_message_deflate,
        timeout_keep_alive=config.keep_alive_timeout,
        **more,
    )
