"""Live three- and four-player tables: Bauernschnapsen (4 seats) and Dreierschnapsen (3 seats).

The counterpart of :mod:`bummerl.server.tables` for the table games of
:mod:`bummerl.table`.  The creator holds seat 0; every other seat is an invited
friend (a join code) or a bot.  Every change goes the same way, under the
table's lock: check the request, **store it** (an action row, a new deal),
apply it to the :class:`~bummerl.table.Table`, then send every client its own
``state`` message (docs/web.md, "Table games").

What a client learns about the cards comes only from
:func:`bummerl.table.view_json.table_view_to_json` of its seat's view
(spectators: ``spectator=True``), from the public events of
:func:`bummerl.table.view_json.action_events`, and, once a game is over, from
its record (:class:`~bummerl.table.record.TableGameRecord`, the same format the
CLI writes).  A restarted server rebuilds each table by replaying its stored
deals and actions; bots think in the executor, never on the event loop.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import secrets
from collections.abc import Callable
from typing import Any

from bummerl.bots import make_bot
from bummerl.errors import BummerlError, IllegalActionError
from bummerl.rng import derive_seed
from bummerl.server.catalog import options_json
from bummerl.server.config import ServerConfig
from bummerl.server.storage import TABLE_GAME, Repository, SeatData, StorageError, TableData, hash_token
from bummerl.server.tables import (
    BOT_SEED,
    FRIEND,
    Connection,
    TableError,
    disconnect_client,
    handle_client_text,
    log,
    store_result,
)
from bummerl.server.workers import choose_table_token
from bummerl.table import Table, TableAction, TableMatch
from bummerl.table.record import TableGameRecord
from bummerl.table.view_json import action_events, result_to_json, table_view_to_json
from bummerl.variants import TableVariant, find_table_variant

__all__ = ["DEFAULT_TABLE_BOT", "LiveTableGame", "TableGameManager", "TableGameTap", "table_variants_json"]

#: The bot of a seat when the request names none (the two-player default "hard" plays two-player games only).
DEFAULT_TABLE_BOT = "heuristic"
#: Path element of :func:`~bummerl.rng.derive_seed` for the seed of a table's second and later matches.
MATCH_SEED = 0x4D41544348

#: ``tap(table, seat, message)`` sees every message sent to a table-game client (``seat`` ``None``: a spectator).
TableGameTap = Callable[["LiveTableGame", int | None, dict[str, Any]], None]


def table_variants_json() -> dict[str, Any]:
    """The table variants for the lobby, with their options (:func:`~bummerl.server.catalog.options_json`),
    and the bots that play them."""
    from bummerl.bots.table_bots import TABLE_BOTS
    from bummerl.variants import TABLE_VARIANTS

    bots = list(TABLE_BOTS)
    variants = [
        {
            "name": v.name,
            "title": v.title,
            "players": v.players,
            "target": v.match_target,
            "teams": v.players == 4,
            "options": options_json(v),
        }
        for v in TABLE_VARIANTS
    ]
    return {"variants": variants, "bots": bots, "default_bot": DEFAULT_TABLE_BOT}


class LiveTableGame:
    """One three- or four-player table in memory; change it only through the manager (under :attr:`lock`)."""

    def __init__(
        self, manager: TableGameManager, data: TableData, seats: list[SeatData], variant: TableVariant
    ) -> None:
        self.manager = manager
        self.id = data.id
        self.data = data
        self.seats = seats
        self.variant = variant
        self.matches: list[TableMatch] = []
        #: The game shown: the running one, or the last one until ``next_game``.
        self.table: Table | None = None
        self.game_id = 0
        self.game_no = 0
        self.game_over: dict[str, Any] | None = None
        self.lock = asyncio.Lock()
        self.connections: set[Connection] = set()
        self.events: list[dict[str, Any]] = []
        self.seq = 0
        self.bot_task: asyncio.Task[None] | None = None

    # ------------------------------------------------------------ properties
    @property
    def match(self) -> TableMatch:
        return self.matches[-1]

    @property
    def game(self) -> Table:
        assert self.table is not None
        return self.table

    @property
    def status(self) -> str:
        if any(s.kind == FRIEND and not s.taken for s in self.seats):
            return "waiting"
        return "game_over" if self.game.result is not None else "playing"

    def bot_of(self, seat: int) -> str | None:
        return self.seats[seat].bot if self.seats[seat].kind == "bot" else None

    def players(self) -> list[dict[str, Any]]:
        connected = {c.seat for c in self.connections if c.hello and c.seat is not None}
        out = []
        for s in self.seats:
            bot = s.kind == "bot"
            out.append(
                {
                    "seat": s.seat,
                    "name": s.name or (s.bot if bot else "") or "",
                    "kind": "bot" if bot else "human",
                    "bot": s.bot,
                    "joined": bot or s.kind == "human" or s.taken,
                    "connected": bot or s.seat in connected,
                    "team": s.seat % 2 if self.variant.players == 4 else None,
                }
            )
        return out

    def match_json(self) -> dict[str, Any]:
        match = self.match
        sides = match.sides
        bummerl = [sum(m.bummerl[s] for m in self.matches) for s in range(sides)]
        return {
            "kind": "teams" if self.variant.players == 4 else "seats",
            "target": self.variant.match_target,
            "match_no": len(self.matches),
            "game_no": self.game_no + 1,
            "scores": list(match.scores),
            "bummerl": bummerl,
            "over": match.is_over,
            "winners": list(match.winners),
            # Schneider: "Haben die Verlierer keinen Spielpunkt" (seeds/004) — two Bummerl.
            "schneider": match.is_over and any(b == 2 for b in match.bummerl),
        }

    def summary(self) -> dict[str, Any]:
        """What anyone may know of the table (no card)."""
        return {
            "table_id": self.id,
            "kind": "table_game",
            "variant": self.variant.name,
            "title": self.variant.title,
            "options": self.variant.options(),
            "seats": self.variant.players,
            "players": self.players(),
            "status": self.status,
            "match": self.match_json(),
            "game_id": self.game_id,
        }

    # --------------------------------------------------------------- messages
    def state_for(self, conn: Connection) -> dict[str, Any]:
        """The ``state`` message of ``conn`` with the events it has not been sent yet."""
        game = self.game
        view = table_view_to_json(game.view(0 if conn.seat is None else conn.seat), spectator=conn.seat is None)
        if self.status == "waiting":
            view["legal"] = []
        events = self.events[conn.cursor :]
        conn.cursor = len(self.events)
        return {
            "type": "state",
            "kind": "table_game",
            "seq": self.seq,
            "table_id": self.id,
            "seat": conn.seat,
            "role": conn.role,
            "status": self.status,
            "view": view,
            "legal": view["legal"],
            "to_move": view["to_move"],
            "your_turn": bool(view["legal"]),
            "match": self.match_json(),
            "players": self.players(),
            "events": events,
            "game_over": self.game_over if game.result is not None else None,
        }

    def send(self, conn: Connection, message: dict[str, Any]) -> None:
        tap = self.manager.tap
        if tap is not None:
            tap(self, conn.seat, message)
        conn.send(message)

    def broadcast(self) -> None:
        self.seq += 1
        for conn in list(self.connections):
            if conn.hello:
                self.send(conn, self.state_for(conn))

    # ---------------------------------------------------------------- changes
    def check_action(self, seat: int | None, token: str) -> TableAction:
        """The action ``token`` of ``seat``, or :class:`TableError` (nothing changes)."""
        if seat is None:
            raise TableError("spectator", "a spectator cannot act; send hello with a seat token to play")
        if self.status == "waiting":
            raise TableError("waiting", "not every invited friend has joined yet")
        game = self.game
        if game.result is not None:
            raise TableError("game_over", "the game is over; send next_game to deal the next one", "game_over")
        if game.to_move != seat:
            raise TableError("not_your_turn", f"it is seat {game.to_move}'s turn, not seat {seat}'s", "turn")
        try:
            action = TableAction.parse(token)
        except (BummerlError, ValueError) as exc:
            raise TableError("bad_action", f"{token!r} is not a table action token: {exc}") from None
        try:
            game.verify(action)
        except IllegalActionError as exc:
            raise TableError("illegal_action", str(exc), exc.rule.name.lower()) from None
        return action

    def apply(self, seat: int, action: TableAction) -> None:
        """Store and play a checked action, then tell everyone (the caller holds the lock)."""
        game = self.game
        # Stored first: if the database refuses, the table has not changed.
        self.manager.repo.append_action(self.game_id, len(game.actions), action.token)
        tricks, contract = len(game.tricks), game.contract.name if game.contract is not None else None
        game.apply(action)
        self.events.extend(action_events(game, seat, action, tricks, contract))
        if game.result is not None:
            self._finish_game()
        self.broadcast()
        self.manager.schedule_bot(self)

    def record(self) -> TableGameRecord:
        tags = {f"Seat{p['seat']}": p["name"] or "?" for p in self.players()}
        tags.update(Event="Bummerl web", Match=str(len(self.matches)), Game=str(self.game_no + 1))
        return TableGameRecord.from_table(self.game, (), **tags)

    def _finish_game(self, store: bool = True) -> None:
        game = self.game
        assert game.result is not None
        self.match.advance()  # scores the game (and deals the next one in memory, shown after next_game)
        record = self.record()
        result = result_to_json(game.result, self.variant.players)
        if store:
            store_result(self.manager.repo, self.game_id, result, record.dumps())
        self.game_over = {
            "game_id": self.game_id,
            "result": result,
            "record": record.dumps(),
            "match_over": self.match.is_over,
            "next_game": True,
        }

    def deal_next(self) -> None:
        """Deal the next game (a new match after a finished one) and store it."""
        if self.game.result is None:
            raise TableError("game_running", "the current game is not over yet")
        # The new deal is stored before the table changes: if the database refuses it,
        # the caller answers `storage` and the finished game stays on the table.
        if self.match.is_over:
            match = self._next_match()
            self._register(match.table, match)
            self.matches.append(match)
        else:
            self._register(self.match.table)
        self.broadcast()
        self.manager.schedule_bot(self)

    def _new_match(self) -> None:
        self.matches.append(self._next_match())

    def _next_match(self) -> TableMatch:
        k = len(self.matches)
        seed = self.data.seed if k == 0 else derive_seed(self.data.seed, MATCH_SEED, k)
        return TableMatch(self.variant, seed, first_dealer=k % self.variant.players)

    def _register(self, table: Table, new_match: TableMatch | None = None) -> None:
        """Store the deal ``table`` (of ``new_match`` if it starts one), then make it the current game."""
        match_no = len(self.matches) - (0 if new_match is not None else 1)
        game_no = len((new_match or self.match).games) - 1
        self.game_id = self.manager.repo.start_game(self.id, match_no, game_no, table.dealer, _deck_text(table), None)
        self.table = table
        self.game_no = game_no
        self.game_over = None
        self.events.append(
            {
                "type": "game_start",
                "match_no": match_no + 1,
                "game_no": self.game_no + 1,
                "dealer": table.dealer,
                "game_id": self.game_id,
            }
        )

    def bot_to_move(self) -> bool:
        table = self.table
        return (
            table is not None
            and table.result is None
            and self.status == "playing"
            and self.bot_of(table.to_move) is not None
        )


def _deck_text(table: Table) -> str:
    return "".join(c.code for c in table.deck)


class TableGameManager:
    """All live three- and four-player tables of one app."""

    def __init__(
        self,
        repo: Repository,
        config: ServerConfig,
        executor: Callable[[], concurrent.futures.Executor],
        tap: TableGameTap | None = None,
    ) -> None:
        self.repo = repo
        self.config = config
        self._executor = executor
        self.tap = tap
        self.tables: dict[str, LiveTableGame] = {}

    # ------------------------------------------------------------ create/join
    def create(
        self,
        variant: str,
        options: dict[str, Any],
        seats: list[str] | None,
        bots: str | None,
        name: str,
        seed: int | None = None,
    ) -> tuple[LiveTableGame, str, dict[int, str]]:
        """A new table with its first deal: the table, seat 0's token and the join code of each invited seat.

        Raises :class:`BummerlError` for an unknown variant, option or bot, or a wrong seat list.
        """
        v = find_table_variant(variant, **options)
        others = seats if seats is not None else [bots or DEFAULT_TABLE_BOT] * (v.players - 1)
        if len(others) != v.players - 1:
            raise BummerlError(f"{v.title} has {v.players} seats: name the {v.players - 1} seats after yours")
        seat_data = [SeatData(0, "human", None, name, True, None)]
        codes: dict[int, str] = {}
        for i, who in enumerate(others, 1):
            if who == FRIEND:
                codes[i] = secrets.token_urlsafe(9)
                seat_data.append(SeatData(i, FRIEND, None, None, False, codes[i]))
            else:
                bot = make_bot(who or DEFAULT_TABLE_BOT, 0, variant=v)  # raises for a bot without table play
                seat_data.append(SeatData(i, "bot", bot.name, None, False, None))
        if seed is None:
            seed = secrets.randbits(63)
        token = secrets.token_urlsafe(32)
        table_id = secrets.token_urlsafe(9)
        data = self.repo.create_table(
            table_id, v.name, v.options(), seed, v.match_target, TABLE_GAME, name, hash_token(token), None
        )
        self.repo.create_seats(table_id, seat_data, {0: hash_token(token)})
        live = LiveTableGame(self, data, seat_data, v)
        live._new_match()
        live._register(live.match.table)
        self.tables[table_id] = live
        self.schedule_bot(live)
        return live, token, codes

    async def join(self, code: str, name: str) -> tuple[LiveTableGame, int, str]:
        """The seat invited by ``code`` for ``name``: the table, the seat and its new token."""
        token = secrets.token_urlsafe(32)
        table_id, seat = self.repo.take_table_seat(code, name, hash_token(token))
        live = await self.get(table_id)
        async with live.lock:
            s = live.seats[seat]
            live.seats[seat] = SeatData(seat, s.kind, s.bot, name, True, s.join_code)
            live.events.append({"type": "joined", "seat": seat, "name": name})
            live.broadcast()
        self.schedule_bot(live)
        return live, seat, token

    # ------------------------------------------------------------------- load
    async def get(self, table_id: str) -> LiveTableGame:
        """The live table, loaded from the database if needed; :class:`StorageError` if unknown."""
        live = self.tables.get(table_id)
        return live if live is not None else self.load(table_id)

    def load(self, table_id: str) -> LiveTableGame:
        """Rebuild a table by replaying its stored deals and actions through the engine."""
        data = self.repo.load_table(table_id)
        if data.opponent != TABLE_GAME:
            raise StorageError(f"table {table_id} is a two-player table")
        if not data.games:
            raise StorageError(f"table {table_id} has no game")
        live = LiveTableGame(self, data, self.repo.seats(table_id), find_table_variant(data.variant, **data.options))
        for stored in data.games:
            if not live.matches or (live.match.is_over and stored.match_no >= len(live.matches)):
                live._new_match()
            table = live.match.table
            if _deck_text(table) != stored.deck or table.dealer != stored.dealer:
                raise StorageError(f"game {stored.id} of table {table_id} does not match its stored deal")
            live.table, live.game_id, live.game_no = table, stored.id, stored.game_no
            for token in stored.actions:
                table.apply(token)
            if table.result is not None:
                live._finish_game(store=not stored.finished)
        self.tables[table_id] = live
        self.schedule_bot(live)
        return live

    def restore(self) -> list[str]:
        """Load every table game with an unfinished game (at start-up)."""
        ids = self.repo.tables_to_resume(table_games=True)
        for table_id in ids:
            if table_id not in self.tables:
                try:
                    self.load(table_id)
                except (BummerlError, StorageError) as exc:
                    log.error("cannot restore table game %s: %s", table_id, exc)
        return ids

    # ------------------------------------------------------------------- bots
    def schedule_bot(self, live: LiveTableGame) -> None:
        if not live.bot_to_move():
            return
        if live.bot_task is not None and not live.bot_task.done():
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            return  # restore before serving: the app's start-up resumes the bots
        live.bot_task = loop.create_task(self._bot_loop(live))

    async def resume_bots(self) -> None:
        for live in list(self.tables.values()):
            self.schedule_bot(live)

    async def _bot_loop(self, live: LiveTableGame) -> None:
        loop = asyncio.get_running_loop()
        while live.bot_to_move():
            if self.config.bot_delay:
                await asyncio.sleep(self.config.bot_delay)
            game = live.game
            ply, seat = len(game.actions), game.to_move
            name = live.bot_of(seat)
            assert name is not None
            seed = derive_seed(live.data.seed, BOT_SEED, len(live.matches), live.game_no, ply)
            try:
                token = await loop.run_in_executor(self._executor(), choose_table_token, name, seed, game.view(seat))
            except Exception as exc:  # a failing bot must not stop the table
                log.error("bot %s failed at table game %s: %s", name, live.id, exc)
                token = ""
            async with live.lock:
                if live.table is not game or len(game.actions) != ply or not live.bot_to_move():
                    continue
                try:
                    action = live.check_action(seat, token)
                except TableError as exc:
                    log.error("bot %s at table %s: %s; playing the first legal action", name, live.id, exc.message)
                    action = game.legal_actions()[0]
                try:
                    live.apply(seat, action)
                except StorageError as exc:
                    log.error("table game %s: the bot's action could not be stored: %s", live.id, exc)
                    return

    # ---------------------------------------------------------------- clients
    async def handle_text(self, live: LiveTableGame, conn: Connection, text: str) -> None:
        """Answer one client message (errors go to that client only)."""
        await handle_client_text(live, conn, text, self.repo.table_seat_of, {"kind": "table_game"})

    async def disconnect(self, live: LiveTableGame, conn: Connection) -> None:
        await disconnect_client(live, conn)

    async def shutdown(self) -> None:
        tasks = [t.bot_task for t in self.tables.values() if t.bot_task is not None and not t.bot_task.done()]
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        for live in self.tables.values():
            for conn in list(live.connections):
                conn.close()
