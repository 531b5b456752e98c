"""An opponent who cannot see the bot's cards: its next reply chosen from its own view (presumed values).

PIMC solves every world with open cards, so in every world the *opponent* answers knowing the bot's hand and
the talon order.  Where the opponent must guess (whether to trump a led Ten, which card to keep), PIMC
assumes it always guesses right, and so undervalues the lines that set it a problem.  Wisser ("An
Expert-Level Card Playing Agent Based on a Variant of Perfect Information Monte Carlo Sampling", IJCAI 2015)
calls this the overestimation of the opponent's knowledge and corrects it with presumed values.

Here the correction covers the opponent's next decision after each action of the bot:

1. in a world, after the bot's action ``a``, where the opponent is to move, the opponent sees its own hand,
   the cards played and what the bot has shown; it does not see the bot's hand or the talon;
2. so its choice is made like a PIMC player's: over ``k`` worlds *of its own* (the bot's hidden cards and
   the face-down talon shuffled anew, the cards it knows of the bot's hand and what the strict follow rules
   proved kept in place) it takes the reply with the best mean open-card value;
3. the world's value of ``a`` is the open-card value of the position after that reply (the play after it
   is the solver's again).  The choice is made once per opponent hand and action (worlds that differ only
   in the talon order share it).

The bot's own later moves stay clairvoyant, as in PIMC; the opponent after its first reply too.  Not
modelled: a trump the bot took by exchange is known to the opponent, but a view does not say who exchanged,
so the opponent's worlds may deal it elsewhere.

>>> from bummerl.two_player import TwoPlayerGame
>>> from bummerl.solver import action_values
>>> from bummerl.solver.state import encode
>>> from bummerl.rng import SplitMix64
>>> game = TwoPlayerGame.deal("schnapsen", seed=3)
>>> view = game.view(game.to_move)
>>> values = PresumedOpponent(view, SplitMix64(1), 4).values(encode(game))
>>> pimc = {a.code: v for a, v in action_values(game).items()}
>>> all(values[c] >= pimc[c] for c in pimc)    # an opponent that may err is never worse for the bot
True

This module reads the view and the encoded worlds it is given; the opponent's worlds are built from what the
view shows the opponent (nothing the bot cannot see goes in, nothing hidden from the bot comes out).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from bummerl.bots.inference import proven_absent, shown_cards
from bummerl.cards import Card, deck
from bummerl.rng import SplitMix64
from bummerl.solver import action_for_code, tie_break_key
from bummerl.solver.reference import ReferenceSolver
from bummerl.solver.state import CL, H0, P, Position, State, T, ValueTree, card_indices, card_mask
from bummerl.view import PlayerView

__all__ = ["PresumedOpponent", "proven_absent_mine", "shown_cards"]

#: ``solve(position)``: the open-card value of every legal action code for the player to move.
Solve = Callable[[Position], Mapping[int, int]]
#: ``tree(position)``: the open-card values two moves deep (:func:`bummerl.solver.search_tree` with depth 2).
Tree = Callable[[Position], ValueTree]


def proven_absent_mine(view: PlayerView) -> frozenset[Card]:
    """Cards the bot's own forced follows (strict rules) prove it does not hold, as its opponent reads them."""
    return proven_absent(view, view.player, deck(view.variant.deck_size))


class PresumedOpponent:
    """The values of the bot's actions, world by world, against an opponent whose next reply is its own PIMC
    choice over ``k`` worlds of its view (see the module text).

    One object serves one decision: the opponent's choices are cached by action and opponent hand, so worlds
    that differ only in the talon order share them.  Values are the bot's game points minus the opponent's.
    """

    def __init__(
        self, view: PlayerView, rng: SplitMix64, k: int, solve: Solve | None = None, tree: Tree | None = None
    ) -> None:
        if k < 1:
            raise ValueError(f"the opponent needs at least one world, not {k}")
        self._me = view.player
        self._shown = card_mask(shown_cards(view))
        self._absent = card_mask(proven_absent_mine(view))
        self._rng = rng
        self._k = k
        self._solve = solve or _solver
        self._tree = tree or _tree
        self._choices: dict[tuple[int, int], int] = {}

    def values(self, position: Position, solve: Solve | None = None, tree: Tree | None = None) -> dict[int, int]:
        """Each legal action code's value in the world ``position`` (the bot to move); ``solve`` and ``tree``
        replace the object's for this world (a search under a deadline limits every world but the first)."""
        me = self._me
        solve = solve or self._solve
        tree = tree or self._tree
        rules = ReferenceSolver(position)
        root = position.state
        values: dict[int, int] = {}
        for a, (value, replies) in tree(position).items():
            child, _ = rules.apply(root, a)
            if child is None or replies is None or child[P] == me:
                values[a] = value  # the game ended, or the bot moves again: no reply to guess
                continue
            values[a] = -replies[self.reply(position, a, child, solve)][0]
        return values

    def reply(self, position: Position, a: int, child: State, solve: Solve | None = None) -> int:
        """The opponent's reply in ``child``, the world ``position`` after the bot's action ``a`` (the
        opponent to move there): its own PIMC choice, made once per action and opponent hand."""
        key = (a, child[H0 + (1 - self._me)])
        b = self._choices.get(key)
        if b is None:
            b = self._choices[key] = _opponent_choice(
                position, child, H0 + self._me, self._shown, self._absent, self._rng, self._k, solve or self._solve
            )
        return b


def _opponent_choice(
    position: Position,
    child: State,
    mine: int,
    shown: int,
    absent: int,
    rng: SplitMix64,
    k: int,
    solve: Solve,
) -> int:
    """The reply with the best mean value over ``k`` worlds of the opponent's view of ``child``."""
    hand = child[mine]
    t = child[T]
    face_down = list(position.talon[:t])
    hidden = [i for i in card_indices(hand) if not (1 << i) & shown]
    pool = hidden + face_down
    kept = hand & shown
    totals: dict[int, float] = {}
    ordered = child[CL] == -1 and t > 1
    for _ in range(k):
        rng.shuffle(pool)
        # Cards proven absent from the bot's hand go to the talon; fill the hand from the others.
        free = [i for i in pool if not (1 << i) & absent]
        take = free[: len(hidden)]
        if len(take) < len(hidden):  # the proofs leave no room (cannot happen for a consistent view)
            take = pool[: len(hidden)]
        taken = set(take)
        talon = [i for i in pool if i not in taken]
        if ordered:
            rng.shuffle(talon)
        h = kept
        for i in take:
            h |= 1 << i
        state: State = (*child[:mine], h, *child[mine + 1 :])  # type: ignore[assignment]
        for b, v in solve(_at(position, state, tuple(talon))).items():
            totals[b] = totals.get(b, 0.0) + v
    trump = position.trump
    return min(totals, key=lambda b: (-totals[b], tie_break_key(action_for_code(b), trump)))


def _at(position: Position, state: State, talon: tuple[int, ...]) -> Position:
    return Position(position.rules, position.trump, talon, state)


def _solver(position: Position) -> Mapping[int, int]:
    """The default ``solve``: the solver's action values (C core where built)."""
    from bummerl.solver import search_position

    values = search_position(position, actions=True).values
    assert values is not None
    return values


def _tree(position: Position) -> ValueTree:
    """The default ``tree``: :func:`bummerl.solver.search_tree` two moves deep."""
    from bummerl.solver import search_tree

    return search_tree(position, 2)[0]
