"""Work the server hands to executor threads or processes: bot decisions and analyses.

The functions take and return plain data (a view as the bot protocol's JSON, a
record as text), so they pickle into worker processes and a worker never sees
a full game: :func:`choose_token` gets only the deciding player's view.

>>> from bummerl.game import Game
>>> from bummerl.protocol import view_to_json
>>> game = Game.deal("schnapsen", seed=2)
>>> token = choose_token("random", 7, view_to_json(game.view(game.to_move)))
>>> token in [a.token for a in game.legal_actions()]
True

Nothing here touches the database or the event loop.
"""

from __future__ import annotations

import os
import threading
import time
from typing import Any, Protocol, TypeVar, runtime_checkable

from bummerl.analysis import analyze
from bummerl.bots import bot_info, make_bot
from bummerl.bots.levels import make_level
from bummerl.errors import RecordError
from bummerl.protocol import view_from_json
from bummerl.record import GameRecord, MatchRecord, loads
from bummerl.table.view import TableView
from bummerl.variants import TableVariant

__all__ = [
    "TimeScaled",
    "analyze_record",
    "choose_table_token",
    "choose_token",
    "exit_with_parent",
    "read_game_record",
    "search_budget",
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
        raise RecordError(f"expected a two-player game, found a {record.variant.title} game")
    return record


def choose_token(bot_name: str, seed: int, view: dict[str, Any], time_scale: float = 1.0) -> str:
    """The action token that a fresh bot ``bot_name`` seeded with ``seed`` chooses in ``view``.

    A fresh bot per decision makes the choice depend only on the seed and the
    view, so a table restored after a restart plays on as it would have.  A
    ``time_scale`` below 1 shortens a searching bot's time per decision (the
    server's scheduler does so when many tables wait for its workers).
    """
    seat_view = view_from_json(view)
    # bot_info(...).make makes registered bots only: a name from the network never starts a program.
    return _scaled(bot_info(bot_name).make(seed, seat_view.variant), time_scale).choose(seat_view).token


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


def search_budget(bot_name: str, table_variant: TableVariant | None = None) -> float | None:
    """The seconds a decision of ``bot_name`` may take if the bot searches (``None``: a quick bot)."""
    bot = make_bot(bot_info(bot_name).name, 0, table_variant)  # a registered bot: never a program
    return bot.time_budget() if isinstance(bot, TimeScaled) else None


def analyze_record(record_text: str, level: str) -> dict[str, Any]:
    """The analysis (``Analysis.to_json()``) of a finished game's record by the search level ``level``."""
    game = read_game_record(record_text).replay()
    return analyze(game, make_level(level)).to_json()


def choose_table_token(bot_name: str, seed: int, view: TableView, time_scale: float = 1.0) -> str:
    """The action token that a fresh table bot ``bot_name`` seeded with ``seed`` chooses in ``view``.

    Only the deciding seat's :class:`~bummerl.table.TableView` is passed (it
    pickles into a worker process); like :func:`choose_token`, a fresh bot per
    decision makes a restored table play on as it would have.

    >>> from bummerl.table_game import TableGame
    >>> t = TableGame.deal("bauernschnapsen", seed=2)
    >>> choose_table_token("random", 7, t.view(t.to_move)) in [a.token for a in t.legal_actions()]
    True
    """
    return _scaled(bot_info(bot_name).make(seed, view.variant), time_scale).choose(view).token
