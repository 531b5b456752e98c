"""What a pairing's duplicate deals add up to, and who won it.

A pairing is decided by its **primary score**: the Bummerl (matches) each bot
won with ``unit="bummerl"``, the game points (Marken in Schnorps) with
``unit="game"``.  The same order decides a single deal for the ratings
(:func:`deal_score`): the primary score, then the game points, else a draw.

>>> from bummerl.arena import ArenaConfig, play_deal
>>> config = ArenaConfig("schnapsen", "heuristic", "random", deals=2, seed=1)
>>> tally = Tally.of([play_deal(config, 0), play_deal(config, 1)])
>>> tally.deals, tally.games, tally.game_points, tally.winner("game")
(2, 4, (11, 0), 'a')
>>> deal_score(play_deal(config, 0), "game")
1.0

This module only adds up; it plays nothing.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable

from bummerl.arena import SIDES, DealResult

__all__ = ["Tally", "deal_score"]

Pair = tuple[int, int]


def _pair(values: dict[str, int]) -> Pair:
    return values["a"], values["b"]


def _add(x: Pair, y: Pair) -> Pair:
    return x[0] + y[0], x[1] + y[1]


@dataclasses.dataclass(frozen=True)
class Tally:
    """Sums over some deals of one pairing, as ``(a, b)`` pairs."""

    deals: int = 0
    games: int = 0
    game_points: Pair = (0, 0)
    games_won: Pair = (0, 0)
    #: Matches won with ``unit="bummerl"`` (at Dreierschnapsen two seats of one bot may both reach 24).
    bummerl_won: Pair = (0, 0)
    #: Games forfeited by each side's bots.
    forfeits: Pair = (0, 0)

    @classmethod
    def of(cls, results: Iterable[DealResult]) -> Tally:
        """The sums over ``results``."""
        total = cls()
        for result in results:
            total = total + cls.of_deal(result)
        return total

    @classmethod
    def of_deal(cls, result: DealResult) -> Tally:
        """One deal's sums."""
        points, won, forfeits, bummerl = (0, 0), (0, 0), (0, 0), (0, 0)
        for game in result.games:
            points = _add(points, _pair(game.side_points))
            won = _add(won, (int(game.side_points["a"] > 0), int(game.side_points["b"] > 0)))
            if game.forfeit is not None:
                side = SIDES.index(game.forfeit["side"])
                forfeits = _add(forfeits, (1 - side, side))
        for match in result.matches:
            bummerl = _add(bummerl, _pair(match.won))
        return cls(1, len(result.games), points, won, bummerl, forfeits)

    def __add__(self, other: Tally) -> Tally:
        return Tally(
            self.deals + other.deals,
            self.games + other.games,
            _add(self.game_points, other.game_points),
            _add(self.games_won, other.games_won),
            _add(self.bummerl_won, other.bummerl_won),
            _add(self.forfeits, other.forfeits),
        )

    def primary(self, unit: str) -> Pair:
        """What decides the pairing: Bummerl won (``unit="bummerl"``) or game points."""
        return self.bummerl_won if unit == "bummerl" else self.game_points

    def winner(self, unit: str) -> str | None:
        """``"a"`` or ``"b"``, whoever has the higher primary score; ``None`` for a draw."""
        a, b = self.primary(unit)
        return "a" if a > b else "b" if b > a else None


def deal_score(result: DealResult, unit: str) -> float:
    """Bot a's result in one duplicate deal: 1 won, 0.5 drawn, 0 lost (primary score, then game points)."""
    tally = Tally.of_deal(result)
    for a, b in (tally.primary(unit), tally.game_points):
        if a != b:
            return 1.0 if a > b else 0.0
    return 0.5
