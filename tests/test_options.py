"""Variant options: the choices RULES.md makes options, how they are set and where they show.

RULES.md: "Every option below must exist, be documented in the project's own rules
page, and have tests."  The rule effect of each option is tested in the variant's
rule module; here: names, values, defaults, errors and the round trip through
positions.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from bummerl.errors import UnknownVariantError
from bummerl.game import Game
from bummerl.variants import (
    SCHARF,
    SCHNAPSEN,
    SCHNORPS,
    SECHSUNDSECHZIG,
    TABLE_VARIANTS,
    TWO_PLAYER_VARIANTS,
    VARIANTS,
    TwoPlayerVariant,
    find_variant,
)
from helpers import apply_all, deal_game

RULES_PAGE = Path(__file__).resolve().parent.parent / "docs" / "rules.md"


@pytest.mark.parametrize(
    ("variant", "options"),
    [
        (SCHNAPSEN, {"auto_declare", "count_after_closing", "last_trick_scoring", "close_min_facedown"}),
        (SCHARF, {"auto_declare", "count_after_closing", "last_trick_scoring", "close_min_facedown"}),
        # The last trick does not decide Sechsundsechzig (66 does): no last_trick_scoring.
        (SECHSUNDSECHZIG, {"auto_declare", "count_after_closing", "close_min_facedown"}),
        (SCHNORPS, {"auto_declare", "marriages", "trump_exchange", "close_min_facedown"}),
    ],
)
def test_each_variant_names_its_options(variant: TwoPlayerVariant, options: set[str]) -> None:
    """RULES.md names auto_declare, last-trick scoring, count_after_closing, close_min_facedown (every
    variant with closing) and (issue) "Schnorps marriages"; the trump-Seven exchange is the lead's added
    Schnorps option."""
    assert set(variant.OPTIONS) == options
    assert variant.options() == {}


@pytest.mark.parametrize(
    ("name", "default"),
    [("auto_declare", False), ("count_after_closing", False), ("last_trick_scoring", "one")],
)
def test_schnapsen_defaults(name: str, default: object) -> None:
    """RULES.md: auto_declare "off for bots and tournaments"; count at closing "(default)"; last
    trick "Default: 1 game point"."""
    assert getattr(SCHNAPSEN, name) == default


def test_schnorps_defaults_follow_the_seed() -> None:
    """Lead's decision: seeds/001 describes marriages ("Die Mariagen werden während des Spiels
    vorgezeigt") and robbing ("Wer die Trumpfsieben hat ... (rauben)"), so both are on by default."""
    assert SCHNORPS.marriages and SCHNORPS.trump_exchange


def test_options_are_set_by_find_variant_and_with_options() -> None:
    v = find_variant("schnapsen", count_after_closing=True)
    assert v.count_after_closing and v.name == "schnapsen"
    assert v.options() == {"count_after_closing": True}
    assert v == SCHNAPSEN.with_options(count_after_closing=True)
    assert SCHNAPSEN.count_after_closing is False  # the built-in stays unchanged


@pytest.mark.parametrize(("text", "value"), [("true", True), ("on", True), ("1", True), ("no", False), ("0", False)])
def test_boolean_options_accept_text(text: str, value: bool) -> None:
    """Options arrive as text from positions, records and the command line."""
    assert SCHNAPSEN.with_options(auto_declare=text).auto_declare is value


def test_unknown_option_names_the_known_ones() -> None:
    with pytest.raises(
        UnknownVariantError, match="auto_declare, close_min_facedown, count_after_closing, last_trick_scoring"
    ):
        SCHNAPSEN.with_options(colour="blue")
    with pytest.raises(UnknownVariantError, match="schnorps has no option 'count_after_closing'"):
        SCHNORPS.with_options(count_after_closing=True)


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"auto_declare": "maybe"}, "true or false"),
        ({"last_trick_scoring": "double"}, "'one' or 'augen'"),
        ({"last_trick_scoring": 1}, "must be str"),
    ],
)
def test_bad_option_values(options: dict[str, object], message: str) -> None:
    with pytest.raises(UnknownVariantError, match=message):
        SCHNAPSEN.with_options(**options)


def test_unknown_variant_names_the_known_ones() -> None:
    with pytest.raises(UnknownVariantError, match=r"known names: .*66, bauern"):
        find_variant("skat")


def test_option_help_covers_every_option() -> None:
    for v in VARIANTS:
        helps = v.option_help()
        assert set(helps) == set(v.OPTIONS) and all(helps.values()), v.name


def test_options_survive_the_position_round_trip() -> None:
    """A position names the options that differ from the default (bummerl.position)."""
    v = find_variant("schnapsen", last_trick_scoring="augen", auto_declare=True)
    game = Game.deal(v, seed=5)
    text = game.position()
    assert text.split()[0] == "schnapsen:auto_declare=true,last_trick_scoring=augen"
    assert Game.from_position(text).variant == v


def test_auto_declare_removes_declare_actions() -> None:
    """RULES.md: with auto_declare "66 ends the game automatically": no explicit declaration."""
    plain = deal_game("schnapsen", "Jc Kh Qh As Ts", "Ah Th Ks Qs Js", "Kc")
    auto = deal_game(find_variant("schnapsen", auto_declare=True), "Jc Kh Qh As Ts", "Ah Th Ks Qs Js", "Kc")
    apply_all(plain, "As Ks")
    apply_all(auto, "As Ks")
    assert {"declare", "declare:h"} <= {a.token for a in plain.legal_actions()}
    assert not any(a.token.startswith("declare") for a in auto.legal_actions())


def test_every_option_is_documented_in_the_rules_page() -> None:
    """RULES.md: every option must "be documented in the project's own rules page"."""
    text = RULES_PAGE.read_text(encoding="utf-8")
    for name in {name for v in TWO_PLAYER_VARIANTS for name in v.OPTIONS}:
        assert f"`{name}`" in text, name
    # The table games' options are on the pages of their own rules.
    text = "".join((RULES_PAGE.parent / f"{v.name}.md").read_text(encoding="utf-8") for v in TABLE_VARIANTS)
    for name in {name for v in TABLE_VARIANTS for name in v.OPTIONS}:
        assert f"`{name}`" in text, name
