"""Tests of bummerl.record, the one record format of every variant: text and JSON round trips,
replay, streaming, match records, every malformed-input error, the table games' records (once
tests/test_table_record.py: issue 4, "The same API as the two-player games: ... records") and the
golden records of tests/data/records, which every reader since has to read to the same games."""

from __future__ import annotations

import contextlib
import io
import json
import pathlib
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bummerl.actions import TWO_PLAYER_KINDS, Action, ActionKind
from bummerl.bots import make_bot
from bummerl.cards import Card, format_cards
from bummerl.errors import IllegalActionError, RecordError, Rule
from bummerl.game import Game
from bummerl.match import Match
from bummerl.record import (
    GameBuilder,
    GameRecord,
    MatchRecord,
    TagScanner,
    Visitor,
    dump,
    dumps,
    iter_games,
    iter_records,
    load,
    loads,
    loads_all,
    read_game,
    visit_games,
)
from bummerl.rng import SplitMix64
from bummerl.table_game import TableGame
from bummerl.two_player import TwoPlayerGame
from bummerl.variants.bauernschnapsen import TableEndReason

VARIANTS = ("schnapsen", "scharf", "66", "schnorps")
TABLE_VARIANTS = ("bauernschnapsen", "dreierschnapsen")
GOLDEN = pathlib.Path(__file__).parent / "data" / "records"


def random_game(variant: str, seed: int, stop: int | None = None, **options: object) -> Game:
    """A game played with uniformly random legal actions, cut after ``stop`` actions if given."""
    game = Game.deal(variant, seed=seed, dealer=seed % 2)
    if options:
        game = Game.from_deck(game.variant.with_options(**options), game.deck, game.dealer)
    rng = SplitMix64(seed ^ 0xABCDEF)
    while not game.is_over and (stop is None or len(game.actions) < stop):
        legal = game.legal_actions()
        game.apply(legal[rng.below(len(legal))])
    return game


def play_match(variant: str, seed: int, target: int | None = None, leave_open: bool = False) -> Match:
    match = Match(variant, seed=seed, target=target)
    rng = SplitMix64(seed)
    while not match.is_over:
        game = match.deal_next()
        if leave_open and len(match.games) == 3:
            game.apply(game.legal_actions()[0])
            break
        while not game.is_over:
            legal = game.legal_actions()
            game.apply(legal[rng.below(len(legal))])
        match.complete(game)
    return match


def finished_text(seed: int = 5, variant: str = "schnapsen") -> str:
    return dumps(GameRecord.from_game(random_game(variant, seed), Event="E", Seed=seed))


def assert_reproduces(record: GameRecord, game: Game) -> None:
    replayed = record.replay()
    assert replayed.actions == game.actions
    assert replayed.result == game.result
    assert replayed.deck == game.deck
    if not game.is_over:
        assert replayed.position() == game.position()


# ------------------------------------------------------------------ round trips
@pytest.mark.parametrize("variant", VARIANTS)
def test_round_trip_many_random_games(variant: str) -> None:
    """issue 2: "records round-trip exactly" — text and JSON, finished and unfinished games."""
    for seed in range(60):
        stop = None if seed % 3 else seed % 17
        game = random_game(variant, seed, stop)
        record = GameRecord.from_game(game, Event="Round trip", Seed=game_seed(game, seed), Seat0="A", Seat1="B")
        assert_reproduces(record, game)
        for fmt in ("text", "json"):
            text = dumps(record, fmt)
            again = loads(text)
            assert again == record
            assert dumps(again, fmt) == text


def game_seed(game: Game, seed: int) -> int:
    # random_game deals with this seed; the Seed tag lets the reader check the pack.
    assert Game.deal(game.variant, seed, game.dealer).deck == game.deck
    return seed


def test_round_trip_with_options() -> None:
    """Options are part of the record (RULES.md options: auto_declare, count_after_closing ...)."""
    for seed in range(20):
        game = random_game("schnapsen", seed, auto_declare=True, count_after_closing=True)
        record = GameRecord.from_game(game)
        text = dumps(record)
        assert '[Options "auto_declare=true,count_after_closing=true"]' in text
        again = loads(text)
        assert isinstance(again, GameRecord)
        assert again.variant == game.variant
        assert again.replay().result == game.result
    game = random_game("schnorps", 3, marriages=True)
    assert loads(dumps(GameRecord.from_game(game), "json")) == GameRecord.from_game(game)


tag_text = st.text(st.characters(blacklist_categories=["Cs"], blacklist_characters="\r\n"), max_size=20)
comment_text = st.text(st.characters(blacklist_categories=["Cs"], blacklist_characters="}\r"), max_size=20)


@settings(max_examples=150, deadline=None)
@given(
    variant=st.sampled_from(VARIANTS),
    seed=st.integers(0, 2**64 - 1),
    stop=st.none() | st.integers(0, 40),
    event=tag_text,
    player=tag_text,
    comments=st.lists(st.tuples(st.integers(-1, 3), comment_text), max_size=3),
)
def test_round_trip_property(
    variant: str, seed: int, stop: int | None, event: str, player: str, comments: list[tuple[int, str]]
) -> None:
    """Any game, any tag text (quotes, backslashes, brackets) and comments round-trip."""
    game = random_game(variant, seed, stop)
    comments = [(min(a, len(game.actions)), t) for a, t in comments]
    record = GameRecord.from_game(game, comments=comments, Event=event, Seat0=player, Annotator="x")
    for fmt in ("text", "json"):
        text = dumps(record, fmt)
        again = loads(text)
        assert again == record
        assert dumps(again, fmt) == text
    assert_reproduces(record, game)


def test_text_layout() -> None:
    """docs/records.md: tags, a blank line, the deal on its own line, moves, the result token."""
    game = random_game("schnapsen", 8)
    text = dumps(GameRecord.from_game(game, Event="Layout"))
    head, _, movetext = text.partition("\n\n")
    assert all(line.startswith("[") and line.endswith('"]') for line in head.splitlines())
    lines = movetext.splitlines()
    assert lines[0] == "deal:" + format_cards(game.deck)
    tokens = " ".join(lines[1:]).split()
    assert tokens[:-1] == [a.token for a in game.actions]
    assert result_of(game) == tokens[-1]
    assert all(len(line) <= 79 for line in lines[1:])
    assert text.endswith("\n")


def result_of(game: Game) -> str:
    assert game.result is not None
    return f"{game.result.points_of(0)}-{game.result.points_of(1)}"


def test_result_token_and_tags() -> None:
    """The Result tag and token give seat 0's points, then seat 1's; '*' while unfinished."""
    game = random_game("66", 4)
    record = GameRecord.from_game(game)
    assert game.result is not None
    tags = record.all_tags()
    assert tags["Result"] == record.result_token == result_of(game)
    assert tags["Reason"] == game.result.reason.value
    assert tags["Augen"] == f"{game.result.augen[0]}-{game.result.augen[1]}"
    open_game = random_game("66", 4, stop=3)
    open_record = GameRecord.from_game(open_game)
    assert open_record.result_token == "*"
    assert "Reason" not in open_record.all_tags()
    assert dumps(open_record).rstrip().endswith(" *")


# ------------------------------------------------------------------ matches
@pytest.mark.parametrize("variant", ["schnapsen", "schnorps"])
def test_match_record_round_trip(variant: str) -> None:
    """A match is consecutive games sharing a Match tag, replayed as a match."""
    match = play_match(variant, seed=21, target=5)
    record = MatchRecord.from_match(match, Event="Cup", Seat0="Anna", Seat1="Bot")
    text = dumps(record)
    again = MatchRecord.loads(text)
    assert again == record
    assert dumps(again) == text
    assert MatchRecord.loads(dumps(record, "json")) == record
    replayed = again.replay()
    assert replayed.standing == match.standing
    assert replayed.winner == match.winner
    assert [g.dealer for g in replayed.games] == [g.dealer for g in match.games]
    assert record.tags["Event"] == "Cup"
    assert "Game" not in record.tags
    for i, g in enumerate(record.games):
        assert g.tags["Game"] == str(i + 1)
        assert g.tags["StandingBefore"] == "-".join(map(str, match.history[i].standing_before))


def test_match_record_with_unfinished_game() -> None:
    """The web server stores matches as they go: the last game may be unfinished."""
    match = play_match("schnapsen", seed=30, leave_open=True)
    assert match.current is not None
    record = MatchRecord.from_match(match)
    assert record.games[-1].result is None
    assert "StandingAfter" not in record.games[-1].tags
    again = MatchRecord.loads(dumps(record))
    assert again == record
    replayed = again.replay()
    assert replayed.current is not None
    assert replayed.current.position() == match.games[-1].position()


def test_match_replay_checks_dealer_alternation() -> None:
    """seeds/003: "In den weiteren Spielen wechseln sich die Spieler in den Rollen des Gebers ... ab":
    a record whose second game is dealt by the same seat is refused."""
    match = play_match("schnapsen", seed=2)
    record = MatchRecord.from_match(match)
    g2 = record.games[1]
    bad = GameRecord.from_game(
        Game.from_deck(g2.variant, g2.deck, 1 - g2.dealer),
        comments=(),
        **{k: v for k, v in g2.tags.items() if k not in ("Seed", "StandingAfter")},
    )
    broken = MatchRecord((record.games[0], bad, *record.games[2:]))
    with pytest.raises(RecordError, match="game 2: dealt by seat"):
        broken.replay()
    # Without a MatchSeed the match itself refuses the wrong dealer.
    games = [strip_tags(g, "MatchSeed", "Seed") for g in broken.games]
    with pytest.raises(RecordError, match="game 2: game 2 must be dealt by seat"):
        MatchRecord(tuple(games)).replay()


def strip_tags(record: GameRecord, *names: str) -> GameRecord:
    tags = {k: v for k, v in record.tags.items() if k not in names}
    return GameRecord(tags, record.variant, record.dealer, record.deck, record.actions, record.result)


def test_match_replay_checks_standing_and_numbers() -> None:
    match = play_match("schnapsen", seed=3)
    record = MatchRecord.from_match(match)
    text = dumps(record)
    first_after = record.games[0].tags["StandingAfter"]
    wrong = text.replace(f'[StandingAfter "{first_after}"]', '[StandingAfter "7-7"]', 1)
    with pytest.raises(RecordError, match="StandingAfter '7-7' disagrees"):
        loads(wrong)
    wrong = text.replace('[Game "2"]', '[Game "5"]', 1)
    with pytest.raises(RecordError, match="Game tag '5' should be 2"):
        loads(wrong)
    extra = MatchRecord((*record.games, record.games[-1]))
    with pytest.raises(RecordError, match="match was over"):
        extra.replay()
    with pytest.raises(RecordError, match="at least one game"):
        MatchRecord(())
    with pytest.raises(RecordError, match="need a Match tag"):
        MatchRecord((strip_tags(record.games[0], "Match"),))


def test_match_replay_checks_seeds() -> None:
    match = play_match("scharf", seed=4)
    record = MatchRecord.from_match(match)
    g1 = record.games[0]
    other_tags = dict(g1.tags, Seed="1")
    bad = GameRecord(other_tags, g1.variant, g1.dealer, g1.deck, g1.actions, g1.result)
    with pytest.raises(RecordError, match="is not game 1's seed"):
        MatchRecord((bad, *record.games[1:])).replay()
    swapped = MatchRecord((strip_tags(record.games[1], "Game", "StandingBefore", "StandingAfter", "Seed"),))
    swapped_first = GameRecord(
        dict(swapped.games[0].tags),
        g1.variant,
        g1.dealer,
        record.games[1].deck,
        record.games[1].actions,
        record.games[1].result,
    )
    with pytest.raises(RecordError, match="not the one MatchSeed"):
        MatchRecord((swapped_first,)).replay()


def test_unfinished_game_cannot_be_followed() -> None:
    match = play_match("schnapsen", seed=5)
    record = MatchRecord.from_match(match)
    g1 = record.games[0]
    cut = GameRecord(dict(g1.tags), g1.variant, g1.dealer, g1.deck, g1.actions[:2], None)
    with pytest.raises(RecordError, match="game 1: an unfinished game has no StandingAfter"):
        MatchRecord((cut, *record.games[1:])).replay()
    cut = strip_tags(cut, "StandingAfter")
    with pytest.raises(RecordError, match="game 2: game 1 is not finished, yet game 2 follows"):
        MatchRecord((cut, *record.games[1:])).replay()


# ------------------------------------------------------------------ streaming
class CountingLines:
    """A text stream that counts the lines handed out (to prove the reader streams)."""

    def __init__(self, text: str) -> None:
        self._lines = text.splitlines(keepends=True)
        self.read = 0

    def __iter__(self) -> Iterator[str]:
        for line in self._lines:
            self.read += 1
            yield line


def test_iter_records_streams_and_groups() -> None:
    """python-chess style streaming: one record at a time, never the whole file."""
    out = io.StringIO()
    singles = [GameRecord.from_game(random_game(v, s)) for s, v in enumerate(VARIANTS)]
    match = MatchRecord.from_match(play_match("66", seed=9))
    dump(singles[0], out)
    dump(match, out)
    for r in singles[1:]:
        dump(r, out)
    text = out.getvalue()
    stream = CountingLines(text)
    records = iter_records(stream)  # type: ignore[arg-type]
    first = next(records)
    assert first == singles[0]
    assert stream.read < len(text.splitlines()) // 3
    rest = list(records)
    assert rest == [match, *singles[1:]]
    assert loads_all(text) == [singles[0], match, *singles[1:]]
    games = list(iter_games(io.StringIO(text)))
    assert len(games) == len(singles) + len(match.games)


def test_json_lines_stream() -> None:
    out = io.StringIO()
    records = [GameRecord.from_game(random_game("schnapsen", s)) for s in range(3)]
    match = MatchRecord.from_match(play_match("schnapsen", seed=1))
    for r in records:
        dump(r, out, "json")
    dump(match, out, "json")
    text = out.getvalue()
    assert len(text.splitlines()) == 4
    assert list(iter_records(io.StringIO(text))) == [*records, match]
    assert loads_all(text) == [*records, match]
    assert load(io.StringIO(dumps(match, "json"))) == match


def test_load_and_dump_files(tmp_path: object) -> None:
    path = pathlib.Path(str(tmp_path)) / "game.bum"
    record = GameRecord.from_game(random_game("scharf", 12))
    with path.open("w", encoding="utf-8") as fp:
        dump(record, fp)
    with path.open(encoding="utf-8") as fp:
        assert load(fp) == record


def test_visitor_and_tag_scanner() -> None:
    text = finished_text(6) + "\n" + finished_text(7)
    fp = io.StringIO(text)
    tags = read_game(fp, TagScanner())
    assert tags is not None and tags["Seed"] == "6" and tags["Variant"] == "schnapsen"
    second = read_game(fp)
    assert isinstance(second, GameRecord) and second.seed == 7
    assert read_game(fp) is None

    class Counter(Visitor[int]):
        def begin_game(self) -> None:
            self.n = 0

        def visit_action(self, number: int, token: str) -> None:
            self.n = number

        def result(self) -> int:
            return self.n

    assert read_game(io.StringIO(text), Counter()) == len(random_game("schnapsen", 6).actions)


# ------------------------------------------------------------------ malformed input
def error_of(text: str) -> str:
    with pytest.raises(RecordError) as info:
        loads(text)
    return str(info.value)


def test_malformed_tag_pairs() -> None:
    text = finished_text()
    assert "line 2: malformed tag pair" in error_of(text.replace('[Site "?"]', "[Site ?]"))
    assert "line 2: malformed tag pair" in error_of(text.replace('[Site "?"]', '[Site "?" extra]'))
    assert "line 2: tag Event appears twice" in error_of(text.replace('[Site "?"]', '[Event "again"]'))
    assert "expected a tag pair" in error_of("deal:AhTh 0-1\n")
    assert "tag pair inside the movetext" in error_of(text.replace("\n\ndeal:", '\n\n[Late "x"]\ndeal:'))


def test_structural_tags() -> None:
    text = finished_text()
    assert "Variant tag is missing" in error_of(text.replace('[Variant "schnapsen"]\n', ""))
    assert "unknown variant 'skat'" in error_of(text.replace('[Variant "schnapsen"]', '[Variant "skat"]'))
    assert "has no option 'colour'" in error_of(text.replace('[Options ""]', '[Options "colour=red"]'))
    assert "name=value pairs" in error_of(text.replace('[Options ""]', '[Options "auto_declare"]'))
    assert "must be true or false" in error_of(text.replace('[Options ""]', '[Options "auto_declare=maybe"]'))
    assert "Dealer tag is missing" in error_of(text.replace('[Dealer "1"]\n', ""))
    assert "Dealer must be 0 or 1" in error_of(text.replace('[Dealer "1"]', '[Dealer "2"]'))
    assert "Result must be" in error_of(replace_tag(text, "Result", "win"))
    assert "unknown Reason 'luck'" in error_of(replace_tag(text, "Reason", "luck"))
    assert "Augen must be" in error_of(replace_tag(text, "Augen", "lots"))
    assert "Seed tag must be an integer" in error_of(text.replace('[Seed "5"]', '[Seed "five"]'))
    assert "Seed 6 does not deal the recorded pack" in error_of(text.replace('[Seed "5"]', '[Seed "6"]'))


def replace_tag(text: str, name: str, value: str) -> str:
    lines = [f'[{name} "{value}"]' if line.startswith(f"[{name} ") else line for line in text.split("\n")]
    return "\n".join(lines)


def test_bad_tokens_and_deal() -> None:
    game = random_game("schnapsen", 5)
    text = finished_text()
    deal = "deal:" + format_cards(game.deck)
    first = game.actions[0].token
    moves = text.split(deal)[1]
    assert "move 1 'Xx': malformed action" in error_of(text.replace(deal + moves, deal + moves.replace(first, "Xx", 1)))
    assert "the deal is missing" in error_of(text.replace(deal + "\n", ""))
    assert "the deal is missing" in error_of(text.split(deal)[0] + "0-1\n")
    assert "a second deal" in error_of(text.replace(deal, deal + " " + deal))
    short = "deal:" + format_cards(game.deck[:-1])
    assert "bad deal: Schnapsen (weich) needs the 20-card pack" in error_of(
        text.replace(deal, short).replace('[Seed "5"]\n', "")
    )
    doubled = "deal:" + format_cards((*game.deck[:-1], game.deck[0]))
    assert "missing" in error_of(text.replace(deal, doubled).replace('[Seed "5"]\n', ""))
    assert "not in this pack" in error_of(
        text.replace(deal, "deal:" + format_cards((*game.deck[:-1], Card.parse("9h")))).replace('[Seed "5"]\n', "")
    )
    assert "bad deal" in error_of(text.replace(deal, deal + "Q").replace('[Seed "5"]\n', ""))


def farbzwang_record() -> tuple[GameRecord, Action]:
    """A record plus a follow that breaks Farbzwang (found by search over random games)."""
    for seed in range(500):
        game = Game.deal("schnapsen", seed=seed)
        rng = SplitMix64(seed)
        while not game.is_over:
            if game.lead is not None and game.strict:
                for card in game.hands[game.to_move]:
                    probe = game.copy()
                    try:
                        probe.play(card)
                    except IllegalActionError as exc:
                        if exc.rule is Rule.FARBZWANG:
                            return GameRecord.from_game(game), Action.play(card)
            legal = game.legal_actions()
            game.apply(legal[rng.below(len(legal))])
    raise AssertionError("no Farbzwang situation found")


def test_illegal_action_names_move_and_rule() -> None:
    """seeds/000: "Farbzwang geht immer vor Stichzwang" — a record that revokes is refused
    with the move number, the token and the rule."""
    record, bad = farbzwang_record()
    n = len(record.actions) + 1
    text = dumps(record).replace(" *\n", f" {bad.token} *\n")
    if text == dumps(record):  # the result token sits alone on its line
        text = dumps(record).replace("\n*\n", f"\n{bad.token} *\n")
    message = error_of(text)
    assert f"move {n} '{bad.token}': illegal action (Farbzwang)" in message
    assert message.startswith("line ")
    broken = GameRecord(record.tags, record.variant, record.dealer, record.deck, (*record.actions, bad), record.result)
    with pytest.raises(RecordError, match=rf"move {n} '{bad.token}': illegal action \(Farbzwang\)"):
        broken.replay()
    obj = json.loads(dumps(record, "json"))
    obj["actions"].append(bad.token)
    with pytest.raises(RecordError, match="illegal action"):
        loads(json.dumps(obj))


def test_actions_after_the_end() -> None:
    text = finished_text()
    game = random_game("schnapsen", 5)
    token = result_of(game)
    extra = text.replace(f" {token}\n", f" Ah {token}\n")
    assert "illegal action (game over)" in error_of(extra)


def test_results_must_agree_with_the_replay() -> None:
    game = random_game("schnapsen", 5)
    token = result_of(game)
    text = finished_text()
    a, b = token.split("-")
    flipped = f"{b}-{a}" if a != b else "9-9"
    assert f"Result tag '{token}' disagrees with the result token '{flipped}'" in error_of(
        text.replace(f" {token}\n", f" {flipped}\n")
    )
    both = text.replace(f" {token}\n", f" {flipped}\n").replace(f'[Result "{token}"]', f'[Result "{flipped}"]')
    assert f"result {flipped} disagrees with the replay: {token}" in error_of(both)
    star = text.replace(f" {token}\n", " *\n").replace(f'[Result "{token}"]', '[Result "*"]')
    assert "the game is over" in error_of(star)
    assert game.result is not None
    other_reason = "stand" if game.result.reason.value != "stand" else "declared"
    assert f"Reason '{other_reason}' disagrees" in error_of(replace_tag(text, "Reason", other_reason))
    assert "Augen '0-0' disagree" in error_of(replace_tag(text, "Augen", "0-0"))
    cut = next(g for g in (random_game("schnapsen", s, stop=4) for s in range(50)) if not g.is_over)
    open_text = dumps(GameRecord.from_game(cut))
    claimed = open_text.replace(" *\n", " 1-0\n").replace('[Result "*"]', '[Result "1-0"]')
    if claimed == open_text:
        claimed = open_text.replace("\n*\n", "\n1-0\n").replace('[Result "*"]', '[Result "1-0"]')
    assert "the game is not over after 4 moves" in error_of(claimed)
    with_reason = open_text.replace('[Result "*"]', '[Result "*"]\n[Reason "declared"]')
    assert "unfinished game has no Reason" in error_of(with_reason)


def test_truncated_input() -> None:
    text = finished_text()
    cut = text[: text.rindex(" ")] + "\n"
    assert "truncated: the game starting at line 1 has no result token" in error_of(cut)
    assert "truncated" in error_of(text.split("\n\n")[0] + "\n")
    assert "unclosed comment" in error_of(text.replace("\ndeal:", "\n{never closed\ndeal:"))
    assert "text after the result token" in error_of(text.rstrip("\n") + " Ah\n")


def test_comments_may_span_lines() -> None:
    text = finished_text().replace("\ndeal:", "\n{a comment\nover two lines} deal:")
    record = loads(text)
    assert isinstance(record, GameRecord)
    assert record.comments == ((-1, "a comment\nover two lines"),)


def test_json_errors() -> None:
    good = json.loads(dumps(GameRecord.from_game(random_game("66", 2)), "json"))
    assert "malformed JSON" in error_of("{not json")
    with pytest.raises(RecordError, match="a JSON record is an object"):
        loads("[1]", "json")
    for key, value, message in [
        ("format", "pgn", "not a Bummerl record"),
        ("type", "hand", "unknown JSON record type"),
        ("variant", 66, "'variant' must be str"),
        ("variant", "skat", "unknown variant"),
        ("options", [], "'options' must be an object"),
        ("options", {"colour": "red"}, "has no option"),
        ("dealer", 2, "'dealer' must be 0 or 1"),
        ("dealer", True, "'dealer' must be int"),
        ("deal", "AhAh", "bad deal"),
        ("actions", "Ah Th", "'actions' must be a list"),
        ("actions", ["Zz"], "move 1 'Zz': malformed action"),
        ("comments", [[1]], "'comments' must be a list"),
        ("tags", {"Variant": "66"}, "written from the record itself"),
        ("tags", {"Event": 3}, "'tags' must be an object of strings"),
        ("result", "1-0", "'result' must be an object"),
        ("result", {"points": [1]}, "'points' must be a list of two"),
        ("result", {"points": [9, 9]}, "disagrees with the replay"),
        ("result", None, "the game is over"),
    ]:
        obj = dict(good, **{key: value})
        assert message in error_of(json.dumps(obj)), (key, value)
    obj = dict(good)
    del obj["deal"]
    assert "no 'deal'" in error_of(json.dumps(obj))
    result = dict(good["result"], reason="stand" if good["result"]["reason"] != "stand" else "declared")
    assert "disagrees with the replay" in error_of(json.dumps(dict(good, result=result)))
    result = dict(good["result"], augen=[0, 0])
    assert "disagree with the replay" in error_of(json.dumps(dict(good, result=result)))
    assert "a JSON match needs a 'games' list" in error_of(json.dumps({"type": "match"}))
    assert "game 1: a JSON game is an object" in error_of(json.dumps({"type": "match", "games": [1]}))
    lines = json.dumps(good) + "\n{broken\n"
    with pytest.raises(RecordError, match="line 2: malformed JSON"):
        list(iter_records(io.StringIO(lines)))


def test_counts_and_kinds() -> None:
    text = finished_text(1) + "\n" + finished_text(2)
    with pytest.raises(RecordError, match="expected one record, found 2"):
        loads(text)
    with pytest.raises(RecordError, match="expected one record, found 0"):
        loads("\n\n")
    with pytest.raises(RecordError, match="found a match"):
        GameRecord.loads(dumps(MatchRecord.from_match(play_match("schnapsen", 1))))
    with pytest.raises(RecordError, match="found a single game"):
        MatchRecord.loads(finished_text())
    with pytest.raises(ValueError, match="format must be"):
        dumps(loads(finished_text()), "xml")  # type: ignore[arg-type]


def test_record_construction_errors() -> None:
    game = random_game("schnapsen", 1)
    with pytest.raises(RecordError, match="written from the record itself"):
        GameRecord.from_game(game, Result="1-0")
    with pytest.raises(RecordError, match="tag names"):
        GameRecord.from_game(game, comments=(), **{"1st": "x"})
    with pytest.raises(RecordError, match="one-line string"):
        GameRecord.from_game(game, Event="two\nlines")
    with pytest.raises(RecordError, match="cannot contain"):
        GameRecord.from_game(game, comments=[(0, "a } b")])
    with pytest.raises(RecordError, match="comment position"):
        GameRecord.from_game(game, comments=[(99, "late")])
    with pytest.raises(RecordError, match="no deal"):
        GameRecord.from_game(Game.from_position(Game.deal(seed=1).position()))
    with pytest.raises(RecordError, match="dealer must be seat"):
        GameRecord({}, game.variant, 2, game.deck, (), None)
    with pytest.raises(RecordError, match="per game"):
        MatchRecord.from_match(play_match("schnapsen", 1), Game="3")


def test_declare_actions_round_trip() -> None:
    """Marriages and declarations with a marriage ("declare:h") survive the text form."""
    kinds: set[ActionKind] = set()
    for seed in range(200):
        game = random_game("schnapsen", seed)
        kinds.update(a.kind for a in game.actions)
        record = loads(dumps(GameRecord.from_game(game)))
        assert isinstance(record, GameRecord)
        assert record.actions == tuple(game.actions)
    assert kinds == set(TWO_PLAYER_KINDS)


def test_docs_examples() -> None:
    """docs/records.md: every example record is real output — it reads back and is written again byte for byte."""
    import re

    doc = (pathlib.Path(__file__).parent.parent / "docs" / "records.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```(text|json)\n(.*?)```", doc, re.S)
    records = [(fmt, body) for fmt, body in blocks if body.startswith(("[", "{"))]
    assert len(records) == 6
    for fmt, body in records:
        if fmt == "json":
            assert dumps(loads(body), "json") + "\n" == body
        else:
            assert dumps(loads(body)) == body
    match = MatchRecord.loads(records[3][1]).replay()
    assert match.standing == (2, 0) and match.bummerl_for_loser == 1
    # The table game, in both forms: dealt by Game.deal("dreierschnapsen", seed=56), played by heuristic bots.
    table = GameRecord.loads(records[2][1])
    assert GameRecord.loads(records[5][1]) == table
    game = Game.deal("dreierschnapsen", seed=56)
    bots = [make_bot("heuristic", s, game.variant) for s in range(3)]
    while not game.is_over:
        game.apply(bots[game.to_move].choose(game.view(game.to_move)))
    assert table.actions == tuple(game.actions) and table.replay().result == game.result


_SAMPLES = [dumps(GameRecord.from_game(random_game(v, s), Seed=s)) for s, v in enumerate(VARIANTS)]
_SAMPLES.append(dumps(MatchRecord.from_match(play_match("schnorps", 3, target=3))))
_SAMPLES += [dumps(loads(t), "json") for t in _SAMPLES]


@settings(max_examples=300, deadline=None)
@given(
    sample=st.sampled_from(_SAMPLES),
    edits=st.lists(
        st.tuples(
            st.floats(0, 1, exclude_max=True),
            st.sampled_from(["del", "ins", "set"]),
            st.sampled_from(list('[]"{}\\-*: \n0123456789AhTKQJcsd9x')),
        ),
        min_size=1,
        max_size=4,
    ),
)
def test_mutated_records_fail_cleanly(sample: str, edits: list[tuple[float, str, str]]) -> None:
    """issue 2, "Bad input": a damaged record either still reads or raises RecordError — never another exception."""
    chars = list(sample)
    for where, op, ch in edits:
        i = int(where * len(chars))
        if op == "del":
            del chars[i]
        elif op == "ins":
            chars.insert(i, ch)
        else:
            chars[i] = ch
    with contextlib.suppress(RecordError):
        loads_all("".join(chars))


def test_visit_games_counts_lines_from_the_file_start() -> None:
    first = finished_text(6)
    second = finished_text(7).replace('[Site "?"]', "[Site ?]")
    scanned = list(visit_games(io.StringIO(first + "\n" + first), TagScanner()))
    assert [tags["Seed"] for tags in scanned] == ["6", "6"]
    expected_line = len(first.splitlines()) + 1 + 2  # the blank line, then Site is the second tag
    with pytest.raises(RecordError, match=f"line {expected_line}: malformed tag pair"):
        list(visit_games(io.StringIO(first + "\n" + second), GameBuilder()))


# ------------------------------------------------------------------ table games (issue 4: "the same API ... records")
def random_table(variant: str, seed: int, stop: int | None = None, **options: object) -> TableGame:
    n = 4 if variant == "bauernschnapsen" else 3
    v = TableGame.deal(variant).variant
    t = TableGame.deal(v.with_options(**options) if options else v, seed=seed, dealer=seed % n)
    bots = [make_bot("random" if seed % 2 else "heuristic", seed * 3 + s, t.variant) for s in range(n)]
    while not t.is_over and (stop is None or len(t.actions) < stop):
        t.apply(bots[t.to_move].choose(t.view(t.to_move)))
    return t


@pytest.mark.parametrize("variant", TABLE_VARIANTS)
@pytest.mark.parametrize("fmt", ["text", "json"])
def test_table_round_trip_finished_and_unfinished(variant: str, fmt: str) -> None:
    """Every record reads back equal, via the record's own loads and via bummerl.record.loads,
    and replays to the same result; redeals (seeds/003: "drei Unter") included."""
    reasons = set()
    for seed in range(40):
        t = random_table(variant, seed, stop=None if seed % 4 else 7 + seed % 9)
        record = GameRecord.from_game(t, Event="test", Seed=seed, Seat0="anna")
        text = dumps(record, fmt)  # type: ignore[arg-type]
        assert text == record.dumps(fmt)  # type: ignore[arg-type]
        again = loads(text)
        assert again == record
        assert GameRecord.loads(text) == record
        replayed = again.replay() if isinstance(again, GameRecord) else None
        assert replayed is not None and replayed.result == t.result
        if t.result is not None:
            reasons.add(t.result.reason)
    assert len(reasons) >= 3


def test_table_text_form_has_per_seat_result_and_contract_tags() -> None:
    t = random_table("dreierschnapsen", 2)
    assert t.result is not None
    text = GameRecord.from_game(t).dumps()
    result = "-".join(str(t.result.points_of(s)) for s in range(3))
    assert f'[Result "{result}"]' in text
    assert text.rstrip().endswith(" " + result)
    assert f'[Contract "{t.result.contract}"]' in text
    assert '[Seat2 "?"]' in text and "[Seat3" not in text


def test_mixed_file_of_two_and_table_games() -> None:
    """load/dump handle both kinds; a file may hold both."""
    game = Game.deal("schnapsen", seed=5)
    while not game.is_over:
        game.apply(game.legal_actions()[0])
    two = GameRecord.from_game(game)
    table = GameRecord.from_game(random_table("bauernschnapsen", 3))
    for fmt in ("text", "json"):
        fp = io.StringIO()
        dump(two, fp, fmt)  # type: ignore[arg-type]
        dump(table, fp, fmt)  # type: ignore[arg-type]
        records = list(iter_records(io.StringIO(fp.getvalue())))
        assert records == [two, table]
        assert loads_all(fp.getvalue()) == [two, table]
    assert load(io.StringIO(dumps(table))) == table


def test_table_options_are_recorded() -> None:
    t = random_table("bauernschnapsen", 6, assen_bettler=True, zehnerloch_points=8)
    record = GameRecord.from_game(t)
    assert '[Options "assen_bettler=true,zehnerloch_points=8"]' in record.dumps()
    assert loads(record.dumps()) == record


def test_table_errors_name_the_problem() -> None:
    t = random_table("bauernschnapsen", 4)
    assert t.result is not None and t.result.reason is not TableEndReason.REDEAL
    text = GameRecord.from_game(t, Seed=4).dumps()
    with pytest.raises(RecordError, match="Seed 5 does not deal"):
        loads(text.replace('[Seed "4"]', '[Seed "5"]'))
    with pytest.raises(RecordError, match=r"Dealer must be a seat 0\.\.3"):
        loads(text.replace('[Dealer "0"]', '[Dealer "7"]'))
    first = t.actions[0].token
    with pytest.raises(RecordError, match="move 1 'pass'"):
        loads(
            text.replace(
                f"\ndeal:{''.join(c.code for c in t.deck)}\n{first} ",
                f"\ndeal:{''.join(c.code for c in t.deck)}\npass ",
            )
        )
    with pytest.raises(RecordError, match="Contract 'gang' disagrees"):
        loads(text.replace(f'[Contract "{t.result.contract}"]', '[Contract "gang"]'))
    with pytest.raises(RecordError, match="the Contract tag is written from the record"):
        GameRecord.from_game(t, Contract="x")
    tokens = text.rstrip().split()
    with pytest.raises(RecordError, match="disagrees"):
        loads(text.rstrip()[: -len(tokens[-1])] + "9-9-9-9\n")
    # The tags and JSON keys made from a table game's result are checked like a two-player game's.
    with pytest.raises(RecordError, match="Result must be 'a-b-c-d' or"):
        loads(replace_tag(text, "Result", "0-0-0"))
    with pytest.raises(RecordError, match="Declarer '9' disagrees"):
        loads(replace_tag(text, "Declarer", "9"))
    obj = json.loads(GameRecord.from_game(t).dumps("json"))
    with pytest.raises(RecordError, match="'points' must be a list of four"):
        loads(json.dumps(dict(obj, result=dict(obj["result"], points=[0, 1]))))
    with pytest.raises(RecordError, match="declarer 9 disagrees"):
        loads(json.dumps(dict(obj, result=dict(obj["result"], declarer=9))))


def test_table_tags_before_the_variant_and_of_unfinished_games() -> None:
    """A reader accepts any tag order (docs/records.md): the seats of Dealer and Result are checked once
    the Variant tag is known; an unfinished game has no tag made from a result."""
    t = random_table("dreierschnapsen", 8)
    text = GameRecord.from_game(t).dumps()
    head, _, moves = text.partition("\n\n")
    lines = head.splitlines()
    variant = next(line for line in lines if line.startswith("[Variant "))
    moved = "\n".join([line for line in lines if line != variant] + [variant]) + "\n\n" + moves
    assert loads(moved) == loads(text)
    with pytest.raises(RecordError, match=r"Dealer must be a seat 0\.\.2, not '3'"):
        loads(moved.replace('[Dealer "1"]', '[Dealer "3"]').replace('[Dealer "2"]', '[Dealer "3"]'))
    with pytest.raises(RecordError, match="Result must be 'a-b-c'"):
        loads(replace_tag(moved, "Result", "1-0"))
    open_text = GameRecord.from_game(random_table("dreierschnapsen", 8, stop=5)).dumps()
    with pytest.raises(RecordError, match="an unfinished game has no Reason tag"):
        loads(open_text.replace('[Result "*"]', '[Result "*"]\n[Reason "declared"]'))


def test_one_record_type_for_every_variant() -> None:
    """Issue 11: one record format and reader for every variant; ``replay`` makes a Game, or a game of
    the engine asked for, which refuses a record of the other family."""
    from bummerl.variants import VARIANTS as ALL

    for variant in ALL:
        game = Game.deal(variant, seed=3)
        while not game.is_over:
            game.apply(game.legal_actions()[-1])
        record = GameRecord.loads(dumps(GameRecord.from_game(game, Seed=3)))
        assert record.variant == game.variant and record.replay().result == game.result
        engine = TwoPlayerGame if game.players == 2 else TableGame
        other = TableGame if game.players == 2 else TwoPlayerGame
        assert type(record.replay(engine)) is engine
        with pytest.raises(RecordError, match=f"is not played by {other.__name__}"):
            record.replay(other)
        assert [f"Seat{s}" in record.all_tags() for s in range(4)] == [s < game.players for s in range(4)]


def test_table_games_with_a_match_tag_are_read_alone() -> None:
    """The match to 24 has no record form: table games written with Match and Game tags (bummerl play
    --record, the web server) are single games, and a match record of table games is refused."""
    records = loads_all((GOLDEN / "table_play_record.txt").read_text(encoding="utf-8"))
    assert [type(r) for r in records] == [GameRecord] * 3
    assert [r.tags["Game"] for r in records if isinstance(r, GameRecord)] == ["1", "2", "3"]
    game = records[0]
    assert isinstance(game, GameRecord)
    with pytest.raises(RecordError, match="Dreierschnapsen has no match record"):
        MatchRecord((game,))


# ------------------------------------------------------------------ golden records
def _game_summary(g: GameRecord) -> dict[str, Any]:
    game = g.replay()
    r = game.result
    n = g.variant.players
    return {
        "tags": dict(g.tags),
        "all_tags": dict(g.all_tags()),
        "variant": g.variant.name,
        "options": {k: str(v) for k, v in sorted(g.variant.options().items())},
        "players": n,
        "dealer": g.dealer,
        "deal": "".join(c.code for c in g.deck),
        "actions": [a.token for a in g.actions],
        "comments": [list(c) for c in g.comments],
        "result_token": g.result_token,
        "result": None
        if r is None
        else {"points": [r.points_of(s) for s in range(n)], "reason": r.reason.value, "augen": list(r.augen)},
        "position": None if game.is_over else game.position(),
    }


def _summary(record: GameRecord | MatchRecord) -> dict[str, Any]:
    """What a reader read from a record (the function that wrote tests/data/records/expected.json)."""
    if isinstance(record, GameRecord):
        return {"game": _game_summary(record)}
    m = record.replay()
    return {"match": [_game_summary(g) for g in record.games], "standing": list(m.standing), "winner": m.winner}


@pytest.mark.parametrize(
    "path", sorted(p.name for p in GOLDEN.iterdir() if p.suffix in (".txt", ".json", ".jsonl") and p.stem != "expected")
)
def test_golden_records_read_as_before(path: str) -> None:
    """Issue 11: "old records still read": every kind of record written before the two readers became one
    reads to the same games (tests/data/records/expected.json: what the old readers read) and is written
    back byte for byte."""
    expected = json.loads((GOLDEN / "expected.json").read_text(encoding="utf-8"))
    text = (GOLDEN / path).read_text(encoding="utf-8")
    records = loads_all(text)
    assert [_summary(r) for r in records] == expected[path]
    fmt = "json" if path.endswith((".json", ".jsonl")) else "text"
    if path.endswith(".json") or path.startswith("server_"):
        assert [dumps(r, fmt) for r in records] == [text]  # type: ignore[arg-type]
    else:
        assert "".join(dumps(r, fmt) + "\n" for r in records) == text  # type: ignore[arg-type]
    with open(GOLDEN / path, encoding="utf-8") as fp:
        assert list(iter_records(fp)) == records
