"""The host side of the bot protocol ``bummerl-bot``: :class:`ProcessBot`, a bot that plays one seat by asking
another program, and the transports it talks through (docs/protocol.md).

:func:`bummerl.bots.make_bot` makes one for a ``cmd:<command line>``; :mod:`bummerl.protocol` adds the other side
(:func:`~bummerl.protocol.serve`, which answers the protocol for a Python bot) and an in-process loopback.  This
module lives below the registry so that the registry can make a program's bot without importing the protocol's
bot side, which itself makes registered bots.

>>> bot = ProcessBot(transport_factory=lambda: ScriptedTransport(['{"type":"hello","protocol":"bummerl-bot",'
...     '"version":1,"name":"x"}']))
>>> bot.name
'protocol-bot'

It reads and writes views through :mod:`bummerl.view_json` only, and never imports the registry.
"""

from __future__ import annotations

import collections
import contextlib
import json
import os
import queue
import shlex
import signal
import subprocess
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from typing import IO, Any, Protocol

from bummerl.actions import Action
from bummerl.errors import BummerlError
from bummerl.view_json import (
    AnyView,
    ProtocolError,
    result_to_json,
    variant_to_json,
    view_to_json,
)

__all__ = [
    "DEFAULT_MOVE_TIMEOUT",
    "DEFAULT_START_TIMEOUT",
    "EOF",
    "PROTOCOL",
    "TIMEOUT",
    "VERSION",
    "BotFault",
    "ProcessBot",
    "ScriptedTransport",
    "SubprocessTransport",
    "Transport",
    "decode",
    "encode",
    "parse_command",
]

PROTOCOL = "bummerl-bot"
VERSION = 1

#: Seconds a bot may think about one decision, unless told otherwise.
DEFAULT_MOVE_TIMEOUT = 10.0
#: Seconds a bot process may take to start and answer ``hello``.
DEFAULT_START_TIMEOUT = 30.0


class BotFault(BummerlError):
    """A hosted bot failed while it had to act; it forfeits the game.

    ``kind`` is one of ``start`` (could not start or bad handshake), ``crash``
    (the process ended), ``timeout``, ``garbage`` (a line that is not a protocol
    message), ``illegal`` (an action that is not legal now) and ``error`` (the
    bot reported an error or raised).
    """

    KINDS = ("start", "crash", "timeout", "garbage", "illegal", "error")

    def __init__(self, kind: str, message: str) -> None:
        if kind not in self.KINDS:  # pragma: no cover - programming error
            raise ValueError(f"unknown fault kind {kind!r}")
        super().__init__(message)
        self.kind = kind
        self.message = message


# ====================================================================== JSON
def encode(message: Mapping[str, Any]) -> str:
    """One protocol line (without the newline).

    >>> encode({"type": "quit"})
    '{"type":"quit"}'
    """
    return json.dumps(message, separators=(",", ":"), ensure_ascii=False)


def decode(line: str) -> dict[str, Any]:
    """Parse one protocol line into a message object with a string ``type``.

    >>> decode('{"type":"quit"}')
    {'type': 'quit'}
    >>> decode("e2e4")
    Traceback (most recent call last):
    ...
    bummerl.view_json.ProtocolError: not a JSON line: 'e2e4' (Expecting value at column 1)
    """
    text = line.strip()
    try:
        message = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ProtocolError(f"not a JSON line: {_clip(text)!r} ({exc.msg} at column {exc.colno})") from None
    if not isinstance(message, dict):
        raise ProtocolError(f"a message must be a JSON object, not {_clip(text)!r}")
    if not isinstance(message.get("type"), str):
        raise ProtocolError(f"a message needs a string 'type': {_clip(text)!r}")
    return message


def _clip(text: str, limit: int = 120) -> str:
    return text if len(text) <= limit else text[: limit - 3] + "..."


# ================================================================ transports
class Transport(Protocol):
    """A line channel to one bot; the host side of the protocol talks through it."""

    def send(self, line: str) -> None:
        """Send one line (no newline); raise :class:`EOFError` if the bot is gone."""
        ...

    def receive(self, timeout: float | None) -> str:
        """The bot's next line; :class:`TimeoutError` after ``timeout`` seconds,
        :class:`EOFError` once the bot has closed its output."""
        ...

    def close(self) -> None:
        """Stop the bot (politely first) and free its resources."""
        ...

    def terminate(self) -> None:
        """Stop a failed bot at once and free its resources."""
        ...

    def diagnostics(self) -> str:
        """What is known about why the bot stopped (exit status, last stderr lines)."""
        ...


def _read_lines(stream: IO[str] | None, keep: Callable[[str], object]) -> None:
    """Hand each line of a child's ``stream`` to ``keep``, without its line end, until the stream ends (or is
    closed under the reading thread)."""
    assert stream is not None
    with contextlib.suppress(ValueError, OSError):
        for line in stream:
            keep(line.rstrip("\r\n"))


class SubprocessTransport:
    """A bot in a child process: lines over its stdin and stdout.

    A reader thread moves stdout lines into a queue so :meth:`receive` can wait
    with a timeout; another keeps the last lines of stderr for error messages.
    The child gets its own process group, so a shell script's children are
    stopped with it.
    """

    def __init__(self, argv: Sequence[str], cwd: str | None = None, env: Mapping[str, str] | None = None) -> None:
        if not argv:
            raise ValueError("a bot command line must not be empty")
        self.argv = list(argv)
        self._proc = subprocess.Popen(
            self.argv,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            encoding="utf-8",
            errors="replace",
            bufsize=1,
            cwd=cwd,
            env=dict(env) if env is not None else None,
            start_new_session=os.name == "posix",
        )
        self._lines: queue.Queue[str | None] = queue.Queue()
        self._stderr: collections.deque[str] = collections.deque(maxlen=20)
        threading.Thread(target=self._read_stdout, daemon=True).start()
        self._stderr_reader = threading.Thread(target=self._read_stderr, daemon=True)
        self._stderr_reader.start()

    @property
    def pid(self) -> int:
        return self._proc.pid

    def _read_stdout(self) -> None:
        _read_lines(self._proc.stdout, self._lines.put)
        self._lines.put(None)

    def _read_stderr(self) -> None:
        _read_lines(self._proc.stderr, self._stderr.append)

    def send(self, line: str) -> None:
        stdin = self._proc.stdin
        assert stdin is not None
        try:
            stdin.write(line + "\n")
            stdin.flush()
        except (BrokenPipeError, ValueError, OSError):
            raise EOFError("the bot no longer reads its input") from None

    def receive(self, timeout: float | None) -> str:
        try:
            line = self._lines.get(timeout=timeout)
        except queue.Empty:
            raise TimeoutError(f"no answer within {timeout} s") from None
        if line is None:
            self._lines.put(None)  # later calls see the end too
            raise EOFError("the bot closed its output")
        return line

    def diagnostics(self) -> str:
        parts = []
        try:
            code = self._proc.wait(timeout=1.0)
        except subprocess.TimeoutExpired:
            code = None
        if code is None:
            parts.append("still running")
        elif code < 0:
            try:
                parts.append(f"killed by {signal.Signals(-code).name}")
            except ValueError:
                parts.append(f"killed by signal {-code}")
        else:
            parts.append(f"exit code {code}")
        if code is not None:
            # The process is gone, so its stderr ends: let the reader take its last lines (under load it may
            # not have been scheduled since they were written).
            self._stderr_reader.join(timeout=1.0)
        if self._stderr:
            parts.append("stderr: " + " | ".join(self._stderr)[-600:])
        return "; ".join(parts)

    def close(self) -> None:
        self._stop(grace=1.0)

    def terminate(self) -> None:
        self._stop(grace=0.0)

    def _stop(self, grace: float) -> None:
        """Close stdin (a bot ends at end of input), wait ``grace`` s, then signal the group."""
        proc = self._proc
        with contextlib.suppress(OSError, ValueError):
            if proc.stdin is not None:
                proc.stdin.close()
        try:
            proc.wait(timeout=grace)
        except subprocess.TimeoutExpired:
            for sig in (signal.SIGTERM, signal.SIGKILL):
                with contextlib.suppress(OSError):
                    if os.name == "posix":
                        os.killpg(proc.pid, sig)
                    else:  # pragma: no cover - no process groups
                        proc.kill()
                try:
                    proc.wait(timeout=1.0)
                    break
                except subprocess.TimeoutExpired:
                    continue
        for stream in (proc.stdout, proc.stderr):
            with contextlib.suppress(OSError, ValueError):
                if stream is not None:
                    stream.close()


#: A scripted reply that makes :meth:`ScriptedTransport.receive` time out.
TIMEOUT = "<timeout>"
#: A scripted reply that ends the bot's output, as if it crashed.
EOF = "<eof>"


class ScriptedTransport:
    """A mock bot for tests, in the manner of python-chess's mock engine protocol.

    Each :meth:`expect` names the next message the host must send (its
    ``type``, or an object whose fields must match) and the lines the bot
    answers: objects are encoded, strings are sent raw (garbage welcome),
    :data:`TIMEOUT` makes the next :meth:`receive` time out at once and
    :data:`EOF` ends the output.  A host message that was not expected raises
    :class:`AssertionError`.

    >>> t = ScriptedTransport().expect("hello", {"type": "hello", "protocol": PROTOCOL, "version": 1, "name": "m"})
    >>> t.send(encode({"type": "hello", "protocol": PROTOCOL, "version": 1}))
    >>> decode(t.receive(1.0))["name"]
    'm'
    >>> t.assert_done()
    """

    def __init__(self) -> None:
        self._script: collections.deque[tuple[str | Mapping[str, Any], list[str]]] = collections.deque()
        self._replies: collections.deque[str] = collections.deque()
        #: Every line the host sent, in order.
        self.sent: list[str] = []
        self.closed = False

    def expect(self, match: str | Mapping[str, Any], *replies: str | Mapping[str, Any]) -> ScriptedTransport:
        lines = [r if isinstance(r, str) else encode(r) for r in replies]
        self._script.append((match, lines))
        return self

    def send(self, line: str) -> None:
        if self.closed:
            raise EOFError("the scripted bot is closed")
        self.sent.append(line)
        if not self._script:
            raise AssertionError(f"unexpected message from the host: {line}")
        match, replies = self._script.popleft()
        message = decode(line)
        if isinstance(match, str):
            ok = message["type"] == match
        else:
            ok = all(message.get(k) == v for k, v in match.items())
        if not ok:
            raise AssertionError(f"expected {match!r}, the host sent {line}")
        self._replies.extend(replies)

    def receive(self, timeout: float | None) -> str:
        if not self._replies:
            raise TimeoutError("the scripted bot has nothing more to say")
        line = self._replies.popleft()
        if line == TIMEOUT:
            raise TimeoutError(f"scripted timeout ({timeout} s)")
        if line == EOF:
            self._replies.appendleft(EOF)
            raise EOFError("scripted end of output")
        return line

    def close(self) -> None:
        self.closed = True

    def terminate(self) -> None:
        self.closed = True

    def diagnostics(self) -> str:
        return "scripted bot"

    def assert_done(self) -> None:
        """Fail if an expected message was never sent."""
        if self._script:
            raise AssertionError(f"expected messages never sent: {[m for m, _ in self._script]!r}")


# ================================================================ host side
def parse_command(spec: str) -> list[str]:
    """The argument vector of a ``cmd:<command line>`` bot (POSIX shell quoting).

    >>> parse_command("cmd:node examples/bots/first_card.js --x 'a b'")
    ['node', 'examples/bots/first_card.js', '--x', 'a b']
    """
    text = spec[4:] if spec.startswith("cmd:") else spec
    try:
        argv = shlex.split(text)
    except ValueError as exc:
        raise BummerlError(f"bad bot command line {text!r}: {exc}") from None
    if not argv:
        raise BummerlError(f"empty bot command line in {spec!r}")
    return argv


class ProcessBot:
    """A bot that plays one seat by asking another program over the protocol.

    ``command`` is a command line (``"node bot.js"``, optionally with the
    ``cmd:`` prefix) or an argument list; tests pass ``transport_factory``
    instead.  The process starts on first use and is restarted after it failed.
    :meth:`begin_game` and :meth:`end_game` tell the bot about game boundaries
    (with a seed for its own randomness); :meth:`choose` may be called without
    them, since every ``decide`` message carries the whole view.  Made with a
    ``seed``, the bot announces a game that :meth:`begin_game` did not
    (``game_start`` with that seed) before its first decision: so a bot made per
    game by :func:`bummerl.bots.make_bot` gets that game's seed.

    One object is one seat of one game at a time: a process sees one hand, never
    two (partners never share a process).

    Every failure raises :class:`BotFault` with a message that names the bot,
    what went wrong and, for a crash, the exit status and its last stderr lines.
    """

    def __init__(
        self,
        command: str | Sequence[str] | None = None,
        *,
        transport_factory: Callable[[], Transport] | None = None,
        label: str | None = None,
        move_timeout: float = DEFAULT_MOVE_TIMEOUT,
        start_timeout: float = DEFAULT_START_TIMEOUT,
        trace: Callable[[str, str], None] | None = None,
        seed: int | None = None,
    ) -> None:
        if (command is None) == (transport_factory is None):
            raise ValueError("give either a command line or a transport_factory")
        if command is not None:
            argv = parse_command(command) if isinstance(command, str) else list(command)
            if not argv:
                raise BummerlError("empty bot command line")
            self._factory: Callable[[], Transport] = lambda: SubprocessTransport(argv)
            default_label = "cmd:" + shlex.join(argv)
        else:
            assert transport_factory is not None
            self._factory = transport_factory
            default_label = "protocol-bot"
        if move_timeout <= 0 or start_timeout <= 0:
            raise ValueError("timeouts must be positive")
        #: How the host names this bot (``cmd:...``), also after a restart.
        self.name: str = label or default_label
        #: The name the bot gave in its ``hello``; ``None`` before it started.
        self.bot_name: str | None = None
        self.move_timeout = move_timeout
        self.start_timeout = start_timeout
        #: The seed of the ``game_start`` that announces a game :meth:`begin_game` did not.
        self.seed = seed
        #: Processes started after the first one (each follows a failure).
        self.restarts = 0
        self._trace = trace
        self._transport: Transport | None = None
        self._started_once = False
        self._next_id = 0
        self._game: Any = None
        self._in_game = False

    # ----------------------------------------------------------- lifecycle
    def __enter__(self) -> ProcessBot:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _send(self, message: Mapping[str, Any]) -> None:
        assert self._transport is not None
        line = encode(message)
        if self._trace is not None:
            self._trace("send", line)
        self._transport.send(line)

    def _receive(self, deadline: float) -> str:
        assert self._transport is not None
        line = self._transport.receive(max(0.0, deadline - time.monotonic()))
        if self._trace is not None:
            self._trace("recv", line)
        return line

    def start(self) -> None:
        """Start the bot and shake hands (done on first use; a no-op while running)."""
        if self._transport is not None:
            return
        if self._started_once:
            self.restarts += 1
        self._started_once = True
        try:
            self._transport = self._factory()
        except OSError as exc:
            raise BotFault("start", f"bot {self.name} could not be started: {exc.strerror or exc}") from None
        try:
            try:
                self._send({"type": "hello", "protocol": PROTOCOL, "version": VERSION})
            except EOFError:
                why = self._kill()
                raise BotFault("start", f"bot {self.name} exited at once ({why})") from None
            deadline = time.monotonic() + self.start_timeout
            message = self._expect_message(deadline, "hello", "start")
            if message["type"] != "hello":
                raise BotFault("start", f"bot {self.name} answered hello with {_clip(encode(message))}")
            if message.get("protocol") != PROTOCOL or message.get("version") != VERSION:
                raise BotFault(
                    "start",
                    f"bot {self.name} speaks {message.get('protocol')!r} version {message.get('version')!r};"
                    f" this host speaks {PROTOCOL!r} version {VERSION}",
                )
            name = message.get("name")
            if not isinstance(name, str) or not name:
                raise BotFault("start", f"bot {self.name} gave no name in its hello: {encode(message)}")
            self.bot_name = name
        except BotFault as exc:
            self._kill(diagnose=False)
            if exc.kind == "start":
                raise
            raise BotFault("start", exc.message) from None

    def _expect_message(self, deadline: float, waiting_for: str, phase: str) -> dict[str, Any]:
        """The next message that is not ``info``; faults become :class:`BotFault`."""
        while True:
            try:
                # Checked here too: a bot that floods info lines must not outlive its time.
                if time.monotonic() > deadline:
                    raise TimeoutError
                line = self._receive(deadline)
            except TimeoutError:
                self._kill(diagnose=False)
                limit = self.start_timeout if phase == "start" else self.move_timeout
                kind = "start" if phase == "start" else "timeout"
                raise BotFault(kind, f"bot {self.name} did not answer {waiting_for} within {limit:g} s") from None
            except EOFError:
                why = self._kill()
                kind = "start" if phase == "start" else "crash"
                raise BotFault(kind, f"bot {self.name} stopped while waiting for {waiting_for} ({why})") from None
            try:
                message = decode(line)
            except ProtocolError as exc:
                self._kill(diagnose=False)
                raise BotFault("garbage", f"bot {self.name} broke the protocol: {exc}") from None
            if message["type"] == "info":
                continue
            if message["type"] == "error":
                detail = message.get("message", "")
                raise BotFault("error", f"bot {self.name} reported an error: {detail}")
            return message

    def _kill(self, diagnose: bool = True) -> str:
        """Stop the process after a failure; the next use starts a new one.

        ``diagnose`` waits briefly for the exit status, which only makes sense
        for a process that is ending anyway (it closed its output).
        """
        transport, self._transport = self._transport, None
        if transport is None:
            return "not running"
        why = transport.diagnostics() if diagnose else ""
        transport.terminate()
        return why

    def close(self) -> None:
        """Say ``quit`` and stop the process."""
        transport = self._transport
        if transport is None:
            return
        with contextlib.suppress(EOFError, OSError):
            self._send({"type": "quit"})
        self._transport = None
        transport.close()

    # ------------------------------------------------------------ playing
    def begin_game(self, view: AnyView, seed: int | None = None, game: Any = None) -> None:
        """Announce a new game (``game_start``), starting the bot if needed."""
        self.start()
        self._game = game
        self._in_game = True
        message: dict[str, Any] = {
            "type": "game_start",
            "game": game,
            "players": view.variant.players,
            "seat": view.player,
            "dealer": view.dealer,
            "variant": variant_to_json(view.variant),
        }
        if seed is not None:
            message["seed"] = seed
        try:
            self._send(message)
        except EOFError:
            why = self._kill()
            raise BotFault("crash", f"bot {self.name} stopped before the game started ({why})") from None

    def choose(self, view: AnyView) -> Action:
        """Ask the bot for an action; raise :class:`BotFault` if it fails.

        ``view`` is the deciding seat's view, of a two-player or a table game.
        """
        legal = view.legal_actions()
        if not legal:
            raise ValueError("no legal action: it is not this player's turn")
        if self.seed is not None and not self._in_game:
            self.begin_game(view, seed=self.seed)
        self.start()
        self._next_id += 1
        ident = self._next_id
        try:
            self._send({"type": "decide", "id": ident, "view": view_to_json(view), "legal": [a.token for a in legal]})
        except EOFError:
            why = self._kill()
            raise BotFault("crash", f"bot {self.name} stopped before it was asked to act ({why})") from None
        deadline = time.monotonic() + self.move_timeout
        while True:
            message = self._expect_message(deadline, f"decide #{ident}", "move")
            if message["type"] != "action":
                self._kill(diagnose=False)
                raise BotFault("garbage", f"bot {self.name} answered decide #{ident} with {_clip(encode(message))}")
            if "id" in message and message["id"] != ident:
                continue  # a late answer to an earlier question: ignore it
            token = message.get("action")
            if not isinstance(token, str):
                raise BotFault("illegal", f"bot {self.name} sent an action that is not a string: {token!r}")
            try:
                action = Action.parse(token)
            except BummerlError:
                raise BotFault("illegal", f"bot {self.name} sent {token!r}, which is not an action token") from None
            if action not in legal:
                raise BotFault(
                    "illegal",
                    f"bot {self.name} chose {token!r}, which is not legal now;"
                    f" legal: {' '.join(a.token for a in legal)}",
                )
            return action

    def end_game(self, view: AnyView, forfeit: Mapping[str, Any] | None = None) -> None:
        """Tell the bot how the game ended (``game_end``); never raises."""
        self._in_game = False
        if self._transport is None:
            return  # the bot failed in this game; it hears nothing until restarted
        players = view.variant.players
        message = {
            "type": "game_end",
            "game": self._game,
            "result": result_to_json(view.result, players) if view.result is not None else None,
            "view": view_to_json(view),
            "forfeit": dict(forfeit) if forfeit is not None else None,
        }
        try:
            self._send(message)
        except EOFError:
            self._kill(diagnose=False)
