"""Sechsundsechzig: 24 cards, six each, the thirteenth card turned, last trick +10.

Sources: seeds/000 (its Sechsundsechzig sentences) and RULES.md ("Sechsundsechzig
| 24 | 6 | 3+3 each, 13th card turned | last trick +10 Augen (not after closing);
trump-9 exchange").  Trump is clubs throughout; seat 1 deals.
"""

from __future__ import annotations

import pytest

from bummerl.cards import Card, Rank, deck
from bummerl.errors import Rule
from bummerl.game import Game
from bummerl.variants import SECHSUNDSECHZIG, EndReason, find_variant
from helpers import apply_all, assert_refused, deal_game, position


def test_found_by_its_names() -> None:
    """Issue: variants are "found by name or alias (... `66`, `sechsundsechzig` ...)"."""
    assert find_variant("66") is SECHSUNDSECHZIG
    assert find_variant("Sechsundsechzig") is SECHSUNDSECHZIG


def test_deal_three_and_three_then_thirteenth_card_turned() -> None:
    """seeds/000: "Bei Sechsendsechzig erhält jeder Spieler sechs Karten in zwei Würfeln zu je drei
    Blatt, d. h. zuerst erhält Vorhand drei Karten, dann der Teiler drei, usw. Die dreizehnte Karte
    wird offen auf den Tisch gelegt."; "Sechshundsechzig wird ... mit einem Paket zu 24 Karten
    gespielt"."""
    pack = deck(24)
    assert len(pack) == 24
    assert {c.rank for c in pack} == {Rank.ACE, Rank.TEN, Rank.KING, Rank.OBER, Rank.UNTER, Rank.NINE}
    game = Game.from_deck("66", pack, dealer=1)
    assert game.hands[0] == [*pack[0:3], *pack[6:9]]
    assert game.hands[1] == [*pack[3:6], *pack[9:12]]
    assert game.trump_card is pack[12]
    assert game.talon_size == 11 and game.talon[-1] is pack[13]
    assert game.to_move == 0


def test_exchange_with_the_trump_nine() -> None:
    """seeds/000: "Hält ein Spieler die niedrigste Trumpfkarte, d. h. bei Sechsendsechzig die
    Trumpf-Neun ... so darf er die niedrigste Trumpfkarte gegen die offen aufliegende Trumpfkarte
    austauschen"."""
    game = deal_game("66", "9c Jc Kh Qh As Ts", "Ah Th Ks Qs Js 9s", "Kc")
    game.exchange_trump()
    assert Card.parse("Kc") in game.hands[0] and game.trump_card == Card.parse("9c")


def test_the_trump_unter_is_not_exchanged_in_66() -> None:
    """seeds/000: the exchange card is "die niedrigste Trumpfkarte": the Nine, not the Unter."""
    game = deal_game("66", "Jc Kh Qh As Ts 9h", "Ah Th Ks Qs Js 9s", "Kc")
    err = assert_refused(game, "exchange", Rule.EXCHANGE)
    assert "9c" in str(err)


def test_nines_count_nothing() -> None:
    """seeds/000: "Neuner 0 Augen"."""
    assert Card.parse("9h").augen == 0
    assert sum(c.augen for c in deck(24)) == 120


def end_position(lead: str, follow: str, won0: str, won1: str, marriages: str = "-") -> Game:
    """Talon exhausted, one card each, seat 0 to lead."""
    return position("66", 0, "c", lead, follow, won0=won0, won1=won1, marriages=marriages)


REST_65 = "Kh Qh Kd Qd Jd 9d Ac Tc Kc Qc Jc 9c Ts Ks Qs Js"


def test_last_trick_counts_ten_more() -> None:
    """seeds/000: "Bei Sechsendsechzig erhält man für den letzten Stich zusätzliche zehn Augen."."""
    game = end_position("As", "9s", "Ah Th Ad Td Jh 9h Kh Qh", "Kd Qd Jd 9d Ac Tc Kc Qc Jc 9c Ts Ks Qs Js")
    apply_all(game, "As 9s")
    assert game.result is not None
    assert game.result.augen[0] == 51 + 11 + 10
    assert sum(game.result.augen) == 130


def test_after_the_last_trick_the_player_with_66_wins() -> None:
    """RULES.md: "Sechsundsechzig, end without declaration: after the last trick (with its 10) the
    player with 66 or more wins, scored by the opponent's Augen"."""
    game = end_position("As", "9s", "Ah Th Ad Td Jh 9h Kh Qh", "Kd Qd Jd 9d Ac Tc Kc Qc Jc 9c Ts Ks Qs Js")
    apply_all(game, "As 9s")
    assert game.result is not None
    assert (game.result.winner, game.result.points, game.result.reason) == (0, 1, EndReason.LAST_TRICK)
    assert game.result.augen == (72, 58)


def test_the_last_trick_itself_does_not_win_in_66() -> None:
    """RULES.md: in Sechsundsechzig "the player with 66 or more wins", even without the last trick
    (unlike Schnapsen, seeds/000: "Beim Schnapsen gewinnt der Spieler, der den letzten Stich
    erzielt")."""
    game = end_position("As", "9s", "Jh 9h Qd Jd", "Ah Th Kh Qh Ad Td Kd 9d Ac Tc Kc Qc Jc 9c Ts Ks Qs Js")
    apply_all(game, "As 9s")
    assert game.result is not None
    assert game.result.winner == 1 and game.result.reason is EndReason.LAST_TRICK
    assert game.result.augen == (7 + 21, 102)
    assert game.result.points == 2  # the loser has 28


def test_sixty_five_all_stands() -> None:
    """RULES.md: "65:65 scores nothing"; seeds/001 for the same count: "so gewinnt keiner von beiden
    (das Spiel steht)"."""
    game = end_position("As", "9s", "Ah Th Ad Td Jh 9h", REST_65)
    apply_all(game, "As 9s")
    assert game.result is not None
    assert game.result.augen == (65, 65)
    assert (game.result.winner, game.result.points, game.result.reason) == (None, 0, EndReason.STAND)


def test_both_over_66_the_last_trick_winner_wins() -> None:
    """Our choice (docs/rules.md): with marriages both may pass 66; the winner of the last trick
    reached it last and could have gone out then."""
    game = end_position(
        "9s", "As", "Qh Jh 9h Qd Jd 9d Ac Tc Kc Qc Jc 9c Ts Ks Qs Js", "Ah Th Ad Td Kh Kd", marriages="0h"
    )
    apply_all(game, "9s As")
    assert game.result is not None
    assert game.result.augen == (59 + 20, 50 + 21)
    assert (game.result.winner, game.result.points, game.result.reason) == (1, 1, EndReason.LAST_TRICK)


def closed_end(won0: str, won1: str) -> Game:
    """Seat 0 closed with three face-down cards left; one card each: As against 9s."""
    game = position("66", 0, "Jc", "As", "9s", talon="Qc Kc 9c", closed="0:20:1", won0=won0, won1=won1)
    apply_all(game, "As 9s")
    return game


def test_no_last_trick_bonus_after_closing() -> None:
    """seeds/000: "Diese Regel gilt allerdings nicht im Falle einer Talonsperre."."""
    game = closed_end("Ah Th Ad Td Ac Tc", "Kh Qh Jh 9h Kd Qd Jd 9d Ts Ks Qs Js")
    assert game.result is not None
    # 63 + the last trick's 11, no ten; Qc Kc 9c Jc (9 Augen) stay in the closed talon.
    assert game.result.augen == (74, 37)
    assert (game.result.winner, game.result.points, game.result.reason) == (0, 2, EndReason.CLOSER_WON)


def test_closer_at_65_without_the_bonus_fails() -> None:
    """seeds/000: no ten "im Falle einer Talonsperre", and "Kann der Spieler, der den Talon gesperrt
    hat, keine 66 Augen erzielen ... ansonsten 2 Punkte"."""
    game = closed_end("Ah Th Ad Td Kh Kd Jh Jd", "Qh 9h Qd 9d Ac Tc Ts Ks Qs Js")
    assert game.result is not None
    assert game.result.augen[0] == 65
    assert (game.result.winner, game.result.points, game.result.reason) == (1, 2, EndReason.CLOSER_FAILED)


@pytest.mark.parametrize(("won0", "points"), [("Jh Qh", 2), ("", 3), ("Ah Th Kh Qh Jh 9h Qs Js", 1)])
def test_declaration_points_as_in_schnapsen(won0: str, points: int) -> None:
    """seeds/000, "Das Ausmelden" (shared by both games): 3 without a trick, 2 up to 32, 1 from 33."""
    used = set(won0.split()) | set(["Ad", "Td", "Ac", "Tc", "As", "Ts", "Kd", "Kc"])
    rest = [c.code for c in deck(24) if c.code not in used]
    if len(rest) > 12:
        trump = next(c for c in rest if c.endswith("c"))
        rest.remove(trump)
        game = position(
            "66",
            1,
            trump,
            " ".join(rest[:6]),
            " ".join(rest[6:12]),
            talon=" ".join(rest[12:]),
            won0=won0,
            won1="Ad Td Ac Tc As Ts Kd Kc",
        )
    else:
        half = len(rest) // 2
        game = position(
            "66", 1, "c", " ".join(rest[:half]), " ".join(rest[half:]), won0=won0, won1="Ad Td Ac Tc As Ts Kd Kc"
        )
    game.declare()
    assert game.result is not None
    assert (game.result.winner, game.result.points, game.result.reason) == (1, points, EndReason.DECLARED)
