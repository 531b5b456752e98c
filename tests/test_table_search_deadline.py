"""The table ``search`` bot under a time cap, and its bidding and Kontra by search (issue 12, item 3).

Issue 12: "table games: bidding, Kontra and play by search under a time cap".  A decision solves worlds
while the soft cap lasts and drops a world still running at the hard deadline
(:mod:`bummerl.bots.deadline`), answering from the finished worlds or, with none, like the heuristic.
Kontra follows seeds/004: "kann einer der beiden Gegenspieler „Kontra“ sagen, was den Wert des Spieles
verdoppelt. Derjenige, der den Kontrakt angesagt hatte oder sein Partner können mit „Rekontra“ antworten".
"""

from __future__ import annotations

import time

import pytest

from bummerl.actions import Action, ActionKind
from bummerl.bots import make_bot
from bummerl.bots.deadline import Deadline, DeadlineExceeded
from bummerl.bots.table_bots import TableHeuristicBot
from bummerl.bots.table_search import (
    MIN_BID_WORLDS,
    ContractEstimate,
    TableSearchBot,
    TimedSolver,
    sample_world,
)
from bummerl.cards import Card, deck
from bummerl.rng import SplitMix64
from bummerl.solver.table import PlayState, TableSolver
from bummerl.table_game import TableGame
from bummerl.variants.bauernschnapsen import Contract, Phase
from bummerl.view import TableView


class FakeClock:
    """A clock that moves ``step`` seconds every time it is read, after ``still`` reads that stand still."""

    def __init__(self, step: float, still: int = 0) -> None:
        self.now = 0.0
        self.step = step
        self.still = still

    def __call__(self) -> float:
        if self.still:
            self.still -= 1
        else:
            self.now += self.step
        return self.now


def cards(text: str) -> list[Card]:
    return [Card.parse(c) for c in text.split()]


def bauern_table(seat1: str, seat2: str, seat3: str, seat0: str, trump: str = "h") -> TableGame:
    """A Bauernschnapsen deal (dealer 0, Vorhand 1) with the given hands, trump called by Vorhand.

    seeds/004: "zunächst bekommt jeder drei Karten und danach jeder zwei Karten", Vorhand first.
    """
    hands = [cards(h) for h in (seat1, seat2, seat3, seat0)]
    assert sorted(c.index for h in hands for c in h) == sorted(c.index for c in deck(20))
    pack = [c for h in hands for c in h[:3]] + [c for h in hands for c in h[3:]]
    t = TableGame.from_deck("bauernschnapsen", pack, dealer=0)
    t.apply("cut")
    t.apply(f"trump:{trump}")
    return t


def first_trick(variant: str, seed: int) -> TableGame:
    """The first card-play decision of a deal bid by the heuristic bots."""
    t = TableGame.deal(variant, seed=seed, dealer=seed % (4 if variant == "bauernschnapsen" else 3))
    bots = [TableHeuristicBot(seed * 8 + s) for s in range(t.variant.players)]
    while not t.is_over and t.phase is not Phase.PLAY:
        t.apply(bots[t.to_move].choose(t.view(t.to_move)))
    return t


# ------------------------------------------------------------------ the deadline
def test_deadline_soft_cap_hard_deadline_and_minimum() -> None:
    clock = FakeClock(0.0)
    d = Deadline(1.0, 2.0, min_items=2, clock=clock)
    clock.now = 1.5  # past the soft cap, before the hard deadline
    assert d.may_start(done=1)  # the minimum is started even after the soft cap
    assert not d.may_start(done=2)
    d.check()  # no exception before the hard deadline
    clock.now = 2.0
    assert d.expired() and not d.may_start(done=0)
    with pytest.raises(DeadlineExceeded):
        d.check()
    # The hard deadline is never before the soft cap; no caps at all never expire.
    assert Deadline(3.0, 1.0).hard_seconds == 3.0
    assert Deadline(None, None).remaining() == float("inf")


# ------------------------------------------------------- the solver with a deadline
@pytest.mark.parametrize("variant", ["bauernschnapsen", "dreierschnapsen"])
def test_timed_solver_values_equal_the_exact_solver(variant: str) -> None:
    """Null-window bisection inside the contract's value range gives the exact solver's values."""
    checked = 0
    for seed in range(12):
        t = first_trick(variant, seed)
        if t.is_over:
            continue
        # Two tricks in: a smaller world, every contract of the heuristic's bidding.
        for _ in range(2 * len(t.active)):
            if t.is_over or t.phase is not Phase.PLAY:
                break
            t.apply(t.legal_actions()[0])
        if t.is_over or t.phase is not Phase.PLAY:
            continue
        view = t.view(t.to_move)
        hands = sample_world(view, SplitMix64(seed))
        exact = TableSolver(PlayState.from_view(view, hands), view.player)
        timed = TimedSolver(PlayState.from_view(view, hands), view.player, Deadline(None, None))
        assert timed.action_values() == exact.action_values()
        assert TimedSolver(PlayState.from_table(t), None, None).value() == TableSolver(PlayState.from_table(t)).value()
        assert TimedSolver(PlayState.from_table(t), None, None).wins() == (
            TableSolver(PlayState.from_table(t)).value() > 0
        )
        checked += 1
    assert checked >= 6


def test_timed_solver_gives_up_at_the_hard_deadline() -> None:
    t = first_trick("dreierschnapsen", 1)
    solver = TimedSolver(PlayState.from_table(t), None, Deadline(0.0, 0.0))
    with pytest.raises(DeadlineExceeded):
        solver.action_values()


# ---------------------------------------------------------------- the card play
def test_a_decision_answers_by_the_hard_deadline_in_real_time() -> None:
    """A Dreierschnapsen first trick (the slowest worlds) with a 0.05 s cap and a 0.2 s deadline."""
    t = first_trick("dreierschnapsen", 2)
    view = t.view(t.to_move)
    bot = TableSearchBot(5, worlds=50, seconds=0.05, hard_seconds=0.2)
    start = time.perf_counter()
    action = bot.choose(view)
    assert time.perf_counter() - start < 0.2 + 1.0  # the deadline plus generous slack for a loaded machine
    assert action in view.legal_actions()


def test_no_world_in_time_falls_back_to_the_heuristic() -> None:
    """A clock that jumps past the deadline: the unfinished world is dropped, the heuristic answers."""
    t = first_trick("dreierschnapsen", 3)
    view = t.view(t.to_move)
    # Still while the decision starts its first world, then ten seconds per look at the clock.
    bot = TableSearchBot(5, seconds=0.5, hard_seconds=1.0, clock=FakeClock(10.0, still=3))
    ev = bot.evaluate(view)
    assert (ev.worlds, ev.values, ev.cut) == (0, {}, True)
    assert bot.choose(view) == TableHeuristicBot(5).choose(view)


def test_soft_cap_starts_the_minimum_and_more_while_time_lasts() -> None:
    t = first_trick("bauernschnapsen", 4)
    view = t.view(t.to_move)
    # Every clock read takes 0.001 s: the soft cap of 10 s is never reached, all worlds are solved.
    ev = TableSearchBot(1, worlds=5, seconds=10.0, clock=FakeClock(0.001)).evaluate(view)
    assert ev.worlds == 5 and not ev.cut
    # A spent soft cap still starts the minimum (2) when the hard deadline is far away.
    ev = TableSearchBot(1, worlds=5, seconds=1e-9, hard_seconds=1e9).evaluate(view)
    assert ev.worlds == 2
    # Without caps every world is solved, and the same seed plays the same move.
    a = TableSearchBot(9, worlds=4, seconds=None).choose(view)
    assert a == TableSearchBot(9, worlds=4, seconds=None).choose(view)


def test_scale_time_scales_both_caps() -> None:
    bot = TableSearchBot(1, seconds=1.0, hard_seconds=2.5)
    bot.scale_time(0.5)
    assert (bot.seconds, bot.hard_seconds, bot.time_budget()) == (0.5, 1.25, 1.25)
    with pytest.raises(ValueError, match="hard_seconds"):
        TableSearchBot(1, hard_seconds=0)
    with pytest.raises(ValueError, match="doubling"):
        TableSearchBot(1, doubling="always")


# ------------------------------------------------------------------------ bidding
def gang_view() -> TableView:
    """Vorhand holds four Aces and the Ten of spades: every card a master (a sure Gang, seeds/004:
    "Wer den Kontrakt angesagt hat, muß alle 5 Stiche machen")."""
    t = bauern_table("As Ah Ad Ac Ts", "Th Kh Qh Jh Td", "Kd Qd Jd Tc Kc", "Qc Jc Ks Qs Js", trump="s")
    return t.view(1)


def test_bidding_shares_worlds_and_needs_enough_of_them() -> None:
    view = gang_view()
    v = view.variant
    bot = TableSearchBot(3, worlds=8, seconds=None)
    est = bot.contract_estimates(view, [v.contract("gang"), v.contract("bettler")], Deadline(None, None))
    assert est["gang"] == ContractEstimate("gang", 8, 8, est["gang"].mean)
    # A Bettler ("darf keinen Stich machen") is lost in every world: dropped once it cannot reach BID_CONFIDENCE.
    assert est["bettler"].won == 0 and est["bettler"].worlds < 8
    choice = bot.choose(view)
    assert choice.kind is ActionKind.BID and choice.contract not in (None, "normal")
    # Time for only two worlds: too few to bid a special contract, the heuristic's bid stands.
    clock = FakeClock(0.0)

    class TwoWorlds(Deadline):
        def may_start(self, done: int) -> bool:
            return done < 2

    hurried = TableSearchBot(3, worlds=8, seconds=1.0, clock=clock)
    hurried.deadline = lambda hard=True: TwoWorlds(1.0, 2.0, 1, clock)  # type: ignore[method-assign]
    assert MIN_BID_WORLDS > 2
    assert hurried.choose(view) == TableHeuristicBot(3).choose(view)


# ---------------------------------------------------------------------- doubling
def doubling_view(seat2: str, seat0: str, seat1: str, seat3: str) -> tuple[TableGame, TableView]:
    """Vorhand (seat 1) plays the normal game in hearts; seat 2, a defender, is asked first."""
    t = bauern_table(seat1, seat2, seat3, seat0, trump="h")
    for token in ("bid:normal", "pass", "pass", "pass"):
        t.apply(token)
    assert t.phase is Phase.DOUBLING and t.to_move == 2
    return t, t.view(2)


def test_kontra_with_the_top_trumps_and_pass_without() -> None:
    """A defender holding Ace, Ten, King and Ober of trumps and an Ace says Kontra; one with no trump
    and low cards passes (the contract played out in sampled worlds, the doubling doubles its value)."""
    _, strong = doubling_view("Ah Th Kh Qh As", "Ad Td Kd Qd Jd", "Jh Ts Ks Qs Js", "Ac Tc Kc Qc Jc")
    bot = TableSearchBot(1, worlds=8, seconds=None)
    est = bot.doubling_estimate(strong, Deadline(None, None))
    assert est.worlds == 8 and est.share >= 0.75 and est.mean > 0
    assert bot.choose(strong) == Action.parse("kontra")
    _, weak = doubling_view("Jd Qd Jc Qc Js", "Ac Tc Kc Td Kd", "Ah Th Kh Qh As", "Jh Ts Ks Qs Ad")
    assert TableSearchBot(1, worlds=8, seconds=None).choose(weak) == Action.pass_()
    # The heuristic doubling is still there on request.
    assert TableSearchBot(1, worlds=8, doubling="heuristic").choose(weak) == Action.pass_()


def test_rekontra_by_the_declarers_side_when_it_wins() -> None:
    """After a (bad) Kontra, the declarer's side with the top trumps answers Rekontra."""
    t, _ = doubling_view("Jd Qd Jc Qc Js", "Ad Td Kd Jh Ks", "Ah Th Kh Qh As", "Ac Tc Kc Ts Qs")
    t.apply("kontra")
    while t.to_move != 1:  # the declarer's partner is asked first
        assert t.phase is Phase.DOUBLING and t.view(t.to_move).side[t.to_move] == 0
        t.apply("pass")
    view = t.view(1)
    choice = TableSearchBot(2, worlds=8, seconds=None).choose(view)
    assert choice.kind is ActionKind.DOUBLE


def test_registry_search_bot_doubles_by_search() -> None:
    bot = make_bot("search", 1, TableGame.deal("dreierschnapsen", 1).variant)
    assert isinstance(bot, TableSearchBot) and bot.doubling == "search"
    assert bot.seconds is not None and bot.hard_seconds <= 3.0


def test_no_kontra_on_a_special_contract() -> None:
    """A Bettler is bid by choice (seeds/004: "Der Ansager des Bettlers darf keinen Stich machen"): the
    declarer's hand is far from a uniform one, so the search never doubles a special contract."""
    t = bauern_table("Ah Th Kh Qh As", "Jd Qd Jc Qc Js", "Ad Td Kd Jh Ks", "Ac Tc Kc Ts Qs", trump="h")
    t.apply("bid:normal")
    t.apply("bid:bettler")  # seat 2, with Unter and Ober only
    while t.phase is Phase.BIDDING:
        t.apply("pass")
    assert t.contract is not None and t.contract.name == "bettler" and t.phase is Phase.DOUBLING
    view = t.view(t.to_move)
    assert view.side[view.player] == 1
    assert TableSearchBot(1, worlds=8, seconds=None).choose(view) == Action.pass_()


def test_dreier_defender_models_the_soloists_discards(monkeypatch: pytest.MonkeyPatch) -> None:
    """seeds/004: the soloist "nimmt die beiden Karten des Talons auf, ohne sie den Gegenspielern zu zeigen"
    and lays two away; a defender's worlds deal the soloist eight cards and keep the heuristic's six."""
    import bummerl.bots.table_search as ts

    t = TableGame.deal("dreierschnapsen", seed=8, dealer=1)
    for token in ["cut", "trump:s", "bid:normal", "pass", "pass", "discard:Qh", "discard:Js"]:
        t.apply(token)
    assert t.phase is Phase.DOUBLING
    view = t.view(t.to_move)
    assert view.player != view.declarer and view.talon_size == 0
    seen: list[int] = []
    real = ts.discard_choice  # type: ignore[attr-defined]

    def spy(hand: list[Card], *args: object) -> Card:
        seen.append(len(hand))
        return real(hand, *args)  # type: ignore[arg-type]

    monkeypatch.setattr(ts, "discard_choice", spy)
    est = TableSearchBot(4, worlds=6, seconds=None).doubling_estimate(view, Deadline(None, None))
    assert est.worlds == 6 and 0 <= est.won <= 6
    assert seen == [8, 7] * 6  # eight cards, two laid away, in every world
    monkeypatch.undo()
    assert TableSearchBot(4, worlds=6, seconds=None).choose(view).kind in (ActionKind.DOUBLE, ActionKind.PASS)


def test_bid_confidence_is_the_share_of_won_worlds_that_bids_a_special_contract() -> None:
    """A special contract is bid when won in at least ``bid_confidence`` of the worlds (docs/bots.md,
    "The bidding threshold": 0.6 beat the heuristic by more than 0.8 did); below it the heuristic's bid stands."""
    t = bauern_table("Jh Qh Kh Jc Qc", "Th Ah Ks Qs Js", "Kd Qd Jd Tc Kc", "As Ad Ac Ts Td", trump="h")
    view = t.view(1)
    heuristic = TableHeuristicBot(3).choose(view)
    assert heuristic == Action.bid("normal")
    asked: list[list[str]] = []

    def estimates(view: TableView, contracts: list[Contract], deadline: Deadline) -> dict[str, ContractEstimate]:
        asked.append([c.name for c in contracts])
        return {c.name: ContractEstimate(c.name, 20, 13, float("nan")) for c in contracts}  # won in 65%

    bids = []
    for confidence in (0.6, 0.8):
        bot = TableSearchBot(3, seconds=None, bid_confidence=confidence)
        bot.contract_estimates = estimates  # type: ignore[method-assign]
        bids.append(bot.choose(view))
    assert bids[1] == heuristic
    assert bids[0].kind is ActionKind.BID and bids[0].contract in asked[0]
    # The most valuable of the contracts won often enough: (2p - 1) * points, the same p for all here.
    v = view.variant
    assert v.contract(bids[0].contract or "").points == max(v.contract(n).points for n in asked[0])
    with pytest.raises(ValueError, match="bid_confidence"):
        TableSearchBot(1, bid_confidence=0.4)


def test_dreier_bidding_estimate_takes_up_each_worlds_talon(monkeypatch: pytest.MonkeyPatch) -> None:
    """seeds/004: "Nach der Reizung nimmt der Alleinspieler die beiden Karten des Talons auf ... und legt zwei
    beliebige Karten verdeckt ab" (RULES.md: every Dreierschnapsen soloist takes up the talon).  The bidding
    estimate plays each contract with the hand the bidder would hold: its six cards and the world's talon,
    two laid away by the heuristic's rule (docs/bots.md, "The Dreierschnapsen talon in the bidding estimate")."""
    import bummerl.bots.table_search as ts

    t = TableGame.deal("dreierschnapsen", seed=8, dealer=1)
    for token in ["cut", "trump:s"]:
        t.apply(token)
    assert t.phase is Phase.BIDDING
    view = t.view(t.to_move)
    me = view.player
    assert view.talon_size == 2 and len(view.hand) == 6
    played: list[tuple[str, list[Card], list[Card]]] = []

    pack = deck(20)

    def held(mask: int) -> list[Card]:
        return [c for c in pack if mask >> c.index & 1]

    class Recorder(TimedSolver):
        def wins(self) -> bool:
            hands = self.s.hands
            others = [c for s in range(3) if s != me for c in held(hands[s])]
            played.append((self.s.contract.name, held(hands[me]), others))
            return True

    monkeypatch.setattr(ts, "TimedSolver", Recorder)
    v = view.variant
    contracts = [v.contract("bettler"), v.contract("schnapser")]
    bot = TableSearchBot(4, worlds=10, seconds=None)
    est = bot.contract_estimates(view, contracts, Deadline(None, None))
    assert {e.worlds for e in est.values()} == {10}
    unseen = set(view.unseen())
    took_up = 0
    for name, hand, others in played:
        talon = sorted(unseen - set(others), key=lambda c: c.index)
        assert len(others) == 12 and len(talon) == 2  # each world fixes the talon: the two cards nobody holds
        expected = ts._after_talon(view.hand, talon, v.contract(name), view.trump)
        assert sorted(hand, key=lambda c: c.index) == sorted(expected, key=lambda c: c.index) and len(hand) == 6
        took_up += any(c in talon for c in hand)
    assert took_up > 0  # some worlds' talon is worth keeping
