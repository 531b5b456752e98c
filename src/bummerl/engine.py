"""The abstract engine: :class:`Game`, the interface every family's engine implements, and :data:`ENGINES`.

This module sits below the engines and above the variants and the views: each engine module
(:mod:`bummerl.two_player`, :mod:`bummerl.table_game`) subclasses :class:`Game` and enters itself in
:data:`ENGINES` under its variants' :attr:`~bummerl.variants.base.Variant.FAMILY`; ``Game.deal`` and its
sister factories find a variant's engine there.  So no variant imports an engine and no engine imports
another; :mod:`bummerl.game` imports both engines, which is why code should import :class:`Game` from
there (``from bummerl.game import Game``): then the table is full.  docs/architecture.md draws the layers.

Every action comes as a triple in the manner of PokerKit: ``can_apply(action)``
(a bool), ``verify(action)`` (raises :class:`~bummerl.errors.IllegalActionError`
naming the rule), ``apply(action)`` (does it and returns the
:mod:`~bummerl.events` it caused); ``refusal(action)`` returns the rule and the
reason instead of raising, and the named triples (``play``, ``announce_marriage``,
``declare``, and each family's own) do the same for one kind.  A refused action
leaves the game exactly as it was.

The engine does no I/O, keeps no global state but the table of engines, and uses no randomness it was not
given: :meth:`Game.deal` shuffles with the seeded generator of :mod:`bummerl.rng`.  This module must never
import an engine.
"""

from __future__ import annotations

import abc
import enum
from collections.abc import Iterable, Sequence
from typing import Final, Self, TypeVar, cast

from bummerl.actions import Action
from bummerl.cards import Card, Rank, Suit, deck
from bummerl.errors import BummerlError, IllegalActionError, PositionError, Refusal, Rule, UnknownVariantError
from bummerl.events import Event
from bummerl.rng import SplitMix64
from bummerl.rules.result import Result
from bummerl.rules.tricks import CompletedTrick
from bummerl.variants import Variant, find_variant
from bummerl.view import View

__all__ = ["DEFAULT_DEALER", "ENGINES", "Game", "VariantDealer", "register_engine"]


class VariantDealer(enum.Enum):
    """The type of :data:`DEFAULT_DEALER` (one member: a sentinel that mypy can tell from a seat)."""

    DEFAULT_DEALER = "DEFAULT_DEALER"

    def __repr__(self) -> str:
        return "DEFAULT_DEALER"


#: ``dealer`` left out: the variant's default dealer deals (a seat given explicitly is checked, ``None`` too).
DEFAULT_DEALER: Final = VariantDealer.DEFAULT_DEALER

#: The engine of each family of variants, by :attr:`Variant.FAMILY`; each engine module enters its class
#: (:func:`register_engine`) when it is imported.
ENGINES: dict[str, type[Game]] = {}


def _without_twin(attributes: dict[str, object]) -> dict[str, object]:
    return {name: None if name in ("_core", "_twin") else value for name, value in attributes.items()}


class Game(abc.ABC):
    """A game of any variant, from the deal to its result (see the module docstring)."""

    variant: Variant
    #: The pack order of the deal (top card first): the chance player's action.
    deck: tuple[Card, ...]
    dealer: int
    #: The seat to act (after the end: the last one that was to act).
    to_move: int
    #: Every hand, in the order the cards were received.
    hands: list[list[Card]]
    #: Every action so far, in order (the deal is :attr:`deck`).
    actions: list[Action]
    #: The completed tricks (each family's trick type answers :class:`~bummerl.rules.tricks.CompletedTrick`).
    tricks: Sequence[CompletedTrick]
    #: The result once the game is over (``None`` before); each family narrows the type.
    result: Result | None

    @abc.abstractmethod
    def __init__(self, variant: Variant, deck_order: Iterable[Card], dealer: int) -> None:
        """Deal ``deck_order`` (top card first) by ``dealer``: :meth:`from_deck` calls the variant's engine so."""

    # ------------------------------------------------------------ construction
    @classmethod
    def deal(
        cls, variant: Variant | str = "schnapsen", seed: int = 0, dealer: int | VariantDealer = DEFAULT_DEALER
    ) -> Self:
        """Shuffle the variant's pack with ``seed`` (see :mod:`bummerl.rng`) and deal it.

        ``seed`` is any integer (taken modulo 2**64); without ``dealer`` the
        variant's default deals (two players: seat 1 deals, seat 0 leads).
        """
        if not isinstance(seed, int) or isinstance(seed, bool):
            raise BummerlError(f"a seed must be an integer, not {seed!r}")
        v = _variant(variant)
        cards = list(deck(v.deck_size))
        SplitMix64(seed).shuffle(cards)
        return cls.from_deck(v, cards, dealer)

    @classmethod
    def from_deck(
        cls, variant: Variant | str, deck_order: Iterable[Card], dealer: int | VariantDealer = DEFAULT_DEALER
    ) -> Self:
        """Deal an explicit pack order (top card first), e.g. from a record."""
        v = _variant(variant)
        engine = _engine(cls, v)
        return engine(v, deck_order, v.default_dealer if isinstance(dealer, VariantDealer) else dealer)

    @classmethod
    def replay(
        cls, variant: Variant | str, deck_order: Iterable[Card], dealer: int, actions: Iterable[Action | str]
    ) -> Self:
        """Deal ``deck_order`` and apply every action; raises on the first illegal one, naming it."""
        game = cls.from_deck(variant, deck_order, dealer)
        for i, action in enumerate(actions):
            try:
                game.apply(action)
            except IllegalActionError as exc:
                raise IllegalActionError(exc.rule, f"action {i + 1} ({action}): {exc.detail}") from None
        return game

    @classmethod
    def from_position(cls, text: str) -> Self:
        """The game of a one-line position (:meth:`position`; its first word names the variant)."""
        if not isinstance(text, str):
            raise PositionError(f"a position is one line of text, not {type(text).__name__}")
        name = text.split(maxsplit=1)[0].partition(":")[0] if text.strip() else ""
        try:
            v = _variant(name)
        except UnknownVariantError as exc:
            raise PositionError(f"a position starts with its variant: {exc}") from None
        try:
            engine = _engine(cls, v)
        except UnknownVariantError as exc:
            raise PositionError(str(exc)) from None
        return engine.read_position(text)

    @classmethod
    @abc.abstractmethod
    def read_position(cls, text: str) -> Self:
        """The game of a one-line position of this engine's family (:meth:`from_position` without the lookup)."""

    @abc.abstractmethod
    def position(self) -> str:
        """A one-line text that :meth:`from_position` reads back into this position."""

    @abc.abstractmethod
    def copy(self) -> Self:
        """An independent copy (for search)."""

    def __getstate__(self) -> object:
        """What ``pickle`` and ``copy.deepcopy`` carry: the game without its compiled twin (``_core``, and a table's
        ``_twin`` that deals it: :func:`bummerl.core.twin`), which a C ``State`` cannot be pickled as.  The copy
        plays on the Python rules alone, with the same answers; :meth:`copy` keeps a twin of its own."""
        state = super().__getstate__()
        if isinstance(state, dict):  # TableGame: a __dict__
            return _without_twin(state)
        instance, slots = cast("tuple[dict[str, object] | None, dict[str, object]]", state)  # TwoPlayerGame's slots
        return instance, _without_twin(slots)

    # ---------------------------------------------------------------- state
    @property
    def players(self) -> int:
        """The number of seats (2, 3 or 4)."""
        return self.variant.players

    @property
    def is_over(self) -> bool:
        return self.result is not None

    @abc.abstractmethod
    def side_of(self, seat: int) -> int:
        """The index of ``seat``'s side in :meth:`augen` and the result's ``augen``: the seat itself at two seats;
        at a table 0 for the declarer's side, 1 for the defenders (once the contract is fixed)."""

    @abc.abstractmethod
    def augen(self, side: int) -> int:
        """The counted Augen of a side (:meth:`side_of`): tricks, and marriages once the side has a trick."""

    @abc.abstractmethod
    def view(self, seat: int) -> View:
        """What ``seat`` may know (:mod:`bummerl.view`): the only thing a bot or a client is given."""

    # ------------------------------------------------------------- actions
    @abc.abstractmethod
    def legal_actions(self) -> list[Action]:
        """The legal actions of :attr:`to_move` (empty once the game is over); the list is the caller's own."""

    @abc.abstractmethod
    def refusal(self, action: Action | str) -> Refusal | None:
        """Why ``action`` is not legal now, as ``(rule, reason)``; ``None`` if it is."""

    @abc.abstractmethod
    def apply(self, action: Action | str) -> tuple[Event, ...]:
        """Do ``action`` (an :class:`Action` or its token) and return what happened, or raise without change."""

    def can_apply(self, action: Action | str) -> bool:
        """Whether ``action`` is legal now."""
        return self.refusal(action) is None

    def verify(self, action: Action | str) -> None:
        """Raise :class:`IllegalActionError` naming the broken rule, unless ``action`` is legal now."""
        refusal = self.refusal(action)
        if refusal is not None:
            raise IllegalActionError(*refusal)

    def _refuse(self, action: Action) -> IllegalActionError:
        """The error for an action that is not among the legal actions (an engine whose ``verify`` tests the
        legal actions first asks :meth:`refusal` only for the reason)."""
        why = self.refusal(action)
        if why is None:  # pragma: no cover - the same rules generate legal_actions()
            why = Rule.NOT_AVAILABLE, f"{action.token} is not possible now"
        return IllegalActionError(*why)

    # ---------------------------------------------- named triples, every variant
    def can_play(self, card: Card) -> bool:
        return self.can_apply(Action.play(card))

    def verify_play(self, card: Card) -> None:
        self.verify(Action.play(card))

    def play(self, card: Card) -> tuple[Event, ...]:
        """Lead or follow with ``card``."""
        return self.apply(Action.play(card))

    def can_announce_marriage(self, card: Card) -> bool:
        return card.rank in (Rank.KING, Rank.OBER) and self.can_apply(Action.marriage(card))

    def verify_announce_marriage(self, card: Card) -> None:
        if card.rank not in (Rank.KING, Rank.OBER):
            raise IllegalActionError(Rule.MARRIAGE, f"a marriage is led with its King or Ober, not {card.code}")
        self.verify(Action.marriage(card))

    def announce_marriage(self, card: Card) -> tuple[Event, ...]:
        """Show King and Ober of ``card``'s suit (20, 40 in trumps) and lead ``card``."""
        self.verify_announce_marriage(card)
        return self.apply(Action.marriage(card))

    def can_declare(self, marriage: Suit | None = None) -> bool:
        return self.can_apply(Action.declare(marriage))

    def verify_declare(self, marriage: Suit | None = None) -> None:
        self.verify(Action.declare(marriage))

    def declare(self, marriage: Suit | None = None) -> tuple[Event, ...]:
        """Go out ("genug"), after showing the marriage of ``marriage`` if given."""
        return self.apply(Action.declare(marriage))


G = TypeVar("G", bound=Game)


def register_engine(family: str, engine: type[Game]) -> None:
    """Make ``engine`` the engine of the variants whose :attr:`~bummerl.variants.base.Variant.FAMILY` is ``family``."""
    ENGINES[family] = engine


def _engine(cls: type[G], v: Variant) -> type[G]:
    engine = ENGINES.get(v.FAMILY)
    if engine is None:
        raise UnknownVariantError(f"no engine plays {v.title} (family {v.FAMILY!r}); import bummerl.game first")
    if not issubclass(engine, cls):
        raise UnknownVariantError(f"{v.title} is not played by {cls.__name__}")
    return engine


def _variant(variant: Variant | str) -> Variant:
    if isinstance(variant, Variant):
        return variant  # the common case in self-play: no lookup on every deal
    return find_variant(variant)
