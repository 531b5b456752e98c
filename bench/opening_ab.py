"""The opening search (:mod:`bummerl.bots.opening`) against the heuristic opening, through the arena.

    python bench/opening_ab.py --variant sechsundsechzig --a open:hard --b hard --deals 200 --seed 5
    python bench/opening_ab.py --variant schnorps --a "open:expert:seconds=0.8" --b expert --deals 60 --json

``open:LEVEL[:key=value,...]`` is the search level ``LEVEL`` (``easy`` .. ``expert``) with the opening
search for the decisions it cannot solve yet (:class:`~bummerl.bots.opening.OpeningBot`; settings of
:class:`~bummerl.bots.opening.OpeningSearch`: ``seconds``, ``hard_seconds``, ``worlds``, ``horizon``,
``chance_pairs``; and ``margin``: keep the heuristic's move unless the search values another that much
higher).  The plain level plays those decisions with the ``heuristic`` (today's search bots), so
``--a open:hard --b hard`` differs only in the opening.  The names are registered for this run, so the arena
runs with one job in this process; the report is ``bummerl arena``'s (docs/arena.md).
"""

from __future__ import annotations

from typing import Any

import ab  # the shared command line (bench/ab.py)
from bummerl.bots import Bot, register_bot

_NUMBERS = {
    "seconds": float,
    "hard_seconds": float,
    "worlds": int,
    "horizon": int,
    "chance_pairs": int,
    "margin": float,
}


def parse_spec(spec: str) -> tuple[str, dict[str, Any]] | None:
    """``(level, OpeningSearch keyword arguments)`` of an ``open:`` spec, else ``None``.

    >>> parse_spec("open:hard:seconds=0.5,horizon=2")
    ('hard', {'seconds': 0.5, 'horizon': 2})
    >>> parse_spec("hard") is None
    True
    """
    if not spec.startswith("open:"):
        return None
    level, _, rest = spec[5:].partition(":")
    kwargs: dict[str, Any] = {}
    for part in filter(None, (p.strip() for p in rest.split(","))):
        key, _, value = part.partition("=")
        if key not in _NUMBERS:
            raise ValueError(f"unknown setting {key!r} in {spec!r}")
        kwargs[key] = _NUMBERS[key](value)
    return level, kwargs


def register(spec: str) -> None:
    parsed = parse_spec(spec)
    if parsed is None:
        return
    level, kwargs = parsed

    def factory(seed: int) -> Bot:
        from bummerl.bots.levels import make_level
        from bummerl.bots.opening import OpeningBot, OpeningSearch

        settings = dict(kwargs)
        margin = float(settings.pop("margin", 0.0))
        return OpeningBot(spec, make_level(level, seed), seed, OpeningSearch(seed, **settings), margin=margin)

    register_bot(spec, factory, f"{level} with the opening search {kwargs}")


def main() -> None:
    ab.main(register, __doc__, "sechsundsechzig", deals=100)


if __name__ == "__main__":
    main()
