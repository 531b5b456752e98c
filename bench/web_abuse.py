"""Web abuse benchmark: what one abusive client can do to ``bummerl serve``, and what a normal table feels.

    python bench/web_abuse.py                  # the whole bench, about nine minutes
    python bench/web_abuse.py --quick          # a smoke run, about 100 s
    python bench/web_abuse.py --window 20 --json
    python bench/web_abuse.py --parts quiet,hints   # some parts only (the hint flood against the quiet table)
    python bench/web_abuse.py --parts quiet,quickmatch   # the quick-match flood against the quiet table

Each part starts a fresh ``bummerl serve`` (``--bot-workers 2 --bot-delay 0``, SQLite
in a temporary folder) on 127.0.0.1 in a child process, so no rate window or cap of
one part is spent by another, and attacks it over loopback.  Linux routes all of
127.0.0.0/8 to loopback, so clients bind their sockets to 127.0.0.2, 127.0.0.3, ...
and the server counts them as different client addresses.  Reported (issue #10):

1. **Table creation**: one address posts ``POST /api/tables`` as fast as it can for
   ``--window`` seconds (default 60): the 201s before the first 429, the 201s in the
   whole window, and why the 429s came (the ``api`` or ``create`` rate limit, the cap
   of tables per client).
2. **Action latency of a normal table**: the bench holds seat 0 at one table against
   ``random`` (the quick bot lane) and one against ``hard`` (a searching bot: the
   worker pool) and plays a random card (never closing or declaring, so games run
   their length) 0.15 s after its turn comes (a quick human; the server meters a
   socket's messages).  The latency of an action runs from sending it until the
   ``state`` in which it is this seat's turn again (the bot's reply included) or the
   game is over.  A spectator's socket on the ``random`` table (its own address)
   sends a ``ping`` every 0.2 s: its ``pong`` waits only for the event loop.
   Measured in four conditions, each on its own server:

   - *quiet*: nothing else runs;
   - *flood*: another client (one address, several connections) creates tables, asks
     for unknown table ids, opens sockets to unknown tables, and sends junk over
     WebSockets: to its own tables and, as a spectator, to the normal tables (anyone
     can find them in ``GET /api/tables``), keeping 32 messages unanswered per socket
     and opening a new socket whenever the server closes one.  The flood runs in its
     own process on the same machine, so it also takes CPU from the server;
   - *40 × expert*: 40 WebSocket clients (10 addresses, 4 tables each) each play a
     table against ``expert``, a random legal action as soon as it is their turn;
   - *database lock*: an outside ``sqlite3`` connection holds ``BEGIN EXCLUSIVE`` on
     the server's database for ``--lock`` seconds (twice); the seats wait at their
     turn until the lock is held.  Reported: the latency of the *answer* to a request
     (action or ``next_game``) sent during the lock (a ``state`` or an ``error`` with
     code ``storage``; the bench sends a refused one again at once), the ``ping``
     round trip during the lock, what ``POST /api/tables`` answers during it (one a
     second, from fresh addresses), and how long after the lock each table took to
     come back to the bench's turn.
   - *hint flood* (issue 24): one client (one address) holds 9 tables against ``random`` and asks for a
     hint at each the moment the answer to its last one arrives (a ``busy`` again after 0.1 s, a
     ``rate_limited`` after 1 s), never playing, while another client (its own address, a table of its own)
     asks one hint every 4 s at its turn: reported are that client's answers (a ``hint`` within 3 s, or the
     error) and the flood's hints and refusals; the ``hard`` table's p95 is set against the *quiet* one.
   - *quick-match flood* (issue 24): clients at 16 addresses each make 8 players (``POST /api/players``),
     keep a quick-match ticket waiting for each (schnapsen, ``standard``: 8 is what one address may hold),
     poll every ticket each second and ask again the moment one is seated, never sitting down at the table
     they get, as fast as the ``join`` rate lets them; meanwhile two other clients (their own addresses) ask
     for a quick match of the same variant together every 5 s: reported are how long each waited until seated,
     and how often they were seated with each other rather than with a flood ticket; the ``hard`` table's p95
     is set against the *quiet* one.
3. **Memory**: the server's RSS (``VmRSS`` of ``/proc/PID/status``, the server process
   without its bot workers) before and after 100,000 ``GET /api/tables/<random
   12-character id>`` over 8 keep-alive connections.  They come from 127.0.0.1 with
   ``X-Forwarded-For`` addresses from a pool of 512 (uvicorn trusts the header from
   127.0.0.1), so the per-client ``api`` rate limit does not answer them all with 429
   and every one is looked up.  "Before" is after 1,000 such requests (warm-up).
4. **Connections held open**: idle TCP connections from one address until the server
   refuses (``503``): the per-client cap; then from many addresses until the total
   cap; whether a fresh address is still served while they are held, and afterwards.

This is a benchmark, not a test: it is never run by pytest.  The numbers go into
docs/web.md ("Under abuse"), the hint flood's into docs/security.md ("Hints share the workers fairly").
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import datetime as dt
import json
import math
import multiprocessing
import multiprocessing.synchronize
import os
import platform
import queue
import random
import re
import shutil
import signal
import socket
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Awaitable, Callable, Coroutine, Iterator
from pathlib import Path
from typing import Any, TypeVar

import httpx
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, WebSocketException

SRC = Path(__file__).resolve().parent.parent / "src"
BOT_WORKERS = 2
MiB = 1024 * 1024

# Client addresses (all on loopback): each role has its own, so no role spends another's limits.
SEAT_RANDOM = "127.0.0.2"
HINT_ASKER = "127.0.0.21"
SEAT_HARD = "127.0.0.3"
PROBE = "127.0.0.4"
RATE_CLIENT = "127.0.0.10"
ONE_CLIENT = "127.0.0.20"
FLOODER = "127.0.0.66"
CONTROL = "127.0.0.250"
FORWARDER = "127.0.0.1"  # the only address whose X-Forwarded-For uvicorn trusts by default
EXPERT_ADDRESSES = [f"127.0.1.{i}" for i in range(1, 11)]
#: Seconds the bench's seat waits before it acts, and between two pings of the probe.
THINK_SECONDS = 0.15
PROBE_SECONDS = 0.2
#: Messages a flooding WebSocket keeps unanswered.
JUNK_WINDOW = 32
#: The hint flood's tables (one address), the other client's seconds between two hints, and its deadline.
HINT_FLOOD_TABLES = 9
HINT_EVERY = 4.0
HINT_DEADLINE = 3.0
#: The quick-match flood's addresses and the players each makes (the waiting tickets one address may hold); the
#: two honest clients' addresses, the seconds between their asks, and how long they wait at most.
QM_FLOODERS = [f"127.0.2.{i}" for i in range(1, 17)]
QM_PLAYERS = 8
QM_HONEST = ("127.0.0.31", "127.0.0.32")
QM_EVERY = 5.0
QM_PATIENCE = 30.0

T = TypeVar("T")


# ----------------------------------------------------------------------------- small helpers
def p95(values: list[float]) -> float | None:
    """The 95th percentile (nearest rank), ``None`` without values."""
    if not values:
        return None
    ordered = sorted(values)
    return ordered[max(0, math.ceil(0.95 * len(ordered)) - 1)]


def summary_ms(values: list[float]) -> dict[str, Any]:
    """n, p95, median and max of latencies in seconds, as milliseconds."""
    if not values:
        return {"n": 0, "p95_ms": None, "median_ms": None, "max_ms": None}
    return {
        "n": len(values),
        "p95_ms": round(1000 * (p95(values) or 0.0), 1),
        "median_ms": round(1000 * statistics.median(values), 1),
        "max_ms": round(1000 * max(values), 1),
    }


def random_table_id(rng: random.Random) -> str:
    """A well-formed table id (``secrets.token_urlsafe(9)`` has 12 such characters) that is no table's."""
    alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
    return "".join(rng.choice(alphabet) for _ in range(12))


def forwarded(i: int, net: int = 10) -> str:
    """The ``i``-th made-up client address for ``X-Forwarded-For`` (10.x.y.z, never on loopback)."""
    return f"{net}.{(i >> 16) & 255}.{(i >> 8) & 255}.{i & 255}"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def rss_bytes(pid: int) -> int:
    """The resident set size of process ``pid`` (``VmRSS`` of ``/proc/PID/status``)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) * 1024
    raise RuntimeError(f"no VmRSS for process {pid}")


def raise_file_limit() -> int:
    """Raise this process's soft file limit to the hard one (the connection test holds ~1,100 sockets)."""
    import resource

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard == resource.RLIM_INFINITY or soft < hard:
        target = 65536 if hard == resource.RLIM_INFINITY else hard
        with contextlib.suppress(ValueError, OSError):
            resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
            soft = target
    return soft


#: Seconds the bench's clients keep an idle connection: under the server's keep-alive (``keep_alive_timeout``, 5 s),
#: so a client never sends on a connection the server is closing (an honest quick-match pair asking every 5 s
#: met that race: ``httpx.ReadError``).
KEEPALIVE_EXPIRY = 2.0


def http_client(local: str, timeout: float = 15.0) -> httpx.AsyncClient:
    """An HTTP client whose connections come from ``local`` (never through a proxy of the environment)."""
    transport = httpx.AsyncHTTPTransport(local_address=local, limits=httpx.Limits(keepalive_expiry=KEEPALIVE_EXPIRY))
    return httpx.AsyncClient(transport=transport, timeout=timeout, trust_env=False)


async def seated(port: int, table: dict[str, Any], local: str) -> ClientConnection:
    """A socket at ``table``'s seat (its ``ws_url`` and ``token``), the hello sent, from the address ``local``."""
    ws = await ws_connect(f"ws://127.0.0.1:{port}{table['ws_url']}", local)
    await ws.send(json.dumps({"type": "hello", "token": table["token"]}))
    return ws


async def close_quietly(ws: Any, seconds: float = 3.0) -> None:
    """Close a socket, giving up after ``seconds``: the bench never waits on a server that does not answer."""
    with contextlib.suppress(Exception):
        async with asyncio.timeout(seconds):
            await ws.close()


async def start_all(
    one: Callable[[int], Coroutine[Any, Any, None]], count: int, ready: asyncio.Event
) -> list[asyncio.Task[None]]:
    """Start ``one(i)`` for ``i < count`` and wait (at most a minute) until ``ready`` is set by them."""
    tasks = [asyncio.create_task(one(i)) for i in range(count)]
    with contextlib.suppress(TimeoutError):
        async with asyncio.timeout(60):
            await ready.wait()
    return tasks


async def ws_connect(url: str, local: str, **kwargs: Any) -> ClientConnection:
    """A WebSocket from ``local``: ``local_addr`` goes to ``loop.create_connection``; no ``Origin`` (a script)."""
    return await connect(url, proxy=None, open_timeout=15, max_size=2**22, local_addr=(local, 0), **kwargs)


def pick_card(legal: list[str], rng: random.Random) -> str:
    """A random legal action that neither closes nor declares (so a game runs its length), if there is one."""
    plays = [t for t in legal if not t.startswith(("close", "declare"))]
    return rng.choice(plays or legal)


# ---------------------------------------------------------------------------------- raw HTTP
class RawHttp:
    """A minimal keep-alive HTTP/1.1 client on asyncio streams: far cheaper than httpx for floods."""

    def __init__(self, port: int, local: str) -> None:
        self.port = port
        self.local = local
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None
        self.connects = 0

    async def _open(self) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
        self.reader, self.writer = await asyncio.open_connection("127.0.0.1", self.port, local_addr=(self.local, 0))
        self.connects += 1
        return self.reader, self.writer

    def close(self) -> None:
        if self.writer is not None:
            self.writer.close()
        self.reader = self.writer = None

    async def request(
        self, method: str, path: str, body: dict[str, Any] | None = None, client: str | None = None
    ) -> tuple[int, dict[str, str], bytes]:
        """Status, headers (lower-case names) and body; reconnects once if the server closed the connection."""
        data = b"" if body is None else json.dumps(body).encode()
        head = f"{method} {path} HTTP/1.1\r\nHost: 127.0.0.1:{self.port}\r\n"
        if client is not None:
            head += f"X-Forwarded-For: {client}\r\n"
        if body is not None:
            head += f"Content-Type: application/json\r\nContent-Length: {len(data)}\r\n"
        raw = head.encode() + b"\r\n" + data
        for attempt in (0, 1):
            reader, writer = (self.reader, self.writer) if self.writer is not None else await self._open()
            assert reader is not None and writer is not None
            try:
                async with asyncio.timeout(20):
                    writer.write(raw)
                    await writer.drain()
                    status_line, *lines = (await reader.readuntil(b"\r\n\r\n")).decode("latin-1").split("\r\n")
                    headers = {}
                    for line in lines:
                        if ":" in line:
                            name, value = line.split(":", 1)
                            headers[name.strip().lower()] = value.strip()
                    payload = await reader.readexactly(int(headers.get("content-length", "0")))
            except (ConnectionError, asyncio.IncompleteReadError, OSError):
                self.close()
                if attempt:
                    raise
                continue
            if headers.get("connection", "").lower() == "close":
                self.close()
            return int(status_line.split()[1]), headers, payload
        raise AssertionError("unreachable")


def detail_code(body: bytes) -> str:
    """The ``detail.code`` of an error answer (for a 429: which limit, from its message)."""
    try:
        detail = json.loads(body).get("detail", {})
    except (ValueError, AttributeError):
        return "?"
    if not isinstance(detail, dict):
        return "?"
    code = str(detail.get("code", "?"))
    if code == "rate_limited":
        found = re.search(r"\((\w+):", str(detail.get("message", "")))
        return f"rate_limited:{found.group(1)}" if found else code
    return code


# ------------------------------------------------------------------------------------ server
class Server:
    """``bummerl serve`` in a child process (its own process group), on a fresh SQLite folder."""

    def __init__(self, label: str) -> None:
        self.label = label
        self.folder = Path(tempfile.mkdtemp(prefix=f"bummerl-web-abuse-{label}-"))
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.ws_base = f"ws://127.0.0.1:{self.port}"
        self.log_path = self.folder / "server.log"
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def db_path(self) -> Path:
        return self.folder / "data" / "bummerl.db"

    @property
    def pid(self) -> int:
        assert self.proc is not None
        return self.proc.pid

    def command(self) -> list[str]:
        return [
            sys.executable, "-m", "bummerl", "serve", "--port", str(self.port),
            "--data-dir", str(self.folder / "data"), "--bot-delay", "0",
            "--bot-workers", str(BOT_WORKERS), "--log-level", "warning",
        ]  # fmt: skip

    async def start(self) -> float:
        """Start it and wait until it answers; the seconds that took."""
        env = dict(os.environ)
        env["PYTHONPATH"] = str(SRC) + os.pathsep + env.get("PYTHONPATH", "")
        env.pop("FORWARDED_ALLOW_IPS", None)  # uvicorn's default: trust 127.0.0.1 only
        started = time.monotonic()
        with open(self.log_path, "wb") as log:
            self.proc = subprocess.Popen(
                self.command(), stdout=log, stderr=subprocess.STDOUT, env=env, start_new_session=True
            )
        async with http_client(CONTROL, timeout=2.0) as client:
            while time.monotonic() - started < 60:
                if self.proc.poll() is not None:
                    raise RuntimeError(f"the server exited with {self.proc.returncode}: {self.log_tail()}")
                with contextlib.suppress(httpx.HTTPError):
                    if (await client.get(f"{self.base}/api/variants")).status_code == 200:
                        return time.monotonic() - started
                await asyncio.sleep(0.1)
        raise RuntimeError(f"the server did not answer within 60 s: {self.log_tail()}")

    def stop(self) -> None:
        """Stop it (SIGTERM, then SIGKILL for the whole group after 15 s) and remove its folder."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait(timeout=5)
        shutil.rmtree(self.folder, ignore_errors=True)

    def log_text(self) -> str:
        try:
            return self.log_path.read_text(errors="replace")
        except OSError:
            return ""

    def log_tail(self, lines: int = 20) -> str:
        return "\n".join(self.log_text().splitlines()[-lines:])

    def log_report(self) -> dict[str, Any]:
        """What the server logged: tracebacks (a bug unless explained) and the kinds of error lines."""
        text = self.log_text()
        kinds: Counter[str] = Counter()
        banner = text.find("Stop it with Ctrl+C.")
        for line in text[banner + 1 if banner >= 0 else 0 :].splitlines()[1:]:
            # The app's own log lines have no level prefix (uvicorn configures only its loggers).
            if line.strip() and not line.startswith((" ", "Traceback", "During handling", "The above exception")):
                kinds[re.sub(r"[0-9]+(\.[0-9]+)?|'[^']*'|\b[A-Za-z0-9_-]{12}\b", "#", line)[:110]] += 1
        tracebacks = text.count("Traceback (most recent call last)")
        first = ""
        if tracebacks:
            start = text.index("Traceback (most recent call last)")
            first = "\n".join(text[start:].splitlines()[:80])
        return {"tracebacks": tracebacks, "first_traceback": first, "log_lines": dict(kinds.most_common(12))}


@contextlib.asynccontextmanager
async def running(label: str, results: dict[str, Any]) -> Any:
    server = Server(label)
    try:
        results.setdefault("startup_s", {})[label] = round(await server.start(), 2)
        yield server
    finally:
        results.setdefault("server_logs", {})[label] = server.log_report()
        server.stop()


# --------------------------------------------------------------------------------- the seats
class Seat:
    """Seat 0 of one table against a bot, played by the bench; every latency is tagged with its send time.

    The seat waits :data:`THINK_SECONDS` before each request, as a quick human would.
    With ``ping`` a second socket (a spectator, from its own address) sends a ``ping`` every
    :data:`PROBE_SECONDS`: its ``pong`` waits for nothing but the event loop, while a ping on the seat's own
    socket would wait behind the seat's action (a socket's messages are handled in order).
    """

    def __init__(self, server: Server, local: str, bot: str, seed: int, *, ping: str | None = None) -> None:
        self.server = server
        self.local = local
        self.bot = bot
        self.seed = seed
        self.ping = ping
        self.rng = random.Random(seed)
        #: (first send, seconds until this seat's turn again or the game's end)
        self.turns: list[tuple[float, float]] = []
        #: (send, seconds until the first answer, what it was: "state" or the error code); actions and next_game
        self.answers: list[tuple[float, float, str]] = []
        #: (send, round trip of a ping message)
        self.pings: list[tuple[float, float]] = []
        #: When this seat's request was through (its turn again, or the next game dealt), for the recovery.
        self.done_times: list[float] = []
        self.errors: Counter[str] = Counter()
        self.games = 0
        self.disconnects = 0
        self.table: dict[str, Any] = {}
        #: While set and not open, the seat waits at its next request (and sets ``parked``) until it opens.
        self.gate: asyncio.Event | None = None
        self.parked = asyncio.Event()

    async def create(self) -> None:
        async with http_client(self.local) as client:
            answer = await client.post(
                f"{self.server.base}/api/tables", json={"opponent": self.bot, "name": "bench", "seed": self.seed}
            )
        answer.raise_for_status()
        self.table = answer.json()

    async def play(self, stop: float, grace: float = 20.0) -> None:
        """Play until ``stop`` (monotonic); a request under way then is waited for up to ``grace`` s."""
        if not self.table:
            await self.create()
        probe = asyncio.create_task(self._probe(stop)) if self.ping else None
        try:
            while time.monotonic() < stop:
                try:
                    await self._session(stop, grace)
                    return
                except (ConnectionClosed, OSError, TimeoutError, WebSocketException) as exc:
                    self.disconnects += 1
                    self.errors[f"disconnected: {type(exc).__name__}"] += 1
                    await asyncio.sleep(0.2)
        finally:
            if probe is not None:
                probe.cancel()
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await probe

    async def _session(self, stop: float, grace: float) -> None:
        ws = await ws_connect(f"{self.server.ws_base}{self.table['ws_url']}", self.local)
        try:
            await ws.send(json.dumps({"type": "hello", "token": self.table["token"]}))
            # The request under way: its message, its first and its latest sending (a refused one is sent
            # again), and the seq it was sent at; None when nothing is under way.
            pending: str | None = None
            first_sent = sent = 0.0
            answered = True
            sent_seq = -1
            while True:
                now = time.monotonic()
                if now >= stop and (pending is None or now >= stop + grace):
                    return
                wait = (stop + grace if pending is not None else stop) - now
                try:
                    async with asyncio.timeout(max(0.05, min(wait, 30.0))):
                        message = json.loads(await ws.recv())
                except TimeoutError:
                    if time.monotonic() < stop:
                        self.errors["no message for 30 s"] += 1
                    continue
                now = time.monotonic()
                kind = message.get("type")
                if kind == "error":
                    code = str(message.get("code"))
                    if pending is not None and not answered:
                        self.answers.append((sent, now - sent, code))
                        answered = True
                        if code in ("storage", "rate_limited"):
                            # Nothing changed: send it again (at once after a storage error, as the
                            # protocol says; a second later when the server asks to slow down).
                            if code == "rate_limited":
                                self.errors[code] += 1
                                await asyncio.sleep(1.0)
                            sent, answered = time.monotonic(), False
                            await ws.send(pending)
                            continue
                    self.errors[code] += 1
                    if pending is not None:
                        # Refused for another reason: ask for the table's state again (hello) and go on.
                        pending = None
                        await ws.send(json.dumps({"type": "hello", "token": self.table["token"]}))
                    continue
                if kind != "state":
                    continue
                seq = int(message["seq"])
                over = message["status"] != "playing"
                if pending is not None and seq > sent_seq:
                    if not answered:
                        self.answers.append((sent, now - sent, "state"))
                        answered = True
                    if '"next_game"' in pending:
                        pending = None
                        self.done_times.append(now)
                    elif message["your_turn"] or over:
                        self.turns.append((first_sent, now - first_sent))
                        self.done_times.append(now)
                        pending = None
                if pending is not None or now >= stop:
                    continue
                if over:
                    game_over = message.get("game_over") or {}
                    if message["status"] == "game_over" and game_over.get("next_game", True):
                        self.games += 1
                        pending = json.dumps({"type": "next_game"})
                elif message["your_turn"] and message["legal"]:
                    pending = json.dumps({"type": "action", "action": pick_card(message["legal"], self.rng)})
                if pending is not None:
                    # A human's pace: the server meters a socket's messages (10 a second after a burst).
                    await asyncio.sleep(THINK_SECONDS)
                    if self.gate is not None and not self.gate.is_set():
                        self.parked.set()  # at our turn: wait for the bench (e.g. until the database is locked)
                        async with asyncio.timeout(60):
                            await self.gate.wait()
                    sent_seq = seq
                    first_sent = sent = time.monotonic()
                    answered = False
                    await ws.send(pending)
        finally:
            await close_quietly(ws, 5)

    async def _probe(self, stop: float) -> None:
        """Ping the server on a spectator's socket of this table until ``stop``."""
        assert self.ping is not None
        while time.monotonic() < stop:
            try:
                ws = await ws_connect(f"{self.server.ws_base}{self.table['ws_url']}", self.ping)
                try:
                    await ws.send(json.dumps({"type": "hello"}))
                    while time.monotonic() < stop:
                        at = time.monotonic()
                        await ws.send(json.dumps({"type": "ping"}))
                        async with asyncio.timeout(30):
                            while json.loads(await ws.recv()).get("type") != "pong":
                                pass
                        self.pings.append((at, time.monotonic() - at))
                        await asyncio.sleep(max(0.0, at + PROBE_SECONDS - time.monotonic()))
                finally:
                    await close_quietly(ws, 5)
            except (ConnectionClosed, OSError, TimeoutError, WebSocketException) as exc:
                self.errors[f"probe: {type(exc).__name__}"] += 1
                await asyncio.sleep(0.2)

    def report(self, windows: list[tuple[float, float]] | None = None) -> dict[str, Any]:
        """Latencies (of everything, or of what was sent inside ``windows``)."""

        def inside(at: float) -> bool:
            return windows is None or any(a <= at <= b for a, b in windows)

        out: dict[str, Any] = {
            "bot": self.bot,
            "turn": summary_ms([lat for at, lat in self.turns if inside(at)]),
            "answer": summary_ms([lat for at, lat, _ in self.answers if inside(at)]),
            "answer_kinds": dict(Counter(kind for at, _, kind in self.answers if inside(at))),
            "games_finished": self.games,
            "errors": dict(self.errors),
            "disconnects": self.disconnects,
        }
        if self.ping:
            out["ping"] = summary_ms([lat for at, lat in self.pings if inside(at)])
        return out


def seats_for(server: Server) -> list[Seat]:
    return [
        Seat(server, SEAT_RANDOM, "random", 7101, ping=PROBE),
        Seat(server, SEAT_HARD, "hard", 7102),
    ]


# --------------------------------------------------------------------- load in other processes
def run_load(
    target: Callable[..., Coroutine[Any, Any, dict[str, Any]]],
    args: tuple[Any, ...],
    ready: multiprocessing.synchronize.Event,
    stop: multiprocessing.synchronize.Event,
    out: Any,
) -> None:
    """A child process: run ``target(*args, ready, stop)`` and put its report (or its failure) in ``out``."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent stops us
    try:
        out.put(asyncio.run(target(*args, ready, stop)))
    except BaseException as exc:  # reported to the parent, which decides
        out.put({"failed": f"{type(exc).__name__}: {exc}"})


class LoadProcess:
    """A load generator in its own process, so that its work does not delay the bench's own clients."""

    def __init__(self, target: Callable[..., Coroutine[Any, Any, dict[str, Any]]], *args: Any) -> None:
        ctx = multiprocessing.get_context("spawn")
        self.ready = ctx.Event()
        self.stop_event = ctx.Event()
        self.out = ctx.Queue()
        self.proc = ctx.Process(target=run_load, args=(target, args, self.ready, self.stop_event, self.out))

    # The waits poll instead of blocking a thread, so that Ctrl+C never waits for a thread to give up.
    async def start(self, timeout: float) -> None:
        self.proc.start()
        deadline = time.monotonic() + timeout
        while not self.ready.is_set():
            if time.monotonic() > deadline or not self.proc.is_alive():
                raise RuntimeError(f"the load was not ready within {timeout:.0f} s")
            await asyncio.sleep(0.05)

    async def finish(self, timeout: float = 60.0) -> dict[str, Any]:
        self.stop_event.set()
        deadline = time.monotonic() + timeout
        result: dict[str, Any] = {"failed": "no report"}
        while time.monotonic() < deadline:
            try:
                result = self.out.get_nowait()
                break
            except queue.Empty:
                if not self.proc.is_alive() and self.out.empty():
                    result = {"failed": f"the load process ended with {self.proc.exitcode}"}
                    break
                await asyncio.sleep(0.05)
        for _ in range(100):
            if not self.proc.is_alive():
                break
            await asyncio.sleep(0.05)
        self.kill()
        return result

    def kill(self) -> None:
        if self.proc.is_alive():
            self.proc.terminate()
            self.proc.join(5)
        if self.proc.is_alive():
            self.proc.kill()
            self.proc.join(5)


async def _until(stop: multiprocessing.synchronize.Event) -> None:
    while not stop.is_set():
        await asyncio.sleep(0.1)


async def flood_window(
    one: Callable[[int], Coroutine[Any, Any, None]],
    count: int,
    started: asyncio.Event,
    stats: Counter[str],
    ready: multiprocessing.synchronize.Event,
    stop: multiprocessing.synchronize.Event,
) -> tuple[Counter[str], float]:
    """Start ``one(i)`` for ``i < count`` (:func:`start_all`, until ``started``), tell the bench the load is ready
    and run until ``stop``: what ``stats`` counted meanwhile, and how many seconds that was."""
    tasks = await start_all(one, count, started)
    began = time.monotonic()
    before = Counter(stats)
    ready.set()
    await _until(stop)
    seconds = time.monotonic() - began
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    return stats - before, seconds


async def _drain(ws: ClientConnection, counts: list[int], answered: asyncio.Event, stats: Counter[str]) -> None:
    """Read a flooding socket's answers: ``counts[1]`` counts them, ``answered`` wakes the sender."""
    async for _ in ws:
        stats["received"] += 1
        counts[1] += 1
        answered.set()


async def flood(
    port: int, workers: int, ready: multiprocessing.synchronize.Event, stop: multiprocessing.synchronize.Event
) -> dict[str, Any]:
    """One client (one address) floods: creates, unknown ids, sockets to unknown tables, junk over sockets."""
    rng = random.Random(66)
    http: Counter[str] = Counter()
    ws_stats: Counter[str] = Counter()
    tables: list[dict[str, Any]] = []
    ws_base = f"ws://127.0.0.1:{port}"
    started = time.monotonic()

    async def http_worker(i: int) -> None:
        client = RawHttp(port, FLOODER)
        n = 0
        while not stop.is_set():
            n += 1
            try:
                if n % 2 == i % 2:
                    status, _, body = await client.request("POST", "/api/tables", {"opponent": "random", "name": "x"})
                    key = f"POST /api/tables {status}"
                    if status == 201:
                        tables.append(json.loads(body))
                else:
                    status, _, body = await client.request("GET", f"/api/tables/{random_table_id(rng)}")
                    key = f"GET unknown id {status}"
                http[key if status != 429 else f"{key} {detail_code(body)}"] += 1
            except (OSError, asyncio.IncompleteReadError, TimeoutError) as exc:
                http[f"failed: {type(exc).__name__}"] += 1
                await asyncio.sleep(0.05)
        client.close()

    async def junk_socket(i: int) -> None:
        # Even sockets take a seat at the flooder's own tables, odd ones watch the normal tables.
        while not stop.is_set():
            try:
                token: str | None = None
                if i % 2 == 0 and tables:
                    table = tables[i // 2 % len(tables)]
                    path, token = table["ws_url"], table["token"]
                else:
                    async with http_client(FLOODER) as client:
                        live = (await client.get(f"http://127.0.0.1:{port}/api/tables")).json()
                    victims = [t for t in live if isinstance(t, dict) and "bench" in t.get("players", [])]
                    if not victims:
                        await asyncio.sleep(0.5)
                        continue
                    path = f"/ws/tables/{victims[i // 2 % len(victims)]['table_id']}"
                ws = await ws_connect(f"{ws_base}{path}", FLOODER)
                ws_stats["opened"] += 1
                junk = [
                    json.dumps({"type": "hello", "token": token}),
                    json.dumps({"type": "action", "action": "Zz"}),
                    json.dumps({"type": "action", "action": "Ah"}),
                    json.dumps({"type": "ping"}),
                    "{not json",
                    json.dumps({"type": "next_game"}),
                    json.dumps({"type": "bogus"}),
                    "x" * 5000,
                ]

                # At most JUNK_WINDOW messages unanswered: as fast as the server answers, without being
                # dropped as a client that reads nothing, and leaving the HTTP flood its share of this process.
                counts = [0, 0]  # sent, received
                answered = asyncio.Event()

                reader = asyncio.create_task(_drain(ws, counts, answered, ws_stats))
                try:
                    await ws.send(junk[0])
                    while not stop.is_set() and not reader.done():
                        if counts[0] - counts[1] >= JUNK_WINDOW:
                            answered.clear()
                            with contextlib.suppress(TimeoutError):
                                async with asyncio.timeout(1):
                                    await answered.wait()
                            continue
                        await ws.send(rng.choice(junk[1:]))
                        ws_stats["sent"] += 1
                        counts[0] += 1
                except ConnectionClosed:
                    pass  # counted below by its close code
                finally:
                    reader.cancel()
                    with contextlib.suppress(asyncio.CancelledError, Exception):
                        await reader
                    await close_quietly(ws)
                ws_stats["closed by us" if stop.is_set() else f"closed by the server {ws.close_code}"] += 1
            except (ConnectionClosed, OSError, TimeoutError, WebSocketException, ValueError) as exc:
                ws_stats[f"failed: {type(exc).__name__}"] += 1
                await asyncio.sleep(0.1)

    async def unknown_socket() -> None:
        while not stop.is_set():
            try:
                ws = await ws_connect(f"{ws_base}/ws/tables/{random_table_id(rng)}", FLOODER)
                try:
                    async with asyncio.timeout(10):
                        await ws.recv()
                except ConnectionClosed as exc:
                    ws_stats[f"unknown table closed {exc.rcvd.code if exc.rcvd else None}"] += 1
                finally:
                    with contextlib.suppress(Exception):
                        await ws.close()
            except (OSError, TimeoutError, WebSocketException) as exc:
                ws_stats[f"unknown table failed: {type(exc).__name__}"] += 1
                await asyncio.sleep(0.1)

    tasks = [asyncio.create_task(http_worker(i)) for i in range(workers)]
    tasks += [asyncio.create_task(junk_socket(i)) for i in range(workers)]
    tasks += [asyncio.create_task(unknown_socket()) for _ in range(2)]
    await asyncio.sleep(1.0)
    ready.set()
    await _until(stop)
    seconds = time.monotonic() - started
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    requests = sum(n for k, n in http.items() if not k.startswith("failed"))
    return {
        "seconds": round(seconds, 1),
        "connections": 2 * workers + 2,
        "http_requests": requests,
        "http_per_s": round(requests / seconds),
        "http": dict(http.most_common()),
        "ws_messages_sent": ws_stats["sent"],
        "ws_messages_per_s": round(ws_stats["sent"] / seconds),
        "ws": dict(ws_stats.most_common()),
        "tables_created": len(tables),
    }


async def expert_tables(
    port: int, count: int, ready: multiprocessing.synchronize.Event, stop: multiprocessing.synchronize.Event
) -> dict[str, Any]:
    """``count`` clients, each at a table against ``expert``, play a random legal action at once."""
    stats: Counter[str] = Counter()
    started: list[float] = []
    first_actions = asyncio.Event()
    acted: set[int] = set()

    async def one(i: int) -> None:
        local = EXPERT_ADDRESSES[i % len(EXPERT_ADDRESSES)]
        rng = random.Random(9000 + i)
        async with http_client(local) as client:
            answer = await client.post(
                f"http://127.0.0.1:{port}/api/tables", json={"opponent": "expert", "name": "load", "seed": 9000 + i}
            )
        if answer.status_code != 201:
            stats[f"create {answer.status_code}"] += 1
            acted.add(i)
            return
        table = answer.json()
        while not stop.is_set():
            try:
                ws = await seated(port, table, local)
                while not stop.is_set():
                    try:
                        async with asyncio.timeout(0.5):
                            message = json.loads(await ws.recv())
                    except TimeoutError:
                        continue
                    if message.get("type") == "error":
                        stats[f"error {message.get('code')}"] += 1
                    if message.get("type") != "state":
                        continue
                    if message["status"] == "game_over":
                        stats["games"] += 1
                        await ws.send(json.dumps({"type": "next_game"}))
                    elif message["your_turn"] and message["legal"]:
                        await ws.send(json.dumps({"type": "action", "action": rng.choice(message["legal"])}))
                        stats["actions"] += 1
                        acted.add(i)
                        if len(acted) == count:
                            first_actions.set()
                await close_quietly(ws)
            except (ConnectionClosed, OSError, TimeoutError, WebSocketException) as exc:
                stats[f"disconnected: {type(exc).__name__}"] += 1
                await asyncio.sleep(0.2)

    tasks = await start_all(one, count, first_actions)
    started.append(time.monotonic())
    before = stats["actions"]
    ready.set()
    await _until(stop)
    seconds = time.monotonic() - started[0]
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    return {
        "tables": count,
        "playing": len(acted),
        "client_actions_per_s": round((stats["actions"] - before) / seconds, 1),
        "stats": dict(stats),
    }


async def hint_flood(
    port: int, tables: int, ready: multiprocessing.synchronize.Event, stop: multiprocessing.synchronize.Event
) -> dict[str, Any]:
    """One client (one address) at ``tables`` tables against ``random`` asks for a hint the moment it hears back."""
    stats: Counter[str] = Counter()
    opened = asyncio.Event()
    open_count = [0]

    async def one(i: int) -> None:
        async with http_client(FLOODER) as client:
            answer = await client.post(
                f"http://127.0.0.1:{port}/api/tables", json={"opponent": "random", "name": "flood", "seed": 6600 + i}
            )
        if answer.status_code != 201:
            stats[f"create {answer.status_code}"] += 1
            open_count[0] += 1
            return
        table = answer.json()
        counted = False
        while not stop.is_set():
            try:
                ws = await seated(port, table, FLOODER)
                asking = False
                while not stop.is_set():
                    try:
                        async with asyncio.timeout(0.5):
                            message = json.loads(await ws.recv())
                    except TimeoutError:
                        continue
                    kind = message.get("type")
                    if kind == "state" and message["your_turn"] and not asking:
                        if not counted:
                            counted = True
                            open_count[0] += 1
                            if open_count[0] == tables:
                                opened.set()
                    elif kind == "hint":
                        stats["hints"] += 1
                    elif kind == "error" and message.get("about") == "hint":
                        code = str(message.get("code"))
                        stats[code] += 1
                        await asyncio.sleep(1.0 if code == "rate_limited" else 0.1 if code == "busy" else 0.0)
                    else:
                        continue
                    asking = True
                    await ws.send(json.dumps({"type": "hint"}))
                await close_quietly(ws)
            except (ConnectionClosed, OSError, TimeoutError, WebSocketException) as exc:
                stats[f"disconnected: {type(exc).__name__}"] += 1
                await asyncio.sleep(0.2)

    during, seconds = await flood_window(one, tables, opened, stats, ready, stop)
    return {
        "tables": tables,
        "seconds": round(seconds, 1),
        "hints": during["hints"],
        "hints_per_s": round(during["hints"] / seconds, 2),
        "answers": dict(during.most_common()),
    }


async def ask_hints(server: Server, stop: float) -> dict[str, Any]:
    """Another client at a table of its own asks one hint every :data:`HINT_EVERY` s at its turn, until ``stop``."""
    async with http_client(HINT_ASKER) as client:
        answer = await client.post(
            f"{server.base}/api/tables", json={"opponent": "random", "name": "asker", "seed": 42}
        )
    answer.raise_for_status()
    table = answer.json()
    asked: list[tuple[float, str]] = []  # (seconds until the answer, "hint" or the error code)
    ws = await ws_connect(f"{server.ws_base}{table['ws_url']}", HINT_ASKER)
    try:
        await ws.send(json.dumps({"type": "hello", "token": table["token"]}))
        async with asyncio.timeout(30):  # its turn (it never plays, so its turn stays)
            while not (message := json.loads(await ws.recv())).get("your_turn"):
                pass
        while time.monotonic() < stop:
            sent = time.monotonic()
            await ws.send(json.dumps({"type": "hint"}))
            async with asyncio.timeout(30):
                while True:
                    message = json.loads(await ws.recv())
                    if message.get("type") == "hint" or message.get("about") == "hint":
                        break
            code = "hint" if message["type"] == "hint" else str(message.get("code"))
            asked.append((time.monotonic() - sent, code))
            await asyncio.sleep(max(0.0, sent + HINT_EVERY - time.monotonic()))
    finally:
        await close_quietly(ws, 5)
    in_time = sum(1 for seconds, code in asked if code == "hint" and seconds <= HINT_DEADLINE)
    return {
        "asked": len(asked),
        "answered_within_s": HINT_DEADLINE,
        "answered_in_time": in_time,
        "answers": dict(Counter(code for _, code in asked)),
        "latency": summary_ms([seconds for seconds, code in asked if code == "hint"]),
    }


async def quickmatch_flood(
    port: int, addresses: int, ready: multiprocessing.synchronize.Event, stop: multiprocessing.synchronize.Event
) -> dict[str, Any]:
    """Clients at ``addresses`` addresses keep :data:`QM_PLAYERS` quick-match tickets each waiting, and ask again
    the moment one is seated (they never sit down): the flood of the module's docstring."""
    base = f"http://127.0.0.1:{port}"
    stats: Counter[str] = Counter()
    started = [0]
    all_started = asyncio.Event()

    async def keep(client: httpx.AsyncClient, key: str) -> None:
        auth = {"Authorization": f"Bearer {key}"}
        ticket: str | None = None
        while not stop.is_set():
            if ticket is None:
                answer = await client.post(f"{base}/api/quickmatch", json={"variant": "schnapsen"}, headers=auth)
                if answer.status_code != 201:
                    stats[f"ask {answer.status_code} {detail_code(answer.content)}"] += 1
                    await asyncio.sleep(1.0)
                    continue
                stats["ask 201"] += 1
                got = answer.json()
                if got["state"] == "seated":
                    stats["seated"] += 1
                    continue
                ticket = got["ticket"]
            await asyncio.sleep(1.0)
            answer = await client.get(f"{base}/api/quickmatch/{ticket}")
            stats[f"poll {answer.status_code}"] += 1
            if answer.status_code != 200 or answer.json()["state"] == "seated":
                stats["seated"] += answer.status_code == 200
                ticket = None

    async def one(i: int) -> None:
        async with http_client(QM_FLOODERS[i]) as client:
            keys = []
            for k in range(QM_PLAYERS):
                answer = await client.post(f"{base}/api/players", json={"name": f"flood {i}.{k}"})
                if answer.status_code == 201:
                    keys.append(answer.json()["key"])
                else:
                    stats[f"player {answer.status_code}"] += 1
            started[0] += 1
            if started[0] == addresses:
                all_started.set()
            await asyncio.gather(*(keep(client, key) for key in keys))

    during, seconds = await flood_window(one, addresses, all_started, stats, ready, stop)
    return {
        "addresses": addresses,
        "players": addresses * QM_PLAYERS,
        "seconds": round(seconds, 1),
        "asks_per_s": round(sum(n for k, n in during.items() if k.startswith("ask ")) / seconds, 2),
        "seated_per_s": round(during["seated"] / seconds, 2),
        "answers": dict(during.most_common()),
    }


async def honest_pairs(server: Server, stop: float) -> dict[str, Any]:
    """Two clients ask for a quick match of schnapsen together every :data:`QM_EVERY` s until ``stop``: how long
    each waits until seated, and whether they are seated with each other."""
    base = server.base

    async def seat(client: httpx.AsyncClient, key: str) -> tuple[str | None, float, str]:
        """``(table id, seconds until seated, how it ended)`` of one ask."""
        auth = {"Authorization": f"Bearer {key}"}
        sent = time.monotonic()
        answer = await client.post(f"{base}/api/quickmatch", json={"variant": "schnapsen"}, headers=auth)
        if answer.status_code != 201:
            return None, time.monotonic() - sent, f"ask {answer.status_code} {detail_code(answer.content)}"
        ticket = answer.json()
        while ticket["state"] != "seated":
            if time.monotonic() - sent > QM_PATIENCE:
                await client.delete(f"{base}/api/quickmatch/{ticket['ticket']}")
                return None, time.monotonic() - sent, "not seated"
            await asyncio.sleep(0.1)  # the page polls every second; the bench polls faster to time the seating
            answer = await client.get(f"{base}/api/quickmatch/{ticket['ticket']}")
            if answer.status_code != 200:
                return None, time.monotonic() - sent, f"poll {answer.status_code}"
            ticket = answer.json()
        return str(ticket["table"]["table_id"]), time.monotonic() - sent, "seated"

    waits: list[float] = []
    outcomes: Counter[str] = Counter()
    async with http_client(QM_HONEST[0]) as a, http_client(QM_HONEST[1]) as b:
        keys = []
        for client in (a, b):
            answer = await client.post(f"{base}/api/players", json={"name": "honest"})
            answer.raise_for_status()
            keys.append(answer.json()["key"])
        while time.monotonic() < stop:
            began = time.monotonic()
            (table_a, wait_a, end_a), (table_b, wait_b, end_b) = await asyncio.gather(
                seat(a, keys[0]), seat(b, keys[1])
            )
            outcomes[end_a] += 1
            outcomes[end_b] += 1
            waits += [w for w, end in ((wait_a, end_a), (wait_b, end_b)) if end == "seated"]
            if table_a is not None and table_a == table_b:
                outcomes["together"] += 1
            elif table_a is not None or table_b is not None:
                outcomes["apart"] += 1
            await asyncio.sleep(max(0.0, began + QM_EVERY - time.monotonic()))
    return {"pairs": outcomes["together"] + outcomes["apart"], "outcomes": dict(outcomes), "wait": summary_ms(waits)}


# ------------------------------------------------------------------------------------- parts
async def part_rate(window: float, results: dict[str, Any]) -> dict[str, Any]:
    """1. One address creates tables as fast as it can for ``window`` seconds."""
    async with running("rate", results) as server:
        client = RawHttp(server.port, RATE_CLIENT)
        start = time.monotonic()
        created = created_before_429 = 0
        first_429: dict[str, Any] | None = None
        statuses: Counter[str] = Counter()
        while time.monotonic() - start < window:
            status, headers, body = await client.request("POST", "/api/tables", {"opponent": "random", "name": "r"})
            if status == 201:
                created += 1
                if first_429 is None:
                    created_before_429 = created
            elif status == 429 and first_429 is None:
                first_429 = {
                    "after_s": round(time.monotonic() - start, 2),
                    "reason": detail_code(body),
                    "retry_after": headers.get("retry-after"),
                }
            statuses[str(status) if status != 429 else f"429 {detail_code(body)}"] += 1
        client.close()
        return {
            "window_s": window,
            "created_before_first_429": created_before_429,
            "created_in_window": created,
            # The limit is a moving window of a minute: a shorter window gives no per-minute figure.
            "per_minute": created if window >= 60 else None,
            "first_429": first_429,
            "requests": sum(statuses.values()),
            "statuses": dict(statuses.most_common()),
        }


async def measure_seats(server: Server, seconds: float) -> list[Seat]:
    seats = seats_for(server)
    for seat in seats:
        await seat.create()
    stop = time.monotonic() + seconds
    await asyncio.gather(*(seat.play(stop) for seat in seats))
    return seats


async def part_quiet(seconds: float, results: dict[str, Any]) -> dict[str, Any]:
    async with running("quiet", results) as server:
        seats = await measure_seats(server, seconds)
        return {"seats": [s.report() for s in seats]}


async def part_flood(seconds: float, results: dict[str, Any]) -> dict[str, Any]:
    async with running("flood", results) as server:
        seats = seats_for(server)
        for seat in seats:
            await seat.create()  # first, so that the flood's spectators find them
        load = LoadProcess(flood, server.port, 4)
        try:
            await load.start(timeout=30)
            stop = time.monotonic() + seconds
            await asyncio.gather(*(seat.play(stop) for seat in seats))
            report = await load.finish()
        finally:
            load.kill()
        return {"seats": [s.report() for s in seats], "flood": report}


async def part_expert(seconds: float, tables: int, results: dict[str, Any]) -> dict[str, Any]:
    async with running("expert", results) as server:
        load = LoadProcess(expert_tables, server.port, tables)
        try:
            await load.start(timeout=90)
            seats = await measure_seats(server, seconds)
            report = await load.finish()
        finally:
            load.kill()
        return {"seats": [s.report() for s in seats], "expert": report}


async def part_under_flood(
    label: str,
    seconds: float,
    results: dict[str, Any],
    flood_target: Callable[..., Coroutine[Any, Any, dict[str, Any]]],
    flood_size: int,
    other: Callable[[Server, float], Awaitable[dict[str, Any]]],
    other_key: str,
) -> dict[str, Any]:
    """A flood in a process of its own (``flood_target`` of ``flood_size``) while the normal tables play and another
    client does ``other``: the seats' reports, ``other``'s under ``other_key``, and the flood's."""
    async with running(label, results) as server:
        seats = seats_for(server)
        for seat in seats:
            await seat.create()
        load = LoadProcess(flood_target, server.port, flood_size)
        try:
            await load.start(timeout=90)
            stop = time.monotonic() + seconds
            theirs, *_ = await asyncio.gather(other(server, stop), *(seat.play(stop) for seat in seats))
            report = await load.finish()
        finally:
            load.kill()
        return {"seats": [s.report() for s in seats], other_key: theirs, "flood": report}


async def part_hints(seconds: float, results: dict[str, Any]) -> dict[str, Any]:
    """The hint flood: one client's 9 tables against another client's hint and a ``hard`` table."""
    return await part_under_flood("hints", seconds, results, hint_flood, HINT_FLOOD_TABLES, ask_hints, "asker")


async def part_quickmatch(seconds: float, results: dict[str, Any]) -> dict[str, Any]:
    """The quick-match flood: 16 addresses' tickets against two honest clients' quick match and a ``hard`` table."""
    return await part_under_flood(
        "quickmatch", seconds, results, quickmatch_flood, len(QM_FLOODERS), honest_pairs, "honest"
    )


def hold_exclusive(db: Path, seconds: float, times: dict[str, float]) -> None:
    """An outside connection takes SQLite's exclusive lock and holds it for ``seconds``."""
    con = sqlite3.connect(db, timeout=30, isolation_level=None)
    try:
        con.execute("BEGIN EXCLUSIVE")
        times["locked"] = time.monotonic()
        time.sleep(seconds)
        con.execute("COMMIT")
        times["released"] = time.monotonic()
    finally:
        con.close()


async def part_lock(lock_seconds: float, cycles: int, results: dict[str, Any]) -> dict[str, Any]:
    async with running("lock", results) as server:
        seats = seats_for(server)
        for seat in seats:
            await seat.create()
        creates: list[dict[str, Any]] = []
        windows: list[tuple[float, float]] = []
        recovery: list[float] = []
        stop = time.monotonic() + 3600.0
        playing = [asyncio.create_task(seat.play(stop)) for seat in seats]

        async def create_during(times: dict[str, float], n: int) -> None:
            client = RawHttp(server.port, FORWARDER)
            try:
                status, headers, body = await client.request(
                    "POST", "/api/tables", {"opponent": "random", "name": "l"}, client=forwarded(n, 11)
                )
                entry = {"status": status, "retry_after": headers.get("retry-after"), "code": detail_code(body)}
            except (OSError, asyncio.IncompleteReadError, TimeoutError) as exc:
                entry = {"status": f"failed: {type(exc).__name__}"}
            finally:
                client.close()
            entry["during_lock"] = "released" not in times
            creates.append(entry)

        try:
            for cycle in range(cycles):
                await asyncio.sleep(3.0)
                # The seats wait at their turn, so that each sends a request as soon as the lock is held.
                gate = asyncio.Event()
                for seat in seats:
                    seat.parked.clear()
                    seat.gate = gate
                async with asyncio.timeout(60):
                    await asyncio.gather(*(seat.parked.wait() for seat in seats))
                times: dict[str, float] = {}
                holder = asyncio.create_task(asyncio.to_thread(hold_exclusive, server.db_path, lock_seconds, times))
                while "locked" not in times and not holder.done():
                    await asyncio.sleep(0.01)
                gate.set()
                for seat in seats:
                    seat.gate = None
                posting: list[asyncio.Task[None]] = []
                k = 0
                while not holder.done():
                    if time.monotonic() - times["locked"] < lock_seconds - 2.2:  # answered before the release
                        posting.append(asyncio.create_task(create_during(times, cycle * 100 + k)))
                        k += 1
                    await asyncio.sleep(1.0)
                await holder
                windows.append((times["locked"], times["released"]))
                await asyncio.gather(*posting)
                # Back to normal: every seat has its turn again (or 30 s pass).
                deadline = time.monotonic() + 30
                while time.monotonic() < deadline:
                    back = [next((t for t in seat.done_times if t > times["released"]), None) for seat in seats]
                    if all(b is not None for b in back):
                        recovery.append(max(b - times["released"] for b in back if b is not None))
                        break
                    await asyncio.sleep(0.05)
                else:
                    recovery.append(float("inf"))
        finally:
            for seat_task in playing:
                seat_task.cancel()
            await asyncio.gather(*playing, return_exceptions=True)
        statuses = Counter(str(c["status"]) for c in creates if c.get("during_lock"))
        return {
            "lock_s": lock_seconds,
            "cycles": cycles,
            "seats": [s.report(windows) for s in seats],
            "creates_during_lock": dict(statuses),
            "create_answers": creates,
            "recovery_s": [round(r, 2) for r in recovery],
        }


async def part_memory(requests: int, results: dict[str, Any]) -> dict[str, Any]:
    async with running("memory", results) as server:
        rng = random.Random(404)
        statuses: Counter[str] = Counter()
        counter = iter(range(10**9))
        checkpoints: list[tuple[int, int]] = []
        connections = 8
        pool = 512

        async def worker(todo: Iterator[int]) -> None:
            client = RawHttp(server.port, FORWARDER)
            for _ in todo:
                n = next(counter)
                try:
                    status, _, body = await client.request(
                        "GET", f"/api/tables/{random_table_id(rng)}", client=forwarded(n % pool)
                    )
                    statuses[str(status) if status in (200, 404) else f"{status} {detail_code(body)}"] += 1
                except (OSError, asyncio.IncompleteReadError, TimeoutError) as exc:
                    statuses[f"failed: {type(exc).__name__}"] += 1
            client.close()

        async def batch(n: int) -> None:
            shared = iter(range(n))
            await asyncio.gather(*(worker(shared) for _ in range(connections)))

        rss_start = rss_bytes(server.pid)
        await batch(1000)
        rss_before = rss_bytes(server.pid)
        checkpoints.append((0, rss_before))
        start = time.monotonic()
        step = max(1, requests // 5)
        done = 0
        while done < requests:
            n = min(step, requests - done)
            await batch(n)
            done += n
            checkpoints.append((done, rss_bytes(server.pid)))
        seconds = time.monotonic() - start
        await asyncio.sleep(2.0)
        rss_after = rss_bytes(server.pid)
        return {
            "requests": requests,
            "connections": connections,
            "forwarded_addresses": pool,
            "per_s": round(requests / seconds),
            "statuses": dict(statuses.most_common()),
            "rss_start_mib": round(rss_start / MiB, 1),
            "rss_before_mib": round(rss_before / MiB, 1),
            "rss_after_mib": round(rss_after / MiB, 1),
            "growth_mib": round((rss_after - rss_before) / MiB, 1),
            "checkpoints_mib": [(n, round(rss / MiB, 1)) for n, rss in checkpoints],
        }


def open_idle(port: int, local: str) -> socket.socket | None:
    try:
        s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        s.settimeout(3)
        s.bind((local, 0))
        s.connect(("127.0.0.1", port))
        s.setblocking(False)
        return s
    except OSError:
        return None


def held_or_refused(sockets: list[socket.socket | None]) -> tuple[int, Counter[str]]:
    """How many sockets are still open and silent (held by the server), and what the others got."""
    held = 0
    refused: Counter[str] = Counter()
    for s in sockets:
        if s is None:
            refused["connect failed"] += 1
            continue
        try:
            data = s.recv(4096)
        except BlockingIOError:
            held += 1
            continue
        except OSError as exc:
            refused[type(exc).__name__] += 1
            continue
        refused[data.split(b"\r\n", 1)[0].decode("latin-1", "replace") or "closed"] += 1
    return held, refused


async def fresh_get(server: Server, local: str) -> dict[str, Any]:
    start = time.monotonic()
    try:
        async with http_client(local, timeout=10) as client:
            answer = await client.get(f"{server.base}/api/variants")
        return {"status": answer.status_code, "ms": round(1000 * (time.monotonic() - start), 1)}
    except httpx.HTTPError as exc:
        return {"status": f"failed: {type(exc).__name__}", "ms": round(1000 * (time.monotonic() - start), 1)}


def close_all(sockets: list[socket.socket | None]) -> None:
    for s in sockets:
        if s is not None:
            s.close()


async def part_connections(results: dict[str, Any]) -> dict[str, Any]:
    raise_file_limit()
    async with running("connections", results) as server:
        # One address: 40 idle connections against a cap of 32.
        one = [open_idle(server.port, ONE_CLIENT) for _ in range(40)]
        await asyncio.sleep(1.0)
        one_held, one_refused = held_or_refused(one)
        one_fresh = await fresh_get(server, "127.0.0.251")
        close_all(one)
        await asyncio.sleep(1.0)
        again = [open_idle(server.port, ONE_CLIENT) for _ in range(one_held)]
        await asyncio.sleep(0.5)
        again_held, _ = held_or_refused(again)
        close_all(again)
        await asyncio.sleep(1.0)
        # Many addresses: 25 each from 44 addresses = 1,100 against a total cap of 1,000.
        per_address, addresses = 25, 44
        many: list[socket.socket | None] = []
        opened_at = time.monotonic()
        for a in range(addresses):
            local = f"127.0.2.{a + 1}"
            many += [open_idle(server.port, local) for _ in range(per_address)]
        open_seconds = time.monotonic() - opened_at
        await asyncio.sleep(1.5)
        many_held, many_refused = held_or_refused(many)
        at_cap_fresh = await fresh_get(server, "127.0.0.252")
        checked_within = time.monotonic() - opened_at
        close_all(many)
        await asyncio.sleep(1.0)
        after_fresh = await fresh_get(server, "127.0.0.253")
        return {
            "one_address": {
                "tried": len(one),
                "held": one_held,
                "refused": dict(one_refused),
                "fresh_address_meanwhile": one_fresh,
                "held_again_after_closing": again_held,
            },
            "many_addresses": {
                "tried": len(many),
                "addresses": addresses,
                "held": many_held,
                "refused": dict(many_refused),
                "opened_in_s": round(open_seconds, 2),
                "checked_within_s": round(checked_within, 2),
                "fresh_address_at_cap": at_cap_fresh,
                "fresh_address_after_closing": after_fresh,
            },
        }


# ------------------------------------------------------------------------------------ output
def machine() -> dict[str, Any]:
    model = ""
    with contextlib.suppress(OSError):
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    tree = ""
    with contextlib.suppress(OSError, subprocess.SubprocessError):
        root = Path(__file__).resolve().parent.parent
        head = subprocess.run(["git", "-C", str(root), "rev-parse", "--short", "HEAD"], capture_output=True, text=True)
        dirty = subprocess.run(["git", "-C", str(root), "status", "--porcelain", "src"], capture_output=True, text=True)
        tree = head.stdout.strip() + (" with changes in src/" if dirty.stdout.strip() else "")
    return {
        "tree": tree,
        "cpus": os.cpu_count(),
        "cpu": model,
        "system": f"{platform.system()} {platform.release()}",
        "python": platform.python_version(),
        "load_average": [round(x, 2) for x in os.getloadavg()],
    }


def fmt_ms(s: dict[str, Any]) -> str:
    if not s["n"]:
        return "no samples"
    return f"{s['p95_ms']:,.0f} / {s['median_ms']:,.0f} / {s['max_ms']:,.0f}  (n {s['n']:,})"


def counts(d: dict[str, int]) -> str:
    return ", ".join(f"{k} ×{v:,}" for k, v in d.items()) or "none"


def render(r: dict[str, Any]) -> str:
    m = r["machine"]
    lines = [
        f"bummerl web abuse bench, {r['date']}: {m['cpus']} vCPU ({m['cpu']}), {m['system']}, CPython {m['python']},"
        f" load average before {m['load_average'][0]}; code {m['tree']}",
        f"every part on a fresh `bummerl serve --bot-workers {BOT_WORKERS} --bot-delay 0` (SQLite in a temporary"
        f" folder){' - quick run' if r['quick'] else ''}",
        "",
    ]
    if "rate" in r:
        lines += _render_rate(r["rate"])
    if any(part in r for part in ("quiet", "flood", "expert", "lock", "hints", "quickmatch")):
        lines += _render_latency(r)
    if "memory" in r:
        lines += _render_memory(r["memory"])
    if "connections" in r:
        lines += _render_connections(r["connections"])
    bad = {k: v for k, v in r["server_logs"].items() if v["tracebacks"]}
    lines += [
        "",
        "server tracebacks: " + (", ".join(f"{k} ×{v['tracebacks']}" for k, v in bad.items()) or "none"),
    ]
    for label, log in r["server_logs"].items():
        for kind, n in list(log["log_lines"].items())[:3]:
            lines.append(f"server log of {label}: {kind} ×{n}")
    return "\n".join(lines)


def _render_rate(rate: dict[str, Any]) -> list[str]:
    first = rate["first_429"] or {}
    return [
        f"1. Table creation from one address, {rate['window_s']:g} s window ({rate['requests']:,} requests)",
        f"   201 before the first 429      {rate['created_before_first_429']}"
        + (
            f"  (first 429 after {first['after_s']} s: {first['reason']}, Retry-After {first['retry_after']} s)"
            if first
            else ""
        ),
        f"   201 in the whole window       {rate['created_in_window']}"
        + (
            f"  = {rate['per_minute']} tables per client per minute"
            if rate["per_minute"] is not None
            else "  (the window is shorter than the limit's minute)"
        ),
        f"   answers                       {counts(rate['statuses'])}",
        "",
    ]


def _render_latency(r: dict[str, Any]) -> list[str]:
    lines = [
        "2. Action latency of a normal table, ms: p95 / median / max (n actions)",
        f"   {'condition':<24}{'vs random (quick lane)':<34}{'vs hard (worker pool)':<34}{'ping->pong p95':<16}",
    ]

    def row(label: str, part: dict[str, Any], key: str) -> str:
        rnd, hard = part["seats"]
        ping = rnd["ping"]
        ping_text = f"{ping['p95_ms']:,.1f}" if ping["n"] else "-"
        return f"   {label:<24}{fmt_ms(rnd[key]):<34}{fmt_ms(hard[key]):<34}{ping_text:<16}"

    if "quiet" in r:
        lines.append(row("quiet", r["quiet"], "turn"))
    if "flood" in r:
        lines.append(row("flood", r["flood"], "turn"))
    if "expert" in r:
        lines.append(row(f"{r['expert']['expert']['tables']} tables vs expert", r["expert"], "turn"))
    if "lock" in r:
        lines.append(row("db lock: answer", r["lock"], "answer"))
    if "hints" in r:
        lines.append(row("hint flood", r["hints"], "turn"))
    if "quickmatch" in r:
        lines.append(row("quick-match flood", r["quickmatch"], "turn"))
    if "flood" in r:
        fl = r["flood"]["flood"]
        lines.append(
            f"   flood: {fl.get('http_per_s', 0):,} HTTP requests/s and {fl.get('ws_messages_per_s', 0):,} WebSocket"
            f" messages/s over {fl.get('connections', 0)} connections of one address;"
            f" {counts(fl.get('http', {}))}; WebSockets: {counts(fl.get('ws', {}))}"
        )
    if "expert" in r:
        ex = r["expert"]["expert"]
        lines.append(
            f"   expert: {ex.get('playing', 0)} of {ex.get('tables', 0)} tables playing,"
            f" {ex.get('client_actions_per_s', 0)} client actions/s; {counts(ex.get('stats', {}))}"
        )
    if "lock" in r:
        lock = r["lock"]
        during = sorted({str(c.get("retry_after")) for c in lock["create_answers"] if c.get("during_lock")})
        lines.append(
            f"   db lock: {lock['cycles']} × {lock['lock_s']:g} s BEGIN EXCLUSIVE; answers during it: "
            + "; ".join(f"{s['bot']}: {counts(s['answer_kinds'])}" for s in lock["seats"])
            + f"; POST /api/tables during it: {counts(lock['creates_during_lock'])}"
            f" (Retry-After {during}); back to the bench's turn {lock['recovery_s']} s after the release"
        )
    if "hints" in r:
        hi = r["hints"]
        asker, fl = hi["asker"], hi["flood"]
        lines.append(
            f"   hint flood: {fl.get('tables', 0)} tables of one address, {fl.get('hints', 0)} hints in"
            f" {fl.get('seconds', 0)} s ({counts(fl.get('answers', {}))}); another client's hints:"
            f" {asker['answered_in_time']} of {asker['asked']} answered within {asker['answered_within_s']:g} s"
            f" ({counts(asker['answers'])}; latency {fmt_ms(asker['latency'])})"
        )
        lines += against_quiet(r, "hints", "hint flood")
    if "quickmatch" in r:
        lines += _render_quickmatch(r)
    for label in ("quiet", "flood", "expert", "lock", "hints", "quickmatch"):
        for s in r.get(label, {}).get("seats", []):
            if s["errors"] or s["disconnects"]:
                lines.append(f"   ! {label} vs {s['bot']}: errors {s['errors']}, disconnects {s['disconnects']}")
    lines.append("")
    return lines


def _render_quickmatch(r: dict[str, Any]) -> list[str]:
    qm = r["quickmatch"]
    honest, fl = qm["honest"], qm["flood"]
    lines = [
        f"   quick-match flood: {fl.get('players', 0)} players at {fl.get('addresses', 0)} addresses,"
        f" {fl.get('asks_per_s', 0)} asks/s, {fl.get('seated_per_s', 0)} seated/s ({counts(fl.get('answers', {}))});"
        f" two honest clients asking together: {honest['outcomes'].get('together', 0)} of {honest['pairs']} pairs"
        f" seated with each other ({counts(honest['outcomes'])}; wait until seated {fmt_ms(honest['wait'])})"
    ]
    return lines + against_quiet(r, "quickmatch", "quick-match flood")


def against_quiet(r: dict[str, Any], part: str, label: str) -> list[str]:
    """The line that sets the ``hard`` table's p95 in ``part`` against the *quiet* part's (when both ran)."""
    if "quiet" not in r:
        return []
    quiet, flooded = r["quiet"]["seats"][1]["turn"]["p95_ms"], r[part]["seats"][1]["turn"]["p95_ms"]
    if not (quiet and flooded):
        return []
    return [
        f"   {label}: the hard table's p95 {flooded:,.0f} ms against {quiet:,.0f} ms quiet ({flooded / quiet - 1:+.0%})"
    ]


def _render_memory(mem: dict[str, Any]) -> list[str]:
    return [
        f"3. Memory: {mem['requests']:,} GET /api/tables/<unknown id> ({mem['connections']} keep-alive connections,"
        f" {mem['per_s']:,} requests/s; {counts(mem['statuses'])})",
        f"   server RSS before {mem['rss_before_mib']} MiB, after {mem['rss_after_mib']} MiB,"
        f" growth {mem['growth_mib']:+} MiB (at start {mem['rss_start_mib']} MiB; along the way "
        + ", ".join(f"{n // 1000}k: {v}" for n, v in mem["checkpoints_mib"])
        + ")",
        "",
    ]


def _render_connections(con: dict[str, Any]) -> list[str]:
    one, many = con["one_address"], con["many_addresses"]
    return [
        "4. Idle connections held open",
        f"   one address:    {one['held']} held of {one['tried']} (refused: {counts(one['refused'])});"
        f" a fresh address meanwhile: {one['fresh_address_meanwhile']['status']}"
        f" in {one['fresh_address_meanwhile']['ms']} ms; after closing, {one['held_again_after_closing']}"
        f" held again",
        f"   {many['addresses']} addresses: {many['held']} held of {many['tried']}"
        f" (refused: {counts(many['refused'])}); a fresh address at the cap:"
        f" {many['fresh_address_at_cap']['status']}, after closing them:"
        f" {many['fresh_address_after_closing']['status']} in {many['fresh_address_after_closing']['ms']} ms",
    ]


async def run_all(args: argparse.Namespace) -> dict[str, Any]:
    results: dict[str, Any] = {
        "date": dt.datetime.now(dt.UTC).strftime("%Y-%m-%d %H:%M UTC"),
        "machine": machine(),
        "quick": args.quick,
        "settings": {
            "window_s": args.window,
            "seconds": args.seconds,
            "lock_s": args.lock,
            "lock_cycles": args.lock_cycles,
            "requests": args.requests,
            "expert_tables": args.expert_tables,
            "bot_workers": BOT_WORKERS,
        },
    }
    steps: list[tuple[str, Callable[[], Awaitable[dict[str, Any]]]]] = [
        ("rate", lambda: part_rate(args.window, results)),
        ("quiet", lambda: part_quiet(args.seconds, results)),
        ("flood", lambda: part_flood(args.seconds, results)),
        ("expert", lambda: part_expert(args.seconds, args.expert_tables, results)),
        ("lock", lambda: part_lock(args.lock, args.lock_cycles, results)),
        ("memory", lambda: part_memory(args.requests, results)),
        ("connections", lambda: part_connections(results)),
        ("hints", lambda: part_hints(args.seconds, results)),
        ("quickmatch", lambda: part_quickmatch(args.seconds, results)),
    ]
    if args.parts:
        chosen = set(args.parts.split(","))
        steps = [(name, step) for name, step in steps if name in chosen]
    for name, step in steps:
        began = time.monotonic()
        print(f"[web_abuse] {name} ...", file=sys.stderr, flush=True)
        async with asyncio.timeout(args.seconds * 4 + args.window + 600):
            results[name] = await step()
        print(f"[web_abuse] {name} done in {time.monotonic() - began:.0f} s", file=sys.stderr, flush=True)
    for label, log in results["server_logs"].items():
        if log["tracebacks"]:
            print(f"[web_abuse] server log of {label}:\n{log['first_traceback']}", file=sys.stderr)
    return results


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="a smoke run of about 80 s")
    parser.add_argument("--window", type=float, help="seconds of the table-creation window (default 60; quick 5)")
    parser.add_argument("--seconds", type=float, help="seconds per latency condition (default 25; quick 5)")
    parser.add_argument("--lock", type=float, help="seconds the database lock is held (default 8; quick 4)")
    parser.add_argument("--lock-cycles", type=int, help="database locks (default 2; quick 1)")
    parser.add_argument("--requests", type=int, help="requests for unknown ids (default 100,000; quick 3,000)")
    parser.add_argument("--expert-tables", type=int, default=40, help="tables against expert (default 40, <= 40)")
    parser.add_argument(
        "--parts",
        help="comma-separated parts to run (rate, quiet, flood, expert, lock, memory, connections, hints, quickmatch;"
        " default all)",
    )
    parser.add_argument("--json", action="store_true", help="one JSON object instead of the table")
    parser.add_argument("--save", type=Path, help="also write the JSON object to this file")
    args = parser.parse_args()
    defaults = {"window": (60.0, 5.0), "seconds": (25.0, 5.0), "lock": (8.0, 4.0), "lock_cycles": (2, 1)}
    for name, (full, quick) in defaults.items():
        if getattr(args, name) is None:
            setattr(args, name, quick if args.quick else full)
    if args.requests is None:
        args.requests = 3000 if args.quick else 100_000
    args.expert_tables = max(1, min(args.expert_tables, 4 * len(EXPERT_ADDRESSES)))
    if not sys.platform.startswith("linux"):
        print("web_abuse needs Linux (127.0.0.0/8 on loopback, /proc)", file=sys.stderr)
        return 2

    def terminated(_signum: int, _frame: Any) -> None:
        raise KeyboardInterrupt

    signal.signal(signal.SIGTERM, terminated)
    try:
        results = asyncio.run(run_all(args))
    except KeyboardInterrupt:
        print("[web_abuse] interrupted; servers stopped", file=sys.stderr)
        return 130
    if args.save is not None:
        args.save.write_text(json.dumps(results, indent=1) + "\n")
    print(json.dumps(results, indent=1) if args.json else render(results))
    return 0


if __name__ == "__main__":
    sys.exit(main())
