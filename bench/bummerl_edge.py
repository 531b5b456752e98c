"""What a per-game edge is worth in whole Bummerl, and how many Bummerl a test needs to see it.

    python bench/bummerl_edge.py                      # Schnapsen: game points per game -> Bummerl won
    python bench/bummerl_edge.py --bummerl 0.55       # the per-game edge a 55% Bummerl share needs
    python bench/bummerl_edge.py --edge -0.088 -0.012 0.064   # an A/B's estimate and interval, in Bummerl
    python bench/bummerl_edge.py --variant sechsundsechzig --target 7

A strength test plays whole Bummerl (first to 7 game points) but most A/B runs measure game points per game.
This script links the two under a plain model: each game is won by the stronger side with the same
probability ``q`` whatever the score and the deal, and the winner's points follow the measured distribution of
the variant (:data:`bummerl.bots.match_equity.GAME_POINT_COUNTS`, self-play of ``hard``, both roles pooled).
Then the edge in game points per game is ``(2q - 1)`` times the mean points of a won game, and the share of
Bummerl won is exact (a recursion over the score, :func:`bummerl_share`).  (The match equity table of
:mod:`bummerl.bots.match_equity` recurses over the score too, but for two equal players by deal role; it has no
stronger side to model.)  The last column is how many
Bummerl a test needs for its 95% interval to be as narrow as the row's distance from 50% (normal
approximation): a lower bound, since at that size the estimate falls below the true share, and the interval
reaches 50%, in about half of the tests.

The model leaves out what the arena does see: that the edge may differ by deal role or score (match play),
that the stronger side may win bigger games rather than more games, and that duplicate deals pair Bummerl.
Read it by the edge in game points, not by the share of games: `expert` against `heuristic` won 61% of the
games but +0.61 to +0.64 game points per game (docs/bots.md, "Current `expert`"); at that edge the model says
78-80% of the Bummerl, and the arena measured 80.5% (200 Bummerl) and 81.5% (260).  It is a planning figure
for a test, never a result.
"""

from __future__ import annotations

import argparse
import functools
import math
import sys
from collections.abc import Mapping, Sequence


def bummerl_share(games_won: float, points: Mapping[int, float], target: int = 7) -> float:
    """The probability of winning a Bummerl to ``target`` from 0:0 when each game is won with probability
    ``games_won`` and a won game scores ``k`` points with probability ``points[k]``.

    >>> bummerl_share(0.5, {1: 1.0})
    0.5
    >>> round(bummerl_share(0.6, {1: 1.0}, target=1), 12)    # one game decides
    0.6
    >>> bummerl_share(0.55, {1: 0.4, 2: 0.3, 3: 0.3}) > 0.55  # a longer match favours the stronger side
    True
    """
    if not 0.0 <= games_won <= 1.0:
        raise ValueError(f"games_won is a probability, not {games_won}")
    total = sum(points.values())
    dist = [(k, p / total) for k, p in points.items() if p > 0]
    if not dist or any(k < 1 for k, _ in dist):
        raise ValueError("a won game scores at least one point")

    @functools.cache
    def win(a: int, b: int) -> float:  # the stronger side needs a, the other b
        if a <= 0:
            return 1.0
        if b <= 0:
            return 0.0
        return sum(p * (games_won * win(a - k, b) + (1 - games_won) * win(a, b - k)) for k, p in dist)

    return win(target, target)


def edge_for(share: float, points: Mapping[int, float], target: int = 7) -> float:
    """The share of games won that gives a Bummerl share of ``share`` (bisection; the share grows with it).

    >>> q = edge_for(0.55, {1: 1.0})
    >>> abs(bummerl_share(q, {1: 1.0}) - 0.55) < 1e-9
    True
    """
    if not 0.0 < share < 1.0:
        raise ValueError(f"share is a probability strictly between 0 and 1, not {share}")
    lo, hi = 0.0, 1.0
    for _ in range(60):
        mid = (lo + hi) / 2
        if bummerl_share(mid, points, target) < share:
            lo = mid
        else:
            hi = mid
    return (lo + hi) / 2


def bummerl_needed(share: float, z: float = 1.96) -> int:
    """Bummerl for a 95% interval of half-width ``share - 0.5`` (normal approximation): ``(z / 2 / d)^2``.

    >>> bummerl_needed(0.55)
    385
    """
    d = share - 0.5
    if d <= 0:
        raise ValueError("only a share above 50% can be told from 50%")
    return math.ceil((z * 0.5 / d) ** 2)


def won_game_points(variant: str) -> dict[int, float]:
    """The measured distribution of a won game's points in ``variant`` (both roles pooled).

    >>> sorted(won_game_points("schnapsen"))
    [1, 2, 3]
    """
    from bummerl.bots.match_equity import GAME_POINT_COUNTS

    if variant not in GAME_POINT_COUNTS:
        raise ValueError(f"no measured game points for {variant!r}: one of {sorted(GAME_POINT_COUNTS)}")
    vorhand, dealer, _ = GAME_POINT_COUNTS[variant]
    counts = {k: vorhand.get(k, 0) + dealer.get(k, 0) for k in set(vorhand) | set(dealer)}
    total = sum(counts.values())
    return {k: n / total for k, n in sorted(counts.items())}


def table(variant: str, target: int, edges: Sequence[float]) -> list[dict[str, float]]:
    """One row per edge in game points per game: the model's share of games won, the Bummerl share, the
    Bummerl a test needs.

    >>> [round(r["bummerl"], 3) for r in table("schnapsen", 7, [0.0, 0.1])]
    [0.5, 0.55]
    """
    points = won_game_points(variant)
    mean = sum(k * p for k, p in points.items())
    rows = []
    for edge in edges:
        if abs(edge) > mean:
            raise ValueError(f"an edge of {edge} game points per game is more than a won game scores ({mean:.3f})")
        q = 0.5 + edge / (2 * mean)
        b = bummerl_share(q, points, target)
        rows.append(
            {
                "edge": edge,
                "games_won": q,
                "bummerl": b,
                "needed": float(bummerl_needed(b)) if b > 0.5 else math.inf,
            }
        )
    return rows


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    ap.add_argument("--variant", default="schnapsen", help="whose measured game points (default schnapsen)")
    ap.add_argument("--target", type=int, default=7, help="game points to win a Bummerl (default 7)")
    ap.add_argument("--bummerl", type=float, help="print the per-game edge that gives this Bummerl share")
    ap.add_argument(
        "--edge",
        type=float,
        nargs="+",
        help="print the Bummerl share of each edge in game points per game (an A/B's estimate and interval ends)",
    )
    args = ap.parse_args(argv)
    points = won_game_points(args.variant)
    mean = sum(k * p for k, p in points.items())
    print(f"{args.variant}, Bummerl to {args.target}; a won game scores {mean:.3f} points on average")
    if args.edge:
        for row in table(args.variant, args.target, args.edge):
            print(f"edge {row['edge']:+.3f} game points per game: {row['bummerl']:.1%} of the Bummerl")
        return 0
    if args.bummerl is not None:
        q = edge_for(args.bummerl, points, args.target)
        print(
            f"a {args.bummerl:.1%} Bummerl share needs {q:.2%} of the games, "
            f"an edge of {(2 * q - 1) * mean:+.3f} game points per game; "
            f"a test needs about {bummerl_needed(args.bummerl)} Bummerl to tell it from 50%"
        )
        return 0
    print(f"{'edge gp/game':>13} {'games won':>10} {'Bummerl won':>12} {'Bummerl needed':>15}")
    for row in table(args.variant, args.target, [0.0, 0.025, 0.05, 0.075, 0.1, 0.15, 0.2, 0.3, 0.6]):
        needed = "-" if math.isinf(row["needed"]) else f"{row['needed']:.0f}"
        print(f"{row['edge']:>+13.3f} {row['games_won']:>10.1%} {row['bummerl']:>12.1%} {needed:>15}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
