"""What bench/core_diff.py (the two-player core) and bench/core_table_diff.py (the table core) share: the
mismatch that stops a run, the tally of games and positions, the check, the reference's deal, and the command line
both start from."""

from __future__ import annotations

import argparse
import contextlib
import os
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from unittest import mock

from bummerl import core
from bummerl.engine import Game
from bummerl.variants import Variant

__all__ = ["Mismatch", "Tally", "check", "header", "parser", "python_rules", "reference_deal", "row", "variant_options"]


class Mismatch(AssertionError):
    """The core and the reference differ; the message says where."""


@dataclass
class Tally:
    games: int = 0
    positions: int = 0


def check(same: bool, what: str, where: str | Callable[[], str]) -> None:
    """Raise :class:`Mismatch` unless ``same``; ``where`` may be a function, called only for a difference (the
    position line of a table game costs a tenth of the run's time)."""
    if not same:
        raise Mismatch(f"{what} differ: {where if isinstance(where, str) else where()}")


@contextlib.contextmanager
def python_rules() -> Iterator[None]:
    """Games dealt inside play on the Python rules alone (``BUMMERL_PURE=1``): the reference.  ``Game`` otherwise
    deals a compiled twin that generates its legal actions, with the very core under test."""
    with mock.patch.dict(os.environ, {core.PURE_VARIABLE: "1"}):
        yield


def reference_deal(variant: Variant, seed: int, dealer: int) -> Game:
    """``Game.deal`` on the Python rules alone (:func:`python_rules`)."""
    with python_rules():
        return Game.deal(variant, seed, dealer)


def parser(description: str, variants: str, default: str) -> argparse.ArgumentParser:
    """The options both scripts take (``variants``: what ``--variant`` names; ``default``: which when none is)."""
    p = argparse.ArgumentParser(description=description)
    p.add_argument("--variant", action="append", help=f"a {variants} (repeatable); default: {default}")
    p.add_argument("--option", action="append", default=[], help="a variant option, name=value (repeatable)")
    p.add_argument("--games", type=int, default=100_000, help="random games per variant")
    p.add_argument("--seed", type=int, default=25)
    return p


def variant_options(args: argparse.Namespace) -> dict[str, str]:
    """``--option name=value``, as keyword arguments of :func:`bummerl.variants.find_variant`."""
    return dict(o.split("=", 1) for o in args.option)


def header(batch: bool = False) -> str:
    """The head of the table :func:`row` writes (with the column of games the batch comparison finished)."""
    return "variant                  games  positions" + ("  batch games" if batch else "") + "   seconds"


def row(title: str, tally: Tally, start: float, batch: int | None = None) -> str:
    """A variant's line under :func:`header`: its games and positions, and the seconds since ``start``
    (``time.perf_counter()``)."""
    seconds = time.perf_counter() - start
    return f"{title:<22}{tally.games:>8}{tally.positions:>11}{'' if batch is None else f'{batch:>13}'}{seconds:>10.1f}"
