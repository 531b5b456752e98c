"""The exact table solver against plain minimax over the :class:`TableGame` API.

The solver (:mod:`bummerl.solver.table`) mirrors the engine's card play on
bitmasks; these tests check it against a search that only calls
``TableGame.legal_actions()``, ``TableGame.apply()`` and ``TableGame.result`` — the rules as
the engine states them (RULES.md, Bauernschnapsen: "Play: follow suit, beat if
possible (even a partner's card), trump and over-trump if void. Marriages
(Hochzeiten) 20/40 ... "Genug" ends the game; no declaration before the last
trick: its winner's team gets 1 point").
"""

from __future__ import annotations

import pytest

from bummerl.actions import Action, ActionKind
from bummerl.bots import make_bot
from bummerl.rng import SplitMix64
from bummerl.solver.table import PlayState, TableSolver, action_values, best_action, solve
from bummerl.table_game import TableGame
from bummerl.variants.bauernschnapsen import Phase


def minimax(t: TableGame, seat: int) -> int:
    """Game points for ``seat``'s side with best play by all, over the TableGame API only."""
    if t.result is not None:
        r = t.result
        won = bool(r.winners) and t.side[r.winners[0]] == t.side[seat]
        return r.points if won else -r.points
    values = []
    for a in t.legal_actions():
        child = t.copy()
        child.apply(a)
        values.append(minimax(child, seat))
    return max(values) if t.side[t.to_move] == t.side[seat] else min(values)


def endgame(variant: str, seed: int, cards_left: int) -> TableGame | None:
    """A random deal with random bidding, played at random until ``cards_left`` cards remain per hand."""
    n = 4 if variant == "bauernschnapsen" else 3
    t = TableGame.deal(variant, seed=seed, dealer=seed % n)
    bots = [make_bot("random" if seed % 3 else "heuristic", seed * 7 + i, t.variant) for i in range(n)]
    while not t.is_over and (t.phase is not Phase.PLAY or len(t.hands[t.to_move]) > cards_left or t.trick):
        t.apply(bots[t.to_move].choose(t.view(t.to_move)))
    return None if t.is_over else t


@pytest.mark.parametrize("variant", ["bauernschnapsen", "dreierschnapsen"])
def test_solver_equals_minimax_on_endgames(variant: str) -> None:
    """Values for the player to move and for every other seat agree with minimax."""
    checked = 0
    contracts = set()
    for seed in range(120):
        t = endgame(variant, seed, 3)
        if t is None:
            continue
        contracts.add(t.contract.name if t.contract else "")
        for seat in t.active:
            assert solve(t, seat) == minimax(t, seat), (t.position(), seat)
        checked += 1
    assert checked >= 30
    assert len(contracts) >= 3, contracts


@pytest.mark.parametrize("variant", ["bauernschnapsen", "dreierschnapsen"])
def test_action_values_equal_minimax_after_each_action(variant: str) -> None:
    """Every action's value is the minimax value of the position after it; plays, marriages
    and "Genug" are all among them, a plain King/Ober lead only where no marriage is possible."""
    rng = SplitMix64(4)
    kinds = set()
    checked = 0
    for seed in range(200, 300):
        t = endgame(variant, seed, 2 + rng.below(2))
        if t is None:
            continue
        p = t.to_move
        values = action_values(t)
        legal = t.legal_actions()
        assert set(values) <= set(legal)
        married = {a.card for a in legal if a.kind is ActionKind.MARRIAGE}
        for a in legal:
            if a not in values:
                assert a.kind is ActionKind.PLAY and a.card in married
        for a, v in values.items():
            kinds.add(a.kind)
            child = t.copy()
            child.apply(a)
            assert v == minimax(child, p), (t.position(), a)
        assert best_action(t) in legal
        checked += 1
    assert checked >= 30
    assert ActionKind.DECLARE in kinds and ActionKind.PLAY in kinds


def test_mid_trick_positions() -> None:
    """The solver starts from a trick in progress (the search bot's usual case)."""
    checked = 0
    for seed in range(40):
        t = endgame("bauernschnapsen", seed, 3)
        if t is None:
            continue
        t.apply(next(a for a in t.legal_actions() if a.kind is ActionKind.PLAY))
        if t.is_over:
            continue
        assert solve(t) == minimax(t, t.to_move)
        checked += 1
    assert checked >= 10


def test_whole_card_play_is_solved_from_the_first_trick() -> None:
    """A full Bauernschnapsen card play (20 cards) is solved; the value is a possible result."""
    t = TableGame.deal("bauernschnapsen", seed=3, dealer=0)
    for token in ["cut", "trump:d", "bid:normal", "pass", "pass", "pass", "pass", "pass"]:
        t.apply(token)
    solver = TableSolver(PlayState.from_table(t))
    v = solver.value()
    assert abs(v) in (1, 2, 3)  # the normal game: 1, 2 or 3 points (no Kontra said)
    assert solver.nodes > 100


def test_not_in_play_phase_is_refused() -> None:
    t = TableGame.deal("dreierschnapsen", seed=1)
    with pytest.raises(ValueError, match="card play"):
        solve(t)
    assert Action.parse("cut") in t.legal_actions()
