"""What a client is told of a web tournament: ``GET /api/tournaments/{id}`` (docs/web-tournaments.md).

Built from the stored tournament (:class:`~bummerl.server.tournament_store.TournamentData`)
alone: the participants, every round's tables with their seats and results,
and the standings of :mod:`~bummerl.server.tournament_rounds`; a participant
also gets their table (:func:`your_table`).  No card, no token but the one the
asker sent.

>>> from bummerl.server.tournament_rounds import Outcome, Seating
>>> from bummerl.server.tournament_store import PlayerData, TableRow, TournamentData
>>> players = [PlayerData(0, "Anna", "human", None, "<sha256>"), PlayerData(1, "random", "bot", "random", None)]
>>> table = TableRow(1, 0, "k3J9x2", Seating((0, 1)), "done", Outcome(frozenset({0}), {0: 2, 1: 0}))
>>> t = TournamentData("Cup", "schnapsen", {}, "swiss", "game", 1, 8, "T1", "c0de", "<sha256>", "finished", 1, 0,
...                    "2026-01-01", None, None, players, [table])
>>> state = tournament_json(t, title="Schnapsen (weich)", kind="two_player", seats=2, filler="hard")
>>> [(s["name"], s["winner"], s["score"]) for s in state["rounds"][0]["tables"][0]["seats"]]
[('Anna', True, 2), ('random', False, 0)]
>>> [(s["name"], s["points"]) for s in state["standings"]]
[('Anna', 1), ('random', 0)]
>>> your_table(t, 0, "anna's token")["seat_token"]
"anna's token"
"""

from __future__ import annotations

import dataclasses
from typing import Any

from bummerl.server.tournament_rounds import Outcome, standings
from bummerl.server.tournament_store import OPEN, PlayerData, TournamentData

__all__ = ["tournament_json", "your_table"]


def tournament_json(t: TournamentData, *, title: str, kind: str, seats: int, filler: str) -> dict[str, Any]:
    """The public state of ``t`` (``kind`` and ``seats``: its kind of table; ``filler``: the bot of a seat no
    participant takes)."""
    names = {p.number: p for p in t.players}

    def seat_json(seat: int, who: int | None, outcome: Outcome | None) -> dict[str, Any]:
        p: PlayerData | None = names.get(who) if who is not None else None
        return {
            "seat": seat,
            "player": who,
            "name": p.name if p is not None else None,
            "kind": "bot" if p is None or p.kind == "bot" else "human",
            "bot": p.bot if p is not None else filler,
            "score": outcome.scores.get(who) if outcome is not None and who is not None else None,
            "winner": outcome is not None and who in outcome.winners,
            # The bot took this participant's seat over (the move clock): they lost the table by forfeit.
            "forfeited": outcome is not None and who in outcome.forfeited,
        }

    rounds = [
        {
            "round": number,
            "tables": [
                {
                    "table": row.table_no + 1,
                    "table_id": row.table_id,
                    "bye": row.seating.bye,
                    "status": row.status,
                    "seats": [seat_json(s, who, row.outcome) for s, who in enumerate(row.seating.players)],
                    "winners": sorted(row.outcome.winners) if row.outcome is not None else [],
                }
                for row in t.round_tables(number)
            ],
        }
        for number in range(1, t.round + 1)
    ]
    return {
        "id": t.id,
        "name": t.name,
        "variant": t.variant,
        "title": title,
        "kind": kind,
        "seats": seats,
        "options": t.options,
        "format": t.format,
        "unit": t.unit,
        # Before the start only a Swiss tournament knows its rounds (those asked for); then every format.
        "planned_rounds": t.rounds if t.status != OPEN or t.format == "swiss" else None,
        "max_players": t.max_players,
        "move_seconds": t.move_seconds,
        "status": t.status,
        "round": t.round,
        "players": [{"player": p.number, "name": p.name, "kind": p.kind, "bot": p.bot} for p in t.players],
        "rounds": rounds,
        "standings": [
            {**dataclasses.asdict(s), "name": names[s.player].name}
            for s in standings(t.format, len(t.players), t.history())
        ],
        "winner": t.winner,
    }


def your_table(t: TournamentData, player: int, token: str) -> dict[str, Any] | None:
    """Participant ``player``'s table in the latest round that seats them (``{"round", "bye": true}`` for a
    bye; ``None`` before the first round), with ``token``, their own token, as the seat's token: it holds their
    seat at every table of the tournament (:mod:`bummerl.server.tournaments`)."""
    for number in range(t.round, 0, -1):
        for row in t.round_tables(number):
            if player not in row.seating.players:
                continue
            if row.seating.bye or row.table_id is None:
                return {"round": number, "bye": True}
            return {
                "round": number,
                "bye": False,
                "table": row.table_no + 1,
                "table_id": row.table_id,
                "seat": row.seating.players.index(player),
                "ws_url": f"/ws/tables/{row.table_id}",
                "seat_token": token,
                "status": row.status,
            }
    return None
