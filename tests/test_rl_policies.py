"""Bots as policies (issue 25, item 4): Bummerl's bots as OpenSpiel policies and ``pyspiel.Bot`` objects, the
public observation, the Gymnasium opponent (a name, a bot, a callable, an agent, a saved agent),
Stable-Baselines3's ``make_vec_env`` call path, and OpenSpiel's C++ ``MCTSBot`` on a Python game."""

from __future__ import annotations

import os
import pickle
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")
gymnasium = pytest.importorskip("gymnasium")

from open_spiel.python.algorithms import mcts  # noqa: E402
from open_spiel.python.observation import make_observation  # noqa: E402

from bummerl.actions import Action  # noqa: E402
from bummerl.bots import bot_names, make_bot  # noqa: E402
from bummerl.errors import IllegalActionError  # noqa: E402
from bummerl.rl.gym import ENV_IDS, BummerlEnv  # noqa: E402
from bummerl.rl.openspiel import BummerlState, load  # noqa: E402
from bummerl.rl.openspiel_policies import BotPolicy, BummerlBot  # noqa: E402
from bummerl.rl.settings import RenderModeError  # noqa: E402
from bummerl.rng import SplitMix64  # noqa: E402
from bummerl.view import View  # noqa: E402


def decisions(variant: str, seed: int, count: int) -> list[BummerlState]:
    """The first ``count`` decision nodes of a random game of ``variant``."""
    rng = SplitMix64(seed)
    state = load(variant).new_initial_state()
    found = []
    while not state.is_terminal() and len(found) < count:
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply_action(outcomes[rng.below(len(outcomes))][0])
            continue
        found.append(state.clone())
        legal = state.legal_actions()
        state.apply_action(legal[rng.below(len(legal))])
    return found


# ------------------------------------------------------------------ OpenSpiel policies and bots
@pytest.mark.parametrize("bot", bot_names(load("mini8").variant))
def test_every_bot_is_a_policy_over_the_legal_actions(bot: str) -> None:
    game = load("mini8")
    policy = BotPolicy(game, bot)
    for state in decisions("mini8", 3, 4):
        probs = policy.action_probabilities(state)
        assert sorted(probs) == state.legal_actions()
        assert sum(probs.values()) == pytest.approx(1.0)
        if bot == "random":
            assert set(probs.values()) == {1 / len(probs)}
        else:  # one-hot, and the same answer again at the same information state
            assert sorted(probs.values())[-1] == 1.0 and sum(1 for p in probs.values() if p) == 1
            assert policy.action_probabilities(state.clone()) == probs


def test_a_policy_answers_per_information_state_not_per_history() -> None:
    # Two histories the player cannot tell apart (resampled: the opponent's cards differ) get one answer.
    game = load("mini10")
    policy = BotPolicy(game, "hard")
    for state in decisions("mini10", 5, 3):
        player = state.current_player()
        other = state.resample_from_infostate(player, pyspiel.UniformProbabilitySampler(1, 0.0, 1.0))
        assert other.information_state_string(player) == state.information_state_string(player)
        assert policy.action_probabilities(other, player) == policy.action_probabilities(state, player)


@pytest.mark.parametrize("variant", ["mini8", "schnapsen", "bauernschnapsen"])
def test_bummerl_bots_play_whole_games_as_pyspiel_bots(variant: str) -> None:
    game = load(variant)
    players = game.num_players()
    bots = [BummerlBot(game, "heuristic" if seat % 2 else "random", seat, seed=seat) for seat in range(players)]
    returns = pyspiel.evaluate_bots(game.new_initial_state(), bots, 7)
    assert len(returns) == players and sum(returns) == 0
    assert bots[0].provides_policy()
    state = decisions(variant, 1, 1)[0]
    policy, action = BummerlBot(game, "heuristic", state.current_player()).step_with_policy(state)
    assert action in state.legal_actions() and dict(policy)[action] == 1.0


# ------------------------------------------------------------------ the public observation
@pytest.mark.parametrize("variant", ["mini8", "schnapsen", "sechsundsechzig"])
def test_the_public_observation_holds_no_private_card(variant: str) -> None:
    game = load(variant)
    public = make_observation(
        game, pyspiel.IIGObservationType(perfect_recall=True, private_info=pyspiel.PrivateInfoType.NONE)
    )
    other_public = make_observation(
        game, pyspiel.IIGObservationType(perfect_recall=True, private_info=pyspiel.PrivateInfoType.NONE)
    )
    sampler = pyspiel.UniformProbabilitySampler(7, 0.0, 1.0)
    for state in decisions(variant, 11, 12):
        for player in range(2):
            # Another history that seat cannot tell from this one: the other seat's cards dealt anew.  Had the
            # public observation shown a card of a hand, it would differ between the two.
            other = state.resample_from_infostate(player, sampler)
            assert public.string_from(state, 0) == other_public.string_from(other, 1)
            public.set_from(state, 0)
            other_public.set_from(other, 1)
            np.testing.assert_array_equal(public.tensor, other_public.tensor)
        text = public.string_from(state, 0)
        assert '"mine"' not in text
        held = {c.code for hand in state.game.hands for c in hand}  # type: ignore[union-attr]
        named = {c for c in held if f'"{c}"' in text}
        # A held card is public only once shown: the trump card taken by the exchange, a marriage's partner.
        shown = {e for e in text.split("|") if '"exchange"' in e or '"marriage"' in e or "face_up" in e}
        assert all(any(f'"{c}"' in e for e in shown) for c in named)


# ------------------------------------------------------------------ the Gymnasium opponent
class FirstLegal:
    """An agent with Stable-Baselines3's predict (and sb3-contrib's action_masks): the first legal action."""

    def predict(
        self,
        observation: np.ndarray,
        state: Any = None,
        episode_start: Any = None,
        deterministic: bool = False,
        action_masks: np.ndarray | None = None,
    ) -> tuple[np.ndarray, None]:
        assert observation.dtype == np.float32 and action_masks is not None
        return np.array([int(np.flatnonzero(action_masks)[0])]), None


class Unmasked:
    """An agent whose predict takes no mask: it always answers action 0 (an Ace of hearts, rarely legal)."""

    def predict(self, observation: np.ndarray, deterministic: bool = False) -> tuple[np.ndarray, None]:
        return np.array([0]), None


def play_out(env: BummerlEnv, seed: int) -> float:
    env.reset(seed=seed)
    reward: float = 0.0
    done = False
    while not done:
        legal = np.flatnonzero(env.action_masks())
        _, r, done, _, _ = env.step(int(legal[-1]))
        reward += float(r)
    return reward


def test_the_opponent_may_be_a_bot_a_callable_or_an_agent() -> None:
    seen: list[View] = []

    def lowest(view: View) -> Action:
        seen.append(view)
        return view.legal[0]

    for opponent in (make_bot("heuristic", 1), lowest, FirstLegal()):
        env = BummerlEnv("mini8", opponent=opponent)
        assert env.opponent in ("heuristic", "lowest", "FirstLegal")
        for seed in range(3):
            assert play_out(env, seed) in (-3, -2, -1, 0, 1, 2, 3)
    assert seen and all(view.player == 1 for view in seen)  # the callable sees its own seat's view only


def test_a_saved_agent_is_loaded_by_the_hook_it_is_given(tmp_path: Path) -> None:
    path = tmp_path / "agent.pkl"
    path.write_bytes(pickle.dumps(FirstLegal()))
    loaded: list[os.PathLike[str]] = []

    def load_agent(where: os.PathLike[str]) -> Any:
        loaded.append(where)
        return pickle.loads(Path(where).read_bytes())

    env = BummerlEnv("schnapsen", opponent=path, load_agent=load_agent, seat=1)
    assert loaded == [path] and env.opponent == "FirstLegal"
    play_out(env, 4)
    with pytest.raises(ValueError, match="load_agent"):
        BummerlEnv("schnapsen", opponent=path)
    with pytest.raises(ValueError, match="opponent must be"):
        BummerlEnv("schnapsen", opponent=42)


def test_an_opponent_that_answers_an_illegal_action_is_named() -> None:
    env = BummerlEnv("schnapsen", opponent=Unmasked(), seat=1)
    with pytest.raises(IllegalActionError, match="seat 0: Unmasked chose"):
        for seed in range(50):  # a deal where the Ace of hearts is not in seat 0's hand
            env.reset(seed=seed)


# ------------------------------------------------------------------ Stable-Baselines3's make_vec_env
def sb3_make_env(env_id: str, env_kwargs: dict[str, Any], seed: int, rank: int) -> Any:
    """Stable-Baselines3 2.x ``make_vec_env``'s ``_init`` for an id (stable_baselines3/common/env_util.py):
    ``render_mode="rgb_array"`` unless given, made again without it on ``TypeError``, the action space
    seeded.  SB3 needs PyTorch, too large for the test extras: this is its call path, written out."""
    kwargs = {"render_mode": "rgb_array"}
    kwargs.update(env_kwargs)
    try:
        env = gymnasium.make(env_id, **kwargs)
    except TypeError:
        env = gymnasium.make(env_id, **env_kwargs)
    env.action_space.seed(seed + rank)
    return env


@pytest.mark.filterwarnings("ignore:.*render_mode:UserWarning")
def test_sb3_make_vec_env_call_path_works_as_is() -> None:
    envs = [sb3_make_env(ENV_IDS["schnapsen"], {}, seed=1, rank=rank) for rank in range(2)]
    assert [env.render_mode for env in envs] == [None, None]  # SB3's VecEnv reads it; all must agree
    # DummyVecEnv's reset(seed=seed + rank) and step with auto-reset on the end of an episode.
    observations = [env.reset(seed=1 + rank)[0] for rank, env in enumerate(envs)]
    assert all(o.shape == envs[0].observation_space.shape for o in observations)
    for _ in range(40):
        for env in envs:
            mask = env.unwrapped.action_masks()
            _, _, terminated, truncated, _ = env.step(int(np.flatnonzero(mask)[0]))
            if terminated or truncated:
                env.reset()
    with pytest.raises(RenderModeError) as raised:
        BummerlEnv("schnapsen", render_mode="rgb_array")
    assert isinstance(raised.value, TypeError) and isinstance(raised.value, ValueError)


# ------------------------------------------------------------------ OpenSpiel's MCTS
def test_cpp_mcts_bot_crashes_on_python_games_and_python_mcts_runs() -> None:
    """OpenSpiel 2.0's C++ ``pyspiel.MCTSBot`` dies with a segmentation fault at its first ``step`` on a game
    written in Python: on ours, and on OpenSpiel's own ``python_tic_tac_toe`` alike (docs/rl_openspiel.md).  Run
    in a subprocess so the crash does not take the test runner; if OpenSpiel fixes it, this test says so."""
    script = textwrap.dedent(
        """
        import sys, pyspiel
        import bummerl.rl.openspiel
        from open_spiel.python.games import tic_tac_toe
        game = pyspiel.load_game(sys.argv[1])
        state = game.new_initial_state()
        while state.is_chance_node():
            state.apply_action(state.chance_outcomes()[0][0])
        bot = pyspiel.MCTSBot(game, pyspiel.RandomRolloutEvaluator(1, 0), 2.0, 20, 1000, False, 0, False)
        print("made", flush=True)
        print("stepped", bot.step(state), flush=True)
        """
    )
    for name in ("python_bummerl(variant=mini8)", "python_tic_tac_toe"):
        done = subprocess.run([sys.executable, "-c", script, name], capture_output=True, text=True, timeout=120)
        assert done.stdout.startswith("made") and "stepped" not in done.stdout, done.stdout + done.stderr
        assert done.returncode == -11, done.stderr  # SIGSEGV
    # The Python MCTS of OpenSpiel searches the same game.
    state = decisions("mini8", 2, 1)[0]
    rs = np.random.RandomState(0)
    bot = mcts.MCTSBot(load("mini8"), 2.0, 30, mcts.RandomRolloutEvaluator(1, rs), random_state=rs)
    assert bot.step(state) in state.legal_actions()
