"""Measure bot strength on duplicate deals with :mod:`bummerl.arena`, with 95% intervals.

Every deal is played in every seating of the two bots (two players: twice, with
the seats swapped; the table games: docs/arena.md), so the luck of the cards
cancels and the deal is the unit of the statistics.  On top of the arena's
report this prints the share of all game points won by side ``a`` (delta-method
interval over deals), the share of Bummerl won by ``a`` (Student-t interval over
deals, each deal a pair of matches), and each side's time per move (median,
90th percentile, max).

Usage::

    python bench/strength.py --a expert --b random --deals 100
    python bench/strength.py --a expert --b heuristic --deals 40 --unit bummerl --jobs 2
    python bench/strength.py --ladder --deals 200          # each level against the level below
    python bench/strength.py --timing expert --deals 10    # seconds per move (self-play)
    python bench/strength.py --combine run1.json run2.json # sum `bummerl arena --json` reports
    python bench/strength.py --combine run1.json run2.json --sprt 0,20   # and the SPRT over their deals
    python bench/strength.py --margin-gain new.json old.json  # (new - b) - (old - b), same deals
    python bench/strength.py --margin-gain new1.json old1.json new2.json old2.json  # two stages pooled

``--combine`` adds up arena reports of the same pairing run with different
seeds (long measurements in chunks, so a partial run still counts): game
points, games and Bummerl won with Wilson intervals over all of them, and the
range of the per-run median times per move (medians do not add up).  When the
reports carry their ``game_log`` (``bummerl arena --game-log``) it also gives
the paired 95% interval of the ppg difference over all deals pooled
(``ppg_ci95``, :func:`pooled_interval`), and with ``--sprt ELO0,ELO1`` the
arena's sequential test (:mod:`bummerl.arena.sprt`) over the pooled deals, in the
order the reports are given (:func:`pooled_sprt`).

Only the public bot API is used (bots see ``game.view(seat)`` only).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import defaultdict
from typing import Any

from bummerl.arena import ArenaConfig, paired_interval, run_arena
from bummerl.arena.sprt import SequentialTest, Sprt, deal_score
from bummerl.stats import ratio_interval, wilson_interval

LADDER = [("medium", "easy"), ("hard", "medium"), ("expert", "hard")]


def measure(a: str, b: str, variant: str, unit: str, deals: int, seed: int, jobs: int) -> dict[str, Any]:
    """One arena run plus the shares and their intervals."""
    report = run_arena(ArenaConfig(variant, a, b, deals=deals, seed=seed, unit=unit, jobs=jobs), game_log=True)
    per_deal: dict[int, list[int]] = defaultdict(lambda: [0, 0])
    for g in report.pop("game_log"):
        points = side_points(g)
        per_deal[g["deal"]][0] += points["a"]
        per_deal[g["deal"]][1] += points["b"]
    a_pts = [per_deal[d][0] for d in range(deals)]
    totals = [per_deal[d][0] + per_deal[d][1] for d in range(deals)]
    if deals > 1 and sum(totals) > 0:
        report["points_share_a_ci95"] = list(ratio_interval(a_pts, totals))
    if unit == "bummerl":
        played = report["bummerl_played"]
        won = report["a"]["bummerl_won"]
        report["bummerl_share_a"] = won / played if played else None
        # Matches of one deal share their packs: the deal is the unit (0, 0.5 or 1 each).
        # The per-deal split is not in the report, so use the Wilson interval as the
        # arena does when deals are too few for a t interval.
        report["bummerl_share_a_ci95"] = report["a"]["bummerl_won_ci95"]
    return report


def timing(bot: str, variant: str, deals: int, seed: int) -> dict[str, Any]:
    """Seconds per move of ``bot`` in self-play, split by the talon still open or not."""
    report = run_arena(ArenaConfig(variant, bot, bot, deals=deals, seed=seed, unit="game", jobs=1))
    return {
        "bot": bot,
        "variant": variant,
        "deals": deals,
        "moves": report["a"]["moves"] + report["b"]["moves"],
        "move_seconds_median": (report["a"]["move_seconds_median"] + report["b"]["move_seconds_median"]) / 2,
        "move_seconds_max": max(report["a"]["move_seconds_max"], report["b"]["move_seconds_max"]),
    }


def combine(paths: list[str], sprt: Sprt | None = None) -> dict[str, Any]:
    """Sum arena JSON reports of one pairing (different seeds) into one summary (with ``sprt``: its test over
    the pooled deals, :func:`pooled_sprt`)."""
    reports = []
    for path in paths:
        with open(path, encoding="utf-8") as f:
            reports.append(json.load(f))
    if not reports:
        raise ValueError("--combine needs at least one report")
    names = {(r["a"]["name"], r["b"]["name"], r["variant"], r["unit"]) for r in reports}
    if len(names) != 1:
        raise ValueError(f"--combine: the reports are of different pairings: {sorted(names)}")
    out: dict[str, Any] = {
        "runs": len(reports),
        "seeds": [r["seed"] for r in reports],
        "deals": sum(r["deals"] for r in reports),
        "games": sum(r["games"] for r in reports),
        "bummerl_played": sum(r.get("bummerl_played", 0) for r in reports),
    }
    for side in ("a", "b"):
        s = {
            "name": reports[0][side]["name"],
            "game_points": sum(r[side]["game_points"] for r in reports),
            "games_won": sum(r[side]["games_won"] for r in reports),
            "bummerl_won": sum(r[side]["bummerl_won"] for r in reports),
            "moves": sum(r[side]["moves"] for r in reports),
            "move_seconds_median_range": [
                min(r[side]["move_seconds_median"] for r in reports),
                max(r[side]["move_seconds_median"] for r in reports),
            ],
            "move_seconds_max": max(r[side]["move_seconds_max"] for r in reports),
        }
        s["ppg"] = s["game_points"] / out["games"]
        s["games_won_ci95"] = list(wilson_interval(s["games_won"], out["games"]))
        if out["bummerl_played"]:
            s["bummerl_won_ci95"] = list(wilson_interval(s["bummerl_won"], out["bummerl_played"]))
        out[side] = s
    total = out["a"]["game_points"] + out["b"]["game_points"]
    out["points_share_a"] = out["a"]["game_points"] / total if total else None
    if out["bummerl_played"]:
        out["bummerl_share_a"] = out["a"]["bummerl_won"] / out["bummerl_played"]
    out["ppg_diff"] = out["a"]["ppg"] - out["b"]["ppg"]
    out["ppg_ci95"] = pooled_interval(reports)
    if sprt is not None:
        out["sprt"] = pooled_sprt(reports, sprt)
    return out


def pooled_sprt(reports: list[dict[str, Any]], sprt: Sprt) -> dict[str, Any]:
    """The arena's SPRT (:class:`bummerl.arena.sprt.SequentialTest`) over the deals of all ``reports``.

    The deals are taken in the order the reports are given, each report's in deal order, and the test stops
    at the first bound it crosses, as ``bummerl arena --sprt`` would have over one long run: so the order of
    the reports must be fixed before they are read (their seeds in the order they were run), never chosen
    after.  A deal's score is the arena's (:func:`~bummerl.arena.sprt.deal_score` of its games).  Needs
    every report's ``game_log``.

    >>> log = [{"deal": d, "side_points": {"a": 1, "b": 0}} for d in (0, 0, 1, 1)]
    >>> r = pooled_sprt([{"seed": 1, "game_log": log}, {"seed": 2, "game_log": log}], Sprt(0, 200))
    >>> r["deals"], r["result"]   # a won the first two of the four deals: decided there
    (2, 'H1')
    """
    if not all("game_log" in r for r in reports):
        raise ValueError("--sprt needs every report's game_log (bummerl arena --game-log)")
    test = SequentialTest(sprt)
    index = 0
    for r in reports:
        games = games_by_deal(r)
        for deal in sorted(games):
            test.add(index, deal_score(games[deal]))
            index += 1
    return test.report()


def pooled_interval(reports: list[dict[str, Any]]) -> list[float] | None:
    """The paired 95% interval of the ppg difference a-b over the deals of all reports.

    Needs every report's ``game_log`` (``bummerl arena --game-log``); the deal is
    the unit, keyed by (seed, deal), so the interval is the one a single run over
    all deals would print (:func:`bummerl.arena.paired_interval`).  ``None`` when a
    report has no game log or there are fewer than two deals.

    >>> games = [(0, "a", 2), (0, "b", 1), (1, "a", 1), (1, "a", 3)]
    >>> log = [{"deal": d, "winner": w, "points": p} for d, w, p in games]
    >>> pooled_interval([{"seed": 1, "game_log": log[:2]}, {"seed": 2, "game_log": log[2:]}]) is not None
    True
    """
    if not all("game_log" in r for r in reports):
        return None
    diff: dict[tuple[int, int], float] = defaultdict(float)
    games: dict[tuple[int, int], int] = defaultdict(int)
    for r in reports:
        for deal, (margin, count) in deal_margins(r).items():
            diff[r["seed"], deal] += margin
            games[r["seed"], deal] += count
    keys = sorted(games)
    return paired_interval([diff[k] for k in keys], [games[k] for k in keys])


def deal_margins(report: dict[str, Any]) -> dict[int, tuple[float, int]]:
    """Per deal of ``report``'s ``game_log``: side ``a``'s game points minus ``b``'s, and the games.

    >>> log = [{"deal": 0, "side_points": {"a": 3, "b": 0}}, {"deal": 0, "side_points": {"a": 0, "b": 1}}]
    >>> deal_margins({"game_log": log})
    {0: (2.0, 2)}
    """
    return {
        deal: (float(sum(g["a"] - g["b"] for g in games)), len(games)) for deal, games in games_by_deal(report).items()
    }


def games_by_deal(report: dict[str, Any]) -> dict[int, list[dict[str, int]]]:
    """The :func:`side_points` of ``report``'s ``game_log``, grouped by deal in the order the log names them.

    >>> log = [{"deal": 1, "winner": "a", "points": 2}, {"deal": 0, "winner": None, "points": 0}]
    >>> games_by_deal({"game_log": log})
    {1: [{'a': 2, 'b': 0}], 0: [{'a': 0, 'b': 0}]}
    """
    out: dict[int, list[dict[str, int]]] = defaultdict(list)
    for g in report["game_log"]:
        out[g["deal"]].append(side_points(g))
    return dict(out)


def margin_gain(new: dict[str, Any], old: dict[str, Any], *more: dict[str, Any]) -> dict[str, Any]:
    """How much more ``new``'s side ``a`` beats side ``b`` than ``old``'s did, on the same deals.

    Both reports must be of one ``b`` (the common opponent, e.g. ``heuristic``),
    one variant, seed and number of deals, with their game logs: then each deal
    was played in the same seatings by both, and the per-deal difference of the
    margins, ``(a - b)_new - (a - b)_old``, removes the luck of the cards once
    more.  The interval is over deals (:func:`bummerl.arena.paired_interval`).
    ``more`` are further ``new, old`` pairs (other seeds: a measurement in
    stages), pooled deal by deal; every pair must be of the same variant and
    opponent.

    >>> def report(points, seed=1):
    ...     log = [{"deal": d, "side_points": {"a": a, "b": b}} for d, (a, b) in enumerate(points)]
    ...     return {"a": {"name": "x"}, "b": {"name": "h"}, "variant": "v", "seed": seed, "deals": 3, "game_log": log}
    >>> gain = margin_gain(report([(3, 0), (2, 1), (1, 1)]), report([(2, 1), (2, 1), (0, 2)]))
    >>> round(gain["gain_per_game"], 3), gain["deals"]  # margins 4 against 0 over three games
    (1.333, 3)
    >>> same = report([(1, 1)] * 3, seed=2)
    >>> pooled = margin_gain(report([(3, 0), (2, 1), (1, 1)]), report([(2, 1), (2, 1), (0, 2)]), same, same)
    >>> round(pooled["gain_per_game"], 3), pooled["deals"]  # the second stage gains nothing
    (0.667, 6)
    """
    if len(more) % 2:
        raise ValueError("--margin-gain needs reports in pairs: NEW OLD [NEW OLD ...]")
    pairs = [(new, old)] + [(more[i], more[i + 1]) for i in range(0, len(more), 2)]
    keys = ("variant", "seed", "deals")
    diffs: list[float] = []
    per_game: list[float] = []
    for n, o in pairs:
        if any(n[k] != o[k] for k in keys) or n["b"]["name"] != o["b"]["name"]:
            raise ValueError("--margin-gain needs two reports against the same opponent on the same deals")
        if n["variant"] != new["variant"] or n["b"]["name"] != new["b"]["name"]:
            raise ValueError("--margin-gain pools stages of one variant against one opponent only")
        if "game_log" not in n or "game_log" not in o:
            raise ValueError("--margin-gain needs reports with their game logs (bummerl arena --game-log)")
        now, before = deal_margins(n), deal_margins(o)
        if now.keys() != before.keys() or any(now[d][1] != before[d][1] for d in now):
            raise ValueError("--margin-gain: a deal has not the same games in both reports (other seatings?)")
        for d in sorted(now):
            diffs.append(now[d][0] - before[d][0])
            per_game.append(float(now[d][1]))
    return {
        "new": new["a"]["name"],
        "old": old["a"]["name"],
        "opponent": new["b"]["name"],
        "variant": new["variant"],
        "deals": len(diffs),
        "gain_per_game": sum(diffs) / sum(per_game),
        "gain_ci95": paired_interval(diffs, per_game),
    }


def side_points(game: dict[str, Any]) -> dict[str, int]:
    """The points of the sides in one game of a ``game_log``: ``side_points``, or in the
    reports of the two-player arena before issue 11 the ``winner``'s ``points``.

    >>> side_points({"winner": "b", "points": 2}), side_points({"side_points": {"a": 3, "b": 3}})
    ({'a': 0, 'b': 2}, {'a': 3, 'b': 3})
    """
    if "side_points" in game:
        return dict(game["side_points"])
    points = {"a": 0, "b": 0}
    if game["winner"] is not None:
        points[game["winner"]] = game["points"]
    return points


def _fmt_ci(ci: Any) -> str:
    return "n/a" if not ci else f"[{ci[0]:.3f}, {ci[1]:.3f}]"


def text(r: dict[str, Any]) -> str:
    a, b = r["a"], r["b"]
    lines = [
        f"{a['name']} vs {b['name']}: {r['variant']}, {r['deals']} duplicate deals, {r['games']} games "
        f"(unit {r['unit']}), {r['seconds']:.0f} s",
        f"  points per game {a['ppg']:.3f} : {b['ppg']:.3f}, difference {r['ppg_diff']:+.3f} "
        f"(95% CI {_fmt_ci(a['ppg_ci95'])})",
        f"  share of game points for {a['name']}: {r['points_share_a'] or 0:.3f} "
        f"(95% CI {_fmt_ci(r.get('points_share_a_ci95'))})",
        f"  games won {a['games_won']} : {b['games_won']}",
    ]
    if r["unit"] == "bummerl":
        lines.append(
            f"  Bummerl won {a['bummerl_won']} : {b['bummerl_won']}, share {r['bummerl_share_a'] or 0:.3f} "
            f"(95% CI {_fmt_ci(r['bummerl_share_a_ci95'])})"
        )
    for s in (a, b):
        lines.append(
            f"  {s['name']}: seconds per move median {s['move_seconds_median']:.4f}, max {s['move_seconds_max']:.3f} "
            f"({s['moves']} moves)"
        )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--a", default="expert")
    parser.add_argument("--b", default="random")
    parser.add_argument("--variant", default="schnapsen")
    parser.add_argument("--unit", choices=("game", "bummerl"), default="game")
    parser.add_argument("--deals", type=int, default=20)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--ladder", action="store_true", help="each level against the level below")
    parser.add_argument("--timing", metavar="BOT", help="only the seconds per move of BOT (self-play, one job)")
    parser.add_argument("--combine", nargs="+", metavar="REPORT", help="sum `bummerl arena --json` reports")
    parser.add_argument(
        "--sprt",
        metavar="ELO0,ELO1",
        help="with --combine: the SPRT over the pooled deals, in the order the reports are given",
    )
    parser.add_argument(
        "--margin-gain",
        nargs="+",
        metavar="REPORT",
        help="NEW OLD [NEW OLD ...]: how much more NEW's a beats b than OLD's a, on the same deals "
        "(pairs of `bummerl arena --json --game-log`; further pairs are stages pooled deal by deal)",
    )
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    if args.sprt and not args.combine:
        parser.error("--sprt goes with --combine (a new run takes `bummerl arena --sprt`)")
    if args.combine:
        try:
            test = Sprt.parse(args.sprt) if args.sprt else None
        except ValueError as exc:
            parser.error(str(exc))
        print(json.dumps(combine(args.combine, test), indent=1))
        return 0
    if args.margin_gain:
        if len(args.margin_gain) % 2:
            parser.error("--margin-gain takes reports in pairs: NEW OLD [NEW OLD ...]")
        reports = []
        for path in args.margin_gain:
            with open(path, encoding="utf-8") as f:
                reports.append(json.load(f))
        print(json.dumps(margin_gain(*reports), indent=1))
        return 0
    if args.deals < 1:
        parser.error("--deals must be at least 1")
    started = time.perf_counter()
    out: list[dict[str, Any]] = []
    if args.timing:
        out.append(timing(args.timing, args.variant, args.deals, args.seed))
        if not args.json:
            print(out[-1])
    else:
        for a, b in LADDER if args.ladder else [(args.a, args.b)]:
            out.append(measure(a, b, args.variant, args.unit, args.deals, args.seed, args.jobs))
            if not args.json:
                print(text(out[-1]), flush=True)
    if args.json:
        print(json.dumps(out[0] if len(out) == 1 else out, indent=1))
    else:
        print(f"total {time.perf_counter() - started:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
