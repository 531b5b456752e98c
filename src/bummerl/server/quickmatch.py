"""Quick match: people who wait for the same variant and house rules sit down together at a table the server makes.

A player asks for a variant and a **preset** (:data:`PRESETS`: a few named sets
of the variant's house rules; two waiting players are compatible exactly when
they ask for the same variant and preset) and, at a table of three or four, how
long they will wait before the server's bots fill the seats nobody takes
(``bots_after``: ``None`` never, ``0`` at once, or up to
:attr:`~bummerl.server.config.QuickMatchSettings.max_bot_wait` seconds).  They
get a **ticket**: a secret id (``secrets.token_urlsafe(24)``, 192 bits) that
only they hold, which they poll until it says where they sit.

The :class:`Matchmaker` is the pure part: tickets in memory, queues in the
order people came, and :meth:`Matchmaker.groups`, which says who sits together
now.  It reads the time from the clock it is given, so its tests need no sleep.
The :class:`QuickMatchService` makes the tables of those groups through the
table manager (:meth:`~bummerl.server.manager.TableManager.create_table` with
every other human's seat kept for them, then taken for them with
:meth:`~bummerl.server.manager.TableManager.join`), records each seat for its
player (ratings and statistics), and hands each ticket its seat's token.

Choices, and why:

- **Polling, not a socket.**  A wait lasts seconds to a minute; a poll every
  second is one dictionary look-up, needs no connection slot (which the caps of
  docs/security.md count per client), passes every proxy, and relays as one
  call to the matchmaking process in a cluster.  A ticket that is not polled for
  :attr:`~bummerl.server.config.QuickMatchSettings.ticket_seconds` is dropped:
  a closed tab stops waiting by itself, and nobody is seated who is not there.
- **The server alone decides who sits where and what is dealt.**  A queue is
  first come, first seated; a client names a variant and a preset, never a
  person, a table, a seat or a seed.  The humans of a group are seated in an
  order drawn by :mod:`secrets`, and the table is dealt from a new secret deal
  key (never a practice table).  The lobby's counts name no waiting person.
- **One ticket per player** (a device key of :mod:`bummerl.server.players`:
  making one counts against the ``create`` rate) and at most
  ``max_per_client`` per client key (an address: people behind one router share
  it), ``max_waiting`` in all; a player who asks again while waiting is refused
  (``409 already_waiting``), so two tabs never seat a player against themself.
- **Cluster mode**: the tickets live in one process, the *matchmaker*: the
  live process with the smallest node id.  Every other process relays the
  requests there (:meth:`~bummerl.server.cluster.Cluster.call`), and the tables
  it makes are reached from any process as every table is.  When the
  matchmaker changes (it stopped, or a process with a smaller id started), the
  tickets it held are gone: a poll answers ``404 unknown_ticket`` and the page
  asks again, at the end of the queue.

Nothing here sees a card; the tables do that.
"""

from __future__ import annotations

import asyncio
import collections
import dataclasses
import logging
import math
import secrets
import time
from collections.abc import Callable, Sequence
from typing import Any, Literal

from bummerl.errors import BummerlError
from bummerl.server.config import QuickMatchSettings, ServerConfig
from bummerl.server.database import StorageUnavailable
from bummerl.server.errors import RequestError
from bummerl.server.families import family_of
from bummerl.server.manager import CapacityError, TableManager
from bummerl.server.players import PlayerStore
from bummerl.server.rooms import FRIEND
from bummerl.server.storage import StorageError

__all__ = [
    "BOT_WAITS",
    "PRESETS",
    "Group",
    "Matchmaker",
    "QuickMatchError",
    "QuickMatchService",
    "Seated",
    "Ticket",
    "preset_options",
    "presets_json",
]

log = logging.getLogger("bummerl.server")

#: The named house rules of each variant a quick match offers: a preset's options (those that differ from the
#: variant's defaults).  ``standard`` is every variant's rules as RULES.md states them; ``easy`` ends the game at
#: once for a player who reaches 66, without declaring it (``auto_declare``, the lobby's default for a new
#: player); ``short`` plays a table game to 12 points instead of 24 (about half the time).
PRESETS: dict[str, dict[str, dict[str, Any]]] = {
    "schnapsen": {"standard": {}, "easy": {"auto_declare": True}},
    "schnapsen-scharf": {"standard": {}, "easy": {"auto_declare": True}},
    "sechsundsechzig": {"standard": {}, "easy": {"auto_declare": True}},
    "schnorps": {"standard": {}, "easy": {"auto_declare": True}},
    "dreierschnapsen": {"standard": {}, "short": {"match_target": 12}},
    "bauernschnapsen": {"standard": {}, "short": {"match_target": 12}},
}

#: The waits for bots the lobby offers (seconds; ``None``: never).  The API takes any whole number up to
#: ``max_bot_wait``.
BOT_WAITS: tuple[int | None, ...] = (None, 0, 10, 30, 60)

#: Seconds between two walks over every ticket for those nobody asked for (:meth:`Matchmaker.expire`).
SWEEP_SECONDS = 1.0

#: What a ticket is doing: waiting in its queue, being seated (its table is being made), or seated.
State = Literal["waiting", "seating", "seated"]


class QuickMatchError(RequestError):
    """A quick-match request the server refuses (docs/web.md ``/api/quickmatch``)."""


def preset_options(variant: str, preset: str) -> tuple[str, dict[str, Any], int]:
    """The variant's name, the preset's options and the number of seats; ``422`` for an unknown variant or preset.

    >>> preset_options("66", "easy")
    ('sechsundsechzig', {'auto_declare': True}, 2)
    >>> preset_options("bauern", "short")
    ('bauernschnapsen', {'match_target': 12}, 4)
    >>> preset_options("schnapsen", "short")
    Traceback (most recent call last):
    ...
    bummerl.server.quickmatch.QuickMatchError: Schnapsen (weich) has no preset 'short': standard, easy
    """
    try:
        family, v = family_of(variant)
    except BummerlError as exc:
        raise QuickMatchError("bad_variant", str(exc), status=422) from None
    presets = PRESETS.get(v.name)
    if presets is None:  # a variant added later without presets: refused until it has some
        raise QuickMatchError("bad_variant", f"{v.title} has no quick match", status=422)
    if preset not in presets:
        raise QuickMatchError(
            "bad_preset", f"{v.title} has no preset {preset[:40]!r}: {', '.join(presets)}", status=422
        )
    return v.name, dict(presets[preset]), family.seat_count(v)


def presets_json() -> list[dict[str, Any]]:
    """Every variant's presets with their options, in :data:`PRESETS`'s order (``GET /api/quickmatch``)."""
    out = []
    for variant, presets in PRESETS.items():
        _, _, seats = preset_options(variant, "standard")
        out.append(
            {
                "variant": variant,
                "seats": seats,
                "presets": [{"name": name, "options": options} for name, options in presets.items()],
            }
        )
    return out


@dataclasses.dataclass(frozen=True)
class Seated:
    """Where a ticket's player sits: what ``POST /api/tables`` answers a table's creator."""

    table_id: str
    kind: str
    seat: int
    token: str
    move_seconds: int | None

    def to_json(self) -> dict[str, Any]:
        return {
            "table_id": self.table_id,
            "kind": self.kind,
            "seat": self.seat,
            "token": self.token,
            "ws_url": f"/ws/tables/{self.table_id}",
            "move_seconds": self.move_seconds,
        }


@dataclasses.dataclass
class Ticket:
    """One waiting player.  ``id`` is the secret the player polls with; ``player`` their player id."""

    id: str
    variant: str
    preset: str
    seats: int
    name: str
    player: str
    client: str
    bots_after: int | None
    entered: float
    seen: float
    state: State = "waiting"
    seated: Seated | None = None

    @property
    def queue(self) -> tuple[str, str]:
        return (self.variant, self.preset)

    def to_json(self, now: float) -> dict[str, Any]:
        """What the ticket's holder is told (``GET /api/quickmatch/{ticket}``)."""
        return {
            "ticket": self.id,
            "state": "seated" if self.state == "seated" else "waiting",
            "variant": self.variant,
            "preset": self.preset,
            "seats": self.seats,
            "bots_after": self.bots_after,
            "waited": round(now - self.entered, 1),
            "table": self.seated.to_json() if self.seated is not None else None,
        }


@dataclasses.dataclass(frozen=True)
class Group:
    """Tickets of one queue to seat together now, and how many bots fill the other seats."""

    variant: str
    preset: str
    tickets: tuple[Ticket, ...]
    bots: int


class Matchmaker:
    """The tickets of one process and who sits together (pure: the time comes from ``clock``).

    >>> now = [100.0]
    >>> mm = Matchmaker(QuickMatchSettings(), clock=lambda: now[0])
    >>> anna = mm.enter("schnapsen", "standard", "Anna", "p-anna", "203.0.113.7", None)
    >>> mm.groups(), mm.waiting()
    ([], 1)
    >>> bert = mm.enter("schnapsen", "standard", "Bert", "p-bert", "198.51.100.2", None)
    >>> [[t.name for t in g.tickets] for g in mm.groups()], anna.state
    ([['Anna', 'Bert']], 'seating')
    """

    def __init__(
        self,
        settings: QuickMatchSettings,
        clock: Callable[[], float] = time.monotonic,
        new_id: Callable[[], str] = lambda: secrets.token_urlsafe(24),
    ) -> None:
        self.settings = settings
        self.clock = clock
        self._new_id = new_id
        #: Every ticket by id, in the order they came (dicts keep it): a queue is first come, first seated.
        self.tickets: dict[str, Ticket] = {}
        # Kept as tickets come and go, so that a poll costs no walk over every ticket (measured in docs/web.md):
        # the tickets not seated yet by player (one each), and how many of them each client key holds.
        self._open: dict[str, Ticket] = {}
        self._clients: collections.Counter[str] = collections.Counter()
        #: Whether a queue changed since :meth:`groups` last looked, and when a wait for bots it saw runs out.
        self._changed = False
        self._due = math.inf
        #: When :meth:`expire` last walked the tickets (at most once a :data:`SWEEP_SECONDS`).
        self._swept = -math.inf
        #: When each player, and each client key, last failed to come to a table it was seated at (no-shows).
        self._no_shows: dict[str, list[float]] = {}

    # ------------------------------------------------------------------ a player's requests
    def enter(self, variant: str, preset: str, name: str, player: str, client: str, bots_after: int | None) -> Ticket:
        """A new waiting ticket; :class:`QuickMatchError` for a variant, preset or wait that does not fit, a
        player who waits already (409), a client or server at its cap (429, 503)."""
        variant, _, seats = preset_options(variant, preset)
        if bots_after is not None:
            if seats == 2:
                raise QuickMatchError(
                    "bad_wait",
                    "bots fill the seats of a table of three or four; a two-player game waits for a person",
                    status=422,
                )
            if not 0 <= bots_after <= self.settings.max_bot_wait:
                raise QuickMatchError(
                    "bad_wait", f"bots_after is 0 to {self.settings.max_bot_wait} seconds, or null (never)", status=422
                )
        self.expire()
        self._check_bar(player, client)
        if player in self._open:
            raise QuickMatchError(
                "already_waiting",
                "you are waiting for a quick match already (in another tab?); cancel it there, or wait "
                f"{self.settings.ticket_seconds:.0f} s after that tab is closed",
                status=409,
            )
        mine = self._clients[client]
        if mine >= self.settings.max_per_client:
            raise QuickMatchError(
                "too_many_tickets",
                f"{mine} players of your address are waiting already; at most {self.settings.max_per_client}",
                status=429,
            )
        if self.waiting() >= self.settings.max_waiting:
            raise QuickMatchError(
                "queue_full",
                "too many people are waiting for a quick match right now; try again in a minute",
                status=503,
            )
        now = self.clock()
        ticket = Ticket(self._new_id(), variant, preset, seats, name, player, client, bots_after, now, now)
        self.tickets[ticket.id] = ticket
        self._open[player] = ticket
        self._clients[client] += 1
        self._changed = True
        return ticket

    def find(self, ticket_id: str) -> Ticket:
        """The ticket, seen now (a waiting one lives on; a seated one lives ``ticket_seconds`` from its seating
        however often it is asked for: its holder has been told); ``404 unknown_ticket`` for one that is not
        (any more) here."""
        self.expire()
        ticket = self.tickets.get(ticket_id)
        if ticket is not None and self._stale(ticket, self.clock()):
            self._drop(ticket)  # its own time ran out since the last walk over all of them
            ticket = None
        if ticket is None:
            raise QuickMatchError(
                "unknown_ticket",
                "no such quick-match ticket: it was cancelled, or not asked for within "
                f"{self.settings.ticket_seconds:.0f} s; ask again",
                status=404,
            )
        if ticket.state != "seated":
            ticket.seen = self.clock()
        return ticket

    def cancel(self, ticket_id: str) -> Ticket:
        """Stop waiting; ``409 seated`` once the ticket has its table (the table goes on: leave it there)."""
        ticket = self.find(ticket_id)
        if ticket.state != "waiting":
            raise QuickMatchError("seated", "you have a seat already: the table is being made or is ready", status=409)
        self._drop(ticket)
        return ticket

    # ------------------------------------------------------------------ no-shows
    def no_show(self, player: str, client: str) -> None:
        """``player`` (at ``client``) was seated and did not come to the table: for ``bar_seconds`` they may not
        ask again, and their address not after ``no_shows_per_client`` such no-shows."""
        now = self.clock()
        for key in (f"player:{player}", f"client:{client}"):
            self._no_shows.setdefault(key, []).append(now)

    def _recent(self, key: str, now: float) -> list[float]:
        """The no-shows of ``key`` within ``bar_seconds`` (older ones forgotten)."""
        found = [t for t in self._no_shows.get(key, ()) if t > now - self.settings.bar_seconds]
        if found:
            self._no_shows[key] = found
        else:
            self._no_shows.pop(key, None)
        return found

    def _check_bar(self, player: str, client: str) -> None:
        """``429 no_show`` for a player who did not come to their last table, or an address that did so too often."""
        now = self.clock()
        mine = self._recent(f"player:{player}", now)
        address = self._recent(f"client:{client}", now)
        n = self.settings.no_shows_per_client
        until = max(
            mine[-1] + self.settings.bar_seconds if mine else -math.inf,
            address[-n] + self.settings.bar_seconds if len(address) >= n else -math.inf,
        )
        if until <= now:
            return
        wait = max(1, math.ceil(until - now))
        raise QuickMatchError(
            "no_show",
            "you (or people of your address) did not come to a quick-match table you were seated at; "
            f"you may ask again in {wait} s",
            status=429,
        )

    # ------------------------------------------------------------------ the server's side
    def _stale(self, ticket: Ticket, now: float) -> bool:
        """Whether ``ticket`` was not seen for ``ticket_seconds`` (one being seated stays until its table is made)."""
        return ticket.seen < now - self.settings.ticket_seconds and ticket.state != "seating"

    def _drop(self, ticket: Ticket) -> None:
        """Forget ``ticket``."""
        del self.tickets[ticket.id]
        if ticket.state != "seated":
            self._close(ticket)
            self._changed = True

    def _close(self, ticket: Ticket) -> None:
        """``ticket`` no longer waits: its player may ask again, its client holds one ticket fewer."""
        if self._open.get(ticket.player) is ticket:
            del self._open[ticket.player]
            self._clients[ticket.client] -= 1
            if not self._clients[ticket.client]:
                del self._clients[ticket.client]

    def expire(self) -> list[Ticket]:
        """Drop the tickets not seen for ``ticket_seconds`` (a seated ticket too: its holder has its table or
        has gone); those dropped.  It walks the tickets at most once a :data:`SWEEP_SECONDS` (a polled ticket's
        own time is checked when it is asked for: :meth:`find`)."""
        now = self.clock()
        if now - self._swept < SWEEP_SECONDS:
            return []
        self._swept = now
        gone = [t for t in self.tickets.values() if self._stale(t, now)]
        for t in gone:
            self._drop(t)
        for key in [k for k, times in self._no_shows.items() if times[-1] <= now - self.settings.bar_seconds]:
            del self._no_shows[key]  # the bar is over: forgotten
        return gone

    def groups(self) -> list[Group]:
        """Who sits together now; their tickets are marked ``seating`` (:meth:`seated` or :meth:`unseat` next).

        In each queue the first ``seats`` waiting people sit together, and again while enough wait.  At a table
        of three or four, the people left over (fewer than its seats) who accept bots sit down with bots once
        the first of them to come has waited the time they chose; those who never want bots wait on.
        """
        self.expire()
        now = self.clock()
        if not self._changed and now < self._due:
            return []  # nobody came or went, and no wait for bots ran out: nothing new to seat
        self._changed, self._due = False, math.inf
        queues: dict[tuple[str, str], list[Ticket]] = {}
        for t in self.tickets.values():
            if t.state == "waiting" and not self._stale(t, now):  # gone since the last walk: never seated
                queues.setdefault(t.queue, []).append(t)
        found: list[Group] = []
        for (variant, preset), waiting in queues.items():
            seats = waiting[0].seats
            while len(waiting) >= seats:
                found.append(Group(variant, preset, tuple(waiting[:seats]), 0))
                waiting = waiting[seats:]
            with_bots = [t for t in waiting if t.bots_after is not None]
            if with_bots:
                due = with_bots[0].entered + (with_bots[0].bots_after or 0)
                if due <= now:
                    found.append(Group(variant, preset, tuple(with_bots), seats - len(with_bots)))
                else:
                    self._due = min(self._due, due)
        for g in found:
            for t in g.tickets:
                t.state = "seating"
        return found

    def seated(self, ticket: Ticket, seat: Seated) -> None:
        """``ticket``'s player sits at ``seat``; the ticket lives on until its holder has been told (or leaves)."""
        self._close(ticket)
        ticket.state = "seated"
        ticket.seated = seat
        ticket.seen = self.clock()

    def unseat(self, tickets: Sequence[Ticket]) -> None:
        """The table of these tickets could not be made: they wait again, in their old places."""
        for t in tickets:
            if t.id in self.tickets and t.state == "seating":
                t.state = "waiting"
                self._changed = True

    def waiting(self) -> int:
        """The people waiting now (not yet seated)."""
        return len(self._open)

    def queues(self) -> list[dict[str, Any]]:
        """The queues with somebody waiting, longest wait first, without a name (``GET /api/lobby/counts``)."""
        now = self.clock()
        found: dict[tuple[str, str], dict[str, Any]] = {}
        for t in self.tickets.values():
            if t.state == "seated":
                continue
            q = found.setdefault(
                t.queue,
                {"variant": t.variant, "preset": t.preset, "seats": t.seats, "waiting": 0, "longest": 0.0},
            )
            q["waiting"] += 1
            q["longest"] = max(q["longest"], round(now - t.entered, 1))
        return sorted(found.values(), key=lambda q: -q["longest"])


def shuffled(items: Sequence[Ticket]) -> list[Ticket]:
    """``items`` in an order drawn by :mod:`secrets`: who gets which seat is nobody's choice."""
    order = list(items)
    secrets.SystemRandom().shuffle(order)
    return order


class QuickMatchService:
    """Quick match of one app: the matchmaker, and the tables it makes through the table manager.

    Every request goes through :meth:`call`, which answers it here or, in
    cluster mode, asks the matchmaking process (the live one with the smallest
    node id) through the manager's relay.
    """

    def __init__(
        self,
        manager: TableManager,
        players: PlayerStore,
        config: ServerConfig,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.manager = manager
        self.players = players
        self.config = config
        self.settings = config.quickmatch
        self.clock = clock
        self.matchmaker = Matchmaker(self.settings, clock)
        #: No table is made before this instant after one could not be made (a full server, a busy database):
        #: every poll would try again at once.
        self._pause_until = 0.0
        self._counts: tuple[float, dict[str, Any]] | None = None
        manager.answers[RELAY] = self._answer
        manager.answers[PLAYING] = self._playing_answer

    # ------------------------------------------------------------------ the requests of the API
    async def enter(
        self, variant: str, preset: str, name: str, player: str, client: str, bots_after: int | None
    ) -> dict[str, Any]:
        """A new ticket, already seated if the others were waiting (``POST /api/quickmatch``)."""
        return await self.call(
            "enter", variant=variant, preset=preset, name=name, player=player, client=client, bots_after=bots_after
        )

    async def poll(self, ticket_id: str) -> dict[str, Any]:
        """The ticket as it stands, seated now if its group is complete (``GET /api/quickmatch/{ticket}``)."""
        return await self.call("poll", ticket=ticket_id)

    async def cancel(self, ticket_id: str) -> dict[str, Any]:
        """Stop waiting (``DELETE /api/quickmatch/{ticket}``)."""
        return await self.call("cancel", ticket=ticket_id)

    async def counts(self) -> dict[str, Any]:
        """How many people play and wait, kept for ``counts_seconds`` (``GET /api/lobby/counts``)."""
        now = self.clock()
        if self._counts is not None and now - self._counts[0] < self.settings.counts_seconds:
            return self._counts[1]
        playing, tables = self.playing_here()
        cluster = self.manager.cluster
        if cluster is not None:
            for part in await cluster.gather(PLAYING):
                playing += int(part[0])
                tables += int(part[1])
        waiting = await self.call("waiting")
        value = {"playing": playing, "tables": tables, "waiting": waiting["waiting"], "queues": waiting["queues"]}
        self._counts = (now, value)
        return value

    def playing_here(self) -> tuple[int, int]:
        """The people seated and connected at this process's tables, and the tables where somebody is."""
        people = tables = 0
        for room in self.manager.live():
            here = sum(1 for p in room.players() if p["kind"] == "human" and p["joined"] and p["connected"])
            people += here
            tables += 1 if here else 0
        return people, tables

    # ------------------------------------------------------------------ here or at the matchmaker
    def _matchmaker_node(self) -> str | None:
        """The process that holds the tickets, ``None`` for this one."""
        cluster = self.manager.cluster
        if cluster is None:
            return None
        leader = min(cluster.nodes | {cluster.node})
        return None if leader == cluster.node else leader

    async def call(self, op: str, **args: Any) -> dict[str, Any]:
        """``op`` answered by the matchmaking process; :class:`QuickMatchError` as it refused it."""
        node = self._matchmaker_node()
        if node is None:
            return await self._do(op, args)
        assert self.manager.cluster is not None
        answer = await self.manager.cluster.call(node, RELAY, op=op, args=args)
        if "v" in answer:
            found: dict[str, Any] = answer["v"]
            return found
        if answer.get("e") == "refused":
            raise QuickMatchError(str(answer["c"]), str(answer["m"]), status=int(answer["s"]))
        raise StorageUnavailable("the matchmaking process did not answer; try again")

    async def _answer(self, args: dict[str, Any]) -> dict[str, Any]:
        """Another process's relayed request (:meth:`~bummerl.server.manager.TableManager.answer`)."""
        try:
            return {"v": await self._do(str(args.get("op")), dict(args.get("args") or {}))}
        except QuickMatchError as exc:
            return {"e": "refused", "c": exc.code, "m": exc.message, "s": exc.status}

    async def _playing_answer(self, _args: dict[str, Any]) -> dict[str, Any]:
        return {"v": list(self.playing_here())}

    async def _do(self, op: str, args: dict[str, Any]) -> dict[str, Any]:
        mm = self.matchmaker
        if op == "enter":
            # Every table a ticket is seated at counts for its client and its player (docs/security.md, "Quick
            # match"): one at its cap of tables in memory gets no ticket, as it would get no table of its own.
            for key in (str(args["client"]), f"player:{args['player']}"):
                try:
                    self.manager.check_tables_of(key)
                except CapacityError as exc:
                    raise QuickMatchError(exc.code, exc.message, status=exc.status) from None
            ticket = mm.enter(
                str(args["variant"]),
                str(args["preset"]),
                str(args["name"]),
                str(args["player"]),
                str(args["client"]),
                None if args.get("bots_after") is None else int(args["bots_after"]),
            )
            await self.seat_ready()
            return ticket.to_json(self.clock())
        if op == "poll":
            ticket = mm.find(str(args["ticket"]))
            await self.seat_ready()
            return ticket.to_json(self.clock())
        if op == "cancel":
            ticket = mm.cancel(str(args["ticket"]))
            return {"ticket": ticket.id, "state": "cancelled"}
        if op == "waiting":
            mm.expire()
            return {"waiting": mm.waiting(), "queues": mm.queues()}
        raise QuickMatchError("unknown_call", f"no quick-match call {op[:20]!r}", status=400)

    def check_shown(self, table_id: str, places: Sequence[tuple[Ticket, int]], deadline: float) -> None:
        """Look every :data:`SHOWN_EVERY` seconds until ``deadline`` (the loop's time) which of ``places`` has had a
        connection at table ``table_id``; count a no-show for each that had none (:meth:`Matchmaker.no_show`).
        Once connected is enough (a dropped connection later is the clock's business).  A table no longer here
        (let go, taken by another process) counts nobody."""
        room = self.manager.tables.get(table_id)
        if room is None:
            return
        here = {p["seat"] for p in room.players() if p["connected"]}
        waiting = [(ticket, seat) for ticket, seat in places if seat not in here]
        if not waiting:
            return
        loop = asyncio.get_running_loop()
        if loop.time() < deadline:
            loop.call_later(
                min(SHOWN_EVERY, max(0.0, deadline - loop.time())), self.check_shown, table_id, waiting, deadline
            )
            return
        for ticket, seat in waiting:
            log.info("quick match: seat %d of %s was not taken up in time (a no-show)", seat, table_id)
            self.matchmaker.no_show(ticket.player, ticket.client)

    # ------------------------------------------------------------------ seating
    async def seat_ready(self) -> None:
        """Make the table of every group that is complete now (or waited long enough for bots)."""
        if self.clock() < self._pause_until:
            return
        for group in self.matchmaker.groups():
            await self._seat(group)

    async def _seat(self, group: Group) -> None:
        """One group's table: the first human (in a drawn order) makes it, the others take their kept seats."""
        humans = shuffled(group.tickets)
        variant, options, _ = preset_options(group.variant, group.preset)
        family, v = family_of(variant, options)
        others = [FRIEND] * (len(humans) - 1) + [family.default_bot(self.config)] * group.bots
        clock = self.settings.move_seconds or None
        done: list[Ticket] = []
        try:
            # Rated: the server paired these people (bummerl.server.people_ratings; a game with a bot seat
            # changes no rating all the same).
            room, token, codes = await self.manager.create_table(
                v.name, options, humans[0].name, seats=others, move_seconds=clock, rated=True
            )
            # The table counts for every person seated at it, by address and by player (max_tables_per_client).
            room.holders = frozenset(k for t in humans for k in (t.client, f"player:{t.player}"))
            places = [(humans[0], 0, token)]
            self.matchmaker.seated(humans[0], Seated(room.id, room.kind, 0, token, clock))
            done.append(humans[0])
            for ticket, (seat, code) in zip(humans[1:], sorted(codes.items()), strict=True):
                joined = await self.manager.join(code, ticket.name)
                places.append((ticket, seat, joined.token))
                self.matchmaker.seated(ticket, Seated(room.id, room.kind, seat, joined.token, clock))
                done.append(ticket)
        except (RequestError, StorageError, BummerlError) as exc:
            # A full server, a busy database: the people wait on in their places and the next poll after a pause
            # tries again.  A seat already given stays given (its player goes to that table, which then waits
            # for the seat whose taking failed, as a friend table waits for its guest: rare, and logged).
            log.warning("quick match: a table of %s could not be made: %s", group.variant, exc)
            self.matchmaker.unseat([t for t in group.tickets if t not in done])
            self._pause_until = self.clock() + PAUSE_SECONDS
            return
        except BaseException:
            # Anything else (a cancelled request, a fault): nobody stays "being seated" for ever, which would
            # keep them from asking again and outlive every expiry.
            self.matchmaker.unseat([t for t in group.tickets if t not in done])
            raise
        # Whoever has not opened their table within no_show_seconds is a no-show (the others wait for them at it).
        loop = asyncio.get_running_loop()
        self.check_shown(room.id, [(t, seat) for t, seat, _ in places], loop.time() + self.settings.no_show_seconds)
        for ticket, seat, _ in places:
            try:
                await self.manager.db.run(self.players.claim_seat, ticket.player, room.id, seat)
            except StorageError as exc:  # the page records the seat itself when it opens it (profile.js)
                log.warning("quick match: seat %d of %s not recorded for its player: %s", seat, room.id, exc)


#: The names of the manager's relayed calls (cluster mode).
RELAY = "quickmatch"
PLAYING = "quickmatch_playing"
#: Seconds no table is made after one could not be.
PAUSE_SECONDS = 3.0
#: Seconds between two looks whether the people seated at a new table have come (:meth:`QuickMatchService.check_shown`).
SHOWN_EVERY = 2.0
