"""The player view: exactly what one player may know (issue: "A player view").

Issue: "own hand, trump card, talon size, cards seen, own tricks; the opponent's
tricks only where the variant allows; in scharf no running totals".  The view
never holds a card its player has not seen; the property tests check this over
thousands of games (tests/test_properties.py), these tests name the cases.
"""

from __future__ import annotations

import pytest

from bummerl.cards import Card, deck
from bummerl.game import Game
from bummerl.two_player import player_view
from bummerl.view import PlayerView
from helpers import apply_all, cards_in, deal_game, position


def opening(variant: str = "schnapsen") -> Game:
    return deal_game(variant, "Jc Kh Qh As Ts", "Ah Th Ks Qs Js", "Kc")


def test_view_at_the_deal_shows_own_hand_and_trump_card_only() -> None:
    """seeds/000: "Die offene Karte bestimmt die Trumpffarbe ... sodass die Trumpfkarte zur Hälfte
    sichtbar bleibt"."""
    game = opening()
    for p in (0, 1):
        view = game.view(p)
        assert view.hand == tuple(game.hands[p])
        assert view.trump_card == Card.parse("Kc") and view.talon_size == 9
        assert view.opponent_hand_size == 5 and view.opponent_known == frozenset()
        assert cards_in(view) == set(game.hands[p]) | {Card.parse("Kc")}


def test_view_is_frozen_and_checks_the_seat() -> None:
    view = opening().view(0)
    with pytest.raises(AttributeError):
        view.hand = ()  # type: ignore[misc]
    with pytest.raises(ValueError, match="seat 0 or 1"):
        player_view(opening(), 2)


def test_legal_actions_from_the_view() -> None:
    """Issue: "A view is enough to choose a legal action"."""
    game = opening()
    apply_all(game, "As Ks")
    assert game.view(0).legal_actions() == game.legal_actions()
    assert game.view(1).legal_actions() == []
    assert game.view(0).is_my_turn and not game.view(1).is_my_turn


def test_view_carries_the_legal_actions_generated_once() -> None:
    """issue 11: a bot on a view costs one generation per decision: the view's ``legal`` is the
    game's own cached tuple, which apply() then checks the chosen action against."""
    game = Game.deal("schnapsen", seed=3)
    while not game.is_over:
        p = game.to_move
        view, other = game.view(p), game.view(1 - p)
        assert list(view.legal) == game.legal_actions() == view.legal_actions()
        assert view.legal == view.compute_legal() and other.legal == () == other.compute_legal()
        assert view.legal is game.legal_tuple()
        game.apply(view.legal[-1])
    assert game.view(0).legal == game.view(1).legal == ()


def test_view_fields_are_built_in_field_order() -> None:
    """player_view builds the named tuple positionally (for speed): every field lands in its place."""
    game = Game.deal("sechsundsechzig", seed=5)
    apply_all(game, " ".join(a.token for a in game.legal_actions()[:1]))
    view = game.view(0)
    assert len(view) == len(PlayerView._fields)
    assert view == PlayerView(**{name: getattr(view, name) for name in PlayerView._fields})
    assert view.hand == tuple(game.hands[0]) and view.talon_size == len(game.talon)
    assert view.lead == game.lead and view.played == frozenset({game.lead})
    assert view.tricks_won == (0, 0) and view.augen == (0, 0) and view.first_lead_done


def test_marriage_partner_becomes_known() -> None:
    """seeds/000: an Ansage shows "König und Dame bzw. König und Ober"; the one not led stays known."""
    game = opening()
    game.apply("marry:Kh")
    assert game.view(1).opponent_known == frozenset({Card.parse("Qh")})
    assert game.view(1).marriages == ((0, Card.parse("Kh").suit),)
    game.apply("Ah")
    apply_all(game, "Th Qh")  # the shown Ober is played: no longer in the hand
    assert Card.parse("Qh") not in game.view(1).opponent_known


def test_exchanged_trump_card_is_known() -> None:
    """seeds/000: the exchange takes "die offen aufliegende Trumpfkarte": both saw it."""
    game = opening()
    game.apply("exchange")
    assert game.view(1).opponent_known == frozenset({Card.parse("Kc")})
    assert game.view(1).trump_card == Card.parse("Jc")


def test_last_trump_card_known_in_losers_hand() -> None:
    """RULES.md: "the face-up trump card to the loser": the winner saw where it went."""
    game = position(
        "schnapsen", 0, "Jc", "Ah Th Kh Qh Jh", "Ad Td Kd Qd Jd", talon="Qc", won0="Ac Tc As Ts", won1="Kc Ks Qs Js"
    )
    apply_all(game, "Ah Jd")
    assert Card.parse("Jc") in game.view(0).opponent_known


def test_exhausted_talon_reveals_the_opponents_hand() -> None:
    """Elimination: with the talon exhausted every unseen card is in the opponent's hand."""
    game = position(
        "schnapsen", 0, "Jc", "Ah Th Kh Qh Jh", "Ad Td Kd Qd Jd", talon="Qc", won0="Ac Tc As Ts", won1="Kc Ks Qs Js"
    )
    apply_all(game, "Ah Jd")
    for p in (0, 1):
        assert game.view(p).opponent_known == frozenset(game.hands[1 - p])
        assert game.view(p).unseen() == frozenset()


def test_closed_talon_hides_the_rest() -> None:
    """seeds/000: the closed talon stays face down; no elimination while it holds cards."""
    game = opening()
    apply_all(game, "close As Ks")
    view = game.view(0)
    assert view.opponent_known == frozenset()
    assert view.trump_card == Card.parse("Kc")  # seen before it was turned down
    assert len(view.unseen()) == 9 + 4
    assert not cards_in(view) & set(game.talon)


def test_unseen_is_talon_plus_unknown_opponent_cards() -> None:
    game = opening()
    apply_all(game, "marry:Kh Ah Js As")
    for p in (0, 1):
        view = game.view(p)
        truth = (set(game.talon) | set(game.hands[1 - p])) - set(view.opponent_known)
        assert view.unseen() == frozenset(truth)


def test_running_totals_weich_but_not_scharf() -> None:
    """seeds/000 (weich): "darf ein Spieler allerdings während eines Spieles die eigenen Stiche
    durchsehen"; scharf: "Abgelegte Stiche dürfen nichtmehr angesehen werden"."""
    weich = apply_all(opening(), "As Ks")
    scharf = apply_all(opening("scharf"), "As Ks")
    assert weich.view(1).augen == (15, 0)
    assert scharf.view(1).augen is None and scharf.view(0).augen is None


def test_played_cards_are_seen() -> None:
    """Tricks are played face up: both players saw every played card."""
    game = opening()
    apply_all(game, "As Ks Ts")
    view = game.view(1)
    assert view.played == frozenset(Card.parse(t) for t in ("As", "Ks", "Ts"))
    assert view.lead == Card.parse("Ts") and len(view.tricks) == 1


def test_view_never_holds_the_talon_or_unshown_opponent_cards() -> None:
    game = Game.deal("schnapsen", seed=11)
    view = game.view(0)
    assert not cards_in(view) & (set(game.talon) | set(game.hands[1]))
    assert cards_in(view) <= set(deck(20))


def test_view_type() -> None:
    assert isinstance(opening().view(0), PlayerView)
