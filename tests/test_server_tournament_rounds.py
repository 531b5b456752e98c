"""The rounds, standings and table outcomes of web tournaments (bummerl.server.tournament_rounds, issue 14).

The two-player schedules are the bot tournament's (bummerl.tournament.formats), checked here as the web
tournament uses them: a round robin where every pair meets once, Swiss rounds without a repeat, a knock-out
whose final is the winners' meeting.  The table games' rounds are this module's own: everybody seated once a
round at tables filled as evenly as possible, bots in the seats nobody fills, and a round robin in which no two
participants meet a third time.  Outcomes are read from the engine's matches of every family and unit.
"""

from __future__ import annotations

import pytest

pytest.importorskip("fastapi", reason="needs the 'web' extra: pip install -e '.[web]'")

import random
from collections import Counter
from collections.abc import Callable

from bummerl.match import Match, TableMatch
from bummerl.server.tournament_rounds import (
    Outcome,
    Played,
    Seating,
    check_format,
    decide,
    next_round,
    planned_rounds,
    standings,
    winner,
)
from bummerl.table_game import TableGame
from bummerl.two_player import TwoPlayerGame

Pick = Callable[[Seating], int]


def simulate(format_: str, n: int, seats: int, pick: Pick, rounds: int | None = None) -> list[Played]:
    """A whole tournament in which ``pick`` names each table's winner (1 game point to it)."""
    total = planned_rounds(format_, n, seats, rounds)
    history: list[Played] = []
    while (seatings := next_round(format_, n, seats, history, total)) is not None:
        played = []
        for s in seatings:
            if s.bye:
                played.append((s, Outcome.bye(s.participants[0])))
            else:
                w = pick(s)
                played.append((s, Outcome(frozenset({w}), {p: int(p == w) for p in s.participants})))
        history.append(played)
        assert len(history) <= total
    return history


def best_seed(s: Seating) -> int:
    return min(s.participants)


def meetings(history: list[Played]) -> Counter[frozenset[int]]:
    return Counter(
        frozenset((a, b))
        for rnd in history
        for s, _ in rnd
        for i, a in enumerate(s.participants)
        for b in s.participants[i + 1 :]
    )


@pytest.mark.parametrize("n", [2, 3, 4, 5, 8])
def test_a_two_player_round_robin_pairs_everybody_once(n: int) -> None:
    history = simulate("round-robin", n, 2, best_seed)
    assert meetings(history) == Counter(frozenset((a, b)) for a in range(n) for b in range(a + 1, n))
    byes = Counter(s.participants[0] for rnd in history for s, _ in rnd if s.bye)
    assert byes == (Counter(range(n)) if n % 2 else Counter())
    table = standings("round-robin", n, history)
    # The best seed wins every table; a round robin's bye scores nothing.
    assert [s.points for s in table] == [n - 1 - k for k in range(n)]
    assert winner("round-robin", n, history) == 0


@pytest.mark.parametrize("n", [4, 6, 7, 10])
def test_swiss_rounds_never_repeat_a_pairing_and_winners_meet_winners(n: int) -> None:
    rng = random.Random(n)
    history = simulate("swiss", n, 2, lambda s: rng.choice(s.participants), rounds=3)
    assert max(meetings(history).values()) == 1
    # Round 2 (Dutch system): the leader after round 1 meets somebody of its own score group.
    after_one = standings("swiss", n, history[:1])
    group = {s.player for s in after_one if s.points == after_one[0].points}
    leader = after_one[0].player
    (opponent,) = next(set(s.participants) - {leader} for s, _ in history[1] if leader in s.participants)
    assert len(group) >= 2 and opponent in group
    points = {s.player: s.points for s in standings("swiss", n, history)}
    assert sum(points.values()) == sum(len(rnd) for rnd in history)  # a win or a bye: one point each


@pytest.mark.parametrize("n", [2, 3, 5, 8])
def test_a_knock_out_ends_with_the_winner_of_its_final(n: int) -> None:
    history = simulate("knock-out", n, 2, lambda s: max(s.participants))
    assert len(history) == (n - 1).bit_length()
    (_, outcome), *_ = history[-1]
    assert len(history[-1]) == 1 and outcome is not None
    assert winner("knock-out", n, history) == max(outcome.winners) == n - 1
    table = standings("knock-out", n, history)
    assert table[0].player == n - 1 and table[0].points == len(history)


def test_the_top_seeds_meet_only_in_the_final_when_seeds_win() -> None:
    history = simulate("knock-out", 8, 2, best_seed)
    assert [[s.players for s, _ in rnd] for rnd in history][-1] == [(0, 1)]
    assert [s.players for s, _ in history[0]] == [(0, 7), (3, 4), (1, 6), (2, 5)]


@pytest.mark.parametrize("seats", [3, 4])
@pytest.mark.parametrize("n", range(2, 17))
def test_table_rounds_seat_everybody_once_and_fill_the_rest_with_bots(n: int, seats: int) -> None:
    for format_ in ("round-robin", "swiss"):
        history = simulate(format_, n, seats, best_seed, rounds=3)
        for rnd in history:
            placed = sorted(p for s, _ in rnd for p in s.participants)
            assert placed == list(range(n))
            sizes = [len(s.participants) for s, _ in rnd]
            assert all(len(s.players) == seats for s, _ in rnd)
            assert max(sizes) - min(sizes) <= 1 and sizes == sorted(sizes, reverse=True)
            # Bots sit after the participants of their table.
            assert all(s.players[: len(s.participants)] == tuple(s.participants) for s, _ in rnd)


@pytest.mark.parametrize("seats", [3, 4])
@pytest.mark.parametrize("n", range(3, 17))
def test_a_table_round_robin_brings_nobody_together_a_third_time(n: int, seats: int) -> None:
    history = simulate("round-robin", n, seats, best_seed)
    assert len(history) == max(1, -(-(n - 1) // (seats - 1)))
    assert max(meetings(history).values()) <= 2
    if n == seats * seats:
        # 9 at three tables of three, 16 at four tables of four: everybody meets everybody exactly once (the
        # rounds of an affine plane).
        assert len(meetings(history)) == n * (n - 1) // 2 and max(meetings(history).values()) == 1


def test_a_swiss_round_of_table_games_seats_the_leaders_together() -> None:
    history = simulate("swiss", 8, 4, lambda s: max(s.participants), rounds=2)
    first_winners = sorted(p for s, o in history[0] if o is not None for p in o.winners)
    assert first_winners == [3, 7]
    assert set(history[1][0][0].participants) >= {3, 7}


def test_the_standings_rank_by_points_then_game_points_then_seeding() -> None:
    rnd: Played = [
        (Seating((0, 1)), Outcome(frozenset({1}), {0: 0, 1: 1})),
        (Seating((2, 3)), Outcome(frozenset({3}), {2: 0, 3: 3})),
        (Seating((4,), bye=True), Outcome.bye(4)),
    ]
    assert [(s.player, s.points, s.score) for s in standings("swiss", 5, [rnd])] == [
        (3, 1, 3),
        (1, 1, 1),
        (4, 1, 0),
        (0, 0, 0),
        (2, 0, 0),
    ]
    # A round robin's bye scores no point: everybody has one.
    assert [s.player for s in standings("round-robin", 5, [rnd])][:3] == [3, 1, 0]


def test_formats_that_cannot_be_played_are_refused() -> None:
    for bad in (("knock-out", "game", 3), ("league", "game", 2), ("swiss", "set", 2)):
        with pytest.raises(ValueError):
            check_format(*bad)
    with pytest.raises(ValueError):
        planned_rounds("swiss", 1, 2, None)


def play_out(game: TwoPlayerGame | TableGame, rng: random.Random) -> None:
    while not game.is_over:
        game.apply(rng.choice(game.legal_actions()))


def test_a_two_player_table_is_decided_by_its_first_won_game_or_its_bummerl() -> None:
    rng = random.Random(1)
    match = Match("sechsundsechzig", seed=5)
    decided_after = None
    while not match.is_over:
        game = match.deal_next()
        play_out(game, rng)
        match.complete(game)
        if decided_after is None and game.result is not None and game.result.winner is not None:
            decided_after = len(match.history)
            first = game.result.winner
            out = decide([match], "game", [4, 9])
            assert out is not None and out.winners == {[4, 9][first]}
            assert out.scores[[4, 9][first]] == match.history[-1].points and out.scores[[4, 9][1 - first]] == 0
        if not match.is_over:
            assert decide([match], "bummerl", [4, 9]) is None
    out = decide([match], "bummerl", [4, 9])
    assert match.winner is not None and out is not None
    assert out.winners == {[4, 9][match.winner]} and out.scores == {4: match.points[0], 9: match.points[1]}


@pytest.mark.parametrize("variant", ["bauernschnapsen", "dreierschnapsen"])
def test_a_table_game_credits_the_winners_side_and_never_a_filler_bot(variant: str) -> None:
    rng = random.Random(2)
    match = TableMatch(variant, seed=7)
    players = [5, None, 6, 8] if variant == "bauernschnapsen" else [5, None, 6]
    while not match.is_over:
        game = match.deal_next()
        play_out(game, rng)
        match.complete(game)
        out = decide([match], "game", players)
        first = next((r for r in match.results if r.winners), None)
        if first is None:
            assert out is None
        else:
            assert out is not None
            assert out.winners == {players[s] for s in first.winners} - {None}
            assert set(out.scores) == {5, 6, 8} & set(players)
    out = decide([match], "bummerl", players)
    assert out is not None and None not in out.winners
    for seat, who in enumerate(players):
        if who is not None:
            assert out.scores[who] == match.scores[match.side_of(seat)]
            assert (who in out.winners) == (match.side_of(seat) in match.winners)
