"""Live Schnorps tables of three or four participants: two play each game, the others watch, the loser pays all.

A :class:`LiveSchnorpsRound` is a :class:`~bummerl.server.rooms.Room` that
holds the :class:`~bummerl.schnorps_round.SchnorpsRound` matches of one table
(seeds/001: "Wenn mehre am Spiele Theil nehmen, so wird ebenfalls immer nur
von zweien gespielt ... Der Verlierende muß nicht nur an seinen Mitspieler,
sondern an alle Theilnehmer zahlen").  Its seats are the *participants*
(``0 .. n-1``, the creator at 0; bots or invited friends at the others); each
game is a two-player Schnorps game whose game seats 0 (Vorhand) and 1 are
held by the two participants whose turn it is (:attr:`SchnorpsRound.next_players`).
It is made by ``POST /api/tables`` with ``variant`` ``schnorps`` and ``seats``
naming two or three other participants (one other: the two-player table of
:mod:`bummerl.server.tables`).  One class per number of participants
(:class:`LiveSchnorpsRound3`, :class:`LiveSchnorpsRound4`), so that the table
manager asks a kind of table its seats as it asks every other kind.

**What each connection sees.**  A participant who plays this game gets the
view of their game seat, exactly as at a two-player table; a participant who
waits, and a spectator, get a spectator's view (:func:`~bummerl.server.messages.spectator_view`:
no hand, no card known of a hand), the same events (:func:`~bummerl.server.rooms.public_events`:
no card drawn from the talon is named) and, once the game is over, its record.
A waiting participant may not act (``not_your_turn``) and gets no hint nor
declare check (:meth:`game_seat` is ``None``).  The view, the events, ``to_move``
and the live ``game_over.result`` count in game seats; ``match.players`` says
which participant holds each, and ``game_seat`` which one is the connection's.

**What is stored.**  Each game is a row of the table's games (``dealer`` is the
participant who dealt) with its actions, and, once over, a two-player game record (the
same format as a two-player table's, with the round's tags ``RoundDealer``,
``RoundPlayers``, ``BalanceBefore``/``BalanceAfter``) and its result in the
table's seats: ``winner``/``loser`` are participants, ``players`` the
participants at game seats 0 and 1 (``augen`` follow them), ``payments`` and
``balance`` each participant's Marken for the game and after it.  The standing
is rebuilt from the stored games on a reload, as every table's.  No schema
change: the seats table holds up to four seats, and the result is JSON.

Deals come from the table's secret deal key as at every table (docs/security.md).
"""

from __future__ import annotations

import copy
import datetime as dt
from typing import TYPE_CHECKING, Any, ClassVar

from bummerl.actions import Action
from bummerl.cards import parse_cards
from bummerl.errors import BummerlError
from bummerl.match import DEFAULT_TARGET
from bummerl.protocol import result_to_json
from bummerl.record import GameRecord, dumps
from bummerl.rng import derive_key, derive_seed, key_commitment
from bummerl.schnorps_round import RoundGame, SchnorpsRound, participant_counts
from bummerl.server.config import ServerConfig
from bummerl.server.rooms import (
    BOT_SEED,
    BotTurn,
    Connection,
    Deal,
    FinishedGame,
    TableError,
    marriage_values,
)
from bummerl.server.scheduler import BotRequest
from bummerl.server.storage import StorageError, TableData
from bummerl.server.tables import GameInfo, LiveTable, TwoPlayerRoom
from bummerl.server.workers import read_game_record
from bummerl.two_player import TwoPlayerGame
from bummerl.variants import TwoPlayerVariant
from bummerl.view_json import view_to_json

if TYPE_CHECKING:
    from bummerl.game import Game
    from bummerl.server.manager import TableManager

__all__ = ["LiveSchnorpsRound", "LiveSchnorpsRound3", "LiveSchnorpsRound4", "round_sheet", "stored_result"]

#: Path element of :func:`~bummerl.rng.derive_seed` for the seed of a table's second and later matches.
MATCH_SEED = 0x4D41544348
#: The matches a sheet lists in full (the newest), as the Bummerl sheet of every table.
MAX_SHEET_MATCHES = 20


def stored_result(h: RoundGame, participants: int) -> dict[str, Any]:
    """A finished game of a round as the table's games store it: in the table's seats.

    >>> r = SchnorpsRound(participants=3, seed=4, first_dealer=0)
    >>> game = r.deal_next()
    >>> while not game.is_over:
    ...     _ = game.apply(game.legal_actions()[0])
    >>> r.complete(game)
    >>> out = stored_result(r.history[0], 3)
    >>> out["players"], out["dealer"], sum(out["payments"]), out["winner"] in (1, 2)
    ([1, 2], 0, 0, True)
    """
    result = h.result
    return {
        "winner": h.winner,
        "loser": h.loser,
        "points": result.points,
        "reason": result.reason.value,
        "augen": list(result.augen),
        "unit": result.unit,
        "participants": participants,
        "players": list(h.players),
        "dealer": h.dealer,
        "multiplier": h.multiplier,
        "marken": h.marken,
        "payments": list(h.payments),
        "balance": list(h.balance_after),
    }


def round_sheet(r: SchnorpsRound, match_no: int) -> dict[str, Any]:
    """One round as the lines of the Bummerl sheet (``scoring`` ``"marken"``, one column per participant):
    who dealt, who played, who won, what each participant received or paid, and the balances after it.

    >>> r = SchnorpsRound(participants=4, seed=1, first_dealer=2)
    >>> sheet = round_sheet(r, 1)
    >>> sheet["scoring"], sheet["participants"], sheet["current"], sheet["standing"]
    ('marken', 4, {'game_no': 1, 'dealer': 2, 'players': [3, 0]}, [0, 0, 0, 0])
    """
    from bummerl.server.sheet import loser_class  # the sheet's own classes of a lost game (seeds/001)

    lines = []
    games = r.games
    for h in r.history:
        game = games[h.index]
        closed_by = None if game.closed_by is None else h.players[game.closed_by]
        lines.append(
            {
                "game_no": h.index + 1,
                "dealer": h.dealer,
                "players": list(h.players),
                "winner": h.winner,
                "loser": h.loser,
                "points": h.result.points,
                "unit": h.result.unit,
                "credited": h.marken,
                "multiplier": h.multiplier,
                "reason": h.result.reason.value,
                "closed_by": closed_by,
                "class": loser_class("marken", h.result, game.closed_by),
                "augen": list(h.result.augen),
                "payments": list(h.payments),
                "standing": list(h.balance_after),
            }
        )
    n = r.participants
    over = r.is_over
    current = None
    if not over:
        current = {"game_no": len(r.history) + 1, "dealer": r.next_dealer, "players": list(r.next_players)}
    return {
        "match_no": match_no,
        "scoring": "marken",
        "round": True,
        "participants": n,
        "target": r.target,
        "start": [0] * n,
        "games": lines,
        "standing": list(r.balance),
        "next_multiplier": r.multiplier,
        "current": current,
        "over": over,
        "winner": r.winners[0] if len(r.winners) == 1 else None,
        "winners": list(r.winners),
        "schneider": False,
        "bummerl": 0,
    }


class LiveSchnorpsRound(TwoPlayerRoom):
    """A Schnorps table of :attr:`participants` seats in memory; change it only under :attr:`lock`.

    Seat 0 is the creator's; the others are bots or invited friends.  Two of the
    seats play each game (:meth:`game_seat`), the others watch it.
    """

    kind = "schnorps_round"
    takes_new_deal_key = True
    #: How many sit at a table of this class.
    participants: ClassVar[int] = 3

    def __init__(self, manager: TableManager, data: TableData) -> None:
        super().__init__(manager, data)
        if len(data.seats) != self.participants:
            raise StorageError(f"table {data.id} has {len(data.seats)} seats, not {self.participants}")
        self._variant: TwoPlayerVariant = TwoPlayerVariant.find(data.variant, **data.options)
        self.rounds: list[SchnorpsRound] = []
        self._round_sheet: tuple[Any, dict[str, Any]] | None = None

    # ------------------------------------------------------------ the family (class level)
    @classmethod
    def plays(cls, variant: Any) -> bool:
        return isinstance(variant, TwoPlayerVariant) and cls.participants in participant_counts(variant)

    @classmethod
    def variants(cls) -> list[Any]:
        """None of its own: Schnorps is listed by the two-player tables, with its ``participants``."""
        return []

    @classmethod
    def seat_count(cls, variant: Any) -> int:
        return cls.participants

    @classmethod
    def default_bot(cls, config: ServerConfig) -> str:
        return LiveTable.default_bot(config)

    @classmethod
    def match_target(cls, variant: Any, target: int | None) -> int:
        return target if target is not None else DEFAULT_TARGET

    @classmethod
    def variant_extra(cls, variant: Any) -> dict[str, Any]:
        return LiveTable.variant_extra(variant)

    @classmethod
    def record_json(cls, text: str) -> str:
        return LiveTable.record_json(text)

    @classmethod
    def finished_details(cls, game_id: int, record: str) -> dict[str, Any]:
        return LiveTable.finished_details(game_id, record)

    @classmethod
    def replay_board(cls, game: Game) -> dict[str, Any]:
        return LiveTable.replay_board(game)

    # ------------------------------------------------------------ properties
    @property
    def variant(self) -> TwoPlayerVariant:
        return self._variant

    @property
    def round(self) -> SchnorpsRound:
        """The match being played (the last one)."""
        return self.rounds[-1]

    @property
    def game(self) -> TwoPlayerGame:
        return self.round.games[-1]

    @property
    def players_now(self) -> tuple[int, int]:
        """The participants at game seats 0 and 1 of the game on the table."""
        r = self.round
        return r.players_of(len(r.games) - 1)

    def game_seat(self, seat: int | None) -> int | None:
        """The game seat of participant ``seat`` in the game on the table; ``None`` while they wait (or watch)."""
        if seat is None or not self.dealt:
            return None
        players = self.players_now
        return players.index(seat) if seat in players else None

    def played_matches(self) -> list[SchnorpsRound]:
        return self.rounds

    def standing(self) -> list[int]:
        return list(self.round.balance)

    def match_json(self) -> dict[str, Any]:
        r = self.round
        index = len(r.games) - 1
        players = r.players_of(index) if index >= 0 else r.next_players
        dealer = r.dealer_of(index) if index >= 0 else r.next_dealer
        won = [0] * r.participants
        for m in self.rounds:
            for p in m.winners:
                won[p] += 1
        return {
            "kind": "round",
            "scoring": "marken",
            "participants": r.participants,
            "target": r.target,
            "match_no": len(self.rounds),
            "game_no": len(r.games),
            "dealer": dealer,
            "players": list(players),
            "waiting": [p for p in range(r.participants) if p not in players],
            "balance": list(r.balance),
            "standing": list(r.balance),
            "multiplier": r.multiplier,
            "rounds": r.rounds,
            "matches_won": won,
            "over": r.is_over,
            "winners": list(r.winners),
            "schneider": False,
        }

    # --------------------------------------------------------------- messages
    def view_state(self, conn: Connection) -> dict[str, Any]:
        """As every table's, in game seats; a participant who waits and a spectator get a spectator's view.

        ``game_seat`` is the connection's seat in this game (``None``: it watches).
        """
        game = self.game
        g = self.game_seat(conn.seat)
        view = game.view(0 if g is None else g)
        acting = g is not None and self.status == "playing" and game.to_move == g
        legal = [a.token for a in game.legal_actions()] if acting else []
        return {
            "view": self.view_json(view, g is None, legal),
            "legal": legal,
            "to_move": self.to_move,
            "your_turn": bool(legal),
            "game_seat": g,
            "marriage_values": marriage_values(view.trump),
            "match": self.match_json(),
            "game_over": self.game_over_json() if game.is_over else None,
        }

    def sheet(self) -> dict[str, Any]:
        """The Bummerl sheet of the table (:meth:`Room.sheet`) with one :func:`round_sheet` per match."""
        version = self.sheet_version()
        if self._round_sheet is None or self._round_sheet[0] != version:
            data = dict(super().sheet())
            matches = [round_sheet(m, k + 1) for k, m in enumerate(self.rounds)]
            won = [0] * self.participants
            for m in self.rounds:
                for p in m.winners:
                    won[p] += 1
            data.update(
                matches=matches[-MAX_SHEET_MATCHES:],
                matches_total=len(matches),
                sides=[[p] for p in range(self.participants)],
                totals={"matches_won": won, "bummerl": [0] * self.participants},
            )
            self._round_sheet = (version, data)
        return self._round_sheet[1]

    def game_log(self) -> list[dict[str, Any]]:
        """Every table's log (:meth:`Room.game_log`), its ``game_start`` naming the round's dealer and players."""
        rebuilt = not self.log_complete and self.dealt
        log = super().game_log()
        if rebuilt and self.events and self.events[0].get("type") == "game_start":
            self.events[0].update(self._start_fields())
            log = list(self.events)
        return log

    def _start_fields(self) -> dict[str, Any]:
        match = self.match_json()
        return {"dealer": match["dealer"], "players": match["players"], "waiting": match["waiting"]}

    # ------------------------------------------------------------------ changes
    def check_action(self, seat: int | None, token: str) -> Action:
        """The action ``token`` of participant ``seat``, or :class:`TableError`: only the game seat to act may."""
        seat, to_move = self.playing(seat)
        g = self.game_seat(seat)
        players = self.players_now
        if g is None:
            raise TableError(
                "not_your_turn",
                f"seat {seat} waits this game: seats {players[0]} and {players[1]} play it",
                rule="turn",
            )
        if g != to_move:
            raise TableError("not_your_turn", f"it is seat {players[to_move]}'s turn, not seat {seat}'s", rule="turn")
        return self.verified(g, token)

    def bot_turn(self) -> BotTurn | None:
        """The bot's turn if the participant to act is a bot: it gets its game seat's view only."""
        if not self.dealt or self.status != "playing":
            return None
        g = self.game.to_move
        seat = self.players_now[g]
        bot = self.bot_of(seat)
        if bot is None:
            return None
        request = BotRequest(self.id, bot, self.bot_seed(), view_to_json(self.game.view(g)), self.variant)
        return BotTurn(seat, request, (self.game_id, self.ply))

    def finish_game(self) -> FinishedGame:
        """Pay the finished game in the round, make its ``game_over`` and the rows to store."""
        game, r, info = self.game, self.round, self.info
        assert info is not None and game.result is not None
        r.complete(game)
        h = r.history[-1]
        record = self.record_of(len(r.games) - 1)
        live = self._live_result(h)
        info.game_over = self._game_over(record, live)
        self.events.append({"type": "game_end", "result": live, "standing": list(r.balance)})
        if r.is_over:
            end: dict[str, Any] = {"type": "match_end", "winners": list(r.winners), "balance": list(r.balance)}
            if r.deal_key is not None:
                end["deal_key"] = r.deal_key.hex()
            self.events.append(end)
        return FinishedGame(info.game_id, stored_result(h, r.participants), dumps(record))

    def _live_result(self, h: RoundGame) -> dict[str, Any]:
        """The result as the live table tells it: the engine's, in game seats, with the round's payments."""
        return {**result_to_json(h.result), "round": stored_result(h, self.participants)}

    def _name(self, seat: int) -> str:
        bot = self.bot_of(seat)
        return f"bot:{bot}" if bot else self.seat_name(seat) or "?"

    def record_of(self, index: int) -> GameRecord:
        """The record of game ``index`` of the current match: a two-player game, its seats the two who played."""
        r = self.round
        tags: dict[str, object] = {
            "Event": "Bummerl web table",
            "Site": "bummerl serve",
            "Date": dt.datetime.now(dt.UTC).strftime("%Y.%m.%d"),
            "Table": self.id,
            **r.record_tags(index, [self._name(p) for p in range(r.participants)]),
        }
        return GameRecord.from_game(r.games[index], (), **tags)

    def _game_over(self, record: GameRecord, result: dict[str, Any]) -> dict[str, Any]:
        return self.game_over_message(record, result, self.round.is_over)

    def _new_round(self, k: int, first_dealer: int | None) -> SchnorpsRound:
        seed = self.data.seed if k == 0 else derive_seed(self.data.seed, MATCH_SEED, k)
        key = derive_key(bytes.fromhex(self.data.deal_key), k) if self.data.deal_key else None
        return SchnorpsRound(self.variant, self.participants, seed, first_dealer, self.data.target, deal_key=key)

    def next_deal(self) -> Deal:
        # Dealt on a copy: the table is unchanged until the deal is stored and installed.
        rounds = list(self.rounds)
        if rounds:
            rounds[-1] = copy.deepcopy(rounds[-1], {id(self.variant): self.variant})
        if not rounds or rounds[-1].is_over:
            # The deal goes on round the table from one match to the next.
            rounds.append(self._new_round(len(rounds), rounds[-1].next_dealer if rounds else None))
        r = rounds[-1]
        game = r.deal_next()
        match_no, game_no = len(rounds) - 1, len(r.games) - 1
        dealer = r.dealer_of(game_no)

        def install(game_id: int) -> None:
            self.rounds = rounds
            self.info = GameInfo(game_id, match_no, game_no)
            start: dict[str, Any] = {
                "type": "game_start",
                "match_no": match_no + 1,
                "game_no": game_no + 1,
                "game_id": game_id,
                **self._start_fields(),
            }
            if r.deal_key is not None and game_no == 0:
                start["deal_commitment"] = key_commitment(r.deal_key)
            self.events.append(start)

        return Deal(match_no, game_no, dealer, _deck_text(game), r.game_seeds[-1], install)

    def bot_seed(self) -> int:
        assert self.info is not None
        return derive_seed(self.data.seed, BOT_SEED, self.info.match_no, self.info.game_no, self.ply)

    # ------------------------------------------------------------------ load
    def replay_stored(self) -> list[FinishedGame]:
        """Rebuild the rounds from the stored deals and actions (:attr:`data`); the results still to store."""
        data = self.data
        if not data.games:
            raise StorageError(f"table {self.id} has no game")
        repairs: list[FinishedGame] = []
        for stored in data.games:
            if not self.rounds or (self.round.is_over and stored.match_no >= len(self.rounds)):
                first = self.rounds[-1].next_dealer if self.rounds else None
                self.rounds.append(self._new_round(len(self.rounds), first))
            r = self.round
            if stored.dealer != r.next_dealer:
                raise StorageError(
                    f"game {stored.id} of table {self.id} was dealt by seat {stored.dealer}, "
                    f"not by seat {r.next_dealer}"
                )
            seed = int(stored.seed) if stored.seed is not None else None
            try:
                game = r.deal_next(deck=parse_cards(stored.deck), seed=seed)
            except BummerlError as exc:
                raise StorageError(f"game {stored.id} of table {self.id} does not replay: {exc}") from None
            self.info = GameInfo(stored.id, stored.match_no, stored.game_no)
            for token in stored.actions:
                finished = self.play(self.players_now[game.to_move], Action.parse(token))
                if finished is None:
                    continue
                if not stored.finished:
                    repairs.append(finished)
                elif stored is data.games[-1] and stored.record:
                    h = r.history[-1]
                    self.info.game_over = self._game_over(read_game_record(stored.record), self._live_result(h))
        self.events.clear()  # a reload is no news for anyone
        return repairs


class LiveSchnorpsRound3(LiveSchnorpsRound):
    """Schnorps for three: two play, the dealer waits."""

    participants = 3


class LiveSchnorpsRound4(LiveSchnorpsRound):
    """Schnorps for four: two play, the dealer and one more wait."""

    participants = 4


def _deck_text(game: TwoPlayerGame) -> str:
    return "".join(c.code for c in game.deck)
