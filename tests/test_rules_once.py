"""Each rule is written once: the function that refuses an action also generates the legal actions.

Issue #11, "Each rule written once": "One definition per rule answers both 'is it
legal' and 'why not'."  For random positions of every variant (hypothesis draws
the deal and the path through the game), each rule function agrees with the
generator: an action is in ``legal_actions()`` exactly when its refusal is
``None``, and ``verify`` raises exactly the refusal's rule and detail.

Two-player rules (:mod:`bummerl.game`): :func:`exchange_refusal`,
:func:`close_refusal`, :func:`marriage_refusal` with
:func:`marriage_card_refusal`, :func:`declare_refusal`, and the follow rules
(:func:`bummerl.rules.tricks.follow_refusal`).  Table rules (:mod:`bummerl.table_game`):
the phase gate, the trump call, passing, bidding, the raise after the talon, the
talon steps, doubling, marriages, "Genug" and the follow rules.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bummerl.actions import Action, ActionKind
from bummerl.cards import Card, Rank, Suit, deck
from bummerl.errors import IllegalActionError, Refusal
from bummerl.game import Game
from bummerl.rng import SplitMix64
from bummerl.rules.talon import (
    close_refusal,
    declare_refusal,
    exchange_refusal,
    marriage_card_refusal,
    marriage_refusal,
)
from bummerl.rules.tricks import FollowRules, follow_refusal
from bummerl.table_game import TableGame
from bummerl.variants import TwoPlayerVariant, find_table_variant, find_variant
from bummerl.variants.bauernschnapsen import Phase, TableVariant
from helpers import random_playout

EXAMPLES = settings(max_examples=60, deadline=None, database=None, suppress_health_check=[HealthCheck.too_slow])
SEEDS = st.integers(min_value=0, max_value=2**64 - 1)

TWO_PLAYER: dict[str, TwoPlayerVariant] = {
    "schnapsen": find_variant("schnapsen"),
    "scharf": find_variant("scharf"),
    "66": find_variant("66"),
    "schnorps": find_variant("schnorps"),
    "schnapsen-auto": find_variant("schnapsen", auto_declare=True),
    "schnorps-plain": find_variant("schnorps", marriages=False, trump_exchange=False),
}
TABLE: dict[str, TableVariant] = {
    "bauernschnapsen": find_table_variant("bauernschnapsen"),
    "bauernschnapsen-options": find_table_variant(
        "bauernschnapsen", assen_bettler=True, bauernloch=True, max_doubling=2, kontra_beats_bettler=True
    ),
    "bauernschnapsen-no-doubling": find_table_variant("bauernschnapsen", max_doubling=0, three_unter_redeal=False),
    "dreierschnapsen": find_table_variant("dreierschnapsen"),
    "dreierschnapsen-talon": find_table_variant(
        "dreierschnapsen", raise_after_talon=True, may_skip_talon=True, max_doubling=1
    ),
}

_MARRIAGE_CARDS = [Card(s, r) for s in Suit for r in (Rank.KING, Rank.OBER)]
#: Every action of the two-player games, and some of the table games' (refused there).
TWO_PLAYER_ACTIONS: list[Action] = [
    *(Action.play(c) for c in deck(32)),
    *(Action.marriage(c) for c in _MARRIAGE_CARDS),
    Action.exchange(),
    Action.close(),
    Action.declare(),
    *(Action.declare(s) for s in Suit),
    Action.cut(),
    Action.call_trump(Suit.HEARTS),
    Action.bid("normal"),
    Action.pass_(),
    Action.double(1),
]


def table_actions(v: TableVariant) -> list[Action]:
    """Every action a table game knows, bids of unknown contracts and two-player actions too."""
    return [
        Action.cut(),
        Action.knock(),
        *(Action.call_trump(s) for s in Suit),
        Action.turn_trump(),
        *(Action.bid(c.name) for c in v.contracts),
        Action.bid("nonsense"),
        Action.pass_(),
        *(Action.double(level) for level in (1, 2, 3)),
        Action.take_talon(),
        Action.skip_talon(),
        *(Action.discard(c) for c in deck(20)),
        *(Action.play(c) for c in deck(20)),
        *(Action.marriage(c) for c in _MARRIAGE_CARDS),
        Action.declare(),
        *(Action.declare(s) for s in Suit),
        Action.exchange(),
        Action.close(),
    ]


# ---------------------------------------------------------------- positions


def two_player_positions(variant: str, seed: int) -> Iterator[Game]:
    """The positions of one random game, before each action and at its end."""
    game = Game.deal(TWO_PLAYER[variant], seed, dealer=seed % 2)
    for _ in random_playout(game, seed ^ 0x0E1CE):
        yield game
    yield game


def table_positions(variant: str, seed: int) -> Iterator[TableGame]:
    """The positions of one random table game, before each action and at its end."""
    v = TABLE[variant]
    table = TableGame.deal(v, seed=seed, dealer=seed % v.players)
    rng = SplitMix64(seed ^ 0x7AB1E)
    while not table.is_over:
        yield table
        legal = table.legal_actions()
        table.apply(legal[rng.below(len(legal))])
    yield table


def assert_refused_as(state: Game | TableGame, action: Action, why: Refusal) -> None:
    with pytest.raises(IllegalActionError) as info:
        state.verify(action)
    assert (info.value.rule, info.value.detail) == why


def lead_state(game: Game) -> tuple[TwoPlayerVariant, list[Card], Suit, int, bool, bool, bool]:
    """The arguments the two-player rule functions take, for the player on lead."""
    p = game.to_move
    return (
        game.variant,
        game.hands[p],
        game.trump,
        len(game.talon),
        game.closed_by is not None,
        game.first_lead_done,
        game.tricks_won[p] > 0,
    )


def on_lead(game: Game) -> bool:
    return not game.is_over and game.lead is None


# ------------------------------------------------------- two-player games


@pytest.mark.parametrize("variant", sorted(TWO_PLAYER))
@given(seed=SEEDS)
@EXAMPLES
def test_refusal_is_none_exactly_for_the_legal_actions(variant: str, seed: int) -> None:
    """Every action: legal iff ``refusal`` is None; ``verify`` raises the refusal itself."""
    for game in two_player_positions(variant, seed):
        legal = set(game.legal_actions())
        for action in TWO_PLAYER_ACTIONS:
            why = game.refusal(action)
            assert (why is None) == (action in legal), (game.position(), action, why)
            if why is not None:
                assert_refused_as(game, action, why)


@pytest.mark.parametrize("variant", sorted(TWO_PLAYER))
@given(seed=SEEDS)
@EXAMPLES
def test_exchange_refusal_agrees_with_the_generator(variant: str, seed: int) -> None:
    exchange = Action.exchange()
    for game in filter(on_lead, two_player_positions(variant, seed)):
        why = exchange_refusal(*lead_state(game))
        assert (why is None) == (exchange in game.legal_actions())
        assert game.refusal(exchange) == why


@pytest.mark.parametrize("variant", sorted(TWO_PLAYER))
@given(seed=SEEDS)
@EXAMPLES
def test_close_refusal_agrees_with_the_generator(variant: str, seed: int) -> None:
    close = Action.close()
    for game in filter(on_lead, two_player_positions(variant, seed)):
        v, _, _, face_down, closed, _, has_trick = lead_state(game)
        why = close_refusal(v, face_down, closed, has_trick)
        assert (why is None) == (close in game.legal_actions())
        assert game.refusal(close) == why


@pytest.mark.parametrize("variant", sorted(TWO_PLAYER))
@given(seed=SEEDS)
@EXAMPLES
def test_marriage_refusals_agree_with_the_generator(variant: str, seed: int) -> None:
    """Showing the marriage (``marriage_refusal``), then the card led (``marriage_card_refusal``)."""
    for game in filter(on_lead, two_player_positions(variant, seed)):
        v, hand, _, face_down, _, _, has_trick = lead_state(game)
        legal = game.legal_actions()
        for card in _MARRIAGE_CARDS:
            why = marriage_refusal(v, hand, card.suit, face_down, has_trick) or marriage_card_refusal(v, card)
            action = Action.marriage(card)
            assert (why is None) == (action in legal), (game.position(), card)
            assert game.refusal(action) == why


@pytest.mark.parametrize("variant", sorted(TWO_PLAYER))
@given(seed=SEEDS)
@EXAMPLES
def test_declare_refusal_agrees_with_the_generator(variant: str, seed: int) -> None:
    """Going out alone, and at once after showing a marriage (its rule first)."""
    for game in filter(on_lead, two_player_positions(variant, seed)):
        v, hand, _, face_down, _, _, has_trick = lead_state(game)
        legal = game.legal_actions()
        why = declare_refusal(v, has_trick)
        assert (why is None) == (Action.declare() in legal)
        assert game.refusal(Action.declare()) == why
        for suit in Suit:
            why = marriage_refusal(v, hand, suit, face_down, has_trick) or declare_refusal(v, has_trick)
            assert (why is None) == (Action.declare(suit) in legal)
            assert game.refusal(Action.declare(suit)) == why


@pytest.mark.parametrize("variant", sorted(TWO_PLAYER))
@given(seed=SEEDS)
@EXAMPLES
def test_follow_refusal_agrees_with_the_generator(variant: str, seed: int) -> None:
    """The follow rules of :mod:`bummerl.rules.tricks`, free while the talon is open."""
    for game in two_player_positions(variant, seed):
        if game.is_over or game.lead is None:
            continue
        hand = game.hands[game.to_move]
        rules = FollowRules.STRICT if game.strict else FollowRules.FREE
        legal = game.legal_actions()
        for card in hand:
            why = follow_refusal(card, hand, (game.lead,), game.trump, rules)
            assert (why is None) == (Action.play(card) in legal)
            assert game.refusal(Action.play(card)) == why


@pytest.mark.parametrize("variant", sorted(TWO_PLAYER))
@given(seed=SEEDS)
@EXAMPLES
def test_views_ask_the_same_rules(variant: str, seed: int) -> None:
    """A view's legal actions come from the same rule functions as the game's."""
    for game in two_player_positions(variant, seed):
        if not game.is_over:
            assert game.view(game.to_move).legal_actions() == game.legal_actions()


# ------------------------------------------------------------ table games


@pytest.mark.parametrize("variant", sorted(TABLE))
@given(seed=SEEDS)
@EXAMPLES
def test_table_refusal_is_none_exactly_for_the_legal_actions(variant: str, seed: int) -> None:
    """Every action, in every phase: legal iff ``refusal`` is None; ``verify`` raises the refusal."""
    actions = table_actions(TABLE[variant])
    for table in table_positions(variant, seed):
        legal = set(table.legal_actions())
        for action in actions:
            why = table.refusal(action)
            assert (why is None) == (action in legal), (table.position(), action, why)
            if why is not None:
                assert_refused_as(table, action, why)


@pytest.mark.parametrize("variant", sorted(TABLE))
@given(seed=SEEDS)
@EXAMPLES
def test_table_rule_methods_agree_with_the_generator(variant: str, seed: int) -> None:
    """Each rule method of the table game, in the phase it rules, against ``legal_actions()``."""
    v = TABLE[variant]
    for table in table_positions(variant, seed):
        p = table.to_move
        legal = table.legal_actions()
        phase = table.phase
        if phase is Phase.TRUMP:
            for call in (Action.call_trump(s) for s in Suit):
                assert (table._trump_call_refusal(p, call) is None) == (call in legal)
        elif phase is Phase.BIDDING:
            assert (table._pass_refusal() is None) == (Action.pass_() in legal)
            for c in v.contracts:
                assert (table._bid_refusal(p, c) is None) == (Action.bid(c.name) in legal)
        elif phase is Phase.TALON:
            for action in table_actions(v):
                if action.kind in (ActionKind.DISCARD, ActionKind.TAKE_TALON, ActionKind.SKIP_TALON):
                    assert (table._talon_refusal(p, action) is None) == (action in legal)
            if table._talon_step() == "raise":
                for c in v.contracts:
                    assert (table._raise_refusal(p, c) is None) == (Action.bid(c.name) in legal)
        elif phase is Phase.DOUBLING:
            for level in (1, 2, 3):
                assert (table._double_refusal(level) is None) == (Action.double(level) in legal)
            assert table.can_double() == (Action.double(table.doubling + 1) in legal)
        elif phase is Phase.PLAY:
            check_play_rules(table, p, legal)


def check_play_rules(table: TableGame, p: int, legal: list[Action]) -> None:
    hand = table.hands[p]
    if table.trick:
        c = table.contract
        assert c is not None
        cards = [x for _, x in table.trick]
        for card in hand:
            why = follow_refusal(card, hand, cards, table.play_trump, FollowRules.STRICT, True, c.order)
            assert (why is None) == (Action.play(card) in legal)
        return
    for card in _MARRIAGE_CARDS:
        assert (table._marriage_refusal(p, card.suit) is None) == (Action.marriage(card) in legal)
    assert (table._genug_refusal(with_marriage=False) is None) == (Action.declare() in legal)
    for suit in Suit:
        why = table._genug_refusal(with_marriage=True) or table._marriage_refusal(p, suit)
        assert (why is None) == (Action.declare(suit) in legal)


def test_the_marriage_value_and_the_siegpunkte_are_written_once() -> None:
    """The 20/40 of a marriage (seeds/000: "Eine Ansage mit Atout zählt 40 Augen ... in einer anderen Farbe
    zählt 20 Augen") and the 3/2/1 game points by the loser's Augen (seeds/000: "keinen Stich ... drei Punkte,
    ... 32 oder weniger Augen ... zwei Punkte, ... 33 oder mehr Augen ... einen Punkt") are one function each
    in bummerl.cards; no other module of the package, and no script of the web page, restates them."""
    import re
    from pathlib import Path

    import bummerl

    root = Path(bummerl.__file__).parent
    marriage = re.compile(r"\b40 if\b.*\belse 20\b|\b20 if\b.*\belse 40\b|\? 40 : 20\b")
    points = re.compile(r"<=? ?3[23]\b")  # the Schneider line: "32 oder weniger Augen"
    offenders = []
    for path in [*root.rglob("*.py"), *root.rglob("*.js")]:
        if path.name == "cards.py" and path.parent == root:
            continue
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if marriage.search(line) or (path.suffix == ".py" and points.search(line)):
                offenders.append(f"{path.relative_to(root)}:{number}: {line.strip()}")
    assert offenders == []
