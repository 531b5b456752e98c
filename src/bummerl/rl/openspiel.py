"""The OpenSpiel game ``python_bummerl``: every variant of Bummerl as a ``pyspiel`` game (extra ``openspiel``).

Importing this module registers the game; ``variant`` picks one of the six
(any name or alias), or a research variant (``mini8``, ``mini10``, ``mini12``:
:mod:`bummerl.variants.research`), and each variant option is a parameter of its own:

>>> import pyspiel
>>> game = pyspiel.load_game("python_bummerl(variant=schnapsen,auto_declare=true)")
>>> game.num_players(), game.num_distinct_actions(), game.max_chance_outcomes(), game.max_utility()
(2, 71, 32, 3.0)
>>> state = game.new_initial_state()
>>> state.is_chance_node(), len(state.chance_outcomes())
(True, 20)
>>> while state.is_chance_node():  # the deal: one card per pack position
...     state.apply_action(state.chance_outcomes()[0][0])
>>> state.current_player(), [state.action_to_string(a) for a in state.legal_actions()]
(0, ['Kh', 'Th', 'Ah', 'Qd', 'Kd', 'marry:Qd', 'marry:Kd', 'close'])
>>> state.information_state_string(0)
'p0|{"face_up":["Td"],"mine":["Ah","Th","Kh","Kd","Qd"],"type":"deal"}'
>>> str(game)
'python_bummerl(auto_declare=True,dealer=1,variant=schnapsen)'
>>> pyspiel.load_game("python_bummerl", {"variant": "bauernschnapsen", "options": "max_doubling=1"}).num_players()
4

**Parameters.**  ``variant`` (default ``schnapsen``), ``dealer`` (``-1``: the
variant's default dealer) and every option of the six variants by its name,
typed as in the variant (``auto_declare=true``, ``max_doubling=1``,
``last_trick_scoring=augen``): an option is applied when it differs from its
default, and naming one the variant does not have is an error, as in
:meth:`~bummerl.variants.base.Variant.with_options`.  ``options`` takes the same
as one text, ``"key=value,key=value"`` (for a parameter dictionary: a game
string splits at commas); it is read after the single parameters.  An option
whose default differs between variants (``close_min_facedown``: 1 in ``mini8``)
has the parameter default 0, "the variant's own".

**Chance.**  The deal is chance nodes, one card per node, uniform over the cards
not yet placed; an outcome is the card's :attr:`~bummerl.cards.Card.index`
(hence ``max_chance_outcomes`` 32 for every pack).  In the two-player games the
deal places every card of the pack except the face-down talon: a talon card is
chosen by chance only when it is drawn.  When a player's card completes a trick
while face-down talon cards remain and the talon is open, the state first
becomes a chance node for each card about to be drawn (the winner's, then the
loser's), then plays the card with those cards in the drawing positions of the
engine's talon.  The order of the undrawn talon is private engine state that
nobody has observed, so choosing it late is the same game, and a search never
knows a talon card before it is drawn.  The table games (Bauernschnapsen,
Dreierschnapsen, whose talon is part of the deal) deal the whole pack by chance
at the start; the cut, the trump call and the bidding then run on it.
:meth:`BummerlState.pack` gives the pack order a game was dealt from, so the
engine replays it: ``Game.replay(variant, state.pack(), dealer, actions)``.

**Actions** are numbered by :class:`~bummerl.rl.encoding.ActionSpace`
(``num_distinct_actions`` is its size), and the **tensors** are
:class:`~bummerl.rl.encoding.ViewEncoder`'s of the player's view:
``observation_tensor`` the present, ``information_state_tensor`` the present and
the history.  ``observation_string`` is the view's canonical JSON
(:func:`bummerl.view_json.view_to_json`, the variant left out);
``information_state_string`` is everything the player has seen, in order: their
cards as dealt (a table-game player sees their first three cards at the cut and
the rest after the trump call) and every event of the game as the engine shows
it to that seat (:meth:`bummerl.events.Event.to_json`: a talon card or a
discard only to its owner).  Both are built from what the engine lets that seat
see, never from the game itself.  The **public observation** (``make_observation(game,
pyspiel.IIGObservationType(perfect_recall=True, private_info=pyspiel.PrivateInfoType.NONE))``,
for public-belief methods) is what every seat has seen: the events as the engine
shows them to no seat, and as a tensor the cards they named and the seat to act.

**Returns** are game points when the game ends: what the winning side scores,
plus for each of its seats and minus for each seat of the other side (Marken in
Schnorps).  Two players and Bauernschnapsen's teams are zero-sum;
Dreierschnapsen (a soloist against two) is general-sum.  A redeal or a standoff
scores nothing.

**Resampling.**  :meth:`BummerlState.resample_from_infostate` deals the cards a
player cannot see anew with the engine's card inference and keeps everything
that player saw (:mod:`bummerl.rl.worlds`), so OpenSpiel's IS-MCTS runs on the
game; :meth:`BummerlGame.state_from_view` builds a state from a bot's view
alone (:mod:`bummerl.rl.openspiel_bots`).

This module needs ``pyspiel`` and ``numpy``; nothing else in the package imports it.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Mapping
from typing import Any, NamedTuple, cast

import numpy as np
import pyspiel

from bummerl.actions import Action, ActionKind
from bummerl.bots.inference import infer, sample_world, world_game
from bummerl.cards import CARDS, Card, deck, siegpunkte
from bummerl.events import Draw
from bummerl.game import Game
from bummerl.rl.encoding import ActionSpace, ViewEncoder
from bummerl.rl.worlds import Chance, deal_chances, resample_table, resample_two_player, table_from_view
from bummerl.rng import SplitMix64
from bummerl.table_game import TableGame
from bummerl.two_player import TwoPlayerGame
from bummerl.variants import RESEARCH_VARIANTS, VARIANTS, TableVariant, Variant, find_variant
from bummerl.variants.two_player import marken
from bummerl.view import PlayerView, TableView, View
from bummerl.view_json import view_to_json

__all__ = [
    "GAME_NAME",
    "BummerlGame",
    "BummerlState",
    "load",
    "max_game_length",
    "max_points",
    "variant_of",
]

#: The short name the game is registered under.
GAME_NAME = "python_bummerl"


def _option_defaults() -> dict[str, Any]:
    """Every option of the variants with its default; 0 (the variant's own) for a number the variants set
    apart (``close_min_facedown``: 1 in ``mini8``), so that a parameter given is told from one left out."""
    values: dict[str, set[Any]] = {}
    for v in (*VARIANTS, *RESEARCH_VARIANTS):
        for k in v.OPTIONS:
            values.setdefault(k, set()).add(getattr(v, k))
    out: dict[str, Any] = {}
    for k, seen in values.items():
        (first,) = seen if len(seen) == 1 else (0,)
        assert len(seen) == 1 or all(type(x) is int for x in seen), k  # bools and texts must agree
        out[k] = first
    return out


#: Every option of the variants with its parameter's default (see :func:`_option_defaults`).
_OPTION_DEFAULTS: dict[str, Any] = _option_defaults()
_PARAMETERS: dict[str, Any] = {"variant": "schnapsen", "options": "", "dealer": -1, **_OPTION_DEFAULTS}
_CHANCE = int(pyspiel.PlayerId.CHANCE)
_TERMINAL = int(pyspiel.PlayerId.TERMINAL)


# ====================================================================== the game's description
def variant_of(params: Mapping[str, Any]) -> Variant:
    """The variant that game parameters describe (see the module docstring).

    >>> variant_of({"variant": "66", "auto_declare": True}).options()
    {'auto_declare': True}
    >>> variant_of({"variant": "schnapsen", "max_doubling": 1})
    Traceback (most recent call last):
    ...
    bummerl.errors.UnknownVariantError: schnapsen has no option 'max_doubling'; options: auto_declare, ...
    """
    variant = find_variant(str(params.get("variant", _PARAMETERS["variant"])))
    options = {k: params[k] for k in _OPTION_DEFAULTS if k in params and params[k] != _OPTION_DEFAULTS[k]}
    text = str(params.get("options", "") or "")
    for item in filter(None, (part.strip() for part in text.replace(";", ",").split(","))):
        key, sep, value = item.partition("=")
        if not sep:
            raise ValueError(f"options are written key=value,key=value, not {text!r}")
        options[key.strip()] = value.strip()
    return variant.with_options(**options) if options else variant


def max_points(variant: Variant) -> int:
    """The most game points (Marken in Schnorps) one game of ``variant`` can give a side.

    Two players: 3 (no trick taken, :func:`~bummerl.cards.siegpunkte`), Schnorps
    8 Marken (no trick against a coverer, :func:`~bummerl.variants.two_player.marken`).
    Table games: the dearest contract (or 3 for a normal game) plus the point for a
    talon left lying, doubled at every doubling step allowed.

    >>> [max_points(v) for v in VARIANTS]
    [3, 3, 3, 8, 192, 192]
    """
    return _FAMILIES[variant.FAMILY].max_points(variant)


def max_game_length(variant: Variant) -> int:
    """An upper bound on the decisions (player actions) of one game of ``variant``.

    Two players: every card played, one exchange (the exchanged trump lies face up
    until the talon is gone), one closing and one declaration.  Table games: the cut,
    the trump call, the bidding (each contract bid at most once per seat, since a
    bid equal to the highest needs a seat of higher priority, and one pass per
    seat), the talon (take or leave it, the discards, a raise or a pass), the
    doubling (each step asks at most every seat) and the play (every card in hand,
    then "Genug").

    >>> [max_game_length(v) for v in VARIANTS]
    [23, 23, 27, 35, 83, 70]
    """
    return _FAMILIES[variant.FAMILY].max_game_length(variant)


def _game_type(variant: Variant | None) -> Any:
    """The OpenSpiel type of ``variant``'s game (``None``: the registration, which covers all six)."""
    if variant is None:
        utility = pyspiel.GameType.Utility.GENERAL_SUM
        low, high = 2, max(v.players for v in VARIANTS)
    else:
        zero_sum = variant.players % 2 == 0  # two players, or two teams of two
        utility = pyspiel.GameType.Utility.ZERO_SUM if zero_sum else pyspiel.GameType.Utility.GENERAL_SUM
        low = high = variant.players
    return pyspiel.GameType(
        short_name=GAME_NAME,
        long_name="Bummerl (Schnapsen family)",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=utility,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=high,
        min_num_players=low,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=_PARAMETERS,
    )


def _game_info(variant: Variant) -> Any:
    top = float(max_points(variant))
    return pyspiel.GameInfo(
        num_distinct_actions=ActionSpace.of(variant).size,
        max_chance_outcomes=len(CARDS),
        num_players=variant.players,
        min_utility=-top,
        max_utility=top,
        utility_sum=0.0 if variant.players % 2 == 0 else None,
        max_game_length=max_game_length(variant),
    )


def load(variant: Variant | str = "schnapsen", **options: Any) -> BummerlGame:
    """The OpenSpiel game of ``variant`` with ``options``, as ``pyspiel.load_game`` makes it.

    >>> load("dreier", may_skip_talon=True).variant.may_skip_talon
    True
    """
    v = find_variant(variant, **options)
    params: dict[str, Any] = {"variant": v.name}
    params.update(v.options())
    game = pyspiel.load_game(GAME_NAME, params)
    assert isinstance(game, BummerlGame)
    return game


# ====================================================================== the game
class BummerlGame(pyspiel.Game):  # type: ignore[misc]
    """One variant (with its options) as an OpenSpiel game; ``pyspiel.load_game("python_bummerl", ...)`` makes it."""

    def __init__(self, params: Mapping[str, Any] | None = None) -> None:
        given = dict(params or {})
        variant = variant_of(given)
        dealer = int(given.get("dealer", -1))
        if dealer == -1:
            dealer = variant.default_dealer
        elif dealer not in range(variant.players):
            raise ValueError(f"dealer must be a seat 0..{variant.players - 1} or -1, not {dealer}")
        # The parameters as the game reports them (str(game) loads this game again): the options that differ.
        normal: dict[str, Any] = {"variant": variant.name, "dealer": dealer, **variant.options()}
        super().__init__(_game_type(variant), _game_info(variant), normal)
        self.variant = variant
        self.dealer = dealer
        self.space = ActionSpace.of(variant)
        self.encoder = ViewEncoder.of(variant)
        #: What the variant's family of rules makes of the game: its chance model (see the module docstring).
        self.family = _FAMILIES[variant.FAMILY]

    def new_initial_state(self) -> BummerlState:
        """The state before the deal: a chance node."""
        return BummerlState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> _Observer | _PublicObserver:
        """The observer of the information state (perfect recall) or of the observation, for one player."""
        if isinstance(iig_obs_type, dict):  # called with the parameters only
            iig_obs_type, params = None, iig_obs_type
        if params:
            raise ValueError(f"{GAME_NAME} observers take no parameters, not {params!r}")
        if iig_obs_type is None:
            return _Observer(self.encoder, info=False)
        if iig_obs_type.public_info and iig_obs_type.private_info == pyspiel.PrivateInfoType.SINGLE_PLAYER:
            return _Observer(self.encoder, info=bool(iig_obs_type.perfect_recall))
        if iig_obs_type.public_info and iig_obs_type.private_info == pyspiel.PrivateInfoType.NONE:
            return _PublicObserver(self.variant.players)
        raise ValueError(f"{GAME_NAME} observes for one player, or what is public, only")

    def state_from_view(self, view: View, rng: SplitMix64) -> BummerlState:
        """A state whose player ``view.player`` sees exactly ``view``, with the unseen cards drawn from ``rng``.

        What a bot searches from: it is given a view, never the game.  A table game is
        rebuilt from a pack and actions that lead to the view
        (:func:`bummerl.rl.worlds.table_from_view`); a two-player game is set up from
        the position of a world the engine's inference draws
        (:func:`bummerl.bots.inference.world_game`), the player's information string
        starting with the view itself.  Such a state can be resampled only where it starts.
        """
        if view.variant != self.variant:
            raise ValueError(f"a view of {view.variant.title} for a game of {self.variant.title}")
        return self.family.from_view(self, view, rng)

    def _replay(self, history: list[int]) -> BummerlState:
        state = self.new_initial_state()
        for action in history:
            state.apply_action(action)
        return state


# ====================================================================== the state
class BummerlState(pyspiel.State):  # type: ignore[misc]
    """A game of :class:`BummerlGame` in OpenSpiel's terms; :attr:`game` is the engine's game once dealt."""

    def __init__(self, game: BummerlGame) -> None:
        super().__init__(game)
        # The only attribute: OpenSpiel clones a Python state by deep-copying its attributes, and the
        # core copies itself with the engine's own Game.copy().
        self._core = _Core(game)

    # ------------------------------------------------------------ OpenSpiel's interface
    def current_player(self) -> int:
        return self._core.current_player()

    def _legal_actions(self, player: int) -> list[int]:
        return self._core.legal()

    def chance_outcomes(self) -> list[tuple[int, float]]:
        cards = self._core.chance_cards()
        p = 1.0 / len(cards)
        return [(c.index, p) for c in cards]

    def _apply_action(self, action: int) -> None:
        self._core.apply(action)

    def _action_to_string(self, player: int, action: int) -> str:
        if player == _CHANCE:
            return f"card:{CARDS[action].code}"
        return str(self._core.space.action(action).token)

    def is_terminal(self) -> bool:
        return self._core.is_terminal()

    def returns(self) -> list[float]:
        return self._core.returns()

    def __str__(self) -> str:
        return self._core.describe()

    def resample_from_infostate(self, player_id: int, probability_sampler: Callable[[], float]) -> BummerlState:
        """A state that ``player_id`` cannot tell from this one (the same information-state string and
        tensor), the cards they cannot see dealt anew by the engine's inference (:mod:`bummerl.rl.worlds`).

        ``probability_sampler`` (``pyspiel.UniformProbabilitySampler`` or any callable giving floats in
        [0, 1)) seeds the draw.  Only for decision nodes and the end of a game.
        """
        core = self._core
        if core.game is None or core.pending is not None:
            raise ValueError("resample_from_infostate is for decision nodes and terminal states, not chance nodes")
        if player_id not in range(core.variant.players):
            raise ValueError(f"no player {player_id!r} in {core.variant.title}")
        rng = SplitMix64(_seed(probability_sampler))
        game = self.get_game()
        if core.root_view is not None:
            if player_id != core.root_view.player or core.acts:
                raise ValueError("a state set up from a view can be resampled only for its player where it starts")
            return game.state_from_view(core.root_view, rng)  # type: ignore[no-any-return]
        return game._replay(core.family.resample(self, player_id, rng))  # type: ignore[no-any-return]

    # ---------------------------------------------------------------- Bummerl's side
    @property
    def game(self) -> Game | None:
        """The engine's game (``None`` during the deal); its talon order is a placeholder until drawn."""
        return self._core.game

    def view(self, seat: int) -> View:
        """``seat``'s view of the engine's game."""
        if self._core.game is None:
            raise ValueError("the cards are still being dealt")
        return self._core.game.view(seat)

    def pack(self) -> list[Card]:
        """The pack order dealt so far (top card first), the undrawn talon in a placeholder order:
        ``Game.replay(variant, state.pack(), dealer, actions)`` is this game."""
        return self._core.pack()


def _seed(sampler: Callable[[], float]) -> int:
    """A 64-bit seed from four draws of an OpenSpiel probability sampler."""
    seed = 0
    for _ in range(4):
        seed = (seed << 16) | int(float(sampler()) * 65536) & 0xFFFF
    return seed


class _Looked(NamedTuple):
    """Cards seats looked at outside the engine's events: ``mine[seat]`` only that seat sees (a hand
    dealt), ``face_up`` everybody (the trump card turned at the deal), ``shown[seat]`` everybody sees
    of that seat's hand (a redeal's three Unter, a claimed hand)."""

    kind: str
    mine: tuple[tuple[Card, ...], ...] = ()
    face_up: tuple[Card, ...] = ()
    shown: tuple[tuple[Card, ...], ...] = ()

    def to_json(self, seat: int | None) -> dict[str, Any]:
        out: dict[str, Any] = {"type": self.kind}
        if self.mine and seat is not None:
            out["mine"] = [c.code for c in self.mine[seat]]
        if self.face_up:
            out["face_up"] = [c.code for c in self.face_up]
        if self.shown:
            out["shown"] = [[c.code for c in cards] for cards in self.shown]
        return out


class _Core:
    """Everything a state holds, copied at once (see :class:`BummerlState`)."""

    def __init__(self, game: BummerlGame) -> None:
        self.variant: Variant = game.variant
        self.dealer: int = game.dealer
        self.space: ActionSpace = game.space
        self.encoder: ViewEncoder = game.encoder
        self.family: _Family = game.family
        self.pack_size = game.variant.deck_size
        #: The deal so far, one card per pack position.
        self.placed: list[Card] = []
        self.game: Game | None = None
        #: Two players: every chance outcome (the deal, then the talon cards drawn) with who got it when.
        self.chances: list[Chance] = []
        #: Every player action so far with the seat that took it.
        self.acts: list[tuple[int, Action]] = []
        #: A card that completes a trick, waiting for the talon cards to be drawn; those drawn so far.
        self.pending: Action | None = None
        self.drawn: list[Card] = []
        self.need = 0
        #: What every seat has seen, in order (events and hands looked at), and each seat's text of it so far.
        self.events: list[Any] = []
        self.seen: list[list[str]] = [[] for _ in range(game.variant.players)]
        #: A state set up from a bot's view: that view (see BummerlGame.state_from_view).
        self.root_view: PlayerView | None = None
        self.start: str = ""

    def __deepcopy__(self, memo: dict[int, Any]) -> _Core:
        other = object.__new__(_Core)
        other.__dict__.update(self.__dict__)
        other.placed = self.placed[:]
        other.game = None if self.game is None else self.game.copy()
        other.chances = self.chances[:]
        other.acts = self.acts[:]
        other.drawn = self.drawn[:]
        other.events = self.events[:]
        other.seen = [s[:] for s in self.seen]
        return other

    # ------------------------------------------------------------------ moves
    def current_player(self) -> int:
        game = self.game
        if game is None or self.pending is not None:
            return _CHANCE
        if game.is_over:
            return _TERMINAL
        return game.to_move

    def is_terminal(self) -> bool:
        return self.game is not None and self.pending is None and self.game.is_over

    def legal(self) -> list[int]:
        assert self.game is not None
        index = self.space.index
        return sorted(index(a) for a in self.game.legal_actions())

    def chance_cards(self) -> list[Card]:
        if self.game is None:
            taken = set(self.placed)
            return [c for c in deck(self.pack_size) if c not in taken]
        assert self.pending is not None
        return self.family.talon_cards(self)

    def apply(self, number: int) -> None:
        game = self.game
        if game is None:
            card = CARDS[number]
            if card in self.placed:
                raise ValueError(f"{card.code} is dealt already")
            self.placed.append(card)
            self.family.dealt(self)
        elif self.pending is not None:
            self.family.draw(self, CARDS[number])
        else:
            action = self.space.action(number)
            need = self.family.draws(game, action)
            if need:
                # The card completes a trick and talon cards will be drawn: chance chooses them first.
                self.pending = action
                self.need = need
                self.drawn = []
                return
            self._act(action)

    def _act(self, action: Action) -> tuple[Any, ...]:
        game = self.game
        assert game is not None
        seat = game.to_move
        self.acts.append((seat, action))
        events = game.apply(action)
        self.events.extend(events)
        self.family.looked(self, game, action)
        return events

    # ------------------------------------------------------------------ results
    def returns(self) -> list[float]:
        n = self.variant.players
        if not self.is_terminal():
            return [0.0] * n
        assert self.game is not None
        result = self.game.result
        assert result is not None  # is_terminal
        credited = [result.points_of(s) for s in range(n)]
        points = max(credited)
        if points == 0:
            return [0.0] * n
        return [float(points if c else -points) for c in credited]

    def pack(self) -> list[Card]:
        game = self.game
        if self.root_view is not None:
            raise ValueError("a state set up from a view was not dealt from a pack")
        if game is None:
            taken = set(self.placed)
            return self.placed + [c for c in deck(self.pack_size) if c not in taken]
        return self.family.pack(self, game)

    def describe(self) -> str:
        head = f"{self.variant.name} dealer {self.dealer}"
        if self.start:
            head += f" from {self.start}"
        else:
            head += " pack " + (" ".join(c.code for c in self.pack()) if self.game is not None or self.placed else "-")
        actions = " ".join(a.token for _, a in self.acts) or "-"
        out = f"{head} actions {actions}"
        if self.pending is not None:
            out += f" pending {self.pending.token} drawn {' '.join(c.code for c in self.drawn) or '-'}"
        return out

    # ------------------------------------------------------------------ observations
    def info_string(self, seat: int) -> str:
        seen = self.seen[seat]
        for event in self.events[len(seen) :]:
            seen.append(_text(event, seat))
        return f"p{seat}|" + "|".join(t for t in seen if t)

    def public_string(self) -> str:
        """What every seat has seen, in order: each event as the engine shows it to nobody's seat."""
        return "public|" + "|".join(t for t in (_text(e, None) for e in self.events) if t)

    def observation_string(self, seat: int) -> str:
        if self.game is None:
            return f"p{seat} dealing"
        return _canonical(self.game.view(seat))

    def tensor(self, seat: int, info: bool) -> list[float] | None:
        if self.game is None:
            return None
        view = self.game.view(seat)
        return self.encoder.information_state(view) if info else self.encoder.observation(view)


# ====================================================================== the families
class _Family:
    """What one family of rules makes of the OpenSpiel game: its bounds and its chance model.

    One object per family (:data:`_FAMILIES`), chosen once per game by ``Variant.FAMILY``.  Each keeps the
    state it works on in the core (:class:`_Core`) it is handed, so that a copied state needs no copy of it.
    """

    def max_points(self, variant: Variant) -> int:
        """See :func:`max_points`."""
        raise NotImplementedError

    def max_game_length(self, variant: Variant) -> int:
        """See :func:`max_game_length`."""
        raise NotImplementedError

    def dealt(self, core: _Core) -> None:
        """One more card of the deal is placed (``core.placed``): start the engine's game once it is enough."""
        raise NotImplementedError

    def draws(self, game: Game, action: Action) -> int:
        """How many talon cards chance draws before ``action`` is played (0: it is played at once)."""
        return 0

    def talon_cards(self, core: _Core) -> list[Card]:
        """The cards chance may draw for the pending action, by index."""
        raise NotImplementedError

    def draw(self, core: _Core, card: Card) -> None:
        """Chance drew ``card`` for the pending action; play the action once every card is drawn."""
        raise NotImplementedError

    def looked(self, core: _Core, game: Game, action: Action) -> None:
        """After ``action``: what the seats looked at outside the engine's events (added to ``core.events``)."""

    def pack(self, core: _Core, game: Game) -> list[Card]:
        """The pack order of the dealt ``game`` (see :meth:`BummerlState.pack`)."""
        raise NotImplementedError

    def resample(self, state: BummerlState, player_id: int, rng: SplitMix64) -> list[int]:
        """The history of a state that ``player_id`` cannot tell from ``state`` (a decision node or the end)."""
        raise NotImplementedError

    def from_view(self, game: BummerlGame, view: View, rng: SplitMix64) -> BummerlState:
        """See :meth:`BummerlGame.state_from_view`."""
        raise NotImplementedError


class _TwoPlayer(_Family):
    """Schnapsen, 66, Schnorps: the deal places every card but the face-down talon, and a talon card is
    chosen by chance only when it is drawn.

    The games and views it is handed are the two-player engine's (``TwoPlayerGame``, ``PlayerView``): it is
    chosen for the two-player family only, hence the casts.
    """

    def max_points(self, variant: Variant) -> int:
        top = siegpunkte(0, False)
        if variant.match_unit == "marken":  # Schnorps scores Marken
            return max(marken(points, covered) for points in range(1, top + 1) for covered in (False, True))
        return top

    def max_game_length(self, variant: Variant) -> int:
        return variant.deck_size + 3

    def dealt(self, core: _Core) -> None:
        v = core.variant
        if len(core.placed) < 2 * v.hand_size + 1:
            return
        taken = set(core.placed)
        game = TwoPlayerGame.from_deck(
            v, core.placed + [c for c in deck(core.pack_size) if c not in taken], core.dealer
        )
        core.game = game
        core.chances = deal_chances(game)
        shown = (game.trump_card,) if game.trump_card is not None else ()
        core.events.append(_Looked("deal", mine=(tuple(game.hands[0]), tuple(game.hands[1])), face_up=shown))

    def draws(self, game: Game, action: Action) -> int:
        g = cast(TwoPlayerGame, game)
        if g.lead is not None and g.talon and g.closed_by is None and action.kind is ActionKind.PLAY:
            return min(2, len(g.talon))
        return 0

    def talon_cards(self, core: _Core) -> list[Card]:
        drawn = set(core.drawn)
        return sorted((c for c in cast(TwoPlayerGame, core.game).talon if c not in drawn), key=_by_index)

    def draw(self, core: _Core, card: Card) -> None:
        game = cast(TwoPlayerGame, core.game)
        pending = core.pending
        assert pending is not None
        if card not in game.talon or card in core.drawn:
            raise ValueError(f"{card.code} is not a face-down talon card")
        core.drawn.append(card)
        if len(core.drawn) < core.need:
            return
        # The cards chosen go where the engine draws from: the end of its talon list, next card last.
        talon = game.talon
        for k, c in enumerate(core.drawn):
            i, j = talon.index(c), len(talon) - 1 - k
            talon[i], talon[j] = talon[j], talon[i]
        if core.root_view is None:  # a game set up from a position has no pack to keep
            game.deck = tuple(self._pack_order(core, talon))
        core.pending = None
        core.drawn = []
        events = core._act(pending)
        time = len(core.acts)
        for e in events:
            if isinstance(e, Draw) and not e.face_up:
                core.chances.append(Chance(e.card, e.seat, time))

    def pack(self, core: _Core, game: Game) -> list[Card]:
        return self._pack_order(core, cast(TwoPlayerGame, game).talon)

    @staticmethod
    def _pack_order(core: _Core, talon: list[Card]) -> list[Card]:
        """The deal, the talon cards drawn so far and the undrawn ``talon`` (engine order: next card last)."""
        return core.placed + [c.card for c in core.chances[len(core.placed) :]] + talon[::-1]

    def resample(self, state: BummerlState, player_id: int, rng: SplitMix64) -> list[int]:
        core = state._core
        cards = iter(resample_two_player(cast(TwoPlayerGame, core.game), player_id, core.chances, core.acts, rng))
        return [next(cards).index if item.player == _CHANCE else item.action for item in state.full_history()]

    def from_view(self, game: BummerlGame, view: View, rng: SplitMix64) -> BummerlState:
        mine = cast(PlayerView, view)
        world = world_game(mine, sample_world(infer(mine), rng))
        state = game.new_initial_state()
        # The state begins at the world's position, which the view's player sees as the view.
        core = state._core
        core.game = world
        core.root_view = mine
        core.start = world.position()
        core.placed = []
        for seat in range(2):
            shown = mine if seat == mine.player else world.view(seat)
            core.events.append(_Start(seat, _canonical(shown)))
        return state


class _Table(_Family):
    """Dreierschnapsen, Bauernschnapsen: the whole pack (talon included) is dealt by chance at the start; the
    cut, the trump call and the bidding then run on it.

    The games and views it is handed are the table engine's (``TableGame``, ``TableView``): it is chosen for
    the table family only, hence the casts.
    """

    def max_points(self, variant: Variant) -> int:
        v = cast(TableVariant, variant)
        dearest = max([siegpunkte(0, False), *(c.points for c in v.contracts)])
        return (dearest + int(v.may_skip_talon)) << v.max_doubling

    def max_game_length(self, variant: Variant) -> int:
        v = cast(TableVariant, variant)
        n = v.players
        bidding = n * (len(v.contracts) + 1)
        talon = 2 + v.talon_size if v.talon_size else 0
        doubling = n * (v.max_doubling + 1)
        return 2 + bidding + talon + doubling + n * v.hand_size + 1

    def dealt(self, core: _Core) -> None:
        if len(core.placed) == core.pack_size:
            core.game = Game.from_deck(core.variant, core.placed, core.dealer)

    def looked(self, core: _Core, game: Game, action: Action) -> None:
        table = cast(TableGame, game)
        kind = action.kind
        if kind in (ActionKind.CUT, ActionKind.KNOCK):
            core.events.append(_Looked("first", mine=tuple(table.first_three)))
        elif kind in (ActionKind.CALL_TRUMP, ActionKind.TURN_TRUMP):
            core.events.append(_Looked("hand", mine=tuple(tuple(h) for h in table.hands)))
        if table.is_over:
            # A redeal shows three Unter, a claim a whole hand: the cards every seat now knows.
            core.events.append(_Looked("shown", shown=tuple(tuple(sorted(k, key=_by_index)) for k in table.known)))

    def pack(self, core: _Core, game: Game) -> list[Card]:
        return list(game.deck)

    def resample(self, state: BummerlState, player_id: int, rng: SplitMix64) -> list[int]:
        core = state._core
        pack, actions = resample_table(cast(TableGame, core.game), player_id, rng)
        return [c.index for c in pack] + [core.space.index(a) for a in actions]

    def from_view(self, game: BummerlGame, view: View, rng: SplitMix64) -> BummerlState:
        pack, actions = table_from_view(cast(TableView, view), rng)
        return game._replay([c.index for c in pack] + [game.space.index(a) for a in actions])


#: The part of each family of rules (``Variant.FAMILY``).
_FAMILIES: dict[str, _Family] = {"two_player": _TwoPlayer(), "table_game": _Table()}


class _Start(NamedTuple):
    """The first thing a seat knows of a game set up from a position: its view there."""

    seat: int
    text: str

    def to_json(self, seat: int | None) -> dict[str, Any] | None:
        return {"type": "start", "view": self.text} if seat == self.seat else None


def _by_index(card: Card) -> int:
    return card.index


def _text(event: Any, seat: int | None) -> str:
    data = event.to_json(seat)
    return "" if data is None else json.dumps(data, separators=(",", ":"), sort_keys=True)


def _canonical(view: View) -> str:
    data = view_to_json(view)
    del data["variant"]  # the game's parameters say it
    return json.dumps(data, separators=(",", ":"), sort_keys=True)


#: A card's code as a JSON string in an event's text.
_CARD_CODE = re.compile(r'"([AKQJT987][hdcs])"')


class _PublicObserver:
    """The public observation (``private_info=NONE``): what every seat has seen, and nothing of a hand.

    The string is :meth:`_Core.public_string` (the public events so far, for ``perfect_recall`` or not: the
    game's public state is its public history).  The tensor: one flag per card (by ``Card.index``) for every
    card any public event has named (played, shown with a marriage, the face-up trump card, the exchange), then
    the seat to act (one-hot; zeros at chance nodes and at the end).
    """

    def __init__(self, players: int) -> None:
        self.players = players
        self.tensor = np.zeros(len(CARDS) + players, np.float32)
        self.dict = {"public": self.tensor}

    def set_from(self, state: BummerlState, player: int) -> None:
        core = state._core
        self.tensor.fill(0.0)
        for code in _CARD_CODE.findall(core.public_string()):
            self.tensor[Card.parse(code).index] = 1.0
        seat = core.current_player()
        if seat >= 0:
            self.tensor[len(CARDS) + seat] = 1.0

    def string_from(self, state: BummerlState, player: int) -> str:
        return state._core.public_string()


class _Observer:
    """OpenSpiel's Python observer protocol (``tensor``, ``dict``, ``set_from``, ``string_from``)."""

    def __init__(self, encoder: ViewEncoder, info: bool) -> None:
        self.info = info
        size = encoder.information_state_size if info else encoder.observation_size
        self.tensor = np.zeros(size, np.float32)
        self.dict = {"info_state" if info else "observation": self.tensor}

    def set_from(self, state: BummerlState, player: int) -> None:
        values = state._core.tensor(player, self.info)
        if values is None:
            self.tensor.fill(0.0)
        else:
            self.tensor[:] = values

    def string_from(self, state: BummerlState, player: int) -> str:
        core = state._core
        return core.info_string(player) if self.info else core.observation_string(player)


pyspiel.register_game(_game_type(None), BummerlGame)
