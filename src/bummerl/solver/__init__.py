"""The exact solver for fully known two-player positions.

All cards known, the talon order included: a finished deal replayed, the
endgame after the talon is exhausted (each player then knows the other's hand),
or one sampled world of an imperfect-information search.  Values are game
points (Marken in Schnorps) for the player to move: what they win minus what
the opponent wins when both play perfectly.

>>> from bummerl.two_player import TwoPlayerGame
>>> game = TwoPlayerGame.from_position(
...     "schnapsen 1 0 s QcQs!/TcQh! - - - AdJhAcKdJsKcJdJcQdAsKhTs/TdKsThAh 1h")
>>> solve(game)
1
>>> {a.token: v for a, v in action_values(game).items()}
{'Qc': -1, 'Qs': 1, 'declare': 1}
>>> best_action(game)
Action.parse('Qs')

Declaring and leading the trump Ober are worth the same; among equals the
solver keeps its options and plays on (see :func:`tie_break_key`).

Every action counts: plays, marriages (weich: Augen that count only once a
trick is won), exchange, closing (scored by the opponent's Augen at closing
time, or at the end with ``count_after_closing``; a closer who fails pays 2 or
3), declaring (a wrong declaration is a legal move with a negative value),
``auto_declare``, the last-trick bonus, and every variant and option.  The
variant's scoring hooks are the truth: the built-in ones are mirrored inside
the search (tests compare them with the hooks), a variant with hooks of its
own is searched by the pure-Python reference that calls them.

Backends: ``"c"`` (the compiled core ``_csolver``, built by ``pip install``)
and ``"python"`` (:mod:`bummerl.solver.reference`).  The default is the C core
when it was built, else Python with a :class:`RuntimeWarning` at import.

For many worlds at once (PIMC), :func:`action_values_many` solves a list of
games, and :func:`search_position` takes an already encoded
:class:`~bummerl.solver.state.Position`, skipping the :class:`TwoPlayerGame` entirely.
"""

from __future__ import annotations

import dataclasses
import warnings
from collections.abc import Iterable
from types import ModuleType

from bummerl.actions import ALL_ACTIONS, Action, ActionKind
from bummerl.cards import Rank
from bummerl.solver.reference import ReferenceSolver
from bummerl.solver.state import SCORING_HOOKS, Position, SearchLimitExceeded, ValueTree, encode
from bummerl.two_player import TwoPlayerGame

__all__ = [
    "BACKENDS",
    "DEFAULT_BACKEND",
    "SearchLimitExceeded",
    "SearchResult",
    "action_values",
    "action_values_many",
    "best_action",
    "encode",
    "search",
    "search_position",
    "search_tree",
    "solve",
    "solve_many",
]

_csolver: ModuleType | None
try:
    from bummerl.solver import _csolver  # type: ignore[attr-defined,unused-ignore]
except ImportError as exc:  # pragma: no cover - depends on the build
    _csolver = None
    warnings.warn(
        f"bummerl.solver: the compiled core is not available ({exc}); using the slow pure-Python solver. "
        "Reinstall with a C compiler present (pip install -e .) to build it.",
        RuntimeWarning,
        stacklevel=2,
    )

#: The backends that work in this installation.
BACKENDS: tuple[str, ...] = ("c", "python") if _csolver is not None else ("python",)
#: The backend used when none is named.
DEFAULT_BACKEND: str = BACKENDS[0]


@dataclasses.dataclass(frozen=True)
class SearchResult:
    """What one search found."""

    #: The exact value for the player to move.
    value: int
    #: The exact value of each legal action (action codes), if asked for.
    values: dict[int, int] | None
    #: Positions searched (interior nodes), a measure of work.
    nodes: int
    #: The backend that did the work.
    backend: str


def search_position(
    position: Position, *, actions: bool = False, backend: str | None = None, max_nodes: int | None = None
) -> SearchResult:
    """Solve an encoded position; with ``actions``, value every legal action too.

    ``max_nodes`` bounds the work: a search that needs more raises
    :class:`SearchLimitExceeded` (a whole 32-card Schnorps deal can take
    minutes; a bot can fall back to something cheaper).

    >>> from bummerl.two_player import TwoPlayerGame
    >>> result = search_position(encode(TwoPlayerGame.deal("schnapsen", seed=11)), actions=True)
    >>> result.value == max(result.values.values())
    True
    >>> search_position(encode(TwoPlayerGame.deal("schnapsen", seed=0)), max_nodes=100)
    Traceback (most recent call last):
    ...
    bummerl.solver.state.SearchLimitExceeded: the exact search gave up after 101 nodes (max_nodes)
    """
    name = _backend(backend)
    if max_nodes is not None and max_nodes < 1:
        raise ValueError(f"max_nodes must be positive, not {max_nodes}")
    if name == "c" and position.rules.scoring != SCORING_HOOKS:
        assert _csolver is not None
        args = (position.rules.c_params(), position.trump, bytes(position.talon), position.state, max_nodes or 0)
        if actions:
            pairs, nodes = _csolver.action_values(*args)
            if pairs is None:
                raise SearchLimitExceeded(nodes)
            values = dict(pairs)
            return SearchResult(max(values.values()), values, nodes, "c")
        value, nodes = _csolver.solve(*args)
        if value is None:
            raise SearchLimitExceeded(nodes)
        return SearchResult(value, None, nodes, "c")
    solver = ReferenceSolver(position, max_nodes)
    if actions:
        values = solver.action_values()
        return SearchResult(max(values.values()), values, solver.nodes, "python")
    value = solver.value()
    return SearchResult(value, None, solver.nodes, "python")


def search_tree(
    position: Position, depth: int, *, backend: str | None = None, max_nodes: int | None = None
) -> tuple[ValueTree, int]:
    """``(tree, nodes)``: every legal action's exact value in ``position`` and, ``depth - 1`` moves deep, the
    values of the actions after each (:data:`~bummerl.solver.state.ValueTree`).

    One search (one table) solves the deepest level only; the values above it are the best of the values
    below.  What a search that looks at the next decisions (:mod:`bummerl.bots.alphamu`,
    :mod:`bummerl.bots.presumed`) asks of one world; at depth 1 the same values as
    ``search_position(position, actions=True)``.  ``max_nodes`` as in :func:`search_position`.

    >>> from bummerl.two_player import TwoPlayerGame
    >>> position = encode(TwoPlayerGame.deal("schnapsen", seed=11))
    >>> tree, nodes = search_tree(position, 2)
    >>> {code: value for code, (value, _) in tree.items()} == search_position(position, actions=True).values
    True
    >>> plays = [(v, sub) for code, (v, sub) in tree.items() if action_for_code(code).kind is ActionKind.PLAY]
    >>> all(sub is not None and v == -max(w for w, _ in sub.values()) for v, sub in plays)  # the opponent follows
    True
    """
    name = _backend(backend)
    if not 1 <= depth <= 4:
        raise ValueError(f"depth must be between 1 and 4, not {depth}")
    if max_nodes is not None and max_nodes < 1:
        raise ValueError(f"max_nodes must be positive, not {max_nodes}")
    if name == "c" and position.rules.scoring != SCORING_HOOKS:
        assert _csolver is not None
        args = (position.rules.c_params(), position.trump, bytes(position.talon), position.state, max_nodes or 0)
        raw, nodes = _csolver.value_tree(depth, *args)
        if raw is None:
            raise SearchLimitExceeded(nodes)
        return _tree(raw), nodes
    solver = ReferenceSolver(position, max_nodes)
    return solver.value_tree(depth), solver.nodes


def _tree(raw: list[tuple[int, int, object]]) -> ValueTree:
    return {code: (value, None if sub is None else _tree(sub)) for code, value, sub in raw}  # type: ignore[arg-type]


def search(
    game: TwoPlayerGame, *, actions: bool = False, backend: str | None = None, max_nodes: int | None = None
) -> SearchResult:
    """:func:`search_position` for a game (raises :class:`ValueError` if it is over)."""
    return search_position(encode(game), actions=actions, backend=backend, max_nodes=max_nodes)


def solve(game: TwoPlayerGame, *, backend: str | None = None, max_nodes: int | None = None) -> int:
    """The exact value of ``game`` for the player to move, in game points (Marken)."""
    return search(game, backend=backend, max_nodes=max_nodes).value


def action_values(
    game: TwoPlayerGame, *, backend: str | None = None, max_nodes: int | None = None
) -> dict[Action, int]:
    """The exact value of every legal action, for the player to move, in legal-action order."""
    values = search(game, actions=True, backend=backend, max_nodes=max_nodes).values
    assert values is not None
    return {a: values[a.code] for a in game.legal_actions()}


def best_action(game: TwoPlayerGame, *, backend: str | None = None, max_nodes: int | None = None) -> Action:
    """A best action; among equals the one that keeps the most options (see :func:`tie_break_key`)."""
    values = action_values(game, backend=backend, max_nodes=max_nodes)
    top = max(values.values())
    trump = int(game.trump)
    return min((a for a, v in values.items() if v == top), key=lambda a: tie_break_key(a, trump))


def tie_break_key(action: Action, trump: int) -> tuple[int, ...]:
    """Order among equally good actions: smaller first.

    Exchange first (it only improves the hand), then marriages (trump first,
    King led first), then plays from the cheapest card up (non-trumps before
    trumps: keep the high cards and the trumps), then declaring, and closing
    last (it gives up drawing for good).  Under perfect play they are all equal;
    the order keeps the most chances if the opponent errs.

    >>> from bummerl.actions import Action
    >>> tie_break_key(Action.parse("Jh"), 3) < tie_break_key(Action.parse("Ah"), 3)
    True
    """
    kind = action.kind
    if kind is ActionKind.EXCHANGE:
        return (0,)
    if kind is ActionKind.MARRIAGE:
        card = action.card
        assert card is not None
        return (1, int(card.suit) != trump, card.rank != Rank.KING, int(card.suit))
    if kind is ActionKind.PLAY:
        card = action.card
        assert card is not None
        return (2, int(card.suit) == trump, card.augen, int(card.rank), int(card.suit))
    if kind is ActionKind.DECLARE:
        return (3, -1 if action.suit is None else int(action.suit))
    return (4,)


def solve_many(
    games: Iterable[TwoPlayerGame], *, backend: str | None = None, max_nodes: int | None = None
) -> list[int]:
    """:func:`solve` for each game (one sampled world each, say)."""
    return [search_position(encode(g), backend=backend, max_nodes=max_nodes).value for g in games]


def action_values_many(
    games: Iterable[TwoPlayerGame], *, backend: str | None = None, max_nodes: int | None = None
) -> list[dict[Action, int]]:
    """:func:`action_values` for each game, e.g. every sampled world of a PIMC decision."""
    out = []
    for g in games:
        values = search_position(encode(g), actions=True, backend=backend, max_nodes=max_nodes).values
        assert values is not None
        out.append({a: values[a.code] for a in g.legal_actions()})
    return out


def action_for_code(code: int) -> Action:
    """The :class:`Action` with ``Action.code == code``."""
    action = ALL_ACTIONS[code]
    if action is None:
        raise ValueError(f"no action has code {code}")
    return action


def _backend(name: str | None) -> str:
    if name is None:
        return DEFAULT_BACKEND
    if name not in ("c", "python"):
        raise ValueError(f"unknown solver backend {name!r}; choose 'c' or 'python'")
    if name not in BACKENDS:
        raise ValueError("the C solver core is not built in this installation; use backend='python'")
    return name
