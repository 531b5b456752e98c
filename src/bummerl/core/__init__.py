"""The compiled game cores: one C module per family of rules, optional, checked against the Python engines.

The pure-Python engines (:mod:`bummerl.two_player`, :mod:`bummerl.table_game`) are the rules and the
reference; a core plays the same games in C for the batched environments (:mod:`bummerl.rl.vector`), for
``bummerl selfplay`` with random bots, and as the twin that generates ``Game``'s legal actions (:func:`twin`).
pip builds the cores when a C compiler is there (setup.py, ``optional=True``, like the solver's); without one,
or with the environment variable ``BUMMERL_PURE=1``, :func:`core_of` and :func:`twin` answer ``None`` and
everything runs on the Python engines with the same results.

**Modules.** ``bummerl.core._two_player`` (src/bummerl/core/_two_player.c: Schnapsen weich and scharf,
Sechsundsechzig, Schnorps and any other :class:`~bummerl.variants.two_player.TwoPlayerVariant` whose rules
are data) and ``bummerl.core._table`` (src/bummerl/core/_table.c: the table family, Dreierschnapsen and
Bauernschnapsen with every option, its config made by :func:`bummerl.core.table.table_config`).  Each has a
``.pyi`` beside it and the interface below; :data:`CORES` names the module of each family
(``Variant.FAMILY``).  What is not a rule (Batch, ``deal``, ``random_games``, the seeds, reading the config and
the buffers) is written once, in src/bummerl/core/_core.h, and typed once, in ``_core.pyi``; a core hands it
its rules as a table of functions (``CoreFamily``).

**Config.** A core reads no Python objects while it plays: :func:`config` turns a variant with its options
into a ``dict[str, object]`` of ints and tuples of ints (each family's keys are its own, listed by its
``_config`` function), or ``None`` where the core cannot play the variant (a subclass with other scoring
hooks): then the caller takes the Python engine.

**The batch interface** (every family's core the same):

``Batch(config, num_envs, *, information_state=False, agent=-1, dealer=-1, reward=0, illegal=1)``
    ``num_envs`` games of one variant.  ``agent``: ``-1`` self-play (every seat is the caller's; the
    observation is the seat to move's), a seat ``0..players-1``, or ``-2`` a seat drawn per game from its
    seed as :mod:`bummerl.rl.gym` draws it (``derive_seed(seed, SEAT_SEEDS) % players``); the other seats
    play as :class:`bummerl.bots.RandomBot` with the seeds :mod:`bummerl.rl.gym` gives it
    (``derive_seed(game_seed, BOT_SEEDS, seat)``), choice for choice.  ``dealer``: ``-1`` drawn from the
    seed, ``-2`` rotating, or a seat (:func:`bummerl.rl.episode.pick_dealer`); ``reward``: ``0`` zero-sum,
    ``1`` points (:func:`bummerl.rl.episode.seat_rewards`); ``illegal``: ``1`` an illegal action forfeits
    the game (:func:`bummerl.rl.episode.forfeit_rewards`), ``0`` raises ``ValueError`` naming the game and
    the action.  Attributes ``num_envs``, ``players``, ``observation_size`` (that of
    :class:`~bummerl.rl.encoding.ViewEncoder`'s ``observation`` or ``information_state``) and
    ``action_size`` (:attr:`~bummerl.rl.encoding.ActionSpace.size`).

``reset(seeds, obs, mask, seat)``
    Deals game 0 of every slot: slot ``i`` is ``Game.deal(variant, seeds[i], dealer)``; its later games
    take the seeds of :class:`bummerl.rl.episode.SeedStream` restarted at ``seeds[i]``
    (``SplitMix64(seeds[i]).next_u64()`` one after another), the game's index counted for ``dealer=-2``.

``step(actions, obs, mask, rewards, terminated, seat)``
    Applies ``actions[i]`` (an :class:`~bummerl.rl.encoding.ActionSpace` number) in every slot, then lets
    the random opponents move until the agent is to move or the game is over.  Auto-reset is Gymnasium's
    ``NEXT_STEP``: a slot whose game ended at the previous call is dealt its next game instead (its action
    is ignored, its reward 0, its ``terminated`` 0).  A game that ends before the agent decides anything
    is dealt again from ``derive_seed(seed, REDEAL_SEEDS, k)``, as :class:`bummerl.rl.gym.BummerlEnv`
    does.

Buffers belong to the caller, who allocates them once (NumPy arrays, C-contiguous; the core checks item size
and length and raises ``ValueError`` naming the buffer): ``seeds`` uint64 ``[N]``; ``actions`` int64
``[N]``; ``obs`` float32 ``[N, observation_size]``, exactly :class:`~bummerl.rl.encoding.ViewEncoder`'s
floats for ``seat[i]``'s view; ``mask`` int8 ``[N, action_size]``, exactly
:meth:`~bummerl.rl.encoding.ActionSpace.mask` of that view (all 0 once the game is over); ``rewards``
float32 ``[N, players]``, every seat's reward (0 until the game ends); ``terminated`` uint8 ``[N]``;
``seat`` int8 ``[N]``, the seat whose observation and mask were written (the agent's; in self-play the seat
to move, at the end of a game the seat that moved last).  ``game_seeds(out)`` writes each slot's current
game seed (uint64 ``[N]``).

**One game.** ``State(config, deck, dealer)`` deals the card indices ``deck`` (top card first, as
:meth:`bummerl.engine.Game.from_deck`); ``legal()`` returns the legal action numbers in the order
``Game.legal_actions()`` lists them, ``apply(number)``, ``encode(seat, information_state, out)``,
``mask(seat, out)``, ``result()`` (``None`` or ``(winner or -1, points, reason, augen_0, augen_1)``,
reason the index in :data:`RESULT_REASONS`; the table core's tuple is read by
:func:`bummerl.core.table.table_result`), ``copy()``, ``to_move``, ``over``; ``deal(config, seed,
dealer)`` is ``Game.deal``'s pack order as card indices.  ``random_games(config, seed, games)`` plays what
``bummerl selfplay --bots random,random`` (every seat ``random``) plays from ``seed``, the same deals, dealers
and :class:`~bummerl.bots.RandomBot` choices, and returns ``((points per seat), (wins per seat), draws,
actions)``: the totals of :class:`bummerl.arena.selfplay.SelfplayStats` (a win is a game that credited the
seat points; a draw one that credited nobody), which :func:`bummerl.arena.selfplay.selfplay` then takes.
``tests/test_core.py`` plays random games through both and compares every legal list, observation,
information state, mask and result; ``bench/core_diff.py`` is the long run.

**Behind Game.**  ``State.new_deal(deck, dealer)`` is a State of the same config, dealt anew (the config copied
in C, not read again), and ``State.legal_actions(table)`` the legal actions as ``table[number]``, a tuple.
:func:`twin` hands a game engine what it needs to follow a deal with the core: ``Game`` keeps its Python state
and asks the core only for the legal actions (:class:`~bummerl.two_player.TwoPlayerGame` and
:class:`~bummerl.table_game.TableGame` say why).

>>> from bummerl.variants import find_variant
>>> schnapsen = twin(find_variant("schnapsen"))  # None: not built, or BUMMERL_PURE=1
>>> state = schnapsen and schnapsen.first.new_deal([c.index for c in deck(20)], 1)
>>> [a.token for a in state.legal_actions(schnapsen.actions)][:3] if state else ['Ah', 'Th', 'Kh']
['Ah', 'Th', 'Kh']
"""

from __future__ import annotations

import dataclasses
import functools
import importlib
import os
from collections.abc import Callable, Mapping
from types import MappingProxyType, ModuleType
from typing import TYPE_CHECKING, NamedTuple

from bummerl.actions import ALL_ACTIONS, Action
from bummerl.cards import deck
from bummerl.core.table import table_config
from bummerl.variants import Variant
from bummerl.variants.bauernschnapsen import TableVariant
from bummerl.variants.two_player import EndReason, SchnorpsVariant, TwoPlayerVariant

if TYPE_CHECKING:
    from bummerl.core._core import State

__all__ = ["CORES", "PURE_VARIABLE", "RESULT_REASONS", "Twin", "config", "core_of", "pure", "twin"]

#: The environment variable that, set to ``1``, makes every caller take the Python engines.
PURE_VARIABLE = "BUMMERL_PURE"
#: ``State.result()``'s reason numbers, in order.
RESULT_REASONS: tuple[EndReason, ...] = (
    EndReason.DECLARED,
    EndReason.WRONG_DECLARATION,
    EndReason.CLOSER_WON,
    EndReason.CLOSER_FAILED,
    EndReason.LAST_TRICK,
    EndReason.STAND,
    EndReason.FORFEIT,
)


def _load(name: str) -> ModuleType | None:
    try:
        return importlib.import_module(f"bummerl.core.{name}")
    except ImportError:  # installed without a C compiler: the Python engines play
        return None


#: The compiled module of each family of rules, or ``None`` where it was not built.
CORES: dict[str, ModuleType | None] = {"two_player": _load("_two_player"), "table_game": _load("_table")}


def pure() -> bool:
    """Whether ``BUMMERL_PURE=1`` asks for the Python engines (read at every call: tests set it)."""
    return os.environ.get(PURE_VARIABLE, "") == "1"


def core_of(variant: Variant) -> ModuleType | None:
    """The compiled module that plays ``variant``, or ``None`` (not built, ``BUMMERL_PURE=1``, or no config)."""
    if pure() or config(variant) is None:
        return None
    return CORES.get(variant.FAMILY)


def config(variant: Variant) -> Mapping[str, object] | None:
    """The core's description of ``variant``, or ``None`` where no core plays it (see the module docstring)."""
    make = _CONFIGS.get(variant.FAMILY)
    return None if make is None else make(variant)


class Twin(NamedTuple):
    """What a ``Game`` needs to follow its deals of one variant with the compiled core (see :func:`twin`)."""

    #: A State of the variant; ``first.new_deal(deck, dealer)`` deals each game.
    first: State
    #: The engine's :class:`~bummerl.actions.Action` of each core number (``None``: no action), for
    #: ``State.legal_actions``: the fixed codes (:data:`~bummerl.actions.ALL_ACTIONS`), then the variant's bids in
    #: its contracts' order, the numbering of the C code and of :class:`bummerl.rl.encoding.ActionSpace`.
    actions: tuple[Action | None, ...]
    #: The core number of each action, for ``State.apply``.
    numbers: Mapping[Action, int]


def twin(variant: Variant) -> Twin | None:
    """What a ``Game`` of ``variant`` follows its deals with, or ``None`` where :func:`core_of` names no core.

    ``BUMMERL_PURE`` is read at every call (a deal), as :func:`pure` is: tests switch it at run time.
    """
    if pure():
        return None
    # Looked up by identity first: a variant's hash and equality compare every field (~1.5 µs, half of what
    # the twin saves a Schnapsen deal).  The entry holds the variant, so its id is not reused while it is here.
    known = _RECENT.get(id(variant))
    if known is not None and known[0] is variant:
        return known[1]
    if len(_RECENT) >= _RECENT_SIZE:
        _RECENT.clear()
    found = _twin(variant)
    _RECENT[id(variant)] = (variant, found)
    return found


#: :func:`twin`'s answer for the variant objects dealt lately, by ``id``; cleared when full, so that code
#: that makes a variant object per game does not keep them all.
_RECENT: dict[int, tuple[Variant, Twin | None]] = {}
_RECENT_SIZE = 64


@functools.cache
def _twin(variant: Variant) -> Twin | None:
    module, cfg = CORES.get(variant.FAMILY), config(variant)
    if module is None or cfg is None:
        return None
    bids = tuple(Action.bid(c.name) for c in variant.contracts) if isinstance(variant, TableVariant) else ()
    actions = ALL_ACTIONS + bids
    first: State = module.State(cfg, [c.index for c in deck(variant.deck_size)], 0)
    return Twin(first, actions, MappingProxyType({a: i for i, a in enumerate(actions) if a is not None}))


#: The scoring hooks of a two-player variant that the C code mirrors, as TwoPlayerVariant or SchnorpsVariant
#: write them; a class with hooks of its own plays on the Python engine.
_HOOKS = ("score_declaration", "score_end_of_cards", "_closer_points")
#: Augen a game can reach (Schnorps's pack with its marriages), for :func:`_schneider_line`.
_MOST_AUGEN = 300


def _plays_like(cls: type, base: type) -> bool:
    return all(getattr(cls, hook) is getattr(base, hook) for hook in _HOOKS)


def _schneider_line(v: TwoPlayerVariant) -> int | None:
    """The Augen below which a loser who took a trick pays 2 (``game_points``: 3 without a trick, 2 below the
    line, 1 from it), or ``None`` if the variant's ``game_points`` is not of that form (the C code could not
    mirror it)."""
    points = getattr(v, "game_points", None)
    if points is None:  # a tree without the hook: bummerl.cards.siegpunkte
        return 33
    line = next((a for a in range(_MOST_AUGEN) if points(a, True) == 1), None)
    if line is None or any(
        points(a, True) != (2 if a < line else 1) or points(a, False) != 3 for a in range(_MOST_AUGEN)
    ):
        return None
    return line


@functools.cache
def _two_player_config(v: Variant) -> Mapping[str, object] | None:
    cls = type(v)
    if not isinstance(v, TwoPlayerVariant) or not (
        _plays_like(cls, TwoPlayerVariant) or _plays_like(cls, SchnorpsVariant)
    ):
        return None
    schneider = _schneider_line(v)
    if schneider is None:
        return None
    vorhand: list[int] = []
    dealer: list[int] = []
    pos = trump = 0
    for who, count in v.deal:
        if who == "t":
            trump = pos
        else:
            (vorhand if who == "v" else dealer).extend(range(pos, pos + count))
        pos += count
    flags = {f.name: int(getattr(v, f.name)) for f in dataclasses.fields(v) if isinstance(getattr(v, f.name), bool)}
    # Read-only: the config is cached per variant and shared.
    return MappingProxyType(
        {
            **flags,
            "pack": tuple(c.index for c in deck(v.deck_size)),
            "hand_size": v.hand_size,
            "vorhand_positions": tuple(vorhand),
            "dealer_positions": tuple(dealer),
            "trump_position": trump,
            "talon_position": pos,
            "exchange_rank": int(v.exchange_rank),
            "last_trick_bonus": v.last_trick_bonus,
            "sixty_six": int(v.undeclared_end == "sixty_six"),
            "last_trick_augen": int(v.last_trick_scoring == "augen"),
            "close_min_facedown": v.close_min_facedown,
            "marken": int(_plays_like(cls, SchnorpsVariant)),
            # Going out and the Schneider line: 66 and 33, scaled to the pack in the research variants.
            "target": v.target,
            "schneider": schneider,
            # bummerl.arena.families.forfeit_points, which sits above this layer: the heaviest ordinary loss.
            "forfeit_points": 6 if v.match_kind == "marken" else 3,
            "default_dealer": v.default_dealer,
        }
    )


_CONFIGS: dict[str, Callable[[Variant], Mapping[str, object] | None]] = {
    "two_player": _two_player_config,
    "table_game": table_config,
}
