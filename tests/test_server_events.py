"""The server tells the play from the engine's events (issue 11: "The server, the terminal, the record writer,
replay and analysis consume those events; nothing diffs a game before and after to guess what changed").

A table's events are one log that every connection reads, seats and spectators alike
(:func:`bummerl.server.rooms.public_events`): so no event in it names a card that lies face down for anyone,
such as a card drawn from the talon (seeds/000: the talon is drawn face down), a card the Dreierschnapsen
soloist took up or laid away (seeds/004: "ohne sie den Gegenspielern zu zeigen").  The scans of every
message in tests/test_server_secrecy.py and tests/test_server_table_games.py hold each ``state``'s events to
a spectator's cards over whole games at live tables; here the same is checked for every variant over many
random games of the engine, and the values the page is given instead of restating a rule.
"""

from __future__ import annotations

import pytest

pytest.importorskip("fastapi", reason="needs the 'web' extra: pip install -e '.[web]'")

import random
import warnings
from collections import Counter
from typing import Any

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

from bummerl.cards import Suit, marriage_value
from bummerl.events import Discard, Draw, GameEnd, TalonTaken
from bummerl.game import Game
from bummerl.server.app import create_app
from bummerl.server.config import ServerConfig
from bummerl.server.rooms import marriage_values, public_events
from bummerl.variants import VARIANTS

CONFIG = ServerConfig(bot_executor="thread", bot_workers=2)


def _codes(data: Any) -> set[str]:
    """Every card code in a JSON value (card codes are the only two-character strings of an event)."""
    if isinstance(data, str):
        return {data} if len(data) == 2 else set()
    if isinstance(data, dict):
        return set().union(*(_codes(v) for k, v in data.items() if k not in ("type", "suit", "name")))
    if isinstance(data, list):
        return set().union(*(_codes(v) for v in data))
    return set()


@pytest.mark.parametrize("variant", [v.name for v in VARIANTS])
def test_the_shared_log_never_names_a_face_down_card(variant: str) -> None:
    """A drawn talon card (but the face-up trump card), the talon taken up and a card laid away are events
    without their cards in the log; the seat that got them would see them (its own form), so the check is not
    vacuous.  Every other event of the engine is in the log, in order, except the end (the room tells it)."""
    rng = random.Random(variant)
    hidden: Counter[str] = Counter()
    for seed in range(40):
        game = Game.deal(variant, seed=seed)
        while not game.is_over:
            events = [e for e in game.apply(rng.choice(game.legal_actions())) if not isinstance(e, GameEnd)]
            logged = public_events(events)
            assert [e["type"] for e in logged] == [e.to_json(None)["type"] for e in events]
            for event, data in zip(events, logged, strict=True):
                if isinstance(event, Draw | Discard | TalonTaken):
                    face_up = isinstance(event, Draw) and event.face_up
                    owner = event.to_json(event.seat)
                    assert _codes(owner), owner  # the seat itself would be told the card(s)
                    if face_up:
                        assert _codes(data) == {event.card.code}  # the trump card lay face up for everybody
                    else:
                        assert not _codes(data), data
                        hidden[type(event).__name__] += 1
    players = next(v.players for v in VARIANTS if v.name == variant)
    if players == 2:
        assert hidden["Draw"] > 100
    if variant == "dreierschnapsen":
        assert hidden["Discard"] > 0 and hidden["TalonTaken"] > 0


def test_marriage_values_come_from_the_engine() -> None:
    """seeds/000: "Eine Ansage mit Atout zählt 40 Augen ... Eine Ansage in einer anderen Farbe zählt 20 Augen";
    the page reads this map, it never works the value out (docs/web.md ``marriage_values``)."""
    for trump in Suit:
        values = marriage_values(trump)
        assert values == {s.letter: marriage_value(s, trump) for s in Suit}
        assert values[trump.letter] == 40 and sorted(values.values()) == [20, 20, 20, 40]
    assert marriage_values(None) == {}  # a table game before its trump call


def test_states_and_replays_carry_the_marriage_values() -> None:
    """Every ``state`` of a two-player table, and its replay, say what each suit's marriage counts."""
    with TestClient(create_app("sqlite://", config=CONFIG)) as client:
        table = client.post("/api/tables", json={"variant": "schnapsen", "opponent": "random", "seed": 5}).json()
        with client.websocket_connect(table["ws_url"]) as ws:
            ws.send_json({"type": "hello", "token": table["token"]})
            assert ws.receive_json()["type"] == "welcome"
            state = ws.receive_json()
            while True:
                trump = Suit.parse(state["view"]["trump"])
                assert state["marriage_values"] == marriage_values(trump)
                if state["status"] == "game_over":
                    break
                if state["your_turn"]:
                    ws.send_json({"type": "action", "action": state["legal"][0]})
                state = ws.receive_json()
        replay = client.get(f"/api/games/{state['game_over']['game_id']}/replay").json()
        assert replay["marriage_values"] == marriage_values(trump)
        events = [e for step in replay["steps"] for e in step["events"]]
        assert {e["type"] for e in events} >= {"play", "trick", "draw"}
        # A drawn card is named only if it is the trump card that lay face up (the last draw).
        named = {e["card"] for e in events if e["type"] == "draw" and e["card"] is not None}
        assert named <= {replay["steps"][0]["trump_card"]}


def test_table_game_states_carry_the_marriage_values_once_trump_is_known() -> None:
    """Before the trump call no marriage counts yet (``{}``); after it the trump suit's counts 40 (seeds/004)."""
    body = {"variant": "dreierschnapsen", "seats": ["random", "random"], "seed": 3}
    with TestClient(create_app("sqlite://", config=CONFIG)) as client:
        table = client.post("/api/tables", json=body).json()
        with client.websocket_connect(table["ws_url"]) as ws:
            ws.send_json({"type": "hello", "token": table["token"]})
            assert ws.receive_json()["type"] == "welcome"
            state = ws.receive_json()
            seen_trump = False
            while state["status"] != "game_over":
                trump = state["view"]["trump"]
                expected = marriage_values(None if trump is None else Suit.parse(trump))
                assert state["marriage_values"] == expected
                seen_trump = seen_trump or trump is not None
                if state["your_turn"]:
                    ws.send_json({"type": "action", "action": state["legal"][0]})
                state = ws.receive_json()
            assert seen_trump
