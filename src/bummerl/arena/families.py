"""What the arena must know of a family of rules that its variant does not say (yet).

Every game is played through :class:`bummerl.game.Game`, and every result
answers ``points_of(seat)``, so the arena plays and scores all six variants with
one loop.  Three things still differ by family and are not hooks of the variant:

* the result a forfeit stands for: the opponent scores the heaviest ordinary
  loss (3 game points, 6 Marken in Schnorps), or at a table game every other
  scoring unit scores 3 game points (:func:`forfeit_points`);
* who deals first in the match a deal is played as with ``--unit bummerl``
  (the variant's :class:`~bummerl.series.Series`): drawn in a Bummerl, the
  deal's dealer at a table game;
* how long a built-in bot lives: the two-player arena made one per seating and
  kept it for the whole match, the table arena one per game; each keeps its rule
  so that every published measurement (docs/bots.md) stays reproducible.

:func:`family_of` picks the family by the variant's ``FAMILY``: it is the one
place that tells the families apart.  When the engines make a forfeit's result
themselves, this module shrinks to the bots' lifetime.

>>> from bummerl.variants import find_variant
>>> [family_of(find_variant(v)).name for v in ("schnorps", "dreier")]
['two-player', 'table']
>>> forfeit_points(find_variant("schnapsen")), forfeit_points(find_variant("schnorps"))
(3, 6)

This module plays no game and makes no bot; it only turns results into scores.
"""

from __future__ import annotations

import dataclasses
from typing import Any, cast

from bummerl.game import Game
from bummerl.series import Result, Series, new_series
from bummerl.table_game import TableGame
from bummerl.two_player import TwoPlayerGame
from bummerl.variants import EndReason, GameResult, TwoPlayerVariant, Variant
from bummerl.variants.bauernschnapsen import TableEndReason, TableResult

__all__ = ["Family", "Result", "family_of", "forfeit_points", "scoring_seats"]

#: What each other scoring unit of a table game scores when a bot forfeits (the normal game's most).
TABLE_FORFEIT_POINTS = 3


def scoring_seats(players: int) -> tuple[int, ...]:
    """One seat per scoring unit: with four players the two teams (seat ``s`` plays for team
    ``s % 2``, partners sit opposite), otherwise every seat.

    >>> scoring_seats(2), scoring_seats(3), scoring_seats(4)
    ((0, 1), (0, 1, 2), (0, 1))
    """
    return (0, 1) if players == 4 else tuple(range(players))


def forfeit_points(variant: Variant) -> int:
    """What the opponents of a forfeiting bot score: the heaviest ordinary loss.

    3 game points (the loser without a trick, seeds/000) or, in Schnorps, 6
    Marken (no trick, seeds/001); at a table game 3 game points.
    """
    return family_of(variant).forfeit_points(variant)


@dataclasses.dataclass(frozen=True)
class Family:
    """The arena's knowledge of one family of rules (see the module docstring)."""

    name: str
    #: Built-in bots are made for every game (``True``) or once per seating, kept through its match.
    bots_per_game: bool
    #: What a game nobody scored is called in the selfplay table.
    nobody_scored: str

    def forfeit_points(self, variant: Variant) -> int:
        raise NotImplementedError

    def forfeit(self, game: Game, seat: int) -> Result:
        """The result of ``game`` when the bot in ``seat`` forfeits it."""
        raise NotImplementedError

    def first_dealer(self, variant: Variant, deal: int) -> int | None:
        """Who deals first in the match that deal ``deal`` is played as with ``--unit bummerl``
        (``None``: drawn from the match seed)."""
        raise NotImplementedError

    def new_match(self, variant: Variant, seed: int, deal: int) -> Series:
        """The match that deal ``deal`` is played as with ``--unit bummerl``."""
        return new_series(variant, seed=seed, first_dealer=self.first_dealer(variant, deal))

    def unit(self, variant: Variant) -> str:
        """What the points are: ``game points``, or ``Marken`` in Schnorps."""
        return "game points"

    def describe(self, result: Result, seating: str) -> dict[str, Any]:
        """What the game log tells of a result beyond its points (a table game's contract)."""
        return {}


class _TwoPlayer(Family):
    def forfeit_points(self, variant: Variant) -> int:
        return 6 if TwoPlayerVariant.find(variant).match_kind == "marken" else 3

    def unit(self, variant: Variant) -> str:
        return "Marken" if TwoPlayerVariant.find(variant).match_kind == "marken" else "game points"

    def forfeit(self, game: Game, seat: int) -> Result:
        two = cast(TwoPlayerGame, game)
        augen = (two.augen(0), two.augen(1))
        points = self.forfeit_points(game.variant)
        return GameResult(1 - seat, points, EndReason.FORFEIT, augen, self.unit(game.variant))

    def first_dealer(self, variant: Variant, deal: int) -> int | None:
        # Drawn from the match seed, as in a Bummerl at the table.
        return None


class _Table(Family):
    def forfeit_points(self, variant: Variant) -> int:
        return TABLE_FORFEIT_POINTS

    def forfeit(self, game: Game, seat: int) -> Result:
        table = cast(TableGame, game)
        units = scoring_seats(game.players)
        loser = seat % len(units)
        winners = tuple(s for s in range(game.players) if s % len(units) != loser)
        # The engine has no forfeit reason for table games; the arena's log says "forfeit".
        return TableResult(
            table.contract.name if table.contract else "",
            table.declarer,
            winners,
            TABLE_FORFEIT_POINTS,
            TableEndReason.CONTRACT_LOST,
            (table.augen(0), table.augen(1)),
        )

    def first_dealer(self, variant: Variant, deal: int) -> int | None:
        return deal % variant.players

    def describe(self, result: Result, seating: str) -> dict[str, Any]:
        table = cast(TableResult, result)
        declarer = None if table.declarer is None else seating[table.declarer]
        return {"contract": table.contract, "declarer": declarer}


#: The arena's family of each family of rules (``Variant.FAMILY``).
_FAMILIES = {
    "two_player": _TwoPlayer("two-player", bots_per_game=False, nobody_scored="draws"),
    "table_game": _Table("table", bots_per_game=True, nobody_scored="redeals"),
}


def family_of(variant: Variant) -> Family:
    """The family of ``variant`` (its ``FAMILY``)."""
    try:
        return _FAMILIES[variant.FAMILY]
    except KeyError:
        raise ValueError(f"the arena plays no {variant.title}") from None
