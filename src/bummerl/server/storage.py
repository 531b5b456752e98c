"""The web app's database: tables, their seats, games and every action, with SQLAlchemy 2.

Four tables of games: ``bummerl_tables`` (a table: variant, options, seed, deal key),
``bummerl_table_seats`` (one row per seat of every table, two to four: who sits
there, the SHA-256 of the seat's token, the invitation code of a seat kept for
a friend), ``bummerl_games`` (one deal of a table's match: dealer, pack order,
result, record text and cached analysis) and ``bummerl_actions`` (one row per
action, appended as it is played: a server restart replays them).  Two more
serve cluster mode (several processes on one PostgreSQL, :mod:`bummerl.server.cluster`):
``bummerl_cluster_nodes`` (one row per live process, renewed by its heartbeat) and
``bummerl_table_owners`` (which process holds which table, with a generation that
grows at every take: :class:`Lease`); their SQL is in :mod:`bummerl.server.leases`.
Any SQLAlchemy URL works; SQLite is the default.  The schema is made and changed by
the Alembic revisions of :mod:`bummerl.server.migrations`; the models here
describe its newest revision.

>>> repo = Repository("sqlite://")
>>> repo.create_schema()
>>> seats = [SeatData(0, "human", None, "Anna", True, None), SeatData(1, "friend", None, None, False, "c0de")]
>>> table = repo.create_table("t1", "schnapsen", {}, 7, 7, seats, {0: hash_token("secret")})
>>> game_id = repo.start_game("t1", 0, 0, 1, "AhTh", "42")
>>> repo.append_action(game_id, 0, "Ah")
>>> [g.actions for g in repo.load_table("t1").games]
[['Ah']]
>>> repo.take_seat("c0de", "Bert", hash_token("other"))
('t1', 1)
>>> repo.seat_of("t1", "secret"), repo.seat_of("t1", "other"), repo.seat_of("t1", "wrong")
(0, 1, None)
>>> [(s.seat, s.kind, s.name, s.taken) for s in repo.seats("t1")]
[(0, 'human', 'Anna', True), (1, 'friend', 'Bert', True)]
>>> repo.dispose()

The repository returns plain dataclasses, never ORM objects, so nothing
outside this module holds a database session.  It stores what it is given and
decides nothing about the rules.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import hashlib
import hmac
import json
import time
from collections.abc import Collection, Sequence
from typing import Any

from sqlalchemy import (
    Boolean,
    DateTime,
    Float,
    ForeignKey,
    Index,
    Integer,
    String,
    Text,
    bindparam,
    create_engine,
    delete,
    event,
    false,
    func,
    insert,
    literal,
    not_,
    or_,
    select,
    update,
)
from sqlalchemy.engine import Connection, Engine, make_url
from sqlalchemy.exc import DBAPIError, IntegrityError, OperationalError
from sqlalchemy.orm import DeclarativeBase, Mapped, Session, mapped_column, sessionmaker
from sqlalchemy.pool import StaticPool
from sqlalchemy.sql.elements import ColumnElement

from bummerl.server import migrations

__all__ = [
    "MATCH_OUTCOME",
    "STAND_INS",
    "ActionConflictError",
    "ActionRow",
    "GameData",
    "Lease",
    "NotOwnerError",
    "Repository",
    "SeatData",
    "StorageError",
    "TableData",
    "UnknownCodeError",
    "database_url",
    "hash_token",
    "now",
]


#: The key of a finished game's result under which a room hands the match's verdict to :meth:`Repository.finish_game`.
MATCH_OUTCOME = "match"
#: Seconds :meth:`Repository.create_schema` keeps trying while another process holds SQLite's write lock.
SCHEMA_LOCK_WAIT = 60.0


class StorageError(Exception):
    """A database request that cannot be done (unknown row, taken seat)."""


class UnknownCodeError(StorageError):
    """No seat of any table is kept for this invitation code."""


class ActionConflictError(StorageError):
    """An action row for this ply exists already: two writers raced for one move."""


class NotOwnerError(StorageError):
    """A write with a :class:`Lease` that no longer holds its table: another process took it (nothing stored)."""


@dataclasses.dataclass(frozen=True)
class Lease:
    """A process's hold on one table (cluster mode): the process's node id and the generation of its take.

    Every take of a table, also by the same process, gives it a new generation,
    so a lease is a fencing token: a write made with it (:meth:`Repository.append_action`,
    :meth:`Repository.start_game`) is refused with :class:`NotOwnerError` once
    another take happened, even if the old holder never noticed.
    """

    node: str
    generation: int


def hash_token(token: str) -> str:
    """The SHA-256 (hex) under which a seat token is stored.

    >>> hash_token("abc")[:16]
    'ba7816bf8f01cfea'
    """
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def now() -> str:
    """The current UTC time as ISO 8601 text (stored as text: the same on every database)."""
    return dt.datetime.now(dt.UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


class _Base(DeclarativeBase):
    pass


class _TableRow(_Base):
    __tablename__ = "bummerl_tables"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    variant: Mapped[str] = mapped_column(String(64))
    options: Mapped[str] = mapped_column(Text, default="{}")
    # Seeds are unsigned 64-bit: text, since SQL integers are signed.
    seed: Mapped[str] = mapped_column(String(24))
    target: Mapped[int] = mapped_column(Integer)
    created_at: Mapped[str] = mapped_column(String(32))
    #: A per-table secret (hex) that the server fills in; ``None`` for tables made before it existed.
    deal_key: Mapped[str | None] = mapped_column(String(64), nullable=True)
    #: A practice table; the server default makes every older table an ordinary one.
    practice: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    #: The table's time per move in seconds (revision 0009); ``None``: no clock, as every older table.
    move_seconds: Mapped[int | None] = mapped_column(Integer, nullable=True)
    #: A rated table (revision 0010): its games between people change ratings (:mod:`~bummerl.server.people_ratings`).
    rated: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())


class _GameRow(_Base):
    __tablename__ = "bummerl_games"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    table_id: Mapped[str] = mapped_column(ForeignKey("bummerl_tables.id"), index=True)
    match_no: Mapped[int] = mapped_column(Integer)
    game_no: Mapped[int] = mapped_column(Integer)
    dealer: Mapped[int] = mapped_column(Integer)
    deck: Mapped[str] = mapped_column(String(96))
    seed: Mapped[str | None] = mapped_column(String(24), nullable=True)
    finished: Mapped[bool] = mapped_column(Boolean, default=False, index=True)
    result: Mapped[str | None] = mapped_column(Text, nullable=True)
    record: Mapped[str | None] = mapped_column(Text, nullable=True)
    analysis: Mapped[str | None] = mapped_column(Text, nullable=True)
    analysis_status: Mapped[str | None] = mapped_column(String(16), nullable=True)
    started_at: Mapped[str] = mapped_column(String(32))
    finished_at: Mapped[str | None] = mapped_column(String(32), nullable=True)


class _OutcomeRow(_Base):
    """The verdict of a game's match once the game was scored (revision 0008; none for older games)."""

    __tablename__ = "bummerl_game_outcomes"

    game_id: Mapped[int] = mapped_column(ForeignKey("bummerl_games.id"), primary_key=True)
    #: JSON: whether the match is over, its winners and their seats, Schneider (``rooms.match_outcome``).
    outcome: Mapped[str] = mapped_column(Text)


class _RatingRow(_Base):
    """A player's rating in one variant from the rated games between people (revision 0010).

    ``mu`` and ``sigma`` are openskill's; ``score`` is the conservative rating the leaderboard is ordered by
    (:func:`bummerl.server.people_ratings.display_rating`), kept as a column so that a page of it is one index scan.
    """

    __tablename__ = "bummerl_people_ratings"

    variant: Mapped[str] = mapped_column(String(64), primary_key=True)
    player_id: Mapped[str] = mapped_column(ForeignKey("bummerl_players.id"), primary_key=True, index=True)
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)
    score: Mapped[float] = mapped_column(Float)
    games: Mapped[int] = mapped_column(Integer)
    won: Mapped[int] = mapped_column(Integer)
    lost: Mapped[int] = mapped_column(Integer)
    updated_at: Mapped[str] = mapped_column(String(32))

    __table_args__ = (Index("ix_bummerl_people_ratings_board", "variant", "score"),)


class _RatedGameRow(_Base):
    """The rating decision on one finished game of a rated table (revision 0010): rated or why not.

    Its primary key is what makes rating idempotent: a game gets one row, in the transaction that applies it.
    """

    __tablename__ = "bummerl_rated_games"

    game_id: Mapped[int] = mapped_column(ForeignKey("bummerl_games.id"), primary_key=True)
    variant: Mapped[str] = mapped_column(String(64))
    #: ``rated``, or why the game changed no rating (``bot_seat``, ``no_player``, ``no_winner``, ...).
    decision: Mapped[str] = mapped_column(String(32))
    rated_at: Mapped[str] = mapped_column(String(32))


class _RatingChangeRow(_Base):
    """What one rated game did to one player's rating (revision 0010): the profile's last change, an audit."""

    __tablename__ = "bummerl_rating_changes"

    game_id: Mapped[int] = mapped_column(ForeignKey("bummerl_games.id"), primary_key=True)
    player_id: Mapped[str] = mapped_column(ForeignKey("bummerl_players.id"), primary_key=True, index=True)
    seat: Mapped[int] = mapped_column(Integer)
    #: ``won``, ``lost`` or ``abandoned`` (counted as lost).
    outcome: Mapped[str] = mapped_column(String(16))
    mu_before: Mapped[float] = mapped_column(Float)
    sigma_before: Mapped[float] = mapped_column(Float)
    mu_after: Mapped[float] = mapped_column(Float)
    sigma_after: Mapped[float] = mapped_column(Float)


class _ActionRow(_Base):
    __tablename__ = "bummerl_actions"

    game_id: Mapped[int] = mapped_column(ForeignKey("bummerl_games.id"), primary_key=True)
    ply: Mapped[int] = mapped_column(Integer, primary_key=True)
    # Table-game tokens are longer than two-player ones ("bid:kontra-bauernschnapser").
    token: Mapped[str] = mapped_column(String(40))
    created_at: Mapped[str] = mapped_column(String(32))
    #: Who played it when not the seat's own player or bot (revision 0012): the move clock's stand-in because the
    #: seat's time ran out (``time``) or its player was away past the grace (``away``), or because the seat was
    #: taken over (``over``).  ``None``: the seat played it itself, as every older action.
    stand_in: Mapped[str | None] = mapped_column(String(8), nullable=True)


class _SeatRow(_Base):
    """One seat of a table (two to four per table; revision 0005 moved the two-player seats here)."""

    __tablename__ = "bummerl_table_seats"

    table_id: Mapped[str] = mapped_column(ForeignKey("bummerl_tables.id"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    #: ``human`` (the creator), ``friend`` (invited by ``join_code``) or ``bot``.
    kind: Mapped[str] = mapped_column(String(16))
    bot: Mapped[str | None] = mapped_column(String(64), nullable=True)
    name: Mapped[str | None] = mapped_column(String(64), nullable=True)
    token: Mapped[str | None] = mapped_column(String(64), nullable=True)
    join_code: Mapped[str | None] = mapped_column(String(64), nullable=True, unique=True)


class _NodeRow(_Base):
    """A live process of a cluster (revision 0006): it renews ``expires_at`` every heartbeat."""

    __tablename__ = "bummerl_cluster_nodes"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    #: Where the process runs (host name and process id), for an operator reading the table.
    host: Mapped[str] = mapped_column(String(255))
    pid: Mapped[int] = mapped_column(Integer)
    started_at: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True))
    #: The database's own clock decides (``now()``), so the processes' clocks need not agree.
    expires_at: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True))


class _OwnerRow(_Base):
    """Which process holds a table (revision 0006); free to take once that process's row has expired."""

    __tablename__ = "bummerl_table_owners"

    table_id: Mapped[str] = mapped_column(ForeignKey("bummerl_tables.id"), primary_key=True)
    node_id: Mapped[str] = mapped_column(String(32), index=True)
    #: Grows at every take: the fencing token of :class:`Lease`.
    generation: Mapped[int] = mapped_column(Integer)
    taken_at: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True))


_ACTION_INSERT = insert(_ActionRow)
# A finished game's writes (Repository.finish_game), made once: built per call, the statements and their cache
# keys cost more interpreter time than the database's work (bench/web_load.py, docs/web.md "Many people at once").
_FINISH_GAME = (
    update(_GameRow)
    .where(_GameRow.id == bindparam("game"))
    .values(finished=True, result=bindparam("b_result"), record=bindparam("b_record"), finished_at=bindparam("at"))
)
_OUTCOME_DELETE = delete(_OutcomeRow).where(_OutcomeRow.game_id == bindparam("game"))
_OUTCOME_INSERT = insert(_OutcomeRow)
#: The values of :data:`STAND_INS`: how the move clock's stand-in came to play an action (``_ActionRow.stand_in``).
STAND_INS = ("time", "away", "over")


def _action_values(game_id: int, ply: int, token: str, stamp: str, stand_in: str | None) -> dict[str, Any]:
    """An action row's values; ``stand_in`` only when it has one (a seat's own move writes what it always wrote)."""
    values: dict[str, Any] = {"game_id": game_id, "ply": ply, "token": token, "created_at": stamp}
    if stand_in is not None:
        values["stand_in"] = stand_in
    return values


def _fenced_action(values: dict[str, Any], lease: Lease) -> Any:
    """The action row's ``INSERT``, made only if ``lease`` still holds the game's table: one statement, whose
    ``SELECT ... FOR SHARE`` locks the owner row as :func:`_hold` does (a move is one round trip, not two)."""
    table_id = select(_GameRow.table_id).where(_GameRow.id == values["game_id"]).scalar_subquery()
    held = (
        select(*(literal(v, _ActionRow.__table__.c[k].type) for k, v in values.items()))
        .select_from(_OwnerRow)
        .where(
            _OwnerRow.table_id == table_id,
            _OwnerRow.node_id == lease.node,
            _OwnerRow.generation == lease.generation,
        )
        .with_for_update(read=True)
    )
    return insert(_ActionRow).from_select(list(values), held).returning(_ActionRow.ply)


def _hold(conn: Connection, lease: Lease, table_id: Any) -> None:
    """Lock the table's owner row for this transaction if ``lease`` still holds it, else :class:`NotOwnerError`.

    ``FOR SHARE``: a process taking the table over (an ``UPDATE`` of that row)
    waits until this write is committed, and loads the table after it, so no
    stored action is ever missing from the new owner's table.
    """
    held = conn.execute(
        select(_OwnerRow.generation)
        .where(
            _OwnerRow.table_id == table_id,
            _OwnerRow.node_id == lease.node,
            _OwnerRow.generation == lease.generation,
        )
        .with_for_update(read=True)
    ).first()
    if held is None:
        raise NotOwnerError("another process holds this table now; nothing was stored")


#: One action to store, as :meth:`Repository.append_action`'s arguments: game id, ply, token, lease, stand-in.
ActionRow = tuple[int, int, str, Lease | None, str | None]


@dataclasses.dataclass
class GameData:
    """One stored game."""

    id: int
    table_id: str
    match_no: int
    game_no: int
    dealer: int
    deck: str
    seed: str | None
    finished: bool
    result: dict[str, Any] | None
    record: str | None
    analysis_status: str | None
    started_at: str
    finished_at: str | None
    actions: list[str] = dataclasses.field(default_factory=list)
    #: The actions the move clock's stand-in played, by ply (0-based), with how it came to (one of :data:`STAND_INS`).
    stand_ins: dict[int, str] = dataclasses.field(default_factory=dict)


@dataclasses.dataclass
class SeatData:
    """One seat of a table: ``kind`` ``human`` (the creator), ``friend`` (kept for ``join_code``) or ``bot``;
    ``taken``: a human holds its token (bots: never)."""

    seat: int
    kind: str
    bot: str | None
    name: str | None
    taken: bool
    join_code: str | None

    @property
    def shown_name(self) -> str:
        """The name shown for the seat: the player's, a bot's own, or ``""`` for a friend not yet come."""
        return self.name or (self.bot if self.kind == "bot" else None) or ""


@dataclasses.dataclass
class TableData:
    """One stored table with its games in play order."""

    id: str
    variant: str
    options: dict[str, Any]
    seed: int
    target: int
    created_at: str
    #: In seat order.
    seats: list[SeatData] = dataclasses.field(default_factory=list)
    games: list[GameData] = dataclasses.field(default_factory=list)
    deal_key: str | None = None
    practice: bool = False
    #: Whether a web tournament plays at this table (set by the manager when it loads the table): such a table
    #: gives no hints, whoever sits at it (:mod:`bummerl.server.hints`).
    tournament: bool = False
    #: Seconds a human seat has for each move (:mod:`bummerl.server.clock`); ``None``: the table has no clock.
    move_seconds: int | None = None
    #: A rated table: its games between people change their ratings (:mod:`bummerl.server.people_ratings`).
    rated: bool = False


def _game_data(row: _GameRow, actions: list[str] | None = None, stand_ins: dict[int, str] | None = None) -> GameData:
    return GameData(
        row.id,
        row.table_id,
        row.match_no,
        row.game_no,
        row.dealer,
        row.deck,
        row.seed,
        row.finished,
        json.loads(row.result) if row.result else None,
        row.record,
        row.analysis_status,
        row.started_at,
        row.finished_at,
        actions if actions is not None else [],
        stand_ins if stand_ins is not None else {},
    )


def _table_data(row: _TableRow, seats: list[SeatData]) -> TableData:
    return TableData(
        row.id,
        row.variant,
        json.loads(row.options),
        int(row.seed),
        row.target,
        row.created_at,
        seats,
        deal_key=row.deal_key,
        practice=row.practice,
        move_seconds=row.move_seconds,
        rated=row.rated,
    )


def _seat_data(row: _SeatRow) -> SeatData:
    return SeatData(row.seat, row.kind, row.bot, row.name, row.token is not None, row.join_code)


def _seats_of(s: Session, table_ids: list[str]) -> dict[str, list[SeatData]]:
    """The seats of the tables, in seat order (one query for all of them)."""
    found: dict[str, list[SeatData]] = {t: [] for t in table_ids}
    if table_ids:
        rows = s.scalars(
            select(_SeatRow).where(_SeatRow.table_id.in_(table_ids)).order_by(_SeatRow.table_id, _SeatRow.seat)
        )
        for row in rows:
            found[row.table_id].append(_seat_data(row))
    return found


class Repository:
    """All database access of the server; one instance per app."""

    def __init__(self, url: str, busy_timeout: float = 5.0) -> None:
        """``busy_timeout``: seconds a call waits for a lock (SQLite), a row lock or a pooled connection
        (PostgreSQL) before it fails; the server answers such a failure 503 and retries its own writes."""
        url = database_url(url)
        kwargs: dict[str, Any] = {}
        #: An in-memory SQLite database is one connection: it must be used by one thread at a time.
        self.single_connection = url in ("sqlite://", "sqlite:///:memory:")
        if url.startswith("sqlite"):
            # The app touches the database from its database threads.
            kwargs["connect_args"] = {"check_same_thread": False, "timeout": busy_timeout}
            if self.single_connection:
                # One shared connection, or every session would see its own empty database.
                kwargs["poolclass"] = StaticPool
        else:
            # A database server drops connections (its restart, idle timeouts, failover): test a pooled
            # connection before use, or the first action after that would fail.
            kwargs["pool_pre_ping"] = True
            kwargs["pool_timeout"] = busy_timeout
        self.url = url
        engine_url = make_url(url)
        if engine_url.drivername == "postgresql+psycopg":
            # A row lock is waited for as long as SQLite's busy timeout, then the call fails (and is answered
            # 503 or retried); libpq's options of the URL (a search path, say) are kept.
            options = " ".join(
                filter(None, [str(engine_url.query.get("options", "")), f"-c lock_timeout={int(busy_timeout * 1000)}"])
            )
            engine_url = engine_url.update_query_dict({"options": options})
        self.engine: Engine = create_engine(engine_url, **kwargs)
        if url.startswith("sqlite"):
            event.listen(self.engine, "connect", _sqlite_pragmas)
        self._sessions = sessionmaker(self.engine, expire_on_commit=False)

    def create_schema(self) -> None:
        """Make the schema, or bring an older one up to date: ``alembic upgrade head``, rows kept.

        Runs on this repository's own engine, so an in-memory ``sqlite://``
        database is the one migrated.  A database from before the migrations is
        recognised and stamped first (:func:`bummerl.server.migrations.upgrade`).
        """
        # Servers starting together on one SQLite file wait for each other's write lock only as long as the
        # busy timeout; a migration on a loaded machine may hold it longer. The upgrade is one transaction (a
        # refused one changed nothing), so "database is locked" is tried again, for up to a minute.
        deadline = time.monotonic() + SCHEMA_LOCK_WAIT
        pause = 0.05
        while True:
            try:
                with self.engine.begin() as db:
                    migrations.upgrade(db)
                return
            except OperationalError as exc:
                if "locked" not in str(exc.orig) or time.monotonic() + pause > deadline:
                    raise
            time.sleep(pause)
            pause = min(pause * 2, 1.0)

    def dispose(self) -> None:
        self.engine.dispose()

    # ---------------------------------------------------------------- tables
    def create_table(
        self,
        table_id: str,
        variant: str,
        options: dict[str, Any],
        seed: int,
        target: int,
        seats: Sequence[SeatData],
        token_hashes: dict[int, str],
        *,
        deal_key: str | None = None,
        practice: bool = False,
        move_seconds: int | None = None,
        rated: bool = False,
    ) -> TableData:
        """Store a new table with its seats, in one transaction (``token_hashes``: the seats held already,
        by the SHA-256 of their tokens; a seat kept for a friend gets its hash when it is taken)."""
        row = _TableRow(
            id=table_id,
            variant=variant,
            options=json.dumps(options, sort_keys=True),
            seed=str(seed),
            target=target,
            created_at=now(),
            deal_key=deal_key,
            practice=practice,
            move_seconds=move_seconds,
            rated=rated and not practice,
        )
        with self._sessions.begin() as s:
            s.add(row)
            s.flush()  # the table's row first: the seats refer to it
            for seat in seats:
                s.add(
                    _SeatRow(
                        table_id=table_id,
                        seat=seat.seat,
                        kind=seat.kind,
                        bot=seat.bot,
                        name=seat.name,
                        token=token_hashes.get(seat.seat),
                        join_code=seat.join_code,
                    )
                )
        return _table_data(row, [dataclasses.replace(seat, taken=seat.seat in token_hashes) for seat in seats])

    def take_seat(self, join_code: str, name: str, token_hash: str) -> tuple[str, int]:
        """Give the seat kept for ``join_code`` to ``name``: ``(table id, seat)``.

        :class:`UnknownCodeError` for a code no seat is kept for, :class:`StorageError` for a seat taken
        already (one UPDATE with a condition: two friends cannot both win the seat).
        """
        with self._sessions.begin() as s:
            row = s.execute(select(_SeatRow.table_id, _SeatRow.seat).where(_SeatRow.join_code == join_code)).first()
            if row is None:
                raise UnknownCodeError("unknown join code")
            table_id, seat = row
            done = s.execute(
                update(_SeatRow)
                .where(_SeatRow.table_id == table_id, _SeatRow.seat == seat, _SeatRow.token.is_(None))
                .values(token=token_hash, name=name)
            )
            if getattr(done, "rowcount", 0) != 1:
                raise StorageError(f"seat {seat} of this table is taken")
            return table_id, seat

    def seat_of(self, table_id: str, token: str) -> int | None:
        """The seat of the table that ``token`` holds, or ``None``."""
        digest = hash_token(token)
        with self._sessions() as s:
            rows = s.execute(
                select(_SeatRow.seat, _SeatRow.token).where(_SeatRow.table_id == table_id, _SeatRow.token.is_not(None))
            ).all()
        found = None
        for seat, stored in rows:
            # Constant-time comparisons, and every seat compared: the answer must not leak how much of a hash
            # matched, nor which seat's did.
            if stored is not None and hmac.compare_digest(stored, digest):
                found = seat
        return found

    def seats(self, table_id: str) -> list[SeatData]:
        """The seats of the table in seat order (none for an unknown table)."""
        with self._sessions() as s:
            return _seats_of(s, [table_id])[table_id]

    def load_table(self, table_id: str) -> TableData:
        """The table with its seats and every game and action, in play order."""
        with self._sessions() as s:
            row = s.get(_TableRow, table_id)
            if row is None:
                raise StorageError(f"no table {table_id!r}")
            table = _table_data(row, _seats_of(s, [table_id])[table_id])
            games = s.scalars(
                select(_GameRow).where(_GameRow.table_id == table_id).order_by(_GameRow.match_no, _GameRow.game_no)
            ).all()
            ids = [g.id for g in games]
            actions: dict[int, list[str]] = {i: [] for i in ids}
            stand_ins: dict[int, dict[int, str]] = {i: {} for i in ids}
            if ids:
                for game_id, ply, token, stand_in in s.execute(
                    select(_ActionRow.game_id, _ActionRow.ply, _ActionRow.token, _ActionRow.stand_in)
                    .where(_ActionRow.game_id.in_(ids))
                    .order_by(_ActionRow.game_id, _ActionRow.ply)
                ):
                    actions[game_id].append(token)
                    if stand_in is not None:
                        stand_ins[game_id][ply] = stand_in
            table.games = [_game_data(g, actions[g.id], stand_ins[g.id]) for g in games]
        return table

    def variant_of(self, table_id: str) -> str | None:
        """The variant name of a stored table, or ``None`` for an unknown id."""
        with self._sessions() as s:
            return s.scalar(select(_TableRow.variant).where(_TableRow.id == table_id))

    def tables_to_resume(self) -> list[str]:
        """Ids of the tables whose latest game is not finished."""
        query = select(_GameRow.table_id).where(_GameRow.finished.is_(False))
        with self._sessions() as s:
            return list(s.scalars(query.distinct()))

    def set_deal_key(self, table_id: str, deal_key: str) -> None:
        """Give a table of an older server (made before deal keys) its secret deal key."""
        with self._sessions.begin() as s:
            s.execute(update(_TableRow).where(_TableRow.id == table_id).values(deal_key=deal_key))

    def table_ids(self) -> list[str]:
        with self._sessions() as s:
            return list(s.scalars(select(_TableRow.id)))

    # ----------------------------------------------------------------- games
    def start_game(
        self,
        table_id: str,
        match_no: int,
        game_no: int,
        dealer: int,
        deck: str,
        seed: str | None,
        lease: Lease | None = None,
    ) -> int:
        """Store a new deal; returns the game id.  With a ``lease`` (cluster mode), only while it holds the table
        (:class:`NotOwnerError`)."""
        values = {
            "table_id": table_id,
            "match_no": match_no,
            "game_no": game_no,
            "dealer": dealer,
            "deck": deck,
            "seed": seed,
            "finished": False,
            "started_at": now(),
        }
        try:
            with self.engine.begin() as conn:
                if lease is not None:
                    _hold(conn, lease, table_id)
                key = conn.execute(insert(_GameRow), values).inserted_primary_key
        except DBAPIError as exc:
            # The caller answers `storage`; the table keeps its finished game and may deal again.
            raise StorageError(f"table {table_id}, new deal: {type(exc.orig).__name__}: {exc.orig}") from exc
        assert key is not None
        return int(key[0])

    def append_action(
        self, game_id: int, ply: int, token: str, lease: Lease | None = None, stand_in: str | None = None
    ) -> None:
        """Store action number ``ply`` (0-based) of a game; the primary key refuses a second one.

        With a ``lease`` (cluster mode) the action is stored only while the lease
        holds the game's table, in the same transaction (:class:`NotOwnerError`).
        ``stand_in``: the move clock's stand-in played it, and why (one of :data:`STAND_INS`), so that a table
        reloaded after a restart counts the seat's strikes again (:meth:`~bummerl.server.rooms.Room.replay_stored`).
        """
        if stand_in is not None and stand_in not in STAND_INS:
            raise ValueError(f"stand_in must be one of {', '.join(STAND_INS)} or None, not {stand_in!r}")
        # A Core INSERT, not the ORM's unit of work: this runs once per move.
        values = _action_values(game_id, ply, token, now(), stand_in)
        try:
            with self.engine.begin() as conn:
                if lease is None:
                    conn.execute(_ACTION_INSERT, values)
                elif conn.execute(_fenced_action(values, lease)).first() is None:
                    raise NotOwnerError("another process holds this table now; nothing was stored")
        except IntegrityError:
            raise ActionConflictError(f"game {game_id} already has action {ply + 1}") from None
        except DBAPIError as exc:
            # The database is down or refused the row: the caller answers `storage` and the table stays as it was.
            raise StorageError(f"game {game_id}, action {ply + 1}: {type(exc.orig).__name__}: {exc.orig}") from exc

    def append_actions(self, rows: Sequence[ActionRow]) -> list[StorageError | None]:
        """Store several actions, each given as :meth:`append_action`'s arguments, in one transaction.

        One commit for all: :class:`~bummerl.server.database.Database` gathers the moves of every table that
        arrive while the last ones are written, so that a busy server pays one commit (a flush, an fsync on
        PostgreSQL) for many moves, and its writes never wait for one another's locks.  Per row, ``None`` when it
        is stored or the error :meth:`append_action` would have raised for it alone: a row that is refused (a
        second action for one ply, a lease lost) costs the others nothing, they are then stored one by one.  A
        database that fails (locked, down) fails every row with the same :class:`StorageError`.
        """
        if len(rows) == 1:
            return [self._append_one(rows[0])]
        stamp = now()
        try:
            with self.engine.begin() as conn:
                plain = [_action_values(g, p, t, stamp, m) for g, p, t, lease, m in rows if lease is None]
                # One INSERT of many rows per set of columns: the stand-in's moves name one more.
                for marked in (False, True):
                    some = [v for v in plain if ("stand_in" in v) == marked]
                    if some:
                        conn.execute(_ACTION_INSERT, some)
                for game_id, ply, token, lease, stand_in in rows:
                    values = _action_values(game_id, ply, token, stamp, stand_in)
                    if lease is not None and conn.execute(_fenced_action(values, lease)).first() is None:
                        raise NotOwnerError("another process holds this table now; nothing was stored")
            return [None] * len(rows)
        except (IntegrityError, NotOwnerError):
            pass  # rolled back: each row on its own says which one was refused
        except DBAPIError as exc:
            failed = StorageError(f"{len(rows)} actions: {type(exc.orig).__name__}: {exc.orig}")
            failed.__cause__ = exc
            return [failed] * len(rows)
        return [self._append_one(row) for row in rows]

    def _append_one(self, row: ActionRow) -> StorageError | None:
        game_id, ply, token, lease, stand_in = row
        try:
            if stand_in is not None:
                self.append_action(game_id, ply, token, lease, stand_in)
            elif lease is not None:
                self.append_action(game_id, ply, token, lease)
            else:
                self.append_action(game_id, ply, token)
        except StorageError as exc:
            return exc
        return None

    def finish_game(self, game_id: int, result: dict[str, Any], record: str) -> None:
        """Store a finished game's result and record (its actions are stored already).

        A database failure raises :class:`StorageError`.  Nothing is lost by it:
        every action is stored, so loading the table again recomputes and stores
        the result (:meth:`~bummerl.server.rooms.Room.replay_stored`).  The match's
        verdict that a room adds under :data:`MATCH_OUTCOME` (:meth:`~bummerl.server.rooms.Room.play`) is kept in
        its own table (``bummerl_game_outcomes``): the stored result stays the game's own, as ``game_over`` told it.
        """
        result = dict(result)
        outcome = result.pop(MATCH_OUTCOME, None)
        try:
            with self.engine.begin() as s:
                values = {"game": game_id, "b_result": json.dumps(result), "b_record": record, "at": now()}
                s.execute(_FINISH_GAME, values)
                if outcome is not None:
                    s.execute(_OUTCOME_DELETE, {"game": game_id})
                    s.execute(_OUTCOME_INSERT, {"game_id": game_id, "outcome": json.dumps(outcome)})
        except DBAPIError as exc:
            raise StorageError(f"game {game_id}, result: {type(exc.orig).__name__}: {exc.orig}") from exc

    def get_game(self, game_id: int) -> GameData | None:
        with self._sessions() as s:
            row = s.get(_GameRow, game_id)
            if row is None:
                return None
            tokens = list(
                s.scalars(select(_ActionRow.token).where(_ActionRow.game_id == game_id).order_by(_ActionRow.ply))
            )
            return _game_data(row, tokens)

    def list_games(
        self,
        table_id: str | None = None,
        finished: bool | None = True,
        limit: int = 50,
        offset: int = 0,
        pending: Collection[int] = (),
    ) -> tuple[list[tuple[GameData, TableData]], int]:
        """Games newest first with their tables (and the tables' seats), and how many match in all.

        ``pending`` are games that are over but whose result is not written yet
        (the server writes it in the background): they count as finished.
        """
        with self._sessions() as s:
            query = select(_GameRow, _TableRow).join(_TableRow, _TableRow.id == _GameRow.table_id)
            count = select(func.count()).select_from(_GameRow)
            if table_id is not None:
                query = query.where(_GameRow.table_id == table_id)
                count = count.where(_GameRow.table_id == table_id)
            if finished is not None:
                over: ColumnElement[bool] = _GameRow.finished.is_(True)
                if pending:
                    over = or_(over, _GameRow.id.in_(sorted(pending)))
                where = over if finished else not_(over)
                query = query.where(where)
                count = count.where(where)
            rows = s.execute(query.order_by(_GameRow.id.desc()).limit(limit).offset(offset)).all()
            total = s.scalar(count) or 0
            seats = _seats_of(s, list({t.id for _, t in rows}))
            return [(_game_data(g), _table_data(t, seats[t.id])) for g, t in rows], total

    def table_of_game(self, game_id: int) -> TableData | None:
        with self._sessions() as s:
            row = s.get(_GameRow, game_id)
            if row is None:
                return None
            table = s.get(_TableRow, row.table_id)
            return None if table is None else _table_data(table, _seats_of(s, [table.id])[table.id])

    # -------------------------------------------------------------- analysis
    def analysis(self, game_id: int) -> tuple[str | None, dict[str, Any] | None]:
        """``(status, analysis)`` of a game: status ``None``, ``running``, ``done`` or ``failed``."""
        with self._sessions() as s:
            row = s.get(_GameRow, game_id)
            if row is None:
                raise StorageError(f"no game {game_id}")
            return row.analysis_status, (json.loads(row.analysis) if row.analysis else None)

    def claim_analysis(self, game_id: int) -> bool:
        """Mark the analysis as running unless it runs or ran already; whether this caller got it."""
        with self._sessions.begin() as s:
            done = s.execute(
                update(_GameRow)
                .where(_GameRow.id == game_id, _GameRow.analysis_status.is_(None))
                .values(analysis_status="running")
            )
            return getattr(done, "rowcount", 0) == 1

    def store_analysis(self, game_id: int, status: str, analysis: dict[str, Any]) -> None:
        with self._sessions.begin() as s:
            s.execute(
                update(_GameRow)
                .where(_GameRow.id == game_id)
                .values(analysis_status=status, analysis=json.dumps(analysis))
            )

    def reset_running_analyses(self) -> None:
        """Forget analyses that a stopped server left ``running``: the next request starts them again."""
        with self._sessions.begin() as s:
            s.execute(update(_GameRow).where(_GameRow.analysis_status == "running").values(analysis_status=None))


def database_url(url: str) -> str:
    """``url`` with libpq's spellings ``postgresql://`` and ``postgres://`` meaning psycopg 3 (the
    ``postgres`` extra); SQLAlchemy 2.0 would look for psycopg2, and knows no ``postgres``.

    >>> database_url("postgres://anna@db.example/bummerl")
    'postgresql+psycopg://anna@db.example/bummerl'
    >>> database_url("sqlite:///games.db"), database_url("postgresql+asyncpg://h/db")
    ('sqlite:///games.db', 'postgresql+asyncpg://h/db')
    """
    scheme = url.partition("://")[0]
    if scheme in ("postgres", "postgresql"):
        return "postgresql+psycopg" + url[len(scheme) :]
    return url


def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    # WAL lets readers go on while a move is written; NORMAL sync is still
    # durable across a crash of the server process (not of the machine).
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.close()
