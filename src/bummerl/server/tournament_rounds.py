"""The rounds of a web tournament, its standings and who won a table: pure functions over what was decided so far.

A tournament of the web server (:mod:`bummerl.server.tournaments`) is rebuilt
from its stored rounds every time it moves on, so everything that decides the
next round lives here, without I/O.  Participants are numbered in the order they
joined (0 first), which is also their seeding.  A round is a list of
:class:`Seating` (the participants at one table, by seat; ``None`` is a seat
that a bot outside the tournament fills), each with its :class:`Outcome` once
the table is decided.

**Two-player variants** are paired by :mod:`bummerl.tournament.formats` (the
bot tournament's schedules, reused as they are): a round robin by the circle
method, a Swiss round by :func:`~bummerl.tournament.formats.swiss_pairs`
(ranked by points, then seeding), a knock-out from the seeded
:func:`~bummerl.tournament.formats.bracket`, whose winners meet in slot order:

>>> first = next_round("knock-out", 3, 2, [], planned_rounds("knock-out", 3, 2, None))
>>> first
[Seating(players=(0,), bye=True), Seating(players=(1, 2), bye=False)]
>>> won = [(first[0], Outcome.bye(0)), (first[1], Outcome(frozenset({2}), {1: 0, 2: 3}))]
>>> next_round("knock-out", 3, 2, [won], 2)
[Seating(players=(0, 2), bye=False)]

**Three- and four-player variants** seat a round at ``ceil(n / seats)``
tables, as evenly filled as possible; a seat nobody fills gets a bot (``None``).
A Swiss round seats the participants in ranking order (points, then game
points, then seeding: the leaders play each other); a round robin plays
``ceil((n - 1) / (seats - 1))`` rounds (enough for everybody to meet everybody
where the numbers allow it), each seating together as few participants who met
before as it can, a repeated meeting weighing more than two first ones: with 3
to 16 participants at tables of three or four nobody meets anybody a third time
(``tests/test_server_tournament_rounds.py``).  A knock-out of table games is refused:
three or four players at a table have no single loser to drop, and a bracket of
tables would need rules of its own that no player would recognise.

>>> next_round("round-robin", 5, 4, [], 2)
[Seating(players=(0, 1, 2, None), bye=False), Seating(players=(3, 4, None, None), bye=False)]

**Scoring**: a participant who wins a table (with four players, both members of
the winning team; with three, the soloist or both defenders) scores one point;
a bye scores one in Swiss and knock-out and none in a round robin, where every
participant of an odd number sits out once.  The standings rank by points, then
by the game points won (``score``), then by seeding; a knock-out is won by the
winner of the final.

>>> table = [(Seating((0, 1)), Outcome(frozenset({1}), {0: 0, 1: 2}))]
>>> [(s.player, s.points, s.score) for s in standings("swiss", 2, [table])]
[(1, 1, 2), (0, 0, 0)]
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Collection, Mapping, Sequence
from typing import Any

from bummerl.series import ScoredGame, Series
from bummerl.tournament.formats import (
    FORMATS,
    bracket,
    max_swiss_rounds,
    round_robin,
    round_robin_byes,
    swiss_pairs,
    swiss_rounds,
)

__all__ = [
    "FORMATS",
    "MAX_ROUNDS",
    "UNITS",
    "Outcome",
    "Played",
    "Seating",
    "Standing",
    "check_format",
    "decide",
    "forfeit",
    "next_round",
    "planned_rounds",
    "standings",
    "winner",
]

#: What decides a table: its first game that somebody wins, or its first whole match (Bummerl, Marken, 24 points).
UNITS = ("game", "bummerl")
#: The most rounds a Swiss tournament may ask for.
MAX_ROUNDS = 20


@dataclasses.dataclass(frozen=True)
class Seating:
    """The participants at one table of a round, by seat (``None``: a bot fills the seat), or a bye."""

    players: tuple[int | None, ...]
    bye: bool = False

    @property
    def participants(self) -> list[int]:
        """The tournament's participants at this table (the fillers left out)."""
        return [p for p in self.players if p is not None]


@dataclasses.dataclass(frozen=True)
class Outcome:
    """A decided table: the participants who won it, and the game points each participant was credited."""

    winners: frozenset[int]
    scores: Mapping[int, int]
    #: The participants who forfeited the table (:func:`forfeit`): the bot took their seat over.
    forfeited: frozenset[int] = frozenset()

    @classmethod
    def bye(cls, player: int) -> Outcome:
        """The outcome of ``player``'s bye: it goes through, with no game points."""
        return cls(frozenset({player}), {player: 0})

    def to_json(self) -> dict[str, Any]:
        """As stored and sent: ``{"winners": [...], "scores": {"0": 3, ...}}``.

        >>> Outcome.from_json(Outcome(frozenset({1}), {0: 0, 1: 2}).to_json())
        Outcome(winners=frozenset({1}), scores={0: 0, 1: 2}, forfeited=frozenset())
        """
        found: dict[str, Any] = {
            "winners": sorted(self.winners),
            "scores": {str(p): s for p, s in sorted(self.scores.items())},
        }
        if self.forfeited:
            found["forfeited"] = sorted(self.forfeited)
        return found

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Outcome:
        return cls(
            frozenset(int(p) for p in data["winners"]),
            {int(p): int(s) for p, s in data["scores"].items()},
            frozenset(int(p) for p in data.get("forfeited", ())),
        )


#: One round as played so far: each table with its outcome (``None`` while it is played).
Played = Sequence[tuple[Seating, Outcome | None]]


@dataclasses.dataclass(frozen=True)
class Standing:
    """One participant's line of the standings."""

    rank: int
    player: int
    points: int
    wins: int
    played: int
    byes: int
    score: int


def check_format(format_: str, unit: str, seats: int) -> None:
    """:class:`ValueError` saying why a tournament of ``format_`` and ``unit`` cannot be played at tables of
    ``seats`` seats.

    >>> check_format("knock-out", "game", 4)
    Traceback (most recent call last):
    ...
    ValueError: a knock-out needs one loser per table: play round-robin or swiss at tables of 4
    """
    if format_ not in FORMATS:
        raise ValueError(f"unknown format {format_!r}: one of {', '.join(FORMATS)}")
    if unit not in UNITS:
        raise ValueError(f"unknown unit {unit!r}: one of {', '.join(UNITS)}")
    if format_ == "knock-out" and seats != 2:
        raise ValueError(f"a knock-out needs one loser per table: play round-robin or swiss at tables of {seats}")


def planned_rounds(format_: str, n: int, seats: int, rounds: int | None) -> int:
    """How many rounds ``n`` participants play (``rounds``: what the organiser asked for, Swiss only).

    A Swiss tournament of two-player tables has at most as many rounds as it can
    pair without a repeat (:func:`~bummerl.tournament.formats.max_swiss_rounds`);
    fewer participants than ``rounds`` needs play that many.

    >>> [planned_rounds("round-robin", n, 2, None) for n in (2, 3, 4)]
    [1, 3, 3]
    >>> planned_rounds("swiss", 4, 2, 5), planned_rounds("swiss", 9, 2, None), planned_rounds("knock-out", 5, 2, None)
    (2, 4, 3)
    >>> planned_rounds("round-robin", 8, 4, None), planned_rounds("swiss", 3, 3, 4)
    (3, 4)
    """
    if n < 2:
        raise ValueError(f"a tournament needs at least two participants, not {n}")
    if format_ == "knock-out":
        return (n - 1).bit_length()
    if format_ == "round-robin":
        return len(round_robin(n)) if seats == 2 else max(1, math.ceil((n - 1) / (seats - 1)))
    wanted = min(rounds or swiss_rounds(n), MAX_ROUNDS)
    return min(wanted, max_swiss_rounds(n)) if seats == 2 else wanted


def next_round(format_: str, n: int, seats: int, history: Sequence[Played], total: int) -> list[Seating] | None:
    """The seatings of the round after ``history`` (every table of it decided), or ``None`` when the
    tournament is over (``total`` rounds played, a knock-out decided, no Swiss pairing without a repeat left)."""
    done = len(history)
    if format_ == "knock-out":
        return _knock_out(n, history)
    if done >= total:
        return None
    if seats == 2:
        if format_ == "round-robin":
            pairs = round_robin(n)[done]
            bye = round_robin_byes(n)[done]
        else:
            table = standings(format_, n, history)
            ranking = [s.player for s in sorted(table, key=lambda s: (-s.points, s.player))]
            met = {frozenset(seating.participants) for played in history for seating, _ in played if not seating.bye}
            byes = {s.player: s.byes for s in table}
            try:
                pairs, bye = swiss_pairs(ranking, {s.player: s.points for s in table}, met, byes)
            except ValueError:
                return None
        seatings: list[Seating] = [Seating((a, b)) for a, b in pairs]
        if bye is not None:
            seatings.append(Seating((bye,), bye=True))
        return seatings
    if format_ == "swiss":
        order = [s.player for s in standings(format_, n, history)]
    else:
        order = _rotation(n, seats, history)
    return _seat(order, seats)


def _knock_out(n: int, history: Sequence[Played]) -> list[Seating] | None:
    if not history:
        slots = bracket(n)
        seatings = []
        for a, b in zip(slots[::2], slots[1::2], strict=True):
            if a is not None and b is not None:
                seatings.append(Seating((a, b)))
            else:
                # bracket() puts a bye only against a seed: one of the two slots is a participant.
                seatings.append(Seating((a if a is not None else b,), bye=True))
        return seatings
    last = history[-1]
    through = [_through(seating, outcome) for seating, outcome in last]
    if len(through) == 1:
        return None
    return [Seating((a, b)) for a, b in zip(through[::2], through[1::2], strict=True)]


def _through(seating: Seating, outcome: Outcome | None) -> int:
    """Who goes through from a decided knock-out table (the better seed if, against the rules, nobody won)."""
    if outcome is not None and outcome.winners:
        return min(outcome.winners)
    return min(seating.participants)


def _sizes(n: int, seats: int) -> list[int]:
    """How many participants sit at each table: as even as possible, the fuller tables first.

    >>> _sizes(5, 4), _sizes(8, 4), _sizes(7, 3)
    ([3, 2], [4, 4], [3, 2, 2])
    """
    tables = math.ceil(n / seats)
    base, extra = divmod(n, tables)
    return [base + 1] * extra + [base] * (tables - extra)


def _seat(order: Sequence[int], seats: int) -> list[Seating]:
    """``order`` cut into tables of :func:`_sizes`, each filled up with bots (``None``) after its participants."""
    seatings = []
    start = 0
    for size in _sizes(len(order), seats):
        group = tuple(order[start : start + size])
        seatings.append(Seating((*group, *([None] * (seats - size)))))
        start += size
    return seatings


def _rotation(n: int, seats: int, history: Sequence[Played]) -> list[int]:
    """A round robin's next order for :func:`_seat`: the tables that bring together as few participants who met
    before as possible, repeated meetings weighing more (the square of the times met).

    Each table is first filled greedily (the best seed left, then in turn whoever met its players least), then
    two participants of different tables change places while that lowers the weight: the greedy start alone
    leaves the last table whoever is left over.
    """
    # weight[p][q]: the square of the times p and q met.
    met = [[0] * n for _ in range(n)]
    for played in history:
        for seating, _ in played:
            for a in seating.participants:
                for b in seating.participants:
                    met[a][b] += a != b
    weight = [[m * m for m in row] for row in met]

    def cost(p: int, table: Sequence[int]) -> int:
        row = weight[p]
        return sum(row[q] for q in table) - row[p]

    left = list(range(n))
    tables: list[list[int]] = []
    for size in _sizes(n, seats):
        table = [left.pop(0)]
        while len(table) < size:
            best = min(left, key=lambda p: (cost(p, table), p))
            left.remove(best)
            table.append(best)
        tables.append(table)
    improved = True
    while improved:
        improved = False
        for i, one in enumerate(tables):
            for other in tables[i + 1 :]:
                for a_at, a in enumerate(one):
                    for b_at, b in enumerate(other):
                        rest_one = [p for p in one if p != a]
                        rest_other = [p for p in other if p != b]
                        before = cost(a, rest_one) + cost(b, rest_other)
                        if cost(b, rest_one) + cost(a, rest_other) < before:
                            one[a_at], other[b_at] = b, a
                            a = b
                            improved = True
    return [p for table in tables for p in sorted(table)]


def standings(format_: str, n: int, history: Sequence[Played]) -> list[Standing]:
    """Every participant's points, wins, tables played, byes and game points, best first (module docstring)."""
    points = [0] * n
    wins = [0] * n
    played = [0] * n
    byes = [0] * n
    score = [0] * n
    for rnd in history:
        for seating, outcome in rnd:
            if outcome is None:
                continue
            if seating.bye:
                (player,) = seating.participants
                byes[player] += 1
                if format_ != "round-robin":
                    points[player] += 1
                continue
            for player in seating.participants:
                played[player] += 1
                score[player] += outcome.scores.get(player, 0)
                if player in outcome.winners:
                    wins[player] += 1
                    points[player] += 1
    order = sorted(range(n), key=lambda p: (-points[p], -score[p], p))
    return [Standing(i + 1, p, points[p], wins[p], played[p], byes[p], score[p]) for i, p in enumerate(order)]


def winner(format_: str, n: int, history: Sequence[Played]) -> int | None:
    """The winner of a finished tournament: the knock-out's last one through, else the top of the standings."""
    if not history:
        return None
    if format_ == "knock-out":
        (final, outcome), *_ = history[-1]
        return _through(final, outcome)
    return standings(format_, n, history)[0].player


def decide(matches: Sequence[Series], unit: str, players: Sequence[int | None]) -> Outcome | None:
    """The outcome of a table from its matches (:class:`~bummerl.series.Series`: a two-player Bummerl, a table
    game's match to 24; first match first), or ``None`` while it is undecided.

    ``unit`` ``"game"``: the table's first game that somebody wins (a game
    nobody wins, 65:65 or a redeal, is followed by the next deal at the same
    table); ``"bummerl"``: its first match, to its end.  ``players`` maps seats
    to participants (``None``: a filler bot, neither winner nor scored).

    >>> from bummerl.match import Match
    >>> m = Match("schnapsen", seed=3)
    >>> g = m.deal_next()
    >>> while not g.is_over:
    ...     _ = g.apply(g.legal_actions()[0])
    >>> m.complete(g)
    >>> out = decide([m], "game", [7, 9])
    >>> out.winners == {[7, 9][g.result.winner]}, sorted(out.scores.values())[1] == g.result.points
    (True, True)
    >>> decide([m], "bummerl", [7, 9]) is None
    True
    """
    if not matches:
        return None
    first = matches[0]
    seats = range(len(players))

    def outcome(won: Sequence[int], points: Mapping[int, int]) -> Outcome:
        return Outcome(
            frozenset(p for s in won if (p := players[s]) is not None),
            {p: points[s] for s in seats if (p := players[s]) is not None},
        )

    def winners(h: ScoredGame) -> list[int]:
        """The seats that won game ``h`` (none for a game nobody wins, 65:65 or a redeal)."""
        at = first.players_of(h.index)
        return [at[g] for g in range(len(at)) if h.result.points_of(g) > 0]

    if unit == "game":
        for h in first.history:
            won = winners(h)
            if won:
                return outcome(won, {s: h.points if s in won else 0 for s in seats})
        return None
    if not first.is_over:
        return None
    # What each side was credited over the match: a Bummerl's game points, a table game's points towards 24.
    credited = [0] * first.sides
    for h in first.history:
        for side in {first.side_of(s) for s in winners(h)}:
            credited[side] += h.points
    return outcome(
        [s for s in seats if first.side_of(s) in first.winners], {s: credited[first.side_of(s)] for s in seats}
    )


def forfeit(abandoned: Collection[int], players: Sequence[int | None], sides: Sequence[int]) -> Outcome | None:
    """The outcome of a table at which the bot took over the seats ``abandoned`` (the move clock's verdict:
    their players let the clock run out too often, :mod:`bummerl.server.clock`), or ``None`` if none of them
    is a participant's.

    A participant whose seat was taken over forfeits the table at once: they lose it, and so does their side
    (``sides``: each seat's side; partners at Bauernschnapsen share one); every participant of a side without
    such a seat wins it.  A forfeit credits no game points to anybody: the game it happened in was not played
    out by the people at the table.  Where every side forfeits, nobody wins.

    >>> forfeit([1], [4, 7], [0, 1])  # two players: the other one wins
    Outcome(winners=frozenset({4}), scores={4: 0, 7: 0}, forfeited=frozenset({7}))
    >>> forfeit([3], [0, 1, 2, 3], [0, 1, 0, 1]).winners  # Bauernschnapsen: the partners of seat 3 lose too
    frozenset({0, 2})
    >>> forfeit([0], [5, None, 6], [0, 1, 2]).winners  # Dreierschnapsen with a filling bot
    frozenset({6})
    >>> forfeit([1], [5, None], [0, 1]) is None  # the filling bot's seat is nobody's
    True
    """
    gone = {s for s in abandoned if 0 <= s < len(players) and players[s] is not None}
    if not gone:
        return None
    lost = {sides[s] for s in gone}
    return Outcome(
        frozenset(p for s, p in enumerate(players) if p is not None and sides[s] not in lost),
        {p: 0 for p in players if p is not None},
        frozenset(p for s in gone if (p := players[s]) is not None),
    )
