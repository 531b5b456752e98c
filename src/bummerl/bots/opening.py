"""Search from the first trick in Sechsundsechzig and Schnorps: expectimax over the talon draws.

Early in the long-talon games one open-card solve of a sampled world takes seconds (docs/bots.md, *Long
talons*), so the search bots used to let the ``heuristic`` play the first two or three tricks.  This module
searches those decisions instead:

1. a *world* fixes only the opponent's hand (sampled uniformly from what the view proves, as
   :mod:`bummerl.bots.inference` does); the face-down talon stays a **set** of cards;
2. in each world both players' decisions are searched to the end of the current trick (``horizon``
   tricks): every action of the player to move, every answer of the opponent (who knows the world, as
   in PIMC);
3. the draws after a trick are **chance**: the winner takes a card uniform from the face-down cards,
   the loser another (the face-up trump card once the last one goes) — no world knows the talon order,
   so no decision profits from knowing what will be drawn;
4. at the horizon a **leaf evaluation** (:class:`LeafModel`, a linear model of the expected game value
   fitted to played games, ``bench/opening_fit.py``) values the position, exactly in expectation over
   the draws (its features are sums over cards, so averaging over the drawn card is exact); closing the
   talon is valued **exactly** by the open-card C solver (a closed game has no draws), a game that ends
   (a declaration, ``auto_declare``) by its result, and a player who may go out at the leaf does;
5. the action with the best mean over the worlds is chosen.

Every rule comes from :mod:`bummerl.solver.reference` (the pure-Python solver's ``apply`` and
``legal_codes``, which the tests compare with the engine), so nothing here restates the game.

>>> from bummerl.two_player import TwoPlayerGame
>>> game = TwoPlayerGame.deal("sechsundsechzig", seed=4)
>>> search = OpeningSearch(seed=1, worlds=6, seconds=None)
>>> ev = search.evaluate(game.view(game.to_move))
>>> ev.worlds, ev.best in game.legal_actions(), set(ev.values) == set(game.legal_actions())
(6, True, True)

Use :class:`OpeningBot` as a bot (it falls back to another bot once the position is solvable, and to
the heuristic when no world finished in time), or :func:`opening_action` from a search bot.  Measured
against the heuristic opening it is not stronger (Schnorps: weaker; docs/bots.md, "Search from the first
trick"), so the search levels do not use it yet.
The module reads only the view; a world exists inside one decision.
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Callable, Mapping, Sequence

from bummerl.actions import Action
from bummerl.bots import Bot
from bummerl.bots.deadline import Deadline, sum_over_worlds
from bummerl.bots.evaluation import Evaluation
from bummerl.bots.inference import infer, sample_world, world_game
from bummerl.rng import SplitMix64, derive_seed
from bummerl.solver.reference import ReferenceSolver, legal_codes
from bummerl.solver.state import (
    A0,
    A1,
    CL,
    CLOSE_CODE,
    DECLARE_CODE,
    H0,
    H1,
    LEAD,
    M0,
    M1,
    W0,
    W1,
    P,
    Position,
    State,
    T,
    card_indices,
    encode,
)
from bummerl.view import PlayerView

__all__ = [
    "FEATURES",
    "MODELS",
    "LeafModel",
    "OpeningBot",
    "OpeningSearch",
    "base_features",
    "fit_weights",
    "opening_action",
    "opening_position",
]

#: Names of the per-player features; the model uses ``g(me) - g(opponent)`` of each, then ``lead``,
#: and the same again multiplied by the face-down cards left / 10 (the weights change with the stage).
_PLAYER_FEATURES: tuple[str, ...] = (
    "augen",  # counted Augen / 66 (tricks, and marriages once the player has a trick)
    "safe",  # counted Augen >= 33 (out of Schneider)
    "trick",  # has a trick
    "pending",  # announced marriage Augen not yet counted (no trick yet) / 66
    "marriages",  # King and Ober of a plain suit in hand
    "trump_marriage",  # King and Ober of trumps in hand
    *(f"plain_{r}" for r in range(8)),  # plain cards of rank r (Seven = 0 ... Ace = 7) in hand
    *(f"trump_{r}" for r in range(8)),  # the trump of rank r in hand
)
_BASE: tuple[str, ...] = (*_PLAYER_FEATURES, "lead")
#: Every feature of :class:`LeafModel`, in weight order.
FEATURES: tuple[str, ...] = (*_BASE, *(f"{f}*stage" for f in _BASE))
_NP = len(_PLAYER_FEATURES)
_MARRIAGES, _TRUMP_MARRIAGE, _PLAIN, _TRUMP = 4, 5, 6, 14
_KING, _OBER = 5, 4


def _player(hand: int, counted: int, has_trick: bool, pending: int, trump: int) -> list[float]:
    """The per-player features (:data:`_PLAYER_FEATURES`) of one hand and score."""
    g = [0.0] * _NP
    g[0] = counted / 66
    g[1] = 1.0 if counted >= 33 else 0.0
    g[2] = 1.0 if has_trick else 0.0
    g[3] = pending / 66
    h = hand
    while h:
        low = h & -h
        i = low.bit_length() - 1
        h ^= low
        g[(_TRUMP if i >> 3 == trump else _PLAIN) + (i & 7)] += 1
    for suit in range(4):
        if hand >> (8 * suit + _KING) & 1 and hand >> (8 * suit + _OBER) & 1:
            g[_TRUMP_MARRIAGE if suit == trump else _MARRIAGES] += 1
    return g


def _draw_delta(hand: int, pool: Sequence[int], trump: int) -> list[float]:
    """The expected change of the per-player features when ``hand`` draws one card uniform from ``pool``."""
    d = [0.0] * _NP
    if not pool:
        return d
    share = 1.0 / len(pool)
    for i in pool:
        suit = i >> 3
        d[(_TRUMP if suit == trump else _PLAIN) + (i & 7)] += share
        rank = i & 7
        if rank in (_KING, _OBER):
            partner = 8 * suit + (_OBER if rank == _KING else _KING)
            if hand >> partner & 1:
                d[_TRUMP_MARRIAGE if suit == trump else _MARRIAGES] += share
    return d


def _counted(s: State, player: int) -> int:
    if player:
        return s[A1] + s[M1] if s[W1] else s[A1]
    return s[A0] + s[M0] if s[W0] else s[A0]


def base_features(s: State, me: int, trump: int, hands: tuple[int, int] | None = None) -> list[float]:
    """The model's features of ``s`` for seat ``me`` (``hands`` replaces the state's hands).

    >>> from bummerl.two_player import TwoPlayerGame
    >>> pos = encode(TwoPlayerGame.deal("sechsundsechzig", seed=2))
    >>> f = base_features(pos.state, 0, pos.trump)
    >>> len(f) == len(FEATURES), f[FEATURES.index("augen")], f[FEATURES.index("lead")] in (1.0, -1.0)
    (True, 0.0, True)
    """
    h = (s[H0], s[H1]) if hands is None else hands
    gs = []
    for player in (0, 1):
        won = s[W1] if player else s[W0]
        marriage = s[M1] if player else s[M0]
        gs.append(_player(h[player], _counted(s, player), won > 0, 0 if won else marriage, trump))
    return _assemble(gs[me], gs[1 - me], s[P] == me, s[T])


def _assemble(mine: list[float], theirs: list[float], my_lead: bool, facedown: int) -> list[float]:
    base = [a - b for a, b in zip(mine, theirs, strict=True)]
    base.append(1.0 if my_lead else -1.0)
    stage = facedown / 10
    return base + [x * stage for x in base]


@dataclasses.dataclass(frozen=True)
class LeafModel:
    """A linear model of the game value (for the player ``me``) of a position at the next lead.

    ``weights`` go with :data:`FEATURES`; the value is clipped to the variant's largest result
    (``bound``: 3 game points, 8 Marken in Schnorps).  The model is antisymmetric: the value for one
    player is minus the value for the other.
    """

    weights: tuple[float, ...]
    bound: float

    def __post_init__(self) -> None:
        if len(self.weights) != len(FEATURES):
            raise ValueError(f"a leaf model needs {len(FEATURES)} weights, not {len(self.weights)}")

    def value(self, features: Sequence[float]) -> float:
        v = sum(w * x for w, x in zip(self.weights, features, strict=True))
        return max(-self.bound, min(self.bound, v))


def fit_weights(rows: Sequence[Sequence[float]], targets: Sequence[float], ridge: float = 1.0) -> tuple[float, ...]:
    """Least squares with a small ridge penalty (normal equations, Gaussian elimination; no numpy needed).

    >>> w = fit_weights([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]], [2.0, 3.0, 5.0], ridge=0.0)
    >>> [round(x, 6) for x in w]
    [2.0, 3.0]
    """
    n = len(rows[0])
    a = [[0.0] * n for _ in range(n)]
    b = [0.0] * n
    for row, y in zip(rows, targets, strict=True):
        for i, xi in enumerate(row):
            if xi == 0.0:
                continue
            b[i] += xi * y
            ai = a[i]
            for j, xj in enumerate(row):
                ai[j] += xi * xj
    for i in range(n):
        a[i][i] += ridge
    # Gaussian elimination with partial pivoting.
    for col in range(n):
        pivot = max(range(col, n), key=lambda r: abs(a[r][col]))
        if abs(a[pivot][col]) < 1e-12:
            continue
        a[col], a[pivot] = a[pivot], a[col]
        b[col], b[pivot] = b[pivot], b[col]
        for r in range(col + 1, n):
            f = a[r][col] / a[col][col]
            if f:
                ar, ac = a[r], a[col]
                for c in range(col, n):
                    ar[c] -= f * ac[c]
                b[r] -= f * b[col]
    x = [0.0] * n
    for i in range(n - 1, -1, -1):
        if abs(a[i][i]) < 1e-12:
            continue
        x[i] = (b[i] - sum(a[i][j] * x[j] for j in range(i + 1, n))) / a[i][i]
    return tuple(x)


#: The fitted leaf models by variant name: ``python bench/opening_fit.py --variant sechsundsechzig --games
#: 20000 --test-games 4000`` (and ``--variant schnorps``), heuristic self-play; R² on 4000 fresh games 0.39
#: (Sechsundsechzig) and 0.33 (Schnorps), against 0.09 and 0.12 for the Augen difference alone (docs/bots.md,
#: "Search from the first trick").
MODELS: dict[str, LeafModel] = {
    "sechsundsechzig": LeafModel(
        (
            1.2241,
            0.5563,
            0.1191,
            0.0040,
            0.3898,
            0.2902,
            0.0000,
            0.0000,
            -0.2961,
            -0.3499,
            -0.2029,
            -0.1557,
            -0.2074,
            -0.1433,
            0.0000,
            0.0000,
            0.2592,
            -0.1109,
            0.3434,
            0.3848,
            0.1843,
            0.2943,
            0.0808,
            0.7317,
            -0.6501,
            -0.1110,
            1.2387,
            -0.1430,
            0.1683,
            0.0000,
            0.0000,
            -0.0136,
            0.0385,
            0.0864,
            0.0609,
            0.0260,
            0.0148,
            0.0000,
            0.0000,
            -0.0488,
            -0.1367,
            0.0877,
            0.1414,
            -0.1311,
            -0.1256,
            -0.1547,
        ),
        3.0,
    ),
    "schnorps": LeafModel(
        (
            1.7227,
            0.4711,
            0.6599,
            0.0000,
            0.5268,
            0.7143,
            -0.1489,
            -0.1768,
            -0.1958,
            -0.2109,
            -0.1412,
            -0.0984,
            -0.1363,
            -0.0171,
            0.1883,
            -0.0172,
            -0.0109,
            0.0003,
            0.0567,
            0.1538,
            0.3010,
            0.4536,
            0.0586,
            0.4851,
            -0.2633,
            -0.3510,
            0.0000,
            -0.0934,
            0.0930,
            -0.0394,
            -0.0180,
            -0.0106,
            0.0053,
            0.1081,
            0.0758,
            0.0666,
            0.0202,
            -0.0323,
            -0.1362,
            -0.1397,
            -0.1462,
            0.2245,
            0.2473,
            -0.1105,
            -0.1149,
            -0.0799,
        ),
        8.0,
    ),
}


class OpeningSearch:
    """Expectimax over the talon draws to ``horizon`` tricks, in sampled worlds, with a leaf model.

    ``worlds``: at most this many worlds; ``seconds`` / ``hard_seconds``: the soft cap and hard
    deadline of a decision (:class:`~bummerl.bots.deadline.Deadline`; ``seconds=None``: no limits);
    ``horizon``: tricks searched (1 = to the end of the current trick); deeper tricks average over
    every pair of draws when there are at most ``chance_pairs`` of them, else over that many sampled
    pairs.  ``model``: the leaf model (default: the variant's fitted one in :data:`MODELS`).
    """

    def __init__(
        self,
        seed: int = 0,
        worlds: int = 200,
        seconds: float | None = 0.3,
        hard_seconds: float = 1.0,
        horizon: int = 1,
        chance_pairs: int = 12,
        model: LeafModel | None = None,
        clock: Callable[[], float] = time.perf_counter,
    ) -> None:
        if worlds < 1 or horizon < 1 or chance_pairs < 1:
            raise ValueError("worlds, horizon and chance_pairs must be at least 1")
        self.worlds = worlds
        self.seconds = seconds
        self.hard_seconds = hard_seconds
        self.horizon = horizon
        self.chance_pairs = chance_pairs
        self.model = model
        self.clock = clock
        self._seed = seed
        self._decisions = 0

    def evaluate(self, view: PlayerView) -> Evaluation:
        """Mean value of every legal action over the sampled worlds (for the player of ``view``)."""
        legal = view.legal_actions()
        if not legal:
            raise ValueError("no legal action: it is not this player's turn")
        model = self.model or MODELS.get(view.variant.name)
        if model is None:
            raise ValueError(f"no leaf model for {view.variant.title}; fit one with bench/opening_fit.py")
        deadline = (
            Deadline(None, None, 1, self.clock)
            if self.seconds is None
            else Deadline(self.seconds, self.hard_seconds, 1, self.clock)
        )
        info = infer(view)
        rng = SplitMix64(derive_seed(self._seed, self._decisions))
        self._decisions += 1

        def solve_world() -> Mapping[int, float]:
            world = sample_world(info, rng)
            return _Tree(encode(world_game(view, world)), view.player, model, self, rng, deadline).root_values()

        totals, solved, cut = sum_over_worlds(self.worlds, deadline, solve_world)
        values = {a: totals.get(a.code, 0.0) / solved for a in legal} if solved else {}
        best = max(legal, key=lambda a: values[a]) if solved else legal[0]
        return Evaluation(values, solved, best, deadline.elapsed(), cut=cut)


class _Tree:
    """The expectimax of one world: the rules from the reference solver, draws as chance."""

    def __init__(
        self,
        position: Position,
        me: int,
        model: LeafModel,
        search: OpeningSearch,
        rng: SplitMix64,
        deadline: Deadline,
    ) -> None:
        self.position = position
        self.solver = ReferenceSolver(position)
        # A list the draws are written into just before a trick completes (the reference solver draws
        # talon[t - 1] for the winner, talon[t - 2] for the loser).
        self.talon = list(position.talon) or [0]
        self.solver.talon = self.talon  # type: ignore[assignment]
        self.me = me
        self.model = model
        self.search = search
        self.rng = rng
        self.deadline = deadline
        self.trump = position.trump
        self.leaves = 0
        pool = 0
        for i in position.talon:
            pool |= 1 << i
        self.pool = pool

    def root_values(self) -> dict[int, float]:
        s = self.position.state
        out: dict[int, float] = {}
        for code in legal_codes(self.solver, s):
            self.deadline.check()
            out[code] = self._after(s, code, self.pool, self.search.horizon)
        return out

    def _node(self, s: State, pool: int, tricks: int) -> float:
        codes = legal_codes(self.solver, s)
        values = [self._after(s, code, pool, tricks) for code in codes]
        return max(values) if s[P] == self.me else min(values)

    def _terminal(self, value: int, mover: int) -> float:
        return float(value if mover == self.me else -value)

    def _after(self, s: State, code: int, pool: int, tricks: int) -> float:
        solver = self.solver
        if code == CLOSE_CODE:
            child, _ = solver.apply(s, code)
            assert child is not None
            return self._exact(child)
        if s[LEAD] < 0:  # a lead, a marriage, the exchange or a declaration: the trick goes on
            child, v = solver.apply(s, code)
            if child is None:
                return self._terminal(v, s[P])
            return self._node(child, pool, tricks)
        t = s[T]
        drawing = t > 0 and s[CL] < 0
        if tricks <= 1:
            return self._leaf(s, code, pool, drawing)
        if not drawing or t == 1:
            if drawing:
                self.talon[0] = card_indices(pool)[0]
            child, v = solver.apply(s, code)
            if child is None:
                return self._terminal(v, s[P])
            return self._node(child, 0 if drawing else pool, tricks - 1)
        cards = card_indices(pool)
        pairs = [(x, y) for x in cards for y in cards if x != y]
        if len(pairs) > self.search.chance_pairs:
            self.rng.shuffle(pairs)
            pairs = pairs[: self.search.chance_pairs]
        total = 0.0
        for x, y in pairs:
            self.talon[t - 1] = x
            self.talon[t - 2] = y
            child, v = solver.apply(s, code)
            if child is None:
                total += self._terminal(v, s[P])
            else:
                total += self._node(child, pool & ~(1 << x) & ~(1 << y), tricks - 1)
        return total / len(pairs)

    def _exact(self, s: State) -> float:
        """The open-card value of a closed game (no draws left), for ``me``."""
        from bummerl.solver import search_position

        value = search_position(Position(self.position.rules, self.trump, self.position.talon, s)).value
        return float(value if s[P] == self.me else -value)

    def _leaf(self, s: State, code: int, pool: int, drawing: bool) -> float:
        """The model's value after ``code`` completes the trick, in expectation over the draws."""
        self.leaves += 1
        if not self.leaves % 64:
            self.deadline.check()
        solver = self.solver
        t = s[T]
        cards = card_indices(pool) if drawing else []
        if drawing:
            self.talon[t - 1] = cards[0]
            if t >= 2:
                self.talon[t - 2] = cards[1]
        child, v = solver.apply(s, code)
        if child is None:
            return self._terminal(v, s[P])
        leader = child[P]
        rules = self.solver.rules
        if not rules.auto_declare and (child[W1] if leader else child[W0]) and _counted(child, leader) >= rules.target:
            done, value = solver.apply(child, DECLARE_CODE)  # the leader goes out
            assert done is None
            return self._terminal(value, leader)
        if not drawing or t == 1:
            return self.model.value(base_features(child, self.me, self.trump))
        # Winner drew cards[0], loser cards[1]: take them back and add the expected draw instead.
        hands = [child[H0], child[H1]]
        hands[leader] &= ~(1 << cards[0])
        hands[1 - leader] &= ~(1 << cards[1])
        g = []
        for player in (0, 1):
            won = child[W1] if player else child[W0]
            marriage = child[M1] if player else child[M0]
            base = _player(hands[player], _counted(child, player), won > 0, 0 if won else marriage, self.trump)
            delta = _draw_delta(hands[player], cards, self.trump)
            g.append([a + b for a, b in zip(base, delta, strict=True)])
        return self.model.value(_assemble(g[self.me], g[1 - self.me], leader == self.me, child[T]))


def opening_position(view: PlayerView, solvable: Callable[[PlayerView], bool]) -> bool:
    """Whether ``view`` is an opening decision this module should take (not ``solvable`` yet).

    >>> from bummerl.two_player import TwoPlayerGame
    >>> opening_position(TwoPlayerGame.deal("sechsundsechzig", seed=1).view(0), lambda v: False)
    True
    """
    return not solvable(view) and view.variant.name in MODELS


def opening_action(search: OpeningSearch, view: PlayerView, fallback: Bot, margin: float = 0.0) -> Action:
    """The opening search's choice in ``view``; ``fallback``'s when the variant has no leaf model or no
    world finished in time, or (``margin > 0``) when the search values ``fallback``'s choice less than
    ``margin`` below its best.  The hook for a search bot's unsolvable positions (docs/bots.md).

    >>> from bummerl.bots.heuristic import HeuristicBot
    >>> from bummerl.two_player import TwoPlayerGame
    >>> view = TwoPlayerGame.deal("schnorps", seed=3).view(0)
    >>> opening_action(OpeningSearch(1, worlds=4, seconds=None), view, HeuristicBot()) in view.legal_actions()
    True
    """
    legal = view.legal_actions()
    if len(legal) == 1:
        return legal[0]
    if view.variant.name not in MODELS:
        return fallback.choose(view)
    ev = search.evaluate(view)
    if not ev.worlds:
        return fallback.choose(view)
    if margin > 0:
        prior = fallback.choose(view)
        if prior in ev.values and ev.values[ev.best] - ev.values[prior] < margin:
            return prior
    return ev.best


class OpeningBot:
    """A bot: the opening search while ``view`` is not solvable, ``then`` (another bot) after.

    With no world finished in time it plays like ``fallback`` (the heuristic by default), and with
    ``margin > 0`` also where the search finds nothing that much better than ``fallback``'s choice.
    For measurements and as the search bots' hook (docs/bots.md).
    """

    def __init__(
        self,
        name: str,
        then: Bot,
        seed: int = 0,
        search: OpeningSearch | None = None,
        fallback: Bot | None = None,
        margin: float = 0.0,
    ) -> None:
        self.name = name
        self.margin = margin
        self.then = then
        self.search = search or OpeningSearch(seed)
        if fallback is None:
            from bummerl.bots.heuristic import HeuristicBot

            fallback = HeuristicBot(seed)
        self.fallback = fallback

    def choose(self, view: PlayerView) -> Action:
        from bummerl.bots.search import solvable

        if not opening_position(view, solvable):
            return self.then.choose(view)
        return opening_action(self.search, view, self.fallback, self.margin)
