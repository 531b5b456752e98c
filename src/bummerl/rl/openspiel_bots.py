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

The other way round, Bummerl's bots as OpenSpiel bots and policies: :mod:`bummerl.rl.openspiel_policies`.
"""

from __future__ import annotations

import functools
from typing import Any

import numpy as np
from open_spiel.python.algorithms import ismcts, mcts

from bummerl.actions import Action
from bummerl.rl.openspiel import BummerlGame, BummerlState, load
from bummerl.rng import SplitMix64
from bummerl.variants import Variant, find_variant
from bummerl.view import View

__all__ = ["KINDS", "SIMULATIONS", "UCT_C", "WORLDS", "OpenSpielBot", "make_openspiel_bot"]

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
