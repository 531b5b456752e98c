"""Types of what both compiled cores take from src/bummerl/core/_core.h: Batch, deal, random_games and the common
part of State; ``_two_player.pyi`` and ``_table.pyi`` build on them.  See :mod:`bummerl.core`.

A stub without a module: nothing named ``bummerl.core._core`` exists at run time (the header is compiled into each
core), so import it only for typing.  The bases are plain classes, not a ``Protocol``: a stub class that names a
protocol as its base inherits its members as abstract, and mypy would refuse to build a Batch.

The buffers are the caller's (NumPy arrays, ``bytearray``, ``array.array``): C-contiguous, writable where written,
of the item type and length named; the core checks both and raises ``ValueError`` naming the buffer.
"""

from collections.abc import Mapping
from typing import Self, TypeVar

from typing_extensions import Buffer

T = TypeVar("T")

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
    """One game; each core's State adds its constructor and its result."""

    to_move: int
    over: bool
    def legal(self) -> list[int]: ...
    def legal_actions(self, table: tuple[T | None, ...], /) -> tuple[T, ...]:
        """``tuple(table[number] for number in legal())`` (a number is never that of a ``None`` entry)."""
    def new_deal(self, deck: list[int], dealer: int, /) -> Self:
        """A State of the same config (copied, not read again) dealt from ``deck``."""
    def apply(self, code: int, /) -> None: ...
    def encode(self, seat: int, information_state: bool, out: Buffer, /) -> None: ...
    def mask(self, seat: int, out: Buffer, /) -> None: ...
    def copy(self) -> Self: ...
