"""Batched environments: N games of one variant stepped in one call, as a Gymnasium ``VectorEnv`` (issue 25).

>>> import gymnasium, bummerl.rl.gym
>>> envs = gymnasium.make_vec("Bummerl/Schnapsen-v0", num_envs=4, vectorization_mode="vector_entry_point")
>>> obs, infos = envs.reset(seed=1)
>>> obs.shape, obs.dtype, infos["action_mask"].shape
((4, 220), dtype('float32'), (4, 71))
>>> actions = infos["action_mask"].argmax(axis=1)       # any legal number per game
>>> obs, rewards, terminated, truncated, infos = envs.step(actions)
>>> rewards.shape, terminated.dtype, infos["seat"].tolist()       # the agent plays seat 0, "random" the other
((4,), dtype('bool'), [0, 0, 0, 0])

:class:`BummerlVectorEnv` takes :class:`bummerl.rl.gym.BummerlEnv`'s keywords (``variant`` and its options,
``opponent``, ``seat``, ``observation``, ``dealer``, ``reward``, ``illegal``) and ``num_envs``, and plays every
game as that environment does: the same deal from the same seed, the opponents made with the same seeds
(``derive_seed(game_seed, BOT_SEEDS, seat)``), the same observation (:class:`~bummerl.rl.encoding.ViewEncoder`)
and numbering (:class:`~bummerl.rl.encoding.ActionSpace`), the same rewards and forfeits.  Besides:

* ``seat="all"``: **self-play**, every seat is the caller's; each game's observation and mask are those of the
  seat to move (``infos["seat"]``), the reward that of the seat that just acted, and ``infos["rewards"]``
  every seat's (``num_envs x players``).  A single seat (``0``, ``1``, ...) or ``"random"`` (drawn per game)
  is the single-agent case, the other seats played by ``opponent``: a bot's name
  (:func:`bummerl.bots.bot_names`) or any callable that takes a seat's view and returns an action (or its
  number).
* **Seeds**: ``reset(seed=s)`` deals game 0 of slot ``i`` from ``s + i`` (a list gives each slot its seed;
  ``None`` draws them); a slot's later games take the seeds of :class:`bummerl.rl.episode.SeedStream`
  restarted at its first seed.  ``infos["seed"]`` is each slot's current game seed.
* **Auto-reset** is Gymnasium's ``NEXT_STEP`` (``metadata["autoreset_mode"]``): the step that ends a game
  returns its last observation, ``terminated`` and the reward; the next step deals that slot's next game
  and ignores its action.  Truncation never happens.
* ``infos["action_mask"]``: int8 ``num_envs x actions``, all 0 for a game that has just ended.

**Backends.** A backend steps the games into arrays the environment owns (:class:`VectorBackend`, the batch
interface of :mod:`bummerl.core`).  ``backend="auto"`` takes the compiled core of the variant's family when it
is built, ``BUMMERL_PURE`` is not ``1``, the core plays the variant and the opponents are ``random`` (or
self-play), else :class:`PythonBatch`: the engine, the encoder and the bots, for every variant and opponent,
and the reference the cores are tested against (tests/test_rl_vector.py).  ``"compiled"`` insists on the
core, ``"python"`` on the reference; :func:`make_batch` picks one without Gymnasium.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Protocol

from bummerl import core
from bummerl.actions import Action
from bummerl.arena.deals import BOT_SEEDS
from bummerl.bots import Bot, bot_info
from bummerl.engine import Game
from bummerl.errors import IllegalActionError, Refusal, Rule
from bummerl.rl.episode import REWARD_RULES, SEAT_SEEDS, deal, forfeit_rewards, seat_rewards
from bummerl.rl.gym import REDEAL_SEEDS
from bummerl.rl.settings import OBSERVATION_HIGH, EnvSettings
from bummerl.rng import SplitMix64, derive_seed
from bummerl.variants import Variant
from bummerl.view import View

try:
    import gymnasium
    import numpy as np
    from gymnasium import spaces
    from gymnasium.vector import AutoresetMode
except ImportError as exc:  # pragma: no cover - depends on the installation
    message = f"bummerl.rl.vector needs the 'pettingzoo' extra: pip install 'bummerl[pettingzoo]' ({exc})"
    raise ImportError(message) from exc

__all__ = ["BACKENDS", "BummerlVectorEnv", "Opponent", "PythonBatch", "VectorBackend", "make_batch"]

#: What ``backend=`` accepts.
BACKENDS = ("auto", "compiled", "python")
#: An opponent: a bot's name, or a callable from a seat's view to an action or its number.
Opponent = str | Callable[[View], Action | int]
#: The Batch's ``agent`` for self-play and for a seat drawn per game (bummerl.core).
_SELF_PLAY, _RANDOM_SEAT = -1, -2
_DEALERS = {"seed": -1, "rotate": -2}
#: A game that ends before the agent's first decision is dealt again; past this many in a row something is wrong.
_MAX_REDEALS = 1000


class VectorBackend(Protocol):
    """N games of one variant stepped together into the caller's arrays (the batch interface of :mod:`bummerl.core`)."""

    @property
    def num_envs(self) -> int: ...
    @property
    def players(self) -> int: ...
    @property
    def observation_size(self) -> int: ...
    @property
    def action_size(self) -> int: ...
    def reset(self, seeds: Any, obs: Any, mask: Any, seat: Any, /) -> None: ...
    def step(self, actions: Any, obs: Any, mask: Any, rewards: Any, terminated: Any, seat: Any, /) -> None: ...
    def game_seeds(self, out: Any, /) -> None: ...


class _Slot:
    """One game of a :class:`PythonBatch` and where its seeds come from."""

    __slots__ = ("agent", "bots", "done", "game", "index", "last_mover", "seed", "stream")

    def __init__(self) -> None:
        self.stream = SplitMix64(0)
        self.index = 0
        self.seed = 0
        self.game: Game | None = None
        self.agent = _SELF_PLAY
        self.bots: dict[int, Callable[[View], Action | int]] = {}
        self.done = True
        self.last_mover = 0


class PythonBatch:
    """The reference backend: every game a :class:`~bummerl.engine.Game`, every observation the encoder's.

    Arguments as :class:`bummerl.core`'s ``Batch``, by name: ``agent`` a seat, ``-1`` self-play or ``-2`` a seat
    drawn per game; ``opponent`` plays the other seats (a bot's name or a callable on a view).
    """

    def __init__(
        self,
        settings: EnvSettings,
        num_envs: int,
        *,
        agent: int = _SELF_PLAY,
        opponent: Opponent = "random",
    ) -> None:
        if num_envs < 1:
            raise ValueError(f"num_envs must be 1 or more, not {num_envs!r}")
        self.settings = settings
        self.variant: Variant = settings.variant
        self._encode = settings.encode
        self._space = settings.space
        self._agent = agent
        self._opponent: Callable[[int], Callable[[View], Action | int]]
        if isinstance(opponent, str):
            maker = bot_info(opponent, self.variant)
            self._opponent = lambda seed: _choose_of(maker.make(seed, self.variant))
        else:
            self._opponent = lambda seed: opponent
        self._slots = [_Slot() for _ in range(num_envs)]

    @property
    def num_envs(self) -> int:
        return len(self._slots)

    @property
    def players(self) -> int:
        return self.variant.players

    @property
    def observation_size(self) -> int:
        return self.settings.size

    @property
    def action_size(self) -> int:
        return self._space.size

    def reset(self, seeds: Any, obs: Any, mask: Any, seat: Any, /) -> None:
        for i, slot in enumerate(self._slots):
            slot.stream = SplitMix64(int(seeds[i]))
            self._next_game(slot, int(seeds[i]), seeded=True)
            self._write(i, slot, obs, mask, seat)

    def step(self, actions: Any, obs: Any, mask: Any, rewards: Any, terminated: Any, seat: Any, /) -> None:
        chosen = [None if slot.done else self._check(slot, int(actions[i])) for i, slot in enumerate(self._slots)]
        if self.settings.illegal == "raise":
            # Checked first: a refused step changes no game.
            for i, why in enumerate(chosen):
                if isinstance(why, tuple):
                    raise IllegalActionError(why[0], f"game {i}: action {int(actions[i])}: {why[1]}")
        for i, slot in enumerate(self._slots):
            rewards[i] = 0.0
            terminated[i] = 0
            if slot.done:
                self._next_game(slot, slot.stream.next_u64(), seeded=False)
            else:
                game = _game(slot)
                why = chosen[i]
                if isinstance(why, tuple):
                    # The forfeit: the game stays as it was, the episode ends as the arena scores one.
                    slot.last_mover = game.to_move
                    rewards[i] = forfeit_rewards(self.variant, game.to_move, self.settings.reward)
                    terminated[i] = 1
                    slot.done = True
                else:
                    slot.last_mover = game.to_move
                    assert why is not None
                    game.apply(why)
                    self._play_bots(slot)
                    if game.is_over:
                        rewards[i] = seat_rewards(game.result, self.players, self.settings.reward)
                        terminated[i] = 1
                        slot.done = True
            self._write(i, slot, obs, mask, seat)

    def game_seeds(self, out: Any, /) -> None:
        for i, slot in enumerate(self._slots):
            out[i] = slot.seed

    # ------------------------------------------------------------------ internals
    def _check(self, slot: _Slot, number: int) -> Action | Refusal:
        """The action numbered ``number`` if it is legal in the slot's game, else the rule it breaks and why."""
        try:
            action = self._space.action(number)
        except ValueError as exc:
            return Rule.NOT_AVAILABLE, str(exc)
        return _game(slot).refusal(action) or action

    def _next_game(self, slot: _Slot, first: int, *, seeded: bool) -> None:
        # BummerlEnv.reset's deal: redealt while the game ends before the agent decides.
        slot.index = 0 if seeded else slot.index + 1
        players = self.players
        for k in range(_MAX_REDEALS):
            seed = first if k == 0 else derive_seed(first, REDEAL_SEEDS, k)
            slot.seed = seed
            game = deal(self.variant, seed, self.settings.dealer, slot.index)
            slot.game = game
            slot.agent = derive_seed(seed, SEAT_SEEDS) % players if self._agent == _RANDOM_SEAT else self._agent
            slot.bots = {}
            if slot.agent != _SELF_PLAY:
                slot.bots = {
                    s: self._opponent(derive_seed(seed, BOT_SEEDS, s)) for s in range(players) if s != slot.agent
                }
            slot.last_mover = game.to_move
            self._play_bots(slot)
            if not game.is_over:
                break
        slot.done = False

    def _play_bots(self, slot: _Slot) -> None:
        game = _game(slot)
        while not game.is_over and game.to_move != slot.agent and slot.agent != _SELF_PLAY:
            seat = game.to_move
            choice = slot.bots[seat](game.view(seat))
            slot.last_mover = seat
            game.apply(choice if isinstance(choice, Action) else self._space.action(choice))

    def _write(self, i: int, slot: _Slot, obs: Any, mask: Any, seat: Any) -> None:
        game = _game(slot)
        me = slot.agent if slot.agent != _SELF_PLAY else (slot.last_mover if game.is_over else game.to_move)
        view = game.view(me)
        obs[i] = self._encode(view)
        mask[i] = 0
        if not slot.done:
            for action in view.legal:
                mask[i, self._space.index(action)] = 1
        seat[i] = me


def _choose_of(bot: Bot) -> Callable[[View], Action | int]:
    return bot.choose


def _game(slot: _Slot) -> Game:
    assert slot.game is not None, "reset() deals the games"
    return slot.game


def _agent(seat: int | str, players: int) -> int:
    if seat == "all":
        return _SELF_PLAY
    if seat == "random":
        return _RANDOM_SEAT
    if isinstance(seat, int) and not isinstance(seat, bool) and 0 <= seat < players:
        return seat
    raise ValueError(f"seat must be 'all', 'random' or a seat 0..{players - 1}, not {seat!r}")


def make_batch(
    settings: EnvSettings,
    num_envs: int,
    *,
    seat: int | str = "all",
    opponent: Opponent = "random",
    backend: str = "auto",
) -> VectorBackend:
    """The backend that steps ``num_envs`` games of ``settings``' variant (see the module docstring)."""
    if backend not in BACKENDS:
        raise ValueError(f"backend must be one of {', '.join(BACKENDS)}, not {backend!r}")
    variant = settings.variant
    agent = _agent(seat, variant.players)
    module = core.core_of(variant)
    native = agent == _SELF_PLAY or opponent == "random"
    if backend == "python" or (backend == "auto" and (module is None or not native)):
        return PythonBatch(settings, num_envs, agent=agent, opponent=opponent)
    if module is None:
        why = "BUMMERL_PURE=1" if core.pure() else "not built, or it does not play this variant"
        raise ValueError(f"backend='compiled': no compiled core for {variant.title} ({why})")
    if not native:
        raise ValueError("backend='compiled' plays the opponent 'random' or self-play; other opponents need 'python'")
    dealer = settings.dealer
    batch: VectorBackend = module.Batch(
        core.config(variant),
        num_envs,
        information_state=settings.observation == "information_state",
        agent=agent,
        dealer=_DEALERS[dealer] if isinstance(dealer, str) else dealer,
        reward=REWARD_RULES.index(settings.reward),
        illegal=int(settings.illegal == "lose"),
    )
    return batch


class BummerlVectorEnv(gymnasium.vector.VectorEnv[np.ndarray, np.ndarray, np.ndarray]):
    """``num_envs`` games of one variant per call (see the module docstring)."""

    metadata = {"autoreset_mode": AutoresetMode.NEXT_STEP, "render_modes": []}  # noqa: RUF012 - VectorEnv's own

    def __init__(
        self,
        variant: str | Variant = "schnapsen",
        num_envs: int = 1,
        opponent: Opponent = "random",
        seat: int | str = 0,
        *,
        observation: str = "observation",
        dealer: int | str = "seed",
        reward: str = "zero_sum",
        illegal: str = "lose",
        backend: str = "auto",
        **options: Any,
    ) -> None:
        self.settings = EnvSettings.read(
            variant, None, observation=observation, dealer=dealer, reward=reward, illegal=illegal, **options
        )
        if isinstance(opponent, str):
            bot_info(opponent, self.settings.variant)  # UnknownBotError naming the bots that play the variant
        #: What steps the games: a compiled core's ``Batch`` or :class:`PythonBatch`.
        self.backend = make_batch(self.settings, num_envs, seat=seat, opponent=opponent, backend=backend)
        self.num_envs = num_envs
        self.self_play = seat == "all"
        size, actions, players = self.backend.observation_size, self.backend.action_size, self.backend.players
        self.single_observation_space = spaces.Box(0.0, OBSERVATION_HIGH, (size,), np.float32)
        self.single_action_space = spaces.Discrete(actions)
        self.observation_space = spaces.Box(0.0, OBSERVATION_HIGH, (num_envs, size), np.float32)
        self.action_space = spaces.MultiDiscrete(np.full(num_envs, actions))
        self.render_mode = None
        # The arrays the backend writes into, allocated once; each call returns copies.
        self._obs = np.zeros((num_envs, size), np.float32)
        self._mask = np.zeros((num_envs, actions), np.int8)
        self._rewards = np.zeros((num_envs, players), np.float32)
        self._terminated = np.zeros(num_envs, np.uint8)
        self._seat = np.zeros(num_envs, np.int8)
        self._actions = np.zeros(num_envs, np.int64)
        self._seeds = np.zeros(num_envs, np.uint64)
        self._rows = np.arange(num_envs)

    def reset(
        self, *, seed: int | Sequence[int] | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        super().reset(seed=seed if isinstance(seed, int) or seed is None else None)
        if seed is None:
            seeds = self.np_random.integers(0, 2**63, self.num_envs, dtype=np.uint64)
        elif isinstance(seed, int):
            seeds = np.array([(seed + i) % 2**64 for i in range(self.num_envs)], np.uint64)
        else:
            if len(seed) != self.num_envs:
                raise ValueError(f"reset needs one seed per game ({self.num_envs}), not {len(seed)}")
            seeds = np.array([s % 2**64 for s in seed], np.uint64)
        self.backend.reset(seeds, self._obs, self._mask, self._seat)
        self._terminated[:] = 0
        self._rewards[:] = 0.0
        return self._obs.copy(), self._infos()

    def step(self, actions: Any) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        self._actions[:] = actions
        mover = self._seat.copy()
        self.backend.step(self._actions, self._obs, self._mask, self._rewards, self._terminated, self._seat)
        # Single agent: the agent's reward; self-play: the reward of the seat that just acted.
        rewards = self._rewards[self._rows, mover].astype(np.float64)
        terminated = self._terminated.astype(bool)
        return self._obs.copy(), rewards, terminated, np.zeros(self.num_envs, bool), self._infos()

    def action_masks(self) -> np.ndarray:
        """The legal actions now, as booleans (``num_envs x actions``), as sb3-contrib's ``MaskablePPO`` asks."""
        return self._mask.astype(bool)

    def _infos(self) -> dict[str, Any]:
        self.backend.game_seeds(self._seeds)
        infos: dict[str, Any] = {
            "action_mask": self._mask.copy(),
            "seat": self._seat.copy(),
            "seed": self._seeds.copy(),
        }
        if self.self_play:
            infos["rewards"] = self._rewards.copy()
        return infos
