"""Wall-clock time per decision of the table ``search`` bot, on fixed positions (bids, Kontra, card play).

    python bench/table_decisions.py                          # 20 deals per table game
    python bench/table_decisions.py --deals 40 --json
    .baselines/<commit>/.venv/bin/python bench/table_decisions.py   # the same positions, an older bot

Each deal (seed ``i``, dealer ``i mod players``) is played by ``heuristic`` bots, so the positions do not
depend on the bot measured.  At every decision of the bidding, the doubling (Kontra, Rekontra, Subkontra) and
the card play with more than one legal action, a fresh ``make_bot("search", seed)`` chooses from that seat's
view and its wall-clock and CPU time are recorded; then the heuristic's action is played.  Only
``make_bot`` and ``TableGame`` are used, so the script measures any revision's bot (run it with that
revision's Python, as above).

Reported per variant and kind (``bid``, ``double``, ``first trick``, ``later play``): decisions, median and
maximum wall seconds, median CPU seconds.  The machine is shared: the wall times include waiting for a core
(the load average is printed with the report).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import time

from bummerl.bots import make_bot
from bummerl.table_game import TableGame
from bummerl.variants.bauernschnapsen import Phase

VARIANTS = ("dreierschnapsen", "bauernschnapsen")


def kind_of(game: TableGame) -> str | None:
    """The kind of decision the player to move faces (``None``: not measured)."""
    if game.phase is Phase.BIDDING:
        return "bid"
    if game.phase is Phase.DOUBLING:
        return "double"
    if game.phase is Phase.PLAY and len(game.legal_actions()) > 1:
        return "first trick" if not game.tricks else "later play"
    return None


def measure(variant: str, deals: int, seed: int) -> dict[str, list[tuple[float, float]]]:
    """``{kind: [(wall, cpu), ...]}`` over ``deals`` deals of ``variant``."""
    out: dict[str, list[tuple[float, float]]] = {}
    for i in range(deals):
        deal = seed + i
        game = TableGame.deal(variant, seed=deal, dealer=deal % (4 if variant == "bauernschnapsen" else 3))
        n = game.variant.players
        heuristics = [make_bot("heuristic", deal * 8 + s, game.variant) for s in range(n)]
        step = 0
        while not game.is_over:
            seat = game.to_move
            view = game.view(seat)
            kind = kind_of(game)
            if kind is not None:
                bot = make_bot("search", deal * 1000 + step, game.variant)
                w0, c0 = time.perf_counter(), time.process_time()
                bot.choose(view)
                out.setdefault(kind, []).append((time.perf_counter() - w0, time.process_time() - c0))
            game.apply(heuristics[seat].choose(view))
            step += 1
    return out


def summary(samples: list[tuple[float, float]]) -> dict[str, float]:
    walls = [w for w, _ in samples]
    return {
        "decisions": len(samples),
        "wall_median": statistics.median(walls),
        "wall_max": max(walls),
        "cpu_median": statistics.median(c for _, c in samples),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--deals", type=int, default=20)
    parser.add_argument("--seed", type=int, default=0, help="the first deal's seed")
    parser.add_argument("--variant", action="append", choices=VARIANTS, help="default: both")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    load_before = os.getloadavg()[0]
    report: dict[str, dict[str, dict[str, float]]] = {}
    for v in args.variant or VARIANTS:
        data = measure(v, args.deals, args.seed)
        rows = {k: summary(s) for k, s in sorted(data.items())}
        rows["all"] = summary([x for s in data.values() for x in s])
        report[v] = rows
    load = {"load_before": load_before, "load_after": os.getloadavg()[0]}
    if args.json:
        print(json.dumps({"report": report, **load}, indent=2))
        return
    print(f"load average {load_before:.1f} before, {load['load_after']:.1f} after")
    print(f"{'variant':16} {'kind':12} {'n':>5} {'median s':>9} {'max s':>7} {'cpu med s':>9}")
    for v, rows in report.items():
        for k, r in rows.items():
            print(
                f"{v:16} {k:12} {r['decisions']:5d} {r['wall_median']:9.3f} {r['wall_max']:7.2f} {r['cpu_median']:9.3f}"
            )


if __name__ == "__main__":
    main()
