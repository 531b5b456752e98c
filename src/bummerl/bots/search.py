"""Imperfect-information search: Perfect Information Monte Carlo with an exact solver.

:class:`SearchBot` evaluates a decision from its :class:`~bummerl.view.PlayerView`:

1. :func:`~bummerl.bots.inference.infer` lists what the view proves about the
   unseen cards;
2. if at most ``budget.exhaustive`` worlds fit the view, it takes **all** of
   them (exact expectation over the consistent deals: late in the game, and
   always once the talon is exhausted, where one world remains); otherwise it
   samples ``budget.worlds`` worlds uniformly (PIMC), stopping early when
   ``budget.seconds`` have passed;
3. in each world the open-card solver gives the exact value of every legal
   action (game points of the player to move minus the opponent's); with
   ``match_play`` and a match context in the view, turned into the match
   equity after the game (:mod:`bummerl.bots.match_equity`);
4. the action with the best mean wins; among equal (or, within
   ``tie_margin``, nearly equal) actions the one that keeps the most chances
   against an imperfect opponent (:mod:`bummerl.bots.tiebreak`), a correct
   declaration before them and a losing one after them.

Closing the talon, exchanging, marriages and going out are legal actions like
any card, so the solver values them; nothing about them is hard-coded.

Exhaustive enumeration removes PIMC's sampling error exactly where single
decisions weigh most (closing, the last tricks before the talon runs out) and
makes the bot play perfectly once the talon is exhausted.

>>> from bummerl.two_player import TwoPlayerGame
>>> from bummerl.bots.search import SearchBot, Budget
>>> bot = SearchBot("demo", Budget(worlds=4, exhaustive=8), seed=1)
>>> game = TwoPlayerGame.from_position("schnapsen 1 0 h AhThKh/AsTsKs - - - QhJhQsJs/AdTdKdQdJdAcTcKcQcJc -")
>>> ev = bot.evaluate(game.view(0))
>>> ev.exhaustive, ev.worlds, ev.best.token, ev.values[ev.best]
(True, 1, 'Kh', 1.0)

This module reads only views; the worlds it builds exist inside one decision.
"""

from __future__ import annotations

import dataclasses
import functools
import math
import time
from collections.abc import Callable, Mapping

from bummerl.actions import Action, ActionKind
from bummerl.bots import Bot
from bummerl.bots.alphamu import WorldTree, aggregate, world_tree
from bummerl.bots.deadline import Deadline
from bummerl.bots.evaluation import Evaluation
from bummerl.bots.inference import World, count_worlds, enumerate_worlds, infer, sample_world, world_game
from bummerl.bots.likelihood import Observation, likelihood, observations
from bummerl.bots.match_equity import game_utility
from bummerl.bots.policy import model_for
from bummerl.bots.presumed import PresumedOpponent
from bummerl.bots.tiebreak import chances
from bummerl.cards import Card
from bummerl.rng import SplitMix64, derive_seed
from bummerl.solver import SearchLimitExceeded
from bummerl.solver.state import Position, ValueTree, encode
from bummerl.two_player import TwoPlayerGame
from bummerl.view import PlayerView

__all__ = [
    "SOLVABLE_TALON",
    "Budget",
    "Evaluation",
    "SearchBot",
    "SearchLimitError",
    "ValueFunction",
    "solvable",
    "solver_values",
]

#: ``values(game)``: the exact value of each legal action for the player to move.
ValueFunction = Callable[[TwoPlayerGame], Mapping[Action, int]]


def solver_values(game: TwoPlayerGame) -> Mapping[Action, int]:
    """The open-card solver's action values (:func:`bummerl.solver.action_values`)."""
    from bummerl.solver import action_values

    values: Mapping[Action, int] = action_values(game)
    return values


@dataclasses.dataclass(frozen=True)
class Budget:
    """How much a search bot may think per decision."""

    #: Sampled worlds when there are too many to enumerate.
    worlds: int
    #: Enumerate every world when at most this many fit the view.
    exhaustive: int = 0
    #: Stop after this many seconds (at least ``min_worlds`` are solved); an
    #: enumeration cut short this way is a uniform sample without replacement.
    seconds: float | None = None
    min_worlds: int = 1
    #: The early decisions weigh most and have the most worlds (a whole-deal
    #: world costs the most to solve), so while the open talon still holds at
    #: least ``opening_talon`` face-down cards the time cap is ``seconds *
    #: opening_factor``.  Few moves of a game are that early, so the median
    #: time per move hardly moves.
    opening_factor: float = 1.0
    opening_talon: int = 7
    #: Playing strength below best: ``0`` plays the best mean; above, the
    #: action is drawn with probability ``exp(mean / temperature)`` (in game
    #: points), so near-equal moves get mixed up and real blunders stay rare.
    temperature: float = 0.0
    #: Play for the match: with a match context in the view
    #: (:class:`~bummerl.view.MatchContext`) every world's game value is turned
    #: into the match equity after the game (:mod:`bummerl.bots.match_equity`)
    #: and the best mean *equity* wins; without one (a single game), game points.
    match_play: bool = False
    #: Break ties by the chances against an imperfect opponent
    #: (:mod:`bummerl.bots.tiebreak`), spending at most this many seconds on
    #: them after the worlds are solved (``None``: the solver's order among
    #: equals, as before).  Only for ``temperature == 0``.
    chance_seconds: float | None = None
    #: Actions whose mean is at most this much below the best count as tied
    #: (game points; in match play the margin is ``tie_margin * EQUITY_PER_POINT``).
    tie_margin: float = 0.0
    #: Opponent decisions looked at by the tie-break along each line.
    chance_horizon: int = 3
    #: Worlds the tie-break averages over at most (the first ones solved: a uniform sample).
    chance_worlds: int = 24
    #: Policy-based inference (:mod:`bummerl.bots.likelihood`): weight every world's values by how likely
    #: the opponent's recent plays are in it under a model of a strong player (importance weights: the
    #: worlds are drawn uniformly, the weighted mean estimates the mean over the posterior).
    inference: bool = False
    #: The hard deadline of a decision (seconds, ``None``: none): no world is started after the cap
    #: (:meth:`cap`), and a world still being solved at the deadline is given up (the C solver gets a
    #: node limit from the remaining time at the rate it searched so far), so one slow world on a
    #: loaded machine cannot hold the answer up.  The first world is always solved.
    hard_seconds: float | None = None
    #: Less strategy fusion (:mod:`bummerl.bots.alphamu`): the bot's next own decision after this one is a
    #: single choice for all worlds it cannot tell apart, not the best one in each world (αμ with two
    #: moves).  A world then costs several solves, so fewer fit into the time cap.  Only with the
    #: open-card solver; with one world left it is the same as plain PIMC and is skipped.  The value is
    #: the most face-down talon cards at which it is used (a closed talon counts as none; ``None``: never):
    #: early, with the most worlds, a world costs several times what it costs PIMC.
    alphamu: int | None = None
    #: An opponent who cannot see the bot's cards (:mod:`bummerl.bots.presumed`): in each world the
    #: opponent's next reply is its own PIMC choice over ``presumed_worlds`` worlds of its view instead of the
    #: clairvoyant best.  The value is the most face-down talon cards at which it is used (a closed talon
    #: counts as none; ``None``: never); a world then costs a solve per action and the opponent's worlds.
    presumed: int | None = None
    presumed_worlds: int = 6
    #: Most face-down talon cards (talon open) at which the open-card solver is used; with more, the
    #: ``heuristic`` plays (``None``: :data:`SOLVABLE_TALON` of the pack size).  Beyond that default a single
    #: world can take seconds, so there the first world is held to the hard deadline too (a bot without
    #: one solves it whole), and the heuristic plays when not even one world finished in time.
    solvable_talon: int | None = None

    def __post_init__(self) -> None:
        if self.worlds < 1:
            raise ValueError(f"a search needs at least one world, not {self.worlds}")
        if self.exhaustive < 0 or self.min_worlds < 1:
            raise ValueError("exhaustive must be >= 0 and min_worlds >= 1")
        if self.temperature < 0:
            raise ValueError(f"temperature must be >= 0, not {self.temperature}")
        if self.opening_factor <= 0:
            raise ValueError(f"opening_factor must be positive, not {self.opening_factor}")
        if self.chance_seconds is not None and self.chance_seconds < 0:
            raise ValueError(f"chance_seconds must be >= 0, not {self.chance_seconds}")
        if self.tie_margin < 0 or self.chance_horizon < 1 or self.chance_worlds < 1:
            raise ValueError("tie_margin must be >= 0, chance_horizon and chance_worlds >= 1")
        if self.hard_seconds is not None and self.hard_seconds <= 0:
            raise ValueError(f"hard_seconds must be positive, not {self.hard_seconds}")
        for name in ("alphamu", "presumed", "solvable_talon"):
            value = getattr(self, name)
            if value is not None and value < 0:
                raise ValueError(f"{name} must be a number of face-down cards (>= 0) or None, not {value}")
        if self.presumed_worlds < 1:
            raise ValueError(f"presumed_worlds must be >= 1, not {self.presumed_worlds}")

    def searches_from(self, view: PlayerView, face_down: int | None) -> bool:
        """Whether an option that applies from ``face_down`` face-down cards down (``None``: never) applies in
        ``view`` (a closed talon counts as none).

        >>> from bummerl.two_player import TwoPlayerGame
        >>> view = TwoPlayerGame.deal("schnapsen", seed=1).view(0)
        >>> b = Budget(worlds=4)
        >>> b.searches_from(view, 9), b.searches_from(view, 7), b.searches_from(view, None)
        (True, False, False)
        """
        return face_down is not None and (view.closed_by is not None or view.talon_size <= face_down)

    def cap(self, view: PlayerView) -> float | None:
        """The time cap for a decision in ``view`` (``None``: no cap).

        >>> b = Budget(worlds=8, seconds=0.5, opening_factor=3.0, opening_talon=7)
        >>> from bummerl.two_player import TwoPlayerGame
        >>> game = TwoPlayerGame.deal("schnapsen", seed=1)
        >>> b.cap(game.view(game.to_move)), Budget(worlds=8).cap(game.view(game.to_move))
        (1.5, None)
        """
        if self.seconds is None:
            return None
        if view.closed_by is None and view.talon_size >= self.opening_talon:
            return self.seconds * self.opening_factor
        return self.seconds


class SearchLimitError(ValueError):
    """A decision too early in a long-talon game for the open-card solver."""


#: Most face-down talon cards (talon open) for which one world is solved fast
#: enough, by pack size.  Measured with the C solver (docs/bots.md): a
#: Sechsundsechzig world takes 0.05-0.2 s at 7 cards but seconds at 9; a
#: Schnorps world 0.05-0.1 s at 7 and 1-8 s at 9-11.  Schnapsen's whole deal
#: (9 cards) takes 0.01-0.25 s.
SOLVABLE_TALON: dict[int, int] = {20: 9, 24: 7, 32: 7}


#: The C solver's nodes per second assumed before a bot has measured its own (a busy core of the project
#: machine does 3-5 million): it bounds a world held to the hard deadline before any world was timed.
ASSUMED_RATE = 3_000_000


def solvable(view: PlayerView, talon: int | None = None) -> bool:
    """Whether ``view``'s worlds can be solved in time: at most ``talon`` face-down cards (default
    :data:`SOLVABLE_TALON` of the pack size).

    A closed talon is never drawn from, so strict play keeps the search small.
    """
    if view.closed_by is not None:
        return True
    return view.talon_size <= (SOLVABLE_TALON.get(view.variant.deck_size, 7) if talon is None else talon)


class SearchBot:
    """PIMC over consistent worlds with exhaustive enumeration late in the game.

    Early in Sechsundsechzig and Schnorps, while more face-down cards lie in the
    talon than :data:`SOLVABLE_TALON` allows, the open-card search of a single
    world takes seconds; those first few moves are played by the rule-based
    ``heuristic`` bot instead (it sees the same view).
    """

    def __init__(
        self,
        name: str,
        budget: Budget,
        seed: int = 0,
        values: ValueFunction | None = None,
    ) -> None:
        self.name = name
        self.budget = budget
        self._seed = seed
        self._decisions = 0
        self._values = values or solver_values
        self._fallback: Bot | None = None
        #: The C solver's recent search rate (nodes per second), for the hard deadline.
        self._rate: float | None = None
        #: What the search found at the last :meth:`choose` (worlds, values, seconds), as a chess engine's
        #: ``info`` line tells it; ``None`` where it did not search (one legal action, or the heuristic played).
        self.last_evaluation: Evaluation | None = None

    def scale_time(self, factor: float) -> None:
        """Think at most ``factor`` times as long per decision (a server sharing its cores under load).

        Both the cap and the hard deadline shrink.

        >>> bot = SearchBot("x", Budget(worlds=8, seconds=0.5, hard_seconds=2.0))
        >>> bot.scale_time(0.2); bot.budget.seconds, bot.budget.hard_seconds
        (0.1, 0.4)
        """
        b = self.budget
        if b.seconds is not None:
            b = dataclasses.replace(b, seconds=b.seconds * factor)
        if b.hard_seconds is not None:
            b = dataclasses.replace(b, hard_seconds=b.hard_seconds * factor)
        self.budget = b

    def time_budget(self) -> float:
        """Seconds a decision may take at most in the first tricks (the longest), unscaled: how a scheduler
        tells a short search from a long one (a budget without a time cap counts as one second)."""
        b = self.budget
        return (b.seconds if b.seconds is not None else 1.0) * b.opening_factor

    def choose(self, view: PlayerView) -> Action:
        legal = view.legal_actions()
        if not legal:
            raise ValueError("no legal action: it is not this player's turn")
        self.last_evaluation = None
        if len(legal) == 1:
            return legal[0]
        if not solvable(view, self.budget.solvable_talon):
            return self._opening().choose(view)
        try:
            ev = self.evaluate(view)
        except SearchLimitError:
            return self._opening().choose(view)  # not one world in time (a long talon under the deadline)
        self.last_evaluation = ev
        t = self.budget.temperature
        if t <= 0:
            return ev.best
        # Softmax over the means, from the stream of this decision (seeded).
        rng = SplitMix64(derive_seed(self._seed, self._decisions, 1))
        top = max(ev.values.values())
        weights = [math.exp((ev.values[a] - top) / t) for a in legal]
        x = rng.next_u64() / 2.0**64 * sum(weights)
        for a, w in zip(legal, weights, strict=True):
            x -= w
            if x < 0:
                return a
        return ev.best

    def _solve(self, game: TwoPlayerGame, deadline: Deadline | None) -> Mapping[Action, int]:
        """The values of every action in one world; with a ``deadline`` (and the C solver's node rate
        known) the solve gives up with :class:`~bummerl.solver.SearchLimitExceeded` at about the hard
        deadline."""
        if self._values is not solver_values:
            return self._values(game)
        values = self._solve_position(encode(game), deadline)
        return {a: values[a.code] for a in game.legal_actions()}

    def _solve_position(self, position: Position, deadline: Deadline | None) -> Mapping[int, int]:
        """The open-card value of every action code in ``position`` (see :meth:`_solve`)."""
        tree = self._solve_tree(position, 1, deadline)
        return {code: value for code, (value, _) in tree.items()}

    def _solve_tree(self, position: Position, depth: int, deadline: Deadline | None) -> ValueTree:
        """The open-card values ``depth`` moves deep (:func:`~bummerl.solver.search_tree`), under the hard
        deadline as in :meth:`_solve`."""
        from bummerl.solver import search_tree

        max_nodes = None
        if deadline is not None and deadline.hard_seconds is not None:
            rate = ASSUMED_RATE if self._rate is None else self._rate
            max_nodes = max(1000, int(rate * max(deadline.remaining(), 0.0)))
        began = time.perf_counter()
        tree, nodes = search_tree(position, depth, max_nodes=max_nodes)
        took = time.perf_counter() - began
        if took > 0.002:
            # Nodes per second of the solver on this machine now (the newest solves weigh most).
            rate = nodes / took
            self._rate = rate if self._rate is None else 0.5 * self._rate + 0.5 * rate
        return tree

    def _world_values(
        self, game: TwoPlayerGame, deadline: Deadline | None, presumed: PresumedOpponent | None
    ) -> Mapping[Action, int]:
        """Every action's value in one world: the open-card solver's, or against a presumed opponent."""
        if presumed is None:
            return self._solve(game, deadline)
        coded = presumed.values(
            encode(game),
            functools.partial(self._solve_position, deadline=deadline),
            functools.partial(self._solve_tree, depth=2, deadline=deadline),
        )
        return {a: coded[a.code] for a in game.legal_actions()}

    def _fusion_tree(
        self, position: Position, deadline: Deadline | None, presumed: PresumedOpponent | None
    ) -> WorldTree:
        """One world's αμ tree (:func:`~bummerl.bots.alphamu.world_tree`), its opponent presumed if asked."""
        reply = None
        if presumed is not None:
            reply = functools.partial(presumed.reply, solve=functools.partial(self._solve_position, deadline=deadline))
        return world_tree(position, functools.partial(self._solve_tree, depth=3, deadline=deadline), reply)

    def _opening(self) -> Bot:
        if self._fallback is None:
            from bummerl.bots.heuristic import HeuristicBot

            self._fallback = HeuristicBot(self._seed)
        return self._fallback

    def evaluate(self, view: PlayerView) -> Evaluation:
        """Value every legal action of ``view`` (whose player must be to move)."""
        legal = view.legal_actions()
        if not legal:
            raise ValueError("no legal action: it is not this player's turn")
        own = self.budget.solvable_talon
        if not solvable(view, own):
            most = SOLVABLE_TALON.get(view.variant.deck_size, 7) if own is None else own
            raise SearchLimitError(
                f"{view.variant.title}: {view.talon_size} face-down talon cards are too many to solve each world "
                f"in time (at most {most})"
            )
        b = self.budget
        deadline = Deadline(b.cap(view), b.hard_seconds, b.min_worlds)
        start = deadline.start
        info = infer(view)
        # A fresh stream per decision: the same bot, seed and decision number
        # sample the same worlds, whatever happened in other games.
        rng = SplitMix64(derive_seed(self._seed, self._decisions))
        self._decisions += 1
        totals = dict.fromkeys(legal, 0.0)
        n = count_worlds(info)
        exhaustive = n <= max(b.exhaustive, 1)
        obs = observations(view) if b.inference else []
        weights: list[float] | None = None
        if exhaustive:
            # Shuffled, so that a time cap cuts a uniform sample without
            # replacement rather than a biased prefix of the enumeration.
            worlds = list(enumerate_worlds(info))
            rng.shuffle(worlds)
        else:
            worlds = [sample_world(info, rng) for _ in range(b.worlds)]
        if obs:
            # Importance weights: the worlds are uniform, the target is the posterior given the plays.
            weights = _likelihoods(view, worlds, obs)
        utility = game_utility(view.match, view.player, view.dealer, view.variant.name) if b.match_play else None
        scores = dict.fromkeys(legal, 0.0)
        solved = 0
        mass = 0.0
        # Only with the open-card solver, and only where more than one world is left to tell apart.
        exact = self._values is solver_values and n > 1
        fusion = exact and b.searches_from(view, b.alphamu)
        presumed = None
        if exact and b.searches_from(view, b.presumed):
            rng2 = SplitMix64(derive_seed(self._seed, self._decisions, 2))
            presumed = PresumedOpponent(view, rng2, b.presumed_worlds)
        trees: list[WorldTree] = []
        # Beyond the default solvable talon one world can take seconds: the first is held to the deadline too.
        long_talon = not solvable(view)
        for i, world in enumerate(worlds):
            if solved and not deadline.may_start(solved):
                break
            limit = deadline if solved or long_talon else None
            w = 1.0 if weights is None else weights[i]
            try:
                if fusion:
                    trees.append(self._fusion_tree(encode(world_game(view, world)), limit, presumed))
                    solved += 1
                    mass += w
                    continue
                vals = self._world_values(world_game(view, world), limit, presumed)
            except SearchLimitExceeded:
                break  # the hard deadline: answer from the worlds solved so far
            for a in legal:
                v = vals[a]
                totals[a] += w * v
                if utility is not None:
                    scores[a] += w * utility[v]
            solved += 1
            mass += w
        if not solved:
            raise SearchLimitError(f"not one world solved before the hard deadline ({b.hard_seconds} s)")
        if fusion:
            points, fused = aggregate(trees, weights[:solved] if weights is not None else [1.0] * solved, utility)
            means = {a: points[a.code] for a in legal}
            score = {a: fused[a.code] for a in legal}
        else:
            means = {a: totals[a] / mass for a in legal}
            score = means if utility is None else {a: scores[a] / mass for a in legal}
        objective = "game points" if utility is None else "match equity"
        margin = b.tie_margin * (1.0 if utility is None else EQUITY_PER_POINT)
        trump = int(view.trump)
        tied = _tied(score, legal, margin)
        chance: dict[Action, float] | None = None
        chance_worlds = 0
        per_world = (time.perf_counter() - start) / solved
        if (
            b.chance_seconds is not None
            and b.temperature <= 0
            and len(tied) > 1
            and len(tied) * b.chance_horizon * per_world <= min(b.chance_seconds, deadline.remaining())
        ):
            allowance = min(b.chance_seconds, deadline.remaining())
            chance, chance_worlds = self._chances(view, worlds[:solved], tied, utility, allowance)
        best = _pick(score, means, tied, trump, chance)
        complete = exhaustive and solved == len(worlds)
        return Evaluation(
            means,
            solved,
            best,
            time.perf_counter() - start,
            exhaustive=complete,
            scores=score,
            objective=objective,
            chances=chance,
            chance_worlds=chance_worlds,
        )

    def _chances(
        self,
        view: PlayerView,
        worlds: list[World],
        tied: list[Action],
        utility: Mapping[int, float] | None,
        seconds: float,
    ) -> tuple[dict[Action, float] | None, int]:
        """The mean chances of each tied action over the first solved worlds (at most
        ``budget.chance_worlds``) that fit into ``seconds``.

        A world counts only if every tied action got its chances in it (so all
        are averaged over the same worlds); ``(None, 0)`` if not even one fits.
        """
        deadline = time.perf_counter() + seconds
        totals = dict.fromkeys(tied, 0.0)
        done = 0
        me = view.player
        horizon = self.budget.chance_horizon
        for world in worlds[: self.budget.chance_worlds]:
            game = world_game(view, world)
            row: dict[Action, float] = {}
            for a in tied:
                after = game.copy()
                after.apply(a)
                gain = chances(after, me, utility, horizon, deadline=deadline)
                if gain is None:
                    break
                row[a] = gain
            if len(row) < len(tied):
                break  # out of time within this world: it does not count
            for a in tied:
                totals[a] += row[a]
            done += 1
        if not done:
            return None, 0
        return {a: totals[a] / done for a in tied}, done


#: In match play, one game point near the end of a Bummerl is worth about this much equity; scales the tie margin.
EQUITY_PER_POINT = 0.1


def _likelihoods(view: PlayerView, worlds: list[World], obs: list[Observation]) -> list[float]:
    """Each world's likelihood of the opponent's observed plays (:func:`~bummerl.bots.likelihood.likelihood`)."""
    model = model_for(view.variant.name)
    # The likelihood depends on the opponent's hand only, which many worlds share (talon orders).
    known: dict[frozenset[Card], float] = {}
    cache: dict[tuple[int, frozenset[Card]], float] = {}
    out = []
    for w in worlds:
        key = frozenset(w.opponent_hand)
        p = known.get(key)
        if p is None:
            p = known[key] = likelihood(view, w, obs, model, cache)
        out.append(p)
    return out


def _losing_declaration(action: Action, mean: float) -> bool:
    """Going out below 66 (a certain loss: the value of a declaration is the same in every world)."""
    return action.kind is ActionKind.DECLARE and mean < 0


def _tied(score: Mapping[Action, float], legal: list[Action], margin: float) -> list[Action]:
    """The actions within ``margin`` of the best score (at least the best ones, in legal order)."""
    top = max(score.values())
    return [a for a in legal if score[a] >= top - margin - 1e-9]


def _pick(
    score: Mapping[Action, float],
    means: Mapping[Action, float],
    tied: list[Action],
    trump: int,
    chance: Mapping[Action, float] | None = None,
) -> Action:
    """The choice among the tied actions.

    1. A correct declaration among the best scores goes out: it ends the game
       with a sure result, with no risk hidden in worlds not sampled.
    2. Otherwise the most chances against an imperfect opponent (where
       computed); then a declaration that loses (going out below 66) comes
       after every other action, so a bot never concedes a game that it
       values no better than playing on; then the best score; then the
       solver's order among equals (keep the high cards and trumps, close last).
    """
    from bummerl.solver import tie_break_key

    top = max(score[a] for a in tied)
    for a in tied:
        if a.kind is ActionKind.DECLARE and means[a] > 0 and score[a] >= top - 1e-9:
            return a

    def key(a: Action) -> tuple[float, bool, float, tuple[int, ...]]:
        c = 0.0 if chance is None else -round(chance[a], 9)
        return (c, _losing_declaration(a, means[a]), -round(score[a], 9), tie_break_key(a, trump))

    return min(tied, key=key)
