"""What the people's ratings cost (bummerl.server.people_ratings): rating one stored game, and a leaderboard page.

    python bench/people_ratings.py                      # 1,000 players, 5,000 rated games, SQLite in a temp folder
    python bench/people_ratings.py --players 20000 --games 100000 --database-url postgresql+psycopg://...

Makes the players and their rated two-player games the way the server stores a quick match's (a table, its two
recorded seats, a finished game), rates each game as ``ResultStore`` does after writing its result, and times:
the rating of one game (its own transaction: decision row, two rating rows locked and written, two change rows),
the first page of the leaderboard and a deep one (uncached: the index scan and the count), the cached page, and a
player's own rating with their place.  Prints one line per figure (median and 95th percentile in milliseconds).
"""

from __future__ import annotations

import argparse
import random
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from bummerl.server.people_ratings import MAX_OFFSET, PeopleRatings
from bummerl.server.players import PlayerStore
from bummerl.server.storage import Repository, SeatData, hash_token


def timed(call: Callable[[], object], times: int) -> tuple[float, float]:
    """Median and 95th percentile of ``times`` calls, in milliseconds."""
    spent = []
    for _ in range(times):
        start = time.perf_counter()
        call()
        spent.append((time.perf_counter() - start) * 1000)
    spent.sort()
    return statistics.median(spent), spent[int(0.95 * (len(spent) - 1))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--players", type=int, default=1000)
    parser.add_argument("--games", type=int, default=5000)
    parser.add_argument("--database-url", default=None, help="default: SQLite in a temporary folder")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    folder = tempfile.mkdtemp(prefix="bummerl-ratings-")
    repo = Repository(args.database_url or f"sqlite:///{Path(folder) / 'bench.db'}")
    repo.create_schema()
    players, ratings = PlayerStore(repo), PeopleRatings(repo)
    ids = [players.create(f"P{i}")[0].id for i in range(args.players)]
    strength = {p: random.Random(p).random() for p in ids}
    rng = random.Random(args.seed)
    rate_ms = []
    for n in range(args.games):
        a, b = rng.sample(ids, 2)
        table = f"b{n}"
        seats = [SeatData(0, "human", None, "a", True, None), SeatData(1, "friend", None, "b", True, None)]
        repo.create_table(
            table, "schnapsen", {}, n, 7, seats, {0: hash_token(f"{n}a"), 1: hash_token(f"{n}b")}, rated=True
        )
        players.claim_seat(a, table, 0)
        players.claim_seat(b, table, 1)
        game = repo.start_game(table, 0, 0, 0, "x", None)
        winner = 0 if rng.random() < 0.5 + (strength[a] - strength[b]) / 2 else 1
        repo.finish_game(game, {"winner": winner, "points": 1, "reason": "declared", "augen": [66, 40]}, "r")
        start = time.perf_counter()
        ratings.rate_table_of(game)
        rate_ms.append((time.perf_counter() - start) * 1000)
    rate_ms.sort()
    listed = ratings.board("schnapsen").total
    print(f"{args.players} players, {args.games} rated games, {listed} listed ({repo.engine.dialect.name})")
    p95 = rate_ms[int(0.95 * (len(rate_ms) - 1))]
    print(f"rate one game: median {statistics.median(rate_ms):.2f} ms, p95 {p95:.2f} ms")

    def fresh(offset: int) -> Callable[[], object]:
        def page() -> object:
            ratings._boards.clear()  # uncached: the query itself
            return ratings.board("schnapsen", offset, 50)

        return page

    for label, call in [
        ("leaderboard page 1, uncached", fresh(0)),
        (
            f"leaderboard page at offset {min(MAX_OFFSET, max(0, listed - 50))}, uncached",
            fresh(min(MAX_OFFSET, max(0, listed - 50))),
        ),
        ("leaderboard page 1, kept", lambda: ratings.board("schnapsen", 0, 50)),
        ("own rating with place", lambda: ratings.rating_of(rng.choice(ids), "schnapsen")),
    ]:
        median, p95 = timed(call, 50)
        print(f"{label}: median {median:.2f} ms, p95 {p95:.2f} ms")
    repo.dispose()


if __name__ == "__main__":
    main()
