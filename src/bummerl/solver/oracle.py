"""Plain minimax over the real :class:`~bummerl.game.Game` API: the solver's yardstick.

No pruning, no move ordering, no state encoding of its own: every legal action
is tried on a :meth:`TwoPlayerGame.copy` and scored by the variant's hooks through
:meth:`TwoPlayerGame.apply`.  Only a memo of positions already valued keeps it usable;
its key is the game's own attributes, so it shares nothing with the solver.

>>> from bummerl.two_player import TwoPlayerGame
>>> game = TwoPlayerGame.from_position(
...     "schnapsen 1 1 s KcQh/AcTh - - - -/TcKsJhJdJcAdQcKhJsTdAsQsTsQdKdAh -")
>>> minimax_value(game)
3
>>> sorted(v for v in minimax_action_values(game).values())
[3, 3, 3]

Seat 0 has no trick: whatever seat 1 does, it wins three game points.

Slow by design: use it on small positions only.
"""

from __future__ import annotations

from collections.abc import Hashable

from bummerl.actions import Action
from bummerl.two_player import TwoPlayerGame

__all__ = ["minimax_action_values", "minimax_value"]


def minimax_value(game: TwoPlayerGame) -> int:
    """The exact value for the player to move (game points won minus lost)."""
    return _value(game, {})


def minimax_action_values(game: TwoPlayerGame) -> dict[Action, int]:
    """The exact value of each legal action, for the player to move."""
    memo: dict[Hashable, int] = {}
    return {a: _action_value(game, a, memo) for a in game.legal_actions()}


def _action_value(game: TwoPlayerGame, action: Action, memo: dict[Hashable, int]) -> int:
    p = game.to_move
    child = game.copy()
    child.apply(action)
    result = child.result
    if result is not None:
        if result.winner is None:
            return 0
        return result.points if result.winner == p else -result.points
    v = _value(child, memo)
    return v if child.to_move == p else -v


def _value(game: TwoPlayerGame, memo: dict[Hashable, int]) -> int:
    if game.result is not None:
        raise ValueError("the game is over: there is nothing to solve")
    key = _key(game)
    v = memo.get(key)
    if v is None:
        v = max(_action_value(game, a, memo) for a in game.legal_actions())
        memo[key] = v
    return v


def _key(g: TwoPlayerGame) -> Hashable:
    return (
        frozenset(g.hands[0]),
        frozenset(g.hands[1]),
        tuple(g.talon),
        g.trump_card,
        g.closed_by,
        g.closed_opponent_augen,
        g.closed_opponent_had_trick,
        g.to_move,
        g.lead,
        tuple(g.trick_augen),
        tuple(g.marriage_augen),
        tuple(g.tricks_won),
        g.first_lead_done,
    )
