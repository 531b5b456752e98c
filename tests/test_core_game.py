"""The two-player game with its compiled twin (``BUMMERL_CORE=1``) against the Python rules alone.

Issue 25: "A differential test ... compares every legal-action list, every event, every view and every result with
the reference."  A sample, in seconds: random games of every two-player variant, and of option sets drawn by
hypothesis, played through two games of the same deal, a :class:`~bummerl.two_player.CoreTwoPlayerGame` (its
compiled twin generates the legal actions) and a plain :class:`~bummerl.two_player.TwoPlayerGame`, compared object
for object at every position: the legal actions in order, the events of every action (their types too: a ``Play``
and a ``Draw`` of the same card are equal tuples), both seats' :class:`~bummerl.view.PlayerView`, a refused
action's error, and the :class:`~bummerl.variants.two_player.GameResult`.  tests/test_core.py compares the core's
numbers (tensors, masks) with the engine; bench/core_api_diff.py is the long run of this one.
"""

from __future__ import annotations

import os
import random

import pytest

pytest.importorskip("bummerl.core._two_player", reason="the compiled core was not built (no C compiler)")
if os.environ.get("BUMMERL_PURE") == "1":
    pytest.skip("BUMMERL_PURE=1 keeps the compiled core out: nothing to compare", allow_module_level=True)

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bummerl.engine import ENGINES
from bummerl.errors import IllegalActionError
from bummerl.game import Game
from bummerl.rng import derive_seed
from bummerl.two_player import CoreTwoPlayerGame
from bummerl.variants import find_variant
from bummerl.variants.two_player import TwoPlayerVariant
from helpers import load_script

diff = load_script("bench/core_api_diff.py")
#: The four games and the research variants.
BASE = list(diff.DEFAULT_VARIANTS)
#: The values of the options that are not yes or no (docs/rules.md lists them).
CHOICES: dict[str, list[object]] = {"last_trick_scoring": ["one", "augen"], "close_min_facedown": [1, 2]}


@pytest.mark.parametrize("name", BASE)
def test_game_with_its_twin_plays_what_the_python_rules_play(name: str) -> None:
    tally = diff.compare_api(find_variant(name), 60, 25)
    assert tally.games == 60 and tally.positions > 60


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_option_sets(data: st.DataObject) -> None:
    base = TwoPlayerVariant.find(data.draw(st.sampled_from(BASE)))
    options = {name: data.draw(st.sampled_from(CHOICES.get(name, [False, True]))) for name in base.OPTIONS}
    variant = base.with_options(**options)
    diff.compare_api(variant, 8, data.draw(st.integers(0, 2**32)))


def _twin(variant: str, seed: int, monkeypatch: pytest.MonkeyPatch) -> CoreTwoPlayerGame:
    monkeypatch.setitem(ENGINES, "two_player", CoreTwoPlayerGame)
    game = Game.deal(variant, seed)
    assert isinstance(game, CoreTwoPlayerGame) and game._core is not None
    return game


def test_a_copy_keeps_its_own_twin(monkeypatch: pytest.MonkeyPatch) -> None:
    game = _twin("schnapsen", 4, monkeypatch)
    other = game.copy()
    game.apply(game.legal_actions()[0])
    assert other._core is not None and other._core is not game._core
    reference = diff.deal(other.variant, 4, other.dealer, twin=False)
    rng = random.Random(4)
    while not other.is_over:  # the copy plays on from the deal, its own twin beside it
        assert other.legal_actions() == reference.legal_actions()
        action = rng.choice(reference.legal_actions())
        assert other.apply(action) == reference.apply(action)
    assert other.result == reference.result


def test_editing_the_state_by_hand_leaves_the_twin_behind(monkeypatch: pytest.MonkeyPatch) -> None:
    """White-box code that edits a game's attributes says so by clearing the cached legal actions
    (tests/test_solver.py, tests/test_secrecy.py): the twin, which did not see the edit, is dropped."""
    game = _twin("schnapsen", 5, monkeypatch)
    hand = game.hands[game.to_move]
    game.hands[game.to_move] = hand[:2]
    game._legal = None
    assert game._core is None
    assert {a.card for a in game.legal_actions() if a.card is not None} <= set(hand[:2])


def test_a_position_plays_on_the_python_rules(monkeypatch: pytest.MonkeyPatch) -> None:
    game = _twin("schnapsen", 6, monkeypatch)
    position = Game.from_position(game.position())
    assert isinstance(position, CoreTwoPlayerGame) and position._core is None
    assert position.legal_actions() == game.legal_actions() and position.view(0) == game.view(0)


def test_bummerl_pure_keeps_the_twin_out(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(ENGINES, "two_player", CoreTwoPlayerGame)
    monkeypatch.setenv("BUMMERL_PURE", "1")
    game = Game.deal("schnapsen", 7)
    assert isinstance(game, CoreTwoPlayerGame) and game._core is None
    while not game.is_over:  # the Python rules alone
        game.apply(game.legal_actions()[-1])


def test_a_refused_action_says_the_same_and_changes_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    rng = random.Random(8)
    for k in range(30):
        seed = derive_seed(8, k)
        game = _twin("schnapsen", seed, monkeypatch)
        while not game.is_over:
            legal = game.legal_actions()
            before = game.view(game.to_move)
            for action in rng.sample(diff.every_action(game.variant), 5):
                if action in legal:
                    continue
                with pytest.raises(IllegalActionError) as twin_error:
                    game.apply(action)
                assert game.view(game.to_move) == before and game.legal_actions() == legal
                reference = diff.deal(game.variant, seed, game.dealer, twin=False)
                for done in game.actions:
                    reference.apply(done)
                with pytest.raises(IllegalActionError) as reference_error:
                    reference.apply(action)
                assert str(twin_error.value) == str(reference_error.value)
            game.apply(rng.choice(legal))


def test_a_talon_reordered_in_place_leaves_the_twin_behind(monkeypatch: pytest.MonkeyPatch) -> None:
    """bummerl.rl.openspiel's chance nodes choose the cards drawn by reordering ``game.talon`` in place."""
    game = _twin("schnapsen", 9, monkeypatch)
    reference = diff.deal(game.variant, 9, game.dealer, twin=False)
    for g in (game, reference):
        g.talon[-1], g.talon[0] = g.talon[0], g.talon[-1]
    rng = random.Random(9)
    while not game.is_over:
        assert game.legal_actions() == reference.legal_actions()
        action = rng.choice([a for a in reference.legal_actions() if a.card is not None])
        assert game.apply(action) == reference.apply(action)
        if len(game.talon) < 8:
            assert game._core is None  # dropped before the first draw
    assert game.result == reference.result
