"""Quick match with two ``bummerl serve`` processes on one PostgreSQL (cluster mode; docs/web.md "Quick match").

The tickets live in one process (the live one with the smallest node id); the other relays the requests there.
Anna asks for a quick match through process A, Bert through process B: both are seated at one table, each takes
their seat through the process they asked, and the counts of either process add up both processes' people.

Skipped without PostgreSQL, except under ``CI`` (``pg_server``), as tests/test_server_cluster.py.
"""

from __future__ import annotations

import pytest

pytest.importorskip("fastapi", reason="needs the 'web' extra: pip install -e '.[web]'")
pytest.importorskip("psycopg", reason="needs the 'postgres' extra: pip install -e '.[postgres]'")

import json
import time
import urllib.error
import urllib.request
from collections.abc import Callable
from typing import Any

from pg_server import postgres_server, postgres_url
from test_server_cluster import LEASE, Player, Serve, connected, processes, wait_for

# Fixtures used by this module (pytest finds fixtures by name in the module).
__all__ = ["postgres_server", "postgres_url", "processes"]


def ask(process: Serve, method: str, path: str, body: Any = None, key: str | None = None) -> tuple[int, Any]:
    """A request to ``process``, with a player's key; the status and the JSON answer."""
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(f"http://127.0.0.1:{process.port}{path}", data=data, method=method)
    request.add_header("Content-Type", "application/json")
    if key is not None:
        request.add_header("Authorization", f"Bearer {key}")
    try:
        with urllib.request.urlopen(request, timeout=10) as answer:
            return answer.status, json.loads(answer.read() or b"null")
    except urllib.error.HTTPError as exc:
        return exc.code, json.loads(exc.read() or b"null")


def seated(process: Serve, ticket: str) -> dict[str, Any]:
    """The ticket's table once it has one (polled as the page polls it)."""
    deadline = time.monotonic() + 15
    while True:
        status, answer = ask(process, "GET", f"/api/quickmatch/{ticket}")
        assert status == 200, answer
        if answer["state"] == "seated":
            table: dict[str, Any] = answer["table"]
            return table
        assert time.monotonic() < deadline, answer
        time.sleep(0.2)


def test_two_processes_seat_their_players_at_one_table(processes: Callable[[], Serve]) -> None:
    a, b = processes(), processes()
    a.wait_ready(), b.wait_ready()
    time.sleep(LEASE / 2)  # a beat or two: each process knows the other, and so the same matchmaker
    keys = {}
    for name, process in (("Anna", a), ("Bert", b)):
        status, made = ask(process, "POST", "/api/players", {"name": name})
        assert status == 201, made
        keys[name] = made["key"]

    status, first = ask(a, "POST", "/api/quickmatch", {"variant": "schnapsen"}, keys["Anna"])
    assert status == 201 and first["state"] == "waiting", first
    # Bert asks through the other process: the matchmaker (whichever it is) has Anna's ticket.
    status, second = ask(b, "POST", "/api/quickmatch", {"variant": "schnapsen"}, keys["Bert"])
    assert status == 201, second
    anna_seat, bert_seat = seated(a, first["ticket"]), seated(b, second["ticket"])
    assert anna_seat["table_id"] == bert_seat["table_id"]
    assert {anna_seat["seat"], bert_seat["seat"]} == {0, 1}
    # One ticket per player, wherever it is asked for; a refusal relayed keeps its status and code.
    status, again = ask(a, "POST", "/api/quickmatch", {"variant": "skat"}, keys["Anna"])
    assert (status, again["detail"]["code"]) == (422, "bad_variant")

    anna = Player(a.ws(anna_seat["ws_url"]), anna_seat["token"], anna_seat["seat"])
    bert = Player(b.ws(bert_seat["ws_url"]), bert_seat["token"], bert_seat["seat"])
    anna.hello()
    bert.hello()
    anna.until(connected(0, 1))

    def counted() -> bool:
        _, counts = ask(b, "GET", "/api/lobby/counts")
        return bool(counts["playing"] == 2 and counts["waiting"] == 0)

    wait_for(counted)
    anna.ws.close()
    bert.ws.close()
