"""Perft: count the action sequences from a position, as chess engines do.

``perft(game, depth)`` is the number of sequences of exactly ``depth`` legal
actions that can follow ``game`` (a finished game has no further actions, so a
line that ends the game early counts only if it ends exactly at ``depth``).
The counts are kept as regression data for the action generator
(``tests/data/perft.json``): any change in what is legal changes them.

>>> from bummerl.two_player import TwoPlayerGame
>>> game = TwoPlayerGame.from_position("schnapsen 1 0 Kc JcKhQhAsTs/AhThKsQsJs JhAdTdKdQdJdAcTcQc - - -/- -")
>>> perft(game, 1)  # five cards, exchange, close, two ways to lead the Herz marriage
9
>>> perft(game, 2)
50
>>> divide(game, 2)["exchange"]  # after the exchange: five cards, close, two marriages
8

The engine is driven only through its public actions; nothing here changes the
game passed in.
"""

from __future__ import annotations

from bummerl.two_player import TwoPlayerGame

__all__ = ["divide", "perft"]


def perft(game: TwoPlayerGame, depth: int) -> int:
    """The number of sequences of exactly ``depth`` legal actions from ``game``."""
    if depth < 0:
        raise ValueError(f"perft depth must be 0 or more, not {depth}")
    if depth == 0:
        return 1
    legal = game.legal_actions()
    if depth == 1:
        return len(legal)
    total = 0
    for action in legal:
        child = game.copy()
        child.apply(action)
        total += perft(child, depth - 1)
    return total


def divide(game: TwoPlayerGame, depth: int) -> dict[str, int]:
    """``perft`` split by the first action (token to count), for finding a difference."""
    if depth < 1:
        raise ValueError(f"divide needs depth 1 or more, not {depth}")
    counts: dict[str, int] = {}
    for action in game.legal_actions():
        child = game.copy()
        child.apply(action)
        counts[action.token] = perft(child, depth - 1)
    return counts
