"""Search bots: PIMC over consistent worlds, exhaustive late-game enumeration, levels.

Rules referenced: RULES.md "Going out ... A player who declares with 65 or fewer
loses the game" and "Closing (Zudrehen / Talon sperren): the player on lead,
before leading" — closing and declaring are legal actions the solver values.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping

import pytest

from bummerl.actions import Action, ActionKind
from bummerl.bots import make_bot
from bummerl.bots.inference import count_worlds, enumerate_worlds, infer, world_game
from bummerl.bots.levels import LEVELS, WEB_DEFAULT
from bummerl.bots.search import Budget, SearchBot, SearchLimitError, solvable
from bummerl.cards import card_order
from bummerl.game import Game
from bummerl.rng import SplitMix64
from bummerl.solver import SearchLimitExceeded, action_values

VARIANTS = ["schnapsen", "scharf", "sechsundsechzig", "schnorps"]


def exact(game: Game) -> Mapping[Action, int]:
    """The open-card solver's action values."""
    return action_values(game)


def _late(variant: str, seed: int, face_down: int) -> Game:
    """A random game played on until at most ``face_down`` talon cards remain (or closed)."""
    game = Game.deal(variant, seed=seed)
    rng = SplitMix64(seed)
    while not game.is_over and game.talon_size > face_down and not game.is_closed:
        legal = [a for a in game.legal_actions() if a.kind is not ActionKind.DECLARE] or game.legal_actions()
        game.apply(legal[rng.below(len(legal))])
    return game


def test_declares_with_66_and_not_below() -> None:
    """RULES.md: "A player who declares with 65 or fewer loses the game" — the
    solver's values make the bot go out with 66+ and play on below."""
    bot = SearchBot("t", Budget(worlds=4, exhaustive=8), values=exact)
    rich = Game.from_position("schnapsen 1 0 h AhThKh/AsTsKs - - - QhJhQsJsAdTdKdQdJdAcTcKcQcJc/- -")
    assert bot.choose(rich.view(0)) == Action.declare()
    poor = Game.from_position("schnapsen 1 0 h AhThKh/AsTsKs - - - QhJhQsJs/AdTdKdQdJdAcTcKcQcJc -")
    choice = bot.choose(poor.view(0))
    assert choice.kind is ActionKind.PLAY


def test_choice_is_the_best_mean_and_closing_is_valued() -> None:
    """Whenever closing is legal it gets a value like any card (RULES.md, Closing),
    and the choice is an action with the best mean value."""
    seen_close = 0
    for seed in range(40):
        game = _late(VARIANTS[seed % 4], seed, face_down=3)
        if game.is_over or game.talon_size == 0:
            continue
        view = game.view(game.to_move)
        bot = SearchBot("t", Budget(worlds=6, exhaustive=60), seed=seed, values=exact)
        ev = bot.evaluate(view)
        assert set(ev.values) == set(view.legal_actions())
        assert ev.values[ev.best] == max(ev.values.values())
        if Action.close() in ev.values:
            seen_close += 1
    assert seen_close >= 3


def test_exhaustive_evaluation_is_the_exact_mean() -> None:
    """With few worlds left the bot enumerates them all: its values are the
    exact mean of the solver's values over every consistent world."""
    checked = 0
    for seed in range(60):
        game = _late(VARIANTS[seed % 4], seed, face_down=1)
        if game.is_over:
            continue
        view = game.view(game.to_move)
        info = infer(view)
        n = count_worlds(info)
        if not 2 <= n <= 30 or len(view.legal_actions()) < 2:
            continue
        ev = SearchBot("t", Budget(worlds=3, exhaustive=30), values=exact).evaluate(view)
        assert ev.exhaustive and ev.worlds == n
        sums: dict[Action, float] = dict.fromkeys(view.legal_actions(), 0.0)
        for world in enumerate_worlds(info):
            for a, v in exact(world_game(view, world)).items():
                sums[a] += v
        assert ev.values == pytest.approx({a: s / n for a, s in sums.items()})
        checked += 1
    assert checked >= 5


def test_sampling_uses_the_budget_when_worlds_are_many() -> None:
    """Too many worlds to enumerate: exactly ``budget.worlds`` samples are solved."""
    game = _late("schnapsen", 3, face_down=3)
    view = game.view(game.to_move)
    assert count_worlds(infer(view)) > 5
    calls = []

    def counting(g: Game) -> Mapping[Action, int]:
        calls.append(g)
        return exact(g)

    ev = SearchBot("t", Budget(worlds=5, exhaustive=2), values=counting).evaluate(view)
    assert not ev.exhaustive and ev.worlds == 5 == len(calls)
    # Every world keeps the player's own cards.
    assert all(sorted(g.hands[view.player], key=card_order) == sorted(view.hand, key=card_order) for g in calls)


def test_same_view_same_choice() -> None:
    """The bot sees only the view: deals that differ only in hidden cards give
    the same decision (same seed)."""
    a = Game.deal("schnapsen", seed=21)
    vorhand, dealer = a.to_move, 1 - a.to_move
    order = list(a.deck)
    hidden = [i for i, c in enumerate(order) if c in a.hands[dealer] or c in a.talon]
    swapped = [order[i] for i in reversed(hidden)]
    for i, c in zip(hidden, swapped, strict=True):
        order[i] = c
    b = Game.from_deck("schnapsen", order, a.dealer)
    assert a.view(vorhand) == b.view(vorhand) and a.hands[dealer] != b.hands[dealer]
    budget = Budget(worlds=2, exhaustive=0)
    late_a, late_b = a, b
    # Compare on a late, cheap decision: close the talon in both, then decide.
    for g in (late_a, late_b):
        g.close_talon()
    choice_a = SearchBot("t", budget, seed=5, values=exact).choose(late_a.view(vorhand))
    choice_b = SearchBot("t", budget, seed=5, values=exact).choose(late_b.view(vorhand))
    assert choice_a == choice_b


@pytest.mark.parametrize("variant", VARIANTS)
def test_levels_play_every_variant(variant: str) -> None:
    """Every named level plays legal actions to the end in all four variants
    (the decisions before the talon runs low are left to a random bot to keep
    this test fast with the pure-Python solver)."""
    for i, level in enumerate(LEVELS):
        game = _late(variant, 100 + i, face_down=1)
        bot = make_bot(level, seed=i)
        bot._values = exact  # type: ignore[attr-defined]
        while not game.is_over:
            action = bot.choose(game.view(game.to_move))
            assert action in game.legal_actions()
            game.apply(action)
        assert game.result is not None


def test_levels_are_registered_with_growing_budgets() -> None:
    """easy < medium < hard < expert in worlds and enumeration; the web default
    is at most 0.3 s per move."""
    names = list(LEVELS)
    assert names == ["easy", "medium", "hard", "expert"]
    for lower, upper in itertools.pairwise(names):
        assert LEVELS[lower].worlds < LEVELS[upper].worlds
        assert LEVELS[lower].exhaustive < LEVELS[upper].exhaustive
        assert LEVELS[lower].temperature >= LEVELS[upper].temperature
        assert make_bot(upper).name == upper
    web = LEVELS[WEB_DEFAULT].seconds
    assert web is not None and web <= 0.3


def test_bad_budget_is_refused() -> None:
    with pytest.raises(ValueError, match="at least one world"):
        Budget(worlds=0)
    with pytest.raises(ValueError, match="temperature"):
        Budget(worlds=1, temperature=-1)
    for name in ("alphamu", "presumed", "solvable_talon"):
        with pytest.raises(ValueError, match=f"{name} must be a number of face-down cards"):
            Budget(worlds=1, **{name: -1})  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="presumed_worlds must be >= 1"):
        Budget(worlds=1, presumed=3, presumed_worlds=0)


def test_temperature_mixes_near_equal_moves_only() -> None:
    """With a temperature the bot sometimes plays a move below the best mean,
    but not one that is two game points worse (a wrong declaration: weight
    exp(-2 / 0.2), about 1 in 20,000)."""
    game = Game.from_position("schnapsen 1 0 h AhThKh/AsTsKs - - - QhJhQsJs/AdTdKdQdJdAcTcKcQcJc -")
    view = game.view(0)
    bot = SearchBot("t", Budget(worlds=1, temperature=0.2), seed=3)
    values = bot.evaluate(view).values
    assert values[Action.declare()] == -1 and max(values.values()) == 1
    choices = {bot.choose(view) for _ in range(100)}
    assert Action.declare() not in choices and len(choices) >= 2
    cold = SearchBot("t", Budget(worlds=1), seed=3)
    assert {cold.choose(view) for _ in range(20)} == {cold.evaluate(view).best}


def test_choose_out_of_turn_is_an_error() -> None:
    game = Game.deal("schnapsen", seed=1)
    bot = SearchBot("t", Budget(worlds=1), values=exact)
    with pytest.raises(ValueError, match="not this player's turn"):
        bot.choose(game.view(1 - game.to_move))


def test_long_talon_openings_use_the_rule_based_fallback() -> None:
    """Sechsundsechzig's first moves (11 face-down cards) are beyond the solver's
    time budget: evaluate() says so, choose() still answers legally (RULES.md table:
    Sechsundsechzig deals "3+3 each, 13th card turned", 11 cards stay face down)."""
    game = Game.deal("sechsundsechzig", seed=4)
    view = game.view(game.to_move)
    assert view.talon_size == 11 and not solvable(view)
    bot = SearchBot("t", Budget(worlds=2))
    with pytest.raises(SearchLimitError, match="too many to solve"):
        bot.evaluate(view)
    assert bot.choose(view) in view.legal_actions()
    game.close_talon()
    assert solvable(game.view(game.to_move))


def _second_trick(variant: str, seed: int) -> Game:
    """Sechsundsechzig or Schnorps after the first trick (one card each from the lowest), talon open."""
    game = Game.deal(variant, seed=seed)
    while game.talon_size > 9 and not game.is_over:
        game.apply(next(a for a in game.legal_actions() if a.kind is ActionKind.PLAY))
    return game


def test_a_budget_may_search_longer_talons_under_its_deadline(monkeypatch: pytest.MonkeyPatch) -> None:
    """``Budget(solvable_talon=9)`` searches Sechsundsechzig from the second trick (9 face-down cards, one
    world there takes a fraction of a second); beyond the default limit even the first world is held to the
    hard deadline (a node limit), and a decision in which not one world finished is the heuristic's."""
    import bummerl.solver as solver

    game = _second_trick("sechsundsechzig", 3)
    view = game.view(game.to_move)
    assert view.talon_size == 9 and not solvable(view) and solvable(view, 9)
    with pytest.raises(SearchLimitError):
        SearchBot("t", Budget(worlds=2)).evaluate(view)
    ev = SearchBot("t", Budget(worlds=2, solvable_talon=9)).evaluate(view)
    assert ev.worlds == 2
    limits: list[int | None] = []
    real = solver.search_tree

    def search(position: object, depth: int, **kw: object) -> object:
        limits.append(kw.get("max_nodes"))  # type: ignore[arg-type]
        return real(position, depth, **kw)  # type: ignore[arg-type]

    monkeypatch.setattr(solver, "search_tree", search)
    SearchBot("t", Budget(worlds=2, seconds=5.0, hard_seconds=10.0, solvable_talon=9)).evaluate(view)
    assert limits and all(isinstance(n, int) and n >= 1000 for n in limits)  # the first world too

    def slow(position: object, depth: int, **kw: object) -> object:
        raise SearchLimitExceeded(int(kw["max_nodes"]) + 1)  # type: ignore[call-overload]

    monkeypatch.setattr(solver, "search_tree", slow)
    bot = SearchBot("t", Budget(worlds=2, seconds=0.5, hard_seconds=1.0, solvable_talon=9), seed=2)
    with pytest.raises(SearchLimitError, match="not one world"):
        bot.evaluate(view)
    from bummerl.bots.heuristic import HeuristicBot

    assert bot.choose(view) == HeuristicBot(2).choose(view)
