"""What one search decision found: one record for every search bot, as a chess engine's info line.

:class:`~bummerl.bots.search.SearchBot` (two players, PIMC over the open-card solver),
:class:`~bummerl.bots.opening.OpeningSearch` (the first tricks, a leaf model behind a short horizon) and
:class:`~bummerl.bots.table_search.TableSearchBot` (3 and 4 seats) all answer ``evaluate(view)`` with an
:class:`Evaluation`; hints, the analysis and the benchmarks read it without knowing which bot made it.

>>> from bummerl.actions import Action
>>> ev = Evaluation({Action.parse("Kh"): 1.0, Action.parse("Ah"): -0.5}, worlds=3, best=Action.parse("Kh"), seconds=0.1)
>>> [(a.token, v) for a, v in ev.ranked()], ev.cut, ev.exhaustive
([('Kh', 1.0), ('Ah', -0.5)], False, False)
"""

from __future__ import annotations

import dataclasses

from bummerl.actions import Action

__all__ = ["Evaluation"]


@dataclasses.dataclass(frozen=True)
class Evaluation:
    """The result of evaluating one decision."""

    #: Mean value of each legal action over the finished worlds (game points for the bot's side; Marken in
    #: Schnorps); empty if no world finished.
    values: dict[Action, float]
    #: Worlds solved to the end.
    worlds: int
    #: The chosen action (the first legal action when no world finished).
    best: Action
    #: Wall seconds spent.
    seconds: float
    #: Whether a world was dropped at the hard deadline.
    cut: bool = False
    #: Whether the worlds were all consistent worlds (exact expectation).
    exhaustive: bool = False
    #: What the choice maximised, per action: the mean match equity (match play with a match context), else the
    #: same as :attr:`values` (``None``: the bot scores no other way).
    scores: dict[Action, float] | None = None
    #: ``"game points"`` or ``"match equity"``: the unit of :attr:`scores`.
    objective: str = "game points"
    #: The tied actions' chances against an imperfect opponent (tie-break), where computed.
    chances: dict[Action, float] | None = None
    #: Worlds the chances were averaged over.
    chance_worlds: int = 0

    def ranked(self) -> list[tuple[Action, float]]:
        """Actions from best to worst."""
        return sorted(self.values.items(), key=lambda kv: -kv[1])
