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

__all__ = ["analyze_record", "choose_token", "read_game_record", "warm_up"]


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
