"""A real server for the tests that need one: ``create_app`` under uvicorn on 127.0.0.1, in a thread.

The server is configured as ``bummerl serve`` configures it
(:func:`bummerl.server.edge.uvicorn_config`), with every timeout of the edge
shortened (:data:`FAST`) so that a test waits a fraction of a second.  The
``serve`` fixture starts one (or more) and stops them after the test; ``http``
speaks raw HTTP/1.1 on a fresh socket, as an attacker would.
"""

from __future__ import annotations

import json
import socket
import threading
import time
from pathlib import Path
from typing import Any

import uvicorn
from websockets.sync.client import ClientConnection
from websockets.sync.client import connect as ws_connect

from bummerl.server.app import create_app
from bummerl.server.config import ServerConfig
from bummerl.server.edge import uvicorn_config

__all__ = ["FAST", "ThreadServer", "body_json", "free_port", "header", "http", "status"]

#: Every timeout of the edge shortened so that a test waits a fraction of a second.
FAST = ServerConfig(
    bot_executor="thread",
    analysis_executor="thread",
    analysis_level="easy",
    hello_timeout=0.5,
    idle_timeout=1.0,
    request_timeout=0.5,
    keep_alive_timeout=1,
    ws_ping_interval=None,
    max_connections_per_client=8,
    max_connections=100,
)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


class ThreadServer:
    """The app under uvicorn, configured as ``bummerl serve`` configures it, in a thread."""

    def __init__(self, data_dir: Path, config: ServerConfig) -> None:
        self.config = config
        self.data_dir = data_dir
        self.port = free_port()
        self.uvicorn = uvicorn_config(
            create_app(data_dir=data_dir, config=config), config, host="127.0.0.1", port=self.port, log_config=None
        )
        self.server = uvicorn.Server(self.uvicorn)
        self.thread = threading.Thread(target=self.server.run, daemon=True)

    def start(self) -> ThreadServer:
        self.thread.start()
        deadline = time.monotonic() + 10
        while not self.server.started:
            assert time.monotonic() < deadline and self.thread.is_alive(), "the server did not start"
            time.sleep(0.02)
        return self

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(10)

    @property
    def open_connections(self) -> int:
        """What the server's connection counter holds now."""
        count: int = self.uvicorn.http_protocol_class.limiter.count  # type: ignore[attr-defined]
        return count

    def ws(self, path: str, **options: Any) -> ClientConnection:
        options.setdefault("ping_interval", None)
        return ws_connect(f"ws://127.0.0.1:{self.port}{path}", proxy=None, open_timeout=3, **options)


# ------------------------------------------------------------------ raw HTTP
def http(port: int, method: str, path: str, body: Any = None, headers: dict[str, str] | None = None) -> bytes:
    """One request on a fresh connection (``Connection: close``); the whole answer as bytes."""
    data = b"" if body is None else json.dumps(body).encode()
    head = {"Host": f"127.0.0.1:{port}", "Connection": "close", "Content-Length": str(len(data))}
    if body is not None:
        head["Content-Type"] = "application/json"
    head.update(headers or {})
    request = f"{method} {path} HTTP/1.1\r\n" + "".join(f"{k}: {v}\r\n" for k, v in head.items()) + "\r\n"
    with socket.create_connection(("127.0.0.1", port), timeout=5) as s:
        s.sendall(request.encode() + data)
        chunks = []
        while chunk := s.recv(65536):
            chunks.append(chunk)
    return b"".join(chunks)


def status(answer: bytes) -> int:
    return int(answer.split(b" ", 2)[1])


def header(answer: bytes, name: str) -> str | None:
    head = answer.split(b"\r\n\r\n", 1)[0].decode("latin-1")
    for line in head.split("\r\n")[1:]:
        key, _, value = line.partition(":")
        if key.strip().lower() == name.lower():
            return value.strip()
    return None


def body_json(answer: bytes) -> Any:
    return json.loads(answer.split(b"\r\n\r\n", 1)[1])
