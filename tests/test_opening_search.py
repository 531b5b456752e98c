"""The opening search of Sechsundsechzig and Schnorps (issue 12: "Search from the first trick in 66 and
Schnorps (expectimax over talon draws to a horizon with a tested leaf evaluation ...)").

Draws follow seeds/000 (the reference solver's rules): "the winner draws the top card, the loser the next;
the face-up trump card is the last card and goes to the loser".
"""

from __future__ import annotations

import statistics

import pytest

from bummerl.actions import Action
from bummerl.bots.deadline import Deadline
from bummerl.bots.heuristic import HeuristicBot
from bummerl.bots.inference import infer, sample_world, world_game
from bummerl.bots.levels import make_level
from bummerl.bots.opening import (
    FEATURES,
    MODELS,
    LeafModel,
    OpeningBot,
    OpeningSearch,
    _Tree,
    base_features,
    fit_weights,
    opening_action,
)
from bummerl.bots.search import solvable
from bummerl.rng import SplitMix64
from bummerl.solver import search_position
from bummerl.solver.reference import legal_codes
from bummerl.solver.state import CLOSE_CODE, LEAD, Position, T, card_indices, encode
from bummerl.two_player import TwoPlayerGame

VARIANTS = ("sechsundsechzig", "schnorps")


class FakeClock:
    """Still for ``still`` reads, then ``step`` seconds per read."""

    def __init__(self, step: float, still: int = 0) -> None:
        self.now, self.step, self.still = 0.0, step, still

    def __call__(self) -> float:
        if self.still:
            self.still -= 1
        else:
            self.now += self.step
        return self.now


def opening_games(variant: str, seeds: range) -> list[TwoPlayerGame]:
    """Every unsolvable decision of heuristic self-play games (the positions the opening search takes)."""
    out = []
    for seed in seeds:
        game = TwoPlayerGame.deal(variant, seed=seed)
        bot = HeuristicBot(seed)
        while not game.is_over and not solvable(game.view(game.to_move)):
            out.append(game.copy())
            game.apply(bot.choose(game.view(game.to_move)))
    return out


@pytest.mark.parametrize("variant", VARIANTS)
def test_the_search_values_exactly_the_legal_actions(variant: str) -> None:
    games = opening_games(variant, range(3))
    assert len(games) >= 6
    for game in games:
        view = game.view(game.to_move)
        ev = OpeningSearch(seed=1, worlds=3, seconds=None).evaluate(view)
        assert list(ev.values) == view.legal_actions()
        assert ev.worlds == 3 and ev.best in view.legal_actions()
        assert all(abs(v) <= MODELS[variant].bound for v in ev.values.values())


@pytest.mark.parametrize("variant", VARIANTS)
def test_leaf_expectation_over_the_draws_is_exact(variant: str) -> None:
    """The leaf averages the model over the draws analytically; brute force over every (winner, loser) pair agrees."""
    rng = SplitMix64(7)
    weights = tuple(rng.below(2001) / 1000 - 1 for _ in FEATURES)
    model = LeafModel(weights, 1e9)  # no clipping: the model is linear
    checked = 0
    for game in opening_games(variant, range(2)):
        view = game.view(game.to_move)
        if view.lead is None:
            continue
        world = sample_world(infer(view), rng)
        search = OpeningSearch(seed=1, model=model)
        pos = encode(world_game(view, world))
        tree = _Tree(pos, view.player, model, search, rng, Deadline(None, None))
        s = pos.state
        assert s[LEAD] >= 0 and s[T] >= 2
        pool = card_indices(tree.pool)
        for code in legal_codes(tree.solver, s):
            analytic = tree._leaf(s, code, tree.pool, True)
            total = 0.0
            pairs = [(x, y) for x in pool for y in pool if x != y]
            for x, y in pairs:
                tree.talon[s[T] - 1], tree.talon[s[T] - 2] = x, y
                child, _ = tree.solver.apply(s, code)
                assert child is not None
                total += model.value(base_features(child, view.player, pos.trump))
            assert analytic == pytest.approx(total / len(pairs), abs=1e-9)
            checked += 1
    assert checked >= 8


def test_closing_is_valued_by_the_exact_solver() -> None:
    """66, one trick played (nine face-down cards: too early for the open-card solver per world).  Seat 0
    holds Ace, Ten and King of trumps, Ace and Ten of spades and the Ace of clubs, has a trick and the
    trump marriage; the opponent has no trick.  Closed, seat 0 takes every trick: three game points
    (seeds/000: "Schwarz ... drei Punkte"), exactly, in every world."""
    game = TwoPlayerGame.from_position(
        "sechsundsechzig 1 0 9h AhThKh!AsTsAc/Jh9sJsQsKs9d JdQdKdTdAd9cQcKcTc - - QhJc/- 0h"
    )
    view = game.view(0)
    assert not solvable(view)
    ev = OpeningSearch(seed=3, worlds=6, seconds=None).evaluate(view)
    close = Action.parse("close")
    assert ev.values[close] == 3.0
    assert ev.values[ev.best] == 3.0
    # The same value straight from the solver for this very world.
    pos = encode(game)
    closed = game.copy()
    closed.apply(close)
    assert search_position(Position(pos.rules, pos.trump, pos.talon, encode(closed).state)).value == 3
    assert close.code == CLOSE_CODE


def test_takes_a_ten_with_the_ace() -> None:
    """First trick of 66: the opponent leads the Ten of spades, seat 0 holds the Ace of spades and low
    cards; taking it (21 Augen) is worth more than any discard."""
    game = TwoPlayerGame.from_position(
        "sechsundsechzig 0 0 9h As9cJc9dJdQc/9sJsQsKsQd JhQhKhThAhKdTdAdKcTcAc - Ts -/- -"
    )
    ev = OpeningSearch(seed=2, worlds=20, seconds=None).evaluate(game.view(0))
    assert ev.best == Action.parse("As")
    assert ev.values[Action.parse("As")] > max(v for a, v in ev.values.items() if a.token != "As") + 0.2


def test_deadline_fallback_and_handover() -> None:
    games = opening_games("sechsundsechzig", range(1))
    view = games[0].view(games[0].to_move)
    # A clock that jumps past the deadline during the first world: no world, the heuristic answers.
    search = OpeningSearch(seed=1, seconds=0.5, hard_seconds=1.0, clock=FakeClock(10.0, still=3))
    ev = search.evaluate(view)
    assert ev.worlds == 0 and ev.cut and ev.values == {}
    bot = OpeningBot("t", make_level("easy", 1), 1, OpeningSearch(1, seconds=0.5, clock=FakeClock(10.0, still=3)))
    assert bot.choose(view) == HeuristicBot(1).choose(view)
    # Once the position is solvable the other bot plays.
    game = TwoPlayerGame.deal("sechsundsechzig", seed=1)
    bot = OpeningBot("t", make_level("easy", 1), 1, OpeningSearch(1, worlds=2, seconds=None))
    while not game.is_over:
        view = game.view(game.to_move)
        action = bot.choose(view)
        assert action in view.legal_actions()
        game.apply(action)
    # With a margin the fallback's move stands unless the search finds one that much better.
    view = games[0].view(games[0].to_move)
    huge = opening_action(OpeningSearch(1, worlds=3, seconds=None), view, HeuristicBot(1), margin=1e9)
    assert huge == HeuristicBot(1).choose(view)
    ev = OpeningSearch(1, worlds=3, seconds=None).evaluate(view)
    assert opening_action(OpeningSearch(1, worlds=3, seconds=None), view, HeuristicBot(1)) == ev.best
    # The same seed and decision number sample the same worlds (without time caps).
    first = opening_games("schnorps", range(1))[0]
    v = first.view(first.to_move)
    a = OpeningSearch(5, worlds=4, seconds=None).evaluate(v)
    b = OpeningSearch(5, worlds=4, seconds=None).evaluate(v)
    assert a.values == b.values


def test_shipped_leaf_models_beat_the_augen_difference() -> None:
    """The tested leaf evaluation: on fresh heuristic self-play games (seeds never used for fitting) the
    shipped model's squared error is well below that of the Augen difference fitted to the same games."""
    for variant in VARIANTS:
        rows, targets = [], []
        for seed in range(2_000_000, 2_000_120):
            game = TwoPlayerGame.deal(variant, seed=seed)
            bot = HeuristicBot(seed)
            found = []
            while not game.is_over:
                if game.lead is None and game.closed_by is None and len(game.talon) >= 5:
                    pos = encode(game)
                    found.append(base_features(pos.state, 0, pos.trump))
                game.apply(bot.choose(game.view(game.to_move)))
            r = game.result
            assert r is not None
            y = 0.0 if r.winner is None else float(r.points if r.winner == 0 else -r.points)
            rows += found
            targets += [y] * len(found)
        model = MODELS[variant]
        mse = statistics.fmean((model.value(x) - y) ** 2 for x, y in zip(rows, targets, strict=True))
        i = FEATURES.index("augen")
        (w,) = fit_weights([[x[i]] for x in rows], targets, ridge=0.0)
        mse_augen = statistics.fmean((w * x[i] - y) ** 2 for x, y in zip(rows, targets, strict=True))
        assert mse < 0.85 * mse_augen, (variant, mse, mse_augen)
