"""A Gymnasium environment: one seat an agent, every other seat a Bummerl bot (``bummerl[pettingzoo]``).

>>> env = BummerlEnv("schnapsen", opponent="heuristic", seat=0)
>>> obs, info = env.reset(seed=3)
>>> obs.shape, obs.dtype, int(info["action_mask"].sum()) == int(env.action_masks().sum()) > 0
((220,), dtype('float32'), True)
>>> terminated = False
>>> while not terminated:
...     legal = env.action_masks().nonzero()[0]
...     obs, reward, terminated, truncated, info = env.step(int(legal[0]))
>>> reward == env.game.result.points_of(0) - env.game.result.points_of(1)
True

Importing this module registers one id per variant with ``gymnasium.register``
(:data:`ENV_IDS`: ``"Bummerl/Schnapsen-v0"``, ``"Bummerl/SchnapsenScharf-v0"``,
``"Bummerl/Sechsundsechzig-v0"``, ``"Bummerl/Schnorps-v0"``,
``"Bummerl/Dreierschnapsen-v0"``, ``"Bummerl/Bauernschnapsen-v0"``), so
``gymnasium.make("Bummerl/Schnapsen-v0", opponent="random")`` works after
``import bummerl.rl.gym``.  Through ``gymnasium.make``'s wrappers the mask is
``env.get_wrapper_attr("action_masks")()`` (what sb3-contrib's ``MaskablePPO``
calls) or ``env.unwrapped.action_masks()``.

:class:`BummerlEnv` arguments:

* ``variant`` (a name or a variant) and its options as further keywords
  (``BummerlEnv("schnapsen", auto_declare=True)``);
* ``opponent``: what plays every other seat, partners included:

  - the name of a registered bot (:func:`bummerl.bots.bot_names`); each is made
    per game with the seed ``derive_seed(game_seed, BOT_SEEDS, seat)``, so a
    seeded reset plays the same game for the same actions; programs (``cmd:``)
    are not accepted here;
  - a bot object (anything with ``choose(view) -> Action``), used for every game;
  - a callable ``f(view) -> Action`` (or an action number);
  - a **trained agent**: any object with Stable-Baselines3's
    ``predict(observation, deterministic=True)`` (sb3-contrib's ``MaskablePPO``
    also gets ``action_masks=``), shown the opponent seat's view encoded as the
    agent's own observations are;
  - a **saved agent**: a path (``str`` is a bot's name, so an ``os.PathLike``),
    read by ``load_agent`` (required then, e.g. ``MaskablePPO.load``) into such
    an agent.

  An action a callable or an agent gives that is not legal raises
  :class:`~bummerl.errors.IllegalActionError` (naming the seat and the rule);
* ``seat``: the agent's seat, or ``"random"``: drawn per game from its seed
  (``derive_seed(game_seed, SEAT_SEEDS) % players``), so the agent learns every seat;
* ``observation``, ``dealer``, ``reward`` as in :mod:`bummerl.rl.pettingzoo`
  (the agent's view encoded; 0 until the end, then the agent's seat's reward);
* ``illegal``: ``"lose"`` (the default, so that unmasked algorithms and
  Gymnasium's ``check_env`` can step with any number) ends the game as a
  forfeit with the arena's forfeit points (``info["illegal"]`` names the
  rule); ``"raise"`` raises :class:`~bummerl.errors.IllegalActionError`.

The observation is a ``Box`` of float32 (``ViewEncoder`` of the agent's view),
the action ``Discrete(ActionSpace.size)``; ``info`` holds ``action_mask`` (int8),
``seat`` and ``seed`` (the game's).  A game that ends before the agent has
decided anything (an opponent's declaration at the first lead, a redeal at a
table game) is not an episode: ``reset`` deals again from the next seed
``derive_seed(seed, REDEAL_SEEDS, k)`` and counts it in ``info["skipped"]``.
"""

from __future__ import annotations

import inspect
import os
from collections.abc import Callable
from typing import Any, SupportsFloat

from bummerl.actions import Action
from bummerl.arena.deals import BOT_SEEDS
from bummerl.bots import Bot, BotInfo, bot_info
from bummerl.errors import IllegalActionError
from bummerl.game import Game
from bummerl.rl.episode import SEAT_SEEDS, deal, forfeit_rewards, render_view, seat_rewards
from bummerl.rl.settings import OBSERVATION_HIGH, EnvSettings
from bummerl.rng import derive_seed
from bummerl.variants import RESEARCH_VARIANTS, VARIANTS, Variant
from bummerl.view import View

try:
    import gymnasium
    import numpy as np
    from gymnasium import spaces
except ImportError as exc:  # pragma: no cover - depends on the installation
    message = f"bummerl.rl.gym needs the 'pettingzoo' extra: pip install 'bummerl[pettingzoo]' ({exc})"
    raise ImportError(message) from exc

__all__ = ["ENV_IDS", "OBSERVATION_HIGH", "REDEAL_SEEDS", "BummerlEnv"]

#: Path element of :func:`~bummerl.rng.derive_seed` ("REDL") for the seeds dealt after a game without a decision.
REDEAL_SEEDS = 0x5245444C
#: A game that ends before the agent's first decision is dealt again; past this many in a row something is wrong.
_MAX_REDEALS = 1000
#: The Gymnasium id of each variant: ``Bummerl/`` and the name in CamelCase, version 0 (the research variants
#: too: ``"Bummerl/Mini8-v0"``).
ENV_IDS: dict[str, str] = {
    v.name: "Bummerl/" + "".join(part.capitalize() for part in v.name.split("-")) + "-v0"
    for v in (*VARIANTS, *RESEARCH_VARIANTS)
}


class BummerlEnv(gymnasium.Env[np.ndarray, np.int64]):
    """One game per episode, the agent in one seat, bots in the others (see the module docstring)."""

    # render_fps: Gymnasium's checker asks every renderer for one; text is shown once per step.
    metadata = {"render_modes": ["ansi"], "render_fps": 1}  # noqa: RUF012 - gymnasium.Env's own attribute

    def __init__(
        self,
        variant: str | Variant = "schnapsen",
        opponent: Any = "heuristic",
        seat: int | str = 0,
        render_mode: str | None = None,
        *,
        observation: str = "observation",
        dealer: int | str = "seed",
        reward: str = "zero_sum",
        illegal: str = "lose",
        load_agent: Callable[[os.PathLike[str]], Any] | None = None,
        **options: Any,
    ) -> None:
        #: The settings as given, checked (shared with the PettingZoo environment).
        self.settings = EnvSettings.read(
            variant, render_mode, observation=observation, dealer=dealer, reward=reward, illegal=illegal, **options
        )
        self.variant: Variant = self.settings.variant
        players = self.variant.players
        if not (seat == "random" or (isinstance(seat, int) and not isinstance(seat, bool) and 0 <= seat < players)):
            raise ValueError(f"seat must be 'random' or a seat 0..{players - 1}, not {seat!r}")
        self.render_mode = render_mode
        self.space = self.settings.space
        self._encode = self.settings.encode
        self._bot_maker: BotInfo | None = None
        self._opponent: Bot | None = None
        if isinstance(opponent, str):
            self._bot_maker = bot_info(opponent, self.variant)  # UnknownBotError naming the bots that play it
        else:
            self._opponent = self._as_bot(opponent, load_agent)
        #: The opponent's name: the registered bot's, or the name (else the class name) of the object given.
        self.opponent: str = self._bot_maker.name if self._bot_maker is not None else self._opponent.name  # type: ignore[union-attr]
        self.observation_space = spaces.Box(0.0, OBSERVATION_HIGH, (self.settings.size,), np.float32)
        self.action_space = spaces.Discrete(self.space.size)
        self._seat_rule = seat
        self._games = 0
        #: The game of the current episode (``None`` before the first reset).
        self.game: Game | None = None
        #: The agent's seat in the current game.
        self.seat = seat if isinstance(seat, int) else 0
        self._seed = 0
        self._bots: dict[int, Bot] = {}
        #: The episode ended: the game is over, or the agent forfeited it.
        self._done = False

    # ------------------------------------------------------------------ the API
    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        super().reset(seed=seed)
        if seed is not None:
            self._games = 0
            first = seed
        else:
            self._games += 1
            first = int(self.np_random.integers(0, 2**63))
        for skipped in range(_MAX_REDEALS):
            game_seed = first if skipped == 0 else derive_seed(first, REDEAL_SEEDS, skipped)
            self._start(game_seed, options)
            if not self._game().is_over:
                return self._observation(), self._info(skipped=skipped)
        raise RuntimeError(f"{_MAX_REDEALS} games in a row ended before seat {self.seat} decided anything")

    def step(self, action: Any) -> tuple[np.ndarray, SupportsFloat, bool, bool, dict[str, Any]]:
        game = self._game()
        if self._done:
            raise RuntimeError("the episode is over: call reset() for the next one")
        number = int(action)
        try:
            chosen = self.space.action(number)
        except ValueError as exc:  # a number no action of the variant has (a marriage led with an Ace, ...)
            if self.settings.illegal == "raise":
                raise
            return self._forfeit(str(exc))
        refusal = game.refusal(chosen)
        if refusal is not None:
            rule, reason = refusal
            if self.settings.illegal == "raise":
                raise IllegalActionError(rule, f"seat {self.seat} chose {number} ({chosen.token}): {reason}")
            return self._forfeit(f"{rule.title}: {reason}")
        game.apply(chosen)
        self._play_bots()
        self._done = game.is_over
        reward = (
            seat_rewards(game.result, self.variant.players, self.settings.reward)[self.seat] if game.is_over else 0.0
        )
        return self._observation(), reward, game.is_over, False, self._info()

    def action_masks(self) -> np.ndarray:
        """The legal actions of the agent now, as booleans over the action numbers (all ``False`` once it ended)."""
        return self._mask().astype(bool)

    def render(self) -> str | None:
        """The table as the agent sees it (``render_mode="ansi"``), else ``None``."""
        if self.render_mode is None:
            return None
        return render_view(self._game().view(self.seat))

    # ------------------------------------------------------------------ internals
    def _start(self, game_seed: int, options: dict[str, Any] | None) -> None:
        self._seed = game_seed
        game = deal(self.variant, game_seed, self.settings.dealer, self._games, options)
        players = self.variant.players
        self.seat = (
            derive_seed(game_seed, SEAT_SEEDS) % players if self._seat_rule == "random" else int(self._seat_rule)
        )
        self._bots = {
            s: self._opponent or self._maker().make(derive_seed(game_seed, BOT_SEEDS, s), self.variant)
            for s in range(players)
            if s != self.seat
        }
        self.game = game
        self._play_bots()
        self._done = game.is_over

    def _maker(self) -> BotInfo:
        assert self._bot_maker is not None  # a registered bot's name was given
        return self._bot_maker

    def _as_bot(self, opponent: Any, load_agent: Callable[[os.PathLike[str]], Any] | None) -> Bot:
        """``opponent`` (not a bot's name: see the module docstring) as a bot."""
        if isinstance(opponent, os.PathLike):
            if load_agent is None:
                raise ValueError(f"a saved agent ({os.fspath(opponent)}) needs load_agent=, the function that reads it")
            opponent = load_agent(opponent)
        if hasattr(opponent, "choose"):
            if not hasattr(opponent, "name"):
                raise ValueError(f"a bot has a name and a choose method; {opponent!r} has no name")
            return opponent  # type: ignore[no-any-return]
        if hasattr(opponent, "predict"):
            return _AgentBot(opponent, self)
        if callable(opponent):
            return _CallableBot(opponent, self)
        raise ValueError(
            f"opponent must be a bot's name, a bot, a callable, an agent with predict() or a saved agent's path,"
            f" not {opponent!r}"
        )

    def _forfeit(self, why: str) -> tuple[np.ndarray, SupportsFloat, bool, bool, dict[str, Any]]:
        # The game stays as it was (the engine refused the action); the episode ends as the arena's forfeit.
        self._done = True
        penalty = forfeit_rewards(self.variant, self.seat, self.settings.reward)[self.seat]
        return self._observation(), penalty, True, False, self._info(illegal=why)

    def _play_bots(self) -> None:
        game = self._game()
        while not game.is_over and game.to_move != self.seat:
            seat = game.to_move
            game.apply(self._bots[seat].choose(game.view(seat)))

    def _game(self) -> Game:
        if self.game is None:
            raise RuntimeError("call reset() before using the environment")
        return self.game

    def _mask(self) -> np.ndarray:
        mask = np.zeros(self.space.size, np.int8)
        if self._done:
            return mask
        for action in self._game().view(self.seat).legal:
            mask[self.space.index(action)] = 1
        return mask

    def _observation(self) -> np.ndarray:
        return np.asarray(self._encode(self._game().view(self.seat)), np.float32)

    def _info(self, **extra: Any) -> dict[str, Any]:
        return {"action_mask": self._mask(), "seat": self.seat, "seed": self._seed, **extra}


class _CallableBot:
    """A callable ``f(view)`` that returns an action or its number, as a bot."""

    def __init__(self, choose: Callable[[View], Any], env: BummerlEnv) -> None:
        self._choose = choose
        self._env = env
        self.name = getattr(choose, "__name__", type(choose).__name__)

    def choose(self, view: View) -> Action:
        return _legal(self._env, view, self._choose(view), self.name)


class _AgentBot:
    """A trained agent with Stable-Baselines3's ``predict`` as a bot: it sees the seat's view encoded as the
    environment's observations (and the legal actions as ``action_masks`` where ``predict`` takes them)."""

    def __init__(self, agent: Any, env: BummerlEnv) -> None:
        self._agent = agent
        self._env = env
        self.name = type(agent).__name__
        self._masks = "action_masks" in inspect.signature(agent.predict).parameters

    def choose(self, view: View) -> Action:
        env = self._env
        observation = np.asarray(env._encode(view), np.float32)
        extra: dict[str, Any] = {}
        if self._masks:
            mask = np.zeros(env.space.size, bool)
            for action in view.legal:
                mask[env.space.index(action)] = True
            extra["action_masks"] = mask
        predicted = self._agent.predict(observation, deterministic=True, **extra)
        number = predicted[0] if isinstance(predicted, tuple) else predicted  # SB3 returns (action, state)
        return _legal(env, view, int(np.asarray(number).reshape(-1)[0]), self.name)


def _legal(env: BummerlEnv, view: View, chosen: Any, who: str) -> Action:
    """``chosen`` (an action or its number) if the rules allow it now, else :class:`IllegalActionError` naming the
    rule (``ValueError`` for a number no action has)."""
    action = chosen if isinstance(chosen, Action) else env.space.action(int(chosen))
    refusal = env._game().refusal(action)
    if refusal is not None:
        rule, reason = refusal
        raise IllegalActionError(rule, f"seat {view.player}: {who} chose {action.token}: {reason}")
    return action


def _register() -> None:
    for name, env_id in ENV_IDS.items():
        if env_id not in gymnasium.registry:
            gymnasium.register(
                env_id,
                entry_point="bummerl.rl.gym:BummerlEnv",
                # gymnasium.make_vec(env_id, num_envs=N, vectorization_mode="vector_entry_point"): N games per call.
                vector_entry_point="bummerl.rl.vector:BummerlVectorEnv",
                kwargs={"variant": name},
            )


_register()
