"""Types of the compiled core of the table games (src/bummerl/core/_table.c); see :mod:`bummerl.core`.

The config is :func:`bummerl.core.table.table_config`'s.  The buffers are the caller's (NumPy arrays,
``bytearray``, ``array.array``): C-contiguous, writable where written, of the item type and length named; the core
checks both and raises ``ValueError`` naming the buffer.
"""

from collections.abc import Mapping, Sequence

from typing_extensions import Buffer

class Batch:
    """``num_envs`` games of one variant stepped together (the batch interface of :mod:`bummerl.core`)."""

    num_envs: int
    players: int
    observation_size: int
    action_size: int
    def __init__(
        self,
        config: Mapping[str, object],
        num_envs: int,
        *,
        information_state: bool = False,
        agent: int = -1,
        dealer: int = -1,
        reward: int = 0,
        illegal: int = 1,
    ) -> None: ...
    def reset(self, seeds: Buffer, obs: Buffer, mask: Buffer, seat: Buffer, /) -> None: ...
    def step(
        self,
        actions: Buffer,
        obs: Buffer,
        mask: Buffer,
        rewards: Buffer,
        terminated: Buffer,
        seat: Buffer,
        /,
    ) -> None: ...
    def game_seeds(self, out: Buffer, /) -> None: ...

def deal(config: Mapping[str, object], seed: int, dealer: int, /) -> list[int]: ...
def random_games(
    config: Mapping[str, object], seed: int, games: int, /
) -> tuple[tuple[int, ...], tuple[int, ...], int, int]:
    """``bummerl selfplay --bots random,...`` in C: (game points per seat, games won per seat, games nobody scored,
    actions applied)."""

class State:
    """One game, the compiled twin of :class:`~bummerl.table_game.TableGame` (the differential test's)."""

    def __init__(self, config: Mapping[str, object], deck: Sequence[int], dealer: int, /) -> None: ...
    to_move: int
    over: bool
    #: The phase in :class:`~bummerl.variants.bauernschnapsen.Phase`'s order (cut 0 .. over 6).
    phase: int
    def legal(self) -> list[int]: ...
    def apply(self, code: int, /) -> None: ...
    def encode(self, seat: int, information_state: bool, out: Buffer, /) -> None: ...
    def mask(self, seat: int, out: Buffer, /) -> None: ...
    def result(self) -> tuple[int, int, int, int, int, int, int, int] | None:
        """``(contract or -1, declarer or -1, winners as one bit per seat, points, reason, augen_0, augen_1,
        multiplier)``; :func:`bummerl.core.table.table_result` makes it a ``TableResult``."""
    def copy(self) -> State: ...
