"""How late the move clock's stand-in moves after a seat's time ran out (issue 24, docs/web.md "Clocks").

    python bench/clock_latency.py               # 12 time-outs of a 5 s clock, about 70 s
    python bench/clock_latency.py --timeouts 30 --json

Starts ``bummerl serve`` (``--bot-delay 0``, ``--clock-strikes 1000`` so the seat is never taken over, SQLite in a
temporary folder) on 127.0.0.1 in a child process, makes a friend table with a 5 s clock and holds both seats over
WebSockets: Bert plays a card at once whenever it is his turn, Anna never moves.  For each of Anna's turns the
deadline is the arrival of the ``state`` that put her on the clock plus its ``remaining_ms`` (what a page counts
down to); the lateness is the arrival of the ``state`` with the ``timeout`` event minus that deadline.  Negative
values are possible: the state that started the turn travelled a moment before it arrived.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import re
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from typing import Any

from websockets.sync.client import ClientConnection, connect


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def post(base: str, path: str, body: dict[str, Any]) -> dict[str, Any]:
    request = urllib.request.Request(
        base + path, json.dumps(body).encode(), {"Content-Type": "application/json"}, method="POST"
    )
    with urllib.request.urlopen(request, timeout=10) as answer:
        data: dict[str, Any] = json.loads(answer.read())
        return data


def serve(port: int, data_dir: str) -> subprocess.Popen[bytes]:
    """``bummerl serve`` in a child process, once it answers."""
    command = [sys.executable, "-m", "bummerl", "serve", "--port", str(port), "--data-dir", data_dir]
    command += ["--bot-delay", "0", "--clock-strikes", "1000"]
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        with contextlib.suppress(OSError), urllib.request.urlopen(f"http://127.0.0.1:{port}/api/bots", timeout=1):
            return process
        time.sleep(0.1)
    process.kill()
    raise RuntimeError("the server did not start within 30 s")


def latest(ws: ClientConnection, wait: float) -> dict[str, Any] | None:
    """The newest ``state`` the socket holds (waiting at most ``wait`` s for the first), else ``None``."""
    found = None
    with contextlib.suppress(TimeoutError):
        while True:
            message = json.loads(ws.recv(timeout=wait))
            wait = 0
            if message.get("type") == "state":
                found = message
    return found


def measure(base: str, timeouts: int) -> list[float]:
    """Seconds by which each stand-in move arrived after the deadline Anna's page counted down to."""
    table = post(base, "/api/tables", {"opponent": "friend", "name": "Anna", "move_seconds": 5})
    bert = post(base, "/api/join", {"code": table["join_code"], "name": "Bert"})
    url = base.replace("http://", "ws://") + str(table["ws_url"])
    late: list[float] = []
    with connect(url) as anna, connect(url) as bert_ws:
        anna.send(json.dumps({"type": "hello", "token": table["token"]}))
        bert_ws.send(json.dumps({"type": "hello", "token": bert["token"]}))
        deadline: float | None = None
        while len(late) < timeouts:
            mine = latest(bert_ws, 0.001)
            if mine is not None and mine["your_turn"]:
                card = next((t for t in mine["legal"] if re.fullmatch(r"[AKQJT987][hdcs]", t)), mine["legal"][0])
                bert_ws.send(json.dumps({"type": "action", "action": card}))
            state = latest(anna, 0.001)
            if state is None:
                continue
            now = time.monotonic()
            if deadline is not None and any(e["type"] == "timeout" for e in state["events"]):
                late.append(now - deadline)
            clock = state["clock"]
            if state["status"] != "playing":
                deadline = None
                anna.send(json.dumps({"type": "next_game"}))
            elif clock and clock["seat"] == 0 and (state["events"] or deadline is None):
                deadline = now + clock["remaining_ms"] / 1000
            elif not (clock and clock["seat"] == 0):
                deadline = None
    return late


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--timeouts", type=int, default=12, help="time-outs to measure (default 12)")
    parser.add_argument("--json", action="store_true", help="print the numbers as JSON")
    args = parser.parse_args()
    port = free_port()
    with tempfile.TemporaryDirectory() as data_dir:
        process = serve(port, data_dir)
        try:
            late = measure(f"http://127.0.0.1:{port}", args.timeouts)
        finally:
            process.terminate()
            process.wait(timeout=10)
    ms = sorted(round(x * 1000, 1) for x in late)
    summary = {"timeouts": len(ms), "median_ms": statistics.median(ms), "max_ms": ms[-1], "lateness_ms": ms}
    if args.json:
        print(json.dumps(summary))
    else:
        print(f"{len(ms)} time-outs of a 5 s clock: the stand-in's move came {summary['median_ms']} ms (median),")
        print(f"at most {summary['max_ms']} ms after the deadline the page counted down to: {ms}")


if __name__ == "__main__":
    main()
