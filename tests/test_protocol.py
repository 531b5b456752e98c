"""The bot protocol (docs/protocol.md): messages, the host's fault handling, the
client, real processes, and that no message ever carries a hidden card."""

from __future__ import annotations

import json
import re
import shlex
import shutil
import subprocess
import sys
import textwrap
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bummerl.actions import Action
from bummerl.arena import ArenaConfig, run_arena
from bummerl.bots import Bot, RandomBot, make_bot
from bummerl.cards import Card, Rank
from bummerl.game import Game
from bummerl.protocol import (
    EOF,
    PROTOCOL,
    TIMEOUT,
    VERSION,
    BotFault,
    ClientSession,
    LoopbackTransport,
    ProcessBot,
    ProtocolError,
    ScriptedTransport,
    decode,
    encode,
    result_from_json,
    result_to_json,
    variant_from_json,
    variant_to_json,
    view_from_json,
    view_to_json,
)
from bummerl.rng import SplitMix64, derive_seed
from bummerl.table_game import TableGame
from bummerl.variants import VARIANTS, TableVariant, TwoPlayerVariant, find_table_variant, find_variant
from bummerl.variants.bauernschnapsen import Phase
from bummerl.view import PlayerView, TableView
from bummerl.view_json import table_view_from_json

ROOT = Path(__file__).resolve().parents[1]
HELLO = {"type": "hello", "protocol": PROTOCOL, "version": VERSION, "name": "mock"}
#: The two-player variants (VARIANTS holds all six once the variant lookup is one, issue 11).
TWO_PLAYER_VARIANTS: list[TwoPlayerVariant] = [v for v in VARIANTS if v.players == 2]  # type: ignore[misc]


def random_views(variant: TwoPlayerVariant, games: int, seed: int = 0) -> list[PlayerView]:
    """Both players' views at every decision of random games."""
    views = []
    for i in range(games):
        game = Game.deal(variant, seed=derive_seed(seed, i), dealer=i % 2)
        bot = RandomBot(derive_seed(seed, i, 1))
        while not game.is_over:
            views += [game.view(0), game.view(1)]
            game.apply(bot.choose(game.view(game.to_move)))
        views += [game.view(0), game.view(1)]
    return views


# ------------------------------------------------------------------ messages
@pytest.mark.parametrize("variant", [*VARIANTS, find_variant("schnapsen", auto_declare=True)], ids=lambda v: v.name)
def test_view_round_trips_through_json(variant: TwoPlayerVariant) -> None:
    """Every view of random games survives view_to_json -> JSON text -> view_from_json unchanged,
    so a bot behind the protocol knows exactly what an in-process bot knows."""
    for view in random_views(variant, 40):
        data = json.loads(encode(view_to_json(view)))
        assert view_from_json(data) == view


def test_scharf_view_has_no_augen() -> None:
    """RULES.md: "Scharf also means: a player may not look at won tricks — the UI shows no
    running Augen total"; the protocol sends augen null until the game is over."""
    game = Game.deal("scharf", seed=4)
    assert view_to_json(game.view(0))["augen"] is None


def _view_json(**changes: Any) -> dict[str, Any]:
    data = view_to_json(Game.deal("schnapsen", seed=1).view(0))
    data.update(changes)
    return data


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"hand": ["9h", "Ah"]}, "9h is not in the 20-card pack"),
        ({"hand": ["Xh"]}, "view.hand[0]"),
        ({"played": None}, "view.played must be a list"),
        ({"variant": {"name": "skat"}}, "unknown variant 'skat'"),
        ({"variant": {"name": "schnapsen", "options": {"colour": 1}}}, "has no option 'colour'"),
        ({"variant": {"name": "schnapsen", "deck_size": 24}}, "variant.deck_size is 24"),
        ({"seat": 2}, "view.seat must be seat 0 or 1"),
        ({"talon_size": 12}, "view.talon_size must be an integer 0..9"),
        ({"trump": "x"}, "view.trump must be a suit letter"),
        ({"augen": [1]}, "view.augen must be a list of two"),
        ({"closed_at_trick": 2}, "closed_at_trick and view.closed_by"),
    ],
)
def test_view_that_does_not_fit_is_a_clear_error(changes: dict[str, Any], message: str) -> None:
    """Issue 3, Bad input: "A view or action that does not fit the variant ...: a clear error"."""
    with pytest.raises(ProtocolError, match=re.escape(message)):
        view_from_json(_view_json(**changes))


def test_view_with_a_card_in_two_places_is_refused() -> None:
    data = _view_json()
    data["played"] = [data["hand"][0]]
    with pytest.raises(ProtocolError, match=f"{data['hand'][0]} is both in hand and in played"):
        view_from_json(data)


def test_view_without_a_field_names_it() -> None:
    data = _view_json()
    del data["trump"], data["lead"]
    with pytest.raises(ProtocolError, match="view lacks trump, lead"):
        view_from_json(data)


@pytest.mark.parametrize(
    ("line", "message"),
    [("hello", "not a JSON line"), ("[1, 2]", "must be a JSON object"), ('{"kind": "hello"}', "needs a string 'type'")],
)
def test_decode_rejects_non_messages(line: str, message: str) -> None:
    """Issue 3, Bad input: "a protocol message that is not valid JSON: a clear error"."""
    with pytest.raises(ProtocolError, match=message):
        decode(line)


# ------------------------------------------------------------ scripted host
def _decide_view() -> tuple[Game, PlayerView]:
    game = Game.deal("schnapsen", seed=9)
    return game, game.view(game.to_move)


def _scripted(*steps: tuple[Any, ...]) -> tuple[ProcessBot, ScriptedTransport]:
    transport = ScriptedTransport().expect("hello", HELLO)
    for match, *replies in steps:
        transport.expect(match, *replies)
    return ProcessBot(transport_factory=lambda: transport, label="mock", move_timeout=0.5), transport


def test_scripted_round_trip() -> None:
    """Handshake, game_start with a seed, decide with view and legal tokens, action, game_end, quit."""
    game, view = _decide_view()
    token = game.legal_actions()[-1].token
    bot, transport = _scripted(
        ({"type": "game_start", "seat": view.player, "dealer": game.dealer, "seed": 77},),
        (
            {"type": "decide", "id": 1},
            {"type": "info", "message": "thinking"},
            {"type": "action", "id": 1, "action": token},
        ),
        ("game_end",),
        ("quit",),
    )
    bot.begin_game(view, seed=77, game="g1")
    assert bot.choose(view) == Action.parse(token)
    sent = decode(transport.sent[2])
    assert sent["legal"] == [a.token for a in game.legal_actions()]
    assert view_from_json(sent["view"]) == view
    game.apply(token)
    while not game.is_over:
        game.apply(game.legal_actions()[0])
    bot.end_game(game.view(view.player))
    assert decode(transport.sent[3])["result"]["winner"] == game.result.winner  # type: ignore[union-attr]
    bot.close()
    transport.assert_done()
    assert bot.bot_name == "mock"


@pytest.mark.parametrize(
    ("replies", "kind", "message"),
    [
        ((TIMEOUT,), "timeout", "did not answer decide #1 within 0.5 s"),
        ((EOF,), "crash", "stopped while waiting for decide #1"),
        (("this is not json",), "garbage", "not a JSON line: 'this is not json'"),
        (({"type": "hello"},), "garbage", "answered decide #1 with"),
        (({"type": "action", "id": 1, "action": "Xx"},), "illegal", "'Xx', which is not an action token"),
        (({"type": "action", "id": 1, "action": 7},), "illegal", "not a string: 7"),
        (({"type": "error", "message": "out of memory"},), "error", "reported an error: out of memory"),
    ],
)
def test_faulty_answers_raise_bot_fault(replies: tuple[Any, ...], kind: str, message: str) -> None:
    """Issue 3: "a bot that crashes, answers late or answers an illegal action forfeits that game
    with a clear message" — the host raises BotFault naming the bot and what went wrong."""
    _, view = _decide_view()
    bot, _ = _scripted(("decide", *replies))
    with pytest.raises(BotFault, match=re.escape(message)) as info:
        bot.choose(view)
    assert info.value.kind == kind
    assert "mock" in str(info.value)


def test_illegal_but_wellformed_action_lists_the_legal_ones() -> None:
    game, view = _decide_view()
    held = set(view.hand)
    foreign = next(c for c in game.deck if c not in held)
    bot, _ = _scripted(("decide", {"type": "action", "id": 1, "action": foreign.code}))
    legal = " ".join(a.token for a in view.legal_actions())
    with pytest.raises(BotFault, match="not legal now; legal: " + re.escape(legal)):
        bot.choose(view)


def test_late_answer_to_an_old_question_is_skipped() -> None:
    """A reply whose id names an earlier decide is stale and ignored; the current one counts."""
    game, view = _decide_view()
    tokens = [a.token for a in game.legal_actions()]
    bot, transport = _scripted(
        ("decide", {"type": "action", "id": 0, "action": tokens[0]}, {"type": "action", "id": 1, "action": tokens[1]})
    )
    assert bot.choose(view).token == tokens[1]
    transport.assert_done()


def test_wrong_protocol_version_is_refused_at_hello() -> None:
    transport = ScriptedTransport().expect("hello", {**HELLO, "version": 2})
    bot = ProcessBot(transport_factory=lambda: transport, label="v2")
    with pytest.raises(BotFault, match="version 2; this host speaks 'bummerl-bot' version 1") as info:
        bot.start()
    assert info.value.kind == "start"
    assert transport.closed


def test_crashed_bot_is_restarted_for_the_next_decision() -> None:
    """After a failure the process is stopped; the next use starts a fresh one (restarts counts them)."""
    game, view = _decide_view()
    token = game.legal_actions()[0].token
    scripts = [
        ScriptedTransport().expect("hello", HELLO).expect("decide", EOF),
        ScriptedTransport().expect("hello", HELLO).expect("decide", {"type": "action", "action": token}),
    ]
    made: list[ScriptedTransport] = []

    def factory() -> ScriptedTransport:
        made.append(scripts[len(made)])
        return made[-1]

    bot = ProcessBot(transport_factory=factory, label="flaky")
    with pytest.raises(BotFault):
        bot.choose(view)
    assert made[0].closed
    assert bot.choose(view).token == token
    assert bot.restarts == 1
    for t in scripts:
        t.assert_done()


# -------------------------------------------------------------- client side
def test_client_session_answers_and_reports_errors() -> None:
    session = ClientSession(lambda seed: make_bot("random", seed))
    replies, going = session.handle_line(encode({"type": "hello", "protocol": PROTOCOL, "version": VERSION}))
    assert going and decode(replies[0]) == {**HELLO, "name": "random"}
    replies, _ = session.handle_line("{not json")
    assert decode(replies[0])["type"] == "error"
    bad_view = _view_json(hand=["9h"])
    replies, _ = session.handle_line(encode({"type": "decide", "id": 3, "view": bad_view, "legal": []}))
    reply = decode(replies[0])
    assert reply["type"] == "error" and "9h is not in the 20-card pack" in reply["message"]
    assert session.handle_line(encode({"type": "quit"})) == ([], False)


def test_loopback_bot_plays_like_the_bot_itself() -> None:
    """Through the protocol (view -> JSON -> view) a seeded bot chooses exactly as in process."""
    for variant in TWO_PLAYER_VARIANTS:
        for i in range(10):
            seed = derive_seed(5, i)
            direct, hosted = (
                make_bot("heuristic", seed),
                ProcessBot(
                    transport_factory=lambda s=seed: LoopbackTransport(make_bot("heuristic", s))  # type: ignore[misc]
                ),
            )
            game = Game.deal(variant, seed=seed)
            while not game.is_over:
                view = game.view(game.to_move)
                action = hosted.choose(view)
                assert action == direct.choose(view)
                game.apply(action)


# ---------------------------------------------------------- hidden cards
CARD_TOKEN = re.compile(r"(?<![A-Za-z0-9])([AKQJT987][hdcs])(?![A-Za-z0-9])")


class _Knowledge:
    """What each seat has seen, derived from the game independently of bummerl.view."""

    def __init__(self, game: Game) -> None:
        self.game = game
        self.seen: list[set[Card]] = [set(), set()]
        self.update()

    def update(self) -> None:
        g = self.game
        played = {c for t in g.tricks for c in (t.lead, t.follow)} | ({g.lead} if g.lead else set())
        shown = {Card(s, r) for _, s in g.marriages for r in (Rank.KING, Rank.OBER)}
        for p in (0, 1):
            seen = self.seen[p]
            seen |= set(g.hands[p]) | played | shown
            if g.trump_card is not None:
                seen.add(g.trump_card)  # face up (or seen before it was turned down)
            if not g.talon and g.closed_by is None:
                seen |= set(g.hands[1 - p])  # the talon is exhausted: known by elimination


def _scan(lines: list[str], allowed: set[Card]) -> int:
    found = 0
    for line in lines:
        for code in CARD_TOKEN.findall(line):
            found += 1
            assert Card.parse(code) in allowed, f"hidden card {code} sent to a bot: {line}"
    return found


def _traced_bot(seed: int, sink: list[str]) -> ProcessBot:
    """A random bot behind the protocol whose incoming lines are collected in ``sink``."""

    def trace(direction: str, line: str) -> None:
        if direction == "send":
            sink.append(line)

    return ProcessBot(transport_factory=lambda: LoopbackTransport(make_bot("random", seed)), trace=trace)


def test_no_message_to_a_bot_names_a_hidden_card() -> None:
    """Issue 3: "The host must never reveal hidden cards to a bot."  Every line sent to either bot
    over many random games of every variant names only cards that seat has seen."""
    scanned = 0
    for variant in TWO_PLAYER_VARIANTS:
        for i in range(60):
            game = Game.deal(variant, seed=derive_seed(99, i), dealer=i % 2)
            sent: list[list[str]] = [[], []]
            bots = [_traced_bot(derive_seed(i, seat), sent[seat]) for seat in (0, 1)]
            know = _Knowledge(game)
            for seat in (0, 1):
                bots[seat].begin_game(game.view(seat), seed=i, game=i)
            while not game.is_over:
                # Checked against what the seat knew when the message was sent,
                # before the action reveals anything new.
                seat = game.to_move
                action = bots[seat].choose(game.view(seat))
                for p in (0, 1):
                    scanned += _scan(sent[p], know.seen[p])
                    sent[p].clear()
                game.apply(action)
                know.update()
            for seat in (0, 1):
                bots[seat].end_game(game.view(seat))
                scanned += _scan(sent[seat], know.seen[seat])
    assert scanned > 10_000  # the scan really saw the cards of the messages


def test_the_scan_catches_a_leak() -> None:
    """The scanner itself fails on a message that names the opponent's unseen hand."""
    game = Game.deal("schnapsen", seed=2)
    know = _Knowledge(game)
    leak = encode({"type": "decide", "view": {"hand": [c.code for c in game.hands[1]]}})
    with pytest.raises(AssertionError, match="hidden card"):
        _scan([leak], know.seen[0])


# ------------------------------------------------------------ real processes
FAULTY_BOT = textwrap.dedent(
    """
    import json, sys, time
    mode = sys.argv[1]
    decisions = 0
    for line in sys.stdin:
        m = json.loads(line)
        if m["type"] == "hello":
            print(json.dumps({"type": "hello", "protocol": "bummerl-bot", "version": 1, "name": mode}), flush=True)
        elif m["type"] == "decide":
            decisions += 1
            if decisions == 2:
                if mode == "crash":
                    print("segfault imitation", file=sys.stderr, flush=True)
                    sys.exit(3)
                if mode == "slow":
                    time.sleep(5)
                if mode == "garbage":
                    print("e2e4", flush=True)
                    continue
                if mode == "illegal":
                    print(json.dumps({"type": "action", "id": m["id"], "action": "close:now"}), flush=True)
                    continue
            print(json.dumps({"type": "action", "id": m["id"], "action": m["legal"][0]}), flush=True)
        elif m["type"] == "quit":
            break
    """
)


def faulty_command(mode: str) -> list[str]:
    return [sys.executable, "-c", FAULTY_BOT, mode]


@pytest.mark.parametrize(
    ("mode", "kind", "message"),
    [
        ("crash", "crash", "exit code 3; stderr: segfault imitation"),
        ("slow", "timeout", "within 0.3 s"),
        ("garbage", "garbage", "not a JSON line: 'e2e4'"),
        ("illegal", "illegal", "'close:now', which is not an action token"),
    ],
)
def test_real_process_faults(mode: str, kind: str, message: str) -> None:
    """A real child process that fails on its second decision: BotFault with the reason, and a
    crashed or late process is replaced by a new one that plays on."""
    game = Game.deal("schnapsen", seed=1)
    with ProcessBot(faulty_command(mode), move_timeout=0.3) as bot:
        game.apply(bot.choose(game.view(game.to_move)))
        with pytest.raises(BotFault, match=re.escape(message)) as info:
            bot.choose(game.view(game.to_move))
        assert info.value.kind == kind
        assert bot.choose(game.view(game.to_move)) in game.legal_actions()
        assert bot.restarts == (0 if kind == "illegal" else 1)


def test_missing_program_is_a_start_fault() -> None:
    bot = ProcessBot("cmd:/nonexistent/bummerl-bot-program")
    with pytest.raises(BotFault, match="could not be started") as info:
        bot.choose(Game.deal("schnapsen", seed=1).view(0))
    assert info.value.kind == "start"


def _play_with(bots: list[Bot], game: Game, seeds: tuple[int, int]) -> list[str]:
    for seat in (0, 1):
        begin: Callable[..., None] | None = getattr(bots[seat], "begin_game", None)
        if begin is not None:
            begin(game.view(seat), seed=seeds[seat])
    tokens = []
    while not game.is_over:
        action = bots[game.to_move].choose(game.view(game.to_move))
        tokens.append(action.token)
        game.apply(action)
    return tokens


def test_bummerl_bot_command_serves_over_stdin_stdout() -> None:
    """`python -m bummerl bot random` plays whole games as a child process; with the per-game
    seeds of game_start it plays exactly like make_bot("random", seed) in process."""
    command = [sys.executable, "-m", "bummerl", "bot", "random"]
    with ProcessBot(command) as p0, ProcessBot(command) as p1:
        for i in range(3):
            seeds = (derive_seed(i, 0), derive_seed(i, 1))
            hosted = _play_with([p0, p1], Game.deal("66", seed=i), seeds)
            in_process = [make_bot("random", seeds[0]), make_bot("random", seeds[1])]
            direct = _play_with(in_process, Game.deal("66", seed=i), seeds)
            assert hosted == direct
        assert p0.bot_name == "random"


def test_bummerl_bot_command_rejects_unknown_bot() -> None:
    """Issue 3, Bad input: "an unknown bot name: a clear error"."""
    proc = subprocess.run(
        [sys.executable, "-m", "bummerl", "bot", "nonsense"], capture_output=True, text=True, timeout=60, check=False
    )
    assert proc.returncode == 2
    assert "unknown bot 'nonsense'" in proc.stderr
    assert proc.stdout == ""


def test_serve_via_python_c() -> None:
    """Any Python bot can be served with bummerl.protocol.serve."""
    code = (
        "from bummerl.protocol import serve; from bummerl.bots import make_bot;"
        " serve(lambda s: make_bot('heuristic', s))"
    )
    with ProcessBot([sys.executable, "-c", code]) as bot:
        game = Game.deal("schnapsen", seed=5)
        assert _play_with([bot, make_bot("random", 1)], game, (1, 2))
        assert bot.bot_name == "heuristic"


@pytest.mark.parametrize(
    "command",
    [
        pytest.param(["node", str(ROOT / "examples/bots/greedy.js")], id="node"),
        pytest.param([sys.executable, str(ROOT / "examples/bots/minimal.py")], id="python"),
    ],
)
def test_example_bots_play_every_variant(command: list[str]) -> None:
    """The example bots in other programs (JavaScript, plain Python without Bummerl) play whole
    games of every variant through the protocol: the protocol is language-neutral."""
    if shutil.which(command[0]) is None:
        pytest.skip(f"{command[0]} is not installed")
    with ProcessBot(command) as bot:
        for i, variant in enumerate(TWO_PLAYER_VARIANTS):
            game = Game.deal(variant, seed=i)
            _play_with([bot, make_bot("random", i)] if i % 2 else [make_bot("random", i), bot], game, (i, i))
            assert game.is_over
        assert bot.restarts == 0


def test_client_refuses_another_protocol_version() -> None:
    """docs/protocol.md, Versioning: a bot answers an unknown version with an error message."""
    replies, going = ClientSession(make_bot("random")).handle_line(
        encode({"type": "hello", "protocol": PROTOCOL, "version": 99})
    )
    assert going and decode(replies[0])["type"] == "error" and "version 1" in decode(replies[0])["message"]


def test_make_bot_accepts_cmd_bots() -> None:
    """`cmd:<command line>` works wherever a bot is made by name."""
    bot = make_bot(f"cmd:{sys.executable} {ROOT / 'examples/bots/minimal.py'}")
    assert isinstance(bot, ProcessBot)
    with bot:
        game = Game.deal("scharf", seed=3)
        _play_with([bot, make_bot("heuristic")], game, (1, 2))
        assert game.is_over and bot.bot_name == "minimal-py"


def test_flood_of_info_lines_still_times_out() -> None:
    """info lines do not extend the move time (docs/protocol.md, Timeouts and failures)."""
    flood = "import sys\nfor line in sys.stdin:\n    " + (
        'print(\'{"type":"hello","protocol":"bummerl-bot","version":1,"name":"f"}\', flush=True)'
        " if 'hello' in line else [print('{\"type\":\"info\"}', flush=True) for _ in iter(int, 1)]"
    )
    with ProcessBot([sys.executable, "-c", flood], move_timeout=0.3) as bot:
        with pytest.raises(BotFault, match=re.escape("within 0.3 s")) as info:
            bot.choose(Game.deal("schnapsen", seed=1).view(0))
        assert info.value.kind == "timeout"


# ================================================================ table games
# The protocol for three and four players (docs/protocol.md, "Table games"): the same messages,
# a table view in decide, one process per seat.
TABLE_VARIANTS = [
    find_table_variant("bauernschnapsen"),
    find_table_variant("bauernschnapsen", max_doubling=1, bauernloch=True, assen_bettler=True),
    find_table_variant("dreierschnapsen"),
    find_table_variant("dreierschnapsen", may_skip_talon=True, raise_after_talon=True),
]


@settings(max_examples=40, deadline=None)
@given(variant=st.sampled_from(TABLE_VARIANTS), seed=st.integers(min_value=0, max_value=2**32))
def test_table_view_round_trips_through_json(variant: TableVariant, seed: int) -> None:
    """Every seat's view at every decision point of a random table game survives view_to_json -> JSON text
    -> view_from_json unchanged, so a bot behind the protocol sees what an in-process bot sees."""
    rng = SplitMix64(seed)
    table = TableGame.deal(variant, seed=seed, dealer=seed % variant.players)
    while True:
        for seat in range(variant.players):
            view = table.view(seat)
            data = json.loads(encode(view_to_json(view)))
            assert view_from_json(data) == view
            assert table_view_from_json(data) == view
        if table.is_over:
            break
        actions = table.legal_actions()
        table.apply(actions[rng.below(len(actions))])


def test_table_view_json_names_the_decision() -> None:
    """The view of a table game carries the phase, the bidding, the contract, the doubling and the partner;
    its variant carries players, options and contracts (docs/protocol.md, "The view of a table game")."""
    table = TableGame.deal("bauernschnapsen", seed=3, dealer=3)
    while table.phase is not Phase.DOUBLING:
        table.apply(table.legal_actions()[0])
    data = view_to_json(table.view(table.to_move))
    assert data["phase"] == "doubling" and data["players"] == 4
    assert data["partner"] == (data["seat"] + 2) % 4
    assert data["contract"] == table.contract.name  # type: ignore[union-attr]
    assert data["bids"] == [{"seat": s, "action": a.token} for s, a in table.bids]
    assert data["legal"] == [a.token for a in table.legal_actions()] and "kontra" in data["legal"]
    variant = data["variant"]
    assert (variant["name"], variant["players"], variant["options"]) == ("bauernschnapsen", 4, {})
    assert [c["name"] for c in variant["contracts"]] == [c.name for c in table.variant.contracts]
    assert variant_from_json(variant) == table.variant
    assert isinstance(view_from_json(data), TableView)


def test_table_results_round_trip() -> None:
    for variant in TABLE_VARIANTS:
        for seed in range(20):
            table = TableGame.deal(variant, seed=seed, dealer=seed % variant.players)
            while not table.is_over:
                table.apply(table.legal_actions()[-1])
            result = table.result
            assert result is not None
            data = json.loads(encode(result_to_json(result, variant.players)))
            assert sum(data["points_by_seat"]) == result.points * len(result.winners)
            assert result_from_json(data, variant.players) == result


def _table_view_json(**changes: Any) -> dict[str, Any]:
    table = TableGame.deal("dreierschnapsen", seed=2, dealer=0)
    table.apply("cut")
    data = view_to_json(table.view(1))
    data.update(changes)
    return data


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"seat": 3}, "view.seat must be a seat 0..2"),
        ({"hand": ["9h"]}, "9h is not in the 20-card pack of Dreierschnapsen"),
        ({"hand": ["Ah"] * 2}, "view.hand names a card twice"),
        ({"phase": "auction"}, "view.phase 'auction' is not one of: cut, trump, bidding"),
        ({"contract": "grand"}, "Dreierschnapsen has no contract 'grand'"),
        ({"doubling": 4}, "view.doubling must be an integer 0..3"),
        ({"legal": ["bid:"]}, "view.legal[0]: malformed action 'bid:'"),
        ({"known": [[], []]}, "view.known must hold one list per seat (3), not 2"),
        ({"known": [["Js"], [], []]}, "view: Js is both in hand and in known[0]"),
        ({"bids": [{"seat": 5, "action": "pass"}]}, "view.bids[0].seat must be a seat 0..2"),
        ({"variant": {"name": "dreierschnapsen", "players": 4}}, "variant.players is 4, but Dreierschnapsen has 3"),
        ({"variant": {"name": "dreierschnapsen", "contracts": ["normal"]}}, "variant.contracts are ['normal']"),
        ({"tricks_won": [0, 0]}, "view.tricks_won must be a list of 3 integers"),
    ],
)
def test_table_view_that_does_not_fit_is_a_clear_error(changes: dict[str, Any], message: str) -> None:
    """Issue 3, Bad input, for table games: a view that does not fit its variant names the field."""
    with pytest.raises(ProtocolError, match=re.escape(message)):
        view_from_json(_table_view_json(**changes))


def test_table_view_reader_refuses_a_two_player_view() -> None:
    with pytest.raises(ProtocolError, match="expected the view of a table game, not of Schnapsen"):
        table_view_from_json(_view_json())


def _table_decision(phase: Phase, token: str | None = None) -> tuple[TableGame, TableView]:
    """A Bauernschnapsen table at its first decision of ``phase`` (where ``token`` is legal, if given),
    reached by always taking the first legal action."""
    for seed in range(50):
        table = TableGame.deal("bauernschnapsen", seed=seed, dealer=seed % 4)
        while not table.is_over:
            legal = [a.token for a in table.legal_actions()]
            if table.phase is phase and (token is None or token in legal):
                return table, table.view(table.to_move)
            table.apply(legal[0])
    raise AssertionError(f"no deal reaches {phase} with {token}")  # pragma: no cover


def test_scripted_table_round_trip() -> None:
    """game_start names players and seat; decide carries the table view and the bidding tokens; the action is
    parsed as a table action; game_end carries the table result with every seat's points."""
    table, view = _table_decision(Phase.BIDDING, "pass")
    seat = view.player
    tokens = [a.token for a in table.legal_actions()]
    assert "pass" in tokens and any(t.startswith("bid:") for t in tokens)
    bot, transport = _scripted(
        ({"type": "game_start", "players": 4, "seat": seat, "dealer": table.dealer, "seed": 5},),
        ({"type": "decide", "id": 1, "legal": tokens}, {"type": "action", "id": 1, "action": "pass"}),
        ("game_end",),
        ("quit",),
    )
    bot.begin_game(view, seed=5, game="0.abab.0")
    assert bot.choose(view) == Action.pass_()
    sent = decode(transport.sent[2])
    assert sent["view"]["phase"] == "bidding" and sent["view"]["seat"] == seat
    assert view_from_json(sent["view"]) == view
    table.apply("pass")
    while not table.is_over:
        table.apply(table.legal_actions()[0])
    bot.end_game(table.view(seat))
    end = decode(transport.sent[3])
    assert end["result"]["winners"] == list(table.result.winners)  # type: ignore[union-attr]
    assert len(end["result"]["points_by_seat"]) == 4 and end["view"]["phase"] == "over"
    bot.close()
    transport.assert_done()


def test_illegal_kontra_lists_the_legal_tokens() -> None:
    """A Kontra that is not legal (a double by the declarer's side, or beyond the allowed level) is refused
    with the legal tokens of the doubling decision."""
    table, view = _table_decision(Phase.DOUBLING)
    bot, _ = _scripted(("decide", {"type": "action", "id": 1, "action": "subkontra"}))
    legal = " ".join(a.token for a in table.legal_actions())
    with pytest.raises(BotFault, match="chose 'subkontra', which is not legal now; legal: " + re.escape(legal)):
        bot.choose(view)


def test_cmd_bot_for_a_table_variant_is_a_process_bot() -> None:
    """Issue 11: `make_bot("cmd:...", variant=<table variant>)` makes a ProcessBot (no longer refused);
    it carries the seed for the game_start of its game."""
    bot = make_bot("cmd:python3 bot.py", 17, variant=find_table_variant("dreierschnapsen"))
    assert isinstance(bot, ProcessBot) and bot.seed == 17 and bot.name == "cmd:python3 bot.py"


@pytest.mark.parametrize("name", ["heuristic", "random"])
def test_loopback_table_bot_plays_like_the_bot_itself(name: str) -> None:
    """A registered bot served by name through the protocol (view -> JSON -> view, a bot made for the
    variant of game_start with its seed) chooses exactly as the same bot in process, at every seat."""
    for variant in TABLE_VARIANTS:
        for i in range(4):
            table = TableGame.deal(variant, seed=derive_seed(6, i), dealer=i % variant.players)
            seeds = [derive_seed(6, i, s) for s in range(variant.players)]
            direct = [make_bot(name, seeds[s], variant) for s in range(variant.players)]
            hosted = [
                ProcessBot(transport_factory=lambda: LoopbackTransport(name), seed=seeds[s])
                for s in range(variant.players)
            ]
            while not table.is_over:
                seat = table.to_move
                view = table.view(seat)
                action = hosted[seat].choose(view)
                assert action == direct[seat].choose(view)
                table.apply(action)
            assert all(b.bot_name == name for b in hosted if b.bot_name is not None)


def test_client_served_by_name_plays_every_variant() -> None:
    """`bummerl bot heuristic` plays whatever variant game_start names; a bot that does not play the
    variant answers decide with an error naming the bots that do."""
    session = ClientSession("heuristic")
    replies, _ = session.handle_line(encode({"type": "hello", "protocol": PROTOCOL, "version": VERSION}))
    assert decode(replies[0])["name"] == "heuristic"
    schnorps = Game.deal("schnorps", seed=1)
    for view in (schnorps.view(schnorps.to_move), _table_decision(Phase.TRUMP)[1]):
        session.handle({"type": "game_start", "players": 2, "seed": 4, "variant": variant_to_json(view.variant)})
        decide = {
            "type": "decide",
            "id": 9,
            "view": view_to_json(view),
            "legal": [a.token for a in view.legal_actions()],
        }
        reply = decode(session.handle_line(encode(decide))[0][0])
        assert reply["type"] == "action" and Action.parse(reply["action"]) in view.legal_actions()
    search = ClientSession("search")
    decide = {"type": "decide", "id": 1, "view": _view_json(), "legal": []}
    reply = decode(search.handle_line(encode(decide))[0][0])
    assert reply["type"] == "error" and "bot 'search' does not play Schnapsen" in reply["message"]


class _TableKnowledge:
    """What each seat of a table game has seen, derived from the table independently of bummerl.view:
    the own cards (only the first three before the trump call, seeds/004), every card played, every card
    shown to all (table.known: marriages, claims, the turned trump card), and the laid-away cards to the
    soloist who laid them away."""

    def __init__(self, table: TableGame) -> None:
        self.table = table
        self.seen: list[set[Card]] = [set() for _ in range(table.variant.players)]
        self.update()

    def update(self) -> None:
        t = self.table
        public = {c for tr in t.tricks for c in tr.cards} | {c for _, c in t.trick}
        for k in t.known:
            public |= k
        if t.turned_card is not None:
            public.add(t.turned_card)
        early = t.phase in (Phase.CUT, Phase.TRUMP) or (t.phase is Phase.OVER and t.trump is None)
        for s, seen in enumerate(self.seen):
            seen |= public | set(t.first_three[s] if early else t.hands[s])
            if s == t.declarer:
                seen |= set(t.discarded)


def test_no_message_to_a_table_bot_names_a_hidden_card() -> None:
    """Issue 4/11: no line sent to a table seat's bot names a card that seat could not know: never a
    partner's or an opponent's hidden card, the talon, or another seat's laid-away cards.  The games also
    show that the protocol carries every kind of table decision (docs/protocol.md, "Decisions")."""
    scanned = 0
    kinds: set[str] = set()
    for variant in TABLE_VARIANTS:
        for i in range(25):
            table = TableGame.deal(variant, seed=derive_seed(77, i), dealer=i % variant.players)
            n = variant.players
            sent: list[list[str]] = [[] for _ in range(n)]
            bots = [_traced_bot(derive_seed(i, seat), sent[seat]) for seat in range(n)]
            know = _TableKnowledge(table)
            for seat in range(n):
                bots[seat].begin_game(table.view(seat), seed=i, game=i)
            while not table.is_over:
                seat = table.to_move
                action = bots[seat].choose(table.view(seat))
                for p in range(n):
                    for line in sent[p]:
                        message = decode(line)
                        kinds.update(t.partition(":")[0] for t in message.get("legal", []))
                    scanned += _scan(sent[p], know.seen[p])
                    sent[p].clear()
                table.apply(action)
                know.update()
            for seat in range(n):
                bots[seat].end_game(table.view(seat))
                scanned += _scan(sent[seat], know.seen[seat])
    assert scanned > 10_000
    kinds = {"card" if len(k) == 2 and k[1] in "hdcs" else k for k in kinds}
    expected = {"cut", "knock", "trump", "turn", "bid", "pass", "kontra", "rekontra", "take-talon", "skip-talon"}
    assert expected | {"discard", "card"} <= kinds


def test_the_table_scan_catches_a_partners_card() -> None:
    table, _ = _table_decision(Phase.PLAY)
    know = _TableKnowledge(table)
    seat = table.to_move
    leak = encode({"type": "decide", "view": {"hand": [c.code for c in table.hands[(seat + 2) % 4]]}})
    with pytest.raises(AssertionError, match="hidden card"):
        _scan([leak], know.seen[seat])


def test_bummerl_bot_command_serves_table_games() -> None:
    """`python -m bummerl bot heuristic` plays a seat of a Bauernschnapsen and a Dreierschnapsen game as a
    child process, one process per seat (partners never share one), exactly like the bot in process."""
    command = [sys.executable, "-m", "bummerl", "bot", "heuristic"]
    for name in ("dreierschnapsen", "bauernschnapsen"):
        variant = find_table_variant(name)
        table = TableGame.deal(variant, seed=11, dealer=1)
        in_process = TableGame.deal(variant, seed=11, dealer=1)
        # Seats 0 and 2 (partners at Bauernschnapsen) are two processes.
        hosted = [
            ProcessBot(command, seed=s) if s % 2 == 0 else make_bot("random", s, variant)
            for s in range(variant.players)
        ]
        direct = [make_bot("heuristic" if s % 2 == 0 else "random", s, variant) for s in range(variant.players)]
        try:
            while not table.is_over:
                seat = table.to_move
                table.apply(hosted[seat].choose(table.view(seat)))
                in_process.apply(direct[seat].choose(in_process.view(seat)))
        finally:
            for bot in hosted:
                if isinstance(bot, ProcessBot):
                    bot.close()
        assert table.actions == in_process.actions
        assert {b.bot_name for b in hosted if isinstance(b, ProcessBot)} == {"heuristic"}


def test_table_arena_with_a_cmd_bot_plays_like_the_bot_in_process() -> None:
    """Issue 11: the arena plays a protocol bot at a table game (one process per seat, kept from game to
    game); with the per-game seeds of game_start the report equals the one of the same bot in process."""
    spec = f"cmd:{shlex.join([sys.executable, '-m', 'bummerl', 'bot', 'heuristic'])}"
    hosted = run_arena(ArenaConfig("bauernschnapsen", spec, "random", deals=1, seed=4, jobs=1), game_log=True)
    direct = run_arena(ArenaConfig("bauernschnapsen", "heuristic", "random", deals=1, seed=4, jobs=1), game_log=True)
    assert hosted["forfeits"] == []
    assert [g["points"] for g in hosted["game_log"]] == [g["points"] for g in direct["game_log"]]
    assert hosted["a"]["game_points"] == direct["a"]["game_points"] and hosted["a"]["name"] == spec


def test_arena_command_with_a_protocol_bot_at_dreierschnapsen() -> None:
    """The command of issue 11, Done when: `bummerl arena --variant dreierschnapsen --a "cmd:bummerl bot
    heuristic" --b random` works (one deal: six seatings; two processes of a, one per seat it holds)."""
    bot = shlex.join([sys.executable, "-m", "bummerl", "bot", "heuristic"])
    argv = ["arena", "--variant", "dreierschnapsen", "--a", f"cmd:{bot}", "--b", "random", "--deals", "1"]
    proc = subprocess.run(
        [sys.executable, "-m", "bummerl", *argv, "--jobs", "1", "--json"],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    report = json.loads(proc.stdout)
    assert report["games"] == 6 and report["forfeits"] == []
    direct = run_arena(ArenaConfig("dreierschnapsen", "heuristic", "random", deals=1, jobs=1))
    assert report["a"]["game_points"] == direct["a"]["game_points"]
    assert report["b"]["game_points"] == direct["b"]["game_points"]


def test_minimal_example_bot_plays_table_games() -> None:
    """examples/bots/minimal.py (standard-library Python) plays every seat kind of both table games."""
    command = [sys.executable, str(ROOT / "examples/bots/minimal.py")]
    for variant in TABLE_VARIANTS:
        with ProcessBot(command, seed=3) as bot:
            for i in range(3):
                table = TableGame.deal(variant, seed=i, dealer=i % variant.players)
                others = [make_bot("heuristic", s, variant) for s in range(variant.players)]
                bot.begin_game(table.view(i % variant.players), seed=i, game=i)
                while not table.is_over:
                    seat = table.to_move
                    player = bot if seat == i % variant.players else others[seat]
                    table.apply(player.choose(table.view(seat)))
                bot.end_game(table.view(i % variant.players))
            assert bot.restarts == 0 and bot.bot_name == "minimal-py"


# --------------------------------------------------------- the worked example
def worked_example() -> tuple[list[str], str]:
    """The transcript of docs/protocol.md's worked example: seat 2 of a Dreierschnapsen game played by the
    heuristic bot behind the protocol, from hello to its last decision before the card play; and the view
    of its bidding decision, pretty-printed.  The variant's contracts are shortened to "[...]" in decide
    lines (they repeat game_start's)."""
    traced: list[tuple[str, str]] = []
    table = TableGame.deal("dreierschnapsen", seed=7, dealer=0)
    bots = [make_bot("heuristic", s, table.variant) for s in range(3)]
    hosted = ProcessBot(
        transport_factory=lambda: LoopbackTransport("heuristic"),
        trace=lambda direction, line: traced.append((direction, line)),
    )
    hosted.begin_game(table.view(2), seed=42, game=0)
    while table.phase is not Phase.PLAY:
        seat = table.to_move
        table.apply((hosted if seat == 2 else bots[seat]).choose(table.view(seat)))
    hosted.close()
    shown = []
    bidding_view = ""
    for direction, line in traced:
        message = decode(line)
        if message["type"] == "decide":
            if message["view"]["phase"] == "bidding" and not bidding_view:
                view = dict(message["view"], variant={**message["view"]["variant"], "contracts": "[...]"})
                fields = [
                    f'  "{k}": {json.dumps(v, separators=(", ", ": "), ensure_ascii=False)}' for k, v in view.items()
                ]
                bidding_view = "{\n" + ",\n".join(fields) + "\n}"
            message["view"]["variant"]["contracts"] = "[...]"
            line = encode(message)
        shown.append(("host -> bot  " if direction == "send" else "bot -> host  ") + line)
    return shown, bidding_view


def test_docs_worked_example_is_a_real_transcript() -> None:
    """docs/protocol.md's worked example is what the code sends and answers (regenerated here)."""
    text = (ROOT / "docs/protocol.md").read_text()
    transcript, bidding_view = worked_example()
    blocks = re.findall(r"<!-- (transcript|bidding-view) -->\n```[a-z]*\n(.*?)```", text, re.S)
    found = dict(blocks)
    expected_transcript = "\n".join(transcript) + "\n"
    assert found.get("transcript") == expected_transcript, "regenerate docs/protocol.md:\n" + expected_transcript
    assert found.get("bidding-view") == bidding_view + "\n", "regenerate docs/protocol.md:\n" + bidding_view
