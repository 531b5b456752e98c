"""Chances against an imperfect opponent: how search bots break ties between equally valued actions.

The open-card solver values every line by perfect play on both sides.  Where
every action loses against perfect play, every action gets the same value, and
a bot that takes the first of them throws away every chance that the opponent
errs: with ``auto_declare`` off it would even declare ("Genug") below 66 and
concede at once.  The same blindness makes the solver indifferent between a
line that wins 1 point whatever the opponent does and one that wins 1 point
against perfect play but 2 or 3 after a plausible mistake.

:func:`chances` measures what a line keeps: in one fully known world, after
the player's action, it follows the principal line (both sides playing a best
action of the solver, the solver's own order among equals) for up to
``horizon`` decisions of the opponent that have more than one legal action,
and at each such decision adds what the player would gain if the opponent
played

* a uniformly random legal action instead of the best one (the mean gain over
  all legal actions: "how many ways to go wrong, and how costly"), and
* what the rule-based ``heuristic`` bot plays from the opponent's own view of
  that world (a plausible mistake of a player who does not see the cards),

half of each.  This is the first-order term of an opponent who errs with a
small probability at each decision (a mixture of a uniform and a heuristic
error), so the unit is the one of the values (game points, or match equity).
The search (:mod:`bummerl.bots.search`) averages it over the same worlds it
solved and uses it only among actions whose expected value is equal or
nearly equal: a tie-break never gives away more than the tie margin against
perfect play.

>>> from bummerl.two_player import TwoPlayerGame
>>> game = TwoPlayerGame.from_position("schnapsen 1 0 h AhThKh/AsTsKs - - - QhJhQsJs/AdTdKdQdJdAcTcKcQcJc -")
>>> game.apply("Kh") and None
>>> chances(game, 0, None) >= 0
True

Everything here works inside one sampled world, which the search built from
the player's view (:func:`bummerl.bots.inference.world_game`); the
opponent's heuristic decisions see only the opponent's view of that world.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping

from bummerl.actions import Action
from bummerl.bots.heuristic import HeuristicBot
from bummerl.two_player import TwoPlayerGame

__all__ = ["DEFAULT_HORIZON", "ValuesOf", "chances", "solver_best"]

#: Opponent decisions (with a choice) looked at along the principal line.
DEFAULT_HORIZON = 3

#: ``values(game)``: the exact value of every legal action for the player to move (game points).
ValuesOf = Callable[[TwoPlayerGame], Mapping[Action, int]]

_HEURISTIC = HeuristicBot(0)


def _solver_values(game: TwoPlayerGame) -> Mapping[Action, int]:
    from bummerl.solver import action_values

    values: Mapping[Action, int] = action_values(game)
    return values


def solver_best(values: Mapping[Action, int], trump: int) -> Action:
    """The solver's best action among ``values`` (its order among equals: :func:`bummerl.solver.tie_break_key`)."""
    from bummerl.solver import tie_break_key

    top = max(values.values())
    return min((a for a, v in values.items() if v == top), key=lambda a: tie_break_key(a, trump))


def chances(
    game: TwoPlayerGame,
    me: int,
    utility: Mapping[int, float] | None,
    horizon: int = DEFAULT_HORIZON,
    values_of: ValuesOf | None = None,
    deadline: float | None = None,
) -> float | None:
    """What ``me`` expects to gain from the opponent's mistakes in ``game`` (a world after ``me``'s action).

    ``utility`` maps a game value for ``me`` (points won, negative: lost) to
    what ``me`` plays for (match equity); ``None``: the value itself.  The
    result is ``>= 0``: 0 when the opponent has no way to go wrong within
    ``horizon`` decisions or the game is over.  ``None`` when
    ``time.perf_counter()`` passed ``deadline`` before the line was
    finished (checked before every solve).  ``game`` is not changed.
    """
    if horizon < 1 or game.is_over:
        return 0.0
    values_of = values_of or _solver_values
    g = game.copy()
    trump = int(g.trump)
    gain = 0.0
    seen = 0

    def mine(v: int) -> float:
        # v is the value for the player to move (the opponent): ``me`` gets -v.
        return float(-v) if utility is None else utility[-v]

    while not g.is_over and seen < horizon:
        legal = g.legal_actions()
        if len(legal) == 1:
            g.apply(legal[0])
            continue
        if deadline is not None and time.perf_counter() > deadline:
            return None
        values = values_of(g)
        if g.to_move == me:
            g.apply(solver_best(values, trump))
            continue
        best = solver_best(values, trump)
        star = mine(values[best])
        uniform = sum(mine(values[r]) - star for r in legal) / len(legal)
        guess = _HEURISTIC.choose(g.view(g.to_move))
        gain += 0.5 * uniform + 0.5 * (mine(values[guess]) - star)
        seen += 1
        g.apply(best)
    return gain
