"""Who plays whom: the schedules of a round robin, a Swiss tournament and a knock-out.

Bots are numbered by their place in ``--bots`` (0 first), which is also their
seeding.  Every function here is pure: it takes what has been decided so far and
returns the next pairings, so that a tournament can be rebuilt from its results
on disk at any time (:mod:`bummerl.tournament.run`).

**Round robin** by the circle method: bot 0 stays, the others turn one place a
round; with an odd number of bots a dummy joins and its partner has a bye.  Every
pair meets exactly once, in ``n - 1`` rounds (``n`` when ``n`` is odd):

>>> round_robin(4)
[[(0, 3), (1, 2)], [(2, 0), (3, 1)], [(0, 1), (2, 3)]]
>>> round_robin_byes(3)
[0, 1, 2]

**Swiss**: players are ranked by score (then seeding); the highest unpaired one
meets the first possible opponent of its score group's lower half (the Dutch
system: top half against bottom half), a lone player floats down to the next
group, nobody meets anybody twice, and with an odd count the lowest-ranked player
among those with the fewest byes sits out.  A search backs out of dead ends, so a
pairing is found whenever one exists:

>>> swiss_pairs([0, 1, 2, 3, 4, 5], {}, set(), {})
([(0, 3), (1, 4), (2, 5)], None)
>>> swiss_pairs([0, 3, 1, 4, 2], {0: 1, 3: 1, 1: 0.5, 4: 0.5, 2: 0}, {frozenset((0, 3))}, {2: 1})
([(0, 1), (3, 2)], 4)

**Knock-out**: the seeded bracket, 1 against ``N``, 2 against ``N - 1`` ... in
the order that keeps the top seeds apart until the last rounds; ``N`` is ``n``
rounded up to a power of two, and the missing bots are byes, which so go to the
top seeds.  ``None`` is a bye:

>>> bracket(8)
[0, 7, 3, 4, 1, 6, 2, 5]
>>> bracket(6)
[0, None, 3, 4, 1, None, 2, 5]

This module only pairs; it plays and scores nothing.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Collection, Iterator, Mapping, Sequence

__all__ = [
    "FORMATS",
    "Pairing",
    "bracket",
    "max_swiss_rounds",
    "round_robin",
    "round_robin_byes",
    "swiss_pairs",
    "swiss_rounds",
]

#: The names ``--format`` accepts.
FORMATS = ("round-robin", "swiss", "knock-out")


@dataclasses.dataclass(frozen=True, order=True)
class Pairing:
    """Bots ``a`` and ``b`` (their numbers) in round ``round`` (1, 2, ...): one arena of duplicate deals.

    >>> Pairing(2, 0, 3).key
    'r02-b0-b3'
    """

    round: int
    a: int
    b: int

    @property
    def key(self) -> str:
        """The pairing's name on disk (``DIR/deals/<key>/``)."""
        return f"r{self.round:02d}-b{self.a}-b{self.b}"


def round_robin(n: int) -> list[list[tuple[int, int]]]:
    """The rounds of a round robin of ``n`` bots by the circle method, byes left out.

    Bot 0 (the fixed one) alternates between the first and the second place of
    its pair, so that no bot is always ``a``.
    """
    _check_players(n)
    ring: list[int | None] = [*range(n), *([None] if n % 2 else [])]
    size = len(ring)
    rounds = []
    for r in range(size - 1):
        pairs = []
        for k in range(size // 2):
            x, y = ring[k], ring[size - 1 - k]
            if x is None or y is None:
                continue
            pairs.append((x, y) if k or r % 2 == 0 else (y, x))
        rounds.append(pairs)
        ring = [ring[0], ring[-1], *ring[1:-1]]
    return rounds


def round_robin_byes(n: int) -> list[int | None]:
    """Who has the bye in each round of :func:`round_robin` (``None``: nobody, ``n`` even)."""
    byes: list[int | None] = []
    for pairs in round_robin(n):
        playing = {bot for pair in pairs for bot in pair}
        idle = [bot for bot in range(n) if bot not in playing]
        byes.append(idle[0] if idle else None)
    return byes


def swiss_rounds(n: int) -> int:
    """The default number of Swiss rounds: enough for one winner, ``ceil(log2 n)``.

    >>> [swiss_rounds(n) for n in (2, 3, 4, 5, 8, 9)]
    [1, 2, 2, 3, 3, 4]
    """
    _check_players(n)
    return max(1, math.ceil(math.log2(n)))


def max_swiss_rounds(n: int) -> int:
    """The most Swiss rounds that can always be paired without a repeat, whatever the results: ``ceil(n / 2)``.

    After ``k`` rounds of ``m`` players (``n`` made even by the bye), those who
    have not met form a graph in which everybody has ``m - 1 - k`` possible
    opponents; while that is at least ``m / 2`` the graph has a Hamiltonian cycle
    (Dirac's theorem), so a pairing.  With more rounds the results can leave no
    pairing without a repeat (six players, three rounds played: two triangles
    of players who have all met); a round robin plays everybody against everybody.

    >>> [max_swiss_rounds(n) for n in (2, 3, 4, 6, 9)]
    [1, 2, 2, 3, 5]
    """
    _check_players(n)
    return (n + 1) // 2


def swiss_pairs(
    ranking: Sequence[int],
    scores: Mapping[int, float],
    met: Collection[frozenset[int]],
    byes: Mapping[int, int],
) -> tuple[list[tuple[int, int]], int | None]:
    """One Swiss round: the pairs (higher-ranked player first) and the bye (``None`` with an even count).

    ``ranking`` lists every player, best first (score, then seeding); ``scores``
    are their points so far (missing: 0), ``met`` the pairs that have played,
    ``byes`` how many byes each player had.  Raises :class:`ValueError` when no
    pairing without a repeat exists.
    """
    players = list(ranking)
    if len(set(players)) != len(players):
        raise ValueError(f"a player is ranked twice: {players}")
    candidates: list[int | None] = [None]
    if len(players) % 2:
        fewest = min(byes.get(p, 0) for p in players)
        # The lowest-ranked of those with the fewest byes first: byes go round the bottom of the table.
        candidates = [p for p in reversed(players) if byes.get(p, 0) == fewest]
        candidates += [p for p in reversed(players) if byes.get(p, 0) != fewest]
    for bye in candidates:
        rest = [p for p in players if p != bye]
        pairs = _pair_off(rest, scores, met)
        if pairs is not None:
            return pairs, bye
    raise ValueError(f"no Swiss pairing of {len(players)} players without a repeat pairing is left")


def _pair_off(
    players: list[int], scores: Mapping[int, float], met: Collection[frozenset[int]]
) -> list[tuple[int, int]] | None:
    """A perfect matching of ``players`` (ranked) with no repeat, by depth-first search in Dutch order."""
    if not players:
        return []
    top, rest = players[0], players[1:]
    for partner in _partners(top, rest, scores):
        if frozenset((top, partner)) in met:
            continue
        tail = _pair_off([p for p in rest if p != partner], scores, met)
        if tail is not None:
            return [(top, partner), *tail]
    return None


def _partners(top: int, rest: list[int], scores: Mapping[int, float]) -> Iterator[int]:
    """``top``'s opponents in order of preference: its score group's bottom half from its middle
    (then the top half upwards), then the lower groups in ranking order."""
    score = scores.get(top, 0)
    group = [top, *(p for p in rest if scores.get(p, 0) == score)]
    half = len(group) // 2
    if half:
        yield from group[half:]
        yield from reversed(group[1:half])
    yield from (p for p in rest if scores.get(p, 0) != score)


def bracket(n: int) -> list[int | None]:
    """The first round of a seeded knock-out of ``n`` bots: slot pairs ``(0, 1), (2, 3), ...``, ``None`` a bye."""
    _check_players(n)
    size = 1 << (n - 1).bit_length()
    order = [0]
    while len(order) < size:
        # Each seed s meets 2m-1-s, where 2m is the size of the next round: the standard seeding.
        m = 2 * len(order)
        order = [x for s in order for x in (s, m - 1 - s)]
    return [s if s < n else None for s in order]


def _check_players(n: int) -> None:
    if n < 2:
        raise ValueError(f"a tournament needs at least two bots, not {n}")
