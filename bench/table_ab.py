"""A/B runs of table ``search`` bot settings through the arena, in this process (one job).

    python bench/table_ab.py --variant bauernschnapsen --a search --b "search[doubling=heuristic]" --deals 100
    python bench/table_ab.py --variant dreierschnapsen --a search \\
        --b "cmd:.baselines/<commit>/.venv/bin/bummerl bot search" --deals 40 --json

A bot is a built-in name, ``cmd:<command line>`` (e.g. a baseline from ``bench/baseline.py``), or
``search[key=value,...]``: :class:`~bummerl.bots.table_search.TableSearchBot` with those keyword
arguments (``worlds``, ``seconds``, ``hard_seconds`` as numbers, ``seconds=none`` for no cap,
``bidding``, ``doubling``).  The bracketed names are registered for this run only, so the arena runs
with ``jobs=1`` in this process (its documented single-job mode) and the report is ``bummerl
arena``'s: the duplicate deals, the seatings and the paired 95% interval of the points difference
(docs/arena.md).  ``--json`` prints the report as JSON (with ``--game-log`` every game, for pooling
chunks with ``bench/strength.py --combine``).
"""

from __future__ import annotations

import re
from typing import Any

import ab  # the shared command line (bench/ab.py)
from bummerl.bots import TABLE_GAMES, Bot, register_bot
from bummerl.variants import Variant

_SPEC = re.compile(r"^search\[(?P<args>[^\]]*)\]$")
_NUMBERS = {"worlds": int, "seconds": float, "hard_seconds": float}


def parse_spec(spec: str) -> dict[str, Any] | None:
    """The keyword arguments of a ``search[...]`` spec (``None`` for any other bot).

    >>> parse_spec("search[doubling=heuristic,seconds=1.5]")
    {'doubling': 'heuristic', 'seconds': 1.5}
    >>> parse_spec("search[seconds=none]"), parse_spec("heuristic")
    ({'seconds': None}, None)
    """
    m = _SPEC.match(spec)
    if m is None:
        return None
    out: dict[str, Any] = {}
    for part in filter(None, (p.strip() for p in m["args"].split(","))):
        key, _, value = part.partition("=")
        if key in _NUMBERS:
            out[key] = None if value == "none" else _NUMBERS[key](value)
        elif key in ("bidding", "doubling"):
            out[key] = value
        else:
            raise ValueError(f"unknown setting {key!r} in {spec!r}")
    return out


def register(spec: str) -> None:
    """Register a ``search[...]`` spec as a bot name (other specs are left alone)."""
    kwargs = parse_spec(spec)
    if kwargs is None:
        return

    def factory(seed: int, variant: Variant, kwargs: dict[str, Any] = kwargs) -> Bot:
        from bummerl.bots.table_search import TableSearchBot

        return TableSearchBot(seed, **kwargs)

    register_bot(spec, factory, f"table search {kwargs}", plays=TABLE_GAMES)


def main() -> None:
    ab.main(register, __doc__, "bauernschnapsen", deals=50)


if __name__ == "__main__":
    main()
