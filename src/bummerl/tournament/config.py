"""What a tournament plays: its format, variant, bots, deals per pairing, unit and seed.

Every pairing is an arena (:class:`bummerl.arena.ArenaConfig`) of the same
variant, unit and seed: deal ``i`` of every pairing is dealt from
``derive_seed(seed, i)``, so all pairings play the same packs and each one can be
reproduced with ``bummerl arena --a A --b B --seed S --deals N``.

>>> config = TournamentConfig("swiss", "66", ["heuristic", "random", "easy"], games=4, seed=7)
>>> config.to_json()["variant"], config.rounds, config.arena(0, 2, deals=4).b
('sechsundsechzig', 2, 'easy')
>>> TournamentConfig("knock-out", "schnapsen", ["random", "random"])
Traceback (most recent call last):
...
ValueError: each bot may take part once; named twice: random

Only :meth:`TournamentConfig.to_json` is stored (``tournament.json``): a re-run
must match it.  How the deals are run (jobs, backend) is not part of it, since
it changes no result.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import Any

from bummerl.arena import ArenaConfig, PlaySettings
from bummerl.arena.play import check_bot
from bummerl.protocol import DEFAULT_MOVE_TIMEOUT
from bummerl.tournament.formats import FORMATS, max_swiss_rounds, swiss_rounds
from bummerl.variants import Variant

__all__ = ["TournamentConfig"]


@dataclasses.dataclass(frozen=True)
class TournamentConfig(PlaySettings):
    """A tournament of ``bots`` (seeded in this order) in ``format``; ``games`` duplicate deals per pairing."""

    format: str
    variant: Variant | str
    bots: Sequence[str]
    #: Duplicate deals per pairing (a knock-out adds deals to break a tie).
    games: int = 10
    seed: int = 0
    unit: str = "game"
    #: Swiss rounds (``None``: ``ceil(log2 n)``); the other formats have a fixed number.
    rounds: int | None = None
    move_timeout: float = DEFAULT_MOVE_TIMEOUT

    def __post_init__(self) -> None:
        self._check_play_settings()
        object.__setattr__(self, "bots", tuple(self.bots))
        if self.format not in FORMATS:
            raise ValueError(f"format must be one of {', '.join(FORMATS)}, not {self.format!r}")
        if len(self.bots) < 2:
            raise ValueError(f"a tournament needs at least two bots, not {len(self.bots)}")
        twice = sorted({b for b in self.bots if self.bots.count(b) > 1})
        if twice:
            raise ValueError(f"each bot may take part once; named twice: {', '.join(twice)}")
        if isinstance(self.games, bool) or not isinstance(self.games, int) or self.games < 1:
            raise ValueError(f"games (duplicate deals per pairing) must be a positive integer, not {self.games!r}")
        if self.format == "swiss":
            most = max_swiss_rounds(len(self.bots))
            rounds = swiss_rounds(len(self.bots)) if self.rounds is None else self.rounds
            if not 1 <= rounds <= most:
                raise ValueError(f"a Swiss tournament of {len(self.bots)} bots has 1 to {most} rounds, not {rounds}")
            object.__setattr__(self, "rounds", rounds)
        elif self.rounds is not None:
            raise ValueError(f"only a Swiss tournament takes a number of rounds, not a {self.format}")
        for spec in self.bots:
            check_bot(spec, self.rules)

    def arena(self, a: int, b: int, deals: int) -> ArenaConfig:
        """The arena of bots ``a`` and ``b`` (their numbers) over ``deals`` deals, in this process."""
        return ArenaConfig(
            self.rules,
            self.bots[a],
            self.bots[b],
            deals=max(1, deals),
            seed=self.seed,
            unit=self.unit,
            jobs=1,
            move_timeout=self.move_timeout,
        )

    def to_json(self) -> dict[str, Any]:
        """What ``tournament.json`` holds: everything that changes a result."""
        return {
            "format": self.format,
            "variant": self.rules.name,
            "options": self.rules.options(),
            "bots": list(self.bots),
            "games": self.games,
            "unit": self.unit,
            "seed": self.seed,
            "rounds": self.rounds,
            "move_timeout": self.move_timeout,
        }
