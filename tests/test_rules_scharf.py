"""Schnapsen scharf: the Verschärfungen of seeds/000, each against weich.

seeds/000, "Das scharfe Schnapsen": "Die obigen Regeln beschreiben das sogenannte
weiche Schnapsen, beim scharfen/ harten Schnapsen gelten folgende Verschärfungen".
Everything not listed there is as in weich (tests/test_rules_schnapsen.py).
"""

from __future__ import annotations

import pytest

from bummerl.cards import Card
from bummerl.errors import Rule
from bummerl.game import Game
from bummerl.variants import SCHARF, EndReason, find_variant
from helpers import apply_all, assert_refused, deal_game, position

VORHAND = "Jc Kh Qh As Ts"
DEALER = "Ah Th Ks Qs Js"


def opening(variant: str) -> Game:
    return deal_game(variant, VORHAND, DEALER, "Kc")


def test_scharf_is_found_by_its_names() -> None:
    """RULES.md: "Schnapsen scharf ... the Verschärfungen of `000`"; issue: found by name or alias."""
    for name in ("scharf", "schnapsen-scharf", "hart", "SCHARF"):
        assert find_variant(name) is SCHARF


def test_no_exchange_before_vorhands_first_lead() -> None:
    """seeds/000: "Das Austauschen der Atoutkarte ist in den nachfolgenden Fällen nicht gestattet:
    vor dem ersten Ausspiel von Vorhand"."""
    assert opening("schnapsen").can_exchange_trump()
    game = opening("scharf")
    err = assert_refused(game, "exchange", Rule.EXCHANGE)
    assert "first lead" in str(err)


def test_exchange_allowed_after_the_first_lead() -> None:
    """seeds/000: only "vor dem ersten Ausspiel von Vorhand" is excluded."""
    game = opening("scharf")
    apply_all(game, "As Ks")
    assert game.can_exchange_trump()


@pytest.mark.parametrize(("variant", "allowed"), [("schnapsen", True), ("scharf", False)])
def test_exchange_with_one_face_down_card(variant: str, allowed: bool) -> None:
    """seeds/000 (scharf): "nicht gestattet ... wenn nur noch eine Karte verdeckt im Talon liegt";
    seeds/003 (weich): "Liegt nur mehr eine Karte als Talon auf der offenen Trumpfkarte, darf man
    austauschen"."""
    game = position(
        variant, 0, "Kc", "Jc Ah Th Kh Qh", "Ad Td Kd Qd Jd", talon="Qc", won0="Ac Tc As Ts", won1="Jh Ks Qs Js"
    )
    assert game.can_exchange_trump() is allowed
    if not allowed:
        err = assert_refused(game, "exchange", Rule.EXCHANGE)
        assert "one face-down" in str(err)


def test_exchange_with_three_face_down_cards_scharf() -> None:
    """seeds/000: the exchange itself stays ("Das Austauschen der Atout-Karte"), only its two cases
    are excluded."""
    game = position(
        "scharf", 0, "Kc", "Jc Ah Th Kh Qh", "Ad Td Kd Qd Jd", talon="Qc Js Qs", won0="Ac Tc", won1="As Ts Jh Ks"
    )
    assert game.can_exchange_trump()


def test_no_marriage_before_a_trick() -> None:
    """seeds/000: "Eine Ansage darf erst dann erfolgen, nachdem man zumindest einen Stich erzielt hat."."""
    game = opening("scharf")
    assert not any(a.token.startswith("marry") for a in game.legal_actions())
    err = assert_refused(game, "marry:Kh", Rule.MARRIAGE)
    assert "trick" in str(err)


def test_marriage_after_a_trick_must_lead_the_king() -> None:
    """seeds/000: "Wer eine Ansage macht, muss zum nächsten Stich den König ausspielen."."""
    game = opening("scharf")
    apply_all(game, "As Ks")
    tokens = {a.token for a in game.legal_actions()}
    assert "marry:Kh" in tokens and "marry:Qh" not in tokens
    err = assert_refused(game, "marry:Qh", Rule.MARRIAGE)
    assert "King" in str(err)
    game.apply("marry:Kh")
    assert game.lead == Card.parse("Kh")
    assert game.augen(0) == 15 + 20


def test_weich_may_lead_the_ober_with_a_marriage() -> None:
    """seeds/000 (weich): "muss eine der beiden Karten zum nächsten Stich ausspielen"."""
    game = opening("schnapsen")
    apply_all(game, "As Ks")
    assert game.can_announce_marriage(Card.parse("Qh"))


def test_no_running_totals_in_the_view() -> None:
    """seeds/000: "Abgelegte Stiche dürfen nichtmehr angesehen werden"; RULES.md: "the UI shows no
    running Augen total (weich shows it)"."""
    game = opening("scharf")
    apply_all(game, "As Ks")
    assert game.view(0).augen is None and game.view(1).augen is None
    weich = opening("schnapsen")
    apply_all(weich, "As Ks")
    assert weich.view(0).augen == (15, 0)


def test_totals_shown_once_the_game_is_over() -> None:
    """Our choice (docs/rules.md): at the end both players count ("jeder Spieler zählt die
    gesammelten Augen", seeds/000), so the final view carries the totals."""
    game = position("scharf", 0, "c", "As", "Ks", won0="Jh Qh", won1="Ah Th Kh Ad Td Kd Qd Jd Ac Tc Kc Qc Jc Ts Qs Js")
    apply_all(game, "As Ks")
    assert game.view(1).augen == (20, 100)


def test_scharf_scores_as_weich() -> None:
    """seeds/000 names no scoring Verschärfung: the declaration points are the same."""
    game = position("scharf", 1, "c", "Kh Qh Jh", "Qd Jd Qc", won0="Ah Th Jc Js", won1="Ad Td Ac Tc As Ts Kd Kc Ks Qs")
    game.declare()
    assert game.result is not None
    assert (game.result.winner, game.result.points, game.result.reason) == (1, 2, EndReason.DECLARED)


def test_closing_as_in_weich() -> None:
    """seeds/000: Zudrehen is no Verschärfung; RULES.md: "while at least two face-down cards remain"."""
    game = opening("scharf")
    game.close_talon()
    assert game.closed_by == 0


def test_scharf_hides_the_running_augen_and_weich_shows_them() -> None:
    """seeds/000 (scharf): "Abgelegte Stiche dürfen nicht mehr angesehen werden": the variant tells every front end
    (Variant.shows_augen) that the running count is not shown; weich and the table games show it."""
    assert SCHARF.shows_augen is False
    assert find_variant("schnapsen").shows_augen is True
    assert find_variant("bauernschnapsen").shows_augen is True
