"""Random full games per second for Bauernschnapsen and Dreierschnapsen.

    python bench/table_games.py                  # 2000 games per variant and mode
    python bench/table_games.py --games 5000 --json
    python bench/table_games.py --strength 1000     # heuristic vs random, duplicate deals

Three modes per variant, each a whole game from the cut to the result:

* ``engine``: uniformly random legal actions taken straight from
  ``TableGame.legal_actions()`` (the engine alone);
* ``random-bots``: the ``random`` table bot choosing from each player's view
  (views are built at every decision);
* ``heuristic-bots``: the ``heuristic`` table bot in every seat.

``--strength N`` plays N duplicate deals of single games: with four players each
deal twice with the teams swapped (heuristic pair against random pair), with
three players three times with the heuristic bot in each seat against two random
bots; it prints the heuristic side's game points per game minus the random
side's, with a 95% confidence interval (normal approximation over deals).

Times are CPU seconds of this process (``time.process_time``), so other load on
the shared machine counts for nothing; the best of ``--repeat`` runs is kept.
"""

from __future__ import annotations

import argparse
import json
import time

from bummerl.bots import make_bot
from bummerl.rng import SplitMix64
from bummerl.table_game import TableGame

VARIANTS = ("bauernschnapsen", "dreierschnapsen")


def engine_games(variant: str, games: int) -> None:
    for seed in range(games):
        rng = SplitMix64(seed)
        t = TableGame.deal(variant, seed=seed, dealer=seed % t_players(variant))
        while t.result is None:
            actions = t.legal_actions()
            t.apply(actions[rng.below(len(actions))])


def bot_games(variant: str, games: int, bot: str) -> None:
    n = t_players(variant)
    for seed in range(games):
        t = TableGame.deal(variant, seed=seed, dealer=seed % n)
        bots = [make_bot(bot, seed * 8 + s, t.variant) for s in range(n)]
        while t.result is None:
            t.apply(bots[t.to_move].choose(t.view(t.to_move)))


def duplicate_strength(variant: str, deals: int) -> tuple[float, float, float]:
    """Mean (heuristic - random) game points per game over duplicate deals, and its 95% CI."""
    n = t_players(variant)
    diffs = []
    for seed in range(deals):
        total = 0.0
        layouts = [(0, 2), (1, 3)] if n == 4 else [(0,), (1,), (2,)]
        for heuristic_seats in layouts:
            t = TableGame.deal(variant, seed=seed, dealer=seed % n)
            bots = [
                make_bot("heuristic" if s in heuristic_seats else "random", seed * 8 + s, t.variant) for s in range(n)
            ]
            while t.result is None:
                t.apply(bots[t.to_move].choose(t.view(t.to_move)))
            r = t.result
            h = sum(r.points_of(s) for s in heuristic_seats) / len(heuristic_seats)
            others = [s for s in range(n) if s not in heuristic_seats]
            rnd = sum(r.points_of(s) for s in others) / len(others)
            total += h - rnd
        diffs.append(total / len(layouts))
    mean = sum(diffs) / len(diffs)
    var = sum((d - mean) ** 2 for d in diffs) / (len(diffs) - 1)
    half = 1.96 * (var / len(diffs)) ** 0.5
    return mean, mean - half, mean + half


def t_players(variant: str) -> int:
    return 4 if variant == "bauernschnapsen" else 3


def measure(fn: object, *args: object, repeat: int) -> float:
    best = float("inf")
    for _ in range(repeat):
        start = time.process_time()
        fn(*args)  # type: ignore[operator]
        best = min(best, time.process_time() - start)
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--strength", type=int, default=0, metavar="DEALS")
    args = parser.parse_args()
    if args.strength:
        for variant in VARIANTS:
            mean, low, high = duplicate_strength(variant, args.strength)
            print(f"{variant}: heuristic - random = {mean:+.2f} game points per game, 95% CI [{low:+.2f}, {high:+.2f}]")
        return
    rows = []
    for variant in VARIANTS:
        for mode in ("engine", "random-bots", "heuristic-bots"):
            if mode == "engine":
                seconds = measure(engine_games, variant, args.games, repeat=args.repeat)
            else:
                seconds = measure(bot_games, variant, args.games, mode.split("-")[0], repeat=args.repeat)
            rate = args.games / seconds
            rows.append({"variant": variant, "mode": mode, "games": args.games, "games_per_second": rate})
    if args.json:
        print(json.dumps(rows, indent=2))
        return
    print(f"{'variant':<17} {'mode':<15} {'games/s':>10}")
    for row in rows:
        print(f"{row['variant']:<17} {row['mode']:<15} {row['games_per_second']:>10.0f}")


if __name__ == "__main__":
    main()
