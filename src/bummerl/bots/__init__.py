"""Computer players: a common interface and one registry by name for every variant.

A bot is anything with a ``name`` and a ``choose(view) -> Action`` method; it
sees only a view (a :class:`~bummerl.view.PlayerView` of a two-player game or
a :class:`~bummerl.view.TableView` of a table game), never the full
game.  Every bot is registered once with the games it plays, counted in
players: the search levels ``easy`` .. ``expert`` play the two-player
variants, ``search`` the table games, ``random`` and ``heuristic`` all six.
:func:`make_bot` makes one by name for a variant; randomness comes from the
seed it is given, so a seeded arena run is reproducible.

>>> from bummerl.game import Game
>>> bot = make_bot("random", seed=1)
>>> game = Game.deal("schnapsen", seed=5)
>>> bot.choose(game.view(game.to_move)) in game.legal_actions()
True
>>> make_bot("nonsense")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
bummerl.bots.UnknownBotError: unknown bot 'nonsense'; bots that play Schnapsen (weich): random, heuristic, ...

The variant picks the bots that can play it:

>>> from bummerl.variants import find_table_variant
>>> dreier = find_table_variant("dreierschnapsen")
>>> bot_names(dreier)
['random', 'heuristic', 'search']
>>> bot_info("heuristic").plays(dreier), bot_info("expert").plays(dreier)
(True, False)
>>> make_bot("expert", variant=dreier)
Traceback (most recent call last):
...
bummerl.bots.UnknownBotError: bot 'expert' does not play Dreierschnapsen; bots that do: random, heuristic, search

Each bot has one display name per language (:attr:`BotInfo.titles`), the name the web page and its API show
everywhere (lobby, table, history):

>>> bot_info("hard").title("de"), bot_info("hard").title("en"), bot_info("rules").title("en")
('Stark', 'Strong', 'Rules of thumb')

``cmd:<command line>`` names a program speaking the bot protocol
(:class:`~bummerl.bots.process.ProcessBot`, docs/protocol.md) for any variant.
"""

from __future__ import annotations

import dataclasses
import importlib
import os
from collections.abc import Callable, Collection, Mapping
from typing import Any, Protocol, overload, runtime_checkable

from bummerl.actions import Action
from bummerl.bots.heuristic import HeuristicBot
from bummerl.bots.process import ProcessBot
from bummerl.bots.table_bots import TableHeuristicBot
from bummerl.cards import LANGUAGES
from bummerl.errors import BummerlError
from bummerl.rng import SplitMix64
from bummerl.variants import Variant, find_variant

__all__ = [
    "EVERY_GAME",
    "NETWORK_PREFIX",
    "TABLE_GAMES",
    "TWO_PLAYER",
    "Bot",
    "BotInfo",
    "RandomBot",
    "UnknownBotError",
    "bot_info",
    "bot_names",
    "bot_titles",
    "make_bot",
    "register_bot",
]

#: ``plays`` of a bot for the two-player variants (Schnapsen, scharf, 66, Schnorps).
TWO_PLAYER: tuple[int, ...] = (2,)
#: ``plays`` of a bot for the table games (Dreierschnapsen, Bauernschnapsen).
TABLE_GAMES: tuple[int, ...] = (3, 4)
#: ``plays`` of a bot for all six variants.
EVERY_GAME: tuple[int, ...] = (2, 3, 4)

#: The variant of :func:`make_bot` without one: Schnapsen, as before table games had bots.
_DEFAULT_VARIANT = "schnapsen"


class UnknownBotError(BummerlError):
    """A bot name that the registry does not know, or a bot that does not play the variant."""


@runtime_checkable
class Bot(Protocol):
    """The interface every bot implements."""

    name: str

    def choose(self, view: Any) -> Action:
        """A legal action for the player of ``view`` (whose turn it is).

        ``view`` is the view of a game the bot plays: a :class:`~bummerl.view.PlayerView`
        or a :class:`~bummerl.view.TableView` (the view types become one with issue 11).
        """
        ...


@dataclasses.dataclass(frozen=True)
class BotInfo:
    """A registry entry: how to make the bot, what it is and which games it plays."""

    name: str
    #: ``factory(seed, variant)`` makes the bot for ``variant``.
    factory: Callable[[int, Variant], Bot]
    description: str
    aliases: tuple[str, ...] = ()
    #: The numbers of players of the games the bot plays (:data:`TWO_PLAYER`, :data:`TABLE_GAMES`, ...).
    players: tuple[int, ...] = TWO_PLAYER
    #: The bot's display name by language (``"de"``, ``"en"``): the one name players see for it.
    titles: Mapping[str, str] = dataclasses.field(default_factory=dict)

    def title(self, lang: str) -> str:
        """The display name in ``lang`` (``"de"`` or ``"en"``); the bot's name where it has none."""
        return self.titles.get(lang) or self.titles.get("en") or self.name

    def titles_json(self) -> dict[str, str]:
        """The display name in every language of the page: ``{"de": ..., "en": ...}``."""
        return {lang: self.title(lang) for lang in LANGUAGES}

    def plays(self, variant: Variant) -> bool:
        """Whether this bot plays ``variant``."""
        return variant.players in self.players

    def make(self, seed: int, variant: Variant) -> Bot:
        """A new bot for ``variant`` (:class:`UnknownBotError` if it does not play it).

        Unlike :func:`make_bot` this never starts a program: only registered bots
        are made (what a server that takes bot names from the network needs).
        """
        if not self.plays(variant):
            raise _does_not_play(self.name, variant)
        return self.factory(seed, variant)


_REGISTRY: dict[str, BotInfo] = {}


@overload
def register_bot(
    name: str,
    factory: Callable[[int], Bot],
    description: str,
    aliases: tuple[str, ...] = (),
    *,
    titles: Mapping[str, str] | None = None,
) -> None: ...


@overload
def register_bot(
    name: str,
    factory: Callable[[int, Variant], Bot],
    description: str,
    aliases: tuple[str, ...] = (),
    *,
    plays: Collection[int],
    titles: Mapping[str, str] | None = None,
) -> None: ...


def register_bot(
    name: str,
    factory: Callable[..., Bot],
    description: str,
    aliases: tuple[str, ...] = (),
    *,
    plays: Collection[int] | None = None,
    titles: Mapping[str, str] | None = None,
) -> None:
    """Add a bot to the registry under ``name`` and its ``aliases``.

    ``plays`` lists the numbers of players of the games the bot plays
    (:data:`TWO_PLAYER`, :data:`TABLE_GAMES`, :data:`EVERY_GAME`); with it,
    ``factory(seed, variant)`` makes the bot for a variant, so one name can
    stand for one implementation per family.  Without ``plays`` the bot plays
    the two-player variants and ``factory(seed)`` makes it (the registry's
    first form, still used by bots of a single implementation).  ``titles``
    gives its display name by language (``{"de": "Stark", "en": "Strong"}``).
    """
    if plays is None:
        one_argument: Callable[[int], Bot] = factory

        def by_variant(seed: int, variant: Variant) -> Bot:
            return one_argument(seed)

        info = BotInfo(name, by_variant, description, aliases, TWO_PLAYER, dict(titles or {}))
    else:
        counts = tuple(sorted(set(plays)))
        if not counts or not set(counts) <= set(EVERY_GAME):
            raise ValueError(f"plays must name player counts 2, 3 or 4, not {plays!r}")
        info = BotInfo(name, factory, description, aliases, counts, dict(titles or {}))
    for key in (name, *aliases):
        _REGISTRY[key] = info


def bot_names(variant: Variant | None = None) -> list[str]:
    """The canonical names of the registered bots that play ``variant`` (all bots without one),
    in registration order."""
    _load_builtin()
    seen: dict[str, None] = {}
    for info in _REGISTRY.values():
        if variant is None or info.plays(variant):
            seen[info.name] = None
    return list(seen)


def bot_info(name: str, variant: Variant | None = None) -> BotInfo:
    """The registry entry for ``name`` (or an alias); with ``variant``, only if the bot plays it.

    Raises :class:`UnknownBotError` naming the bots there are (that play ``variant``).
    """
    _load_builtin()
    if name.strip().startswith(NETWORK_PREFIX):
        return _network(name.strip())
    key = name.strip().lower()
    info = _REGISTRY.get(key) or _UNLISTED.get(key)
    if info is None:
        if variant is None:
            raise UnknownBotError(f"unknown bot {name!r}; known bots: {', '.join(bot_names())}")
        raise UnknownBotError(f"unknown bot {name!r}; bots that play {variant.title}: {', '.join(bot_names(variant))}")
    if variant is not None and not info.plays(variant):
        raise _does_not_play(info.name, variant)
    return info


def bot_titles(name: str) -> dict[str, str]:
    """The display names of bot ``name`` by language (``{"de": ..., "en": ...}``); the name itself for a bot
    the registry does not know (a program, a bot of an older server), so that a stored table still shows.

    >>> bot_titles("random"), bot_titles("cmd:./mybot")
    ({'de': 'Zufall', 'en': 'Random'}, {'de': 'cmd:./mybot', 'en': 'cmd:./mybot'})
    """
    try:
        return bot_info(name).titles_json()
    except UnknownBotError:
        return {lang: name for lang in LANGUAGES}


def _does_not_play(name: str, variant: Variant) -> UnknownBotError:
    return UnknownBotError(f"bot {name!r} does not play {variant.title}; bots that do: {', '.join(bot_names(variant))}")


def make_bot(name: str, seed: int = 0, variant: Variant | None = None) -> Bot:
    """A new bot called ``name`` for ``variant`` whose randomness comes from ``seed``.

    Without a variant the bot is made for Schnapsen.  ``cmd:<command line>``
    makes a :class:`~bummerl.bots.process.ProcessBot`: a program in any language
    speaking the bot protocol (docs/protocol.md), for any variant; it gets
    ``seed`` in the ``game_start`` of its first game.  Raises
    :class:`UnknownBotError` for an unknown name or a bot that does not play
    ``variant``, naming the bots that do.

    >>> from bummerl.variants import find_table_variant
    >>> make_bot("search", 1, variant=find_table_variant("dreier")).name
    'search'
    """
    if name.startswith("cmd:"):
        return ProcessBot(name, seed=seed)
    v = variant if variant is not None else find_variant(_DEFAULT_VARIANT)
    return bot_info(name, v).factory(seed, v)


class RandomBot:
    """Chooses uniformly among the legal actions (a baseline, not a player)."""

    def __init__(self, seed: int = 0) -> None:
        self.name = "random"
        self._rng = SplitMix64(seed)

    def choose(self, view: Any) -> Action:
        # ``legal`` (both kinds of view have it): the game's tuple, not a copy of it.
        actions: tuple[Action, ...] = view.legal
        if not actions:
            raise ValueError("no legal action: it is not this player's turn")
        return actions[self._rng.below(len(actions))]


# --------------------------------------------------------- the built-in bots
# ``random`` and ``heuristic`` are one name each with one implementation per
# family: the variant's family picks it.  The search bots are imported when
# asked for (they are heavy); registered here, the names keep one order.
def _random(seed: int, variant: Variant) -> Bot:
    return RandomBot(seed)  # every view has its legal actions: one class for every variant


#: The rule-based bot of each family of rules (``Variant.FAMILY``).
_HEURISTIC: dict[str, Callable[[int], Bot]] = {"two_player": HeuristicBot, "table_game": TableHeuristicBot}


def _heuristic(seed: int, variant: Variant) -> Bot:
    return _HEURISTIC[variant.FAMILY](seed)


def _search(seed: int, variant: Variant) -> Bot:
    from bummerl.bots.table_search import TableSearchBot

    return TableSearchBot(seed)


register_bot(
    "random", _random, "uniformly random legal actions", plays=EVERY_GAME, titles={"de": "Zufall", "en": "Random"}
)
register_bot(
    "heuristic",
    _heuristic,
    "rule-based: marriages, exchange, sure tricks, cheap takes; at the table games safe bids and Kontra",
    ("rules",),
    plays=EVERY_GAME,
    titles={"de": "Faustregeln", "en": "Rules of thumb"},
)

_BUILTIN_LOADED = False


def _load_builtin() -> None:
    """Import the modules that register the other built-in bots (lazily: search
    bots are heavy and most callers need only one of them)."""
    global _BUILTIN_LOADED
    if _BUILTIN_LOADED:
        return
    _BUILTIN_LOADED = True
    for module in _BUILTIN_MODULES:
        importlib.import_module(module)


register_bot(
    "search",
    _search,
    "table games: sampled deals, each solved exactly (PIMC), for play, bids and Kontra; at most 2.5 s a move",
    plays=TABLE_GAMES,
    titles={"de": "Denker", "en": "Thinker"},
)

#: Modules that call :func:`register_bot` when imported (the two-player search levels).
_BUILTIN_MODULES: list[str] = ["bummerl.bots.levels"]


def _openspiel(kind: str) -> Callable[[int, Variant], Bot]:
    def factory(seed: int, variant: Variant) -> Bot:
        # Loaded when such a bot is made, never before: it needs the optional `openspiel` extra (numpy,
        # open_spiel), and it sits in the rl layer above the bots (pyproject.toml's one ignored import).
        from bummerl.rl.openspiel_bots import make_openspiel_bot

        return make_openspiel_bot(kind, seed, variant)

    return factory


#: ``npz:PATH``: a policy network trained by :mod:`bummerl.rl.train`, read from PATH (needs NumPy, the RL extras).
NETWORK_PREFIX = "npz:"


def _network(spec: str) -> BotInfo:
    path = spec[len(NETWORK_PREFIX) :]
    if not path:
        raise UnknownBotError(f"{NETWORK_PREFIX}PATH names a network's .npz file; no path in {spec!r}")
    if not os.path.isfile(os.path.expanduser(path)):
        raise UnknownBotError(f"no network file at {path!r} ({NETWORK_PREFIX}PATH names a .npz of bummerl.rl.train)")

    def factory(seed: int, variant: Variant) -> Bot:
        # Loaded when such a bot is made (the rl layer above the bots, pyproject.toml's ignored imports).
        from bummerl.rl.network import NetworkBot

        return NetworkBot.load(path, variant)

    description = f"the policy network saved at {path} (bummerl.rl.train)"
    return BotInfo(spec, factory, description, players=EVERY_GAME, titles={"en": spec})


#: Bots of an optional extra: found by name (make_bot, the arena, ``bummerl bot``) but not listed by
#: :func:`bot_names`, which the web lobby offers: without their extra installed they cannot play.
_UNLISTED: dict[str, BotInfo] = {
    f"openspiel-{kind}": BotInfo(
        f"openspiel-{kind}", _openspiel(kind), text, players=EVERY_GAME, titles={"en": f"OpenSpiel {kind.upper()}"}
    )
    for kind, text in (
        ("mcts", "OpenSpiel's MCTS over worlds sampled from the view (extra 'openspiel')"),
        ("ismcts", "OpenSpiel's information-set MCTS, worlds sampled from the view (extra 'openspiel')"),
    )
}
