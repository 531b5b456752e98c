"""A tournament's directory: its configuration, one file per finished deal, every game's record.

::

    DIR/tournament.json                        the configuration (TournamentConfig.to_json)
    DIR/deals/r01-b0-b3/deal-0004.json         deal 4 of bots 0 and 3 in round 1, finished
    DIR/records/r01-b0-b3/deal-0004.txt        its games, as records (docs/records.md)
    DIR/standings.json                         the report of the last complete run
    DIR/ratings.svg                            the ratings with their intervals (the 'tournament' extra)

Every file is written whole or not at all: to a temporary file in the same
folder, then renamed over the name (``os.replace``), so a killed process leaves
no half-written file.  A deal's records are written before its result, so a deal
whose ``.json`` exists is finished and recorded; **resuming** is reading the
``.json`` files back, and a crash loses at most the deals that were being
played.  The files are not forced to the disk one by one (``fsync`` tripled the
time of a tournament of fast bots): after a power cut the system may have lost
the last ones, or left one empty; a deal file that cannot be read is then
played again (:attr:`Store.unreadable` lists it).

>>> import tempfile
>>> with tempfile.TemporaryDirectory() as root:
...     store = Store.open(Path(root) / "t", {"format": "swiss", "games": 4})
...     Store.open(Path(root) / "t", {"format": "swiss", "games": 6})  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
bummerl.tournament.store.ConfigMismatchError: ... holds another tournament (games: 4 there, 6 here); ...

This module reads and writes files; it plays nothing.
"""

from __future__ import annotations

import dataclasses
import json
import os
import re
import tempfile
from pathlib import Path
from typing import Any

from bummerl.arena import DealResult, GameLog, MatchLog
from bummerl.errors import BummerlError
from bummerl.tournament.formats import Pairing

__all__ = ["ConfigMismatchError", "Store", "atomic_write", "deal_from_json", "deal_to_json"]

CONFIG = "tournament.json"
_PAIRING = re.compile(r"r([0-9]+)-b([0-9]+)-b([0-9]+)\Z")
_DEAL = re.compile(r"deal-([0-9]+)\.json\Z")


class ConfigMismatchError(BummerlError):
    """The directory holds a tournament with another configuration (or something else)."""


def atomic_write(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` whole or not at all (a temporary file renamed with ``os.replace``)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, temp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as out:
            out.write(text)
        os.replace(temp, path)
    except BaseException:
        Path(temp).unlink(missing_ok=True)
        raise


def deal_to_json(result: DealResult) -> dict[str, Any]:
    """A finished deal as JSON (its records are kept apart, see :meth:`Store.save`)."""
    return {
        "deal": result.deal,
        "games": [dataclasses.asdict(g) for g in result.games],
        "matches": [dataclasses.asdict(m) for m in result.matches],
        "move_seconds": result.move_seconds,
    }


def deal_from_json(obj: dict[str, Any]) -> DealResult:
    """The inverse of :func:`deal_to_json` (without the records).

    >>> from bummerl.arena import ArenaConfig, play_deal
    >>> result = play_deal(ArenaConfig("dreierschnapsen", "heuristic", "random", deals=1, unit="bummerl"), 0)
    >>> deal_from_json(json.loads(json.dumps(deal_to_json(result)))) == result
    True
    """
    return DealResult(
        int(obj["deal"]),
        [GameLog(**g) for g in obj["games"]],
        [MatchLog(**m) for m in obj["matches"]],
        {side: [float(t) for t in times] for side, times in obj["move_seconds"].items()},
    )


class Store:
    """The directory of one tournament; :meth:`open` it with the configuration."""

    def __init__(self, root: Path) -> None:
        self.root = Path(root)
        #: Deal files that :meth:`load` could not read (their deals are played again).
        self.unreadable: list[Path] = []

    @classmethod
    def open(cls, root: Path | str, config: dict[str, Any]) -> Store:
        """Start a tournament in ``root`` (new or empty), or resume the one there if it has ``config``.

        Raises :class:`ConfigMismatchError` for another configuration, or a
        directory with files but no ``tournament.json``.
        """
        store = cls(Path(root))
        path = store.root / CONFIG
        wanted = json.loads(json.dumps(config))
        if path.exists():
            try:
                stored = json.loads(path.read_text(encoding="utf-8"))
            except (ValueError, UnicodeDecodeError) as exc:
                raise ConfigMismatchError(f"{path} is not a tournament's configuration: {exc}") from None
            if stored != wanted:
                raise ConfigMismatchError(
                    f"{store.root} holds another tournament ({_differences(stored, wanted)}); re-run it with its"
                    f" own options (see {path}) or choose another --out directory"
                )
            return store
        if store.root.exists() and any(store.root.iterdir()):
            raise ConfigMismatchError(f"{store.root} is not empty and holds no {CONFIG}: choose a new --out directory")
        atomic_write(path, json.dumps(wanted, indent=2) + "\n")
        return store

    def deal_path(self, pairing: Pairing, deal: int) -> Path:
        return self.root / "deals" / pairing.key / f"deal-{deal:04d}.json"

    def record_path(self, pairing: Pairing, deal: int) -> Path:
        return self.root / "records" / pairing.key / f"deal-{deal:04d}.txt"

    def save(self, pairing: Pairing, result: DealResult) -> None:
        """Keep a finished deal: its records first, then the result that marks it finished."""
        if result.records:
            atomic_write(self.record_path(pairing, result.deal), "\n".join(result.records))
        atomic_write(self.deal_path(pairing, result.deal), json.dumps(deal_to_json(result)) + "\n")

    def load(self) -> dict[Pairing, dict[int, DealResult]]:
        """Every finished deal on disk, by pairing and deal number (temporary files are ignored; files that
        cannot be read are listed in :attr:`unreadable`)."""
        results: dict[Pairing, dict[int, DealResult]] = {}
        self.unreadable = []
        folder = self.root / "deals"
        if not folder.is_dir():
            return results
        for sub in sorted(folder.iterdir()):
            match = _PAIRING.match(sub.name)
            if match is None or not sub.is_dir():
                continue
            pairing = Pairing(*(int(x) for x in match.groups()))
            for path in sorted(sub.iterdir()):
                if _DEAL.match(path.name) is None:
                    continue
                try:
                    result = deal_from_json(json.loads(path.read_text(encoding="utf-8")))
                except (ValueError, KeyError, TypeError):
                    self.unreadable.append(path)
                    continue
                results.setdefault(pairing, {})[result.deal] = result
        return results

    def write_json(self, name: str, obj: Any) -> Path:
        """Write ``obj`` as ``DIR/name`` (atomically); return the path."""
        path = self.root / name
        atomic_write(path, json.dumps(obj, indent=2) + "\n")
        return path


def _differences(stored: dict[str, Any], wanted: dict[str, Any]) -> str:
    keys = [k for k in dict.fromkeys([*stored, *wanted]) if stored.get(k) != wanted.get(k)]
    return ", ".join(f"{k}: {json.dumps(stored.get(k))} there, {json.dumps(wanted.get(k))} here" for k in keys)
