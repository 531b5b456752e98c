"""The sequential probability ratio test of the arena: stop as soon as the deals decide (``bummerl arena --sprt``).

A generalized SPRT (GSPRT) with the normal approximation that fishtest uses
for chess engines, on **per-deal scores**.  A game scores 1 for bot ``a`` when
only a's side scored in it, 0 when only b's did, and 0.5 when neither or both
did (a 65:65 in Sechsundsechzig, a redeal); a deal's score is the mean over its
games (every seating, and with ``unit="bummerl"`` every game of the matches),
the same for two players and the table games (:func:`game_score` reads a
game's ``side_points``).  The hypotheses are Elo differences, turned into
expected scores by the logistic curve ``E = 1 / (1 + 10^(-elo/400))``:

>>> round(expected_score(0), 4), round(expected_score(50), 4), round(elo_from_score(0.75), 1)
(0.5, 0.5715, 190.8)

With ``s0 = E(elo0)``, ``s1 = E(elo1)`` and the mean ``m`` and variance ``v``
of ``n`` deal scores, the log-likelihood ratio is
``LLR = n (s1 - s0) (2m - s0 - s1) / (2v)``.  The test accepts H1 (a is at
least ``elo1`` stronger) when ``LLR >= ln((1 - beta) / alpha)`` and H0 (at
most ``elo0``) when ``LLR <= ln(beta / (1 - alpha))``.  ``v`` is the sample
variance with one pseudo-deal of variance :data:`PRIOR_VARIANCE` (1/8, a
deal of two independent coin-flip games) added:
``v = (sum((x - m)^2) + 1/8) / n``.  Without it deals that all score the same
(two deterministic bots that play alike score exactly 0.5 on every duplicate
deal) would have no variance and never decide, and two lucky first deals
would decide at once; its weight fades as deals come in.

>>> test = Sprt(0, 50)
>>> round(test.lower, 4), round(test.upper, 4)
(-2.9444, 2.9444)
>>> round(llr([1.0, 0.5, 1.0, 0.0, 1.0], 0, 50), 4)  # m 0.7, v (0.8 + 0.125) / 5: 5 * 0.071463 * 0.328537 / 0.37
0.3173

The test is evaluated after every deal **in deal-index order**: a result that
arrives before an earlier deal's waits until the prefix is complete
(:class:`SequentialTest`), so a seed gives the same decision after the same
number of deals on every backend and with any number of jobs:

>>> seq = SequentialTest(Sprt(0, 50))
>>> seq.add(1, 1.0)  # deal 0 is still missing: nothing is evaluated
>>> seq.counted
0
>>> seq.add(0, 0.5)
>>> seq.counted, seq.result
(2, 'inconclusive')

:func:`elo_estimate` is the Elo of the mean deal score with a 95% normal
interval from the same variance (scores clamped to [0.001, 0.999], about
±1200 Elo).

This module is pure: standard library only, it plays and prints nothing.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Iterable, Mapping, Sequence
from statistics import NormalDist
from typing import Any

__all__ = [
    "PRIOR_VARIANCE",
    "SCORE_CLAMP",
    "SequentialTest",
    "Sprt",
    "deal_score",
    "elo_estimate",
    "elo_from_score",
    "expected_score",
    "format_sprt",
    "game_score",
    "llr",
    "mean_variance",
]

#: Scores are clamped to ``[SCORE_CLAMP, 1 - SCORE_CLAMP]`` before they become Elo (a finite ±1199.8).
SCORE_CLAMP = 0.001
#: The variance of the one pseudo-deal added to the sample variance: two independent games scoring 0 or 1.
PRIOR_VARIANCE = 0.125


def expected_score(elo: float) -> float:
    """The expected score of a player ``elo`` points stronger: ``1 / (1 + 10^(-elo/400))``.

    >>> expected_score(0), round(expected_score(-400), 4)
    (0.5, 0.0909)
    """
    return 1.0 / (1.0 + math.pow(10.0, -elo / 400.0))


def elo_from_score(score: float) -> float:
    """The Elo difference whose expected score is ``score`` (clamped, see :data:`SCORE_CLAMP`).

    >>> elo_from_score(0.5), round(elo_from_score(1.0), 1)
    (0.0, 1199.8)
    """
    s = min(max(score, SCORE_CLAMP), 1.0 - SCORE_CLAMP)
    return -400.0 * math.log10(1.0 / s - 1.0) + 0.0  # + 0.0: never -0.0


def game_score(side_points: Mapping[str, int]) -> float:
    """One game's score for bot ``a``: 1 if only a's side scored, 0 if only b's, else 0.5.

    >>> game_score({"a": 2, "b": 0}), game_score({"a": 0, "b": 3}), game_score({"a": 0, "b": 0})
    (1.0, 0.0, 0.5)
    """
    a, b = side_points["a"] > 0, side_points["b"] > 0
    if a and not b:
        return 1.0
    if b and not a:
        return 0.0
    return 0.5


def deal_score(games: Iterable[Mapping[str, int]]) -> float:
    """A deal's score for bot ``a``: the mean :func:`game_score` of its games' ``side_points``.

    >>> deal_score([{"a": 2, "b": 0}, {"a": 0, "b": 1}]), deal_score([{"a": 1, "b": 0}, {"a": 3, "b": 0}])
    (0.5, 1.0)
    """
    scores = [game_score(g) for g in games]
    if not scores:
        raise ValueError("a deal without games has no score")
    return math.fsum(scores) / len(scores)


def mean_variance(scores: Sequence[float]) -> tuple[float, float]:
    """The mean of ``scores`` and their variance with the pseudo-deal: ``(sum((x - m)^2) + 1/8) / n``.

    >>> mean_variance([0.5, 0.5]), mean_variance([1.0, 0.0])
    ((0.5, 0.0625), (0.5, 0.3125))
    """
    n = len(scores)
    if not n:
        raise ValueError("no deal scores")
    m = math.fsum(scores) / n
    return m, (math.fsum((x - m) ** 2 for x in scores) + PRIOR_VARIANCE) / n


def llr(scores: Sequence[float], elo0: float, elo1: float) -> float:
    """The GSPRT log-likelihood ratio of H1 (``elo1``) against H0 (``elo0``) for the deal ``scores``.

    ``n (s1 - s0) (2 mean - s0 - s1) / (2 var)`` (:func:`mean_variance`); 0 for no scores.

    >>> round(llr([0.5] * 12, 0, 50), 3), round(llr([1.0] * 3, 0, 50), 3), llr([], 0, 50)
    (-2.942, 2.389, 0.0)
    """
    if not scores:
        return 0.0
    m, var = mean_variance(scores)
    s0, s1 = expected_score(elo0), expected_score(elo1)
    return len(scores) * (s1 - s0) * (2.0 * m - s0 - s1) / (2.0 * var)


def elo_estimate(scores: Sequence[float]) -> tuple[float, list[float] | None]:
    """The Elo of the mean deal score and its 95% interval (normal, ``None`` below two scores).

    >>> elo, (lo, hi) = elo_estimate([1.0, 0.5, 1.0, 0.5])
    >>> round(elo, 1), round(lo, 1), round(hi, 1)
    (190.8, -34.9, 1199.8)
    """
    if not scores:
        raise ValueError("an Elo estimate needs at least one deal")
    n = len(scores)
    if n < 2:
        return elo_from_score(scores[0]), None
    m, var = mean_variance(scores)
    half = NormalDist().inv_cdf(0.975) * math.sqrt(var / n)
    return elo_from_score(m), [elo_from_score(m - half), elo_from_score(m + half)]


@dataclasses.dataclass(frozen=True)
class Sprt:
    """The hypotheses ``elo0 < elo1`` (Elo of a over b) and the error rates ``alpha``, ``beta`` in (0, 0.5).

    >>> Sprt.parse("0,50")
    Sprt(elo0=0.0, elo1=50.0, alpha=0.05, beta=0.05)
    >>> Sprt(10, 10)
    Traceback (most recent call last):
    ...
    ValueError: --sprt needs ELO0 < ELO1, got 10, 10
    """

    elo0: float
    elo1: float
    alpha: float = 0.05
    beta: float = 0.05

    def __post_init__(self) -> None:
        values = (self.elo0, self.elo1, self.alpha, self.beta)
        if not all(math.isfinite(v) for v in values):
            raise ValueError(f"--sprt needs finite numbers, got {', '.join(f'{v:g}' for v in values)}")
        if not self.elo0 < self.elo1:
            raise ValueError(f"--sprt needs ELO0 < ELO1, got {self.elo0:g}, {self.elo1:g}")
        for name, value in (("alpha", self.alpha), ("beta", self.beta)):
            if not 0.0 < value < 0.5:
                raise ValueError(f"--{name} must lie strictly between 0 and 0.5, got {value:g}")

    @classmethod
    def parse(cls, text: str, alpha: float = 0.05, beta: float = 0.05) -> Sprt:
        """``"ELO0,ELO1"`` (as ``--sprt`` takes it) with the error rates."""
        parts = text.split(",")
        try:
            if len(parts) != 2:
                raise ValueError
            elo0, elo1 = (float(p) for p in parts)
        except ValueError:
            raise ValueError(f"--sprt takes ELO0,ELO1 (two numbers, e.g. 0,50), not {text!r}") from None
        return cls(elo0, elo1, alpha, beta)

    @property
    def lower(self) -> float:
        """The bound at or below which H0 is accepted: ``ln(beta / (1 - alpha))``."""
        return math.log(self.beta / (1.0 - self.alpha))

    @property
    def upper(self) -> float:
        """The bound at or above which H1 is accepted: ``ln((1 - beta) / alpha)``."""
        return math.log((1.0 - self.beta) / self.alpha)

    def decide(self, value: float) -> str:
        """``"H1"``, ``"H0"`` or ``"inconclusive"`` for a log-likelihood ratio.

        >>> Sprt(0, 50).decide(3.0), Sprt(0, 50).decide(-3.0), Sprt(0, 50).decide(0.0)
        ('H1', 'H0', 'inconclusive')
        """
        if value >= self.upper:
            return "H1"
        if value <= self.lower:
            return "H0"
        return "inconclusive"


class SequentialTest:
    """The test fed deal scores in any order, evaluated over the complete prefix ``0 .. counted - 1``.

    Once decided, further scores are kept but never counted, so the decision and
    :attr:`counted` depend only on the scores, not on the order they came in.

    >>> seq = SequentialTest(Sprt(0, 50))
    >>> for deal in [3, 2, 1, 0, 4, 6, 5]:
    ...     seq.add(deal, [1.0, 0.5, 1.0, 1.0, 0.75, 1.0, 1.0][deal])
    >>> seq.counted, seq.result, round(seq.llr, 3)
    (7, 'H1', 3.502)
    >>> seq.add(7, 0.0)  # after the decision: kept out of the test
    >>> seq.counted, seq.result
    (7, 'H1')
    """

    def __init__(self, sprt: Sprt) -> None:
        self.sprt = sprt
        self.scores: list[float] = []
        self.llr = 0.0
        self.result = "inconclusive"
        self._waiting: dict[int, float] = {}

    @property
    def counted(self) -> int:
        """Deals the test has evaluated: the prefix up to the decision (or all complete ones)."""
        return len(self.scores)

    @property
    def decided(self) -> bool:
        """Whether a bound was crossed."""
        return self.result != "inconclusive"

    def add(self, deal: int, score: float) -> None:
        """Record deal ``deal``'s score and evaluate every deal that now completes the prefix."""
        if deal < 0:
            raise ValueError(f"deal indices start at 0, got {deal}")
        self._waiting[deal] = score
        while not self.decided and self.counted in self._waiting:
            self.scores.append(self._waiting.pop(self.counted))
            self.llr = llr(self.scores, self.sprt.elo0, self.sprt.elo1)
            self.result = self.sprt.decide(self.llr)

    def report(self) -> dict[str, Any]:
        """The report's ``"sprt"`` object over the counted deals."""
        elo, interval = elo_estimate(self.scores) if self.scores else (0.0, None)
        return {
            "elo0": self.sprt.elo0,
            "elo1": self.sprt.elo1,
            "alpha": self.sprt.alpha,
            "beta": self.sprt.beta,
            "llr": self.llr,
            "lower": self.sprt.lower,
            "upper": self.sprt.upper,
            "result": self.result,
            "deals": self.counted,
            "elo": elo,
            "elo_interval": interval,
        }


def format_sprt(entry: Mapping[str, Any]) -> list[str]:
    """The report's SPRT lines (for :func:`bummerl.arena.report.format_report`'s caller).

    >>> seq = SequentialTest(Sprt(0, 50))
    >>> for deal, score in enumerate([1.0, 0.5, 1.0, 1.0]):
    ...     seq.add(deal, score)
    >>> print("\\n".join(format_sprt(seq.report())))
    SPRT elo0 0, elo1 50 (alpha 0.05, beta 0.05): LLR 1.24 in (-2.94, 2.94) -> inconclusive after 4 deals
    Elo of a over b: +338.0, 95% CI [+71.2, +1199.8] (from the 4 counted deals' scores)
    """
    interval = entry["elo_interval"]
    ci = f"[{interval[0]:+.1f}, {interval[1]:+.1f}]" if interval else "n/a (needs 2 deals)"
    return [
        f"SPRT elo0 {entry['elo0']:g}, elo1 {entry['elo1']:g} (alpha {entry['alpha']:g}, beta {entry['beta']:g}):"
        f" LLR {entry['llr']:.2f} in ({entry['lower']:.2f}, {entry['upper']:.2f}) -> {entry['result']}"
        f" after {entry['deals']} deals",
        f"Elo of a over b: {entry['elo']:+.1f}, 95% CI {ci} (from the {entry['deals']} counted deals' scores)",
    ]
