"""Cards, suits, ranks and packs (RULES.md, "Cards")."""

from __future__ import annotations

import copy
import pickle

import pytest

from bummerl.cards import CARDS, Card, Rank, Suit, deck, format_cards, parse_cards, sort_hand


def test_rank_order_high_to_low() -> None:
    """RULES.md: "Ranks high to low A, 10, K, O/D (Ober/Dame), U/B (Unter/Bube), then 9, 8, 7"."""
    order = [Rank.ACE, Rank.TEN, Rank.KING, Rank.OBER, Rank.UNTER, Rank.NINE, Rank.EIGHT, Rank.SEVEN]
    assert order == sorted(order, reverse=True)
    assert Rank["QUEEN"] is Rank.OBER and Rank["JACK"] is Rank.UNTER


def test_augen() -> None:
    """RULES.md: "Augen: A 11, 10 10, K 4, O 3, U 2, 9/8/7 0"; seeds/000: "Ass 11 Augen, Zehner 10
    Augen, König 4 Augen, Dame / Ober 3 Augen, Bube / Unter 2 Augen, Neuner 0 Augen"."""
    values = {
        Rank.ACE: 11,
        Rank.TEN: 10,
        Rank.KING: 4,
        Rank.OBER: 3,
        Rank.UNTER: 2,
        Rank.NINE: 0,
        Rank.EIGHT: 0,
        Rank.SEVEN: 0,
    }
    for rank, augen in values.items():
        assert rank.augen == augen
        assert Card(Suit.HEARTS, rank).augen == augen


@pytest.mark.parametrize("size", [20, 24, 32])
def test_every_pack_holds_120_augen(size: int) -> None:
    """seeds/000: Schnapsen "mit nur 20 Blatt", Sechsundsechzig "mit einem Paket zu 24 Karten";
    seeds/001: Schnorps with "die übrigen 19 Karten" after 13 dealt: 32.  Only A-U count: 120 each."""
    pack = deck(size)
    assert len(pack) == len(set(pack)) == size
    assert sum(c.augen for c in pack) == 120
    assert len({c.suit for c in pack}) == 4


def test_schnapsen_pack_has_no_nines() -> None:
    """seeds/000: "beim Schnapsen werden die Neuner nicht verwendet"."""
    assert all(c.rank >= Rank.UNTER for c in deck(20))
    assert {c.rank for c in deck(24)} - {c.rank for c in deck(20)} == {Rank.NINE}
    assert {c.rank for c in deck(32)} - {c.rank for c in deck(24)} == {Rank.EIGHT, Rank.SEVEN}


def test_no_other_pack_size() -> None:
    with pytest.raises(ValueError, match="20, 24 or 32"):
        deck(52)


def test_cards_are_interned() -> None:
    card = Card.parse("Qh")
    assert card is Card(Suit.HEARTS, Rank.OBER) is CARDS[card.index]
    assert copy.copy(card) is card and copy.deepcopy(card) is card
    assert pickle.loads(pickle.dumps(card)) is card


def test_indices_are_dense_and_stable() -> None:
    assert [c.index for c in CARDS] == list(range(32))
    assert Card.parse("7h").index == 0 and Card.parse("As").index == 31


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("Ah", "Ah"),
        ("10d", "Td"),
        ("Td", "Td"),
        ("Oc", "Qc"),
        ("Us", "Js"),
        ("Dh", "Qh"),
        ("Bh", "Jh"),
        ("kS", "Ks"),
        (" 9h ", "9h"),
    ],
)
def test_parse_accepts_german_and_french_letters(text: str, code: str) -> None:
    """RULES.md: "One model, two faces ... records use a fixed ASCII notation"."""
    assert Card.parse(text).code == code


@pytest.mark.parametrize("text", ["", "A", "Ax", "Zh", "1h", "AAh"])
def test_parse_rejects_malformed_cards(text: str) -> None:
    with pytest.raises(ValueError):
        Card.parse(text)


def test_parse_and_format_cards_round_trip() -> None:
    cards = parse_cards("AhTh Kd, 10c 9s")
    assert format_cards(cards) == "AhThKdTc9s"
    assert parse_cards(format_cards(cards, " ")) == cards
    assert parse_cards("") == ()


def test_names_in_both_faces_and_languages() -> None:
    """RULES.md: "Suits: German (Herz, Schellen, Eichel, Laub/Grün) and French (Herz, Karo, Kreuz, Pik)"."""
    assert [s.name_in("german", "de") for s in Suit] == ["Herz", "Schellen", "Eichel", "Laub"]
    assert [s.name_in("french", "de") for s in Suit] == ["Herz", "Karo", "Kreuz", "Pik"]
    card = Card.parse("Qd")
    assert card.name("german", "de") == "Schellen-Ober"
    assert card.name("french", "de") == "Karo-Dame"
    assert card.name("french", "en") == "Queen of Diamonds"
    assert Card.parse("Jc").short("french", "de") == "B\u2663"
    assert Card.parse("Th").short("german", "de") == "H-10"
    with pytest.raises(ValueError, match="faces"):
        card.name("italian", "de")
    with pytest.raises(ValueError, match="language"):
        card.name("german", "fr")


def test_sort_hand_puts_trumps_first() -> None:
    hand = parse_cards("Jh As Tc Ac Kh")
    assert format_cards(sort_hand(hand, Suit.CLUBS), " ") == "Ac Tc Kh Jh As"
