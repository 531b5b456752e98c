"""The one bot registry (issue 11): every bot registered once with the games it plays, made by name for a variant.

"One bot registry (every bot declares the variants it plays)": the search levels play the two-player
variants, ``search`` the table games, ``random`` and ``heuristic`` all six, each one name with one
implementation per family; ``cmd:`` bots play every variant through the protocol.
"""

from __future__ import annotations

import inspect
from collections.abc import Iterator
from typing import Any

import pytest

import bummerl.bots
from bummerl.bots import (
    EVERY_GAME,
    TABLE_GAMES,
    Bot,
    RandomBot,
    UnknownBotError,
    bot_info,
    bot_names,
    make_bot,
    register_bot,
)
from bummerl.bots.heuristic import HeuristicBot
from bummerl.bots.search import SearchBot
from bummerl.bots.table_bots import TableHeuristicBot
from bummerl.bots.table_search import TableSearchBot
from bummerl.game import Game
from bummerl.protocol import ProcessBot
from bummerl.rng import derive_seed
from bummerl.table_game import TableGame
from bummerl.variants import TABLE_VARIANTS, VARIANTS, TableVariant, TwoPlayerVariant, Variant, find_variant

# VARIANTS holds the two-player variants, or all six once the variant lookup is one (issue 11).
ALL_VARIANTS: list[Variant] = list(dict.fromkeys([*VARIANTS, *TABLE_VARIANTS]))
TWO_PLAYER_VARIANTS = [v for v in ALL_VARIANTS if v.players == 2]
LEVELS = ["easy", "medium", "hard", "expert"]


@pytest.fixture
def registry(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Registrations made by a test are undone after it."""
    monkeypatch.setattr(bummerl.bots, "_REGISTRY", dict(bummerl.bots._REGISTRY))
    yield


def _view(variant: Variant, seed: int = 1) -> Any:
    """The view of the player to move at the start of a game of ``variant``."""
    game: Any = Game.deal(variant, seed=seed) if variant.players == 2 else TableGame.deal(variant, seed=seed)
    return game.view(game.to_move)


def _builtin(names: list[str]) -> list[str]:
    # Other test modules register bots of their own, all named "...-test".
    return [n for n in names if not n.endswith("-test")]


def test_every_bot_declares_the_games_it_plays() -> None:
    assert _builtin(bot_names()) == ["random", "heuristic", "search", *LEVELS]
    for variant in TWO_PLAYER_VARIANTS:
        assert _builtin(bot_names(variant)) == ["random", "heuristic", *LEVELS]
    for table in TABLE_VARIANTS:
        assert _builtin(bot_names(table)) == ["random", "heuristic", "search"]
    assert bot_info("random").players == EVERY_GAME == bot_info("heuristic").players
    assert bot_info("search").players == TABLE_GAMES
    assert all(bot_info(level).players == (2,) for level in LEVELS)


@pytest.mark.parametrize("variant", ALL_VARIANTS, ids=lambda v: v.name)
def test_every_bot_plays_every_variant_it_declares(variant: Variant) -> None:
    """make_bot(name, seed, variant) gives a bot whose choice is legal, for every bot that plays the variant."""
    view = _view(variant)
    for name in bot_names(variant):
        bot = make_bot(name, 3, variant)
        assert isinstance(bot, Bot) and bot.name == name
        if name in ("expert", "search"):
            continue  # the slow searches: tests/test_search_bots.py, tests/test_table_search.py
        assert bot.choose(view) in view.legal_actions()


@pytest.mark.parametrize("variant", ALL_VARIANTS, ids=lambda v: v.name)
def test_a_bot_that_does_not_play_the_variant_names_those_that_do(variant: Variant) -> None:
    others = [name for name in bot_names() if name not in bot_names(variant)]
    assert others
    for name in others:
        expected = f"bot '{name}' does not play {variant.title}; bots that do: {', '.join(bot_names(variant))}"
        with pytest.raises(UnknownBotError, match=expected.replace("(", r"\(").replace(")", r"\)")):
            make_bot(name, 0, variant)
        with pytest.raises(UnknownBotError, match="does not play"):
            bot_info(name).make(0, variant)
        assert not bot_info(name).plays(variant)


def test_random_and_heuristic_are_one_name_with_one_implementation_per_family() -> None:
    """The variant picks the implementation; both play exactly as the implementation made directly.
    ``random`` needs only the view's legal actions: one class plays every variant."""
    two, dreier = find_variant("66"), TABLE_VARIANTS[1]
    assert type(make_bot("random", 1, two)) is RandomBot
    assert type(make_bot("random", 1, dreier)) is RandomBot
    assert type(make_bot("heuristic", 1, two)) is HeuristicBot
    assert type(make_bot("rules", 1, dreier)) is TableHeuristicBot
    assert type(make_bot("search", 1, dreier)) is TableSearchBot
    assert type(make_bot("pimc-hard", 1, two)) is SearchBot
    for i in range(5):
        seed = derive_seed(11, i)
        table = TableGame.deal(dreier, seed=seed)
        by_name = [make_bot("heuristic", seed + s, dreier) for s in range(3)]
        direct = [TableHeuristicBot(seed + s) for s in range(3)]
        while not table.is_over:
            view = table.view(table.to_move)
            action = by_name[table.to_move].choose(view)
            assert action == direct[table.to_move].choose(view)
            table.apply(action)


def test_without_a_variant_a_bot_plays_schnapsen() -> None:
    """make_bot(name) as before the table games had bots: the default variant, Schnapsen."""
    assert type(make_bot("heuristic")) is HeuristicBot
    with pytest.raises(UnknownBotError, match=r"bot 'search' does not play Schnapsen \(weich\)"):
        make_bot("search")


def test_unknown_names_list_the_bots() -> None:
    with pytest.raises(UnknownBotError, match="unknown bot 'grandmaster'; known bots: random, heuristic, search, easy"):
        bot_info("grandmaster")
    with pytest.raises(
        UnknownBotError, match="unknown bot 'x'; bots that play Dreierschnapsen: random, heuristic, search"
    ):
        make_bot("x", variant=TABLE_VARIANTS[1])


@pytest.mark.parametrize("variant", ALL_VARIANTS, ids=lambda v: v.name)
def test_cmd_bots_play_every_variant(variant: Variant) -> None:
    """`cmd:<command line>` makes a protocol bot for any variant (it starts its program on first use)."""
    bot = make_bot("cmd:python3 mybot.py --fast", 9, variant)
    assert isinstance(bot, ProcessBot) and bot.seed == 9 and bot.name == "cmd:python3 mybot.py --fast"


def test_the_registry_itself_never_starts_a_program() -> None:
    """A server takes bot names from the network: bot_info refuses `cmd:`, so bot_info(...).make never
    starts a process."""
    with pytest.raises(UnknownBotError, match="unknown bot 'cmd:rm -rf /'"):
        bot_info("cmd:rm -rf /")


def test_register_a_bot_for_some_games(registry: None) -> None:
    """register_bot(name, factory, description, aliases, plays=...): ``factory(seed, variant)`` gets the variant."""
    made: list[tuple[int, str]] = []

    def factory(seed: int, variant: Variant) -> Bot:
        made.append((seed, variant.name))
        return RandomBot(seed)

    register_bot("coin", factory, "test bot: a coin for three players and two", ("münze",), plays=(3, 2))
    info = bot_info("Münze")
    assert (info.name, info.players, info.description) == ("coin", (2, 3), "test bot: a coin for three players and two")
    some: list[Variant] = [TWO_PLAYER_VARIANTS[0], *TABLE_VARIANTS]
    assert [info.plays(v) for v in some] == [True, False, True]
    make_bot("coin", 5, TABLE_VARIANTS[1])
    make_bot("coin", 6)
    assert made == [(5, "dreierschnapsen"), (6, "schnapsen")]
    assert "coin" in bot_names(TABLE_VARIANTS[1]) and "coin" not in bot_names(TABLE_VARIANTS[0])


def test_register_a_two_player_bot_the_first_way(registry: None) -> None:
    """Without ``plays`` a bot plays the two-player variants and ``factory(seed)`` makes it (the
    registry's first form, which the server tests' bots use)."""
    register_bot("plain-test", RandomBot, "test bot")
    assert bot_info("plain-test").players == (2,)
    assert isinstance(make_bot("plain-test", 1, find_variant("schnorps")), RandomBot)
    with pytest.raises(UnknownBotError, match="does not play Bauernschnapsen"):
        make_bot("plain-test", 1, TABLE_VARIANTS[0])


@pytest.mark.parametrize("plays", [(), (1, 2), (5,)])
def test_plays_names_player_counts(registry: None, plays: tuple[int, ...]) -> None:
    with pytest.raises(ValueError, match="plays must name player counts 2, 3 or 4"):
        register_bot("bad-test", lambda seed, variant: RandomBot(seed), "test", plays=plays)


def test_the_registry_asks_the_variant_not_its_type() -> None:
    """Issue 11: no isinstance branching on two-player vs table games outside the variant definitions: the
    registry asks a variant how many players it has."""
    source = inspect.getsource(bummerl.bots)
    assert "TableVariant" not in source and "TwoPlayerVariant" not in source
    assert "isinstance(" not in source
    assert [v.players for v in ALL_VARIANTS] == [2, 2, 2, 2, 4, 3]
    assert all(isinstance(v, TwoPlayerVariant) for v in TWO_PLAYER_VARIANTS)  # a test may look; the registry not
    assert all(isinstance(v, TableVariant) for v in TABLE_VARIANTS)
