"""The web tournaments' rows: tournaments, their participants and the tables of every round, with SQLAlchemy 2.

Three tables, declared on the same declarative base as the game tables
(:mod:`bummerl.server.storage`), so that Alembic's comparison of the models with
the database sees them (revision ``0007``):

- ``bummerl_tournaments``: one per tournament: its name, variant and options,
  format, unit, size, the move clock of its tables (``move_seconds``, revision
  ``0011``), status (``open``, ``running``, ``finished``, ``cancelled``), the
  round in play, the SHA-256 of the organiser's token, the join code, and a claim
  that lets one process at a time move it on (cluster mode);
- ``bummerl_tournament_players``: one per participant, numbered in joining order
  (the seeding): a human with the SHA-256 of their token, or a bot;
- ``bummerl_tournament_tables``: one per table (or bye) of every round: the
  participants by seat, the id of the web table that plays it (made after the
  row, so no foreign key), its status (``new``, ``playing``, ``done``, or
  ``cancelled`` when the organiser cancelled the tournament before it was
  decided) and outcome.

>>> from bummerl.server.storage import Repository, hash_token
>>> repo = Repository("sqlite://")
>>> repo.create_schema()
>>> store = TournamentStore(repo)
>>> plan = TournamentPlan("Cup", "schnapsen", {}, "swiss", "game", None, 8)
>>> t = store.create("T1", plan, "c0de", hash_token("boss"), None)
>>> store.join("c0de", "Anna", hash_token("anna"))
('T1', 0)
>>> store.add_bot("T1", "heuristic")
(1, 'heuristic')
>>> store.join("c0de", "anna", hash_token("x"))
Traceback (most recent call last):
...
bummerl.server.tournament_store.TournamentError: somebody in this tournament is called 'Anna' already
>>> [(p.number, p.name, p.kind) for p in store.load("T1").players]
[(0, 'Anna', 'human'), (1, 'heuristic', 'bot')]
>>> repo.dispose()

Every method is one short transaction, run in the database threads
(:class:`~bummerl.server.database.Database`).  The store keeps what it is
given: who plays whom is decided in :mod:`bummerl.server.tournament_rounds`.
"""

from __future__ import annotations

import dataclasses
import hmac
import json
from collections.abc import Callable, Sequence
from typing import Any

from sqlalchemy import (
    Boolean,
    ColumnElement,
    ForeignKey,
    Integer,
    String,
    Text,
    UniqueConstraint,
    func,
    insert,
    select,
    update,
)
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Mapped, Session, mapped_column, sessionmaker

from bummerl.server.errors import RequestError
from bummerl.server.storage import Repository, _Base, now
from bummerl.server.tournament_rounds import Outcome, Seating

__all__ = [
    "CANCELLED",
    "PlayerData",
    "TableRow",
    "TournamentData",
    "TournamentError",
    "TournamentPlan",
    "TournamentStore",
    "matches_token",
]

#: Statuses of a tournament, and of one table of a round (a tournament cancelled by its organiser, and its tables
#: that were not decided by then, are ``cancelled``).
OPEN, RUNNING, FINISHED, CANCELLED = "open", "running", "finished", "cancelled"
NEW, PLAYING, DONE = "new", "playing", "done"
#: The statuses a list of tournaments may ask for.
STATUSES = (OPEN, RUNNING, FINISHED, CANCELLED)


class TournamentError(RequestError):
    """A request the tournament refuses: an HTTP ``status``, an error ``code`` of docs/web-tournaments.md."""


class _TournamentRow(_Base):
    __tablename__ = "bummerl_tournaments"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    name: Mapped[str] = mapped_column(String(64))
    variant: Mapped[str] = mapped_column(String(64))
    options: Mapped[str] = mapped_column(Text)
    #: ``round-robin``, ``swiss`` or ``knock-out``.
    format: Mapped[str] = mapped_column(String(16))
    #: ``game`` or ``bummerl``: what decides a table.
    unit: Mapped[str] = mapped_column(String(16))
    #: Asked for (Swiss) until the start; from then on the rounds planned.
    rounds: Mapped[int | None] = mapped_column(Integer, nullable=True)
    max_players: Mapped[int] = mapped_column(Integer)
    #: Seconds per move at the tournament's tables (:mod:`bummerl.server.clock`); ``None``: no clock (a
    #: tournament made before revision 0011).
    move_seconds: Mapped[int | None] = mapped_column(Integer, nullable=True)
    #: Participants so far; every join raises it in the same transaction (the row lock that orders joins).
    entrants: Mapped[int] = mapped_column(Integer)
    join_code: Mapped[str] = mapped_column(String(64), unique=True)
    #: SHA-256 of the organiser's token.
    organiser: Mapped[str] = mapped_column(String(64))
    #: SHA-256 of the creating client's key (counts a client's tournaments without keeping its address).
    creator: Mapped[str | None] = mapped_column(String(64), nullable=True, index=True)
    status: Mapped[str] = mapped_column(String(16), index=True)
    #: The round in play (0 before the start).
    round: Mapped[int] = mapped_column(Integer)
    winner: Mapped[int | None] = mapped_column(Integer, nullable=True)
    created_at: Mapped[str] = mapped_column(String(32))
    started_at: Mapped[str | None] = mapped_column(String(32), nullable=True)
    finished_at: Mapped[str | None] = mapped_column(String(32), nullable=True)
    #: Which process moves the tournament on until when (cluster mode): :meth:`TournamentStore.claim`.
    busy_by: Mapped[str | None] = mapped_column(String(32), nullable=True)
    busy_until: Mapped[str | None] = mapped_column(String(32), nullable=True)


class _PlayerRow(_Base):
    __tablename__ = "bummerl_tournament_players"
    __table_args__ = (UniqueConstraint("tournament_id", "name_key", name="uq_bummerl_tournament_players_name"),)

    tournament_id: Mapped[str] = mapped_column(ForeignKey("bummerl_tournaments.id"), primary_key=True)
    #: Joining order from 0: the seeding.
    number: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(String(64))
    #: The name case-folded: two participants may not be told apart by case only.
    name_key: Mapped[str] = mapped_column(String(64))
    #: ``human`` or ``bot``.
    kind: Mapped[str] = mapped_column(String(16))
    bot: Mapped[str | None] = mapped_column(String(64), nullable=True)
    #: SHA-256 of a human's token (it holds the participant's seat at each of its tables too).
    token: Mapped[str | None] = mapped_column(String(64), nullable=True)
    joined_at: Mapped[str] = mapped_column(String(32))


class _TableRow(_Base):
    __tablename__ = "bummerl_tournament_tables"

    tournament_id: Mapped[str] = mapped_column(ForeignKey("bummerl_tournaments.id"), primary_key=True)
    round: Mapped[int] = mapped_column(Integer, primary_key=True)
    #: 0, 1, ... within the round; a knock-out's next round pairs its winners in this order.
    table_no: Mapped[int] = mapped_column(Integer, primary_key=True)
    #: The web table (``bummerl_tables.id``), chosen with the row and made after it; ``None`` for a bye.
    table_id: Mapped[str | None] = mapped_column(String(32), nullable=True, index=True)
    #: JSON list of participant numbers by seat, ``null`` for a bot that fills a seat.
    players: Mapped[str] = mapped_column(Text)
    bye: Mapped[bool] = mapped_column(Boolean)
    status: Mapped[str] = mapped_column(String(16))
    #: JSON :meth:`~bummerl.server.tournament_rounds.Outcome.to_json` once decided.
    outcome: Mapped[str | None] = mapped_column(Text, nullable=True)
    finished_at: Mapped[str | None] = mapped_column(String(32), nullable=True)


@dataclasses.dataclass(frozen=True)
class PlayerData:
    """One participant; ``token`` is the SHA-256 of a human's token."""

    number: int
    name: str
    kind: str
    bot: str | None
    token: str | None


@dataclasses.dataclass(frozen=True)
class TableRow:
    """One table (or bye) of a round."""

    round: int
    table_no: int
    table_id: str | None
    seating: Seating
    status: str
    outcome: Outcome | None


@dataclasses.dataclass(frozen=True)
class TournamentPlan:
    """What an organiser asks for: the name, the variant and its options, the format, what decides a table
    (``unit``), the rounds (Swiss only; ``None``: as many as the format plans) and the most participants."""

    name: str
    variant: str
    options: dict[str, Any]
    format: str
    unit: str
    rounds: int | None
    max_players: int
    #: Seconds per move at its tables (``None``: no clock): a participant who lets it run out too often forfeits.
    move_seconds: int | None = dataclasses.field(default=None, kw_only=True)


@dataclasses.dataclass(frozen=True)
class TournamentData(TournamentPlan):
    """One tournament as planned, with its participants (in number order) and every table of every round."""

    id: str
    join_code: str
    organiser: str
    status: str
    round: int
    winner: int | None
    created_at: str
    started_at: str | None
    finished_at: str | None
    players: list[PlayerData]
    tables: list[TableRow]

    def round_tables(self, number: int) -> list[TableRow]:
        """The tables of round ``number`` in table order."""
        return [t for t in self.tables if t.round == number]

    def history(self) -> list[list[tuple[Seating, Outcome | None]]]:
        """Every round so far as :mod:`~bummerl.server.tournament_rounds` reads it."""
        return [[(t.seating, t.outcome) for t in self.round_tables(r)] for r in range(1, self.round + 1)]


def _table_row(row: _TableRow) -> TableRow:
    players = tuple(json.loads(row.players))
    return TableRow(
        row.round,
        row.table_no,
        row.table_id,
        Seating(players, bool(row.bye)),
        row.status,
        Outcome.from_json(json.loads(row.outcome)) if row.outcome else None,
    )


def _one_table(tournament_id: str, round_: int, table_no: int) -> tuple[ColumnElement[bool], ...]:
    """The conditions that pick one table row of one round."""
    return (_TableRow.tournament_id == tournament_id, _TableRow.round == round_, _TableRow.table_no == table_no)


class TournamentStore:
    """The tournaments' database access, on the repository's engine."""

    def __init__(self, repo: Repository) -> None:
        self.engine = repo.engine
        self._sessions = sessionmaker(self.engine, expire_on_commit=False)

    # ------------------------------------------------------------------ making and joining
    def create(
        self, tournament_id: str, plan: TournamentPlan, join_code: str, organiser_hash: str, creator_hash: str | None
    ) -> str:
        """Store a new, open tournament; its id."""
        with self._sessions.begin() as s:
            s.add(
                _TournamentRow(
                    id=tournament_id,
                    name=plan.name,
                    variant=plan.variant,
                    options=json.dumps(plan.options, sort_keys=True),
                    format=plan.format,
                    unit=plan.unit,
                    rounds=plan.rounds,
                    max_players=plan.max_players,
                    move_seconds=plan.move_seconds,
                    entrants=0,
                    join_code=join_code,
                    organiser=organiser_hash,
                    creator=creator_hash,
                    status=OPEN,
                    round=0,
                    created_at=now(),
                )
            )
        return tournament_id

    def created_since(self, creator_hash: str, since: str) -> int:
        """How many tournaments the client ``creator_hash`` made since ``since`` that are not finished (or
        cancelled)."""
        with self._sessions() as s:
            count = s.scalar(
                select(func.count())
                .select_from(_TournamentRow)
                .where(
                    _TournamentRow.creator == creator_hash,
                    _TournamentRow.created_at >= since,
                    _TournamentRow.status.not_in((FINISHED, CANCELLED)),
                )
            )
        return int(count or 0)

    def holds_table(self, table_id: str) -> bool:
        """Whether a round of any tournament plays at the web table ``table_id``."""
        with self._sessions() as s:
            found = s.scalar(select(_TableRow.table_id).where(_TableRow.table_id == table_id).limit(1))
        return found is not None

    def running(self) -> list[str]:
        """The ids of the tournaments being played."""
        with self._sessions() as s:
            return list(s.scalars(select(_TournamentRow.id).where(_TournamentRow.status == RUNNING)))

    def join(self, join_code: str, name: str, token_hash: str) -> tuple[str, int]:
        """A human joins the open tournament of ``join_code``: ``(tournament id, participant number)``.

        :class:`TournamentError` ``404 unknown_code``, ``409 started`` (no longer
        open), ``409 full`` or ``409 name_taken``.
        """
        with self._sessions.begin() as s:
            found = s.scalar(select(_TournamentRow.id).where(_TournamentRow.join_code == join_code))
            if found is None:
                raise TournamentError("unknown_code", "no tournament has this join code", status=404)
            number = self._enter(s, found, name, "human", None, token_hash)
        return found, number

    def add_bot(self, tournament_id: str, bot: str, name: str | None = None) -> tuple[int, str]:
        """A bot joins the open tournament: ``(participant number, its name)`` (``name`` or the bot's, numbered
        if taken: ``heuristic 2``); the errors of :meth:`join`."""
        with self._sessions.begin() as s:
            shown = name or _free_name(bot, _taken(s, tournament_id))
            return self._enter(s, tournament_id, shown, "bot", bot, None), shown

    def _enter(self, s: Session, tournament_id: str, name: str, kind: str, bot: str | None, token: str | None) -> int:
        # One conditional UPDATE first: it takes the row's lock (PostgreSQL) or the write lock (SQLite) for the
        # rest of the transaction, so joins and the start are ordered and none sees a stale count or status.
        done = s.execute(
            update(_TournamentRow)
            .where(
                _TournamentRow.id == tournament_id,
                _TournamentRow.status == OPEN,
                _TournamentRow.entrants < _TournamentRow.max_players,
            )
            .values(entrants=_TournamentRow.entrants + 1)
        )
        if getattr(done, "rowcount", 0) != 1:
            row = s.get(_TournamentRow, tournament_id)
            if row is None:
                raise TournamentError("unknown_tournament", f"no tournament {tournament_id[:40]!r}", status=404)
            if row.status != OPEN:
                raise TournamentError(
                    "started", "this tournament has started already: nobody can join any more", status=409
                )
            raise TournamentError("full", f"this tournament is full ({row.max_players} participants)", status=409)
        key = name.casefold()
        clash = s.scalar(
            select(_PlayerRow.name).where(_PlayerRow.tournament_id == tournament_id, _PlayerRow.name_key == key)
        )
        if clash is not None:
            raise TournamentError("name_taken", f"somebody in this tournament is called {clash!r} already", status=409)
        number = s.scalar(select(_TournamentRow.entrants).where(_TournamentRow.id == tournament_id))
        assert number is not None
        try:
            s.add(
                _PlayerRow(
                    tournament_id=tournament_id,
                    number=number - 1,
                    name=name,
                    name_key=key,
                    kind=kind,
                    bot=bot,
                    token=token,
                    joined_at=now(),
                )
            )
            s.flush()
        except IntegrityError:
            raise TournamentError("name_taken", f"somebody here is called {name!r} already", status=409) from None
        return number - 1

    def start(self, tournament_id: str, bots: Sequence[str], plan: Callable[[int], int]) -> int:
        """Add ``bots`` and start the open tournament; the rounds ``plan(participants)`` gives (it may raise
        :class:`ValueError`: nothing is stored).  :class:`TournamentError` ``409`` if it is not open, is full
        or has fewer than two participants."""
        with self._sessions.begin() as s:
            # The same lock as a join's first: joins that come meanwhile wait, then find the tournament started.
            touched = s.execute(
                update(_TournamentRow)
                .where(_TournamentRow.id == tournament_id, _TournamentRow.status == OPEN)
                .values(entrants=_TournamentRow.entrants)
            )
            if getattr(touched, "rowcount", 0) != 1:
                if s.get(_TournamentRow, tournament_id) is None:
                    raise TournamentError("unknown_tournament", f"no tournament {tournament_id[:40]!r}", status=404)
                raise TournamentError("started", "this tournament has started already", status=409)
            for bot in bots:
                self._enter(s, tournament_id, _free_name(bot, _taken(s, tournament_id)), "bot", bot, None)
            row = s.get(_TournamentRow, tournament_id, populate_existing=True)
            assert row is not None
            if row.entrants < 2:
                raise TournamentError(
                    "too_few_players",
                    f"a tournament needs two participants or more, not {row.entrants}",
                    status=409,
                )
            try:
                rounds = plan(row.entrants)
            except ValueError as exc:
                raise TournamentError("bad_tournament", str(exc), status=400) from None
            row.status, row.rounds, row.started_at = RUNNING, rounds, now()
            return rounds

    # ------------------------------------------------------------------ reading
    def load(self, tournament_id: str) -> TournamentData:
        """The tournament with its participants and tables; :class:`TournamentError` ``404`` if there is none."""
        with self._sessions() as s:
            row = s.get(_TournamentRow, tournament_id)
            if row is None:
                raise TournamentError("unknown_tournament", f"no tournament {tournament_id[:40]!r}", status=404)
            players = s.scalars(
                select(_PlayerRow).where(_PlayerRow.tournament_id == tournament_id).order_by(_PlayerRow.number)
            ).all()
            tables = s.scalars(
                select(_TableRow)
                .where(_TableRow.tournament_id == tournament_id)
                .order_by(_TableRow.round, _TableRow.table_no)
            ).all()
            return TournamentData(
                name=row.name,
                variant=row.variant,
                options=json.loads(row.options),
                format=row.format,
                unit=row.unit,
                rounds=row.rounds,
                max_players=row.max_players,
                move_seconds=row.move_seconds,
                id=row.id,
                join_code=row.join_code,
                organiser=row.organiser,
                status=row.status,
                round=row.round,
                winner=row.winner,
                created_at=row.created_at,
                started_at=row.started_at,
                finished_at=row.finished_at,
                players=[PlayerData(p.number, p.name, p.kind, p.bot, p.token) for p in players],
                tables=[_table_row(t) for t in tables],
            )

    # ------------------------------------------------------------------ moving on
    def add_round(self, tournament_id: str, after: int, tables: Sequence[tuple[Seating, str | None]]) -> bool:
        """Make round ``after + 1`` with ``tables`` (each seating with its web table's id, ``None`` for a bye);
        whether this call made it (``False``: the tournament is past round ``after`` or not running)."""
        with self._sessions.begin() as s:
            done = s.execute(
                update(_TournamentRow)
                .where(
                    _TournamentRow.id == tournament_id,
                    _TournamentRow.round == after,
                    _TournamentRow.status == RUNNING,
                )
                .values(round=after + 1)
            )
            if getattr(done, "rowcount", 0) != 1:
                return False
            for table_no, (seating, table_id) in enumerate(tables):
                bye = table_id is None
                s.execute(
                    insert(_TableRow),
                    {
                        "tournament_id": tournament_id,
                        "round": after + 1,
                        "table_no": table_no,
                        "table_id": table_id,
                        "players": json.dumps(list(seating.players)),
                        "bye": seating.bye,
                        "status": DONE if bye else NEW,
                        "outcome": json.dumps(Outcome.bye(seating.participants[0]).to_json()) if bye else None,
                        "finished_at": now() if bye else None,
                    },
                )
            return True

    def table_opened(self, tournament_id: str, round_: int, table_no: int) -> None:
        """The web table of a new table row is made and dealt."""
        with self._sessions.begin() as s:
            s.execute(
                update(_TableRow)
                .where(*_one_table(tournament_id, round_, table_no), _TableRow.status == NEW)
                .values(status=PLAYING)
            )

    def table_decided(self, tournament_id: str, round_: int, table_no: int, outcome: Outcome) -> None:
        """Store a table's outcome (once: a decided table keeps its first outcome)."""
        with self._sessions.begin() as s:
            s.execute(
                update(_TableRow)
                # Once, and never for a table of a cancelled tournament.
                .where(*_one_table(tournament_id, round_, table_no), _TableRow.status.in_((NEW, PLAYING)))
                .values(status=DONE, outcome=json.dumps(outcome.to_json()), finished_at=now())
            )

    def finish(self, tournament_id: str, winner: int | None) -> None:
        """End the running tournament with its winner."""
        with self._sessions.begin() as s:
            s.execute(
                update(_TournamentRow)
                .where(_TournamentRow.id == tournament_id, _TournamentRow.status == RUNNING)
                .values(status=FINISHED, winner=winner, finished_at=now())
            )

    def cancel(self, tournament_id: str) -> bool:
        """The organiser cancels an open or running tournament: it ends without a winner, and its tables not
        decided yet are ``cancelled``; whether this call cancelled it (``False``: it had ended already)."""
        with self._sessions.begin() as s:
            done = s.execute(
                update(_TournamentRow)
                .where(_TournamentRow.id == tournament_id, _TournamentRow.status.in_((OPEN, RUNNING)))
                .values(status=CANCELLED, finished_at=now())
            )
            if getattr(done, "rowcount", 0) != 1:
                return False
            s.execute(
                update(_TableRow)
                .where(_TableRow.tournament_id == tournament_id, _TableRow.status != DONE)
                .values(status=CANCELLED, finished_at=now())
            )
            return True

    def listing(self, status: str | None, limit: int, offset: int) -> tuple[list[dict[str, Any]], int]:
        """Tournaments newest first (of one ``status``, or all) with what a list shows, and how many there are.

        No token, no join code and no participant's name is in it: the list is public.
        """
        with self._sessions() as s:
            where = [] if status is None else [_TournamentRow.status == status]
            rows = s.scalars(
                select(_TournamentRow)
                .where(*where)
                .order_by(_TournamentRow.created_at.desc(), _TournamentRow.id)
                .limit(limit)
                .offset(offset)
            ).all()
            total = s.scalar(select(func.count()).select_from(_TournamentRow).where(*where)) or 0
            winners = {
                (p.tournament_id, p.number): p.name
                for p in s.scalars(
                    select(_PlayerRow).where(_PlayerRow.tournament_id.in_([r.id for r in rows if r.winner is not None]))
                )
                if any(r.id == p.tournament_id and r.winner == p.number for r in rows)
            }
            found = [
                {
                    "id": r.id,
                    "name": r.name,
                    "variant": r.variant,
                    "format": r.format,
                    "unit": r.unit,
                    "status": r.status,
                    "players": r.entrants,
                    "max_players": r.max_players,
                    "round": r.round,
                    "planned_rounds": r.rounds if r.status != OPEN else None,
                    "move_seconds": r.move_seconds,
                    "winner": winners.get((r.id, r.winner)) if r.winner is not None else None,
                    "created_at": r.created_at,
                    "started_at": r.started_at,
                    "finished_at": r.finished_at,
                }
                for r in rows
            ]
            return found, int(total)

    def claim(self, tournament_id: str, holder: str, until: str) -> bool:
        """Whether ``holder`` may move the tournament on now (until ``until``, ISO time): nobody else holds it,
        or their claim ran out (a process that died while it held one)."""
        stamp = now()
        with self._sessions.begin() as s:
            done = s.execute(
                update(_TournamentRow)
                .where(
                    _TournamentRow.id == tournament_id,
                    (_TournamentRow.busy_until.is_(None))
                    | (_TournamentRow.busy_until < stamp)
                    | (_TournamentRow.busy_by == holder),
                )
                .values(busy_by=holder, busy_until=until)
            )
            return getattr(done, "rowcount", 0) == 1

    def release(self, tournament_id: str, holder: str) -> None:
        """Give up ``holder``'s claim."""
        with self._sessions.begin() as s:
            s.execute(
                update(_TournamentRow)
                .where(_TournamentRow.id == tournament_id, _TournamentRow.busy_by == holder)
                .values(busy_by=None, busy_until=None)
            )


def _taken(s: Session, tournament_id: str) -> set[str]:
    """The case-folded names of the tournament's participants."""
    return set(s.scalars(select(_PlayerRow.name_key).where(_PlayerRow.tournament_id == tournament_id)))


def _free_name(base: str, taken: set[str]) -> str:
    """``base``, or ``base 2``, ``base 3``, ... whichever no participant has (``taken``: case-folded names).

    >>> _free_name("heuristic", {"heuristic", "heuristic 2"})
    'heuristic 3'
    """
    if base.casefold() not in taken:
        return base
    k = 2
    while f"{base} {k}".casefold() in taken:
        k += 1
    return f"{base} {k}"


def matches_token(stored: str | None, digest: str) -> bool:
    """Whether a stored SHA-256 is ``digest``, compared in constant time (``None`` never matches)."""
    return stored is not None and hmac.compare_digest(stored, digest)
