"""Other worlds that a player cannot tell from the real one: the card side of ``resample_from_infostate``.

An RL framework that searches an imperfect-information game (OpenSpiel's IS-MCTS)
asks for a state that one player cannot tell apart from the real one: the same
cards of their own, the same public history, and the cards they cannot see dealt
anew in a way everything they saw allows.  This module makes such worlds from the
engine alone, with the bots' card inference, and knows nothing of any RL
framework (:mod:`bummerl.rl.openspiel` turns its results into OpenSpiel states).

**Two players** (:func:`resample_two_player`).  A history is the deal, one card
per pack position, and the talon cards as they are drawn, each a :class:`Chance`
(the card, the seat that received it, and when).  The opponent's unknown cards
now come from :func:`bummerl.bots.inference.sample_world` (uniform among the
hands the view allows: known cards kept, voids proven by strict play
respected); then every card the opponent ever received face down is given a
place among the opponent's deal and draw positions such that each card was in
hand before it was played, shown in a marriage or exchanged
(:func:`schedule`).  The player's own cards and everything public stay as they
were.

>>> from bummerl.rng import SplitMix64
>>> from bummerl.two_player import TwoPlayerGame
>>> game = TwoPlayerGame.deal("schnapsen", seed=3)
>>> chances = deal_chances(game)
>>> len(chances), sum(1 for c in chances if c.seat == 0)
(11, 5)
>>> new = resample_two_player(game, 0, chances, [], SplitMix64(1))
>>> [c for c, old in zip(new, chances) if old.seat != 1] == [c.card for c in chances if c.seat != 1]
True

**Table games** (:func:`resample_table`, :func:`table_from_view`).  The pack is
dealt at the start, so a world is a pack: the positions the player has seen keep
their cards, the other seats' hands come from
:func:`bummerl.bots.table_search.sample_world` (known cards kept, what the play
proved respected; a bid that needs a full suit or all trumps gets its suit),
each seat's cards are laid out in its positions of the deal, and the actions
are replayed on the new pack (a Dreierschnapsen soloist's face-down discards
are the one private action: another soloist's are replaced by the new world's).
A candidate is kept only if every action is legal on it and the player's view
comes out equal to the real one; the few that break a rule the sampler does not
model (an Assen-Bettler bid needs an Ace, the called trump suit must be among
Vorhand's first three cards) are drawn again.  :func:`table_from_view` does the
same from a :class:`~bummerl.view.TableView` alone, rebuilding the actions from
the view (the bots use it: they are given views, never games).

Nothing here reads a card the player cannot see, except to keep it where it
is: a world depends only on the player's information and the generator.
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Sequence
from typing import NamedTuple

from bummerl.actions import Action, ActionKind
from bummerl.bots.inference import infer, sample_world
from bummerl.bots.table_search import constraints
from bummerl.bots.table_search import sample_world as sample_table_world
from bummerl.cards import Card, Rank, Suit, deck
from bummerl.errors import IllegalActionError
from bummerl.rng import SplitMix64
from bummerl.table_game import TableGame
from bummerl.two_player import TwoPlayerGame
from bummerl.variants.bauernschnapsen import Phase, Requirement, TableVariant
from bummerl.view import TableView
from bummerl.view_json import trick_seats

__all__ = [
    "NOBODY",
    "Chance",
    "WorldNotFoundError",
    "deal_chances",
    "resample_table",
    "resample_two_player",
    "schedule",
    "table_from_view",
    "table_layout",
]

#: The seat of a chance card nobody takes into hand: the face-up trump card of a two-player deal.
NOBODY = -1
#: Candidates drawn before a table world is given up.  A candidate fails when it breaks a rule the sampler
#: does not model: at random positions of the table games 7% of the candidates of resample_table and 10% of
#: those of table_from_view did (1606 for 1500 worlds, 612 for 549).
TABLE_TRIES = 400


class WorldNotFoundError(RuntimeError):
    """No world consistent with the player's information turned up in the tries allowed."""


class Chance(NamedTuple):
    """One chance outcome of a two-player game: ``card`` went to ``seat`` (or :data:`NOBODY`)
    and was in hand from the player action numbered ``time`` on (0: from the deal)."""

    card: Card
    seat: int
    time: int


# ====================================================================== two players
@functools.cache
def _deal_seats(variant: object, dealer: int, size: int) -> tuple[int, ...]:
    """The seat (or :data:`NOBODY`) of each dealt pack position, found by dealing the plain pack."""
    plain = deck(size)
    game = TwoPlayerGame.from_deck(variant, plain, dealer)  # type: ignore[arg-type]
    seat_of = {c: s for s in (0, 1) for c in game.hands[s]}
    return tuple(seat_of.get(c, NOBODY) for c in plain[: 2 * len(game.hands[0]) + 1])


def deal_seats(game: TwoPlayerGame) -> tuple[int, ...]:
    """Who receives each pack position of the deal (the talon excluded).

    >>> deal_seats(TwoPlayerGame.deal("schnapsen", seed=1))  # Vorhand 3, dealer 3, trump card, 2 and 2
    (0, 0, 0, 1, 1, 1, -1, 0, 0, 1, 1)
    """
    return _deal_seats(game.variant, game.dealer, game.variant.deck_size)


def deal_chances(game: TwoPlayerGame) -> list[Chance]:
    """The chance outcomes of ``game``'s deal (before any talon card is drawn)."""
    return [Chance(game.deck[i], seat, 0) for i, seat in enumerate(deal_seats(game))]


def _needs(seat: int, acts: Sequence[tuple[int, Action]], trump: Suit, low: Rank) -> dict[Card, int]:
    """The first player action at which ``seat`` must have held each card (played, shown, exchanged)."""
    out: dict[Card, int] = {}
    for time, (who, action) in enumerate(acts):
        if who != seat:
            continue
        kind = action.kind
        cards: tuple[Card, ...] = ()
        if kind is ActionKind.PLAY and action.card is not None:
            cards = (action.card,)
        elif kind is ActionKind.MARRIAGE and action.card is not None:
            cards = (Card(action.card.suit, Rank.KING), Card(action.card.suit, Rank.OBER))
        elif kind is ActionKind.DECLARE and action.suit is not None:
            cards = (Card(action.suit, Rank.KING), Card(action.suit, Rank.OBER))
        elif kind is ActionKind.EXCHANGE:
            cards = (Card(trump, low),)
        for c in cards:
            out.setdefault(c, time)
    return out


def schedule(times: Sequence[int], cards: Sequence[Card], needed: dict[Card, int], rng: SplitMix64) -> list[Card]:
    """Give each of ``cards`` one of the arrival ``times`` so that a card arrives no later than it is
    ``needed`` (cards not in ``needed`` any time); returns the card for each time, in the order given.

    The latest arrival takes any card that may still arrive then, chosen at random, and so on back
    to the deal: taking a card away never makes the earlier arrivals infeasible, so this finds a
    schedule whenever there is one.

    >>> a, b, c = (Card.parse(x) for x in ("Ah", "Kh", "Qh"))
    >>> schedule([0, 0, 5], [a, b, c], {a: 5, b: 2}, SplitMix64(3))[2] in (a, c)
    True
    >>> schedule([3], [a], {a: 1}, SplitMix64(3))
    Traceback (most recent call last):
    ...
    bummerl.rl.worlds.WorldNotFoundError: no card may arrive at action 3
    """
    if len(times) != len(cards):
        raise ValueError(f"{len(cards)} cards for {len(times)} places")
    left = list(cards)
    out: list[Card | None] = [None] * len(times)
    for i in sorted(range(len(times)), key=lambda k: times[k], reverse=True):
        t = times[i]
        fits = [c for c in left if needed.get(c, t) >= t]
        if not fits:
            raise WorldNotFoundError(f"no card may arrive at action {t}")
        pick = fits[rng.below(len(fits))]
        left.remove(pick)
        out[i] = pick
    return [c for c in out if c is not None]


def resample_two_player(
    game: TwoPlayerGame,
    seat: int,
    chances: Sequence[Chance],
    acts: Sequence[tuple[int, Action]],
    rng: SplitMix64,
) -> list[Card]:
    """New chance outcomes for ``game`` (one card per entry of ``chances``, in order) that ``seat``
    cannot tell from the real ones; ``acts`` are the player actions so far as ``(seat, action)``.

    Only the opponent's face-down cards change: the unknown ones in hand are drawn by the
    engine's inference, the rest keep their cards and are rescheduled (:func:`schedule`).
    """
    opp = 1 - seat
    view = game.view(seat)
    world = sample_world(infer(view), rng)
    known = view.opponent_known
    unknown_now = [c for c in game.hands[opp] if c not in known]
    unknown_new = [c for c in world.opponent_hand if c not in known]
    slots = [i for i, ch in enumerate(chances) if ch.seat == opp]
    old = {chances[i].card for i in slots}
    if not set(unknown_now) <= old:  # pragma: no cover - an unknown card came from a face-down place
        raise WorldNotFoundError("the opponent holds an unknown card that was not dealt or drawn face down")
    cards = [c for c in (chances[i].card for i in slots) if c not in set(unknown_now)] + unknown_new
    needed = _needs(opp, acts, game.trump, game.variant.exchange_rank)
    placed = schedule([chances[i].time for i in slots], cards, needed, rng)
    out = [ch.card for ch in chances]
    for i, card in zip(slots, placed, strict=True):
        out[i] = card
    return out


# ====================================================================== table games
@functools.cache
def table_layout(
    variant: TableVariant, dealer: int, knocked: bool
) -> tuple[tuple[tuple[int, ...], ...], tuple[int, ...]]:
    """The pack positions of each seat's cards (in the order received) and of the talon, after a cut or a knock.

    >>> from bummerl.variants import find_table_variant
    >>> seats, talon = table_layout(find_table_variant("dreier"), 0, False)
    >>> seats[1], talon  # Vorhand: three, then three more after the talon
    ((0, 1, 2, 11, 12, 13), (9, 10))
    """
    plain = deck(variant.deck_size)
    table = TableGame.from_deck(variant, plain, dealer)
    table.apply(Action.knock() if knocked else Action.cut())
    index = {c: i for i, c in enumerate(plain)}
    seats = tuple(tuple(index[c] for c in hand) for hand in table.hands)
    return seats, tuple(index[c] for c in table.talon)


def _played(view: TableView) -> dict[int, list[Card]]:
    """The cards each seat has played, from the view's tricks and the current trick."""
    n = view.variant.players
    out: dict[int, list[Card]] = {s: [] for s in range(n)}
    for t in view.tricks:
        for s, c in zip(trick_seats(t.leader, len(t.cards), view.active, n), t.cards, strict=True):
            out[s].append(c)
    for s, c in view.trick:
        out[s].append(c)
    return out


def _forced(view: TableView, played: dict[int, list[Card]], rng: SplitMix64) -> dict[int, frozenset[Card]] | None:
    """For each other seat whose bid needed a full suit (or all trumps), the cards of one suit it may have
    held; ``None`` if no suit fits one such seat."""
    v = view.variant
    unseen = view.unseen()
    out: dict[int, frozenset[Card]] = {}
    for s, action in view.bids:
        if s == view.player or action.contract is None:
            continue
        req = v.contract(action.contract).requirement
        if req not in (Requirement.FULL_SUIT, Requirement.ALL_TRUMPS) or s in out:
            continue
        mine = set(played[s]) | set(view.known[s]) | unseen
        suits = [view.trump] if req is Requirement.ALL_TRUMPS and view.trump is not None else list(Suit)
        fits = [x for x in suits if all(c in mine for c in deck(v.deck_size) if c.suit == x)]
        room = view.hand_sizes[s] - len(view.known[s])
        fits = [x for x in fits if sum(1 for c in unseen if c.suit == x) <= room]
        if not fits:
            return None
        suit = fits[rng.below(len(fits))]
        out[s] = frozenset(c for c in unseen if c.suit == suit)
    turned = view.turned_card
    if turned is not None and turned in unseen:
        # Laid away or held by a soloist who took up the talon: it was dealt to Vorhand all the same.
        out[view.vorhand] = out.get(view.vorhand, frozenset()) | {turned}
    return out


def _arrange(cards: list[Card], seat: int, view: TableView, rng: SplitMix64) -> list[Card] | None:
    """``cards`` in a random order for ``seat``'s deal positions that agrees with what was shown of them."""
    order = cards[:]
    rng.shuffle(order)
    if seat == view.vorhand and view.trump is not None:
        if view.turned_card is not None:
            # Aufschlagen turns Vorhand's fourth card (TableGame._turn).
            if view.turned_card not in order:
                return None
            order.remove(view.turned_card)
            order.insert(3, view.turned_card)
        elif not any(c.suit == view.trump for c in order[:3]):
            called = [i for i, c in enumerate(order) if c.suit == view.trump]
            if not called:
                return None
            i, j = called[rng.below(len(called))], rng.below(3)
            order[i], order[j] = order[j], order[i]
    shown = [c for c in view.known[seat] if c.rank == Rank.UNTER] if view.phase is Phase.OVER else []
    if len(shown) == 3 and view.trump is None:
        # A redeal: the three Unter were the seat's first three cards.
        order = shown + [c for c in order if c not in shown]
    return order


@dataclasses.dataclass
class _Own:
    """The cards the player has seen by position: ``fixed`` maps a pack position to its card."""

    fixed: dict[int, Card]


def _own_from_game(table: TableGame, seat: int) -> _Own:
    """The positions ``seat`` has looked at in the real game, with their cards."""
    if table.knocked is None:
        return _Own({})
    seats, talon = table_layout(table.variant, table.dealer, table.knocked)
    mine = seats[seat]
    if table.phase is Phase.TRUMP or (table.phase is Phase.OVER and table.trump is None):
        mine = mine[:3]
    positions = list(mine)
    if talon and seat == table.declarer and not table.talon:
        positions += talon
    return _Own({i: table.deck[i] for i in positions})


def _own_from_view(view: TableView, played: list[Card], rng: SplitMix64) -> _Own | None:
    """Positions for the cards ``view``'s player has seen, in an order the view allows
    (the hand keeps its order; cards played or laid away go anywhere among them)."""
    if view.knocked is None:
        return _Own({})
    v = view.variant
    seats, talon = table_layout(v, view.dealer, view.knocked)
    mine = list(seats[view.player])
    if view.phase is Phase.TRUMP or (view.phase is Phase.OVER and view.trump is None):
        return _Own(dict(zip(mine[:3], view.hand, strict=True)))
    hand = list(view.hand)
    gone = played + list(view.discarded)
    rng.shuffle(gone)
    took = bool(talon) and view.declarer == view.player and view.talon_size == 0
    if took:
        # The talon came last: its cards still in hand are the last ones; the rest of it is among those gone.
        options = [k for k in range(len(talon) + 1) if k <= len(hand) and len(talon) - k <= len(gone)]
        k = options[rng.below(len(options))]
        tail = hand[len(hand) - k :]
        hand = hand[: len(hand) - k]
        from_talon = tail + gone[: len(talon) - k]
        gone = gone[len(talon) - k :]
        fixed = dict(zip(talon, from_talon, strict=True))
    else:
        fixed = {}
    merged: list[Card] = []
    while hand or gone:
        if gone and (not hand or rng.below(len(hand) + len(gone)) < len(gone)):
            merged.append(gone.pop())
        else:
            merged.append(hand.pop(0))
    turned = view.turned_card
    if view.player == view.vorhand and turned is not None and turned in merged:
        merged.remove(turned)
        merged.insert(3, turned)  # Aufschlagen turned Vorhand's fourth card
    if len(merged) != len(mine):
        return None
    fixed.update(zip(mine, merged, strict=True))
    return _Own(fixed)


def _candidate(view: TableView, own: _Own, rng: SplitMix64) -> tuple[list[Card], list[Card]] | None:
    """A pack that agrees with ``view`` and keeps ``own``'s positions, and the cards another
    soloist laid away in it (in the order to lay them away); ``None`` if this draw fails."""
    v = view.variant
    p = view.player
    pack = list(deck(v.deck_size))
    if view.knocked is None:
        # Before the cut nobody has seen a card.
        rng.shuffle(pack)
        return pack, []
    seats, talon = table_layout(v, view.dealer, view.knocked)
    played = _played(view)
    forced = _forced(view, played, rng)
    if forced is None:
        return None
    sample_view = view
    if forced:
        known = tuple(k | forced.get(s, frozenset()) for s, k in enumerate(view.known))
        sample_view = dataclasses.replace(view, known=known)
    try:
        hands = sample_table_world(sample_view, rng, constraints(view), tries=4)
    except ValueError:
        return None
    seen = set(own.fixed.values())
    assigned = {c for h in hands.values() for c in h}
    rest = [c for c in pack if c not in assigned and c not in seen and c not in view.played() and c not in view.hand]
    rest = [c for c in rest if c not in view.discarded]
    rng.shuffle(rest)
    out: list[Card | None] = [None] * len(pack)
    for i, c in own.fixed.items():
        out[i] = c
    mine_open = [i for i in seats[p] if i not in own.fixed]
    for i in mine_open:
        out[i] = rest.pop()
    q = view.declarer
    talon_taken = bool(talon) and q is not None and view.talon_size == 0
    discards: list[Card] = []
    if talon and not (talon_taken and q == p):
        if talon_taken and q is not None:
            # Another soloist took the talon and laid two cards away: those are what is left.
            discards = rest[: len(talon)]
            del rest[: len(talon)]
            pool = list(hands[q]) + played[q] + discards
            keep = set(forced.get(q, frozenset()))
            if view.turned_card is not None and q == view.vorhand:
                keep.add(view.turned_card)
            movable = [c for c in pool if c not in keep]
            rng.shuffle(movable)
            if len(movable) < len(talon):
                return None
            for i, c in zip(talon, movable, strict=False):
                out[i] = c
            hands[q] = [c for c in pool if c not in movable[: len(talon)]]
            played[q] = []
        else:
            for i in talon:
                out[i] = rest.pop()
    if rest:  # pragma: no cover - the view's counts add up (sample_world checks them)
        return None
    for s in range(v.players):
        if s == p:
            continue
        arranged = _arrange(list(hands[s]) + played[s], s, view, rng)
        if arranged is None or len(arranged) != len(seats[s]):
            return None
        for i, c in zip(seats[s], arranged, strict=True):
            out[i] = c
    if any(c is None for c in out):  # pragma: no cover - every position is filled above
        return None
    rng.shuffle(discards)
    return [c for c in out if c is not None], discards


def _replay(view: TableView, pack: list[Card], actions: Sequence[Action]) -> TableGame | None:
    table = TableGame.from_deck(view.variant, pack, view.dealer)
    try:
        for a in actions:
            table.apply(a)
    except IllegalActionError:
        return None
    return table


def resample_table(
    table: TableGame, seat: int, rng: SplitMix64, tries: int = TABLE_TRIES
) -> tuple[list[Card], list[Action]]:
    """A pack and the actions of a game that ``seat`` cannot tell from ``table``.

    The actions are ``table``'s, except another soloist's discards (face down) which are the new
    world's.  Raises :class:`WorldNotFoundError` after ``tries`` failed candidates.

    >>> t = TableGame.deal("bauernschnapsen", seed=3, dealer=0)
    >>> for token in "cut trump:d bid:normal pass pass pass pass pass".split():
    ...     _ = t.apply(token)
    >>> pack, actions = resample_table(t, 1, SplitMix64(5))
    >>> other = TableGame.replay(t.variant, pack, 0, actions)
    >>> other.view(1) == t.view(1), other.hands[1] == t.hands[1], other.hands[2] == t.hands[2]
    (True, True, False)
    """
    view = table.view(seat)
    own = _own_from_game(table, seat)
    for _ in range(tries):
        found = _candidate(view, own, rng)
        if found is None:
            continue
        pack, discards = found
        actions = list(table.actions)
        if discards:
            # Only the soloist lays cards away, and here that is another seat.
            slots = [i for i, a in enumerate(actions) if a.kind is ActionKind.DISCARD]
            for i, c in zip(slots, discards, strict=True):
                actions[i] = Action.discard(c)
        other = _replay(view, pack, actions)
        if other is not None and other.view(seat) == view:
            return pack, actions
    raise WorldNotFoundError(f"no world for seat {seat} in {tries} tries")


def table_from_view(view: TableView, rng: SplitMix64, tries: int = TABLE_TRIES) -> tuple[list[Card], list[Action]]:
    """A pack and actions whose game gives exactly ``view`` to its player (:func:`guided_actions`).

    >>> t = TableGame.deal("dreierschnapsen", seed=4, dealer=0)
    >>> for token in "cut trump:h bid:normal pass pass".split():
    ...     _ = t.apply(token)
    >>> pack, actions = table_from_view(t.view(0), SplitMix64(2))
    >>> TableGame.replay(t.variant, pack, 0, actions).view(0) == t.view(0)
    True
    """
    if view.result is not None:
        raise ValueError("a finished game has nothing left to decide")
    played = _played(view)
    for _ in range(tries):
        own = _own_from_view(view, played[view.player], rng)
        if own is None:
            continue
        found = _candidate(view, own, rng)
        if found is None:
            continue
        pack, discards = found
        actions = guided_actions(view, pack, discards)
        if actions is not None:
            return pack, actions
    raise WorldNotFoundError(f"no world for seat {view.player}'s view in {tries} tries")


def guided_actions(view: TableView, pack: Sequence[Card], discards: Sequence[Card]) -> list[Action] | None:
    """The actions that lead from the deal of ``pack`` to ``view``, read off the view
    (``discards``: another soloist's, which the view does not show); ``None`` if the pack does not fit.

    The view keeps the cut, the trump call, the bidding, the doubles said and every card played;
    a pass in the doubling, taking up the talon and a marriage follow from them.  At every step the
    table says how far it has come (bids made, doubles said, cards played), which the view continues.
    """
    table = TableGame.from_deck(view.variant, pack, view.dealer)
    p = view.player
    n = view.variant.players
    plays: list[tuple[int, Card]] = []
    for t in view.tricks:
        plays += zip(trick_seats(t.leader, len(t.cards), view.active, n), t.cards, strict=True)
    plays += view.trick
    actions: list[Action] = []
    # Every action moves the game on, and no game is longer than its pack, bids and doubles allow.
    for _ in range(len(pack) + len(view.bids) + 4 * n + 8):
        if table.view(p) == view:
            return actions
        if table.is_over:
            return None
        action = _next_action(table, view, plays, discards)
        if action is None:
            return None
        try:
            table.apply(action)
        except IllegalActionError:
            return None
        actions.append(action)
    return None


def _next_action(
    table: TableGame, view: TableView, plays: list[tuple[int, Card]], discards: Sequence[Card]
) -> Action | None:
    phase, seat = table.phase, table.to_move
    bid = view.bids[len(table.bids)] if len(table.bids) < len(view.bids) else None
    if phase is Phase.CUT:
        return None if view.knocked is None else (Action.knock() if view.knocked else Action.cut())
    if phase is Phase.TRUMP:
        if view.trump is None:
            return None
        return Action.turn_trump() if view.turned_card is not None else Action.call_trump(view.trump)
    if phase is Phase.BIDDING:
        return bid[1] if bid is not None and bid[0] == seat else None
    if phase is Phase.TALON:
        legal = table.legal_actions()
        if Action.take_talon() in legal:
            return Action.take_talon() if view.talon_size == 0 else Action.skip_talon()
        if legal and legal[0].kind is ActionKind.DISCARD:
            source = view.discarded if seat == view.player else discards
            done = len(table.discarded)
            return Action.discard(source[done]) if done < len(source) else None
        # The raise after the talon: a bid the view shows, else a pass.
        return bid[1] if bid is not None and bid[0] == seat else Action.pass_()
    if phase is Phase.DOUBLING:
        done = len(table.doubles)
        double = view.doubles[done] if done < len(view.doubles) else None
        return Action.double(double[1]) if double is not None and double[0] == seat else Action.pass_()
    if phase is Phase.PLAY:
        done = sum(len(t.cards) for t in table.tricks) + len(table.trick)
        if done >= len(plays) or plays[done][0] != seat:
            return None
        card = plays[done][1]
        shown = len(table.marriages)
        if not table.trick and shown < len(view.marriages) and view.marriages[shown] == (seat, card.suit):
            marriage = Action.marriage(card)
            if card.rank in (Rank.KING, Rank.OBER) and table.can_apply(marriage):
                return marriage
        return Action.play(card)
    return None
