"""The three- and four-player game: deal, trump call, bidding, doubling, play, result.

>>> table = TableGame.deal("bauernschnapsen", seed=3, dealer=0)
>>> table.phase.value, table.to_move
('cut', 3)
>>> while not table.is_over:
...     _ = table.apply(table.legal_actions()[0])
>>> table.result.reason.value in {r.value for r in TableEndReason}
True
>>> replayed = TableGame.replay(table.variant, table.deck, 0, [a.token for a in table.actions])
>>> replayed.result == table.result
True

Seats are ``0..n-1`` clockwise; Vorhand sits left of the dealer, ``dealer + 1``
(seeds/004: "Vorhand (der Spieler links vom Geber)").  With four players the
partners sit opposite: seats ``s`` and ``s + 2``.  The phases follow the seeds:

1. ``CUT``: the player right of the dealer cuts (3 + 2 cards) or knocks (all
   cards at once); three Unter among a player's first three cards end the game
   as a redeal (seeds/003).
2. ``TRUMP``: Vorhand calls a suit of their first three cards or turns up their
   next card (Aufschlagen).
3. ``BIDDING``: in seat priority Vorhand, dealer's partner, Vorhand's partner,
   dealer, which is clockwise from Vorhand; a bid must be higher, or the same
   from a player of higher priority; passing is final; the last bidder plays.
4. ``TALON`` (Dreierschnapsen): the soloist takes up the talon and lays two away
   (options: leave the talon for a point more, raise the contract afterwards).
5. ``DOUBLING``: Kontra by a defender, Rekontra by the declarer's side,
   Subkontra by a defender.
6. ``PLAY``: Farbzwang, Stichzwang and trumping (:func:`bummerl.rules.tricks.legal_follows`),
   marriages, "Genug", until the contract's goal is decided.

Every action comes as ``can_apply/verify/apply`` (and named triples); a refused
action raises :class:`~bummerl.errors.IllegalActionError` naming the rule and
leaves the table unchanged; ``refusal(action)`` returns the rule and the reason
instead of raising.  Each rule is one method returning ``None`` or a
:data:`~bummerl.errors.Refusal` (the phase gate, the trump call, bids, raises,
the talon, doubling, marriages, "Genug"; the follow rules are
:func:`bummerl.rules.tricks.follow_refusal`): the generator of the legal actions keeps
the candidates it lets through, and the errors report what it returns.

No I/O, no global state, no randomness but the seed given to :meth:`~bummerl.game.Game.deal`.  The
engine enters itself in :data:`bummerl.engine.ENGINES` under ``TableVariant.FAMILY``; the phases, results
and tricks it uses are stated below it (:mod:`bummerl.variants.bauernschnapsen`, :mod:`bummerl.rules.tricks`)
for the views to read; :func:`table_view` builds a seat's view.  It never imports the other engine, the game
module or anything above them.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Sequence
from typing import TYPE_CHECKING

from bummerl.actions import DOUBLE_NAMES, Action, ActionKind
from bummerl.cards import CARDS, Card, Rank, Suit, deck, marriage_value, parse_cards, siegpunkte
from bummerl.core import Twin, twin
from bummerl.engine import Game, register_engine
from bummerl.errors import IllegalActionError, PositionError, Refusal, Rule
from bummerl.events import (
    Bid,
    Cut,
    Declare,
    Discard,
    Double,
    Event,
    GameEnd,
    Knock,
    Marriage,
    Pass,
    Play,
    TalonLeft,
    TalonTaken,
    TrumpCall,
)
from bummerl.events import Contract as ContractEvent
from bummerl.events import Trick as TrickEvent
from bummerl.rules.going_out import GOING_OUT, counted_augen
from bummerl.rules.options import format_variant, parse_variant
from bummerl.rules.tricks import FollowRules, TableTrick, follow_refusal, legal_follows, trick_winner
from bummerl.variants.bauernschnapsen import (
    Bidders,
    Contract,
    Goal,
    Phase,
    Requirement,
    TableEndReason,
    TableResult,
    TableVariant,
)
from bummerl.view import TableView

if TYPE_CHECKING:
    from bummerl.core._core import State

__all__ = ["TableGame", "table_view"]

_K = ActionKind
_CUT = Action.cut()
_KNOCK = Action.knock()
_TURN = Action.turn_trump()
_PASS = Action.pass_()
_DECLARE = Action.declare()
_TAKE_TALON = Action.take_talon()
_SKIP_TALON = Action.skip_talon()
_CALLS = tuple(Action.call_trump(s) for s in Suit)
_DOUBLES = tuple(Action.double(level) for level in range(1, len(DOUBLE_NAMES) + 1))
_STRICT = FollowRules.STRICT
# Enum members are looked up through the enum's metaclass, about four times as
# slow as a module global on CPython 3.11; the generator asks the rules below on
# every decision (a bid: every contract), so they read these aliases.
_KING, _OBER, _ACE = Rank.KING, Rank.OBER, Rank.ACE
_SIXTY_SIX = Goal.SIXTY_SIX
_BY_VORHAND, _BY_VORHAND_TEAM = Bidders.VORHAND, Bidders.VORHAND_TEAM
_BY_OPPONENTS, _BY_NOT_VORHAND = Bidders.OPPONENTS, Bidders.NOT_VORHAND
_NEEDS_ACE, _NEEDS_FULL_SUIT, _NEEDS_ALL_TRUMPS = Requirement.ACE, Requirement.FULL_SUIT, Requirement.ALL_TRUMPS
_R_TRUMP_CALL, _R_BIDDING, _R_BID_RIGHT = Rule.TRUMP_CALL, Rule.BIDDING, Rule.BID_RIGHT
_R_MARRIAGE, _R_DECLARE = Rule.MARRIAGE, Rule.DECLARE


#: The kinds of action each phase takes, with the rule and the reason that
#: refuse any other kind (the phase gate of :meth:`TableGame.refusal`).
_PHASE_KINDS: dict[Phase, tuple[frozenset[ActionKind], Rule, str]] = {
    Phase.CUT: (frozenset({_K.CUT, _K.KNOCK}), Rule.DEAL, "the player right of the dealer cuts or knocks first"),
    Phase.TRUMP: (frozenset({_K.CALL_TRUMP, _K.TURN_TRUMP}), Rule.TRUMP_CALL, "Vorhand calls trump first"),
    Phase.BIDDING: (frozenset({_K.BID, _K.PASS}), Rule.BIDDING, "the bidding is on: bid or pass"),
    Phase.TALON: (
        frozenset({_K.DISCARD, _K.TAKE_TALON, _K.SKIP_TALON, _K.BID, _K.PASS}),
        Rule.DISCARD,
        "the soloist takes up the talon and lays two cards away first",
    ),
    Phase.DOUBLING: (frozenset({_K.DOUBLE, _K.PASS}), Rule.DOUBLING, "the doubling is on: double or pass"),
    Phase.PLAY: (frozenset({_K.PLAY, _K.MARRIAGE, _K.DECLARE}), Rule.NOT_AVAILABLE, "the cards are being played"),
}
#: The steps of the talon phase (Dreierschnapsen): the kinds each takes, and the
#: rule and reason that refuse the other kinds of the phase.
_TALON_STEPS: dict[str, tuple[frozenset[ActionKind], Rule, str]] = {
    "choice": (frozenset({_K.TAKE_TALON, _K.SKIP_TALON}), Rule.DISCARD, "first take up or leave the talon"),
    "raise": (frozenset({_K.BID, _K.PASS}), Rule.BIDDING, "raise the contract or pass"),
    "discard": (frozenset({_K.DISCARD}), Rule.DISCARD, "lay two cards away first"),
}
_GAME_OVER: Refusal = (Rule.GAME_OVER, "the game is over")
_NOT_VORHAND_BEFORE_TRICK: Refusal = (Rule.MARRIAGE, "only Vorhand may announce before winning a trick")
_GENUG_NEEDS_TRICK: Refusal = (Rule.DECLARE, "'Genug' needs a trick just won or a marriage")


class TableGame(Game):
    """A three- or four-player game from the cut to its result (a :class:`~bummerl.game.Game`).

    ``apply`` returns the :mod:`~bummerl.events` of the action: every internal
    step that changes something visible records its event where it happens (a
    contract fixed, a trick taken, the end), and ``apply`` hands them over.

    **The compiled twin**, as :class:`~bummerl.two_player.TwoPlayerGame` has it (its docstring says why a twin):
    where the core is built and ``BUMMERL_PURE=1`` is not set at the deal, ``_core``, a ``State`` of
    ``bummerl.core._table`` dealt from the same pack, follows every action and generates the legal actions, the
    costly part of a table step (the auction's rules over every contract, the follow rules); everything else is
    this Python code's.  A game whose attributes white-box code edited and then cleared the cached legal actions
    (``table._legal = None``) drops its twin, and so do ``pickle`` and ``copy.deepcopy``
    (:meth:`bummerl.engine.Game.__getstate__`); ``tests/test_core_game.py`` compares the twin's legal lists with
    the Python rules' object for object.
    """

    variant: TableVariant
    #: The pack order (top card first): the chance player's action.
    deck: tuple[Card, ...]
    dealer: int
    phase: Phase
    to_move: int
    #: Each hand, in the order the cards were received (empty before the cut).
    hands: list[list[Card]]
    #: Each player's first three cards (the packet Vorhand calls trump from).
    first_three: list[tuple[Card, ...]]
    #: The talon (Dreierschnapsen) until the soloist takes it up.
    talon: list[Card]
    knocked: bool | None
    #: The called trump suit (``None`` before the call).
    trump: Suit | None
    #: The card turned up by Aufschlagen, if Vorhand turned one.
    turned_card: Card | None
    #: The bidding so far: ``(seat, action)``.
    bids: list[tuple[int, Action]]
    passed: set[int]
    #: The highest bid so far: ``(contract, seat)``.
    high: tuple[Contract, int] | None
    contract: Contract | None
    declarer: int | None
    #: Doubling step reached: 0 none, 1 Kontra, 2 Rekontra, 3 Subkontra.
    doubling: int
    #: ``(seat, level)`` of each double said.
    doubles: list[tuple[int, int]]
    discarded: list[Card]
    bonus: int
    #: Seats that play cards (a partner who sits out is missing).
    active: tuple[int, ...]
    #: The current trick: ``(seat, card)`` in play order.
    trick: list[tuple[int, Card]]
    tricks: list[TableTrick]
    tricks_won: list[int]
    #: 0 for the declarer's side, 1 for the defenders (set when the contract is fixed).
    side: list[int]
    side_trick_augen: list[int]
    side_marriage_augen: list[int]
    side_tricks: list[int]
    marriages: list[tuple[int, Suit]]
    #: Cards of each hand that every player knows (shown marriages, the turned
    #: trump card, a claim, a redeal's Unter).
    known: list[set[Card]]
    actions: list[Action]
    result: TableResult | None
    #: The legal actions of this position once generated (``None``: not yet); white-box code uses :attr:`_legal`.
    _cache: list[Action] | None
    #: The compiled twin (the class docstring) and its variant's action numbering, or ``None``.
    _core: State | None
    _twin: Twin | None

    def __init__(self, variant: TableVariant | str, deck_order: Iterable[Card], dealer: int = 0) -> None:
        v = TableVariant.find(variant) if isinstance(variant, str) else variant
        order = tuple(deck_order)
        expected = set(deck(v.deck_size))
        if len(order) != len(expected) or set(order) != expected:
            raise ValueError(f"{v.title} needs the {v.deck_size}-card pack, each card once; got {len(order)} cards")
        if dealer not in range(v.players):
            raise ValueError(f"dealer must be a seat 0..{v.players - 1}, not {dealer!r}")
        n = v.players
        self.variant = v
        self.deck = order
        self.dealer = dealer
        self.phase = Phase.CUT
        # seeds/004: "Der Spieler zu seiner Rechten kann entweder abheben oder ... klopfen."
        self.to_move = (dealer - 1) % n
        self.hands = [[] for _ in range(n)]
        self.first_three = [() for _ in range(n)]
        self.talon = []
        self.knocked = None
        self.trump = None
        self.turned_card = None
        self.bids = []
        self.passed = set()
        self.high = None
        self.contract = None
        self.declarer = None
        self.doubling = 0
        self.doubles = []
        self._double_queue: list[int] = []
        self.discarded = []
        #: Game points added to the result: 1 if the soloist left the talon.
        self.bonus = 0
        self._talon_choice = False
        self._raise_pending = False
        self.active = tuple(range(n))
        self.trick = []
        self.tricks = []
        self.tricks_won = [0] * n
        self.side = [0] * n
        self.side_trick_augen = [0, 0]
        self.side_marriage_augen = [0, 0]
        self.side_tricks = [0, 0]
        self.marriages = []
        self.known = [set() for _ in range(n)]
        self.actions = []
        self.result = None
        self._cache = None
        tw = self._twin = twin(v)
        self._core = None if tw is None else tw.first.new_deal([c.index for c in order], dealer)
        #: The events of the action being applied (see the class docstring).
        self._events: list[Event] = []

    # ----------------------------------------------------------- construction
    def position(self) -> str:
        """One line that determines this position: variant and options, dealer, pack, actions.

        The table's state is the replay of its actions, so the line is the record
        in short: ``bauernschnapsen d0 AhTh... cut trump:h bid:normal ...``.
        """
        v = self.variant
        head = format_variant(v.name, v.options())
        deck_text = "".join(c.code for c in self.deck)
        return " ".join([head, f"d{self.dealer}", deck_text, *(a.token for a in self.actions)])

    @classmethod
    def read_position(cls, text: str) -> TableGame:
        """Rebuild a table from :meth:`position` (what :meth:`Game.from_position` calls for a table game)."""
        parts = text.split()
        if len(parts) < 3 or not parts[1].startswith("d"):
            raise PositionError(f"malformed table position {text!r}: expected 'variant dN pack actions...'")
        try:
            name, options = parse_variant(parts[0])
            variant = TableVariant.find(name, **options)
            dealer = int(parts[1][1:])
            cards = parse_cards(parts[2])
            return cls.replay(variant, cards, dealer, parts[3:])
        except ValueError as exc:
            raise PositionError(f"bad table position: {exc}") from None

    def copy(self) -> TableGame:
        """An independent copy (for search)."""
        t = object.__new__(TableGame)
        t.__dict__.update(self.__dict__)
        t.hands = [h[:] for h in self.hands]
        t.first_three = self.first_three[:]
        t.talon = self.talon[:]
        t.bids = self.bids[:]
        t.passed = set(self.passed)
        t.doubles = self.doubles[:]
        t._double_queue = self._double_queue[:]
        t.discarded = self.discarded[:]
        t.trick = self.trick[:]
        t.tricks = self.tricks[:]
        t.tricks_won = self.tricks_won[:]
        t.side = self.side[:]
        t.side_trick_augen = self.side_trick_augen[:]
        t.side_marriage_augen = self.side_marriage_augen[:]
        t.side_tricks = self.side_tricks[:]
        t.marriages = self.marriages[:]
        t.known = [set(k) for k in self.known]
        t.actions = self.actions[:]
        t._events = []
        core = self._core
        if core is not None:
            t._core = core.copy()
        return t

    @property
    def _legal(self) -> list[Action] | None:
        """The cached legal actions (``None``: not generated yet), for white-box code; setting it drops the compiled
        twin (the class docstring).  The engine reads and writes ``_cache``."""
        return self._cache

    @_legal.setter
    def _legal(self, legal: list[Action] | None) -> None:
        self._cache = legal
        self._core = None

    # ------------------------------------------------------------- properties
    @property
    def vorhand(self) -> int:
        """The seat left of the dealer: calls trump, bids first."""
        return (self.dealer + 1) % self.variant.players

    @property
    def multiplier(self) -> int:
        """1, 2 (Kontra), 4 (Rekontra) or 8 (Subkontra)."""
        return 1 << self.doubling

    @property
    def play_trump(self) -> Suit | None:
        """The trump suit of the card play (``None`` in contracts without trump)."""
        c = self.contract
        return self.trump if c is not None and c.trump else None

    def partner(self, seat: int) -> int | None:
        """The partner of ``seat`` with four players (``None`` with three)."""
        return (seat + 2) % 4 if self.variant.players == 4 else None

    def priority(self, seat: int) -> int:
        """Bidding priority, 0 highest: Vorhand, dealer's partner, Vorhand's partner, dealer.

        seeds/004: "Vorhand hat den höchsten Vorrang, dann kommt der Partner des
        Gebers, dann der Partner von Vorhand und zuletzt der Geber" — clockwise
        from Vorhand.
        """
        return (seat - self.vorhand) % self.variant.players

    def side_of(self, seat: int) -> int:
        return self.side[seat]

    def augen(self, side: int) -> int:
        """Counted Augen of a side (0 declarer's, 1 defenders'): tricks, and
        marriages once the side has a trick (seeds/003: "Die Ansage zählt nur wenn
        auch ein Stich erzielt wurde")."""
        return counted_augen(self.side_trick_augen[side], self.side_marriage_augen[side], self.side_tricks[side] > 0)

    def may_bid(self, seat: int, contract: Contract) -> bool:
        """Whether ``seat`` has the right and the cards to bid ``contract`` (ignoring the auction)."""
        return self._bid_right_refusal(seat, contract) is None

    # ------------------------------------------------------------- generation
    def legal_actions(self) -> list[Action]:
        """The legal actions of :attr:`to_move` (empty once the game is over)."""
        legal = self._cache
        if legal is None:
            core, tw = self._core, self._twin
            legal = self._generate() if core is None or tw is None else list(core.legal_actions(tw.actions))
            self._cache = legal
        return legal

    def _generate(self) -> list[Action]:
        """The candidate actions of the phase that pass their rule functions, in menu order."""
        phase = self.phase
        p = self.to_move
        if phase is Phase.PLAY:
            return self._play_actions(p)
        if phase is Phase.OVER:
            return []
        if phase is Phase.CUT:
            return [_CUT, _KNOCK]
        if phase is Phase.TRUMP:
            return [a for a in _CALLS if self._trump_call_refusal(p, a) is None] + [_TURN]
        if phase is Phase.BIDDING:
            # _bid_refusal's two rules, the cheap auction order first: most contracts fail it.
            bids = [
                Action.bid(c.name)
                for c in self.variant.contracts
                if self._auction_refusal(p, c) is None and self._bid_right_refusal(p, c) is None
            ]
            return bids if self._pass_refusal() is not None else [*bids, _PASS]
        if phase is Phase.TALON:
            step = self._talon_step()
            if step == "choice":
                return [_TAKE_TALON, _SKIP_TALON]
            if step == "raise":
                raises = [c for c in self.variant.contracts if self._raise_refusal(p, c) is None]
                return [Action.bid(c.name) for c in raises] + [_PASS]
            return [Action.discard(c) for c in self.hands[p]]
        # DOUBLING: the candidate is the step after the current one.
        level = self.doubling + 1
        return [_DOUBLES[level - 1], _PASS] if self._double_refusal(level) is None else [_PASS]

    def _play_actions(self, p: int) -> list[Action]:
        hand = self.hands[p]
        c = self.contract
        assert c is not None
        if self.trick:
            cards = [card for _, card in self.trick]
            allowed = legal_follows(hand, cards, self.play_trump, _STRICT, True, c.order)
            return [Action.play(x) for x in allowed]
        actions = [Action.play(x) for x in hand]
        suits: list[Suit] = []
        # The marriages the hand holds, if the contract and the moment allow any
        # (the three parts of _marriage_refusal).
        if self._marriage_contract_refusal(p) is None and self._marriage_moment_refusal(p) is None:
            # A set: a list of Cards is searched through Card's slow comparison slots.
            held = set(hand)
            suits = [k.suit for k in hand if k.rank == _KING and self._marriage_cards_refusal(held, k.suit) is None]
        for s in suits:
            actions.append(Action.marriage(CARDS[s * 8 + _KING]))
            actions.append(Action.marriage(CARDS[s * 8 + _OBER]))
        if suits and self._genug_refusal(with_marriage=True) is None:
            actions += [Action.declare(s) for s in suits]
        if self._genug_refusal(with_marriage=False) is None:
            actions.append(_DECLARE)
        return actions

    # ------------------------------------------------------------------ rules
    # One method per rule: ``None`` if the action is legal, else the Rule it
    # breaks and why.  _generate() keeps the candidates they let through and
    # refusal() reports what they return; the order of the checks inside a
    # method decides the reason given when several conditions fail.

    def refusal(self, action: Action | str) -> Refusal | None:
        """The rule ``action`` breaks now and why, or ``None`` if it is legal."""
        if isinstance(action, str):
            action = Action.parse(action)
        phase = self.phase
        if phase is Phase.OVER:
            return _GAME_OVER
        kinds, rule, why = _PHASE_KINDS[phase]
        kind = action.kind
        if kind not in kinds:
            return rule, f"{action.token} is not possible now: {why}"
        p = self.to_move
        if phase is Phase.PLAY:
            return self._play_refusal(p, action)
        if phase is Phase.TRUMP:
            return None if kind is _K.TURN_TRUMP else self._trump_call_refusal(p, action)
        if phase is Phase.BIDDING:
            return self._pass_refusal() if kind is _K.PASS else self._bid_action_refusal(p, action)
        if phase is Phase.TALON:
            return self._talon_refusal(p, action)
        if phase is Phase.DOUBLING:
            return None if kind is _K.PASS else self._double_refusal(action.level)
        return None  # CUT: cut or knock

    def _trump_call_refusal(self, p: int, action: Action) -> Refusal | None:
        """seeds/004: "Es muß eine Farbe sein, von der Vorhand mindestens eine Karte in
        der Hand hält" — of the first three cards, the only ones Vorhand has seen."""
        first = self.first_three[p]
        for card in first:
            if card.suit == action.suit:
                return None
        return _R_TRUMP_CALL, f"{action.token}: Vorhand's first three cards are {' '.join(c.code for c in first)}"

    def _pass_refusal(self) -> Refusal | None:
        """seeds/004: "Vorhand beginnt mit der Reizung. Er darf nicht passen"; later
        passing is always allowed (and final)."""
        if self.high is None:
            return Rule.BIDDING, "Vorhand opens the bidding and may not pass"
        return None

    def _bid_action_refusal(self, p: int, action: Action) -> Refusal | None:
        """A bid, in the bidding or as a raise after the talon: the contract must exist."""
        assert action.contract is not None
        try:
            contract = self.variant.contract(action.contract)
        except ValueError as exc:
            return Rule.BIDDING, str(exc)
        if self.phase is Phase.TALON:
            return self._raise_refusal(p, contract)
        return self._bid_refusal(p, contract)

    def _bid_refusal(self, p: int, c: Contract) -> Refusal | None:
        """A bid in the auction: the seat's right and cards, then the auction order."""
        return self._bid_right_refusal(p, c) or self._auction_refusal(p, c)

    def _auction_refusal(self, p: int, c: Contract) -> Refusal | None:
        """seeds/004: "muß der folgende Spieler entweder einen höheren Kontrakt bieten
        oder passen"; the same contract only from a player of higher priority."""
        high = self.high
        if high is None:
            return None
        rank, high_rank = c.rank, high[0].rank
        if rank > high_rank:
            return None
        if rank == high_rank and self.priority(p) < self.priority(high[1]):
            return None  # seeds/004: holding a bid of a player lower in priority
        if rank == high_rank:
            return _R_BIDDING, f"seat {high[1]} bid {c.title} with higher priority; bid higher or pass"
        return _R_BIDDING, f"the bid stands at {high[0].title}; bid higher or pass"

    def _bid_right_refusal(self, p: int, c: Contract) -> Refusal | None:
        """Who may bid ``c`` (seeds/004: "einige Kontrakte [können] nicht von jedem
        Spieler angesagt werden") and the cards it needs."""
        v = self.vorhand
        b = c.bidders
        partner_of_v = self.partner(v)
        if b is _BY_VORHAND and p != v:
            return _R_BID_RIGHT, f"only Vorhand (seat {v}) may bid {c.title}"
        if b is _BY_VORHAND_TEAM and p not in (v, partner_of_v):
            return _R_BID_RIGHT, f"only Vorhand or Vorhand's partner may bid {c.title}"
        if b is _BY_OPPONENTS and p in (v, partner_of_v):
            return _R_BID_RIGHT, f"only an opponent of Vorhand may bid {c.title}"
        if b is _BY_NOT_VORHAND and p == v:
            return _R_BID_RIGHT, f"Vorhand may not bid {c.title}"
        hand = self.hands[p]
        req = c.requirement
        if req is _NEEDS_ACE and not any(x.rank == _ACE for x in hand):
            return _R_BID_RIGHT, f"{c.title} needs an Ace in hand"
        if req is _NEEDS_FULL_SUIT and not any(sum(1 for x in hand if x.suit == s) == 5 for s in Suit):
            return _R_BID_RIGHT, f"{c.title} needs all five cards of a suit"
        if req is _NEEDS_ALL_TRUMPS and sum(1 for x in hand if x.suit == self.trump) != 5:
            return _R_BID_RIGHT, f"{c.title} needs all five trumps"
        return None

    def _raise_refusal(self, p: int, c: Contract) -> Refusal | None:
        """seeds/004: the soloist may "einen höheren Kontrakt anzusagen nachdem er den
        Talon aufgenommen hat" (option ``raise_after_talon``): higher than the
        auction's contract, and one the soloist may bid."""
        assert self.high is not None
        if c.rank <= self.high[0].rank:
            current = self.contract.title if self.contract else "contract"
            return Rule.BIDDING, f"a raise must be higher than the {current}"
        return self._bid_right_refusal(p, c)

    def _talon_step(self) -> str:
        """Where the talon phase stands: ``choice``, ``raise`` or ``discard``."""
        if self._talon_choice:
            return "choice"
        return "raise" if self._raise_pending else "discard"

    def _talon_refusal(self, p: int, action: Action) -> Refusal | None:
        """Dreierschnapsen's talon: take it up or leave it (option ``may_skip_talon``),
        lay two cards away, then raise or pass (option ``raise_after_talon``)."""
        kinds, rule, why = _TALON_STEPS[self._talon_step()]
        kind = action.kind
        if kind not in kinds:
            return rule, f"{action.token}: {why}"
        if kind is _K.BID:
            return self._bid_action_refusal(p, action)
        if kind is _K.DISCARD and action.card not in self.hands[p]:
            return Rule.NOT_IN_HAND, f"seat {p} does not hold {action.card}"
        return None

    def _double_refusal(self, level: int) -> Refusal | None:
        """seeds/004: Kontra, Rekontra, Subkontra in turn, up to the variant's
        ``max_doubling`` (who may say them is the order of the doubling phase)."""
        v = self.variant
        if level == self.doubling + 1 and level <= v.max_doubling:
            return None
        step = DOUBLE_NAMES[level - 1] if level <= len(DOUBLE_NAMES) else f"doubling step {level}"
        names = ", ".join(DOUBLE_NAMES[: v.max_doubling])
        return Rule.DOUBLING, f"{step} is not the next step (doubling so far: {self.doubling}; steps allowed: {names})"

    def _play_refusal(self, p: int, action: Action) -> Refusal | None:
        """A card, a marriage or "Genug" in the play phase."""
        hand = self.hands[p]
        kind = action.kind
        if kind is _K.PLAY:
            card = action.card
            assert card is not None
            if card not in hand:
                return Rule.NOT_IN_HAND, f"seat {p} does not hold {card.code}"
            if not self.trick:
                return None
            c = self.contract
            assert c is not None
            cards = [x for _, x in self.trick]
            return follow_refusal(card, hand, cards, self.play_trump, _STRICT, True, c.order)
        if self.trick:
            return Rule.NOT_ON_LEAD, f"{action.token} is only possible before leading to a trick"
        if kind is _K.MARRIAGE:
            assert action.card is not None
            return self._marriage_refusal(p, action.card.suit)
        if action.suit is None:
            return self._genug_refusal(with_marriage=False)
        return self._genug_refusal(with_marriage=True) or self._marriage_refusal(p, action.suit)

    def _marriage_refusal(self, p: int, suit: Suit) -> Refusal | None:
        """A marriage (Hochzeit) in ``suit`` by ``p`` on lead: the contract, the cards, the moment."""
        return (
            self._marriage_contract_refusal(p)
            or self._marriage_cards_refusal(self.hands[p], suit)
            or self._marriage_moment_refusal(p)
        )

    def _marriage_contract_refusal(self, p: int) -> Refusal | None:
        """Whether the contract has marriages, and for whom (seeds/004: "daß bei einem
        Schnapser und Kontra-Schnapser nur der Spielmacher Hochzeiten melden kann")."""
        c = self.contract
        assert c is not None
        if c.marriages == "none":
            return _R_MARRIAGE, f"{c.title} is played without marriages"
        if c.marriages == "declarer" and p != self.declarer:
            return _R_MARRIAGE, f"in the {c.title} only the declarer may announce marriages"
        return None

    @staticmethod
    def _marriage_cards_refusal(hand: Collection[Card], suit: Suit) -> Refusal | None:
        """seeds/004: "Ein Spieler, der König und Dame einer Farbe ... auf der Hand hat"."""
        if CARDS[suit * 8 + _KING] not in hand or CARDS[suit * 8 + _OBER] not in hand:
            return Rule.MARRIAGE, f"a marriage in {suit.name.title()} needs its King and Ober"
        return None

    def _marriage_moment_refusal(self, p: int) -> Refusal | None:
        """seeds/004: "Vorhand kann das schon beim ersten Stich tun. Jeder andere Spieler
        muß zunächst einen Stich gewinnen"."""
        if not self.tricks_won[p] and not (p == self.vorhand and not self.tricks):
            return _NOT_VORHAND_BEFORE_TRICK
        return None

    def _genug_refusal(self, with_marriage: bool) -> Refusal | None:
        """seeds/004: "Man kann das Spiel mit der Ansage „Genug“ beenden, wenn man gerade
        einen Stich gemacht hat oder direkt nach einer Meldung" — in the normal game.
        ``with_marriage``: "Genug" right after showing one (its own rule applies too)."""
        c = self.contract
        assert c is not None
        if c.goal is not _SIXTY_SIX:
            return _R_DECLARE, f"'Genug' belongs to the normal game, not to {c.title}"
        if not with_marriage and not self.tricks:
            return _GENUG_NEEDS_TRICK
        return None

    # ---------------------------------------------------------- generic triple
    def can_apply(self, action: Action | str) -> bool:
        """Whether ``action`` is legal now."""
        if isinstance(action, str):
            action = Action.parse(action)
        return action in self.legal_actions()

    def verify(self, action: Action | str) -> None:
        """Raise :class:`IllegalActionError` naming the broken rule, unless legal."""
        if isinstance(action, str):
            action = Action.parse(action)
        if action not in self.legal_actions():
            raise self._refuse(action)

    def apply(self, action: Action | str) -> tuple[Event, ...]:
        """Do ``action`` (an :class:`Action` or its token) and return what happened, or raise without change."""
        if isinstance(action, str):
            action = Action.parse(action)
        if action not in self.legal_actions():
            raise self._refuse(action)
        p = self.to_move
        self._cache = None
        core, tw = self._core, self._twin
        if core is not None and tw is not None:
            core.apply(tw.numbers[action])
        self.actions.append(action)
        events: list[Event] = []
        self._events = events
        kind = action.kind
        if kind is _K.PLAY:
            assert action.card is not None
            self._play(p, action.card)
        elif kind is _K.MARRIAGE:
            assert action.card is not None
            self._announce(p, action.card.suit)
            self._play(p, action.card)
        elif kind is _K.DECLARE:
            if action.suit is not None:
                self._announce(p, action.suit)
            events.append(Declare(p, action.suit))
            self._declare(p)
        elif kind in (_K.CUT, _K.KNOCK):
            events.append(Knock(p) if kind is _K.KNOCK else Cut(p))
            self._cut(kind is _K.KNOCK)
        elif kind is _K.CALL_TRUMP:
            assert action.suit is not None
            self._set_trump(action.suit, None)
        elif kind is _K.TURN_TRUMP:
            self._turn()
        elif kind is _K.BID:
            assert action.contract is not None
            if self.phase is Phase.TALON:
                self._raise(p, self.variant.contract(action.contract), action)
            else:
                self._bid(p, self.variant.contract(action.contract), action)
        elif kind is _K.PASS:
            events.append(Pass(p))
            if self.phase is Phase.BIDDING:
                self._pass_bid(p)
            elif self.phase is Phase.TALON:
                self._raise_pending = False
                self._start_doubling()
            else:
                self._pass_double()
        elif kind is _K.TAKE_TALON:
            self._talon_choice = False
            self._take_talon()
        elif kind is _K.SKIP_TALON:
            # seeds/004: "daß der Alleinspieler sich entscheiden kann, den Talon nicht
            # aufzunehmen ...; in dem Falle ist der Kontrakt einen Spielpunkt mehr wert."
            events.append(TalonLeft(p))
            self._talon_choice = False
            # The talon stays face down, unseen by everybody, its Augen for nobody.
            self.bonus = 1
            self._start_doubling()
        elif kind is _K.DOUBLE:
            events.append(Double(p, action.level))
            self._double(p, action.level)
        else:  # DISCARD
            assert action.card is not None
            events.append(Discard(p, action.card))
            self._discard(p, action.card)
        self._events = []
        return tuple(events)

    # ------------------------------------------- named triples of the table games
    def can_bid(self, contract: str) -> bool:
        return self.can_apply(Action.bid(contract))

    def verify_bid(self, contract: str) -> None:
        self.verify(Action.bid(contract))

    def bid(self, contract: str) -> tuple[Event, ...]:
        """Bid ``contract`` (a name of :attr:`TableVariant.contracts`)."""
        return self.apply(Action.bid(contract))

    def can_pass(self) -> bool:
        return self.can_apply(_PASS)

    def verify_pass(self) -> None:
        self.verify(_PASS)

    def pass_(self) -> tuple[Event, ...]:
        """Pass in the bidding or decline to double."""
        return self.apply(_PASS)

    def can_double(self) -> bool:
        return self.phase is Phase.DOUBLING and self._double_refusal(self.doubling + 1) is None

    def verify_double(self) -> None:
        """Raise unless the next doubling step is possible now (up to ``max_doubling``)."""
        if self.phase is not Phase.DOUBLING or self._double_refusal(self.doubling + 1) is not None:
            raise IllegalActionError(Rule.DOUBLING, "doubling is not possible now")
        self.verify(Action.double(self.doubling + 1))

    def double(self) -> tuple[Event, ...]:
        """Say the next doubling step (Kontra, Rekontra, Subkontra)."""
        self.verify_double()
        return self.apply(Action.double(self.doubling + 1))

    # ------------------------------------------------------------- doing it
    def _cut(self, knock: bool) -> None:
        v = self.variant
        n = v.players
        order = list(self.deck)
        pos = 0
        seats = [(self.vorhand + i) % n for i in range(n)]
        if knock:
            # seeds/004: "Wenn geklopft wurde, ... jeder Spieler bekommt fünf Karten auf
            # einmal"; Talon-Schnapsen: "Vorhand zunächst zweimal drei Karten, danach
            # ... jeder sechs Karten, und der Talon von zwei Karten wird zuletzt".
            for s in seats:
                self.hands[s] = order[pos : pos + v.hand_size]
                pos += v.hand_size
            self.talon = order[pos : pos + v.talon_size]
        else:
            # seeds/004: "zunächst bekommt jeder drei Karten und danach jeder zwei";
            # seeds/003 (Dreier): "jedem 3 Karten ... dann werden 2 Karten verdeckt als
            # Talon weggelegt, dann bekommt wieder jeder 3 Karten".
            for s in seats:
                self.hands[s] = order[pos : pos + 3]
                pos += 3
            self.talon = order[pos : pos + v.talon_size]
            pos += v.talon_size
            rest = v.hand_size - 3
            for s in seats:
                self.hands[s] += order[pos : pos + rest]
                pos += rest
        self.knocked = knock
        self.first_three = [tuple(h[:3]) for h in self.hands]
        if v.three_unter_redeal:
            for s in seats:
                # seeds/003: "Erhält man vom Geber zu Beginn drei Unter, so muss neu
                # gemischt werden."
                if all(c.rank == Rank.UNTER for c in self.first_three[s]):
                    self.known[s].update(self.first_three[s])
                    self._finish(TableResult("", None, (), 0, TableEndReason.REDEAL, (0, 0), 1))
                    return
        self.phase = Phase.TRUMP
        self.to_move = self.vorhand

    def _set_trump(self, suit: Suit, turned: Card | None) -> None:
        self._events.append(TrumpCall(self.to_move, suit, turned))
        self.trump = suit
        self.turned_card = turned
        self.phase = Phase.BIDDING
        self.to_move = self.vorhand

    def _turn(self) -> None:
        # seeds/004: "Eine seiner beiden letzten Karten gibt die Trumpffarbe an ... der
        # Geber gibt eine der beiden Karten für Vorhand offen".  The first of them is
        # turned: Vorhand has not seen either, so the choice carries no information.
        card = self.hands[self.vorhand][3]
        self.known[self.vorhand].add(card)
        self._set_trump(card.suit, card)

    def _bid(self, p: int, contract: Contract, action: Action) -> None:
        self._events.append(Bid(p, contract.name))
        self.bids.append((p, action))
        self.high = (contract, p)
        self._next_bidder(p)

    def _pass_bid(self, p: int) -> None:
        self.bids.append((p, _PASS))
        self.passed.add(p)
        self._next_bidder(p)

    def _next_bidder(self, p: int) -> None:
        n = self.variant.players
        high = self.high
        assert high is not None
        s = (p + 1) % n
        while s in self.passed:
            s = (s + 1) % n
        if s == high[1]:
            # seeds/004: "Das Reizen geht so lange rundum, bis drei Spieler hintereinander
            # passen ... der vierte Spieler [ist] derjenige, der den zu spielenden
            # Kontrakt angesagt hat."
            self._fix_contract(high[0], high[1])
        else:
            self.to_move = s

    def _fix_contract(self, contract: Contract, declarer: int) -> None:
        v = self.variant
        n = v.players
        if contract.name == "kontra-normal":
            # seeds/004 Varianten: the Kontra "zwingt Vorhand, ein Normalspiel mit dem
            # gewählten Trumpf zu spielen" — Vorhand's normal game, doubled once.
            self.doubling = 1
            self.doubles.append((declarer, 1))
            contract, declarer = v.contract("normal"), self.vorhand
        self.contract = contract
        self.declarer = declarer
        self._events.append(ContractEvent(contract.name, declarer))
        partner = self.partner(declarer)
        self.side = [0 if s in (declarer, partner) else 1 for s in range(n)]
        if partner is not None and not contract.partner_plays:
            self.active = tuple(s for s in range(n) if s != partner)
        if contract.is_claim:
            # Farbenring, Herrenschnapser: the cards are shown and the game is won.
            self.known[declarer].update(self.hands[declarer])
            self._finish_contract(won=True, reason=TableEndReason.CLAIMED)
            return
        if self.talon:
            self.phase = Phase.TALON
            self.to_move = declarer
            if v.may_skip_talon:
                self._talon_choice = True
            else:
                self._take_talon()
            return
        self._start_doubling()

    def _take_talon(self) -> None:
        # seeds/004: "Nach der Reizung nimmt der Alleinspieler die beiden Karten des
        # Talons auf, ohne sie den Gegenspielern zu zeigen."
        declarer = self.declarer
        assert declarer is not None
        self._events.append(TalonTaken(declarer, tuple(self.talon)))
        self.hands[declarer] += self.talon
        self.talon = []
        # A turned-up trump card may now be laid away unseen: the others no longer
        # know it is in the soloist's hand (dropping it only on a discard would tell
        # them about the discard).
        self.known[declarer].clear()

    def _discard(self, p: int, card: Card) -> None:
        self.hands[p].remove(card)
        self.discarded.append(card)
        if len(self.discarded) == self.variant.talon_size:
            if self.variant.raise_after_talon:
                # seeds/004: "ob es dem Alleinspieler erlaubt sein soll, einen höheren
                # Kontrakt anzusagen nachdem er den Talon aufgenommen hat".
                self._raise_pending = True
            else:
                self._start_doubling()

    def _raise(self, p: int, contract: Contract, action: Action) -> None:
        self._events += [Bid(p, contract.name), ContractEvent(contract.name, p)]
        self.bids.append((p, action))
        self._raise_pending = False
        self.contract = contract
        self._start_doubling()

    def _start_doubling(self) -> None:
        if self.doubling >= self.variant.max_doubling:
            self._start_play()
            return
        self.phase = Phase.DOUBLING
        assert self.declarer is not None
        last = self.doubles[-1][0] if self.doubles else self.declarer
        # Kontra and Subkontra (odd steps) by a defender, Rekontra by the declarer's side.
        self._queue_doublers(last, side=1 if self.doubling % 2 == 0 else 0)

    def _queue_doublers(self, after: int, side: int) -> None:
        """Ask the players of ``side`` in clockwise order after seat ``after``."""
        n = self.variant.players
        self._double_queue = [s for s in ((after + i) % n for i in range(1, n + 1)) if self.side[s] == side]
        self.to_move = self._double_queue[0]

    def _double(self, p: int, level: int) -> None:
        self.doubling = level
        self.doubles.append((p, level))
        if level >= self.variant.max_doubling:
            self._start_play()
        else:
            # Kontra and Subkontra by a defender, Rekontra by "Derjenige, der den
            # Kontrakt angesagt hatte oder sein Partner" (seeds/004).
            self._queue_doublers(p, side=1 - self.side[p])

    def _pass_double(self) -> None:
        self._double_queue.pop(0)
        if self._double_queue:
            self.to_move = self._double_queue[0]
        else:
            self._start_play()

    def _start_play(self) -> None:
        c = self.contract
        assert c is not None and self.declarer is not None
        self.phase = Phase.PLAY
        # seeds/004: "Bei einem Spiel mit einer Trumpffarbe spielt Vorhand zum ersten
        # Stich aus. In einem Spiel, in dem es keine Trumpffarbe gibt, spielt derjenige
        # aus, der diesen Kontrakt angesagt hat."
        leader = self.vorhand if c.lead == "vorhand" else self.declarer
        if leader not in self.active:  # pragma: no cover - no contract seats out Vorhand's lead
            leader = self._next_active(leader)
        self.to_move = leader

    def _next_active(self, seat: int) -> int:
        n = self.variant.players
        s = (seat + 1) % n
        while s not in self.active:
            s = (s + 1) % n
        return s

    def _announce(self, p: int, suit: Suit) -> None:
        value = marriage_value(suit, self.trump)
        self._events.append(Marriage(p, suit, value))
        self.side_marriage_augen[self.side[p]] += value
        self.marriages.append((p, suit))
        self.known[p].add(Card(suit, Rank.KING))
        self.known[p].add(Card(suit, Rank.OBER))

    def _play(self, p: int, card: Card) -> None:
        self.hands[p].remove(card)
        self.known[p].discard(card)
        self._events.append(Play(p, card))
        trick = self.trick
        trick.append((p, card))
        if len(trick) < len(self.active):
            self.to_move = self._next_active(p)
            return
        c = self.contract
        assert c is not None
        cards = tuple(x for _, x in trick)
        winner = trick[trick_winner(cards, self.play_trump, c.order)][0]
        side = self.side[winner]
        augen = sum(x.augen for x in cards)
        self._events.append(TrickEvent(trick[0][0], tuple(trick), winner, augen))
        self.side_trick_augen[side] += augen
        self.side_tricks[side] += 1
        self.tricks_won[winner] += 1
        self.tricks.append(TableTrick((trick[0][0], cards, winner)))
        self.trick = []
        self.to_move = winner
        self._check_goal(winner)

    def _check_goal(self, winner: int) -> None:
        c = self.contract
        assert c is not None
        last = not self.hands[winner]
        goal = c.goal
        if goal is Goal.SIXTY_SIX:
            if last:
                # seeds/004: "Hat niemand vor dem Ausspiel zum letzten Stich das Spiel
                # beendet ..., dann gewinnt das Team, das den letzten Stich macht, einen
                # Spielpunkt (der durch irgendwelche Kontras verdoppelt werden kann)."
                self._finish_side(self.side[winner], 1, TableEndReason.LAST_TRICK)
            return
        declarer_won = winner == self.declarer
        if goal is Goal.NO_TRICK:
            if declarer_won:
                self._finish_contract(won=False)
            elif last:
                self._finish_contract(won=True)
            return
        if not declarer_won:
            # seeds/004: "Das Spiel ist verloren, wenn irgendein anderer Spieler einen
            # Stich macht - selbst dann, wenn es der Partner des Spielmachers ist!"
            self._finish_contract(won=False)
            return
        if goal is Goal.FIRST_TRICKS_66:
            if len(self.tricks) == c.goal_tricks:
                self._finish_contract(won=self.augen(0) >= GOING_OUT)
        elif last:
            self._finish_contract(won=True)

    def _declare(self, p: int) -> None:
        # seeds/004: "1 Spielpunkt, wenn die Gegenspieler 33 oder mehr Kartenpunkte
        # haben; 2 ..., wenn die Gegner wenigstens einen Stich gemacht haben, aber
        # weniger als 33 ...; 3 ..., wenn die Gegner keinen Stich gemacht haben."
        # A wrong "Genug": "dann gewinnt das andere Team so viele Spielpunkte, die man
        # gewonnen hätte, wenn die Ansage richtig gewesen wäre."
        mine = self.side[p]
        other = 1 - mine
        points = siegpunkte(self.augen(other), self.side_tricks[other] > 0)
        if self.augen(mine) >= GOING_OUT:
            self._finish_side(mine, points, TableEndReason.DECLARED)
        else:
            self._finish_side(other, points, TableEndReason.WRONG_DECLARATION)

    def _finish_contract(self, won: bool, reason: TableEndReason | None = None) -> None:
        c = self.contract
        assert c is not None
        if reason is None:
            reason = TableEndReason.CONTRACT_WON if won else TableEndReason.CONTRACT_LOST
        # seeds/004: "Wird der Kontrakt verloren, bekommt das andere Team diese
        # Spielpunkte."
        self._finish_side(0 if won else 1, c.points, reason)

    def _finish_side(self, side: int, points: int, reason: TableEndReason) -> None:
        c = self.contract
        assert c is not None
        winners = tuple(s for s in range(self.variant.players) if self.side[s] == side)
        mult = self.multiplier
        total = (points + self.bonus) * mult
        self._finish(TableResult(c.name, self.declarer, winners, total, reason, (self.augen(0), self.augen(1)), mult))

    def _finish(self, result: TableResult) -> None:
        self.result = result
        self.phase = Phase.OVER
        self._cache = []
        self._events.append(GameEnd(result, self.variant.players))

    # ---------------------------------------------------------------- errors
    # ------------------------------------------------------------------ misc
    def view(self, seat: int) -> TableView:
        """What ``seat`` may know; see :func:`table_view`."""
        return table_view(self, seat)

    def __repr__(self) -> str:
        return f"Game.from_position({self.position()!r})"


def seats_clockwise(start: int, n: int) -> Sequence[int]:
    """``n`` seats clockwise from ``start`` (a helper for front ends)."""
    return [(start + i) % n for i in range(n)]


def table_view(table: TableGame, seat: int) -> TableView:
    """Build ``seat``'s view of ``table``: the one place that decides what a player at a table sees
    (:mod:`bummerl.view` says what that is)."""
    n = table.variant.players
    if seat not in range(n):
        raise ValueError(f"seat must be 0..{n - 1}, not {seat!r}")
    hand = table.hands[seat]
    if table.phase in (Phase.CUT, Phase.TRUMP) or (table.phase is Phase.OVER and table.trump is None):
        # Before the trump call every player has looked at the first three cards only.
        hand = list(table.first_three[seat])
    known = tuple(frozenset() if s == seat else frozenset(table.known[s]) for s in range(n))
    legal = tuple(table.legal_actions()) if table.result is None and table.to_move == seat else ()
    return TableView(
        variant=table.variant,
        player=seat,
        dealer=table.dealer,
        vorhand=table.vorhand,
        phase=table.phase,
        to_move=table.to_move,
        hand=tuple(hand),
        knocked=table.knocked,
        trump=table.trump,
        turned_card=table.turned_card,
        bids=tuple(table.bids),
        contract=table.contract.name if table.contract is not None else None,
        declarer=table.declarer,
        doubling=table.doubling,
        doubles=tuple(table.doubles),
        active=table.active,
        side=tuple(table.side),
        discarded=tuple(table.discarded) if seat == table.declarer else (),
        talon_size=len(table.talon),
        trick=tuple(table.trick),
        tricks=tuple(table.tricks),
        tricks_won=tuple(table.tricks_won),
        marriages=tuple(table.marriages),
        augen=(table.augen(0), table.augen(1)),
        hand_sizes=tuple(len(h) for h in table.hands),
        known=known,
        result=table.result,
        legal=legal,
    )


register_engine(TableVariant.FAMILY, TableGame)
