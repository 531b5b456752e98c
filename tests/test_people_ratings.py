"""The people's ratings (bummerl.server.people_ratings; issue 24, "Ratings and leaderboards for people").

How a stored result places the seats is checked against the rules it must follow (issue 24: "teams in
Bauernschnapsen", "Abandoned games count as lost"); the updates against openskill's own model called
directly, so the module adds no arithmetic of its own.  The store is checked on SQLite and on PostgreSQL
(``tests/pg_server.py``; skipped without one, except under ``CI``): a game is decided once whatever happens
twice, the games of a table are rated in game order, a bot seat, a seat nobody's player holds, a table that
is not rated and a practice table change nothing, and two processes rating at once lose no update.
"""

from __future__ import annotations

import pytest

pytest.importorskip("fastapi", reason="needs the 'web' extra: pip install -e '.[web]'")

import itertools
import json
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from sqlalchemy import inspect, text

from bummerl.server import migrations, people_ratings
from bummerl.server.people_ratings import (
    DISPLAY_BASE,
    MODEL,
    PeopleRatings,
    Standing,
    decide,
    display_rating,
    rate,
)
from bummerl.server.players import PlayerStore
from bummerl.server.storage import Repository, SeatData, hash_token
from bummerl.variants import find_variant
from pg_server import postgres_server, postgres_url

# Fixtures of pg_server used by this module (pytest finds fixtures by name in the module).
__all__ = ["postgres_server", "postgres_url"]

SCHNAPSEN = find_variant("schnapsen")
BAUERN = find_variant("bauernschnapsen")
DREIER = find_variant("dreierschnapsen")


def won(seat: int, **more: Any) -> dict[str, Any]:
    return {"winner": seat, "points": 1, "reason": "declared", "augen": [70, 30], "unit": "game points", **more}


# ---------------------------------------------------------------------- how a result places the seats
def test_two_players_the_winner_first() -> None:
    standing = decide(SCHNAPSEN, won(1), [0, 1])
    assert standing == Standing(((1,), (0,)), (0, 1), ((0, "lost"), (1, "won")))


def test_bauernschnapsen_partners_are_one_team() -> None:
    """seeds/004: partners sit opposite, seats 0 and 2 against 1 and 3; a team's win is both partners'."""
    result = {"contract": "normal", "declarer": 1, "winners": [1, 3], "points": 2, "reason": "declared"}
    standing = decide(BAUERN, result, [0, 1, 2, 3])
    assert isinstance(standing, Standing)
    assert (standing.teams, standing.ranks) == (((1, 3), (0, 2)), (0, 1))


def test_dreierschnapsen_rates_each_player_alone_with_the_defenders_tied() -> None:
    """A declarer alone against two defenders who partner for this one game: no team whose skills add up."""
    declarer_won = decide(DREIER, {"winners": [2], "reason": "contract_won"}, [0, 1, 2])
    defenders_won = decide(DREIER, {"winners": [0, 1], "reason": "contract_lost"}, [0, 1, 2])
    assert isinstance(declarer_won, Standing) and isinstance(defenders_won, Standing)
    assert (declarer_won.teams, declarer_won.ranks) == (((2,), (0,), (1,)), (0, 1, 1))
    assert (defenders_won.teams, defenders_won.ranks) == (((0,), (1,), (2,)), (0, 0, 1))


def test_an_abandoned_seat_counts_as_lost_even_where_its_bot_won() -> None:
    """Issue 24: "Abandoned games count as lost" — the seat the bot took over ranks last whatever its side's
    result; the one who stayed ranks first."""
    standing = decide(SCHNAPSEN, won(0, abandoned=[0]), [0, 1])
    assert standing == Standing(((1,), (0,)), (0, 1), ((0, "abandoned"), (1, "won")))
    # A partner who stayed keeps the team's win; the seat that left is rated alone, last.
    bauer = decide(BAUERN, {"winners": [0, 2], "abandoned": [2], "reason": "declared"}, [0, 1, 2, 3])
    assert isinstance(bauer, Standing)
    assert (bauer.teams, bauer.ranks) == (((0,), (1, 3), (2,)), (0, 1, 2))
    assert dict(bauer.outcomes) == {0: "won", 1: "lost", 2: "abandoned", 3: "lost"}


def test_a_redeal_or_a_stand_changes_nothing_unless_somebody_left() -> None:
    stand = {"winner": None, "points": 0, "reason": "stand"}
    assert decide(SCHNAPSEN, stand, [0, 1]) == "no_winner"
    assert decide(BAUERN, {"winners": [], "reason": "redeal"}, [0, 1, 2, 3]) == "no_winner"
    left = decide(BAUERN, {"winners": [], "reason": "redeal", "abandoned": [3]}, [0, 1, 2, 3])
    assert isinstance(left, Standing) and dict(left.outcomes)[3] == "abandoned"
    assert (left.teams, left.ranks) == (((0, 2), (1,), (3,)), (0, 0, 1))  # the three who stayed share the win
    assert decide(SCHNAPSEN, won(0, abandoned=[0, 1]), [0, 1]) == "all_abandoned"
    assert decide(SCHNAPSEN, {"points": 1}, [0, 1]) == "unreadable"


def test_a_schnorps_round_rates_only_the_two_who_played() -> None:
    """RULES.md, Matches: with more than two participants "two play at a time"."""
    result = {"winner": 2, "loser": 0, "players": [0, 2], "points": 1, "reason": "declared"}
    standing = decide(find_variant("schnorps"), result, [0, 1, 2])
    assert isinstance(standing, Standing) and standing.teams == ((2,), (0,))


def test_the_updates_are_openskills_own() -> None:
    """Each update is the library's, called with the teams and ranks: nothing of ours in between."""
    standing = decide(BAUERN, {"winners": [0, 2], "reason": "declared"}, [0, 1, 2, 3])
    assert isinstance(standing, Standing)
    before = {0: (30.0, 5.0), 1: (22.0, 6.0), 2: (25.0, 8.0), 3: (27.0, 3.0)}
    after = rate(standing, before)
    teams = [[MODEL.rating(*before[s]) for s in team] for team in standing.teams]
    expected = MODEL.rate(teams, ranks=[0.0, 1.0])
    assert after[0] == (expected[0][0].mu, expected[0][0].sigma)
    assert after[3] == (expected[1][1].mu, expected[1][1].sigma)
    # Partners win together; every played seat grows surer.
    assert after[0][0] > 30.0 and after[2][0] > 25.0 and after[1][0] < 22.0 and after[3][0] < 27.0
    assert all(after[s][1] < before[s][1] for s in before)


def test_a_lone_declarer_who_wins_gains_what_both_defenders_lose() -> None:
    standing = decide(DREIER, {"winners": [0]}, [0, 1, 2])
    assert isinstance(standing, Standing)
    after = rate(standing, {})
    gained = after[0][0] - MODEL.mu
    lost = (MODEL.mu - after[1][0]) + (MODEL.mu - after[2][0])
    assert gained > 0 and after[1] == after[2] and abs(gained - lost) < 1e-9


def test_the_shown_rating_is_three_deviations_below_the_estimate() -> None:
    assert display_rating(MODEL.mu, MODEL.sigma) == DISPLAY_BASE
    assert display_rating(25.0, 2.0) > display_rating(28.0, 4.0)  # sure and good beats lucky and unknown


# ---------------------------------------------------------------------- the store
@pytest.fixture(params=["sqlite", "postgresql"])
def repo(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Repository]:
    """An empty database with the newest schema: an SQLite file, or a schema of its own on PostgreSQL."""
    if request.param == "sqlite":
        url = f"sqlite:///{tmp_path / 'bummerl.db'}"
    else:
        url = request.getfixturevalue("postgres_url")
    found = Repository(url)
    found.create_schema()
    yield found
    found.dispose()


class World:
    """Players, tables and stored games, as the server would leave them."""

    def __init__(self, repo: Repository) -> None:
        self.repo = repo
        self.players = PlayerStore(repo)
        self.ratings = PeopleRatings(repo)
        self.ids: dict[str, str] = {}

    def player(self, name: str) -> str:
        if name not in self.ids:
            self.ids[name] = self.players.create(name)[0].id
        return self.ids[name]

    def table(
        self,
        table_id: str,
        variant: str,
        names: list[str | None],
        *,
        rated: bool = True,
        practice: bool = False,
        bots: tuple[int, ...] = (),
    ) -> None:
        """A table whose seat ``i`` is held by the player ``names[i]`` (``None``: a person with no player key),
        or a bot for the seats in ``bots``."""
        seats = [
            SeatData(i, "bot", "random", None, False, None)
            if i in bots
            else SeatData(i, "human" if i == 0 else "friend", None, name, True, None)
            for i, name in enumerate(names)
        ]
        tokens = {s.seat: hash_token(f"{table_id}{s.seat}") for s in seats if s.kind != "bot"}
        self.repo.create_table(table_id, variant, {}, 1, 7, seats, tokens, rated=rated, practice=practice)
        for seat, name in enumerate(names):
            if name is not None and seat not in bots:
                assert self.players.claim_seat(self.player(name), table_id, seat) == "claimed"

    def game(self, table_id: str, result: dict[str, Any], game_no: int = 0) -> int:
        game_id = self.repo.start_game(table_id, 0, game_no, 0, "x", None)
        self.repo.finish_game(game_id, result, "record")
        return game_id

    def rating(self, name: str, variant: str = "schnapsen") -> Any:
        return self.ratings.rating_of(self.player(name), variant)


@pytest.fixture
def world(repo: Repository) -> World:
    return World(repo)


def changes(repo: Repository) -> list[tuple[Any, ...]]:
    with repo.engine.connect() as db:
        rows = db.execute(
            text(
                "SELECT game_id, player_id, outcome, mu_before, mu_after FROM bummerl_rating_changes"
                " ORDER BY game_id, player_id"
            )
        ).all()
    return [tuple(r) for r in rows]


def test_a_game_is_rated_once_whatever_happens_twice(world: World) -> None:
    """A result stored twice (the table's next load finishes the game again), a second rating call and a
    catch-up after a restart change nothing more."""
    world.table("t", "schnapsen", ["Anna", "Bert"])
    game = world.game("t", won(0))
    assert world.ratings.rate_table_of(game) == 1
    anna = world.rating("Anna")
    assert anna.games == 1 and anna.won == 1 and anna.mu > MODEL.mu
    world.repo.finish_game(game, won(0), "record")
    assert world.ratings.rate_table_of(game) == 0
    assert world.ratings.rate_game(game) is False
    assert PeopleRatings(world.repo).catch_up() == 0  # a restarted server
    assert world.rating("Anna") == anna and world.rating("Bert").games == 1
    assert len(changes(world.repo)) == 2 and world.ratings.decisions([game]) == {game: "rated"}


def test_the_games_of_a_table_are_rated_in_game_order(world: World) -> None:
    """Three games stored before any rating ran: each starts from the rating the one before left."""
    world.table("t", "schnapsen", ["Anna", "Bert"])
    games = [world.game("t", won(seat), game_no=i) for i, seat in enumerate((0, 0, 1))]
    assert world.ratings.rate_table_of(games[-1]) == 3
    anna = [c for c in changes(world.repo) if c[1] == world.player("Anna")]
    assert [c[0] for c in anna] == games and [c[2] for c in anna] == ["won", "won", "lost"]
    for earlier, later in itertools.pairwise(anna):
        assert later[3] == earlier[4]  # mu before this game = mu after the one before
    assert anna[1][4] > anna[0][4] > MODEL.mu > MODEL.mu - 1 and anna[2][4] < anna[1][4]


def test_a_later_game_waits_for_an_earlier_result_still_to_be_stored(world: World) -> None:
    """The table dealt on while the first game's result was retried: the second game's result, stored first,
    is rated only after the first's, and a catch-up (a restart) waits for it as well."""
    world.table("t", "schnapsen", ["Anna", "Bert"])
    first = world.repo.start_game("t", 0, 0, 0, "x", None)
    second = world.game("t", won(1), game_no=1)
    world.repo.start_game("t", 0, 2, 0, "x", None)  # the game on the table now
    assert world.ratings.rate_table_of(second) == 0 and world.ratings.catch_up() == 0
    assert world.ratings.decisions([first, second]) == {}
    world.repo.finish_game(first, won(0), "record")
    assert world.ratings.rate_table_of(first) == 2
    assert [c[0] for c in changes(world.repo) if c[1] == world.player("Anna")] == [first, second]


def test_bauernschnapsen_partners_move_together(world: World) -> None:
    world.table("b", "bauernschnapsen", ["Anna", "Bert", "Cleo", "Dora"])
    game = world.game("b", {"contract": "normal", "declarer": 0, "winners": [0, 2], "points": 2, "reason": "x"})
    world.ratings.rate_table_of(game)
    anna, cleo = world.rating("Anna", "bauernschnapsen"), world.rating("Cleo", "bauernschnapsen")
    bert, dora = world.rating("Bert", "bauernschnapsen"), world.rating("Dora", "bauernschnapsen")
    assert (anna.mu, anna.sigma) == (cleo.mu, cleo.sigma) and (bert.mu, bert.sigma) == (dora.mu, dora.sigma)
    assert anna.mu > MODEL.mu > bert.mu and anna.won == 1 and bert.lost == 1
    assert world.rating("Anna") is None  # a rating per variant: none in Schnapsen


def test_dreierschnapsen_three_players(world: World) -> None:
    world.table("d", "dreierschnapsen", ["Anna", "Bert", "Cleo"])
    world.ratings.rate_table_of(world.game("d", {"declarer": 1, "winners": [1], "points": 2, "reason": "x"}))
    anna, bert, cleo = (world.rating(n, "dreierschnapsen") for n in ("Anna", "Bert", "Cleo"))
    assert bert.mu > MODEL.mu > anna.mu == cleo.mu and (bert.won, anna.lost, cleo.lost) == (1, 1, 1)


def test_an_abandoned_game_is_lost_in_the_rating(world: World) -> None:
    """The clock's bot finished and won the game for Anna, who had left: Anna lost it, Bert won it."""
    world.table("t", "schnapsen", ["Anna", "Bert"])
    world.ratings.rate_table_of(world.game("t", won(0, abandoned=[0])))
    anna, bert = world.rating("Anna"), world.rating("Bert")
    assert (anna.won, anna.lost, bert.won, bert.lost) == (0, 1, 1, 0) and anna.mu < MODEL.mu < bert.mu
    assert {c[2] for c in changes(world.repo) if c[1] == world.player("Anna")} == {"abandoned"}


def test_only_rated_tables_between_players_change_ratings(world: World) -> None:
    """A bot seat, a seat no player holds and a drawn game are decided and change nothing; a table that is not
    rated (a friend's) and a practice table are never even looked at."""
    world.table("bot", "schnapsen", ["Anna", None], bots=(1,))
    world.table("anon", "schnapsen", ["Anna", None])
    world.table("draw", "schnapsen", ["Anna", "Bert"])
    world.table("friends", "schnapsen", ["Anna", "Bert"], rated=False)
    world.table("practice", "schnapsen", ["Anna", "Bert"], practice=True)
    with world.repo.engine.begin() as db:
        # A practice table is never made rated (Repository.create_table); were it marked so, still nothing.
        assert db.execute(text("SELECT rated FROM bummerl_tables WHERE id = 'practice'")).scalar() in (False, 0)
        db.execute(text("UPDATE bummerl_tables SET rated = :yes WHERE id = 'practice'"), {"yes": True})
    games = {
        "bot": world.game("bot", won(0)),
        "anon": world.game("anon", won(0)),
        "draw": world.game("draw", {"winner": None, "points": 0, "reason": "redeal"}),
        "friends": world.game("friends", won(0)),
        "practice": world.game("practice", won(0)),
    }
    assert sum(world.ratings.rate_table_of(g) for g in games.values()) == 0
    assert world.ratings.catch_up() == 0
    assert world.ratings.decisions(list(games.values())) == {
        games["bot"]: "bot_seat",
        games["anon"]: "no_player",
        games["draw"]: "no_winner",
    }
    assert world.rating("Anna") is None and changes(world.repo) == []


def test_a_restart_rates_what_a_stop_left_oldest_first(world: World) -> None:
    """Results stored, then the server stopped before it rated them: the catch-up rates them in the order their
    results were stored, across tables."""
    world.table("t1", "schnapsen", ["Anna", "Bert"])
    world.table("t2", "schnapsen", ["Anna", "Cleo"])
    first = world.game("t1", won(1))
    second = world.game("t2", won(0))
    third = world.game("t1", won(0), game_no=1)
    with world.repo.engine.begin() as db:  # finished_at in the order the results were stored
        for i, game in enumerate((first, second, third)):
            db.execute(
                text("UPDATE bummerl_games SET finished_at = :at WHERE id = :g"), {"at": f"2026-01-0{i + 1}", "g": game}
            )
    assert world.ratings.catch_up() == 3
    anna = [c[0] for c in changes(world.repo) if c[1] == world.player("Anna")]
    assert anna == [first, second, third] and world.rating("Anna").games == 3


def test_the_leaderboard_lists_players_with_enough_games_best_first(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(people_ratings, "MIN_GAMES", 3)
    names = ["Anna", "Bert", "Cleo", "Dora"]
    # Anna beats everyone, Bert beats Cleo, Cleo beats Dora; Dora plays two games only (the first seat wins).
    pairs = [("Anna", "Bert"), ("Anna", "Cleo"), ("Bert", "Cleo"), ("Anna", "Bert"), ("Bert", "Cleo")]
    pairs += [("Anna", "Cleo"), ("Anna", "Dora"), ("Cleo", "Dora")]
    for i, (a, b) in enumerate(pairs):
        world.table(f"t{i}", "schnapsen", [a, b])
        world.ratings.rate_table_of(world.game(f"t{i}", won(0)))
    board = world.ratings.board("schnapsen")
    assert [r.name for r in board.rows] == ["Anna", "Bert", "Cleo"] and board.total == 3
    assert [r.rank for r in board.rows] == [1, 2, 3]
    assert [r.games for r in board.rows] == [5, 4, 5]
    assert board.rows[0].rating > board.rows[1].rating > board.rows[2].rating
    page = world.ratings.board("schnapsen", offset=1, limit=1)
    assert [(r.rank, r.name) for r in page.rows] == [(2, "Bert")] and page.total == 3
    assert world.ratings.board("schnapsen", offset=3).rows == ()
    assert world.rating("Cleo").rank == 3 and world.rating("Dora").rank is None
    assert world.rating("Dora").provisional and not world.rating("Anna").provisional
    assert world.ratings.board("sechsundsechzig").rows == ()
    assert {n for n in names if world.rating(n) is not None} == set(names)


def test_a_leaderboard_page_is_kept_until_a_rating_changes(world: World, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(people_ratings, "MIN_GAMES", 1)
    world.table("t", "schnapsen", ["Anna", "Bert"])
    world.ratings.rate_table_of(world.game("t", won(0)))
    first = world.ratings.board("schnapsen")
    assert world.ratings.board("schnapsen") is first  # kept
    world.table("u", "schnapsen", ["Cleo", "Dora"])
    world.ratings.rate_table_of(world.game("u", won(0)))
    assert world.ratings.board("schnapsen").total == 4  # a rating applied here drops the kept pages


def test_two_writers_at_once_lose_no_update(world: World) -> None:
    """Eight tables where Anna plays, their games rated by eight threads at once (two processes of a cluster):
    every game counts once (PostgreSQL: the rows are locked FOR UPDATE; SQLite: one writer at a time)."""
    games = []
    for i in range(8):
        world.table(f"t{i}", "schnapsen", ["Anna", f"P{i}"])
        games.append(world.game(f"t{i}", won(0)))
    errors: list[BaseException] = []

    def run(game: int) -> None:
        try:
            world.ratings.rate_table_of(game)
            PeopleRatings(world.repo).rate_game(game)  # and a second process tries the same game
        except BaseException as exc:  # handed to the test's thread
            errors.append(exc)

    threads = [threading.Thread(target=run, args=(g,)) for g in games]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    anna = world.rating("Anna")
    assert anna.games == 8 and anna.won == 8
    mine = [c for c in changes(world.repo) if c[1] == world.player("Anna")]
    # A chain: each game started from the mu the one before it left, in whatever order they were applied.
    befores, afters = sorted(c[3] for c in mine), sorted(c[4] for c in mine)
    assert befores[0] == MODEL.mu and befores[1:] == afters[:-1] and afters[-1] == anna.mu


def test_a_result_as_the_server_stores_it_is_read(world: World) -> None:
    """The match verdict the room adds is stored apart (Repository.finish_game); the rating reads the game's."""
    world.table("t", "schnapsen", ["Anna", "Bert"])
    game = world.game("t", {**won(1), "match": {"over": True, "winners": [1], "seats": [1]}})
    with world.repo.engine.connect() as db:
        stored = json.loads(
            db.execute(text("SELECT result FROM bummerl_games WHERE id = :g"), {"g": game}).scalar_one()
        )
    assert "match" not in stored
    assert world.ratings.rate_table_of(game) == 1 and world.rating("Bert").won == 1


def test_one_pair_is_rated_a_limited_number_of_games_a_day(world: World, monkeypatch: pytest.MonkeyPatch) -> None:
    """docs/security.md, "Ratings": one person with two accounts who gets paired with themself cannot lift one of
    them game after game; the limit counts the last 24 hours and pairs that one game put apart."""
    monkeypatch.setattr(people_ratings, "PAIR_GAMES_PER_DAY", 3)
    world.table("t", "schnapsen", ["Anna", "Bert"])
    games = [world.game("t", won(0), game_no=i) for i in range(4)]
    world.ratings.rate_table_of(games[-1])
    assert [world.ratings.decisions([g])[g] for g in games] == ["rated"] * 3 + ["pair_limit"]
    assert world.rating("Anna").games == 3
    world.table("u", "schnapsen", ["Anna", "Cleo"])  # another opponent is rated as ever
    assert world.ratings.rate_table_of(world.game("u", won(0))) == 1
    # Bauernschnapsen: Anna and Bert on opposite sides count against the same pair; as partners they do not.
    world.table("b", "bauernschnapsen", ["Anna", "Dora", "Bert", "Emil"])  # Anna and Bert partners (seats 0, 2)
    bauer = {"contract": "normal", "declarer": 0, "winners": [0, 2], "points": 2, "reason": "x"}
    assert world.ratings.rate_table_of(world.game("b", bauer)) == 1
    world.table("c", "bauernschnapsen", ["Anna", "Bert", "Dora", "Emil"])  # Anna against Bert
    assert world.ratings.rate_table_of(world.game("c", bauer)) == 0
    with world.repo.engine.begin() as db:  # a day later
        db.execute(text("UPDATE bummerl_rated_games SET rated_at = '2000-01-01T00:00:00.000Z'"))
    assert world.ratings.rate_table_of(world.game("t", won(1), game_no=4)) == 1


# ---------------------------------------------------------------------- the migration
def test_0010_rates_no_older_table_and_goes_down_keeping_every_game(repo: Repository) -> None:
    """A table made before 0010 is not rated (``rated`` false); going down to 0009 forgets the ratings and the
    column, and keeps every table, game and player; up again, nothing is rated until a rated table's game."""
    with repo.engine.begin() as db:
        migrations.downgrade(db, "0009")
        assert not {"bummerl_people_ratings", "bummerl_rated_games"} & set(inspect(db).get_table_names())
        db.execute(
            text(
                "INSERT INTO bummerl_tables (id, variant, options, seed, target, created_at, practice)"
                " VALUES ('old', 'schnapsen', '{}', '1', 7, '2026-01-01', :no)"
            ),
            {"no": False},
        )
    repo.create_schema()
    assert repo.load_table("old").rated is False
    world = World(repo)
    world.table("t", "schnapsen", ["Anna", "Bert"])
    world.ratings.rate_table_of(world.game("t", won(0)))
    assert world.rating("Anna").games == 1
    with repo.engine.begin() as db:
        migrations.downgrade(db, "0009")
        names = set(inspect(db).get_table_names())
        assert not {"bummerl_people_ratings", "bummerl_rated_games", "bummerl_rating_changes"} & names
        assert "rated" not in {c["name"] for c in inspect(db).get_columns("bummerl_tables")}
        assert db.execute(text("SELECT count(*) FROM bummerl_games WHERE finished")).scalar_one() == 1
        assert db.execute(text("SELECT count(*) FROM bummerl_players")).scalar_one() == 2
    repo.create_schema()
    assert world.rating("Anna") is None and repo.load_table("t").rated is False
    assert world.ratings.catch_up() == 0  # the table is no longer marked rated: its game is not rated again
