"""The match equity table (bummerl.bots.match_equity): symmetry, monotonicity, boundaries, two computations agree.

RULES.md, Matches: "a Bummerl is played down from 7 game points; the first to win 7 wins; 7:0 makes the loser
Schneider, two Bummerl. Dealer alternates each game (003)"; Schnorps (001): "then the winner of each game deals",
"the next game pays double" after a stand.
"""

from __future__ import annotations

import itertools

import pytest

from bummerl.bots.match_equity import GAME_POINTS, GamePoints, MatchEquity, game_utility
from bummerl.view import MatchContext

BUMMERL_VARIANTS = ("schnapsen", "schnapsen-scharf", "sechsundsechzig")
ROLES = ("vorhand", "dealer")
OTHER = {"vorhand": "dealer", "dealer": "vorhand"}


def tables() -> list[tuple[str, MatchEquity]]:
    out = [(v, MatchEquity.for_match("bummerl", 7, v)) for v in BUMMERL_VARIANTS]
    out.append(("schnorps", MatchEquity.for_match("marken", 7, "schnorps")))
    return out


@pytest.mark.parametrize(("variant", "met"), tables())
def test_the_two_sides_of_a_match_add_up(variant: str, met: MatchEquity) -> None:
    """The same state seen by the other player: equities are opposite, win probabilities add up to 1
    (the player who is Vorhand next game faces the dealer)."""
    for a, b in itertools.product(range(1, 8), repeat=2):
        for role in ROLES:
            assert met.equity(a, b, role) == pytest.approx(-met.equity(b, a, OTHER[role]), abs=1e-12)
            assert met.win_probability(a, b, role) + met.win_probability(b, a, OTHER[role]) == pytest.approx(1.0)
        assert met.equity(a, b, None, 2) == pytest.approx(-met.equity(b, a, None, 2), abs=1e-12)


@pytest.mark.parametrize(("variant", "met"), tables())
def test_needing_fewer_points_is_better(variant: str, met: MatchEquity) -> None:
    for a, b in itertools.product(range(1, 8), repeat=2):
        for role in ROLES:
            p, e = met.win_probability(a, b, role), met.equity(a, b, role)
            assert 0 < p < 1 and -2 <= e <= 2
            if a > 1:
                assert met.win_probability(a - 1, b, role) > p and met.equity(a - 1, b, role) > e
            if b > 1:
                assert met.win_probability(a, b - 1, role) < p and met.equity(a, b - 1, role) < e


def test_finished_matches_and_schneider() -> None:
    """seeds/000: "so ist der Gegner Schneider und die Partie zählt doppelt" — only in a Bummerl."""
    met = MatchEquity.for_match("bummerl", 7, "schnapsen")
    assert met.terminal(0, 7) == 2.0 and met.terminal(0, 3) == 1.0
    assert met.terminal(7, -1) == -2.0 and met.terminal(5, 0) == -1.0
    assert met.terminal(0, 7, probability=True) == 1.0 and met.terminal(3, 3) is None
    marken = MatchEquity.for_match("marken", 7, "schnorps")
    assert marken.terminal(0, 7) == 1.0 and marken.terminal(7, 0) == -1.0
    # Without Schneider the equity is 2 P(win) - 1.
    for a, b in itertools.product(range(1, 8), repeat=2):
        assert marken.equity(a, b, "vorhand") == pytest.approx(2 * marken.win_probability(a, b, "vorhand") - 1)
        no_schneider = MatchEquity("bummerl", 7, GAME_POINTS["schnapsen"], schneider=False)
        assert no_schneider.equity(a, b, "dealer") == pytest.approx(
            2 * no_schneider.win_probability(a, b, "dealer") - 1
        )
    # With Schneider a match can be worth more than a plain win.
    assert met.equity(1, 7, "vorhand") > 2 * met.win_probability(1, 7, "vorhand") - 1


def test_one_game_from_the_end() -> None:
    """At 1:1 (no stands in Schnapsen) the next game decides: P(win) is the role's chance to win a game."""
    points = GAME_POINTS["schnapsen"]
    assert points.stand == 0
    met = MatchEquity("bummerl", 7, points)
    vorhand = sum(p for _, p in points.vorhand)
    assert met.win_probability(1, 1, "vorhand") == pytest.approx(vorhand)
    assert met.win_probability(1, 1, "dealer") == pytest.approx(1 - vorhand)
    # Needing 3 or less, a 3-point game ends it at once: P(win | need 3, opp 7) >= P(I win the next game).
    assert met.win_probability(3, 7, "vorhand") > vorhand


def test_role_symmetric_distribution_gives_an_even_match() -> None:
    points = GamePoints.from_counts({1: 5, 2: 3, 3: 2}, {1: 5, 2: 3, 3: 2}, stand=1)
    for kind in ("bummerl", "marken"):
        met = MatchEquity(kind, 7, points)
        for a in range(1, 8):
            for role in ROLES:
                assert met.equity(a, a, role) == pytest.approx(0.0, abs=1e-12)
                assert met.win_probability(a, a, role) == pytest.approx(0.5)


def _iterated(kind: str, target: int, points: GamePoints, probability: bool) -> dict[tuple[int, int, str, int], float]:
    """The table by plain value iteration over every state (an independent computation of the recursion)."""
    top = 1 << 3 if kind == "marken" else 1
    mults = [1 << k for k in range(4)] if kind == "marken" else [1]
    states = [(a, b, r, m) for a in range(1, target + 1) for b in range(1, target + 1) for r in ROLES for m in mults]
    value = dict.fromkeys(states, 0.0)

    def end(a: int, b: int) -> float | None:
        if a <= 0:
            return 1.0 if probability else (2.0 if kind == "bummerl" and b >= target else 1.0)
        if b <= 0:
            return 0.0 if probability else (-2.0 if kind == "bummerl" and a >= target else -1.0)
        return None

    def at(a: int, b: int, role: str, m: int) -> float:
        done = end(a, b)
        return done if done is not None else value[(a, b, role, m)]

    for _ in range(200):
        new = {}
        for a, b, role, m in states:
            wins, losses = (points.vorhand, points.dealer) if role == "vorhand" else (points.dealer, points.vorhand)
            total = 0.0
            if kind == "bummerl":
                nxt = OTHER[role]
                total += sum(p * at(a - k, b, nxt, 1) for k, p in wins)
                total += sum(p * at(a, b - k, nxt, 1) for k, p in losses)
                total += points.stand * at(a, b, nxt, 1)
            else:
                total += sum(p * at(a - k * m, b, "dealer", 1) for k, p in wins)
                total += sum(p * at(a, b - k * m, "vorhand", 1) for k, p in losses)
                m2 = min(2 * m, top)
                total += points.stand * (at(a, b, "vorhand", m2) + at(a, b, "dealer", m2)) / 2
            new[(a, b, role, m)] = total
        value = new
    return value


@pytest.mark.parametrize("kind", ["bummerl", "marken"])
def test_recursion_equals_value_iteration(kind: str) -> None:
    """The closed-form recursion and brute-force value iteration over all states give the same table."""
    points = GamePoints.from_counts({1: 40, 2: 30, 3: 20, 6: 3}, {1: 42, 2: 25, 3: 22, 4: 2}, stand=9)
    met = MatchEquity(kind, 7, points)
    for probability in (True, False):
        brute = _iterated(kind, 7, points, probability)
        for (a, b, role, m), x in brute.items():
            got = met.win_probability(a, b, role, m) if probability else met.equity(a, b, role, m)
            assert got == pytest.approx(x, abs=1e-9), (a, b, role, m)


def test_game_utility_maps_a_games_value_to_the_match() -> None:
    # A single game: play for game points.
    assert game_utility(None, 0, 1, "schnapsen") is None
    # Both need 1: every win is a won Bummerl, every loss a lost one, whatever the points.
    u = game_utility(MatchContext("bummerl", 7, (1, 1)), 0, 1, "schnapsen")
    assert u is not None and {u[v] for v in (1, 2, 3)} == {1.0} and {u[v] for v in (-1, -2, -3)} == {-1.0}
    # The opponent has nothing yet: a win that ends the match makes them Schneider (two Bummerl).
    u = game_utility(MatchContext("bummerl", 7, (2, 7)), 0, 1, "schnapsen")
    assert u is not None and u[2] == u[3] == 2.0 and -1 < u[1] < 2 and u[-3] < u[-1] < u[1]
    # Schnorps: a stand (0) doubles the next game; Marken are multiplied by the multiplier.
    u = game_utility(MatchContext("marken", 7, (4, 4), False, 2), 0, 0, "schnorps")
    assert u is not None and u[2] == 1.0 and u[-2] == -1.0 and -1 < u[1] < 1 and u[1] > u[0] > u[-1]
    # The seat matters: needed is by seat.
    a = game_utility(MatchContext("bummerl", 7, (1, 6)), 0, 0, "schnapsen")
    b = game_utility(MatchContext("bummerl", 7, (1, 6)), 1, 0, "schnapsen")
    assert a is not None and b is not None and a[1] == 1.0 and b[1] < 1.0


def test_game_points_distributions_are_measured_and_sane() -> None:
    for name, points in GAME_POINTS.items():
        total = sum(p for _, p in points.vorhand) + sum(p for _, p in points.dealer) + points.stand
        assert total == pytest.approx(1.0), name
        assert 0.3 < sum(p for _, p in points.vorhand) < 0.7, name


def test_bad_tables_are_refused() -> None:
    with pytest.raises(ValueError, match="sum to 1"):
        GamePoints(((1, 0.5),), ((1, 0.4),), 0.0)
    with pytest.raises(ValueError, match="targets"):
        MatchEquity("bummerl", 1000, GAME_POINTS["schnapsen"])
    with pytest.raises(ValueError, match="kind"):
        MatchEquity("poker", 7, GAME_POINTS["schnapsen"])


def test_measure_counts_every_game_by_the_winners_role(capsys: pytest.CaptureFixture[str]) -> None:
    from bummerl.bots.match_equity import main, measure

    counts = measure("schnapsen", "heuristic", games=20, seed=3)
    total = sum(counts["vorhand"].values()) + sum(counts["dealer"].values()) + counts["stand"]
    assert total == 20 and set(counts["vorhand"]) | set(counts["dealer"]) <= {1, 2, 3}
    assert measure("schnapsen", "heuristic", games=20, seed=3)["vorhand"] == counts["vorhand"]  # reproducible
    assert main(["--table", "schnapsen", "--role", "dealer"]) == 0
    out = capsys.readouterr().out
    assert "dealer" in out and out.strip().splitlines()[-1].split()[0] == "7"
