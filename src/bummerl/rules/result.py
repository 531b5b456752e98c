"""What every game's result states, whichever family played it: :class:`Result`.

A two-player game ends with a :class:`~bummerl.variants.two_player.GameResult` (one winner), a table game with a
:class:`~bummerl.variants.bauernschnapsen.TableResult` (a side of winners); both answer the questions below, so
code of every family (a match's score, a record's result tag, the bot protocol's ``game_end``) reads a result
without asking which family it is.

>>> from bummerl.game import Game
>>> for name in ("schnapsen", "dreierschnapsen"):
...     game = Game.deal(name, seed=1)
...     while not game.is_over:
...         _ = game.apply(game.legal_actions()[0])
...     result: Result | None = game.result
...     assert result is not None
...     print(name, result.reason.value, sum(result.points_of(s) for s in range(game.players)) > 0)
schnapsen last_trick True
dreierschnapsen contract_lost True

This module must import nothing of the variants or the engines (they sit above it).
"""

from __future__ import annotations

import enum
from typing import Protocol

__all__ = ["Result"]


class Result(Protocol):
    """The end of one game of any family."""

    #: The seats credited with :attr:`points` each (empty when nobody scores).
    @property
    def winners(self) -> tuple[int, ...]: ...

    #: Game points (Marken in Schnorps) of each winner.
    @property
    def points(self) -> int: ...

    #: How the game ended (each family has its :class:`enum.Enum`; its ``value`` is the JSON's ``reason``).
    @property
    def reason(self) -> enum.Enum: ...

    #: Counted Augen: both players' (two seats), or the declarer's side's and the defenders' (a table).
    @property
    def augen(self) -> tuple[int, int]: ...

    def points_of(self, seat: int) -> int:
        """The points ``seat`` won in this game (0 for a loser)."""
        ...

    def to_json(self, players: int) -> dict[str, object]:
        """The result as the bot protocol's JSON object (docs/protocol.md), for a game of ``players`` seats."""
        ...
