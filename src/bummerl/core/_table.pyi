"""Types of the compiled core of the table games (src/bummerl/core/_table.c); see :mod:`bummerl.core`.

The config is :func:`bummerl.core.table.table_config`'s.  Batch, deal and random_games are _core.h's, typed in
``_core.pyi`` with the buffers' rules.
"""

from collections.abc import Mapping, Sequence

from bummerl.core import _core
from bummerl.core._core import deal as deal
from bummerl.core._core import random_games as random_games

class Batch(_core.Batch):
    """``num_envs`` table games of one variant stepped together."""

class State(_core.State):
    """One game, the compiled twin of :class:`~bummerl.table_game.TableGame` (the differential test's)."""

    def __init__(self, config: Mapping[str, object], deck: Sequence[int], dealer: int, /) -> None: ...
    #: The phase in :class:`~bummerl.variants.bauernschnapsen.Phase`'s order (cut 0 .. over 6).
    phase: int
    def result(self) -> tuple[int, int, int, int, int, int, int, int] | None:
        """``(contract or -1, declarer or -1, winners as one bit per seat, points, reason, augen_0, augen_1,
        multiplier)``; :func:`bummerl.core.table.table_result` makes it a ``TableResult``."""
