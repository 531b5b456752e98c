"""Computer players: a common interface and a registry by name.

A bot is anything with a ``name`` and a ``choose(view) -> Action`` method; it
sees only a :class:`~bummerl.view.PlayerView`, never the full game.  Bots are
made by name with :func:`make_bot`; randomness comes from the seed they are
given, so a seeded arena run is reproducible.

>>> from bummerl.game import Game
>>> bot = make_bot("random", seed=1)
>>> game = Game.deal("schnapsen", seed=5)
>>> bot.choose(game.view(game.to_move)) in game.legal_actions()
True
>>> make_bot("nonsense")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
bummerl.bots.UnknownBotError: unknown bot 'nonsense'; known bots: random, ...
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import TYPE_CHECKING, Protocol, overload, runtime_checkable

from bummerl.actions import Action
from bummerl.errors import BummerlError
from bummerl.rng import SplitMix64
from bummerl.variants import TableVariant, TwoPlayerVariant
from bummerl.view import PlayerView

if TYPE_CHECKING:
    from bummerl.bots.table_bots import TableBot

__all__ = ["Bot", "BotInfo", "RandomBot", "UnknownBotError", "bot_info", "bot_names", "make_bot", "register_bot"]


class UnknownBotError(BummerlError):
    """A bot name that the registry does not know."""


@runtime_checkable
class Bot(Protocol):
    """The interface every bot implements."""

    name: str

    def choose(self, view: PlayerView) -> Action:
        """A legal action for the player of ``view`` (whose turn it is)."""
        ...


@dataclasses.dataclass(frozen=True)
class BotInfo:
    """A registry entry: how to make the bot and what it is."""

    name: str
    factory: Callable[[int], Bot]
    description: str
    aliases: tuple[str, ...] = ()


_REGISTRY: dict[str, BotInfo] = {}


def register_bot(name: str, factory: Callable[[int], Bot], description: str, aliases: tuple[str, ...] = ()) -> None:
    """Add a bot to the registry; ``factory(seed)`` makes one."""
    info = BotInfo(name, factory, description, aliases)
    for key in (name, *aliases):
        _REGISTRY[key] = info


def bot_names() -> list[str]:
    """The canonical names of all registered bots, in registration order."""
    _load_builtin()
    seen: dict[str, None] = {}
    for info in _REGISTRY.values():
        seen[info.name] = None
    return list(seen)


def bot_info(name: str) -> BotInfo:
    """The registry entry for ``name`` (or an alias)."""
    _load_builtin()
    try:
        return _REGISTRY[name.strip().lower()]
    except KeyError:
        raise UnknownBotError(f"unknown bot {name!r}; known bots: {', '.join(bot_names())}") from None


@overload
def make_bot(name: str, seed: int = 0, variant: TwoPlayerVariant | None = None) -> Bot: ...


@overload
def make_bot(name: str, seed: int = 0, *, variant: TableVariant) -> TableBot: ...


def make_bot(name: str, seed: int = 0, variant: TwoPlayerVariant | TableVariant | None = None) -> Bot | TableBot:
    """A new bot called ``name`` whose randomness comes from ``seed``.

    ``cmd:<command line>`` makes a :class:`~bummerl.protocol.ProcessBot`: a
    program in any language speaking the bot protocol (docs/protocol.md).
    With a three- or four-player ``variant`` the bot is a table bot
    (:func:`bummerl.bots.table_bots.make_table_bot`: ``random``, ``heuristic``,
    ``search``) that reads a :class:`~bummerl.table.view.TableView`:

    >>> from bummerl.variants import find_table_variant
    >>> make_bot("search", 1, variant=find_table_variant("dreier")).name
    'search'
    """
    if isinstance(variant, TableVariant):
        from bummerl.bots.table_bots import make_table_bot

        if name.startswith("cmd:"):
            raise UnknownBotError(f"the bot protocol is two-player only; {variant.title} needs a built-in table bot")
        return make_table_bot(name, seed)
    if name.startswith("cmd:"):
        from bummerl.protocol import ProcessBot

        return ProcessBot(name)
    return bot_info(name).factory(seed)


class RandomBot:
    """Chooses uniformly among the legal actions (a baseline, not a player)."""

    def __init__(self, seed: int = 0) -> None:
        self.name = "random"
        self._rng = SplitMix64(seed)

    def choose(self, view: PlayerView) -> Action:
        actions = view.legal_actions()
        if not actions:
            raise ValueError("no legal action: it is not this player's turn")
        return actions[self._rng.below(len(actions))]


register_bot("random", RandomBot, "uniformly random legal actions")

_BUILTIN_LOADED = False


def _load_builtin() -> None:
    """Import the modules that register the other built-in bots (lazily: search
    bots are heavy and most callers need only one of them)."""
    global _BUILTIN_LOADED
    if _BUILTIN_LOADED:
        return
    _BUILTIN_LOADED = True
    import importlib

    for module in _BUILTIN_MODULES:
        importlib.import_module(module)


#: Modules that call :func:`register_bot` when imported.
_BUILTIN_MODULES: list[str] = ["bummerl.bots.heuristic", "bummerl.bots.levels"]
