"""Live three- and four-player tables: Bauernschnapsen (4 seats) and Dreierschnapsen (3 seats).

A :class:`LiveTableGame` is a :class:`~bummerl.server.rooms.Room` over the
table games (:class:`bummerl.table_game.TableGame`).  The creator holds seat 0;
every other seat is an invited friend (a join code) or a bot.  Every change
goes the way :mod:`bummerl.server.rooms` describes: check, store, change, tell.
Deals come from the table's secret deal key as at two-player tables
(:mod:`bummerl.server.tables`, docs/security.md); only a table of bots and its
creator may be dealt from a chosen seed.

What a client learns about the cards comes only from
:func:`table_view_to_json` of its seat's view (spectators: ``spectator=True``),
from the engine's events in a spectator's form
(:func:`~bummerl.server.rooms.public_events`: a card laid away or the talon
taken up is named to nobody), and, once a game is over, from its record (the
same format the CLI writes).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from bummerl.actions import Action
from bummerl.errors import BummerlError
from bummerl.match import TableMatch
from bummerl.record import GameRecord
from bummerl.rng import derive_key, derive_seed, key_commitment
from bummerl.server.config import ServerConfig
from bummerl.server.rooms import BOT_SEED, Deal, FinishedGame, Room
from bummerl.server.storage import StorageError, TableData
from bummerl.table_game import TableGame
from bummerl.variants import TableVariant, find_table_variant
from bummerl.view import TableView
from bummerl.view_json import result_to_json, view_to_json

if TYPE_CHECKING:
    from bummerl.game import Game
    from bummerl.server.manager import TableManager

__all__ = ["DEFAULT_TABLE_BOT", "LiveTableGame", "table_view_to_json"]

#: The bot of a seat when the request names none (the two-player default "hard" plays two-player games only).
DEFAULT_TABLE_BOT = "heuristic"
#: The fields of a spectator's view that a replay's board leaves out: the variant (said once), the fields of
#: the seat the view was built for, and what the replay shows otherwise (every hand, the result).
_NOT_ON_THE_BOARD = ("variant", "seat", "partner", "hand", "legal", "known", "hand_sizes", "result")
#: Path element of :func:`~bummerl.rng.derive_seed` for the seed of a table's second and later matches.
MATCH_SEED = 0x4D41544348


def table_view_to_json(view: TableView, spectator: bool = False) -> dict[str, Any]:
    """``view`` as a client of a web table gets it; with ``spectator`` without the seat's own cards and actions.

    The object is :func:`bummerl.view_json.view_to_json` (the one the bot
    protocol sends, docs/protocol.md): exactly the view's content (the own hand,
    never a partner's, the laid-away cards only to the Dreierschnapsen soloist
    who laid them away), with ``to_move`` null once the game is over.
    ``spectator=True`` drops everything that belongs to the seat the view was
    built for (hand, laid-away cards, legal actions).

    >>> t = TableGame.deal("bauernschnapsen", seed=1, dealer=0)
    >>> _ = t.apply("cut")
    >>> data = table_view_to_json(t.view(1))
    >>> data["phase"], len(data["hand"]), data["legal"][:2], data["partner"]
    ('trump', 3, ['trump:h', 'trump:c'], 3)
    >>> table_view_to_json(t.view(1), spectator=True)["hand"]
    []
    """
    data = view_to_json(view)
    if view.result is not None:
        data["to_move"] = None  # nobody is to move at a finished table
    if spectator:
        data.update(seat=None, partner=None, hand=[], discarded=[], legal=[])
    return data


class LiveTableGame(Room):
    """One three- or four-player table in memory; change it only under :attr:`lock` (see :class:`Room`).

    With four players seats 0+2 and 1+3 are teams (:meth:`team`).
    """

    kind = "table_game"

    def __init__(self, manager: TableManager, data: TableData) -> None:
        super().__init__(manager, data)
        self._variant: TableVariant = find_table_variant(data.variant, **data.options)
        self.matches: list[TableMatch] = []
        #: The game shown: the running one, or the last one until ``next_game``.
        self.table: TableGame | None = None
        self._game_id = 0
        self.game_no = 0
        self.game_over: dict[str, Any] | None = None

    # ------------------------------------------------------------ the family
    @classmethod
    def default_bot(cls, config: ServerConfig) -> str:
        return DEFAULT_TABLE_BOT

    @classmethod
    def match_target(cls, variant: TableVariant, target: int | None) -> int:
        if target is not None:
            raise BummerlError(
                f"{variant.title} is played to {variant.match_target} points: its match length is the option "
                "match_target, not target"
            )
        return variant.match_target

    @classmethod
    def record_json(cls, text: str) -> str:
        return GameRecord.loads(text).dumps("json")

    @classmethod
    def replay_board(cls, game: Game) -> dict[str, Any]:
        """A spectator's view of ``game`` (:func:`table_view_to_json`) without the variant and the seat's own
        fields, with the cards laid away and the talon open: a replay adds every hand.

        >>> t = TableGame.deal("dreierschnapsen", seed=1, dealer=0)
        >>> _ = t.apply("cut")
        >>> board = LiveTableGame.replay_board(t)
        >>> board["phase"], board["talon"], board["discarded"], "variant" in board
        ('trump', ['Qc', 'Kh'], [], False)
        """
        assert isinstance(game, TableGame)
        board = table_view_to_json(game.view(0), spectator=True)
        for key in _NOT_ON_THE_BOARD:
            del board[key]
        board.update(talon=[c.code for c in game.talon], discarded=[c.code for c in game.discarded])
        return board

    # ------------------------------------------------------------ properties
    @property
    def variant(self) -> TableVariant:
        return self._variant

    @property
    def match(self) -> TableMatch:
        return self.matches[-1]

    @property
    def game(self) -> TableGame:
        assert self.table is not None
        return self.table

    @property
    def game_id(self) -> int:
        return self._game_id

    @property
    def dealt(self) -> bool:
        return self.table is not None

    def team(self, seat: int) -> int | None:
        return seat % 2 if self.variant.players == 4 else None

    def played_matches(self) -> list[TableMatch]:
        return self.matches

    def standing(self) -> list[int]:
        return list(self.match.scores)

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

    # --------------------------------------------------------------- messages
    def view_json(self, view: TableView, spectator: bool, legal: list[str]) -> dict[str, Any]:
        data = table_view_to_json(view, spectator)
        data["legal"] = legal  # none while an invited friend is missing
        return data

    def game_over_json(self) -> dict[str, Any] | None:
        return self.game_over

    # ---------------------------------------------------------------- changes
    def record(self) -> GameRecord:
        tags = {f"Seat{p['seat']}": p["name"] or "?" for p in self.players()}
        tags.update(Event="Bummerl web", Match=str(len(self.matches)), Game=str(self.game_no + 1))
        return GameRecord.from_game(self.game, (), **tags)

    def finish_game(self) -> FinishedGame:
        game = self.game
        assert game.result is not None
        self.match.advance()  # scores the game (and deals the next one in memory, shown after next_game)
        record = self.record().dumps()
        result = result_to_json(game.result, self.variant.players)
        self.game_over = {
            "game_id": self._game_id,
            "result": result,
            "record": record,
            "match_over": self.match.is_over,
            "next_game": True,
        }
        self.events.append({"type": "game_end", "result": result, "standing": list(self.match.scores)})
        if self.match.is_over:
            end: dict[str, Any] = {"type": "match_end", "winners": list(self.match.winners)}
            if self.match.deal_key is not None:
                end["deal_key"] = self.match.deal_key.hex()
            self.events.append(end)
        return FinishedGame(self._game_id, result, record)

    def _new_match(self) -> TableMatch:
        k = len(self.matches)
        seed = self.data.seed if k == 0 else derive_seed(self.data.seed, MATCH_SEED, k)
        key = derive_key(bytes.fromhex(self.data.deal_key), k) if self.data.deal_key else None
        return TableMatch(self.variant, seed, first_dealer=k % self.variant.players, deal_key=key)

    def next_deal(self) -> Deal:
        # The match deals its next game when it scores the last one (TableMatch.advance): only a new
        # match is made here, and it joins the table when the deal is installed.
        new_match = self._new_match() if not self.matches or self.match.is_over else None
        match = new_match or self.match
        table = match.table
        match_no = len(self.matches) - (0 if new_match is not None else 1)
        game_no = len(match.games) - 1

        def install(game_id: int) -> None:
            if new_match is not None:
                self.matches.append(new_match)
            self.table, self._game_id, self.game_no, self.game_over = table, game_id, game_no, None
            start: dict[str, Any] = {
                "type": "game_start",
                "match_no": match_no + 1,
                "game_no": game_no + 1,
                "dealer": table.dealer,
                "game_id": game_id,
            }
            if match.deal_key is not None and game_no == 0:
                start["deal_commitment"] = key_commitment(match.deal_key)
            self.events.append(start)

        return Deal(match_no, game_no, table.dealer, _deck_text(table), None, install)

    def bot_seed(self) -> int:
        return derive_seed(self.data.seed, BOT_SEED, len(self.matches), self.game_no, self.ply)

    # ------------------------------------------------------------------- load
    def replay_stored(self) -> list[FinishedGame]:
        """Rebuild the matches from the stored deals and actions; the results still to store."""
        data = self.data
        if not data.games:
            raise StorageError(f"table {self.id} has no game")
        repairs: list[FinishedGame] = []
        for stored in data.games:
            if not self.matches or (self.match.is_over and stored.match_no >= len(self.matches)):
                self.matches.append(self._new_match())
            table = self.match.table
            if _deck_text(table) != stored.deck or table.dealer != stored.dealer:
                raise StorageError(f"game {stored.id} of table {self.id} does not match its stored deal")
            self.table, self._game_id, self.game_no = table, stored.id, stored.game_no
            for token in stored.actions:
                finished = self.play(table.to_move, Action.parse(token))
                if finished is not None and not stored.finished:
                    repairs.append(finished)
        self.events.clear()  # a reload is no news for anyone
        return repairs


def _deck_text(table: TableGame) -> str:
    return "".join(c.code for c in table.deck)
