"""Trick logic shared by all games: who takes a trick, what may be played.

Sources: seeds/000 (the follow ladder and "Farbzwang geht immer vor Stichzwang"),
RULES.md (three- and four-player tricks: "beat if possible (even a partner's
card), trump and over-trump if void").
"""

from __future__ import annotations

import pytest

from bummerl.cards import Card, Suit, parse_cards
from bummerl.rules.tricks import FollowRules, beats, explain_follow, legal_follows, trick_winner

C = Suit.CLUBS


def codes(cards: list[Card]) -> str:
    return " ".join(c.code for c in cards)


@pytest.mark.parametrize(
    ("cards", "winner"),
    [
        ("Kh Ah", 1),  # higher card of the led suit
        ("Ah Th", 0),
        ("Th Kh", 0),  # the Ten outranks the King
        ("Ah 9c", 1),  # any trump beats a plain suit
        ("Tc Ac", 1),  # the higher trump
        ("Ah As", 0),  # off-suit, not trump: the lead keeps it
        ("Ah Kc Ac", 2),  # over-trump in a three-card trick
        ("Ah Kc Th", 1),
    ],
)
def test_trick_winner(cards: str, winner: int) -> None:
    """seeds/000: "Der Teiler kann entweder mit einer höheren Karte derselben Farbe oder einem Atout
    stechen – in diesem Fall gewinnt er den Stich"."""
    assert trick_winner(parse_cards(cards), C) == winner


def test_no_trump_suit() -> None:
    """Games without trump (e.g. Bettler, RULES.md) compare the led suit only."""
    assert trick_winner(parse_cards("Kh Ac Ah"), None) == 2
    assert not beats(Card.parse("Ac"), Card.parse("Kh"), None)


def test_free_rules_allow_everything() -> None:
    """seeds/000: "Zu Beginn des Spieles herrscht weder Farb- noch Stichzwang"."""
    hand = parse_cards("Ah Jc 9s")
    assert legal_follows(hand, parse_cards("Kh"), C, FollowRules.FREE) == list(hand)


@pytest.mark.parametrize(
    ("hand", "trick", "allowed", "refused"),
    [
        # "mit einer höheren Karte der angespielten Farbe stechen"
        ("Ah Jh Ac As", "Kh", "Ah", "Jh:stichzwang Ac:farbzwang As:farbzwang"),
        # "eine niedrigere Karte der angespielten Farbe zugeben"
        ("Qh Jh Ac As", "Kh", "Qh Jh", "Ac:farbzwang As:farbzwang"),
        # "mit einer Trumpfkarte stechen"
        ("Ac Qc As Ks", "Kh", "Ac Qc", "As:trumpfzwang Ks:trumpfzwang"),
        # "eine beliebige andere Karte abwerfen"
        ("Ad Td As", "Kh", "Ad Td As", ""),
        # the trick is already trumped: any Herz, never a trump
        ("Qh Ac", "Kh Kc", "Qh", "Ac:farbzwang"),
        # over-trump if possible
        ("Ad Qc Ac", "Kh Kc", "Ac", "Ad:trumpfzwang Qc:ueberstechen"),
        # cannot over-trump: still trump
        ("Ad Jc Qc", "Kh Kc", "Jc Qc", "Ad:trumpfzwang"),
    ],
)
def test_strict_ladder(hand: str, trick: str, allowed: str, refused: str) -> None:
    """seeds/000: "mit einer höheren Karte der angespielten Farbe stechen ... eine niedrigere Karte
    der angespielten Farbe zugeben ... mit einer Trumpfkarte stechen ... eine beliebige andere Karte
    abwerfen"; "Farbzwang geht immer vor Stichzwang"; RULES.md: "trump and over-trump if void"."""
    cards = parse_cards(hand)
    legal = legal_follows(cards, parse_cards(trick), C, FollowRules.STRICT)
    assert codes(legal) == allowed
    reasons = dict(item.split(":") for item in refused.split())
    for card in cards:
        assert explain_follow(card, cards, parse_cards(trick), C) == reasons.get(card.code)


def test_trump_forbidden_when_led_suit_can_be_followed() -> None:
    """seeds/000: "Es ist nicht erlaubt mit einer Trumpfkarte zu stechen, wenn man die angespielte
    Farbe bedienen könnte"."""
    hand = parse_cards("Jh Ac")
    assert explain_follow(Card.parse("Ac"), hand, parse_cards("Kh"), C) == "farbzwang"


def test_beat_partners_card_in_a_three_card_trick() -> None:
    """RULES.md (Bauernschnapsen): "beat if possible (even a partner's card)": higher means higher than
    the card winning the trick so far."""
    hand = parse_cards("Th Jh")
    assert codes(legal_follows(hand, parse_cards("Kh Qh"), C, FollowRules.STRICT)) == "Th"
    assert codes(legal_follows(hand, parse_cards("Kh Ah"), C, FollowRules.STRICT)) == "Th Jh"


def test_undertrumping_optional_when_allowed() -> None:
    """``must_undertrump=False``: a player who cannot over-trump may throw any card."""
    hand = parse_cards("Ad Jc")
    assert codes(legal_follows(hand, parse_cards("Kh Kc"), C, FollowRules.STRICT, must_undertrump=False)) == "Ad Jc"
