"""The three families of live tables, as parts of the one :class:`~bummerl.server.rooms.Room`.

A family says what its tables do their own way (:class:`~bummerl.server.rooms.Family`):

* :data:`TWO_PLAYER`: Schnapsen (weich, scharf), Sechsundsechzig and Schnorps between two: Bummerl after Bummerl
  (or Marken matches), the bot protocol's two-player view, each game stored as a one-game match record;
* :data:`TABLE_GAME`: Dreierschnapsen (three seats) and Bauernschnapsen (four, in teams): matches to 24 points,
  the table view, game records with their ``Match`` tag;
* :data:`SCHNORPS_ROUND`: Schnorps for three or four participants (seeds/001: "Wenn mehre am Spiele Theil nehmen,
  so wird ebenfalls immer nur von zweien gespielt ... Der Verlierende muß nicht nur an seinen Mitspieler, sondern
  an alle Theilnehmer zahlen"): two participants play each game, the others wait; the result is stored in the
  table's seats (``winner``/``loser`` are participants, ``payments`` and ``balance`` each one's Marken).

:func:`family_of` finds a variant's family through one table keyed by ``Variant.FAMILY`` (and the seats, for
Schnorps), so nothing outside this module asks which kind a table is.

Deals come from the table's secret deal key (:func:`bummerl.rng.keyed_seed`, docs/security.md); only a
*practice* table, where the creator plays bots alone, is dealt from a seed the creator chose.  What a client
learns of the cards comes only from a family's :meth:`~bummerl.server.rooms.Family.view_json` (a spectator's
copy has no hand), from the events, and from a finished game's record.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
from typing import Any

from bummerl.errors import BummerlError, UnknownVariantError
from bummerl.game import Game
from bummerl.match import DEFAULT_TARGET, Match
from bummerl.protocol import result_to_json, variant_to_json, view_to_json
from bummerl.record import GameRecord, MatchRecord, dumps
from bummerl.rng import derive_key, derive_seed, keyed_seed
from bummerl.schnorps_round import RoundGame, SchnorpsRound, participant_counts
from bummerl.series import Series, new_series
from bummerl.server.config import ServerConfig
from bummerl.server.messages import spectator_view
from bummerl.server.results import FinishedGame
from bummerl.server.rooms import BOT_SEED, Family, Room
from bummerl.server.storage import TableData
from bummerl.server.workers import read_game_record
from bummerl.table_game import TableGame
from bummerl.two_player import TwoPlayerGame
from bummerl.variants import TableVariant, TwoPlayerVariant, Variant, find_variant
from bummerl.view import TableView
from bummerl.view_json import result_to_json as table_result_to_json
from bummerl.view_json import view_to_json as table_json

__all__ = [
    "DEFAULT_TABLE_BOT",
    "FAMILIES",
    "SCHNORPS_ROUND",
    "TABLE_GAME",
    "TWO_PLAYER",
    "family_of",
    "stored_result",
    "table_view_to_json",
]

#: The bot of a table game's seat when the request names none (the two-player default plays two-player games only).
DEFAULT_TABLE_BOT = "heuristic"
#: Path element of :func:`~bummerl.rng.derive_seed` for the seed of a table's second and later matches.
MATCH_SEED = 0x4D41544348
#: The fields of a spectator's view that a replay's board leaves out: the variant (said once), the fields of
#: the seat the view was built for, and what the replay shows otherwise (every hand, the result).
_NOT_ON_THE_BOARD = ("variant", "seat", "partner", "hand", "legal", "known", "hand_sizes", "result")


def _now() -> str:
    return dt.datetime.now(dt.UTC).strftime("%Y.%m.%d")


def _keyed(data: TableData, k: int) -> bytes | None:
    """The secret deal key of the table's match ``k`` (none at a practice table)."""
    return derive_key(bytes.fromhex(data.deal_key), k) if data.deal_key else None


def _later_seed(data: TableData, k: int) -> int:
    """The seed of the table's match ``k``: the table's own for the first, derived for the later ones."""
    return data.seed if k == 0 else derive_seed(data.seed, MATCH_SEED, k)


# ---------------------------------------------------------------------------------------- two players
class _TwoPlayerGames(Family):
    """What every table of two-player games shares (two players, or a Schnorps round's two of the moment)."""

    takes_new_deal_key = True

    def default_bot(self, config: ServerConfig) -> str:
        return config.default_bot

    def match_target(self, variant: Variant, target: int | None) -> int:
        return target if target is not None else DEFAULT_TARGET

    def variant_extra(self, variant: Variant) -> dict[str, Any]:
        two = TwoPlayerVariant.find(variant)
        # participants: Schnorps is played by 2, 3 or 4 (seeds/001; the Schnorps round's family).
        return {
            "match_kind": two.match_kind,
            "show_points": two.show_points,
            "participants": list(participant_counts(two)),
        }

    def read_record(self, text: str) -> GameRecord:
        return read_game_record(text)

    def finished_details(self, game_id: int, record: str) -> dict[str, Any]:
        read = read_game_record(record)
        dealt = TwoPlayerGame.from_deck(read.variant, read.deck, read.dealer)
        return {
            "hands_at_deal": [[c.code for c in h] for h in dealt.hands],
            "trump_card": dealt.trump_card.code if dealt.trump_card else None,
            "variant_info": variant_to_json(read.variant),
            **super().finished_details(game_id, record),
        }

    def replay_board(self, game: Game) -> dict[str, Any]:
        # The two-player board's own fields (the talon, the trump card, Zudrehen): only this engine has them.
        assert isinstance(game, TwoPlayerGame)
        return {
            "trump_card": game.trump_card.code if game.trump_card else None,
            "talon_size": game.talon_size,
            "lead": game.lead.code if game.lead else None,
            "tricks_won": list(game.tricks_won),
            "augen": [game.augen(0), game.augen(1)],
            "closed_by": game.closed_by,
        }

    def view_json(self, view: Any, spectator: bool, legal: list[str]) -> dict[str, Any]:
        data = view_to_json(view)
        return spectator_view(data) if spectator else data

    @staticmethod
    def game_over_message(room: Room, record: GameRecord, result: dict[str, Any]) -> dict[str, Any]:
        """The ``game_over`` of the game on the table, finished as ``record`` says, with its ``result`` as sent."""
        # The hands at the deal come from the record: the deal replayed, not the live state.
        dealt = TwoPlayerGame.from_deck(record.variant, record.deck, record.dealer)
        game_id = room.game_id
        return {
            "game_id": game_id,
            "result": result,
            "winner": result["winner"],
            "points": result["points"],
            "reason": result["reason"],
            "hands_at_deal": [[c.code for c in h] for h in dealt.hands],
            "trump_card": dealt.trump_card.code if dealt.trump_card else None,
            "record": dumps(record),
            "analysis_url": f"/api/games/{game_id}/analysis",
            "match_over": room.match.is_over,
            "next_game": True,
        }


class TwoPlayerFamily(_TwoPlayerGames):
    """Two seats: seat 0 the creator's, seat 1 a bot's or an invited friend's; Bummerl after Bummerl."""

    kind = "two_player"

    def plays(self, variant: Variant, seats: int | None = None) -> bool:
        # The research variants (mini8, ...) are for the RL interfaces and the arena, not for tables.
        return variant.FAMILY == "two_player" and variant.for_players and seats in (None, 2)

    def new_series(self, data: TableData, variant: Variant, k: int, previous: Series | None) -> Series:
        # As bummerl.match.Session deals match after match: the deal passes on from one Bummerl to the next.
        seed = derive_seed(data.seed, k) if data.deal_key is None else keyed_seed(bytes.fromhex(data.deal_key), k)
        first = previous.next_dealer if previous is not None else None
        return new_series(variant, seats=2, seed=seed, first_dealer=first, target=data.target, deal_key=_keyed(data, k))

    @staticmethod
    def _match(room: Room) -> Match:
        match = room.match
        # Narrowing, not a choice: this family's series are Bummerl (or Marken) matches (its new_series).
        assert isinstance(match, Match)
        return match

    def match_json(self, room: Room) -> dict[str, Any]:
        match = self._match(room)
        over = [m for m in room.matches if m.is_over]
        return {
            "kind": match.kind,
            "target": match.target,
            "match_no": len(room.matches),
            "game_no": len(match.games),
            "standing": list(match.standing),
            "points": list(match.points),
            "multiplier": match.multiplier,
            "bummerl": [sum(m.bummerl[s] for m in over) for s in (0, 1)],
            "matches_won": [sum(s in m.winners for m in over) for s in (0, 1)],
            "over": match.is_over,
            "winner": match.winner,
            "schneider": match.is_schneider,
        }

    def record(self, room: Room, index: int) -> GameRecord:
        """The record of game ``index`` of the current match, with the table's tags."""
        match = self._match(room)
        tags = {
            "Event": "Bummerl web table",
            "Site": "bummerl serve",
            "Date": _now(),
            "Seat0": room.seat_name(0),
            "Seat1": room.record_name(1),
            "Table": room.id,
        }
        game = MatchRecord.from_match(match, **tags).games[index]
        # Stored and shown alone, a game must read as one game: without the Match tag
        # that makes a reader expect the match's games from the first on.
        return dataclasses.replace(game, tags={k: v for k, v in game.tags.items() if k != "Match"})

    def finish(self, room: Room) -> tuple[FinishedGame, dict[str, Any], dict[str, Any]]:
        match, info = self._match(room), room.info
        assert info is not None
        record = self.record(room, len(match.games) - 1)
        assert record.result is not None
        result = result_to_json(record.result)
        info.game_over = self.game_over_message(room, record, result)
        end = {"winner": match.winner, "schneider": match.is_schneider, "bummerl": match.bummerl_for_loser}
        return FinishedGame(info.game_id, result, dumps(record)), result, end

    def restore_game_over(self, room: Room, record: str) -> None:
        read = read_game_record(record)
        assert room.info is not None and read.result is not None
        room.info.game_over = self.game_over_message(room, read, result_to_json(read.result))


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


class SchnorpsRoundFamily(_TwoPlayerGames):
    """Schnorps for three or four participants: each game a two-player game whose game seats 0 (Vorhand) and 1
    are the two participants whose turn it is; the others (and spectators) get a spectator's view, and may not
    act.  The view, the events, ``to_move`` and the live result count in game seats; ``match.players`` says which
    participant holds each, ``game_seat`` which one is the connection's.  Its records are two-player game records
    with the round's tags (``RoundDealer``, ``RoundPlayers``, ``BalanceBefore``/``BalanceAfter``)."""

    kind = "schnorps_round"
    tells_game_seat = True

    def plays(self, variant: Variant, seats: int | None = None) -> bool:
        if variant.FAMILY != "two_player":
            return False
        counts = [n for n in participant_counts(TwoPlayerVariant.find(variant)) if n > 2]
        return bool(counts) if seats is None else seats in counts

    def variants(self) -> list[Variant]:
        """None of its own: Schnorps is listed by the two-player tables, with its ``participants``."""
        return []

    def seat_count(self, variant: Variant, seats: int | None = None) -> int:
        """As many as take part (three or four: ``seats``)."""
        return seats if seats is not None else max(participant_counts(TwoPlayerVariant.find(variant)))

    def new_series(self, data: TableData, variant: Variant, k: int, previous: Series | None) -> Series:
        # The deal goes on round the table from one match to the next.
        first = previous.next_dealer if previous is not None else None
        return new_series(
            variant,
            seats=len(data.seats),
            seed=_later_seed(data, k),
            first_dealer=first,
            target=data.target,
            deal_key=_keyed(data, k),
        )

    @staticmethod
    def _round(room: Room) -> SchnorpsRound:
        r = room.match
        # Narrowing, not a choice: this family's series are Schnorps rounds (its new_series).
        assert isinstance(r, SchnorpsRound)
        return r

    def match_json(self, room: Room) -> dict[str, Any]:
        r = self._round(room)
        index = len(r.games) - 1
        players = r.players_of(index) if index >= 0 else r.next_players
        dealer = r.dealer_of(index) if index >= 0 else r.next_dealer
        won = [sum(p in m.winners for m in room.matches) for p in range(r.participants)]
        return {
            "kind": "round",
            "scoring": "marken",
            "participants": r.participants,
            "target": r.target,
            "match_no": len(room.matches),
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

    def start_fields(self, room: Room) -> dict[str, Any]:
        match = self.match_json(room)
        return {"dealer": match["dealer"], "players": match["players"], "waiting": match["waiting"]}

    def record(self, room: Room, index: int) -> GameRecord:
        """The record of game ``index`` of the current match: a two-player game, its seats the two who played."""
        r = self._round(room)
        tags: dict[str, object] = {
            "Event": "Bummerl web table",
            "Site": "bummerl serve",
            "Date": _now(),
            "Table": room.id,
            **r.record_tags(index, [room.record_name(p) for p in range(r.participants)]),
        }
        return GameRecord.from_game(r.games[index], (), **tags)

    def _live_result(self, room: Room, h: RoundGame) -> dict[str, Any]:
        """The result as the live table tells it: the engine's, in game seats, with the round's payments."""
        return {**result_to_json(h.result), "round": stored_result(h, self._round(room).participants)}

    def finish(self, room: Room) -> tuple[FinishedGame, dict[str, Any], dict[str, Any]]:
        r, info = self._round(room), room.info
        assert info is not None
        h = r.history[-1]
        record = self.record(room, len(r.games) - 1)
        live = self._live_result(room, h)
        info.game_over = self.game_over_message(room, record, live)
        end = {"winners": list(r.winners), "balance": list(r.balance)}
        return FinishedGame(info.game_id, stored_result(h, r.participants), dumps(record)), live, end

    def restore_game_over(self, room: Room, record: str) -> None:
        assert room.info is not None
        live = self._live_result(room, self._round(room).history[-1])
        room.info.game_over = self.game_over_message(room, read_game_record(record), live)


# ---------------------------------------------------------------------------------------- table games
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
    data = table_json(view)
    if view.result is not None:
        data["to_move"] = None  # nobody is to move at a finished table
    if spectator:
        data.update(seat=None, partner=None, hand=[], discarded=[], legal=[])
    return data


class TableGameFamily(Family):
    """Three or four seats (with four, seats 0+2 and 1+3 are teams): matches to the variant's ``match_target``."""

    kind = "table_game"

    def plays(self, variant: Variant, seats: int | None = None) -> bool:
        return variant.FAMILY == "table_game" and seats in (None, variant.players)

    def default_bot(self, config: ServerConfig) -> str:
        return DEFAULT_TABLE_BOT

    def match_target(self, variant: Variant, target: int | None) -> int:
        table = TableVariant.find(variant)
        if target is not None:
            raise BummerlError(
                f"{variant.title} is played to {table.match_target} points: its match length is the option "
                "match_target, not target"
            )
        return table.match_target

    def read_record(self, text: str) -> GameRecord:
        return GameRecord.loads(text)

    def replay_board(self, game: Game) -> dict[str, Any]:
        """A spectator's view of ``game`` (:func:`table_view_to_json`) without the variant and the seat's own
        fields, with the cards laid away and the talon open: a replay adds every hand.

        >>> t = TableGame.deal("dreierschnapsen", seed=1, dealer=0)
        >>> _ = t.apply("cut")
        >>> board = TABLE_GAME.replay_board(t)
        >>> board["phase"], board["talon"], board["discarded"], "variant" in board
        ('trump', ['Qc', 'Kh'], [], False)
        """
        # The table board's own fields (the talon taken up, the cards laid away): only this engine has them.
        assert isinstance(game, TableGame)
        board = table_view_to_json(game.view(0), spectator=True)
        for key in _NOT_ON_THE_BOARD:
            del board[key]
        board.update(talon=[c.code for c in game.talon], discarded=[c.code for c in game.discarded])
        return board

    def new_series(self, data: TableData, variant: Variant, k: int, previous: Series | None) -> Series:
        return new_series(
            variant, seed=_later_seed(data, k), first_dealer=k % variant.players, deal_key=_keyed(data, k)
        )

    def match_json(self, room: Room) -> dict[str, Any]:
        match = room.match
        return {
            "kind": "teams" if room.variant.teams else "seats",
            "target": match.target,
            "match_no": len(room.matches),
            "game_no": len(match.games),
            "scores": list(match.standing),
            "bummerl": [sum(m.bummerl[s] for m in room.matches) for s in range(match.sides)],
            "over": match.is_over,
            "winners": list(match.winners),
            # Schneider: "Haben die Verlierer keinen Spielpunkt" (seeds/004) — two Bummerl.
            "schneider": match.is_over and any(b == 2 for b in match.bummerl),
        }

    def view_json(self, view: Any, spectator: bool, legal: list[str]) -> dict[str, Any]:
        data = table_view_to_json(view, spectator)
        data["legal"] = legal  # none while an invited friend is missing
        return data

    def finish(self, room: Room) -> tuple[FinishedGame, dict[str, Any], dict[str, Any]]:
        game, match, info = room.game, room.match, room.info
        assert game.result is not None and info is not None
        tags = {f"Seat{p['seat']}": p["name"] or "?" for p in room.players()}
        tags.update(Event="Bummerl web", Match=str(len(room.matches)), Game=str(info.game_no + 1))
        record = GameRecord.from_game(game, (), **tags).dumps()
        result = table_result_to_json(game.result, room.variant.players)
        info.game_over = {
            "game_id": info.game_id,
            "result": result,
            "record": record,
            "match_over": match.is_over,
            "next_game": True,
        }
        return FinishedGame(info.game_id, result, record), result, {"winners": list(match.winners)}

    def restore_game_over(self, room: Room, record: str) -> None:
        """Nothing to restore: the replay made the last game's ``game_over`` from its actions (the record the same)."""

    def bot_seed(self, room: Room) -> int:
        # The match counted from 1 here (from 0 at two-player tables): kept so a practice table's bots play on as
        # they did.
        info = room.info
        assert info is not None
        return derive_seed(room.data.seed, BOT_SEED, info.match_no + 1, info.game_no, room.ply)


TWO_PLAYER = TwoPlayerFamily()
TABLE_GAME = TableGameFamily()
SCHNORPS_ROUND = SchnorpsRoundFamily()
#: Every family, in the order the lobby lists their variants.
FAMILIES: tuple[Family, ...] = (TWO_PLAYER, TABLE_GAME, SCHNORPS_ROUND)


def family_of(
    variant: str | Variant, options: dict[str, Any] | None = None, seats: int | None = None
) -> tuple[Family, Variant]:
    """The family of tables that plays the variant called ``variant`` (any alias) at ``seats`` seats (``None``:
    the variant's own number), and the variant with ``options``.

    >>> family, v = family_of("dreier", {"bettler": False})
    >>> family.kind, v.name, v.options()
    ('table_game', 'dreierschnapsen', {'bettler': False})
    >>> family_of("schnorps")[0].kind, family_of("schnorps", seats=4)[0].kind
    ('two_player', 'schnorps_round')

    :class:`~bummerl.errors.UnknownVariantError` naming every variant for an unknown name, and for an option the
    variant does not have; :class:`BummerlError` for a number of seats it is not played at.
    """
    found = find_variant(variant, **(options or {}))
    families = [family for family in FAMILIES if family.plays(found)]
    if not families:
        raise UnknownVariantError(f"this server has no table for {found.title}")
    if seats is not None and len(families) > 1:
        # Schnorps: two at a two-player table, three or four at a round.
        for family in families:
            if family.plays(found, seats):
                return family, found
        counts = " or ".join(str(n) for n in participant_counts(TwoPlayerVariant.find(found)))
        raise BummerlError(
            f"{found.title} is played at {counts} seats: seats names the others after yours, not {seats - 1}"
        )
    return families[0], found
