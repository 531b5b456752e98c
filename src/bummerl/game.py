"""One game of any variant: the interface that every front end, bot and record uses.

>>> game = Game.deal("schnapsen", seed=7)
>>> game.players, game.to_move, len(game.hands[0])
(2, 0, 5)
>>> table = Game.deal("bauernschnapsen", seed=7)
>>> table.players, [a.token for a in table.legal_actions()]
(4, ['cut', 'knock'])
>>> for g in (game, table):
...     while not g.is_over:
...         events = g.apply(g.legal_actions()[0])
>>> type(events[-1]).__name__, game.result is not None
('GameEnd', True)

:class:`Game` is abstract: a variant names its engine (:meth:`bummerl.variants.base.Variant.new_game`),
:class:`~bummerl.two_player.TwoPlayerGame` for the two-player variants and
:class:`~bummerl.table_game.TableGame` for Bauernschnapsen and Dreierschnapsen;
``Game.deal``, ``Game.from_deck``, ``Game.replay`` and ``Game.from_position``
make the right one.  Called on an engine class they make only its games
(``TwoPlayerGame.deal("bauernschnapsen")`` is refused), which gives code that
needs one family its type.  docs/architecture.md says why there are two engines
behind one interface.

Every action comes as a triple in the manner of PokerKit: ``can_apply(action)``
(a bool), ``verify(action)`` (raises :class:`~bummerl.errors.IllegalActionError`
naming the rule), ``apply(action)`` (does it and returns the
:mod:`~bummerl.events` it caused); ``refusal(action)`` returns the rule and the
reason instead of raising, and the named triples (``play``, ``announce_marriage``,
``declare``, and each family's own) do the same for one kind.  A refused action
leaves the game exactly as it was.

The engine does no I/O, keeps no global state and uses no randomness it was not
given: :meth:`Game.deal` shuffles with the seeded generator of :mod:`bummerl.rng`.
"""

from __future__ import annotations

import abc
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any, Self

from bummerl.actions import Action
from bummerl.cards import Card, Rank, Suit, deck
from bummerl.errors import BummerlError, IllegalActionError, Refusal, Rule, UnknownVariantError
from bummerl.rng import SplitMix64
from bummerl.variants.base import Variant

if TYPE_CHECKING:
    from bummerl.events import Event

__all__ = ["DEFAULT_DEALER", "Game"]

#: ``dealer`` left out: the variant's default dealer deals (a seat given explicitly is checked, ``None`` too).
DEFAULT_DEALER: Any = type("VariantDealer", (), {"__repr__": lambda self: "DEFAULT_DEALER"})()


class Game(abc.ABC):
    """A game of any variant, from the deal to its result (see the module docstring)."""

    __slots__ = ()

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
    #: The completed tricks.
    tricks: list[Any]
    #: The result once the game is over (``None`` before); each family has its type.
    result: Any

    # ------------------------------------------------------------ construction
    @classmethod
    def deal(cls, variant: Variant | str = "schnapsen", seed: int = 0, dealer: int = DEFAULT_DEALER) -> Self:
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
    def from_deck(cls, variant: Variant | str, deck_order: Iterable[Card], dealer: int = DEFAULT_DEALER) -> Self:
        """Deal an explicit pack order (top card first), e.g. from a record."""
        v = _variant(variant)
        game = v.new_game(deck_order, v.default_dealer if dealer is DEFAULT_DEALER else dealer)
        if not isinstance(game, cls):
            raise UnknownVariantError(f"{v.title} is not played by {cls.__name__}")
        return game

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
        from bummerl.errors import PositionError

        if not isinstance(text, str):
            raise PositionError(f"a position is one line of text, not {type(text).__name__}")
        name = text.split(maxsplit=1)[0].partition(":")[0] if text.strip() else ""
        try:
            v = _variant(name)
        except UnknownVariantError as exc:
            raise PositionError(f"a position starts with its variant: {exc}") from None
        game = v.read_position(text)
        if not isinstance(game, cls):
            raise PositionError(f"{v.title} is not played by {cls.__name__}")
        return game

    @abc.abstractmethod
    def position(self) -> str:
        """A one-line text that :meth:`from_position` reads back into this position."""

    @abc.abstractmethod
    def copy(self) -> Self:
        """An independent copy (for search)."""

    # ---------------------------------------------------------------- state
    @property
    def players(self) -> int:
        """The number of seats (2, 3 or 4)."""
        return self.variant.players

    @property
    def is_over(self) -> bool:
        return self.result is not None

    @abc.abstractmethod
    def view(self, seat: int) -> Any:
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


def _variant(variant: Variant | str) -> Variant:
    if isinstance(variant, Variant):
        return variant  # the common case in self-play: no lookup, no import machinery on every deal
    from bummerl.variants import find_variant

    return find_variant(variant)
