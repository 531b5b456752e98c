"""A live table in memory, of any variant, and the steps every change of it takes.

:class:`Room` is what a two-player table (:mod:`bummerl.server.tables`) and a
three- or four-player table (:mod:`bummerl.server.table_games`) have in
common: the seats (who sits where, invited friends, bots), the connected
clients (seats and spectators), the lock, the events not yet sent, the
summaries, and the order of every change, under the lock:

1. check the request (:meth:`Room.check_action`: whose turn, is it legal);
2. **store it** (an action row, a new deal) through the database threads;
3. change the engine's state (:meth:`Room.play`, :meth:`Deal.install`);
4. send every client its own ``state`` message (:meth:`Room.broadcast`).

A refused request, or one the database refused, changes nothing.  The game
on the table is a :class:`bummerl.game.Game` of any variant, and the room
talks to it through that one interface: it parses and checks action tokens,
applies them, records their events and asks what a bot sees the same way for
every variant.  The subclasses supply what differs between the families: the
match around the game (its scoring, the next deal, the records), the views as
the clients get them; and, at class level, what their family of variants
needs before a table exists (the variants, seats, bots, match length).
Nothing outside the room classes asks which kind a table is: it calls these
methods.

What a client learns about the cards comes only from the subclasses'
``view_json`` (one seat's view, or a spectator's copy without any hand), from
the events, and, once a game is over, from its record.  The events are the
engine's own (:meth:`bummerl.game.Game.apply` returns them; nothing here
compares a game before and after an action), kept in one log that every
connection of the room reads: so they are kept in the form a spectator may
see (:func:`public_events`), which names no card drawn from the talon, laid
away or taken up face down.
"""

from __future__ import annotations

import abc
import asyncio
import dataclasses
import json
import secrets
import time
from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING, Any, ClassVar, Protocol

from bummerl.actions import Action
from bummerl.bots import bot_info, bot_names, bot_titles
from bummerl.cards import Suit, marriage_value
from bummerl.errors import BummerlError, IllegalActionError
from bummerl.events import Event, GameEnd, events_json
from bummerl.rng import key_commitment
from bummerl.server import hints
from bummerl.server.catalog import options_json
from bummerl.server.config import ServerConfig
from bummerl.server.errors import RequestError
from bummerl.server.messages import (
    ActionMessage,
    ClientError,
    HelloMessage,
    HintMessage,
    HintsVoteMessage,
    NextGameMessage,
    PingMessage,
    ReviewMessage,
    error_message,
    parse_client_message,
)
from bummerl.server.scheduler import BotRequest
from bummerl.server.storage import MATCH_OUTCOME, Lease, NotOwnerError, SeatData, StorageError, TableData
from bummerl.variants import VARIANTS, Variant
from bummerl.view_json import view_to_json

if TYPE_CHECKING:
    from bummerl.game import Game
    from bummerl.server.manager import TableManager

__all__ = [
    "BOT_SEED",
    "LISTED_AFTER_GAME",
    "MAX_QUEUED",
    "Closing",
    "Connection",
    "Deal",
    "FinishedGame",
    "Room",
    "TableError",
    "disconnect_client",
    "greet",
    "handle_client_text",
    "invitations",
    "marriage_values",
    "match_outcome",
    "public_events",
    "welcome_message",
]

#: Messages waiting for a client before it is disconnected as unresponsive.
MAX_QUEUED = 500
#: Messages a client may send in a burst, and per second after it (docs/security.md).
MESSAGE_BURST = 30
MESSAGE_RATE = 10.0
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
    return {} if trump is None else {s.letter: marriage_value(s, trump) for s in Suit}


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


@dataclasses.dataclass(frozen=True)
class Closing:
    """Queued for a connection: close its socket with ``code`` and ``reason``."""

    code: int = 1000
    reason: str = ""


class Connection:
    """One client of a table: a seat or a spectator (``seat`` ``None``).

    Messages wait in a queue that the WebSocket's sender drains, so a slow
    client never holds up the table.  What the client sends is metered by a
    token bucket (:meth:`allow`): a burst of :data:`MESSAGE_BURST`, then
    :data:`MESSAGE_RATE` a second, far above what a human's clicks need.
    """

    def __init__(self) -> None:
        #: The connection's address between the processes of a cluster (:mod:`bummerl.server.cluster`).
        self.id = secrets.token_hex(8)
        self.seat: int | None = None
        self.hello = False
        #: How many of the room's events this client has been sent.
        self.cursor = 0
        #: :meth:`Room.sheet_version` of the last Bummerl sheet this client was sent (``None``: none yet).
        self.sheet_version: Any = None
        self.queue: asyncio.Queue[str | Closing] = asyncio.Queue()
        #: Messages refused for the rate (the socket closes after too many).
        self.refused = 0
        self._tokens = float(MESSAGE_BURST)
        self._filled = time.monotonic()

    @property
    def role(self) -> str:
        return "spectator" if self.seat is None else "player"

    def allow(self) -> bool:
        """Whether the client may send one more message now (and count it)."""
        now = time.monotonic()
        self._tokens = min(MESSAGE_BURST, self._tokens + (now - self._filled) * MESSAGE_RATE)
        self._filled = now
        if self._tokens < 1:
            return False
        self._tokens -= 1
        return True

    def send(self, message: dict[str, Any]) -> None:
        if self.queue.qsize() >= MAX_QUEUED:
            # A client that reads nothing must not make the server hoard its messages: drop it.
            self.close(1008, "too many unread messages")
            return
        self.queue.put_nowait(json.dumps(message, separators=(",", ":"), ensure_ascii=False))

    def close(self, code: int = 1000, reason: str = "") -> None:
        self.queue.put_nowait(Closing(code, reason))


@dataclasses.dataclass(frozen=True)
class FinishedGame:
    """A game that just ended: what the database must keep of it (stored in the background)."""

    game_id: int
    result: dict[str, Any]
    record: str


@dataclasses.dataclass(frozen=True)
class Deal:
    """A next deal, made without changing the room: stored first, then :attr:`install`-ed with its game id."""

    match_no: int
    game_no: int
    dealer: int
    deck: str
    seed: int | None
    install: Callable[[int], None]


@dataclasses.dataclass(frozen=True)
class BotTurn:
    """A bot's turn: ``request`` for the scheduler, ``position`` to tell whether the table moved on meanwhile."""

    seat: int
    request: BotRequest
    position: tuple[int, int]


class _DealtMatch(Protocol):
    """What :meth:`Room.deals_json` reads of a match (a two-player Bummerl or a table game's match)."""

    @property
    def deal_key(self) -> bytes | None: ...

    @property
    def is_over(self) -> bool: ...


class Room(abc.ABC):
    """One table in memory; change it only under :attr:`lock`, through :meth:`apply` and :meth:`deal_next`.

    The seats (who sits where, who has joined, who is connected) are the same
    for every kind of table and handled here; a subclass is one family of
    variants: its engine, its views, its bots.  Class-level hooks tell the
    table manager and the routes what a family needs before a table exists
    (its variants, seats, bots and match length) and after it is gone (its
    stored records), so that nothing outside the room classes asks which kind a
    table is.
    """

    #: ``"two_player"`` or ``"table_game"``: the ``kind`` of every message and summary, which view follows.
    kind: ClassVar[str]
    #: Whether a table of an older server (without a deal key) gets a new key when it is loaded: only where
    #: the replay deals each stored pack again, so that the games dealt from the old seed still replay.
    takes_new_deal_key: ClassVar[bool] = False

    def __init__(self, manager: TableManager, data: TableData) -> None:
        self.manager = manager
        self.id = data.id
        self.data = data
        #: In seat order; seat 0 is the creator's.
        self.seats: list[SeatData] = list(data.seats)
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
        self.touched = time.monotonic()
        #: When a card was last played or a game dealt here (``time.monotonic()``); ``None`` for a table loaded
        #: from the database that has not moved since (the list of tables leaves it out once its game is over).
        self.moved: float | None = None
        #: This process's hold on the table in cluster mode (every write is fenced by it); ``None`` alone.
        self.lease: Lease | None = None
        #: Whether :attr:`events` holds the game on the table from its deal on (a table loaded from the
        #: database holds none until :meth:`game_log` rebuilds them from the stored actions).
        self.log_complete = False
        self._sheet: tuple[Any, dict[str, Any]] | None = None

    # ------------------------------------------------------------ the family (class level)
    @classmethod
    def plays(cls, variant: Variant) -> bool:
        """Whether this kind of table plays ``variant``: one kind per family of variants (``Variant.FAMILY``)."""
        return cls.kind == variant.FAMILY

    @classmethod
    def variants(cls) -> list[Variant]:
        """The variants played at this kind of table, in the order of :data:`bummerl.variants.VARIANTS`."""
        return [v for v in VARIANTS if cls.plays(v)]

    @classmethod
    def seat_count(cls, variant: Variant) -> int:
        """How many seats a table of ``variant`` has."""
        return variant.players

    @classmethod
    def check_bot(cls, name: str, variant: Variant) -> str:
        """The canonical name of the registered bot ``name`` that plays ``variant``; :class:`BummerlError`
        (naming the bots that do) for another name.  Never a ``cmd:`` program: the name comes from the network."""
        return bot_info(name, variant).name

    @classmethod
    @abc.abstractmethod
    def default_bot(cls, config: ServerConfig) -> str:
        """The bot of a seat that a request leaves to the server."""

    @classmethod
    @abc.abstractmethod
    def match_target(cls, variant: Any, target: int | None) -> int:
        """The match's target for a request's ``target`` (``None``: the default); :class:`BummerlError` if
        this family sets it otherwise."""

    @classmethod
    def variant_extra(cls, variant: Any) -> dict[str, Any]:
        """Fields of ``GET /api/variants`` that only this family has."""
        return {}

    @classmethod
    def variant_json(cls, variant: Variant, config: ServerConfig) -> dict[str, Any]:
        """One entry of ``GET /api/variants``: the variant, its seats, options and bots."""
        players = cls.seat_count(variant)
        return {
            "name": variant.name,
            "title": variant.title,
            "aliases": list(variant.aliases),
            "kind": cls.kind,
            "players": players,
            "teams": players == 4,
            "deck_size": variant.deck_size,
            "hand_size": variant.hand_size,
            "target": cls.match_target(variant, None),
            "options": options_json(variant),
            "bots": bot_names(variant),
            # The one display name of each bot, in German and English (the page shows no other).
            "bot_titles": {name: bot_titles(name) for name in bot_names(variant)},
            "default_bot": cls.default_bot(config),
            **cls.variant_extra(variant),
        }

    @classmethod
    @abc.abstractmethod
    def record_json(cls, text: str) -> str:
        """A stored game record of this family (text format) in the JSON format.

        Per family because the rows differ: a two-player game is stored as a one-game match record (the
        match's tags and standings; :func:`~bummerl.server.workers.read_game_record` takes its game), a table
        game as a game record that keeps its ``Match`` tag."""

    @classmethod
    def finished_details(cls, game_id: int, record: str) -> dict[str, Any]:
        """What ``GET /api/games/{id}`` adds for a finished game of this family, besides its record."""
        return {"analysis_url": f"/api/games/{game_id}/analysis"}

    @classmethod
    @abc.abstractmethod
    def replay_board(cls, game: Game) -> dict[str, Any]:
        """The board of one replay step of a finished ``game`` of this family, besides every hand and the events:
        what a spectator of the live table saw at that point, in the same words (docs/web.md, "Replay").
        Every card is public once a game is over (its record)."""

    # ------------------------------------------------------------ the engine side
    @property
    @abc.abstractmethod
    def variant(self) -> Any:
        """The table's variant, with its options."""

    @property
    @abc.abstractmethod
    def game(self) -> Game:
        """The game on the table: the running one, or the last one until the next deal."""

    @property
    @abc.abstractmethod
    def game_id(self) -> int:
        """The database id of the game on the table."""

    @property
    def ply(self) -> int:
        """Actions played so far in the game on the table."""
        return len(self.game.actions)

    @property
    def to_move(self) -> int | None:
        """The seat to act, ``None`` once the game is over."""
        return None if self.game.is_over else self.game.to_move

    @property
    @abc.abstractmethod
    def dealt(self) -> bool:
        """Whether the table has a game (from the first deal on)."""

    @abc.abstractmethod
    def match_json(self) -> dict[str, Any]:
        """The match standing, the ``match`` field of ``state`` and of the summary."""

    @abc.abstractmethod
    def standing(self) -> list[int]:
        """The match's score per seat or team, as the list of tables shows it."""

    @abc.abstractmethod
    def played_matches(self) -> Sequence[_DealtMatch]:
        """Every match played at the table, the running one last."""

    def view_state(self, conn: Connection) -> dict[str, Any]:
        """The game's fields of ``conn``'s ``state`` message: its view, its legal actions, the match.

        A spectator gets seat 0's view without anything of that seat's own
        (:meth:`view_json`); a seat gets its legal actions only while it is to act
        and nobody invited is still missing.
        """
        game = self.game
        seat = conn.seat
        view = game.view(0 if seat is None else seat)
        acting = seat is not None and self.status == "playing" and game.to_move == seat
        legal = [a.token for a in game.legal_actions()] if acting else []
        return {
            "view": self.view_json(view, seat is None, legal),
            "legal": legal,
            "to_move": self.to_move,
            "your_turn": bool(legal),
            "marriage_values": marriage_values(view.trump),
            "match": self.match_json(),
            "game_over": self.game_over_json() if game.is_over else None,
        }

    @abc.abstractmethod
    def view_json(self, view: Any, spectator: bool, legal: list[str]) -> dict[str, Any]:
        """``view`` (of the game on the table) as JSON for a seat that may send ``legal``, or for a spectator."""

    @abc.abstractmethod
    def game_over_json(self) -> dict[str, Any] | None:
        """The ``game_over`` field once the game is over (the result, the record, what comes next)."""

    def verified(self, seat: int, token: str) -> Action:
        """The action ``token`` of ``seat`` if the engine allows it, else :class:`TableError`."""
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

    def play(self, seat: int, action: Action) -> FinishedGame | None:
        """Apply a stored action to the engine and record its events; the finished game if it ended one.

        The events are the engine's own (:func:`public_events`); the end of the
        game is told by :meth:`finish_game`, with the match standing.
        """
        game = self.game
        self.events.extend(public_events(game.apply(action)))
        if not game.is_over:
            return None
        finished = self.finish_game()
        # The match's verdict is stored beside the result (Repository.finish_game): a player's statistics count
        # the Bummerl won from it (bummerl.server.players) without scoring the match again.
        outcome = match_outcome(self.match_json())
        # The seats of the winners (a team at Bauernschnapsen): a player's statistics look for their own.
        outcome["seats"] = [s.seat for s in self.seats if self._side(s.seat) in outcome["winners"]]
        return dataclasses.replace(finished, result={**finished.result, MATCH_OUTCOME: outcome})

    def _side(self, seat: int) -> int:
        """The side that ``seat`` scores for in the match: its team, or the seat itself."""
        team = self.team(seat)
        return seat if team is None else team

    @abc.abstractmethod
    def finish_game(self) -> FinishedGame:
        """Score the game just ended in the match, tell it (``game_end``, ``match_end``), and what to store."""

    @abc.abstractmethod
    def next_deal(self) -> Deal:
        """The next deal (a new match after a finished one), the room unchanged until it is installed."""

    @abc.abstractmethod
    def bot_seed(self) -> int:
        """The seed of the bot's decision now: ``derive_seed(table seed, BOT_SEED, match, game, ply)``."""

    def bot_turn(self) -> BotTurn | None:
        """The bot's turn if a bot is to act: it gets that seat's view only (as the bot protocol's JSON)."""
        if not self.dealt or self.status != "playing":
            return None
        seat = self.game.to_move
        bot = self.bot_of(seat)
        if bot is None:
            return None
        request = BotRequest(self.id, bot, self.bot_seed(), view_to_json(self.bot_view(seat)), self.variant)
        return BotTurn(seat, request, (self.game_id, self.ply))

    def bot_view(self, seat: int) -> Any:
        """The view the bot at ``seat`` decides on: the seat's view (a two-player table adds its match context,
        :meth:`bummerl.server.tables.LiveTable.bot_view`).  Only bots get it: the seats' messages are unchanged."""
        return self.game.view(seat)

    @abc.abstractmethod
    def replay_stored(self) -> list[FinishedGame]:
        """Rebuild the table from its stored deals and actions (:attr:`data`); the results still to store."""

    def team(self, seat: int) -> int | None:
        """The team of ``seat`` where seats play in teams, else ``None``."""
        return None

    def game_seat(self, seat: int | None) -> int | None:
        """The seat that the table's ``seat`` holds in the game on the table (``None``: a spectator).  The same
        seat at every table but a Schnorps table of three or four (:mod:`bummerl.server.schnorps_tables`), where
        two participants play each game and a waiting one holds none: ask this before reading a seat's view."""
        return seat

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

    def players(self) -> list[dict[str, Any]]:
        """The seats as the ``players`` field of docs/web.md."""
        connected = {c.seat for c in self.connections if c.hello and c.seat is not None}
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
        return self.manager.repo.seat_of(self.id, token)

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
            for k, m in enumerate(self.played_matches())
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
        from bummerl.server.sheet import sheet_json

        version = self.sheet_version()
        if self._sheet is None or self._sheet[0] != version:
            self._sheet = (version, sheet_json(self))
        return self._sheet[1]

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
            replay = type(game).from_deck(self.variant, game.deck, game.dealer)
            match = self.match_json()
            log: list[dict[str, Any]] = [
                {
                    "type": "game_start",
                    "match_no": match.get("match_no"),
                    "game_no": match.get("game_no"),
                    "dealer": game.dealer,
                    "game_id": self.game_id,
                }
            ]
            for action in game.actions:
                log.extend(public_events(replay.apply(action)))
            over = self.game_over_json() if game.is_over else None
            if over is not None:
                log.append({"type": "game_end", "result": over["result"], "standing": self.standing()})
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
        }
        state.update(hints.state_fields(self, conn))  # the hints agreement and the declare check
        if self.dealt and conn.sheet_version != self.sheet_version():
            state["sheet"] = self.sheet()
            conn.sheet_version = self.sheet_version()
        return state

    def send(self, conn: Connection, message: dict[str, Any]) -> None:
        tap = self.manager.tap
        if tap is not None:
            tap(self, conn.seat, message)
        conn.send(message)

    def broadcast(self) -> None:
        """Send every greeted client its state (call after every change)."""
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
        return now - self.touched

    # ------------------------------------------------------------------ changes
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

    def check_action(self, seat: int | None, token: str) -> Any:
        """The action ``token`` of ``seat``, or :class:`TableError` (nothing changes)."""
        seat, to_move = self.playing(seat)
        if to_move != seat:
            raise TableError("not_your_turn", f"it is seat {to_move}'s turn, not seat {seat}'s", rule="turn")
        return self.verified(seat, token)

    async def apply(self, seat: int, action: Any) -> None:
        """Store and play a checked action, then tell everyone (the caller holds the lock).

        :class:`~bummerl.server.storage.StorageError` if the database refused it: nothing changed.
        """
        # Stored first: if the database refuses, the table has not changed.
        db, repo = self.manager.db, self.manager.repo
        try:
            if self.lease is None:
                await db.run(repo.append_action, self.game_id, self.ply, action.token)
            else:  # cluster mode: only while this process still holds the table
                await db.run(repo.append_action, self.game_id, self.ply, action.token, self.lease)
        except NotOwnerError:
            self.manager.table_lost(self)
            raise
        self.storage = "ok"  # the database took it: whatever was retried before is through
        finished = self.play(seat, action)
        if finished is not None:
            self.manager.store_result(finished)
        self.moved = time.monotonic()
        self.touch()
        self.broadcast()
        self.manager.schedule_bot(self)

    async def deal_next(self) -> None:
        """Deal the next game once the current one is over, and store it before the table changes."""
        if self.to_move is not None:
            raise TableError("game_running", "the current game is not over yet")
        await self.deal(self.next_deal())
        self.broadcast()
        self.manager.schedule_bot(self)

    async def deal(self, deal: Deal) -> None:
        """Store ``deal``, then make it the game on the table."""
        repo = self.manager.repo
        seed = None if deal.seed is None else str(deal.seed)
        args = (self.id, deal.match_no, deal.game_no, deal.dealer, deal.deck, seed)
        try:
            if self.lease is None:
                game_id = await self.manager.db.run(repo.start_game, *args)
            else:  # cluster mode: only while this process still holds the table
                game_id = await self.manager.db.run(repo.start_game, *args, self.lease)
        except NotOwnerError:
            self.manager.table_lost(self)
            raise
        # Every client has had the last game's events (each change is broadcast): the log starts anew,
        # so a table that plays for days holds one game's events, not all of them.
        self.events.clear()
        for conn in self.connections:
            conn.cursor = 0
        deal.install(game_id)
        self.log_complete = True
        self.moved = time.monotonic()
        self.touch()


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
        await hints.handle(room, conn, message)  # computed off the table's lock, answered when ready
        return
    async with room.lock:
        try:
            if isinstance(message, ActionMessage):
                seat = conn.seat
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


async def _hello(room: Room, conn: Connection, message: HelloMessage) -> None:
    seat: int | None = None
    if message.token:
        try:
            seat = await room.manager.db.run(room.seat_of, message.token)
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
    }


async def disconnect_client(room: Room, conn: Connection) -> None:
    """Forget a closed connection; the players hear it if it held a seat."""
    async with room.lock:
        was_player = conn.hello and conn.seat is not None
        room.connections.discard(conn)
        room.touch()
        if was_player:
            room.broadcast()
