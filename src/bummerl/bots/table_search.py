"""The ``search`` bot for Bauernschnapsen and Dreierschnapsen: sampled worlds, each solved exactly.

In the card play the bot deals the cards it cannot see to the other seats in
many ways that agree with everything its view shows (a *world*), solves each
world with the exact solver (:mod:`bummerl.solver.table`) and plays the action
with the best average value — perfect-information Monte Carlo, as the
two-player ``search`` bot does.  It bids and says Kontra (Rekontra, Subkontra)
the same way: the contract is played out in sampled worlds (see
:class:`TableSearchBot`).  The cut, the trump call and the talon are the
``heuristic`` bot's.

>>> from bummerl.bots import make_bot
>>> from bummerl.table_game import TableGame
>>> t = TableGame.deal("bauernschnapsen", seed=9)
>>> bots = [TableSearchBot(seed=1, worlds=4)] + [make_bot("heuristic", s, t.variant) for s in range(1, 4)]
>>> while not t.is_over:
...     _ = t.apply(bots[t.to_move].choose(t.view(t.to_move)))
>>> t.result is not None
True

Every decision has a time limit (:mod:`bummerl.bots.deadline`): worlds are
solved while the soft cap lasts (1.5 s by default) and a world still running at
the hard deadline (2.5 s) is dropped, so the bot answers in time on a loaded
machine too (docs/bots.md, "Table games under a time cap").

A world respects what the play has proven (:func:`constraints`): a player who
did not follow suit has none of it (Farbzwang); one who did not beat the
winning card of the led suit has no higher card of it (Stichzwang); one who was
void and did not trump has no trump; one who did not over-trump has no higher
trump.  Cards shown to everybody (a marriage's other card, the turned trump
card) stay with their owner; the cards a Dreierschnapsen soloist laid away,
the talon left lying and the hand of a partner who sits out are unknown and
take part in the dealing like any hidden card.  The bot never looks at a
hidden card: it reads only its :class:`~bummerl.view.TableView`.

Sampling is seeded, so a bot made with the same seed plays the same game
(as long as the time caps do not cut it short: ``seconds=None`` for exact repeats).
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Callable, Iterable, Mapping, Sequence

from bummerl.actions import Action, ActionKind
from bummerl.bots.deadline import Deadline, DeadlineExceeded, sum_over_worlds
from bummerl.bots.evaluation import Evaluation
from bummerl.bots.table_bots import TableHeuristicBot, discard_choice
from bummerl.cards import Card, Suit, deck
from bummerl.rng import SplitMix64
from bummerl.rules.tricks import beats, trick_winner
from bummerl.solver.table import PlayState, TableSolver, _action
from bummerl.variants.bauernschnapsen import Contract, Goal, Phase
from bummerl.view import TableView

__all__ = [
    "BID_CONFIDENCE",
    "DEFAULT_HARD_SECONDS",
    "DEFAULT_SECONDS",
    "DEFAULT_WORLDS",
    "DOUBLE_CONFIDENCE",
    "REDOUBLE_CONFIDENCE",
    "ContractEstimate",
    "TableSearchBot",
    "TimedSolver",
    "constraints",
    "sample_world",
]

#: Worlds solved at most per decision.
DEFAULT_WORLDS = 16
#: Soft time cap per decision: no world is started after it (once :data:`MIN_WORLDS`
#: are started).  The table solver is pure Python: a world of a Dreierschnapsen first
#: trick takes 0.05-0.6 s of CPU, and several times that in wall time on a loaded
#: machine (15 s for 16 worlds before any cap); later tricks solve in milliseconds.
DEFAULT_SECONDS = 1.5
#: Hard deadline per decision: a world still being solved then is dropped
#: (:class:`TimedSolver` checks the clock), so a decision never takes much longer.
DEFAULT_HARD_SECONDS = 2.5
#: Worlds started before the soft cap may stop a decision (the hard deadline still may).
MIN_WORLDS = 2
#: The share of won worlds at which ``bidding="sampled"`` bids a special contract.  Measured against
#: the heuristic on the same 400 Bauernschnapsen deals (docs/bots.md, "The bidding threshold"): 0.7 and
#: 0.6 beat the heuristic by more than 0.8 did; 0.6 ships (a contract won with p pays (2p - 1) times its
#: points, and the declarer's sampled share is an estimate, so the margin above 0.5 stays).
BID_CONFIDENCE = 0.6
#: A special contract is bid only when estimated on at least this many worlds.
MIN_BID_WORLDS = 6
#: The share of worlds the own side must win before the bot says the next doubling step.
DOUBLE_CONFIDENCE = 0.75
#: The share needed for Rekontra and Subkontra: the other side's doubling showed a strength the
#: uniform worlds do not see.
REDOUBLE_CONFIDENCE = 0.9
#: Worlds needed before the bot doubles at all.
MIN_DOUBLE_WORLDS = 6
#: :class:`TimedSolver` looks at the clock after this many completed tricks.
CHECK_EVERY = 64


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


class TimedSolver(TableSolver):
    """:class:`~bummerl.solver.table.TableSolver` that gives up at a :class:`~bummerl.bots.deadline.Deadline`,
    with null-window values.

    Every :data:`CHECK_EVERY` completed tricks it checks the deadline and
    raises :class:`~bummerl.bots.deadline.DeadlineExceeded` once the hard
    deadline has passed.  :meth:`action_values` finds each action's exact value
    by bisection with null windows inside the contract's value range (a special
    contract has two values, won or lost: one probe; the normal game at most
    3 game points each way), sharing the transposition table: about 15% fewer
    nodes than one full-window search per action on first-trick worlds
    (``tests/test_table_search_deadline.py`` checks the values are the same).

    >>> from bummerl.table_game import TableGame
    >>> t = TableGame.deal("bauernschnapsen", seed=3, dealer=0)
    >>> for token in ["cut", "trump:d", "bid:normal", "pass", "pass", "pass", "pass", "pass"]:
    ...     _ = t.apply(token)
    >>> timed = TimedSolver(PlayState.from_table(t), None, Deadline(None, None))
    >>> timed.action_values() == TableSolver(PlayState.from_table(t)).action_values()
    True
    """

    def __init__(self, state: PlayState, seat: int | None, deadline: Deadline | None) -> None:
        super().__init__(state, seat)
        self._deadline = deadline
        self._tricks_done = 0
        contract_points = 3 if self._goal is Goal.SIXTY_SIX else self._points
        #: The largest value either side can get (game points, doubling and talon point included).
        self.bound = (contract_points + state.bonus) * state.mult

    def _complete_trick(self, alpha: int, beta: int) -> int:
        self._tricks_done += 1
        if self._deadline is not None and not self._tricks_done % CHECK_EVERY:
            self._deadline.check()
        return super()._complete_trick(alpha, beta)

    def value(self) -> int:
        """The exact value for the side of :attr:`seat` (bisection inside :attr:`bound`)."""
        return self._bisect(self._search)

    def wins(self) -> bool:
        """Whether the side of :attr:`seat` wins (one null-window search)."""
        return self._search(0, 1) > 0

    def action_values(self) -> dict[Action, int]:
        """The exact value of every legal action of the player to move (as the parent's)."""
        out: dict[Action, int] = {}
        for move in self._moves():

            def probe(alpha: int, beta: int, move: int = move) -> int:
                return self._after(move, alpha, beta)

            out[_action(move)] = self._bisect(probe)
        return out

    def _bisect(self, probe: Callable[[int, int], int]) -> int:
        """The exact value of ``probe`` (a fail-soft search of a window) by null-window tests."""
        lo, hi = -self.bound, self.bound
        while lo < hi:
            mid = (lo + hi) // 2
            v = probe(mid, mid + 1)
            if v > mid:
                lo = max(mid + 1, min(v, hi))
            else:
                hi = min(mid, max(v, lo))
        return lo


@dataclasses.dataclass(frozen=True)
class ContractEstimate:
    """The declarer's side's results over sampled worlds for one contract (bidding, Kontra)."""

    contract: str
    #: Worlds solved, and how many of them the side of the seat asked for won.
    worlds: int
    won: int
    #: Mean value for that side at the current doubling step (game points; ``nan`` if not computed).
    mean: float

    @property
    def share(self) -> float:
        """The share of worlds won (0 when none was solved)."""
        return self.won / self.worlds if self.worlds else 0.0


class TableSearchBot:
    """Perfect-information Monte Carlo over sampled worlds: card play, bidding and Kontra.

    * **Card play**: the mean value of every action over sampled worlds, each
      solved exactly (:class:`TimedSolver`); the best mean is played.
    * **Bidding** (``bidding="sampled"``, the default): the special contracts
      (Bettler, Gang, Zehnerloch, Schnapser, ...) it may bid are played out in
      the same sampled worlds with itself as declarer (in Dreierschnapsen after
      taking up the world's talon and laying two away); it bids the one worth
      most among those won in at least ``bid_confidence`` (:data:`BID_CONFIDENCE`) of at least
      :data:`MIN_BID_WORLDS` worlds (:meth:`contract_estimates`), else what the
      ``heuristic`` bot bids.  ``bidding="heuristic"`` bids like the heuristic.
    * **Kontra, Rekontra, Subkontra** (``doubling="search"``, the default) on
      the normal game: the contract is played out in sampled worlds
      (:meth:`doubling_estimate`); the next step is said when the own side wins
      at least :data:`DOUBLE_CONFIDENCE` (Kontra) or :data:`REDOUBLE_CONFIDENCE`
      (Rekontra, Subkontra) of at least :data:`MIN_DOUBLE_WORLDS` worlds and its
      mean value is positive (doubling doubles that mean).  A special contract
      is never doubled: it was bid by choice, and uniform worlds cannot see how
      strong that makes the declarer's hand.  ``doubling="heuristic"`` doubles
      like the heuristic.
    * The cut, the trump call and the talon are the heuristic's.

    **Time.** Every decision is anytime: worlds are solved one after another
    while the soft cap ``seconds`` lasts (at least :data:`MIN_WORLDS` are
    started); a world still running at the hard deadline ``hard_seconds`` is
    dropped (the solver checks the clock as it goes), and the answer comes from
    the finished worlds — or, when none finished, from the heuristic.  So a
    decision takes at most about ``hard_seconds`` on any machine load.
    ``seconds=None`` removes both caps (all ``worlds`` are solved).
    """

    def __init__(
        self,
        seed: int = 0,
        worlds: int = DEFAULT_WORLDS,
        bidding: str = "sampled",
        seconds: float | None = DEFAULT_SECONDS,
        hard_seconds: float = DEFAULT_HARD_SECONDS,
        doubling: str = "search",
        clock: Callable[[], float] = time.perf_counter,
        bid_confidence: float = BID_CONFIDENCE,
    ) -> None:
        if worlds < 1:
            raise ValueError(f"worlds must be at least 1, not {worlds!r}")
        if seconds is not None and seconds <= 0:
            raise ValueError(f"seconds must be positive (or None for no cap), not {seconds!r}")
        if hard_seconds <= 0:
            raise ValueError(f"hard_seconds must be positive, not {hard_seconds!r}")
        if not 0.5 <= bid_confidence <= 1:
            raise ValueError(f"bid_confidence must be a share from 0.5 to 1, not {bid_confidence!r}")
        if bidding not in ("heuristic", "sampled"):
            raise ValueError(f"bidding must be 'heuristic' or 'sampled', not {bidding!r}")
        if doubling not in ("heuristic", "search"):
            raise ValueError(f"doubling must be 'heuristic' or 'search', not {doubling!r}")
        self.name = "search"
        self.worlds = worlds
        self.bidding = bidding
        self.doubling = doubling
        #: The share of won worlds at which a special contract is bid (``bidding="sampled"``).
        self.bid_confidence = bid_confidence
        #: Soft time cap per decision: no world is started after it (``None``: no caps at all).
        self.seconds = seconds
        #: Hard deadline per decision: a world still running then is dropped (never below :attr:`seconds`).
        self.hard_seconds = hard_seconds
        #: The clock of the time limits (a fake one in tests).
        self.clock = clock
        self._rng = SplitMix64(seed)
        self._heuristic = TableHeuristicBot(seed)

    def scale_time(self, factor: float) -> None:
        """Think at most ``factor`` times as long per decision (a server sharing its cores under load)."""
        if self.seconds is not None:
            self.seconds *= factor
        self.hard_seconds *= factor

    def time_budget(self) -> float:
        """Seconds a decision may take at most (the hard deadline; without caps its default)."""
        return self.hard_seconds if self.seconds is not None else DEFAULT_HARD_SECONDS

    def deadline(self, hard: bool = True) -> Deadline:
        """The time limits of a decision starting now (``hard=False``: the soft cap only)."""
        if self.seconds is None:
            return Deadline(None, None, MIN_WORLDS, self.clock)
        hard_seconds = max(self.hard_seconds, self.seconds) if hard else None
        return Deadline(self.seconds, hard_seconds, MIN_WORLDS, self.clock)

    def choose(self, view: TableView) -> Action:
        legal = view.legal_actions()
        if not legal:
            raise ValueError("no legal action: it is not this player's turn")
        if view.phase is Phase.BIDDING and self.bidding == "sampled":
            return self._bid(view, legal)
        if view.phase is Phase.DOUBLING and self.doubling == "search":
            return self._double(view, legal)
        if view.phase is not Phase.PLAY:
            return self._heuristic.choose(view)
        if len(legal) == 1:
            return legal[0]
        ev = self.evaluate(view)
        if not ev.worlds:
            return self._heuristic.choose(view)  # not one world in time: the rules of thumb answer
        return ev.best

    # -------------------------------------------------------------- card play
    def evaluate(self, view: TableView, hard: bool = True) -> Evaluation:
        """Mean action values over up to :attr:`worlds` sampled worlds, within the decision's time limits.

        With ``hard=False`` no world is dropped (at least :data:`MIN_WORLDS` are
        solved even when the soft cap is spent).
        """
        deadline = self.deadline(hard)
        forbidden = constraints(view)

        def solve_world() -> Mapping[Action, float]:
            hands = sample_world(view, self._rng, forbidden)
            return TimedSolver(PlayState.from_view(view, hands), view.player, deadline).action_values()

        totals, solved, cut = sum_over_worlds(self.worlds, deadline, solve_world)
        means = {a: v / solved for a, v in totals.items()} if solved else {}
        legal = view.legal_actions()
        # Ties go to the first in the legal order (cards before marriages before "Genug").
        best = max((a for a in legal if a in means), key=lambda a: means[a], default=legal[0])
        return Evaluation(means, solved, best, deadline.elapsed(), cut=cut)

    def action_values(self, view: TableView) -> dict[Action, float]:
        """The average value of each action over up to :attr:`worlds` sampled worlds.

        Fewer worlds (at least ``MIN_WORLDS``) when :attr:`seconds` run out; no
        world is dropped, so there is always a value (hints and the analysis).
        """
        return self.evaluate(view, hard=False).values

    # ---------------------------------------------------------------- bidding
    def _bid(self, view: TableView, legal: list[Action]) -> Action:
        choice = self._heuristic.choose(view)
        v = view.variant
        if choice.kind is ActionKind.BID and v.contract(choice.contract or "").goal is Goal.CLAIM:
            return choice  # a claim is won by showing the cards
        best, best_value = choice, 0.0
        if choice.kind is ActionKind.BID and choice.contract != "normal":
            best_value = float(v.contract(choice.contract or "").points)
        candidates: dict[str, Action] = {}
        for action in legal:
            if action.kind is not ActionKind.BID or action.contract is None:
                continue
            contract = v.contract(action.contract)
            if contract.goal in (Goal.SIXTY_SIX, Goal.CLAIM) or contract.points <= best_value:
                continue
            candidates[contract.name] = action
        if not candidates:
            return choice
        estimates = self.contract_estimates(view, [v.contract(n) for n in candidates], self.deadline())
        for name, action in candidates.items():
            est = estimates[name]
            value = (2 * est.share - 1) * v.contract(name).points
            if est.worlds >= MIN_BID_WORLDS and est.share >= self.bid_confidence and value > best_value:
                best, best_value = action, value
        return best

    def contract_success(self, view: TableView, contract: Contract) -> float:
        """The share of sampled worlds in which ``contract``, played by this seat, is won.

        The bidding view's own hand against the unseen cards dealt to the others; in
        Dreierschnapsen each world's talon is taken up and two cards are laid away
        by the heuristic's rule first.  Doubling is not counted.  At least
        :data:`MIN_WORLDS` worlds (no hard deadline).
        """
        estimates = self.contract_estimates(view, [contract], self.deadline(hard=False), prune=False)
        return estimates[contract.name].share

    def contract_estimates(
        self, view: TableView, contracts: Sequence[Contract], deadline: Deadline, prune: bool = True
    ) -> dict[str, ContractEstimate]:
        """Each contract played by this seat in the same sampled worlds, until ``deadline``.

        The worlds are shared (each world decides every contract still in the
        running, so the contracts are compared on equal terms); a contract that
        has lost in more than ``1 - bid_confidence`` of :attr:`worlds` worlds
        cannot reach :attr:`bid_confidence` any more and, with ``prune``, is not
        solved further (its share then comes from fewer worlds).
        A world dropped at the hard deadline counts for no contract.
        """
        v = view.variant
        me = view.player
        partner = (me + 2) % 4 if v.players == 4 else None
        side = [0 if s in (me, partner) else 1 for s in range(v.players)]
        won = dict.fromkeys((c.name for c in contracts), 0)
        lost = dict.fromkeys(won, 0)
        max_lost = (1 - self.bid_confidence) * self.worlds if prune else float("inf")
        # Dreierschnapsen: the soloist takes up the talon before the play.  Each world fixes it
        # (the unseen cards no other hand holds), and the hand is played after laying two away
        # by the heuristic's rule, which is how this bot lays away (measured in docs/bots.md,
        # "The Dreierschnapsen talon in the bidding estimate").
        takes_talon = bool(v.talon_size and view.talon_size)
        unseen = view.unseen()
        solved = 0
        while solved < self.worlds and deadline.may_start(solved):
            running = [c for c in contracts if lost[c.name] <= max_lost]
            if not running:
                break
            hands = sample_world(view, self._rng, {})
            talon = _undealt(unseen, hands) if takes_talon else []
            outcome: dict[str, bool] = {}
            try:
                for contract in running:
                    active = [s for s in range(v.players) if contract.partner_plays or s != partner]
                    leader = view.vorhand if contract.lead == "vorhand" else me
                    while leader not in active:
                        leader = (leader + 1) % v.players
                    own = _after_talon(view.hand, talon, contract, view.trump)
                    all_hands = [own if s == me else hands[s] for s in range(v.players)]
                    state = _state(view, contract, me, active, side, all_hands, leader, 0, 0)
                    outcome[contract.name] = TimedSolver(state, me, deadline).wins()
            except DeadlineExceeded:
                break
            solved += 1
            for name, w in outcome.items():
                if w:
                    won[name] += 1
                else:
                    lost[name] += 1
        return {
            c.name: ContractEstimate(c.name, won[c.name] + lost[c.name], won[c.name], float("nan")) for c in contracts
        }

    # ------------------------------------------------------ Kontra and the rest
    def _double(self, view: TableView, legal: list[Action]) -> Action:
        step = next((a for a in legal if a.kind is ActionKind.DOUBLE), None)
        if step is None or view.contract is None:
            return Action.pass_()
        if view.variant.contract(view.contract).goal is not Goal.SIXTY_SIX:
            # A special contract was bid by choice: the declarer's hand is far better than a uniform
            # world's, so sampled worlds would overrate the defence (measured: Kontra on nearly every
            # special contract, most of them won by the declarer).  Like the heuristic: no doubling.
            return Action.pass_()
        confidence = DOUBLE_CONFIDENCE if view.doubling == 0 else REDOUBLE_CONFIDENCE
        est = self.doubling_estimate(view, self.deadline())
        if est.worlds >= MIN_DOUBLE_WORLDS and est.share >= confidence and est.mean > 0:
            return step
        return Action.pass_()

    def doubling_estimate(self, view: TableView, deadline: Deadline) -> ContractEstimate:
        """The fixed contract played out in sampled worlds, for the side of this seat.

        ``mean`` is the side's mean value at the current doubling step (saying
        the next step doubles it); ``won`` counts the worlds the side wins.
        Worlds are consistent with the view.  A Dreierschnapsen soloist who took
        the talon is dealt eight cards in a defender's worlds and lays two away
        by the heuristic's rule (:func:`~bummerl.bots.table_bots.discard_choice`):
        the kept six are better than six uniform cards.
        """
        if view.contract is None or view.declarer is None:
            raise ValueError("no contract to double yet")
        v = view.variant
        contract = v.contract(view.contract)
        me = view.player
        leader = view.vorhand if contract.lead == "vorhand" else view.declarer
        while leader not in view.active:
            leader = (leader + 1) % v.players
        bonus = 1 if v.talon_size and view.talon_size else 0
        forbidden = constraints(view)
        # A Dreierschnapsen soloist who took the talon kept the best six of eight cards: deal them
        # eight and lay two away as the heuristic would (a model of the discards, not a uniform guess).
        laid_away = v.talon_size if v.talon_size and not view.talon_size and me != view.declarer else 0
        unseen = view.unseen()
        won = solved = 0
        total = 0.0
        while solved < self.worlds and deadline.may_start(solved):
            hands = sample_world(view, self._rng, forbidden)
            if laid_away:
                hands[view.declarer] = _after_talon(hands[view.declarer], _undealt(unseen, hands), contract, view.trump)
            all_hands = [view.hand if s == me else hands.get(s, []) for s in range(v.players)]
            state = _state(
                view, contract, view.declarer, view.active, view.side, all_hands, leader, view.doubling, bonus
            )
            try:
                value = TimedSolver(state, me, deadline).value()
            except DeadlineExceeded:
                break
            solved += 1
            total += value
            won += value > 0
        return ContractEstimate(contract.name, solved, won, total / solved if solved else float("nan"))


def _undealt(unseen: Iterable[Card], hands: dict[int, list[Card]]) -> list[Card]:
    """The cards of ``unseen`` that no hand of a world (:func:`sample_world`) holds, in pack order: the talon
    still lying, or the cards a Dreierschnapsen soloist laid away."""
    dealt = {c for h in hands.values() for c in h}
    return sorted((c for c in unseen if c not in dealt), key=lambda c: c.index)


def _after_talon(hand: Sequence[Card], talon: Sequence[Card], contract: Contract, trump: Suit | None) -> list[Card]:
    """The soloist's hand for ``contract`` after taking up ``talon`` and laying away as many cards
    by the heuristic's rule (:func:`~bummerl.bots.table_bots.discard_choice`).

    >>> from bummerl.variants import find_table_variant
    >>> v = find_table_variant("dreierschnapsen")
    >>> hand = [Card.parse(c) for c in "Ah Th Kh Js Qd Ac".split()]
    >>> talon = [Card.parse(c) for c in "Tc Kc".split()]
    >>> " ".join(c.code for c in _after_talon(hand, talon, v.contract("normal"), Suit.HEARTS))
    'Ah Th Kh Ac Tc Kc'
    """
    cards = list(hand) + list(talon)
    for _ in talon:
        cards.remove(discard_choice(cards, contract, trump))
    return cards


def _state(
    view: TableView,
    contract: Contract,
    declarer: int,
    active: Sequence[int],
    side: Sequence[int],
    hands: Sequence[Sequence[Card]],
    leader: int,
    doubling: int,
    bonus: int,
) -> PlayState:
    """The card play of ``contract`` from its first lead, every hand given (seats that sit out hold nothing)."""
    return PlayState(
        variant=view.variant,
        contract=contract,
        trump=view.trump,
        declarer=declarer,
        vorhand=view.vorhand,
        active=active,
        side=side,
        hands=[hands[s] if s in active else () for s in range(view.variant.players)],
        trick=(),
        to_move=leader,
        tricks=(),
        marriages=(),
        doubling=doubling,
        bonus=bonus,
    )
