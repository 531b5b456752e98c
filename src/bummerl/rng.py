"""The seeded shuffle: the same seed deals the same cards everywhere.

Python's :mod:`random` promises no stable stream across versions, and a bot
written in another language must be able to reproduce a deal from its seed.  So
Bummerl uses its own tiny, fully specified generator:

* **SplitMix64** (Steele, Lea, Flood 2014): ``state += 0x9E3779B97F4A7C15``;
  ``z = state``; ``z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9``;
  ``z = (z ^ (z >> 27)) * 0x94D049BB133111EB``; output ``z ^ (z >> 31)``, all
  modulo 2**64.
* ``below(n)``: uniform in ``0..n-1`` by rejection of outputs at or above the
  largest multiple of ``n`` below 2**64.
* ``shuffle``: Fisher–Yates from the last position down: for ``i`` from
  ``len-1`` to ``1``, swap ``i`` with ``below(i + 1)``.
* ``derive(seed, *path)``: a child seed, one SplitMix64 output per path element
  mixed into the state, used to give every game of a match its own seed
  (``extend_seed`` goes on from a derived seed: the same result, the common
  part of many paths mixed once).
  SplitMix64 is a bijection, so a child seed gives its parent away: use it where
  every seed may be known (self-play, arenas, practice).
* ``keyed_seed(key, *path)``: a child seed that gives nothing away, the first 8
  bytes (big-endian) of HMAC-SHA256 over the path (each element 8 bytes,
  big-endian, prefixed by ``bummerl-seed``) under a secret ``key``; ``derive_key``
  is the whole 32-byte MAC under the prefix ``bummerl-key``.  The web server
  deals every game it hosts from such seeds (docs/security.md), so publishing one
  game's seed reveals no other deal.

>>> SplitMix64(0).next_u64()
16294208416658607535
>>> cards = list(range(5)); SplitMix64(42).shuffle(cards); cards
[1, 2, 0, 4, 3]
>>> rng = SplitMix64(3); [rng.below(n) for n in (1, 2, 20, 100, 2**63 + 1)]  # the last one rejects draws
[0, 1, 9, 47, 3992596847233833366]

This module has no other dependencies and no global state.
"""

from __future__ import annotations

import hashlib
import hmac
from typing import TypeVar

__all__ = ["SplitMix64", "derive_key", "derive_seed", "extend_seed", "key_commitment", "keyed_seed"]

_MASK = (1 << 64) - 1
_SPAN = 1 << 64
_GAMMA = 0x9E3779B97F4A7C15
_M1 = 0xBF58476D1CE4E5B9
_M2 = 0x94D049BB133111EB
#: ``below(n)`` rejects outputs at or above the largest multiple of ``n`` below 2**64;
#: that limit for each small ``n`` (a shuffle's and a bot's), computed once.
_SMALL = 64
_LIMITS: tuple[int, ...] = (0, *(_SPAN - _SPAN % n for n in range(1, _SMALL)))
T = TypeVar("T")

# The compiled shuffle (src/bummerl/_crng.c, built by pip when a C compiler is there): the same stream, checked
# against the code below in tests/test_rng.py. Without it the Python code below runs; nothing else differs.
# Imported by its module's name, not from the package: this module sits below every other, the package above all.
try:
    from bummerl._crng import shuffle as _c_shuffle
except ImportError:  # pragma: no cover - installed without a C compiler
    _c_shuffle = None  # type: ignore[assignment]


class SplitMix64:
    """A seeded 64-bit generator with a specified output stream."""

    __slots__ = ("state",)

    def __init__(self, seed: int) -> None:
        if not isinstance(seed, int) or isinstance(seed, bool):
            raise TypeError(f"seed must be an integer, not {type(seed).__name__}")
        self.state = seed & _MASK

    def next_u64(self) -> int:
        """The next 64-bit output."""
        self.state = (self.state + 0x9E3779B97F4A7C15) & _MASK
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """A uniform integer in ``range(n)``."""
        if n <= 0:
            raise ValueError("below(n) needs n >= 1")
        # next_u64() written out: this is called at every shuffle step and bot choice.
        state = (self.state + _GAMMA) & _MASK
        z = ((state ^ (state >> 30)) * _M1) & _MASK
        z = ((z ^ (z >> 27)) * _M2) & _MASK
        x = z ^ (z >> 31)
        limit = _LIMITS[n] if n < _SMALL else _SPAN - _SPAN % n
        while x >= limit:  # rejected (for small n about once in 2**59 draws): draw again
            state = (state + _GAMMA) & _MASK
            z = ((state ^ (state >> 30)) * _M1) & _MASK
            z = ((z ^ (z >> 27)) * _M2) & _MASK
            x = z ^ (z >> 31)
        self.state = state
        return x % n

    def shuffle(self, items: list[T]) -> None:
        """Shuffle ``items`` in place (Fisher–Yates, last position first)."""
        if _c_shuffle is not None and type(items) is list:
            self.state = _c_shuffle(self.state, items)
            return
        self.shuffle_python(items)

    def shuffle_python(self, items: list[T]) -> None:
        """:meth:`shuffle` in Python: the reference the compiled shuffle is tested against."""
        # below(i + 1) written out (the same stream): a deal is a shuffle, and self-play deals all the time.
        state = self.state
        limits = _LIMITS
        for i in range(len(items) - 1, 0, -1):
            n = i + 1
            state = (state + _GAMMA) & _MASK
            z = ((state ^ (state >> 30)) * _M1) & _MASK
            z = ((z ^ (z >> 27)) * _M2) & _MASK
            x = z ^ (z >> 31)
            limit = limits[n] if n < _SMALL else _SPAN - _SPAN % n
            while x >= limit:
                state = (state + _GAMMA) & _MASK
                z = ((state ^ (state >> 30)) * _M1) & _MASK
                z = ((z ^ (z >> 27)) * _M2) & _MASK
                x = z ^ (z >> 31)
            j = x % n
            items[i], items[j] = items[j], items[i]
        self.state = state


def derive_seed(seed: int, *path: int) -> int:
    """A child seed for ``path`` (e.g. a game number), independent of siblings.

    >>> derive_seed(7, 0) != derive_seed(7, 1)
    True
    >>> derive_seed(7, 0x424F5453, 3, 1)  # SplitMix64 written out below: the same stream
    5762341947385438058
    """
    if not isinstance(seed, int) or isinstance(seed, bool):
        raise TypeError(f"seed must be an integer, not {type(seed).__name__}")
    # SplitMix64(seed).next_u64(), written out: self-play and the arena derive seeds for every game.
    z = ((seed & _MASK) + _GAMMA) & _MASK
    z = ((z ^ (z >> 30)) * _M1) & _MASK
    z = ((z ^ (z >> 27)) * _M2) & _MASK
    return extend_seed(z ^ (z >> 31), *path)


def extend_seed(derived: int, *path: int) -> int:
    """The child seed for ``path`` of a seed that :func:`derive_seed` made:
    ``derive_seed(s, *a, *b) == extend_seed(derive_seed(s, *a), *b)``, so a loop
    over games mixes the common part of the path once, not once per game.

    >>> extend_seed(derive_seed(7, 0x424F5453), 3, 1) == derive_seed(7, 0x424F5453, 3, 1)
    True
    """
    out = derived
    for p in path:
        # SplitMix64(out ^ p).next_u64(), written out.
        z = ((out ^ (p & _MASK)) + _GAMMA) & _MASK
        z = ((z ^ (z >> 30)) * _M1) & _MASK
        z = ((z ^ (z >> 27)) * _M2) & _MASK
        out = z ^ (z >> 31)
    return out


def _mac(key: bytes, label: bytes, path: tuple[int, ...]) -> bytes:
    message = label + b"".join((p & _MASK).to_bytes(8, "big") for p in path)
    return hmac.new(key, message, hashlib.sha256).digest()


def keyed_seed(key: bytes, *path: int) -> int:
    """A deal seed for ``path`` under the secret ``key``: one-way, unlike :func:`derive_seed`.

    >>> keyed_seed(bytes(32), 0)
    15260329100516932772
    >>> keyed_seed(bytes(32), 0) != keyed_seed(bytes(32), 1)
    True
    """
    return int.from_bytes(_mac(key, b"bummerl-seed", path)[:8], "big")


def derive_key(key: bytes, *path: int) -> bytes:
    """A 32-byte child key for ``path`` under ``key`` (e.g. one key per match of a table).

    >>> len(derive_key(bytes(32), 3)), derive_key(bytes(32), 3) == derive_key(bytes(32), 4)
    (32, False)
    """
    return _mac(key, b"bummerl-key", path)


def key_commitment(key: bytes) -> str:
    """The SHA-256 (hex) of ``key``: published before the deals it decides, the key after them,
    so anyone can check that the deals were fixed in advance.

    >>> key_commitment(bytes(32))[:16]
    '66687aadf862bd77'
    """
    return hashlib.sha256(key).hexdigest()
