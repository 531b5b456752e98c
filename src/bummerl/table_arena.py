"""Selfplay and the duplicate-deal arena for the three- and four-player games.

``bummerl selfplay`` and ``bummerl arena`` call into this module when the
variant is Bauernschnapsen or Dreierschnapsen (:mod:`bummerl.arena` stays the
two-player arena; the reports have the same JSON keys).

**Seatings.**  Every deal ``i`` (pack from ``derive_seed(seed, i)``, dealer
``i mod n``) is played once per *seating*, an assignment of the bots ``a`` and
``b`` to the seats (:func:`seatings`):

* Bauernschnapsen: ``abab`` and ``baba`` — each bot plays both teams of the
  same pack (partners sit opposite, so a team is one bot twice);
* Dreierschnapsen: ``abb``, ``bab``, ``bba``, ``baa``, ``aba``, ``aab`` — each
  bot sits in every seat alone against two of the other and twice beside
  itself, so neither bot gets more seats or better cards.

A side's points in a game are what its scoring units won: with four players
the team (once, as the match counts it), with three each seat (both defenders
score when the soloist loses).  The deal is the independent unit of the 95%
interval of the points difference per game (:func:`bummerl.stats.ratio_interval`).

>>> report = run_table_arena(TableArenaConfig("dreierschnapsen", "heuristic", "random", deals=2, jobs=1))
>>> report["games"], report["a"]["name"], report["seatings"]
(12, 'heuristic', ['abb', 'bab', 'bba', 'baa', 'aba', 'aab'])
>>> stats = table_selfplay(find_table_variant("bauernschnapsen"), ["heuristic", "random"], games=2, seed=1)
>>> stats.bots, stats.games
(['heuristic', 'random', 'heuristic', 'random'], 2)

Bots only ever see ``table.view(seat)``.  A bot that raises or returns an
illegal action forfeits the game: every other scoring unit gets
:data:`FORFEIT_POINTS`.  Results depend only on the configuration, not on
``jobs``.
"""

from __future__ import annotations

import dataclasses
import math
import time
from collections.abc import Callable, Sequence
from typing import Any

from bummerl.arena_report import SelfplayStats, default_jobs, paired_interval, run_chunks, side_entry
from bummerl.arena_report import report as make_report
from bummerl.bots.table_bots import TableBot, make_table_bot
from bummerl.rng import derive_seed
from bummerl.table import Table, TableEndReason, TableMatch, TableResult
from bummerl.variants import TableVariant, find_table_variant

__all__ = [
    "FORFEIT_POINTS",
    "TableArenaConfig",
    "play_table_deal",
    "run_table_arena",
    "seatings",
    "table_selfplay",
]

SIDES = ("a", "b")
UNITS = ("game", "bummerl")
#: What each other scoring unit gets when a bot forfeits (the normal game's most).
FORFEIT_POINTS = 3
#: Path element of :func:`derive_seed` for bot seeds ("BOTS"), as in :mod:`bummerl.arena`.
_BOT_SEEDS = 0x424F5453


def seatings(players: int) -> list[str]:
    """The seat assignments of the arena: one letter (``a``/``b``) per seat.

    >>> seatings(4)
    ['abab', 'baba']
    """
    if players == 4:
        return ["abab", "baba"]
    if players == 3:
        return ["abb", "bab", "bba", "baa", "aba", "aab"]
    raise ValueError(f"table games have 3 or 4 players, not {players}")


def unit_of(variant: TableVariant, seat: int) -> int:
    """The scoring unit of ``seat``: its team with four players, the seat itself with three."""
    return seat % 2 if variant.players == 4 else seat


def side_points(variant: TableVariant, result: TableResult, seating: str) -> dict[str, int]:
    """Points won by the sides ``a`` and ``b`` in one game (each scoring unit once)."""
    out = {"a": 0, "b": 0}
    for unit in {unit_of(variant, s) for s in result.winners}:
        seat = unit  # a team's first seat (0 or 1) or the seat itself
        out[seating[seat]] += result.points
    return out


def _forfeit(table: Table, seat: int) -> TableResult:
    v = table.variant
    loser = unit_of(v, seat)
    winners = tuple(s for s in range(v.players) if unit_of(v, s) != loser)
    augen = (table.augen(0), table.augen(1))
    # The engine has no forfeit reason; the arena's log says "forfeit".
    return TableResult(
        table.contract.name if table.contract else "",
        table.declarer,
        winners,
        FORFEIT_POINTS,
        TableEndReason.CONTRACT_LOST,
        augen,
    )


def play_table(
    table: Table, bots: Sequence[TableBot], times: Sequence[list[float]] | None = None
) -> tuple[TableResult, dict[str, Any] | None]:
    """Play ``table`` to its end with one bot per seat; a failing bot forfeits.

    Returns the result and, for a forfeit, ``{"seat", "bot", "kind", "message"}``.
    ``times[seat]`` collects the seconds of each decision.
    """
    while table.result is None:
        seat = table.to_move
        bot = bots[seat]
        start = time.perf_counter()
        try:
            action = bot.choose(table.view(seat))
        except Exception as exc:  # a failing bot forfeits; the run goes on
            fault = {"seat": seat, "bot": bot.name, "kind": "error", "message": f"{type(exc).__name__}: {exc}"}
            return _forfeit(table, seat), fault
        finally:
            if times is not None:
                times[seat].append(time.perf_counter() - start)
        if action not in table.legal_actions():
            legal = " ".join(a.token for a in table.legal_actions())
            shown = getattr(action, "token", repr(action))
            message = f"bot {bot.name} chose {shown!r}, which is not legal now; legal: {legal}"
            return _forfeit(table, seat), {"seat": seat, "bot": bot.name, "kind": "illegal", "message": message}
        table.apply(action)
    return table.result, None


# ---------------------------------------------------------------- selfplay
def table_selfplay(variant: TableVariant, bots: list[str], games: int, seed: int) -> SelfplayStats:
    """Play ``games`` single games; ``bots`` names one bot per seat, or two (A,B) that alternate.

    Game ``i`` is dealt from ``derive_seed(seed, i)`` by seat ``i mod n``; each
    bot gets its own seed per game.  Four players with ``A,B``: A and A are
    partners (seats 0 and 2).
    """
    n = variant.players
    if len(bots) == 2:
        bots = [bots[s % 2] for s in range(n)]
    if len(bots) != n:
        raise ValueError(f"{variant.title} needs {n} bots (one per seat) or two that alternate, got {len(bots)}")
    if games < 0:
        raise ValueError(f"the number of games must be 0 or more, not {games}")
    names = [make_table_bot(b, 0).name for b in bots]
    stats = SelfplayStats(variant, names, seed)
    start = time.perf_counter()
    for i in range(games):
        players = [make_table_bot(bots[s], derive_seed(seed, _BOT_SEEDS, i, s)) for s in range(n)]
        table = Table.deal(variant, derive_seed(seed, i), dealer=i % n)
        result, _ = play_table(table, players)
        stats.games += 1
        if not result.winners:
            stats.draws += 1
        for s in result.winners:
            stats.wins[s] += 1
            stats.game_points[s] += result.points
    stats.seconds = time.perf_counter() - start
    return stats


# ------------------------------------------------------------------- arena
@dataclasses.dataclass(frozen=True)
class TableArenaConfig:
    """What to play: bots ``a`` and ``b`` on ``deals`` duplicate deals of a table variant."""

    variant: TableVariant | str
    a: str
    b: str
    deals: int
    seed: int = 0
    unit: str = "game"
    #: Worker processes; ``None``: one per CPU core.
    jobs: int | None = None

    def __post_init__(self) -> None:
        if isinstance(self.variant, str):
            object.__setattr__(self, "variant", find_table_variant(self.variant))
        if self.unit not in UNITS:
            raise ValueError(f"unit must be 'game' or 'bummerl', not {self.unit!r}")
        if not isinstance(self.deals, int) or self.deals < 1:
            raise ValueError(f"deals must be a positive integer, not {self.deals!r}")
        if self.jobs is not None and self.jobs < 1:
            raise ValueError(f"jobs must be at least 1, not {self.jobs!r}")
        for spec in (self.a, self.b):
            if spec.startswith("cmd:"):
                raise ValueError("the bot protocol (cmd:) is two-player only; table games need built-in bots")
            make_table_bot(spec, 0)

    @property
    def rules(self) -> TableVariant:
        assert isinstance(self.variant, TableVariant)
        return self.variant


@dataclasses.dataclass
class TableDealResult:
    """All seatings of one deal."""

    deal: int
    #: One entry per game: ``{"deal", "seating", "index", "dealer", "points": {"a", "b"}, "reason", "forfeit"}``.
    games: list[dict[str, Any]]
    #: Per seating with ``unit="bummerl"``: Bummerl won and given by each side.
    matches: list[dict[str, dict[str, int]]]
    move_seconds: dict[str, list[float]]


def play_table_deal(config: TableArenaConfig, deal: int) -> TableDealResult:
    """Play deal ``deal`` in every seating of :func:`seatings`."""
    v = config.rules
    n = v.players
    deal_seed = derive_seed(config.seed, deal)
    times: dict[str, list[float]] = {"a": [], "b": []}
    games: list[dict[str, Any]] = []
    matches: list[dict[str, dict[str, int]]] = []
    for k, seating in enumerate(seatings(n)):
        seat_times = [times[seating[s]] for s in range(n)]

        def bots_for(index: int, seating: str = seating, k: int = k) -> list[TableBot]:
            specs = {"a": config.a, "b": config.b}
            return [
                make_table_bot(specs[seating[s]], derive_seed(config.seed, _BOT_SEEDS, deal, k, index, s))
                for s in range(n)
            ]

        def log(
            table: Table,
            result: TableResult,
            fault: dict[str, Any] | None,
            index: int,
            seating: str = seating,
            k: int = k,
        ) -> None:
            if fault is not None:
                fault = {"deal": deal, "pairing": k, "game": index, "side": seating[fault["seat"]], **fault}
            games.append(
                {
                    "deal": deal,
                    "seating": seating,
                    "index": index,
                    "dealer": table.dealer,
                    "contract": result.contract,
                    "declarer": None if result.declarer is None else seating[result.declarer],
                    "points": side_points(v, result, seating),
                    "reason": "forfeit" if fault is not None else result.reason.value,
                    "forfeit": fault,
                }
            )

        if config.unit == "game":
            table = Table.deal(v, deal_seed, dealer=deal % n)
            result, fault = play_table(table, bots_for(0), seat_times)
            log(table, result, fault, 0)
            continue
        match = TableMatch(v, seed=deal_seed, first_dealer=deal % n)
        while not match.is_over:
            index = len(match.results)
            table = match.table
            result, fault = play_table(table, bots_for(index), seat_times)
            log(table, result, fault, index)
            match.score(result)
        won = {"a": 0, "b": 0}
        given = {"a": 0, "b": 0}
        units = sorted({unit_of(v, s) for s in range(n)})
        for unit in match.winners:
            won[seating[unit]] += 1
        for unit in units:
            if unit not in match.winners:
                for side in {seating[w] for w in match.winners}:
                    if side != seating[unit]:
                        given[side] += match.bummerl[unit]
        matches.append({"won": won, "given": given})
    return TableDealResult(deal, games, matches, times)


def _run_chunk(config: TableArenaConfig, deals: Sequence[int]) -> list[TableDealResult]:
    return [play_table_deal(config, d) for d in deals]


def run_table_arena(
    config: TableArenaConfig, progress: Callable[[int, int], None] | None = None, game_log: bool = False
) -> dict[str, Any]:
    """Play the arena and return the report (the keys of :func:`bummerl.arena.run_arena`'s, plus ``seatings``)."""
    started = time.perf_counter()
    jobs = config.jobs if config.jobs is not None else default_jobs()
    jobs = max(1, min(jobs, config.deals))
    size = max(1, math.ceil(config.deals / (jobs * 4)))
    chunks = [range(i, min(config.deals, i + size)) for i in range(0, config.deals, size)]
    results = run_chunks(_run_chunk, config, chunks, jobs, config.deals, progress)
    results.sort(key=lambda r: r.deal)
    return summarize_table(config, results, jobs, time.perf_counter() - started, game_log)


def summarize_table(
    config: TableArenaConfig, results: Sequence[TableDealResult], jobs: int, seconds: float, game_log: bool = False
) -> dict[str, Any]:
    """The report of finished deals (see docs/arena.md for the keys)."""
    games = [g for r in results for g in r.games]
    n_games = len(games)
    n_matches = sum(len(r.matches) for r in results)
    diffs = [sum(g["points"]["a"] - g["points"]["b"] for g in r.games) for r in results]
    per_deal = [float(len(r.games)) for r in results]
    sides: dict[str, dict[str, Any]] = {}
    for side in SIDES:
        sides[side] = side_entry(
            config.a if side == "a" else config.b,
            points=sum(g["points"][side] for g in games),
            won=sum(1 for g in games if g["points"][side] > 0),
            games=n_games,
            times=[t for r in results for t in r.move_seconds[side]],
            matches_won=sum(m["won"][side] for r in results for m in r.matches),
            bummerl_given=sum(m["given"][side] for r in results for m in r.matches),
            matches=n_matches,
            forfeits=sum(1 for g in games if g["forfeit"] is not None and g["forfeit"]["side"] == side),
        )
    report = make_report(
        config.rules,
        seed=config.seed,
        unit=config.unit,
        deals=len(results),
        games=n_games,
        matches=n_matches,
        a=sides["a"],
        b=sides["b"],
        ppg_ci95=paired_interval(diffs, per_deal),
        games_unwon=sum(1 for g in games if not g["points"]["a"] and not g["points"]["b"]),
        forfeits=[g["forfeit"] for g in games if g["forfeit"] is not None],
        move_timeout=None,
        jobs=jobs,
        seconds=seconds,
    )
    report["seatings"] = seatings(config.rules.players)
    if game_log:
        report["game_log"] = games
    return report
