"""Tournaments on the web server (issue 14): an organiser makes one, players join by a code, the server pairs
the rounds, makes their tables and learns their results; bots fill seats.  Every variant.

:class:`TournamentService` is what the routes (:mod:`bummerl.server.routes.tournaments`,
docs/web-tournaments.md) call.  It keeps nothing that matters in memory: the
tournament, its participants and the tables of every round are rows of
:mod:`~bummerl.server.tournament_store`, who meets whom is decided from them by
the pure functions of :mod:`~bummerl.server.tournament_rounds` (which reuse the
bot tournament's pairings, :mod:`bummerl.tournament.formats`), and a table's
result is read from the stored game (its actions replayed through the engine),
so a restarted server, or another process of a cluster, goes on where the last
one stopped.

Choices, and why:

- **A table is a web table like any other**, made through the repository
  (:meth:`~bummerl.server.storage.Repository.create_table` with its seats, then
  its first deal from the table's own :meth:`~bummerl.server.rooms.Room.next_deal`,
  stored with :meth:`~bummerl.server.storage.Repository.start_game`): the same
  rows the table manager writes, dealt from a secret deal key (never a practice
  table), played, watched, replayed and analysed through the same API and
  WebSocket.  The manager's ``create_table`` is not used because it always seats
  a creating human at seat 0, and a tournament's table may have nobody to create
  it (two bots, or a round paired in the background).  The table is loaded by the
  manager when a client connects, as every table is; tables of bots alone are
  loaded by this service so that their bots play.
- **A participant's token is their seat token.**  The seat of a human at every
  table of the tournament stores the SHA-256 of that participant's own token,
  the only form in which the server keeps it.  A seat token of its own per table
  would have had to be kept recoverable until its player asks for it (encrypted,
  or derived from a key in the same database: whoever reads the database would
  take the seats), because rounds are paired in the background, when no
  participant's token is at hand.  So the database holds one hash per
  participant and nothing that opens a seat; ``GET /api/tournaments/{id}`` with
  the participant's token names their table and seat, and the token they sent
  is what ``hello`` takes there.  Another participant's token opens no seat of
  mine (``tests/test_server_tournaments.py``).
- **Results are polled from the database** every ``poll_seconds`` (and when a
  client asks for the tournament), not pushed by the tables: the table may be
  live in another process, or in none.  A table whose number of finished games
  changed is replayed from its stored deals and actions (or read from memory
  where this process holds it live), and :func:`~bummerl.server.tournament_rounds.decide`
  reads the engine's match: ``unit`` ``game`` is decided by the table's first
  game that somebody wins, ``bummerl`` by its first whole match.  At a table of
  bots alone this service deals the next game itself, since nobody else would.
- **One process moves a tournament on at a time**: a lock in this process and,
  in cluster mode, a claim on the tournament's row that runs out after
  ``claim_seconds`` (a process that died while it held one).  Making a round is
  one conditional update of the round number with the round's rows, so two
  processes can never pair one round twice; the table ids are chosen with the
  rows, so a table that a stopped process did not make is made by the next one.
- **A clock on every table, and a forfeit.**  A tournament's tables get the
  move clock its organiser chose (:mod:`bummerl.server.clock`; by default
  ``TournamentSettings.move_seconds``, at most ``max_move_seconds``).  A
  participant who lets it run out too often has their seat taken over by the
  bot, and forfeits the table at once (:func:`~bummerl.server.tournament_rounds.forfeit`):
  they and their side lose it, the others win it, and the round need not wait
  for a player who is gone.  The look sees a seat taken over in the live table's
  clock (this process), or in the stored result of a finished game (``abandoned``).
- **The organiser may cancel** an open or running tournament: it ends without a
  winner, its undecided tables are marked ``cancelled`` (a game in hand may be
  played out, but counts for nothing, and no table of bots is dealt again).
- **Bounds** (:class:`TournamentSettings`, docs/security.md): participants per
  tournament, bots per tournament, unfinished tournaments one client made in a
  day, running tournaments in all; making one counts against the ``create``
  rate of tables, joining against the ``join`` rate (a join code is 72 random bits).

The organiser's token, like a participant's, is given once and kept as its
SHA-256.  Nothing here sees a card: the tables do that.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import datetime as dt
import logging
import re
import secrets
import time
from typing import Any

from bummerl.errors import BummerlError
from bummerl.server.clock import MIN_MOVE_SECONDS
from bummerl.server.cluster import Elsewhere
from bummerl.server.config import ServerConfig, TournamentSettings
from bummerl.server.database import Database, StorageUnavailable
from bummerl.server.families import family_of
from bummerl.server.manager import TableManager, UnknownTable
from bummerl.server.rooms import Family, Room, TableError
from bummerl.server.storage import Repository, SeatData, StorageError, hash_token
from bummerl.server.tournament_json import tournament_json, your_table
from bummerl.server.tournament_rounds import (
    Outcome,
    check_format,
    decide,
    forfeit,
    next_round,
    planned_rounds,
    winner,
)
from bummerl.server.tournament_store import (
    DONE,
    NEW,
    OPEN,
    PLAYING,
    RUNNING,
    STATUSES,
    TableRow,
    TournamentData,
    TournamentError,
    TournamentPlan,
    TournamentStore,
    matches_token,
)

__all__ = ["TOURNAMENT_ID", "TournamentService", "TournamentSettings"]

log = logging.getLogger("bummerl.server")

#: Seconds before a clocked table found held by another process is tried again (cluster mode).
ELSEWHERE_SECONDS = 30.0

#: What a tournament id looks like (``secrets.token_urlsafe(9)``); anything else is unknown at once.
TOURNAMENT_ID = re.compile(r"[A-Za-z0-9_-]{1,32}")


def _kind(t: TournamentData) -> tuple[Family, Any]:
    """The kind of table and the variant of a stored tournament; ``409`` if this server no longer plays them
    (a variant or option that a later version dropped): never a 500."""
    try:
        return family_of(t.variant, t.options)
    except BummerlError as exc:
        raise TournamentError(
            "unplayable", f"this server cannot play this tournament any more: {exc}", status=409
        ) from None


class TournamentService:
    """The tournaments of one app: make, join, start, read, and move on (a background task polls them)."""

    def __init__(
        self, repo: Repository, manager: TableManager, config: ServerConfig, settings: TournamentSettings
    ) -> None:
        self.repo = repo
        self.manager = manager
        self.config = config
        self.settings = settings
        self.store = TournamentStore(repo)
        self.db: Database = manager.db
        #: This process's name in the claims of cluster mode.
        self.node = secrets.token_hex(8)
        self._locks: dict[str, asyncio.Lock] = {}
        #: Finished games counted at a table when it was last replayed (a replay only when they change).
        self._seen: dict[str, int] = {}
        #: When a clocked table was last found held by another process (cluster mode): not tried again for
        #: :data:`ELSEWHERE_SECONDS`, since each try is a write of the lease row.
        self._elsewhere: dict[str, float] = {}
        self._poller: asyncio.Task[None] | None = None
        self._stopping = asyncio.Event()
        #: When this process last looked at a tournament (a client's poll looks again only after a pause).
        self._looked: dict[str, float] = {}
        self._min_gap = settings.poll_seconds / 2

    # ------------------------------------------------------------------ organiser and players
    async def create(self, plan: TournamentPlan, client: str | None) -> tuple[TournamentData, str]:
        """A new open tournament and its organiser's token (given once); :class:`TournamentError` ``400``
        for a variant, option, format or round count that does not fit, ``429`` at the client's cap."""
        try:
            kind, v = family_of(plan.variant, plan.options)
        except BummerlError as exc:
            raise TournamentError("bad_tournament", str(exc), status=400) from None
        try:
            check_format(plan.format, plan.unit, kind.seat_count(v))
        except ValueError as exc:
            raise TournamentError("bad_tournament", str(exc), status=400) from None
        if plan.rounds is not None and plan.format != "swiss":
            raise TournamentError(
                "bad_tournament", f"a {plan.format} sets its own number of rounds: leave rounds out", status=400
            )
        if (
            plan.move_seconds is not None
            and not MIN_MOVE_SECONDS <= plan.move_seconds <= self.settings.max_move_seconds
        ):
            raise TournamentError(
                "bad_tournament",
                f"move_seconds is {MIN_MOVE_SECONDS} to {self.settings.max_move_seconds} seconds, or null (no clock)",
                status=400,
            )
        if plan.max_players > self.settings.max_players:
            raise TournamentError(
                "bad_tournament",
                f"a tournament has at most {self.settings.max_players} participants",
                status=400,
            )
        creator = hash_token(client) if client is not None else None
        if creator is not None:
            since = (dt.datetime.now(dt.UTC) - dt.timedelta(days=1)).isoformat(timespec="milliseconds")
            mine = await self.db.run(self.store.created_since, creator, since.replace("+00:00", "Z"))
            if mine >= self.settings.max_per_client:
                raise TournamentError(
                    "too_many_tournaments",
                    f"you have {mine} unfinished tournaments from the last day",
                    status=429,
                )
        token = secrets.token_urlsafe(32)
        tournament_id = secrets.token_urlsafe(9)
        named = dataclasses.replace(plan, variant=v.name, options=v.options())  # the variant's own name and options
        await self.db.run(self.store.create, tournament_id, named, secrets.token_urlsafe(9), hash_token(token), creator)
        return await self.load(tournament_id), token

    async def join(self, code: str, name: str) -> tuple[str, int, str]:
        """A human joins by the join code: ``(tournament id, participant number, their token)``."""
        token = secrets.token_urlsafe(32)
        tournament_id, number = await self.db.run(self.store.join, code, name, hash_token(token))
        return tournament_id, number, token

    async def add_bot(self, tournament_id: str, token: str | None, bot: str) -> tuple[int, str]:
        """The organiser adds a bot before the start: its participant number and name."""
        t = await self._organised(tournament_id, token)
        name = self._bot_name(t, bot)
        if sum(p.kind == "bot" for p in t.players) >= self.settings.max_bots:
            raise TournamentError(
                "too_many_bots", f"a tournament has at most {self.settings.max_bots} bots", status=409
            )
        return await self.db.run(self.store.add_bot, tournament_id, name)

    async def start(self, tournament_id: str, token: str | None, bots: list[str]) -> TournamentData:
        """The organiser starts the tournament, with ``bots`` added as participants; round 1 is paired and its
        tables made before this returns."""
        t = await self._organised(tournament_id, token)
        names = [self._bot_name(t, bot) for bot in bots]
        if sum(p.kind == "bot" for p in t.players) + len(names) > self.settings.max_bots:
            raise TournamentError(
                "too_many_bots", f"a tournament has at most {self.settings.max_bots} bots", status=409
            )
        if len(t.players) + len(names) > t.max_players:
            raise TournamentError("full", f"this tournament has room for {t.max_players} participants", status=409)
        running = await self.db.run(self.store.running)
        if len(running) >= self.settings.max_running:
            raise TournamentError(
                "server_full", "every tournament place of this server is taken; try later", status=503
            )
        seats = self._seats(t)
        await self.db.run(
            self.store.start, tournament_id, names, lambda n: planned_rounds(t.format, n, seats, t.rounds)
        )
        await self.advance(tournament_id)
        return await self.load(tournament_id)

    def _bot_name(self, t: TournamentData, bot: str) -> str:
        kind, v = _kind(t)
        try:
            return kind.check_bot(bot, v)
        except BummerlError as exc:
            raise TournamentError("bad_bot", str(exc), status=400) from None

    def _seats(self, t: TournamentData) -> int:
        kind, v = _kind(t)
        return kind.seat_count(v)

    async def load(self, tournament_id: str) -> TournamentData:
        """The stored tournament; ``404`` for an unknown id."""
        if not TOURNAMENT_ID.fullmatch(tournament_id):
            raise TournamentError("unknown_tournament", f"no tournament {tournament_id[:40]!r}", status=404)
        return await self.db.run(self.store.load, tournament_id)

    async def cancel(self, tournament_id: str, token: str | None) -> TournamentData:
        """The organiser cancels the open or running tournament: no winner, its undecided tables ``cancelled``
        (no more deals at its tables of bots); ``409 ended`` for one that is over or cancelled already."""
        t = await self._organised(tournament_id, token, open_only=False)
        # Under the tournament's lock: a look in hand finishes first, and the next one finds it cancelled.
        async with self._locks.setdefault(tournament_id, asyncio.Lock()):
            if not await self.db.run(self.store.cancel, tournament_id):
                raise TournamentError("ended", f"this tournament is {t.status} already", status=409)
        self._locks.pop(tournament_id, None)
        self._looked.pop(tournament_id, None)
        for row in t.tables:
            if row.table_id is not None:
                self._seen.pop(row.table_id, None)
        return await self.load(tournament_id)

    async def listing(self, status: str | None, limit: int, offset: int) -> dict[str, Any]:
        """``GET /api/tournaments``: the tournaments newest first, of one status or all, and how many."""
        if status is not None and status not in STATUSES:
            raise TournamentError("bad_status", f"status is one of {', '.join(STATUSES)}", status=422)
        found, total = await self.db.run(self.store.listing, status, limit, offset)
        for item in found:
            try:
                item["title"] = family_of(item["variant"])[1].title
            except BummerlError:  # a variant a later version dropped: listed by its name
                item["title"] = item["variant"]
        return {"tournaments": found, "total": total}

    async def _organised(self, tournament_id: str, token: str | None, *, open_only: bool = True) -> TournamentData:
        t = await self.load(tournament_id)
        if not token or not matches_token(t.organiser, hash_token(token)):
            raise TournamentError("not_organiser", "only the organiser of this tournament may do this", status=403)
        if open_only and t.status != OPEN:
            raise TournamentError("started", "this tournament has started already", status=409)
        return t

    # ------------------------------------------------------------------ what a client sees
    async def state(self, tournament_id: str, token: str | None) -> dict[str, Any]:
        """``GET /api/tournaments/{id}``: the public state, and with a token what its holder may know besides."""
        t = await self.load(tournament_id)
        if t.status == RUNNING:
            await self.advance(tournament_id, wait=False)
            t = await self.load(tournament_id)
        kind, v = _kind(t)
        digest = hash_token(token) if token else None
        organiser = digest is not None and matches_token(t.organiser, digest)
        player = None
        if digest is not None:
            # Every participant's hash compared, in constant time: the answer says nothing of how much matched.
            for p in t.players:
                if matches_token(p.token, digest):
                    player = p.number
        answer = tournament_json(
            t, title=v.title, kind=kind.kind, seats=kind.seat_count(v), filler=kind.default_bot(self.config)
        )
        answer["you"] = {"organiser": organiser, "player": player}
        answer["your_table"] = your_table(t, player, token) if player is not None and token is not None else None
        if organiser and t.status == OPEN:
            answer["join_code"] = t.join_code
            answer["invite_url"] = self.invite_url(t.join_code)
        return answer

    def invite_url(self, code: str) -> str:
        """The address a player opens to join: the configured public URL, never a request's ``Host``; the
        code stands in the fragment, which no browser sends (docs/security.md)."""
        base = (self.config.public_url or "").rstrip("/")
        return f"{base}/#/tournaments/join/{code}"

    # ------------------------------------------------------------------ moving on
    async def advance(self, tournament_id: str, *, wait: bool = True) -> None:
        """Look at the running tournament's tables and move it on as far as they allow (``wait=False``: not if
        this process is at it already).  Never raises for the database: the next look tries again."""
        lock = self._locks.setdefault(tournament_id, asyncio.Lock())
        if not wait and (lock.locked() or time.monotonic() - self._looked.get(tournament_id, 0.0) < self._min_gap):
            return  # looked at a moment ago, or being looked at: the answer reads the rows as they are
        async with lock:
            self._looked[tournament_id] = time.monotonic()
            claimed = False
            try:
                if self.manager.cluster is not None:
                    until = dt.datetime.now(dt.UTC) + dt.timedelta(seconds=self.settings.claim_seconds)
                    stamp = until.isoformat(timespec="milliseconds").replace("+00:00", "Z")
                    claimed = await self.db.run(self.store.claim, tournament_id, self.node, stamp)
                    if not claimed:
                        return
                for _ in range(3):  # a new round's tables are made in the same look
                    if not await self._step(tournament_id):
                        break
            except StorageError as exc:
                log.warning("tournament %s: %s (tried again at the next look)", tournament_id, exc)
            except Exception:  # a look that fails must fail no request, nor the other tournaments' looks
                log.exception("tournament %s could not move on", tournament_id)
            finally:
                if claimed:
                    with contextlib.suppress(StorageError):
                        await self.db.run(self.store.release, tournament_id, self.node)

    async def _step(self, tournament_id: str) -> bool:
        """One look: make new tables, learn results, deal at tables of bots, pair the next round; whether a
        new round was made (then its tables want making)."""
        t = await self.db.run(self.store.load, tournament_id)
        if t.status != RUNNING:
            # Nothing more to look at: forget it (a later caller makes a new lock, and finds nothing to do).
            self._looked.pop(tournament_id, None)
            self._locks.pop(tournament_id, None)
            return False
        if t.round == 0:
            return await self._pair(t)
        for row in t.round_tables(t.round):
            if row.status == NEW:
                await self._open(t, row)
        for row in t.round_tables(t.round):
            if row.status in (NEW, PLAYING) and row.table_id is not None:
                await self._look(t, row)
        t = await self.db.run(self.store.load, tournament_id)
        if all(row.status == DONE for row in t.round_tables(t.round)):
            return await self._pair(t)
        return False

    async def _pair(self, t: TournamentData) -> bool:
        """Pair the round after the last one (all decided), or end the tournament with its winner."""
        assert t.rounds is not None
        seats = self._seats(t)
        history = t.history()
        # Up to some 50 ms for a round robin of 64 at tables of three: not on the event loop.
        seatings = await asyncio.to_thread(next_round, t.format, len(t.players), seats, history, t.rounds)
        if seatings is None:
            await self.db.run(self.store.finish, t.id, winner(t.format, len(t.players), history))
            for row in t.tables:
                if row.table_id is not None:
                    self._seen.pop(row.table_id, None)
            return False
        tables = [(s, None if s.bye else secrets.token_urlsafe(9)) for s in seatings]
        return await self.db.run(self.store.add_round, t.id, t.round, tables)

    async def _open(self, t: TournamentData, row: TableRow) -> None:
        """Make the web table of a new row (or finish making it: a stopped server may have left it half made)."""
        assert row.table_id is not None
        kind, v = _kind(t)
        filler = kind.default_bot(self.config)
        if not await self.db.run(self.repo.seats, row.table_id):
            seats: list[SeatData] = []
            hashes: dict[int, str] = {}
            for seat, who in enumerate(row.seating.players):
                p = t.players[who] if who is not None else None
                if p is None:
                    seats.append(SeatData(seat, "bot", filler, None, False, None))
                elif p.kind == "bot":
                    seats.append(SeatData(seat, "bot", p.bot, p.name, False, None))
                else:
                    assert p.token is not None
                    seats.append(SeatData(seat, "human", None, p.name, True, None))
                    hashes[seat] = p.token
            await self.db.run(
                self.repo.create_table,
                row.table_id,
                v.name,
                v.options(),
                secrets.randbits(63),
                kind.match_target(v, None),
                seats,
                hashes,
                deal_key=secrets.token_bytes(32).hex(),
                practice=False,
                move_seconds=t.move_seconds,
            )
        data = await self.db.run(self.repo.load_table, row.table_id)
        if not data.games:
            # The table's first deal, as the manager deals a new table's: from its own secret key.
            deal = self.manager.detached(data).next_deal()
            await self.db.run(
                self.repo.start_game,
                row.table_id,
                deal.match_no,
                deal.game_no,
                deal.dealer,
                deal.deck,
                None if deal.seed is None else str(deal.seed),
            )
        await self.db.run(self.store.table_opened, t.id, row.round, row.table_no)

    async def _look(self, t: TournamentData, row: TableRow) -> None:
        """Learn whether a playing table is decided; at a table of bots alone, keep its game going."""
        assert row.table_id is not None
        players = row.seating.players
        sides = self._sides(t)
        outcome: Outcome | None = None
        live = self.manager.tables.get(row.table_id)
        if (
            live is None
            and t.move_seconds is not None
            and time.monotonic() - self._elsewhere.get(row.table_id, -ELSEWHERE_SECONDS) >= ELSEWHERE_SECONDS
        ):
            # A table with a clock is loaded here, so that its clock runs even if nobody (or only one side)
            # comes: a participant who never plays forfeits instead of holding up the round.
            try:
                live = await self.manager.room(row.table_id)
                self._elsewhere.pop(row.table_id, None)
            except Elsewhere:  # its clock runs there; its results reach us through the database
                self._elsewhere[row.table_id] = time.monotonic()
            except UnknownTable as exc:
                log.error("tournament table %s: %s", row.table_id, exc)
        if live is not None and live.dealt:
            # A seat the clock's bot took over forfeits at once, also in the middle of the game.
            taken = live.clock.abandoned() if live.clock is not None else []
            outcome = forfeit(taken, players, sides) or decide(live.played_matches(), t.unit, players)
        else:
            finished = await self.db.run(self._finished_games, row.table_id)
            if finished and self._seen.get(row.table_id) != finished:
                outcome = await self.db.run(self._replayed, row.table_id, t.unit, players, sides)
                self._seen[row.table_id] = finished
        if outcome is not None:
            await self.db.run(self.store.table_decided, t.id, row.round, row.table_no, outcome)
            self._seen.pop(row.table_id, None)
            self._elsewhere.pop(row.table_id, None)
            return
        if all(who is None or t.players[who].kind == "bot" for who in players):
            await self._drive(row.table_id, t.unit, players)

    def _finished_games(self, table_id: str) -> int:
        return self.repo.list_games(table_id, True, 1, 0)[1]

    def _sides(self, t: TournamentData) -> list[int]:
        """Each seat's side at the tournament's tables: partners at Bauernschnapsen share one, else each its own."""
        kind, v = _kind(t)
        teams = v.teams
        return [
            next((i for i, team in enumerate(teams) if seat in team), len(teams) + seat)
            for seat in range(kind.seat_count(v))
        ]

    def _replayed(self, table_id: str, unit: str, players: tuple[int | None, ...], sides: list[int]) -> Outcome | None:
        """The table rebuilt from its stored deals and actions (in a database thread), and its outcome: a forfeit
        if a finished game that counts (any before the table is decided; of the first match for ``bummerl``)
        names a participant's seat ``abandoned``."""
        data = self.repo.load_table(table_id)
        taken = {
            seat
            for g in data.games
            if g.finished and g.result and (unit == "game" or g.match_no == 1)
            for seat in g.result.get("abandoned") or ()
            if isinstance(seat, int)
        }
        if (found := forfeit(taken, players, sides)) is not None:
            return found
        room = self.manager.detached(data)
        try:
            room.replay_stored()
        except (BummerlError, ValueError) as exc:
            raise StorageError(f"table {table_id} does not replay: {exc}") from None
        return decide(room.played_matches(), unit, players)

    async def _drive(self, table_id: str, unit: str, players: tuple[int | None, ...]) -> None:
        """A table of bots alone: load it (its bots play) and deal its next game while it is undecided."""
        try:
            room: Room = await self.manager.room(table_id)
        except Elsewhere:
            return  # the process that holds it plays it; its own look deals there
        except UnknownTable as exc:
            log.error("tournament table %s: %s", table_id, exc)
            return
        async with room.lock:
            if not room.dealt or room.to_move is not None:
                return
            if decide(room.played_matches(), unit, players) is not None:
                return  # decided: the next look stores it
            try:
                await room.deal_next()
            except (TableError, StorageUnavailable) as exc:
                log.warning("tournament table %s: no next deal yet: %s", table_id, exc)

    # ------------------------------------------------------------------ the background look
    async def poll(self) -> None:
        """Look at every running tournament every ``poll_seconds`` until :meth:`stop_polling`."""
        while not self._stopping.is_set():
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._stopping.wait(), self.settings.poll_seconds)
            try:
                running = [] if self._stopping.is_set() else await self.db.run(self.store.running)
            except StorageError as exc:
                log.warning("tournaments: %s", exc)
                continue
            for tournament_id in running:
                if self._stopping.is_set():
                    break
                await self.advance(tournament_id)

    def start_polling(self) -> None:
        """Start the background look (in the app's lifespan, after the table manager started)."""
        if self._poller is None:
            # Made on the running loop: an app started again (a test client entered twice) runs on a new one.
            self._stopping = asyncio.Event()
            self._locks.clear()
            self._poller = asyncio.get_running_loop().create_task(self.poll())

    async def stop_polling(self) -> None:
        """Stop the background look, and wait for the look in hand: it is not cancelled, because a database
        call it waits for goes on in its thread, and the database is closed right after this."""
        if self._poller is not None:
            self._stopping.set()
            await self._poller
            self._poller = None
