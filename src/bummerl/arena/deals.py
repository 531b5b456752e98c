"""Duplicate deals: one pack played in every seating of the two bots, for 2, 3 and 4 players.

Deal ``i`` is dealt from ``derive_seed(seed, i)`` by seat ``i mod n`` and
played once per *seating*, an assignment of the bots ``a`` and ``b`` to the
seats (:func:`seatings`), so that each bot holds every hand of the pack:

* two players: ``ab`` and ``ba``, the seats swapped;
* three (Dreierschnapsen): ``abb``, ``bab``, ``bba``, ``baa``, ``aba``, ``aab``:
  each bot sits in every seat alone against two of the other and twice beside
  itself;
* four (Bauernschnapsen): ``abab`` and ``baba``: partners sit opposite, so each
  bot plays both teams' hands.

With ``unit="bummerl"`` each seating plays a whole match from the match seed
``derive_seed(seed, i)`` instead (:mod:`bummerl.arena.families`).  A side's
points in a game are what its scoring units won: a seat, or with four players
a team, counted once (:func:`side_points`).

>>> seatings(2), seatings(4)
(['ab', 'ba'], ['abab', 'baba'])
>>> result = play_deal(ArenaConfig("bauernschnapsen", "heuristic", "heuristic", deals=1, seed=2), 0)
>>> [g.seating for g in result.games], sum(g.side_points["a"] - g.side_points["b"] for g in result.games)
(['abab', 'baba'], 0)

Bots are seeded from the run's seed, so a deal's games depend only on the
configuration: a built-in bot of deal ``i``, seating ``k`` is made with
``derive_seed(seed, 0x424F5453, i, k, side)`` and kept through the seating's
match (two players), or per game ``g`` and seat ``s`` with
``derive_seed(seed, 0x424F5453, i, k, g, s)`` (table games); a ``cmd:`` bot gets
the latter in each ``game_start``.

With ``record_tags`` every game is also kept as a record (:mod:`bummerl.record`
text, one per game in the order of :attr:`DealResult.games`), with the tags
given, ``Deal``, ``Seating``, the bots as ``SeatN`` and the ``Seed`` that dealt
it (a match's game ``g``: ``derive_seed(derive_seed(seed, i), g)``, its ``Game``
number and ``MatchSeed``); a forfeited game is written as far as it was played,
with a ``Forfeit`` tag:

>>> from bummerl.record import loads_all
>>> result = play_deal(ArenaConfig("schnapsen", "heuristic", "random", deals=1), 0, record_tags={"Event": "Demo"})
>>> [(r.tags["Seat0"], r.tags["Seating"], r.replay().result == r.result) for r in loads_all("".join(result.records))]
[('heuristic', 'ab', True), ('random', 'ba', True)]

This module plays deals; it never starts a worker process or prints.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from functools import partial
from typing import Any

from bummerl.arena.families import Result, family_of, scoring_seats
from bummerl.arena.play import BotPool, Fault, Player, check_bot, game_record, play_game
from bummerl.game import Game
from bummerl.protocol import DEFAULT_MOVE_TIMEOUT
from bummerl.rng import derive_seed
from bummerl.variants import Variant, find_variant
from bummerl.view import MatchContext

__all__ = [
    "BOT_SEEDS",
    "SIDES",
    "UNITS",
    "ArenaConfig",
    "DealResult",
    "GameLog",
    "MatchLog",
    "PlaySettings",
    "play_deal",
    "seatings",
    "side_points",
]

SIDES = ("a", "b")
UNITS = ("game", "bummerl")
#: Path element of :func:`~bummerl.rng.derive_seed` for bot seeds ("BOTS"), so a
#: bot's randomness never shares a stream with a deal.
BOT_SEEDS = 0x424F5453

_SEATINGS = {
    2: ("ab", "ba"),
    3: ("abb", "bab", "bba", "baa", "aba", "aab"),
    4: ("abab", "baba"),
}


def seatings(players: int) -> list[str]:
    """The seatings of a deal: one letter (``a``/``b``) per seat, seat 0 first.

    >>> seatings(3)
    ['abb', 'bab', 'bba', 'baa', 'aba', 'aab']
    """
    try:
        return list(_SEATINGS[players])
    except KeyError:
        raise ValueError(f"the arena seats 2, 3 or 4 players, not {players}") from None


def side_points(result: Result, seating: str) -> dict[str, int]:
    """Points won by the sides ``a`` and ``b`` in one game: each scoring unit once.

    >>> from bummerl.variants import GameResult, EndReason
    >>> side_points(GameResult(1, 2, EndReason.DECLARED, (66, 30)), "ba")
    {'a': 2, 'b': 0}
    """
    out = {"a": 0, "b": 0}
    for seat in scoring_seats(len(seating)):
        out[seating[seat]] += result.points_of(seat)
    return out


class PlaySettings:
    """What an arena and a tournament both take and check the same way: the variant (a name is looked up once),
    the unit played (single games or whole matches) and a ``cmd:`` bot's time per decision."""

    variant: Variant | str
    unit: str
    move_timeout: float

    def _check_play_settings(self) -> None:
        if isinstance(self.variant, str):
            object.__setattr__(self, "variant", find_variant(self.variant))
        if self.unit not in UNITS:
            raise ValueError(f"unit must be 'game' or 'bummerl', not {self.unit!r}")
        if not self.move_timeout > 0:
            raise ValueError(f"move_timeout must be positive, not {self.move_timeout!r}")

    @property
    def rules(self) -> Variant:
        """The variant (a name given is looked up once)."""
        assert isinstance(self.variant, Variant)
        return self.variant


@dataclasses.dataclass(frozen=True)
class ArenaConfig(PlaySettings):
    """What to play: the bots ``a`` and ``b`` on ``deals`` duplicate deals of ``variant``."""

    variant: Variant | str
    a: str
    b: str
    deals: int
    seed: int = 0
    unit: str = "game"
    #: Worker processes; ``None``: one per CPU core.
    jobs: int | None = None
    #: Seconds a ``cmd:`` bot may take per decision (built-in bots are only timed).
    move_timeout: float = DEFAULT_MOVE_TIMEOUT

    def __post_init__(self) -> None:
        self._check_play_settings()
        if not isinstance(self.deals, int) or self.deals < 1:
            raise ValueError(f"deals must be a positive integer, not {self.deals!r}")
        if self.jobs is not None and self.jobs < 1:
            raise ValueError(f"jobs must be at least 1, not {self.jobs!r}")
        for spec in (self.a, self.b):
            check_bot(spec, self.rules)

    def spec(self, side: str) -> str:
        return self.a if side == "a" else self.b


@dataclasses.dataclass(frozen=True)
class GameLog:
    """One game of the arena, from the sides' point of view."""

    deal: int
    #: The seating's number in :func:`seatings` (two players: 0 puts ``a`` in seat 0).
    pairing: int
    seating: str
    #: The game's number within its match (always 0 with ``unit="game"``).
    index: int
    dealer: int
    #: The one side that scored (``None``: nobody did, or both did, as defenders of a Dreierschnapsen).
    winner: str | None
    #: What the game scored for each winning unit (a forfeit: the forfeit's points).
    points: int
    side_points: dict[str, int]
    reason: str
    #: For a forfeit: deal, pairing, game, side, seat, bot, kind and message.
    forfeit: dict[str, Any] | None = None
    #: A table game's contract and declarer (as a side).
    details: dict[str, Any] = dataclasses.field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        out = dataclasses.asdict(self)
        out.update(out.pop("details"))
        return out


@dataclasses.dataclass(frozen=True)
class MatchLog:
    """One seating's match with ``unit="bummerl"``: matches won and Bummerl given by each side."""

    won: dict[str, int]
    given: dict[str, int]


@dataclasses.dataclass
class DealResult:
    """Every seating of one deal: the games, the matches, each side's decision times."""

    deal: int
    games: list[GameLog]
    matches: list[MatchLog]
    move_seconds: dict[str, list[float]]
    #: With ``record_tags``: each game's record text, in the order of ``games`` (else empty).
    records: list[str] = dataclasses.field(default_factory=list)


def play_deal(
    config: ArenaConfig,
    deal: int,
    pool: BotPool | None = None,
    *,
    record_tags: Mapping[str, object] | None = None,
) -> DealResult:
    """Play deal ``deal`` in every seating of :func:`seatings`.

    ``pool`` lends the worker's running ``cmd:`` bots, so that a worker need not
    start a process per deal; without it they are started and stopped here.
    ``record_tags`` (if given) keeps every game's record, with these tags, in
    :attr:`DealResult.records` (see the module docstring).
    """
    own = pool is None
    bots = BotPool(config.move_timeout) if pool is None else pool
    try:
        return _Deal(config, deal, bots, record_tags).play()
    finally:
        if own:
            bots.close()


class _Deal:
    """The bookkeeping of one deal while it is played."""

    def __init__(
        self, config: ArenaConfig, deal: int, pool: BotPool, record_tags: Mapping[str, object] | None = None
    ) -> None:
        self.config = config
        self.variant = config.rules
        self.family = family_of(self.variant)
        self.deal = deal
        self.pool = pool
        self.record_tags = record_tags
        self.deal_seed = derive_seed(config.seed, deal)
        self.result = DealResult(deal, [], [], {"a": [], "b": []})

    def play(self) -> DealResult:
        deal_seed = self.deal_seed
        for pairing, seating in enumerate(seatings(self.variant.players)):
            kept = None if self.family.bots_per_game else self._players(pairing, seating, None)
            if self.config.unit == "game":
                game = Game.deal(self.variant, deal_seed, dealer=self.deal % self.variant.players)
                self._play(game, pairing, seating, 0, kept)
            else:
                self._play_match(deal_seed, pairing, seating, kept)
        return self.result

    def _play_match(self, deal_seed: int, pairing: int, seating: str, kept: list[Player] | None) -> None:
        match = self.family.new_match(self.variant, deal_seed, self.deal)
        index = 0
        while not match.is_over:
            game = match.deal_next()
            result = self._play(game, pairing, seating, index, kept, match.context())
            if not game.is_over:
                game.result = result  # a forfeit: the match counts the game with the forfeit's result
            match.complete(game)
            index += 1
        won = {"a": 0, "b": 0}
        given = {"a": 0, "b": 0}
        for unit in match.winners:
            won[seating[unit]] += 1
        for unit, bummerl in enumerate(match.bummerl):
            if unit not in match.winners:
                for side in {seating[w] for w in match.winners} - {seating[unit]}:
                    given[side] += bummerl
        self.result.matches.append(MatchLog(won, given))

    def _players(self, pairing: int, seating: str, index: int | None) -> list[Player]:
        """The bots of one seating: for one game (``index``), or kept through the match (``None``)."""
        config, players = self.config, []
        for seat, side in enumerate(seating):
            if index is None:
                seed = derive_seed(config.seed, BOT_SEEDS, self.deal, pairing, SIDES.index(side))
            else:
                seed = derive_seed(config.seed, BOT_SEEDS, self.deal, pairing, index, seat)
            # One process per side and seat of that side: a process never plays two seats at once.
            key = (side, seating[:seat].count(side))
            times = self.result.move_seconds[side]
            players.append(self.pool.player(key, config.spec(side), seed, self.variant, times))
        return players

    def _play(
        self,
        game: Game,
        pairing: int,
        seating: str,
        index: int,
        kept: list[Player] | None,
        context: MatchContext | None = None,
    ) -> Result:
        config, deal = self.config, self.deal
        players = kept if kept is not None else self._players(pairing, seating, index)
        seed_of = partial(derive_seed, config.seed, BOT_SEEDS, deal, pairing, index)
        result, fault = play_game(game, players, seed_of, f"{deal}.{pairing}.{index}", context)
        if self.record_tags is not None:
            # Written before a match counts the game: a forfeit's result is not the game's own.
            self.result.records.append(self._record(game, seating, index, fault))
        points = side_points(result, seating)
        scored = [side for side in SIDES if points[side] > 0]
        forfeit = None
        if fault is not None:
            side = seating[fault.seat]
            forfeit = {"deal": deal, "pairing": pairing, "game": index, "side": side, **fault.to_json()}
        self.result.games.append(
            GameLog(
                deal,
                pairing,
                seating,
                index,
                game.dealer,
                scored[0] if len(scored) == 1 else None,
                result.points,
                points,
                "forfeit" if fault is not None else result.reason.value,
                forfeit,
                self.family.describe(result, seating),
            )
        )
        return result

    def _record(self, game: Game, seating: str, index: int, fault: Fault | None) -> str:
        """The record text of a game just played (see the module docstring)."""
        tags: dict[str, object] = {"Event": "bummerl arena", **(self.record_tags or {})}
        tags.update({f"Seat{seat}": self.config.spec(side) for seat, side in enumerate(seating)})
        tags.update(Deal=self.deal, Seating=seating)
        if self.config.unit == "game":
            tags["Seed"] = self.deal_seed
        else:
            # A match deals its game g from derive_seed(match seed, g) (bummerl.match), redeals included.
            tags.update(Game=index + 1, MatchSeed=self.deal_seed, Seed=derive_seed(self.deal_seed, index))
        return game_record(game, tags, fault)
