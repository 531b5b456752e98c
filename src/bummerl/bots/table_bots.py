"""Bots for the three- and four-player games: ``heuristic`` (and, by
name, ``search`` from :mod:`bummerl.bots.table_search`).

A table bot has a ``name`` and ``choose(view) -> Action``; it sees only a
:class:`~bummerl.view.TableView`.  Make one by name and variant with
:func:`bummerl.bots.make_bot`, the one registry of every bot; randomness comes
from the seed.

>>> from bummerl.bots import make_bot
>>> from bummerl.table_game import TableGame
>>> t = TableGame.deal("bauernschnapsen", seed=9)
>>> bots = [make_bot("heuristic", seed=s, variant=t.variant) for s in range(4)]
>>> while not t.is_over:
...     _ = t.apply(bots[t.to_move].choose(t.view(t.to_move)))
>>> t.result is not None
True

The heuristic bot plays by simple rules a club player would name: it cuts,
calls its longest suit, bids a contract only when its cards make it safe (a
claim, a Gang or Zehnerloch of top cards, a Bettler of low cards, a Schnapser
with strong trumps) and otherwise plays the normal game; it says "Genug" as
soon as its side has 66, announces marriages, leads masters, takes tricks from
the other side as cheaply as it can and gives low cards to a partner's trick.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol, runtime_checkable

from bummerl.actions import Action, ActionKind
from bummerl.cards import Card, Rank, Suit, deck, marriage_value
from bummerl.rng import SplitMix64
from bummerl.rules.tricks import RankOrder, beats, trick_winner
from bummerl.variants.bauernschnapsen import ZEHNERLOCH_ORDER, Contract, Goal, Phase
from bummerl.view import TableView

__all__ = ["TableBot", "TableHeuristicBot", "discard_choice"]

_K = ActionKind
_NATURAL: tuple[int, ...] = tuple(range(8))


@runtime_checkable
class TableBot(Protocol):
    """The interface every table bot implements."""

    name: str

    def choose(self, view: TableView) -> Action:
        """A legal action for the player of ``view`` (whose turn it is)."""
        ...


def _strength(card: Card, order: RankOrder | None) -> int:
    return (order or _NATURAL)[card.rank]


def _masters(hand: Sequence[Card], out: set[Card], order: RankOrder | None) -> list[Card]:
    """Cards of ``hand`` that no card of ``out`` (still unplayed elsewhere) can beat in their suit."""
    return [c for c in hand if not any(o.suit == c.suit and _strength(o, order) > _strength(c, order) for o in out)]


class TableHeuristicBot:
    """Sensible bidding and card play by fixed rules (see the module docstring)."""

    def __init__(self, seed: int = 0) -> None:
        self.name = "heuristic"
        self._rng = SplitMix64(seed)

    def choose(self, view: TableView) -> Action:
        legal = view.legal_actions()
        if not legal:
            raise ValueError("no legal action: it is not this player's turn")
        phase = view.phase
        if phase is Phase.CUT:
            return Action.cut()
        if phase is Phase.TRUMP:
            return self._call_trump(view, legal)
        if phase is Phase.BIDDING:
            return self._bid(view, legal)
        if phase is Phase.DOUBLING:
            return self._double(view, legal)
        if phase is Phase.TALON:
            return self._discard(view, legal)
        return self._play(view, legal)

    # ------------------------------------------------------------- before play
    def _call_trump(self, view: TableView, legal: list[Action]) -> Action:
        calls = [a for a in legal if a.kind is _K.CALL_TRUMP]

        def worth(a: Action) -> tuple[int, int]:
            cards = [c for c in view.hand if c.suit == a.suit]
            return (len(cards), sum(c.augen for c in cards))

        best = max(calls, key=worth)
        count, augen = worth(best)
        # Three different suits without an Ace or Ten: let the next card decide.
        if count == 1 and augen < 10:
            return Action.turn_trump()
        return best

    def _bid(self, view: TableView, legal: list[Action]) -> Action:
        bids = {a.contract: a for a in legal if a.kind is _K.BID}
        v = view.variant
        hand = list(view.hand)
        out = set(deck(v.deck_size)) - set(hand)
        wanted: list[str] = []
        for name in ("herrenschnapser", "farbenring"):
            if name in bids and (v.teams or _sixth_card_safe(hand, view.trump)):
                wanted.append(name)
        if "zehnerloch" in bids and len(_masters(hand, out, ZEHNERLOCH_ORDER)) == len(hand):
            wanted.append("zehnerloch")
        if "gang" in bids and len(_masters(hand, out, None)) == len(hand):
            wanted.append("gang")
        bettler_ok = all(c.rank <= Rank.OBER for c in hand) if v.teams else False
        for name in ("assen-bettler", "bettler"):
            if name in bids and bettler_ok:
                wanted.append(name)
        trump = view.trump
        trumps = [c for c in hand if c.suit == trump]
        top_trumps = {c.rank for c in trumps} >= {Rank.ACE, Rank.TEN}
        aces = sum(1 for c in hand if c.rank == Rank.ACE)
        trump_marriage = {c.rank for c in trumps} >= {Rank.KING, Rank.OBER}
        if "schnapser" in bids and top_trumps and len(trumps) >= 3 and (aces >= 3 or trump_marriage):
            wanted.append("schnapser")
        if wanted:
            # The highest of the safe contracts still open to this player.
            return max((bids[n] for n in wanted), key=lambda a: v.contract_rank(a.contract or ""))
        if "normal" in bids:
            return bids["normal"]
        return Action.pass_()

    def _double(self, view: TableView, legal: list[Action]) -> Action:
        if view.side[view.player] == 1 and view.contract == "normal" and view.doubling == 0:
            trumps = [c for c in view.hand if c.suit == view.trump]
            if len(trumps) >= 3 and {c.rank for c in trumps} >= {Rank.ACE, Rank.TEN}:
                return legal[0]
        return Action.pass_()

    def _discard(self, view: TableView, legal: list[Action]) -> Action:
        kinds = {a.kind for a in legal}
        if _K.TAKE_TALON in kinds:
            return Action.take_talon()
        if _K.PASS in kinds:  # a raise after the talon (option raise_after_talon)
            choice = self._bid(view, legal)
            return choice if choice in legal else Action.pass_()
        contract = view.variant.contract(view.contract or "normal")
        return Action.discard(discard_choice(view.hand, contract, view.trump))

    # -------------------------------------------------------------------- play
    def _play(self, view: TableView, legal: list[Action]) -> Action:
        v = view.variant
        contract = v.contract(view.contract or "normal")
        me = view.player
        my_side = view.side[me]
        order = contract.order
        trump = view.trump if contract.trump else None
        kinds = {a.kind for a in legal}
        if _K.DECLARE in kinds:
            side_has_trick = any(view.tricks_won[s] for s in range(v.players) if view.side[s] == my_side)
            if Action.declare() in legal and view.augen[my_side] >= 66:
                return Action.declare()
            for a in legal:
                if a.kind is _K.DECLARE and a.suit is not None and side_has_trick:
                    value = marriage_value(a.suit, view.trump)
                    if view.augen[my_side] + value >= 66:
                        return a
        plays = [a.card for a in legal if a.kind is _K.PLAY and a.card is not None]
        if contract.goal is Goal.NO_TRICK and me == view.declarer:
            return self._play_bettler(view, plays, order)
        if not view.trick:
            marriages = [a for a in legal if a.kind is _K.MARRIAGE and a.card is not None]
            if marriages:
                # Trump marriage first; lead the King.
                return max(marriages, key=lambda a: (a.suit == view.trump, a.card.rank if a.card else 0))
            return Action.play(self._lead(view, plays, trump, order))
        cards = [c for _, c in view.trick]
        win_i = trick_winner(cards, trump, order)
        winning_seat = view.trick[win_i][0]
        winning = cards[win_i]
        beating = [c for c in plays if beats(c, winning, trump, order)]
        partner_winning = view.side[winning_seat] == my_side and contract.goal is not Goal.NO_TRICK
        if contract.goal in (Goal.ALL_TRICKS, Goal.FIRST_TRICKS_66) and my_side == 0 and me != view.declarer:
            # The declarer must take every trick, even from the partner.
            partner_winning = False
            beating = []
        if partner_winning or not beating:
            return Action.play(min(plays, key=lambda c: (c.augen, _strength(c, order))))
        return Action.play(min(beating, key=lambda c: (c.suit == trump, _strength(c, order))))

    def _lead(self, view: TableView, plays: list[Card], trump: Suit | None, order: RankOrder | None) -> Card:
        out = set(view.unseen())
        masters = _masters(plays, out, order)
        non_trump_masters = [c for c in masters if c.suit != trump]
        if non_trump_masters:
            return max(non_trump_masters, key=lambda c: c.augen)
        if masters:
            return max(masters, key=lambda c: _strength(c, order))
        non_trump = [c for c in plays if c.suit != trump] or plays
        return min(non_trump, key=lambda c: (c.augen, _strength(c, order)))

    def _play_bettler(self, view: TableView, plays: list[Card], order: RankOrder | None) -> Action:
        if not view.trick:
            return Action.play(min(plays, key=lambda c: _strength(c, order)))
        cards = [c for _, c in view.trick]
        winning = cards[trick_winner(cards, None, order)]
        under = [c for c in plays if not beats(c, winning, None, order)]
        if under:
            # The highest card that still stays under the trick.
            return Action.play(max(under, key=lambda c: _strength(c, order)))
        return Action.play(min(plays, key=lambda c: _strength(c, order)))


def discard_choice(hand: Sequence[Card], contract: Contract, trump: Suit | None) -> Card:
    """The card the heuristic lays away from ``hand`` (Dreierschnapsen soloist, after taking the talon).

    No-trick contracts: the card most likely to take a trick; otherwise keep
    trumps and high cards and shed a low card of a short suit.  The search bot
    uses it as its model of a soloist's discards (:mod:`bummerl.bots.table_search`).

    >>> from bummerl.variants import find_table_variant
    >>> v = find_table_variant("dreierschnapsen")
    >>> hand = [Card.parse(c) for c in "Ah Th Kh Js Qd Ac Tc Kc".split()]
    >>> discard_choice(hand, v.contract("normal"), Suit.HEARTS).code
    'Js'
    """
    if contract.goal is Goal.NO_TRICK:
        # Lay away the cards most likely to take a trick.
        return max(hand, key=lambda c: _strength(c, contract.order))
    played_trump = trump if contract.trump else None
    counts = {s: sum(1 for c in hand if c.suit == s) for s in Suit}
    # Keep trumps and high cards; shed low cards of short suits.
    return min(
        hand,
        key=lambda c: (c.suit == played_trump, _strength(c, contract.order) >= 6, counts[c.suit], c.augen),
    )


def _sixth_card_safe(hand: Sequence[Card], trump: Suit | None) -> bool:
    """Dreierschnapsen Farbenring/Herrenschnapser: the card beside the full suit is an Ace
    (seeds/003: "nicht automatisch gewonnen, es sei denn, man hat als sechste Karte ein Ass")."""
    for s in Suit:
        if sum(1 for c in hand if c.suit == s) == 5:
            return all(c.rank == Rank.ACE for c in hand if c.suit != s)
    return False
