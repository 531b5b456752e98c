"""The house rule ``close_min_facedown``: closing (Zudrehen, Schnorps: Decken) with one face-down card left.

RULES.md, Common rules: closing is allowed "while at least two face-down cards remain above the trump card.
... Option `close_min_facedown` (default 2, as `003`): 1 also allows closing with a single face-down card left,
the house rule of Tompa's Schnapsen books and several apps."  seeds/003: "Liegt nur mehr eine Karte als Talon
auf der offenen Trumpfkarte, darf man austauschen, jedoch nicht zudreuen" (the default).

Every variant with closing has the option (the four two-player games; the table games have no closing). The
tests follow it through the whole stack: the variant (validated), the one rule (``close_refusal``), views and
their JSON, positions, records, the bot protocol, the bots, the exact solver (the C core against the Python
reference) and the web API.
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bummerl.actions import CLOSE, Action, ActionKind
from bummerl.bots import make_bot
from bummerl.cards import Card
from bummerl.errors import PositionError, RecordError, Rule, UnknownVariantError
from bummerl.game import Game
from bummerl.protocol import LoopbackTransport, ProcessBot, decode, view_from_json, view_to_json
from bummerl.record import GameRecord
from bummerl.rng import SplitMix64, derive_seed
from bummerl.rules.tricks import FollowRules, legal_follows
from bummerl.solver import BACKENDS, search
from bummerl.variants import TABLE_VARIANTS, EndReason, TwoPlayerVariant, find_variant
from bummerl.view import PlayerView
from helpers import assert_refused, position, random_policy

#: The variants that have closing (RULES.md: every two-player game; Schnorps calls it Decken).
NAMES = ("schnapsen", "scharf", "66", "schnorps")
C_AVAILABLE = "c" in BACKENDS


def variant(name: str, need: int = 2) -> TwoPlayerVariant:
    v = find_variant(name) if need == 2 else find_variant(name, close_min_facedown=need)
    assert isinstance(v, TwoPlayerVariant)
    return v


def _step(game: Game, rng: random.Random) -> None:
    """One random action that neither closes nor declares, so the talon runs down."""
    game.apply(rng.choice([a for a in game.legal_actions() if a.kind not in (ActionKind.CLOSE, ActionKind.DECLARE)]))


def one_face_down(v: TwoPlayerVariant, seed: int) -> Game:
    """A real game at the lead with one face-down card above the trump card, the talon open.

    Nobody closes or declares on the way, so every deal gets there (without ``auto_declare``).
    """
    rng = random.Random(seed)
    game = Game.deal(v, seed=seed)
    while not (game.talon_size == 1 and game.lead is None):
        _step(game, rng)
    assert game.closed_by is None and game.trump_card is not None and not game.is_over
    return game


# ----------------------------------------------------------------- the option


@pytest.mark.parametrize("name", NAMES)
def test_every_variant_with_closing_has_the_option_with_two_as_default(name: str) -> None:
    """RULES.md: "Option `close_min_facedown` (default 2, as `003`)" — for Schnapsen, scharf, 66 and
    Schnorps's Decken (docs/rules.md: "as in Schnapsen, two face-down cards must remain")."""
    v = variant(name)
    assert "close_min_facedown" in v.OPTIONS and v.close_min_facedown == 2 and v.options() == {}
    assert v.option_help()["close_min_facedown"]
    one = v.with_options(close_min_facedown="1")  # as text, from a form, a position or a record
    assert one.close_min_facedown == 1 and one.options() == {"close_min_facedown": 1}
    assert v.with_options(close_min_facedown=2) == v


@pytest.mark.parametrize(
    ("value", "message"),
    [(0, "must be 1 or 2, not 0"), (3, "must be 1 or 2, not 3"), ("zwei", "must be an integer"), (True, "must be int")],
)
def test_bad_values_are_refused_by_name(value: object, message: str) -> None:
    with pytest.raises(UnknownVariantError, match=message):
        find_variant("schnapsen", close_min_facedown=value)


def test_table_games_have_no_closing_and_no_option() -> None:
    """RULES.md: Bauernschnapsen has no talon, Dreierschnapsen's talon goes to the soloist: nothing to close."""
    for v in TABLE_VARIANTS:
        assert "close_min_facedown" not in v.OPTIONS
        with pytest.raises(UnknownVariantError, match="has no option 'close_min_facedown'"):
            v.with_options(close_min_facedown=1)


# ------------------------------------------------------------------- the rule


@pytest.mark.parametrize("name", NAMES)
def test_one_face_down_card_closes_only_with_the_house_rule(name: str) -> None:
    """Default (seeds/003): "jedoch nicht zudreuen" with one card on the trump card; with the option the same
    position may close, and then (seeds/003) "gilt Farb- und Stichzwang, als ob der Talon aufgebraucht wäre":
    no card is drawn any more, the last face-down card and the trump card stay where they are, and the
    closer is scored as any closer (seeds/000: "im Zeitpunkt des Zudrehens")."""
    for seed in range(6):
        plain = one_face_down(variant(name), seed)
        err = assert_refused(plain, CLOSE, Rule.CLOSE)
        assert "only 1 face-down card(s) left; closing needs two" in str(err)
        game = one_face_down(variant(name, 1), seed)
        assert game.hands == plain.hands and game.talon == plain.talon  # the same deal and play so far
        assert game.can_close_talon() and CLOSE in game.legal_actions()
        closer, opp = game.to_move, 1 - game.to_move
        talon, trump_card = list(game.talon), game.trump_card
        game.close_talon()
        assert game.closed_by == closer and game.talon_size == 1
        assert game.closed_opponent_augen == game.augen(opp)
        assert game.closed_opponent_had_trick == (game.tricks_won[opp] > 0)
        rng = random.Random(seed)
        while not game.is_over:
            if game.lead is not None:  # strict follow rules right after closing
                expected = legal_follows(game.hands[game.to_move], (game.lead,), game.trump, FollowRules.STRICT)
                assert {a.card for a in game.legal_actions()} == set(expected)
            _step(game, rng)
            assert game.talon == talon and game.trump_card == trump_card  # nothing drawn
        assert game.result is not None
        assert game.result.reason in (EndReason.CLOSER_WON, EndReason.CLOSER_FAILED)


def test_closing_with_one_card_is_scored_by_the_augen_at_closing() -> None:
    """seeds/000: "Die Anzahl der Siegpunkte richtet sich nach der Augenzahl des Gegners im Zeitpunkt des
    Zudrehens": seat 1 has 11 Augen at closing, so the closer who goes out wins 2 game points."""
    text = dict(hand0="Jc Ah Th Kh Qh", hand1="Ad Td Kd Qd Jd", talon="Qc", won0="Ac Tc As Ts", won1="Jh Ks Qs Js")
    plain = position("schnapsen", 0, "Kc", **text)
    assert_refused(plain, "close", Rule.CLOSE)
    game = position("schnapsen:close_min_facedown=1", 0, "Kc", **text)
    game.close_talon()
    assert (game.closed_by, game.closed_opponent_augen, game.closed_opponent_had_trick) == (0, 11, True)
    for token in ["marry:Kh", "Jd", "declare"]:  # 42 + 20 + Kh 4 + Jd 2 = 68
        game.apply(token)
    assert game.result is not None and game.result.reason is EndReason.CLOSER_WON
    assert (game.result.winner, game.result.points) == (0, 2)
    assert game.talon == [Card.parse("Qc")] and game.trump_card == Card.parse("Kc")


def test_an_exhausted_talon_never_closes() -> None:
    """The house rule lowers the minimum to one face-down card, never to none (RULES.md: "1 also allows
    closing with a single face-down card left")."""
    game = position(
        "schnapsen:close_min_facedown=1",
        0,
        "c",
        "Jc Ah Th Kh Qh",
        "Ad Td Kd Qd Jd",
        won0="Ac Tc As Ts",
        won1="Jh Ks Qs Js Kc Qc",
    )
    err = assert_refused(game, CLOSE, Rule.CLOSE)
    assert "only 0 face-down card(s) left; closing needs one" in str(err)


SEEDS = st.integers(min_value=0, max_value=2**64 - 1)


@settings(max_examples=300, deadline=None, database=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=SEEDS, name=st.sampled_from(NAMES), need=st.sampled_from((1, 2)))
def test_closing_is_legal_exactly_when_enough_face_down_cards_lie_above_the_trump_card(
    seed: int, name: str, need: int
) -> None:
    """Along random games (closing now and then): ``close`` is legal exactly for the player on lead, talon
    not closed, with ``need`` or more face-down cards above the trump card (with 1: one or more), and in
    Schnorps after a trick (seeds/001: "nach einem gemachten Stiche"); the view offers the same."""
    v = variant(name, need)
    game = Game.deal(v, seed=seed)
    rng = SplitMix64(seed)
    while not game.is_over:
        p = game.to_move
        above = len(game.talon)  # face-down cards above the trump card
        may = game.lead is None and game.closed_by is None and (game.tricks_won[p] > 0 or not v.close_needs_trick)
        legal = game.legal_actions()
        assert (CLOSE in legal) == (may and above >= need), game.position()
        if need == 1 and may:
            # One or more face-down cards lie on the trump card exactly while it still lies under the talon.
            assert (CLOSE in legal) == (game.trump_card is not None), game.position()
        assert game.view(p).legal_actions() == legal
        game.apply(random_policy(game, rng))


# ------------------------------------------------- views, positions, records


def closed_with_one_face_down(name: str, seed: int) -> Game:
    """A game of ``name`` with the house rule, closed by the player on lead with one face-down card left."""
    game = one_face_down(variant(name, 1), seed)
    game.close_talon()
    return game


@pytest.mark.parametrize("name", NAMES)
def test_views_carry_the_option_and_survive_json(name: str) -> None:
    """A view names the variant with its options, so a bot behind the protocol knows the rule
    (docs/protocol.md: ``variant.options``) and works out the same legal actions."""
    game = one_face_down(variant(name, 1), 3)
    view = game.view(game.to_move)
    assert view.variant.close_min_facedown == 1 and CLOSE in view.legal_actions()
    data = json.loads(json.dumps(view_to_json(view)))
    assert data["variant"]["options"] == {"close_min_facedown": 1}
    assert view_from_json(data) == view
    game.close_talon()
    for p in (0, 1):
        after = game.view(p)
        assert (after.closed_by, after.talon_size) == (game.closed_by, 1)
        assert view_from_json(json.loads(json.dumps(view_to_json(after)))) == after


@pytest.mark.parametrize("name", NAMES)
def test_positions_name_the_option_and_refuse_an_impossible_close(name: str) -> None:
    """bummerl.position: the option is part of the variant field; a talon closed with one face-down card
    is a reachable position only under the house rule."""
    game = closed_with_one_face_down(name, 5)
    text = game.position()
    assert text.split()[0].endswith(":close_min_facedown=1")
    again = Game.from_position(text)
    assert again.position() == text and again.closed_by == game.closed_by
    plain = text.replace(":close_min_facedown=1", "", 1)
    with pytest.raises(PositionError, match=r"closed with 1 face-down card.*closing needs two"):
        Game.from_position(plain)


def _close_at_one(game: Game, rng: SplitMix64) -> Action:
    """A random policy that always closes with one face-down card left when it may."""
    if game.talon_size == 1 and game.can_close_talon():
        return CLOSE
    return random_policy(game, rng)


@pytest.mark.parametrize("name", NAMES)
def test_records_store_the_option_and_replay_it(name: str) -> None:
    """docs/records.md: the Options tag holds the options that differ; reading replays every action, so the
    close with one face-down card replays only under the option it was played with."""
    closed_at_one = 0
    for i in range(12):
        game = Game.deal(variant(name, 1), seed=derive_seed(41, i))
        rng = SplitMix64(i)
        at_one = False
        while not game.is_over:
            action = _close_at_one(game, rng)
            at_one |= action == CLOSE and game.talon_size == 1
            game.apply(action)
        record = GameRecord.from_game(game, Event="house rule")
        text = record.dumps()
        assert '[Options "close_min_facedown=1"]' in text
        assert GameRecord.loads(text) == record and GameRecord.loads(record.dumps("json")) == record
        assert record.replay().result == game.result
        plain = text.replace('[Options "close_min_facedown=1"]', '[Options ""]')
        if at_one:  # the same actions under the default: the close is refused, naming the rule
            closed_at_one += 1
            with pytest.raises(RecordError, match="closing needs two"):
                GameRecord.loads(plain)
        else:
            assert GameRecord.loads(plain).replay().result == game.result
    assert closed_at_one >= 3


# --------------------------------------------------------------- the protocol


class _Closer:
    """A bot that closes whenever it may with one face-down card left, else plays its first legal action."""

    name = "closer"

    def choose(self, view: PlayerView) -> Action:
        legal = view.legal_actions()
        if view.talon_size == 1 and CLOSE in legal:
            return CLOSE
        return next((a for a in legal if a.kind is not ActionKind.DECLARE), legal[0])


def test_protocol_bots_learn_the_option_and_may_close_with_one_card() -> None:
    """docs/protocol.md: ``game_start`` and every ``decide`` name the variant with its options; the bot works
    out its legal actions from the view, closes with one face-down card, and the host accepts it."""
    sent: list[str] = []
    bot = ProcessBot(
        transport_factory=lambda: LoopbackTransport(_Closer()),
        trace=lambda direction, line: sent.append(line) if direction == "send" else None,
    )
    closes = 0
    for i in range(4):
        game = one_face_down(variant("schnapsen", 1), i)
        seat = game.to_move
        bot.begin_game(game.view(seat), seed=i, game=i)
        start = decode(sent[-1])
        assert start["type"] == "game_start" and start["variant"]["options"] == {"close_min_facedown": 1}
        action = bot.choose(game.view(seat))
        decide = decode(next(line for line in reversed(sent) if '"decide"' in line))
        assert "close" in decide["legal"] and decide["view"]["talon_size"] == 1
        assert action == CLOSE
        game.apply(action)
        closes += game.closed_by == seat
        while not game.is_over:
            game.apply(game.legal_actions()[0])
        bot.end_game(game.view(seat))
    bot.close()
    assert closes == 4


def test_a_bot_process_plays_under_the_option_like_in_process() -> None:
    """`python -m bummerl bot random` reads the options from ``game_start``: seeded, it chooses exactly as
    the same bot in process (a child that ignored the option would see other legal actions)."""
    command = [sys.executable, "-m", "bummerl", "bot", "random"]
    v = variant("schnapsen", 1)
    with ProcessBot(command) as p0, ProcessBot(command) as p1:
        for i in range(3):
            seeds = (derive_seed(i, 0), derive_seed(i, 1))
            games = [Game.deal(v, seed=50 + i), Game.deal(v, seed=50 + i)]
            hosted: list[Any] = [p0, p1]
            direct = [make_bot("random", seeds[0]), make_bot("random", seeds[1])]
            for seat in (0, 1):
                p = hosted[seat]
                p.begin_game(games[0].view(seat), seed=seeds[seat])
            while not games[0].is_over:
                a = hosted[games[0].to_move].choose(games[0].view(games[0].to_move))
                b = direct[games[1].to_move].choose(games[1].view(games[1].to_move))
                assert a == b
                games[0].apply(a)
                games[1].apply(b)
            for seat in (0, 1):
                hosted[seat].end_game(games[0].view(seat))


# ---------------------------------------------------------------------- bots

#: Seat 0 on lead with one face-down card (Qh) on the trump card (Jh): three sure trumps draw the last one
#: out, and the Aces of spades and clubs follow — 19 + 47 + 5 * 2 >= 66 by the heuristic's count.
SURE_CLOSE = dict(hand0="Ah Th Kh As Ac", hand1="Ad Td Kd Qd Jd", talon="Qh", won0="Tc Kc Qc Jc", won1="Ts Ks Qs Js")


def test_the_heuristic_closes_with_one_card_only_under_the_house_rule() -> None:
    """The heuristic's closing rule (docs/bots.md: close when counted Augen, marriages and sure tricks reach
    66) reads the legal actions, so it closes here exactly when the variant allows it."""
    bot = make_bot("heuristic", 0)
    game = position("schnapsen:close_min_facedown=1", 0, "Jh", **SURE_CLOSE)
    assert bot.choose(game.view(0)) == CLOSE
    plain = position("schnapsen", 0, "Jh", **SURE_CLOSE)
    assert bot.choose(plain.view(0)) != CLOSE


@pytest.mark.parametrize("backend", BACKENDS)
def test_the_solver_values_the_close_with_one_card(backend: str) -> None:
    """Closing wins every trick: 2 game points (seat 1 had a trick and 19 Augen at closing, seeds/000)."""
    game = position("schnapsen:close_min_facedown=1", 0, "Jh", **SURE_CLOSE)
    values = search(game, actions=True, backend=backend).values
    assert values is not None and values[CLOSE.code] == 2
    plain = search(position("schnapsen", 0, "Jh", **SURE_CLOSE), actions=True, backend=backend).values
    assert plain is not None and CLOSE.code not in plain


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("level", ["heuristic", "easy", "hard"])
def test_bots_play_on_after_a_close_with_one_card(name: str, level: str) -> None:
    """The search bots rebuild worlds through positions (bots/inference.py): a talon closed with one
    face-down card must be a world they can build and solve; every answer is legal."""
    for seed in range(3):
        game = closed_with_one_face_down(name, seed)
        bot = make_bot(level, seed)
        while not game.is_over:
            action = bot.choose(game.view(game.to_move))
            assert action in game.legal_actions()
            game.apply(action)


# ---------------------------------------------------------- the solver: C == Python


def _solver_positions(name: str, need: int, count: int) -> list[Game]:
    """Positions of random games near the end of the talon, four kinds in turn: at the lead with three
    face-down cards; after one more random action (a lead, a marriage, an exchange or a close); at the lead
    with one face-down card; closed as late as the rule allows (one card with the option, else three) and
    maybe a card further."""
    out: list[Game] = []
    seed = 0
    while len(out) < count:
        kind = seed % 4
        rng = random.Random(seed)
        game = Game.deal(variant(name, need), seed=seed)
        seed += 1
        floor = 1 if kind == 2 or (kind == 3 and need == 1) else 3
        while not game.is_over and (game.talon_size > floor or game.lead is not None):
            _step(game, rng)
        if game.is_over:
            continue
        if kind == 1:
            game.apply(rng.choice(game.legal_actions()))
        elif kind == 3:
            game.close_talon()
            if rng.random() < 0.5:
                _step(game, rng)
        if not game.is_over:
            out.append(game)
    return out


@pytest.mark.skipif(not C_AVAILABLE, reason="the C core is not built")
@pytest.mark.parametrize("need", [1, 2])
@pytest.mark.parametrize(("name", "count"), [("schnapsen", 60), ("scharf", 30), ("66", 16), ("schnorps", 8)])
def test_c_core_equals_the_reference_with_and_without_the_house_rule(name: str, count: int, need: int) -> None:
    """Differential test (docs/solver.md): over random positions around the last face-down cards, every
    action's exact value from the C core equals the Python reference's, with ``close_min_facedown`` 1 and 2;
    with 1 some of them close with one face-down card."""
    closable_at_one = 0
    for game in _solver_positions(name, need, count):
        c = search(game, actions=True, backend="c")
        py = search(game, actions=True, backend="python")
        assert c.values == py.values and c.value == py.value, game.position()
        assert c.values is not None
        closable_at_one += game.talon_size == 1 and CLOSE.code in c.values
    assert (closable_at_one > 0) == (need == 1)


# ------------------------------------------------------------------ the web


def test_a_web_table_with_the_house_rule_lets_the_leader_close_with_one_card(tmp_path: Path) -> None:
    """docs/web.md: the lobby's options come from ``/api/variants`` and a table is created with them; at the
    table the player on lead may close with one face-down card (and not at a table with the default)."""
    pytest.importorskip("fastapi", reason="needs the 'web' extra: pip install -e '.[web]'")
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from fastapi.testclient import TestClient
    from bummerl.server.app import create_app
    from bummerl.server.config import ServerConfig

    config = ServerConfig(bot_executor="thread", bot_workers=1, analysis_executor="thread", analysis_level="easy")
    with TestClient(create_app(data_dir=tmp_path, config=config)) as client:
        variants = {v["name"]: v for v in client.get("/api/variants").json()}
        for name in ("schnapsen", "schnapsen-scharf", "sechsundsechzig", "schnorps"):
            field = next(o for o in variants[name]["options"] if o["name"] == "close_min_facedown")
            assert field["type"] == "choice" and field["default"] == 2 and field["choices"] == [1, 2]
            assert field["help"]
        for name in ("bauernschnapsen", "dreierschnapsen"):
            assert all(o["name"] != "close_min_facedown" for o in variants[name]["options"])
        bad = client.post("/api/tables", json={"options": {"close_min_facedown": 3}})
        assert bad.status_code == 400 and "close_min_facedown must be 1 or 2" in bad.json()["detail"]["message"]
        for need in (1, 2):
            legal = _play_friend_table_to_one_face_down(client, need)
            assert ("close" in legal) == (need == 1)


def _play_friend_table_to_one_face_down(client: Any, need: int) -> list[str]:
    """Both seats of a friend's table play their first legal card until the leader sees one face-down card;
    with the option that leader closes.  Returns the leader's legal actions there."""
    options = {"close_min_facedown": need} if need == 1 else {}
    table = client.post("/api/tables", json={"opponent": "friend", "name": "Anna", "options": options})
    assert table.status_code == 201, table.text
    table = table.json()
    friend = client.post("/api/join", json={"code": table["join_code"], "name": "Bert"}).json()
    assert client.get(f"/api/tables/{table['table_id']}").json()["options"] == options
    with client.websocket_connect(table["ws_url"]) as ws0, client.websocket_connect(table["ws_url"]) as ws1:
        socks = (ws0, ws1)
        states: list[dict[str, Any]] = []
        for sock, token in zip(socks, (table["token"], friend["token"]), strict=True):
            sock.send_json({"type": "hello", "token": token})
            assert sock.receive_json()["type"] == "welcome"
            states.append(sock.receive_json())
        states = [_latest_state(sock, states[i]) for i, sock in enumerate(socks)]
        for _ in range(40):
            mover = next(i for i in (0, 1) if states[i]["your_turn"])
            state = states[mover]
            view = state["view"]
            if view["talon_size"] == 1 and view["lead"] is None and view["closed_by"] is None:
                break
            token = next(t for t in state["legal"] if t != "close" and not t.startswith("declare"))
            socks[mover].send_json({"type": "action", "action": token})
            # The mover's socket first: its pong comes after its action, which had queued both states.
            states[mover] = _latest_state(socks[mover], states[mover])
            states[1 - mover] = _latest_state(socks[1 - mover], states[1 - mover])
        else:
            raise AssertionError("the talon never came down to one face-down card")
        legal: list[str] = state["legal"]
        if "close" in legal:
            socks[mover].send_json({"type": "action", "action": "close"})
            after = _latest_state(socks[mover], state)["view"]
            assert after["closed_by"] == mover and after["talon_size"] == 1 and after["trump_card"] is not None
    return legal


def _latest_state(sock: Any, last: dict[str, Any]) -> dict[str, Any]:
    """The last state message up to the answer to a ping (the server answers in order)."""
    sock.send_json({"type": "ping"})
    while (message := sock.receive_json()) != {"type": "pong"}:
        assert message["type"] == "state", message
        last = message
    return last
