"""A PettingZoo AEC environment for every variant: two, three or four agents, one per seat (``bummerl[pettingzoo]``).

>>> aec = env(variant="schnapsen")
>>> aec.reset(seed=1)
>>> aec.agents, aec.agent_selection
(['player_0', 'player_1'], 'player_0')
>>> obs, reward, terminated, truncated, info = aec.last()
>>> obs["observation"].shape, int(obs["action_mask"].sum()) == len(aec.unwrapped.game.legal_actions())
((220,), True)
>>> for agent in aec.agent_iter():
...     obs, reward, terminated, truncated, info = aec.last()
...     aec.step(None if terminated else int(obs["action_mask"].nonzero()[0][0]))
>>> aec.unwrapped.game.is_over, sum(aec.unwrapped.final_rewards.values())
(True, 0.0)

``env(variant, render_mode=None, **settings)`` returns :class:`raw_env` wrapped in
PettingZoo's ``OrderEnforcingWrapper`` (the usual checks of call order); the
variant's options go in ``**settings`` with the environment's own keywords
(below), e.g. ``env(variant="schnapsen", auto_declare=True)``.

**Agents.** ``"player_0"`` .. ``"player_{n-1}"``, agent ``player_k`` playing seat
``k``; the agent to act is the seat to move (``agent_selection``), whatever the
phase (a table game's cut, trump call, bidding, Kontra, talon and cards are all
decisions of one agent at a time).

**Observations.** A ``Dict`` per agent: ``"observation"`` a ``Box`` of float32,
``ViewEncoder.observation`` of the agent's view (``observation="observation"``,
the default) or ``ViewEncoder.information_state`` (``observation="information_state"``:
the same plus the whole history), docs/rl.md gives the layout; ``"action_mask"``
a ``Box`` of int8 over ``ActionSpace.size`` actions, 1 for each legal action of the
agent to move and all 0 for every other agent.  Both are built from
``game.view(seat)`` only (:mod:`bummerl.rl.encoding`): an agent's observation
never holds a card it cannot know.

**Actions.** ``Discrete(ActionSpace.size)``, numbered as
:class:`~bummerl.rl.encoding.ActionSpace` numbers them (the one numbering of every
RL interface of Bummerl: 0..31 a card, 32..63 a marriage, 64 exchange, 65 close,
66 declare, ...).  ``illegal="raise"`` (the default) raises
:class:`~bummerl.errors.IllegalActionError` naming the rule the engine refuses an
illegal number by, and leaves the game as it was (``ValueError`` for a number no
action of the variant has); ``illegal="lose"`` ends the game as a forfeit
instead (:func:`bummerl.rl.episode.forfeit_rewards`), with the reason in the
offender's ``info["illegal"]``.

**Rewards** are 0 until the game ends; then ``reward="zero_sum"`` (default) or
``"points"`` as :mod:`bummerl.rl.episode` defines them.  An episode is one game;
there is no truncation.  **Seeds and dealer**: ``reset(seed=s)`` deals
``Game.deal(variant, s)``; the dealer follows ``dealer="seed" | "rotate" | seat``;
``reset`` options ``"dealer"`` and ``"deck"`` deal one game explicitly
(:func:`bummerl.rl.episode.deal`).  ``render_mode="ansi"``: :meth:`raw_env.render`
returns the table as the agent to move sees it.
"""

from __future__ import annotations

from typing import Any

from bummerl.errors import IllegalActionError
from bummerl.game import Game
from bummerl.rl.episode import SeedStream, deal, forfeit_rewards, render_view, seat_rewards
from bummerl.rl.settings import OBSERVATION_HIGH, OBSERVATIONS, EnvSettings
from bummerl.variants import Variant

try:
    import numpy as np
    from gymnasium import spaces
    from pettingzoo import AECEnv  # type: ignore[import-untyped]
    from pettingzoo.utils import wrappers  # type: ignore[import-untyped]
except ImportError as exc:  # pragma: no cover - depends on the installation
    message = f"bummerl.rl.pettingzoo needs the 'pettingzoo' extra: pip install 'bummerl[pettingzoo]' ({exc})"
    raise ImportError(message) from exc

__all__ = ["OBSERVATIONS", "OBSERVATION_HIGH", "env", "raw_env"]


def env(variant: str | Variant = "schnapsen", render_mode: str | None = None, **settings: Any) -> Any:
    """The AEC environment of ``variant`` (:class:`raw_env` with PettingZoo's order checks)."""
    return wrappers.OrderEnforcingWrapper(raw_env(variant, render_mode, **settings))


class raw_env(AECEnv):  # type: ignore[misc]  # PettingZoo's name for the unwrapped class; AECEnv is untyped
    """One game of ``variant`` per episode, every seat an agent (see the module docstring).

    Keywords: ``observation`` (``"observation"`` or ``"information_state"``),
    ``dealer`` (``"seed"``, ``"rotate"`` or a seat), ``reward`` (``"zero_sum"`` or
    ``"points"``), ``illegal`` (``"raise"`` or ``"lose"``); any other keyword is an
    option of the variant (``bummerl.variants.find_variant(variant, **options)``).
    """

    metadata = {"render_modes": ["ansi"], "name": "bummerl_v0", "is_parallelizable": False}  # noqa: RUF012 - AECEnv's

    def __init__(
        self,
        variant: str | Variant = "schnapsen",
        render_mode: str | None = None,
        *,
        observation: str = "observation",
        dealer: int | str = "seed",
        reward: str = "zero_sum",
        illegal: str = "raise",
        **options: Any,
    ) -> None:
        super().__init__()
        #: The settings as given, checked (shared with the Gymnasium environment).
        self.settings = EnvSettings.read(
            variant, render_mode, observation=observation, dealer=dealer, reward=reward, illegal=illegal, **options
        )
        self.variant: Variant = self.settings.variant
        self.render_mode = render_mode
        self.metadata = {**self.metadata, "name": f"bummerl_{self.variant.name.replace('-', '_')}_v0"}
        self.space = self.settings.space
        self.encoder = self.settings.encoder
        self._encode = self.settings.encode
        size = self.settings.size
        self.possible_agents = [f"player_{seat}" for seat in range(self.variant.players)]
        self._seat = {agent: seat for seat, agent in enumerate(self.possible_agents)}
        self.observation_spaces = {
            agent: spaces.Dict(
                {
                    "observation": spaces.Box(0.0, OBSERVATION_HIGH, (size,), np.float32),
                    "action_mask": spaces.Box(0, 1, (self.space.size,), np.int8),
                }
            )
            for agent in self.possible_agents
        }
        self.action_spaces = {agent: spaces.Discrete(self.space.size) for agent in self.possible_agents}
        self._seeds = SeedStream()
        #: The game of the current episode (``None`` before the first reset).
        self.game: Game | None = None
        #: Each agent's reward for the finished game (empty while it is played).
        self.final_rewards: dict[str, float] = {}

    # -------------------------------------------------------------- spaces
    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    # -------------------------------------------------------------- episode
    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        game_seed = self._seeds.next(seed)
        self.game = deal(self.variant, game_seed, self.settings.dealer, self._seeds.games_since_seed, options)
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self.final_rewards = {}
        self.agent_selection = self.possible_agents[self.game.to_move]

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        game = self._game()
        view = game.view(self._seat[agent])
        mask = np.zeros(self.space.size, np.int8)
        for action in view.legal:
            mask[self.space.index(action)] = 1
        return {"observation": np.asarray(self._encode(view), np.float32), "action_mask": mask}

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        game = self._game()
        seat = self._seat[agent]
        chosen = self.space.action(int(action))  # ValueError for a number no action of the variant has
        self._cumulative_rewards[agent] = 0.0
        self._clear_rewards()
        refusal = game.refusal(chosen)
        if refusal is not None:
            rule, reason = refusal
            if self.settings.illegal == "raise":
                raise IllegalActionError(rule, f"{agent} (seat {seat}) chose {int(action)} ({chosen.token}): {reason}")
            self.infos[agent] = {"illegal": f"{rule.title}: {reason}"}
            self._finish(forfeit_rewards(self.variant, seat, self.settings.reward))
        else:
            game.apply(chosen)
            if game.is_over:
                self._finish(seat_rewards(game.result, self.variant.players, self.settings.reward))
            else:
                self.agent_selection = self.possible_agents[game.to_move]
        self._accumulate_rewards()

    def render(self) -> str | None:
        """The table as the agent to move (after the end: the last to move) sees it; ``None`` without ``"ansi"``."""
        if self.render_mode is None:
            return None
        game = self._game()
        return render_view(game.view(game.to_move))

    def close(self) -> None:
        """Nothing to release: the environment holds no window, process or file."""

    # -------------------------------------------------------------- internals
    def _game(self) -> Game:
        if self.game is None:
            raise RuntimeError("call reset() before using the environment")
        return self.game

    def _finish(self, rewards: tuple[float, ...]) -> None:
        for agent, value in zip(self.possible_agents, rewards, strict=True):
            self.rewards[agent] = value
            self.final_rewards[agent] = value
        self.terminations = dict.fromkeys(self.agents, True)
