"""The Gymnasium single-agent environment (:mod:`bummerl.rl.gym`, issue 14).

Issue 14: "A Gymnasium single-agent wrapper plays against a chosen Bummerl bot."  Gymnasium's ``check_env``
checks the API; these tests check the game behind it: the other seats are played by the named bot made with
the documented seed (replayed here move by move), the reward is the agent's seat's reward for the game's
result, a seed reproduces the game, an illegal number forfeits as the arena scores a forfeit, and the mask is
the legal actions.
"""

from __future__ import annotations

import importlib.util
import random
import sys
import warnings
from pathlib import Path
from types import ModuleType

import pytest

pytest.importorskip("gymnasium", reason="needs the 'pettingzoo' extra: pip install -e '.[pettingzoo]'")

import gymnasium
import numpy as np
from gymnasium.utils.env_checker import check_env

from bummerl.arena import ArenaConfig, run_arena
from bummerl.arena.deals import BOT_SEEDS
from bummerl.arena.families import forfeit_points
from bummerl.bots import make_bot
from bummerl.errors import IllegalActionError
from bummerl.game import Game
from bummerl.rl.encoding import ActionSpace, ViewEncoder
from bummerl.rl.episode import seat_rewards
from bummerl.rl.gym import ENV_IDS, REDEAL_SEEDS, BummerlEnv
from bummerl.rng import derive_seed
from bummerl.variants import RESEARCH_VARIANTS, VARIANTS

NAMES = [v.name for v in VARIANTS]
ROOT = Path(__file__).resolve().parent.parent


def _play_out(env: BummerlEnv, rng: random.Random) -> tuple[float, int]:
    """Random legal actions from the mask to the end; the last reward and the number of steps."""
    terminated, steps, reward = False, 0, 0.0
    while not terminated:
        mask = env.action_masks()
        _, r, terminated, truncated, info = env.step(int(rng.choice(np.flatnonzero(mask))))
        assert not truncated and np.array_equal(info["action_mask"].astype(bool), env.action_masks())
        reward, steps = float(r), steps + 1
        if not terminated:
            assert r == 0.0
    return reward, steps


@pytest.mark.parametrize("variant", ["schnapsen", "dreierschnapsen", "bauernschnapsen"])
def test_check_env_passes(variant: str) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no warning from Gymnasium's checker either
        # Made through gymnasium.make, the environment has a spec: check_env then also renders every render mode.
        check_env(gymnasium.make(ENV_IDS[variant], opponent="random", seat="random").unwrapped)
        check_env(gymnasium.make(ENV_IDS[variant], opponent="heuristic", render_mode="ansi").unwrapped)


def test_every_variant_is_registered() -> None:
    assert set(ENV_IDS) == set(NAMES) | {v.name for v in RESEARCH_VARIANTS}
    assert ENV_IDS["mini8"] == "Bummerl/Mini8-v0"  # the research variants too (issue 25)
    assert ENV_IDS["schnapsen"] == "Bummerl/Schnapsen-v0"
    assert ENV_IDS["schnapsen-scharf"] == "Bummerl/SchnapsenScharf-v0"
    for name, env_id in ENV_IDS.items():
        env = gymnasium.make(env_id, opponent="random")
        assert env.unwrapped.variant.name == name
        obs, info = env.reset(seed=1)
        assert obs.shape == (ViewEncoder.of(name).observation_size,)
        assert env.get_wrapper_attr("action_masks")().sum() == info["action_mask"].sum() > 0
        env.close()


@pytest.mark.parametrize("variant", NAMES)
def test_the_other_seats_are_the_named_bot_with_its_seed(variant: str) -> None:
    """Replay the episode's game: every action of another seat is what a fresh bot made with
    ``derive_seed(game_seed, BOT_SEEDS, seat)`` chooses from that seat's view."""
    env = BummerlEnv(variant, opponent="heuristic", seat="random")
    rng = random.Random(variant)
    for seed in range(3):
        _, info = env.reset(seed=seed)
        _play_out(env, rng)
        game = env.game
        assert game is not None and info["seed"] == seed
        replay = Game.from_deck(variant, game.deck, game.dealer)
        bots = {s: make_bot("heuristic", derive_seed(seed, BOT_SEEDS, s), replay.variant) for s in range(game.players)}
        for action in game.actions:
            seat = replay.to_move
            if seat != env.seat:
                assert bots[seat].choose(replay.view(seat)) == action
            replay.apply(action)
        assert replay.result == game.result


@pytest.mark.parametrize("variant", NAMES)
def test_reward_is_the_agents_share_of_the_result(variant: str) -> None:
    env = BummerlEnv(variant, opponent="random", seat="random")
    rng = random.Random(3)
    seats = set()
    for seed in range(12):
        env.reset(seed=seed)
        reward, _ = _play_out(env, rng)
        assert env.game is not None
        assert reward == seat_rewards(env.game.result, env.variant.players, "zero_sum")[env.seat]
        seats.add(env.seat)
    assert len(seats) > 1  # "random" seats the agent in different seats


def test_a_seed_reproduces_the_episode() -> None:
    env = BummerlEnv("bauernschnapsen", opponent="heuristic", seat=1)
    runs = []
    for _ in range(2):
        obs, _ = env.reset(seed=42)
        trace = [obs.tobytes()]
        rng = random.Random(0)
        terminated = False
        while not terminated:
            obs, _, terminated, _, _ = env.step(int(rng.choice(np.flatnonzero(env.action_masks()))))
            trace.append(obs.tobytes())
        assert env.game is not None
        runs.append((trace, list(env.game.actions)))
    assert runs[0] == runs[1]
    env.reset(seed=42)
    assert env.game is not None and env.game.deck == Game.deal("bauernschnapsen", 42, dealer=env.game.dealer).deck


def test_observation_and_mask_come_from_the_agents_view() -> None:
    env = BummerlEnv("sechsundsechzig", opponent="random", seat=1, observation="information_state")
    encoder, space = ViewEncoder.of("sechsundsechzig"), ActionSpace.of("sechsundsechzig")
    obs, info = env.reset(seed=5)
    rng = random.Random(5)
    terminated = False
    while not terminated:
        assert env.game is not None and env.game.to_move == 1
        view = env.game.view(1)
        assert obs.tolist() == pytest.approx(encoder.information_state(view))
        assert info["action_mask"].tolist() == space.mask(view)
        obs, _, terminated, _, info = env.step(int(rng.choice(np.flatnonzero(info["action_mask"]))))
    assert not info["action_mask"].any() and not env.action_masks().any()
    with pytest.raises(RuntimeError, match="call reset"):
        env.step(0)


@pytest.mark.parametrize("variant", ["schnapsen", "schnorps", "dreierschnapsen"])
def test_an_illegal_number_forfeits_or_raises(variant: str) -> None:
    env = BummerlEnv(variant, opponent="random")
    env.reset(seed=1)
    assert env.game is not None
    before = env.game.position()
    illegal = int(np.flatnonzero(~env.action_masks())[0])
    _, reward, terminated, _, info = env.step(illegal)
    assert terminated and reward == -forfeit_points(env.variant) and info["illegal"]
    assert env.game.position() == before and not env.action_masks().any()
    strict = BummerlEnv(variant, opponent="random", illegal="raise")
    strict.reset(seed=1)
    with pytest.raises(IllegalActionError):
        strict.step(illegal)


def test_a_game_over_before_the_agent_decides_is_dealt_again() -> None:
    """At Bauernschnapsen three Unter in a player's first three cards end the game at the cut (a redeal):
    no decision of the agent, so ``reset`` deals the next seed and says so."""
    env = BummerlEnv("bauernschnapsen", opponent="random", seat=1, dealer=0)  # seat 3 cuts
    for seed in range(400):
        _, info = env.reset(seed=seed)
        if info["skipped"]:
            first = Game.deal("bauernschnapsen", seed, dealer=0)
            first.apply(make_bot("random", derive_seed(seed, BOT_SEEDS, 3), first.variant).choose(first.view(3)))
            assert first.is_over and first.result.reason.value == "redeal"
            assert info["seed"] == derive_seed(seed, REDEAL_SEEDS, info["skipped"])
            break
    else:
        pytest.fail("no redeal in 400 deals")
    assert env.game is not None and not env.game.is_over and env.game.to_move == 1


def test_bad_arguments_are_refused_naming_the_choices() -> None:
    with pytest.raises(ValueError, match="seat must be"):
        BummerlEnv("schnapsen", seat=2)
    with pytest.raises(ValueError, match="bots that do: random, heuristic, search"):
        BummerlEnv("dreierschnapsen", opponent="expert")
    with pytest.raises(ValueError, match="reward must be"):
        BummerlEnv("schnapsen", reward="augen")


def test_render_shows_the_agents_table() -> None:
    env = BummerlEnv("dreierschnapsen", opponent="heuristic", seat=2, render_mode="ansi")
    env.reset(seed=8)
    text = env.render()
    assert isinstance(text, str) and text.startswith("Dreierschnapsen, seat 2")
    assert "Actions: " in text


def _script(path: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(f"script_{Path(path).stem}", ROOT / path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def test_worked_example_trains_saves_loads_and_plays_legal_games_in_the_arena(tmp_path: Path) -> None:
    """examples/rl_tabular.py (docs/rl.md): a short training run writes a model, which loads, and the model
    plays whole games through the bot protocol in the arena without a forfeit (every action legal)."""
    example = _script("examples/rl_tabular.py")
    model = tmp_path / "model.json"
    assert example.main(["--train", "1.5", "--model", str(model), "--opponent", "random,heuristic"]) == 0
    table = example.Table.load(model)
    assert table.variant == "schnapsen" and table.q
    assert all(visits >= 1 for _, visits in table.q.values())
    bot = example.TabularBot(table)
    game = Game.deal("schnapsen", 3)
    assert bot.choose(game.view(game.to_move)) in game.legal_actions()
    command = f"cmd:{sys.executable} {ROOT / 'examples' / 'rl_tabular.py'} --play {model}"
    report = run_arena(ArenaConfig("schnapsen", command, "random", deals=3, seed=1, jobs=1))
    assert report["games"] == 6 and report["forfeits"] == []
    assert report["a"]["moves"] > 6


def test_bench_measures_every_interface_beside_the_engine() -> None:
    bench = _script("bench/rl.py")
    rows = bench.measure(["schnapsen"], seconds=0.02, repeat=1)
    by_name = {r.interface: r for r in rows}
    assert set(by_name) == {"engine (Game.apply)", "PettingZoo AEC", "Gymnasium vs random", "OpenSpiel"}
    assert by_name["engine (Game.apply)"].overhead == 1.0
    for name in ("PettingZoo AEC", "Gymnasium vs random"):
        row = by_name[name]
        assert row.steps_per_second > 0 and row.overhead is not None and row.overhead > 0
    # The Gymnasium agent decides only its own seat's actions: fewer steps than game actions.
    gym_row = by_name["Gymnasium vs random"]
    assert gym_row.steps_per_second < gym_row.actions_per_second
    openspiel = by_name["OpenSpiel"]
    assert (openspiel.steps_per_second is None) == bool(openspiel.note)
    assert "openspiel" in bench.table(rows).lower()


def test_bench_adds_the_openspiel_row_from_bench_rl_openspiel(monkeypatch: pytest.MonkeyPatch) -> None:
    """The hook for bench/rl_openspiel.py (written beside bench/rl.py): its rate becomes a row with its overhead;
    a variant it cannot measure is a row that says why, never a number."""
    bench = _script("bench/rl.py")

    def rate(variant: str, seconds: float) -> float:
        if variant != "schnapsen":
            raise ValueError(f"no OpenSpiel game for {variant}")
        return 1234.0

    fake = ModuleType("rl_openspiel")
    fake.openspiel_steps_per_second = rate  # type: ignore[attr-defined]
    load = bench._load
    monkeypatch.setattr(bench, "_load", lambda name: fake if name == "rl_openspiel" else load(name))
    rows = {(r.variant, r.interface): r for r in bench.measure(["schnapsen", "dreierschnapsen"], 0.01, 1)}
    row = rows["schnapsen", "OpenSpiel"]
    assert row.steps_per_second == 1234.0
    assert row.overhead == pytest.approx(rows["schnapsen", "engine (Game.apply)"].actions_per_second / 1234.0)
    assert rows["dreierschnapsen", "OpenSpiel"].steps_per_second is None
    assert "no OpenSpiel game" in rows["dreierschnapsen", "OpenSpiel"].note
