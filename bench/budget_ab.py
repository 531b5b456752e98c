"""A search level with other :class:`~bummerl.bots.search.Budget` settings against another, through the arena.

    python bench/budget_ab.py --a expert:alphamu=5 --b expert --deals 100 --seed 5001 --json --game-log
    python bench/budget_ab.py --variant sechsundsechzig --a "hard:worlds=24,temperature=0" --b hard --deals 50

``LEVEL:key=value,...`` is the level ``LEVEL`` (``easy`` .. ``expert``, :data:`~bummerl.bots.levels.LEVELS`)
with those fields of its budget replaced (``none``, ``true``/``false``, whole and decimal numbers); a plain
level name is the level itself.  Both sides run in this process, so the candidate is exactly the working
tree's code with one setting changed: the A/B a setting needs before it ships (a change of code is measured
against a frozen build instead, ``bench/baseline.py``).  The arena runs with one job; run several seeds side
by side and pool their reports with ``python bench/strength.py --combine`` (with ``--game-log``).  The report
is ``bummerl arena``'s (docs/arena.md).
"""

from __future__ import annotations

import dataclasses

import ab  # the shared command line (bench/ab.py)
from bummerl.bots import Bot, register_bot

Setting = int | float | bool | None


def parse_value(text: str) -> Setting:
    """A setting's value from the command line.

    >>> [parse_value(t) for t in ("none", "true", "False", "5", "0.8")]
    [None, True, False, 5, 0.8]
    """
    low = text.strip().lower()
    if low == "none":
        return None
    if low in ("true", "false"):
        return low == "true"
    try:
        return int(low)
    except ValueError:
        return float(low)


def parse_spec(spec: str) -> tuple[str, dict[str, Setting]]:
    """``(level, budget fields)`` of a spec.

    >>> parse_spec("expert:alphamu=5,seconds=0.4")
    ('expert', {'alphamu': 5, 'seconds': 0.4})
    >>> parse_spec("hard")
    ('hard', {})
    >>> parse_spec("hard:wrolds=3")
    Traceback (most recent call last):
    ...
    ValueError: unknown budget field 'wrolds' in 'hard:wrolds=3'
    """
    from bummerl.bots.search import Budget

    level, _, rest = spec.partition(":")
    names = {f.name for f in dataclasses.fields(Budget)}
    settings: dict[str, Setting] = {}
    for part in filter(None, (p.strip() for p in rest.split(","))):
        key, _, value = part.partition("=")
        if key not in names:
            raise ValueError(f"unknown budget field {key!r} in {spec!r}")
        settings[key] = parse_value(value)
    return level, settings


def register(spec: str) -> None:
    """Register ``spec`` as a bot name for this process (plain level names are registered already)."""
    level, settings = parse_spec(spec)
    if not settings:
        return
    from bummerl.bots.levels import LEVELS
    from bummerl.bots.search import SearchBot

    budget = dataclasses.replace(LEVELS[level], **settings)  # type: ignore[arg-type]

    def factory(seed: int) -> Bot:
        return SearchBot(spec, budget, seed)

    register_bot(spec, factory, f"{level} with {settings}")


def main() -> None:
    ab.main(register, __doc__, "schnapsen", deals=100)


if __name__ == "__main__":
    main()
