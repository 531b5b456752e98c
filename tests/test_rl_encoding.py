"""The one action numbering and view encoding of the RL interfaces (:mod:`bummerl.rl.encoding`, issue #14).

Random games of all six variants check that the numbering is a bijection on every legal action, that the mask
marks exactly the legal actions, that the tensors have their documented fixed length, and that no card plane of
an encoding marks a card its player cannot know: the brief's rule "a player's view never contains a card that
player cannot know" carried to the tensors.
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from bummerl.actions import Action
from bummerl.cards import CARDS, Card
from bummerl.game import Game
from bummerl.rl.encoding import FIXED_ACTIONS, ActionSpace, ViewEncoder
from bummerl.variants import VARIANTS, find_variant
from bummerl.view import PlayerView, TableView, View

NAMES = [v.name for v in VARIANTS]


def _seen(view: View) -> set[Card]:
    """Every card the view's player may know the place of."""
    seen = set(view.hand)
    if isinstance(view, PlayerView):
        seen |= set(view.played) | set(view.opponent_known)
        if view.trump_card is not None:
            seen.add(view.trump_card)
    else:
        assert isinstance(view, TableView)
        seen |= set(view.discarded) | {c for _, c in view.trick}
        for known in view.known:
            seen |= known
        for trick in view.tricks:
            seen |= set(trick.cards)
        if view.turned_card is not None:
            seen.add(view.turned_card)
    return seen


def _card_planes(encoder: ViewEncoder, view: View) -> int:
    """How many leading 32-card planes the observation has (the card-valued part of the layout)."""
    if isinstance(view, PlayerView):
        return 6
    n = encoder.players
    return 1 + (n - 1) + n + 3


@settings(max_examples=40, deadline=None)
@given(variant=st.sampled_from(NAMES), seed=st.integers(0, 2**32), data=st.data())
def test_numbering_mask_and_tensors_in_random_games(variant: str, seed: int, data: st.DataObject) -> None:
    game = Game.deal(variant, seed=seed)
    space, encoder = ActionSpace.of(variant), ViewEncoder.of(variant)
    while not game.is_over:
        for seat in range(game.players):
            view = game.view(seat)
            obs = encoder.observation(view)
            info = encoder.information_state(view)
            assert len(obs) == encoder.observation_size
            assert len(info) == encoder.information_state_size
            assert info[: len(obs)] == obs, "the information state starts with the observation"
            seen = _seen(view)
            for plane in range(_card_planes(encoder, view)):
                marked = {CARDS[i] for i in range(32) if obs[plane * 32 + i]}
                assert marked <= seen, f"plane {plane} of seat {seat} shows {marked - seen}"
        view = game.view(game.to_move)
        mask = space.mask(view)
        assert [i for i, m in enumerate(mask) if m] == space.legal(view)
        assert sorted(space.action(i).token for i in space.legal(view)) == sorted(a.token for a in view.legal)
        legal = game.legal_actions()
        game.apply(legal[data.draw(st.integers(0, len(legal) - 1))])


def test_the_numbering_is_documented_and_fixed() -> None:
    """The numbers the module docstring promises: codes 0..70 for two players, bids after 116."""
    two = ActionSpace.of("sechsundsechzig")
    assert two.size == 71
    assert two.index(Action.parse("Ah")) == Action.parse("Ah").code < 32
    assert two.index(Action.parse("declare:h")) == 67
    dreier = ActionSpace.of("dreierschnapsen")
    contracts = [c.name for c in find_variant("dreierschnapsen").contracts]
    assert FIXED_ACTIONS == 116
    assert [dreier.index(Action.bid(c)) for c in contracts] == list(range(116, 116 + len(contracts)))
    for bad in (Action.parse("cut"), Action.bid("nonsense")):
        try:
            two.index(bad)
        except ValueError as exc:
            assert "Sechsundsechzig" in str(exc)
        else:
            raise AssertionError(f"{bad} numbered in a two-player game")


def test_histories_that_differ_give_different_information_states() -> None:
    """Two play orders that reach the same hands still differ in the history part of the tensor."""
    encoder = ViewEncoder.of("schnapsen")
    a, b = Game.deal("schnapsen", seed=5), Game.deal("schnapsen", seed=5)
    a.apply(a.legal_actions()[0])
    b.apply(b.legal_actions()[-1])
    views = a.view(0), b.view(0)
    assert encoder.information_state(views[0]) != encoder.information_state(views[1])
