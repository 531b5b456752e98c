"""Card inference: sampled worlds agree with everything a player has seen.

Rules checked (RULES.md, Common rules): "After [the talon is exhausted or
closed]: Farbzwang before Stichzwang: beat with a higher card of the led suit;
else any card of the led suit; else trump; else any card" — so forced follows
prove voids; and "Marriage ... by showing K and O of a suit" / "Trump exchange"
make cards of the opponent's hand known.
"""

from __future__ import annotations

import itertools
import math
from collections import Counter

import pytest

from bummerl.actions import ActionKind
from bummerl.bots.inference import (
    InconsistentViewError,
    World,
    count_worlds,
    enumerate_worlds,
    infer,
    sample_world,
    strict_from,
    world_game,
)
from bummerl.cards import Card, card_order, deck
from bummerl.game import Game
from bummerl.rng import SplitMix64
from bummerl.rules.tricks import FollowRules, legal_follows
from bummerl.view import PlayerView

VARIANTS = ["schnapsen", "scharf", "sechsundsechzig", "schnorps"]


def _playout(variant: str, seed: int, steps: int, close_bias: bool) -> Game:
    """A game after up to ``steps`` random actions; closing is taken eagerly when
    ``close_bias`` so that strict tricks under a hidden talon are common."""
    game = Game.deal(variant, seed=seed)
    rng = SplitMix64(seed * 7 + 1)
    for _ in range(steps):
        if game.is_over:
            break
        legal = game.legal_actions()
        closes = [a for a in legal if a.kind is ActionKind.CLOSE]
        declares = [a for a in legal if a.kind is ActionKind.DECLARE]
        choices = [a for a in legal if a not in declares] or legal
        if close_bias and closes and rng.below(2) == 0:
            game.apply(closes[0])
        else:
            game.apply(choices[rng.below(len(choices))])
    return game


def _positions(n: int) -> list[tuple[Game, int]]:
    """Unfinished games from random playouts in all variants, with the player to move."""
    out = []
    for i in range(n):
        variant = VARIANTS[i % 4]
        game = _playout(variant, 1000 + i, steps=3 + i % 17, close_bias=i % 2 == 0)
        if not game.is_over:
            out.append((game, game.to_move))
    return out


def _consistent(view: PlayerView, world: World) -> bool:
    """Whether ``world`` could be the truth behind ``view``: card sets add up,
    known cards are in place, and every follow of the opponent in a strict trick
    was legal with the hand the world gives them back then."""
    opp = view.opponent
    hand = set(world.opponent_hand)
    if len(world.opponent_hand) != view.opponent_hand_size or len(world.talon) != view.talon_size:
        return False
    if not view.opponent_known <= hand:
        return False
    seen = set(view.hand) | set(view.played) | ({view.trump_card} if view.trump_card else set())
    everything = seen | hand | set(world.talon)
    if len(everything) != view.variant.deck_size or everything != set(deck(view.variant.deck_size)):
        return False
    start = strict_from(view)
    if start is None:
        return True
    later: set[Card] = set()
    if view.lead is not None and view.leader == opp:
        later.add(view.lead)
    for trick in reversed(view.tricks[start:]):
        later.add(trick.cards_of(opp))
        if trick.leader != opp:
            then = sorted(hand | later, key=card_order)
            if trick.follow not in legal_follows(then, (trick.lead,), view.trump, FollowRules.STRICT):
                return False
    return True


def _true_world(game: Game, player: int) -> World:
    return World(tuple(game.hands[1 - player]), tuple(reversed(game.talon)))


def test_every_sampled_world_is_consistent() -> None:
    """Samples never contradict the view: own cards fixed, known opponent cards
    in place, and Farbzwang/Stichzwang/Trumpfzwang respected in every strict trick
    (RULES.md: "Farbzwang before Stichzwang")."""
    checked = 0
    for game, p in _positions(120):
        view = game.view(p)
        info = infer(view)
        rng = SplitMix64(checked)
        for _ in range(20):
            world = sample_world(info, rng)
            assert _consistent(view, world), (game.position(), world)
            g = world_game(view, world)
            assert sorted(g.hands[p], key=card_order) == sorted(game.hands[p], key=card_order)
            assert g.legal_actions() == game.legal_actions()
        checked += 1
    assert checked > 80


def test_true_world_is_among_the_consistent_ones() -> None:
    """The real deal is never ruled out, and its world rebuilds the real position
    (closing snapshot, trick piles, marriages included)."""
    for game, p in _positions(120):
        view = game.view(p)
        info = infer(view)
        truth = _true_world(game, p)
        assert not (set(truth.opponent_hand) & info.forbidden)
        assert _consistent(view, truth)
        rebuilt = world_game(view, truth)
        a, b = rebuilt.position().split(), game.position().split()
        # Hand order inside the text is not information; everything else is equal.
        assert a[:4] == b[:4] and a[5:] == b[5:]
        assert [sorted(h, key=card_order) for h in rebuilt.hands] == [sorted(h, key=card_order) for h in game.hands]


def test_counts_match_exhaustive_enumeration_on_small_cases() -> None:
    """count_worlds and enumerate_worlds agree with brute force over every
    assignment of the unseen cards filtered by the follow rules."""
    compared = 0
    for game, p in _positions(300):
        view = game.view(p)
        info = infer(view)
        if len(info.unseen) > 9 or (info.ordered_talon and info.talon_size > 3):
            continue
        brute = set()
        for combo in itertools.combinations(info.unseen, info.opponent_unknown):
            rest = [c for c in info.unseen if c not in combo]
            orders = itertools.permutations(rest) if info.ordered_talon else [tuple(rest)]
            for order in orders:
                world = World(tuple(sorted(info.opponent_known, key=card_order)) + combo, tuple(order))
                if _consistent(view, world):
                    brute.add((frozenset(world.opponent_hand), world.talon if info.ordered_talon else None))
        listed = {(frozenset(w.opponent_hand), w.talon if info.ordered_talon else None) for w in enumerate_worlds(info)}
        assert listed == brute
        assert count_worlds(info) == len(brute)
        compared += 1
    assert compared > 30


def test_forced_follow_voids_exact() -> None:
    """A constructed closed game: the opponent's discard proves the void in the
    led suit and in trumps, so those unseen cards all lie in the talon."""
    for seed in range(200):
        game = Game.deal("schnapsen", seed=seed)
        game.close_talon()  # Vorhand closes before the first lead
        vorhand = game.to_move
        lead = game.hands[vorhand][0]
        game.play(lead)
        opp_hand = game.hands[1 - vorhand]
        if any(c.suit == lead.suit for c in opp_hand) or any(c.suit == game.trump for c in opp_hand):
            game2 = None
        else:
            game2 = game
        if game2 is None:
            continue
        game2.play(opp_hand[0])
        view = game2.view(vorhand)
        info = infer(view)
        assert strict_from(view) == 0
        assert {c for c in info.unseen if c.suit in (lead.suit, game2.trump)} == set(info.forbidden)
        assert count_worlds(info) == math.comb(len(info.unseen) - len(info.forbidden), info.opponent_unknown)
        return
    pytest.fail("no deal with a void opponent found")


def test_follow_without_beating_proves_no_higher_card() -> None:
    """Stichzwang (RULES.md: "beat with a higher card of the led suit"): an
    opponent who follows suit below the lead holds no higher card of the suit."""
    for seed in range(300):
        game = Game.deal("schnapsen", seed=seed)
        game.close_talon()
        vorhand = game.to_move
        lead = next((c for c in game.hands[vorhand] if c.rank < 7), None)
        if lead is None:
            continue
        game.play(lead)
        opp_hand = game.hands[1 - vorhand]
        same = [c for c in opp_hand if c.suit == lead.suit]
        if not same or any(c.rank > lead.rank for c in same):
            continue
        game.play(same[0])
        info = infer(game.view(vorhand))
        higher = {c for c in info.unseen if c.suit == lead.suit and c.rank > lead.rank}
        assert higher and higher <= info.forbidden
        assert not any(c.suit == lead.suit and c.rank < lead.rank for c in info.forbidden)
        return
    pytest.fail("no deal with a forced low follow found")


def test_sampling_is_uniform() -> None:
    """Each consistent opponent hand is drawn about equally often."""
    for game, p in _positions(200):
        info = infer(game.view(p))
        n = count_worlds(info)
        if not info.ordered_talon and 10 <= n <= 40:
            break
    else:
        pytest.fail("no small closed position found")
    rng = SplitMix64(5)
    draws = 200 * n
    counts = Counter(frozenset(sample_world(info, rng).opponent_hand) for _ in range(draws))
    assert len(counts) == n
    # 200 expected per hand; 5 standard deviations is about +-70.
    assert all(120 <= c <= 280 for c in counts.values()), counts


def test_sampler_sees_only_the_view() -> None:
    """Two deals that differ only in cards player 0 cannot see give the same
    view and therefore exactly the same samples."""
    a = Game.deal("schnapsen", seed=21)
    vorhand, dealer = a.to_move, 1 - a.to_move
    order = list(a.deck)
    # Positions of the dealer's hand and the talon in the pack: permute them.
    hidden = [i for i, c in enumerate(order) if c in a.hands[dealer] or c in a.talon]
    cards = [order[i] for i in hidden]
    cards.reverse()
    for i, c in zip(hidden, cards, strict=True):
        order[i] = c
    b = Game.from_deck("schnapsen", order, a.dealer)
    assert b.hands[vorhand] == a.hands[vorhand] and b.hands[dealer] != a.hands[dealer]
    va, vb = a.view(vorhand), b.view(vorhand)
    assert va == vb
    ra, rb = SplitMix64(3), SplitMix64(3)
    for _ in range(10):
        assert sample_world(infer(va), ra) == sample_world(infer(vb), rb)


def test_exhausted_talon_leaves_one_world() -> None:
    """After the talon is exhausted each player knows the other's hand by
    elimination (view.py), so exactly one world remains."""
    for game, p in _positions(200):
        if game.talon_size == 0 and game.closed_by is None:
            info = infer(game.view(p))
            assert count_worlds(info) == 1
            (world,) = enumerate_worlds(info)
            assert (
                sorted(world.opponent_hand, key=card_order) == sorted(game.hands[1 - p], key=card_order)
                and world.talon == ()
            )
            return
    pytest.fail("no exhausted position found")


def test_inconsistent_view_is_refused() -> None:
    """A view whose counts do not add up raises a specific error."""
    view = Game.deal("schnapsen", seed=1).view(0)
    bad = view._replace(talon_size=3)
    with pytest.raises(InconsistentViewError, match="does not add up"):
        infer(bad)
