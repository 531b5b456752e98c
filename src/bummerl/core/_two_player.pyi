"""Types of the compiled core of the two-player games (src/bummerl/core/_two_player.c); see :mod:`bummerl.core`.

The buffers are the caller's (NumPy arrays, ``bytearray``, ``array.array``): C-contiguous, writable where written,
of the item type and length named; the core checks both and raises ``ValueError`` naming the buffer.
"""

from collections.abc import Mapping

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
) -> tuple[tuple[int, ...], tuple[int, ...], int, int]: ...

class State:
    """One game, the compiled twin of :class:`~bummerl.two_player.TwoPlayerGame` (the differential test's)."""

    def __init__(self, config: Mapping[str, object], deck: list[int], dealer: int, /) -> None: ...
    to_move: int
    over: bool
    def legal(self) -> list[int]: ...
    def apply(self, code: int, /) -> None: ...
    def encode(self, seat: int, information_state: bool, out: Buffer, /) -> None: ...
    def mask(self, seat: int, out: Buffer, /) -> None: ...
    def result(self) -> tuple[int, int, int, int, int] | None: ...
    def copy(self) -> State: ...
