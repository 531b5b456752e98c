"""expert never concedes a position that still has chances, and plays for the match (issue 12).

The positions are constructed (talon exhausted: one world, so the expert's values are exact) and their values
checked with the open-card solver first, so each test shows the situation it is about. RULES.md, Going out: "A
player who declares with 65 or fewer loses the game, and the opponent scores what the declarer would have";
"No declaration before the last trick (talon not closed): the winner of the last trick wins the game".
"""

from __future__ import annotations

import dataclasses

import pytest

from bummerl.actions import Action, ActionKind
from bummerl.bots.levels import LEVELS, make_level
from bummerl.bots.search import SearchBot, _pick, _tied
from bummerl.bots.tiebreak import chances
from bummerl.game import Game
from bummerl.solver import action_values
from bummerl.two_player import TwoPlayerGame
from bummerl.view import MatchContext, with_match

#: The expert's budget without the time cap: the same choice on a loaded machine.
EXPERT = dataclasses.replace(LEVELS["expert"], seconds=None)
#: Today's expert: game points only, the solver's order among equals.
PLAIN = dataclasses.replace(EXPERT, match_play=False, chance_seconds=None, tie_margin=0.0)

# Trump Laub (spades), talon exhausted, seat 0 (41 Augen) leads Td or Jh against Tc Qh (seat 1 has 54).
# Against perfect play every line loses 1 game point: Jh is beaten by Qh and seat 1 takes the last trick;
# after Td seat 1 must throw away its Ten (Tc) and win the last trick with Qh. Throwing the Ober instead
# (keeping the Ten, as one usually does) gives seat 0 the Td trick, then the last trick (Jh against Tc): a
# trap that only Td sets.
TRAP = "schnapsen{opts} 1 0 s TdJh/TcQh - - - TsQdAdKdJdAh/JsKhAsQcKcJcQsThAcKs -"


def trap(auto_declare: bool) -> TwoPlayerGame:
    return TwoPlayerGame.from_position(TRAP.format(opts=":auto_declare=true" if auto_declare else ""))


@pytest.mark.parametrize("auto_declare", [True, False])
def test_all_lines_lose_and_expert_sets_the_trap(auto_declare: bool) -> None:
    game = trap(auto_declare)
    values = {a.token: v for a, v in action_values(game).items()}
    expected = {"Td": -1, "Jh": -1} if auto_declare else {"Td": -1, "Jh": -1, "declare": -1}
    assert values == expected  # every action loses 1 game point against perfect play
    after = game.copy()
    after.apply("Td")
    assert action_values(after) == {Action.parse("Tc"): 1, Action.parse("Qh"): -1}  # seat 1 can go wrong
    view = game.view(0)
    ev = SearchBot("expert", EXPERT).evaluate(view)
    assert ev.best.token == "Td" and ev.chances is not None and ev.chances[ev.best] > 0
    # Today's expert took the solver's first equal action: the cheap Jh (or declared at once, conceding).
    assert SearchBot("plain", PLAIN).choose(view).token == "Jh"
    assert make_level("expert", 3).choose(view).token == "Td"


def test_a_losing_declaration_comes_after_playing_on() -> None:
    """With auto_declare off, going out below 66 ties with playing on here (-1 each): expert plays on."""
    game = trap(False)
    assert game.augen(0) == 41
    ev = SearchBot("expert", EXPERT).evaluate(game.view(0))
    assert ev.values[Action.declare()] == ev.values[Action.parse("Td")] == -1
    assert ev.best.kind is not ActionKind.DECLARE
    # Even without the chances (no time for them) a losing declaration is the last of equals.
    means = dict(ev.values)
    assert _pick(means, means, [Action.declare(), Action.parse("Td")], int(game.trump)).token == "Td"


# Trump Herz: seat 0 has 29 Augen, seat 1 59. Going out now costs 1 game point (seat 1 has 33 or more); playing
# on loses 2 against perfect play (seat 0 stays under 33), though seat 1 can still go wrong.
CONCEDE = "schnapsen 1 0 h KhJcJs/AhTsQs - - - AsKdKcTh/TcJhJdQcKsTdQhAcAdQd -"


def test_conceding_one_point_instead_of_two_only_when_points_matter() -> None:
    game = TwoPlayerGame.from_position(CONCEDE)
    values = {a.token: v for a, v in action_values(game).items()}
    assert values == {"Kh": -2, "Jc": -2, "Js": -2, "declare": -1}
    view = game.view(0)
    # A single game: losing 1 for sure is better than losing 2 against a perfect opponent.
    assert SearchBot("expert", EXPERT).choose(view) == Action.declare()
    # The opponent needs 1 point: losing 1 or 2 loses the Bummerl alike, so expert plays on for the chances.
    last = with_match(view, MatchContext("bummerl", 7, (4, 1)))
    ev = SearchBot("expert", EXPERT).evaluate(last)
    assert ev.objective == "match equity" and ev.best.kind is not ActionKind.DECLARE
    assert ev.scores is not None and ev.scores[Action.declare()] == ev.scores[ev.best] == -1.0
    assert ev.chances is not None and ev.chances[ev.best] == max(ev.chances.values()) > 0
    # The opponent needs 2: going out keeps the Bummerl alive (the opponent then needs 1), losing 2 does not.
    assert SearchBot("expert", EXPERT).choose(with_match(view, MatchContext("bummerl", 7, (4, 2)))).kind is (
        ActionKind.DECLARE
    )


# Seat 1 follows Jd (trump Unter) in a Schnapsen deal; 5 worlds fit its view. Kd wins the most game points on
# average (1.4), Kc wins the game in every world (1.0 each). Needing one point each, only winning counts.
SAFE = "schnapsen 1 1 Jh TsThKhAc/TcKcKd!Ah!As Qc - Jd JsJcKsQsQdAd/TdQh 1d"


def test_match_play_prefers_the_sure_win_when_any_win_takes_the_bummerl() -> None:
    game = Game.from_position(SAFE)
    view = game.view(1)
    points = SearchBot("expert", EXPERT).evaluate(view)
    assert points.objective == "game points" and points.worlds == 5 and points.exhaustive
    assert points.best.token == "Kd" and points.values[Action.parse("Kc")] == 1.0
    ctx = MatchContext("bummerl", 7, (1, 1))
    match = SearchBot("expert", EXPERT).evaluate(with_match(view, ctx))
    assert match.best.token == "Kc" and match.scores is not None and match.scores[match.best] == 1.0
    # The values in game points are reported as before; the choice maximised the match equity.
    assert match.values == points.values
    # Early in the Bummerl (7:7) the equity is nearly linear in the points: the points' choice stands.
    assert SearchBot("expert", EXPERT).choose(with_match(view, MatchContext("bummerl", 7, (7, 7)))).token == "Kd"


def test_chances_are_zero_without_a_choice_for_the_opponent() -> None:
    game = trap(True)
    jh = game.copy()
    jh.apply("Jh")  # seat 1 must beat with Qh (strict play), then leads its last card
    assert chances(jh, 0, None) == 0
    td = game.copy()
    td.apply("Td")
    # Seat 1 may throw Tc (its best) or Qh (a loss of 2 for it): half of the uniform error is 1, the heuristic
    # keeps the Ten and throws the Ober, another 2: 0.5 * 1 + 0.5 * 2.
    assert chances(td, 0, None) == pytest.approx(1.5)
    done = game.copy()
    done.apply("Jh")
    while not done.is_over:
        done.apply(done.legal_actions()[0])
    assert chances(done, 0, None) == 0
    # Out of time before the line is finished: no number at all (the search then ignores that world).
    assert chances(td, 0, None, deadline=0.0) is None
    assert chances(td, 0, None, horizon=1) == pytest.approx(1.5)


def test_tie_margin_and_winning_declarations() -> None:
    a, b, d = Action.parse("Ah"), Action.parse("Kh"), Action.declare()
    # Within the margin the chances decide; beyond it the better mean wins.
    assert _tied({a: 1.0, b: 0.97, d: 0.5}, [a, b, d], 0.05) == [a, b]
    assert _pick({a: 1.0, b: 0.97}, {a: 1.0, b: 0.97}, [a, b], 0, {a: 0.0, b: 0.2}) == b
    assert _pick({a: 1.0, b: 0.97}, {a: 1.0, b: 0.97}, [a, b], 0, None) == a
    # A correct declaration (positive, the same in every world) among the best goes out: no hidden risk.
    assert _pick({a: 1.0, d: 1.0}, {a: 1.0, d: 1.0}, [a, d], 0, {a: 0.5, d: 0.0}) == d
    # A losing one never wins a tie.
    assert _pick({d: -1.0, a: -1.0}, {d: -1.0, a: -1.0}, [d, a], 0, {d: 0.0, a: 0.0}) == a


def test_chances_fit_the_budget() -> None:
    with pytest.raises(ValueError, match="chance_worlds"):
        dataclasses.replace(EXPERT, chance_worlds=0)
    with pytest.raises(ValueError, match="chance_seconds"):
        dataclasses.replace(EXPERT, chance_seconds=-1.0)
    # No time for a single world: the tie falls back to the solver's order (and never to a losing declaration).
    game = trap(False)
    ev = SearchBot("x", dataclasses.replace(EXPERT, chance_seconds=0.0)).evaluate(game.view(0))
    assert ev.chances is None and ev.chance_worlds == 0 and ev.best.token == "Jh"
    # At most chance_worlds worlds are used.
    view = Game.from_position(SAFE).view(1)
    few = SearchBot("x", dataclasses.replace(EXPERT, chance_worlds=2, tie_margin=1.0)).evaluate(view)
    assert few.chances is not None and few.chance_worlds == 2


def test_weaker_levels_and_single_games_are_unchanged() -> None:
    for level in ("easy", "medium", "hard"):
        assert LEVELS[level].chance_seconds is None and not LEVELS[level].match_play
    view = Game.from_position(SAFE).view(1)
    assert view.match is None and Game.deal("schnapsen", seed=5).view(0).match is None
    assert SearchBot("expert", EXPERT).evaluate(with_match(view, None)).objective == "game points"
