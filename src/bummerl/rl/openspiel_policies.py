"""Bummerl's bots in OpenSpiel: every registered bot as a ``pyspiel.Bot`` and as an OpenSpiel policy (extra
``openspiel``).

Every registered bot
(:func:`bummerl.bots.bot_names`) is a ``pyspiel.Bot`` (:class:`BummerlBot`, for
``pyspiel.evaluate_bots`` and OpenSpiel's match tools) and an OpenSpiel
``policy.Policy`` (:class:`BotPolicy`, for ``exploitability``, best response and
CFR's comparisons).  As a policy a bot is a function of the information state:
``random`` is uniform over the legal actions; every other bot plays one action
with probability 1, the one it chooses from the player's view when seeded with
:func:`info_seed` of the information-state string (so a bot that samples
worlds still gives one fixed answer per information state).

>>> import pyspiel
>>> from bummerl.rl.openspiel import load
>>> game = load("mini8")
>>> state = game.new_initial_state()
>>> while state.is_chance_node():
...     state.apply_action(state.chance_outcomes()[0][0])
>>> BotPolicy(game, "heuristic").action_probabilities(state)
{5: 1.0, 6: 0.0, 7: 0.0, 65: 0.0}
>>> sorted(BotPolicy(game, "random").action_probabilities(state).values())
[0.25, 0.25, 0.25, 0.25]
>>> pyspiel.evaluate_bots(state.clone(), [BummerlBot(game, "heuristic", 0), BummerlBot(game, "easy", 1)], 1)
[-3.0, 3.0]

(The other way round, OpenSpiel's searches as Bummerl bots: :mod:`bummerl.rl.openspiel_bots`.)
"""

from __future__ import annotations

import zlib
from collections.abc import Callable

import pyspiel
from open_spiel.python import policy

from bummerl.bots import Bot, bot_info
from bummerl.rl.openspiel import BummerlGame, BummerlState

__all__ = ["BotPolicy", "BummerlBot", "StatePolicy", "bot_policy", "info_seed"]


def info_seed(info: str) -> int:
    """The seed a bot gets at an information state (CRC-32 of its string): the same answer at every history of
    the set, and across runs.

    >>> info_seed("p0|x")
    3007600100
    """
    return zlib.crc32(info.encode())


#: What :func:`bot_policy` returns: a state and its player to the action probabilities, in the legal order.
StatePolicy = Callable[[BummerlState, int], list[tuple[int, float]]]


def bot_policy(name: str, game: BummerlGame) -> StatePolicy:
    """The registered bot ``name`` of ``game``'s variant as a function of the state and the player to act:
    the action probabilities over the legal actions (see the module docstring)."""
    maker = bot_info(name, game.variant)  # UnknownBotError naming the bots that play the variant
    space = game.space

    if maker.name == "random":

        def uniform(state: BummerlState, player: int) -> list[tuple[int, float]]:
            legal = state.legal_actions(player)
            return [(a, 1.0 / len(legal)) for a in legal]

        return uniform

    def decided(state: BummerlState, player: int) -> list[tuple[int, float]]:
        bot = maker.make(info_seed(state.information_state_string(player)), game.variant)
        chosen = space.index(bot.choose(state.view(player)))
        return [(a, 1.0 if a == chosen else 0.0) for a in state.legal_actions(player)]

    return decided


class BotPolicy(policy.Policy):  # type: ignore[misc]
    """A registered Bummerl bot as an OpenSpiel ``policy.Policy`` for the players ``players`` (default all):
    ``exploitability.exploitability(game, BotPolicy(game, "heuristic"))`` and best response take it."""

    def __init__(self, game: BummerlGame, bot: str, players: list[int] | None = None) -> None:
        super().__init__(game, list(range(game.num_players())) if players is None else players)
        self.bot = bot_info(bot, game.variant).name
        self._policy = bot_policy(bot, game)

    def action_probabilities(self, state: BummerlState, player_id: int | None = None) -> dict[int, float]:
        player = state.current_player() if player_id is None else player_id
        return dict(self._policy(state, player))


class BummerlBot(pyspiel.Bot):  # type: ignore[misc]
    """A registered Bummerl bot (or any :class:`~bummerl.bots.Bot`) as a ``pyspiel.Bot`` of ``game``, seated at
    ``player``: it decides from that player's view of the state, never from the state itself."""

    def __init__(self, game: BummerlGame, bot: str | Bot, player: int, seed: int = 0) -> None:
        super().__init__()
        self.game = game
        self.player = player
        self.bot: Bot = bot_info(bot, game.variant).make(seed, game.variant) if isinstance(bot, str) else bot

    def step(self, state: BummerlState) -> int:
        return int(self.game.space.index(self.bot.choose(state.view(self.player))))

    def step_with_policy(self, state: BummerlState) -> tuple[list[tuple[int, float]], int]:
        action = self.step(state)
        return [(a, 1.0 if a == action else 0.0) for a in state.legal_actions(self.player)], action

    def provides_policy(self) -> bool:
        return True

    def restart_at(self, state: BummerlState) -> None:
        """Nothing to forget: the bot reads everything from the view it is given."""

    def inform_action(self, state: BummerlState, player_id: int, action: int) -> None:
        """Nothing to learn: the next view shows the action."""
