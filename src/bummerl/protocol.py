"""The bot protocol ``bummerl-bot`` version 1: JSON lines over stdin/stdout.

A bot is a program in any language that reads one JSON object per line on its
standard input and answers one JSON object per line on its standard output
(like UCI for chess engines; the full specification is ``docs/protocol.md``)::

    host -> bot  {"type":"hello","protocol":"bummerl-bot","version":1}
    bot -> host  {"type":"hello","protocol":"bummerl-bot","version":1,"name":"mybot"}
    host -> bot  {"type":"game_start","game":0,"seat":1,"dealer":1,"variant":{...},"seed":42}
    host -> bot  {"type":"decide","id":1,"view":{...},"legal":["Ah","Kh","marry:Kh"]}
    bot -> host  {"type":"action","id":1,"action":"marry:Kh"}
    host -> bot  {"type":"game_end","game":0,"result":{...},"view":{...},"forfeit":null}
    host -> bot  {"type":"quit"}

Both sides live here: the **host** side is :class:`ProcessBot`, a
:class:`~bummerl.bots.Bot` that plays by asking a child process (``cmd:``
bots), and the **client** side is :func:`serve`, which answers the protocol for
any Python bot (``bummerl bot NAME``).  Messages carry a player's view only
through :func:`view_to_json`, which reads a :class:`~bummerl.view.PlayerView`
and never a :class:`~bummerl.game.Game`: the host cannot reveal a hidden card.

>>> from bummerl.bots import make_bot
>>> from bummerl.game import Game
>>> bot = ProcessBot(transport_factory=lambda: LoopbackTransport(make_bot("random", 1)))
>>> game = Game.deal("schnapsen", seed=3)
>>> bot.choose(game.view(game.to_move)) in game.legal_actions()
True
>>> bot.bot_name
'random'
>>> bot.close()

A bot that fails (crashes, answers late, sends a line that is not JSON or an
illegal action) raises :class:`BotFault`; the arena records it as that game's
forfeit and goes on.  The transports (a child process, an in-process loopback
and a scripted mock for tests) are blocking with timeouts: a reader thread
feeds a queue, so no event loop is needed, and the host stays a plain
:class:`~bummerl.bots.Bot` that the engine's synchronous game loops can call.
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
import sys
import threading
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import IO, Any, Protocol

from bummerl.actions import Action
from bummerl.bots import Bot
from bummerl.cards import Card, Suit, deck
from bummerl.errors import BummerlError
from bummerl.game import Trick
from bummerl.variants import EndReason, GameResult, TwoPlayerVariant, find_variant
from bummerl.view import PlayerView

__all__ = [
    "PROTOCOL",
    "VERSION",
    "BotFault",
    "ClientSession",
    "LoopbackTransport",
    "ProcessBot",
    "ProtocolError",
    "ScriptedTransport",
    "SubprocessTransport",
    "Transport",
    "decode",
    "encode",
    "result_from_json",
    "result_to_json",
    "serve",
    "variant_from_json",
    "variant_to_json",
    "view_from_json",
    "view_to_json",
]

PROTOCOL = "bummerl-bot"
VERSION = 1

#: Seconds a bot may think about one decision, unless told otherwise.
DEFAULT_MOVE_TIMEOUT = 10.0
#: Seconds a bot process may take to start and answer ``hello``.
DEFAULT_START_TIMEOUT = 30.0


class ProtocolError(BummerlError):
    """A message that breaks the protocol: not JSON, a wrong or missing field, or
    a view that does not fit its variant."""


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
    bummerl.protocol.ProtocolError: not a JSON line: 'e2e4' (Expecting value at column 1)
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


def _cards(cards: Iterable[Card]) -> list[str]:
    # Sorted by the card index so the same knowledge always gives the same line.
    return [c.code for c in sorted(cards, key=lambda c: c.index)]


def variant_to_json(variant: TwoPlayerVariant) -> dict[str, Any]:
    """The variant as the protocol names it: name, non-default options, pack and hand size.

    >>> variant_to_json(find_variant("66"))
    {'name': 'sechsundsechzig', 'options': {}, 'deck_size': 24, 'hand_size': 6}
    """
    return {
        "name": variant.name,
        "options": variant.options(),
        "deck_size": variant.deck_size,
        "hand_size": variant.hand_size,
    }


def variant_from_json(data: Any) -> TwoPlayerVariant:
    """The variant named by :func:`variant_to_json`'s object (sizes are checked)."""
    if not isinstance(data, Mapping):
        raise ProtocolError(f"variant must be an object, not {data!r}")
    name = data.get("name")
    options = data.get("options", {})
    if not isinstance(name, str):
        raise ProtocolError(f"variant.name must be a string, not {name!r}")
    if not isinstance(options, Mapping):
        raise ProtocolError(f"variant.options must be an object, not {options!r}")
    try:
        variant = find_variant(name, **dict(options))
    except BummerlError as exc:
        raise ProtocolError(f"variant: {exc}") from None
    for key in ("deck_size", "hand_size"):
        if key in data and data[key] != getattr(variant, key):
            raise ProtocolError(f"variant.{key} is {data[key]!r}, but {variant.title} has {getattr(variant, key)}")
    return variant


def result_to_json(result: GameResult) -> dict[str, Any]:
    """A game result as a JSON object.

    >>> result_to_json(GameResult(0, 2, EndReason.DECLARED, (70, 20)))
    {'winner': 0, 'points': 2, 'reason': 'declared', 'augen': [70, 20], 'unit': 'game points'}
    """
    return {
        "winner": result.winner,
        "points": result.points,
        "reason": result.reason.value,
        "augen": list(result.augen),
        "unit": result.unit,
    }


def result_from_json(data: Any) -> GameResult:
    """The inverse of :func:`result_to_json`."""
    if not isinstance(data, Mapping):
        raise ProtocolError(f"result must be an object, not {data!r}")
    winner = data.get("winner")
    if winner is not None:
        winner = _seat(winner, "result.winner")
    points = data.get("points")
    if not isinstance(points, int) or isinstance(points, bool) or points < 0:
        raise ProtocolError(f"result.points must be a non-negative integer, not {points!r}")
    try:
        reason = EndReason(data.get("reason"))
    except ValueError:
        known = ", ".join(r.value for r in EndReason)
        raise ProtocolError(f"result.reason {data.get('reason')!r} is not one of: {known}") from None
    augen = _int_pair(data.get("augen"), "result.augen")
    unit = data.get("unit", "game points")
    if not isinstance(unit, str):
        raise ProtocolError(f"result.unit must be a string, not {unit!r}")
    return GameResult(winner, points, reason, augen, unit)


def view_to_json(view: PlayerView) -> dict[str, Any]:
    """Serialise what the player of ``view`` knows (the schema of docs/protocol.md).

    Everything comes from the view, so nothing hidden can get in.

    >>> from bummerl.game import Game
    >>> data = view_to_json(Game.deal("schnapsen", seed=1).view(0))
    >>> data["seat"], len(data["hand"]), data["talon_size"], data["augen"], data["opponent_known"]
    (0, 5, 9, [0, 0], [])
    >>> view_from_json(data) == Game.deal("schnapsen", seed=1).view(0)
    True
    """
    return {
        "variant": variant_to_json(view.variant),
        "seat": view.player,
        "dealer": view.dealer,
        "to_move": view.to_move,
        "hand": [c.code for c in view.hand],
        "trump": view.trump.letter,
        "trump_card": view.trump_card.code if view.trump_card is not None else None,
        "talon_size": view.talon_size,
        "closed_by": view.closed_by,
        "closed_at_trick": view.closed_at_trick,
        "lead": view.lead.code if view.lead is not None else None,
        "leader": view.leader,
        "tricks": [
            {"leader": t.leader, "lead": t.lead.code, "follow": t.follow.code, "winner": t.winner} for t in view.tricks
        ],
        "played": _cards(view.played),
        "marriages": [{"seat": p, "suit": s.letter} for p, s in view.marriages],
        "tricks_won": list(view.tricks_won),
        "augen": list(view.augen) if view.augen is not None else None,
        "opponent_known": _cards(view.opponent_known),
        "opponent_hand_size": view.opponent_hand_size,
        "first_lead_done": view.first_lead_done,
        "result": result_to_json(view.result) if view.result is not None else None,
    }


def _seat(value: Any, field: str) -> int:
    if value not in (0, 1) or isinstance(value, bool):
        raise ProtocolError(f"{field} must be seat 0 or 1, not {value!r}")
    return int(value)


def _int_pair(value: Any, field: str) -> tuple[int, int]:
    if (
        not isinstance(value, list)
        or len(value) != 2
        or not all(isinstance(x, int) and not isinstance(x, bool) and x >= 0 for x in value)
    ):
        raise ProtocolError(f"{field} must be a list of two non-negative integers, not {value!r}")
    return (value[0], value[1])


def _bool(value: Any, field: str) -> bool:
    if not isinstance(value, bool):
        raise ProtocolError(f"{field} must be true or false, not {value!r}")
    return value


class _CardReader:
    """Parses card codes of one view, checking pack membership and uniqueness."""

    def __init__(self, variant: TwoPlayerVariant) -> None:
        self.variant = variant
        self.pack = frozenset(deck(variant.deck_size))

    def card(self, value: Any, field: str) -> Card:
        if not isinstance(value, str):
            raise ProtocolError(f"{field} must be a card code like 'Ah', not {value!r}")
        try:
            card = Card.parse(value)
        except ValueError as exc:
            raise ProtocolError(f"{field}: {exc}") from None
        if card not in self.pack:
            raise ProtocolError(
                f"{field}: {card.code} is not in the {self.variant.deck_size}-card pack of {self.variant.title}"
            )
        return card

    def cards(self, value: Any, field: str) -> list[Card]:
        if not isinstance(value, list):
            raise ProtocolError(f"{field} must be a list of card codes, not {value!r}")
        cards = [self.card(v, f"{field}[{i}]") for i, v in enumerate(value)]
        if len(set(cards)) != len(cards):
            raise ProtocolError(f"{field} names a card twice: {value!r}")
        return cards


def view_from_json(data: Any) -> PlayerView:
    """Rebuild a :class:`PlayerView` from :func:`view_to_json`'s object.

    Raises :class:`ProtocolError` naming the field when the object is malformed
    or does not fit its variant (a card outside the pack, a card in two places,
    more cards than the variant deals).
    """
    if not isinstance(data, Mapping):
        raise ProtocolError(f"view must be an object, not {data!r}")
    required = [
        *("variant", "seat", "dealer", "to_move", "hand", "trump", "trump_card", "talon_size", "closed_by"),
        *("closed_at_trick", "lead", "leader", "tricks", "played", "marriages", "tricks_won", "augen"),
        *("opponent_known", "opponent_hand_size", "first_lead_done"),
    ]
    missing = [k for k in required if k not in data]
    if missing:
        raise ProtocolError(f"view lacks {', '.join(missing)}")
    variant = variant_from_json(data["variant"])
    read = _CardReader(variant)
    hand = read.cards(data["hand"], "view.hand")
    if len(hand) > variant.hand_size:
        raise ProtocolError(f"view.hand holds {len(hand)} cards; {variant.title} deals {variant.hand_size}")
    try:
        trump = Suit.parse(data["trump"]) if isinstance(data["trump"], str) else None
    except ValueError:
        trump = None
    if trump is None:
        raise ProtocolError(f"view.trump must be a suit letter h, d, c or s, not {data['trump']!r}")
    trump_card = read.card(data["trump_card"], "view.trump_card") if data["trump_card"] is not None else None
    if trump_card is not None and trump_card.suit != trump:
        raise ProtocolError(f"view.trump_card {trump_card.code} is not of the trump suit {trump.letter}")
    talon_size = data["talon_size"]
    max_talon = variant.deck_size - 2 * variant.hand_size - 1
    if not isinstance(talon_size, int) or isinstance(talon_size, bool) or not 0 <= talon_size <= max_talon:
        raise ProtocolError(f"view.talon_size must be an integer 0..{max_talon}, not {talon_size!r}")
    closed_by = _seat(data["closed_by"], "view.closed_by") if data["closed_by"] is not None else None
    closed_at = data["closed_at_trick"]
    if closed_at is not None and (not isinstance(closed_at, int) or isinstance(closed_at, bool) or closed_at < 0):
        raise ProtocolError(f"view.closed_at_trick must be null or a trick count, not {closed_at!r}")
    if (closed_at is None) != (closed_by is None):
        raise ProtocolError("view.closed_at_trick and view.closed_by must both be null or both be set")
    lead = read.card(data["lead"], "view.lead") if data["lead"] is not None else None
    tricks: list[Trick] = []
    if not isinstance(data["tricks"], list):
        raise ProtocolError(f"view.tricks must be a list, not {data['tricks']!r}")
    for i, t in enumerate(data["tricks"]):
        field = f"view.tricks[{i}]"
        if not isinstance(t, Mapping):
            raise ProtocolError(f"{field} must be an object, not {t!r}")
        tricks.append(
            Trick(
                (
                    _seat(t.get("leader"), field + ".leader"),
                    read.card(t.get("lead"), field + ".lead"),
                    read.card(t.get("follow"), field + ".follow"),
                    _seat(t.get("winner"), field + ".winner"),
                )
            )
        )
    played = read.cards(data["played"], "view.played")
    if lead is not None and lead not in played:
        raise ProtocolError(f"view.lead {lead.code} is missing from view.played")
    marriages: list[tuple[int, Suit]] = []
    if not isinstance(data["marriages"], list):
        raise ProtocolError(f"view.marriages must be a list, not {data['marriages']!r}")
    for i, m in enumerate(data["marriages"]):
        field = f"view.marriages[{i}]"
        if not isinstance(m, Mapping) or not isinstance(m.get("suit"), str):
            raise ProtocolError(f"{field} must be an object with seat and suit, not {m!r}")
        try:
            suit = Suit.parse(m["suit"])
        except ValueError as exc:
            raise ProtocolError(f"{field}.suit: {exc}") from None
        marriages.append((_seat(m.get("seat"), field + ".seat"), suit))
    opponent_known = read.cards(data["opponent_known"], "view.opponent_known")
    places = [("hand", hand), ("played", played), ("opponent_known", opponent_known)]
    if trump_card is not None:
        places.append(("trump_card", [trump_card]))
    seen: dict[Card, str] = {}
    for where, cards in places:
        for c in cards:
            if c in seen:
                raise ProtocolError(f"view: {c.code} is both in {seen[c]} and in {where}")
            seen[c] = where
    opp_size = data["opponent_hand_size"]
    if not isinstance(opp_size, int) or isinstance(opp_size, bool) or not 0 <= opp_size <= variant.hand_size:
        raise ProtocolError(f"view.opponent_hand_size must be an integer 0..{variant.hand_size}, not {opp_size!r}")
    if len(opponent_known) > opp_size:
        raise ProtocolError(f"view.opponent_known names {len(opponent_known)} cards of a hand of {opp_size}")
    augen = _int_pair(data["augen"], "view.augen") if data["augen"] is not None else None
    result = result_from_json(data["result"]) if data.get("result") is not None else None
    return PlayerView(
        variant=variant,
        player=_seat(data["seat"], "view.seat"),
        dealer=_seat(data["dealer"], "view.dealer"),
        to_move=_seat(data["to_move"], "view.to_move"),
        hand=tuple(hand),
        trump=trump,
        trump_card=trump_card,
        talon_size=talon_size,
        closed_by=closed_by,
        closed_at_trick=closed_at,
        lead=lead,
        leader=_seat(data["leader"], "view.leader"),
        tricks=tuple(tricks),
        played=frozenset(played),
        marriages=tuple(marriages),
        tricks_won=_int_pair(data["tricks_won"], "view.tricks_won"),
        augen=augen,
        opponent_known=frozenset(opponent_known),
        opponent_hand_size=opp_size,
        first_lead_done=_bool(data["first_lead_done"], "view.first_lead_done"),
        result=result,
    )


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
        threading.Thread(target=self._read_stderr, daemon=True).start()

    @property
    def pid(self) -> int:
        return self._proc.pid

    def _read_stdout(self) -> None:
        stream = self._proc.stdout
        assert stream is not None
        with contextlib.suppress(ValueError, OSError):
            for line in stream:
                self._lines.put(line.rstrip("\r\n"))
        self._lines.put(None)

    def _read_stderr(self) -> None:
        stream = self._proc.stderr
        assert stream is not None
        with contextlib.suppress(ValueError, OSError):
            for line in stream:
                self._stderr.append(line.rstrip("\r\n"))

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


class LoopbackTransport:
    """The client side of the protocol in the same process: :class:`ClientSession`
    answers each line as it is sent.  For tests, and to run Python bots through
    the protocol without starting processes."""

    def __init__(self, bot: Bot | Callable[[int], Bot]) -> None:
        self.session = ClientSession(bot)
        self._replies: collections.deque[str] = collections.deque()
        self._closed = False

    def send(self, line: str) -> None:
        if self._closed:
            raise EOFError("the loopback bot has quit")
        replies, keep_going = self.session.handle_line(line)
        self._replies.extend(replies)
        self._closed = not keep_going

    def receive(self, timeout: float | None) -> str:
        if self._replies:
            return self._replies.popleft()
        if self._closed:
            raise EOFError("the loopback bot has quit")
        raise TimeoutError("the loopback bot did not answer")

    def close(self) -> None:
        self._closed = True

    def terminate(self) -> None:
        self.close()

    def diagnostics(self) -> str:
        return "in-process bot"


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
    """A :class:`~bummerl.bots.Bot` that asks another program over the protocol.

    ``command`` is a command line (``"node bot.js"``, optionally with the
    ``cmd:`` prefix) or an argument list; tests pass ``transport_factory``
    instead.  The process starts on first use and is restarted after it failed.
    :meth:`begin_game` and :meth:`end_game` tell the bot about game boundaries
    (with a seed for its own randomness); :meth:`choose` may be called without
    them, since every ``decide`` message carries the whole view.

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
        #: Processes started after the first one (each follows a failure).
        self.restarts = 0
        self._trace = trace
        self._transport: Transport | None = None
        self._started_once = False
        self._next_id = 0
        self._game: Any = None

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
    def begin_game(self, view: PlayerView, seed: int | None = None, game: Any = None) -> None:
        """Announce a new game (``game_start``), starting the bot if needed."""
        self.start()
        self._game = game
        message: dict[str, Any] = {
            "type": "game_start",
            "game": game,
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

    def choose(self, view: PlayerView) -> Action:
        """Ask the bot for an action; raise :class:`BotFault` if it fails."""
        legal = view.legal_actions()
        if not legal:
            raise ValueError("no legal action: it is not this player's turn")
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

    def end_game(self, view: PlayerView, forfeit: Mapping[str, Any] | None = None) -> None:
        """Tell the bot how the game ended (``game_end``); never raises."""
        if self._transport is None:
            return  # the bot failed in this game; it hears nothing until restarted
        message = {
            "type": "game_end",
            "game": self._game,
            "result": result_to_json(view.result) if view.result is not None else None,
            "view": view_to_json(view),
            "forfeit": dict(forfeit) if forfeit is not None else None,
        }
        try:
            self._send(message)
        except EOFError:
            self._kill(diagnose=False)


# ============================================================== client side
class ClientSession:
    """The bot side of the protocol for a Python bot, one line at a time.

    ``bot`` is a bot, or a factory ``bot(seed)`` (first called with ``seed``):
    then every ``game_start`` with a ``seed`` makes a fresh bot, so a game's
    play depends only on its seed, not on what the process played before.
    """

    def __init__(self, bot: Bot | Callable[[int], Bot], seed: int = 0) -> None:
        if isinstance(bot, Bot):
            self._factory: Callable[[int], Bot] | None = None
            self.bot: Bot = bot
        else:
            self._factory = bot
            self.bot = bot(seed)

    def handle(self, message: Mapping[str, Any]) -> tuple[list[dict[str, Any]], bool]:
        """The replies to one host message and whether to keep going."""
        kind = message.get("type")
        if kind == "hello":
            if message.get("protocol") != PROTOCOL or message.get("version") != VERSION:
                return [self._error(f"this bot speaks {PROTOCOL} version {VERSION}, not {encode(message)}")], True
            return [{"type": "hello", "protocol": PROTOCOL, "version": VERSION, "name": self.bot.name}], True
        if kind == "game_start":
            seed = message.get("seed")
            if self._factory is not None and isinstance(seed, int) and not isinstance(seed, bool):
                self.bot = self._factory(seed)
            return [], True
        if kind == "decide":
            reply: dict[str, Any] = {"type": "action"}
            if "id" in message:
                reply["id"] = message["id"]
            try:
                view = view_from_json(message.get("view"))
                action = self.bot.choose(view)
            except Exception as exc:  # a failing bot must answer, or the host waits out its timeout
                return [self._error(f"{type(exc).__name__}: {exc}")], True
            reply["action"] = action.token
            return [reply], True
        if kind == "game_end":
            return [], True
        if kind == "quit":
            return [], False
        return [self._error(f"unknown message type {kind!r}")], True

    def handle_line(self, line: str) -> tuple[list[str], bool]:
        """Like :meth:`handle` for a raw line; a line that is not JSON gets an error reply."""
        if not line.strip():
            return [], True
        try:
            message = decode(line)
        except ProtocolError as exc:
            return [encode(self._error(str(exc)))], True
        replies, keep_going = self.handle(message)
        return [encode(r) for r in replies], keep_going

    @staticmethod
    def _error(text: str) -> dict[str, Any]:
        return {"type": "error", "message": text}


def serve(
    bot: Bot | Callable[[int], Bot], stdin: IO[str] | None = None, stdout: IO[str] | None = None, seed: int = 0
) -> int:
    """Answer the protocol on ``stdin``/``stdout`` until ``quit`` or end of input.

    This is ``bummerl bot NAME``; give a factory ``bot(seed)`` to honour the
    per-game seeds of ``game_start`` (``seed`` makes the bot used before any).
    Returns the exit status (0).

    >>> import io
    >>> from bummerl.bots import make_bot
    >>> out = io.StringIO()
    >>> random_bot = lambda seed: make_bot("random", seed)
    >>> serve(random_bot, io.StringIO(encode({"type": "hello", "protocol": PROTOCOL, "version": 1}) + "\\n"), out)
    0
    >>> decode(out.getvalue())["name"]
    'random'
    """
    inp = stdin if stdin is not None else sys.stdin
    out = stdout if stdout is not None else sys.stdout
    session = ClientSession(bot, seed)
    for line in inp:
        replies, keep_going = session.handle_line(line)
        for reply in replies:
            out.write(reply + "\n")
        out.flush()
        if not keep_going:
            break
    return 0
