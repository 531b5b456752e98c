"""OpenSpiel's MCTS and IS-MCTS as Bummerl bots: ``openspiel-mcts`` and ``openspiel-ismcts`` (extra ``openspiel``).

A Bummerl bot is given a view and nothing else, so these bots search from states
built from the view (:meth:`~bummerl.rl.openspiel.BummerlGame.state_from_view`:
the cards the player cannot see drawn by the engine's inference, the rest as the
view shows it), never from the game:

* ``openspiel-ismcts`` runs OpenSpiel's information-set MCTS
  (``open_spiel.python.algorithms.ismcts``) from such a state; every simulation
  starts in a world drawn anew (``resample_from_infostate``), and the tree is one
  of information states.
* ``openspiel-mcts`` runs OpenSpiel's MCTS (``open_spiel.python.algorithms.mcts``)
  on :data:`WORLDS` sampled worlds, each searched as if its cards were known
  (talon cards stay chance nodes until drawn), and plays the action visited most
  over all of them: determinized MCTS, as PIMC is determinized search.

Both evaluate leaves by one random rollout and play every variant.  Their
randomness (worlds, rollouts, ties) comes from the seed, so a seeded arena run
is reproducible.

>>> from bummerl.game import Game
>>> game = Game.deal("schnapsen", seed=2)
>>> bot = OpenSpielBot("ismcts", game.variant, seed=1, simulations=8)
>>> bot.name, bot.choose(game.view(game.to_move)) in game.legal_actions()
('openspiel-ismcts', True)

The registry makes them by name (``make_bot("openspiel-ismcts", seed, variant)``,
``bummerl arena --a openspiel-ismcts``) with :data:`SIMULATIONS` simulations
per decision; :class:`OpenSpielBot` takes other budgets.

**The other way round: Bummerl's bots in OpenSpiel.**  Every registered bot
(:func:`bummerl.bots.bot_names`) is a ``pyspiel.Bot`` (:class:`BummerlBot`, for
``pyspiel.evaluate_bots`` and OpenSpiel's match tools) and an OpenSpiel
``policy.Policy`` (:class:`BotPolicy`, for ``exploitability``, best response and
CFR's comparisons).  As a policy a bot is a function of the information state:
``random`` is uniform over the legal actions; every other bot plays one action
with probability 1, the one it chooses from the player's view when seeded with
:func:`info_seed` of the information-state string (so a bot that samples
worlds still gives one fixed answer per information state).

>>> import pyspiel
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
"""

from __future__ import annotations

import functools
import zlib
from collections.abc import Callable
from typing import Any

import numpy as np
import pyspiel
from open_spiel.python import policy
from open_spiel.python.algorithms import ismcts, mcts

from bummerl.actions import Action
from bummerl.bots import Bot, bot_info
from bummerl.rl.openspiel import BummerlGame, BummerlState, load
from bummerl.rng import SplitMix64
from bummerl.variants import Variant, find_variant
from bummerl.view import View

__all__ = [
    "KINDS",
    "SIMULATIONS",
    "UCT_C",
    "WORLDS",
    "BotPolicy",
    "BummerlBot",
    "OpenSpielBot",
    "bot_policy",
    "info_seed",
    "make_openspiel_bot",
]

#: The searches: OpenSpiel's MCTS over sampled worlds, and its IS-MCTS.
KINDS = ("mcts", "ismcts")
#: Simulations per decision of the registered bots (about 0.1-0.5 s a move in Schnapsen, docs/rl_openspiel.md).
SIMULATIONS = 100
#: Worlds ``openspiel-mcts`` searches per decision (the simulations are shared out among them).
WORLDS = 4
#: The UCT exploration constant: the returns are game points, mostly 1 to 3.
UCT_C = 2.0


@functools.cache
def _game(variant: Variant) -> BummerlGame:
    return load(variant)


class OpenSpielBot:
    """A Bummerl bot that decides with OpenSpiel's ``kind`` of search (:data:`KINDS`) from the view alone."""

    def __init__(
        self,
        kind: str,
        variant: Variant | str,
        seed: int = 0,
        simulations: int = SIMULATIONS,
        worlds: int = WORLDS,
        uct_c: float = UCT_C,
    ) -> None:
        if kind not in KINDS:
            raise ValueError(f"kind must be one of {', '.join(KINDS)}, not {kind!r}")
        if simulations < 1 or worlds < 1:
            raise ValueError(f"simulations and worlds must be at least 1, not {simulations!r} and {worlds!r}")
        self.name = f"openspiel-{kind}"
        self.kind = kind
        self.game = _game(find_variant(variant))
        self.simulations = simulations
        self.worlds = worlds
        self.uct_c = uct_c
        self._rng = SplitMix64(seed)
        self._random = np.random.RandomState(seed % 2**32)
        self._evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=self._random)

    def choose(self, view: View) -> Action:
        """The action the search likes best for the player of ``view`` (whose turn it is)."""
        legal = view.legal
        if not legal:
            raise ValueError("no legal action: it is not this player's turn")
        if len(legal) == 1:
            return legal[0]
        number = self._ismcts(view) if self.kind == "ismcts" else self._mcts(view)
        return self.game.space.action(number)

    def _sample(self) -> float:
        return self._rng.next_u64() / 2**64

    def _root(self, view: View) -> BummerlState:
        return self.game.state_from_view(view, self._rng)

    def _ismcts(self, view: View) -> int:
        bot = ismcts.ISMCTSBot(
            self.game,
            self._evaluator,
            self.uct_c,
            self.simulations,
            random_state=self._random,
            final_policy_type=ismcts.ISMCTSFinalPolicyType.MAX_VISIT_COUNT,
        )
        # The bot's own generator, not OpenSpiel's unseeded sampler: the same seed plays the same game.
        bot.set_resampler(lambda state, player: state.resample_from_infostate(player, self._sample))
        return int(bot.step(self._root(view)))

    def _mcts(self, view: View) -> int:
        visits: dict[int, int] = {}
        worlds = min(self.worlds, self.simulations)
        for w in range(worlds):
            share = self.simulations // worlds + (1 if w < self.simulations % worlds else 0)
            bot = mcts.MCTSBot(self.game, self.uct_c, share, self._evaluator, random_state=self._random)
            root: Any = bot.mcts_search(self._root(view))
            for child in root.children:
                visits[child.action] = visits.get(child.action, 0) + child.explore_count
        best = max(visits.values())
        return min(a for a, n in visits.items() if n == best)


def make_openspiel_bot(kind: str, seed: int, variant: Variant) -> OpenSpielBot:
    """The registry's ``openspiel-<kind>`` bot for ``variant`` (:data:`SIMULATIONS` per decision)."""
    return OpenSpielBot(kind, variant, seed)


# ====================================================================== Bummerl's bots in OpenSpiel
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
