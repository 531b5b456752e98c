"""Errors: each names the problem; an illegal action names its rule and changes nothing.

Issue, "Bad input": "Illegal actions, malformed records and positions, unknown
variant names: a clear error naming the problem; a failed action leaves the game
exactly as it was."
"""

from __future__ import annotations

import pytest

from bummerl.actions import Action
from bummerl.cards import Card
from bummerl.errors import (
    BummerlError,
    IllegalActionError,
    PositionError,
    RecordError,
    Rule,
    UnknownVariantError,
)
from bummerl.game import Game
from helpers import apply_all, assert_refused, deal_game, position


def opening() -> Game:
    return deal_game("schnapsen", "Jc Kh Qh As Ts", "Ah Th Ks Qs Js", "Kc")


def test_every_error_is_a_value_error() -> None:
    for cls in (IllegalActionError, PositionError, RecordError, UnknownVariantError):
        assert issubclass(cls, BummerlError) and issubclass(cls, ValueError)


def test_illegal_action_error_carries_rule_and_source() -> None:
    err = IllegalActionError(Rule.FARBZWANG, "must follow Hearts")
    assert err.rule is Rule.FARBZWANG and err.detail == "must follow Hearts"
    assert str(err) == "illegal action (Farbzwang): must follow Hearts"
    assert "Farbzwang geht immer vor Stichzwang" in Rule.FARBZWANG.source


def test_every_rule_cites_a_source() -> None:
    for rule in Rule:
        assert rule.title and rule.source


def test_card_not_in_hand() -> None:
    game = opening()
    err = assert_refused(game, "Ah", Rule.NOT_IN_HAND)
    assert "Ah" in str(err)


def test_follow_errors_name_the_allowed_cards() -> None:
    """seeds/000: "Farbzwang geht immer vor Stichzwang"."""
    game = position(
        "schnapsen",
        1,
        "c",
        "Kd Qd Jd Qs",
        "Ah Jh Ac Ad As",
        lead="Kh",
        won0="Th Qh Td Jc Ts Js",
        won1="Tc Kc Qc Ks",
    )
    err = assert_refused(game, "Ac", Rule.FARBZWANG)
    assert "allowed: Ah" in str(err)
    assert_refused(game, "Jh", Rule.STICHZWANG)


def test_trumpfzwang() -> None:
    """seeds/000: "Ist das nicht möglich, so muss er mit einer Trumpfkarte stechen"."""
    game = position(
        "schnapsen",
        1,
        "c",
        "Kd Qd Jd Qs",
        "Ac Tc Ad As Ks",
        lead="Kh",
        won0="Th Qh Td Jc Ts Js",
        won1="Ah Jh Kc Qc",
    )
    assert_refused(game, "Ad", Rule.TRUMPFZWANG)


def test_on_lead_actions_while_following() -> None:
    """RULES.md: exchange, closing, marriages and declaring belong to the player on lead."""
    game = deal_game("schnapsen", "As Ts Ks Qs Js", "Jc Kh Qh Ah Th", "Kc")
    game.apply("As")
    for token in ("exchange", "close", "marry:Kh", "declare", "declare:h"):
        assert_refused(game, token, Rule.NOT_ON_LEAD)


@pytest.mark.parametrize(
    ("tokens", "action", "rule", "words"),
    [
        ("", "exchange", Rule.EXCHANGE, "trump Jc"),
        ("As Qs", "marry:Ks", Rule.MARRIAGE, "King and Ober"),
        ("", "declare", Rule.DECLARE, "trick"),
        ("close", "close", Rule.CLOSE, "already closed"),
    ],
)
def test_on_lead_errors(tokens: str, action: str, rule: Rule, words: str) -> None:
    game = deal_game("schnapsen", "As Ts Kh Qh Ks", "Ah Th Jc Qs Js", "Kc")
    apply_all(game, tokens)
    err = assert_refused(game, action, rule)
    assert words in str(err)


def test_action_after_the_end() -> None:
    rest = "Ah Th Kh Ad Td Kd Qd Jd Ac Tc Kc Qc Jc Ts Qs Js"
    game = position("schnapsen", 0, "c", "As", "Ks", won0="Jh Qh", won1=rest)
    apply_all(game, "As Ks")
    err = assert_refused(game, "Ks", Rule.GAME_OVER)
    assert "over" in str(err)


def test_unavailable_actions_in_schnorps_options() -> None:
    """RULES.md: Schnorps marriages and exchange are options; without them the action does not exist."""
    from bummerl.variants import find_variant

    v = find_variant("schnorps", marriages=False, trump_exchange=False)
    game = deal_game(v, "7c Kh Qh As Ts 8s", "Ah Th Ks Qs Js 9s", "Kc")
    apply_all(game, "As 9s")
    assert_refused(game, "marry:Kh", Rule.NOT_AVAILABLE)
    assert_refused(game, "exchange", Rule.NOT_AVAILABLE)


def test_named_triples_raise_like_apply() -> None:
    """PokerKit style: can_… is a bool, verify_… raises naming the rule, the action itself too."""
    game = opening()
    game.apply("As")
    assert not game.can_close_talon()
    with pytest.raises(IllegalActionError) as info:
        game.verify_close_talon()
    assert info.value.rule is Rule.NOT_ON_LEAD
    with pytest.raises(IllegalActionError):
        game.close_talon()
    with pytest.raises(IllegalActionError, match="King or Ober"):
        game.verify_announce_marriage(Card.parse("Ah"))
    assert not game.can_announce_marriage(Card.parse("Ah"))


def test_malformed_action_token() -> None:
    with pytest.raises(RecordError, match="malformed action 'marry:Ah'"):
        Action.parse("marry:Ah")
    with pytest.raises(RecordError, match="malformed action 'fold'"):
        opening().apply("fold")


def test_bad_deck_names_missing_and_extra_cards() -> None:
    from bummerl.cards import deck

    pack = list(deck(20))
    pack[0] = Card.parse("9h")
    with pytest.raises(ValueError, match="missing Ah; not in this pack: 9h"):
        Game.from_deck("schnapsen", pack)
    with pytest.raises(ValueError, match="got 19 cards"):
        Game.from_deck("schnapsen", deck(20)[1:])
    with pytest.raises(ValueError, match="dealer must be seat 0 or 1"):
        Game.from_deck("schnapsen", deck(20), dealer=2)


def test_unknown_variant() -> None:
    with pytest.raises(UnknownVariantError, match="unknown variant 'doppelkopf'"):
        Game.deal("doppelkopf")
