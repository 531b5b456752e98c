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
from typing import Any

from bummerl.analysis import analyze
from bummerl.bots import bot_info, make_bot
from bummerl.bots.levels import make_level
from bummerl.errors import RecordError
from bummerl.protocol import view_from_json
from bummerl.record import GameRecord, MatchRecord, loads
from bummerl.table.view import TableView

__all__ = ["analyze_record", "choose_table_token", "choose_token", "read_game_record", "warm_up"]


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


def choose_token(bot_name: str, seed: int, view: dict[str, Any]) -> str:
    """The action token that a fresh bot ``bot_name`` seeded with ``seed`` chooses in ``view``.

    A fresh bot per decision makes the choice depend only on the seed and the
    view, so a table restored after a restart plays on as it would have.
    """
    return make_bot(bot_name, seed).choose(view_from_json(view)).token


def analyze_record(record_text: str, level: str) -> dict[str, Any]:
    """The analysis (``Analysis.to_json()``) of a finished game's record by the search level ``level``."""
    game = read_game_record(record_text).replay()
    return analyze(game, make_level(level)).to_json()


def choose_table_token(bot_name: str, seed: int, view: TableView) -> str:
    """The action token that a fresh table bot ``bot_name`` seeded with ``seed`` chooses in ``view``.

    Only the deciding seat's :class:`~bummerl.table.TableView` is passed (it
    pickles into a worker process); like :func:`choose_token`, a fresh bot per
    decision makes a restored table play on as it would have.

    >>> from bummerl.table import Table
    >>> t = Table.deal("bauernschnapsen", seed=2)
    >>> choose_table_token("random", 7, t.view(t.to_move)) in [a.token for a in t.legal_actions()]
    True
    """
    return make_bot(bot_name, seed, variant=view.variant).choose(view).token
