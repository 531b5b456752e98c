"""Less strategy fusion than PIMC: the bot's next own decision is one choice for all worlds (αμ, two moves).

Plain PIMC values an action by its mean over the worlds of the open-card solver's value, and the solver
plays every later move of the bot knowing the world: after closing it leads the card that is best *for this
opponent hand*, after a trick it plays on knowing which card the opponent holds.  The bot will not know that
when it gets there, so PIMC overvalues lines whose later choices depend on hidden cards (*strategy fusion*).

αμ (Cazenave and Ventos, "The αμ Search Algorithm for the Game of Bridge", 2019) removes the fusion for the
bot's first ``M`` moves: a move of the bot is one choice for every world it cannot tell apart, the opponent's
moves may differ from world to world (the opponent is assumed to know the cards, as in PIMC), and the
open-card solver values the leaves.  This module is αμ with ``M = 2`` and means over worlds instead of
Pareto fronts (the scalar simplification the authors also discuss):

1. for every world and every action ``a`` of the bot: the opponent's replies ``b`` (their open-card values),
   and, where the bot is to move again after ``b`` (it won the trick, or it just closed, exchanged or
   announced), the open-card value of each of its actions ``c`` there;
2. the bot's positions after ``(a, b)`` are grouped by what the bot sees there: ``a``, ``b`` and its own
   hand (the card it drew; also where ``a`` completed a trick the bot won and it leads at once).  In each
   group the bot takes the ``c`` with the best weighted mean over the group's worlds, the same ``c`` in all
   of them;
3. a world's value of ``a`` is the opponent's best reply in that world against those choices (the minimum
   over ``b``); the action with the best weighted mean over the worlds wins.

Each value is at most PIMC's (a choice fixed across worlds is never better than the best one in each), and
equal to it where the bot's next choice does not depend on the hidden cards.  What remains clairvoyant is
the play after the bot's second move (the solver at the leaves) and the opponent.

>>> from bummerl.two_player import TwoPlayerGame
>>> from bummerl.solver import action_values
>>> from bummerl.solver.state import encode
>>> game = TwoPlayerGame.deal("schnapsen", seed=3)
>>> tree = world_tree(encode(game))
>>> points, scores = aggregate([tree], [1.0], None)
>>> points == {a.code: v for a, v in action_values(game).items()}   # one world: exactly the solver's values
True

This module only reads the encoded positions it is given.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Hashable, Mapping, Sequence

from bummerl.solver.reference import ReferenceSolver
from bummerl.solver.state import H0, P, Position, State, ValueTree

__all__ = ["Outcome", "WorldTree", "aggregate", "world_tree"]

#: ``values(position)``: the open-card values three moves deep (:func:`bummerl.solver.search_tree`).
Tree = Callable[[Position], ValueTree]
#: ``reply(position, a, child)``: the opponent's reply in ``child``, the world after the bot's action ``a``.
Reply = Callable[[Position, int, State], int]


@dataclasses.dataclass(frozen=True, slots=True)
class Outcome:
    """Where one reply of the opponent leads, for the bot.

    Either a value (``node`` is ``None``: the game ended, or the opponent moves next and the solver's value
    stands), or a decision of the bot: ``node`` says what the bot sees there and ``values`` gives each of its
    actions' open-card value.  Values are the bot's game points minus the opponent's.
    """

    node: Hashable | None
    value: int = 0
    values: Mapping[int, int] | None = None


#: For every action code of the bot, the outcomes of the opponent's replies in one world (one outcome where
#: the bot moves again without a reply, or the game ends).
WorldTree = dict[int, list[Outcome]]


def world_tree(position: Position, values: Tree | None = None, reply: Reply | None = None) -> WorldTree:
    """The two-move tree of one world (its player to move is the bot).

    ``values(position)`` gives the open-card values three moves deep (default:
    :func:`bummerl.solver.search_tree` with depth 3, one search for the whole world); the bot's decisions are
    named by what it sees there (:class:`Outcome`).  The opponent's reply is each world's best for it (the
    minimum over its replies, as in PIMC), or with ``reply(position, a, child)`` the one reply that says
    (:meth:`bummerl.bots.presumed.PresumedOpponent.reply`: an opponent who cannot see the bot's cards).
    """
    rules = ReferenceSolver(position)
    root = position.state
    me = root[P]
    mine = H0 + me
    tree: WorldTree = {}
    for a, (_, after_a) in (values or _tree)(position).items():
        child, end = rules.apply(root, a)
        if child is None or after_a is None:
            tree[a] = [Outcome(None, end)]
        elif child[P] == me:
            tree[a] = [Outcome((a, None, child[mine]), values=_flat(after_a))]
        else:
            outcomes = []
            replies = list(after_a.items())
            if reply is not None:
                chosen = reply(position, a, child)
                replies = [(b, v) for b, v in replies if b == chosen]
            for b, (value, after_b) in replies:
                after, end = rules.apply(child, b)
                if after is None or after_b is None:
                    outcomes.append(Outcome(None, -end))
                elif after[P] == me:
                    outcomes.append(Outcome((a, b, after[mine]), values=_flat(after_b)))
                else:
                    outcomes.append(Outcome(None, -value))
            tree[a] = outcomes
    return tree


def _flat(tree: ValueTree) -> dict[int, int]:
    return {code: value for code, (value, _) in tree.items()}


def aggregate(
    trees: Sequence[WorldTree], weights: Sequence[float], utility: Mapping[int, float] | None
) -> tuple[dict[int, float], dict[int, float]]:
    """``(points, scores)``: each root action's weighted mean over the worlds of game points and of what
    the choice maximises (``utility[points]``, e.g. the match equity; without one, the points).

    Worlds are weighted (importance weights of policy-based inference, or all 1); the bot's choice at each
    of its next decisions maximises the weighted mean score over the worlds that reach it, the points
    breaking ties, then the lower action code.

    >>> t1 = {0: [Outcome(("x",), values={5: 2, 6: -1})]}
    >>> t2 = {0: [Outcome(("x",), values={5: -1, 6: 1})]}
    >>> aggregate([t1, t2], [1.0, 1.0], None)   # PIMC would say (2 + 1) / 2 = 1.5
    ({0: 0.5}, {0: 0.5})
    """

    def score(v: int) -> float:
        return float(v) if utility is None else utility[v]

    sums: dict[Hashable, dict[int, tuple[float, float]]] = {}
    for tree, w in zip(trees, weights, strict=True):
        for outcomes in tree.values():
            for o in outcomes:
                if o.values is None:
                    continue
                group = sums.setdefault(o.node, {})
                for c, v in o.values.items():
                    s, p = group.get(c, (0.0, 0.0))
                    group[c] = (s + w * score(v), p + w * v)
    choice = {node: _best(group) for node, group in sums.items()}
    points: dict[int, float] = {}
    scores: dict[int, float] = {}
    mass = sum(weights)
    for tree, w in zip(trees, weights, strict=True):
        for a, outcomes in tree.items():
            worst: tuple[float, int] | None = None
            for o in outcomes:
                v = o.value if o.values is None else o.values[choice[o.node]]
                if worst is None or (score(v), v) < worst:
                    worst = (score(v), v)
            assert worst is not None
            points[a] = points.get(a, 0.0) + w * worst[1] / mass
            scores[a] = scores.get(a, 0.0) + w * worst[0] / mass
    return points, scores


def _best(group: Mapping[int, tuple[float, float]]) -> int:
    """The action with the best (score, points) sums; the lower code among equals."""
    return max(group, key=lambda c: (group[c][0], group[c][1], -c))


def _tree(position: Position) -> ValueTree:
    """The default ``values``: :func:`bummerl.solver.search_tree` three moves deep."""
    from bummerl.solver import search_tree

    return search_tree(position, 3)[0]
