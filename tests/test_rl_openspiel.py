"""The OpenSpiel game ``python_bummerl`` (:mod:`bummerl.rl.openspiel`, issue 14) and the OpenSpiel bots.

Issue 14: "importing ``bummerl.rl.openspiel`` registers the Python game ``python_bummerl`` with the parameter
``variant`` (all six, plus their options); chance nodes for the deal and the talon draws;
``information_state_string``/``tensor`` and ``observation_string``/``tensor`` built from the player's view (never
more); ``resample_from_infostate`` from the engine's card inference, so OpenSpiel's IS-MCTS runs on it;
``pyspiel.random_sim_test`` passes for every variant.  OpenSpiel's MCTS/IS-MCTS bots can play in
``bummerl arena``."
"""

from __future__ import annotations

import random
import re
from typing import Any

import pytest

pytest.importorskip("pyspiel", reason="needs the 'openspiel' extra: pip install -e '.[openspiel]'")

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts, mcts

from bummerl.actions import Action
from bummerl.arena.play import Player, play_game
from bummerl.bots import bot_info, bot_names, make_bot
from bummerl.cards import Card, deck
from bummerl.cli import main
from bummerl.errors import UnknownVariantError
from bummerl.game import Game
from bummerl.rl.encoding import ActionSpace, ViewEncoder
from bummerl.rl.openspiel import GAME_NAME, BummerlGame, BummerlState, load, max_points
from bummerl.rl.openspiel_bots import OpenSpielBot
from bummerl.rng import SplitMix64
from bummerl.table_game import TableGame
from bummerl.two_player import TwoPlayerGame
from bummerl.variants import VARIANTS, find_variant
from bummerl.view import PlayerView
from bummerl.view_json import view_from_json, view_to_json

NAMES = [v.name for v in VARIANTS]
#: Every variant, and some with options that change what can happen (actions, contracts, the talon).
CASES: list[tuple[str, dict[str, Any]]] = [
    *((name, {}) for name in NAMES),
    ("schnapsen", {"auto_declare": True}),
    ("schnapsen", {"last_trick_scoring": "augen", "count_after_closing": True}),
    ("schnorps", {"marriages": False, "trump_exchange": False}),
    ("bauernschnapsen", {"max_doubling": 1, "assen_bettler": True, "bauernloch": True}),
    ("dreierschnapsen", {"may_skip_talon": True, "raise_after_talon": True}),
]
CODE = re.compile(r'"([AKQJT987][hdcs])"')


def _ids(case: Any) -> str:
    return str(case) if not isinstance(case, dict) else ",".join(f"{k}={v}" for k, v in case.items()) or "-"


def _play(state: BummerlState, r: random.Random, until: int | None = None) -> None:
    """Random chance outcomes (by their probabilities) and random actions, to the end or to the decision
    node after ``until`` decisions (``0``: through the chance nodes to the next decision)."""
    decisions = 0
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(r.choices(outcomes, probs)[0])
        elif until is not None and decisions >= until:
            return
        else:
            state.apply_action(r.choice(state.legal_actions()))
            decisions += 1


# ----------------------------------------------------------------------------- parameters and sizes
def test_the_game_is_registered_with_every_option() -> None:
    registered = {t.short_name: t for t in pyspiel.registered_games()}[GAME_NAME]
    spec = registered.parameter_specification
    assert spec["variant"] == "schnapsen"
    assert {k for v in VARIANTS for k in v.OPTIONS} <= set(spec)
    game = pyspiel.load_game(GAME_NAME)
    assert isinstance(game, BummerlGame) and game.variant.name == "schnapsen"


@pytest.mark.parametrize(("name", "options"), CASES, ids=_ids)
def test_sizes_come_from_the_encoding(name: str, options: dict[str, Any]) -> None:
    game = load(name, **options)
    v = find_variant(name, **options)
    assert game.variant == v and game.num_players() == v.players
    assert game.num_distinct_actions() == ActionSpace.of(v).size
    assert game.max_chance_outcomes() == 32
    encoder = ViewEncoder.of(v)
    assert game.information_state_tensor_shape() == [encoder.information_state_size]
    assert game.observation_tensor_shape() == [encoder.observation_size]
    assert game.max_utility() == -game.min_utility() == max_points(v)
    utility = game.get_type().utility
    zero_sum = pyspiel.GameType.Utility.ZERO_SUM
    assert (utility == zero_sum) == (v.players in (2, 4))
    # str(game) loads the same game again.
    assert pyspiel.load_game(str(game)).variant == v


def test_options_as_parameters_or_as_one_text() -> None:
    a = pyspiel.load_game("python_bummerl(variant=bauernschnapsen,max_doubling=1,assen_bettler=true)")
    b = pyspiel.load_game(GAME_NAME, {"variant": "bauern", "options": "max_doubling=1,assen_bettler=yes"})
    assert a.variant == b.variant == find_variant("bauernschnapsen", max_doubling=1, assen_bettler=True)
    assert pyspiel.load_game("python_bummerl(variant=sechsundsechzig,dealer=0)").new_initial_state()._core.dealer == 0
    with pytest.raises(UnknownVariantError, match="no option 'max_doubling'"):
        BummerlGame({"variant": "schnapsen", "max_doubling": 1})
    with pytest.raises(UnknownVariantError, match="unknown variant"):
        BummerlGame({"variant": "poker"})
    with pytest.raises(ValueError, match="key=value"):
        BummerlGame({"options": "auto_declare"})


# ----------------------------------------------------------------------------- OpenSpiel's own checks
@pytest.mark.parametrize(("name", "options"), CASES, ids=_ids)
def test_random_sim_test(name: str, options: dict[str, Any]) -> None:
    """``pyspiel.random_sim_test``: clones, legal actions and masks, chance outcomes, tensors and strings of every
    player at every decision, returns within the bounds, game length within ``max_game_length``."""
    game = load(name, **options)
    pyspiel.random_sim_test(game, num_sims=3, serialize=False, verbose=False)


def test_random_sim_test_with_serialization() -> None:
    pyspiel.random_sim_test(load("dreierschnapsen"), num_sims=2, serialize=True, verbose=False)


# ----------------------------------------------------------------------------- chance
def _chi_square(counts: dict[Any, int], expected: float) -> float:
    return sum((n - expected) ** 2 / expected for n in counts.values())


def test_dealt_hands_and_talon_draws_are_uniform() -> None:
    """2000 deals of Schnapsen through the chance nodes: each of the 20 cards lands in Vorhand's hand 5 times in
    20 and is the first card drawn from the talon once in 20 (chi-square, 19 degrees of freedom: below 43.8,
    the 0.1% point; this seed gives far less)."""
    game = load("schnapsen")
    r = random.Random(14)
    in_hand: dict[Card, int] = dict.fromkeys(deck(20), 0)
    first_draw = dict.fromkeys(in_hand, 0)
    deals = 2000
    for _ in range(deals):
        state = game.new_initial_state()
        _play(state, r, until=0)
        engine = state.game
        assert isinstance(engine, TwoPlayerGame)
        for c in engine.hands[0]:
            in_hand[c] += 1
        state.apply_action(state.legal_actions()[0])  # Vorhand leads,
        state.apply_action(state.legal_actions()[0])  # the dealer follows: the trick is complete,
        assert state.is_chance_node() and len(state.chance_outcomes()) == 9  # the talon's 9 face-down cards
        _play(state, r, until=0)
        first_draw[state.pack()[11]] += 1
    assert sum(in_hand.values()) == 5 * deals
    assert _chi_square(in_hand, deals * 5 / 20) < 43.8
    assert _chi_square(first_draw, deals / 20) < 43.8


def test_talon_cards_are_chosen_only_when_drawn() -> None:
    state = load("schnapsen").new_initial_state()
    r = random.Random(3)
    _play(state, r, until=0)
    engine = state.game
    assert isinstance(engine, TwoPlayerGame)
    assert len(state.full_history()) == 11  # the deal: Vorhand 5, dealer 5, the face-up trump card
    state.apply_action(state.legal_actions()[0])
    state.apply_action(state.legal_actions()[0])
    assert state.is_chance_node() and state.current_player() == pyspiel.PlayerId.CHANCE
    first, second = (a for a, _ in state.chance_outcomes()[:2])
    state.apply_action(first)
    state.apply_action(second)
    winner = engine.to_move
    assert engine.hands[winner][-1].index == first and engine.hands[1 - winner][-1].index == second


@pytest.mark.parametrize(("name", "options"), CASES, ids=_ids)
def test_a_game_through_openspiel_is_the_engine_game_of_its_pack(name: str, options: dict[str, Any]) -> None:
    """Play through OpenSpiel, then replay the pack it dealt and its actions on the engine: every seat's view
    at every decision and at the end, and the result, are the same; the returns are the result's points."""
    game = load(name, **options)
    v = game.variant
    for seed in range(4):
        r = random.Random(seed)
        state = game.new_initial_state()
        views: list[list[Any]] = []
        actions = []
        while True:
            _play(state, r, until=0)
            views.append([state.view(s) for s in range(v.players)])
            if state.is_terminal():
                break
            number = r.choice(state.legal_actions())
            actions.append(game.space.action(number))
            state.apply_action(number)
        engine = Game.from_deck(v, state.pack(), game.dealer)
        replayed = [[engine.view(s) for s in range(v.players)]]
        for action in actions:
            engine.apply(action)
            replayed.append([engine.view(s) for s in range(v.players)])
        assert replayed == views
        assert state.game is not None and engine.result == state.game.result
        points = [engine.result.points_of(s) for s in range(v.players)]
        top = max(points)
        assert state.returns() == [float(top if p else -top) for p in points]
        if v.players in (2, 4):
            assert sum(state.returns()) == 0


# ----------------------------------------------------------------------------- strings and tensors
def _hidden_from(state: BummerlState, seat: int) -> set[Card]:
    """The cards ``seat`` has not seen: others' hands (less what they showed), the undrawn or unseen talon,
    another soloist's discards, and the seat's own cards it has not looked at yet."""
    engine = state.game
    view = state.view(seat)
    hidden: set[Card] = set()
    if isinstance(engine, TwoPlayerGame):
        assert isinstance(view, PlayerView)
        hidden |= set(engine.hands[1 - seat]) - set(view.opponent_known)
        hidden |= set(engine.talon)
        return hidden
    assert isinstance(engine, TableGame)
    for s in range(engine.variant.players):
        if s != seat:
            hidden |= set(engine.hands[s]) - set(view.known[s])
    if engine.declarer != seat:
        hidden |= set(engine.talon) | set(engine.discarded)
    hidden |= set(engine.hands[seat]) - set(view.hand)
    return hidden


@pytest.mark.parametrize(("name", "options"), CASES, ids=_ids)
def test_strings_and_tensors_hold_only_what_the_player_saw(name: str, options: dict[str, Any]) -> None:
    """No card a seat has not seen is named in its information-state or observation string; the tensors are
    the encoder's of the seat's view; one information-state string always comes with one tensor."""
    game = load(name, **options)
    encoder = game.encoder
    tensors: dict[str, tuple[float, ...]] = {}
    for seed in range(4):
        r = random.Random(seed)
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                _play(state, r, until=0)
                continue
            for seat in range(game.num_players()):
                info, obs = state.information_state_string(seat), state.observation_string(seat)
                named = {Card.parse(c) for c in CODE.findall(info) + CODE.findall(obs)}
                assert not named & _hidden_from(state, seat), (seat, info)
                tensor = tuple(state.information_state_tensor(seat))
                assert np.allclose(tensor, encoder.information_state(state.view(seat)))
                assert np.allclose(state.observation_tensor(seat), encoder.observation(state.view(seat)))
                assert tensors.setdefault(info, tensor) == tensor
            state.apply_action(r.choice(state.legal_actions()))
    assert len(tensors) > 20


def _draw_history(order: tuple[int, int]) -> BummerlState:
    """Schnapsen, seed 8's deal: seat 0 draws two talon cards after tricks 1 and 2 in ``order`` and plays the
    lower one in trick 3; seat 1 draws the same cards either way."""
    game = load("schnapsen")
    state = game.new_initial_state()
    for card in TwoPlayerGame.deal("schnapsen", seed=8).deck[:11]:
        state.apply_action(card.index)
    engine = state.game
    assert isinstance(engine, TwoPlayerGame)
    talon = sorted(engine.talon, key=lambda c: c.index)
    mine = [talon[i] for i in order]
    theirs = [talon[2], talon[3], talon[5]]
    dealt = set(engine.hands[0]) | set(engine.hands[1])
    for trick in range(3):
        for _ in range(2):
            seat = engine.to_move
            wanted = talon[0] if trick == 2 and seat == 0 else None
            options = [a for a in engine.legal_actions() if a.card in dealt and a.kind.name == "PLAY"]
            action = Action.play(wanted) if wanted is not None else options[0]
            state.apply_action(game.space.index(action))
        probe = engine.copy()  # the trick's card waits for the draws: who wins it?
        assert state._core.pending is not None
        probe.apply(state._core.pending)
        winner_draw = mine[trick] if trick < 2 and probe.tricks[-1].winner == 0 else theirs[trick]
        loser_draw = theirs[trick] if winner_draw is not theirs[trick] else (mine[trick] if trick < 2 else talon[4])
        state.apply_action(winner_draw.index)
        state.apply_action(loser_draw.index)
    return state


def test_the_order_of_ones_own_draws_is_part_of_the_information_state() -> None:
    """Perfect recall: drawing card a then card c, or c then a, and playing a leaves the same view, but the
    player who drew has two information states; the opponent, who saw neither card drawn, has one."""
    first, second = _draw_history((0, 1)), _draw_history((1, 0))
    assert first.view(0) == second.view(0) and first.view(1) == second.view(1)
    assert first.information_state_string(0) != second.information_state_string(0)
    assert first.information_state_string(1) == second.information_state_string(1)
    assert first.information_state_tensor(1) == second.information_state_tensor(1)


# ----------------------------------------------------------------------------- resampling and IS-MCTS
def _other_hands(state: BummerlState, seat: int) -> tuple[frozenset[Card], ...]:
    engine = state.game
    assert engine is not None
    return tuple(frozenset(h) for s, h in enumerate(engine.hands) if s != seat)


@pytest.mark.parametrize(("name", "options"), CASES, ids=_ids)
def test_resample_keeps_the_information_state(name: str, options: dict[str, Any]) -> None:
    """OpenSpiel's ResampleInfostateTest in Python: at every decision, for every player, the resampled state
    has the same information-state string and tensor and the same player to move; the player to move has the
    same legal actions; other players' hidden cards vary between samples."""
    game = load(name, **options)
    sampler = pyspiel.UniformProbabilitySampler(0, 0.0, 1.0)
    varied = 0
    for seed in range(3):
        r = random.Random(seed)
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                _play(state, r, until=0)
                continue
            for seat in range(game.num_players()):
                other = state.resample_from_infostate(seat, sampler)
                assert other.information_state_string(seat) == state.information_state_string(seat)
                assert other.information_state_tensor(seat) == state.information_state_tensor(seat)
                assert other.current_player() == state.current_player()
                if seat == state.current_player():
                    assert other.legal_actions() == state.legal_actions()
                if len(_hidden_from(state, seat)) > 2:
                    hands = {_other_hands(state.resample_from_infostate(seat, sampler), seat) for _ in range(3)}
                    varied += len(hands | {_other_hands(state, seat)}) > 1
            state.apply_action(r.choice(state.legal_actions()))
    assert varied > 0


def test_resample_is_for_decision_nodes() -> None:
    state = load("schnapsen").new_initial_state()
    with pytest.raises(ValueError, match="chance nodes"):
        state.resample_from_infostate(0, pyspiel.UniformProbabilitySampler(0.0, 1.0))


@pytest.mark.parametrize("name", NAMES)
def test_ismcts_plays_whole_games(name: str) -> None:
    """OpenSpiel's IS-MCTS (``open_spiel.python.algorithms.ismcts``, resampling through the state's own
    ``resample_from_infostate``) plays every seat of a game of every variant to its end."""
    game = load(name)
    rs = np.random.RandomState(7)
    bot = ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(1, rs), 2.0, max_simulations=4, random_state=rs)
    r = random.Random(7)
    state = game.new_initial_state()
    decisions = 0
    while not state.is_terminal():
        if state.is_chance_node():
            _play(state, r, until=0)
            continue
        action = bot.step(state)
        assert action in state.legal_actions()
        state.apply_action(action)
        decisions += 1
    assert decisions > 0 and all(abs(x) <= game.max_utility() for x in state.returns())


# ----------------------------------------------------------------------------- the bots
@pytest.mark.parametrize("name", NAMES)
def test_state_from_a_view_gives_that_view(name: str) -> None:
    """What the bots search from: a state built from a view alone, in which the view's player has the same
    view (two players: the same cards, legal actions and scores, set up from a position)."""
    game = load(name)
    for seed in range(4):
        r = random.Random(seed)
        state = game.new_initial_state()
        _play(state, r, until=r.randrange(1, 12))
        if state.is_terminal() or state.is_chance_node():
            continue
        seat = state.current_player()
        view = state.view(seat)
        built = game.state_from_view(view, SplitMix64(seed))
        again = built.view(seat)
        if isinstance(view, PlayerView):
            assert isinstance(again, PlayerView)
            same = ("hand", "legal", "trump", "trump_card", "talon_size", "augen", "opponent_known", "played")
            assert all(getattr(again, f) == getattr(view, f) for f in same)
            resampled = built.resample_from_infostate(seat, pyspiel.UniformProbabilitySampler(1, 0.0, 1.0))
            assert resampled.information_state_string(seat) == built.information_state_string(seat)
        else:
            assert again == view


def test_the_bots_are_found_by_name_but_not_listed() -> None:
    """The registry makes them by name for every variant; the lists of bots (the web lobby's) leave them out,
    since without the extra they could not play."""
    for kind in ("mcts", "ismcts"):
        info = bot_info(f"openspiel-{kind}")
        assert info.players == (2, 3, 4)
        bot = make_bot(f"openspiel-{kind}", 1, find_variant("dreierschnapsen"))
        assert isinstance(bot, OpenSpielBot) and bot.name == f"openspiel-{kind}"
        assert f"openspiel-{kind}" not in bot_names()


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("kind", ["mcts", "ismcts"])
def test_bots_play_every_variant_from_views_alone(name: str, kind: str) -> None:
    """Each seat's bot gets the view as the bot protocol would send it (through its JSON, so the bot cannot
    hold on to the game) and plays a whole game."""
    variant = find_variant(name)

    class FromJson:
        def __init__(self, bot: OpenSpielBot) -> None:
            self.bot, self.name = bot, bot.name

        def choose(self, view: Any) -> Any:
            return self.bot.choose(view_from_json(view_to_json(view)))

    game = Game.deal(variant, seed=5)
    players = [
        Player(kind, FromJson(OpenSpielBot(kind, variant, seed=s, simulations=6)), []) for s in range(game.players)
    ]
    outcome = play_game(game, players)
    assert outcome.fault is None and game.is_over


def test_the_arena_plays_an_openspiel_bot(capsys: pytest.CaptureFixture[str]) -> None:
    """``bummerl arena --variant schnapsen --a openspiel-ismcts --b random`` (one deal here, the registered
    budget of 100 simulations)."""
    argv = [
        "arena",
        "--variant",
        "schnapsen",
        "--a",
        "openspiel-ismcts",
        "--b",
        "random",
        "--deals",
        "1",
        "--jobs",
        "1",
    ]
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert "openspiel-ismcts" in out and "forfeits: none" in out


def test_a_seeded_bot_plays_the_same_move() -> None:
    game = Game.deal("schnapsen", seed=9)
    choices = {OpenSpielBot("ismcts", "schnapsen", seed=4, simulations=12).choose(game.view(0)) for _ in range(2)}
    assert len(choices) == 1
