"""Tournaments of bots: round robin, Swiss and knock-out on duplicate deals, with ratings, records and resume.

``bummerl tournament`` (docs/tournaments.md) plays every pairing of a schedule
as an arena (:mod:`bummerl.arena`): the two bots on the same duplicate deals in
every seating, for any of the six variants.  Every finished deal and every game's
record is kept in the tournament's directory, so a tournament that stopped is
resumed by running it again; the standings come with Bradley-Terry ratings and
their 95% intervals.

>>> import tempfile
>>> config = TournamentConfig("round-robin", "schnapsen", ["heuristic", "random", "easy"], games=2, seed=1)
>>> with tempfile.TemporaryDirectory() as root:
...     report = run_tournament(config, root, jobs=1, plot=False)
>>> report["winner"], len(report["pairings"]), list(report["standings"][0])[:4]
('heuristic', 3, ['rank', 'bot', 'rating', 'interval'])

The modules: :mod:`~bummerl.tournament.formats` (the schedules),
:mod:`~bummerl.tournament.config`, :mod:`~bummerl.tournament.outcomes` (what a
pairing's deals add up to), :mod:`~bummerl.tournament.schedule` (the tournament
so far, rebuilt from its results), :mod:`~bummerl.tournament.store` (the
directory), :mod:`~bummerl.tournament.ratings`,
:mod:`~bummerl.tournament.standings`, :mod:`~bummerl.tournament.report`,
:mod:`~bummerl.tournament.plot` (needs matplotlib) and
:mod:`~bummerl.tournament.run`.
"""

from __future__ import annotations

from bummerl.tournament.config import TournamentConfig
from bummerl.tournament.formats import FORMATS, Pairing
from bummerl.tournament.ratings import Rating, bradley_terry
from bummerl.tournament.report import format_report
from bummerl.tournament.run import run_tournament
from bummerl.tournament.store import ConfigMismatchError

__all__ = [
    "FORMATS",
    "ConfigMismatchError",
    "Pairing",
    "Rating",
    "TournamentConfig",
    "bradley_terry",
    "format_report",
    "run_tournament",
]
