"""What one quick-match poll costs the event loop (issue 24, docs/web.md "Quick match").

    python bench/quickmatch_poll.py                  # 1000 tickets, 20,000 polls at 2000 a second
    python bench/quickmatch_poll.py --tickets 200 --json

Every poll of a waiting page (``GET /api/quickmatch/{ticket}``, one a second per waiting player) asks the
matchmaker (:class:`bummerl.server.quickmatch.Matchmaker`) for the ticket and for the groups to seat.  This fills
one with ``--tickets`` tickets that cannot be seated (the worst case: a full server refuses every table, so they
all wait on, up to ``max_waiting``), and times ``--polls`` polls with the clock moved on by ``1 / --rate``
seconds each (the matchmaker's own clock: nothing sleeps), so its walk over all tickets for those nobody asked
for, and the service's pause after a refused table, come as often as they would.
It prints the mean cost of a poll in microseconds, and the share of one core that ``--rate`` polls a second take.
"""

from __future__ import annotations

import argparse
import json
import time

from bummerl.server.config import QuickMatchSettings
from bummerl.server.quickmatch import PAUSE_SECONDS, Matchmaker


def measure(tickets: int, polls: int, rate: float) -> dict[str, float]:
    """The mean seconds of one poll with ``tickets`` waiting, polled ``rate`` times a second, as the service polls:
    the ticket, then the groups to seat, which a full server refuses (they wait again, and no table is tried for
    :data:`~bummerl.server.quickmatch.PAUSE_SECONDS`)."""
    now = [0.0]
    settings = QuickMatchSettings(max_waiting=tickets, max_per_client=tickets)
    mm = Matchmaker(settings, clock=lambda: now[0])
    ids = [mm.enter("bauernschnapsen", "standard", f"P{i}", f"p{i}", "c", None).id for i in range(tickets)]
    pause_until = 0.0
    start = time.perf_counter()
    for i in range(polls):
        now[0] += 1.0 / rate
        mm.find(ids[i % tickets])
        if now[0] >= pause_until:
            refused = [t for g in mm.groups() for t in g.tickets]
            if refused:
                mm.unseat(refused)
                pause_until = now[0] + PAUSE_SECONDS
    seconds = (time.perf_counter() - start) / polls
    return {"tickets": tickets, "rate": rate, "poll_us": seconds * 1e6, "core_share": seconds * rate}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tickets", type=int, default=1000, help="tickets waiting (default 1000: max_waiting)")
    parser.add_argument("--polls", type=int, default=20_000, help="polls timed (default 20,000)")
    parser.add_argument("--rate", type=float, default=2000.0, help="polls a second (default 2000)")
    parser.add_argument("--json", action="store_true", help="print the result as JSON")
    args = parser.parse_args()
    result = measure(args.tickets, args.polls, args.rate)
    if args.json:
        print(json.dumps(result))
    else:
        print(
            f"{result['tickets']} tickets, {result['rate']:.0f} polls a second: {result['poll_us']:.1f} us a poll, "
            f"{100 * result['core_share']:.1f}% of a core"
        )


if __name__ == "__main__":
    main()
