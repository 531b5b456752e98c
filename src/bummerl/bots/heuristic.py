"""``heuristic``: a rule-based player that uses only its :class:`~bummerl.view.PlayerView`.

The rules are the ones a careful club player follows, in this order:

* **Going out**: declare ("genug") as soon as the counted Augen reach 66, and
  never below.  Where the variant hides running totals (scharf) the bot counts
  its own tricks and marriages from ``view.tricks``, as a player may remember
  them; if it cannot know (a game set up from a position, without its history)
  it never declares.
* **Exchange** the trump Unter (9 in Sechsundsechzig, 7 in Schnorps) whenever
  allowed; **announce marriages**, 40 before 20, leading the Ober where the
  variant allows (the King is the stronger card to keep).
* **Close the talon** when its Augen, the marriages it still holds and the sure
  tricks it can run reach 66.
* **Leading** with the talon open: a low non-trump, keeping trumps and the
  halves of possible marriages; a card that surely wins and reaches 66 first.
  With the talon closed or exhausted: sure winners first (trumps first, to draw
  the opponent's), then marriages, then a low card.
* **Following** with the talon open: take an Ace or Ten cheaply (a higher card
  of the suit, else the lowest trump), take low cards with an Ace or Ten of the
  suit, take any trick that reaches 66; otherwise throw the lowest card.  With
  the talon closed or exhausted: win as cheaply as the follow rules allow, else
  throw the lowest card.

The bot is deterministic: ties are broken by the card order, and the seed is
accepted only for the common factory signature.

>>> from bummerl.game import Game
>>> bot = HeuristicBot()
>>> game = Game.deal("schnapsen", seed=3)
>>> while not game.is_over:
...     _ = game.apply(bot.choose(game.view(game.to_move)))
>>> game.result.winner in (0, 1)
True

It never looks at anything but the view, so it cannot cheat.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from bummerl.actions import Action, ActionKind
from bummerl.cards import Card, Rank, Suit, deck, marriage_value
from bummerl.rules.tricks import beats
from bummerl.view import PlayerView

__all__ = ["HeuristicBot", "counted_augen", "sure_winners"]

_KING, _OBER = Rank.KING, Rank.OBER


def counted_augen(view: PlayerView, player: int) -> int | None:
    """The Augen ``player`` has counted so far, as the view's player can know them.

    Uses ``view.augen`` where the variant shows totals; otherwise adds up the
    won tricks in ``view.tricks`` and the player's marriages (which count only
    once the player has won a trick, seeds/000: "wenn der Spieler aber stichlos
    bleibt, zählt die Ansage jedoch nicht").  ``None`` when the trick history is
    missing (a game set up from a position).

    >>> from bummerl.game import Game
    >>> game = Game.deal("scharf", seed=2)
    >>> counted_augen(game.view(0), 0)
    0
    """
    if view.augen is not None:
        return view.augen[player]
    won = view.tricks_won[player]
    if len(view.tricks) != view.tricks_won[0] + view.tricks_won[1]:
        return None
    total = sum(t.lead.augen + t.follow.augen for t in view.tricks if t.winner == player)
    if won:
        total += sum(marriage_value(suit, view.trump) for who, suit in view.marriages if who == player)
    return total


def possible_opponent_cards(view: PlayerView) -> frozenset[Card]:
    """Cards the opponent may hold now: the known ones and every unseen card."""
    return view.unseen() | view.opponent_known


def sure_winners(view: PlayerView, cards: Iterable[Card] | None = None) -> list[Card]:
    """Cards of the hand that win the trick when led, whatever the opponent holds.

    A card is sure when no card the opponent may hold is a higher card of its
    suit, and it is a trump or the opponent can hold no trump.  This holds with
    the talon open too (the opponent may trump anything, but not beat a card
    that nothing beats).

    >>> from bummerl.game import Game
    >>> game = Game.from_position("schnapsen 1 0 h AhKc/ThQc - - - -/KsJsQsTsAsJhKhQhAdTdKdQdJdAcTcJc -")
    >>> [c.code for c in sure_winners(game.view(0))]  # Kc could be trumped with Th
    ['Ah']
    """
    hand = view.hand if cards is None else list(cards)
    possible = possible_opponent_cards(view)
    trump = view.trump
    opponent_may_trump = any(c.suit == trump for c in possible)
    result = []
    for c in hand:
        if any(o.suit == c.suit and o.rank > c.rank for o in possible):
            continue
        if c.suit != trump and opponent_may_trump:
            continue
        result.append(c)
    return result


class HeuristicBot:
    """A sensible rule-based player (see the module docstring for its rules)."""

    def __init__(self, seed: int = 0) -> None:
        self.name = "heuristic"
        # Deterministic by construction; the seed is kept for the factory signature.
        self.seed = seed

    def choose(self, view: PlayerView) -> Action:
        """The action this bot takes in ``view`` (always one of ``view.legal_actions()``)."""
        legal = view.legal_actions()
        if not legal:
            raise ValueError("no legal action: it is not this player's turn")
        if view.lead is None:
            action = self._lead(view, legal)
        else:
            action = self._follow(view, legal)
        return action

    # ------------------------------------------------------------------ leading
    def _lead(self, view: PlayerView, legal: list[Action]) -> Action:
        me = view.player
        mine = counted_augen(view, me)
        trump = view.trump
        kinds = {a.kind for a in legal}
        has_trick = view.tricks_won[me] > 0
        if mine is not None and ActionKind.DECLARE in kinds:
            if mine >= view.variant.target and Action.declare() in legal:
                return Action.declare()
            # A marriage that reaches 66 ends the game before its card is played.
            for a in sorted(_declare_marriages(legal), key=lambda a: a.suit != trump):
                assert a.suit is not None
                if has_trick and mine + marriage_value(a.suit, trump) >= view.variant.target:
                    return a
        plays = [a.card for a in legal if a.kind is ActionKind.PLAY and a.card is not None]
        strict = view.closed_by is not None or view.talon_size == 0
        sure = sure_winners(view, plays)
        # A sure trick that reaches 66 wins the game at the next turn.
        if mine is not None and sure:
            best = max(sure, key=lambda c: (c.augen, c.index))
            if mine + _uncounted_marriages(view) + best.augen + _lowest_augen(view) >= view.variant.target:
                return Action.play(best)
        if ActionKind.EXCHANGE in kinds:
            return Action.exchange()
        marriages = [a for a in legal if a.kind is ActionKind.MARRIAGE]
        pairs = _marriage_cards(view)
        if marriages and not strict:
            return self._best_marriage(marriages, trump)
        if ActionKind.CLOSE in kinds and self._should_close(view, mine, plays):
            return Action.close()
        if strict:
            # Run the sure tricks (trumps first, to draw the opponent's), keeping
            # marriage cards for their announcement.
            runnable = [c for c in sure if c not in pairs or not marriages]
            if runnable:
                return Action.play(max(runnable, key=lambda c: (c.suit == trump, c.rank, -c.index)))
            if marriages:
                return self._best_marriage(marriages, trump)
        return Action.play(min(plays, key=lambda c: _keep_value(view, c, pairs)))

    @staticmethod
    def _best_marriage(marriages: list[Action], trump: Suit) -> Action:
        # 40 before 20; lead the Ober where allowed, the King is the better card.
        def key(a: Action) -> tuple[bool, bool, int]:
            assert a.card is not None
            return (a.card.suit != trump, a.card.rank != _OBER, a.card.index)

        return min(marriages, key=key)

    def _should_close(self, view: PlayerView, mine: int | None, plays: list[Card]) -> bool:
        """Close when counted Augen + marriages in hand + sure tricks reach 66."""
        if mine is None or view.tricks_won[view.player] == 0:
            return False
        estimate = mine
        v = view.variant
        if v.marriages and v.marriage_after_talon:
            estimate += sum(marriage_value(s, view.trump) for s in _marriage_suits(view.hand))
        # After closing, the opponent's cards of the sure suits must follow, so
        # each sure trick brings at least the cheapest card of the pack.
        floor = _lowest_augen(view)
        for c in _sure_sequence(view, plays):
            estimate += c.augen + floor
        return estimate >= v.target

    # ---------------------------------------------------------------- following
    def _follow(self, view: PlayerView, legal: list[Action]) -> Action:
        lead = view.lead
        assert lead is not None
        trump = view.trump
        cards = [a.card for a in legal if a.card is not None]
        pairs = _marriage_cards(view)
        winners = [c for c in cards if beats(c, lead, trump)]
        cheapest_winner = min(winners, key=lambda c: (c.augen, c.rank, c.index)) if winners else None
        mine = counted_augen(view, view.player)
        if cheapest_winner is not None and mine is not None:
            # Winning this trick reaches 66 (a first trick also makes marriages count).
            gain = lead.augen + cheapest_winner.augen + _uncounted_marriages(view)
            if mine + gain >= view.variant.target:
                return Action.play(cheapest_winner)
        strict = view.closed_by is not None or view.talon_size == 0
        if strict:
            if winners:
                return Action.play(min(winners, key=lambda c: (c in pairs, c.augen, c.rank, c.index)))
            return Action.play(min(cards, key=lambda c: _keep_value(view, c, pairs)))
        same_suit = [c for c in winners if c.suit == lead.suit and c not in pairs]
        if lead.augen >= 10:
            # An Ace or Ten is worth taking: with a higher card of the suit, else
            # with the cheapest trump that is not half of a marriage.
            if same_suit:
                return Action.play(min(same_suit, key=lambda c: c.rank))
            trumps = [c for c in winners if c.suit == trump and c not in pairs]
            if trumps and lead.suit != trump:
                return Action.play(min(trumps, key=lambda c: (c.augen, c.rank)))
        elif lead.suit != trump:
            # A low card taken with an Ace or Ten of its suit: 13-15 Augen.
            high = [c for c in same_suit if c.augen >= 10]
            if high:
                return Action.play(min(high, key=lambda c: c.rank))
        return Action.play(min(cards, key=lambda c: _keep_value(view, c, pairs)))


def _declare_marriages(legal: Sequence[Action]) -> list[Action]:
    return [a for a in legal if a.kind is ActionKind.DECLARE and a.suit is not None]


def _uncounted_marriages(view: PlayerView) -> int:
    """Augen of own marriages that start to count with the first trick won."""
    if view.tricks_won[view.player]:
        return 0
    return sum(marriage_value(s, view.trump) for who, s in view.marriages if who == view.player)


def _marriage_suits(hand: Iterable[Card]) -> list[Suit]:
    cards = set(hand)
    return [s for s in Suit if Card(s, _KING) in cards and Card(s, _OBER) in cards]


def _marriage_cards(view: PlayerView) -> set[Card]:
    """Kings and Obers in hand whose partner is in hand too (while marriages exist)."""
    if not view.variant.marriages:
        return set()
    return {Card(s, r) for s in _marriage_suits(view.hand) for r in (_KING, _OBER)}


def _lowest_augen(view: PlayerView) -> int:
    """The Augen of the cheapest card of the variant's pack (Unter 2, or 0 with Nines)."""
    return min(c.augen for c in deck(view.variant.deck_size))


def _sure_sequence(view: PlayerView, plays: list[Card]) -> list[Card]:
    """The cards that win one after another when led in a row, trumps first.

    Only the opponent's cards that may still be in play count against them, so
    a card becomes sure once the higher ones are played or in this hand.
    """
    sure = sure_winners(view, plays)
    possible = possible_opponent_cards(view)
    # Drawing the opponent's trumps with sure trumps can make side suits sure.
    trumps_left = [c for c in possible if c.suit == view.trump]
    my_sure_trumps = [c for c in sure if c.suit == view.trump]
    if trumps_left and len(my_sure_trumps) >= len(trumps_left):
        high_sides = []
        for c in plays:
            if c.suit != view.trump and not any(o.suit == c.suit and o.rank > c.rank for o in possible):
                high_sides.append(c)
        return my_sure_trumps + high_sides
    return sure


def _keep_value(view: PlayerView, card: Card, pairs: set[Card]) -> tuple[int, int, int]:
    """How much this card is worth keeping: lower means play it first."""
    value = card.augen
    if card.suit == view.trump:
        value += 20
    if card in pairs:
        value += 30
    elif card.rank in (_KING, _OBER) and view.variant.marriages and view.talon_size > 0:
        partner = Card(card.suit, _OBER if card.rank == _KING else _KING)
        if partner not in view.played and partner not in view.opponent_known:
            # The partner may still be drawn: keep the chance of a marriage.
            value += 4
    return (value, card.rank, card.index)
