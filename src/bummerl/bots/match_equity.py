"""Match equity: what a game's result is worth in the match it is part of.

A Bummerl is won by the first to 7 game points, so one game point is not
always worth the same: at 1 point from the goal a won game of 1 point is as
good as one of 3, and when the opponent needs only 1 point any lost game
loses the Bummerl, however few points it gives away.  Backgammon programs meet
the same problem with a *match equity table* (MET); this module computes one
for the Bummerl (Schnapsen weich and scharf, Sechsundsechzig) and for the
Marken match of Schnorps, from the distribution of one game's result.

**The equity** of a match state is the expected number of Bummerl won minus
lost by the player it is computed for: a match won counts +1, a match lost -1,
and where Schneider counts (seeds/000: the loser without a game point "ist
Schneider und die Partie zählt doppelt") a match won 7:0 counts +2 and one lost
0:7 -2.  Without Schneider the equity is ``2 * P(win) - 1``, so maximising it
maximises the probability of winning the match; :meth:`MatchEquity.win_probability`
gives that probability itself (the same recursion with the values 1 and 0).

**The recursion.**  Let ``E(a, b, r)`` be the equity when the player needs
``a`` more points, the opponent ``b``, and the player has the role ``r`` in
the next game (``vorhand``, or ``dealer``).  One game ends with Vorhand
winning ``k`` points with probability ``p_V(k)``, the dealer winning ``k``
with ``p_D(k)``, or nobody (65:65 in Sechsundsechzig, a Schnorps "stand") with
``p_S``.  Then

    E(a, b, r) = sum_k P(I win k | r) * E'(a - k*m, b)  +  sum_k P(I lose k | r) * E'(a, b - k*m)
                 + p_S * E(a, b, r_stand)

where ``E'`` is the terminal value once a side reaches 0 (±1, ±2 for
Schneider) and otherwise ``E`` with the next game's role: in a Bummerl the deal
alternates every game (seeds/003), in Schnorps the winner deals the next game
(seeds/001, "dann stets der Gewinner") and after a stand the dealer is drawn
(each role with probability 1/2) and the multiplier ``m`` doubles.  Every
decisive game lowers ``a + b``, so the recursion ends; the stand, which leaves
the score as it is, makes two (Bummerl: one per role) linear equations per
score, solved in closed form.  In Schnorps the multiplier stops mattering once
``m`` reaches the target (every decisive game then ends the match), which
bounds the states.

**The game-point distributions** (:data:`GAME_POINTS`) were measured by
self-play of the ``hard`` level (PIMC, 12 worlds; the first tricks of
Sechsundsechzig and Schnorps by the heuristic), by role, with
:func:`measure` (``python -m bummerl.bots.match_equity --measure VARIANT
--games N``; the counts and the command are in docs/bots.md).  A table made from
the distribution of equal players is what backgammon programs use too: the
MET is a model of the match, not of this opponent.

>>> met = MatchEquity.for_match("bummerl", 7, "schnapsen")
>>> abs(met.equity(7, 7, "vorhand") + met.equity(7, 7, "dealer")) < 1e-9   # antisymmetric: the roles swap
True
>>> met.equity(1, 6, "dealer") > met.equity(2, 6, "dealer") > met.equity(2, 5, "dealer")
True

:func:`game_utility` turns the value of a game (points the player wins, or
loses if negative) into the equity after it, for the search
(:mod:`bummerl.bots.search`).
"""

from __future__ import annotations

import argparse
import dataclasses
import functools
import math
import sys
import time
from collections.abc import Mapping, Sequence
from typing import Any

from bummerl.view import MatchContext

__all__ = [
    "GAME_POINTS",
    "GamePoints",
    "MatchEquity",
    "game_utility",
    "measure",
]

ROLES = ("vorhand", "dealer")
#: The largest target for which a table is computed (beyond, the search plays for game points).
MAX_TARGET = 64


@dataclasses.dataclass(frozen=True)
class GamePoints:
    """The distribution of one game's result, by the winner's role.

    ``vorhand[k]`` is the probability that Vorhand wins ``k`` points (game
    points, Marken in Schnorps), ``dealer[k]`` that the dealer does, ``stand``
    that nobody wins.  Made from counts with :meth:`from_counts`.
    """

    vorhand: tuple[tuple[int, float], ...]
    dealer: tuple[tuple[int, float], ...]
    stand: float = 0.0

    def __post_init__(self) -> None:
        total = self.stand + sum(p for _, p in self.vorhand) + sum(p for _, p in self.dealer)
        if not math.isclose(total, 1.0, abs_tol=1e-9):
            raise ValueError(f"the probabilities of a game's results must sum to 1, not {total}")
        if not 0 <= self.stand < 1:
            raise ValueError(f"a stand's probability must be in [0, 1), not {self.stand}")
        for k, p in self.vorhand + self.dealer:
            if k < 1 or p < 0:
                raise ValueError(f"a result needs at least 1 point and a probability >= 0, not {k}: {p}")

    @classmethod
    def from_counts(
        cls, vorhand: Mapping[int, int], dealer: Mapping[int, int], stand: int = 0, prior: float = 0.5
    ) -> GamePoints:
        """The distribution from counted games, with ``prior`` added to every count seen on either side
        (so a result that happened only for one role is not impossible for the other).

        >>> g = GamePoints.from_counts({1: 2, 3: 1}, {1: 1}, prior=0)
        >>> g.vorhand, g.dealer
        (((1, 0.5), (3, 0.25)), ((1, 0.25),))
        """
        points = sorted(set(vorhand) | set(dealer))
        v = {k: vorhand.get(k, 0) + prior for k in points}
        d = {k: dealer.get(k, 0) + prior for k in points}
        total = sum(v.values()) + sum(d.values()) + stand
        if total <= 0:
            raise ValueError("no games counted")
        return cls(
            tuple((k, n / total) for k, n in v.items() if n > 0),
            tuple((k, n / total) for k, n in d.items() if n > 0),
            stand / total,
        )

    def mine(self, role: str) -> tuple[tuple[tuple[int, float], ...], tuple[tuple[int, float], ...]]:
        """``(wins, losses)`` of the player in ``role``: points and probabilities."""
        if role == "vorhand":
            return self.vorhand, self.dealer
        return self.dealer, self.vorhand

    def swapped(self) -> GamePoints:
        """The same distribution with the roles' results swapped (a test of symmetry)."""
        return GamePoints(self.dealer, self.vorhand, self.stand)


#: Games counted by self-play of ``hard`` (see the module docstring and docs/bots.md, "Playing for the match"):
#: per variant, the points won by Vorhand, by the dealer, and the stands.
GAME_POINT_COUNTS: dict[str, tuple[dict[int, int], dict[int, int], int]] = {
    "schnapsen": ({1: 69, 2: 74, 3: 63}, {1: 69, 2: 61, 3: 64}, 0),
    "schnapsen-scharf": ({1: 63, 2: 38, 3: 47}, {1: 57, 2: 36, 3: 59}, 0),
    "sechsundsechzig": ({1: 50, 2: 60, 3: 35}, {1: 38, 2: 75, 3: 41}, 1),
    "schnorps": ({1: 23, 2: 57, 4: 61, 6: 2, 8: 5}, {1: 19, 2: 65, 4: 62, 6: 2, 8: 4}, 0),
}

#: The distributions made from :data:`GAME_POINT_COUNTS`.
GAME_POINTS: dict[str, GamePoints] = {
    name: GamePoints.from_counts(v, d, s) for name, (v, d, s) in GAME_POINT_COUNTS.items()
}


def _distribution(variant: str) -> GamePoints:
    """The distribution for a variant's name; a Marken variant without its own falls back to Schnorps'."""
    if variant in GAME_POINTS:
        return GAME_POINTS[variant]
    return GAME_POINTS["schnapsen"]


class MatchEquity:
    """A match equity table for one kind of match, target and game-point distribution.

    ``kind`` is ``"bummerl"`` (the deal alternates; Schneider counts double if
    ``schneider``) or ``"marken"`` (the winner deals next, a stand doubles the
    next game and the dealer is drawn).  Values are memoised: a table of a
    7-point match has a few hundred entries and costs about a millisecond.
    """

    def __init__(self, kind: str, target: int, points: GamePoints, schneider: bool | None = None) -> None:
        if kind not in MatchContext.KINDS:
            raise ValueError(f"a match is of kind 'bummerl' or 'marken', not {kind!r}")
        if not 1 <= target <= MAX_TARGET:
            raise ValueError(f"match equity tables are computed for targets 1..{MAX_TARGET}, not {target}")
        self.kind = kind
        self.target = target
        self.points = points
        self.schneider = (kind == "bummerl") if schneider is None else schneider
        #: Beyond this multiplier every decisive game ends the match (Marken): the states stop there.
        self._max_multiplier = 1 << max(0, math.ceil(math.log2(target)))
        self._memo: dict[tuple[int, int, int, bool], tuple[float, float]] = {}

    @staticmethod
    def for_match(kind: str, target: int, variant: str = "schnapsen", schneider: bool | None = None) -> MatchEquity:
        """The (cached) table for a match of ``variant`` (its measured distribution, :data:`GAME_POINTS`)."""
        return _cached_table(kind, target, variant, schneider)

    # ------------------------------------------------------------ the table
    def equity(self, a: int, b: int, role: str | None, multiplier: int = 1) -> float:
        """Expected Bummerl won minus lost when the player needs ``a`` and the opponent ``b``.

        ``role`` is the player's role in the next game (``"vorhand"`` or
        ``"dealer"``; ``None``: drawn, each with probability 1/2); ``multiplier``
        multiplies the next game's points (Schnorps after stands).  ``a <= 0``
        or ``b <= 0`` is a finished match.
        """
        return self._value(a, b, role, multiplier, probability=False)

    def win_probability(self, a: int, b: int, role: str | None, multiplier: int = 1) -> float:
        """The probability of winning the match from the same state as :meth:`equity`."""
        return self._value(a, b, role, multiplier, probability=True)

    def terminal(self, a: int, b: int, probability: bool = False) -> float | None:
        """The value of a finished match (``None`` if it goes on): the player needs ``a``, the opponent ``b``."""
        if a <= 0:
            if probability:
                return 1.0
            return 2.0 if self.schneider and b >= self.target else 1.0
        if b <= 0:
            if probability:
                return 0.0
            return -2.0 if self.schneider and a >= self.target else -1.0
        return None

    def _value(self, a: int, b: int, role: str | None, multiplier: int, probability: bool) -> float:
        done = self.terminal(a, b, probability)
        if done is not None:
            return done
        m = min(max(1, multiplier), self._max_multiplier) if self.kind == "marken" else 1
        v, d = self._pair(a, b, m, probability)
        if role is None:
            return (v + d) / 2
        if role not in ROLES:
            raise ValueError(f"role must be 'vorhand', 'dealer' or None, not {role!r}")
        return v if role == "vorhand" else d

    def _pair(self, a: int, b: int, m: int, probability: bool) -> tuple[float, float]:
        """``(E as Vorhand, E as dealer)`` of a running match, multiplier ``m``."""
        key = (a, b, m, probability)
        hit = self._memo.get(key)
        if hit is not None:
            return hit
        rest = {role: self._decisive(a, b, role, m, probability) for role in ROLES}
        s = self.points.stand
        if self.kind == "bummerl":
            # A stand passes the deal on: E_V = R_V + s E_D, E_D = R_D + s E_V.
            denom = 1 - s * s
            ev = (rest["vorhand"] + s * rest["dealer"]) / denom
            ed = (rest["dealer"] + s * rest["vorhand"]) / denom
        else:
            nxt = min(2 * m, self._max_multiplier)
            if nxt == m:
                # The multiplier no longer grows: E_r = R_r + s (E_V + E_D) / 2 for both roles.
                # A = (E_V + E_D) / 2 = (R_V + R_D) / 2 + s A.
                avg = (rest["vorhand"] + rest["dealer"]) / (2 * (1 - s))
                ev = rest["vorhand"] + s * avg
                ed = rest["dealer"] + s * avg
            else:
                after = sum(self._pair(a, b, nxt, probability)) / 2
                ev = rest["vorhand"] + s * after
                ed = rest["dealer"] + s * after
        self._memo[key] = (ev, ed)
        return ev, ed

    def _decisive(self, a: int, b: int, role: str, m: int, probability: bool) -> float:
        """The part of ``E(a, b, role)`` that comes from decisive games (no stand)."""
        wins, losses = self.points.mine(role)
        total = 0.0
        for k, p in wins:
            total += p * self._after(a - k * m, b, won=True, role=role, probability=probability)
        for k, p in losses:
            total += p * self._after(a, b - k * m, won=False, role=role, probability=probability)
        return total

    def _after(self, a: int, b: int, won: bool, role: str, probability: bool) -> float:
        """The value after a decisive game: the finished match, or the next game with its role."""
        done = self.terminal(a, b, probability)
        if done is not None:
            return done
        if self.kind == "bummerl":
            nxt = "dealer" if role == "vorhand" else "vorhand"  # the deal alternates
        else:
            nxt = "dealer" if won else "vorhand"  # the winner deals next
        v, d = self._pair(a, b, 1, probability)
        return v if nxt == "vorhand" else d

    # ---------------------------------------------------------------- use
    def after_game(self, needed: tuple[int, int], me: int, dealer: int, value: int, multiplier: int = 1) -> float:
        """The equity of ``me`` once the current game (dealt by ``dealer``) ends with ``value``:
        ``value > 0`` points won by ``me``, ``< 0`` won by the opponent, ``0`` nobody (a stand).

        >>> met = MatchEquity.for_match("bummerl", 7, "schnapsen")
        >>> met.after_game((1, 5), 0, 1, 1) == met.after_game((1, 5), 0, 1, 3) == 1.0
        True
        >>> met.after_game((3, 1), 0, 1, -1) == met.after_game((3, 1), 0, 1, -3) == -1.0
        True
        """
        a, b = needed[me], needed[1 - me]
        if self.kind == "bummerl":
            role_now = "dealer" if dealer == me else "vorhand"
            nxt: str | None = "vorhand" if role_now == "dealer" else "dealer"
            if value > 0:
                return self._finish_or(a - value, b, nxt, 1)
            if value < 0:
                return self._finish_or(a, b + value, nxt, 1)
            return self.equity(a, b, nxt)
        if value > 0:
            return self._finish_or(a - value * multiplier, b, "dealer", 1)
        if value < 0:
            return self._finish_or(a, b + value * multiplier, "vorhand", 1)
        return self.equity(a, b, None, 2 * multiplier)

    def _finish_or(self, a: int, b: int, role: str | None, multiplier: int) -> float:
        done = self.terminal(a, b)
        return done if done is not None else self.equity(a, b, role, multiplier)

    def table(self, role: str, probability: bool = True) -> list[list[float]]:
        """Rows ``a = 1..target`` (needed by the player), columns ``b = 1..target`` (by the opponent)."""
        value = self.win_probability if probability else self.equity
        return [[value(a, b, role) for b in range(1, self.target + 1)] for a in range(1, self.target + 1)]


@functools.lru_cache(maxsize=64)
def _cached_table(kind: str, target: int, variant: str, schneider: bool | None) -> MatchEquity:
    return MatchEquity(kind, target, _distribution(variant), schneider)


def game_utility(match: MatchContext | None, me: int, dealer: int, variant: str) -> dict[int, float] | None:
    """The equity of each possible game value for ``me`` (``None``: play for game points).

    ``value`` is what the solver returns for a world (game points, Marken in
    Schnorps: won if positive, lost if negative); the map covers -8..8 (every
    value a two-player game can score).  ``None`` for a single game (no
    match) and for targets above :data:`MAX_TARGET`.

    >>> from bummerl.view import MatchContext
    >>> u = game_utility(MatchContext("bummerl", 7, (1, 1)), 0, 1, "schnapsen")
    >>> u[1], u[3], u[-1], u[-2]
    (1.0, 1.0, -1.0, -1.0)
    >>> game_utility(None, 0, 1, "schnapsen") is None
    True
    """
    if match is None or match.target > MAX_TARGET:
        return None
    met = MatchEquity.for_match(match.kind, match.target, variant, match.schneider)
    return {v: met.after_game(match.needed, me, dealer, v, match.multiplier) for v in range(-8, 9)}


# ------------------------------------------------------------------ measuring
def measure(variant: str, bot: str = "hard", games: int = 100, seed: int = 0, jobs: int = 1) -> dict[str, Any]:
    """Count the results of ``games`` self-play games of ``bot`` in ``variant``, by the winner's role.

    Game ``i`` is dealt from the arena's deal ``i`` of ``seed`` (dealer ``i mod
    2``) with one bot per seat (seeded per game and seat).  Returns
    ``{"variant", "bot", "games", "seed", "vorhand": {points: n}, "dealer":
    {points: n}, "stand": n, "seconds"}``.
    """
    from bummerl.bots import make_bot
    from bummerl.game import Game
    from bummerl.rng import derive_seed
    from bummerl.variants import TwoPlayerVariant

    v = TwoPlayerVariant.find(variant)  # the roles are Vorhand and dealer: two players
    vorhand: dict[int, int] = {}
    dealer: dict[int, int] = {}
    stand = 0
    start = time.perf_counter()
    for i in range(games):
        game = Game.deal(v, derive_seed(seed, i), dealer=i % 2)
        bots = [make_bot(bot, derive_seed(seed, 0x424F5453, i, s), v) for s in (0, 1)]
        while not game.is_over:
            game.apply(bots[game.to_move].choose(game.view(game.to_move)))
        result = game.result
        assert result is not None  # played to the end
        points = [result.points_of(s) for s in (0, 1)]
        if not any(points):
            stand += 1
            continue
        winner = 0 if points[0] else 1
        side = dealer if winner == game.dealer else vorhand
        side[points[winner]] = side.get(points[winner], 0) + 1
    return {
        "variant": v.name,
        "bot": bot,
        "games": games,
        "seed": seed,
        "vorhand": dict(sorted(vorhand.items())),
        "dealer": dict(sorted(dealer.items())),
        "stand": stand,
        "seconds": round(time.perf_counter() - start, 1),
    }


def _format_table(rows: Sequence[Sequence[float]]) -> str:
    n = len(rows)
    head = "need " + " ".join(f"{b:>5}" for b in range(1, n + 1))
    lines = [head] + [f"{a:>4} " + " ".join(f"{x:5.2f}" for x in row) for a, row in enumerate(rows, 1)]
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m bummerl.bots.match_equity``: print a table, or measure a distribution.

    ``--measure VARIANT --games N [--seed S] [--bot B]`` prints the counts as JSON;
    ``--table VARIANT [--target T] [--role vorhand|dealer]`` prints the win probabilities.
    """
    import json

    parser = argparse.ArgumentParser(prog="python -m bummerl.bots.match_equity", description=main.__doc__)
    parser.add_argument("--measure", metavar="VARIANT")
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--bot", default="hard")
    parser.add_argument("--table", metavar="VARIANT")
    parser.add_argument("--target", type=int, default=7)
    parser.add_argument("--role", choices=ROLES, default="vorhand")
    args = parser.parse_args(argv)
    if args.measure:
        if not 1 <= args.games <= 1_000_000:
            parser.error("--games must be 1..1000000")
        print(json.dumps(measure(args.measure, args.bot, args.games, args.seed)))
        return 0
    if args.table:
        from bummerl.variants import TwoPlayerVariant

        v = TwoPlayerVariant.find(args.table)
        met = MatchEquity.for_match(v.match_kind, args.target, v.name)
        print(f"P(win the match), {v.name}, target {args.target}, the player is {args.role} in the next game;")
        print("rows: points the player needs, columns: points the opponent needs")
        print(_format_table(met.table(args.role)))
        return 0
    parser.print_help()
    return 2


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
