"""The bot protocol (docs/protocol.md): messages, the host's fault handling, the
client, real processes, and that no message ever carries a hidden card."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
import textwrap
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from bummerl.actions import Action
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
    view_from_json,
    view_to_json,
)
from bummerl.rng import derive_seed
from bummerl.variants import VARIANTS, TwoPlayerVariant, find_variant
from bummerl.view import PlayerView

ROOT = Path(__file__).resolve().parents[1]
HELLO = {"type": "hello", "protocol": PROTOCOL, "version": VERSION, "name": "mock"}


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
    for variant in VARIANTS:
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
    for variant in VARIANTS:
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
        for i, variant in enumerate(VARIANTS):
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
