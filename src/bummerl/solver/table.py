"""The exact solver for the card play of a three- or four-player game with all hands known.

A finished deal replayed, or one sampled world of the search bot
(:mod:`bummerl.bots.table_search`): every hand is known and the contract is
fixed, so the card play is a two-sided game of perfect information — the
declarer's side against the defenders.  The value is **game points for a seat's
side** (the side of the player to move unless told otherwise): what that side
wins, or minus what it loses, when everybody plays perfectly.  Kontra steps and
the point for leaving the talon are included, as in
:class:`~bummerl.variants.bauernschnapsen.TableResult`.

>>> from bummerl.table_game import TableGame
>>> t = TableGame.deal("bauernschnapsen", seed=3, dealer=0)
>>> for token in ["cut", "trump:d", "bid:normal", "pass", "pass", "pass", "pass", "pass"]:
...     _ = t.apply(token)
>>> solve(t)
1
>>> values = action_values(t)
>>> max(values.values()) == solve(t), best_action(t) in t.legal_actions()
(True, True)

Every play-phase action counts: cards (with Farbzwang, Stichzwang, trumping
and over-trumping, :func:`bummerl.rules.tricks.legal_follows` mirrored on bitmasks),
marriages (counted once the side has a trick; Vorhand before the first trick,
the others after a trick of their own), "Genug" with or without a marriage (a
wrong "Genug" is a legal move with its own value), the last trick's point and
the goals of the special contracts (no trick, the first three or four tricks
with 66, all tricks).  ``tests/test_table_solver.py`` compares it with plain
minimax over :class:`~bummerl.table_game.TableGame` on small endgames.

How it is made fast:

* the state is a handful of ints (one bitmask per hand, the trick, the Augen of
  both sides) changed and restored in place, never a copied :class:`~bummerl.table_game.TableGame`;
* alpha-beta over the two sides, with a transposition table at the start of
  each trick that keeps lower and upper bounds and the best move;
* move ordering: the transposition table's move first, "Genug" first when it
  ends the game, cards that take the trick before cards that do not, the
  cheapest winner and the cheapest discard first;
* a marriage is always announced when its King or Ober is led and may be
  announced (announcing only adds Augen to the leader's side, which never
  hurts it), so the plain lead of a married King or Ober is not searched.

This module reads a :class:`~bummerl.table_game.TableGame` or a
:class:`~bummerl.view.TableView` plus the sampled hands; it never changes a
table and never prints.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING

from bummerl.actions import Action
from bummerl.cards import CARDS, Card, Rank, Suit, marriage_value, siegpunkte
from bummerl.variants.bauernschnapsen import Contract, Goal, Phase, TableVariant
from bummerl.view import TableView

if TYPE_CHECKING:
    # Only the type: the solver reads a game's state as it reads a view's, and needs no engine to run.
    from bummerl.table_game import TableGame

__all__ = ["PlayState", "TableSolver", "action_values", "best_action", "solve"]

# Move codes inside the search: a card index (0..31) is a plain play, 32 + index
# a marriage led with that card, _GENUG "Genug", _GENUG + 1 + suit "Genug" with a
# marriage of that suit.
_MARRY = 32
_GENUG = 64
_NATURAL = tuple(range(8))
_KING, _OBER = int(Rank.KING), int(Rank.OBER)


class PlayState:
    """The card play in a few ints: hands as bitmasks, the trick, Augen and tricks per side.

    Build it with :meth:`from_table` or :meth:`from_view`; :class:`TableSolver`
    changes it in place and restores it.
    """

    __slots__ = (
        "active",
        "bonus",
        "contract",
        "declarer",
        "hands",
        "marriage_trump",
        "mult",
        "ntricks",
        "order",
        "players",
        "side",
        "side_marriage_augen",
        "side_trick_augen",
        "side_tricks",
        "to_move",
        "trick",
        "tricks_won",
        "trump",
        "vorhand",
    )

    def __init__(
        self,
        *,
        variant: TableVariant,
        contract: Contract,
        trump: Suit | None,
        declarer: int,
        vorhand: int,
        active: Sequence[int],
        side: Sequence[int],
        hands: Sequence[Iterable[Card]],
        trick: Sequence[tuple[int, Card]],
        to_move: int,
        tricks: Sequence[tuple[int, Sequence[Card], int]],
        marriages: Sequence[tuple[int, Suit]],
        doubling: int,
        bonus: int,
    ) -> None:
        n = variant.players
        self.players = n
        self.contract = contract
        #: The trump of the card play (``None`` in contracts without trump).
        self.trump = int(trump) if trump is not None and contract.trump else -1
        #: The called suit: its marriage is worth 40 (as the engine counts it).
        self.marriage_trump = int(trump) if trump is not None else -1
        self.order: tuple[int, ...] = tuple(contract.order) if contract.order is not None else _NATURAL
        self.declarer = declarer
        self.vorhand = vorhand
        self.active = tuple(active)
        self.side = tuple(side)
        masks = [0] * n
        for s, hand in enumerate(hands):
            for c in hand:
                masks[s] |= 1 << c.index
        self.hands = masks
        self.trick = [(s, c.index) for s, c in trick]
        self.to_move = to_move
        self.side_trick_augen = [0, 0]
        self.side_tricks = [0, 0]
        self.tricks_won = [0] * n
        for _leader, cards, winner in tricks:
            w = self.side[winner]
            self.side_trick_augen[w] += sum(c.augen for c in cards)
            self.side_tricks[w] += 1
            self.tricks_won[winner] += 1
        self.ntricks = len(tricks)
        self.side_marriage_augen = [0, 0]
        for seat, suit in marriages:
            self.side_marriage_augen[self.side[seat]] += marriage_value(suit, self.marriage_trump)
        self.mult = 1 << doubling
        self.bonus = bonus

    @classmethod
    def from_table(cls, table: TableGame) -> PlayState:
        """The card play of ``table`` (which must be in the play phase)."""
        if table.phase is not Phase.PLAY:
            raise ValueError(f"the solver needs a table in the card play, not in phase {table.phase.value!r}")
        assert table.contract is not None and table.declarer is not None
        return cls(
            variant=table.variant,
            contract=table.contract,
            trump=table.trump,
            declarer=table.declarer,
            vorhand=table.vorhand,
            active=table.active,
            side=table.side,
            hands=table.hands,
            trick=table.trick,
            to_move=table.to_move,
            tricks=table.tricks,
            marriages=table.marriages,
            doubling=table.doubling,
            bonus=table.bonus,
        )

    @classmethod
    def from_view(cls, view: TableView, hands: Mapping[int, Iterable[Card]]) -> PlayState:
        """The card play seen by ``view`` with the other hands filled in from ``hands`` (a world).

        ``hands`` maps every other active seat to its cards; the viewer's own
        hand comes from the view.
        """
        if view.phase is not Phase.PLAY or view.contract is None or view.declarer is None:
            raise ValueError(f"the solver needs a view of the card play, not of phase {view.phase.value!r}")
        v = view.variant
        all_hands: list[Iterable[Card]] = []
        for s in range(v.players):
            if s == view.player:
                all_hands.append(view.hand)
            elif s in view.active:
                all_hands.append(hands[s])
            else:
                all_hands.append(())
        # A talon still lying in the play phase was left by the soloist: one point more
        # (seeds/004: "in dem Falle ist der Kontrakt einen Spielpunkt mehr wert").
        bonus = 1 if v.talon_size and view.talon_size else 0
        return cls(
            variant=v,
            contract=v.contract(view.contract),
            trump=view.trump,
            declarer=view.declarer,
            vorhand=view.vorhand,
            active=view.active,
            side=view.side,
            hands=all_hands,
            trick=view.trick,
            to_move=view.to_move,
            tricks=view.tricks,
            marriages=view.marriages,
            doubling=view.doubling,
            bonus=bonus,
        )


class TableSolver:
    """Alpha-beta over one :class:`PlayState`, values for the side of ``seat``.

    >>> from bummerl.table_game import TableGame
    >>> t = TableGame.deal("dreierschnapsen", seed=8, dealer=1)
    >>> for token in ["cut", "trump:s", "bid:normal", "pass", "pass", "discard:Qh", "discard:Js", "pass", "pass"]:
    ...     _ = t.apply(token)
    >>> solver = TableSolver(PlayState.from_table(t))
    >>> solver.value() == max(solver.action_values().values())
    True
    """

    def __init__(self, state: PlayState, seat: int | None = None) -> None:
        self.s = state
        self.seat = state.to_move if seat is None else seat
        self.me = state.side[self.seat]
        #: Nodes visited (for benchmarks).
        self.nodes = 0
        self._tt: dict[tuple[int, ...], tuple[int, int, int]] = {}
        c = state.contract
        self._goal = c.goal
        self._goal_tricks = c.goal_tricks
        self._points = c.points
        self._marriages = c.marriages
        order = state.order
        self._strength = [order[i & 7] for i in range(32)]
        self._suit_mask = [0xFF << (8 * s) for s in range(4)]
        # Cards of the same suit that beat card i in this contract's order.
        self._higher = [
            sum(1 << j for j in range(32) if j >> 3 == i >> 3 and order[j & 7] > order[i & 7]) for i in range(32)
        ]
        self._augen = [CARDS[i].augen for i in range(32)]
        n = state.players
        active = state.active
        self._next = [0] * n
        for p in range(n):
            q = (p + 1) % n
            while q not in active:
                q = (q + 1) % n
            self._next[p] = q
        self._ncards = len(active)
        # The cards of one suit in a hand, strongest first, by the byte of that suit.
        self._by_byte = [
            [
                tuple(sorted((8 * suit + r for r in range(8) if b >> r & 1), key=lambda i: -order[i & 7]))
                for b in range(256)
            ]
            for suit in range(4)
        ]
        # The card winning the current trick after each card of it: (seat, card).
        self._wins: list[tuple[int, int]] = []
        for seat, card in state.trick:
            if not self._wins or self._beats(card, self._wins[-1][1]):
                self._wins.append((seat, card))
            else:
                self._wins.append(self._wins[-1])

    # ------------------------------------------------------------ public API
    def value(self) -> int:
        """The value of the position for the side of :attr:`seat`."""
        return self._search(-1000, 1000)

    def action_values(self) -> dict[Action, int]:
        """The exact value (for the side of :attr:`seat`) of every legal action of the player to move."""
        out: dict[Action, int] = {}
        for move in self._moves():
            out[_action(move)] = self._after(move, -1000, 1000)
        return out

    # ------------------------------------------------------------- the search
    def _moves(self) -> list[int]:
        """Legal moves of the player to move, best-looking first."""
        s = self.s
        p = s.to_move
        hand = s.hands[p]
        trick = s.trick
        if trick:
            return self._follows(hand, trick)
        moves: list[int] = []
        marriage_suits: list[int] = []
        may_marry = self._marriages == "all" or (self._marriages == "declarer" and p == s.declarer)
        # seeds/004: "Vorhand kann das schon beim ersten Stich tun. Jeder andere
        # Spieler muß zunächst einen Stich gewinnen".
        if may_marry and (s.tricks_won[p] or (p == s.vorhand and not s.ntricks)):
            for suit in range(4):
                if hand >> (suit * 8 + _KING) & 1 and hand >> (suit * 8 + _OBER) & 1:
                    marriage_suits.append(suit)
        if self._goal is Goal.SIXTY_SIX:
            moves.extend(_GENUG + 1 + suit for suit in marriage_suits)
            if s.ntricks:
                moves.append(_GENUG)
        strength = self._strength
        cards = self._cards(hand)
        cards.sort(key=lambda i: -strength[i])
        married = {suit * 8 + r for suit in marriage_suits for r in (_KING, _OBER)}
        for i in cards:
            moves.append(_MARRY + i if i in married else i)
        return moves

    def _cards(self, mask: int) -> list[int]:
        """The cards of ``mask``, suit by suit, strongest first within a suit."""
        out: list[int] = []
        by_byte = self._by_byte
        for suit in range(4):
            b = mask >> (8 * suit) & 0xFF
            if b:
                out.extend(by_byte[suit][b])
        return out

    def _follows(self, hand: int, trick: list[tuple[int, int]]) -> list[int]:
        s = self.s
        trump = s.trump
        led = trick[0][1] >> 3
        win_seat, win = self._wins[-1]
        friendly = s.side[win_seat] == s.side[s.to_move]
        same = hand & self._suit_mask[led]
        if same:
            if win >> 3 == led:
                higher = same & self._higher[win]
                if higher:
                    # Every card beats: the cheapest winner first (or, onto a partner's
                    # trick, the most Augen first).
                    cards = self._cards(higher)
                    return cards if friendly else cards[::-1]
            cards = self._cards(same)
        elif trump >= 0 and hand & self._suit_mask[trump]:
            trumps = hand & self._suit_mask[trump]
            if win >> 3 == trump:
                over = trumps & self._higher[win]
                if over:
                    cards = self._cards(over)
                    return cards if friendly else cards[::-1]
                cards = self._cards(trumps)
            else:
                cards = self._cards(trumps)
                return cards if friendly else cards[::-1]
        else:
            cards = self._cards(hand)
        augen = self._augen
        if friendly:
            # Smear Augen onto the own side's trick first.
            cards.sort(key=lambda i: -augen[i])
        else:
            beats = self._beats
            cards.sort(key=lambda i: (not beats(i, win), self._strength[i] if beats(i, win) else augen[i]))
        return cards

    def _beats(self, challenger: int, holder: int) -> bool:
        if challenger >> 3 == holder >> 3:
            return self._strength[challenger] > self._strength[holder]
        return challenger >> 3 == self.s.trump

    def _search(self, alpha: int, beta: int) -> int:
        self.nodes += 1
        s = self.s
        key: tuple[int, ...] | None = None
        tt_move = -1
        if not s.trick:
            key = (
                *s.hands,
                s.to_move,
                s.side_trick_augen[0],
                s.side_trick_augen[1],
                s.side_marriage_augen[0],
                s.side_marriage_augen[1],
                (s.side_tricks[0] > 0) | (s.side_tricks[1] > 0) << 1,
                sum(1 << p for p in range(s.players) if s.tricks_won[p]),
            )
            entry = self._tt.get(key)
            if entry is not None:
                lo, hi, tt_move = entry
                # An exact value (lo == hi) is returned like a cut-off.
                if lo >= beta or lo == hi:
                    return lo
                if hi <= alpha:
                    return hi
                alpha = max(alpha, lo)
                beta = min(beta, hi)
        a0, b0 = alpha, beta
        maximizing = s.side[s.to_move] == self.me
        moves = self._moves()
        if tt_move >= 0 and tt_move in moves:
            moves.remove(tt_move)
            moves.insert(0, tt_move)
        best = -1000 if maximizing else 1000
        best_move = moves[0]
        for move in moves:
            v = self._after(move, alpha, beta)
            if maximizing:
                if v > best:
                    best, best_move = v, move
                    if v > alpha:
                        alpha = v
            elif v < best:
                best, best_move = v, move
                if v < beta:
                    beta = v
            if alpha >= beta:
                break
        if key is not None:
            entry = self._tt.get(key)
            lo, hi = (-1000, 1000) if entry is None else entry[:2]
            if best <= a0:
                hi = min(hi, best)
            elif best >= b0:
                lo = max(lo, best)
            else:
                lo = hi = best
            self._tt[key] = (lo, hi, best_move)
        return best

    def _after(self, move: int, alpha: int, beta: int) -> int:
        """The value after ``move`` by the player to move (the state is restored)."""
        s = self.s
        p = s.to_move
        if move >= _GENUG:
            return self._genug(p, move - _GENUG - 1)
        married = -1
        if move >= _MARRY:
            move -= _MARRY
            married = move >> 3
            s.side_marriage_augen[s.side[p]] += marriage_value(married, s.marriage_trump)
        s.hands[p] &= ~(1 << move)
        wins = self._wins
        if not wins or self._beats(move, wins[-1][1]):
            wins.append((p, move))
        else:
            wins.append(wins[-1])
        s.trick.append((p, move))
        if len(s.trick) < self._ncards:
            s.to_move = self._next[p]
            v = self._search(alpha, beta)
        else:
            v = self._complete_trick(alpha, beta)
        s.trick.pop()
        wins.pop()
        s.hands[p] |= 1 << move
        s.to_move = p
        if married >= 0:
            s.side_marriage_augen[s.side[p]] -= marriage_value(married, s.marriage_trump)
        return v

    def _complete_trick(self, alpha: int, beta: int) -> int:
        s = self.s
        trick = s.trick
        winner = self._wins[-1][0]
        side = s.side[winner]
        augen = 0
        for _, card in trick:
            augen += self._augen[card]
        saved_trick = s.trick
        s.side_trick_augen[side] += augen
        s.side_tricks[side] += 1
        s.tricks_won[winner] += 1
        s.ntricks += 1
        saved_wins = self._wins
        s.trick = []
        self._wins = []
        s.to_move = winner
        v = self._goal_value(winner)
        if v is None:
            v = self._search(alpha, beta)
        s.trick = saved_trick
        self._wins = saved_wins
        s.ntricks -= 1
        s.tricks_won[winner] -= 1
        s.side_tricks[side] -= 1
        s.side_trick_augen[side] -= augen
        return v

    def _result(self, side: int, points: int) -> int:
        total = (points + self.s.bonus) * self.s.mult
        return total if side == self.me else -total

    def _augen_of(self, side: int) -> int:
        s = self.s
        if s.side_tricks[side]:
            return s.side_trick_augen[side] + s.side_marriage_augen[side]
        return s.side_trick_augen[side]

    def _goal_value(self, winner: int) -> int | None:
        """The value if the trick just won by ``winner`` ends the game (as ``TableGame._check_goal``)."""
        s = self.s
        last = not s.hands[winner]
        goal = self._goal
        if goal is Goal.SIXTY_SIX:
            # seeds/004: without "Genug" the last trick's team wins one point.
            return self._result(s.side[winner], 1) if last else None
        declarer_won = winner == s.declarer
        if goal is Goal.NO_TRICK:
            if declarer_won:
                return self._result(1, self._points)
            return self._result(0, self._points) if last else None
        if not declarer_won:
            return self._result(1, self._points)
        if goal is Goal.FIRST_TRICKS_66:
            if s.ntricks == self._goal_tricks:
                return self._result(0 if self._augen_of(0) >= 66 else 1, self._points)
            return None
        return self._result(0, self._points) if last else None

    def _genug(self, p: int, marriage: int) -> int:
        """ "Genug" by ``p`` (after showing the marriage of suit ``marriage`` if >= 0), as ``TableGame._declare``."""
        s = self.s
        mine = s.side[p]
        other = 1 - mine
        extra = 0
        if marriage >= 0:
            extra = marriage_value(marriage, s.marriage_trump)
        s.side_marriage_augen[mine] += extra
        points = siegpunkte(self._augen_of(other), s.side_tricks[other] > 0)
        v = self._result(mine if self._augen_of(mine) >= 66 else other, points)
        s.side_marriage_augen[mine] -= extra
        return v


def _action(move: int) -> Action:
    if move == _GENUG:
        return Action.declare()
    if move > _GENUG:
        return Action.declare(Suit(move - _GENUG - 1))
    if move >= _MARRY:
        return Action.marriage(CARDS[move - _MARRY])
    return Action.play(CARDS[move])


def solve(table: TableGame, seat: int | None = None) -> int:
    """The value of ``table``'s card play for the side of ``seat`` (default: the player to move)."""
    return TableSolver(PlayState.from_table(table), seat).value()


def action_values(table: TableGame) -> dict[Action, int]:
    """The exact value of each legal action for the side of the player to move.

    A plain lead of a King or Ober that could be announced as a marriage is
    left out: the marriage is never worse (see the module docstring).
    """
    return TableSolver(PlayState.from_table(table)).action_values()


def best_action(table: TableGame) -> Action:
    """An action of the highest value for the player to move."""
    values = action_values(table)
    return max(values, key=lambda a: values[a])
