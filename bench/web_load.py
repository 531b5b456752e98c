"""Web load benchmark: many tables at once over loopback WebSockets, flat out or at a human's pace.

    python bench/web_load.py                                  # flat out: 200 tables x 10 games against random
    python bench/web_load.py --paced --tables 1000            # human-paced: 1,000 tables, a move every 1-5 s
    python bench/web_load.py --processes 2                    # two processes on a throwaway PostgreSQL
    python bench/web_load.py --before HEAD~3 --repeat 3       # REV's server and the working tree's, alternately
    python bench/web_load.py --before /tmp/old/src            # a folder's bummerl package against the working tree
    python bench/web_load.py --doc                            # the rows of docs/web.md's table, printed as it is
    python bench/web_load.py --tables 8 --games 1 --bot hard --json

The script starts ``bummerl serve`` on 127.0.0.1 in child processes: one on SQLite in a temporary folder, or
``--processes N`` in cluster mode on a throwaway PostgreSQL cluster (``initdb`` in a temporary folder, its own
port, fsync on as in production, stopped at the end; tests/pg_server.py).  One client process plays every table:

- **flat out** (the default): each table's client plays a random legal action the moment it is its turn and
  deals the next game until it has played ``--games`` games; the bots play at once (``--bot-delay 0``).  This
  measures the most actions a second the server can take; a client action's latency is mostly the queue.
- **human-paced** (``--paced``): tables arrive at random over ``--ramp`` seconds (as quick-match arrivals come
  in), and each client thinks ``--think`` seconds (uniformly random, 1 to 5 by default) before each action and
  before dealing the next game; the bots wait the server's default ``--bot-delay`` (0.4 s), as for a person.
  Measured is the window after the last table arrived, to ``--seconds``: every table is playing then.

``--humans 2`` puts two clients at each table (the second joins with the invitation code, like a friend or a
quick match of two people) instead of one against ``--bot``; with ``--processes 2`` the second sits on the other
process, so its messages are relayed between the processes (docs/web.md, "More than one process").

Reported: tables, the actions stored in the window (every action, bots' included, counted in the database),
actions per second, a client action's latency (from sending it to the ``state`` that shows it played: the check,
the store, the engine and the broadcast) median, p95 and max, the ``error`` messages the clients got, and the CPU
the server processes (with their bot workers) and the load client used in the window, in cores: a client near
one core would be the bottleneck, not the server.

Each seat's client is another player, as on a real server: its REST calls *and* its WebSocket carry their own
client address in ``X-Forwarded-For`` (``10.x.y.z``), which uvicorn believes only from a trusted proxy (127.0.0.1
by default, docs/security.md), so the per-client limits count per player.  The script therefore talks only to
servers it started on 127.0.0.1.  tests/test_bench_web_load.py runs it with three tables so it cannot rot.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import dataclasses
import importlib
import io
import ipaddress
import json
import os
import random
import resource
import socket
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
import urllib.parse
import urllib.request
from collections import Counter
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import websockets

ROOT = Path(__file__).resolve().parent.parent
try:
    from bummerl.server.workers import read_game_record
except ImportError:  # run from a checkout without installing: use ../src
    sys.path.insert(0, str(ROOT / "src"))
    from bummerl.server.workers import read_game_record

#: How many tables and games a run may ask for.
MAX_TABLES = 2000
MAX_GAMES = 50


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def client_address(player: int) -> str:
    """The client address of the bench's player ``player`` (a private ``10.x.y.z``, one per player).

    >>> client_address(0), client_address(70_000)
    ('10.0.0.0', '10.1.17.112')
    """
    return f"10.{player // 65536 % 256}.{player // 256 % 256}.{player % 256}"


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


@dataclasses.dataclass(frozen=True)
class Load:
    """What the clients do (the module's docstring says the two modes)."""

    tables: int
    #: Games per table when flat out; ``None``: human-paced, every table plays until ``seconds`` are over.
    games: int | None = 2
    #: Seconds a client thinks before each action (uniformly random between the two); ``None``: at once.
    think: tuple[float, float] | None = None
    #: Tables arrive at random times over this many seconds (``0``: all at once).
    ramp: float = 0.0
    #: Clients per table: 1 against ``bot``, or 2 (the second joins with the invitation code).
    humans: int = 1
    bot: str = "random"
    variant: str = "schnapsen"
    #: The run ends after this many seconds at the latest.
    seconds: float = 120.0
    seed: int = 1000


class Stats:
    """What the clients measured: each client action's ``(sent at, seconds until shown)``, games, errors."""

    def __init__(self) -> None:
        self.latencies: list[tuple[float, float]] = []
        self.actions = 0
        self.games = 0
        self.errors: Counter[str] = Counter()
        self.rate_limited = 0
        self.seated = 0


class _Seat:
    """One client at one table: plays its seat until its table is done or the run is over.

    A reader takes every message as it comes and keeps the newest ``state``; the player acts on the newest only, so
    a client that thought for a while never acts on a state that a newer one (a player who connected) replaced.
    """

    def __init__(self, load: Load, stats: Stats, stop: float, rng: random.Random, deals: bool) -> None:
        self.load, self.stats, self.stop, self.rng = load, stats, stop, rng
        #: Whether this client deals the next game (seat 0) and counts the games.
        self.deals = deals
        self.latest: dict[str, Any] | None = None
        self.changed = asyncio.Event()
        #: The ``seq`` of the state this client last acted on (it acts once per state).
        self.acted = -1
        self.sent_at: float | None = None
        self.sent_seq = -1
        self.last: str | None = None
        self.ws: Any = None

    async def think(self) -> None:
        if self.load.think is not None:
            await asyncio.sleep(self.rng.uniform(*self.load.think))

    async def send(self, message: dict[str, Any]) -> None:
        self.last = json.dumps(message)
        await self.ws.send(self.last)

    async def read(self, table_id: str) -> None:
        stats = self.stats
        async for text in self.ws:
            message = json.loads(text)
            kind = message["type"]
            if kind == "state":
                if self.sent_at is not None and message["seq"] > self.sent_seq:
                    stats.latencies.append((self.sent_at, time.perf_counter() - self.sent_at))
                    self.sent_at = None
                self.latest = message
                self.changed.set()
            elif kind == "error" and message["code"] == "rate_limited" and self.last is not None:
                # Over the per-socket message rate (docs/security.md): wait, then send the move again.  Flat out, a
                # fast server lets a table play more than the 10 messages a second a client may send: the wait
                # then lands in that action's latency (a p95 of about 200 ms when over 5% of the actions wait).
                stats.rate_limited += 1
                await asyncio.sleep(0.2)
                await self.ws.send(self.last)
            elif kind == "error":
                # Counted (the goal is none); the client goes on as a person would: it looks at the table again.
                stats.errors[message["code"]] += 1
                self.sent_at, self.acted = None, -1
                self.changed.set()

    async def play(self, ws: Any, table_id: str) -> None:
        self.ws = ws
        reader = asyncio.create_task(self.read(table_id))
        try:
            await self._play(reader)
        finally:
            reader.cancel()
            with contextlib.suppress(asyncio.CancelledError, websockets.exceptions.ConnectionClosed):
                await reader

    async def _play(self, reader: asyncio.Task[None]) -> None:
        load, stats = self.load, self.stats
        finished: set[int] = set()
        while load.games is None or len(finished) < load.games:
            try:
                await asyncio.wait_for(self.changed.wait(), self.stop - time.monotonic())
            except TimeoutError:
                return
            self.changed.clear()
            if reader.done():
                reader.result()  # its error, if any
                return
            message = self.latest
            if message is None or message["seq"] <= self.acted or self.sent_at is not None:
                continue
            if message["status"] == "game_over":
                self.acted = message["seq"]
                over = message["game_over"]
                if over["game_id"] in finished:
                    continue  # the same game_over again (a player connected)
                finished.add(over["game_id"])
                if self.deals:
                    stats.games += 1
                    stats.actions += len(read_game_record(over["record"]).actions)
                    if load.games is None or len(finished) < load.games:
                        await self.think()
                        await self.send({"type": "next_game"})
                continue
            if message["your_turn"]:
                await self.think()
                if time.monotonic() >= self.stop:
                    return
                if self.latest is not message:
                    continue  # a newer state came meanwhile (the event is set): act on that one
                self.acted = self.sent_seq = message["seq"]
                self.sent_at = time.perf_counter()
                await self.send({"type": "action", "action": self.rng.choice(message["legal"])})


async def _seated(base: str, path: str, token: str, client: str) -> Any:
    ws_base = "ws" + base.removeprefix("http")
    ws = await websockets.connect(
        f"{ws_base}{path}", max_size=2**22, additional_headers=client_headers(base, client), proxy=None
    )
    await ws.send(json.dumps({"type": "hello", "token": token}))
    return ws


async def _play_table(bases: list[str], load: Load, index: int, stats: Stats, stop: float, start: float) -> None:
    rng = random.Random(load.seed + index)
    await asyncio.sleep(max(0.0, start - time.monotonic()))
    here = bases[index % len(bases)]
    creator = client_address(2 * index)
    body: dict[str, Any] = {"variant": load.variant, "name": "load"}
    if load.humans == 2:
        body["opponent"] = "friend"
    else:
        body.update(opponent=load.bot, seed=load.seed + index)
    try:
        table = await asyncio.to_thread(_post, f"{here}/api/tables", body, creator)
        seats = [(here, table["token"], creator)]
        if load.humans == 2:
            # The friend is another client, on the next process (its messages are relayed to the table's holder).
            there, friend = bases[(index + 1) % len(bases)], client_address(2 * index + 1)
            joined = await asyncio.to_thread(_post, f"{there}/api/join", {"code": table["join_code"]}, friend)
            seats.append((there, joined["token"], friend))
    except OSError as exc:
        stats.errors[f"create: {exc}"] += 1
        return
    sockets = []
    try:
        for base, token, client in seats:
            sockets.append(await _seated(base, table["ws_url"], token, client))
        stats.seated += 1
        players = [_Seat(load, stats, stop, random.Random(rng.random()), deals=k == 0) for k in range(len(seats))]
        await asyncio.gather(*(p.play(ws, table["table_id"]) for p, ws in zip(players, sockets, strict=True)))
    except (OSError, websockets.exceptions.WebSocketException) as exc:
        stats.errors[f"socket: {type(exc).__name__}"] += 1
    finally:
        for ws in sockets:
            with contextlib.suppress(Exception):
                await ws.close()


def _cpu_seconds() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


async def run_load(
    bases: str | list[str], load: Load | None = None, *, server_cpu: Callable[[], float] | None = None, **kwargs: Any
) -> dict[str, Any]:
    """Play ``load`` at the servers at ``bases`` (``http://127.0.0.1:PORT``; ``kwargs``: a :class:`Load`'s
    fields instead); the measurements of the window (flat out: the whole run; paced: after the last arrival).

    ``server_cpu`` tells the CPU seconds the servers have used so far (the window's share is reported).
    """
    bases = [bases] if isinstance(bases, str) else bases
    load = load or Load(**kwargs)
    stats = Stats()
    begin = time.monotonic()
    stop = begin + load.seconds
    arrivals = sorted(random.Random(load.seed).uniform(0, load.ramp) for _ in range(load.tables))
    window: dict[str, float] = {}

    async def measure_window() -> None:
        await asyncio.sleep(load.ramp)
        window.update(start=time.perf_counter(), wall=time.time(), client=_cpu_seconds())
        window["server"] = server_cpu() if server_cpu else 0.0

    marker = asyncio.create_task(measure_window())
    await asyncio.gather(*(_play_table(bases, load, i, stats, stop, begin + at) for i, at in enumerate(arrivals)))
    await marker
    end, end_wall = time.perf_counter(), time.time()
    seconds = end - window["start"]
    lat = sorted(latency for sent, latency in stats.latencies if sent >= window["start"])
    p95 = lat[min(len(lat) - 1, int(0.95 * len(lat)))] if lat else float("nan")
    return {
        "tables": load.tables,
        "seated": stats.seated,
        "humans": load.humans,
        "bot": load.bot if load.humans == 1 else None,
        "variant": load.variant,
        "paced": load.think is not None,
        "games": stats.games,
        # Flat out: every finished game's actions; main() counts them in the database instead where it can.
        "actions": stats.actions,
        "client_actions": len(lat),
        "seconds": round(seconds, 3),
        "window": [window["wall"], end_wall],
        "actions_per_second": round(stats.actions / seconds, 1),
        "latency_ms_median": round(1000 * statistics.median(lat), 2) if lat else None,
        "latency_ms_p95": round(1000 * p95, 2),
        "latency_ms_max": round(1000 * lat[-1], 2) if lat else None,
        "errors": dict(stats.errors),
        "rate_limited": stats.rate_limited,
        "client_cores": round((_cpu_seconds() - window["client"]) / seconds, 2),
        "server_cores": round(((server_cpu() if server_cpu else 0.0) - window["server"]) / seconds, 2),
        "cpus": os.cpu_count(),
        "complete": load.games is not None and stats.games == load.tables * load.games,
    }


# ------------------------------------------------------------------ the servers
def _process_tree_cpu(pids: list[int]) -> float:
    """CPU seconds (user and system) of the processes ``pids`` and every live descendant (Linux ``/proc``)."""
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            with contextlib.suppress(OSError):
                fields = (entry / "stat").read_text().rpartition(")")[2].split()
                children.setdefault(int(fields[1]), []).append(int(entry.name))
    tick = os.sysconf("SC_CLK_TCK")
    total, todo, seen = 0.0, list(pids), set()
    while todo:
        pid = todo.pop()
        if pid in seen:
            continue
        seen.add(pid)
        with contextlib.suppress(OSError):
            fields = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()
            total += (int(fields[11]) + int(fields[12])) / tick  # utime, stime
        todo.extend(children.get(pid, []))
    return total


def _wait_until_up(base: str, proc: subprocess.Popen[bytes], seconds: float = 60.0) -> None:
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


@dataclasses.dataclass
class Servers:
    """The running ``bummerl serve`` processes of one run and the database they share."""

    bases: list[str]
    procs: list[subprocess.Popen[bytes]]
    database_url: str

    def cpu(self) -> float:
        return _process_tree_cpu([p.pid for p in self.procs])


@contextlib.contextmanager
def postgres() -> Iterator[str]:
    """A throwaway PostgreSQL cluster (tests/pg_server.py) with fsync on, as in production: its database's URL."""
    sys.path.insert(0, str(ROOT / "tests"))
    pg_server = importlib.import_module("pg_server")
    bin_dir = pg_server.find_pg_bin()
    if bin_dir is None:
        raise SystemExit("--processes needs PostgreSQL's initdb and pg_ctl (BUMMERL_PG_BIN, or on PATH)")
    with pg_server.start_cluster(bin_dir, durable=True) as cluster:
        yield cluster.url()


@contextlib.contextmanager
def servers(processes: int, paced: bool, bot_workers: int | None, src: Path) -> Iterator[Servers]:
    """``processes`` servers of the code in ``src``: one on SQLite, or several in cluster mode on PostgreSQL."""
    with contextlib.ExitStack() as stack:
        data = stack.enter_context(tempfile.TemporaryDirectory(prefix="bummerl-web-load-"))
        url = stack.enter_context(postgres()) if processes > 1 else f"sqlite:///{data}/bummerl.db"
        env = dict(os.environ)
        env["PYTHONPATH"] = str(src) + os.pathsep + env.get("PYTHONPATH", "")
        procs: list[subprocess.Popen[bytes]] = []
        bases = []
        try:
            for _ in range(processes):
                port = _free_port()
                command = [
                    sys.executable, "-m", "bummerl", "serve", "--port", str(port), "--database-url", url,
                    "--log-level", "error",
                    # Every socket comes from this machine's one peer address: no cap on its open connections (the
                    # cap counts the peer, before any header is read; the rate limits count X-Forwarded-For).
                    "--max-connections-per-client", "0", "--max-connections", "10000",
                ]  # fmt: skip
                if not paced:
                    command += ["--bot-delay", "0"]
                if bot_workers:
                    command += ["--bot-workers", str(bot_workers)]
                procs.append(subprocess.Popen(command, stdout=subprocess.DEVNULL, env=env, cwd=data))
                bases.append(f"http://127.0.0.1:{port}")
                # One after the other: the first makes the schema, the next finds it made.
                _wait_until_up(bases[-1], procs[-1])
            yield Servers(bases, procs, url)
        finally:
            for proc in procs:
                proc.terminate()
            for proc in procs:
                try:
                    proc.wait(timeout=15)
                except subprocess.TimeoutExpired:
                    proc.kill()


def stored_actions(url: str, window: list[float]) -> int:
    """The actions stored in the database at ``url`` between the two times (``time.time()``)."""
    import datetime as dt

    from sqlalchemy import create_engine, text

    def iso(t: float) -> str:
        return dt.datetime.fromtimestamp(t, dt.UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")

    engine = create_engine(url)
    try:
        with engine.connect() as conn:
            query = text("SELECT count(*) FROM bummerl_actions WHERE created_at >= :a AND created_at < :b")
            return int(conn.execute(query, {"a": iso(window[0]), "b": iso(window[1])}).scalar_one())
    finally:
        engine.dispose()


def checkout(revision: str, into: Path) -> Path:
    """``src/`` of ``revision`` (``git archive``, read-only for the repository) with the working tree's compiled
    cores where their C source is the same; the folder to put on ``PYTHONPATH``."""
    sys.path.insert(0, str(ROOT / "bench"))
    from compare import _compiled_cores

    archive = subprocess.run(
        ["git", "-C", str(ROOT), "archive", "--format=tar", revision, "src/bummerl"], check=True, capture_output=True
    ).stdout
    with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
        tar.extractall(into, filter="data")
    _compiled_cores(into / "src" / "bummerl")
    return into / "src"


def measure(load: Load, processes: int = 1, bot_workers: int | None = None, src: Path = ROOT / "src") -> dict[str, Any]:
    """One run of ``load`` on fresh servers; :func:`run_load`'s report with the actions counted in the database."""
    with servers(processes, load.think is not None, bot_workers, src) as running:
        before = os.getloadavg()[0]
        result = asyncio.run(run_load(running.bases, load, server_cpu=running.cpu))
        result["actions"] = stored_actions(running.database_url, result["window"])
    result["actions_per_second"] = round(result["actions"] / result["seconds"], 1)
    # Actions per second of server CPU (its processes and their bot workers): on a machine that other work shares,
    # the rate the server would keep up on cores of its own, and the number an A/B compares.
    cpu = result["server_cores"] * result["seconds"]
    result["actions_per_server_cpu_second"] = round(result["actions"] / cpu, 1) if cpu else None
    result.update(processes=processes, database="postgresql" if processes > 1 else "sqlite", load_before=before)
    result["load_after"] = os.getloadavg()[0]
    return result


# ------------------------------------------------------------------ output
def describe(r: dict[str, Any]) -> str:
    who = f"vs {r['bot']}" if r["bot"] else "two clients each"
    mode = "paced" if r["paced"] else "flat out"
    errors = ", ".join(f"{k} x{v}" for k, v in r["errors"].items()) or "none"
    return (
        f"{r['tables']} tables ({r['seated']} seated) {who}, {mode}, {r['processes']} process(es) on {r['database']}:"
        f" {r['actions']} actions in {r['seconds']} s = {r['actions_per_second']} actions/s; client action latency"
        f" median {r['latency_ms_median']} ms, p95 {r['latency_ms_p95']} ms, max {r['latency_ms_max']} ms"
        f" (n {r['client_actions']}); errors {errors}; over the message rate {r['rate_limited']} (sent again after"
        f" 0.2 s); cores: server {r['server_cores']}, client {r['client_cores']}"
        f" ({r['actions_per_server_cpu_second']} actions per server CPU second);"
        f" load average {r['load_before']:.2f} before, {r['load_after']:.2f} after"
    )


def doc_table(rows: list[tuple[str, dict[str, Any]]]) -> str:
    """The table of docs/web.md ("Measured")."""
    lines = [
        "| run | processes | tables | actions/s | latency median | p95 | max | errors | server cores | client cores"
        " | actions per server CPU s | load average |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for label, r in rows:
        errors = sum(r["errors"].values())
        lines.append(
            f"| {label} | {r['processes']} ({r['database']}) | {r['seated']} | {r['actions_per_second']:,.0f} |"
            f" {r['latency_ms_median']:.0f} ms | {r['latency_ms_p95']:.0f} ms | {r['latency_ms_max']:.0f} ms |"
            f" {errors} | {r['server_cores']} | {r['client_cores']} | {r['actions_per_server_cpu_second'] or 0:,.0f} |"
            f" {r['load_before']:.1f} - {r['load_after']:.1f} |"
        )
    return "\n".join(lines)


#: docs/web.md's rows: (label, processes, load).
DOC_ROWS: list[tuple[str, int, Load]] = [
    ("flat out, 200 tables x 10 games", 1, Load(tables=200, games=10, seconds=240)),
    # 200 tables no longer keep one process busy (three quarters of a core, docs/web.md): twice as many do more.
    ("flat out, 400 tables x 10 games", 1, Load(tables=400, games=10, seconds=240)),
    ("paced, 1,000 tables", 1, Load(tables=1000, games=None, think=(1.0, 5.0), ramp=60.0, seconds=150.0)),
    ("flat out, 200 tables x 10 games", 2, Load(tables=200, games=10, seconds=240)),
    ("paced, 1,000 tables", 2, Load(tables=1000, games=None, think=(1.0, 5.0), ramp=60.0, seconds=150.0)),
]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=None, help="tables (default 200 flat out, 1000 paced)")
    parser.add_argument("--games", type=int, default=10, help="flat out: games per table (default 10)")
    parser.add_argument("--paced", action="store_true", help="human-paced: think before each action, tables arrive")
    parser.add_argument("--think", default="1:5", help="paced: seconds before each action, MIN:MAX (default 1:5)")
    parser.add_argument("--ramp", type=float, default=60.0, help="paced: tables arrive over this long (default 60)")
    parser.add_argument("--humans", type=int, choices=(1, 2), default=1, help="clients per table (default 1)")
    parser.add_argument("--bot", default="random", help="the bot at every table (default random)")
    parser.add_argument("--variant", default="schnapsen")
    parser.add_argument("--processes", type=int, default=1, help="servers; more than 1: cluster mode on PostgreSQL")
    parser.add_argument("--bot-workers", type=int, default=None, help="each server's bot processes (default: cores)")
    parser.add_argument("--seconds", type=float, default=None, help="stop after this long (flat 240, paced 150)")
    parser.add_argument(
        "--before",
        metavar="REV",
        help="also run REV's server (or a folder's bummerl), alternately with the working tree's",
    )
    parser.add_argument("--repeat", type=int, default=1, help="runs of each (default 1)")
    parser.add_argument("--doc", action="store_true", help="run the rows of docs/web.md's table and print it")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    if args.doc:
        rows = []
        for label, processes, load in DOC_ROWS:
            r = measure(load, processes, args.bot_workers)
            print(describe(r), file=sys.stderr)
            rows.append((label, r))
        print(json.dumps([r for _, r in rows]) if args.json else doc_table(rows))
        return 0
    paced = args.paced
    lo, _, hi = args.think.partition(":")
    load = Load(
        tables=max(1, min(args.tables or (1000 if paced else 200), MAX_TABLES)),
        games=None if paced else max(1, min(args.games, MAX_GAMES)),
        think=(float(lo), float(hi or lo)) if paced else None,
        ramp=args.ramp if paced else 0.0,
        humans=args.humans,
        bot=args.bot,
        variant=args.variant,
        seconds=args.seconds or (150.0 if paced else 240.0),
    )
    runs: list[tuple[str, dict[str, Any]]] = []
    with tempfile.TemporaryDirectory(prefix="bummerl-web-load-before-") as tmp:
        sources = [("working tree", ROOT / "src")]
        if args.before:
            # A folder that holds a ``bummerl`` package (a copy of src/ with a change undone), or a revision.
            given = Path(args.before)
            sources.insert(
                0, (args.before, given if (given / "bummerl").is_dir() else checkout(args.before, Path(tmp)))
            )
        for _ in range(max(1, args.repeat)):
            for label, src in sources:
                r = measure(load, args.processes, args.bot_workers, src)
                r["code"] = label
                runs.append((label, r))
                if not args.json:
                    print(f"{label}: {describe(r)}", flush=True)
    if args.json:
        print(json.dumps(runs[0][1] if len(runs) == 1 else [r for _, r in runs]))
    elif len(runs) > 1:
        print()
        for label, _src in sources:
            mine = [r for lbl, r in runs if lbl == label]
            aps = statistics.median(r["actions_per_second"] for r in mine)
            p95 = statistics.median(r["latency_ms_p95"] for r in mine)
            per_cpu = statistics.median(r["actions_per_server_cpu_second"] or 0.0 for r in mine)
            print(
                f"{label}: median of {len(mine)} runs: {aps:,.1f} actions/s, p95 {p95:.1f} ms,"
                f" {per_cpu:,.0f} actions per server CPU second"
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
