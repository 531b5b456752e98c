"""The tournament so far: its rounds, the deals each pairing needs, who won, what is still to play.

:func:`plan` rebuilds the whole tournament from the configuration and the
finished deals, every time: a round robin's rounds are fixed in advance; a Swiss
round is paired when the round before it is finished; a knock-out round when the
one before it is decided.  So a tournament is resumed by reading its deals back
(:mod:`bummerl.tournament.store`) and asking :meth:`Plan.missing` what to play.

**Deciding a pairing** (:class:`~bummerl.tournament.outcomes.Tally`): the
higher primary score over the pairing's ``games`` deals wins: Bummerl won with
``unit="bummerl"``, game points with ``unit="game"``.  In a round robin or a
Swiss round equal scores are a draw (half a point each; a Swiss bye is a win).
A **knock-out** match needs a winner, as at the table, where a tied pair of
Bummerl is played again: a tie is played on with the next deal (``games``,
``games + 1``, ...), at most :data:`EXTRA_DEALS` more; if it is still tied, the
game points decide, then the games won, then the seeding (the bot named first
in ``--bots`` goes through).

>>> from bummerl.tournament.config import TournamentConfig
>>> config = TournamentConfig("knock-out", "schnapsen", ["heuristic", "random", "easy"], games=2)
>>> first = plan(config, {})
>>> [(r.number, [p.pairing for p in r.pairings], r.byes) for r in first.rounds]
[(1, [Pairing(round=1, a=1, b=2)], [0])]
>>> first.missing()
[(Pairing(round=1, a=1, b=2), 0), (Pairing(round=1, a=1, b=2), 1)]

This module decides from results; it plays nothing and reads no files.
"""

from __future__ import annotations

import dataclasses
from collections import Counter, defaultdict
from collections.abc import Mapping

from bummerl.arena import DealResult
from bummerl.tournament.config import TournamentConfig
from bummerl.tournament.formats import Pairing, bracket, round_robin, round_robin_byes, swiss_pairs
from bummerl.tournament.outcomes import Tally

__all__ = ["EXTRA_DEALS", "PairingResult", "Plan", "Results", "Round", "plan"]

#: Deals a tied knock-out match is played on, at most, before the tie-breaks decide it.
EXTRA_DEALS = 5

#: Finished deals by pairing and deal number.
Results = Mapping[Pairing, Mapping[int, DealResult]]


@dataclasses.dataclass(frozen=True)
class PairingResult:
    """A pairing as far as it is played."""

    pairing: Pairing
    #: Deals it needs: ``0 .. deals - 1`` (a knock-out tie adds some).
    deals: int
    #: The sums over those of its needed deals that are finished.
    tally: Tally
    #: The needed deals that are finished.
    done: frozenset[int]
    #: The winner (a bot's number) once finished; ``None`` for a draw.
    winner: int | None
    #: What decided it: ``bummerl`` or ``game points`` (the primary score), in a knock-out also
    #: ``games won`` or ``seeding`` after the extra deals; ``draw``; empty while unfinished.
    decided_by: str

    @property
    def finished(self) -> bool:
        """Every needed deal is finished."""
        return len(self.done) == self.deals

    @property
    def missing(self) -> list[int]:
        """The needed deals still to play."""
        return [d for d in range(self.deals) if d not in self.done]


@dataclasses.dataclass(frozen=True)
class Round:
    """One round: its pairings and the bots with a bye."""

    number: int
    pairings: list[PairingResult]
    byes: list[int]

    @property
    def finished(self) -> bool:
        return all(p.finished for p in self.pairings)


@dataclasses.dataclass(frozen=True)
class Plan:
    """The rounds so far; the tournament is over when nothing is missing."""

    format: str
    rounds: list[Round]

    def missing(self) -> list[tuple[Pairing, int]]:
        """The deals still to play, pairing by pairing: ``(pairing, deal)``."""
        return [(p.pairing, d) for r in self.rounds for p in r.pairings for d in p.missing]

    @property
    def finished(self) -> bool:
        return not self.missing()


def plan(config: TournamentConfig, results: Results) -> Plan:
    """The tournament of ``config`` given the finished deals ``results`` (see the module docstring)."""
    if config.format == "round-robin":
        return Plan(config.format, _round_robin(config, results))
    if config.format == "swiss":
        return Plan(config.format, _swiss(config, results))
    return Plan(config.format, _knockout(config, results))


def _so_far(pairing: Pairing, deals: int, results: Results) -> tuple[Tally, frozenset[int]]:
    """The sums over the finished ones of the pairing's first ``deals`` deals, and which those are."""
    on_disk = results.get(pairing, {})
    done = frozenset(d for d in range(deals) if d in on_disk)
    return Tally.of(on_disk[d] for d in sorted(done)), done


def _fixed(config: TournamentConfig, pairing: Pairing, results: Results) -> PairingResult:
    """A pairing of ``config.games`` deals; equal primary scores are a draw."""
    tally, done = _so_far(pairing, config.games, results)
    winner = None
    decided_by = ""
    if len(done) == config.games:
        side = tally.winner(config.unit)
        winner = None if side is None else pairing.a if side == "a" else pairing.b
        decided_by = _primary(config) if side else "draw"
    return PairingResult(pairing, config.games, tally, done, winner, decided_by)


def _primary(config: TournamentConfig) -> str:
    return "bummerl" if config.unit == "bummerl" else "game points"


def _round_robin(config: TournamentConfig, results: Results) -> list[Round]:
    n = len(config.bots)
    byes = round_robin_byes(n)
    return [
        Round(r, [_fixed(config, Pairing(r, a, b), results) for a, b in pairs], [] if bye is None else [bye])
        for r, (pairs, bye) in enumerate(zip(round_robin(n), byes, strict=True), 1)
    ]


def _swiss(config: TournamentConfig, results: Results) -> list[Round]:
    n = len(config.bots)
    assert config.rounds is not None
    scores: dict[int, float] = defaultdict(float)
    met: set[frozenset[int]] = set()
    byes: Counter[int] = Counter()
    rounds = []
    for number in range(1, config.rounds + 1):
        ranking = sorted(range(n), key=lambda bot: (-scores[bot], bot))
        pairs, bye = swiss_pairs(ranking, scores, met, byes)
        played = [_fixed(config, Pairing(number, a, b), results) for a, b in pairs]
        rounds.append(Round(number, played, [] if bye is None else [bye]))
        if not rounds[-1].finished:
            break
        for p in played:
            met.add(frozenset((p.pairing.a, p.pairing.b)))
            for bot in (p.pairing.a, p.pairing.b):
                scores[bot] += 1.0 if p.winner == bot else 0.5 if p.winner is None else 0.0
        if bye is not None:
            byes[bye] += 1
            scores[bye] += 1.0
    return rounds


def _knockout(config: TournamentConfig, results: Results) -> list[Round]:
    slots: list[int | None] = list(bracket(len(config.bots)))
    rounds = []
    number = 1
    while len(slots) > 1:
        played, byes, winners = [], [], []
        for x, y in zip(slots[::2], slots[1::2], strict=True):
            if x is None or y is None:
                through = x if y is None else y
                if through is not None:
                    byes.append(through)
                winners.append(through)
                continue
            match = _knockout_match(config, Pairing(number, min(x, y), max(x, y)), results)
            played.append(match)
            winners.append(match.winner)
        rounds.append(Round(number, played, byes))
        if not rounds[-1].finished:
            break
        slots = winners
        number += 1
    return rounds


def _knockout_match(config: TournamentConfig, pairing: Pairing, results: Results) -> PairingResult:
    """A knock-out match: ``games`` deals, then one more while tied (at most :data:`EXTRA_DEALS`), then tie-breaks."""
    deals = config.games
    while True:
        tally, done = _so_far(pairing, deals, results)
        if len(done) < deals:
            return PairingResult(pairing, deals, tally, done, None, "")
        side = tally.winner(config.unit)
        if side is None and deals < config.games + EXTRA_DEALS:
            deals += 1
            continue
        decided_by = _primary(config)
        if side is None:
            decided_by, side = "seeding", "a"  # a is the better seed: the lower number
            for name, (a, b) in (("game points", tally.game_points), ("games won", tally.games_won)):
                if a != b:
                    decided_by, side = name, "a" if a > b else "b"
                    break
        winner = pairing.a if side == "a" else pairing.b
        return PairingResult(pairing, deals, tally, done, winner, decided_by)
