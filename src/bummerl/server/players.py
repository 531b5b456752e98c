"""Players without passwords: a device key, a code that moves it to another device, and each player's statistics.

**Identity.**  ``POST /api/players`` makes a player and gives the browser a
*device key* (``secrets.token_urlsafe(32)``: 256 random bits), which the page
keeps in ``localStorage`` and sends as ``Authorization: Bearer <key>``.  The
database keeps only the key's SHA-256 (``bummerl_player_keys``), as it keeps a
seat token's, so a copy of the database lets nobody act as a player.  A player
may hold up to :data:`MAX_DEVICES` keys, one per device.

**Transfer.**  A device that holds a key asks for a *transfer code*: ten
symbols of Crockford's base 32 (``K7QM2-XHP9R``), valid for
:data:`CODE_SECONDS` and once.  The first :data:`CODE_LOOKUP` symbols find the
code's row, the other six (30 bits) are its secret, kept as a SHA-256 only and
compared in constant time.  Each code takes at most :data:`CODE_ATTEMPTS` wrong
secrets, then it is gone: whatever the attacker's rate or number of addresses,
one code falls to guessing with a probability of at most ``5 / 2**30`` (about
one in 200 million), and a player holds at most one live code.  Typing the
code on the other device gives that device a new key of the same player.

**Seats.**  A table's seat is recorded for a player when the page proves both:
the seat's token and the player's key (:meth:`PlayerStore.claim_seat`).

**Statistics** (:func:`statistics`) come from the stored results of the games
at those seats: games and Bummerl won per variant and opponent (a bot level, a
friend), the longest run of games won, and, against each bot of a two-player
variant, a rating with its 95% interval (:func:`rating_against`).  A practice
table's games (dealt from a seed the player chose, so the player may know the
deals) count in none of them (:meth:`PlayerStore.outcomes`); a game the player
abandoned (the clock's bot took the seat over: ``abandoned`` in the result)
counts as lost.  The ratings between people are kept by
:mod:`bummerl.server.people_ratings`.

>>> from bummerl.server.storage import Repository
>>> repo = Repository("sqlite://")
>>> repo.create_schema()
>>> store = PlayerStore(repo, clock=lambda: 1000.0)
>>> player, key = store.create("Anna")
>>> store.player_of(key).name, store.player_of("wrong") is None
('Anna', True)
>>> code, expires = store.issue_code(player.id)
>>> len(code), expires - 1000.0 == CODE_SECONDS
(11, True)
>>> other, second_key = store.redeem(code)
>>> other.id == player.id, second_key != key, store.player_of(second_key).id == player.id
(True, True, True)
>>> store.redeem(code)
Traceback (most recent call last):
...
bummerl.server.players.PlayerError: this code is unknown, used or expired: ask for a new one on your other device
>>> repo.dispose()

The module decides nothing about the rules: a game's result and a match's
verdict are the engine's, stored by the tables (:meth:`bummerl.server.rooms.Room.play`).
"""

from __future__ import annotations

import dataclasses
import hashlib
import hmac
import json
import secrets
import time
from collections.abc import Callable, Iterable, Sequence
from typing import Any, Literal

from sqlalchemy import Float, ForeignKey, Integer, String, delete, func, insert, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Mapped, mapped_column, sessionmaker

from bummerl.errors import UnknownVariantError
from bummerl.server.errors import RequestError
from bummerl.server.storage import Repository, _Base, _GameRow, _OutcomeRow, _seats_of, _TableRow, hash_token, now
from bummerl.tournament.ratings import bradley_terry
from bummerl.variants import find_variant

__all__ = [
    "CODE_ALPHABET",
    "CODE_ATTEMPTS",
    "CODE_LOOKUP",
    "CODE_SECONDS",
    "MAX_DEVICES",
    "MAX_STATS_GAMES",
    "GameOutcome",
    "PlayerData",
    "PlayerError",
    "PlayerStore",
    "Rating",
    "SeatClaim",
    "normalize_code",
    "rating_against",
    "statistics",
]

#: Crockford's base 32: digits and capitals without I, L, O and U (read as 1, 1, 0; U is left out).
CODE_ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"
#: Symbols of a transfer code that find its row; the rest (:data:`CODE_SECRET`) are its secret.
CODE_LOOKUP = 4
CODE_SECRET = 6
#: How long a transfer code is valid, in seconds.
CODE_SECONDS = 600.0
#: Wrong secrets a transfer code takes before it is gone.
CODE_ATTEMPTS = 5
#: Live transfer codes of the whole server (an expired one is removed when the next is issued).
MAX_LIVE_CODES = 10_000
#: Device keys one player may hold.
MAX_DEVICES = 10
#: The newest finished games the statistics count.
MAX_STATS_GAMES = 5000
#: The newest games listed with the statistics.
RECENT_GAMES = 20
#: Seconds between two writes of a key's ``used_at`` (not one write per request).
_USED_EVERY = 86400.0


#: What :meth:`PlayerStore.claim_seat` did: recorded the seat now, had it already, or recorded nothing because
#: another player holds the seat or this player holds another seat of the table.
SeatClaim = Literal["claimed", "already", "other_player", "other_seat"]


class PlayerError(RequestError):
    """A request the players' store refuses: an HTTP ``status`` and an error ``code`` (docs/web-ui.md)."""


class _PlayerRow(_Base):
    __tablename__ = "bummerl_players"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    name: Mapped[str | None] = mapped_column(String(64), nullable=True)
    created_at: Mapped[str] = mapped_column(String(32))


class _KeyRow(_Base):
    """One device key of a player: only its SHA-256."""

    __tablename__ = "bummerl_player_keys"

    key_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    player_id: Mapped[str] = mapped_column(ForeignKey("bummerl_players.id"), index=True)
    created_at: Mapped[str] = mapped_column(String(32))
    #: Seconds since the epoch of the last use (written at most once a day).
    used_at: Mapped[float] = mapped_column(Float)


class _TransferRow(_Base):
    """A live transfer code: its lookup symbols, the SHA-256 of the whole code, its expiry and wrong guesses."""

    __tablename__ = "bummerl_player_transfers"

    lookup: Mapped[str] = mapped_column(String(8), primary_key=True)
    code_hash: Mapped[str] = mapped_column(String(64))
    #: One live code per player: a new one replaces it.
    player_id: Mapped[str] = mapped_column(ForeignKey("bummerl_players.id"), unique=True)
    #: Seconds since the epoch.
    expires: Mapped[float] = mapped_column(Float)
    attempts: Mapped[int] = mapped_column(Integer)


class _PlayerSeatRow(_Base):
    """A seat of a table that a player holds (proved by the seat's token and the player's key)."""

    __tablename__ = "bummerl_player_seats"

    table_id: Mapped[str] = mapped_column(ForeignKey("bummerl_tables.id"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    player_id: Mapped[str] = mapped_column(ForeignKey("bummerl_players.id"), index=True)
    claimed_at: Mapped[str] = mapped_column(String(32))


@dataclasses.dataclass(frozen=True)
class PlayerData:
    """A player: its id, its name (may be ``None``), when it was made, how many device keys it holds."""

    id: str
    name: str | None
    created_at: str
    devices: int


@dataclasses.dataclass(frozen=True)
class GameOutcome:
    """One finished game at a player's seat, as the statistics read it.

    ``outcome`` is ``"won"``, ``"lost"`` or ``"drawn"`` (a Schnorps stand, a
    redeal: nobody won); ``opponent`` is the bot level of every other seat, or
    ``"friend"`` (only humans), or ``"mixed"``; ``match`` is the match's verdict
    after this game (``None`` where the server did not store one); ``won_match``
    says whether it names the player's seat among the winners.
    """

    game_id: int
    table_id: str
    variant: str
    players: int
    seat: int
    match_no: int
    game_no: int
    outcome: str
    points: int
    opponent: str
    finished_at: str | None
    match: dict[str, Any] | None = None

    @property
    def match_over(self) -> bool:
        return bool(self.match and self.match.get("over"))

    @property
    def won_match(self) -> bool:
        return self.match_over and self.seat in (self.match or {}).get("seats", ())


@dataclasses.dataclass(frozen=True)
class Rating:
    """A rating against one bot on the Elo scale: 0 is as strong as the bot; ``interval`` is 95%."""

    elo: float
    interval: tuple[float, float]
    games: int


def _hash(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def normalize_code(text: str) -> str | None:
    """A transfer code as typed (any case, spaces and dashes, O for 0, I and L for 1) in its canonical form;
    ``None`` if it cannot be one.

    >>> normalize_code(" k7qm2-xhp9o ")
    'K7QM2XHP90'
    >>> normalize_code("K7QM2XHP9") is None, normalize_code("K7QM2XHP9U") is None
    (True, True)
    """
    if not isinstance(text, str) or len(text) > 40:
        return None
    code = text.upper().replace("-", "").replace(" ", "").translate(str.maketrans("OIL", "011"))
    if len(code) != CODE_LOOKUP + CODE_SECRET or any(c not in CODE_ALPHABET for c in code):
        return None
    return code


def _new_code() -> str:
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LOOKUP + CODE_SECRET))


def _shown(code: str) -> str:
    """The code as shown: two groups of five (``K7QM2-XHP90``)."""
    return f"{code[:5]}-{code[5:]}"


_UNKNOWN_CODE = "this code is unknown, used or expired: ask for a new one on your other device"


class PlayerStore:
    """The players' database access, on the repository's engine; every method is one short transaction, run in
    the database threads (:class:`~bummerl.server.database.Database`).  ``clock`` gives seconds since the epoch."""

    def __init__(self, repo: Repository, clock: Callable[[], float] = time.time) -> None:
        self.engine = repo.engine
        self.clock = clock
        self._sessions = sessionmaker(self.engine, expire_on_commit=False)

    # ------------------------------------------------------------------ identity
    def create(self, name: str | None) -> tuple[PlayerData, str]:
        """A new player with its first device key: ``(player, key)``; the key is not stored, its hash is."""
        player_id = secrets.token_urlsafe(12)
        key = secrets.token_urlsafe(32)
        made = now()
        with self._sessions.begin() as s:
            s.add(_PlayerRow(id=player_id, name=name, created_at=made))
            s.flush()
            s.add(_KeyRow(key_hash=hash_token(key), player_id=player_id, created_at=made, used_at=self.clock()))
        return PlayerData(player_id, name, made, 1), key

    def player_of(self, key: str) -> PlayerData | None:
        """The player whose device key is ``key``, or ``None``."""
        if not key or len(key) > 256:
            return None
        digest = hash_token(key)
        with self._sessions.begin() as s:
            row = s.execute(
                select(_PlayerRow, _KeyRow.used_at)
                .join(_KeyRow, _KeyRow.player_id == _PlayerRow.id)
                .where(_KeyRow.key_hash == digest)
            ).first()
            if row is None:
                return None
            player, used = row
            if self.clock() - used > _USED_EVERY:
                s.execute(update(_KeyRow).where(_KeyRow.key_hash == digest).values(used_at=self.clock()))
            devices = s.scalar(select(func.count()).select_from(_KeyRow).where(_KeyRow.player_id == player.id)) or 0
            return PlayerData(player.id, player.name, player.created_at, devices)

    def rename(self, player_id: str, name: str | None) -> None:
        with self._sessions.begin() as s:
            s.execute(update(_PlayerRow).where(_PlayerRow.id == player_id).values(name=name))

    def forget_key(self, key: str) -> None:
        """Forget one device key (this device leaves the player; the others keep theirs)."""
        with self._sessions.begin() as s:
            s.execute(delete(_KeyRow).where(_KeyRow.key_hash == hash_token(key)))

    # ------------------------------------------------------------------ transfer
    def issue_code(self, player_id: str) -> tuple[str, float]:
        """A new transfer code of the player (replacing a live one) and when it expires (seconds since the epoch).

        :class:`PlayerError` ``409 too_many_devices`` when the player holds :data:`MAX_DEVICES` keys, ``503
        busy`` when the server holds :data:`MAX_LIVE_CODES` live codes.
        """
        clock = self.clock()
        with self._sessions.begin() as s:
            devices = s.scalar(select(func.count()).select_from(_KeyRow).where(_KeyRow.player_id == player_id)) or 0
            if devices >= MAX_DEVICES:
                raise PlayerError(
                    "too_many_devices",
                    f"this player is on {devices} devices already: forget one of them first",
                    status=409,
                )
            s.execute(
                delete(_TransferRow).where((_TransferRow.player_id == player_id) | (_TransferRow.expires <= clock))
            )
            live = s.scalar(select(func.count()).select_from(_TransferRow)) or 0
            if live >= MAX_LIVE_CODES:
                raise PlayerError(
                    "busy", "too many transfer codes are open right now: try again in a few minutes", status=503
                )
        expires = clock + CODE_SECONDS
        for _ in range(8):
            code = _new_code()
            try:
                with self._sessions.begin() as s:
                    s.execute(
                        insert(_TransferRow).values(
                            lookup=code[:CODE_LOOKUP],
                            code_hash=_hash(code),
                            player_id=player_id,
                            expires=expires,
                            attempts=0,
                        )
                    )
                return _shown(code), expires
            except IntegrityError:
                continue  # the lookup symbols are taken by another live code (or a code was issued meanwhile)
        raise PlayerError("busy", "no transfer code could be made right now: try again", status=503)

    def redeem(self, text: str) -> tuple[PlayerData, str]:
        """The player of transfer code ``text`` with a new device key for this device; the code is used up.

        :class:`PlayerError` ``400 bad_code`` for text that is no code, ``404 unknown_code`` for a code that
        is unknown, used, expired or burnt by too many wrong guesses (one answer for all: it tells an attacker
        nothing).  A wrong secret counts against its code (:data:`CODE_ATTEMPTS`).
        """
        code = normalize_code(text)
        if code is None:
            raise PlayerError(
                "bad_code",
                f"a transfer code has {CODE_LOOKUP + CODE_SECRET} letters and digits, e.g. K7QM2-XHP90",
                status=400,
            )
        lookup, digest, clock = code[:CODE_LOOKUP], _hash(code), self.clock()
        player_id: str | None = None
        with self._sessions.begin() as s:
            row = s.get(_TransferRow, lookup)
            if row is not None and row.expires <= clock:
                s.delete(row)
            elif row is not None and not hmac.compare_digest(row.code_hash, digest):
                # The wrong guess counts against the code (and burns it at the limit) once this is committed.
                s.execute(
                    update(_TransferRow).where(_TransferRow.lookup == lookup).values(attempts=_TransferRow.attempts + 1)
                )
                s.execute(
                    delete(_TransferRow).where(_TransferRow.lookup == lookup, _TransferRow.attempts >= CODE_ATTEMPTS)
                )
            elif row is not None:
                # One use: of two requests with the right code, one deletes the row and the other finds none.
                done = s.execute(
                    delete(_TransferRow).where(_TransferRow.lookup == lookup, _TransferRow.code_hash == digest)
                )
                if getattr(done, "rowcount", 0) == 1:
                    player_id = row.player_id
        if player_id is None:
            raise PlayerError("unknown_code", _UNKNOWN_CODE, status=404)
        key = secrets.token_urlsafe(32)
        with self._sessions.begin() as s:
            player = s.get(_PlayerRow, player_id)
            if player is None:
                raise PlayerError("unknown_code", _UNKNOWN_CODE, status=404)
            s.add(_KeyRow(key_hash=hash_token(key), player_id=player_id, created_at=now(), used_at=clock))
            s.flush()
            devices = s.scalar(select(func.count()).select_from(_KeyRow).where(_KeyRow.player_id == player_id)) or 0
            return PlayerData(player.id, player.name, player.created_at, devices), key

    # ------------------------------------------------------------------ seats
    def claim_seat(self, player_id: str, table_id: str, seat: int) -> SeatClaim:
        """Record that the player holds ``seat`` of ``table_id`` (its token was checked), at most one player per
        seat and one seat per player at a table.  The answer (:data:`SeatClaim`) says what happened:
        ``"claimed"`` (recorded now), ``"already"`` (recorded for this player before), ``"other_player"`` (the
        seat is recorded for another player: a second device opened the seat's link) or ``"other_seat"`` (this
        player holds another seat of the table: it would play against itself).  The last two record nothing and
        are no error: whoever holds the token may open the seat on any device.

        >>> from bummerl.server.storage import Repository, SeatData
        >>> repo = Repository("sqlite://")
        >>> repo.create_schema()
        >>> seats = [SeatData(i, "human", None, None, True, None) for i in (0, 1)]
        >>> _ = repo.create_table("t", "schnapsen", {}, 1, 7, seats, {0: "a", 1: "b"})
        >>> store = PlayerStore(repo)
        >>> (anna, _), (bert, _) = store.create("Anna"), store.create("Bert")
        >>> store.claim_seat(anna.id, "t", 0), store.claim_seat(anna.id, "t", 0), store.claim_seat(bert.id, "t", 0)
        ('claimed', 'already', 'other_player')
        >>> store.claim_seat(anna.id, "t", 1)
        'other_seat'
        >>> repo.dispose()
        """
        try:
            with self._sessions.begin() as s:
                rows = s.execute(
                    select(_PlayerSeatRow.seat, _PlayerSeatRow.player_id).where(_PlayerSeatRow.table_id == table_id)
                ).all()
                for other_seat, holder in rows:
                    if other_seat == seat:
                        return "already" if holder == player_id else "other_player"
                    if holder == player_id:
                        return "other_seat"
                s.add(_PlayerSeatRow(table_id=table_id, seat=seat, player_id=player_id, claimed_at=now()))
        except IntegrityError:
            # Two devices recorded the seat at the same moment (this transaction is rolled back): who was first?
            with self._sessions() as s:
                first = s.scalar(
                    select(_PlayerSeatRow.player_id).where(
                        _PlayerSeatRow.table_id == table_id, _PlayerSeatRow.seat == seat
                    )
                )
            if first is None:
                raise  # not that race (a table or player that is gone): a real error
            return "already" if first == player_id else "other_player"
        return "claimed"

    def outcomes(self, player_id: str, limit: int = MAX_STATS_GAMES) -> tuple[list[GameOutcome], bool]:
        """The player's finished games, oldest first (the newest ``limit``), and whether there were more; the
        games of practice tables (a chosen seed) are left out."""
        with self._sessions() as s:
            rows = s.execute(
                select(
                    _GameRow.id,
                    _GameRow.table_id,
                    _TableRow.variant,
                    _PlayerSeatRow.seat,
                    _GameRow.match_no,
                    _GameRow.game_no,
                    _GameRow.result,
                    _OutcomeRow.outcome,
                    _GameRow.finished_at,
                )
                .join(_PlayerSeatRow, _PlayerSeatRow.table_id == _GameRow.table_id)
                .outerjoin(_OutcomeRow, _OutcomeRow.game_id == _GameRow.id)
                .join(_TableRow, _TableRow.id == _GameRow.table_id)
                # A practice table's deals come from a seed its creator chose (and may know): its games count
                # in no statistic and no rating.
                .where(
                    _PlayerSeatRow.player_id == player_id,
                    _GameRow.finished.is_(True),
                    _TableRow.practice.is_(False),
                )
                .order_by(_GameRow.id.desc())
                .limit(limit + 1)
            ).all()
            seats = _seats_of(s, list({r.table_id for r in rows}))
        more = len(rows) > limit
        out = []
        for r in reversed(rows[:limit]):
            table_seats = seats.get(r.table_id, [])
            outcome = _outcome_of(
                r.id,
                r.table_id,
                r.variant,
                r.seat,
                r.match_no,
                r.game_no,
                json.loads(r.result) if r.result else None,
                json.loads(r.outcome) if r.outcome else None,
                r.finished_at,
                [(x.seat, x.kind, x.bot) for x in table_seats],
            )
            if outcome is not None:
                out.append(outcome)
        return out, more


def _opponent(seat: int, seats: Sequence[tuple[int, str, str | None]]) -> str:
    """Who the player at ``seat`` played against: one bot level, ``"friend"`` (humans only) or ``"mixed"``."""
    others = [(kind, bot) for s, kind, bot in seats if s != seat]
    bots = {bot for kind, bot in others if kind == "bot"}
    if others and all(kind == "bot" for kind, _ in others) and len(bots) == 1:
        return bots.pop() or "bot"
    if others and not bots:
        return "friend"
    return "mixed"


def _outcome_of(
    game_id: int,
    table_id: str,
    variant: str,
    seat: int,
    match_no: int,
    game_no: int,
    result: dict[str, Any] | None,
    match: dict[str, Any] | None,
    finished_at: str | None,
    seats: Sequence[tuple[int, str, str | None]],
) -> GameOutcome | None:
    """A stored game read for the player at ``seat``: ``None`` for a result this version cannot read."""
    if not isinstance(result, dict):
        return None
    if isinstance(result.get("players"), list) and seat not in result["players"]:
        return None  # a Schnorps round's game that this participant waited out (it paid or was paid, not played)
    points = int(result.get("points") or 0)
    if "winners" in result:
        winners = result.get("winners") or []
        outcome = "drawn" if result.get("reason") == "redeal" or not winners else "won" if seat in winners else "lost"
    elif "winner" in result:
        winner = result.get("winner")
        outcome = "drawn" if winner is None else "won" if winner == seat else "lost"
    else:
        return None
    abandoned = result.get("abandoned")
    if isinstance(abandoned, list) and seat in abandoned:
        # The seat's player let the clock run out until the bot took the seat over (bummerl.server.clock): the
        # game counts as lost for them whatever the bot made of it (issue 24), as in the ratings.
        outcome = "lost"
    try:
        players = find_variant(variant).players
    except UnknownVariantError:
        players = len(seats)
    return GameOutcome(
        game_id,
        table_id,
        variant,
        players,
        seat,
        match_no + 1,
        game_no + 1,
        outcome,
        points,
        _opponent(seat, seats),
        finished_at,
        match if isinstance(match, dict) else None,
    )


# ---------------------------------------------------------------------- statistics
def rating_against(scores: Iterable[float]) -> Rating | None:
    """The player's rating against one bot from its games' scores (1 won, 0.5 drawn, 0 lost): ``None`` for none.

    The Bradley-Terry model of :func:`bummerl.tournament.ratings.bradley_terry`, fitted for the two of them: with
    two players its mean-0 ratings are ``+d/2`` and ``-d/2``, so the player's difference to the bot is twice
    its rating, with twice its interval (Elo scale: +200 means an expected score of 76% against that bot; the
    prior of 1000 Elo per rating keeps a run of wins finite).  Each game is one observation: games against a bot
    are dealt at random, not duplicated, so the interval is wide until a few dozen games.

    >>> r = rating_against([1.0] * 30 + [0.0] * 10)
    >>> round(r.elo), [round(x) for x in r.interval], r.games
    (190, [66, 315], 40)
    >>> rating_against([1.0, 0.0]).elo
    0.0
    """
    outcomes = [(0, 1, float(s)) for s in scores]
    if not outcomes:
        return None
    me = bradley_terry(2, outcomes)[0]
    return Rating(2 * me.rating, (2 * me.interval[0], 2 * me.interval[1]), len(outcomes))


_SCORE = {"won": 1.0, "drawn": 0.5, "lost": 0.0}


def _longest_run(outcomes: Sequence[GameOutcome]) -> tuple[int, int]:
    """The longest run of games won in a row, and the run that goes on now: a game lost ends a run, a game that
    nobody won (a stand, a redeal) neither adds to it nor ends it."""
    longest = run = 0
    for o in outcomes:
        if o.outcome == "won":
            run += 1
            longest = max(longest, run)
        elif o.outcome == "lost":
            run = 0
    return longest, run


def _counts(outcomes: Sequence[GameOutcome]) -> dict[str, int]:
    matches = {}
    for o in outcomes:
        if o.match_over:
            matches[(o.table_id, o.match_no)] = o  # the game that ended its match
    return {
        "games": len(outcomes),
        "won": sum(o.outcome == "won" for o in outcomes),
        "lost": sum(o.outcome == "lost" for o in outcomes),
        "drawn": sum(o.outcome == "drawn" for o in outcomes),
        "bummerl_won": sum(o.won_match for o in matches.values()),
        "bummerl_lost": sum(not o.won_match for o in matches.values()),
    }


def statistics(outcomes: Sequence[GameOutcome]) -> dict[str, Any]:
    """The statistics of a player's games (oldest first): totals, one row per variant and opponent, the runs.

    A row's ``rating`` (two-player variants against a bot) is :func:`rating_against` of its games.  Bummerl
    (matches) are counted from the verdict the table stored with the game that ended each one.

    >>> won = GameOutcome(1, "t", "schnapsen", 2, 0, 1, 1, "won", 2, "hard", None)
    >>> lost = dataclasses.replace(won, game_id=2, outcome="lost", match={"over": True, "seats": [1]})
    >>> s = statistics([won, won, lost, won])
    >>> s["games"], s["won"], s["bummerl_lost"], s["longest_run"], s["current_run"]
    (4, 3, 1, 2, 1)
    >>> row = s["rows"][0]
    >>> row["variant"], row["opponent"], row["won"], row["rating"]["games"]
    ('schnapsen', 'hard', 3, 4)
    """
    longest, current = _longest_run(outcomes)
    groups: dict[tuple[str, str], list[GameOutcome]] = {}
    for o in outcomes:
        groups.setdefault((o.variant, o.opponent), []).append(o)
    rows = []
    for (variant, opponent), games in sorted(groups.items()):
        row: dict[str, Any] = {"variant": variant, "opponent": opponent, **_counts(games), "rating": None}
        # A rating is against one opponent: only a game of two has one (a table game's seats are several).
        if games[0].players == 2 and opponent not in ("friend", "mixed"):
            rating = rating_against(_SCORE[o.outcome] for o in games)
            if rating is not None:
                row["rating"] = {
                    "elo": rating.elo,
                    "low": rating.interval[0],
                    "high": rating.interval[1],
                    "games": rating.games,
                }
        rows.append(row)
    return {**_counts(outcomes), "longest_run": longest, "current_run": current, "rows": rows}
