"""The ``search`` bot for Bauernschnapsen and Dreierschnapsen: sampled worlds, each solved exactly.

In the card play the bot deals the cards it cannot see to the other seats in
many ways that agree with everything its view shows (a *world*), solves each
world with the exact solver (:mod:`bummerl.solver.table`) and plays the action
with the best average value — perfect-information Monte Carlo, as the
two-player ``search`` bot does.  Before the card play (cut, trump call,
bidding, Kontra, the talon) it decides like the ``heuristic`` bot.

>>> from bummerl.bots import make_bot
>>> from bummerl.table_game import TableGame
>>> t = TableGame.deal("bauernschnapsen", seed=9)
>>> bots = [TableSearchBot(seed=1, worlds=4)] + [make_bot("heuristic", s, t.variant) for s in range(1, 4)]
>>> while not t.is_over:
...     _ = t.apply(bots[t.to_move].choose(t.view(t.to_move)))
>>> t.result is not None
True

A world respects what the play has proven (:func:`constraints`): a player who
did not follow suit has none of it (Farbzwang); one who did not beat the
winning card of the led suit has no higher card of it (Stichzwang); one who was
void and did not trump has no trump; one who did not over-trump has no higher
trump.  Cards shown to everybody (a marriage's other card, the turned trump
card) stay with their owner; the cards a Dreierschnapsen soloist laid away,
the talon left lying and the hand of a partner who sits out are unknown and
take part in the dealing like any hidden card.  The bot never looks at a
hidden card: it reads only its :class:`~bummerl.view.TableView`.

Sampling is seeded, so a bot made with the same seed plays the same game.
"""

from __future__ import annotations

import time
from collections.abc import Iterator

from bummerl.actions import Action, ActionKind
from bummerl.bots.table_bots import TableHeuristicBot
from bummerl.cards import Card, deck
from bummerl.rng import SplitMix64
from bummerl.solver.table import PlayState, TableSolver
from bummerl.table_game import Phase
from bummerl.tricks import beats, trick_winner
from bummerl.variants.bauernschnapsen import Contract, Goal
from bummerl.view import TableView

__all__ = ["BID_CONFIDENCE", "DEFAULT_SECONDS", "DEFAULT_WORLDS", "TableSearchBot", "constraints", "sample_world"]

#: Worlds solved per decision of the card play.
DEFAULT_WORLDS = 16
#: Time cap per decision, checked after each world (at least :data:`MIN_WORLDS`
#: are solved).  The table solver is pure Python: a world of a Dreierschnapsen
#: first trick can take 0.3-1 s, so 16 uncapped worlds took up to 15 s on a
#: loaded machine — too long for a player waiting at the web table.  Later
#: tricks solve in milliseconds and never reach the cap (bench/table_solver.py).
DEFAULT_SECONDS = 2.0
#: Worlds solved before the time cap may stop a decision.
MIN_WORLDS = 2
#: The share of won worlds at which ``bidding="sampled"`` bids a special contract.
BID_CONFIDENCE = 0.8


def constraints(view: TableView) -> dict[int, frozenset[Card]]:
    """Cards each other seat cannot hold, proven by the follow rules in the tricks played.

    >>> from bummerl.cards import card_order
    >>> from bummerl.table_game import TableGame
    >>> t = TableGame.deal("bauernschnapsen", seed=3, dealer=0)
    >>> for token in "cut trump:d bid:normal pass pass pass pass pass Qs Ts Jc As".split():
    ...     _ = t.apply(token)
    >>> " ".join(c.code for c in sorted(constraints(t.view(1))[3], key=card_order))  # seat 3 threw Jc on spades
    'Jd Qd Kd Td Ad Js Qs Ks Ts As'
    >>> constraints(t.view(1))[0]  # seat 0 beat the Ts: nothing proven
    frozenset()
    """
    v = view.variant
    contract = v.contract(view.contract) if view.contract is not None else None
    trump = view.trump if contract is not None and contract.trump else None
    order = contract.order if contract is not None else None
    pack = deck(v.deck_size)
    out: dict[int, set[Card]] = {s: set() for s in range(v.players) if s != view.player}
    played = [t.cards for t in view.tricks]
    seats_of: list[list[int]] = []
    for t in view.tricks:
        seats_of.append(_seats(view, t.leader, len(t.cards)))
    if view.trick:
        played.append(tuple(c for _, c in view.trick))
        seats_of.append([s for s, _ in view.trick])
    for cards, seats in zip(played, seats_of, strict=True):
        led = cards[0].suit
        for i in range(1, len(cards)):
            seat, card = seats[i], cards[i]
            if seat == view.player:
                continue
            win = cards[trick_winner(cards[:i], trump, order)]
            forbidden = out[seat]
            if card.suit != led:
                # Farbzwang: void in the led suit.
                forbidden.update(c for c in pack if c.suit == led)
                if trump is not None and card.suit != trump:
                    # Trumpfzwang: no trump either.
                    forbidden.update(c for c in pack if c.suit == trump)
                elif trump is not None and win.suit == trump and not beats(card, win, trump, order):
                    # Did not over-trump: no higher trump.
                    forbidden.update(c for c in pack if c.suit == trump and beats(c, win, trump, order))
            elif win.suit == led and not beats(card, win, trump, order):
                # Stichzwang: no card of the led suit above the winning card.
                forbidden.update(c for c in pack if c.suit == led and beats(c, win, trump, order))
    return {s: frozenset(f) for s, f in out.items()}


def _seats(view: TableView, leader: int, count: int) -> list[int]:
    """The seats that played a trick of ``count`` cards led by ``leader``, in order."""
    n = view.variant.players
    seats = [leader]
    s = leader
    while len(seats) < count:
        s = (s + 1) % n
        if s in view.active:
            seats.append(s)
    return seats


def sample_world(
    view: TableView, rng: SplitMix64, forbidden: dict[int, frozenset[Card]] | None = None, tries: int = 50
) -> dict[int, list[Card]]:
    """Deal the cards ``view`` cannot see to the other seats, consistently with the view.

    Each other seat gets its known cards and as many hidden cards as it holds;
    the rest (the talon, cards laid away) is left out.  Cards a seat cannot
    hold (:func:`constraints`) never go there.  The most constrained card is
    placed first, each into a seat chosen in proportion to the room left, so
    worlds come out close to uniform.  Raises :class:`ValueError` if no
    consistent world turns up in ``tries`` attempts (which means the view is
    contradictory).
    """
    if forbidden is None:
        forbidden = constraints(view)
    n = view.variant.players
    others = [s for s in range(n) if s != view.player]
    base = {s: list(view.known[s]) for s in others}
    room = {s: view.hand_sizes[s] - len(base[s]) for s in others}
    unseen = sorted(view.unseen(), key=lambda c: c.index)
    # The rest: talon left lying, cards laid away by another: anything may be there.
    rest = len(unseen) - sum(room.values())
    if rest < 0:
        raise ValueError("the view shows fewer hidden cards than the other hands hold")
    allowed = {c: [s for s in others if c not in forbidden.get(s, frozenset())] for c in unseen}
    for _ in range(tries):
        left = dict(room)
        left_rest = rest
        hands = {s: list(base[s]) for s in others}
        order = unseen[:]
        rng.shuffle(order)
        order.sort(key=lambda c: len(allowed[c]))
        ok = True
        for c in order:
            choices = [s for s in allowed[c] if left[s] > 0]
            weights = [left[s] for s in choices]
            total = sum(weights) + left_rest
            if total == 0:
                ok = False
                break
            pick = rng.below(total)
            for s, w in zip(choices, weights, strict=True):
                if pick < w:
                    hands[s].append(c)
                    left[s] -= 1
                    break
                pick -= w
            else:
                left_rest -= 1
        if ok:
            return hands
    raise ValueError(f"no world consistent with seat {view.player}'s view in {tries} attempts")


class TableSearchBot:
    """Perfect-information Monte Carlo over sampled worlds for the card play.

    With ``bidding="sampled"`` (the default) it also bids the special contracts
    (Bettler, Gang, Zehnerloch, Schnapser, ...) whose success it estimates in
    sampled worlds at :data:`BID_CONFIDENCE` or more (:meth:`contract_success`),
    the one worth most; ``bidding="heuristic"`` bids like the ``heuristic`` bot.
    The cut, the trump call, Kontra and the talon are always the heuristic's.
    """

    def __init__(
        self,
        seed: int = 0,
        worlds: int = DEFAULT_WORLDS,
        bidding: str = "sampled",
        seconds: float | None = DEFAULT_SECONDS,
    ) -> None:
        if worlds < 1:
            raise ValueError(f"worlds must be at least 1, not {worlds!r}")
        if seconds is not None and seconds <= 0:
            raise ValueError(f"seconds must be positive (or None for no cap), not {seconds!r}")
        if bidding not in ("heuristic", "sampled"):
            raise ValueError(f"bidding must be 'heuristic' or 'sampled', not {bidding!r}")
        self.name = "search"
        self.worlds = worlds
        self.bidding = bidding
        #: Time cap per decision (``None``: always solve :attr:`worlds` worlds).
        self.seconds = seconds
        self._rng = SplitMix64(seed)
        self._heuristic = TableHeuristicBot(seed)

    def scale_time(self, factor: float) -> None:
        """Think at most ``factor`` times as long per decision (a server sharing its cores under load)."""
        if self.seconds is not None:
            self.seconds *= factor

    def time_budget(self) -> float:
        """Seconds a decision may take (a search without a time cap counts as its default cap)."""
        return self.seconds if self.seconds is not None else DEFAULT_SECONDS

    def choose(self, view: TableView) -> Action:
        legal = view.legal_actions()
        if not legal:
            raise ValueError("no legal action: it is not this player's turn")
        if view.phase is Phase.BIDDING and self.bidding == "sampled":
            return self._bid(view, legal)
        if view.phase is not Phase.PLAY:
            return self._heuristic.choose(view)
        if len(legal) == 1:
            return legal[0]
        values = self.action_values(view)
        # Ties go to the first in the legal order (cards before marriages before "Genug").
        return max((a for a in legal if a in values), key=lambda a: values[a])

    def action_values(self, view: TableView) -> dict[Action, float]:
        """The average value of each action over up to :attr:`worlds` sampled worlds.

        Fewer worlds (at least ``MIN_WORLDS``) when :attr:`seconds` run out.
        """
        forbidden = constraints(view)
        totals: dict[Action, float] = {}
        solved = 0
        for _ in self._world_slots():
            hands = sample_world(view, self._rng, forbidden)
            solver = TableSolver(PlayState.from_view(view, hands), view.player)
            for action, value in solver.action_values().items():
                totals[action] = totals.get(action, 0.0) + value
            solved += 1
        return {a: v / solved for a, v in totals.items()}

    def _world_slots(self) -> Iterator[int]:
        """Count the worlds of one decision, stopping early when the time cap is spent."""
        start = time.perf_counter()
        for i in range(self.worlds):
            if i >= MIN_WORLDS and self.seconds is not None and time.perf_counter() - start > self.seconds:
                return
            yield i

    # ---------------------------------------------------------------- bidding
    def _bid(self, view: TableView, legal: list[Action]) -> Action:
        choice = self._heuristic.choose(view)
        v = view.variant
        if choice.kind is ActionKind.BID and v.contract(choice.contract or "").goal is Goal.CLAIM:
            return choice  # a claim is won by showing the cards
        best, best_value = choice, 0.0
        if choice.kind is ActionKind.BID and choice.contract != "normal":
            best_value = float(v.contract(choice.contract or "").points)
        for action in legal:
            if action.kind is not ActionKind.BID or action.contract is None:
                continue
            contract = v.contract(action.contract)
            if contract.goal in (Goal.SIXTY_SIX, Goal.CLAIM) or contract.points <= best_value:
                continue
            p = self.contract_success(view, contract)
            value = (2 * p - 1) * contract.points
            if p >= BID_CONFIDENCE and value > best_value:
                best, best_value = action, value
        return best

    def contract_success(self, view: TableView, contract: Contract) -> float:
        """The share of sampled worlds in which ``contract``, played by this seat, is won.

        The bidding view's own hand against the unseen cards dealt to the others; a
        Dreierschnapsen talon stays unseen (the estimate ignores taking it up), and
        doubling is not counted.
        """
        v = view.variant
        me = view.player
        partner = (me + 2) % 4 if v.players == 4 else None
        side = [0 if s in (me, partner) else 1 for s in range(v.players)]
        active = [s for s in range(v.players) if contract.partner_plays or s != partner]
        leader = view.vorhand if contract.lead == "vorhand" else me
        while leader not in active:
            leader = (leader + 1) % v.players
        won = solved = 0
        for _ in self._world_slots():
            solved += 1
            hands = sample_world(view, self._rng, {})
            all_hands = [view.hand if s == me else hands[s] for s in range(v.players)]
            state = PlayState(
                variant=v,
                contract=contract,
                trump=view.trump,
                declarer=me,
                vorhand=view.vorhand,
                active=active,
                side=side,
                hands=all_hands,
                trick=(),
                to_move=leader,
                tricks=(),
                marriages=(),
                doubling=0,
                bonus=0,
            )
            if TableSolver(state, me).value() > 0:
                won += 1
        return won / solved
