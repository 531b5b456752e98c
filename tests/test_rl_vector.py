"""The batched environments (:mod:`bummerl.rl.vector`, issue 25).

Issue 25: "``bummerl.rl.vector`` steps N games of one variant in one call with numpy arrays (observations or
information states, action masks, rewards, done flags, auto-reset), as a Gymnasium ``VectorEnv`` reachable the
standard way ... the masks in ``infos["action_mask"]`` (N x actions) — and for self-play of all seats;
opponents for the single-agent case are built-in bots or any callable."  Gymnasium 1.x has no checker for a
``VectorEnv`` (``check_env`` takes one ``Env``, and ``BummerlEnv`` passes it in tests/test_rl_gym.py), so the
vector API's contract is checked here by hand, and the games against ``gymnasium.make_vec(...,
vectorization_mode="sync")`` of ``BummerlEnv``, which plays each slot's first game the same way.  The compiled
backend against the reference is tests/test_core.py's.
"""

from __future__ import annotations

import random

import pytest

pytest.importorskip("gymnasium", reason="needs the 'pettingzoo' extra: pip install -e '.[pettingzoo]'")

import gymnasium
import numpy as np
from gymnasium.vector import AutoresetMode

from bummerl.actions import Action
from bummerl.rl.gym import ENV_IDS
from bummerl.rl.vector import BummerlVectorEnv, PythonBatch
from bummerl.variants import find_variant
from bummerl.view import View
from helpers import load_script

TWO_PLAYER = ["schnapsen", "schnapsen-scharf", "sechsundsechzig", "schnorps"]


def _random_legal(mask: np.ndarray, rng: random.Random) -> np.ndarray:
    return np.array([rng.choice(np.flatnonzero(m)) if m.any() else 0 for m in mask], np.int64)


@pytest.mark.parametrize("name", list(ENV_IDS))
def test_make_vec_with_the_vector_entry_point_keeps_the_vector_contract(name: str) -> None:
    envs = gymnasium.make_vec(ENV_IDS[name], num_envs=3, vectorization_mode="vector_entry_point")
    assert isinstance(envs, BummerlVectorEnv)
    assert envs.metadata["autoreset_mode"] is AutoresetMode.NEXT_STEP
    obs, infos = envs.reset(seed=4)
    rng = random.Random(4)
    ended = np.zeros(3, bool)
    for _ in range(60):
        assert envs.observation_space.contains(obs)
        mask = infos["action_mask"]
        assert mask.shape == (3, envs.single_action_space.n) and mask.dtype == np.int8
        actions = _random_legal(mask, rng)
        assert envs.action_space.contains(actions)
        obs, rewards, terminated, truncated, infos = envs.step(actions)
        assert rewards.shape == (3,) and terminated.dtype == bool and not truncated.any()
        # NEXT_STEP: the step that ends a game shows no legal action; the one after deals the next game.
        assert not infos["action_mask"][terminated].any()
        assert not terminated[ended].any() and (rewards[ended] == 0).all()
        assert (rewards[~terminated] == 0).all()
        ended = terminated
    envs.close()


@pytest.mark.parametrize("name", [*TWO_PLAYER, "bauernschnapsen"])
@pytest.mark.parametrize("opponent", ["random", "heuristic"])
def test_each_slot_plays_its_first_game_as_bummerl_env_does(name: str, opponent: str) -> None:
    n = 4
    vector = gymnasium.make_vec(
        ENV_IDS[name], num_envs=n, vectorization_mode="vector_entry_point", opponent=opponent, seat="random"
    )
    sync = gymnasium.make_vec(ENV_IDS[name], num_envs=n, vectorization_mode="sync", opponent=opponent, seat="random")
    obs, infos = vector.reset(seed=21)
    sync_obs, sync_infos = sync.reset(seed=21)
    rng = random.Random(0)
    live = np.ones(n, bool)
    steps = 0
    while live.any():
        steps += 1
        assert np.array_equal(obs[live], sync_obs[live])
        assert np.array_equal(infos["action_mask"][live], sync_infos["action_mask"][live])
        assert np.array_equal(infos["seat"][live], sync_infos["seat"][live])
        actions = _random_legal(infos["action_mask"], rng)
        obs, rewards, terminated, _, infos = vector.step(actions)
        sync_obs, sync_rewards, sync_terminated, _, sync_infos = sync.step(actions)
        assert np.array_equal(rewards[live], sync_rewards[live])
        assert np.array_equal(terminated[live], sync_terminated[live])
        live &= ~terminated
    assert steps >= 5


def test_self_play_gives_every_seat_its_turn_and_a_zero_sum_end() -> None:
    envs = BummerlVectorEnv("sechsundsechzig", num_envs=8, seat="all")
    _obs, infos = envs.reset(seed=3)
    rng = random.Random(3)
    seats_seen: set[int] = set()
    games = 0
    for _ in range(200):
        seats_seen.update(int(s) for s in infos["seat"])
        mover = infos["seat"].copy()
        _, rewards, terminated, _, infos = envs.step(_random_legal(infos["action_mask"], rng))
        every = infos["rewards"]
        assert every.shape == (8, 2)
        assert np.array_equal(every.sum(axis=1), np.zeros(8))
        # The reward is that of the seat that acted; the last observation is that seat's too.
        assert np.array_equal(rewards, every[np.arange(8), mover])
        assert np.array_equal(infos["seat"][terminated], mover[terminated])
        games += int(terminated.sum())
    assert seats_seen == {0, 1} and games > 8


def test_an_opponent_may_be_any_callable_on_a_view() -> None:
    seen: list[View] = []

    def lowest(view: View) -> Action | int:
        seen.append(view)
        legal = sorted(view.legal, key=lambda a: a.code)
        return legal[0] if len(seen) % 2 else legal[0].code  # an action or its number

    envs = BummerlVectorEnv("schnapsen", num_envs=2, opponent=lowest, seat=1)
    assert isinstance(envs.backend, PythonBatch)
    _obs, infos = envs.reset(seed=8)
    rng = random.Random(8)
    for _ in range(30):
        infos = envs.step(_random_legal(infos["action_mask"], rng))[4]
    assert seen and all(v.player == 0 for v in seen)


def test_information_states_and_seeds() -> None:
    envs = BummerlVectorEnv("schnorps", num_envs=2, observation="information_state", seat=0)
    obs, infos = envs.reset(seed=[10, 2**64 - 1])
    assert obs.shape == (2, 1276)
    assert infos["seed"].tolist() == [10, 2**64 - 1]
    again, _ = envs.reset(seed=[10, 2**64 - 1])
    assert np.array_equal(obs, again)
    with pytest.raises(ValueError, match="one seed per game"):
        envs.reset(seed=[1, 2, 3])


def test_an_illegal_number_forfeits_the_game_by_default() -> None:
    envs = BummerlVectorEnv("schnorps", num_envs=2, seat=0)
    _, infos = envs.reset(seed=1)
    legal = int(np.flatnonzero(infos["action_mask"][0])[0])
    _, rewards, terminated, _, infos = envs.step(np.array([legal, 70]))
    assert terminated.tolist() == [False, True] and rewards[1] == -6.0  # Schnorps: the forfeit costs 6 Marken
    assert not infos["action_mask"][1].any()


def test_bench_vector_measures_the_vector_env_beside_its_baselines() -> None:
    bench = load_script("bench/vector.py")
    rows = {label: rate for _, label, rate in bench.measure(num_envs=4, seconds=0.01, repeat=1)}
    title = find_variant("schnapsen").title  # the rows name the variant by its title
    assert rows[f"vector, {title}, self-play, pure Python"] > 0
    assert rows[f"{title}, `bummerl selfplay --bots random,...`, Python engine (BUMMERL_PURE=1)"] > 0
    assert any(label.startswith("OpenSpiel C++ skat") for label in rows)
