"""The compiled two-player core (src/bummerl/core/_two_player.c) against the Python engine, its reference.

Issue 25: "A differential test plays ... random games per variant and compares every legal-action list, every
event, every view and every result with the reference; hypothesis drives option sets."  Here a sample, in
seconds (bench/core_diff.py is the long run, its result in docs/rl.md): random games through both, compared at
every position (legal actions in order, both seats' observation and information-state tensors, masks, the
result), option sets drawn by hypothesis from each variant's options, and the batch interface stepped beside
:class:`bummerl.rl.vector.PythonBatch`.  The events and views as Python objects are not compared: the core
answers in numbers (its observation is the view's encoding), and the Python API's ``Game`` does not use it yet.
"""

from __future__ import annotations

import dataclasses
import os

import pytest

pytest.importorskip("gymnasium", reason="needs the 'pettingzoo' extra: pip install -e '.[pettingzoo]'")
pytest.importorskip("bummerl.core._two_player", reason="the compiled core was not built (no C compiler)")
if os.environ.get("BUMMERL_PURE") == "1":
    pytest.skip("BUMMERL_PURE=1 keeps the compiled core out: nothing to compare", allow_module_level=True)

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bummerl import core
from bummerl import variants as variants_module
from bummerl.arena.selfplay import selfplay
from bummerl.core import _two_player
from bummerl.engine import Game
from bummerl.errors import IllegalActionError
from bummerl.rl.settings import EnvSettings
from bummerl.rl.vector import PythonBatch, make_batch
from bummerl.variants import find_variant
from bummerl.variants.two_player import SCHNAPSEN, TwoPlayerVariant
from helpers import load_script

#: The four games and the research variants (mini8, mini10, mini12) where the tree has them.
BASE = ["schnapsen", "schnapsen-scharf", "sechsundsechzig", "schnorps"] + [
    v.name for v in getattr(variants_module, "RESEARCH_VARIANTS", ())
]
#: The values each option may take (docs/rules.md lists them).
OPTION_VALUES: dict[str, list[object]] = {
    "auto_declare": [False, True],
    "count_after_closing": [False, True],
    "last_trick_scoring": ["one", "augen"],
    "close_min_facedown": [1, 2],
    "marriages": [False, True],
    "trump_exchange": [False, True],
}


diff = load_script("bench/core_diff.py")


@st.composite
def variants(draw: st.DrawFn) -> TwoPlayerVariant:
    base = TwoPlayerVariant.find(draw(st.sampled_from(BASE)))
    options = {name: draw(st.sampled_from(OPTION_VALUES[name])) for name in base.OPTIONS}
    return base.with_options(**options)


@pytest.mark.parametrize("name", BASE)
def test_the_core_deals_what_game_deal_deals(name: str) -> None:
    variant = find_variant(name)
    config = core.config(variant)
    for seed in [0, 1, 2**64 - 1, *range(3, 200, 7)]:
        assert _two_player.deal(config, seed, 1) == [c.index for c in Game.deal(variant, seed).deck]


@pytest.mark.parametrize("name", BASE)
def test_random_games_agree_at_every_position(name: str) -> None:
    variant = find_variant(name)
    tally = diff.compare_games(variant, 40, seed=7)
    assert tally.games == 40 and tally.positions > 40 * variant.hand_size


@given(variant=variants(), seed=st.integers(0, 2**64 - 1))
@settings(max_examples=30, deadline=None, database=None, suppress_health_check=[HealthCheck.too_slow])
def test_random_games_agree_under_every_option_set(variant: TwoPlayerVariant, seed: int) -> None:
    diff.compare_games(variant, 3, seed)


def test_a_difference_is_found() -> None:
    # The comparison can fail: a core told that Schnapsen has the last trick bonus of 66 scores differently.
    config = core.config(SCHNAPSEN)
    assert config is not None
    wrong = {**config, "last_trick_bonus": 10}
    state = _two_player.State(wrong, _two_player.deal(wrong, 3, 1), 1)
    right = _two_player.State(config, _two_player.deal(config, 3, 1), 1)
    game = Game.deal(SCHNAPSEN, 3)
    while not game.is_over:
        action = game.legal_actions()[0]
        game.apply(action)
        state.apply(action.code)
        right.apply(action.code)
    assert game.result is not None and right.result()[3:] == game.result.augen
    assert state.result() != right.result()


@pytest.mark.parametrize("name", BASE)
@pytest.mark.parametrize("seat", [0, 1, "random", "all"])
def test_the_batch_writes_what_the_reference_writes(name: str, seat: int | str) -> None:
    variant = find_variant(name)
    for observation in ("observation", "information_state"):
        finished = diff.compare_batches(variant, 8, 60, seed=11, seat=seat, observation=observation)
        assert finished > 0


def test_the_batch_under_options_and_other_dealers() -> None:
    variant = find_variant("schnapsen", auto_declare=True, last_trick_scoring="augen")
    for dealer in ("rotate", 0, 1):
        for reward in ("zero_sum", "points"):
            settings_ = EnvSettings.read(variant, None, dealer=dealer, reward=reward, illegal="lose")
            a = make_batch(settings_, 6, seat=1, backend="compiled")
            b = make_batch(settings_, 6, seat=1, backend="python")
            _step_side_by_side(a, b, settings_, steps=80)


def _step_side_by_side(a: object, b: object, settings_: EnvSettings, steps: int) -> None:
    n, size, actions = 6, settings_.size, settings_.space.size
    bufs = [
        [np.zeros((n, size), np.float32), np.zeros((n, actions), np.int8), np.zeros((n, 2), np.float32)]
        for _ in range(2)
    ]
    for buf in bufs:
        buf += [np.zeros(n, np.uint8), np.zeros(n, np.int8)]
    seeds = np.arange(100, 100 + n, dtype=np.uint64)
    for batch, (obs, mask, _, _, seat) in zip((a, b), bufs, strict=True):
        batch.reset(seeds, obs, mask, seat)  # type: ignore[attr-defined]
    rng = np.random.default_rng(5)
    for _ in range(steps):
        chosen = np.array([rng.choice(np.flatnonzero(m)) if m.any() else 0 for m in bufs[0][1]], np.int64)
        for batch, (obs, mask, rewards, terminated, seat) in zip((a, b), bufs, strict=True):
            batch.step(chosen, obs, mask, rewards, terminated, seat)  # type: ignore[attr-defined]
        for x, y in zip(*bufs, strict=True):
            assert np.array_equal(x, y)


def test_an_illegal_action_raises_and_changes_nothing_when_asked() -> None:
    settings_ = EnvSettings.read("schnapsen", None, illegal="raise")
    for backend, error in (("compiled", ValueError), ("python", IllegalActionError)):
        batch = make_batch(settings_, 2, seat=0, backend=backend)
        obs, mask, seat = np.zeros((2, 220), np.float32), np.zeros((2, 71), np.int8), np.zeros(2, np.int8)
        batch.reset(np.array([1, 2], np.uint64), obs, mask, seat)
        before = obs.copy()
        legal = int(np.flatnonzero(mask[0])[0])
        with pytest.raises(error, match="game 1"):
            batch.step(
                np.array([legal, 7], np.int64), obs, mask, np.zeros((2, 2), np.float32), np.zeros(2, np.uint8), seat
            )
        assert np.array_equal(obs, before)


def test_buffers_of_the_wrong_size_are_refused_by_name() -> None:
    batch = _two_player.Batch(core.config(SCHNAPSEN), 3)
    with pytest.raises(ValueError, match="obs must hold 660 items"):
        batch.reset(np.zeros(3, np.uint64), np.zeros(600, np.float32), np.zeros((3, 71), np.int8), np.zeros(3, np.int8))
    with pytest.raises(ValueError, match="seeds must hold 3 items of 8 bytes"):
        batch.reset(np.zeros(3, np.int32), np.zeros(660, np.float32), np.zeros((3, 71), np.int8), np.zeros(3, np.int8))


@pytest.mark.parametrize("name", BASE)
def test_random_selfplay_in_the_core_is_bummerl_selfplay(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    # The same seeds, dealers and RandomBot choices as `bummerl selfplay --bots random,random` on the engine.
    variant = find_variant(name)
    points, wins, draws, actions = _two_player.random_games(core.config(variant), 3, 200)
    assert actions > 200 * 5
    fast = selfplay(variant, ["random", "random"], 200, 3)  # takes the core
    monkeypatch.setenv(core.PURE_VARIABLE, "1")
    stats = selfplay(variant, ["random", "random"], 200, 3)  # the Python engine, a view per decision
    assert list(points) == stats.game_points and list(wins) == stats.wins and draws == stats.draws
    assert (fast.games, fast.game_points, fast.wins, fast.draws) == (200, stats.game_points, stats.wins, stats.draws)


def test_the_python_engines_play_where_no_core_does(monkeypatch: pytest.MonkeyPatch) -> None:
    assert core.core_of(SCHNAPSEN) is _two_player
    # A subclass with scoring hooks of its own: the core does not know them; one that only sets data, it does.
    same = dataclasses.dataclass(frozen=True)(type("SameVariant", (TwoPlayerVariant,), {}))
    assert core.config(same(name="same")) is not None
    odd = dataclasses.dataclass(frozen=True)(
        type("OddVariant", (TwoPlayerVariant,), {"score_declaration": TwoPlayerVariant.score_end_of_cards})
    )
    assert core.config(odd(name="odd")) is None
    # Game points that are not "3 without a trick, 2 under a line, else 1": the engine's.
    flat = dataclasses.dataclass(frozen=True)(
        type("FlatVariant", (TwoPlayerVariant,), {"game_points": lambda self, augen, trick: 1})
    )
    assert core.config(flat(name="flat")) is None
    settings_ = EnvSettings.read("schnapsen", None)
    assert not isinstance(make_batch(settings_, 2), PythonBatch)
    assert isinstance(make_batch(settings_, 2, seat=0, opponent="heuristic"), PythonBatch)
    monkeypatch.setenv(core.PURE_VARIABLE, "1")
    assert core.core_of(SCHNAPSEN) is None
    assert isinstance(make_batch(settings_, 2), PythonBatch)
    with pytest.raises(ValueError, match="BUMMERL_PURE=1"):
        make_batch(settings_, 2, backend="compiled")


def test_a_new_deal_and_the_legal_actions_as_objects() -> None:
    """``State.new_deal`` deals with the config of the State it is called on (``Game``'s twin: the config is read
    once per variant), and ``State.legal_actions(table)`` hands ``table[number]`` for each legal number."""
    config = core.config(SCHNAPSEN)
    assert config is not None
    pack = [c.index for c in Game.deal(SCHNAPSEN, 3).deck]
    first = _two_player.State(config, pack, 0)
    state = first.new_deal(pack[::-1], 1)
    reference = _two_player.State(config, pack[::-1], 1)
    assert type(state) is _two_player.State and state.legal() == reference.legal() != first.legal()
    table = tuple(f"action {n}" for n in range(71))
    assert state.legal_actions(table) == tuple(table[n] for n in reference.legal())
    with pytest.raises(ValueError, match="no entry"):
        state.legal_actions(table[:3])
    with pytest.raises(TypeError, match="tuple"):
        state.legal_actions(list(table))  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="deck must be"):
        first.new_deal(pack[:-1], 1)
