"""Small statistics for bot comparisons: means, Student-t and Wilson intervals.

Standard library only (no SciPy): the Student-t quantile comes from the exact
closed form of the t distribution for an integer number of degrees of freedom
(Abramowitz & Stegun 26.7.3 and 26.7.4, finite sums of powers of
``cos(atan(t / sqrt(df)))``), inverted by bisection; above 1000 degrees of
freedom the Cornish-Fisher expansion around the normal quantile (A&S 26.7.5)
is used, which is then exact to far below the precision that matters.

>>> round(t_quantile(0.975, 10), 6)
2.228139
>>> lo, hi = t_interval([1.0, 2.0, 3.0, 4.0])
>>> round(lo, 4), round(hi, 4)
(0.4457, 4.5543)
>>> [round(x, 4) for x in wilson_interval(8, 10)]
[0.4902, 0.9433]

This module must never import from the rest of the package.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from statistics import NormalDist

__all__ = [
    "mean",
    "median",
    "ratio_interval",
    "standard_error",
    "t_interval",
    "t_quantile",
    "wilson_interval",
]

#: Above this many degrees of freedom :func:`t_quantile` uses the expansion.
_EXACT_DF_LIMIT = 1000


def mean(xs: Sequence[float]) -> float:
    """The arithmetic mean (``ValueError`` for no data)."""
    if not xs:
        raise ValueError("the mean of no data is undefined")
    return math.fsum(xs) / len(xs)


def median(xs: Sequence[float]) -> float:
    """The median (``ValueError`` for no data).

    >>> median([3.0, 1.0, 2.0]), median([4.0, 1.0, 2.0, 3.0])
    (2.0, 2.5)
    """
    if not xs:
        raise ValueError("the median of no data is undefined")
    s = sorted(xs)
    n = len(s)
    mid = n // 2
    return s[mid] if n % 2 else (s[mid - 1] + s[mid]) / 2


def standard_error(xs: Sequence[float]) -> float:
    """The standard error of the mean: sample standard deviation over sqrt(n).

    >>> round(standard_error([1.0, 2.0, 3.0, 4.0]), 6)
    0.645497
    """
    n = len(xs)
    if n < 2:
        raise ValueError(f"a standard error needs at least 2 values, got {n}")
    m = mean(xs)
    var = math.fsum((x - m) ** 2 for x in xs) / (n - 1)
    return math.sqrt(var / n)


def _t_central(t: float, df: int) -> float:
    """P(|T| < t) for Student's t with integer ``df`` (A&S 26.7.3/26.7.4)."""
    theta = math.atan(t / math.sqrt(df))
    c2 = math.cos(theta) ** 2
    if df % 2 == 1:
        if df == 1:
            return 2 * theta / math.pi
        term = math.cos(theta)
        total = term
        for k in range(1, (df - 1) // 2):
            term *= c2 * (2 * k) / (2 * k + 1)
            total += term
        return 2 / math.pi * (theta + math.sin(theta) * total)
    term = 1.0
    total = 1.0
    for k in range(1, df // 2):
        term *= c2 * (2 * k - 1) / (2 * k)
        total += term
    return math.sin(theta) * total


def _cornish_fisher(p: float, df: int) -> float:
    z = NormalDist().inv_cdf(p)
    g1 = (z**3 + z) / 4
    g2 = (5 * z**5 + 16 * z**3 + 3 * z) / 96
    g3 = (3 * z**7 + 19 * z**5 + 17 * z**3 - 15 * z) / 384
    g4 = (79 * z**9 + 776 * z**7 + 1482 * z**5 - 1920 * z**3 - 945 * z) / 92160
    return z + g1 / df + g2 / df**2 + g3 / df**3 + g4 / df**4


def t_quantile(p: float, df: int) -> float:
    """The ``p`` quantile of Student's t distribution with ``df`` degrees of freedom.

    >>> round(t_quantile(0.975, 1), 4), round(t_quantile(0.025, 4), 4)
    (12.7062, -2.7764)
    """
    if not 0 < p < 1:
        raise ValueError(f"a quantile needs 0 < p < 1, not {p}")
    if not isinstance(df, int) or df < 1:
        raise ValueError(f"degrees of freedom must be a positive integer, not {df!r}")
    if p < 0.5:
        return -t_quantile(1 - p, df)
    if p == 0.5:
        return 0.0
    if df > _EXACT_DF_LIMIT:
        return _cornish_fisher(p, df)
    target = 2 * p - 1
    lo, hi = 0.0, 1.0
    while _t_central(hi, df) < target:
        lo, hi = hi, hi * 2
    for _ in range(200):
        mid = (lo + hi) / 2
        if _t_central(mid, df) < target:
            lo = mid
        else:
            hi = mid
        if hi - lo < 1e-12 * max(1.0, hi):
            break
    return (lo + hi) / 2


def t_interval(xs: Sequence[float], confidence: float = 0.95) -> tuple[float, float]:
    """The Student-t confidence interval for the mean of independent values ``xs``."""
    n = len(xs)
    if n < 2:
        raise ValueError(f"a confidence interval needs at least 2 values, got {n}")
    m = mean(xs)
    half = t_quantile(0.5 + confidence / 2, n - 1) * standard_error(xs)
    return (m - half, m + half)


def ratio_interval(
    numerators: Sequence[float], denominators: Sequence[float], confidence: float = 0.95
) -> tuple[float, float]:
    """A confidence interval for ``sum(numerators) / sum(denominators)``.

    Each pair ``(numerators[i], denominators[i])`` is one independent unit (a
    duplicate deal: points difference, games played).  The ratio's standard
    error is the delta-method one, ``sqrt(sum(e_i**2) / (n (n-1))) / mean(d)``
    with residuals ``e_i = num_i - r * den_i``, and the interval uses the t
    quantile with ``n - 1`` degrees of freedom.  With equal denominators this is
    exactly :func:`t_interval` of ``num_i / den``.

    >>> ratio_interval([2.0, 4.0, 6.0, 8.0], [2, 2, 2, 2]) == t_interval([1.0, 2.0, 3.0, 4.0])
    True
    """
    n = len(numerators)
    if n != len(denominators):
        raise ValueError(f"{n} numerators but {len(denominators)} denominators")
    if n < 2:
        raise ValueError(f"a confidence interval needs at least 2 units, got {n}")
    total = math.fsum(denominators)
    if total <= 0:
        raise ValueError("the denominators must have a positive sum")
    if all(d == denominators[0] for d in denominators):
        d = denominators[0]
        return t_interval([x / d for x in numerators], confidence)
    r = math.fsum(numerators) / total
    mean_den = total / n
    resid = math.fsum((x - r * d) ** 2 for x, d in zip(numerators, denominators, strict=True))
    se = math.sqrt(resid / (n * (n - 1))) / mean_den
    half = t_quantile(0.5 + confidence / 2, n - 1) * se
    return (r - half, r + half)


def wilson_interval(successes: int, n: int, confidence: float = 0.95) -> tuple[float, float]:
    """The Wilson score interval for a proportion ``successes / n``.

    It stays inside [0, 1] and behaves well near 0 and 1, unlike the normal
    ("Wald") interval; it assumes independent trials.

    >>> wilson_interval(0, 10)[0], round(wilson_interval(0, 10)[1], 4)
    (0.0, 0.2775)
    """
    if n <= 0:
        raise ValueError(f"a proportion needs at least one trial, got {n}")
    if not 0 <= successes <= n:
        raise ValueError(f"successes must be between 0 and {n}, not {successes}")
    z = NormalDist().inv_cdf(0.5 + confidence / 2)
    p = successes / n
    z2n = z * z / n
    center = (p + z2n / 2) / (1 + z2n)
    half = z / (1 + z2n) * math.sqrt(p * (1 - p) / n + z2n / (4 * n))
    # At 0 and n the bounds are exactly 0 and 1; say so without rounding noise.
    lo = 0.0 if successes == 0 else max(0.0, center - half)
    hi = 1.0 if successes == n else min(1.0, center + half)
    return (lo, hi)
