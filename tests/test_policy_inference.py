"""Policy-based inference (issue 12, item 2): the card-choice model, the opponent's hands at its past plays,
the likelihood of a world, and the weighted search.

Issue 12: "World sampling weighted by how likely the opponent's observed actions are under a policy model."
The rules the reconstruction relies on: after closing or once the talon is exhausted nothing is drawn (seed
000/003, RULES.md "Farbzwang before Stichzwang" applies from then on), and after every trick with the talon
open each player draws one card, the winner first.
"""

from __future__ import annotations

import math
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bummerl.actions import Action, ActionKind
from bummerl.bots import make_bot
from bummerl.bots.inference import World, enumerate_worlds, infer, sample_world
from bummerl.bots.likelihood import MIX, Observation, hands_then, likelihood, observations
from bummerl.bots.policy import FEATURES, MODELS, CardChoice, PolicyModel, context_key, features, model_for
from bummerl.bots.search import Budget, SearchBot
from bummerl.cards import Card, Rank, Suit, parse_cards
from bummerl.rng import SplitMix64
from bummerl.solver import SearchLimitExceeded
from bummerl.solver.state import Position
from bummerl.two_player import TwoPlayerGame
from bummerl.view import PlayerView


def true_world(game: TwoPlayerGame, player: int) -> World:
    """The real deal as a world of ``player``'s view (talon in draw order)."""
    return World(tuple(game.hands[1 - player]), tuple(reversed(game.talon)))


def play_and_check(variant: str, seed: int, close_at: int | None, max_draws: int = 1) -> int:
    """Play a game with random bots, recording every hand; at every decision check that each observation's
    reconstructed hands contain the hand the opponent really held then.  Returns the observations checked."""
    game = TwoPlayerGame.deal(variant, seed=seed)
    bots = [make_bot("random", seed * 2 + p) for p in range(2)]
    history: list[tuple[int, Card, tuple[Card, ...]]] = []  # (player, card, hand before the play)
    checked = 0
    moves = 0
    while not game.is_over:
        player = game.to_move
        view = game.view(player)
        world = true_world(game, player)
        opp_plays = [(card, hand) for who, card, hand in history if who == 1 - player]
        for o in observations(view, max_draws):
            real = [hand for card, hand in opp_plays if card == o.card]
            assert len(real) == 1
            candidates = [set(h) for h, _ in hands_then(o, world)]
            assert set(real[0]) in candidates, (o, real[0], candidates)
            assert 0.0 < likelihood(view, world, [o]) <= 1.0
            checked += 1
        legal = view.legal_actions()
        if close_at is not None and moves == close_at and Action.close() in legal:
            action = Action.close()
        else:
            action = bots[player].choose(view)
        if action.kind in (ActionKind.PLAY, ActionKind.MARRIAGE) and action.card is not None:
            history.append((player, action.card, tuple(game.hands[player])))
        game.apply(action)
        moves += 1
    return checked


@settings(max_examples=60, deadline=None)
@given(
    st.sampled_from(["schnapsen", "66", "schnorps", "scharf"]),
    st.integers(0, 10**6),
    st.one_of(st.none(), st.integers(0, 8)),
    st.integers(0, 3),
)
def test_the_real_hand_is_among_the_reconstructed_ones(
    variant: str, seed: int, close_at: int | None, max_draws: int
) -> None:
    """In random games (some closed early), every observation's hands include the one really held, however
    many draws back the plays are rebuilt."""
    play_and_check(variant, seed, close_at, max_draws)


def test_observations_cover_the_strict_phase_and_the_last_open_trick() -> None:
    checked = sum(play_and_check("schnapsen", s, None) for s in range(20))
    assert checked > 100


def test_a_position_without_history_gives_no_observation() -> None:
    game = TwoPlayerGame.from_position("schnapsen 1 0 h AhThKh/AsTsKs - - - QhJhQsJs/AdTdKdQdJdAcTcKcQcJc -")
    assert observations(game.view(0)) == []
    assert likelihood(game.view(0), World((), ()), []) == 1.0


def test_a_marriage_lead_is_not_a_choice() -> None:
    """The card led with a marriage is the marriage's card, so it tells nothing of a choice."""
    for seed in range(200):
        game = TwoPlayerGame.deal("schnapsen", seed=seed)
        marriages = [a for a in game.legal_actions() if a.kind is ActionKind.MARRIAGE]
        if marriages:
            game.apply(marriages[0])
            assert observations(game.view(game.to_move)) == []
            return
    raise AssertionError("no deal with a marriage to lead")


def test_the_model_is_a_distribution_and_prefers_what_its_weights_say() -> None:
    hand = parse_cards("AhTsJsKdQc")
    uniform = PolicyModel({})
    assert uniform.probabilities(CardChoice(hand, hand, None, Suit.HEARTS)) == [0.2] * 5
    # A model that likes Augen leads the Ace most.
    w = [0.0] * len(FEATURES)
    w[FEATURES.index("augen")] = 3.0
    model = PolicyModel({context_key(True, False): w})
    p = model.probabilities(CardChoice(hand, hand, None, Suit.HEARTS))
    assert math.isclose(sum(p), 1.0) and p.index(max(p)) == 0
    assert model.probability(Card.parse("Ah"), CardChoice(hand, hand[1:], None, Suit.HEARTS)) == 0.0


def test_features_when_following() -> None:
    hand = parse_cards("AhJcTs")
    lead = Card.parse("Th")
    f = dict(zip(FEATURES, features(hand[0], CardChoice(hand, hand, lead, Suit.CLUBS)), strict=True))
    assert f["same_suit"] == f["wins"] == f["wins_ace_or_ten"] == 1.0 and f["wins_by_trump"] == 0.0
    f = dict(zip(FEATURES, features(hand[1], CardChoice(hand, hand, lead, Suit.CLUBS)), strict=True))
    assert f["wins_by_trump"] == f["wins"] == f["cheapest"] == 1.0 and f["same_suit"] == 0.0


def test_the_shipped_model_is_fitted_and_sharper_than_uniform() -> None:
    """The shipped weights exist for every situation and make the expert's own choices more likely."""
    assert set(MODELS["schnapsen"]) == {context_key(le, st) for le in (True, False) for st in (True, False)}
    model = model_for("schnapsen")
    # A Ten led into a hand that can take it with the Ace: the model expects the Ace.
    hand = parse_cards("AhJcQsKsJd")
    p = model.probabilities(CardChoice(hand, hand, Card.parse("Th"), Suit.CLUBS))
    assert p[0] == max(p) and p[0] > 0.4


def test_a_world_that_explains_the_play_weighs_more() -> None:
    """The opponent threw a low card on a Ten it could have taken: worlds where it holds the trump Ace
    become less likely than worlds where it does not (with the shipped model)."""
    for seed in range(400):
        game = TwoPlayerGame.deal("schnapsen", seed=seed)
        me = game.to_move
        ten = [a for a in game.legal_actions() if a.kind is ActionKind.PLAY and a.card and a.card.rank is Rank.TEN]
        if not ten or ten[0].card is None or ten[0].card.suit == game.trump:
            continue
        game.apply(ten[0])
        opp_view = game.view(game.to_move)
        low = [
            a
            for a in opp_view.legal_actions()
            if a.kind is ActionKind.PLAY and a.card and a.card.suit != game.trump and a.card.rank.augen <= 3
        ]
        if not low:
            continue
        game.apply(low[0])
        view = game.view(me)
        if view.to_move != me:
            continue
        obs = observations(view)
        info = infer(view)
        trump_ace = Card(game.trump, Rank.ACE)
        if trump_ace not in info.unseen:
            continue
        rng = SplitMix64(seed)
        pool = [sample_world(info, rng) for _ in range(400)]
        with_ace = [likelihood(view, w, obs) for w in pool if trump_ace in w.opponent_hand]
        without = [likelihood(view, w, obs) for w in pool if trump_ace not in w.opponent_hand]
        assert sum(with_ace) / len(with_ace) < sum(without) / len(without)
        return
    raise AssertionError("no deal fits")


def test_mixing_keeps_every_consistent_world_possible() -> None:
    o = Observation(Card.parse("Jh"), None, (), frozenset(), strict=False)
    w = [0.0] * len(FEATURES)
    w[FEATURES.index("augen")] = 50.0
    model = PolicyModel({context_key(True, False): w})
    game = TwoPlayerGame.deal("schnapsen", seed=1)
    world = World(tuple(parse_cards("AhTh")), ())
    assert likelihood(game.view(0), world, [o], model) >= MIX / 3


def test_an_enumeration_is_weighted_by_the_likelihood() -> None:
    """With inference, the search's value of an action is the likelihood-weighted mean over the worlds."""
    for seed in range(100):
        game = TwoPlayerGame.deal("schnapsen", seed=seed)
        game.apply(Action.close())
        for _ in range(3):  # a trick and a lead under the strict rules
            game.apply(game.legal_actions()[0])
        view = game.view(game.to_move)
        obs = observations(view)
        info = infer(view)
        worlds = list(enumerate_worlds(info))
        if len(obs) < 2 or len(worlds) > 300 or len(view.legal_actions()) < 2:
            continue
        table = {w: {a: float(i % 3) for a in view.legal_actions()} for i, w in enumerate(worlds)}
        weight = {w: likelihood(view, w, obs) for w in worlds}

        def values(
            g: TwoPlayerGame, view: PlayerView = view, table: dict[World, dict[Action, float]] = table
        ) -> dict[Action, int]:
            w = World(tuple(g.hands[1 - view.player]), tuple(reversed(g.talon)))
            return {a: int(v) for a, v in table[_match(w, list(table))].items()}

        bot = SearchBot("t", Budget(worlds=10, exhaustive=300, inference=True), 1, values=values)
        ev = bot.evaluate(view)
        assert ev.exhaustive and ev.worlds == len(worlds)
        a = view.legal_actions()[0]
        expected = sum(weight[w] * table[w][a] for w in worlds) / sum(weight.values())
        assert math.isclose(ev.values[a], expected, rel_tol=1e-9)
        return
    raise AssertionError("no position fits")


def _match(w: World, worlds: list[World]) -> World:
    for x in worlds:
        if set(x.opponent_hand) == set(w.opponent_hand) and x.talon == w.talon:
            return x
    raise AssertionError("world not found")


def test_the_hard_deadline_gives_up_a_slow_world(monkeypatch: pytest.MonkeyPatch) -> None:
    """After the first world, each solve gets a node limit from the time left to the hard deadline; a solve
    that hits it is given up and the answer comes from the worlds already solved."""
    import bummerl.solver as solver

    real = solver.search_tree
    limits: list[int | None] = []

    def search(position: Position, depth: int, **kw: Any) -> Any:
        limits.append(kw.get("max_nodes"))
        if len(limits) > 1:
            raise SearchLimitExceeded(kw["max_nodes"] + 1)
        return real(position, depth, **kw)

    monkeypatch.setattr(solver, "search_tree", search)
    game = TwoPlayerGame.deal("schnapsen", seed=7)
    bot = SearchBot("t", Budget(worlds=50, seconds=5.0, hard_seconds=8.0), 1)
    ev = bot.evaluate(game.view(game.to_move))
    assert ev.worlds == 1 and limits[0] is None
    assert isinstance(limits[1], int) and limits[1] >= 1000


def test_no_world_starts_after_the_hard_deadline() -> None:
    game = TwoPlayerGame.deal("schnapsen", seed=7)
    bot = SearchBot("t", Budget(worlds=50, seconds=0.0, hard_seconds=1e-9, min_worlds=20), 1)
    assert bot.evaluate(game.view(game.to_move)).worlds == 1


def test_bad_budgets_and_models_are_refused_with_the_reason() -> None:
    with pytest.raises(ValueError, match="hard_seconds must be positive"):
        Budget(worlds=4, hard_seconds=0.0)
    with pytest.raises(ValueError, match="weights for"):
        PolicyModel({"lead-open": (1.0, 2.0)})
    with pytest.raises(ValueError, match="a rate must be in"):
        PolicyModel({}, {"exchange": 1.0})
