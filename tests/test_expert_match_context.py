"""The match context in views, the protocol's view JSON and the arena (issue 12, "Play for the match").

RULES.md, Matches: a Bummerl is played down from 7 game points, 7:0 makes the loser Schneider; Schnorps counts
Marken up and a stand makes the next game pay double (seeds/001: "der Verlust in dem darauf folgenden Spiele
doppelt"). The context is what both players see on the score sheet; a single game has none.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from bummerl.actions import Action
from bummerl.arena.families import family_of
from bummerl.arena.play import Player, play_game
from bummerl.bots import make_bot
from bummerl.game import Game
from bummerl.match import Match
from bummerl.protocol import ClientSession, LoopbackTransport, ProcessBot, ProtocolError, decode
from bummerl.variants import find_variant
from bummerl.view import MatchContext, PlayerView, with_match
from bummerl.view_json import match_from_json, view_from_json, view_to_json


def test_match_context_follows_the_score() -> None:
    """Bummerl: needed counts down from 7 by the points won (seeds/000, "Partien und Bummerl")."""
    match = Match("schnapsen", seed=4, first_dealer=1)
    assert match.context() == MatchContext("bummerl", 7, (7, 7), True, 1)
    game = match.deal_next()
    while not game.is_over:
        game.apply(game.legal_actions()[0])
    match.complete(game)
    result = game.result
    assert result is not None and result.winner is not None
    ctx = match.context()
    assert ctx is not None and ctx.needed[result.winner] == 7 - result.points and ctx.needed[1 - result.winner] == 7
    assert ctx.schneider_possible(1 - result.winner) and not ctx.schneider_possible(result.winner)
    while not match.is_over:
        g = match.deal_next()
        while not g.is_over:
            g.apply(g.legal_actions()[0])
        match.complete(g)
    assert match.context() is None


def test_schnorps_context_has_no_schneider_and_carries_the_multiplier() -> None:
    match = Match("schnorps", seed=2)
    ctx = match.context()
    assert ctx is not None and ctx.kind == "marken" and not ctx.schneider and ctx.multiplier == 1
    match._stands = 2  # two stands in a row (seeds/001: doubled, then "vierfach")
    ctx = match.context()
    assert ctx is not None and ctx.multiplier == 4 == match.multiplier


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"kind": "bummerl", "target": 7, "needed": [0, 3]}, "needed must be between 1 and the target"),
        ({"kind": "bummerl", "target": 7, "needed": [3, 8]}, "needed must be between 1 and the target"),
        ({"kind": "skat", "target": 7, "needed": [3, 3]}, "view.match.kind"),
        ({"kind": "bummerl", "target": 0, "needed": [3, 3]}, "view.match.target"),
        ({"kind": "bummerl", "target": 7, "needed": [3]}, "view.match.needed"),
        ({"kind": "marken", "target": 7, "needed": [3, 3], "schneider": True}, "no Schneider"),
        ({"kind": "marken", "target": 7, "needed": [3, 3], "schneider": False, "multiplier": 3}, "power of two"),
        ({"kind": "bummerl", "target": 7, "needed": [3, 3], "multiplier": 2**40}, "view.match.multiplier"),
        ({"kind": "bummerl", "target": 7}, "needed"),
        ("7:3", "view.match"),
    ],
)
def test_bad_match_objects_are_refused_with_the_field(fields: Any, message: str) -> None:
    with pytest.raises(ProtocolError, match=message):
        match_from_json(fields)


def test_view_json_carries_the_context_only_when_there_is_one() -> None:
    view = Game.deal("schnapsen", seed=1).view(0)
    plain = view_to_json(view)
    assert "match" not in plain  # a single game's line is exactly what it was before
    ctx = MatchContext("bummerl", 7, (2, 6), True, 1)
    data = view_to_json(with_match(view, ctx))
    assert data["match"] == {"kind": "bummerl", "target": 7, "needed": [2, 6], "schneider": True, "multiplier": 1}
    back = view_from_json(json.loads(json.dumps(data)))
    assert isinstance(back, PlayerView) and back.match == ctx and back == with_match(view, ctx)
    assert view_from_json({**plain, "match": None}) == view
    # Defaults of the optional fields: Schneider as the kind has it, multiplier 1.
    short = {**plain, "match": {"kind": "marken", "target": 7, "needed": [7, 5]}}
    reread = view_from_json(short)
    assert isinstance(reread, PlayerView)
    assert reread.match == MatchContext("marken", 7, (7, 5), False, 1)


def test_bots_that_ignore_the_context_still_play_through_the_protocol() -> None:
    """An older bot ignores the unknown field (docs/protocol.md: "Unknown fields must be ignored")."""
    game = Game.deal("schnapsen", seed=3)
    view = with_match(game.view(game.to_move), MatchContext("bummerl", 7, (5, 1)))
    session = ClientSession("heuristic")
    message = {"type": "decide", "id": 1, "view": view_to_json(view), "legal": [a.token for a in view.legal]}
    replies, _ = session.handle(message)
    assert replies[0]["type"] == "action" and Action.parse(replies[0]["action"]) in view.legal
    # The host sends the context in decide; the expert behind the protocol gets it back.
    sent: list[str] = []
    bot = ProcessBot(
        transport_factory=lambda: LoopbackTransport(make_bot("heuristic", 1)), trace=lambda d, line: sent.append(line)
    )
    try:
        assert bot.choose(view) in view.legal
    finally:
        bot.close()
    decide = [decode(line) for line in sent if '"decide"' in line]
    assert decide and decide[0]["view"]["match"]["needed"] == [5, 1]


class Recorder:
    """A bot that remembers the match context of every view it is asked about."""

    def __init__(self) -> None:
        self.name = "recorder"
        self.seen: list[MatchContext | None] = []
        self._bot = make_bot("heuristic", 0)

    def choose(self, view: PlayerView) -> Action:
        self.seen.append(view.match)
        return self._bot.choose(view)


def test_the_arena_tells_bots_the_match_in_bummerl_units() -> None:
    variant = find_variant("schnapsen")
    match = family_of(variant).new_match(variant, 9, 0)
    recorders = [Recorder(), Recorder()]
    contexts = []
    while not match.is_over:
        game = match.deal_next()
        ctx = match.context()
        contexts.append(ctx)
        play_game(game, [Player("r", r, None) for r in recorders], match=ctx)
        match.complete(game)
    assert contexts[0] == MatchContext("bummerl", 7, (7, 7), True, 1)
    assert len(contexts) >= 2 and contexts[-1] != contexts[0]
    seen = set(recorders[0].seen) | set(recorders[1].seen)
    assert seen == set(contexts)
    # A single game (unit game) passes none.
    single = Recorder()
    play_game(Game.deal(variant, 1), [Player("r", single, None)] * 2)
    assert set(single.seen) == {None}
