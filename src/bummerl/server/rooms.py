"""A live table in memory, of any variant: one :class:`Room`, the parts it is composed with, and every change's steps.

A :class:`Room` is one table of any of the six variants: its seats (who sits
where, invited friends, bots), its connected clients (seats and spectators),
its lock, its log of events, its summaries, and the matches played at it, each a
:class:`bummerl.series.Series` (a Bummerl, a Schnorps round of three or four,
a table game's match to 24).  Every change goes the same way, under the lock:

1. check the request (:meth:`Room.check_action`: whose turn, is it legal);
2. **store it** (an action row, a new deal) through the database threads;
3. change the engine's state (:meth:`Room.play`, :meth:`Deal.install`);
4. send every client its own ``state`` message (:meth:`Room.broadcast`).

A refused request, or one the database refused, changes nothing.  The room
talks to the game through :class:`bummerl.game.Game` and to the match through
:class:`~bummerl.series.Series`, the same way for every variant: a game's seats
are the series' seats that :meth:`~bummerl.series.Series.players_of` names (at a
Schnorps round two participants play each game, the others wait).  What the
families tell apart (the ``match`` and ``game_over`` fields, the view's JSON,
the record's tags, how a table's later matches are seeded) is a
:class:`Family` the room is composed with (:mod:`bummerl.server.families`).

**Services are handed in** (:class:`RoomServices`): the database threads, the
repository, the bot scheduler, the hints, the results still to store, the
message tap.  A room never reaches back into the table manager that holds it.

What a client learns about the cards comes only from the family's view JSON
(one seat's view, or a spectator's copy without any hand), from the events,
and, once a game is over, from its record.  The events are the engine's own
(:meth:`bummerl.game.Game.apply` returns them), kept in one log that every
connection reads: so they are kept in the form a spectator may see
(:func:`public_events`), which names no card drawn from the talon, laid away or
taken up face down.

This module never imports the table manager, the cluster relay or the routes.
"""

from __future__ import annotations

import abc
import asyncio
import copy
import dataclasses
import logging
import time
from collections.abc import Callable, Iterable
from typing import Any

from bummerl.actions import Action
from bummerl.bots import bot_info, bot_names, bot_titles
from bummerl.cards import Suit, marriage_value, parse_cards
from bummerl.errors import BummerlError, IllegalActionError
from bummerl.events import Event, GameEnd, events_json
from bummerl.game import Game
from bummerl.record import GameRecord
from bummerl.rng import derive_seed, key_commitment
from bummerl.series import Series, bot_view
from bummerl.server.catalog import options_json
from bummerl.server.clock import STAND_IN_BOT, ClockRules, MoveClock, Timers, loop_timers
from bummerl.server.config import ServerConfig
from bummerl.server.connections import Connection
from bummerl.server.database import Database
from bummerl.server.errors import RequestError
from bummerl.server.hints import HintService, RoomHints, state_fields
from bummerl.server.messages import (
    ActionMessage,
    ClientError,
    HelloMessage,
    HintMessage,
    HintsVoteMessage,
    NextGameMessage,
    PhraseMessage,
    PingMessage,
    ReviewMessage,
    error_message,
    parse_client_message,
)
from bummerl.server.phrases import BURST, EVERY, PhraseBucket, catalog, check_phrase, phrase_message
from bummerl.server.results import FinishedGame, ResultStore
from bummerl.server.scheduler import BotRequest, BotScheduler
from bummerl.server.sheet import sheet_json
from bummerl.server.storage import (
    MATCH_OUTCOME,
    Lease,
    NotOwnerError,
    Repository,
    SeatData,
    StorageError,
    TableData,
)
from bummerl.variants import VARIANTS, Variant, find_variant

__all__ = [
    "BOT_SEED",
    "FRIEND",
    "LISTED_AFTER_GAME",
    "Deal",
    "Family",
    "GameInfo",
    "MessageTap",
    "Room",
    "RoomServices",
    "TableError",
    "disconnect_client",
    "greet",
    "handle_client_text",
    "invitations",
    "marriage_values",
    "match_outcome",
    "public_events",
    "say_phrase",
    "welcome_message",
]

log = logging.getLogger("bummerl.server")

#: The kind of a seat kept for an invited friend, and what a request names such a seat.
FRIEND = "friend"
#: Path element of :func:`~bummerl.rng.derive_seed` for a bot's decisions ("BOT" in ASCII).
BOT_SEED = 0x424F54
#: Seconds a table stays in the list of tables to watch after the last move of a game that is over.
LISTED_AFTER_GAME = 300.0


def public_events(events: Iterable[Event]) -> list[dict[str, Any]]:
    """The engine's ``events`` as a room's shared log holds them: as a spectator sees them.

    A card drawn from the talon, laid away or taken up is ``null`` (the seat that
    got it sees it in its view).  The game's end is left out: the room tells it
    itself, with the match standing (``game_end``, docs/web.md).

    >>> from bummerl.game import Game
    >>> game = Game.deal("schnapsen", seed=3)
    >>> _ = game.apply(game.legal_actions()[0])
    >>> [(e["type"], e.get("card")) for e in public_events(game.apply("Tc"))]
    [('play', 'Tc'), ('trick', None), ('draw', None), ('draw', None)]
    """
    return events_json([e for e in events if not isinstance(e, GameEnd)], None)


def marriage_values(trump: Suit | None) -> dict[str, int]:
    """What a marriage in each suit counts now, by suit letter; empty while no trump is known.

    The client names a marriage's value from this map and never restates the rule
    (:func:`bummerl.cards.marriage_value`).

    >>> marriage_values(Suit.HEARTS)
    {'h': 40, 'd': 20, 'c': 20, 's': 20}
    """
    return {} if trump is None else dict(_MARRIAGE_VALUES[trump])


#: :func:`marriage_values` of each trump, made once (every ``state`` carries them).
_MARRIAGE_VALUES = {trump: {s.letter: marriage_value(s, trump) for s in Suit} for trump in Suit}


def match_outcome(match: dict[str, Any]) -> dict[str, Any]:
    """The verdict of a match as its ``match`` JSON (:meth:`Room.match_json`) says it: whether it is over, who won
    it (``winners``: seats, or teams at Bauernschnapsen) and whether it was Schneider.

    >>> match_outcome({"match_no": 2, "over": True, "winner": 1, "schneider": False, "standing": [3, 0]})
    {'match_no': 2, 'over': True, 'winners': [1], 'schneider': False, 'winner': 1}
    """
    winners = match.get("winners")
    if winners is None:
        winner = match.get("winner")
        winners = [] if winner is None else [winner]
    out: dict[str, Any] = {
        "match_no": match.get("match_no"),
        "over": bool(match.get("over")),
        "winners": list(winners),
        "schneider": bool(match.get("schneider")),
    }
    if "winner" in match:
        out["winner"] = match["winner"]
    return out


def invitations(seats: Iterable[SeatData]) -> dict[int, str]:
    """The join codes of the seats kept for friends who have not come yet, by seat.

    >>> invitations([SeatData(0, "human", None, "Anna", True, None), SeatData(1, FRIEND, None, None, False, "c0de")])
    {1: 'c0de'}
    """
    return {s.seat: s.join_code for s in seats if s.kind == FRIEND and not s.taken and s.join_code}


class TableError(RequestError):
    """A request that the table refuses: ``code`` is an error code of docs/web.md, ``rule`` the rule it breaks."""


#: ``tap(room, seat, message)`` sees every message sent to a client (``seat`` ``None``: a spectator) at the
#: moment it is built; tests scan them for secrets.
MessageTap = Callable[["Room", int | None, dict[str, Any]], None]


@dataclasses.dataclass(frozen=True)
class RoomServices:
    """What a room is handed by whoever holds it: the services it uses, never the holder itself."""

    config: ServerConfig
    repo: Repository
    #: The database threads (no database call runs on the event loop).
    db: Database
    #: Where bots decide (worker processes or threads, fairly between tables).
    bots: BotScheduler
    hints: HintService
    #: The results of finished games, written in the background.
    results: ResultStore
    tap: MessageTap | None = None
    #: Told a table's id when the database refused a write because another process took the table (cluster).
    lost: Callable[[str], None] = lambda _table_id: None
    #: The move clock's time and timers (:mod:`bummerl.server.clock`): tests hand in their own.
    clock_now: Callable[[], float] = time.monotonic
    timers: Timers = loop_timers


@dataclasses.dataclass(frozen=True)
class Deal:
    """A next deal, made without changing the room: stored first, then :attr:`install`-ed with its game id."""

    match_no: int
    game_no: int
    dealer: int
    deck: str
    seed: int | None
    install: Callable[[int], None]


@dataclasses.dataclass
class GameInfo:
    """The game on a table: its row in the database, which match and game it is (from 0), its end once over."""

    game_id: int
    match_no: int
    game_no: int
    game_over: dict[str, Any] | None = None


@dataclasses.dataclass(frozen=True)
class BotTurn:
    """A bot's turn: ``request`` for the scheduler, ``position`` to tell whether the table moved on meanwhile."""

    seat: int
    request: BotRequest
    position: tuple[int, int]
    #: ``"timeout"``: the stand-in moves for a human seat whose time ran out (:mod:`bummerl.server.clock`);
    #: ``"taken_over"``: for a seat it took over; ``None``: the seat's own bot.
    stand_in: str | None = None


class Family(abc.ABC):
    """What the tables of one family of variants do their own way: a part a :class:`Room` is composed with.

    One instance per family (:mod:`bummerl.server.families`: two-player tables,
    table games, Schnorps rounds of three or four).  The class-level questions
    (which variants, how many seats, which bots, the match length) are asked
    before a table exists; the others get the room.
    """

    #: ``"two_player"``, ``"table_game"`` or ``"schnorps_round"``: the ``kind`` of every message and summary.
    kind: str
    #: Whether a table of an older server (without a deal key) gets a new key when it is loaded: only where
    #: the replay deals each stored pack again, so that the games dealt from the old seed still replay.
    takes_new_deal_key = False
    #: Whether ``state`` names the connection's seat in the game (``game_seat``): where some seats wait.
    tells_game_seat = False

    # ------------------------------------------------------------ before a table exists
    @abc.abstractmethod
    def plays(self, variant: Variant, seats: int | None = None) -> bool:
        """Whether this family's tables play ``variant`` (at ``seats`` seats, if given)."""

    def variants(self) -> list[Variant]:
        """The variants this family lists in the lobby, in the order of :data:`bummerl.variants.VARIANTS`."""
        return [v for v in VARIANTS if self.plays(v)]

    def seat_count(self, variant: Variant, seats: int | None = None) -> int:
        """How many seats a table of ``variant`` has (``seats``: as many as a request names, where that varies)."""
        return variant.players

    def check_bot(self, name: str, variant: Variant) -> str:
        """The canonical name of the registered bot ``name`` that plays ``variant``; :class:`BummerlError`
        (naming the bots that do) for another name.  Never a ``cmd:`` program: the name comes from the network."""
        return bot_info(name, variant).name

    @abc.abstractmethod
    def default_bot(self, config: ServerConfig) -> str:
        """The bot of a seat that a request leaves to the server."""

    @abc.abstractmethod
    def match_target(self, variant: Variant, target: int | None) -> int:
        """The match's target for a request's ``target`` (``None``: the default); :class:`BummerlError` if
        this family sets it otherwise."""

    def variant_extra(self, variant: Variant) -> dict[str, Any]:
        """Fields of ``GET /api/variants`` that only this family has."""
        return {}

    def variant_json(self, variant: Variant, config: ServerConfig) -> dict[str, Any]:
        """One entry of ``GET /api/variants``: the variant, its seats, options and bots."""
        players = self.seat_count(variant)
        return {
            "name": variant.name,
            "title": variant.title,
            "aliases": list(variant.aliases),
            "kind": self.kind,
            "players": players,
            "teams": bool(variant.teams),
            "deck_size": variant.deck_size,
            "hand_size": variant.hand_size,
            "target": self.match_target(variant, None),
            "options": options_json(variant),
            "bots": bot_names(variant),
            # The one display name of each bot, in German and English (the page shows no other).
            "bot_titles": {name: bot_titles(name) for name in bot_names(variant)},
            "default_bot": self.default_bot(config),
            **self.variant_extra(variant),
        }

    # ------------------------------------------------------------ stored games
    @abc.abstractmethod
    def read_record(self, text: str) -> GameRecord:
        """A stored game record of this family (text format): a two-player game is stored as a one-game match
        record (:func:`~bummerl.server.workers.read_game_record` takes its game), a table game as a game record."""

    def record_json(self, text: str) -> str:
        """A stored game record in the JSON format."""
        return self.read_record(text).dumps("json")

    def finished_details(self, game_id: int, record: str) -> dict[str, Any]:
        """What ``GET /api/games/{id}`` adds for a finished game of this family, besides its record."""
        return {"analysis_url": f"/api/games/{game_id}/analysis"}

    @abc.abstractmethod
    def replay_board(self, game: Game) -> dict[str, Any]:
        """The board of one replay step of a finished ``game``, besides every hand and the events: what a
        spectator of the live table saw at that point, in the same words (docs/web.md, "Replay")."""

    # ------------------------------------------------------------ a live table
    @abc.abstractmethod
    def new_series(self, data: TableData, variant: Variant, k: int, previous: Series | None) -> Series:
        """The table's match ``k`` (from 0) after ``previous``: dealt from the table's seed or secret key."""

    @abc.abstractmethod
    def match_json(self, room: Room) -> dict[str, Any]:
        """The match standing, the ``match`` field of ``state`` and of the summary."""

    @abc.abstractmethod
    def view_json(self, view: Any, spectator: bool, legal: list[str]) -> dict[str, Any]:
        """A seat's view (of the game on the table) as JSON for a seat that may send ``legal``, or a spectator."""

    def start_fields(self, room: Room) -> dict[str, Any]:
        """What ``game_start`` tells of the game on the table besides its numbers: who dealt."""
        return {"dealer": room.game.dealer}

    @abc.abstractmethod
    def finish(self, room: Room) -> tuple[FinishedGame, dict[str, Any], dict[str, Any]]:
        """The game on the table, just scored in its series: what to store, its result as the live table tells
        it (``game_end``), and what ``match_end`` adds once the series is over.  Sets the room's ``game_over``."""

    @abc.abstractmethod
    def restore_game_over(self, room: Room, record: str) -> None:
        """After a reload: the ``game_over`` of the last game, finished as its stored ``record`` says."""

    def bot_seed(self, room: Room) -> int:
        """The seed of the bot's decision now."""
        info = room.info
        assert info is not None
        return derive_seed(room.data.seed, BOT_SEED, info.match_no, info.game_no, room.ply)


class Room:
    """One table in memory, of any variant; change it only under :attr:`lock`, through :meth:`apply` and
    :meth:`deal_next`.

    ``family`` is what the table's family does its own way (:class:`Family`);
    ``services`` what the room uses (:class:`RoomServices`).
    """

    def __init__(self, data: TableData, family: Family, services: RoomServices) -> None:
        self.id = data.id
        self.data = data
        self.family = family
        self.services = services
        self.variant: Variant = find_variant(data.variant, **data.options)
        #: In seat order; seat 0 is the creator's.
        self.seats: list[SeatData] = list(data.seats)
        if not family.plays(self.variant, len(self.seats)):
            raise StorageError(f"table {data.id}: {self.variant.title} is not played at {len(self.seats)} seats")
        #: Every match played at the table, the running one last.
        self.matches: list[Series] = []
        #: The game on the table (``None`` before the first deal).
        self.info: GameInfo | None = None
        self.lock = asyncio.Lock()
        self.connections: set[Connection] = set()
        #: The events of the game on the table (from its deal on); each connection keeps a cursor into them.
        self.events: list[dict[str, Any]] = []
        self.seq = 0
        self.bot_task: asyncio.Task[None] | None = None
        #: ``"ok"``, or ``"retrying"`` while the database refuses a bot's action (it is retried).
        self.storage = "ok"
        #: The client key of the creator (caps per client), ``None`` for a table loaded from the database.
        self.creator: str | None = None
        #: The other keys the table counts for in ``max_tables_per_client``: a quick-match table's, each seated
        #: person's client key and ``player:ID`` (:mod:`bummerl.server.quickmatch`).
        self.holders: frozenset[str] = frozenset()
        self.touched = time.monotonic()
        #: When a card was last played or a game dealt here (``time.monotonic()``); ``None`` for a table loaded
        #: from the database that has not moved since (the list of tables leaves it out once its game is over).
        self.moved: float | None = None
        #: This process's hold on the table in cluster mode (every write is fenced by it); ``None`` alone.
        self.lease: Lease | None = None
        #: Whether :attr:`events` holds the game on the table from its deal on (a table loaded from the
        #: database holds none until :meth:`game_log` rebuilds them from the stored actions).
        self.log_complete = False
        #: The hints agreement and requests of this table (:mod:`bummerl.server.hints`).
        self.hints = RoomHints()
        self._sheet: tuple[Any, dict[str, Any]] | None = None
        #: :meth:`match_json` and :meth:`players` with what they were made from (made again when that changes).
        self._match_json: tuple[Any, dict[str, Any]] | None = None
        self._players: tuple[Any, list[dict[str, Any]]] | None = None
        #: The table's move clock, ``None`` at a table without one (:mod:`bummerl.server.clock`).
        self.clock: MoveClock | None = None
        if data.move_seconds is not None:
            cfg = services.config
            rules = ClockRules(data.move_seconds, cfg.clock_grace_seconds, cfg.clock_strikes)
            self.clock = MoveClock(rules, services.clock_now, services.timers, self._time_up)
            for s in self.seats:
                self.clock.presence(s.seat, False)  # nobody is connected yet
        #: The clock's ``timeout`` events of the game on the table by the ply of the stand-in's move they came
        #: before: the log made again after a reload shows them (:meth:`game_log`).
        self.timeouts: dict[int, dict[str, Any]] = {}
        #: The phrase rate of each connection, by its id (:mod:`bummerl.server.phrases`).
        self.phrase_buckets: dict[str, PhraseBucket] = {}

    # ------------------------------------------------------------ the match and the game
    @property
    def kind(self) -> str:
        """``"two_player"``, ``"table_game"`` or ``"schnorps_round"``: which ``match`` and view follow."""
        return self.family.kind

    @property
    def match(self) -> Series:
        """The match being played (the last one)."""
        return self.matches[-1]

    @property
    def game(self) -> Game:
        """The game on the table: the running one, or the last one until the next deal."""
        return self.match.last_game

    @property
    def dealt(self) -> bool:
        """Whether the table has a game (from the first deal on)."""
        return self.info is not None

    @property
    def game_id(self) -> int:
        """The database id of the game on the table."""
        assert self.info is not None
        return self.info.game_id

    @property
    def game_over(self) -> dict[str, Any] | None:
        """The ``game_over`` field once the game is over (the result, the record, what comes next)."""
        return self.info.game_over if self.info is not None else None

    @property
    def ply(self) -> int:
        """Actions played so far in the game on the table."""
        return len(self.game.actions)

    @property
    def to_move(self) -> int | None:
        """The game seat to act, ``None`` once the game is over."""
        return None if self.game.is_over else self.game.to_move

    @property
    def players_now(self) -> tuple[int, ...]:
        """The table's seats at game seats 0, 1, ... of the game on the table."""
        return self.match.players_of(len(self.match.games) - 1)

    def game_seat(self, seat: int | None) -> int | None:
        """The seat that the table's ``seat`` holds in the game on the table (``None``: a spectator, or a
        participant who waits at a Schnorps round of three or four): ask this before reading a seat's view."""
        if seat is None or not self.dealt:
            return None
        players = self.players_now
        return players.index(seat) if seat in players else None

    def played_matches(self) -> list[Series]:
        """Every match played at the table, the running one last."""
        return self.matches

    def standing(self) -> list[int]:
        """The match's score per seat or team, as the list of tables shows it."""
        return list(self.match.standing)

    def match_json(self) -> dict[str, Any]:
        """The match standing, the ``match`` field of ``state`` and of the summary (shared: never change it).

        Made again only when the match changes: a game dealt or scored (its count, its end, the standing), a new
        match.  Made for every ``state`` before, it summed over every finished match of the table at every move
        (2.6% of the server's interpreter time at 200 tables flat out, bench/web_load.py).
        """
        if not self.dealt:
            return self.family.match_json(self)
        match = self.match
        key = (id(match), len(self.matches), len(match.games), self.game.is_over, tuple(match.standing))
        if self._match_json is None or self._match_json[0] != key:
            self._match_json = (key, self.family.match_json(self))
        return self._match_json[1]

    def team(self, seat: int) -> int | None:
        """The team of ``seat`` where seats play in teams (the variant's ``teams``: Bauernschnapsen), else ``None``."""
        return next((team for team, seats in enumerate(self.variant.teams) if seat in seats), None)

    # ------------------------------------------------------------------- seats
    @property
    def waiting(self) -> bool:
        """Whether a seat kept for an invited friend is still empty (actions are refused until it is taken)."""
        return any(s.kind == FRIEND and not s.taken for s in self.seats)

    @property
    def status(self) -> str:
        """``"waiting"`` (for an invited friend), ``"playing"`` or ``"game_over"``."""
        if self.waiting:
            return "waiting"
        return "game_over" if self.to_move is None else "playing"

    def bot_of(self, seat: int) -> str | None:
        """The bot at ``seat``, ``None`` for a human's seat."""
        s = self.seats[seat]
        return s.bot if s.kind == "bot" else None

    def seat_name(self, seat: int) -> str:
        """The name shown for ``seat``: the player's, or the bot's."""
        return self.seats[seat].shown_name

    def record_name(self, seat: int) -> str:
        """``seat`` as a record's tags name it: ``bot:NAME`` for a bot, else the player's name."""
        bot = self.bot_of(seat)
        return f"bot:{bot}" if bot else self.seat_name(seat) or "?"

    def players(self) -> list[dict[str, Any]]:
        """The seats as the ``players`` field of docs/web.md (shared: never change it).

        Made again only when a seat or who is connected changes (every ``state`` carries it).
        """
        connected = frozenset(c.seat for c in self.connections if c.hello and c.seat is not None)
        key = (tuple((s.kind, s.bot, s.name, s.taken) for s in self.seats), connected)
        if self._players is None or self._players[0] != key:
            self._players = (key, self._players_json(connected))
        return self._players[1]

    def _players_json(self, connected: frozenset[int]) -> list[dict[str, Any]]:
        out = []
        for s in self.seats:
            bot = s.kind == "bot"
            out.append(
                {
                    "seat": s.seat,
                    "name": self.seat_name(s.seat),
                    "kind": "bot" if bot else "human",
                    "bot": s.bot if bot else None,
                    "titles": bot_titles(s.bot) if bot and s.bot else None,
                    "joined": bot or s.kind != FRIEND or s.taken,
                    "connected": bot or s.seat in connected,
                    "team": self.team(s.seat),
                }
            )
        return out

    def seat_taken(self, seat: int, name: str) -> None:
        """An invited friend took ``seat`` (stored already)."""
        self.seats[seat] = dataclasses.replace(self.seats[seat], name=name, taken=True)

    def seat_of(self, token: str) -> int | None:
        """The seat that ``token`` holds (a database call: run it in the database threads)."""
        return self.services.repo.seat_of(self.id, token)

    def invitations(self) -> dict[int, str]:
        """The join codes of the seats kept for friends who have not come yet, by seat."""
        return invitations(self.seats)

    def invited(self) -> bool:
        """Whether any seat of the table was kept for an invited friend."""
        return any(s.kind == FRIEND for s in self.seats)

    # ----------------------------------------------------------------- summaries
    def deals_json(self) -> list[dict[str, Any]]:
        """Per match: the commitment to its deal key, and the key itself once the match is over."""
        return [
            {
                "match_no": k + 1,
                "commitment": key_commitment(m.deal_key),
                "deal_key": m.deal_key.hex() if m.is_over else None,
            }
            for k, m in enumerate(self.matches)
            if m.deal_key is not None
        ]

    def summary(self) -> dict[str, Any]:
        """What anyone may know of the table (no card): ``GET /api/tables/{id}``."""
        return {
            "table_id": self.id,
            "kind": self.kind,
            "variant": self.variant.name,
            "title": self.variant.title,
            "options": self.variant.options(),
            "seats": len(self.seats),
            "practice": self.data.practice,
            "move_seconds": self.data.move_seconds,
            # Whether its games between people move their ratings (a quick-match table; people_ratings.py).
            "rated": self.data.rated,
            "players": self.players(),
            "status": self.status,
            "match": self.match_json(),
            "deals": self.deals_json(),
            "game_id": self.game_id if self.dealt else None,
        }

    def listed(self, now: float) -> bool:
        """Whether the list of tables to watch shows this table at ``now`` (``time.monotonic()``): while it is
        dealt and its game runs, and for :data:`LISTED_AFTER_GAME` seconds after its last move once the game is
        over, so the list does not fill with tables whose players left long ago."""
        if not self.dealt:
            return False
        if self.status != "game_over":
            return True
        return self.moved is not None and now - self.moved < LISTED_AFTER_GAME

    def listing(self) -> dict[str, Any]:
        """The table in the list of tables to watch (``GET /api/tables``)."""
        players = self.players()
        return {
            "table_id": self.id,
            "kind": self.kind,
            "variant": self.variant.name,
            "title": self.variant.title,
            "seats": len(self.seats),
            "players": [p["name"] for p in players],
            # A bot's display names (``{"de", "en"}``), null for a human: the lobby names a bot as the table does.
            "titles": [p["titles"] for p in players],
            "status": self.status,
            "standing": self.standing(),
        }

    # ------------------------------------------------------------- the sheet and the log
    def sheet_version(self) -> tuple[Any, ...]:
        """What the Bummerl sheet depends on: it changes only when a game is dealt or ends, or a seat is taken."""
        dealt = self.dealt
        names = tuple(self.seat_name(s.seat) for s in self.seats)
        return (self.game_id if dealt else None, dealt and self.game.is_over, names)

    def sheet(self) -> dict[str, Any]:
        """The table's Bummerl sheet (:func:`bummerl.server.sheet.sheet_json`), made once per :meth:`sheet_version`."""
        version = self.sheet_version()
        if self._sheet is None or self._sheet[0] != version:
            self._sheet = (version, sheet_json(self))
        return self._sheet[1]

    def _game_start(self) -> dict[str, Any]:
        """The ``game_start`` of the game on the table (the commitment to its match's deal key: in its first)."""
        info = self.info
        assert info is not None
        start: dict[str, Any] = {
            "type": "game_start",
            "match_no": info.match_no + 1,
            "game_no": info.game_no + 1,
            "game_id": info.game_id,
            **self.family.start_fields(self),
        }
        return start

    def game_log(self) -> list[dict[str, Any]]:
        """The events of the game on the table from its deal on, as the shared log holds them (a spectator's form,
        :func:`public_events`): what a client that (re)connects is sent in its ``welcome`` (``log``).

        A table loaded from the database has none in memory (its replay is no news); they are made again here
        once, from the stored actions played through the engine on the same deal, with the room's own
        ``game_start``, ``game_end`` and ``match_end`` made from the match's standing (the fields the page reads;
        a ``game_start`` without the commitment, which the summary's ``deals`` keeps).  Call it under
        :attr:`lock`, where every greeted client has been sent every event (each change is broadcast).
        """
        if not self.log_complete and self.dealt:
            game = self.game
            replay = Game.from_deck(self.variant, game.deck, game.dealer)
            log: list[dict[str, Any]] = [self._game_start()]
            for ply, action in enumerate(game.actions):
                if ply in self.timeouts:  # the clock's line comes before the stand-in's move
                    log.append(self.timeouts[ply])
                log.extend(public_events(replay.apply(action)))
            over = self.game_over if game.is_over else None
            if over is not None:
                log.append({"type": "game_end", "result": over["result"], "standing": self.standing()})
                match = self.match_json()
                if match.get("over"):
                    end: dict[str, Any] = {k: match[k] for k in ("winner", "winners", "schneider") if k in match}
                    keys = [d["deal_key"] for d in self.deals_json() if d["deal_key"]]
                    log.append({"type": "match_end", **end, **({"deal_key": keys[-1]} if keys else {})})
            self.events[:] = log
            for conn in self.connections:
                conn.cursor = len(log)
            self.log_complete = True
        return list(self.events)

    # ----------------------------------------------------------------- messages
    def view_state(self, conn: Connection) -> dict[str, Any]:
        """The game's fields of ``conn``'s ``state`` message: its view, its legal actions, the match.

        A spectator, and a participant who waits this game, get game seat 0's view without anything of that
        seat's own (the family's view JSON); a seat gets its legal actions only while it is to act and nobody
        invited is still missing.  The view, ``to_move`` and the live result count in game seats.
        """
        game = self.game
        g = self.game_seat(conn.seat)
        view = game.view(0 if g is None else g)
        acting = g is not None and self.status == "playing" and game.to_move == g and not self.taken_over(conn.seat)
        legal = [a.token for a in game.legal_actions()] if acting else []
        state: dict[str, Any] = {
            "view": self.family.view_json(view, g is None, legal),
            "legal": legal,
            "to_move": self.to_move,
            "your_turn": bool(legal),
        }
        if self.family.tells_game_seat:
            state["game_seat"] = g
        state.update(
            marriage_values=marriage_values(view.trump),
            match=self.match_json(),
            game_over=self.game_over if game.is_over else None,
        )
        return state

    def state_for(self, conn: Connection) -> dict[str, Any]:
        """The ``state`` message of ``conn``, with the events it has not been sent yet, and the Bummerl sheet
        (``sheet``) when it changed since the last one ``conn`` was sent."""
        events = self.events[conn.cursor :]
        conn.cursor = len(self.events)
        state = {
            "type": "state",
            "seq": self.seq,
            "table_id": self.id,
            "seat": conn.seat,
            "role": conn.role,
            "kind": self.kind,
            "status": self.status,
            "storage": self.storage,
            **self.view_state(conn),
            "players": self.players(),
            "events": events,
            # The seat on the move clock and its time left (docs/web.md); null at a table without a clock.
            "clock": self.clock.json() if self.clock is not None else None,
            # The seats the clock's bot plays for the rest of this game (their time ran out too often).
            "taken_over": self.clock.abandoned() if self.clock is not None else [],
        }
        state.update(state_fields(self, conn))  # the hints agreement and the declare check
        if self.dealt:
            version = self.sheet_version()
            if conn.sheet_version != version:
                state["sheet"] = self.sheet()
                conn.sheet_version = version
        return state

    def send(self, conn: Connection, message: dict[str, Any]) -> None:
        tap = self.services.tap
        if tap is not None:
            tap(self, conn.seat, message)
        conn.send(message)

    def broadcast(self) -> None:
        """Send every greeted client its state (call after every change)."""
        self.sync_clock()  # the state tells the clock of the turn it shows
        self.seq += 1
        for conn in list(self.connections):
            if conn.hello:
                self.send(conn, self.state_for(conn))

    @property
    def ws_url(self) -> str:
        """The table's WebSocket, the same path for every kind of table."""
        return f"/ws/tables/{self.id}"

    def touch(self) -> None:
        self.touched = time.monotonic()

    def idle_for(self, now: float) -> float:
        """Seconds since anything happened, or 0 while a client is connected or a bot thinks."""
        if self.connections or (self.bot_task is not None and not self.bot_task.done()):
            return 0.0
        if self.clock is not None and self.clock.running:
            return 0.0  # the clock moves for the seats that left: the game plays out before the table rests
        return now - self.touched

    # ------------------------------------------------------------------ checks
    def playing(self, seat: int | None) -> tuple[int, int]:
        """``(seat, to_move)`` once ``seat`` is a player's at a game that waits for someone; else :class:`TableError`.

        What every table checks before it looks at whose turn it is and at the action.
        """
        if seat is None:
            raise TableError("spectator", "a spectator cannot act; send hello with a seat token to play")
        if self.status == "waiting":
            raise TableError("waiting", "not every invited friend has joined yet")
        to_move = self.to_move
        if to_move is None:
            raise TableError("game_over", "the game is over; send next_game to deal the next one", rule="game_over")
        return seat, to_move

    def check_action(self, seat: int | None, token: str) -> Action:
        """The action ``token`` of ``seat``, or :class:`TableError` (nothing changes): only the seat to act may."""
        seat, to_move = self.playing(seat)
        g = self.game_seat(seat)
        players = self.players_now
        if g is None:
            playing = " and ".join(str(p) for p in players)
            raise TableError("not_your_turn", f"seat {seat} waits this game: seats {playing} play it", rule="turn")
        if g != to_move:
            raise TableError("not_your_turn", f"it is seat {players[to_move]}'s turn, not seat {seat}'s", rule="turn")
        return self.verified(g, token)

    def verified(self, seat: int, token: str) -> Action:
        """The action ``token`` of game seat ``seat`` if the engine allows it, else :class:`TableError`."""
        try:
            action = Action.parse(token)
        except (BummerlError, ValueError) as exc:
            raise TableError("bad_action", f"{token!r} is not an action token: {exc}") from None
        try:
            self.game.verify(action)
        except IllegalActionError as exc:
            raise TableError("illegal_action", str(exc), rule=exc.rule.name.lower()) from None
        return action

    def first_legal(self) -> Action:
        """An action to play when a bot's answer was unusable."""
        return self.game.legal_actions()[0]

    # ------------------------------------------------------------------ changes
    def play(self, action: Action) -> FinishedGame | None:
        """Apply a stored action to the engine and record its events; the finished game if it ended one.

        The events are the engine's own (:func:`public_events`); the end of the
        game is told here, with the match standing (``game_end``, ``match_end``).
        """
        game = self.game
        self.events.extend(public_events(game.apply(action)))
        if not game.is_over:
            return None
        match = self.match
        match.complete(game)
        finished, result, end = self.family.finish(self)
        self.events.append({"type": "game_end", "result": result, "standing": list(match.standing)})
        if match.is_over:
            if match.deal_key is not None:
                # The match is over: its deals may be checked against the commitment of its first game.
                end = {**end, "deal_key": match.deal_key.hex()}
            self.events.append({"type": "match_end", **end})
        # The match's verdict is stored beside the result (Repository.finish_game): a player's statistics count
        # the Bummerl won from it (bummerl.server.players) without scoring the match again.
        outcome = match_outcome(self.match_json())
        # The seats of the winners (a team at Bauernschnapsen): a player's statistics look for their own.
        outcome["seats"] = [s.seat for s in self.seats if match.side_of(s.seat) in outcome["winners"]]
        result = {**finished.result, MATCH_OUTCOME: outcome}
        if self.clock is not None and self.clock.abandoned():
            # The seats the bot took over (docs/web.md, "Clocks"): the statistics and ratings count it as lost.
            result["abandoned"] = self.clock.abandoned()
        return dataclasses.replace(finished, result=result, rated=self.data.rated)

    async def apply(self, seat: int, action: Action, *, stand_in: str | None = None) -> None:
        """Store and play a checked action of ``seat``, then tell everyone (the caller holds the lock).

        ``stand_in``: the clock's stand-in bot played it, because ``seat``'s time ran out (``time``, ``away``: a
        strike, :meth:`_timed_out`) or because it took the seat over (``over``); stored with the action, so that a
        reload counts it again (:meth:`replay_stored`).
        :class:`~bummerl.server.storage.StorageError` if the database refused it: nothing changed.
        """
        # Stored first: if the database refuses, the table has not changed.
        db = self.services.db
        try:
            # With the moves of other tables in one transaction (database.py, "Group commit"); with a lease (cluster
            # mode) only while this process still holds the table.
            await db.append_action(self.game_id, self.ply, action.token, self.lease, stand_in)
        except NotOwnerError:
            self.services.lost(self.id)
            raise
        self.storage = "ok"  # the database took it: whatever was retried before is through
        if stand_in in ("time", "away"):
            self._timed_out(seat, stand_in)
        finished = self.play(action)
        if finished is not None:
            self.services.results.store(finished)
        self.moved = time.monotonic()
        self.touch()
        self.broadcast()
        self.schedule_bot()

    def next_deal(self) -> Deal:
        """The next deal (a new match after a finished one), the room unchanged until it is installed."""
        # Dealt on a copy (the memo keeps the one variant object): the table is unchanged until the deal is
        # stored and installed.  Finished matches are not copied: only the last one can change.
        matches = list(self.matches)
        if matches:
            matches[-1] = copy.deepcopy(matches[-1], {id(self.variant): self.variant})
        if not matches or matches[-1].is_over:
            previous = matches[-1] if matches else None
            matches.append(self.family.new_series(self.data, self.variant, len(matches), previous))
        match = matches[-1]
        game = match.deal_next()
        match_no, game_no = len(matches) - 1, len(match.games) - 1

        def install(game_id: int) -> None:
            self.matches = matches
            self.info = GameInfo(game_id, match_no, game_no)
            start = self._game_start()
            if match.deal_key is not None and game_no == 0:
                start["deal_commitment"] = key_commitment(match.deal_key)
            self.events.append(start)

        deck = "".join(c.code for c in game.deck)
        return Deal(match_no, game_no, match.dealer_of(game_no), deck, match.game_seeds[-1], install)

    async def deal_next(self) -> None:
        """Deal the next game once the current one is over, and store it before the table changes."""
        if self.to_move is not None:
            raise TableError("game_running", "the current game is not over yet")
        await self.deal(self.next_deal())
        self.broadcast()
        self.schedule_bot()

    async def deal(self, deal: Deal) -> None:
        """Store ``deal``, then make it the game on the table."""
        repo = self.services.repo
        seed = None if deal.seed is None else str(deal.seed)
        args = (self.id, deal.match_no, deal.game_no, deal.dealer, deal.deck, seed)
        try:
            # In turn with the moves' batches (database.py, "Group commit").
            if self.lease is None:
                game_id = await self.services.db.write(repo.start_game, *args)
            else:  # cluster mode: only while this process still holds the table
                game_id = await self.services.db.write(repo.start_game, *args, self.lease)
        except NotOwnerError:
            self.services.lost(self.id)
            raise
        # Every client has had the last game's events (each change is broadcast): the log starts anew,
        # so a table that plays for days holds one game's events, not all of them.
        self.events.clear()
        for conn in self.connections:
            conn.cursor = 0
        deal.install(game_id)
        self._restart_clock(self.connected_seats())
        self.log_complete = True
        self.moved = time.monotonic()
        self.touch()

    # ------------------------------------------------------------------ bots
    def bot_due(self) -> tuple[int, str, str | None] | None:
        """``(seat, bot, stand_in)`` if a bot is to act now, else ``None``: :meth:`bot_turn` without building the
        bot's view (asked twice per bot move: a view and its JSON cost more than the rest of the move)."""
        if not self.dealt or self.status != "playing":
            return None
        seat = self.players_now[self.game.to_move]
        bot = self.bot_of(seat)
        stand_in = None
        if bot is None and self.clock is not None and self.clock.stand_in(seat, (self.game_id, self.ply)):
            bot, stand_in = STAND_IN_BOT, "taken_over" if seat in self.clock.taken_over else "timeout"
        return None if bot is None else (seat, bot, stand_in)

    def bot_turn(self) -> BotTurn | None:
        """The bot's turn if a bot is to act: it gets its game seat's view only (as the bot protocol's JSON),
        with the match's context where the series gives one (the score a Bummerl's bots play for)."""
        due = self.bot_due()
        if due is None:
            return None
        seat, bot, stand_in = due
        g = self.game.to_move
        view = bot_view(self.game, g, self.match.context())
        request = BotRequest(self.id, bot, self.family.bot_seed(self), view, self.variant)
        return BotTurn(seat, request, (self.game_id, self.ply), stand_in)

    def schedule_bot(self) -> None:
        """Start the table's bot if it is a bot's turn and it is not thinking already."""
        self.sync_clock()
        if self.bot_due() is None:
            return
        if self.bot_task is not None and not self.bot_task.done():
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            return
        self.bot_task = loop.create_task(self._play_bots())

    async def _play_bots(self) -> None:
        # One task per table plays every bot move in a row; a check of bot_turn() and the task's end
        # happen without an await between them, so schedule_bot() can never miss a turn.
        config = self.services.config
        while (turn := self.bot_turn()) is not None:
            if config.bot_delay:
                await asyncio.sleep(config.bot_delay)
            try:
                token = await self.services.bots.decide(turn.request)
            except Exception as exc:  # nothing a bot does may stop the table: it plays its first legal action
                log.error("table %s: the bot's decision failed: %s: %s", self.id, type(exc).__name__, exc)
                token = ""
            wait = config.storage_retry_first
            while True:
                async with self.lock:
                    if self.bot_due() is None or (self.game_id, self.ply) != turn.position:
                        break  # the table moved on meanwhile (a restart of the game, a reload)
                    try:
                        action = self.check_action(turn.seat, token)
                    except TableError as exc:
                        log.error(
                            "bot %s at table %s: %s; playing the first legal action",
                            turn.request.bot,
                            self.id,
                            exc.message,
                        )
                        action = self.first_legal()
                    try:
                        await self.apply(turn.seat, action, stand_in=self._stand_in_mark(turn.stand_in))
                    except StorageError as exc:
                        log.error("table %s: the bot's action was not stored (retry in %.1f s): %s", self.id, wait, exc)
                        if self.storage != "retrying":
                            self.storage = "retrying"
                            self.broadcast()
                    else:
                        break
                await asyncio.sleep(wait)
                wait = min(wait * 2, config.storage_retry_max)

    # ------------------------------------------------------------------ the move clock
    def connected_seats(self) -> set[int]:
        """The seats with a greeted connection now."""
        return {c.seat for c in self.connections if c.hello and c.seat is not None}

    def taken_over(self, seat: int | None) -> bool:
        """Whether the clock's stand-in bot plays ``seat`` for the rest of the game (its time ran out too often)."""
        return self.clock is not None and seat is not None and seat in self.clock.taken_over

    def sync_clock(self) -> None:
        """Put the turn the table waits for on the clock: a human seat's move while the game runs, else none
        (a bot's move, an invited friend missing, the next deal).  The same turn keeps its deadline."""
        clock = self.clock
        if clock is None:
            return
        if not self.dealt or self.status != "playing":
            clock.update(None, (0, 0))
            return
        seat = self.players_now[self.game.to_move]
        clock.update(None if self.bot_of(seat) else seat, (self.game_id, self.ply))

    def _restart_clock(self, connected: Iterable[int]) -> None:
        """A game is dealt: no strikes yet, and a seat stays taken over only while its player is away."""
        self.timeouts = {}
        if self.clock is not None:
            self.clock.new_game(connected)

    def stop_clock(self) -> None:
        """Stop the clock's timer for good: the table leaves this process (another one took it)."""
        if self.clock is not None:
            self.clock.close()

    def _time_up(self, _seat: int, _position: tuple[int, int]) -> None:
        # The clock's timer, on the event loop: the stand-in moves through the bots' path, whose check of the
        # position under the lock lets exactly one of it and a human move that arrives meanwhile through.
        self.schedule_bot()

    def _stand_in_mark(self, stand_in: str | None) -> str | None:
        """What is stored with a move of :class:`BotTurn`'s ``stand_in`` (``_ActionRow.stand_in``): why its time
        ran out (``time``, ``away``), ``over`` for a seat taken over, ``None`` for the seat's own bot."""
        if stand_in == "taken_over":
            return "over"
        if stand_in == "timeout" and self.clock is not None:
            return self.clock.reason
        return None

    def _timed_out(self, seat: int, reason: str) -> None:
        """The stand-in's move for ``seat`` was stored (its time ran out for ``reason``): count the strike and tell
        the log, before the move (the line is kept by ply: :meth:`game_log` makes the log again with it)."""
        clock = self.clock
        assert clock is not None
        taken_over = clock.struck(seat)
        event = {
            "type": "timeout",
            "seat": seat,
            "reason": reason,
            "strikes": clock.strikes.get(seat, 0),
            "taken_over": taken_over,
        }
        self.timeouts[self.ply] = event
        self.events.append(event)

    # ------------------------------------------------------------------ load
    def replay_stored(self) -> list[FinishedGame]:
        """Rebuild the matches from the stored deals and actions (:attr:`data`); the results still to store.

        The stored pack of each game is dealt again, so a table whose deal key was made after its first games
        (an older server's table) goes on with keyed deals from its next game on.
        """
        data = self.data
        if not data.games:
            raise StorageError(f"table {self.id} has no game")
        repairs: list[FinishedGame] = []
        for stored in data.games:
            if not self.matches or (self.match.is_over and stored.match_no >= len(self.matches)):
                previous = self.matches[-1] if self.matches else None
                self.matches.append(self.family.new_series(data, self.variant, len(self.matches), previous))
            seed = int(stored.seed) if stored.seed is not None else None
            try:
                self.match.deal_next(parse_cards(stored.deck), dealer=stored.dealer, seed=seed)
            except BummerlError as exc:
                raise StorageError(f"game {stored.id} of table {self.id} does not replay: {exc}") from None
            self.info = GameInfo(stored.id, stored.match_no, stored.game_no)
            self._restart_clock(range(len(self.seats)))  # nobody's seat is taken over until an action says so
            for ply, token in enumerate(stored.actions):
                self._replay_stand_in(stored.stand_ins.get(ply))
                finished = self.play(Action.parse(token))
                if finished is None:
                    continue
                if not stored.finished:
                    # Its result was refused while the table played on, or the server stopped first.
                    repairs.append(finished)
                elif stored is data.games[-1] and stored.record:
                    self.family.restore_game_over(self, stored.record)
        self.events.clear()  # a reload is no news for anyone
        return repairs

    def _replay_stand_in(self, mark: str | None) -> None:
        """Before a stored action is played again: count the clock's strike, or the takeover, it was stored with."""
        if mark is None or self.clock is None:
            return
        seat = self.players_now[self.game.to_move]
        if mark == "over":
            self.clock.taken_over.add(seat)
        else:
            self._timed_out(seat, mark)


# --------------------------------------------------------------------- clients
async def handle_client_text(room: Room, conn: Connection, text: str) -> None:
    """Answer one client message (errors go to that client only)."""
    message = parse_client_message(text)
    if isinstance(message, ClientError):
        room.send(conn, error_message(message.code, message.message))
        return
    if isinstance(message, PingMessage):
        room.send(conn, {"type": "pong"})
        return
    if isinstance(message, HelloMessage):
        await _hello(room, conn, message)
        return
    if not conn.hello:
        room.send(conn, error_message("hello_required", "send hello first (with a seat token to play)"))
        return
    if isinstance(message, HintMessage | ReviewMessage | HintsVoteMessage):
        await room.services.hints.handle(room, conn, message)  # computed off the table's lock, answered when ready
        return
    if isinstance(message, PhraseMessage):
        say_phrase(room, conn, message.id)
        return
    async with room.lock:
        try:
            if isinstance(message, ActionMessage):
                seat = conn.seat
                if room.taken_over(seat):
                    raise TableError(
                        "taken_over", "the computer plays this seat until the game ends: your time ran out too often"
                    )
                action = room.check_action(seat, message.action)
                assert seat is not None  # check_action refuses spectators
                await room.apply(seat, action)
            elif isinstance(message, NextGameMessage):
                if conn.seat is None:
                    raise TableError("spectator", "a spectator cannot deal")
                await room.deal_next()
        except TableError as exc:
            room.send(conn, error_message(exc.code, exc.message, exc.rule))
        except StorageError as exc:
            room.send(conn, error_message("storage", f"not stored, nothing changed (send it again): {exc}"))


def say_phrase(room: Room, conn: Connection, phrase_id: str) -> None:
    """A seat says one of the fixed phrases (:mod:`bummerl.server.phrases`): everyone at the table hears it,
    unless it is no phrase, comes from a spectator or is over the sender's rate (then only the sender hears why).

    Changes nothing at the table, so it needs no lock and is never stored.
    """
    if conn.seat is None:
        room.send(conn, error_message("spectator", "a spectator cannot talk to the table"))
        return
    problem = check_phrase(phrase_id)
    if problem is not None:
        room.send(conn, error_message("unknown_phrase", problem))
        return
    wait = room.phrase_buckets.setdefault(conn.id, PhraseBucket(room.services.clock_now)).take()
    if wait:
        limit = f"at most {BURST} phrases at once, then one every {EVERY:.0f} s"
        room.send(conn, error_message("phrase_rate", f"{limit}: wait {wait:.1f} s"))
        return
    message = phrase_message(conn.seat, phrase_id)
    for other in list(room.connections):
        if other.hello:
            room.send(other, message)


async def _hello(room: Room, conn: Connection, message: HelloMessage) -> None:
    seat: int | None = None
    if message.token:
        try:
            seat = await room.services.db.run(room.seat_of, message.token)
        except StorageError as exc:
            room.send(conn, error_message("storage", f"the seat could not be looked up (send hello again): {exc}"))
            return
        if seat is None:
            room.send(conn, error_message("bad_token", "this token holds no seat at this table"))
            return
    await greet(room, conn, seat)


async def greet(room: Room, conn: Connection, seat: int | None, *, welcome: bool = True) -> None:
    """Seat ``conn`` (its token was checked: ``seat``, or ``None`` to watch) and tell it, and the players, so.

    ``welcome=False`` for a client that had its welcome from the process that
    held the table before (cluster mode): it gets only the new state.
    """
    async with room.lock:
        conn.seat = seat
        conn.hello = True
        room.game_log()  # a table loaded from the database makes its log again before anyone is sent it
        conn.cursor = len(room.events)
        conn.sheet_version = None
        room.connections.add(conn)
        room.touch()
        if room.clock is not None and seat is not None:
            room.clock.presence(seat, True)
        if welcome:
            room.send(conn, welcome_message(room, conn))
        if seat is None:
            room.send(conn, room.state_for(conn))
        else:
            # Everyone hears that a player (re)connected; the newcomer gets events [].
            room.broadcast()


def welcome_message(room: Room, conn: Connection) -> dict[str, Any]:
    """The ``welcome`` of a greeted connection (docs/web.md)."""
    return {
        "type": "welcome",
        "kind": room.kind,
        "table_id": room.id,
        "seat": conn.seat,
        "role": conn.role,
        "players": room.players(),
        # The game on the table so far, as the log shows it: a reloaded page tells what happened again.
        "log": room.game_log(),
        # What a seat may say (docs/web.md, "Phrases"); the table's time per move (null: no clock); whether its
        # games between people move their ratings.
        "phrases": catalog(),
        "move_seconds": room.data.move_seconds,
        "rated": room.data.rated,
    }


async def disconnect_client(room: Room, conn: Connection) -> None:
    """Forget a closed connection; the players hear it if it held a seat."""
    async with room.lock:
        was_player = conn.hello and conn.seat is not None
        room.connections.discard(conn)
        room.phrase_buckets.pop(conn.id, None)
        room.touch()
        if room.clock is not None and conn.seat is not None and conn.seat not in room.connected_seats():
            room.clock.presence(conn.seat, False)
        if was_player:
            room.broadcast()
