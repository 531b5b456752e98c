"""An opponent who cannot see the bot's cards (:mod:`bummerl.bots.presumed`).

Issue 12 names PIMC's known faults; one is that every world's opponent answers knowing the bot's hand and
the talon order (Wisser 2015: the overestimation of the opponent's knowledge).  The checks here: the
opponent's worlds change only what it cannot see, and keep what it knows (RULES.md: a shown marriage's
cards; the strict follow rules' proofs, "Farbzwang before Stichzwang"); where it can see everything (talon
exhausted: RULES.md, "each player knows the other's hand by elimination") the values are PIMC's; a reply
chosen without the bot's cards is never better for the opponent than the clairvoyant one.
"""

from __future__ import annotations

from collections.abc import Mapping

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bummerl.actions import ActionKind
from bummerl.bots.inference import infer, proven_absent, sample_world, world_game
from bummerl.bots.presumed import PresumedOpponent, proven_absent_mine, shown_cards
from bummerl.bots.search import Budget, SearchBot
from bummerl.cards import deck
from bummerl.rng import SplitMix64
from bummerl.solver import action_values, search_position
from bummerl.solver.reference import ReferenceSolver, legal_codes
from bummerl.solver.state import CL, H0, LEAD, TC, P, Position, T, encode
from bummerl.two_player import TwoPlayerGame

VARIANTS = ["schnapsen", "scharf", "sechsundsechzig", "schnorps"]


def solve(position: Position) -> Mapping[int, int]:
    values = search_position(position, actions=True).values
    assert values is not None
    return values


def played(variant: str, seed: int, steps: int, close: bool) -> TwoPlayerGame:
    """A game after up to ``steps`` random actions (no declarations); closes at once when ``close``."""
    game = TwoPlayerGame.deal(variant, seed=seed)
    rng = SplitMix64(seed)
    for _ in range(steps):
        if game.result is not None:
            break
        legal = game.legal_actions()
        closes = [a for a in legal if a.kind is ActionKind.CLOSE]
        if close and closes:
            game.apply(closes[0])
            continue
        plays = [a for a in legal if a.kind is not ActionKind.DECLARE] or legal
        game.apply(plays[rng.below(len(plays))])
    return game


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(variant=st.sampled_from(VARIANTS), seed=st.integers(0, 10**6), steps=st.integers(0, 16), close=st.booleans())
def test_the_proofs_about_the_bots_hand_are_what_its_opponent_reads(
    variant: str, seed: int, steps: int, close: bool
) -> None:
    """The opponent's own inference (its view) proves absent exactly what the mirror proves from the bot's
    view, and none of it is in the bot's hand."""
    game = played(variant, seed, steps, close)
    for me in (0, 1):
        mine = proven_absent_mine(game.view(me))
        theirs = infer(game.view(1 - me)) if game.result is None else None
        assert not mine & set(game.hands[me])
        if theirs is not None:
            assert theirs.forbidden == mine & set(theirs.unseen)
        assert proven_absent(game.view(me), me, deck(game.variant.deck_size)) == mine


def _recorder(log: list[Position]) -> object:
    def record(position: Position) -> Mapping[int, int]:
        log.append(position)
        return solve(position)

    return record


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(variant=st.sampled_from(VARIANTS[:3]), seed=st.integers(0, 10**6), steps=st.integers(4, 14), close=st.booleans())
def test_the_opponents_worlds_change_only_what_it_cannot_see(variant: str, seed: int, steps: int, close: bool) -> None:
    """Every position the opponent's choice is solved in keeps the opponent's hand, the public state and the
    cards it knows of the bot's hand; the bot's other cards and the face-down talon are shuffled among
    themselves (the proven-absent ones never into the bot's hand)."""
    game = played(variant, seed, steps, close)
    if game.result is not None or len(game.legal_actions()) < 2:
        return
    view = game.view(game.to_move)
    me = view.player
    if not game.hands[me] or (view.closed_by is None and view.talon_size > 5):
        return
    world = world_game(view, sample_world(infer(view), SplitMix64(seed)))
    root = encode(world)
    log: list[Position] = []
    PresumedOpponent(view, SplitMix64(seed), 3, _recorder(log)).values(root)  # type: ignore[arg-type]
    shown = {c.index for c in shown_cards(view)}
    absent = {c.index for c in proven_absent_mine(view)}
    rules = ReferenceSolver(root)
    children = {c for c, _ in (rules.apply(root.state, a) for a in legal_codes(rules, root.state)) if c is not None}
    for p in log:
        if p.talon == root.talon:
            continue  # the world's own positions (the root and the bot's actions' children)
        # An opponent world: made from one of the children (everything equal but the bot's hand).
        rest = p.state[: H0 + me] + p.state[H0 + me + 1 :]
        made_from = [
            c for c in children if c[: H0 + me] + c[H0 + me + 1 :] == rest and _keeps(c, p, me, root, shown, absent)
        ]
        assert made_from, f"opponent world {p} changes more than the bot's hidden cards and the talon"


def _keeps(child: tuple[int, ...], p: Position, me: int, root: Position, shown: set[int], absent: set[int]) -> bool:
    """Whether ``p`` is ``child`` with only the bot's hidden cards and the face-down talon shuffled."""
    t = child[T]
    if not (len(p.talon) == t == p.state[T] and p.state[P] != me):
        return False
    before = _cards(child[H0 + me]) | set(root.talon[:t])
    hand = _cards(p.state[H0 + me])
    return (
        before == hand | set(p.talon)
        and _cards(child[H0 + me]) & shown <= hand
        and not hand & absent
        and p.state[LEAD] == child[LEAD]
        and p.state[TC] == child[TC]
        and p.state[CL] == child[CL]
    )


def _cards(mask: int) -> set[int]:
    return {i for i in range(32) if mask >> i & 1}


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(variant=st.sampled_from(VARIANTS[:3]), seed=st.integers(0, 10**6), steps=st.integers(2, 14), close=st.booleans())
def test_never_below_pimc_and_equal_where_the_opponent_sees_everything(
    variant: str, seed: int, steps: int, close: bool
) -> None:
    """In every world, a reply chosen without seeing the bot's cards is at best the clairvoyant one, so each
    value is at least PIMC's; with the talon exhausted (both hands known to both) it is PIMC's."""
    game = played(variant, seed, steps, close)
    if game.result is not None:
        return
    view = game.view(game.to_move)
    if view.closed_by is None and view.talon_size > 5:
        return
    world = world_game(view, sample_world(infer(view), SplitMix64(seed)))
    values = PresumedOpponent(view, SplitMix64(seed), 4, solve).values(encode(world))
    pimc = {a.code: v for a, v in action_values(world).items()}
    assert set(values) == set(pimc)
    assert all(values[c] >= pimc[c] for c in pimc)
    if view.talon_size == 0 and view.closed_by is None:
        assert values == pimc


def test_an_opponent_that_must_guess_is_worth_more_than_pimc_says() -> None:
    """A talon-phase position (seed 6 of a random playout; Treff trump, three face-down cards): seat 0 holds
    Td Jh Tc Kh Kd.  Over all 336 worlds the clairvoyant opponent answers every lead perfectly; the one that
    sees only its own cards cannot know whether a lead comes from a Herz or Karo marriage, a guarded Ten or
    a bare one, and the leads that set it that problem gain (the Ten of Karo most), while the actions after
    which it has no choice to make (closing, declaring) keep their value."""
    game = TwoPlayerGame.from_position("schnapsen 1 0 Jc TdJhTcKhKd/QdAcQsTsAd JsThKc - - QcAsJdKsAhQh/- -")
    view = game.view(0)
    from bummerl.bots.inference import enumerate_worlds

    worlds = [world_game(view, w) for w in enumerate_worlds(infer(view))]
    assert len(worlds) == 336
    opponent = PresumedOpponent(view, SplitMix64(1), 16, solve)
    gain: dict[str, float] = {}
    for w in worlds:
        values = opponent.values(encode(w))
        for a, v in action_values(w).items():
            gain[a.token] = gain.get(a.token, 0.0) + (values[a.code] - v) / len(worlds)
    assert gain["close"] == 0.0 and gain["declare"] == 0.0
    assert min(gain[t] for t in ("Td", "Jh", "Kh", "Kd")) > 0.3
    assert max(gain, key=lambda t: gain[t]) == "Td"


def test_search_bot_uses_presumed_values_from_the_set_talon_size() -> None:
    """``Budget(presumed=N)`` from ``N`` face-down cards down: every action worth at least PIMC's mean over
    the same (enumerated) worlds, some more; above ``N`` plain PIMC."""
    game = TwoPlayerGame.from_position("schnapsen 1 0 Jc TdJhTcKhKd/QdAcQsTsAd JsThKc - - QcAsJdKsAhQh/- -")
    view = game.view(0)
    budget = Budget(worlds=10, exhaustive=400, presumed=3, presumed_worlds=4)
    ev = SearchBot("pv", budget, seed=5).evaluate(view)
    plain = SearchBot("pv", Budget(worlds=10, exhaustive=400, presumed=2), seed=5).evaluate(view)
    pimc = SearchBot("p", Budget(worlds=10, exhaustive=400), seed=5).evaluate(view)
    assert ev.worlds == plain.worlds == 336 and plain.values == pimc.values
    assert all(ev.values[a] >= pimc.values[a] - 1e-9 for a in view.legal_actions())
    assert ev.values != pimc.values
