"""A finished tournament's report: the ``--json`` object and the table printed without ``--json``.

The keys (docs/tournaments.md lists them all): the configuration (``format``,
``variant``, ``options``, ``unit``, ``seed``, ``games``, ``bots``), ``winner``,
``standings`` (one object per bot, best first, starting with ``rank``, ``bot``,
``rating`` and ``interval``: :mod:`bummerl.tournament.standings`), ``pairings``
(every pairing played, by round), ``byes``, ``ratings`` (how they were made),
``out``, ``plot``, ``notes`` and ``run`` (deals found on disk and played now,
backend, jobs, seconds: the only keys that differ between an interrupted and
resumed run and an uninterrupted one).

This module builds and formats; it plays nothing and reads no files.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from bummerl.arena import seatings
from bummerl.tournament.config import TournamentConfig
from bummerl.tournament.ratings import PRIOR_ELO
from bummerl.tournament.schedule import PairingResult, Plan, Results
from bummerl.tournament.standings import observations, standings

__all__ = ["build_report", "format_report"]


def build_report(
    config: TournamentConfig, plan: Plan, results: Results, out: Path, run: dict[str, Any]
) -> dict[str, Any]:
    """The report of the finished tournament ``plan`` (the ``--json`` object)."""
    variant = config.rules
    table = standings(config, plan, results)
    bots = config.bots
    return {
        "format": config.format,
        "variant": variant.name,
        "options": variant.options(),
        "unit": config.unit,
        "seed": config.seed,
        "games": config.games,
        "bots": list(bots),
        "seatings": seatings(variant.players),
        "rounds": len(plan.rounds),
        "winner": table[0]["bot"],
        "standings": table,
        "pairings": [_pairing(config, r.number, p) for r in plan.rounds for p in r.pairings],
        "byes": [{"round": r.number, "bot": bots[b]} for r in plan.rounds for b in r.byes],
        "ratings": {
            "model": "Bradley-Terry",
            "observations": len(observations(config, plan, results)),
            "observation": "one duplicate deal of a pairing: won 1, drawn 0.5, lost 0",
            "scale": "Elo (400/ln 10 per unit of strength), mean 0",
            "interval": "95%, from the observed information",
            "prior_elo": PRIOR_ELO,
        },
        "out": str(out),
        "plot": None,
        "notes": [],
        "run": run,
    }


def _pairing(config: TournamentConfig, number: int, p: PairingResult) -> dict[str, Any]:
    bots, t = config.bots, p.tally
    return {
        "round": number,
        "a": bots[p.pairing.a],
        "b": bots[p.pairing.b],
        "deals": t.deals,
        "games": t.games,
        "game_points": {"a": t.game_points[0], "b": t.game_points[1]},
        "games_won": {"a": t.games_won[0], "b": t.games_won[1]},
        "bummerl_won": {"a": t.bummerl_won[0], "b": t.bummerl_won[1]},
        "forfeits": {"a": t.forfeits[0], "b": t.forfeits[1]},
        "winner": None if p.winner is None else bots[p.winner],
        "decided_by": p.decided_by,
    }


def _name(bot: str, width: int = 24) -> str:
    return bot if len(bot) <= width else bot[: width - 3] + "..."


def format_report(report: dict[str, Any]) -> str:
    """The human-readable standings, ratings and pairings of a report."""
    fmt, unit, run = report["format"], report["unit"], report["run"]
    pairings = report["pairings"]
    deals = sum(p["deals"] for p in pairings)
    games = sum(p["games"] for p in pairings)
    options = f" {report['options']}" if report["options"] else ""
    lines = [
        f"Tournament: {fmt} of {len(report['bots'])} bots, {report['variant']}{options}, unit {unit},"
        f" seed {report['seed']}, {report['games']} deals per pairing (seatings {' '.join(report['seatings'])})",
        f"{report['rounds']} rounds, {len(pairings)} pairings, {deals} deals, {games} games;"
        f" {report['out']}: {run['deals_on_disk']} deals were on disk, {run['deals_played']} played now"
        f" ({run['seconds']:.1f} s, {run['jobs']} jobs, {run['backend']})",
        "",
    ]
    first = "place" if fmt == "knock-out" else "score"
    header = f"{'rank':>4}  {'bot':<24}{first:>6}{'w-d-l':>9}{'deals w-d-l':>14}{'points':>8}{'against':>9}"
    if fmt == "swiss":
        header += f"{'Buchholz':>9}"
    if unit == "bummerl":
        header += f"{'Bummerl':>8}"
    lines.append(header + f"{'rating':>8}  95% interval")
    for row in report["standings"]:
        lead = f"{row['place']:>6}" if fmt == "knock-out" else f"{row['score']:>6.1f}"
        matches = f"{row['won']}-{row['drawn']}-{row['lost']}"
        by_deal = f"{row['deals_won']}-{row['deals_drawn']}-{row['deals_lost']}"
        line = (
            f"{row['rank']:>4}  {_name(row['bot']):<24}{lead}{matches:>9}{by_deal:>14}"
            f"{row['game_points']:>8}{row['game_points_against']:>9}"
        )
        if fmt == "swiss":
            line += f"{row['buchholz']:>9.1f}"
        if unit == "bummerl":
            line += f"{row['bummerl_won']:>8}"
        low, high = row["interval"]
        lines.append(line + f"{row['rating']:>+8.0f}  [{low:+.0f}, {high:+.0f}]")
    ratings = report["ratings"]
    lines += [
        "",
        f"ratings: {ratings['model']} over {ratings['observations']} duplicate deals (won 1, drawn 1/2),"
        " Elo scale, mean 0",
    ]
    forfeits = [f"{_name(row['bot'])} {row['forfeits']}" for row in report["standings"] if row["forfeits"]]
    lines += [f"forfeits (games lost by a failing bot): {', '.join(forfeits)}" if forfeits else "forfeits: none", ""]
    what = "Bummerl" if unit == "bummerl" else "points"
    byes: dict[int, list[str]] = {}
    for bye in report["byes"]:
        byes.setdefault(bye["round"], []).append(bye["bot"])
    for number in range(1, report["rounds"] + 1):
        label = f"round {number}:"
        for p in (p for p in pairings if p["round"] == number):
            score = p["bummerl_won"] if unit == "bummerl" else p["game_points"]
            result = "draw" if p["winner"] is None else f"{_name(p['winner'])} ({p['decided_by']})"
            lines.append(
                f"{label:<10}{_name(p['a'])} {score['a']} : {score['b']} {_name(p['b'])} {what},"
                f" {p['deals']} deals: {result}"
            )
            label = ""
        if number in byes:
            lines.append(f"{label:<10}bye: {', '.join(_name(b) for b in byes[number])}")
    if report["plot"]:
        lines += ["", f"plot: {report['plot']}"]
    for note in report["notes"]:
        lines += ["", f"note: {note}"]
    lines += ["", f"winner: {report['winner']}"]
    return "\n".join(lines)
