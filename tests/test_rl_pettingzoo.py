"""The PettingZoo AEC environment (:mod:`bummerl.rl.pettingzoo`, issue 14).

Issue 14: "an AEC environment for 2/3/4 players with ``action_mask`` in the observation and one documented
action numbering; ``pettingzoo.test.api_test`` passes for every variant."  Beyond PettingZoo's own tests these
check what the API test cannot know: that each observation is the encoding of the agent's own view and of
nothing else (two deals that differ only in cards an agent cannot see give it the same observation), that the
rewards are the game's points as the arena credits them, and that a seed deals what ``Game.deal`` deals.
"""

from __future__ import annotations

import random
import warnings
from collections.abc import Iterator
from typing import Any

import pytest

pytest.importorskip("pettingzoo", reason="needs the 'pettingzoo' extra: pip install -e '.[pettingzoo]'")

import numpy as np
from pettingzoo.test import api_test, seed_test

from bummerl.arena.families import forfeit_points
from bummerl.errors import IllegalActionError
from bummerl.game import Game
from bummerl.rl.encoding import ActionSpace, ViewEncoder
from bummerl.rl.pettingzoo import env, raw_env
from bummerl.variants import VARIANTS

NAMES = [v.name for v in VARIANTS]


def _random_episode(aec: Any, rng: random.Random) -> Iterator[tuple[str, dict[str, Any]]]:
    """Play one episode with random legal actions; yield each acting agent and its observation."""
    for agent in aec.agent_iter():
        obs, _, terminated, truncated, _ = aec.last()
        if terminated or truncated:
            aec.step(None)
            continue
        yield agent, obs
        aec.step(rng.choice(list(np.flatnonzero(obs["action_mask"]))))


@pytest.mark.parametrize("variant", NAMES)
def test_api_test_passes(variant: str) -> None:
    with warnings.catch_warnings():
        # Its two warnings about Dict observations: PettingZoo lists its own classic games as exceptions by name.
        warnings.simplefilter("ignore")
        api_test(env(variant=variant), num_cycles=100, verbose_progress=False)
        api_test(env(variant=variant, observation="information_state", illegal="lose"), num_cycles=100)


@pytest.mark.parametrize("variant", NAMES)
def test_seed_test_passes(variant: str) -> None:
    seed_test(lambda: env(variant=variant), num_cycles=100)


@pytest.mark.parametrize("variant", NAMES)
@pytest.mark.parametrize("observation", ["observation", "information_state"])
def test_observation_is_the_encoded_view_of_the_agent(variant: str, observation: str) -> None:
    """Every agent's observation is the encoder's tensor of its own view; only the agent to move has a mask."""
    aec = env(variant=variant, observation=observation)
    raw = aec.unwrapped
    encoder = ViewEncoder.of(raw.variant)
    encode = encoder.observation if observation == "observation" else encoder.information_state
    space = ActionSpace.of(raw.variant)
    rng = random.Random(variant)
    for seed in range(4):
        aec.reset(seed=seed)
        for agent, obs in _random_episode(aec, rng):
            game = raw.game
            assert agent == f"player_{game.to_move}"
            for other in raw.possible_agents:
                seat = int(other.split("_")[1])
                seen = aec.observe(other)
                assert seen["observation"].dtype == np.float32 and seen["action_mask"].dtype == np.int8
                assert seen["observation"].tolist() == pytest.approx(encode(game.view(seat)))
                expected = space.mask(game.view(seat)) if other == agent else [0] * space.size
                assert seen["action_mask"].tolist() == expected
            assert obs["action_mask"].sum() == len(game.legal_actions()) > 0


def _hidden_swap(variant: str, seed: int, seat: int) -> tuple[Game, Game]:
    """Two deals of one pack that differ by two cards ``seat`` cannot see (another hand, the talon)."""
    game = Game.deal(variant, seed)
    dealt = game.copy()
    while not any(dealt.hands):  # a table game deals after the cut
        dealt.apply(dealt.legal_actions()[0])
    mine = set(dealt.hands[seat])
    unseen = dealt.view(seat).unseen()
    hidden = [c for c in game.deck if c not in mine and c in unseen]
    # One hidden card from another seat's hand and one from elsewhere (the talon, or a third hand).
    holder = next(s for s in range(game.players) if s != seat and any(c in hidden for c in dealt.hands[s]))
    first = next(c for c in dealt.hands[holder] if c in hidden)
    second = next(c for c in reversed(hidden) if c not in dealt.hands[holder])
    deck = list(game.deck)
    i, j = deck.index(first), deck.index(second)
    deck[i], deck[j] = deck[j], deck[i]
    other = Game.from_deck(variant, deck, game.dealer)
    assert other.deck != game.deck
    return game, other


@pytest.mark.parametrize("variant", NAMES)
def test_cards_an_agent_cannot_see_do_not_change_its_observation(variant: str) -> None:
    """The brief: two games that differ only in hidden cards give the same observation to the player who cannot
    see them; here for every seat, along a game played the same way in both as long as the seat sees no
    difference (the views of the agent are equal, so its observation must be; the full states are not)."""
    for seed in range(3):
        for seat in range(Game.deal(variant, seed).players):
            game_a, game_b = _hidden_swap(variant, seed, seat)
            envs = []
            for game in (game_a, game_b):
                aec = env(variant=variant, observation="information_state")
                aec.reset(options={"deck": list(game.deck), "dealer": game.dealer})
                envs.append(aec)
            agent = f"player_{seat}"
            swapped = set(game_a.deck) - {c for c, d in zip(game_a.deck, game_b.deck, strict=True) if c == d}
            rng = random.Random(seed)
            for _ in range(60):
                a, b = envs[0].unwrapped.game, envs[1].unwrapped.game
                if a.is_over or b.is_over or not swapped <= a.view(seat).unseen():
                    break
                obs_a, obs_b = envs[0].observe(agent), envs[1].observe(agent)
                assert np.array_equal(obs_a["observation"], obs_b["observation"])
                assert np.array_equal(obs_a["action_mask"], obs_b["action_mask"])
                common = [x for x in a.legal_actions() if b.can_apply(x)]
                if not common:
                    break
                index = ActionSpace.of(variant).index(rng.choice(common))
                envs[0].step(index)
                envs[1].step(index)


@pytest.mark.parametrize("variant", NAMES)
def test_rewards_are_the_results_points_and_sum_to_zero(variant: str) -> None:
    aec = env(variant=variant)
    raw = aec.unwrapped
    rng = random.Random(1)
    for seed in range(6):
        aec.reset(seed=seed)
        returns = dict.fromkeys(raw.possible_agents, 0.0)
        for agent in aec.agent_iter():
            obs, reward, terminated, _, _ = aec.last()
            returns[agent] += reward  # the cumulative reward since the agent's last turn
            aec.step(None if terminated else int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        result = raw.game.result
        n = raw.variant.players
        assert returns == raw.final_rewards
        assert sum(returns.values()) == pytest.approx(0.0)
        points = [result.points_of(s) for s in range(n)]
        got = [returns[f"player_{s}"] for s in range(n)]
        if n == 2:
            assert got == [points[0] - points[1], points[1] - points[0]]
        elif n == 4:  # partners opposite: a team's reward is its points minus the other team's
            assert got[0] == got[2] == points[0] - points[1] and got[1] == got[3] == -got[0]
        else:  # Dreierschnapsen: my points minus the mean of the other two seats'
            assert got == [points[s] - (sum(points) - points[s]) / 2 for s in range(3)]


def test_points_reward_gives_each_seat_its_credited_points() -> None:
    aec = env(variant="bauernschnapsen", reward="points")
    aec.reset(seed=5)
    for _ in _random_episode(aec, random.Random(0)):
        pass
    result = aec.unwrapped.game.result
    assert aec.unwrapped.final_rewards == {f"player_{s}": float(result.points_of(s)) for s in range(4)}


def test_an_illegal_action_raises_naming_the_rule_and_changes_nothing() -> None:
    aec = env(variant="schnapsen")
    aec.reset(seed=2)
    game = aec.unwrapped.game
    before = game.position()
    obs, *_ = aec.last()
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    with pytest.raises(IllegalActionError, match=r"illegal action \(.+\): player_\d .*chose"):
        aec.step(illegal)
    with pytest.raises(ValueError, match="no action of Schnapsen"):
        aec.step(47)  # a marriage led with a card that has no marriage
    assert game.position() == before and aec.agent_selection == f"player_{game.to_move}"


@pytest.mark.parametrize("variant", ["schnapsen", "dreierschnapsen", "bauernschnapsen"])
def test_illegal_lose_forfeits_as_the_arena_does(variant: str) -> None:
    aec = env(variant=variant, illegal="lose")
    aec.reset(seed=4)
    agent = aec.agent_selection
    obs, *_ = aec.last()
    aec.step(int(np.flatnonzero(obs["action_mask"] == 0)[0]))
    assert all(aec.terminations.values())
    assert "illegal" in aec.infos[agent]
    rewards = aec.unwrapped.final_rewards
    assert rewards[agent] == -forfeit_points(aec.unwrapped.variant)
    assert sum(rewards.values()) == pytest.approx(0.0)


@pytest.mark.parametrize("variant", NAMES)
def test_a_seed_deals_what_game_deal_deals(variant: str) -> None:
    aec = env(variant=variant)
    first = []
    for seed in (0, 1, 99):
        aec.reset(seed=seed)
        game = aec.unwrapped.game
        assert game.deck == Game.deal(variant, seed, dealer=game.dealer).deck
        first.append(game.deck)
    # Unseeded resets continue a stream restarted by every seeded reset: reproducible as a whole.
    runs = []
    for _ in range(2):
        aec.reset(seed=7)
        runs.append([aec.unwrapped.game.deck] + [aec.reset() or aec.unwrapped.game.deck for _ in range(3)])
    assert runs[0] == runs[1] and len(set(runs[0])) == 4


def test_dealer_rules() -> None:
    """``seed``: the dealer drawn from the seed (every seat deals); ``rotate``: the next seat each game; a seat:
    always that seat; ``reset`` options deal one game explicitly."""
    dealers = set()
    aec = env(variant="dreierschnapsen")
    for seed in range(30):
        aec.reset(seed=seed)
        dealers.add(aec.unwrapped.game.dealer)
    assert dealers == {0, 1, 2}
    rotating = env(variant="bauernschnapsen", dealer="rotate")
    rotating.reset(seed=3)
    order = [rotating.unwrapped.game.dealer] + [rotating.reset() or rotating.unwrapped.game.dealer for _ in range(4)]
    assert [(d - order[0]) % 4 for d in order] == [0, 1, 2, 3, 0]
    fixed = env(variant="schnapsen", dealer=0)
    for seed in range(3):
        fixed.reset(seed=seed)
        assert fixed.unwrapped.game.dealer == 0
        assert fixed.agent_selection == "player_1"  # the non-dealer leads
    deck = Game.deal("schnapsen", 11).deck
    fixed.reset(options={"deck": [c.code for c in deck], "dealer": 1})
    assert fixed.unwrapped.game.deck == deck and fixed.unwrapped.game.dealer == 1
    with pytest.raises(ValueError, match="dealer must be"):
        raw_env("schnapsen", dealer=2)


def test_numpy_actions_and_variant_options_are_accepted() -> None:
    aec = env(variant="schnapsen", auto_declare=True)
    assert aec.unwrapped.variant.auto_declare is True
    aec.reset(seed=0)
    obs, *_ = aec.last()
    aec.step(np.int64(np.flatnonzero(obs["action_mask"])[0]))
    assert len(aec.unwrapped.game.actions) == 1


def test_render_ansi_shows_the_table_of_the_agent_to_move() -> None:
    aec = env(variant="schnapsen", render_mode="ansi")
    aec.reset(seed=4)
    game = aec.unwrapped.game
    text = aec.render()
    assert isinstance(text, str) and f"seat {game.to_move} to move" in text
    space = ActionSpace.of("schnapsen")
    assert all(f"{space.index(a)}={a.token}" in text for a in game.legal_actions())
    # Only the mover's own hand is shown: no card of the other hand that the mover cannot know.
    other = game.hands[1 - game.to_move]
    assert not any(c.name("french", "en") in text.split("Hand: ")[1] for c in other)
    table = env(variant="bauernschnapsen", render_mode="ansi")
    table.reset(seed=1)
    assert "Actions: " in table.render()
    quiet = env(variant="schnapsen")
    quiet.reset(seed=0)
    assert quiet.render() is None
