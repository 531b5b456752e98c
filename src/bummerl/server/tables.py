"""Live two-player tables: a match between two seats, its clients, its bot, and the database behind it.

A :class:`LiveTable` is a :class:`~bummerl.server.rooms.Room` that holds a
:class:`~bummerl.match.Session` (Bummerl after Bummerl) of one variant and the
current game; at a bot table the bot plays seat 1.  Every change goes the way
:mod:`bummerl.server.rooms` describes: check, store, change, tell.

**Deals.** A table dealt by the server draws every deal from its secret
``deal_key`` (:func:`bummerl.rng.keyed_seed`; docs/security.md): a finished
game's ``Seed`` says nothing of the next deal, the key of a Bummerl is
published when it ends, and its commitment (SHA-256) when it starts, so
players can check afterwards that no deal was chosen on the way.  Only a
*practice* table, where the creator plays bots alone, may be dealt from a
seed the creator chose.

What a client receives about the cards comes only from
:func:`bummerl.protocol.view_to_json` of its seat's view (spectators: that view
without any hand, :func:`~bummerl.server.messages.spectator_view`), from the
engine's events in a spectator's form (:func:`~bummerl.server.rooms.public_events`:
a card drawn from the talon is named to nobody), and, once a game is over,
from its record.
"""

from __future__ import annotations

import copy
import dataclasses
import datetime as dt
from typing import TYPE_CHECKING, Any

from bummerl.actions import Action
from bummerl.cards import parse_cards
from bummerl.errors import BummerlError
from bummerl.match import DEFAULT_TARGET, Match, Session
from bummerl.protocol import result_to_json, variant_to_json, view_to_json
from bummerl.record import GameRecord, MatchRecord, dumps
from bummerl.rng import derive_seed, key_commitment
from bummerl.schnorps_round import participant_counts
from bummerl.server.config import ServerConfig
from bummerl.server.messages import spectator_view
from bummerl.server.rooms import BOT_SEED, Deal, FinishedGame, Room
from bummerl.server.storage import StorageError, TableData
from bummerl.server.workers import read_game_record
from bummerl.two_player import TwoPlayerGame
from bummerl.variants import TwoPlayerVariant
from bummerl.view import PlayerView, with_match

if TYPE_CHECKING:
    from bummerl.game import Game
    from bummerl.server.manager import TableManager

__all__ = ["BOT_SEED", "GameInfo", "LiveTable", "TwoPlayerRoom"]


# ------------------------------------------------------------------ the table
@dataclasses.dataclass
class GameInfo:
    """The two-player game on a table: its row in the database, which match and game it is, its end once over."""

    game_id: int
    match_no: int
    game_no: int
    game_over: dict[str, Any] | None = None


class TwoPlayerRoom(Room):
    """What every table whose games are two-player games shares: two players (:class:`LiveTable`) or a Schnorps
    round whose two players change (:class:`~bummerl.server.schnorps_tables.LiveSchnorpsRound`).

    :attr:`info` describes the game on the table, ``None`` before the first deal.
    """

    info: GameInfo | None = None

    @property
    def game_id(self) -> int:
        assert self.info is not None
        return self.info.game_id

    @property
    def dealt(self) -> bool:
        return self.info is not None

    def view_json(self, view: PlayerView, spectator: bool, legal: list[str]) -> dict[str, Any]:
        data = view_to_json(view)
        return spectator_view(data) if spectator else data

    def game_over_json(self) -> dict[str, Any] | None:
        return self.info.game_over if self.info is not None else None

    def game_over_message(self, record: GameRecord, result: dict[str, Any], match_over: bool) -> dict[str, Any]:
        """The ``game_over`` of the game on the table, finished as ``record`` says, with its ``result`` as sent."""
        assert self.info is not None
        # The hands at the deal come from the record: the deal replayed, not the live state.
        dealt = TwoPlayerGame.from_deck(record.variant, record.deck, record.dealer)
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
            "match_over": match_over,
            "next_game": True,
        }


class LiveTable(TwoPlayerRoom):
    """One two-player table in memory; change it only under :attr:`lock` (see :class:`Room`).

    Seat 0 is the creator's, seat 1 a bot's or an invited friend's.
    """

    kind = "two_player"
    takes_new_deal_key = True

    def __init__(self, manager: TableManager, data: TableData) -> None:
        super().__init__(manager, data)
        key = bytes.fromhex(data.deal_key) if data.deal_key else None
        variant = TwoPlayerVariant.find(data.variant, **data.options)
        self.session = Session(variant, data.seed, data.target, deal_key=key)

    # ------------------------------------------------------------ the family
    @classmethod
    def default_bot(cls, config: ServerConfig) -> str:
        return config.default_bot

    @classmethod
    def match_target(cls, variant: TwoPlayerVariant, target: int | None) -> int:
        return target if target is not None else DEFAULT_TARGET

    @classmethod
    def variant_extra(cls, variant: TwoPlayerVariant) -> dict[str, Any]:
        # participants: Schnorps is played by 2, 3 or 4 (seeds/001; bummerl.server.schnorps_tables).
        return {
            "match_kind": variant.match_kind,
            "show_points": variant.show_points,
            "participants": list(participant_counts(variant)),
        }

    @classmethod
    def record_json(cls, text: str) -> str:
        return dumps(read_game_record(text), "json")

    @classmethod
    def finished_details(cls, game_id: int, record: str) -> dict[str, Any]:
        read = read_game_record(record)
        dealt = TwoPlayerGame.from_deck(read.variant, read.deck, read.dealer)
        return {
            "hands_at_deal": [[c.code for c in h] for h in dealt.hands],
            "trump_card": dealt.trump_card.code if dealt.trump_card else None,
            "variant_info": variant_to_json(read.variant),
            **super().finished_details(game_id, record),
        }

    @classmethod
    def replay_board(cls, game: Game) -> dict[str, Any]:
        assert isinstance(game, TwoPlayerGame)
        return {
            "trump_card": game.trump_card.code if game.trump_card else None,
            "talon_size": game.talon_size,
            "lead": game.lead.code if game.lead else None,
            "tricks_won": list(game.tricks_won),
            "augen": [game.augen(0), game.augen(1)],
            "closed_by": game.closed_by,
        }

    # ------------------------------------------------------------ properties
    @property
    def variant(self) -> TwoPlayerVariant:
        return self.session.variant

    @property
    def match(self) -> Match:
        return self.session.matches[-1]

    @property
    def game(self) -> TwoPlayerGame:
        return self.match.games[-1]

    def played_matches(self) -> list[Match]:
        return self.session.matches

    def standing(self) -> list[int]:
        return list(self.match.standing)

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

    # --------------------------------------------------------------- messages
    # ------------------------------------------------------------- changes
    def finish_game(self) -> FinishedGame:
        """Score the finished game in the match, make its ``game_over`` and the rows to store."""
        game, match, info = self.game, self.match, self.info
        assert info is not None and game.result is not None
        match.complete(game)
        if match.is_over:
            self.session.finish(match)
        record = self.record_of(len(match.games) - 1)
        result = result_to_json(game.result)
        info.game_over = self._game_over(record)
        self.events.append({"type": "game_end", "result": result, "standing": list(match.standing)})
        if match.is_over:
            end: dict[str, Any] = {
                "type": "match_end",
                "winner": match.winner,
                "schneider": match.is_schneider,
                "bummerl": match.bummerl_for_loser,
            }
            if match.deal_key is not None:
                # The Bummerl is over: its deals may be checked against the commitment of its first game.
                end["deal_key"] = match.deal_key.hex()
            self.events.append(end)
        return FinishedGame(info.game_id, result, dumps(record))

    def record_of(self, index: int) -> GameRecord:
        """The record of game ``index`` of the current match, with the table's tags."""
        bot = self.bot_of(1)
        tags = {
            "Event": "Bummerl web table",
            "Site": "bummerl serve",
            "Date": dt.datetime.now(dt.UTC).strftime("%Y.%m.%d"),
            "Seat0": self.seat_name(0),
            "Seat1": f"bot:{bot}" if bot else self.seat_name(1) or "?",
            "Table": self.id,
        }
        game = MatchRecord.from_match(self.match, **tags).games[index]
        # Stored and shown alone, a game must read as one game: without the Match tag
        # that makes a reader expect the match's games from the first on.
        return dataclasses.replace(game, tags={k: v for k, v in game.tags.items() if k != "Match"})

    def _game_over(self, record: GameRecord) -> dict[str, Any]:
        assert record.result is not None
        return self.game_over_message(record, result_to_json(record.result), self.match.is_over)

    def next_deal(self) -> Deal:
        # Dealt on a copy (the memo keeps the one variant object): the table is unchanged until the
        # deal is stored and installed.  Finished Bummerl are not copied: only the last one can change.
        session = copy.copy(self.session)
        session.matches = list(self.session.matches)
        if session.matches:
            session.matches[-1] = copy.deepcopy(session.matches[-1], {id(self.variant): self.variant})
        if not session.matches or session.matches[-1].is_over:
            session.new_match()
        match = session.matches[-1]
        game = match.deal_next()
        match_no, game_no = len(session.matches) - 1, len(match.games) - 1

        def install(game_id: int) -> None:
            self.session = session
            self.info = GameInfo(game_id, match_no, game_no)
            start: dict[str, Any] = {
                "type": "game_start",
                "match_no": match_no + 1,
                "game_no": game_no + 1,
                "dealer": game.dealer,
                "game_id": game_id,
            }
            if match.deal_key is not None:
                start["deal_commitment"] = key_commitment(match.deal_key)
            self.events.append(start)

        return Deal(match_no, game_no, game.dealer, _deck_text(game), match.game_seeds[-1], install)

    def bot_seed(self) -> int:
        assert self.info is not None
        return derive_seed(self.data.seed, BOT_SEED, self.info.match_no, self.info.game_no, self.ply)

    def bot_view(self, seat: int) -> PlayerView:
        """``seat``'s view with the Bummerl's (or Marken match's) context (:meth:`bummerl.match.Match.context`):
        the score both seats see, so that a bot plays for the match here as in the arena and the terminal.  The
        bot protocol's JSON carries it (``view.match``) into the worker that decides."""
        return with_match(self.game.view(seat), self.match.context())

    # ------------------------------------------------------------------ load
    def replay_stored(self) -> list[FinishedGame]:
        """Rebuild the match from the stored deals and actions (:attr:`data`); the results still to store.

        The stored pack of each game is dealt again, so a table whose deal key
        was made after its first games (an older server's table) goes on with
        keyed deals from its next game on.
        """
        data, session = self.data, self.session
        repairs: list[FinishedGame] = []
        if not data.games:
            raise StorageError(f"table {self.id} has no game")
        for stored in data.games:
            if not session.matches or (session.matches[-1].is_over and stored.match_no >= len(session.matches)):
                session.new_match()
            match = session.matches[-1]
            seed = int(stored.seed) if stored.seed is not None else None
            try:
                game = match.deal_next(deck=parse_cards(stored.deck), dealer=stored.dealer, seed=seed)
            except BummerlError as exc:
                raise StorageError(f"game {stored.id} of table {self.id} does not replay: {exc}") from None
            self.info = GameInfo(stored.id, stored.match_no, stored.game_no)
            for token in stored.actions:
                finished = self.play(game.to_move, Action.parse(token))
                if finished is None:
                    continue
                if not stored.finished:
                    # Its result was refused while the table played on, or the server stopped first.
                    repairs.append(finished)
                elif stored is data.games[-1] and stored.record:
                    self.info.game_over = self._game_over(read_game_record(stored.record))
        self.events.clear()  # a reload is no news for anyone
        return repairs


def _deck_text(game: TwoPlayerGame) -> str:
    return "".join(c.code for c in game.deck)
