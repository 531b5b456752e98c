"""Web load benchmark: many tables with bots playing at once over loopback WebSockets.

    python bench/web_load.py                             # 40 tables x 2 games against the random bot
    python bench/web_load.py --tables 100 --games 3 --json
    python bench/web_load.py --tables 8 --games 1 --bot hard

The script starts ``bummerl serve`` (uvicorn, a fresh SQLite database in a
temporary folder, no bot delay) on 127.0.0.1 in a child process, creates
``--tables`` tables against ``--bot`` and connects one client per table over a
WebSocket.  Each client plays a random legal action as soon as it is its turn
and deals the next game until it has played ``--games`` games.  Reported:
tables, games, actions per second (all actions, the bots' included, over the
wall time of the play) and the latency of a client's action (from sending it
to the ``state`` that shows it played: the store, the engine and the
broadcast), median, p95 and max.  ``--seconds`` bounds the run; the numbers go
into docs/web.md.

Each table is another player, as on a real server: its REST calls *and* its
WebSocket carry their own client address in ``X-Forwarded-For`` (``10.x.y.z``),
which uvicorn believes only from a trusted proxy (127.0.0.1 by default,
docs/security.md), so the per-client limits (tables, connections per minute)
count per table.  The script therefore talks only to the server it started on
127.0.0.1.  tests/test_bench_web_load.py runs it with three tables so it cannot
rot.
"""

from __future__ import annotations

import argparse
import asyncio
import ipaddress
import json
import os
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.parse
import urllib.request
from pathlib import Path
from typing import Any

import websockets

try:
    from bummerl.server.workers import read_game_record
except ImportError:  # run from a checkout without installing: use ../src
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "src"))
    from bummerl.server.workers import read_game_record


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def client_address(table: int) -> str:
    """The client address of the bench's table ``table`` (a private ``10.x.y.z``, one per table).

    >>> client_address(0), client_address(70_000)
    ('10.0.0.0', '10.1.17.112')
    """
    return f"10.{table // 65536 % 256}.{table // 256 % 256}.{table % 256}"


def client_headers(base: str, client: str) -> dict[str, str]:
    """The header that makes a request or a WebSocket of the bench come from ``client``.

    uvicorn believes ``X-Forwarded-For`` from 127.0.0.1 only (its trusted proxy), so the bench talks only to a
    server on this machine's loopback: anywhere else the header would be someone else's input, not ours.
    """
    host = urllib.parse.urlsplit(base).hostname or ""
    if not ipaddress.ip_address(host).is_loopback:
        raise ValueError(f"the bench talks only to a server on 127.0.0.0/8, not {host}")
    return {"X-Forwarded-For": client}


def _post(url: str, body: dict[str, Any], client: str) -> dict[str, Any]:
    headers = {"Content-Type": "application/json", **client_headers(url, client)}
    request = urllib.request.Request(url, data=json.dumps(body).encode(), headers=headers, method="POST")
    with urllib.request.urlopen(request, timeout=30) as response:
        data: dict[str, Any] = json.loads(response.read())
        return data


def _wait_until_up(base: str, proc: subprocess.Popen[bytes], seconds: float = 30.0) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise SystemExit(f"the server exited with status {proc.returncode}")
        try:
            with urllib.request.urlopen(f"{base}/api/variants", timeout=1):
                return
        except OSError:
            time.sleep(0.1)
    raise SystemExit("the server did not start in time")


class Stats:
    def __init__(self) -> None:
        self.latencies: list[float] = []
        self.actions = 0
        self.games = 0


async def _play_table(
    base: str, ws_base: str, bot: str, variant: str, games: int, seed: int, stats: Stats, stop: float
) -> None:
    client = client_address(seed)
    table = await asyncio.to_thread(
        _post, f"{base}/api/tables", {"opponent": bot, "variant": variant, "seed": seed, "name": "load"}, client
    )
    rng = random.Random(seed)
    # The socket comes from the table's client too: from one address the connection rate limit (60 a minute)
    # refused every table from the 61st on (HTTP 403).
    async with websockets.connect(
        f"{ws_base}{table['ws_url']}", max_size=2**22, additional_headers=client_headers(base, client), proxy=None
    ) as ws:
        await ws.send(json.dumps({"type": "hello", "token": table["token"]}))
        sent_at: float | None = None
        sent_seq = -1
        last: str | None = None
        played = 0
        while played < games and time.monotonic() < stop:
            message = json.loads(await ws.recv())
            if message["type"] != "state":
                if message["type"] == "error" and message["code"] == "rate_limited" and last is not None:
                    # Over the per-socket message rate (docs/security.md): wait, then send the move again.
                    await asyncio.sleep(0.2)
                    await ws.send(last)
                    continue
                if message["type"] == "error":
                    raise RuntimeError(f"table {table['table_id']}: {message}")
                continue
            if sent_at is not None and message["seq"] > sent_seq:
                stats.latencies.append(time.perf_counter() - sent_at)
                sent_at = None
            if message["status"] == "game_over" and sent_at is None:
                played += 1
                stats.games += 1
                stats.actions += len(read_game_record(message["game_over"]["record"]).actions)
                if played < games:
                    last = json.dumps({"type": "next_game"})
                    await ws.send(last)
                    sent_seq = message["seq"]
                continue
            if message["your_turn"] and sent_at is None:
                sent_seq = message["seq"]
                sent_at = time.perf_counter()
                last = json.dumps({"type": "action", "action": rng.choice(message["legal"])})
                await ws.send(last)


async def run_load(
    base: str, *, tables: int, games: int, bot: str = "random", variant: str = "schnapsen", seconds: float = 120.0
) -> dict[str, Any]:
    """Play ``tables`` tables of ``games`` games each at the server at ``base`` (``http://127.0.0.1:PORT``), for
    at most ``seconds``; the measurements (see :func:`main`'s report)."""
    ws_base = "ws" + base.removeprefix("http")
    stats = Stats()
    start = time.perf_counter()
    stop = time.monotonic() + seconds
    await asyncio.gather(
        *(_play_table(base, ws_base, bot, variant, games, 1000 + i, stats, stop) for i in range(tables))
    )
    wall = time.perf_counter() - start
    lat = sorted(stats.latencies)
    p95 = lat[min(len(lat) - 1, int(0.95 * len(lat)))] if lat else float("nan")
    return {
        "tables": tables,
        "bot": bot,
        "variant": variant,
        "games": stats.games,
        "actions": stats.actions,
        "client_actions": len(lat),
        "seconds": round(wall, 3),
        "actions_per_second": round(stats.actions / wall, 1),
        "latency_ms_median": round(1000 * statistics.median(lat), 2) if lat else None,
        "latency_ms_p95": round(1000 * p95, 2),
        "latency_ms_max": round(1000 * lat[-1], 2) if lat else None,
        "cpus": os.cpu_count(),
        "complete": stats.games == tables * games,
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=40, help="tables playing at once (default 40, at most 500)")
    parser.add_argument("--games", type=int, default=2, help="games per table (default 2, at most 20)")
    parser.add_argument("--bot", default="random", help="the bot at every table (default random)")
    parser.add_argument("--variant", default="schnapsen")
    parser.add_argument("--bot-workers", type=int, default=None, help="the server's bot processes (default: cores)")
    parser.add_argument("--seconds", type=float, default=120.0, help="stop after this long (default 120)")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    args.tables = max(1, min(args.tables, 500))
    args.games = max(1, min(args.games, 20))
    port = _free_port()
    base = f"http://127.0.0.1:{port}"
    with tempfile.TemporaryDirectory(prefix="bummerl-web-load-") as data:
        command = [
            sys.executable, "-m", "bummerl", "serve", "--port", str(port), "--data-dir", data,
            "--bot-delay", "0", "--log-level", "error",
            # Every table's socket comes from this machine's one peer address: no cap on its open connections (the
            # cap counts the peer, before any header is read; the rate limits count X-Forwarded-For).
            "--max-connections-per-client", "0",
        ]  # fmt: skip
        if args.bot_workers:
            command += ["--bot-workers", str(args.bot_workers)]
        env = dict(os.environ)
        src = str(Path(__file__).resolve().parent.parent / "src")
        env["PYTHONPATH"] = src + os.pathsep + env.get("PYTHONPATH", "")
        proc = subprocess.Popen(command, stdout=subprocess.DEVNULL, env=env)
        try:
            _wait_until_up(base, proc)
            result = asyncio.run(
                run_load(
                    base, tables=args.tables, games=args.games, bot=args.bot, variant=args.variant, seconds=args.seconds
                )
            )
            result["bot_workers"] = args.bot_workers or os.cpu_count()
        finally:
            proc.terminate()
            try:
                proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                proc.kill()
    if args.json:
        print(json.dumps(result))
    else:
        print(
            f"{result['tables']} tables x {args.games} games vs {result['bot']} ({result['variant']}):"
            f" {result['games']} games, {result['actions']} actions in {result['seconds']} s"
            f" = {result['actions_per_second']} actions/s; client action latency median"
            f" {result['latency_ms_median']} ms, p95 {result['latency_ms_p95']} ms, max {result['latency_ms_max']} ms"
            + ("" if result["complete"] else " (stopped by --seconds)")
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
