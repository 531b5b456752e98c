"""The Bummerl sheet: the score sheet of a table's matches, as players keep it on paper.

One line per finished game: who dealt, who won how much and how the game
ended (declared with how many Augen, closed and failed, Schneider, Schwarz, a
stand), and the running standing after it: the Bummerl counted down from the
target (seeds/000, "Partien und Bummerl": "man zählt nicht die bereits
gewonnenen Punkte, sondern notiert die Anzahl der Punkte, die noch zum
Partiegewinn fehlen"), the Marken of Schnorps counted up with the doubling
after a stand (seeds/001: "der Verlust in dem darauf folgenden Spiele doppelt
u. bei einem nochmaligen Stehen vierfach bezahlt"), or the points of each team
or seat of a table game towards 24 (seeds/004).  Every match ends with its
winner, the Bummerl the loser gets and whether it was Schneider; the totals
count the Bummerl of every match at the table.

>>> from bummerl.match import Session
>>> session = Session("schnapsen", seed=5)
>>> match = session.new_match()
>>> game = match.deal_next()
>>> while not game.is_over:
...     _ = game.apply(game.legal_actions()[0])
>>> match.complete(game)
>>> sheet = match_sheet(match, 1)
>>> line = sheet["games"][0]
>>> line["dealer"] == game.dealer, line["winner"] == game.result.winner, line["standing"] == list(match.standing)
(True, True, True)
>>> sheet["scoring"], sheet["target"], sheet["over"]
('bummerl', 7, False)

Everything here is read from the engine's own records of the match
(:class:`bummerl.match.MatchGame`, :class:`bummerl.match.TableMatch`): the
sheet restates no rule.  It holds no card, only results, which are public once
a game is over: anyone who may watch a table may read its sheet.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Protocol

from bummerl.game import Game
from bummerl.match import Match, TableMatch
from bummerl.schnorps_round import SchnorpsRound
from bummerl.series import Series
from bummerl.variants import EndReason, GameResult
from bummerl.variants.two_player import marken
from bummerl.view_json import variant_traits

__all__ = [
    "MAX_SHEET_MATCHES",
    "SheetTable",
    "loser_class",
    "match_sheet",
    "round_sheet",
    "sheet_json",
    "table_match_sheet",
]

#: The matches a sheet lists in full (the newest); the totals count every match of the table.
MAX_SHEET_MATCHES = 20

#: The endings where the winner reached 66 and is paid by the loser's class (seeds/000, seeds/001).
_WON_BY_66 = (EndReason.DECLARED, EndReason.CLOSER_WON, EndReason.LAST_TRICK)
#: The loser's class by the Siegpunkte it pays (:func:`bummerl.cards.siegpunkte`: 3 no trick, 2 under 33).
_CLASS = {3: "schwarz", 2: "schneider"}


def loser_class(match_kind: str, result: GameResult, closed_by: int | None) -> str | None:
    """``"schwarz"`` (the loser took no trick), ``"schneider"`` (under 33 Augen) or ``None``, as the game paid it.

    A game won by reaching 66 pays by the loser's class: in a Bummerl the game points are the class itself
    (seeds/000: "drei Punkte ... keinen Stich", "zwei Punkte ... 32 oder weniger Augen"), in Schnorps the
    Marken of that class (seeds/001: "der Schneider mit 2 Marken u. der S. mit 6 Marken", covered 4 and 8;
    :func:`~bummerl.variants.two_player.marken`).  A penalty (a failed close, a wrong declaration), a stand
    and a last trick scored as one point name no class.

    >>> from bummerl.variants import EndReason, GameResult
    >>> loser_class("bummerl", GameResult(0, 2, EndReason.DECLARED, (70, 20)), None)
    'schneider'
    >>> loser_class("marken", GameResult(1, 8, EndReason.CLOSER_WON, (10, 80), "Marken"), 1)
    'schwarz'
    >>> loser_class("bummerl", GameResult(1, 3, EndReason.CLOSER_FAILED, (70, 20)), 0) is None
    True
    """
    if result.winner is None or result.reason not in _WON_BY_66:
        return None
    if match_kind == "marken":
        covered = closed_by == result.winner
        paid = next((s for s in (1, 2, 3) if marken(s, covered) == result.points), None)
        return None if paid is None else _CLASS.get(paid)
    return _CLASS.get(result.points)


def match_sheet(match: Match, match_no: int) -> dict[str, Any]:
    """One two-player match (a Bummerl or Schnorps in Marken) as sheet lines: ``match_no`` counts from 1."""
    lines = []
    games = match.games
    for h in match.history:
        result = h.result
        closed_by = games[h.index].closed_by
        lines.append(
            {
                "game_no": h.index + 1,
                "dealer": h.dealer,
                "winner": result.winner,
                "points": result.points,
                "unit": result.unit,
                # What the match credited: the points times the doubling after a stand (Schnorps).
                "credited": h.points,
                "multiplier": h.multiplier,
                "reason": result.reason.value,
                "closed_by": closed_by,
                "class": loser_class(match.kind, result, closed_by),
                "augen": list(result.augen),
                "standing": list(h.standing_after),
            }
        )
    current = match.current
    return {
        "match_no": match_no,
        "scoring": match.kind,
        "target": match.target,
        # Bummerl: both start at the target and count down; Marken start at 0 and count up.
        "start": list(match.standing) if not match.history else list(match.history[0].standing_before),
        "games": lines,
        "standing": list(match.standing),
        "next_multiplier": match.multiplier,
        "current": None if current is None else {"game_no": len(games), "dealer": current.dealer},
        "over": match.is_over,
        "winner": match.winner,
        "winners": [] if match.winner is None else [match.winner],
        "schneider": match.is_schneider,
        "bummerl": match.bummerl_for_loser,
    }


def table_match_sheet(match: TableMatch, match_no: int, current: tuple[int, int] | None = None) -> dict[str, Any]:
    """One match of a table game to its target, per team (four players) or seat (three); ``current`` is the
    number and dealer of the game on the table while it runs."""
    variant = match.variant
    # The running score as the match itself counts it: the results scored again on a fresh match.
    scratch = TableMatch(variant, seed=match.seed)
    lines = []
    for i, result in enumerate(match.results):
        scratch.score(result)
        lines.append(
            {
                "game_no": i + 1,
                "dealer": match.games[i].dealer,
                "contract": None if result.reason.value == "redeal" else result.contract,
                "declarer": result.declarer,
                "winners": list(result.winners),
                "sides": sorted({match.side_of(s) for s in result.winners}),
                "points": result.points,
                "multiplier": result.multiplier,
                "reason": result.reason.value,
                "augen": list(result.augen),
                "standing": list(scratch.scores),
            }
        )
    sides = [[s for s in range(variant.players) if match.side_of(s) == side] for side in range(match.sides)]
    return {
        "match_no": match_no,
        "scoring": "points",
        "target": variant.match_target,
        "start": [0] * match.sides,
        "sides": sides,
        "games": lines,
        "standing": list(match.scores),
        "next_multiplier": 1,
        "current": None if current is None else {"game_no": current[0], "dealer": current[1]},
        "over": match.is_over,
        "winner": match.winners[0] if len(match.winners) == 1 else None,
        "winners": list(match.winners),
        # seeds/004: "Haben die Verlierer keinen Spielpunkt ..., sind sie „Schneider“" — two Bummerl.
        "schneider": match.is_over and any(b == 2 for b in match.bummerl),
        "bummerl": max(match.bummerl) if match.is_over else 0,
        "bummerl_by_side": list(match.bummerl),
    }


def round_sheet(r: SchnorpsRound, match_no: int) -> dict[str, Any]:
    """One Schnorps round of three or four as the lines of the sheet (``scoring`` ``"marken"``, one column per
    participant): who dealt, who played, who won, what each participant received or paid, and the balances.

    >>> r = SchnorpsRound(participants=4, seed=1, first_dealer=2)
    >>> sheet = round_sheet(r, 1)
    >>> sheet["scoring"], sheet["participants"], sheet["current"], sheet["standing"]
    ('marken', 4, {'game_no': 1, 'dealer': 2, 'players': [3, 0]}, [0, 0, 0, 0])
    """
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
    current = None
    if not r.is_over:
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
        "over": r.is_over,
        "winner": r.winners[0] if len(r.winners) == 1 else None,
        "winners": list(r.winners),
        "schneider": False,
        "bummerl": 0,
    }


#: The sheet of one match, by the kind of series: (the series, its number, the number and dealer of the game on
#: the table while it runs) -> its sheet.
_SHEETS: dict[type, Callable[[Any, int, tuple[int, int] | None], dict[str, Any]]] = {
    Match: lambda m, k, _current: match_sheet(m, k),
    TableMatch: table_match_sheet,
    SchnorpsRound: lambda m, k, _current: round_sheet(m, k),
}


class SheetTable(Protocol):
    """What the sheet reads of a live table (a :class:`bummerl.server.rooms.Room`)."""

    id: str

    @property
    def kind(self) -> str: ...

    @property
    def variant(self) -> Any: ...

    @property
    def dealt(self) -> bool: ...

    @property
    def game(self) -> Game: ...

    def players(self) -> list[dict[str, Any]]: ...

    def played_matches(self) -> Sequence[Series]: ...


def _totals(matches: Sequence[dict[str, Any]], sides: int) -> dict[str, list[int]]:
    """Matches won and Bummerl received per side over ``matches`` (sheets of finished and running matches)."""
    won = [0] * sides
    bummerl = [0] * sides
    for m in matches:
        if not m["over"]:
            continue
        for side in m["winners"]:
            won[side] += 1
        by_side = m.get("bummerl_by_side")
        for side in range(sides):
            if side not in m["winners"]:
                bummerl[side] += by_side[side] if by_side is not None else m["bummerl"]
    return {"matches_won": won, "bummerl": bummerl}


def sheet_json(room: SheetTable) -> dict[str, Any]:
    """The sheet of a live table of any kind (``GET /api/tables/{id}/sheet`` and the ``sheet`` of ``state``).

    Names come from the seats (:meth:`~bummerl.server.rooms.Room.players`); ``side_names`` are the columns:
    the seats of a two-player table, of a Schnorps round or of Dreierschnapsen, the teams of Bauernschnapsen.
    """
    players = room.players()
    played = list(room.played_matches())
    game = room.game if room.dealt else None
    running = game is not None and not game.is_over
    out_matches: list[dict[str, Any]] = []
    sides: list[list[int]] = [[p["seat"]] for p in players]
    for k, m in enumerate(played):
        last = k == len(played) - 1
        current = (len(m.games), game.dealer) if last and running and game is not None and not m.is_over else None
        sheet = _SHEETS[type(m)](m, k + 1, current)
        sides = sheet.get("sides", sides)
        out_matches.append(sheet)
    known = [m for m in out_matches if "winners" in m]
    return {
        "table_id": room.id,
        "kind": room.kind,
        "variant": room.variant.name,
        "traits": variant_traits(room.variant),
        "title": room.variant.title,
        "options": room.variant.options(),
        "players": [
            {
                "seat": p["seat"],
                "name": p["name"],
                "kind": p["kind"],
                "bot": p["bot"],
                "titles": p.get("titles"),
                "team": p["team"],
            }
            for p in players
        ],
        "sides": sides,
        "matches": out_matches[-MAX_SHEET_MATCHES:],
        "matches_total": len(out_matches),
        "totals": _totals(known, len(sides)),
    }
