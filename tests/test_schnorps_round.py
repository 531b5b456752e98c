"""Tests of bummerl.schnorps_round: Schnorps for three and four participants.

Each rule cites seeds/001's last sentences ("Wenn mehre am Spiele Theil nehmen ...")
or RULES.md, "Matches": "With more than two participants (...): two play at a
time, the deal passes round the circle to the next two, a stand is replayed by
the same two, and the loser pays every participant."
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

from bummerl.actions import Action, ActionKind
from bummerl.cards import Card
from bummerl.errors import BummerlError
from bummerl.game import Game
from bummerl.match import DRAW
from bummerl.rng import SplitMix64, derive_seed, keyed_seed
from bummerl.schnorps_round import (
    ENGINE_DEALER,
    SchnorpsRound,
    draw_first_dealer,
    participant_counts,
)
from bummerl.two_player import TwoPlayerGame
from bummerl.variants import EndReason, TwoPlayerVariant
from bummerl.variants.two_player import marken

Policy = Callable[[Game], Action]


def first_play(game: Game) -> Action:
    """Plays only (never declares, covers or marries): the game runs to its last card."""
    return next(a for a in game.legal_actions() if a.kind is ActionKind.PLAY)


def first_legal(game: Game) -> Action:
    return game.legal_actions()[0]


def play_game(r: SchnorpsRound, policy: Policy = first_legal, deck: list[Card] | None = None) -> TwoPlayerGame:
    game = r.deal_next(deck=deck)
    while not game.is_over:
        game.apply(policy(game))
    r.complete(game)
    return game


def stand_deck() -> list[Card]:
    """A Schnorps pack that ``first_play`` plays to 65:65 (a stand) with game seat 1 dealing."""
    for seed in range(5000):
        game = TwoPlayerGame.deal("schnorps", seed=seed, dealer=ENGINE_DEALER)
        while not game.is_over:
            game.apply(first_play(game))
        assert game.result is not None
        if game.result.winner is None:
            return list(game.deck)
    pytest.fail("no Schnorps stand found")


def decided_deck(seed: int = 0) -> list[Card]:
    """A pack that ``first_play`` plays to a decided game."""
    for s in range(seed, seed + 100):
        game = TwoPlayerGame.deal("schnorps", seed=s, dealer=ENGINE_DEALER)
        while not game.is_over:
            game.apply(first_play(game))
        assert game.result is not None
        if game.result.winner is not None:
            return list(game.deck)
    pytest.fail("no decided game")


# ------------------------------------------------------------------- who plays
@pytest.mark.parametrize("n", [3, 4])
def test_dealer_gives_to_the_two_after_him_and_waits(n: int) -> None:
    """seeds/001: "Der erste Geber ... gibt die Karten dem vor ihm Sitzenden u. dem nach diesem
    Folgenden" — the dealer does not play; the next participant is Vorhand (game seat 0)."""
    for first in range(n):
        r = SchnorpsRound(participants=n, seed=3, first_dealer=first)
        assert r.next_dealer == first
        assert r.next_players == ((first + 1) % n, (first + 2) % n)
        assert first in r.waiting and len(r.waiting) == n - 2
        game = r.deal_next()
        assert game.dealer == ENGINE_DEALER and game.to_move == 0  # game seat 0, the Vorhand participant, leads
        assert r.game_seat((first + 1) % n) == 0 and r.game_seat((first + 2) % n) == 1
        assert r.game_seat(first) is None


@pytest.mark.parametrize("n", [3, 4])
def test_the_deal_passes_round_to_the_first_vorhand(n: int) -> None:
    """seeds/001: "Hierauf gibt der, welcher zuerst die Vorhand hatte, die Karten den beiden
    Nächstfolgenden, u. so wird auf gleiche Art immer in der Runde herumgespielt." """
    r = SchnorpsRound(participants=n, seed=11, first_dealer=0, target=99)
    for k in range(2 * n):
        vorhand = r.next_players[0]
        play_game(r, first_legal, decided_deck(10 * k))
        assert r.next_dealer == vorhand
        assert r.history[-1].dealer == k % n
    dealt = [h.dealer for h in r.history]
    played = [p for h in r.history for p in h.players]
    # Over two full rounds everyone dealt twice and played four times.
    assert sorted(dealt) == sorted(list(range(n)) * 2)
    assert sorted(played) == sorted(list(range(n)) * 4)
    assert r.rounds == 2


def test_first_dealer_is_drawn_from_the_seed() -> None:
    """seeds/001: "Der erste Geber, gewöhnlich der, welcher bei dem Ziehen um die Plätze Eicheln od.
    ein Daus gezogen hat" — drawn, from the match seed (as Match draws for two)."""
    for n in (3, 4):
        firsts = {SchnorpsRound(participants=n, seed=s).first_dealer for s in range(60)}
        assert firsts == set(range(n))
        for s in range(5):
            assert draw_first_dealer(s, n) == SplitMix64(derive_seed(s, DRAW, 0)).below(n)


# ------------------------------------------------------------------- payments
@pytest.mark.parametrize("n", [3, 4])
def test_the_loser_pays_every_participant(n: int) -> None:
    """seeds/001: "Der Verlierende muß nicht nur an seinen Mitspieler, sondern an alle Theilnehmer
    zahlen." — the waiting participants are paid too; the balances add up to 0."""
    r = SchnorpsRound(participants=n, seed=5, target=99)
    for _ in range(3 * n):
        before = r.balance
        game = play_game(r)
        h = r.history[-1]
        assert game.result is not None and h.result is game.result
        if game.result.winner is None:
            assert h.payments == (0,) * n
            continue
        assert h.marken == game.result.points * h.multiplier
        assert h.loser is not None and h.winner is not None
        for p in range(n):
            expected = -h.marken * (n - 1) if p == h.loser else h.marken
            assert r.balance[p] - before[p] == expected == h.payments[p]
        assert sum(r.balance) == 0
        assert h.balance_before == before and h.balance_after == r.balance


def test_marken_are_the_two_player_marken() -> None:
    """seeds/001: "Ein verlorenes Spiel wird mit 1 Marke, der Schneider mit 2 Marken u. der S. mit 6 Marken
    bezahlt ... im Falle des Deckens ... mit 2, ... 4 u. ... 8" — each participant receives what the
    loser of a two-player game would pay."""
    r = SchnorpsRound(participants=3, seed=1, target=99)
    allowed = {marken(p, c) for p in (1, 2, 3) for c in (False, True)}
    for _ in range(12):
        game = play_game(r)
        h = r.history[-1]
        if game.result is not None and game.result.winner is not None and h.multiplier == 1:
            assert h.marken in allowed
            assert h.marken == game.result.points


def test_a_stand_is_replayed_by_the_same_two_and_paid_double() -> None:
    """seeds/001: "Wenn das Spiel steht, so spielen die beiden Spieler ein zweites Spiel"; and, as for two,
    "der Verlust in dem darauf folgenden Spiele doppelt u. bei einem nochmaligen Stehen vierfach bezahlt"."""
    stand = stand_deck()
    r = SchnorpsRound(participants=4, seed=2, first_dealer=3, target=99)
    game = play_game(r, first_play, stand)
    assert game.result is not None and game.result.reason is EndReason.STAND
    assert r.balance == (0, 0, 0, 0)
    assert r.history[-1].winner is None and r.history[-1].payments == (0, 0, 0, 0)
    # The same dealer deals the same two again, in the same seats; the next game pays double.
    assert (r.next_dealer, r.next_players, r.multiplier) == (3, (0, 1), 2)
    play_game(r, first_play, stand)
    assert (r.next_dealer, r.next_players, r.multiplier) == (3, (0, 1), 4)
    game = play_game(r, first_play, decided_deck())
    h = r.history[-1]
    assert game.result is not None and game.result.winner is not None
    assert h.multiplier == 4 and h.marken == 4 * game.result.points
    assert h.payments[h.loser or 0] == -3 * h.marken
    assert (r.next_dealer, r.multiplier) == (0, 1)


# ------------------------------------------------------------------- the end
@pytest.mark.parametrize("n", [3, 4])
def test_match_ends_after_a_full_round_at_the_target(n: int) -> None:
    """The seed names no match length (our choice, docs/web-ui.md and the module docstring): after a full
    round, once a balance has reached the target; the highest balance wins."""
    r = SchnorpsRound(participants=n, seed=7, target=3)
    while not r.is_over:
        play_game(r)
        decided = sum(1 for h in r.history if h.result.winner is not None)
        if decided % n or max(r.balance) < 3:
            assert not r.is_over
        assert len(r.history) < 400
    top = max(r.balance)
    assert top >= 3
    assert r.winners == tuple(p for p in range(n) if r.balance[p] == top)
    with pytest.raises(BummerlError, match="over"):
        r.deal_next()


def test_match_goes_on_mid_round_even_past_the_target() -> None:
    r = SchnorpsRound(participants=3, seed=0, first_dealer=0, target=1)
    play_game(r, first_play, decided_deck())
    assert max(r.balance) >= 1
    assert not r.is_over and r.winners == ()


# ------------------------------------------------------------------- deals and errors
def test_deals_come_from_the_seed_or_the_key() -> None:
    r = SchnorpsRound(participants=3, seed=9)
    game = r.deal_next()
    assert r.game_seeds == [derive_seed(9, 0)]
    assert game.deck == TwoPlayerGame.deal("schnorps", seed=derive_seed(9, 0), dealer=ENGINE_DEALER).deck
    key = bytes(range(32))
    keyed = SchnorpsRound(participants=3, seed=9, deal_key=key)
    keyed.deal_next()
    assert keyed.game_seeds == [keyed_seed(key, 0)]
    replay = SchnorpsRound(participants=3, seed=9)
    again = replay.deal_next(deck=game.deck, seed=derive_seed(9, 0))
    assert again.hands == game.hands
    with pytest.raises(BummerlError, match="does not deal"):
        SchnorpsRound(participants=3, seed=9).deal_next(deck=game.deck, seed=1)


def test_refusals() -> None:
    with pytest.raises(BummerlError, match="only Schnorps"):
        SchnorpsRound("schnapsen", participants=3)
    for n in (1, 2, 5, True):
        with pytest.raises(BummerlError, match="participants"):
            SchnorpsRound(participants=n)
    with pytest.raises(BummerlError, match="first_dealer"):
        SchnorpsRound(participants=3, first_dealer=3)
    with pytest.raises(BummerlError, match="target"):
        SchnorpsRound(participants=3, target=0)
    r = SchnorpsRound(participants=3)
    with pytest.raises(BummerlError, match="no game is in progress"):
        r.complete(TwoPlayerGame.deal("schnorps", seed=1))
    game = r.deal_next()
    with pytest.raises(BummerlError, match="not finished"):
        r.deal_next()
    with pytest.raises(BummerlError, match="not over"):
        r.complete(game)


def test_options_and_participant_counts() -> None:
    r = SchnorpsRound(participants=4, marriages=False)
    assert r.variant.options() == {"marriages": False}
    assert participant_counts(TwoPlayerVariant.find("schnorps")) == (2, 3, 4)
    assert participant_counts(TwoPlayerVariant.find("66")) == (2,)
