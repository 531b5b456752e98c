"""Ratings of people per variant: each rated game between people moves its players' ratings, once, in game order.

**The library.**  `openskill <https://openskill.me>`_'s Plackett-Luce model
(Weng and Lin's Bayesian approximation, 2011: an open alternative to TrueSkill): a rating is
a skill ``mu`` with an uncertainty ``sigma``, like Glicko-2's rating and
deviation, and one update takes any number of teams of any size with ties.
That is what our games are: two players, two fixed partnerships of two
(Bauernschnapsen), a declarer against two defenders who partner for one game
only (Dreierschnapsen), two of a Schnorps round's participants.  A Glicko-2
package knows two players only, so every four-player game would have to be cut
into made-up pairings, and its rating periods fit a server that batches games,
not one that rates each game as it ends.  The library is small, pure Python,
typed (``py.typed``), and kept (releases through 2026).

**What is rated.**  Each finished game, not each Bummerl: a game is the unit
whose result the server stores and where a player can abandon (``"abandoned"``
in the result, :mod:`bummerl.server.clock`); a Bummerl lasts several games and
a player who leaves in the middle would otherwise never lose it.  A Bauern-
or Dreierschnapsen match to 24 points takes half an hour; per game the rating
learns from the first few minutes on, as Lichess's does per game.  How high a
game was won (Schneider, a Kontra) is not counted: points measure the deal's
luck as much as the play.

**Which games.**  A game changes ratings only if all of these hold
(:meth:`PeopleRatings.rate_game`): its table is *rated* (``TableData.rated``: a table whose
players the server paired, a quick match; never a practice table, whose deals
come from a seed a player chose, nor a friend's table, where one person with two
devices can pick the opponent: docs/security.md, "Ratings"); no seat was a bot
when the table was made; every seat that played is held by a player
(``bummerl_player_seats``), each by a different one; the result names a
winner or an abandoned seat; and no two players it puts apart have had
:data:`PAIR_GAMES_PER_DAY` rated games together in the last 24 hours.

**How a result ranks.**  The winners (a seat, or a partnership's seats) rank
first, the others second; a seat that abandoned ranks last, apart from its
partner, whatever its side's result: an abandoned game is lost for that player
(issue 24).  Fixed partnerships (the variant's ``teams``) are rated as one team;
Dreierschnapsen's declarer and defenders are each rated alone with ties among
the defenders, since a pair that plays together for one game is no team whose
skills add up.  A game nobody won (a redeal, a Schnorps stand) without an
abandoned seat changes nothing.

**Once, in order.**  Every finished game of a rated table gets one row of
``bummerl_rated_games`` (rated, or why not), inserted first in the transaction
that applies it: a second try, from a result stored twice, a restarted server
or another process of a cluster, meets the primary key and changes nothing.
The games of a table are rated in game order (a later game waits for an
earlier one whose result is still being written), and at start-up every game
finished but not decided (a stop between the two writes) is rated, oldest first.

**The shown rating** is ``1500 + 40 (mu - 3 sigma)``: three deviations below the
estimate, so a newcomer starts at 1500 and a rating rises as the server grows
sure of it; a lucky run of three games does not top the list.  The
leaderboard lists players with at least :data:`MIN_GAMES` rated games.

This module never decides a game's result (the engine does) and never learns a
card: it reads stored results only.

>>> from bummerl.variants import find_variant
>>> decide(find_variant("bauernschnapsen"), {"winners": [1, 3], "abandoned": [3]}, [0, 1, 2, 3])
Standing(teams=((1,), (0, 2), (3,)), ranks=(0, 1, 2), outcomes=((0, 'lost'), (1, 'won'), (2, 'lost'), (3, 'abandoned')))
>>> decide(find_variant("schnapsen"), {"winner": None, "reason": "redeal"}, [0, 1])
'no_winner'
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import json
import time
from collections.abc import Callable, Collection, Mapping, Sequence
from typing import Any

from openskill.models import PlackettLuce
from sqlalchemy import Connection, and_, bindparam, func, insert, or_, select, update
from sqlalchemy.exc import IntegrityError, OperationalError
from sqlalchemy.orm import Session, aliased, sessionmaker

from bummerl.errors import UnknownVariantError
from bummerl.server.players import _PlayerRow, _PlayerSeatRow
from bummerl.server.storage import (
    Repository,
    StorageError,
    _GameRow,
    _RatedGameRow,
    _RatingChangeRow,
    _RatingRow,
    _SeatRow,
    _TableRow,
    now,
)
from bummerl.variants import Variant, find_variant

__all__ = [
    "BOARD_SECONDS",
    "DISPLAY_BASE",
    "DISPLAY_SCALE",
    "MAX_LIMIT",
    "MAX_OFFSET",
    "MIN_GAMES",
    "MODEL",
    "PAIR_GAMES_PER_DAY",
    "Board",
    "BoardRow",
    "PeopleRatings",
    "PlayerRating",
    "Standing",
    "decide",
    "display_rating",
    "rate",
]

#: The model: openskill's defaults (mu 25, sigma 25/3, beta 25/6, tau 25/300: a rating never freezes).
MODEL = PlackettLuce()
#: The shown rating of a newcomer, and its points per unit of ``mu - 3 sigma``.
DISPLAY_BASE = 1500.0
DISPLAY_SCALE = 40.0
#: Rated games a player needs to be listed on a leaderboard (fewer: a provisional rating, shown on the profile).
MIN_GAMES = 10
#: The longest page of a leaderboard, and the deepest offset (a page is an index scan from the top).
MAX_LIMIT = 100
MAX_OFFSET = 10_000
#: Rated games of one pair of players (one above the other) in 24 hours; more between them rate nothing that day.
PAIR_GAMES_PER_DAY = 10
#: Tries of one game's transaction when another writer raced for the same new rating row or SQLite's lock.
_TRIES = 4
#: Seconds a leaderboard page is kept (a rating applied by this process drops them at once).
BOARD_SECONDS = 10.0
_BOARD_ENTRIES = 256


def display_rating(mu: float, sigma: float) -> float:
    """The shown rating: ``1500 + 40 (mu - 3 sigma)``, openskill's ordinal on a familiar scale.

    >>> display_rating(MODEL.mu, MODEL.sigma)
    1500.0
    >>> round(display_rating(30.0, 2.0))
    2460
    """
    return DISPLAY_BASE + DISPLAY_SCALE * (mu - 3.0 * sigma)


@dataclasses.dataclass(frozen=True)
class Standing:
    """How one game's seats placed: ``teams`` (seats rated as one) with their ``ranks`` (0 first, ties equal),
    and each seat's outcome (``won``, ``lost`` or ``abandoned``)."""

    teams: tuple[tuple[int, ...], ...]
    ranks: tuple[int, ...]
    outcomes: tuple[tuple[int, str], ...]


_RANK = {"won": 0, "drawn": 0, "lost": 1, "abandoned": 2}


def _winners(result: Mapping[str, Any]) -> set[int] | None:
    """The seats the result names as winners (empty: nobody won); ``None`` for a result this cannot read."""
    if result.get("reason") == "redeal":
        return set()
    if "winners" in result:
        winners = result.get("winners")
        return {w for w in winners if isinstance(w, int)} if isinstance(winners, list) else None
    if "winner" in result:
        winner = result.get("winner")
        return {winner} if isinstance(winner, int) else set()
    return None


def decide(variant: Variant, result: Mapping[str, Any], seats: Sequence[int]) -> Standing | str:
    """How the game of ``result`` places the table's ``seats``, or why it changes no rating.

    The participants are the result's ``players`` where it names them (a Schnorps round: the two who played),
    else every seat.  Reasons: ``unreadable`` (no winner field), ``no_winner`` (nobody won, nobody abandoned:
    no information about anybody's play), ``all_abandoned`` (the bots played it).

    >>> dreier = find_variant("dreierschnapsen")
    >>> decide(dreier, {"winners": [1]}, [0, 1, 2]).teams
    ((1,), (0,), (2,))
    >>> decide(dreier, {"winners": [0, 2]}, [0, 1, 2]).ranks
    (0, 0, 1)
    >>> decide(find_variant("schnapsen"), {"winner": 0, "abandoned": [0]}, [0, 1]).outcomes
    ((0, 'abandoned'), (1, 'won'))
    """
    winners = _winners(result)
    if winners is None:
        return "unreadable"
    players = result.get("players")
    participants = [s for s in seats if not isinstance(players, list) or s in players]
    abandoned_field = result.get("abandoned")
    abandoned = {s for s in abandoned_field if isinstance(s, int)} if isinstance(abandoned_field, list) else set()
    abandoned &= set(participants)
    if len(participants) < 2:
        return "unreadable"
    if abandoned >= set(participants):
        return "all_abandoned"
    outcomes: dict[int, str] = {}
    for seat in participants:
        if seat in abandoned:
            outcomes[seat] = "abandoned"
        elif not winners:
            outcomes[seat] = "drawn"
        else:
            outcomes[seat] = "won" if seat in winners else "lost"
    if len({_RANK[o] for o in outcomes.values()}) < 2:
        return "no_winner"  # everybody placed alike: nobody won, or the result names every seat
    if "won" not in outcomes.values():
        # Nobody who stayed won (a redeal, or the stand-in bot won for the seat that left): those who stayed
        # share the win over the seat that left.
        outcomes = {s: o if o == "abandoned" else "won" for s, o in outcomes.items()}
    partner = {}
    if all(s in participants for team in variant.teams for s in team):
        partner = {s: i for i, team in enumerate(variant.teams) for s in team}
    groups: dict[tuple[int, int], list[int]] = {}
    for seat in participants:
        # A partnership is one team while its seats placed alike; a seat that abandoned leaves it.
        key = (partner.get(seat, -1 - seat), _RANK[outcomes[seat]])
        groups.setdefault(key, []).append(seat)
    ordered = sorted(groups.items(), key=lambda item: (item[0][1], min(item[1])))
    dense = {r: i for i, r in enumerate(sorted({rank for (_, rank), _ in ordered}))}
    return Standing(
        tuple(tuple(seats_) for _, seats_ in ordered),
        tuple(dense[rank] for (_, rank), _ in ordered),
        tuple(sorted(outcomes.items())),
    )


def rate(standing: Standing, before: Mapping[int, tuple[float, float]]) -> dict[int, tuple[float, float]]:
    """Every placed seat's ``(mu, sigma)`` after the game, from ``before`` (a seat missing there: a newcomer).

    >>> s = decide(find_variant("schnapsen"), {"winner": 1}, [0, 1])
    >>> after = rate(s, {})
    >>> after[1][0] > MODEL.mu > after[0][0], after[0][1] < MODEL.sigma
    (True, True)
    """
    teams = [
        [MODEL.rating(*before.get(seat, (MODEL.mu, MODEL.sigma)), name=str(seat)) for seat in team]
        for team in standing.teams
    ]
    rated = MODEL.rate(teams, ranks=[float(r) for r in standing.ranks])
    return {int(str(r.name)): (r.mu, r.sigma) for team in rated for r in team}


@dataclasses.dataclass(frozen=True)
class PlayerRating:
    """A player's rating in one variant: the shown ``rating``, openskill's ``mu`` and ``sigma``, the rated games,
    and ``rank`` on the variant's leaderboard (``None``: not listed, fewer than :data:`MIN_GAMES` games)."""

    variant: str
    rating: float
    mu: float
    sigma: float
    games: int
    won: int
    lost: int
    rank: int | None

    @property
    def provisional(self) -> bool:
        return self.games < MIN_GAMES


@dataclasses.dataclass(frozen=True)
class BoardRow:
    """One line of a leaderboard: place, name (``None``: the player gave none), shown rating and games."""

    rank: int
    name: str | None
    rating: float
    games: int
    won: int
    lost: int
    player_id: str


@dataclasses.dataclass(frozen=True)
class Board:
    """A page of a variant's leaderboard: its rows, and how many players are listed in all."""

    variant: str
    offset: int
    rows: tuple[BoardRow, ...]
    total: int


class PeopleRatings:
    """The ratings' database access on the repository's engine; every method runs in a database thread
    (:class:`~bummerl.server.database.Database`) and each game is one short transaction."""

    def __init__(self, repo: Repository, clock: Callable[[], float] = time.monotonic) -> None:
        self.engine = repo.engine
        self._sessions = sessionmaker(self.engine, expire_on_commit=False)
        self._clock = clock
        #: Leaderboard pages by (variant, offset, limit): (when made, page).
        self._boards: dict[tuple[str, int, int], tuple[float, Board]] = {}

    # ------------------------------------------------------------------ rating
    def rate_table_of(self, game_id: int) -> int:
        """Rate the finished games of ``game_id``'s table that are not decided yet, in game order; how many
        changed ratings.  Nothing for a table that is not rated (one query: this runs after every stored game)."""
        with self.engine.connect() as conn:
            games = conn.execute(_GAMES_OF_TABLE_OF, {"game": game_id}).all()
        return self._rate_games(games)

    def _rate_table(self, table_id: str) -> int:
        with self.engine.connect() as conn:
            games = conn.execute(_GAMES_OF_TABLE, {"table": table_id}).all()
        return self._rate_games(games)

    def _rate_games(self, games: Sequence[Any]) -> int:
        """Rate a rated table's undecided finished games (``(id, finished, decided)`` in game order) up to the first
        game before the last whose result is not stored yet: its own store rates on from it (a result retried while
        the table dealt on lands after a later game's, and must still be rated first)."""
        count = 0
        for i, (game_id, finished, decided) in enumerate(games):
            if not finished:
                if i < len(games) - 1:
                    break
                continue  # the game on the table now
            if not decided:
                count += self.rate_game(game_id)
        return count

    def catch_up(self) -> int:
        """Rate the undecided finished games of every rated table, the tables in the order of their oldest such
        result, each in game order; how many changed ratings.  Run at start-up: it finds the games of a stop
        between the two writes."""
        with self.engine.connect() as conn:
            tables = list(conn.execute(_TABLES_TO_CATCH_UP).scalars())
        return sum(self._rate_table(t) for t in tables)

    def rate_game(self, game_id: int) -> bool:
        """Decide one finished game and apply it; whether it changed ratings (``False`` also for a game decided
        before: a game is never rated twice)."""
        for attempt in range(_TRIES):
            try:
                changed = self._rate_once(game_id)
            except IntegrityError:
                # Decided by another writer meanwhile, or two writers made the same player's first rating row:
                # the whole transaction is undone; the next try sees the other's rows.
                if self._decided(game_id):
                    return False
                continue
            except OperationalError as exc:
                if "locked" not in str(exc.orig) or attempt == _TRIES - 1:
                    raise StorageError(f"game {game_id}, rating: {type(exc.orig).__name__}") from exc
                time.sleep(0.05 * (attempt + 1))
                continue
            if changed:
                self._boards.clear()
            return changed
        raise StorageError(f"game {game_id}, rating: another writer kept racing for the same rows")

    def _decided(self, game_id: int) -> bool:
        with self.engine.connect() as conn:
            return conn.execute(_DECIDED, {"game": game_id}).first() is not None

    def _rate_once(self, game_id: int) -> bool:
        # Core statements built once (module level), not the ORM's unit of work: this runs after every rated game,
        # in a database thread that shares the interpreter with the event loop.
        with self.engine.begin() as conn:
            row = conn.execute(_GAME, {"game": game_id}).first()
            if row is None or not row.finished:
                return False
            # The decision's row first: its primary key refuses a second decision (IntegrityError), and on SQLite
            # the transaction holds the write lock from here on, so what it reads next cannot change under it.
            conn.execute(_DECIDE, {"game_id": game_id, "variant": row.variant, "decision": "", "rated_at": now()})
            reason, placed = _placed(conn, row.table_id, row.variant, row.result)
            if placed is not None:
                standing, players = placed
                _apply(conn, game_id, row.variant, standing, players)
            conn.execute(_DECISION, {"b_game": game_id, "b_decision": reason})
            return placed is not None

    # ------------------------------------------------------------------ reading
    def ratings_of(self, player_id: str) -> list[PlayerRating]:
        """The player's rating in every variant they have one in, by variant name, with their leaderboard rank."""
        with self._sessions() as s:
            rows = list(
                s.scalars(select(_RatingRow).where(_RatingRow.player_id == player_id).order_by(_RatingRow.variant))
            )
            return [_player_rating(s, r) for r in rows]

    def rating_of(self, player_id: str, variant: str) -> PlayerRating | None:
        """The player's rating in ``variant`` (canonical name), or ``None``."""
        with self._sessions() as s:
            row = s.get(_RatingRow, (variant, player_id))
            return None if row is None else _player_rating(s, row)

    def board(self, variant: str, offset: int = 0, limit: int = 50) -> Board:
        """A page of ``variant``'s leaderboard (canonical name): the players with at least :data:`MIN_GAMES`
        rated games, highest shown rating first (then more games, then the older rating row's player id: a
        stable order).  Pages are kept :data:`BOARD_SECONDS` (dropped at once when this process rates a game).
        """
        offset = max(0, min(offset, MAX_OFFSET))
        limit = max(1, min(limit, MAX_LIMIT))
        key = (variant, offset, limit)
        kept = self._boards.get(key)
        if kept is not None and self._clock() - kept[0] < BOARD_SECONDS:
            return kept[1]
        listed = and_(_RatingRow.variant == variant, _RatingRow.games >= MIN_GAMES)
        with self._sessions() as s:
            rows = s.execute(
                select(_RatingRow, _PlayerRow.name)
                .join(_PlayerRow, _PlayerRow.id == _RatingRow.player_id)
                .where(listed)
                .order_by(_RatingRow.score.desc(), _RatingRow.games.desc(), _RatingRow.player_id)
                .offset(offset)
                .limit(limit)
            ).all()
            total = s.scalar(select(func.count()).select_from(_RatingRow).where(listed)) or 0
        board = Board(
            variant,
            offset,
            tuple(
                BoardRow(offset + i + 1, name, r.score, r.games, r.won, r.lost, r.player_id)
                for i, (r, name) in enumerate(rows)
            ),
            total,
        )
        if len(self._boards) >= _BOARD_ENTRIES:
            self._boards.pop(next(iter(self._boards)))
        self._boards[key] = (self._clock(), board)
        return board

    def decisions(self, game_ids: Collection[int]) -> dict[int, str]:
        """The decision on each of the games that has one (``rated`` or why not): for tests and operators."""
        with self._sessions() as s:
            return dict(
                s.execute(
                    select(_RatedGameRow.game_id, _RatedGameRow.decision).where(_RatedGameRow.game_id.in_(game_ids))
                ).all()
            )


# ---------------------------------------------------------------------- the statements of a game's rating
def _table_games(table: Any) -> Any:
    """A rated table's games in game order, as ``(id, finished, decided)``."""
    return (
        select(_GameRow.id, _GameRow.finished, _RatedGameRow.game_id.is_not(None))
        .join(_TableRow, _TableRow.id == _GameRow.table_id)
        .outerjoin(_RatedGameRow, _RatedGameRow.game_id == _GameRow.id)
        .where(_GameRow.table_id == table, _TableRow.rated.is_(True), _TableRow.practice.is_(False))
        .order_by(_GameRow.match_no, _GameRow.game_no)
    )


_GAMES_OF_TABLE = _table_games(bindparam("table"))
_GAMES_OF_TABLE_OF = _table_games(select(_GameRow.table_id).where(_GameRow.id == bindparam("game")).scalar_subquery())
_UNDECIDED = (
    select(_GameRow.id)
    .join(_TableRow, _TableRow.id == _GameRow.table_id)
    .outerjoin(_RatedGameRow, _RatedGameRow.game_id == _GameRow.id)
    .where(
        _TableRow.rated.is_(True),
        _TableRow.practice.is_(False),
        _GameRow.finished.is_(True),
        _RatedGameRow.game_id.is_(None),
    )
)
_TABLES_TO_CATCH_UP = (
    select(_GameRow.table_id)
    .where(_GameRow.id.in_(_UNDECIDED))
    .group_by(_GameRow.table_id)
    .order_by(func.min(_GameRow.finished_at), _GameRow.table_id)
)
_DECIDED = select(_RatedGameRow.game_id).where(_RatedGameRow.game_id == bindparam("game"))
_GAME = (
    select(_GameRow.table_id, _GameRow.result, _GameRow.finished, _TableRow.variant)
    .join(_TableRow, _TableRow.id == _GameRow.table_id)
    .where(_GameRow.id == bindparam("game"), _TableRow.rated.is_(True), _TableRow.practice.is_(False))
)
_DECIDE = insert(_RatedGameRow)
_DECISION = (
    update(_RatedGameRow).where(_RatedGameRow.game_id == bindparam("b_game")).values(decision=bindparam("b_decision"))
)
#: Each seat of the table: its kind, and the player who holds it (``None``: nobody's player).
_SEATS = (
    select(_SeatRow.seat, _SeatRow.kind, _PlayerSeatRow.player_id)
    .outerjoin(_PlayerSeatRow, (_PlayerSeatRow.table_id == _SeatRow.table_id) & (_PlayerSeatRow.seat == _SeatRow.seat))
    .where(_SeatRow.table_id == bindparam("table"))
)
_MINE, _THEIRS = aliased(_RatingChangeRow), aliased(_RatingChangeRow)
_TOGETHER = (
    select(func.count())
    .select_from(_MINE)
    .join(_THEIRS, _THEIRS.game_id == _MINE.game_id)
    .join(_RatedGameRow, _RatedGameRow.game_id == _MINE.game_id)
    .where(
        _MINE.player_id == bindparam("first"),
        _THEIRS.player_id == bindparam("second"),
        _RatedGameRow.rated_at >= bindparam("since"),
    )
)
# FOR UPDATE (PostgreSQL; SQLite holds its write lock already): another process's game with one of these players
# waits until this one is committed, then reads its ratings; in player order, so two such games never deadlock.
_RATINGS = (
    select(_RatingRow.player_id, _RatingRow.mu, _RatingRow.sigma)
    .where(_RatingRow.variant == bindparam("variant"), _RatingRow.player_id.in_(bindparam("ids", expanding=True)))
    .order_by(_RatingRow.player_id)
    .with_for_update()
)
_NEW_RATING = insert(_RatingRow)
_RATING_AFTER = (
    update(_RatingRow)
    .where(_RatingRow.variant == bindparam("b_variant"), _RatingRow.player_id == bindparam("b_player"))
    .values(
        mu=bindparam("b_mu"),
        sigma=bindparam("b_sigma"),
        score=bindparam("b_score"),
        games=_RatingRow.games + 1,
        won=_RatingRow.won + bindparam("b_won"),
        lost=_RatingRow.lost + bindparam("b_lost"),
        updated_at=bindparam("b_at"),
    )
)
_CHANGE = insert(_RatingChangeRow)


def _placed(
    conn: Connection, table_id: str, variant_name: str, result_text: str | None
) -> tuple[str, tuple[Standing, dict[int, str]] | None]:
    """Why the game is not rated, or ``"rated"`` with its standing and the player at each placed seat."""
    seats = conn.execute(_SEATS, {"table": table_id}).all()
    kinds: dict[int, str] = {seat: kind for seat, kind, _ in seats}
    if any(kind == "bot" for kind in kinds.values()):
        return "bot_seat", None
    try:
        variant = find_variant(variant_name)
        result = json.loads(result_text) if result_text else None
    except (UnknownVariantError, ValueError):
        return "unreadable", None
    if not isinstance(result, dict):
        return "unreadable", None
    standing = decide(variant, result, sorted(kinds))
    if isinstance(standing, str):
        return standing, None
    held: dict[int, str] = {seat: player for seat, _, player in seats if player is not None}
    placed = [seat for team in standing.teams for seat in team]
    players = {seat: held[seat] for seat in placed if seat in held}
    if len(players) < len(placed) or len(set(players.values())) < len(placed):
        return "no_player", None  # a seat nobody's player holds (a page without a key), or one player twice
    if _pair_limit_reached(conn, standing, players):
        return "pair_limit", None
    return "rated", (standing, players)


def _pair_limit_reached(conn: Connection, standing: Standing, players: dict[int, str]) -> bool:
    """Whether two players this game puts apart (one above the other) have had :data:`PAIR_GAMES_PER_DAY` rated
    games together in the last 24 hours: a person with two accounts who got paired with themself cannot lift one
    of them game after game (docs/security.md, "Ratings")."""
    rank = {seat: r for team, r in zip(standing.teams, standing.ranks, strict=True) for seat in team}
    pairs = {tuple(sorted((players[a], players[b]))) for a in players for b in players if rank[a] < rank[b]}
    since = (dt.datetime.now(dt.UTC) - dt.timedelta(days=1)).isoformat(timespec="milliseconds")
    since = since.replace("+00:00", "Z")
    for first, second in sorted(pairs):
        together = conn.execute(_TOGETHER, {"first": first, "second": second, "since": since}).scalar()
        if (together or 0) >= PAIR_GAMES_PER_DAY:
            return True
    return False


def _apply(conn: Connection, game_id: int, variant: str, standing: Standing, players: dict[int, str]) -> None:
    """Write what the game does to its players' ratings (the caller's transaction holds the decision's row)."""
    ids = sorted(set(players.values()))
    found = {p: (mu, sigma) for p, mu, sigma in conn.execute(_RATINGS, {"variant": variant, "ids": ids})}
    before = {seat: found[p] for seat, p in players.items() if p in found}
    after = rate(standing, before)
    stamp = now()
    new, changed, changes = [], [], []
    for seat, outcome in standing.outcomes:
        player_id = players[seat]
        mu, sigma = after[seat]
        mu0, sigma0 = before.get(seat, (MODEL.mu, MODEL.sigma))
        won = int(outcome == "won")
        values = {"mu": mu, "sigma": sigma, "score": display_rating(mu, sigma), "won": won, "lost": 1 - won}
        if player_id in found:
            changed.append(
                {f"b_{k}": v for k, v in values.items()} | {"b_variant": variant, "b_player": player_id, "b_at": stamp}
            )
        else:
            new.append({**values, "variant": variant, "player_id": player_id, "games": 1, "updated_at": stamp})
        changes.append(
            {
                "game_id": game_id,
                "player_id": player_id,
                "seat": seat,
                "outcome": outcome,
                "mu_before": mu0,
                "sigma_before": sigma0,
                "mu_after": mu,
                "sigma_after": sigma,
            }
        )
    if new:
        conn.execute(_NEW_RATING, new)
    if changed:
        conn.execute(_RATING_AFTER, changed)
    conn.execute(_CHANGE, changes)


def _player_rating(s: Session, r: _RatingRow) -> PlayerRating:
    return PlayerRating(r.variant, r.score, r.mu, r.sigma, r.games, r.won, r.lost, _listed_rank(s, r))


def _listed_rank(s: Session, row: _RatingRow) -> int | None:
    """The place of a rating row on its variant's leaderboard, in the order of :meth:`PeopleRatings.board`;
    ``None`` for a row with fewer than :data:`MIN_GAMES` games (not listed)."""
    if row.games < MIN_GAMES:
        return None
    ahead = or_(
        _RatingRow.score > row.score,
        and_(_RatingRow.score == row.score, _RatingRow.games > row.games),
        and_(_RatingRow.score == row.score, _RatingRow.games == row.games, _RatingRow.player_id < row.player_id),
    )
    count = s.scalar(
        select(func.count())
        .select_from(_RatingRow)
        .where(_RatingRow.variant == row.variant, _RatingRow.games >= MIN_GAMES, ahead)
    )
    return int(count or 0) + 1
