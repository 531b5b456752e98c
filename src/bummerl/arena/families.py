"""What the arena must know of a family of rules that its variant does not say (yet).

Every game is played through :class:`bummerl.game.Game`, and every result
answers ``points_of(seat)``, so the arena plays and scores all six variants with
one loop.  Three things still differ by family and are not hooks of the variant:

* the result a forfeit stands for: the opponent scores the heaviest ordinary
  loss (3 game points, 6 Marken in Schnorps), or at a table game every other
  scoring unit scores 3 game points (:func:`forfeit_points`);
* the match a deal is played as with ``--unit bummerl``: a Bummerl or Schnorps
  :class:`~bummerl.match.Match`, or the 24-point
  :class:`~bummerl.match.TableMatch` (:class:`ArenaMatch` wraps either);
* how long a built-in bot lives: the two-player arena made one per seating and
  kept it for the whole match, the table arena one per game; each keeps its rule
  so that every published measurement (docs/bots.md) stays reproducible.

:func:`family_of` picks the family by asking the variant its number of players:
it is the one place that tells the families apart.  When the variants name
their match and forfeit (a ``Variant.new_match`` hook), this module shrinks to
those calls.

>>> from bummerl.variants import find_variant
>>> [family_of(find_variant(v)).name for v in ("schnorps", "dreier")]
['two-player', 'table']
>>> forfeit_points(find_variant("schnapsen")), forfeit_points(find_variant("schnorps"))
(3, 6)

This module plays no game and makes no bot; it only turns results into scores.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import Any, Protocol, cast

from bummerl.game import Game
from bummerl.variants import EndReason, GameResult, TableVariant, TwoPlayerVariant, Variant
from bummerl.view import MatchContext

__all__ = ["ArenaMatch", "Family", "Result", "family_of", "forfeit_points", "scoring_seats"]

#: What each other scoring unit of a table game scores when a bot forfeits (the normal game's most).
TABLE_FORFEIT_POINTS = 3


class Result(Protocol):
    """What the arena reads of a game's result (a two-player ``GameResult`` or a ``TableResult``)."""

    @property
    def points(self) -> int: ...

    @property
    def reason(self) -> Any: ...

    def points_of(self, seat: int) -> int: ...


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


class ArenaMatch(Protocol):
    """A match as the arena plays it: games until it is over, then its winners."""

    def next_game(self) -> Game | None:
        """The next game to play, ``None`` once the match is over."""
        ...

    def finish(self, game: Game, result: Result) -> None:
        """Score ``game`` with ``result`` (its own, or a forfeit's)."""
        ...

    @property
    def winners(self) -> tuple[int, ...]:
        """The scoring units (:func:`scoring_seats`) that won."""
        ...

    @property
    def bummerl(self) -> Sequence[int]:
        """Bummerl each scoring unit received (2 for a Schneider)."""
        ...

    def context(self) -> MatchContext | None:
        """The match context for the views of the next game's bots (``None``: the bots are not told)."""
        ...


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

    def new_match(self, variant: Variant, seed: int, deal: int) -> ArenaMatch:
        """The match that deal ``deal`` is played as with ``--unit bummerl``."""
        raise NotImplementedError

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
        from bummerl.two_player import TwoPlayerGame

        two = cast(TwoPlayerGame, game)
        augen = (two.augen(0), two.augen(1))
        points = self.forfeit_points(game.variant)
        return GameResult(1 - seat, points, EndReason.FORFEIT, augen, self.unit(game.variant))

    def new_match(self, variant: Variant, seed: int, deal: int) -> ArenaMatch:
        # The first dealer is drawn from the match seed, as in a Bummerl at the table.
        return _Bummerl(TwoPlayerVariant.find(variant), seed)


class _Bummerl:
    def __init__(self, variant: TwoPlayerVariant, seed: int) -> None:
        from bummerl.match import Match

        self._match = Match(variant, seed=seed)

    def next_game(self) -> Game | None:
        return None if self._match.is_over else self._match.deal_next()

    def finish(self, game: Game, result: Result) -> None:
        from bummerl.two_player import TwoPlayerGame

        two = cast(TwoPlayerGame, game)
        if two.result is None:
            # A forfeit: the match counts the game with the forfeit's result.
            two.result = cast(GameResult, result)
        self._match.complete(two)

    @property
    def winners(self) -> tuple[int, ...]:
        winner = self._match.winner
        return () if winner is None else (winner,)

    @property
    def bummerl(self) -> Sequence[int]:
        loser = self._match.loser
        return [self._match.bummerl_for_loser if seat == loser else 0 for seat in (0, 1)]

    def context(self) -> MatchContext | None:
        return self._match.context()


class _Table(Family):
    def forfeit_points(self, variant: Variant) -> int:
        return TABLE_FORFEIT_POINTS

    def forfeit(self, game: Game, seat: int) -> Result:
        from bummerl.table_game import TableEndReason, TableGame, TableResult

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

    def new_match(self, variant: Variant, seed: int, deal: int) -> ArenaMatch:
        return _TableMatch(TableVariant.find(variant), seed, deal % variant.players)

    def describe(self, result: Result, seating: str) -> dict[str, Any]:
        from bummerl.table_game import TableResult

        table = cast(TableResult, result)
        declarer = None if table.declarer is None else seating[table.declarer]
        return {"contract": table.contract, "declarer": declarer}


class _TableMatch:
    def __init__(self, variant: TableVariant, seed: int, first_dealer: int) -> None:
        from bummerl.match import TableMatch

        self._match = TableMatch(variant, seed=seed, first_dealer=first_dealer)

    def next_game(self) -> Game | None:
        return None if self._match.is_over else self._match.table

    def finish(self, game: Game, result: Result) -> None:
        from bummerl.table_game import TableResult

        self._match.score(cast(TableResult, result))

    @property
    def winners(self) -> tuple[int, ...]:
        return self._match.winners

    @property
    def bummerl(self) -> Sequence[int]:
        return self._match.bummerl

    def context(self) -> MatchContext | None:
        return None  # the table games' views carry no match context (yet)


_FAMILIES = {
    2: _TwoPlayer("two-player", bots_per_game=False, nobody_scored="draws"),
    3: _Table("table", bots_per_game=True, nobody_scored="redeals"),
    4: _Table("table", bots_per_game=True, nobody_scored="redeals"),
}


def family_of(variant: Variant) -> Family:
    """The family of ``variant``, by its number of players."""
    try:
        return _FAMILIES[variant.players]
    except KeyError:
        raise ValueError(f"the arena plays games of 2, 3 or 4 players, not {variant.players}") from None
