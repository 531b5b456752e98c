"""The one-line position form (bummerl.position): round trips and every parse error."""

from __future__ import annotations

import pytest

from bummerl.errors import PositionError, UnknownVariantError
from bummerl.game import Game
from helpers import apply_all, deal_game, random_playout

START = "schnapsen 1 0 Kc JcKhQhAsTs/AhThKsQsJs JhAdTdKdQdJdAcTcQc - - -/- -"


def opening() -> Game:
    return deal_game("schnapsen", "Jc Kh Qh As Ts", "Ah Th Ks Qs Js", "Kc")


def test_position_of_a_deal() -> None:
    assert opening().position() == START


def test_known_cards_lead_closing_and_marriages_are_written() -> None:
    game = opening()
    apply_all(game, "exchange marry:Kh Ah")  # seat 1 wins, draws Jh; seat 0 draws Ad
    apply_all(game, "close Js")  # seat 1 closes: seat 0 has no trick, its 20 do not count
    text = game.position()
    assert text == "schnapsen 1 0 Jc Kc!Qh!AsTsAd/ThKsQsJh TdKdQdJdAcTcQc 1:0:0 Js -/KhAh 0h"
    again = Game.from_position(text)
    assert again.position() == text
    assert again.known[0] == {game.hands[0][0], game.hands[0][1]}
    assert again.legal_actions() == game.legal_actions()


@pytest.mark.parametrize("variant", ["schnapsen", "scharf", "66", "schnorps"])
def test_round_trip_along_random_games(variant: str) -> None:
    """Every position reached in play reads back to the same text and the same legal actions."""
    for seed in range(20):
        replay = Game.deal(variant, seed=seed)
        for action in random_playout(Game.deal(variant, seed=seed), seed):
            text = replay.position()
            back = Game.from_position(text)
            assert back.position() == text
            assert back.legal_actions() == replay.legal_actions()
            assert [back.augen(0), back.augen(1)] == [replay.augen(0), replay.augen(1)]
            replay.apply(action)


def test_finished_game_has_no_position() -> None:
    game = Game.from_position("schnapsen 1 1 c -/As - - Ks AhThKhQhJhAdTdKdQdJd/AcTcKcQcJcTsQsJs -")
    game.apply("As")
    assert game.is_over
    with pytest.raises(PositionError, match="finished game"):
        game.position()


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("schnapsen 1 0", "10 fields"),
        (START.replace("schnapsen 1 0", "schnapsen 2 0"), "dealer must be 0 or 1"),
        (START.replace("schnapsen 1 0", "schnapsen 1 x"), "to_move must be 0 or 1"),
        (START.replace("JcKhQhAsTs/", "JcKhQhAsTs"), "hand0/hand1"),
        (START.replace("JcKhQhAsTs", "JcKhQhAsAs"), "twice: As"),
        (START.replace("JcKhQhAsTs", "JcKhQhAs"), "missing: Ts"),
        (START.replace("JcKhQhAsTs", "JcKhQhAsZz"), "malformed position"),
        (START.replace(" -/- -", " -/-/- -"), "won0/won1"),
        (START.replace(" - - -/- -", " - - -/- 0h1h"), "only once"),
        (START.replace(" - - -/- -", " - - -/- 0"), "player-suit pairs"),
        (START.replace(" - - -/- -", " 0:1 - -/- -"), "closer:augen:had_trick"),
        (START.replace(" - - -/- -", " 0:1:x - -/- -"), "closer:augen:had_trick"),
        (START.replace(" - - -/- -", " 0:-3:1 - -/- -"), "closer:augen:had_trick"),
        ("skat" + START[9:], "unknown variant"),
        ("schnapsen:colour=red" + START[9:], "no option 'colour'"),
    ],
)
def test_malformed_positions(text: str, message: str) -> None:
    """Issue: malformed positions give "a clear error naming the problem"."""
    with pytest.raises((PositionError, UnknownVariantError), match=message):
        Game.from_position(text)


def test_impossible_positions() -> None:
    # Odd trick pile, wrong hand sizes, the player to move without cards, too many cards,
    # trump card without talon.
    cases = {
        "schnapsen 1 0 c AhThKhQhJ/AdTdKdQdJd - - - AcTcKcQcJcAsTsKsQs/Js -": "malformed",
        "schnapsen 1 0 c AhThKhQh/AdTdKdQdJd - - - AcTcKcQcJc/AsTsKsQsJsJh -": "even number",
        "schnapsen 1 0 c AhThKhQh/AdTdKdQdJdJh - - - AcTcKcQc/JcAsTsKsQsJs -": "hand sizes",
        "schnapsen 1 0 c -/- - - - AhThKhQhJhAdTdKdQdJd/AcTcKcQcJcAsTsKsQsJs -": "no cards",
        "schnapsen 1 0 c AhThKhQhJhAd/TdKdQdJdAcTc - - - KcQc/JcAsTsKsQsJs -": "at most 5",
        "schnapsen 1 0 c AhThKhQhJh/AdTdKdQdJd JcQc - - AcTcKcAs/TsKsQsJs -": "exactly while",
    }
    for text, message in cases.items():
        with pytest.raises(PositionError, match=message):
            Game.from_position(text)
