"""The settings both RL environments are made with, checked once: the variant, the observation, the episode rules.

:class:`~bummerl.rl.gym.BummerlEnv` and :class:`~bummerl.rl.pettingzoo.raw_env` take
the same keywords (``observation``, ``dealer``, ``reward``, ``illegal``, a
``render_mode`` and the variant's options) and read them here, so that a
setting means the same in both and is refused with the same words.

>>> settings = EnvSettings.read("schnapsen", None, observation="information_state", auto_declare=True)
>>> settings.variant.options(), settings.size == settings.encoder.information_state_size
({'auto_declare': True}, True)
>>> EnvSettings.read("schnapsen", None, observation="tensor")
Traceback (most recent call last):
...
ValueError: observation must be one of observation, information_state, not 'tensor'

This module needs neither Gymnasium nor PettingZoo (the environments build their spaces from it).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any

from bummerl.rl.encoding import ActionSpace, ViewEncoder
from bummerl.rl.episode import check_settings
from bummerl.variants import Variant, find_variant
from bummerl.view import View

__all__ = ["OBSERVATIONS", "OBSERVATION_HIGH", "RENDER_MODES", "EnvSettings", "RenderModeError"]

#: What an environment's observation encodes: :class:`ViewEncoder`'s two methods.
OBSERVATIONS = ("observation", "information_state")
#: Every encoded value lies in [0, OBSERVATION_HIGH]: cards and flags are 0/1, sizes are shares of at most
#: 8/6, and Augen are divided by 66 and never exceed 230 (120 in cards, 10 for the last trick, 100 in marriages).
OBSERVATION_HIGH = 4.0
#: How an environment may render: not at all, or as text.
RENDER_MODES = (None, "ansi")


class RenderModeError(TypeError, ValueError):
    """A render mode the environments do not have (:data:`RENDER_MODES`).

    A ``TypeError`` as well as a ``ValueError``: a keyword value the environment does not take.  Libraries that
    ask for an image and make the environment again without one on ``TypeError`` (Stable-Baselines3's
    ``make_vec_env`` asks for ``render_mode="rgb_array"``) then get an environment that does not render.
    """


@dataclasses.dataclass(frozen=True)
class EnvSettings:
    """One environment's settings (see the module docstring); make them with :meth:`read`."""

    variant: Variant
    #: One of :data:`OBSERVATIONS`.
    observation: str
    #: ``"seed"``, ``"rotate"`` or a seat (:data:`bummerl.rl.episode.DEALER_RULES`).
    dealer: int | str
    #: ``"zero_sum"`` or ``"points"`` (:data:`bummerl.rl.episode.REWARD_RULES`).
    reward: str
    #: ``"raise"`` or ``"lose"`` (:data:`bummerl.rl.episode.ILLEGAL_RULES`).
    illegal: str
    render_mode: str | None = None

    @classmethod
    def read(
        cls,
        variant: str | Variant,
        render_mode: str | None,
        *,
        observation: str = "observation",
        dealer: int | str = "seed",
        reward: str = "zero_sum",
        illegal: str = "raise",
        **options: Any,
    ) -> EnvSettings:
        """The settings given, checked (``ValueError`` naming the choices); ``options`` are the variant's."""
        found = find_variant(variant, **options)
        check_settings(found, dealer, reward, illegal)
        if observation not in OBSERVATIONS:
            raise ValueError(f"observation must be one of {', '.join(OBSERVATIONS)}, not {observation!r}")
        if render_mode not in RENDER_MODES:
            raise RenderModeError(f"render_mode must be None or 'ansi', not {render_mode!r}")
        return cls(found, observation, dealer, reward, illegal, render_mode)

    @property
    def space(self) -> ActionSpace:
        """The variant's action numbering."""
        return ActionSpace.of(self.variant)

    @property
    def encoder(self) -> ViewEncoder:
        """The variant's view encoder."""
        return ViewEncoder.of(self.variant)

    @property
    def encode(self) -> Callable[[View], list[float]]:
        """The encoder's method that :attr:`observation` names."""
        encoder = self.encoder
        return encoder.observation if self.observation == "observation" else encoder.information_state

    @property
    def size(self) -> int:
        """The length of what :attr:`encode` returns."""
        encoder = self.encoder
        return encoder.observation_size if self.observation == "observation" else encoder.information_state_size
