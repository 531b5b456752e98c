"""The standings of a finished tournament: scores, tie-breaks, places, deal statistics and ratings per bot.

**Score**: a pairing won counts 1, drawn 0.5 (round robin, Swiss; a Swiss bye
counts 1, as in chess); in a knock-out the score is the matches won.  **Order**:

* round robin: score, then the game points difference, then the seeding;
* Swiss: score, then the Buchholz score (the sum of the opponents' scores),
  then the game points difference, then the seeding;
* knock-out: the place (1 the winner, 2 the finalist, 3 both losing
  semi-finalists, 5 the quarter-finalists, ...), then the game points
  difference, then the seeding.

The ``rating`` of every bot (Elo scale, mean 0) and its 95% ``interval`` come
from :func:`bummerl.tournament.ratings.bradley_terry` over every duplicate deal
played (:func:`observations`); they use all deals, whatever the format made of
them, so they can order bots that a knock-out never let meet.

>>> from bummerl.arena import ArenaConfig, play_deal
>>> from bummerl.tournament.config import TournamentConfig
>>> from bummerl.tournament.schedule import plan
>>> config = TournamentConfig("round-robin", "schnapsen", ["random", "heuristic"], games=3, seed=2)
>>> pairing = plan(config, {}).rounds[0].pairings[0].pairing
>>> results = {pairing: {d: play_deal(config.arena(0, 1, 3), d) for d in range(3)}}
>>> table = standings(config, plan(config, results), results)
>>> [(row["rank"], row["bot"], row["score"], row["deals_won"], row["deals_drawn"]) for row in table]
[(1, 'heuristic', 1.0, 2, 1), (2, 'random', 0.0, 0, 1)]
>>> table[0]["rating"] > 0 > table[1]["rating"]
True

This module computes; it plays nothing and reads no files.
"""

from __future__ import annotations

from typing import Any

from bummerl.tournament.config import TournamentConfig
from bummerl.tournament.outcomes import deal_score
from bummerl.tournament.ratings import bradley_terry
from bummerl.tournament.schedule import Plan, Results

__all__ = ["observations", "standings"]

#: What a pairing won, drawn or lost adds to the score.
_POINTS = {"won": 1.0, "drawn": 0.5, "lost": 0.0}


def observations(config: TournamentConfig, plan: Plan, results: Results) -> list[tuple[int, int, float]]:
    """Every finished deal of the plan as ``(a, b, a's score)``, for the ratings."""
    return [
        (p.pairing.a, p.pairing.b, deal_score(results[p.pairing][d], config.unit))
        for r in plan.rounds
        for p in r.pairings
        for d in sorted(p.done)
    ]


def standings(config: TournamentConfig, plan: Plan, results: Results) -> list[dict[str, Any]]:
    """One row per bot, best first (see the module docstring for the order)."""
    n = len(config.bots)
    rows: list[dict[str, Any]] = [_empty(config, bot) for bot in range(n)]
    opponents: list[list[int]] = [[] for _ in range(n)]
    for rnd in plan.rounds:
        for bot in rnd.byes:
            rows[bot]["byes"] += 1
            if config.format == "swiss":
                rows[bot]["score"] += 1.0
        for p in rnd.pairings:
            pair = (p.pairing.a, p.pairing.b)
            opponents[pair[0]].append(pair[1])
            opponents[pair[1]].append(pair[0])
            for k, bot in enumerate(pair):
                row = rows[bot]
                row["pairings"] += 1
                outcome = "drawn" if p.winner is None else "won" if p.winner == bot else "lost"
                row[outcome] += 1
                row["score"] += _POINTS[outcome]  # a knock-out match always has a winner
                row["deals"] += p.tally.deals
                row["games"] += p.tally.games
                row["game_points"] += p.tally.game_points[k]
                row["game_points_against"] += p.tally.game_points[1 - k]
                row["games_won"] += p.tally.games_won[k]
                row["bummerl_won"] += p.tally.bummerl_won[k]
                row["forfeits"] += p.tally.forfeits[k]
                if config.format == "knock-out" and p.finished and p.winner != bot:
                    row["eliminated_in"] = rnd.number
            for d in sorted(p.done):
                score = deal_score(results[p.pairing][d], config.unit)
                for bot, mine in ((pair[0], score), (pair[1], 1.0 - score)):
                    key = "deals_won" if mine == 1.0 else "deals_lost" if mine == 0.0 else "deals_drawn"
                    rows[bot][key] += 1
    for bot, row in enumerate(rows):
        if config.format == "swiss":
            row["buchholz"] = sum(rows[o]["score"] for o in opponents[bot])
        if config.format == "knock-out":
            row["place"] = _place(row["eliminated_in"], len(plan.rounds))
    for row, rating in zip(rows, bradley_terry(n, observations(config, plan, results)), strict=True):
        row["rating"] = rating.rating
        row["interval"] = list(rating.interval)
    ordered = sorted(rows, key=lambda row: _order(config.format, row))
    for rank, row in enumerate(ordered, 1):
        row["rank"] = rank
    return [_keys_first(row) for row in ordered]


def _empty(config: TournamentConfig, bot: int) -> dict[str, Any]:
    row: dict[str, Any] = {"bot": config.bots[bot], "seed": bot + 1, "score": 0.0}
    for key in ("pairings", "won", "drawn", "lost", "byes", "deals", "deals_won", "deals_drawn", "deals_lost"):
        row[key] = 0
    for key in ("games", "games_won", "game_points", "game_points_against", "bummerl_won", "forfeits"):
        row[key] = 0
    if config.format == "knock-out":
        row["eliminated_in"] = None
    return row


def _place(eliminated_in: int | None, rounds: int) -> int:
    """1 for the winner; a loser of round ``r`` of ``rounds`` shares place ``2^(rounds - r) + 1``."""
    return 1 if eliminated_in is None else 2 ** (rounds - eliminated_in) + 1


def _order(format: str, row: dict[str, Any]) -> tuple[float, ...]:
    difference = row["game_points"] - row["game_points_against"]
    if format == "knock-out":
        return (row["place"], -difference, row["seed"])
    if format == "swiss":
        return (-row["score"], -row["buchholz"], -difference, row["seed"])
    return (-row["score"], -difference, row["seed"])


def _keys_first(row: dict[str, Any]) -> dict[str, Any]:
    """The issue's keys first: rank, bot, rating, interval; then the rest as collected."""
    first = ("rank", "bot", "rating", "interval")
    return {**{k: row[k] for k in first}, **{k: v for k, v in row.items() if k not in first}}
