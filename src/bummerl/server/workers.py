"""Work the server hands to executor threads or processes: bot decisions and analyses.

The functions take and return plain data (a view as the bot protocol's JSON, a
record as text), so they pickle into worker processes and a worker never sees
a full game: :func:`choose_token` gets only the deciding player's view.

>>> from bummerl.game import Game
>>> from bummerl.protocol import view_to_json
>>> for game in (Game.deal("schnapsen", seed=2), Game.deal("bauernschnapsen", seed=2)):
...     token = choose_token("random", 7, view_to_json(game.view(game.to_move)))
...     assert token in [a.token for a in game.legal_actions()]

Nothing here touches the database or the event loop.
"""

from __future__ import annotations

import importlib
import os
import threading
import time
from typing import Any, Protocol, TypeVar, runtime_checkable

from bummerl.analysis import analyze, make_evaluator
from bummerl.bots import bot_info, make_bot
from bummerl.bots.levels import make_level
from bummerl.errors import RecordError
from bummerl.protocol import view_from_json
from bummerl.record import GameRecord, MatchRecord, loads
from bummerl.variants import Variant
from bummerl.view import View

__all__ = [
    "TimeScaled",
    "analyze_record",
    "choose",
    "choose_token",
    "exit_with_parent",
    "read_game_record",
    "search_budget",
    "start_worker",
    "warm_up",
]


#: Seconds between two looks of a worker process at its parent.
PARENT_POLL_SECONDS = 0.5


def exit_with_parent(parent_pid: int) -> None:
    """A worker process's initializer: end this process soon after ``parent_pid`` (the server) is gone.

    A server killed with ``SIGKILL`` cannot shut its pools down, and a worker busy
    with a search would otherwise run on, orphaned.  A daemon thread looks at
    :func:`os.getppid` every :data:`PARENT_POLL_SECONDS`: once the process has
    been handed to another parent, it exits at once (``os._exit``: no cleanup
    can block it).  ``prctl(PR_SET_PDEATHSIG)`` is not used: it fires when the
    *thread* that started the worker ends, and a pool may start its workers
    from any thread of the server.
    """

    def watch() -> None:
        while os.getppid() == parent_pid:
            time.sleep(PARENT_POLL_SECONDS)
        os._exit(1)

    threading.Thread(target=watch, name="bummerl-exit-with-parent", daemon=True).start()


def start_worker(parent_pid: int, preload: tuple[str, ...] = (), nice: int = 0) -> None:
    """A worker process's initializer: :func:`exit_with_parent`, import the modules named in ``preload``, and
    run ``nice`` steps below the server's CPU priority.

    Work is pickled by reference: its first call in a worker imports its module (the hints' pulls in the
    server's messages and pydantic, 0.1-0.4 s) unless the worker did so when it started.
    """
    exit_with_parent(parent_pid)
    if nice > 0 and hasattr(os, "nice"):
        os.nice(nice)
    for name in preload:
        importlib.import_module(name)


def warm_up() -> int:
    """Load the bot modules in a fresh worker process (so the first move is not slow); its pid."""
    bot_info("random")
    return os.getpid()


def read_game_record(text: str) -> GameRecord:
    """The one game of a stored record: the server stores each game of a match as a
    one-game match record (with the match's tags and standings)."""
    # Stored game records carry no Match tag; one written before that rule had it, and a
    # reader would then expect the match from its first game on: drop the tag.
    lines = [line for line in text.splitlines(keepends=True) if not line.startswith('[Match "')]
    record = loads("".join(lines))
    if isinstance(record, MatchRecord):
        if len(record.games) != 1:
            raise RecordError(f"expected one game, found {len(record.games)}")
        return record.games[0]
    if not isinstance(record, GameRecord):
        raise RecordError(f"expected one game, found {type(record).__name__}")
    return record


def choose_token(bot_name: str, seed: int, view: dict[str, Any], time_scale: float = 1.0) -> str:
    """The action token that a fresh bot ``bot_name`` seeded with ``seed`` chooses in ``view``.

    ``view`` is the deciding seat's view as the bot protocol's JSON, of any
    variant (:func:`bummerl.view_json.view_to_json`): it pickles into a worker
    process, which never sees more than that seat may know.  A fresh bot per
    decision makes the choice depend only on the seed and the view, so a table
    restored after a restart plays on as it would have.  A
    ``time_scale`` below 1 shortens a searching bot's time per decision (the
    server's scheduler does so when many tables wait for its workers).
    """
    return choose(bot_name, seed, view_from_json(view), time_scale)


def choose(bot_name: str, seed: int, view: View, time_scale: float = 1.0) -> str:
    """:func:`choose_token` for the seat's view itself (a :class:`~bummerl.view.View`), in this process.

    The server's quick bots decide so on its event loop (:mod:`bummerl.server.scheduler`): the same choice as
    :func:`choose_token` on the view's JSON, without the JSON.
    """
    # bot_info(...).make makes registered bots only: a name from the network never starts a program.
    return _scaled(bot_info(bot_name).make(seed, view.variant), time_scale).choose(view).token


@runtime_checkable
class TimeScaled(Protocol):
    """A bot whose time per decision can be shortened (the search bots)."""

    def scale_time(self, factor: float) -> None: ...

    def time_budget(self) -> float: ...


B = TypeVar("B")


def _scaled(bot: B, time_scale: float) -> B:
    if time_scale < 1.0 and isinstance(bot, TimeScaled):
        bot.scale_time(time_scale)
    return bot


def search_budget(bot_name: str, variant: Variant | None = None) -> float | None:
    """The seconds a decision of ``bot_name`` for ``variant`` may take if the bot searches (``None``: a quick bot)."""
    bot = make_bot(bot_info(bot_name).name, 0, variant)  # a registered bot: never a program
    return bot.time_budget() if isinstance(bot, TimeScaled) else None


def analyze_record(record_text: str, level: str) -> dict[str, Any]:
    """The analysis (``Analysis.to_json()``) of a finished game's record of any variant.

    A two-player game is judged by the search level ``level``; a table game,
    which no two-player level plays, by its variant's evaluator
    (:func:`bummerl.analysis.make_evaluator`: the table ``search`` bot) with
    its full world budget and seed 0, so that the same record always gets the
    same analysis.

    >>> from bummerl.game import Game
    >>> from bummerl.record import GameRecord
    >>> table = Game.deal("dreierschnapsen", seed=3)
    >>> while not table.is_over:
    ...     _ = table.apply(table.legal_actions()[0])
    >>> data = analyze_record(GameRecord.from_game(table).dumps(), "easy")
    >>> data["evaluator"], len(data["mistakes"]), len(data["decisions"]) == len(table.actions)
    ('search', 3, True)
    """
    game = read_game_record(record_text).replay()
    if bot_info(level).plays(game.variant):
        return analyze(game, make_level(level)).to_json()
    return analyze(game, make_evaluator(game.variant)).to_json()
