"""Properties of the three- and four-player games over many random deals.

Cards are conserved, Augen and points add up, every game ends with a valid
result, records (the one-line position) replay exactly, and a view never shows a
card its player cannot know (RULES.md: "the partner's cards never"; issue 4:
"the view never shows a hidden card").
"""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bummerl.actions import Action
from bummerl.bots import make_bot
from bummerl.cards import Card, Rank
from bummerl.errors import IllegalActionError
from bummerl.rng import SplitMix64
from bummerl.table_game import TableGame
from bummerl.variants import find_table_variant
from bummerl.variants.bauernschnapsen import Goal, Phase, TableEndReason, TableVariant

VARIANTS = ("bauernschnapsen", "dreierschnapsen")


def all_cards(t: TableGame) -> Counter[Card]:
    cards: Counter[Card] = Counter()
    for h in t.hands:
        cards.update(h)
    cards.update(t.talon)
    cards.update(t.discarded)
    for tr in t.tricks:
        cards.update(tr.cards)
    cards.update(c for _, c in t.trick)
    return cards


def check_result(t: TableGame) -> None:
    """The result is one of the outcomes the seeds allow, with its points."""
    r = t.result
    assert r is not None and t.phase is Phase.OVER and t.legal_actions() == []
    if r.reason is TableEndReason.REDEAL:
        assert r.points == 0 and r.winners == ()
        return
    c = t.variant.contract(r.contract)
    assert r.multiplier == t.multiplier and r.multiplier in (1, 2, 4, 8)
    # The winners are exactly one side.
    sides = {t.side[s] for s in r.winners}
    assert len(sides) == 1 and set(r.winners) == {s for s in range(t.players) if t.side[s] in sides}
    if c.goal is Goal.SIXTY_SIX:
        base = r.points // r.multiplier - t.bonus
        assert r.reason in (TableEndReason.DECLARED, TableEndReason.WRONG_DECLARATION, TableEndReason.LAST_TRICK)
        assert base in ((1,) if r.reason is TableEndReason.LAST_TRICK else (1, 2, 3))
        assert r.points == (base + t.bonus) * r.multiplier
    else:
        assert r.points == (c.points + t.bonus) * r.multiplier
        won = r.reason in (TableEndReason.CONTRACT_WON, TableEndReason.CLAIMED)
        assert won == (t.side[r.winners[0]] == 0)
    # Augen: tricks plus marriages of sides with a trick.
    assert t.side_trick_augen[0] + t.side_trick_augen[1] == sum(c.augen for tr in t.tricks for c in tr.cards)


def play_random(variant: str | TableVariant, seed: int, check_views: bool) -> TableGame:
    rng = SplitMix64(seed ^ 0x5EED)
    v = find_table_variant(variant)
    n = v.players
    t = TableGame.deal(v, seed=seed, dealer=seed % n)
    steps = 0
    while not t.is_over:
        if t.phase is not Phase.CUT:
            assert all_cards(t) == Counter(t.deck)
        if check_views:
            for seat in range(n):
                check_view(t, seat)
        actions = t.legal_actions()
        assert actions, "a running game always has a legal action"
        t.apply(actions[rng.below(len(actions))])
        steps += 1
        assert steps < 80
    if t.result is not None and t.result.reason is not TableEndReason.REDEAL:
        assert all_cards(t) == Counter(t.deck)
    check_result(t)
    return t


def check_view(t: TableGame, seat: int) -> None:
    """A view shows no hidden card: every card it names is the seat's own, played, laid
    away by this seat, the turned trump card, or known to the table."""
    v = t.view(seat)
    hidden: set[Card] = set(t.talon)
    for s in range(t.players):
        if s != seat:
            hidden |= set(t.hands[s])
    if seat != t.declarer:
        hidden |= set(t.discarded)
    shown: set[Card] = set()
    for s in range(t.players):
        assert v.known[s] <= set(t.hands[s]), "known cards are really in that hand"
        shown |= v.known[s]
    # Cards the table has really been shown: marriages, the turned card, a claim, a redeal.
    legit: set[Card] = set()
    for _, suit in t.marriages:
        legit |= {Card(suit, Rank.KING), Card(suit, Rank.OBER)}
    if t.turned_card is not None:
        legit.add(t.turned_card)
    r = t.result
    if r is not None and r.reason is TableEndReason.CLAIMED and t.declarer is not None:
        legit |= set(t.hands[t.declarer])
    if r is not None and r.reason is TableEndReason.REDEAL:
        legit |= {c for three in t.first_three if all(x.rank == Rank.UNTER for x in three) for c in three}
    assert shown <= legit
    visible = set(v.hand) | set(v.played()) | set(v.discarded)
    if v.turned_card is not None:
        # Seen by everybody when it was turned, wherever it is now.
        visible.add(v.turned_card)
        shown.add(v.turned_card)
    assert visible & hidden <= shown
    assert set(v.hand) <= set(t.hands[seat])
    assert v.unseen().isdisjoint(v.hand)
    if seat == t.to_move and not t.is_over:
        assert v.legal_actions() == t.legal_actions()
    else:
        assert v.legal_actions() == []


@pytest.mark.parametrize("variant", VARIANTS)
def test_thousands_of_random_games(variant: str) -> None:
    """Issue 4: "property-based tests over thousands of random deals per variant" — cards
    conserved, points add up, every game ends with a valid result."""
    reasons: Counter[str] = Counter()
    for seed in range(2000):
        t = play_random(variant, seed, check_views=False)
        assert t.result is not None
        reasons[t.result.reason.value] += 1
    assert reasons["contract_won"] and reasons["contract_lost"] and reasons["redeal"]


@settings(max_examples=120, deadline=None)
@given(variant=st.sampled_from(VARIANTS), seed=st.integers(min_value=0, max_value=2**64 - 1))
def test_views_never_show_a_hidden_card(variant: str, seed: int) -> None:
    """RULES.md / issue 4: "a player sees their own hand, the bidding, the cards played,
    and the partner's cards never"."""
    play_random(variant, seed, check_views=True)


OPTIONS = {
    "assen_bettler": st.booleans(),
    "bauernloch": st.booleans(),
    "bettler": st.booleans(),
    "bettler_ace_high": st.booleans(),
    "bettler_partner_plays": st.booleans(),
    "gang_partner_plays": st.booleans(),
    "zehnerloch": st.booleans(),
    "zehnerloch_below_gang": st.booleans(),
    "zehnerloch_points": st.sampled_from([8, 9, 10]),
    "kontra_beats_bettler": st.booleans(),
    "max_doubling": st.integers(1, 3),
    "three_unter_redeal": st.booleans(),
}
TALON_OPTIONS = {"raise_after_talon": st.booleans(), "may_skip_talon": st.booleans()}


@settings(max_examples=100, deadline=None)
@given(
    variant=st.sampled_from(VARIANTS),
    seed=st.integers(min_value=0, max_value=2**32),
    options=st.fixed_dictionaries({}, optional=OPTIONS),
    talon_options=st.fixed_dictionaries({}, optional=TALON_OPTIONS),
)
def test_every_option_keeps_the_invariants(
    variant: str, seed: int, options: dict[str, object], talon_options: dict[str, object]
) -> None:
    """The regional options (RULES.md: "Regional choices ... are options") keep cards, views
    and results valid."""
    if variant == "dreierschnapsen":
        # Three players have no partner: Dreierschnapsen has no partner options, but the talon's.
        options = {k: x for k, x in options.items() if "partner" not in k} | talon_options
    v = find_table_variant(variant, **options)
    t = play_random(v, seed, check_views=True)
    again = TableGame.from_position(t.position())
    assert again.variant == v and again.result == t.result


@settings(max_examples=80, deadline=None)
@given(variant=st.sampled_from(VARIANTS), seed=st.integers(min_value=0, max_value=2**32))
def test_positions_replay_exactly(variant: str, seed: int) -> None:
    """The one-line position (pack and action tokens) rebuilds the same game at every step."""
    rng = SplitMix64(seed)
    n = 4 if variant == "bauernschnapsen" else 3
    t = TableGame.deal(variant, seed=seed, dealer=seed % n)
    while not t.is_over:
        copy = TableGame.from_position(t.position())
        assert copy.position() == t.position() and copy.legal_actions() == t.legal_actions()
        clone = t.copy()
        clone.apply(clone.legal_actions()[-1])
        assert clone.position() != t.position() and TableGame.from_position(t.position()).position() == t.position()
        actions = t.legal_actions()
        t.apply(actions[rng.below(len(actions))])
    again = TableGame.from_position(t.position())
    assert again.result == t.result


@settings(max_examples=60, deadline=None)
@given(
    variant=st.sampled_from(VARIANTS),
    seed=st.integers(min_value=0, max_value=2**32),
    bot=st.sampled_from(["heuristic", "random"]),
)
def test_bots_play_legal_games(variant: str, seed: int, bot: str) -> None:
    """Bots see only views and always answer a legal action."""
    n = 4 if variant == "bauernschnapsen" else 3
    t = TableGame.deal(variant, seed=seed, dealer=seed % n)
    bots = [make_bot(bot if s % 2 else "heuristic", seed + s, t.variant) for s in range(n)]
    while not t.is_over:
        action = bots[t.to_move].choose(t.view(t.to_move))
        assert action in t.legal_actions()
        t.apply(action)
    check_result(t)


@settings(max_examples=60, deadline=None)
@given(variant=st.sampled_from(VARIANTS), seed=st.integers(min_value=0, max_value=2**32), data=st.data())
def test_illegal_actions_leave_the_table_unchanged(variant: str, seed: int, data: st.DataObject) -> None:
    """Issue 4: "errors that name the rule"; a refused action changes nothing."""
    rng = SplitMix64(seed)
    n = 4 if variant == "bauernschnapsen" else 3
    t = TableGame.deal(variant, seed=seed, dealer=seed % n)
    tokens = ["cut", "knock", "turn", "pass", "kontra", "rekontra", "subkontra", "declare", "bid:gang", "bid:normal"]
    tokens += [f"trump:{s}" for s in "hdcs"] + [c.code for c in t.deck] + ["marry:Kh", "discard:Ah", "declare:s"]
    while not t.is_over:
        token = data.draw(st.sampled_from(tokens))
        action = Action.parse(token)
        before = t.position()
        if action in t.legal_actions():
            t.apply(action)
        else:
            with pytest.raises(IllegalActionError) as info:
                t.apply(action)
            assert info.value.rule.source and t.position() == before
            actions = t.legal_actions()
            t.apply(actions[rng.below(len(actions))])
