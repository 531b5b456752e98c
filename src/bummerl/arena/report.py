"""The arena's statistics and its report: one set of JSON keys for every variant (docs/arena.md).

**The duplicate deal is the unit.**  The games of a deal share their pack, so
they are not independent; deals are.  For deal ``i`` let ``D_i`` be a's points
minus b's over all its seatings and ``G_i`` its number of games; ``ppg_ci95``
is the 95% interval of ``sum(D_i) / sum(G_i)`` over the deals
(:func:`bummerl.stats.ratio_interval`): with two games per deal the Student-t
interval of the per-deal means, with a table game's six or two seatings the
same over six or two games, with whole matches a ratio of varying lengths.

>>> entry = side_entry("expert", points=9, won=5, games=8, times=[0.1, 0.3, 0.2],
...                    matches_won=1, bummerl_given=2, matches=2, forfeits=0)
>>> entry["ppg"], entry["move_seconds_median"], entry["games_won"]
(1.125, 0.2, 5)
>>> paired_interval([4.0], [2.0]) is None  # one deal: no interval, never a made-up one
True

This module computes and formats; it plays nothing.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bummerl.arena.deals import SIDES, ArenaConfig, DealResult, seatings
from bummerl.stats import median, ratio_interval, wilson_interval

__all__ = ["format_report", "paired_interval", "side_entry", "summarize"]


def paired_interval(diffs: Sequence[float], games: Sequence[float]) -> list[float] | None:
    """The 95% interval of the points difference per game, the deal as the unit (``None`` below 2 deals)."""
    if len(diffs) < 2:
        return None
    return list(ratio_interval(diffs, games))


def side_entry(
    name: str,
    *,
    points: int,
    won: int,
    games: int,
    times: Sequence[float],
    matches_won: int,
    bummerl_given: int,
    matches: int,
    forfeits: int,
) -> dict[str, Any]:
    """One side's part of the report (side ``a`` gets ``ppg_ci95`` from :func:`summarize`)."""
    return {
        "name": name,
        "game_points": points,
        "games_won": won,
        "bummerl_won": matches_won,
        "ppg": points / games if games else 0.0,
        "move_seconds_median": median(times) if times else None,
        "move_seconds_max": max(times) if times else None,
        "moves": len(times),
        "games_won_ci95": list(wilson_interval(won, games)) if games else None,
        "bummerl_given": bummerl_given,
        "bummerl_won_ci95": list(wilson_interval(min(matches_won, matches), matches)) if matches else None,
        "forfeits": forfeits,
    }


def summarize(
    config: ArenaConfig, results: Sequence[DealResult], jobs: int, seconds: float, game_log: bool = False
) -> dict[str, Any]:
    """The report of finished deals (the ``--json`` object; docs/arena.md lists every key)."""
    games = [g for r in results for g in r.games]
    n_games = len(games)
    n_matches = sum(len(r.matches) for r in results)
    diffs = [float(sum(g.side_points["a"] - g.side_points["b"] for g in r.games)) for r in results]
    per_deal = [float(len(r.games)) for r in results]
    sides: dict[str, dict[str, Any]] = {}
    for side in SIDES:
        sides[side] = side_entry(
            config.spec(side),
            points=sum(g.side_points[side] for g in games),
            won=sum(1 for g in games if g.side_points[side] > 0),
            games=n_games,
            times=[t for r in results for t in r.move_seconds[side]],
            matches_won=sum(m.won[side] for r in results for m in r.matches),
            bummerl_given=sum(m.given[side] for r in results for m in r.matches),
            matches=n_matches,
            forfeits=sum(1 for g in games if g.forfeit is not None and g.forfeit["side"] == side),
        )
    a, b = sides["a"], sides["b"]
    # ppg_ci95 goes into side a, right after its ppg.
    side_a: dict[str, Any] = {}
    for key, value in a.items():
        side_a[key] = value
        if key == "ppg":
            side_a["ppg_ci95"] = paired_interval(diffs, per_deal)
    total = a["game_points"] + b["game_points"]
    variant = config.rules
    report: dict[str, Any] = {
        "variant": variant.name,
        "options": variant.options(),
        "seed": config.seed,
        "unit": config.unit,
        "deals": len(results),
        "games": n_games,
        "bummerl_played": n_matches,
        "a": side_a,
        "b": b,
        "ppg_diff": a["ppg"] - b["ppg"],
        "points_share_a": a["game_points"] / total if total else None,
        "games_unwon": sum(1 for g in games if not g.side_points["a"] and not g.side_points["b"]),
        "forfeits": [g.forfeit for g in games if g.forfeit is not None],
        "seatings": seatings(variant.players),
        "move_timeout": config.move_timeout,
        "jobs": jobs,
        "seconds": seconds,
    }
    if game_log:
        report["game_log"] = [g.to_json() for g in games]
    return report


def _ms(seconds: float | None) -> str:
    """Milliseconds with three significant digits (bots range from µs to seconds)."""
    return "-" if seconds is None else f"{1000 * seconds:#.3g}".rstrip(".")


def format_report(report: dict[str, Any], forfeit_lines: int = 10) -> str:
    """The human-readable table of a report."""
    seats = report["seatings"]
    lines = [
        f"Arena: {report['variant']}"
        + (f" {report['options']}" if report["options"] else "")
        + f", unit {report['unit']}, seed {report['seed']}: {report['deals']} deals x {len(seats)} seatings ="
        f" {report['games']} games"
        + (f", {report['bummerl_played']} Bummerl" if report["unit"] == "bummerl" else "")
        + f" ({report['seconds']:.1f} s, {report['jobs']} jobs)",
        f"seatings per deal: {' '.join(seats)} (the bot in seat 0 first)",
        "",
        f"{'side':<5}{'bot':<24}{'points':>8}{'games won':>11}{'Bummerl':>9}{'pts/game':>10}"
        f"{'median ms':>11}{'max ms':>10}{'forfeits':>10}",
    ]
    for side in SIDES:
        s = report[side]
        name = s["name"] if len(s["name"]) <= 23 else s["name"][:20] + "..."
        bummerl = str(s["bummerl_won"]) if report["unit"] == "bummerl" else "-"
        lines.append(
            f"{side:<5}{name:<24}{s['game_points']:>8}{s['games_won']:>11}{bummerl:>9}{s['ppg']:>10.3f}"
            f"{_ms(s['move_seconds_median']):>11}{_ms(s['move_seconds_max']):>10}{s['forfeits']:>10}"
        )
    ci = report["a"]["ppg_ci95"]
    ci_text = f"[{ci[0]:+.3f}, {ci[1]:+.3f}]" if ci else "n/a (needs 2 deals)"
    lines += [
        "",
        f"a - b per game: {report['ppg_diff']:+.3f}, 95% CI {ci_text} (paired over {report['deals']} duplicate deals)",
    ]
    if report["points_share_a"] is not None:
        lines.append(f"share of the points won by a: {100 * report['points_share_a']:.1f}%")
    forfeits = report["forfeits"]
    if forfeits:
        lines.append(f"forfeits: {len(forfeits)}")
        for f in forfeits[:forfeit_lines]:
            where = f"deal {f['deal']} pairing {f['pairing']} game {f['game']}"
            lines.append(f"  {where}: {f['side']} ({f['kind']}) {f['message']}")
        if len(forfeits) > forfeit_lines:
            lines.append(f"  ... and {len(forfeits) - forfeit_lines} more (see --json)")
    else:
        lines.append("forfeits: none")
    return "\n".join(lines)
