"""The exact solver agrees with the engine: transitions, legal actions, values.

Three layers of evidence:

* the solver's own rules (legal action codes and the state after each action)
  equal the engine's along random games of every variant and option;
* the values of the C core and of the Python reference equal plain minimax
  over the real :class:`~bummerl.game.Game` API (:mod:`bummerl.solver.oracle`)
  on endgames, closed positions and positions one or two tricks before the
  talon runs out;
* the C core equals the Python reference on larger positions, whole deals
  included.

Rule sources are cited per test; the scoring itself is the variants' hooks
(``score_declaration``, ``score_end_of_cards``), which the oracle calls.
"""

from __future__ import annotations

import dataclasses
import functools
import random
import subprocess
import sys
from collections.abc import Callable, Iterator

import pytest

from bummerl.actions import Action, ActionKind
from bummerl.cards import Card, Suit, card_order, deck
from bummerl.game import Game
from bummerl.solver import (
    BACKENDS,
    SearchLimitExceeded,
    action_for_code,
    action_values,
    action_values_many,
    best_action,
    encode,
    search,
    search_position,
    search_tree,
    solve,
    solve_many,
    tie_break_key,
)
from bummerl.solver.oracle import minimax_action_values, minimax_value
from bummerl.solver.reference import ReferenceSolver, legal_codes
from bummerl.solver.state import SCORING_HOOKS, Rules
from bummerl.variants import SCHNAPSEN, GameResult, TwoPlayerVariant, find_variant
from bummerl.variants.two_player import ScoringState

#: Every variant, with and without its options (RULES.md lists the options).
VARIANTS: dict[str, TwoPlayerVariant] = {
    "schnapsen": find_variant("schnapsen"),
    "schnapsen+auto": find_variant("schnapsen", auto_declare=True),
    "schnapsen+after": find_variant("schnapsen", count_after_closing=True),
    "schnapsen+augen": find_variant("schnapsen", last_trick_scoring="augen"),
    "scharf": find_variant("scharf"),
    "scharf+auto+after": find_variant("scharf", auto_declare=True, count_after_closing=True),
    "66": find_variant("66"),
    "66+auto+after": find_variant("66", auto_declare=True, count_after_closing=True),
    "schnorps": find_variant("schnorps"),
    "schnorps-marriages-exchange": find_variant("schnorps", marriages=False, trump_exchange=False),
    "schnorps+auto": find_variant("schnorps", auto_declare=True),
    # The house rule of closing with one face-down card left (RULES.md, option close_min_facedown).
    "schnapsen+close1": find_variant("schnapsen", close_min_facedown=1),
    "scharf+close1": find_variant("scharf", close_min_facedown=1),
    "66+close1": find_variant("66", close_min_facedown=1),
    "schnorps+close1": find_variant("schnorps", close_min_facedown=1),
}

C_AVAILABLE = "c" in BACKENDS
BACKEND_LIST = list(BACKENDS)


def _value_for(result: GameResult, player: int) -> int:
    if result.winner is None:
        return 0
    return result.points if result.winner == player else -result.points


def _random_step(game: Game, rng: random.Random, allow_close: bool = True) -> None:
    """One random action that does not end the game on purpose (no declaring)."""
    choices = [
        a
        for a in game.legal_actions()
        if a.kind is not ActionKind.DECLARE and (allow_close or a.kind is not ActionKind.CLOSE)
    ]
    game.apply(rng.choice(choices))


def endgame(variant: TwoPlayerVariant, seed: int, cards: int) -> Game | None:
    """Talon exhausted (never closed), at most ``cards`` in the hand to move; ``None`` if the game ended."""
    rng = random.Random(seed)
    game = Game.deal(variant, seed=seed)
    while not game.is_over:
        if not game.talon and game.closed_by is None and len(game.hands[game.to_move]) <= cards:
            return game
        _random_step(game, rng, allow_close=False)
    return None


def closed(variant: TwoPlayerVariant, seed: int, cards: int) -> Game | None:
    """The talon closed at a random moment, then played down to ``cards`` cards."""
    rng = random.Random(seed)
    game = Game.deal(variant, seed=seed)
    while not game.is_over:
        legal = game.legal_actions()
        close = next((a for a in legal if a.kind is ActionKind.CLOSE), None)
        if close is not None and rng.random() < 0.4:
            game.apply(close)
            break
        _random_step(game, rng, allow_close=False)
    if game.is_over or game.closed_by is None:
        return None
    while not game.is_over:
        if len(game.hands[game.to_move]) <= cards:
            return game
        _random_step(game, rng)
    return None


def before_exhaustion(variant: TwoPlayerVariant, seed: int, face_down: int) -> Game | None:
    """A real game with at most ``face_down`` face-down talon cards left, still open."""
    rng = random.Random(seed)
    game = Game.deal(variant, seed=seed)
    while not game.is_over:
        if game.closed_by is None and 0 < len(game.talon) <= face_down:
            return game
        _random_step(game, rng, allow_close=False)
    return None


def small_open_talon(variant: TwoPlayerVariant, seed: int) -> Game | None:
    """A real game one or two tricks before the talon runs out, with shortened hands.

    Real games hold full hands while the talon is open; here the same number of
    cards leaves both hands as extra tricks (won by a random player), so that
    minimax stays cheap while drawing, the trump card going to the loser,
    exchange, closing and marriages are all still in play.  White-box: the
    game's attributes are edited directly, and both the engine and the solver
    play on from the same state.
    """
    game = before_exhaustion(variant, seed, 3)
    if game is None:
        return None
    rng = random.Random(seed)
    g = game.copy()
    remove = len(g.hands[g.to_move]) - rng.choice((2, 3))
    for _ in range(max(remove, 0)):
        winner = rng.randrange(2)
        for p in (0, 1):
            card = g.hands[p].pop(rng.randrange(len(g.hands[p])))
            g.known[p].discard(card)
            g.won_cards[winner].append(card)
            g.trick_augen[winner] += card.augen
        g.tricks_won[winner] += 1
    g._legal = None  # the cached legal actions belong to the full hands
    return g


def _endgame_at(variant: TwoPlayerVariant, seed: int, cards: int) -> Game | None:
    return endgame(variant, 1000 * cards + seed, cards)


def _closed_at(variant: TwoPlayerVariant, seed: int, cards: int) -> Game | None:
    return closed(variant, 7000 + 100 * cards + seed, cards)


def _positions(
    make: Callable[[TwoPlayerVariant, int], Game | None], variant: TwoPlayerVariant, n: int
) -> Iterator[Game]:
    found = 0
    seed = 0
    while found < n and seed < 20 * n:
        game = make(variant, seed)
        seed += 1
        if game is not None:
            found += 1
            yield game


# --------------------------------------------------------------- the rules


@pytest.mark.parametrize("name", list(VARIANTS))
def test_legal_actions_and_transitions_match_the_engine(name: str) -> None:
    """Every legal action and the state after it equal the engine's (RULES.md: Common rules).

    Along random games: the solver's legal codes are the engine's legal
    actions, and applying a code gives exactly the encoding of the engine's
    game after that action, or the engine's result (seeds/000: drawing order,
    "der Gegner die folgende"; closing snapshot; marriages counting only with
    a trick; auto_declare) as a value for the player who acted.
    """
    variant = VARIANTS[name]
    rng = random.Random(name)
    checked = 0
    for seed in range(12):
        game = Game.deal(variant, seed=seed)
        while not game.is_over:
            pos = encode(game)
            solver = ReferenceSolver(pos)
            legal = game.legal_actions()
            assert sorted(legal_codes(solver, pos.state)) == sorted(a.code for a in legal), game.position()
            p = game.to_move
            for action in legal:
                child = game.copy()
                child.apply(action)
                got, value = solver.apply(pos.state, action.code)
                if child.result is not None:
                    assert got is None, (game.position(), action)
                    assert value == _value_for(child.result, p), (game.position(), action)
                else:
                    assert got == encode(child).state, (game.position(), action)
                checked += 1
            _random_step(game, rng)
    assert checked > 300


def test_builtin_scoring_is_recognised_and_custom_hooks_are_not() -> None:
    """The search mirrors only hooks it knows; a variant with its own hooks is scored by calling them."""
    assert Rules.of(SCHNAPSEN).scoring != SCORING_HOOKS
    assert Rules.of(find_variant("schnorps")).scoring != SCORING_HOOKS
    assert Rules.of(_DoubleVariant()).scoring == SCORING_HOOKS


# ----------------------------------------------------------- against minimax


def _check_against_oracle(game: Game, backends: list[str]) -> None:
    expected = minimax_action_values(game)
    expected_value = max(expected.values())
    for backend in backends:
        assert action_values(game, backend=backend) == expected, (backend, game.position())
        assert solve(game, backend=backend) == expected_value, (backend, game.position())


@pytest.mark.parametrize("name", list(VARIANTS))
def test_endgames_match_minimax(name: str) -> None:
    """Talon exhausted, 2-5 cards each: exact values of the position and of every action.

    RULES.md: after the talon is exhausted "Farbzwang before Stichzwang";
    "No declaration before the last trick: the winner of the last trick wins";
    Sechsundsechzig: "last trick +10 Augen".
    """
    variant = VARIANTS[name]
    count = 0
    for cards in (2, 3, 4, 5):
        n = {2: 40, 3: 30, 4: 15, 5: 4}[cards]
        for game in _positions(functools.partial(_endgame_at, cards=cards), variant, n):
            _check_against_oracle(game, BACKEND_LIST)
            count += 1
    assert count >= 60


@pytest.mark.parametrize("name", list(VARIANTS))
def test_closed_positions_match_minimax(name: str) -> None:
    """Closed talon: the closer wins only with 66, scored by the opponent's Augen at closing
    (option ``count_after_closing``: at the end); a closer who fails pays 3 or 2 (RULES.md, Closing)."""
    variant = VARIANTS[name]
    count = 0
    for cards in (2, 3, 4):
        n = {2: 30, 3: 20, 4: 10}[cards]
        for game in _positions(functools.partial(_closed_at, cards=cards), variant, n):
            assert game.closed_by is not None
            _check_against_oracle(game, BACKEND_LIST)
            count += 1
    assert count >= 40


@pytest.mark.parametrize("name", list(VARIANTS))
def test_open_talon_positions_match_minimax(name: str) -> None:
    """One or two tricks before the talon runs out: drawing, the face-up trump card going to the
    trick's loser (seeds/000), exchange, closing and marriages while the talon is open."""
    variant = VARIANTS[name]
    count = 0
    for game in _positions(small_open_talon, variant, 40):
        assert game.talon and game.closed_by is None
        _check_against_oracle(game, BACKEND_LIST)
        count += 1
    assert count >= 30


@pytest.mark.parametrize(
    ("name", "n"),
    [
        ("schnapsen", 3),
        ("scharf", 2),
        ("schnapsen+after", 2),
        ("66", 1),
        ("schnorps", 1),
        ("schnapsen+close1", 3),
        ("66+close1", 1),
    ],
)
def test_real_positions_one_trick_before_exhaustion_match_minimax(name: str, n: int) -> None:
    """Real games with one face-down card left (full hands): the last draw, then the endgame."""
    variant = VARIANTS[name]
    for game in _positions(lambda v, s: before_exhaustion(v, 500 + s, 1), variant, n):
        _check_against_oracle(game, BACKEND_LIST)


def test_wrong_declaration_is_legal_and_negative() -> None:
    """RULES.md: "A player who declares with 65 or fewer loses the game, and the opponent scores
    what the declarer would have" — always a legal move, valued below zero."""
    seen = 0
    for game in _positions(lambda v, s: endgame(v, 300 + s, 3), SCHNAPSEN, 80):
        values = action_values(game)
        for action, value in values.items():
            if action.kind is ActionKind.DECLARE and game.augen(game.to_move) < 66 and action.suit is None:
                assert value < 0
                seen += 1
    assert seen > 5


class _DoubleVariant(TwoPlayerVariant):
    """A variant with hooks of its own: every result pays double."""

    def score_declaration(self, game: ScoringState, declarer: int) -> GameResult:
        r = super().score_declaration(game, declarer)
        return dataclasses.replace(r, points=2 * r.points)

    def score_end_of_cards(self, game: ScoringState, last_winner: int) -> GameResult:
        r = super().score_end_of_cards(game, last_winner)
        return dataclasses.replace(r, points=2 * r.points)


def test_custom_hooks_define_the_values() -> None:
    """The variant's hooks are the truth: a variant paying double is solved by its own hooks."""
    variant = _DoubleVariant()
    for seed in range(20):
        game = endgame(variant, seed, 3)
        if game is None:
            continue
        for backend in BACKEND_LIST:  # the C backend hands such variants to the reference
            result = search(game, actions=True, backend=backend)
            assert result.backend == "python"
            assert result.value == minimax_value(game)
            plain = endgame(SCHNAPSEN, seed, 3)
            assert plain is not None
            assert result.value == 2 * solve(plain)


# ------------------------------------------------------------- C vs Python


@pytest.mark.skipif(not C_AVAILABLE, reason="the C core is not built")
@pytest.mark.parametrize("name", list(VARIANTS))
def test_c_core_equals_reference_before_exhaustion(name: str) -> None:
    """Larger positions (two or three tricks before the talon runs out): C == Python, every action."""
    variant = VARIANTS[name]
    n = 6 if variant.deck_size == 20 else 3  # the 24- and 32-card packs are slower in Python
    for game in _positions(lambda v, s: before_exhaustion(v, 900 + s, 5), variant, n):
        c = search(game, actions=True, backend="c")
        py = search(game, actions=True, backend="python")
        assert c.values == py.values, game.position()
        assert c.value == py.value


@pytest.mark.skipif(not C_AVAILABLE, reason="the C core is not built")
@pytest.mark.parametrize("name", list(VARIANTS))
def test_value_trees_equal_between_c_and_python_and_the_engine(name: str) -> None:
    """``search_tree`` (the values a few moves deep, one table): C == Python, and every node's values are
    the action values of the engine's game after those moves (solved on their own)."""
    variant = VARIANTS[name]
    n = 3 if variant.deck_size == 20 else 2
    for game in _positions(lambda v, s: before_exhaustion(v, 950 + s, 3), variant, n):
        position = encode(game)
        c, _ = search_tree(position, 3, backend="c")
        py, _ = search_tree(position, 3, backend="python")
        assert c == py, game.position()
        _check_tree(game, c, 3)
    with pytest.raises(ValueError, match="depth"):
        search_tree(encode(Game.deal(variant, seed=1)), 5)


def _check_tree(game: Game, tree: object, depth: int) -> None:
    """Every node of ``tree`` against :func:`action_values` of the game after the path to it."""
    assert isinstance(tree, dict)
    values = {a.code: v for a, v in action_values(game).items()}
    assert {code: v for code, (v, _) in tree.items()} == values
    for code, (_, sub) in tree.items():
        after = game.copy()
        after.apply(action_for_code(code))
        assert (sub is None) == (after.is_over or depth == 1)
        if sub is not None:
            _check_tree(after, sub, depth - 1)


@pytest.mark.parametrize("backend", BACKEND_LIST)
def test_value_tree_node_limit(backend: str) -> None:
    """A tree search past ``max_nodes`` gives up like any search."""
    position = encode(Game.deal("schnapsen", seed=2))
    with pytest.raises(SearchLimitExceeded):
        search_tree(position, 2, backend=backend, max_nodes=50)


@pytest.mark.skipif(not C_AVAILABLE, reason="the C core is not built")
@pytest.mark.parametrize(("name", "seeds"), [("schnapsen", (0, 3, 5)), ("scharf", (1,)), ("schnapsen+auto", (7,))])
def test_c_core_equals_reference_on_whole_deals(name: str, seeds: tuple[int, ...]) -> None:
    """Whole deals from the first action (talon order known): C == Python.  (Python takes about a
    second a deal; ``python bench/solver.py --check`` compares many more.)"""
    variant = VARIANTS[name]
    for seed in seeds:
        game = Game.deal(variant, seed=seed)
        assert search(game, backend="c").value == search(game, backend="python").value


# ---------------------------------------------------------------- the API


def test_best_action_is_a_best_value_with_a_stable_tie_break() -> None:
    """best_action has the top value; among equals the smallest :func:`tie_break_key`."""
    for game in _positions(lambda v, s: endgame(v, 60 + s, 4), SCHNAPSEN, 25):
        values = action_values(game)
        best = best_action(game)
        top = max(values.values())
        assert values[best] == top == solve(game)
        ties = [a for a, v in values.items() if v == top]
        assert all(tie_break_key(best, int(game.trump)) <= tie_break_key(a, int(game.trump)) for a in ties)


def test_tie_break_keeps_options() -> None:
    """Exchange before plays, cheap plays before high ones and trumps, closing last."""
    trump = int(Suit.SPADES)
    order = ["exchange", "marry:Ks", "marry:Kh", "9h", "Jh", "Ah", "Js", "declare", "close"]
    keys = [tie_break_key(Action.parse(t), trump) for t in order]
    assert keys == sorted(keys)


def test_action_values_follow_legal_order_and_many_agree() -> None:
    games = list(_positions(lambda v, s: endgame(v, 80 + s, 3), SCHNAPSEN, 6))
    many = action_values_many(games)
    for game, values in zip(games, many, strict=True):
        assert list(values) == game.legal_actions()
        assert values == action_values(game)
    assert solve_many(games) == [solve(g) for g in games]


def test_search_position_reports_work() -> None:
    game = Game.deal("schnapsen", seed=2)
    result = search_position(encode(game), actions=True)
    assert result.nodes > 0 and result.values is not None
    assert result.value == max(result.values.values()) == solve(game)


@pytest.mark.parametrize("backend", BACKEND_LIST)
def test_node_limit_gives_up_cleanly_and_leaves_no_trace(backend: str) -> None:
    """A search past ``max_nodes`` raises; the next search is exact again (nothing half-done is kept)."""
    game = Game.deal("schnapsen", seed=0)
    with pytest.raises(SearchLimitExceeded) as info:
        search(game, actions=True, backend=backend, max_nodes=500)
    assert info.value.nodes > 500
    small = endgame(SCHNAPSEN, 3, 3)
    assert small is not None
    assert action_values(small, backend=backend, max_nodes=10**7) == minimax_action_values(small)
    assert solve(game, backend=backend) == solve(game, backend="python")
    with pytest.raises(ValueError, match="max_nodes must be positive"):
        solve(game, backend=backend, max_nodes=0)


def test_finished_game_and_unknown_backend_are_refused() -> None:
    game = Game.deal("schnapsen", seed=4)
    with pytest.raises(ValueError, match="unknown solver backend"):
        solve(game, backend="fortran")
    while not game.is_over:
        game.apply(game.legal_actions()[0])
    with pytest.raises(ValueError, match="game is over"):
        solve(game)


def test_without_the_compiled_core_python_takes_over_with_a_warning() -> None:
    """If the C extension failed to build, importing warns and every call runs the reference."""
    code = (
        "import sys, warnings\n"
        "sys.modules['bummerl.solver._csolver'] = None  # as if the build had failed\n"
        "with warnings.catch_warnings(record=True) as caught:\n"
        "    warnings.simplefilter('always')\n"
        "    import bummerl.solver as s\n"
        "from bummerl.game import Game\n"
        "assert s.BACKENDS == ('python',), s.BACKENDS\n"
        "assert any('compiled core is not available' in str(w.message) for w in caught), caught\n"
        "print(s.solve(Game.deal('schnapsen', seed=1)), s.search(Game.deal('schnapsen', seed=1)).backend)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=True)
    assert out.stdout.split() == [str(solve(Game.deal("schnapsen", seed=1))), "python"]


def test_solver_never_changes_the_game() -> None:
    game = Game.deal("schnapsen", seed=9)
    before = game.position()
    action_values(game)
    assert game.position() == before


def test_shortened_positions_are_consistent() -> None:
    """The shortened test positions hold the pack exactly once and equal hands around the lead."""
    for game in _positions(small_open_talon, SCHNAPSEN, 10):
        leader_short = 1 if game.lead is not None else 0
        assert len(game.hands[1 - game.to_move]) + leader_short == len(game.hands[game.to_move])
        pack = game.hands[0] + game.hands[1] + game.talon + game.won_cards[0] + game.won_cards[1]
        pack += [c for c in (game.trump_card, game.lead) if c is not None]
        assert sorted(pack, key=card_order) == sorted(deck(20), key=card_order)
        assert isinstance(pack[0], Card)
