"""Schnorps (seeds/001, a historical lexicon entry): 32 cards, Decken, Weglegen, Marken.

The seed is the only source; RULES.md adds the Marken table and notes that
nobody at 66 after the last card scores nothing.  Marriages and the trump-Seven
exchange follow the seed text by default (see docs/rules.md for the
disagreement with RULES.md) and are options.  Trump is clubs; seat 1 deals.
"""

from __future__ import annotations

import itertools

import pytest

from bummerl.actions import Action
from bummerl.cards import Card, Suit, deck, parse_cards
from bummerl.errors import Rule
from bummerl.game import Game
from bummerl.variants import SCHNORPS, EndReason, TwoPlayerVariant, find_variant
from helpers import apply_all, assert_refused, deal_game, position

VORHAND = "7c Kh Qh As Ts 8s"
DEALER = "Ah Th Ks Qs Js 9s"


def opening(variant: TwoPlayerVariant | str = "schnorps") -> Game:
    """Vorhand holds the trump Seven and a Herz marriage; talon from Jh 9h 8h 7h ... (pack order)."""
    return deal_game(variant, VORHAND, DEALER, "Kc")


def after_first_trick(variant: TwoPlayerVariant | str = "schnorps") -> Game:
    """Vorhand has won the first trick (As against 9s) and is on lead."""
    return apply_all(opening(variant), "As 9s")


def codes(cards: list[Card]) -> str:
    return " ".join(c.code for c in cards)


def on_lead(won0: str, won1: str, to_move: int = 1, closed: str = "-", variant: str = "schnorps") -> Game:
    """These trick piles, ``to_move`` on lead; the rest fills hands (and talon while cards remain)."""
    used = set(parse_cards(won0 + " " + won1))
    rest = [c for c in deck(32) if c not in used]
    if len(rest) <= 12:
        half = len(rest) // 2
        return position(
            variant, to_move, "c", codes(rest[:half]), codes(rest[half:]), won0=won0, won1=won1, closed=closed
        )
    trump_card = next(c for c in reversed(rest) if c.suit is Suit.CLUBS)
    rest.remove(trump_card)
    return position(
        variant,
        to_move,
        trump_card.code,
        codes(rest[:6]),
        codes(rest[6:12]),
        talon=codes(rest[12:]),
        won0=won0,
        won1=won1,
        closed=closed,
    )


# ---------------------------------------------------------------- the deal


def test_found_by_its_names() -> None:
    """Issue: variants are "found by name or alias (... `schnorps`)"."""
    assert find_variant("schnorps") is SCHNORPS
    assert find_variant("Schnorpsen") is SCHNORPS


def test_deal_six_each_seventh_card_turned() -> None:
    """seeds/001: "Jeder Spieler bekommt sechs Blätter, in zwei gleichen Würfen. Nach dem ersten
    Wurfe wird die siebente Karte als Trumpf umgeschlagen. Die übrigen 19 Karten aber neben das
    Trumpfblatt gelegt."."""
    pack = deck(32)
    assert len(pack) == 32
    game = Game.from_deck("schnorps", pack, dealer=1)
    assert game.hands[0] == [*pack[0:3], *pack[7:10]]
    assert game.hands[1] == [*pack[3:6], *pack[10:13]]
    assert game.trump_card is pack[6]
    assert game.talon_size == 19  # face down, "neben das Trumpfblatt"
    assert game.talon[-1] is pack[13]


def test_vorhand_leads() -> None:
    """seeds/001: "Die Vorhand spielt aus u. dann immer der, welcher den Stich gemacht hat."."""
    game = opening()
    assert game.to_move == 0
    apply_all(game, "8s Ks")
    assert game.to_move == 1


def test_winner_draws_first() -> None:
    """seeds/001: "Nach jedem Stiche hebt der, welcher ihn gemacht, u. nach ihm der Andere, ein Blatt
    von dem Talon ab"."""
    game = opening()
    top, second = game.talon[-1], game.talon[-2]
    apply_all(game, "8s Ks")
    assert game.hands[1][-1] is top and game.hands[0][-1] is second


def test_ranks_and_augen() -> None:
    """seeds/001: "Das höchste ist das Daus, welches 11 Augen, ... die Zehn, welche deren 10 zählt,
    worauf der König, der Ober, der Unter, die Neun, die Acht, die Sieben folgen, von welchen der
    erste 4, der zweite 3 u. der dritte 2 Augen zählt; die drei letzten zählen nicht"."""
    order = [Card.parse(t) for t in ["Ah", "Th", "Kh", "Qh", "Jh", "9h", "8h", "7h"]]
    assert [c.augen for c in order] == [11, 10, 4, 3, 2, 0, 0, 0]
    assert all(a.rank > b.rank for a, b in itertools.pairwise(order))
    assert sum(c.augen for c in deck(32)) == 120


# --------------------------------------------------------- follow obligations


def test_free_play_until_covered() -> None:
    """seeds/001: "So lange noch nicht gedeckt ist, ist man nicht verbunden zu bekennen od. zu
    stechen"."""
    game = opening()
    game.apply("As")
    assert len(game.legal_actions()) == 6


def test_strict_play_after_covering() -> None:
    """seeds/001: "... was jedoch nach dem Decken u. bei den letzten sechs Karten nach Erschöpfung
    des Talons geschehen muß. Man sticht entweder mit einer Trumpfkarte od. mit einem höheren Blatte
    der nämlichen Farbe."."""
    game = after_first_trick()
    apply_all(game, "close Kh")
    assert sorted(a.token for a in game.legal_actions()) == ["Ah", "Th"]
    assert_refused(game, "Js", Rule.FARBZWANG)


def test_strict_play_with_the_last_six_cards() -> None:
    """seeds/001: "... bei den letzten sechs Karten nach Erschöpfung des Talons geschehen muß"."""
    lead = Card.parse("Kh")
    hand1 = parse_cards("Ah 7h Ac 7c As 7s")
    rest = [c for c in deck(32) if c is not lead and c not in hand1]
    game = position(
        "schnorps",
        1,
        "c",
        codes(rest[:5]),
        codes(list(hand1)),
        lead="Kh",
        won0=codes(rest[5:15]),
        won1=codes(rest[15:]),
    )
    assert game.talon_size == 0
    assert [a.token for a in game.legal_actions()] == ["Ah"]
    assert_refused(game, "7h", Rule.STICHZWANG)
    assert_refused(game, "Ac", Rule.FARBZWANG)


# ------------------------------------------------- only after a trick was made


def test_no_covering_before_a_trick() -> None:
    """seeds/001: a player covers "nach einem gemachten Stiche"."""
    game = opening()
    err = assert_refused(game, "close", Rule.CLOSE)
    assert "trick" in str(err)
    assert after_first_trick().can_close_talon()


def test_covering_turns_the_trump_card_and_stops_drawing() -> None:
    """seeds/001: "daß er deckt, d.h. die aufgeschlagene Trumpfkarte umwendet u. auf den Rest des
    Talons legt. Nach dem Decken wird auf die gewöhnliche Weise fortgespielt"."""
    game = after_first_trick()
    size = game.talon_size
    apply_all(game, "close Ts Ks")
    assert game.closed_by == 0 and game.talon_size == size
    assert len(game.hands[0]) == len(game.hands[1]) == 5


def test_no_laying_down_before_a_trick() -> None:
    """seeds/001: "Die Spielenden können auch im Verlaufe des Spieles es nach jedem gemachten Stiche
    durch Weglegung ihrer Karten beendigen"."""
    game = opening()
    assert_refused(game, "declare", Rule.DECLARE)
    assert after_first_trick().can_declare()


def test_trump_seven_robs_only_after_a_trick() -> None:
    """seeds/001: "Wer die Trumpfsieben hat, kann die aufgeschlagene Trumpfkarte, jedoch nur nach
    einem gemachten Stiche, in sein Spiel nehmen (rauben), indem er jene an die Stelle derselben
    legt."."""
    game = opening()
    err = assert_refused(game, "exchange", Rule.EXCHANGE)
    assert "trick" in str(err)
    game = after_first_trick()
    game.exchange_trump()
    assert Card.parse("Kc") in game.hands[0] and game.trump_card == Card.parse("7c")


def test_the_unter_does_not_rob() -> None:
    """seeds/001: the robbing card is "die Trumpfsieben"."""
    game = deal_game("schnorps", "Jc Kh Qh As Ts 8s", "Ah Th Ks Qs Js 9s", "Kc")
    apply_all(game, "As 9s")
    err = assert_refused(game, "exchange", Rule.EXCHANGE)
    assert "7c" in str(err)


def test_marriages_only_after_a_trick() -> None:
    """seeds/001: "Die Mariagen werden während des Spiels vorgezeigt, was jedoch nur nach einem
    gemachten Stiche ... geschehen darf"; "zählt man 20, wenn man eine Mariage ... hat, u. 40 wenn
    sie von der Trumpffarbe sind"."""
    game = opening()
    assert_refused(game, "marry:Kh", Rule.MARRIAGE)
    game = after_first_trick()
    game.apply("marry:Qh")
    assert game.augen(0) == 11 + 20


def test_no_marriage_once_the_talon_is_exhausted() -> None:
    """seeds/001: marriages only "so lange der Talon noch nicht erschöpft ist"."""
    game = position(
        "schnorps",
        0,
        "c",
        "Kh Qh 8d 7d Ac Tc",
        "Kd Qd Jd 9d Kc Qc",
        won0="Ah Th Jh 9h 8h 7h Ad Td",
        won1="Jc 9c 8c 7c As Ts Ks Qs Js 9s 8s 7s",
    )
    assert game.talon_size == 0
    err = assert_refused(game, "marry:Kh", Rule.MARRIAGE)
    assert "exhausted" in str(err)


def test_marriage_after_covering() -> None:
    """Our reading (docs/rules.md): seeds/001 ends marriages when the talon is "erschöpft"; covering
    does not exhaust it ("Nach dem Decken wird auf die gewöhnliche Weise fortgespielt")."""
    game = after_first_trick()
    game.close_talon()
    assert game.can_announce_marriage(Card.parse("Kh"))


@pytest.mark.parametrize(
    ("option", "token", "rule"),
    [("marriages", "marry:Kh", Rule.NOT_AVAILABLE), ("trump_exchange", "exchange", Rule.NOT_AVAILABLE)],
)
def test_marriages_and_robbing_are_options(option: str, token: str, rule: Rule) -> None:
    """RULES.md: "The text names no marriages and no trump exchange: none by default, options to
    allow them"; the lead's decision follows seeds/001 by default and keeps both as options."""
    game = after_first_trick(find_variant("schnorps", **{option: False}))
    assert_refused(game, token, rule)
    assert after_first_trick().can_apply(Action.parse(token))


# ------------------------------------------------------------------- Marken

WIN_71 = "Ad Td Ac Tc As Ts Kd Kc"


@pytest.mark.parametrize(
    ("won0", "marken"),
    [
        ("Ah Th Kh Qh Jh Qs", 1),  # 33: not Schneider
        ("Ah Th Kh Qh Jh Js", 2),  # 32: "Wenn der Verlierende nicht 33 Augen zählt, so ist er Schneider"
        ("", 6),  # "wenn er gar keinen Stich hat"
    ],
)
def test_marken_for_laying_down_uncovered(won0: str, marken: int) -> None:
    """seeds/001: "Ein verlorenes Spiel wird mit 1 Marke, der Schneider mit 2 Marken u. der S. mit 6
    Marken bezahlt, wenn der Gewinnende nicht gedeckt hat"."""
    game = on_lead(won0, WIN_71)
    game.declare()
    assert game.result is not None
    assert (game.result.winner, game.result.points, game.result.unit) == (1, marken, "Marken")
    assert game.result.reason is EndReason.DECLARED


@pytest.mark.parametrize(("won0", "marken"), [("Ah Th Kh Qh Jh Qs", 2), ("Ah Th Kh Qh Jh Js", 4), ("", 8)])
def test_marken_for_the_coverer(won0: str, marken: int) -> None:
    """seeds/001: "im Falle des Deckens werden das verlorene Spiel mit 2, der Schneider mit 4 u. der
    S. mit 8 Marken bezahlt"."""
    game = on_lead(won0, WIN_71, closed="1:0:0")
    game.declare()
    assert game.result is not None
    assert (game.result.winner, game.result.points, game.result.reason) == (1, marken, EndReason.CLOSER_WON)


def test_wrong_laying_down_costs_two() -> None:
    """seeds/001: "Wenn ein Spieler die Karten weglegt, ohne die nothwendige Zahl Augen zu haben,
    verliert er 2"."""
    game = on_lead("Ah Th", "Ad Td Ac Tc")
    game.declare()
    assert game.result is not None
    assert (game.result.winner, game.result.points, game.result.reason) == (0, 2, EndReason.WRONG_DECLARATION)


def test_coverer_laying_down_wrongly_verdeckt_four() -> None:
    """seeds/001: "der Deckende verliert das Spiel, so wie er es ebenfalls verliert, wenn er nicht
    66 Augen macht, was in beiden Fällen sich verdecken genannt wird ... wenn er sich verdeckt, 4
    Marken"."""
    game = on_lead("Ah Th", "Ad Td Ac Tc", closed="1:21:1")
    game.declare()
    assert game.result is not None
    assert (game.result.winner, game.result.points, game.result.reason) == (0, 4, EndReason.CLOSER_FAILED)


def test_opponent_of_coverer_reaching_66_first() -> None:
    """seeds/001: "Wenn während des Spielens nach dem Decken der Gegner die zum Gewinnen nothwendige
    Zahl Augen eher als der Deckende bekommt, legt jener ebenfalls die Karten weg u. der Deckende
    verliert das Spiel" (sich verdecken: 4 Marken)."""
    game = on_lead("Ah Th", WIN_71, closed="0:0:0")
    game.declare()
    assert game.result is not None
    assert (game.result.winner, game.result.points, game.result.reason) == (1, 4, EndReason.CLOSER_FAILED)


def test_laying_down_without_66_after_the_other_covered() -> None:
    """seeds/001: "So verliert auch derjenige 4 Marken, welcher, wenn der Andere gedeckt hat, seine
    Karten, ohne 66 Augen zu haben, weglegt."."""
    game = on_lead("Ah Th", "Ad Td Ac Tc", closed="0:0:0")
    game.declare()
    assert game.result is not None
    assert (game.result.winner, game.result.points, game.result.reason) == (0, 4, EndReason.WRONG_DECLARATION)


def covered_end(won0: str, won1: str) -> Game:
    """Seat 0 covered with three face-down cards left; one card each, As against 7s."""
    game = position("schnorps", 0, "Jc", "As", "7s", talon="Qc Kc 9c", closed="0:20:1", won0=won0, won1=won1)
    apply_all(game, "As 7s")
    return game


COVER_REST = "Kh Qh Jh 9h 8h 7h Kd Qd Jd 9d 8d 7d 8c 7c Ts Ks Qs Js 9s 8s"  # 37 Augen


def test_coverer_playing_out_all_cards_with_66_wins() -> None:
    """seeds/001: "Wenn er diese Zahl nicht eher, als durch das Ausspielen der sechsten Karte
    bekommen kann, so setzt er das Spiel bis zu derselben fort"; no ten for the last trick after
    covering (docs/rules.md)."""
    game = covered_end("Ah Th Ad Td Ac Tc", COVER_REST)
    assert game.result is not None
    assert game.result.augen == (74, 37)
    assert (game.result.winner, game.result.points, game.result.reason) == (0, 2, EndReason.CLOSER_WON)


def test_coverer_without_66_after_the_last_card_verdeckt() -> None:
    """seeds/001: "so wie er es ebenfalls verliert, wenn er nicht 66 Augen macht" (4 Marken)."""
    game = covered_end("Ah Th Ad Td Kh Kd Jh Jd", "Qh 9h 8h 7h Qd 9d 8d 7d Ac Tc 8c 7c Ts Ks Qs Js 9s 8s")
    assert game.result is not None and game.result.augen[0] == 65
    assert (game.result.winner, game.result.points, game.result.reason) == (1, 4, EndReason.CLOSER_FAILED)


# -------------------------------------------------------------- last card

REST_65 = "Kh Qh 8h 7h Kd Qd Jd 9d 8d 7d Ac Tc Kc Qc Jc 9c 8c 7c Ts Ks Qs Js 9s 8s"


def test_the_player_with_66_wins_after_the_last_card() -> None:
    """seeds/001: "Wenn nicht gedeckt wird, so wird immerfort von dem Talon abgenommen u. das Spiel bis
    zu der letzten Karte fortgesetzt, u. derjenige gewinnt es dann, welcher 66 Augen hat"; "Wenn das
    Spiel bis zu der letzten Karte ausgespielt wird, zählt der letzte Stich, außer dem gewöhnlichen
    Werthe der Blätter, 10 Augen."."""
    game = position(
        "schnorps",
        0,
        "c",
        "As",
        "7s",
        won0="Ah Th Ad Td Jh 9h Kh Qh",
        won1="8h 7h Kd Qd Jd 9d 8d 7d Ac Tc Kc Qc Jc 9c 8c 7c Ts Ks Qs Js 9s 8s",
    )
    apply_all(game, "As 7s")
    assert game.result is not None
    assert game.result.augen == (51 + 11 + 10, 58)
    assert sum(game.result.augen) == 130
    assert (game.result.winner, game.result.points, game.result.reason) == (0, 1, EndReason.LAST_TRICK)


def test_sixty_five_all_stands() -> None:
    """seeds/001: "Wenn nach dem Ausspielen der letzten sechs Karten jeder der Spielenden 65 Augen
    zählt, so gewinnt keiner von beiden (das Spiel steht)"."""
    game = position("schnorps", 0, "c", "As", "7s", won0="Ah Th Ad Td Jh 9h", won1=REST_65)
    apply_all(game, "As 7s")
    assert game.result is not None
    assert game.result.augen == (65, 65)
    assert (game.result.winner, game.result.points, game.result.reason) == (None, 0, EndReason.STAND)
