"""OpenSpiel's exact methods on the research variants (issue 25, item 3): the tree walked once, its EFG copy,
CFR and exploitability on it, checked against OpenSpiel's Python best response on the Python game itself."""

from __future__ import annotations

import itertools
import math
from collections import Counter
from fractions import Fraction

import pytest

pytest.importorskip("pyspiel")

import pyspiel
from open_spiel.python.algorithms import best_response, expected_game_score

from bummerl.cards import CARDS
from bummerl.rl.exact import fixed_deal_root, packet_outcomes, tabulate
from bummerl.rl.openspiel import BummerlState, load
from bummerl.rl.openspiel_policies import BotPolicy

#: Vorhand holds K 10 A of Hearts, the dealer Q of Hearts, K and A of Diamonds: a small game of mini8 (two
#: trump cards left for chance, then the talon card), a second or so to walk.
SMALL = "KhThAh QhKdAd"


@pytest.fixture(scope="module")
def game() -> pyspiel.Game:
    return load("mini8")


def test_the_deal_in_sets_gives_every_deal_of_mini8_its_probability(game: pyspiel.Game) -> None:
    # Every (Vorhand's hand, dealer's hand, trump card) of the 8-card pack: C(8,3) * C(5,3) * 2 = 1120 deals,
    # each 1/1120, whatever the order of the cards within a packet.
    found: Counter[tuple[frozenset[int], frozenset[int], int]] = Counter()
    total = Fraction(0)

    def deal(state: BummerlState, p: Fraction) -> None:
        nonlocal total
        if state.game is not None:
            h = state.history()
            found[(frozenset(h[:3]), frozenset(h[3:6]), h[6])] += 1
            total += p
            assert p == Fraction(1, 1120)
            return
        outcomes = packet_outcomes(state)
        assert sum(q for _, q in outcomes) == 1
        for a, q in outcomes:
            if q:
                deal(state.child(a), p * q)

    deal(game.new_initial_state(), Fraction(1))
    assert total == 1
    assert len(found) == math.comb(8, 3) * math.comb(5, 3) * 2 == 1120
    assert set(found.values()) == {1}  # each deal once: the packets come in one order


def test_tree_sizes_of_a_small_game_are_regression_data(game: pyspiel.Game) -> None:
    tree = tabulate(fixed_deal_root(game, SMALL))
    counts = (tree.histories, tree.terminals, tree.chance_nodes, tree.decision_nodes, tree.information_states)
    assert counts == (1781, 744, 19, 1018, (523, 495))
    assert tree.histories == tree.terminals + tree.chance_nodes + tree.decision_nodes


@pytest.mark.parametrize("bot", ["random", "heuristic"])
def test_exploitability_on_the_efg_copy_is_the_python_games_own(game: pyspiel.Game, bot: str) -> None:
    root = fixed_deal_root(game, SMALL)
    tree = tabulate(root, bots=(bot,))
    efg_value = pyspiel.exploitability(tree.load(), tree.policy(bot))
    # The same number from OpenSpiel's Python best response, run on the Python game from the same root.
    policy = BotPolicy(game, bot)
    on_policy = expected_game_score.policy_value(root, [policy, policy])
    best = [best_response.BestResponsePolicy(game, p, policy, root_state=root).value(root) for p in (0, 1)]
    assert efg_value == pytest.approx((sum(best) - sum(on_policy)) / 2, abs=1e-9)
    assert efg_value > 0  # neither bot is a Nash equilibrium of this game


def test_cfr_lowers_exploitability_towards_zero(game: pyspiel.Game) -> None:
    tree = tabulate(fixed_deal_root(game, SMALL), bots=("random",))
    efg = tree.load()
    solver = pyspiel.CFRSolver(efg)
    values = []
    for _ in range(4):
        for _ in range(8):
            solver.evaluate_and_update_policy()
        values.append(pyspiel.exploitability(efg, solver.average_policy()))
    assert all(b < a for a, b in itertools.pairwise(values))
    assert 0 <= values[-1] < pyspiel.exploitability(efg, tree.policy("random")) / 4


def test_the_efg_copy_keeps_the_python_games_actions_and_chance(game: pyspiel.Game) -> None:
    tree = tabulate(fixed_deal_root(game, SMALL))
    efg = tree.load()
    assert efg.num_players() == 2
    assert efg.get_type().utility == pyspiel.GameType.Utility.ZERO_SUM
    # At every information set the EFG game offers the actions the Python game does (by their numbers).
    numbers = {tuple(sorted(a for _, a in pairs)) for pairs in tree.actions().values()}
    assert all(set(n) <= set(range(game.num_distinct_actions())) for n in numbers)
    state = efg.new_initial_state()
    assert state.is_chance_node()
    assert sorted(state.action_to_string(pyspiel.PlayerId.CHANCE, a) for a, _ in state.chance_outcomes()) == sorted(
        CARDS[i].code for i in (4 + 8, 6 + 8)
    )
