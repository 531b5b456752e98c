"""The research variants mini8, mini10, mini12 (issue 25, item 3; bummerl.variants.research): the engine's
invariants and every seat's view on random games (the property tests' checks), their thresholds stated here
apart from the code, and that people are not offered them."""

from __future__ import annotations

import argparse

import pytest
from hypothesis import given

from bummerl.cards import Card, deck, format_cards
from bummerl.commands import add_variant_arguments
from bummerl.commands import play as play_command
from bummerl.errors import UnknownVariantError
from bummerl.game import Game
from bummerl.rng import SplitMix64
from bummerl.variants import RESEARCH_VARIANTS, VARIANTS, EndReason, TwoPlayerVariant, find_variant
from helpers import random_policy
from test_properties import (
    SEEDS,
    check_actions,
    check_augen,
    check_conservation,
    check_position,
    check_views,
    examples,
    learn,
)

#: The table of bummerl.variants.research, written out: pack, hand, going out, Schneider below.
TABLE = {
    "mini8": ("AhThKhQhAdTdKdQd", 3, 31, 16),
    "mini10": ("AhThKhQhJhAdTdKdQdJd", 3, 33, 17),
    "mini12": ("AhThKhQhJh9hAdTdKdQdJd9d", 3, 33, 17),
}


def check_result(game: Game, target: int, schneider: int) -> None:
    """The result of a finished research game, by the thresholds of :data:`TABLE` (Schnapsen's scoring)."""
    r = game.result
    assert r is not None and r.winner in (0, 1)
    winner, loser = r.winner, 1 - r.winner
    classes = 3 if not game.tricks_won[loser] else 2 if r.augen[loser] < schneider else 1
    if r.reason is EndReason.DECLARED:
        assert r.augen[winner] >= target and r.points == classes
    elif r.reason is EndReason.WRONG_DECLARATION:
        assert r.augen[loser] < target
    elif r.reason is EndReason.CLOSER_WON:
        assert game.closed_by == winner and r.augen[winner] >= target
    elif r.reason is EndReason.CLOSER_FAILED:
        assert game.closed_by == loser and r.points in (2, 3)
    else:
        assert r.reason is EndReason.LAST_TRICK and r.points == 1 and game.tricks[-1].winner == winner
        assert sum(game.trick_augen) == sum(c.augen for c in deck(game.variant.deck_size))


def play(variant: TwoPlayerVariant, deal_seed: int, play_seed: int, full: bool = True) -> Game:
    """A random game with every check of the property tests at every step (``full``; else at the end)."""
    game = Game.deal(variant, seed=deal_seed, dealer=deal_seed & 1)
    rng = SplitMix64(play_seed)
    may_know: list[set[Card]] = [set(), set()]
    learn(game, may_know)
    while not game.is_over:
        if full:
            check_conservation(game)
            check_augen(game)
            check_actions(game)
            check_position(game)
            check_views(game, may_know)
        game.apply(random_policy(game, rng))
        learn(game, may_know)
    check_conservation(game)
    check_views(game, may_know)
    _, _, target, schneider = TABLE[variant.name]
    check_result(game, target, schneider)
    return game


@pytest.mark.parametrize("name", sorted(TABLE))
def test_the_variant_is_the_table_of_its_docstring(name: str) -> None:
    pack, hand, target, schneider = TABLE[name]
    v = find_variant(name)
    assert isinstance(v, TwoPlayerVariant)
    assert format_cards(deck(v.deck_size)) == pack and v.hand_size == hand
    assert v.target == target
    assert (v.game_points(schneider - 1, True), v.game_points(schneider, True), v.game_points(0, False)) == (2, 1, 3)
    assert not v.marriages and v.trump_exchange and v.exchange_rank == min(c.rank for c in deck(v.deck_size))


@pytest.mark.parametrize("name", sorted(TABLE))
@examples(60)
@given(deal_seed=SEEDS, play_seed=SEEDS)
def test_random_games_keep_the_engines_invariants_and_every_view(name: str, deal_seed: int, play_seed: int) -> None:
    play(TwoPlayerVariant.find(name), deal_seed, play_seed)


def test_random_play_reaches_the_endings_of_schnapsen() -> None:
    # Going out, closing (won and failed), the last trick and wrong declarations all happen in mini8.
    mini8 = TwoPlayerVariant.find("mini8")
    seen = {play(mini8, seed, seed * 7 + 1, full=False).result.reason for seed in range(300)}  # type: ignore[union-attr]
    assert {EndReason.DECLARED, EndReason.WRONG_DECLARATION, EndReason.LAST_TRICK} <= seen
    assert seen & {EndReason.CLOSER_WON, EndReason.CLOSER_FAILED}


def test_research_variants_are_found_but_not_listed_for_players() -> None:
    assert [v.name for v in RESEARCH_VARIANTS] == ["mini8", "mini10", "mini12"]
    assert not set(RESEARCH_VARIANTS) & set(VARIANTS)
    assert all(v.for_players for v in VARIANTS) and not any(v.for_players for v in RESEARCH_VARIANTS)
    assert Game.deal("mini8", seed=1).variant.name == "mini8"


def test_bummerl_play_refuses_a_research_variant() -> None:
    parser = argparse.ArgumentParser()
    add_variant_arguments(parser)
    parser.add_argument("--auto-declare", action="store_true")
    with pytest.raises(UnknownVariantError, match="research variant"):
        play_command.run(parser.parse_args(["--variant", "mini8"]))


def test_the_web_app_has_no_table_for_a_research_variant() -> None:
    families = pytest.importorskip("bummerl.server.families")
    with pytest.raises(UnknownVariantError, match="no table"):
        families.family_of("mini8")
    assert "mini8" not in {v.name for family in families.FAMILIES for v in family.variants()}
