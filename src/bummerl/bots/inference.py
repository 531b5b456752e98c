"""Card inference: what a player's view proves about the cards it cannot see.

From a :class:`~bummerl.view.PlayerView` alone, :func:`infer` works out the
*unseen* cards (in the opponent's hand or in the face-down talon), which of them
are known to be in the opponent's hand (a shown marriage card, a trump card taken
from the talon), and which are proven absent from it: after the talon is closed
or exhausted the follow rules are strict (RULES.md: "Farbzwang before
Stichzwang: beat with a higher card of the led suit; else any card of the led
suit; else trump; else any card"), so an opponent who did not follow suit holds
none of that suit, one who followed under the lead without beating holds no
higher card of it, and one who neither followed nor trumped holds no trump.

A *world* is one assignment of the unseen cards: the opponent's unknown cards
plus the talon in draw order.  :func:`sample_world` draws worlds uniformly among
all consistent ones (constructive sampling with the seeded
:class:`~bummerl.rng.SplitMix64`), :func:`enumerate_worlds` lists them all (for
exact late-game search), and :func:`world_game` turns a world into a full
:class:`~bummerl.game.Game` for the open-card solver.

>>> from bummerl.two_player import TwoPlayerGame
>>> game = TwoPlayerGame.deal("schnapsen", seed=3)
>>> info = infer(game.view(0))
>>> len(info.unseen), info.opponent_unknown, info.talon_size
(14, 5, 9)
>>> world = sample_world(info, SplitMix64(1))
>>> full = world_game(game.view(0), world)
>>> full.hands[0] == game.hands[0] and len(full.hands[1]) == 5
True

This module never sees a :class:`~bummerl.game.Game` it was not built from a
view: everything it knows comes from the view, so it cannot leak hidden cards.
"""

from __future__ import annotations

import dataclasses
import itertools
import math
from collections.abc import Iterable, Iterator

from bummerl.cards import Card, Rank, Suit, card_order, format_cards, marriage_value
from bummerl.rng import SplitMix64
from bummerl.rules.options import format_variant
from bummerl.rules.tricks import Trick
from bummerl.two_player import TwoPlayerGame
from bummerl.view import PlayerView

__all__ = [
    "InconsistentViewError",
    "Inference",
    "World",
    "count_worlds",
    "enumerate_worlds",
    "infer",
    "proven_absent",
    "sample_world",
    "shown_cards",
    "strict_from",
    "world_game",
]


class InconsistentViewError(ValueError):
    """A view whose card counts or proven voids admit no world at all."""


@dataclasses.dataclass(frozen=True)
class Inference:
    """The constraints a view puts on the unseen cards."""

    #: Cards in the opponent's hand or the face-down talon, unknown where (sorted).
    unseen: tuple[Card, ...]
    #: Cards known to be in the opponent's hand.
    opponent_known: frozenset[Card]
    #: How many opponent cards are unknown.
    opponent_unknown: int
    #: Face-down talon cards.
    talon_size: int
    #: Unseen cards proven not to be in the opponent's hand (so in the talon).
    forbidden: frozenset[Card]
    #: Whether the order of the talon still matters (cards will be drawn).
    ordered_talon: bool

    @property
    def allowed(self) -> tuple[Card, ...]:
        """Unseen cards that may be in the opponent's hand."""
        return tuple(c for c in self.unseen if c not in self.forbidden)


@dataclasses.dataclass(frozen=True)
class World:
    """One consistent assignment of the unseen cards."""

    #: The opponent's whole hand: known cards plus the sampled unknown ones.
    opponent_hand: tuple[Card, ...]
    #: The face-down talon in draw order (next card first).
    talon: tuple[Card, ...]


def strict_from(view: PlayerView) -> int | None:
    """Index of the first trick played under strict follow rules, if the view's
    trick list is complete (``None`` for a game set up from a position, whose
    history is unknown).

    After closing, the view says when (``closed_at_trick``); otherwise the talon
    (face-down cards plus the trump card, ``deck - 2 * hand`` cards) runs out
    after one trick per two cards.

    >>> from bummerl.two_player import TwoPlayerGame
    >>> g = TwoPlayerGame.deal("schnapsen", seed=2)
    >>> strict_from(g.view(0))
    5
    >>> _ = g.close_talon(); strict_from(g.view(0))
    0
    """
    played_in_tricks = 2 * len(view.tricks) + (1 if view.lead is not None else 0)
    if played_in_tricks != len(view.played):
        return None
    if view.closed_at_trick is not None:
        return view.closed_at_trick
    v = view.variant
    return (v.deck_size - 2 * v.hand_size) // 2


def infer(view: PlayerView) -> Inference:
    """The constraints ``view`` puts on the unseen cards (see the module text).

    Raises :class:`InconsistentViewError` if no world fits the view.
    """
    unseen = tuple(sorted(view.unseen(), key=card_order))
    opp_known = frozenset(view.opponent_known)
    unknown = view.opponent_hand_size - len(opp_known)
    if unknown < 0 or unknown + view.talon_size != len(unseen):
        raise InconsistentViewError(
            f"view does not add up: {len(unseen)} unseen cards for {unknown} unknown opponent cards "
            f"and {view.talon_size} talon cards"
        )
    forbidden = proven_absent(view, view.opponent, unseen)  # the opponent's forced plays
    if len(unseen) - len(forbidden) < unknown:
        raise InconsistentViewError(
            f"only {len(unseen) - len(forbidden)} unseen cards may be in the opponent's hand, which needs {unknown}"
        )
    ordered = view.closed_by is None and view.talon_size > 1
    return Inference(unseen, opp_known, unknown, view.talon_size, forbidden, ordered)


def proven_absent(view: PlayerView, player: int, cards: Iterable[Card]) -> frozenset[Card]:
    """Those of ``cards`` that ``player``'s forced plays, as ``view`` shows them, prove it does not hold.

    Only tricks the player *followed* under strict rules prove anything (the leader is free); the hand only
    shrinks after the talon is closed or exhausted, so what was absent then is absent now.  For the view's
    opponent this is what the view's player knows; for the view's own player, what its opponent can know
    of it (:mod:`bummerl.bots.presumed`).

    >>> from bummerl.two_player import TwoPlayerGame
    >>> g = TwoPlayerGame.deal("schnapsen", seed=2)
    >>> proven_absent(g.view(0), 1, g.hands[1])
    frozenset()
    """
    start = strict_from(view)
    if start is None:
        return frozenset()
    trump = view.trump
    pool = tuple(cards)
    out: set[Card] = set()
    for trick in view.tricks[start:]:
        if trick.leader == player:
            continue
        lead, follow = trick.lead, trick.follow
        if follow.suit != lead.suit:
            # Farbzwang: void in the led suit; if no trump came either: no trump.
            out.update(c for c in pool if c.suit == lead.suit)
            if follow.suit != trump:
                out.update(c for c in pool if c.suit == trump)
        elif follow.rank < lead.rank:
            # Stichzwang: followed without beating, so no higher card of the suit.
            out.update(c for c in pool if c.suit == lead.suit and c.rank > lead.rank)
    return frozenset(out)


def count_worlds(info: Inference) -> int:
    """How many distinct worlds fit; talon orders count only while they matter.

    >>> from bummerl.two_player import TwoPlayerGame
    >>> count_worlds(infer(TwoPlayerGame.deal("schnapsen", seed=3).view(0))) == math.comb(14, 5) * math.factorial(9)
    True
    """
    n = math.comb(len(info.unseen) - len(info.forbidden), info.opponent_unknown)
    return n * math.factorial(info.talon_size) if info.ordered_talon else n


def sample_world(info: Inference, rng: SplitMix64) -> World:
    """A world drawn uniformly among the consistent ones.

    Every subset of the allowed cards of the right size is an opponent hand with
    the same number of talon orders, so shuffling the allowed cards and taking a
    prefix, then shuffling the rest into the talon, is exactly uniform.
    """
    allowed = list(info.allowed)
    rng.shuffle(allowed)
    k = info.opponent_unknown
    hand = tuple(sorted(info.opponent_known, key=card_order)) + tuple(allowed[:k])
    talon = allowed[k:] + sorted(info.forbidden, key=card_order)
    rng.shuffle(talon)
    return World(hand, tuple(talon))


def enumerate_worlds(info: Inference) -> Iterator[World]:
    """Every consistent world once (talon orders only where they matter)."""
    allowed = info.allowed
    known = tuple(sorted(info.opponent_known, key=card_order))
    for combo in itertools.combinations(allowed, info.opponent_unknown):
        chosen = set(combo)
        rest = [c for c in info.unseen if c not in chosen]
        if info.ordered_talon:
            for order in itertools.permutations(rest):
                yield World(known + combo, order)
        else:
            yield World(known + combo, tuple(rest))


def shown_cards(view: PlayerView) -> frozenset[Card]:
    """The cards of the bot's hand that its opponent knows of: the other half of a marriage it announced.

    >>> from bummerl.two_player import TwoPlayerGame
    >>> shown_cards(TwoPlayerGame.deal("schnapsen", seed=1).view(0))
    frozenset()
    """
    me = view.player
    return frozenset(
        c for p, s in view.marriages if p == me for c in view.hand if c.suit == s and c.rank in (Rank.KING, Rank.OBER)
    )


def world_game(view: PlayerView, world: World) -> TwoPlayerGame:
    """The full game that ``view`` would be part of if ``world`` were the truth.

    Built through the one-line position (:mod:`bummerl.position`), the engine's
    documented way to set up a game mid-play: marriages, closing state and trick
    piles come from the view; the closing snapshot (the opponent's Augen and
    trick at the moment of closing) is recomputed from the trick history.
    """
    return TwoPlayerGame.from_position(world_position(view, world))


def world_position(view: PlayerView, world: World) -> str:
    """The position text of :func:`world_game`."""
    me, opp = view.player, view.opponent
    v = view.variant
    opts = v.options()
    variant = format_variant(v.name, opts)
    trump = view.trump_card.code if view.trump_card is not None else view.trump.letter
    hands = ["", ""]
    hands[me] = _hand(view.hand, shown_cards(view))
    hands[opp] = _hand(world.opponent_hand, view.opponent_known)
    talon = format_cards(world.talon) or "-"
    won, trick_augen = _piles(view)
    marriage_augen = [0, 0]
    for p, s in view.marriages:
        marriage_augen[p] += marriage_value(s, view.trump)
    if view.closed_by is None:
        closed = "-"
    else:
        augen, had = _closing_snapshot(view, trick_augen, marriage_augen)
        closed = f"{view.closed_by}:{augen}:{int(had)}"
    lead = view.lead.code if view.lead is not None else "-"
    piles = "/".join(format_cards(w) or "-" for w in won)
    marriages = "".join(f"{p}{s.letter}" for p, s in view.marriages) or "-"
    return " ".join(
        (variant, str(view.dealer), str(view.to_move), trump, "/".join(hands), talon, closed, lead, piles, marriages)
    )


def _hand(cards: tuple[Card, ...], known: set[Card] | frozenset[Card]) -> str:
    return "".join(c.code + ("!" if c in known else "") for c in cards) or "-"


def _piles(view: PlayerView) -> tuple[list[list[Card]], list[int]]:
    """Each player's won cards and trick Augen.

    From the trick list when it is complete; for a game set up from a position
    (no history) the played cards are split so that the piles match the Augen
    the view shows (or evenly by trick count where the variant hides them).
    """
    won: list[list[Card]] = [[], []]
    if strict_from(view) is not None:
        for t in view.tricks:
            won[t.winner] += [t.lead, t.follow]
        return won, [sum(c.augen for c in won[0]), sum(c.augen for c in won[1])]
    # The index breaks ties: view.played is a set, whose order follows memory addresses.
    cards = sorted((c for c in view.played if c != view.lead), key=lambda c: (-c.augen, c.index))
    need0 = 2 * view.tricks_won[0]
    target0: int | None = None
    if view.augen is not None:
        marriage0 = sum(marriage_value(s, view.trump) for p, s in view.marriages if p == 0)
        target0 = view.augen[0] - (marriage0 if view.tricks_won[0] else 0)
    pick = _split(cards, need0, target0)
    won[0] = [cards[i] for i in pick]
    won[1] = [c for i, c in enumerate(cards) if i not in pick]
    return won, [sum(c.augen for c in won[0]), sum(c.augen for c in won[1])]


def _split(cards: list[Card], count: int, target: int | None) -> set[int]:
    """Indices of ``count`` cards whose Augen sum to ``target`` (or any, if None)."""
    if target is None:
        return set(range(count))
    # Subset-sum over (cards used, count, sum): a few hundred states at most.
    reach: dict[tuple[int, int], tuple[int, ...]] = {(0, 0): ()}
    for i, c in enumerate(cards):
        for (n, s), idx in list(reach.items()):
            key = (n + 1, s + c.augen)
            if n < count and key not in reach:
                reach[key] = (*idx, i)
    found = reach.get((count, target))
    return set(found) if found is not None else set(range(count))


def _closing_snapshot(view: PlayerView, trick_augen: list[int], marriage_augen: list[int]) -> tuple[int, bool]:
    """The closer's opponent's counted Augen and whether they had a trick, at closing."""
    closer = view.closed_by
    if closer is None:
        return 0, False
    o = 1 - closer
    start = strict_from(view)
    if start is None:
        # No history: the best estimate is the state now.
        has = view.tricks_won[o] > 0
        return trick_augen[o] + (marriage_augen[o] if has else 0), has
    before = view.tricks[:start]
    augen = sum(t.lead.augen + t.follow.augen for t in before if t.winner == o)
    has = any(t.winner == o for t in before)
    if has:
        for p, s in view.marriages:
            if p == o and _marriage_trick(view.tricks, p, s) < start:
                augen += marriage_value(s, view.trump)
    return augen, has


def _marriage_trick(tricks: tuple[Trick, ...], player: int, suit: Suit) -> int:
    """The trick in which ``player`` announced the marriage in ``suit``: the first
    one they led with its King or Ober (holding both, no earlier lead of either
    was possible without breaking the pair); ``len(tricks)`` for the current one."""
    for i, t in enumerate(tricks):
        if t.leader == player and t.lead.suit == suit and t.lead.rank in (Rank.KING, Rank.OBER):
            return i
    return len(tricks)
