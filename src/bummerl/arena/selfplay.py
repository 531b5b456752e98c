"""Selfplay: bots play single games of any variant, optionally written as records.

Game ``i`` is dealt from ``derive_seed(seed, i)``; the dealer passes on from
the variant's default (two players: seat 1 deals game 0, so the first bot
leads; table games: seat ``i mod n`` deals).  ``bots`` names one bot per seat,
or two that alternate (``A,B``: at Bauernschnapsen A and A are partners).
Every bot gets its own seed per game, ``derive_seed(seed, 0x424F5453, i, seat)``,
so a run is reproducible; every bot sees only its own view.  A bot that fails
forfeits that game (:mod:`bummerl.arena.play`) and the run goes on.

>>> from bummerl.variants import find_variant
>>> stats = selfplay(find_variant("schnapsen"), ["heuristic", "random"], games=4, seed=1)
>>> stats.games, sum(stats.wins) + stats.draws
(4, 4)
>>> stats = selfplay(find_variant("bauernschnapsen"), ["heuristic", "random"], games=2, seed=1)
>>> stats.bots, stats.games
(['heuristic', 'random', 'heuristic', 'random'], 2)

With ``record`` (a text file open for writing) every game is written as a
record (:mod:`bummerl.record`), with the tags ``Event``, ``Round``, ``Seed``
and one ``SeatN`` per seat; a forfeited game as the unfinished game it was,
with a ``Forfeit`` tag.

For duplicate deals, confidence intervals and parallel runs use :func:`bummerl.arena.run_arena`.
"""

from __future__ import annotations

import dataclasses
import time
from functools import partial
from typing import IO, Any

from bummerl import core
from bummerl.arena.deals import BOT_SEEDS
from bummerl.arena.families import family_of
from bummerl.arena.play import BotPool, Fault, Player, bot_name, is_protocol, play_game
from bummerl.bots import bot_info
from bummerl.errors import BummerlError
from bummerl.game import Game
from bummerl.protocol import DEFAULT_MOVE_TIMEOUT
from bummerl.record import GameRecord, dump
from bummerl.rng import derive_seed, extend_seed
from bummerl.variants import Variant

__all__ = ["SelfplayStats", "selfplay"]


@dataclasses.dataclass
class SelfplayStats:
    """Totals of a selfplay run, per seat (two, three or four seats).

    >>> from bummerl.variants import find_variant
    >>> stats = SelfplayStats(find_variant("schnorps"), ["expert", "random"], seed=1)
    >>> stats.wins, stats.unit
    ([0, 0], 'Marken')
    """

    variant: Variant
    bots: list[str]
    seed: int
    games: int = 0
    wins: list[int] = dataclasses.field(default_factory=list)
    game_points: list[int] = dataclasses.field(default_factory=list)
    #: Games nobody scored (a stand at 65:65, a table game's redeal after three Unter).
    draws: int = 0
    seconds: float = 0.0
    #: Every forfeit: ``game``, ``seat``, ``bot``, ``kind``, ``message``.
    forfeits: list[dict[str, Any]] = dataclasses.field(default_factory=list)

    def __post_init__(self) -> None:
        self.wins = self.wins or [0] * len(self.bots)
        self.game_points = self.game_points or [0] * len(self.bots)

    @property
    def unit(self) -> str:
        """What the points are: Schnorps counts Marken."""
        return family_of(self.variant).unit(self.variant)

    def as_json(self) -> dict[str, Any]:
        """The JSON object ``--json`` prints."""
        return {
            "variant": self.variant.name,
            "options": self.variant.options(),
            "seed": self.seed,
            "bots": list(self.bots),
            "games": self.games,
            "wins": list(self.wins),
            "draws": self.draws,
            "game_points": list(self.game_points),
            "forfeits": list(self.forfeits),
            "seconds": round(self.seconds, 6),
        }

    def table(self) -> str:
        """A small plain-text table, one line per seat."""
        width = max(len(b) for b in self.bots)
        lines = [
            f"{self.games} games of {self.variant.title}, seed {self.seed}, {self.seconds:.2f} s",
            f"{'seat':<4}  {'bot':<{width}}  {'wins':>6}  {self.unit:>11}  {'per game':>8}",
        ]
        for seat, name in enumerate(self.bots):
            per_game = self.game_points[seat] / self.games if self.games else 0.0
            lines.append(
                f"{seat:<4}  {name:<{width}}  {self.wins[seat]:>6}  {self.game_points[seat]:>11}  {per_game:>8.3f}"
            )
        if self.draws:
            lines.append(f"{family_of(self.variant).nobody_scored} (nobody scored): {self.draws}")
        for f in self.forfeits:
            lines.append(f"forfeit: game {f['game']} seat {f['seat']} ({f['kind']}) {f['message']}")
        return "\n".join(lines)


def seat_bots(variant: Variant, bots: list[str]) -> list[str]:
    """One bot per seat: ``bots`` as given, or two that alternate.

    >>> from bummerl.variants import find_variant
    >>> seat_bots(find_variant("bauernschnapsen"), ["a", "b"])
    ['a', 'b', 'a', 'b']
    """
    n = variant.players
    if len(bots) == 2:
        return [bots[s % 2] for s in range(n)]
    if len(bots) != n:
        per_seat = f" or {n}, one per seat" if n != 2 else ""
        raise BummerlError(
            f"selfplay of {variant.title} needs exactly two bots (A,B, alternating){per_seat};"
            f" got {len(bots)}: {', '.join(bots)}"
        )
    return list(bots)


def selfplay(
    variant: Variant,
    bots: list[str],
    games: int,
    seed: int,
    *,
    record: IO[str] | None = None,
    move_timeout: float = DEFAULT_MOVE_TIMEOUT,
) -> SelfplayStats:
    """Play ``games`` games between the named bots; see the module docstring."""
    specs = seat_bots(variant, bots)
    if games < 0:
        raise BummerlError(f"the number of games must be 0 or more, not {games}")
    names = [bot_name(spec, variant) for spec in specs]
    stats = SelfplayStats(variant, names, seed)
    # Random bots in every seat and no record: the variant's compiled core plays the same games (the same deals,
    # dealers and RandomBot choices, the same totals: tests/test_core.py, tests/test_core_table.py), without a view
    # per decision.
    native = record is None and set(names) == {"random"}
    compiled = core.core_of(variant) if native else None
    if compiled is not None:
        start = time.perf_counter()
        points, wins, stats.draws, _ = compiled.random_games(core.config(variant), seed, games)
        stats.games, stats.game_points, stats.wins = games, list(points), list(wins)
        stats.seconds = time.perf_counter() - start
        return stats
    n = variant.players
    # A built-in bot's factory, looked up once (what BotPool.player would look up every game).
    factories = [None if is_protocol(spec) else bot_info(spec, variant).factory for spec in specs]
    first_dealer = variant.default_dealer
    # derive_seed(seed, i) and derive_seed(seed, BOT_SEEDS, i, seat), the common part mixed once.
    deal_root, bot_root = derive_seed(seed), derive_seed(seed, BOT_SEEDS)
    start = time.perf_counter()
    with BotPool(move_timeout) as pool:
        for i in range(games):
            bots_of_game = extend_seed(bot_root, i)
            # One process per seat: a protocol bot sees one hand, never its partner's.
            players = []
            for s, factory in enumerate(factories):
                bot_seed = extend_seed(bots_of_game, s)
                if factory is None:
                    players.append(pool.player(s, specs[s], bot_seed, variant, None))
                else:
                    players.append(Player(specs[s], factory(bot_seed, variant)))
            deal_seed = extend_seed(deal_root, i)
            game = Game.deal(variant, deal_seed, dealer=(first_dealer + i) % n)
            result, fault = play_game(game, players, partial(extend_seed, bots_of_game), str(i))
            stats.games += 1
            scored = False
            for s in range(n):
                points = result.points_of(s)
                if points > 0:
                    scored = True
                    stats.wins[s] += 1
                    stats.game_points[s] += points
            stats.draws += not scored
            if fault is not None:
                stats.forfeits.append({"game": i, **fault.to_json()})
            if record is not None:
                tags = {"Event": "bummerl selfplay", "Round": i + 1, "Seed": deal_seed}
                tags.update({f"Seat{s}": names[s] for s in range(n)})
                _write(record, game, tags, fault)
    stats.seconds = time.perf_counter() - start
    return stats


def _write(out: IO[str], game: Game, tags: dict[str, object], fault: Fault | None) -> None:
    """Write ``game`` as a record (a forfeited one unfinished, with a ``Forfeit`` tag)."""
    if fault is not None:
        tags["Forfeit"] = f"seat {fault.seat} ({fault.kind}): {' '.join(fault.message.split())}"
    dump(GameRecord.from_game(game, comments=(), **tags), out)
