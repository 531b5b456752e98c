"""``Game`` with its compiled twin (the default where the core is built) against the Python rules alone.

Issue 25: "A differential test ... compares every legal-action list, every event, every view and every result with
the reference."  A sample, in seconds: random games of every variant of both families, and of option sets drawn by
hypothesis, played through two games of the same deal, one whose compiled twin generates the legal actions
(:class:`~bummerl.two_player.TwoPlayerGame`, :class:`~bummerl.table_game.TableGame`) and one dealt under
``BUMMERL_PURE=1``, compared object for object at every position: the legal actions in order, the events of every
action (their types too: a ``Play`` and a ``Draw`` of the same card are equal tuples), every seat's view, a refused
action's error, and the result.  tests/test_core.py compares the core's
numbers (tensors, masks) with the engine; bench/core_api_diff.py is the long run of this one.
"""

from __future__ import annotations

import copy
import os
import pickle
import random

import pytest

pytest.importorskip("bummerl.core._two_player", reason="the compiled core was not built (no C compiler)")
if os.environ.get("BUMMERL_PURE") == "1":
    pytest.skip("BUMMERL_PURE=1 keeps the compiled core out: nothing to compare", allow_module_level=True)

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bummerl.errors import IllegalActionError
from bummerl.game import Game
from bummerl.rng import derive_seed
from bummerl.table_game import TableGame
from bummerl.two_player import TwoPlayerGame
from bummerl.variants import find_variant
from bummerl.variants.bauernschnapsen import TableVariant
from bummerl.variants.two_player import TwoPlayerVariant
from helpers import load_script
from test_core_table import table_variants  # the table options drawn as tests/test_core_table.py draws them

diff = load_script("bench/core_api_diff.py")
#: The four two-player games and the research variants.
BASE = [name for name in diff.DEFAULT_VARIANTS if find_variant(name).players == 2]
#: The values of the options that are not yes or no (docs/rules.md lists them).
CHOICES: dict[str, list[object]] = {"last_trick_scoring": ["one", "augen"], "close_min_facedown": [1, 2]}


@pytest.mark.parametrize("name", diff.DEFAULT_VARIANTS)
def test_game_with_its_twin_plays_what_the_python_rules_play(name: str) -> None:
    games = 60 if find_variant(name).players == 2 else 30
    tally = diff.compare_api(find_variant(name), games, 25)
    assert tally.games == games and tally.positions > games


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_option_sets(data: st.DataObject) -> None:
    base = TwoPlayerVariant.find(data.draw(st.sampled_from(BASE)))
    options = {name: data.draw(st.sampled_from(CHOICES.get(name, [False, True]))) for name in base.OPTIONS}
    variant = base.with_options(**options)
    diff.compare_api(variant, 8, data.draw(st.integers(0, 2**32)))


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(variant=table_variants(), seed=st.integers(0, 2**32))
def test_table_option_sets(variant: TableVariant, seed: int) -> None:
    diff.compare_api(variant, 4, seed)


def _twin(variant: str, seed: int, monkeypatch: pytest.MonkeyPatch) -> TwoPlayerGame | TableGame:
    monkeypatch.delenv("BUMMERL_PURE", raising=False)
    game = Game.deal(variant, seed)
    assert isinstance(game, TwoPlayerGame | TableGame) and game._core is not None
    return game


def test_game_takes_the_twin_by_default(monkeypatch: pytest.MonkeyPatch) -> None:
    """One class per family, the twin or not (tests/test_record.py asks ``type(game) is TwoPlayerGame``)."""
    assert type(_twin("schnapsen", 3, monkeypatch)) is TwoPlayerGame
    assert type(_twin("dreierschnapsen", 3, monkeypatch)) is TableGame


@pytest.mark.parametrize("name", ["schnapsen", "bauernschnapsen"])
def test_a_copy_keeps_its_own_twin(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    game = _twin(name, 4, monkeypatch)
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
    table = _twin("bauernschnapsen", 5, monkeypatch)
    table._legal = None
    assert table._core is None and table.legal_actions() == _twin("bauernschnapsen", 5, monkeypatch).legal_actions()


def test_a_position_plays_on_the_python_rules(monkeypatch: pytest.MonkeyPatch) -> None:
    game = _twin("schnapsen", 6, monkeypatch)
    position = Game.from_position(game.position())
    assert isinstance(position, TwoPlayerGame) and position._core is None
    assert position.legal_actions() == game.legal_actions() and position.view(0) == game.view(0)


@pytest.mark.parametrize("name", ["schnapsen", "dreierschnapsen"])
def test_bummerl_pure_keeps_the_twin_out(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("BUMMERL_PURE", "1")
    game = Game.deal(name, 7)
    assert isinstance(game, TwoPlayerGame | TableGame) and game._core is None
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


@pytest.mark.parametrize("name", ["schnapsen", "bauernschnapsen"])
def test_a_pickled_or_deep_copied_game_plays_on_without_its_twin(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """A C ``State`` cannot be pickled: ``copy.deepcopy`` (the server's ``Room.next_deal`` copies a match so) and
    ``pickle`` carry the game without it (:meth:`bummerl.engine.Game.__getstate__`), on the Python rules alone."""
    game = _twin(name, 10, monkeypatch)
    game.apply(game.legal_actions()[0])
    for other in (copy.deepcopy(game), pickle.loads(pickle.dumps(game))):
        assert other._core is None and game._core is not None
        reference, rng = game.copy(), random.Random(10)
        while not reference.is_over:
            assert other.legal_actions() == reference.legal_actions()
            action = rng.choice(reference.legal_actions())
            assert other.apply(action) == reference.apply(action)
        assert other.result == reference.result
