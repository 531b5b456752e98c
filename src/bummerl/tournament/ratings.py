"""Bradley-Terry ratings with 95% intervals, on the Elo scale.

**The model.**  Bot ``i`` has a strength ``t_i`` and scores against ``j`` with
probability ``1 / (1 + exp(t_j - t_i))`` (Bradley & Terry 1952).  An
observation is one duplicate deal of one pairing, scored 1, 0.5 or 0 for the
first bot (:func:`bummerl.tournament.outcomes.deal_score`): the deals are the
independent units, as in the arena's intervals, and a draw counts half a win
(the likelihood ``s log p + (1 - s) log(1 - p)``, as Elo counts draws).

**The scale.**  A rating is ``400 / ln 10 * t`` (Elo's: 200 points more means an
expected score of 76%), anchored at **mean 0** over the bots of the tournament,
so every bot gets an interval and a rating says how far a bot is above the field.

**The fit** is the posterior mode under a normal prior with a standard deviation
of :data:`PRIOR_ELO` Elo on each rating: a bot that won every deal gets a large
but finite rating instead of an infinite one, and bots that never met through
any chain of games (one Swiss round) stay comparable; with a few dozen deals
per pairing the data outweigh the prior.  The log posterior is strictly
concave, so Newton's method (with step halving) finds the one maximum in a
handful of steps.

**The interval** is ``rating ± 1.96 sd``, the standard deviations from the
inverse of the observed information (the negative Hessian of the log posterior
at the mode: the Laplace approximation), transformed to the mean-0 anchor.
``tests/test_tournament.py`` checks it against the closed form for two bots and
its coverage (about 95%) on simulated tournaments with known strengths.

>>> ratings = bradley_terry(2, [(0, 1, 1.0)] * 30 + [(0, 1, 0.0)] * 10)
>>> [round(r.rating, 1) for r in ratings], [round(x) for x in ratings[0].interval]
([95.2, -95.2], [33, 157])
>>> round(expected_score(ratings[0].rating - ratings[1].rating), 4)  # 30 of 40, shrunk a little by the prior
0.7496

**Why no library.**  ``choix`` (PyPI, 0.4.1) fits Bradley-Terry models by
maximum likelihood or with a penalty, but it gives no intervals and no draws,
and it needs NumPy and SciPy; SciPy alone would give an optimiser and not the
model.  Both are heavy for a fit of a few dozen parameters that takes 40 lines,
and the ratings are the tournament's main output: ``bummerl tournament`` should
need no extra for them, as the arena computes its t quantiles without SciPy
(:mod:`bummerl.stats`).  Only the plot needs an extra (matplotlib).

This module computes; it reads no files and plays nothing.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Iterable, Sequence
from statistics import NormalDist

__all__ = ["ELO", "PRIOR_ELO", "Z95", "Rating", "bradley_terry", "expected_score"]

#: Elo points per unit of Bradley-Terry strength: 400 / ln 10.
ELO = 400 / math.log(10)
#: The prior's standard deviation of a rating, in Elo points.
PRIOR_ELO = 1000.0
#: The 97.5% quantile of the standard normal distribution.
Z95 = NormalDist().inv_cdf(0.975)


@dataclasses.dataclass(frozen=True)
class Rating:
    """One bot's rating (Elo scale, mean 0), its 95% interval and standard deviation."""

    rating: float
    interval: tuple[float, float]
    sd: float


def expected_score(difference: float) -> float:
    """The expected score of a bot rated ``difference`` Elo points above its opponent.

    >>> expected_score(0.0), round(expected_score(200.0), 3)
    (0.5, 0.76)
    """
    return 1.0 / (1.0 + math.pow(10.0, -difference / 400.0))


def bradley_terry(
    players: int, outcomes: Iterable[tuple[int, int, float]], prior_elo: float = PRIOR_ELO
) -> list[Rating]:
    """The ratings of ``players`` bots from ``outcomes``: ``(i, j, s)``, bot ``i``'s score ``s`` against ``j``.

    ``s`` is 1 for a win, 0.5 for a draw, 0 for a loss (any value in between is
    allowed).  See the module docstring for the model, the prior and the interval.
    """
    if players < 1:
        raise ValueError(f"ratings need at least one player, not {players}")
    if not prior_elo > 0:
        raise ValueError(f"the prior's standard deviation must be positive, not {prior_elo}")
    games = [[0.0] * players for _ in range(players)]
    score = [[0.0] * players for _ in range(players)]
    for i, j, s in outcomes:
        if not (0 <= i < players and 0 <= j < players) or i == j:
            raise ValueError(f"an outcome needs two different players of 0..{players - 1}, not {i} and {j}")
        if not 0.0 <= s <= 1.0:
            raise ValueError(f"a score is between 0 and 1, not {s}")
        games[i][j] += 1
        games[j][i] += 1
        score[i][j] += s
        score[j][i] += 1 - s
    precision = (ELO / prior_elo) ** 2
    theta = _mode(games, score, precision)
    # The mean-0 anchor: the covariance of t - mean(t) is C S C, C = I - 1/n, S the inverse information.
    # The data say nothing about the mean (only the weak prior does), so S is huge along (1, ..., 1) and
    # C S C would cancel it digit by digit; (information + J)^-1 is S on the differences and small along
    # (1, ..., 1), which C removes: the same C S C, computed without the cancellation.
    covariance = _inverse(_plus_ones(_information(theta, games, precision)))
    n = players
    row_means = [sum(row) / n for row in covariance]
    total_mean = sum(row_means) / n
    out = []
    for i in range(n):
        variance = covariance[i][i] - 2 * row_means[i] + total_mean
        sd = ELO * math.sqrt(max(variance, 0.0))
        rating = ELO * theta[i]
        out.append(Rating(rating, (rating - Z95 * sd, rating + Z95 * sd), sd))
    return out


def _plus_ones(matrix: list[list[float]]) -> list[list[float]]:
    """``matrix + J``, J the matrix of ones."""
    return [[x + 1.0 for x in row] for row in matrix]


def _p(x: float) -> float:
    """The logistic function, without overflow."""
    if x >= 0:
        return 1.0 / (1.0 + math.exp(-x))
    e = math.exp(x)
    return e / (1.0 + e)


def _log_posterior(theta: Sequence[float], games: list[list[float]], score: list[list[float]], prec: float) -> float:
    total = -0.5 * prec * sum(t * t for t in theta)
    for i, row in enumerate(games):
        for j in range(i + 1, len(row)):
            if row[j]:
                p = min(max(_p(theta[i] - theta[j]), 1e-300), 1 - 1e-16)
                total += score[i][j] * math.log(p) + score[j][i] * math.log1p(-p)
    return total


def _gradient(theta: Sequence[float], games: list[list[float]], score: list[list[float]], prec: float) -> list[float]:
    n = len(theta)
    return [
        sum(score[i][j] - games[i][j] * _p(theta[i] - theta[j]) for j in range(n) if games[i][j]) - prec * theta[i]
        for i in range(n)
    ]


def _information(theta: Sequence[float], games: list[list[float]], prec: float) -> list[list[float]]:
    """The negative Hessian of the log posterior (positive definite: the prior adds ``prec`` on the diagonal)."""
    n = len(theta)
    info = [[0.0] * n for _ in range(n)]
    for i in range(n):
        info[i][i] = prec
        for j in range(n):
            if j != i and games[i][j]:
                p = _p(theta[i] - theta[j])
                w = games[i][j] * p * (1 - p)
                info[i][i] += w
                info[i][j] -= w
    return info


def _mode(games: list[list[float]], score: list[list[float]], prec: float) -> list[float]:
    """The posterior mode by Newton's method, halving a step that would lower the posterior.

    The mode has mean 0 (the data depend on differences only, the prior is
    symmetric), so the search stays there: each step is centred, and solved
    with the information plus J, which is the information on the differences
    and well conditioned however weak the prior is.
    """
    theta = [0.0] * len(games)
    current = _log_posterior(theta, games, score, prec)
    for _ in range(200):
        step = _solve(_plus_ones(_information(theta, games, prec)), _gradient(theta, games, score, prec))
        mean = sum(step) / len(step)
        step = [d - mean for d in step]
        scale = 1.0
        while True:
            trial = [t + scale * d for t, d in zip(theta, step, strict=True)]
            value = _log_posterior(trial, games, score, prec)
            if value >= current or scale < 1e-6:
                break
            scale /= 2
        theta, current = trial, value
        if max((abs(scale * d) for d in step), default=0.0) < 1e-10:
            break
    return theta


def _cholesky(a: list[list[float]]) -> list[list[float]]:
    n = len(a)
    low = [[0.0] * n for _ in range(n)]
    for i in range(n):
        for j in range(i + 1):
            s = a[i][j] - sum(low[i][k] * low[j][k] for k in range(j))
            low[i][j] = math.sqrt(s) if i == j else s / low[j][j]
    return low


def _solve_cholesky(low: list[list[float]], b: Sequence[float]) -> list[float]:
    n = len(low)
    y = [0.0] * n
    for i in range(n):
        y[i] = (b[i] - sum(low[i][k] * y[k] for k in range(i))) / low[i][i]
    x = [0.0] * n
    for i in reversed(range(n)):
        x[i] = (y[i] - sum(low[k][i] * x[k] for k in range(i + 1, n))) / low[i][i]
    return x


def _solve(a: list[list[float]], b: Sequence[float]) -> list[float]:
    """``x`` with ``a x = b`` for a symmetric positive definite ``a``."""
    return _solve_cholesky(_cholesky(a), b)


def _inverse(a: list[list[float]]) -> list[list[float]]:
    low = _cholesky(a)
    n = len(a)
    columns = [_solve_cholesky(low, [1.0 if k == i else 0.0 for k in range(n)]) for i in range(n)]
    return [[columns[j][i] for j in range(n)] for i in range(n)]
