"""No message to a client names a card that client may not know (issue 5: "no message to a client or
spectator contains a card that client may not know. Tests prove it by scanning every message sent").

Every message the server sends is seen by a tap at the moment it is built, together with the live game.
What a recipient may know is computed here from the game alone, independently of the view code:

- a seat: its own hand; every card played (tricks are played face up); every trump card that lay face up
  (the one turned at the deal, and the low trump put there by an exchange); both cards of every announced
  marriage; once the talon is exhausted (not closed) every card, by elimination (RULES.md; view.py);
- a spectator: the same without a hand and without elimination;
- anyone: every card once the game is over (the hands are revealed with the record).

The events of a ``state`` (one log, read by every connection of the table) are held to the spectator's
cards, whoever receives them.
"""

from __future__ import annotations

import pytest

pytest.importorskip("fastapi", reason="needs the 'web' extra: pip install -e '.[web]'")

import random
import re
import time
import warnings
from pathlib import Path
from typing import Any

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

from bummerl.actions import ActionKind
from bummerl.cards import Card, Rank, deck
from bummerl.game import Game
from bummerl.server import connections
from bummerl.server.app import create_app
from bummerl.server.config import ServerConfig
from bummerl.server.rooms import Room
from bummerl.server.routes.deps import app_parts

CONFIG = ServerConfig(bot_executor="thread", bot_workers=2)
_CARD = re.compile(r"(?<![A-Za-z0-9])([AKQJT987][hdcs])(?![A-Za-z0-9])")


def allowed_cards(game: Game, seat: int | None) -> set[Card]:
    """The cards ``seat`` (``None``: a spectator) may know now (module docstring)."""
    if game.is_over:
        return set(deck(game.variant.deck_size))
    allowed = {c for t in game.tricks for c in (t.lead, t.follow)}
    if game.lead is not None:
        allowed.add(game.lead)
    allowed.add(Game.from_deck(game.variant, game.deck, game.dealer).trump_card)  # type: ignore[arg-type]
    if any(a.kind is ActionKind.EXCHANGE for a in game.actions):
        allowed.add(Card(game.trump, game.variant.exchange_rank))
    for _, suit in game.marriages:
        allowed.update((Card(suit, Rank.KING), Card(suit, Rank.OBER)))
    if seat is not None:
        allowed.update(game.hands[seat])
        if not game.talon and game.closed_by is None:
            allowed.update(deck(game.variant.deck_size))
    return allowed


def cards_named(message: Any) -> set[str]:
    """Every card code in any string of a JSON message (also inside tokens like ``marry:Kh``)."""
    if isinstance(message, str):
        return set(_CARD.findall(message))
    if isinstance(message, dict):
        return set().union(*(cards_named(v) for v in message.values())) if message else set()
    if isinstance(message, list):
        return set().union(*(cards_named(v) for v in message)) if message else set()
    return set()


class Scanner:
    """The tap: checks each message as it is built."""

    def __init__(self) -> None:
        self.messages = 0
        self.by_role = {"seat": 0, "spectator": 0}
        self.leaks: list[str] = []

    def __call__(self, table: Room, seat: int | None, message: dict[str, Any]) -> None:
        self.messages += 1
        self.by_role["spectator" if seat is None else "seat"] += 1
        game = table.game
        allowed = {c.code for c in allowed_cards(game, seat)}
        leaked = cards_named(message) - allowed
        if leaked:
            self.leaks.append(f"{message.get('type')} to seat {seat} after {len(game.actions)} actions: {leaked}")
        # The events are one log that every connection reads: they must hold only what a spectator may know
        # (a card drawn from the talon is never named, not even in the message to the seat that drew it).
        hidden = cards_named(message.get("events", [])) - {c.code for c in allowed_cards(game, None)}
        if hidden:
            self.leaks.append(f"events to seat {seat} after {len(game.actions)} actions: {hidden}")


def _play_table(client: TestClient, variant: str, opponent: str, seed: int, games: int, rng: random.Random) -> None:
    # Where a friend plays the server alone deals (docs/security.md): the seed is for the bot tables only.
    chosen = {} if opponent == "friend" else {"seed": seed}
    table = client.post("/api/tables", json={"variant": variant, "opponent": opponent, **chosen}).json()
    tokens: dict[int, str] = {0: table["token"]}
    if opponent == "friend":
        tokens[1] = client.post("/api/join", json={"code": table["join_code"]}).json()["token"]
    url = table["ws_url"]
    with (
        client.websocket_connect(url) as spec,
        client.websocket_connect(url) as ws0,
        client.websocket_connect(url) as ws1,
    ):
        socks = {0: ws0, 1: ws1} if opponent == "friend" else {0: ws0}
        spec.send_json({"type": "hello"})
        for seat, sock in socks.items():
            sock.send_json({"type": "hello", "token": tokens[seat]})
        played = 0
        while played < games:
            # The state of the table as the server sees it; every socket is drained by pings.
            for sock in (spec, *socks.values()):
                _drain(sock)
            game = app_parts(client.app).manager.tables[table["table_id"]].game
            if game.is_over:
                played += 1
                ws0.send_json({"type": "next_game"})
                continue
            mover = game.to_move
            if mover not in socks:
                time.sleep(0.02)  # the bot is thinking
                continue
            legal = [a.token for a in game.legal_actions()]
            socks[mover].send_json({"type": "action", "action": rng.choice(legal)})


def _drain(ws: Any) -> None:
    ws.send_json({"type": "ping"})
    while ws.receive_json() != {"type": "pong"}:
        pass


@pytest.mark.parametrize("variant", ["schnapsen", "scharf", "66", "schnorps"])
def test_no_message_names_a_card_its_recipient_may_not_know(
    tmp_path: Path, variant: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Every socket is drained by a ping after every step, far over a client's message rate (docs/security.md:
    # a burst of 30, then 10 a second; tests/test_server_limits.py checks it): raised for this test.
    monkeypatch.setattr(connections, "MESSAGE_RATE", 10_000.0)
    monkeypatch.setattr(connections, "MESSAGE_BURST", 10_000)
    scanner = Scanner()
    rng = random.Random(variant)
    with TestClient(create_app(data_dir=tmp_path, config=CONFIG, tap=scanner)) as client:
        for i, opponent in enumerate(["random", "friend", "heuristic"]):
            _play_table(client, variant, opponent, seed=100 + i, games=3, rng=rng)
    assert scanner.leaks == []
    assert scanner.by_role["seat"] > 100 and scanner.by_role["spectator"] > 50


def test_the_scanner_finds_a_leak() -> None:
    """The check is not vacuous: the opponent's hand in a message to seat 0 is caught."""
    game = Game.deal("schnapsen", seed=9)
    allowed = {c.code for c in allowed_cards(game, 0)}
    message = {"type": "state", "view": {"hand": [c.code for c in game.hands[1]]}, "legal": ["marry:Kh"]}
    assert cards_named(message) - allowed
    assert cards_named({"legal": ["marry:Kh", "declare:h"], "x": "deal:AhTh"}) == {"Kh"}
