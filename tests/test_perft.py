"""Perft counts as regression data, cross-checked by an independent action generator.

Issue: "Perft-like counts (number of action sequences to depth d from fixed deals)
kept as regression data."  ``tests/data/perft.json`` was generated once with
:func:`bummerl.perft.perft`.  So that the data is not circular, ``naive_legal``
below writes the rules again from the sources — straight from the seeds and
RULES.md, without the engine's generator — and must agree with the engine at
every node of the trees to depth 3.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bummerl.actions import ALL_ACTIONS
from bummerl.cards import Card, Rank, Suit
from bummerl.game import Game
from bummerl.perft import divide, perft

DATA = json.loads((Path(__file__).resolve().parent / "data" / "perft.json").read_text(encoding="utf-8"))
ENTRIES = DATA["positions"]
IDS = [e["name"] for e in ENTRIES]


def naive_legal(game: Game) -> set[str]:
    """The legal action tokens, from the rules as written (seeds/000, seeds/001, RULES.md)."""
    if game.result is not None:
        return set()
    v = game.variant
    p = game.to_move
    hand = list(game.hands[p])
    trump = game.trump
    # "Ist der Talon jedoch aufgebraucht ... gilt Farb- und Stichzwang"; after closing "genau so".
    strict = game.closed_by is not None or len(game.talon) == 0
    if game.lead is not None:
        if not strict:
            return {c.code for c in hand}
        lead = game.lead
        same = [c for c in hand if c.suit == lead.suit]
        higher = [c for c in same if c.rank > lead.rank]
        trumps = [c for c in hand if c.suit == trump]
        for choice in (higher, same, trumps, hand):  # the ladder of seeds/000
            if choice:
                return {c.code for c in choice}
    tokens = {c.code for c in hand}
    has_trick = game.tricks_won[p] > 0
    face_down = len(game.talon)
    talon_open = face_down > 0 and game.closed_by is None
    lowest = Card(trump, v.exchange_rank)
    if (
        talon_open
        and v.trump_exchange
        and lowest in hand
        and (game.first_lead_done or v.exchange_before_first_lead)  # scharf: "vor dem ersten Ausspiel"
        and (face_down > 1 or v.exchange_with_one_face_down)  # scharf: "nur noch eine Karte verdeckt"
        and (has_trick or not v.exchange_needs_trick)  # Schnorps: "nur nach einem gemachten Stiche"
    ):
        tokens.add("exchange")
    if talon_open and face_down >= 2 and (has_trick or not v.close_needs_trick):
        tokens.add("close")
    may_declare = has_trick and not v.auto_declare
    may_marry = (
        v.marriages
        and (has_trick or v.marriage_before_trick)
        and (face_down > 0 or v.marriage_after_talon)  # Schnorps: until the talon "erschöpft ist"
    )
    for suit in Suit:
        king, ober = Card(suit, Rank.KING), Card(suit, Rank.OBER)
        if may_marry and king in hand and ober in hand:
            tokens.add("marry:" + king.code)
            if not v.marriage_king_only:  # scharf: "muss ... den König ausspielen"
                tokens.add("marry:" + ober.code)
            if may_declare:
                tokens.add("declare:" + suit.letter)
    if may_declare:
        tokens.add("declare")
    return tokens


def naive_perft(game: Game, depth: int) -> int:
    """Perft by brute force: every one of the 71 actions tried on a copy, checked against the rules."""
    expected = naive_legal(game)
    accepted = {a.token for a in ALL_ACTIONS if a is not None and game.can_apply(a)}
    assert accepted == expected, f"{game.position() if not game.is_over else game.result}: {accepted ^ expected}"
    if depth == 0:
        return 1
    total = 0
    for token in sorted(expected):
        child = game.copy()
        child.apply(token)
        total += naive_perft(child, depth - 1)
    return total


@pytest.mark.parametrize("entry", ENTRIES, ids=IDS)
def test_perft_regression(entry: dict[str, object]) -> None:
    """The stored counts for every depth."""
    game = Game.from_position(str(entry["position"]))
    counts = entry["perft"]
    assert isinstance(counts, list)
    assert [perft(game, d) for d in range(1, len(counts) + 1)] == counts


@pytest.mark.parametrize("entry", ENTRIES, ids=IDS)
def test_perft_agrees_with_independent_generator(entry: dict[str, object]) -> None:
    """Depth 1..3 counted by brute force over all actions and the rules written again."""
    game = Game.from_position(str(entry["position"]))
    counts = entry["perft"]
    assert isinstance(counts, list)
    for depth in range(1, min(3, len(counts)) + 1):
        assert naive_perft(game, depth) == counts[depth - 1] == perft(game, depth)


def test_perft_from_seeded_deals_agrees_with_independent_generator() -> None:
    """The same cross-check on deals of every variant, to depth 2."""
    for variant in ("schnapsen", "scharf", "66", "schnorps"):
        for seed in range(15):
            game = Game.deal(variant, seed=seed)
            assert naive_perft(game, 2) == perft(game, 2)


def test_divide_sums_to_perft() -> None:
    game = Game.from_position(str(ENTRIES[0]["position"]))
    parts = divide(game, 3)
    assert set(parts) == {a.token for a in game.legal_actions()}
    assert sum(parts.values()) == perft(game, 3)


def test_perft_leaves_the_game_alone_and_checks_depth() -> None:
    game = Game.from_position(str(ENTRIES[0]["position"]))
    before = game.position()
    perft(game, 3)
    assert game.position() == before and game.actions == []
    assert perft(game, 0) == 1
    with pytest.raises(ValueError, match="depth"):
        perft(game, -1)
    with pytest.raises(ValueError, match="depth"):
        divide(game, 0)


def test_finished_game_has_no_continuations() -> None:
    game = Game.from_position("schnapsen 1 1 c -/As - - Ks AhThKhQhJhAdTdKdQdJd/AcTcKcQcJcTsQsJs -")
    game.apply("As")
    assert perft(game, 1) == 0 and perft(game, 0) == 1
