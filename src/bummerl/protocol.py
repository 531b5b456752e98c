"""The bot protocol ``bummerl-bot`` version 1: JSON lines over stdin/stdout, for 2, 3 and 4 players.

A bot is a program in any language that reads one JSON object per line on its
standard input and answers one JSON object per line on its standard output
(like UCI for chess engines; the full specification is ``docs/protocol.md``)::

    host -> bot  {"type":"hello","protocol":"bummerl-bot","version":1}
    bot -> host  {"type":"hello","protocol":"bummerl-bot","version":1,"name":"mybot"}
    host -> bot  {"type":"game_start","game":0,"players":3,"seat":1,"dealer":1,"variant":{...},"seed":42}
    host -> bot  {"type":"decide","id":1,"view":{...},"legal":["bid:normal","bid:schnapser","pass"]}
    bot -> host  {"type":"action","id":1,"action":"bid:normal"}
    host -> bot  {"type":"game_end","game":0,"result":{...},"view":{...},"forfeit":null}
    host -> bot  {"type":"quit"}

Both sides are here: the **host** side is :class:`ProcessBot`, a bot that
plays one seat by asking a child process (``cmd:`` bots; it lives in
:mod:`bummerl.bots.process`, below the bot registry that makes it, and is
named here too), and the **client** side is :func:`serve`, which answers the
protocol for any Python bot (``bummerl bot NAME``).  One process plays one seat: a process never sees two
hands, so partners at Bauernschnapsen never share one.  Messages carry a
player's view only through :func:`bummerl.view_json.view_to_json`, which reads
a view and never a game: the host cannot reveal a hidden card.

>>> from bummerl.bots import make_bot
>>> from bummerl.game import Game
>>> bot = ProcessBot(transport_factory=lambda: LoopbackTransport(make_bot("random", 1)))
>>> game = Game.deal("schnapsen", seed=3)
>>> bot.choose(game.view(game.to_move)) in game.legal_actions()
True
>>> bot.bot_name
'random'
>>> bot.close()

The same host plays a seat of a table game; served by name, the bot is made
for the variant that the game is of:

>>> from bummerl.table_game import TableGame
>>> table = TableGame.deal("dreierschnapsen", seed=3)
>>> bot = ProcessBot(transport_factory=lambda: LoopbackTransport("heuristic"), seed=7)
>>> while not table.is_over:
...     _ = table.apply(bot.choose(table.view(table.to_move)))
>>> table.result is not None
True
>>> bot.close()

A bot that fails (crashes, answers late, sends a line that is not JSON or an
illegal action) raises :class:`BotFault`; the arena records it as that game's
forfeit and goes on.  The transports (a child process, an in-process loopback
and a scripted mock for tests) are blocking with timeouts: a reader thread
feeds a queue, so no event loop is needed, and the host stays a plain
bot that the engine's synchronous game loops can call.
"""

from __future__ import annotations

import collections
import sys
from collections.abc import Callable, Mapping
from typing import IO, Any, TypeAlias

from bummerl.bots import Bot, bot_info, make_bot, process
from bummerl.bots.process import *  # noqa: F403 - the host side is part of this module's interface
from bummerl.bots.process import PROTOCOL, VERSION, decode, encode
from bummerl.variants import Variant
from bummerl.view_json import (
    ProtocolError,
    result_from_json,
    result_to_json,
    variant_from_json,
    variant_to_json,
    view_from_json,
    view_to_json,
)

__all__ = [
    *process.__all__,
    "ClientSession",
    "LoopbackTransport",
    "ProtocolError",
    "result_from_json",
    "result_to_json",
    "serve",
    "variant_from_json",
    "variant_to_json",
    "view_from_json",
    "view_to_json",
]


class LoopbackTransport:
    """The client side of the protocol in the same process: :class:`ClientSession`
    answers each line as it is sent.  For tests, and to run Python bots through
    the protocol without starting processes."""

    def __init__(self, bot: Servable) -> None:
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


# ============================================================== client side
#: What :class:`ClientSession` serves: a bot, a factory ``bot(seed)``, or the
#: name of a registered bot, made per game for the variant the game is of.
Servable: TypeAlias = Bot | Callable[[int], Bot] | str


class ClientSession:
    """The bot side of the protocol for a Python bot, one line at a time.

    ``bot`` is a bot; or a factory ``bot(seed)`` (first called with ``seed``):
    then every ``game_start`` with a ``seed`` makes a fresh bot, so a game's
    play depends only on its seed, not on what the process played before; or
    the name of a registered bot (:func:`bummerl.bots.make_bot`), made for the
    variant of each game with its seed, so one process plays whatever variant
    the host names (and a bot that does not play it answers with an error).
    """

    def __init__(self, bot: Servable, seed: int = 0) -> None:
        self._name: str | None = None
        self._factory: Callable[[int], Bot] | None = None
        self._seed = seed
        self._bot: Bot | None = None
        self._variant: Variant | None = None
        if isinstance(bot, str):
            info = bot_info(bot)
            self._name = info.name
            self.name: str = info.name
        elif isinstance(bot, Bot):
            self._bot = bot
            self.name = bot.name
        else:
            self._factory = bot
            self._bot = bot(seed)
            self.name = self._bot.name

    @property
    def bot(self) -> Bot | None:
        """The bot playing now (``None`` while a bot served by name waits for its first decision)."""
        return self._bot

    def _bot_for(self, variant: Variant) -> Bot:
        if self._name is None:
            assert self._bot is not None
            return self._bot
        if self._bot is None or variant != self._variant:
            self._bot = make_bot(self._name, self._seed, variant)
            self._variant = variant
        return self._bot

    def handle(self, message: Mapping[str, Any]) -> tuple[list[dict[str, Any]], bool]:
        """The replies to one host message and whether to keep going."""
        kind = message.get("type")
        if kind == "hello":
            if message.get("protocol") != PROTOCOL or message.get("version") != VERSION:
                return [self._error(f"this bot speaks {PROTOCOL} version {VERSION}, not {encode(message)}")], True
            return [{"type": "hello", "protocol": PROTOCOL, "version": VERSION, "name": self.name}], True
        if kind == "game_start":
            seed = message.get("seed")
            if isinstance(seed, int) and not isinstance(seed, bool):
                if self._factory is not None:
                    self._bot = self._factory(seed)
                elif self._name is not None:
                    self._seed, self._bot = seed, None  # made at the first decision, for its variant
            return [], True
        if kind == "decide":
            reply: dict[str, Any] = {"type": "action"}
            if "id" in message:
                reply["id"] = message["id"]
            try:
                view = view_from_json(message.get("view"))
                action = self._bot_for(view.variant).choose(view)
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


def serve(bot: Servable, stdin: IO[str] | None = None, stdout: IO[str] | None = None, seed: int = 0) -> int:
    """Answer the protocol on ``stdin``/``stdout`` until ``quit`` or end of input.

    This is ``bummerl bot NAME`` (``serve(NAME)``: the registered bot, made for
    the variant of each game); give a factory ``bot(seed)`` to honour the
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
