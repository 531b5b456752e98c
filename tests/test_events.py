"""What :meth:`bummerl.game.Game.apply` returns: the events of every variant (issue #11).

Random games of all six variants (hypothesis picks the deal and every choice) check that the events tell the
whole game: every card played is a ``Play`` event, every trick a ``Trick`` of exactly the cards played into it,
marriages carry their value (seeds/000: "Eine Ansage mit Atout zählt 40 Augen ... in einer anderen Farbe zählt
20 Augen"), the last event of a finished game is its ``GameEnd``; and that the JSON of an event names a hidden
card only to its owner: a talon card drawn face down, the talon taken up and the cards laid away by the
Dreierschnapsen soloist (seeds/004: "ohne sie den Gegenspielern zu zeigen").
"""

from __future__ import annotations

import json

from hypothesis import given, settings
from hypothesis import strategies as st

from bummerl import events as ev
from bummerl.cards import marriage_value
from bummerl.game import Game
from bummerl.variants import VARIANTS

NAMES = [v.name for v in VARIANTS]

#: Events whose card(s) only their seat may see, and the JSON key that holds them.
_HIDDEN = {ev.Discard: "card", ev.TalonTaken: "cards"}


def _hidden_key(event: ev.Event) -> str | None:
    if isinstance(event, ev.Draw):
        return None if event.face_up else "card"
    return _HIDDEN.get(type(event))


@settings(max_examples=60, deadline=None)
@given(variant=st.sampled_from(NAMES), seed=st.integers(0, 2**32), data=st.data())
def test_the_events_tell_the_whole_game(variant: str, seed: int, data: st.DataObject) -> None:
    game = Game.deal(variant, seed=seed)
    played: list[tuple[int, object]] = []  # (seat, card) since the last trick
    tricks = 0
    last: tuple[ev.Event, ...] = ()
    while not game.is_over:
        legal = game.legal_actions()
        action = legal[data.draw(st.integers(0, len(legal) - 1))]
        trump_before = getattr(game, "trump", None)
        last = game.apply(action)
        for event in last:
            if isinstance(event, ev.Play):
                played.append((event.seat, event.card))
            elif isinstance(event, ev.Trick):
                assert list(event.cards) == played, "a trick holds exactly the cards played into it"
                assert event.augen == sum(c.augen for _, c in event.cards)
                played = []
                tricks += 1
            elif isinstance(event, ev.Marriage):
                trump = getattr(game, "trump", None) if trump_before is None else trump_before
                assert event.value == marriage_value(event.suit, trump)
            assert not isinstance(event, ev.GameEnd) or event is last[-1], "the game's end comes last"
            # Every event is JSON for every seat and for a spectator.
            for seat in [None, *range(game.players)]:
                json.dumps(event.to_json(seat))
    assert tricks == len(game.tricks)
    assert isinstance(last[-1], ev.GameEnd) and last[-1].result == game.result
    assert last[-1].players == game.players


@settings(max_examples=40, deadline=None)
@given(variant=st.sampled_from(NAMES), seed=st.integers(0, 2**32), data=st.data())
def test_a_hidden_card_is_named_only_to_its_owner(variant: str, seed: int, data: st.DataObject) -> None:
    game = Game.deal(variant, seed=seed)
    while not game.is_over:
        legal = game.legal_actions()
        for event in game.apply(legal[data.draw(st.integers(0, len(legal) - 1))]):
            key = _hidden_key(event)
            if key is None:
                continue
            owner = event.seat  # type: ignore[union-attr]
            assert event.to_json(owner)[key] is not None, "the owner sees the card (the check is not vacuous)"
            for seat in [None, *(s for s in range(game.players) if s != owner)]:
                assert event.to_json(seat)[key] is None, (event, seat)
