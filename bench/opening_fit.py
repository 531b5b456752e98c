"""Fit the leaf model of the opening search (:mod:`bummerl.bots.opening`) from self-play, and test it.

    python bench/opening_fit.py --variant sechsundsechzig --games 20000
    python bench/opening_fit.py --variant schnorps --games 10000 --test-games 2000

Games of ``--bot`` against itself (default ``heuristic``; seeds ``0 .. games-1``) give, at every lead with
at least ``--min-facedown`` face-down cards in an open talon, the features of the position
(:func:`bummerl.bots.opening.base_features`, for seat 0) and seat 0's final result (game points, Marken in
Schnorps).  The weights are the least-squares fit (:func:`bummerl.bots.opening.fit_weights`).  Fresh games
(seeds from ``10**6`` on) test it: mean squared error and R² of the model against two baselines, the mean
(0, since the model is antisymmetric) and the Augen difference alone.  The last lines print the weights as
a Python literal for :data:`bummerl.bots.opening.MODELS`.
"""

from __future__ import annotations

import argparse
import statistics
import time

from bummerl.bots import make_bot
from bummerl.bots.opening import FEATURES, LeafModel, base_features, fit_weights
from bummerl.solver.state import encode
from bummerl.two_player import TwoPlayerGame

BOUNDS = {"sechsundsechzig": 3.0, "schnorps": 8.0, "schnapsen": 3.0}


def samples(
    variant: str, games: int, first_seed: int, min_facedown: int, bot: str
) -> tuple[list[list[float]], list[float]]:
    """Features and seat 0's result at every early lead of ``games`` self-play games."""
    rows: list[list[float]] = []
    targets: list[float] = []
    for seed in range(first_seed, first_seed + games):
        game = TwoPlayerGame.deal(variant, seed=seed)
        bots = [make_bot(bot, seed * 2 + s, game.variant) for s in range(2)]
        found: list[list[float]] = []
        while not game.is_over:
            if game.lead is None and game.closed_by is None and len(game.talon) >= min_facedown:
                pos = encode(game)
                found.append(base_features(pos.state, 0, pos.trump))
            game.apply(bots[game.to_move].choose(game.view(game.to_move)))
        result = game.result
        assert result is not None
        points = 0.0 if result.winner is None else float(result.points if result.winner == 0 else -result.points)
        rows += found
        targets += [points] * len(found)
    return rows, targets


def report(model: LeafModel, rows: list[list[float]], targets: list[float]) -> dict[str, float]:
    """MSE and R² of the model and of the baselines on ``rows``."""
    var = statistics.fmean(y * y for y in targets)
    mse = statistics.fmean((model.value(r) - y) ** 2 for r, y in zip(rows, targets, strict=True))
    i = FEATURES.index("augen")
    augen_only = fit_weights([[r[i]] for r in rows], targets)
    mse_augen = statistics.fmean((augen_only[0] * r[i] - y) ** 2 for r, y in zip(rows, targets, strict=True))
    return {"samples": len(rows), "mse_zero": var, "mse_augen": mse_augen, "mse_model": mse, "r2": 1 - mse / var}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--variant", default="sechsundsechzig")
    parser.add_argument("--games", type=int, default=20000)
    parser.add_argument("--test-games", type=int, default=2000)
    parser.add_argument("--min-facedown", type=int, default=5)
    parser.add_argument("--bot", default="heuristic")
    parser.add_argument("--ridge", type=float, default=1.0)
    args = parser.parse_args()
    start = time.process_time()
    rows, targets = samples(args.variant, args.games, 0, args.min_facedown, args.bot)
    weights = fit_weights(rows, targets, args.ridge)
    model = LeafModel(weights, BOUNDS.get(args.variant, 3.0))
    test_rows, test_targets = samples(args.variant, args.test_games, 10**6, args.min_facedown, args.bot)
    print(
        f"{args.variant}: {len(rows)} training positions from {args.games} games ({time.process_time() - start:.0f} s)"
    )
    print("train", report(model, rows, targets))
    print("test ", report(model, test_rows, test_targets))
    for name, w in zip(FEATURES, weights, strict=True):
        print(f"  {name:24} {w:+.4f}")
    print(f'    "{args.variant}": LeafModel(({", ".join(f"{w:.4f}" for w in weights)}), {model.bound}),')


if __name__ == "__main__":
    main()
