"""The compiled table core (src/bummerl/core/_table.c) against the Python engine, its reference.

Issue 25: "A differential test plays ... random games per variant and compares every legal-action list, every
event, every view and every result with the reference; hypothesis drives option sets."  Here a sample, in
seconds (bench/core_table_diff.py is the long run, its result in docs/rl.md): random games of Dreierschnapsen and
Bauernschnapsen through both, compared at every position (whose turn, legal actions in order, every seat's
observation and information-state tensors, masks, the whole result), option sets drawn by hypothesis from the
table variants' options, the compiled random self-play against :func:`bummerl.arena.selfplay`, and the batch
interface stepped beside :class:`bummerl.rl.vector.PythonBatch`.  Events and views as Python objects are not
compared: the core answers in numbers (its observation is the view's encoding), and ``TableGame`` does not use it.
"""

from __future__ import annotations

import dataclasses
import os
import random
from typing import Any, cast

import pytest

pytest.importorskip("gymnasium", reason="needs the 'pettingzoo' extra: pip install -e '.[pettingzoo]'")
pytest.importorskip("bummerl.core._table", reason="the compiled table core was not built (no C compiler)")
if os.environ.get("BUMMERL_PURE") == "1":
    pytest.skip("BUMMERL_PURE=1 keeps the compiled core out: nothing to compare", allow_module_level=True)

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typing_extensions import Buffer

from bummerl import core
from bummerl.core import _table
from bummerl.core.table import table_config
from bummerl.rl.encoding import ActionSpace, ViewEncoder
from bummerl.table_game import TableGame
from bummerl.variants import find_variant
from bummerl.variants.bauernschnapsen import BAUERNSCHNAPSEN, TableVariant
from bummerl.variants.dreierschnapsen import DREIERSCHNAPSEN
from helpers import load_script

#: The values each option of the table games may take (docs/bauernschnapsen.md, docs/dreierschnapsen.md).
OPTION_VALUES: dict[str, list[object]] = {
    "bettler": [False, True],
    "assen_bettler": [False, True],
    "bettler_points": [4, 5],
    "bettler_ace_high": [False, True],
    "bettler_partner_plays": [False, True],
    "gang_partner_plays": [False, True],
    "zehnerloch": [False, True],
    "zehnerloch_points": [8, 9, 10],
    "zehnerloch_below_gang": [False, True],
    "bauernloch": [False, True],
    "kontra_beats_bettler": [False, True],
    "max_doubling": [0, 1, 2, 3],
    "three_unter_redeal": [False, True],
    "raise_after_talon": [False, True],
    "may_skip_talon": [False, True],
}


DIFF = load_script("bench/core_table_diff.py")
#: The batch comparison with PythonBatch, written for both families (the two-player core's).
BATCHES = load_script("bench/core_diff.py")


@st.composite
def table_variants(draw: st.DrawFn) -> TableVariant:
    base: TableVariant = draw(st.sampled_from([BAUERNSCHNAPSEN, DREIERSCHNAPSEN]))
    options = {name: draw(st.sampled_from(OPTION_VALUES[name])) for name in base.OPTIONS if name in OPTION_VALUES}
    if options["kontra_beats_bettler"] and options["max_doubling"] == 0:
        options["max_doubling"] = 1
    return base.with_options(**options)


def test_every_option_of_the_table_games_is_drawn() -> None:
    # A new option must be added to OPTION_VALUES (and to table_config if it changes the game) to be tested here.
    options = set(BAUERNSCHNAPSEN.OPTIONS) | set(DREIERSCHNAPSEN.OPTIONS)
    assert options - {"match_target"} == set(OPTION_VALUES)


@pytest.mark.parametrize("name", ["bauernschnapsen", "dreierschnapsen"])
def test_random_games_agree_at_every_position(name: str) -> None:
    tally = DIFF.compare_games(TableVariant.find(name), games=40, seed=3)
    assert tally.games == 40 and tally.positions > 40 * 8


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(variant=table_variants(), seed=st.integers(0, 2**64 - 1))
def test_option_sets_agree(variant: TableVariant, seed: int) -> None:
    assert DIFF.compare_games(variant, games=4, seed=seed).games == 4


def test_random_options_reach_the_rare_paths() -> None:
    # The long run's --random-options: every contract kind, the doubling, the talon choices and the redeal occur.
    seen: set[str] = set()
    tally = DIFF.compare_games(BAUERNSCHNAPSEN, games=100, seed=7, options=True, seen=seen)
    tally3 = DIFF.compare_games(DREIERSCHNAPSEN, games=100, seed=8, options=True, seen=seen)
    assert tally.games == tally3.games == 100
    wanted = {"bid:gang", "bid:zehnerloch", "bid:bauernloch", "bid:kontra-normal", "subkontra", "rekontra"}
    wanted |= {"skip-talon", "take-talon", "reason:redeal", "reason:wrong_declaration", "reason:last_trick"}
    wanted |= {f"reason:{r}" for r in ("declared", "contract_won", "contract_lost")}
    assert wanted <= seen


@pytest.mark.parametrize("variant", [BAUERNSCHNAPSEN, DREIERSCHNAPSEN], ids=lambda v: v.name)
def test_hands_with_a_full_suit_reach_farbenring_and_herrenschnapser(variant: TableVariant) -> None:
    # Five cards of a suit come about once in a few hundred deals: find such deals, then play each several times.
    seeds = []
    for seed in range(20_000):
        game = TableGame.deal(variant, seed, dealer=seed % variant.players)
        game.apply("cut")
        if any(max(sum(1 for c in h if c.suit == s) for s in range(4)) == 5 for h in game.hands):
            seeds.append(seed)
        if len(seeds) == 6:
            break
    seen: set[str] = set()
    tally = DIFF.Tally()
    for seed in seeds:
        for k in range(12):
            game = DIFF.common.reference_deal(variant, seed, seed % variant.players)
            DIFF.compare_game(game, random.Random(k), tally, seen)
    assert tally.games == 72 and {"bid:farbenring", "bid:herrenschnapser"} <= seen
    if variant.players == 4:
        assert "reason:claimed" in seen


def test_a_wrong_core_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    # The comparison can fail: a core that deals by the next seat differs from the reference at once.
    real = _table.State

    def shifted(config: dict[str, object], pack: list[int], dealer: int) -> Any:
        return real(config, pack, (dealer + 1) % int(str(config["players"])))

    monkeypatch.setattr(_table, "State", shifted)
    with pytest.raises(DIFF.Mismatch):
        DIFF.compare_games(BAUERNSCHNAPSEN, games=1, seed=1)


@pytest.mark.parametrize("name", ["bauernschnapsen", "dreierschnapsen"])
def test_compiled_random_selfplay_is_the_arenas(name: str) -> None:
    DIFF.compare_selfplay(TableVariant.find(name), games=40, seed=9)


@pytest.mark.parametrize("name", ["bauernschnapsen", "dreierschnapsen"])
@pytest.mark.parametrize(("seat", "observation"), [(0, "observation"), ("all", "information_state")])
def test_the_batch_steps_as_the_python_reference(name: str, seat: int | str, observation: str) -> None:
    finished = BATCHES.compare_batches(find_variant(name), 8, 120, 5, seat=seat, observation=observation)
    assert finished > 0


@pytest.mark.parametrize(("seat", "dealer", "reward"), [(1, "rotate", "points"), ("random", 2, "zero_sum")])
def test_the_batch_deals_and_scores_as_the_python_reference(seat: int | str, dealer: int | str, reward: str) -> None:
    compare = BATCHES.compare_batches
    for name in ("bauernschnapsen", "dreierschnapsen"):
        variant = find_variant(name)
        assert compare(variant, 6, 80, 7, seat=seat, observation="observation", dealer=dealer, reward=reward) > 0


def test_the_deal_is_game_deals() -> None:
    config = table_config(BAUERNSCHNAPSEN)
    assert config is not None
    for seed in (0, 1, 2**64 - 1, 12345678901234567):
        assert _table.deal(config, seed, 0) == [c.index for c in TableGame.deal(BAUERNSCHNAPSEN, seed).deck]


def test_the_state_refuses_what_the_engine_refuses() -> None:
    config = table_config(DREIERSCHNAPSEN)
    assert config is not None
    game = DIFF.common.reference_deal(DREIERSCHNAPSEN, 4, 1)  # the Python rules: no compiled twin
    state = _table.State(config, [c.index for c in game.deck], 1)
    space = ActionSpace.of(DREIERSCHNAPSEN)
    assert state.legal() == [space.index(a) for a in game.legal_actions()] == [71, 72]
    with pytest.raises(ValueError, match="not legal"):
        state.apply(78)  # pass: the cut comes first
    with pytest.raises(ValueError, match="dealer must be a seat"):
        _table.State(config, [c.index for c in game.deck], 3)
    with pytest.raises(ValueError, match="20 cards"):
        _table.State(config, [*[c.index for c in game.deck][:-1], 0], 1)
    with pytest.raises(ValueError, match="out"):
        state.encode(0, False, bytearray(12))


def test_the_batch_checks_its_buffers_and_names_an_illegal_action() -> None:
    config = table_config(BAUERNSCHNAPSEN)
    assert config is not None
    batch = _table.Batch(config, 3, illegal=0)
    size, actions = ViewEncoder.of(BAUERNSCHNAPSEN).observation_size, ActionSpace.of(BAUERNSCHNAPSEN).size
    assert (batch.num_envs, batch.players, batch.observation_size, batch.action_size) == (3, 4, size, actions)
    obs, mask = np.zeros((3, size), np.float32), np.zeros((3, actions), np.int8)
    seeds, seat = np.arange(3, dtype=np.uint64), np.zeros(3, np.int8)
    with pytest.raises(ValueError, match="mask"):
        batch.reset(_b(seeds), _b(obs), _b(np.zeros((3, actions), np.float32)), _b(seat))
    batch.reset(_b(seeds), _b(obs), _b(mask), _b(seat))
    assert (mask.sum(axis=1) == 2).all()  # cut or knock
    chosen = np.full(3, 71, np.int64)
    chosen[2] = 78
    rewards, terminated = np.zeros((3, 4), np.float32), np.zeros(3, np.uint8)
    with pytest.raises(ValueError, match="game 2: action 78 is not legal"):
        batch.step(_b(chosen), _b(obs), _b(mask), _b(rewards), _b(terminated), _b(seat))


def _b(array: np.ndarray[Any, Any]) -> Buffer:
    # NumPy's stubs declare arrays Buffers only for Python 3.12 and later (mypy checks as 3.11).
    return cast(Buffer, array)


def test_a_variant_subclass_stays_on_the_engine() -> None:
    # The core mirrors TableVariant's data, not a subclass's hooks: such a variant is played by the Python engine.
    @dataclasses.dataclass(frozen=True)
    class Hooked(TableVariant):
        pass

    assert table_config(Hooked()) is None and core.core_of(Hooked()) is None


def test_pure_makes_the_table_core_step_aside(monkeypatch: pytest.MonkeyPatch) -> None:
    assert core.core_of(BAUERNSCHNAPSEN) is _table
    monkeypatch.setenv(core.PURE_VARIABLE, "1")
    assert core.core_of(BAUERNSCHNAPSEN) is None
