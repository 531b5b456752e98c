"""The compiled shuffle (src/bummerl/_crng.c) against the specification in Python (:mod:`bummerl.rng`).

Every deal of every game is a shuffle, so the compiled one must give exactly the Python stream: the same order
of the pack and the same generator state afterwards, for any seed and any length; and ``below`` the same value
where the rejection step happens (bounds just above 2**63 reject about half of the draws).
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bummerl import rng
from bummerl.cards import deck
from bummerl.game import Game
from bummerl.rng import SplitMix64

crng = pytest.importorskip("bummerl._crng", reason="the compiled shuffle was not built (no C compiler)")

_U64 = st.integers(0, 2**64 - 1)


@settings(max_examples=3000, deadline=None)
@given(state=_U64, length=st.integers(0, 70))
def test_the_compiled_shuffle_is_the_python_shuffle(state: int, length: int) -> None:
    compiled, reference = list(range(length)), list(range(length))
    a, b = SplitMix64(state), SplitMix64(state)
    a.shuffle(compiled)
    b.shuffle_python(reference)
    assert compiled == reference
    assert a.state == b.state


@settings(max_examples=3000, deadline=None)
@given(state=_U64, n=st.one_of(st.integers(1, 100), st.integers(2**63 - 5, 2**63 + 2**62), st.integers(1, 2**64 - 1)))
def test_the_compiled_below_rejects_as_the_python_below(state: int, n: int) -> None:
    python = SplitMix64(state)
    value = python.below(n)
    assert crng.below(state, n) == (python.state, value)


def test_a_rejected_draw_is_drawn_again_in_both() -> None:
    """A bound of 2**63 + 1 rejects the outputs from 2**63 - 1 up: some state must show it."""
    n = 2**63 + 1
    rejected = 0
    for state in range(200):
        python = SplitMix64(state)
        value = python.below(n)
        rejected += python.state != (state + 0x9E3779B97F4A7C15) % 2**64
        assert crng.below(state, n) == (python.state, value)
    assert rejected > 0


def test_deals_are_the_same_with_and_without_the_compiled_shuffle(monkeypatch: pytest.MonkeyPatch) -> None:
    compiled = [Game.deal(v, seed=s).deck for v in ("schnapsen", "66", "dreierschnapsen") for s in range(50)]
    monkeypatch.setattr(rng, "_c_shuffle", None)
    python = [Game.deal(v, seed=s).deck for v in ("schnapsen", "66", "dreierschnapsen") for s in range(50)]
    assert compiled == python
    assert set(compiled[0]) == set(deck(20))


def test_anything_but_a_list_is_shuffled_in_python() -> None:
    """A list subclass (or any mutable sequence the type allows at run time) takes the Python path."""

    class Pack(list[int]):
        pass

    items, reference = Pack(range(10)), list(range(10))
    SplitMix64(5).shuffle(items)
    SplitMix64(5).shuffle_python(reference)
    assert list(items) == reference
