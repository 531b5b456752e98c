"""Types of the compiled core of the two-player games (src/bummerl/core/_two_player.c); see :mod:`bummerl.core`.

Batch, deal and random_games are _core.h's, typed in ``_core.pyi`` with the buffers' rules.
"""

from collections.abc import Mapping

from bummerl.core import _core
from bummerl.core._core import deal as deal
from bummerl.core._core import random_games as random_games

class Batch(_core.Batch):
    """``num_envs`` two-player games of one variant stepped together."""

class State(_core.State):
    """One game, the compiled twin of :class:`~bummerl.two_player.TwoPlayerGame` (the differential test's)."""

    def __init__(self, config: Mapping[str, object], deck: list[int], dealer: int, /) -> None: ...
    def result(self) -> tuple[int, int, int, int, int] | None: ...
