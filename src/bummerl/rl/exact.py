"""Exact methods on the research variants: the whole OpenSpiel game tree, OpenSpiel's CFR and exploitability.

OpenSpiel's CFR, best response and exploitability walk every history of a game many times.  The game
``python_bummerl`` (:mod:`bummerl.rl.openspiel`) is a Python game: about 70 microseconds a node, so even
``mini8`` (:mod:`bummerl.variants.research`, 1.1 million histories) takes a minute and more a walk.  This module
walks it **once** and writes what it found as an extensive-form game in Gambit's EFG format, which OpenSpiel's
C++ loads (``pyspiel.load_efg_game``) and its C++ algorithms (``pyspiel.CFRSolver``, ``pyspiel.exploitability``)
then take at C++ speed.  The EFG game is the same game: the same chance
probabilities, the same information states (one EFG information set per ``information_state_string`` of the
Python game), the same legal actions and returns.

**The deal, in sets.**  The Python game deals one card per chance node, so a hand of three comes in 3! orders
that its owner tells apart (the information state lists the cards as received).  A hand is a set, so the walk
deals every packet of the deal in pack order, each set with its own probability (:func:`packet_outcomes`):
the same game with 3! x 3! fewer deals in ``mini8``.  (Pack order here is the order of
:attr:`~bummerl.cards.Card.index`: low ranks of a suit first.)

**Policies.**  :func:`tabulate` also records, at every information state, what each bot named in ``bots``
does there (:func:`bummerl.rl.openspiel_policies.bot_policy`: one-hot for a bot that decides, uniform for
``random``), as ``pyspiel.TabularPolicy`` tables of the EFG game: ``pyspiel.exploitability`` then gives the
exploitability of that bot in self-play.

>>> from bummerl.rl.openspiel import load
>>> game = load("mini8")
>>> root = fixed_deal_root(game, "KhThAh QhKdAd")  # Vorhand holds K 10 A of Hearts, the dealer Q K A
>>> tree = tabulate(root, bots=("random",))
>>> tree.histories, tree.information_states
(1781, (523, 495))
>>> efg = tree.load()
>>> round(pyspiel.exploitability(efg, tree.policy("random")), 4)
1.8623

This module needs ``pyspiel`` (extra ``openspiel``), like :mod:`bummerl.rl.openspiel`.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Iterable
from fractions import Fraction
from typing import Any

import pyspiel

from bummerl.cards import CARDS, parse_cards
from bummerl.rl.openspiel import BummerlGame, BummerlState
from bummerl.rl.openspiel_policies import bot_policy
from bummerl.variants import Variant

__all__ = ["Tree", "fixed_deal_root", "packet_outcomes", "tabulate"]


def _packet(variant: Variant, placed: int) -> tuple[int, int]:
    """Where the ``placed``-th card of the deal falls: the first position of its packet and the cards left in
    the packet, this one included."""
    deal: tuple[tuple[str, int], ...] = getattr(variant, "deal", ())
    start = 0
    for _, count in deal:
        if placed < start + count:
            return start, start + count - placed
        start += count
    raise ValueError(f"card {placed} of the deal of {variant.title} is not in a packet")


def packet_outcomes(state: BummerlState) -> list[tuple[int, Fraction]]:
    """The chance outcomes of a deal's node with every packet dealt in pack order, each with its exact
    probability (a talon card drawn later: the Python game's own, uniform).

    A packet of ``k`` cards from ``m`` cards left is a ``k``-set, each with probability ``1 / C(m, k)``; dealt
    in the order of :attr:`~bummerl.cards.Card.index`, its first card is ``c`` with probability
    ``C(a, k - 1) / C(m, k)``, where ``a`` is the number of cards above ``c``, and so on for the next card
    among those above ``c``.

    >>> from bummerl.rl.openspiel import load
    >>> state = load("mini8").new_initial_state()
    >>> [(CARDS[a].code, str(p)) for a, p in packet_outcomes(state)]  # doctest: +NORMALIZE_WHITESPACE
    [('Ah', '3/28'), ('Th', '5/28'), ('Kh', '15/56'), ('Qh', '3/8'),
     ('Ad', '0'), ('Td', '0'), ('Kd', '1/56'), ('Qd', '3/56')]
    """
    outcomes = [a for a, _ in state.chance_outcomes()]
    if state.game is not None:
        return [(a, Fraction(1, len(outcomes))) for a in outcomes]
    history = state.history()
    start, k = _packet(state.get_game().variant, len(history))
    low = CARDS[history[-1]].index if len(history) > start else -1
    pool = sorted(CARDS[a].index for a in outcomes)
    eligible = [i for i in pool if i > low]
    total = math.comb(len(eligible), k)
    out = []
    for a in outcomes:
        i = CARDS[a].index
        above = sum(1 for j in eligible if j > i)
        p = Fraction(math.comb(above, k - 1), total) if i > low else Fraction(0)
        out.append((a, p))
    return out


def fixed_deal_root(game: BummerlGame, cards: str) -> BummerlState:
    """The state after the deal's first cards are ``cards`` (in pack order within each packet): the root of a
    smaller game, for tests and for searches too slow for the whole tree ("Vorhand holds these cards").

    >>> from bummerl.rl.openspiel import load
    >>> fixed_deal_root(load("mini8"), "AhThKh").history()
    [7, 6, 5]
    """
    state = game.new_initial_state()
    for card in parse_cards(cards):
        state.apply_action(card.index)
    return state


@dataclasses.dataclass
class Tree:
    """A game tree walked once: its sizes, its EFG text, and the bots' policies over its information states."""

    #: Every node: chance, decision and terminal.
    histories: int
    terminals: int
    chance_nodes: int
    decision_nodes: int
    #: The information states of each player.
    information_states: tuple[int, ...]
    #: The game in Gambit's EFG format (``pyspiel.load_efg_game`` reads it).
    efg: str
    #: For each bot: the action probabilities at each EFG information set, by the EFG's set number per player.
    policies: dict[str, dict[tuple[int, int], list[tuple[int, float]]]]
    #: Each player's information-state strings of the Python game, by EFG set number (1-based).
    names: tuple[dict[int, str], ...]
    _game: Any = None
    _actions: dict[str, list[tuple[int, int]]] | None = None

    def load(self) -> Any:
        """The game as OpenSpiel's C++ EFG game (loaded once)."""
        if self._game is None:
            self._game = pyspiel.load_efg_game(self.efg)
        return self._game

    def actions(self) -> dict[str, list[tuple[int, int]]]:
        """At each information set of the EFG game (by its string), the EFG action id and the action number of
        the Python game of every legal action.  The EFG game gives its actions ids of its own, not by their
        labels, so this walks it once (C++ states: seconds for ``mini8``)."""
        if self._actions is None:
            found: dict[str, list[tuple[int, int]]] = {}
            stack = [self.load().new_initial_state()]
            while stack:
                state = stack.pop()
                if state.is_terminal():
                    continue
                if state.is_chance_node():
                    stack.extend(state.child(a) for a, _ in state.chance_outcomes())
                    continue
                key = state.information_state_string()
                legal = state.legal_actions()
                if key not in found:
                    player = state.current_player()
                    found[key] = [(a, int(state.action_to_string(player, a))) for a in legal]
                stack.extend(state.child(a) for a in legal)
            self._actions = found
        return self._actions

    def policy(self, bot: str) -> Any:
        """``bot``'s policy as a ``pyspiel.TabularPolicy`` of the EFG game (for ``pyspiel.exploitability``)."""
        table = {}
        for key, pairs in self.actions().items():
            # OpenSpiel's EFG game calls a set "<player>-<player>-<number>-<name>".
            player, _, number, _ = key.split("-", 3)
            probs = dict(self.policies[bot][(int(player), int(number))])
            table[key] = [(efg_id, probs[a]) for efg_id, a in pairs]
        return pyspiel.TabularPolicy(table)


def tabulate(root: BummerlState, bots: Iterable[str] = ()) -> Tree:
    """Walk the whole game below ``root`` (a chance or decision node of ``python_bummerl``) once: its sizes, its
    EFG text and, for each bot name in ``bots``, its policy at every information state."""
    game = root.get_game()
    names: tuple[dict[str, int], ...] = tuple({} for _ in range(game.num_players()))
    policies: dict[str, dict[tuple[int, int], list[tuple[int, float]]]] = {b: {} for b in bots}
    makers = {b: bot_policy(b, game) for b in bots}
    outcomes: dict[tuple[float, ...], int] = {}
    counts = {"histories": 0, "terminals": 0, "chance": 0, "decision": 0}
    lines: list[str] = []
    chance_sets = 0

    def walk(state: BummerlState, depth: int) -> None:
        nonlocal chance_sets
        counts["histories"] += 1
        pad = " " * depth
        if state.is_terminal():
            counts["terminals"] += 1
            returns = tuple(state.returns())
            number = outcomes.setdefault(returns, len(outcomes) + 1)
            lines.append(f'{pad}t "" {number} "" {{ {" ".join(repr(r) for r in returns)} }}')
            return
        if state.is_chance_node():
            counts["chance"] += 1
            chance_sets += 1
            possible = [(a, p) for a, p in packet_outcomes(state) if p]
            choices = " ".join(f'"{CARDS[a].code}" {p.numerator}/{p.denominator}' for a, p in possible)
            lines.append(f'{pad}c "" {chance_sets} "" {{ {choices} }} 0')
            for a, _ in possible:
                walk(state.child(a), depth + 1)
            return
        counts["decision"] += 1
        player = state.current_player()
        info = state.information_state_string(player)
        legal = state.legal_actions()
        number = names[player].get(info, 0)
        if not number:
            number = names[player][info] = len(names[player]) + 1
            for bot, policy in makers.items():
                policies[bot][(player, number)] = policy(state, player)
        choices = " ".join(f'"{a}"' for a in legal)
        lines.append(f'{pad}p "" {player + 1} {number} "{number}" {{ {choices} }} 0')
        for a in legal:
            walk(state.child(a), depth + 1)

    walk(root, 0)
    players = " ".join(f'"P{p}"' for p in range(game.num_players()))
    head = f'EFG 2 R "{game}" {{ {players} }} ""\n\n'
    return Tree(
        histories=counts["histories"],
        terminals=counts["terminals"],
        chance_nodes=counts["chance"],
        decision_nodes=counts["decision"],
        information_states=tuple(len(n) for n in names),
        efg=head + "\n".join(lines) + "\n",
        policies=policies,
        names=tuple({v: k for k, v in n.items()} for n in names),
    )
