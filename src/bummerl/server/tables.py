"""Live tables: a match between two seats, its clients, its bot, and the database behind it.

A :class:`LiveTable` holds a :class:`~bummerl.match.Session` (Bummerl after
Bummerl) of one variant, the current game, the connected clients (seats and
spectators) and, at a bot table, the bot of seat 1.  Every change goes the
same way, under the table's lock: check the request, **store it** (an action
row, a new deal), change the engine's state, then send every client its own
``state`` message (docs/web.md).  A refused request changes nothing.

The :class:`TableManager` creates, joins, loads and restores tables: a table
is rebuilt from its stored deals and actions by replaying them through the
engine, so a restarted server goes on where it stopped, and a bot whose turn
it is resumes.

What a client receives about the cards comes only from
:func:`bummerl.protocol.view_to_json` of its seat's view (spectators: that view
without any hand, :func:`~bummerl.server.messages.spectator_view`), from the
public events of the play, and, once a game is over, from its record.  Bots
think in an executor (threads or processes), never on the event loop.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import copy
import dataclasses
import datetime as dt
import json
import logging
import multiprocessing
import os
import secrets
from collections.abc import Callable
from typing import Any, Protocol

from bummerl.actions import Action, ActionKind
from bummerl.bots import bot_info
from bummerl.cards import Card, Rank
from bummerl.errors import BummerlError, IllegalActionError
from bummerl.game import Game
from bummerl.match import Match, Session
from bummerl.protocol import result_to_json, variant_to_json, view_to_json
from bummerl.record import GameRecord, MatchRecord, dumps
from bummerl.rng import derive_seed
from bummerl.server.config import ExecutorKind, ServerConfig
from bummerl.server.messages import (
    ActionMessage,
    ClientError,
    HelloMessage,
    NextGameMessage,
    PingMessage,
    error_message,
    parse_client_message,
    spectator_view,
)
from bummerl.server.storage import Repository, StorageError, TableData, hash_token
from bummerl.server.workers import choose_token, read_game_record, warm_up
from bummerl.variants import TwoPlayerVariant, find_variant

__all__ = [
    "FRIEND",
    "Connection",
    "LiveTable",
    "MessageTap",
    "TableError",
    "TableManager",
    "action_events",
    "make_executor",
]

log = logging.getLogger("bummerl.server")

#: The ``opponent`` of a table that waits for an invited friend.
FRIEND = "friend"
#: Messages waiting for a client before it is disconnected as unresponsive.
MAX_QUEUED = 500
#: Path element of :func:`~bummerl.rng.derive_seed` for a bot's decisions ("BOT" in ASCII).
BOT_SEED = 0x424F54

#: ``tap(table, seat, message)`` sees every message sent to a client (``seat``
#: ``None``: a spectator) at the moment it is built; tests scan them for secrets.
MessageTap = Callable[["LiveTable", int | None, dict[str, Any]], None]


def store_result(repo: Repository, game_id: int, result: dict[str, Any], record: str) -> None:
    """Store a finished game's result; if the database refuses, log it and play on.

    The game's actions are all stored before it ends, so nothing is lost: the
    game stays unfinished in the database and is finished from its actions
    when its table is loaded again (every table with an unfinished game is
    loaded at the next start: :meth:`~bummerl.server.storage.Repository.tables_to_resume`).
    Stopping the table instead would cost the players their next games for a
    missing summary row.
    """
    try:
        repo.finish_game(game_id, result, record)
    except StorageError as exc:
        log.error("the result of game %s was not stored (it is finished again on the next load): %s", game_id, exc)


class TableError(Exception):
    """A request that the table refuses: ``code`` is an error code of docs/web.md."""

    def __init__(self, code: str, message: str, rule: str | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.rule = rule


def make_executor(kind: ExecutorKind, workers: int | None) -> concurrent.futures.Executor:
    """A thread or process pool; processes are spawned, never forked from a threaded server."""
    count = workers or os.cpu_count() or 1
    if kind == "thread":
        return concurrent.futures.ThreadPoolExecutor(max_workers=count, thread_name_prefix="bummerl-worker")
    return concurrent.futures.ProcessPoolExecutor(max_workers=count, mp_context=multiprocessing.get_context("spawn"))


# --------------------------------------------------------------------- events
def action_events(game: Game, action: Action, before: tuple[int, int, Card | None]) -> list[dict[str, Any]]:
    """The public events of ``action``, just applied to ``game``.

    ``before`` is ``(seat, completed tricks, trump card)`` from before the
    action.  Only face-up facts: a drawn talon card is never an event.

    >>> game = Game.deal("schnapsen", seed=3)
    >>> before = (game.to_move, len(game.tricks), game.trump_card)
    >>> action = game.legal_actions()[0]
    >>> game.apply(action)
    >>> action_events(game, action, before) == [{"type": "play", "seat": before[0], "card": action.card.code}]
    True
    """
    seat, tricks_before, trump_card_before = before
    events: list[dict[str, Any]] = []
    kind = action.kind
    suit = action.card.suit if kind is ActionKind.MARRIAGE and action.card is not None else action.suit
    if suit is not None and kind in (ActionKind.MARRIAGE, ActionKind.DECLARE):
        events.append(
            {
                "type": "marriage",
                "seat": seat,
                "suit": suit.letter,
                "cards": [Card(suit, Rank.KING).code, Card(suit, Rank.OBER).code],
                "value": 40 if suit == game.trump else 20,
            }
        )
    if kind is ActionKind.PLAY or (kind is ActionKind.MARRIAGE and _card_was_played(game, action)):
        assert action.card is not None
        events.append({"type": "play", "seat": seat, "card": action.card.code})
    elif kind is ActionKind.MARRIAGE:
        # auto_declare: the marriage brought 66, so the game ended before the card was led.
        events.append({"type": "declare", "seat": seat, "suit": None})
    elif kind is ActionKind.EXCHANGE:
        gave = game.trump_card
        events.append(
            {
                "type": "exchange",
                "seat": seat,
                "took": trump_card_before.code if trump_card_before is not None else None,
                "gave": gave.code if gave is not None else None,
            }
        )
    elif kind is ActionKind.CLOSE:
        events.append({"type": "close", "seat": seat})
    elif kind is ActionKind.DECLARE:
        events.append({"type": "declare", "seat": seat, "suit": action.suit.letter if action.suit else None})
    if len(game.tricks) > tricks_before:
        t = game.tricks[-1]
        events.append(
            {
                "type": "trick",
                "leader": t.leader,
                "lead": t.lead.code,
                "follow": t.follow.code,
                "winner": t.winner,
                "augen": t.lead.augen + t.follow.augen,
            }
        )
    return events


def _card_was_played(game: Game, action: Action) -> bool:
    return action.card is not None and (
        game.lead == action.card or any(action.card in (t.lead, t.follow) for t in game.tricks)
    )


# ----------------------------------------------------------------- connections
class Connection:
    """One client of a table: a seat (0, 1) or a spectator (``seat`` ``None``).

    Messages wait in a queue that the WebSocket's sender drains, so a slow
    client never holds up the table.
    """

    def __init__(self) -> None:
        self.seat: int | None = None
        self.hello = False
        #: How many of the table's events this client has been sent.
        self.cursor = 0
        self.queue: asyncio.Queue[str | None] = asyncio.Queue()

    @property
    def role(self) -> str:
        return "spectator" if self.seat is None else "player"

    def send(self, message: dict[str, Any]) -> None:
        if self.queue.qsize() >= MAX_QUEUED:
            # A client that reads nothing must not make the server hoard its messages: drop it.
            self.close()
            return
        self.queue.put_nowait(json.dumps(message, separators=(",", ":"), ensure_ascii=False))

    def close(self) -> None:
        self.queue.put_nowait(None)


# ------------------------------------------------------------------ the table
@dataclasses.dataclass
class _GameInfo:
    game_id: int
    match_no: int
    game_no: int
    game_over: dict[str, Any] | None = None


class LiveTable:
    """One table in memory; change it only through the manager's handlers (they hold :attr:`lock`)."""

    def __init__(self, manager: TableManager, data: TableData, session: Session) -> None:
        self.manager = manager
        self.id = data.id
        self.data = data
        self.variant: TwoPlayerVariant = session.variant
        self.session = session
        self.lock = asyncio.Lock()
        self.connections: set[Connection] = set()
        #: Every event since the table was loaded; each connection keeps a cursor into it.
        self.events: list[dict[str, Any]] = []
        self.seq = 0
        self.bot_task: asyncio.Task[None] | None = None
        self.info: _GameInfo | None = None

    # ------------------------------------------------------------ properties
    @property
    def match(self) -> Match:
        return self.session.matches[-1]

    @property
    def game(self) -> Game:
        return self.match.games[-1]

    @property
    def bot_name(self) -> str | None:
        return None if self.data.opponent == FRIEND else self.data.opponent

    @property
    def status(self) -> str:
        if self.bot_name is None and not self.data.seat1_taken:
            return "waiting"
        return "game_over" if self.game.is_over else "playing"

    def seat_names(self) -> list[str]:
        name1 = self.data.seat_names[1]
        if self.bot_name is not None:
            name1 = name1 or self.bot_name
        return [self.data.seat_names[0], name1 or ""]

    def players(self) -> list[dict[str, Any]]:
        connected = {c.seat for c in self.connections if c.hello and c.seat is not None}
        names = self.seat_names()
        bot = self.bot_name
        return [
            {"name": names[0], "kind": "human", "bot": None, "joined": True, "connected": 0 in connected},
            {
                "name": names[1],
                "kind": "bot" if bot else "human",
                "bot": bot,
                "joined": bot is not None or self.data.seat1_taken,
                "connected": bot is not None or 1 in connected,
            },
        ]

    def match_json(self) -> dict[str, Any]:
        match, session = self.match, self.session
        return {
            "kind": match.kind,
            "target": match.target,
            "match_no": len(session.matches),
            "game_no": len(match.games),
            "standing": list(match.standing),
            "points": list(match.points),
            "multiplier": match.multiplier,
            "bummerl": list(session.bummerl),
            "matches_won": list(session.matches_won),
            "over": match.is_over,
            "winner": match.winner,
            "schneider": match.is_schneider,
        }

    def summary(self) -> dict[str, Any]:
        """What anyone may know of the table (no card)."""
        return {
            "table_id": self.id,
            "variant": variant_to_json(self.variant),
            "players": self.players(),
            "status": self.status,
            "match": self.match_json(),
            "game_id": self.info.game_id if self.info else None,
        }

    # --------------------------------------------------------------- messages
    def state_for(self, conn: Connection) -> dict[str, Any]:
        """The ``state`` message of ``conn``, with the events it has not been sent yet."""
        game = self.game
        if conn.seat is None:
            view = spectator_view(view_to_json(game.view(0)))
            legal: list[str] = []
        else:
            view = view_to_json(game.view(conn.seat))
            waiting = self.status == "waiting"
            legal = [] if waiting or game.to_move != conn.seat else [a.token for a in game.legal_actions()]
        events = self.events[conn.cursor :]
        conn.cursor = len(self.events)
        return {
            "type": "state",
            "seq": self.seq,
            "table_id": self.id,
            "seat": conn.seat,
            "role": conn.role,
            "status": self.status,
            "view": view,
            "legal": legal,
            "to_move": None if game.is_over else game.to_move,
            "your_turn": bool(legal),
            "match": self.match_json(),
            "players": self.players(),
            "events": events,
            "game_over": self.info.game_over if self.info and game.is_over else None,
        }

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

    # ------------------------------------------------------------- changes
    def check_action(self, seat: int | None, token: str) -> Action:
        """The action ``token`` of ``seat``, or :class:`TableError` (nothing changes)."""
        if seat is None:
            raise TableError("spectator", "a spectator cannot act; send hello with a seat token to play")
        if self.status == "waiting":
            raise TableError("waiting", "the invited friend has not joined yet")
        game = self.game
        if game.is_over:
            raise TableError("game_over", "the game is over; send next_game to deal the next one", "game_over")
        if game.to_move != seat:
            raise TableError("not_your_turn", f"it is seat {game.to_move}'s turn, not seat {seat}'s", "turn")
        try:
            action = Action.parse(token)
        except (BummerlError, ValueError) as exc:
            raise TableError("bad_action", f"{token!r} is not an action token: {exc}") from None
        try:
            game.verify(action)
        except IllegalActionError as exc:
            raise TableError("illegal_action", str(exc), exc.rule.name.lower()) from None
        return action

    def apply(self, seat: int, action: Action) -> None:
        """Store and play a checked action, then tell everyone (the caller holds the lock)."""
        game = self.game
        info = self.info
        assert info is not None
        # Stored first: if the database refuses, the table has not changed.
        self.manager.repo.append_action(info.game_id, len(game.actions), action.token)
        before = (seat, len(game.tricks), game.trump_card)
        game.apply(action)
        self.events.extend(action_events(game, action, before))
        if game.is_over:
            self._finish_game()
        self.broadcast()
        self.manager.schedule_bot(self)

    def _finish_game(self) -> None:
        """Score the finished game in the match, store its record and make its ``game_over``."""
        game, match, info = self.game, self.match, self.info
        assert info is not None and game.result is not None
        match.complete(game)
        if match.is_over:
            self.session.finish(match)
        record = self.record_of(len(match.games) - 1)
        result = result_to_json(game.result)
        store_result(self.manager.repo, info.game_id, result, dumps(record))
        info.game_over = self._game_over(record)
        self.events.append({"type": "game_end", "result": result, "standing": list(match.standing)})
        if match.is_over:
            self.events.append(
                {
                    "type": "match_end",
                    "winner": match.winner,
                    "schneider": match.is_schneider,
                    "bummerl": match.bummerl_for_loser,
                }
            )

    def record_of(self, index: int) -> GameRecord:
        """The record of game ``index`` of the current match, with the table's tags."""
        names = self.seat_names()
        seat1 = f"bot:{self.bot_name}" if self.bot_name else names[1]
        tags = {
            "Event": "Bummerl web table",
            "Site": "bummerl serve",
            "Date": dt.datetime.now(dt.UTC).strftime("%Y.%m.%d"),
            "Seat0": names[0],
            "Seat1": seat1 or "?",
            "Table": self.id,
        }
        game = MatchRecord.from_match(self.match, **tags).games[index]
        # Stored and shown alone, a game must read as one game: without the Match tag
        # that makes a reader expect the match's games from the first on.
        return dataclasses.replace(game, tags={k: v for k, v in game.tags.items() if k != "Match"})

    def _game_over(self, record: GameRecord) -> dict[str, Any]:
        assert self.info is not None and record.result is not None
        # The hands at the deal come from the record: the deal replayed, not the live state.
        dealt = Game.from_deck(record.variant, record.deck, record.dealer)
        result = result_to_json(record.result)
        return {
            "game_id": self.info.game_id,
            "result": result,
            "winner": result["winner"],
            "points": result["points"],
            "reason": result["reason"],
            "hands_at_deal": [[c.code for c in h] for h in dealt.hands],
            "trump_card": dealt.trump_card.code if dealt.trump_card else None,
            "record": dumps(record),
            "analysis_url": f"/api/games/{self.info.game_id}/analysis",
            "match_over": self.match.is_over,
            "next_game": True,
        }

    def deal_next(self) -> None:
        """Deal the next game (a new Bummerl after a finished one) and store it."""
        if not self.game.is_over:
            raise TableError("game_running", "the current game is not over yet")
        # Dealt on a copy and stored before the table changes: if the database refuses the
        # deal, the caller answers `storage` and the finished game stays on the table.
        # (The memo keeps the one variant object; cards and actions copy as themselves.)
        session = copy.deepcopy(self.session, {id(self.variant): self.variant})
        if session.matches[-1].is_over:
            session.new_match()
        game = session.matches[-1].deal_next()
        self._register_game(game, session)
        self.broadcast()
        self.manager.schedule_bot(self)

    def _register_game(self, game: Game, session: Session | None = None) -> None:
        """Store the deal ``game`` (the current game of ``session``), then make ``session`` the table's."""
        session = session or self.session
        match = session.matches[-1]
        match_no = len(session.matches) - 1
        game_no = len(match.games) - 1
        seed = match.game_seeds[-1]
        game_id = self.manager.repo.start_game(
            self.id, match_no, game_no, game.dealer, _deck_text(game), None if seed is None else str(seed)
        )
        self.session = session
        self.info = _GameInfo(game_id, match_no, game_no)
        self.events.append(
            {
                "type": "game_start",
                "match_no": match_no + 1,
                "game_no": game_no + 1,
                "dealer": game.dealer,
                "game_id": game_id,
            }
        )

    def bot_seed(self) -> int:
        assert self.info is not None
        return derive_seed(self.data.seed, BOT_SEED, self.info.match_no, self.info.game_no, len(self.game.actions))

    def bot_to_move(self) -> bool:
        return self.bot_name is not None and not self.game.is_over and self.game.to_move == 1


def _deck_text(game: Game) -> str:
    return "".join(c.code for c in game.deck)


# -------------------------------------------------------------------- manager
class TableManager:
    """All live tables of one app, with the repository and the bot executor."""

    def __init__(self, repo: Repository, config: ServerConfig, tap: MessageTap | None = None) -> None:
        self.repo = repo
        self.config = config
        self.tap = tap
        self.tables: dict[str, LiveTable] = {}
        self._executor: concurrent.futures.Executor | None = None
        self._loading: dict[str, asyncio.Lock] = {}

    @property
    def executor(self) -> concurrent.futures.Executor:
        if self._executor is None:
            self._executor = make_executor(self.config.bot_executor, self.config.bot_workers)
        return self._executor

    # --------------------------------------------------------- create/join
    def create_table(
        self,
        variant: str,
        options: dict[str, Any],
        opponent: str,
        name: str,
        seed: int | None = None,
        target: int | None = None,
    ) -> tuple[LiveTable, str, str | None]:
        """A new table with its first deal; returns it, seat 0's token and the join code (friend tables).

        Raises :class:`BummerlError` for an unknown variant, option or bot.
        """
        v = find_variant(variant, **options)
        if opponent != FRIEND:
            opponent = bot_info(opponent).name  # canonical name; raises for an unknown bot
        if seed is None:
            seed = secrets.randbits(63)
        session = Session(v, seed, target)
        session.new_match()
        token = secrets.token_urlsafe(32)
        join_code = secrets.token_urlsafe(9) if opponent == FRIEND else None
        table_id = secrets.token_urlsafe(9)
        data = self.repo.create_table(
            table_id,
            v.name,
            v.options(),
            seed,
            session.matches[-1].target,
            opponent,
            name,
            hash_token(token),
            join_code,
            seat1_name=None if opponent == FRIEND else opponent,
        )
        table = LiveTable(self, data, session)
        table._register_game(table.match.deal_next())
        self.tables[table_id] = table
        self.schedule_bot(table)
        return table, token, join_code

    async def join(self, code: str, name: str) -> tuple[LiveTable, str]:
        """Seat 1 for the holder of a join code; returns the table and the new token."""
        token = secrets.token_urlsafe(32)
        table_id = self.repo.take_seat1(code, name, hash_token(token))
        table = await self.get(table_id)
        async with table.lock:
            table.data.seat1_taken = True
            table.data.seat_names = (table.data.seat_names[0], name)
            table.events.append({"type": "joined", "seat": 1, "name": name})
            table.broadcast()
        return table, token

    # ---------------------------------------------------------------- load
    async def get(self, table_id: str) -> LiveTable:
        """The live table, loaded from the database if needed; :class:`StorageError` if unknown."""
        table = self.tables.get(table_id)
        if table is not None:
            return table
        lock = self._loading.setdefault(table_id, asyncio.Lock())
        async with lock:
            table = self.tables.get(table_id)
            if table is None:
                table = self.load(table_id)
        return table

    def load(self, table_id: str) -> LiveTable:
        """Rebuild a table by replaying its stored deals and actions through the engine."""
        data = self.repo.load_table(table_id)
        session = Session(find_variant(data.variant, **data.options), data.seed, data.target)
        table = LiveTable(self, data, session)
        if not data.games:
            raise StorageError(f"table {table_id} has no game")
        for stored in data.games:
            if not session.matches or (session.matches[-1].is_over and stored.match_no >= len(session.matches)):
                session.new_match()
            match = session.matches[-1]
            game = match.deal_next()
            if _deck_text(game) != stored.deck or game.dealer != stored.dealer:
                raise StorageError(f"game {stored.id} of table {table_id} does not match its stored deal")
            table.info = _GameInfo(stored.id, stored.match_no, stored.game_no)
            for token in stored.actions:
                game.apply(token)
            if game.is_over:
                match.complete(game)
                if match.is_over:
                    session.finish(match)
                if not stored.finished and stored is not data.games[-1]:
                    # Its result was refused while the table played on (store_result): store it now.
                    assert game.result is not None
                    result = result_to_json(game.result)
                    store_result(self.repo, stored.id, result, dumps(table.record_of(len(match.games) - 1)))
        last = data.games[-1]
        game = table.game
        if game.is_over:
            assert table.info is not None and game.result is not None
            if last.finished and last.record:
                record = read_game_record(last.record)
            else:
                # The server stopped between the last action and storing the result.
                record = table.record_of(len(table.match.games) - 1)
                store_result(self.repo, last.id, result_to_json(game.result), dumps(record))
            table.info.game_over = table._game_over(record)
        self.tables[table_id] = table
        self.schedule_bot(table)
        return table

    def restore(self) -> list[str]:
        """Load every table with an unfinished game (at start-up); bots whose turn it is go on."""
        self.repo.reset_running_analyses()
        ids = self.repo.tables_to_resume(table_games=False)
        for table_id in ids:
            if table_id not in self.tables:
                try:
                    self.load(table_id)
                except (BummerlError, StorageError) as exc:
                    log.error("cannot restore table %s: %s", table_id, exc)
        return ids

    # ---------------------------------------------------------------- bots
    def schedule_bot(self, table: LiveTable) -> None:
        """Start the table's bot if it is its turn and it is not thinking already."""
        if not table.bot_to_move():
            return
        if table.bot_task is not None and not table.bot_task.done():
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            return  # no loop yet (restore before serving): the app's start-up schedules it
        table.bot_task = loop.create_task(self._bot_loop(table))

    async def _bot_loop(self, table: LiveTable) -> None:
        # One task per table plays every bot move in a row; a check of
        # bot_to_move() and the task's end happen without an await between
        # them, so schedule_bot() can never miss a turn.
        loop = asyncio.get_running_loop()
        while table.bot_to_move():
            if self.config.bot_delay:
                await asyncio.sleep(self.config.bot_delay)
            game = table.game
            ply = len(game.actions)
            view = view_to_json(game.view(1))
            seed = table.bot_seed()
            name = table.bot_name
            assert name is not None
            try:
                token = await loop.run_in_executor(self.executor, choose_token, name, seed, view)
            except Exception as exc:  # a failing bot must not stop the table
                log.error("bot %s failed at table %s: %s", name, table.id, exc)
                token = ""
            async with table.lock:
                if table.game is not game or len(game.actions) != ply or not table.bot_to_move():
                    continue
                try:
                    action = table.check_action(1, token)
                except TableError as exc:
                    log.error("bot %s at table %s: %s; playing the first legal action", name, table.id, exc.message)
                    action = game.legal_actions()[0]
                try:
                    table.apply(1, action)
                except StorageError as exc:
                    log.error("table %s: the bot's action could not be stored: %s", table.id, exc)
                    return

    async def resume_bots(self) -> None:
        for table in list(self.tables.values()):
            self.schedule_bot(table)

    async def warm_up(self) -> None:
        """Start the bot worker processes and load the bots in them before the first table needs one."""
        if self.config.bot_executor != "process":
            return
        loop = asyncio.get_running_loop()
        workers = self.config.bot_workers or os.cpu_count() or 1
        await asyncio.gather(*(loop.run_in_executor(self.executor, warm_up) for _ in range(workers)))

    # ------------------------------------------------------------- clients
    async def handle_text(self, table: LiveTable, conn: Connection, text: str) -> None:
        """Answer one client message (errors go to that client only)."""
        await handle_client_text(table, conn, text, self.repo.seat_of, {})

    async def disconnect(self, table: LiveTable, conn: Connection) -> None:
        await disconnect_client(table, conn)

    # -------------------------------------------------------------- shutdown
    async def shutdown(self) -> None:
        tasks = [t.bot_task for t in self.tables.values() if t.bot_task is not None and not t.bot_task.done()]
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        for table in self.tables.values():
            for conn in list(table.connections):
                conn.close()
        if self._executor is not None:
            # Worker processes are joined (a running decision takes a fraction of a
            # second); threads are not: one may wait on a test's event.
            process = isinstance(self._executor, concurrent.futures.ProcessPoolExecutor)
            self._executor.shutdown(wait=process, cancel_futures=True)
            self._executor = None


class Room(Protocol):
    """What the client handling needs of a live table, two-player or table game."""

    id: str
    lock: asyncio.Lock
    connections: set[Connection]
    events: list[dict[str, Any]]

    def send(self, conn: Connection, message: dict[str, Any]) -> None: ...

    def broadcast(self) -> None: ...

    def state_for(self, conn: Connection) -> dict[str, Any]: ...

    def players(self) -> list[dict[str, Any]]: ...

    def check_action(self, seat: int | None, token: str) -> Any: ...

    def apply(self, seat: int, action: Any) -> None: ...

    def deal_next(self) -> None: ...


async def handle_client_text(
    room: Room,
    conn: Connection,
    text: str,
    seat_of: Callable[[str, str], int | None],
    welcome: dict[str, Any],
) -> None:
    """Answer one client message of either kind of table (errors go to that client only).

    ``seat_of(table_id, token)`` finds the seat a token holds; ``welcome`` adds fields to the welcome message.
    """
    message = parse_client_message(text)
    if isinstance(message, ClientError):
        room.send(conn, error_message(message.code, message.message))
        return
    if isinstance(message, PingMessage):
        room.send(conn, {"type": "pong"})
        return
    if isinstance(message, HelloMessage):
        await _hello(room, conn, message, seat_of, welcome)
        return
    if not conn.hello:
        room.send(conn, error_message("hello_required", "send hello first (with a seat token to play)"))
        return
    async with room.lock:
        try:
            if isinstance(message, ActionMessage):
                seat = conn.seat
                action = room.check_action(seat, message.action)
                assert seat is not None  # check_action refuses spectators
                room.apply(seat, action)
            elif isinstance(message, NextGameMessage):
                if conn.seat is None:
                    raise TableError("spectator", "a spectator cannot deal")
                room.deal_next()
        except TableError as exc:
            room.send(conn, error_message(exc.code, exc.message, exc.rule))
        except StorageError as exc:
            room.send(conn, error_message("storage", f"not stored, nothing changed (send it again): {exc}"))


async def _hello(
    room: Room,
    conn: Connection,
    message: HelloMessage,
    seat_of: Callable[[str, str], int | None],
    welcome: dict[str, Any],
) -> None:
    seat: int | None = None
    if message.token:
        seat = seat_of(room.id, message.token)
        if seat is None:
            room.send(conn, error_message("bad_token", "this token holds no seat at this table"))
            return
    async with room.lock:
        conn.seat = seat
        conn.hello = True
        conn.cursor = len(room.events)
        room.connections.add(conn)
        room.send(
            conn,
            {
                "type": "welcome",
                **welcome,
                "table_id": room.id,
                "seat": seat,
                "role": conn.role,
                "players": room.players(),
            },
        )
        if seat is None:
            room.send(conn, room.state_for(conn))
        else:
            # Everyone hears that a player (re)connected; the newcomer gets events [].
            room.broadcast()


async def disconnect_client(room: Room, conn: Connection) -> None:
    """Forget a closed connection; the players hear it if it held a seat."""
    async with room.lock:
        was_player = conn.hello and conn.seat is not None
        room.connections.discard(conn)
        if was_player:
            room.broadcast()
