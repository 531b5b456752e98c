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

This is a benchmark, not a test: it is never run by pytest.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import time
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


def _post(url: str, body: dict[str, Any], client: str) -> dict[str, Any]:
    # Each table is another player: its own client address (uvicorn takes X-Forwarded-For from 127.0.0.1),
    # so that the per-client limits of docs/security.md apply per player, as on a real server.
    headers = {"Content-Type": "application/json", "X-Forwarded-For": client}
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
    client = f"10.{seed // 65536 % 256}.{seed // 256 % 256}.{seed % 256}"
    table = await asyncio.to_thread(
        _post, f"{base}/api/tables", {"opponent": bot, "variant": variant, "seed": seed, "name": "load"}, client
    )
    rng = random.Random(seed)
    async with websockets.connect(f"{ws_base}{table['ws_url']}", max_size=2**22) as ws:
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


async def _run(args: argparse.Namespace, base: str, ws_base: str) -> dict[str, Any]:
    stats = Stats()
    start = time.perf_counter()
    stop = time.monotonic() + args.seconds
    await asyncio.gather(
        *(
            _play_table(base, ws_base, args.bot, args.variant, args.games, 1000 + i, stats, stop)
            for i in range(args.tables)
        )
    )
    wall = time.perf_counter() - start
    lat = sorted(stats.latencies)
    p95 = lat[min(len(lat) - 1, int(0.95 * len(lat)))] if lat else float("nan")
    return {
        "tables": args.tables,
        "bot": args.bot,
        "variant": args.variant,
        "games": stats.games,
        "actions": stats.actions,
        "client_actions": len(lat),
        "seconds": round(wall, 3),
        "actions_per_second": round(stats.actions / wall, 1),
        "latency_ms_median": round(1000 * statistics.median(lat), 2) if lat else None,
        "latency_ms_p95": round(1000 * p95, 2),
        "latency_ms_max": round(1000 * lat[-1], 2) if lat else None,
        "bot_workers": args.bot_workers or os.cpu_count(),
        "cpus": os.cpu_count(),
        "complete": stats.games == args.tables * args.games,
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
    base, ws_base = f"http://127.0.0.1:{port}", f"ws://127.0.0.1:{port}"
    with tempfile.TemporaryDirectory(prefix="bummerl-web-load-") as data:
        command = [
            sys.executable, "-m", "bummerl", "serve", "--port", str(port), "--data-dir", data,
            "--bot-delay", "0", "--log-level", "error",
            # Every table's socket comes from this machine: no per-address connection cap here.
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
            result = asyncio.run(_run(args, base, ws_base))
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
