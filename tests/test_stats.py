"""bummerl.stats against published table values and hand computations."""

from __future__ import annotations

import math
import random

import pytest

from bummerl.stats import (
    mean,
    median,
    ratio_interval,
    standard_error,
    t_interval,
    t_quantile,
    wilson_interval,
)

#: Two-sided 95% critical values t(0.975, df) as printed in standard Student-t tables
#: (e.g. NIST/SEMATECH e-Handbook of Statistical Methods, section 1.3.6.7.2).
T_975 = {
    1: 12.706,
    2: 4.303,
    3: 3.182,
    4: 2.776,
    5: 2.571,
    10: 2.228,
    20: 2.086,
    30: 2.042,
    50: 2.009,
    100: 1.984,
}


@pytest.mark.parametrize(("df", "expected"), sorted(T_975.items()))
def test_t_quantile_matches_the_table(df: int, expected: float) -> None:
    assert t_quantile(0.975, df) == pytest.approx(expected, abs=5e-4)


def test_t_quantile_other_levels_and_symmetry() -> None:
    """NIST table: t(0.95, 10) = 1.812, t(0.995, 10) = 3.169; the distribution is symmetric."""
    assert t_quantile(0.95, 10) == pytest.approx(1.812, abs=5e-4)
    assert t_quantile(0.995, 10) == pytest.approx(3.169, abs=5e-4)
    assert t_quantile(0.025, 7) == -t_quantile(0.975, 7)
    assert t_quantile(0.5, 3) == 0.0


def test_closed_forms_for_one_and_two_degrees_of_freedom() -> None:
    """df 1 is the Cauchy distribution: t = tan(pi (p - 1/2)); df 2: t = (2p-1) sqrt(2 / (1 - (2p-1)^2))."""
    for p in (0.6, 0.9, 0.975, 0.999):
        assert t_quantile(p, 1) == pytest.approx(math.tan(math.pi * (p - 0.5)), rel=1e-9)
        a = 2 * p - 1
        assert t_quantile(p, 2) == pytest.approx(a * math.sqrt(2 / (1 - a * a)), rel=1e-9)


def test_expansion_joins_the_exact_form() -> None:
    """Above 1000 degrees of freedom the Cornish-Fisher expansion takes over without a jump, and
    the quantile tends to the normal one (1.959964)."""
    assert t_quantile(0.975, 1001) == pytest.approx(t_quantile(0.975, 1000), abs=1e-5)
    assert t_quantile(0.975, 1000) > t_quantile(0.975, 1001) > t_quantile(0.975, 10**6) > 1.95996
    assert t_quantile(0.975, 10**6) == pytest.approx(1.959964, abs=1e-5)


def test_bad_arguments() -> None:
    with pytest.raises(ValueError, match="0 < p < 1"):
        t_quantile(1.0, 3)
    with pytest.raises(ValueError, match="positive integer"):
        t_quantile(0.9, 0)
    with pytest.raises(ValueError, match="at least 2"):
        t_interval([1.0])
    with pytest.raises(ValueError, match="no data"):
        mean([])
    with pytest.raises(ValueError, match="at least one trial"):
        wilson_interval(0, 0)


def test_t_interval_by_hand() -> None:
    """[2, 4, 4, 4, 5, 5, 7, 9]: mean 5, sample sd sqrt(32/7), se sqrt(32/7)/sqrt(8) = 0.7559,
    t(0.975, 7) = 2.365 -> 5 +- 1.788."""
    xs = [2.0, 4.0, 4.0, 4.0, 5.0, 5.0, 7.0, 9.0]
    assert mean(xs) == 5.0 and median(xs) == 4.5
    assert standard_error(xs) == pytest.approx(math.sqrt(32 / 7) / math.sqrt(8))
    lo, hi = t_interval(xs)
    assert lo == pytest.approx(5 - 1.7874, abs=1e-3) and hi == pytest.approx(5 + 1.7874, abs=1e-3)


def test_t_interval_covers_the_mean_95_percent_of_the_time() -> None:
    """Coverage over 4000 seeded samples of 6 normal values: 95% within sampling error (±1.2%)."""
    rng = random.Random(12345)
    hits = 0
    trials = 4000
    for _ in range(trials):
        lo, hi = t_interval([rng.gauss(3.0, 2.0) for _ in range(6)])
        hits += lo <= 3.0 <= hi
    assert abs(hits / trials - 0.95) < 0.012


def test_ratio_interval_by_hand() -> None:
    """Numerators 3, 1, 4 over denominators 2, 2, 4: r = 8/8 = 1; residuals 1, -1, 0;
    se = sqrt(2 / (3*2)) / (8/3) = 0.21651; t(0.975, 2) = 4.3027 -> 1 +- 0.93159."""
    lo, hi = ratio_interval([3.0, 1.0, 4.0], [2.0, 2.0, 4.0])
    assert lo == pytest.approx(1 - 0.93159, abs=1e-4) and hi == pytest.approx(1 + 0.93159, abs=1e-4)
    assert ratio_interval([2.0, 4.0, 6.0], [2.0, 2.0, 2.0]) == t_interval([1.0, 2.0, 3.0])
    with pytest.raises(ValueError, match="2 numerators but 1 denominators"):
        ratio_interval([1.0, 2.0], [1.0])


@pytest.mark.parametrize(
    ("k", "n", "lo", "hi"),
    [
        # Wilson (1927) score interval, z = 1.96; values as tabulated by Newcombe (1998), Table I.
        (81, 263, 0.2553, 0.3662),
        (15, 148, 0.0624, 0.1605),
        (0, 20, 0.0, 0.1611),
        (1, 29, 0.0061, 0.1718),
    ],
)
def test_wilson_interval_against_newcombe(k: int, n: int, lo: float, hi: float) -> None:
    got = wilson_interval(k, n)
    assert got[0] == pytest.approx(lo, abs=1e-4) and got[1] == pytest.approx(hi, abs=1e-4)


def test_wilson_interval_at_the_edges() -> None:
    assert wilson_interval(10, 10)[1] == 1.0
    assert wilson_interval(0, 10)[0] == 0.0
    lo, hi = wilson_interval(50, 100)
    assert lo == pytest.approx(1 - hi)
