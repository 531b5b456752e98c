"""The named search levels: ``easy``, ``medium``, ``hard`` and ``expert``.

Every level is a :class:`~bummerl.bots.search.SearchBot` (PIMC with the exact
open-card solver, all worlds enumerated once few remain); they differ only in
their :class:`~bummerl.bots.search.Budget`.  ``docs/bots.md`` gives the
measured strength and time per move of each; ``hard`` is the web opponent's
default (at most 0.3 s per move).

==========  =======  ==========  =========  ===========  ==================================
level       worlds   enumerate   seconds    temperature  meant for
==========  =======  ==========  =========  ===========  ==================================
easy        2        4           -          1.0          beginners
medium      6        12          0.15       0.35         casual play
hard        12       40          0.25       0.15         the web default
expert      100      300         0.8 (2)    0            the strongest; <= 0.5 s per move (median)
==========  =======  ==========  =========  ===========  ==================================

``expert`` may think 2.5 times as long (2 s) while the open talon still holds
7 or more face-down cards: the first two tricks of a Schnapsen deal, where a
world costs the most and the decisions (exchange, closing, the opening leads)
weigh most; the median time per move stays far below 1 s.  Its hard deadline
(2.5 s) gives up a world still being solved then, so no decision takes longer
on a loaded machine (the issue's limit is 3 s).

Policy-based inference (``Budget(inference=True)``, :mod:`bummerl.bots.likelihood`)
is available but off: it measured no gain (docs/bots.md).

``expert`` alone also plays for the match and for the opponent's mistakes:
with a match context in the view (:class:`~bummerl.view.MatchContext`) it
maximises the expected Bummerl from a match equity table
(:mod:`bummerl.bots.match_equity`) instead of the game points, and it breaks
ties (and near-ties, 0.05 game points) by the chances an action keeps against
an imperfect opponent (:mod:`bummerl.bots.tiebreak`, at most 0.25 s), so it
never concedes a game that playing on values as high.

``temperature`` makes the weaker levels human: they draw their move with
probability ``exp(value / temperature)``, so they mix up near-equal moves and
now and then miss a better one, but hardly ever throw a game away.  ``hard``
has a small one (0.15) because at temperature 0 it played like ``expert``
(PIMC saturates at about a dozen worlds: +0.025 game points per game, 95% CI
[-0.10, +0.15] over 280 deals); with it each level beats the one below with an
interval above zero (docs/bots.md, "The ladder").

>>> from bummerl.bots import make_bot
>>> bot = make_bot("expert", seed=1)
>>> bot.name, bot.budget.worlds
('expert', 100)

The levels see only the view; see :mod:`bummerl.bots.inference`.
"""

from __future__ import annotations

from bummerl.bots import register_bot
from bummerl.bots.search import Budget, SearchBot

__all__ = ["LEVELS", "WEB_DEFAULT", "make_level"]

#: Budgets by level name, weakest first.
LEVELS: dict[str, Budget] = {
    "easy": Budget(worlds=2, exhaustive=4, temperature=1.0),
    "medium": Budget(worlds=6, exhaustive=12, seconds=0.15, temperature=0.35),
    "hard": Budget(worlds=12, exhaustive=40, seconds=0.25, temperature=0.15),
    "expert": Budget(
        worlds=100,
        exhaustive=300,
        seconds=0.8,
        opening_factor=2.5,
        hard_seconds=2.5,
        match_play=True,
        chance_seconds=0.25,
        tie_margin=0.05,
    ),
}

#: The level the web table offers by default (<= 0.3 s per move).
WEB_DEFAULT = "hard"

_DESCRIPTIONS = {
    "easy": "PIMC, 2 sampled deals, loose choice (temperature 1.0): beginner",
    "medium": "PIMC, 6 sampled deals, slightly loose choice (temperature 0.35)",
    "hard": "PIMC, 12 sampled deals, exact when <= 40 remain, nearly strict choice (web default, <= 0.3 s)",
    "expert": (
        "PIMC, 100 sampled deals, exact when <= 300 remain (0.8 s per move, 2 s in the first tricks, never over 2.5 s)"
    ),
}


#: The levels' display names (German, English): the one name the web page shows for each.
_TITLES = {
    "easy": ("Leicht", "Easy"),
    "medium": ("Mittel", "Medium"),
    "hard": ("Stark", "Strong"),
    "expert": ("Experte", "Expert"),
}


def make_level(level: str, seed: int = 0) -> SearchBot:
    """A search bot with the budget of ``level``."""
    try:
        budget = LEVELS[level]
    except KeyError:
        raise ValueError(f"unknown level {level!r}; levels: {', '.join(LEVELS)}") from None
    return SearchBot(level, budget, seed)


def _register() -> None:
    for level in LEVELS:
        # Bind the level now: a closure over the loop variable would see "expert" only.
        def factory(seed: int, level: str = level) -> SearchBot:
            return make_level(level, seed)

        de, en = _TITLES[level]
        register_bot(level, factory, _DESCRIPTIONS[level], (f"pimc-{level}",), titles={"de": de, "en": en})


_register()
