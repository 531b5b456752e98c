"""Tests of bummerl.match: Bummerl counted down from 7 with Schneider, dealer
alternation, Schnorps Marken with the winner dealing, stands, sessions."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from bummerl.actions import Action, ActionKind
from bummerl.errors import BummerlError
from bummerl.game import Game
from bummerl.match import DRAW, Match, Session, draw_dealer
from bummerl.rng import SplitMix64, derive_seed
from bummerl.variants import EndReason

Policy = Callable[[Game], Action]


def first_play(game: Game) -> Action:
    """Plays only (never declares, closes or marries): the game runs to its last card."""
    return next(a for a in game.legal_actions() if a.kind is ActionKind.PLAY)


def losing_policy(loser: int) -> Policy:
    """``loser`` goes out as soon as it may, always short of 66 (a wrong
    declaration); the other seat only plays cards, so it never declares."""

    def choose(game: Game) -> Action:
        legal = game.legal_actions()
        if game.to_move == loser:
            for a in legal:
                if a.kind is ActionKind.DECLARE and a.suit is None and game.augen(loser) < 66:
                    return a
        return first_play(game)

    return choose


def play_out(game: Game, policy: Policy) -> None:
    while not game.is_over:
        game.apply(policy(game))


def play_game(match: Match, policy: Policy) -> Game:
    game = match.deal_next()
    play_out(game, policy)
    match.complete(game)
    return game


def test_bummerl_counts_down_from_seven() -> None:
    """seeds/000: "Beide Spieler beginnen daher mit sieben Punkten, gewinnt ein Spieler
    das erste Spiel mit drei Siegpunkten, so verringert sich sein Punktestand auf vier."""
    match = Match("schnapsen", seed=5)
    assert match.standing == (7, 7)
    while not match.is_over:
        before = match.standing
        game = play_game(match, first_play)
        result = game.result
        assert result is not None and result.winner is not None
        w = result.winner
        assert match.standing[w] == max(0, before[w] - result.points)
        assert match.standing[1 - w] == before[1 - w]
        entry = match.history[-1]
        assert (entry.standing_before, entry.standing_after) == (before, match.standing)
    assert match.winner is not None
    assert match.standing[match.winner] == 0
    assert match.standing[1 - match.winner] > 0
    assert match.results == [h.result for h in match.history]


def test_seven_nil_is_schneider_two_bummerl() -> None:
    """seeds/000: "Gewinnt ein Spieler eine Partie mit dem Stand 7 : 0, so ist der Gegner
    Schneider und die Partie zählt doppelt, der Verlierer erhält zwei Bummerl." """
    match = Match("schnapsen", seed=1)
    while not match.is_over:
        play_game(match, losing_policy(1))
    assert match.winner == 0
    assert match.standing == (0, 7)
    assert match.is_schneider
    assert match.bummerl_for_loser == 2


def test_loser_with_points_gets_one_bummerl() -> None:
    """seeds/000: "In allen anderen Fällen erhält der Verlierer der Partie ein Bummerl." """
    match = Match("schnapsen", seed=2)
    play_game(match, losing_policy(0))  # seat 1 scores once
    while not match.is_over:
        play_game(match, losing_policy(1))
    assert match.winner == 0
    assert 0 < match.standing[1] < 7
    assert not match.is_schneider
    assert match.bummerl_for_loser == 1


def test_dealer_alternates_every_game() -> None:
    """seeds/003: "In den weiteren Spielen wechseln sich die Spieler in den Rollen des
    Gebers und der Vorhand jeweils ab." — whoever wins."""
    for first in (0, 1):
        match = Match("sechsundsechzig", seed=9, first_dealer=first)
        while not match.is_over:
            play_game(match, first_play)
        dealers = [g.dealer for g in match.games]
        assert dealers == [(first + i) % 2 for i in range(len(dealers))]
        assert [g.vorhand for g in match.games] == [1 - d for d in dealers]


def test_games_are_dealt_from_derived_seeds() -> None:
    """A match is a sequence of games with one seed (issue 2): game i uses derive_seed(seed, i)."""
    match = Match("scharf", seed=77, first_dealer=0)
    for i in range(3):
        game = play_game(match, first_play)
        assert game.deck == Game.deal("scharf", seed=derive_seed(77, i), dealer=game.dealer).deck
        assert match.history[i].seed == derive_seed(77, i)


def test_first_dealer_is_drawn_from_the_seed() -> None:
    """seeds/001: "Der das niedrigste Blatt Ziehende gibt zuerst" — the draw comes from the match seed."""
    draws = {Match("schnapsen", seed=s).first_dealer for s in range(40)}
    assert draws == {0, 1}
    for s in range(10):
        expected = SplitMix64(derive_seed(s, DRAW, 0)).below(2)
        assert Match("schnapsen", seed=s).first_dealer == expected == draw_dealer(s, 0)


def test_stand_in_sechsundsechzig_scores_nothing() -> None:
    """RULES.md: "Sechsundsechzig ... 65:65 scores nothing"; the deal passes on (seeds/003)."""
    for seed in range(2000):
        game = Game.deal("66", seed=seed)
        play_out(game, first_play)
        assert game.result is not None
        if game.result.winner is None:
            break
    else:
        pytest.fail("no 65:65 game found")
    assert game.result.reason is EndReason.STAND
    match = Match("66", seed=0, first_dealer=1)
    replayed = match.deal_next(deck=game.deck)
    for a in game.actions:
        replayed.apply(a)
    match.complete(replayed)
    assert match.standing == (7, 7)
    assert match.history[0].points == 0
    assert match.next_dealer == 0


def test_schnorps_winner_deals_next() -> None:
    """seeds/001: "Der das niedrigste Blatt Ziehende gibt zuerst u. dann stets der Gewinner." """
    match = Match("schnorps", seed=4)
    while not match.is_over:
        game = play_game(match, first_play)
        assert game.result is not None
        if game.result.winner is not None:
            assert match.next_dealer == game.result.winner
    assert match.kind == "marken"
    assert match.winner is not None
    assert match.points[match.winner] >= 7
    assert match.standing == match.points


def test_schnorps_marken_accumulate_to_target() -> None:
    """seeds/001: "Ein verlorenes Spiel wird mit 1 Marke, der Schneider mit 2 Marken u. der
    S. mit 6 Marken bezahlt"; the match length (7 Marken, here 3) is our choice."""
    match = Match("schnorps", seed=8, target=3)
    while not match.is_over:
        play_game(match, first_play)
    totals = [0, 0]
    for h in match.history:
        if h.result.winner is not None:
            totals[h.result.winner] += h.result.points * h.multiplier
    assert tuple(totals) == match.points
    assert max(totals) >= 3
    assert not match.is_schneider
    assert match.bummerl_for_loser == 1


def test_schnorps_stand_redraws_dealer_and_doubles_next_game() -> None:
    """seeds/001: "so gewinnt keiner von beiden (das Spiel steht), es wird dann um das Geben
    gezogen u. der Verlust in dem darauf folgenden Spiele doppelt ... bezahlt." """
    for seed in range(3000):
        match = Match("schnorps", seed=seed, target=50)
        stand_at = None
        for i in range(8):
            game = play_game(match, first_play)
            assert game.result is not None
            if game.result.winner is None:
                stand_at = i
                break
        if stand_at is not None:
            break
    else:
        pytest.fail("no Schnorps stand found")
    assert match.history[-1].points == 0
    assert match.dealer_drawn
    assert match.next_dealer == draw_dealer(seed, stand_at + 1)
    assert match.multiplier == 2
    before = match.points
    game = play_game(match, first_play)
    assert game.result is not None
    entry = match.history[-1]
    if game.result.winner is not None:
        assert entry.multiplier == 2
        assert entry.points == 2 * game.result.points
        w = game.result.winner
        assert match.points[w] == before[w] + entry.points
        assert match.multiplier == 1
    else:  # "bei einem nochmaligen Stehen vierfach"
        assert match.multiplier == 4


def test_deal_next_refuses_while_a_game_runs() -> None:
    match = Match()
    match.deal_next()
    with pytest.raises(BummerlError, match="not finished"):
        match.deal_next()


def test_complete_refuses_unfinished_or_foreign_games() -> None:
    match = Match()
    with pytest.raises(BummerlError, match="no game is in progress"):
        match.complete(Game.deal())
    game = match.deal_next()
    with pytest.raises(BummerlError, match="not over"):
        match.complete(game)
    other = Game.deal()
    play_out(other, first_play)
    with pytest.raises(BummerlError, match="current game"):
        match.complete(other)
    play_out(game, first_play)
    match.complete(game)
    with pytest.raises(BummerlError, match="no game is in progress"):
        match.complete(game)


def test_no_deal_after_the_match_is_over() -> None:
    match = Match(target=1)
    play_game(match, first_play)
    assert match.is_over
    with pytest.raises(BummerlError, match="match is over"):
        match.deal_next()


def test_bad_arguments() -> None:
    with pytest.raises(BummerlError, match="first_dealer"):
        Match(first_dealer=2)
    with pytest.raises(BummerlError, match="target"):
        Match(target=0)
    with pytest.raises(BummerlError, match="seed"):
        Match(seed="x")  # type: ignore[arg-type]
    match = Match(first_dealer=0)
    play_game(match, first_play)
    with pytest.raises(BummerlError, match="must be dealt by seat 1"):
        match.deal_next(dealer=0)


def test_options_reach_the_variant() -> None:
    match = Match("schnapsen", auto_declare=True)
    assert match.variant.auto_declare
    assert match.deal_next().variant.auto_declare


def test_session_counts_bummerl_and_passes_the_deal() -> None:
    """seeds/000: the loser of a Partie gets one Bummerl, two when Schneider."""
    session = Session("schnapsen", seed=12)
    for loser in (1, 0, 1):
        match = session.new_match()
        if session.matches[:-1]:
            prev = session.matches[-2]
            assert match.first_dealer == 1 - prev.history[-1].dealer
        with pytest.raises(BummerlError, match="not finished"):
            session.new_match()
        while not match.is_over:
            play_game(match, losing_policy(loser))
        session.finish(match)
    assert session.bummerl == (2, 4)  # each 7:0 match is Schneider: two Bummerl
    assert session.matches_won == (2, 1)
    with pytest.raises(BummerlError, match="current match"):
        session.finish(session.matches[0])


def test_schnorps_session_winner_keeps_dealing() -> None:
    """seeds/001: "... u. dann stets der Gewinner" — also into the next match of a session."""
    session = Session("schnorps", seed=6, target=3)
    first = session.new_match()
    while not first.is_over:
        play_game(first, first_play)
    session.finish(first)
    second = session.new_match()
    last = first.history[-1].result
    assert last.winner is not None  # the match ended on a won game
    assert second.first_dealer == last.winner == second.deal_next().dealer
