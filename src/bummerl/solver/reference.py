"""The pure-Python reference solver: negamax alpha-beta with a transposition table.

It works on the compact :data:`~bummerl.solver.state.State` of
:mod:`bummerl.solver.state` and mirrors :class:`~bummerl.game.Game` rule by
rule; the C core (``_csolver.c``) mirrors this module.  Values are exact game
points (Marken in Schnorps) for the player to move: what they win minus what
the opponent wins under best play of both.

>>> from bummerl.game import Game
>>> from bummerl.solver.state import encode
>>> game = Game.from_position(
...     "schnapsen 1 0 d TdJs/JhAs - - - JdKhAcAhKcKsKdAdQdTs/QhThTcQsQcJc -")
>>> solver = ReferenceSolver(encode(game))
>>> solver.value()
2
>>> sorted(solver.action_values().items())
[(14, 2), (27, 1), (66, -2)]

Seat 0 has 64 Augen.  Leading the trump Ten (code 14) takes the trick, 76
against 31: two game points.  Declaring now (code 66) is wrong and gives seat
1 the two points instead.

The search is deliberately plain: it is the yardstick for the C core, and
its speed matters only for positions near the end of a game.
"""

from __future__ import annotations

from collections.abc import Callable

from bummerl.cards import marriage_value, siegpunkte
from bummerl.solver.state import (
    AUGEN,
    CLOSE_CODE,
    DECLARE_CODE,
    DECLARE_MARRIAGE_BASE,
    EXCHANGE_CODE,
    MARRIAGE_BASE,
    SCORING_HOOKS,
    SCORING_MARKEN,
    Position,
    Rules,
    SearchLimitExceeded,
    State,
    ValueTree,
    card_indices,
)
from bummerl.variants import GameResult
from bummerl.variants.two_player import marken

__all__ = ["ReferenceSolver", "legal_codes"]

_TT_MOVE_SCORE = 1 << 20


class _Scoring:
    """A :class:`~bummerl.variants.two_player.ScoringState` over compact numbers (for custom hooks)."""

    __slots__ = ("_augen", "closed_by", "closed_opponent_augen", "closed_opponent_had_trick", "tricks_won")

    def __init__(self, counted: tuple[int, int], w: tuple[int, int], cl: int, ca: int, ct: int) -> None:
        self._augen = counted
        self.tricks_won = [w[0], w[1]]
        self.closed_by = None if cl < 0 else cl
        self.closed_opponent_augen = ca
        self.closed_opponent_had_trick = bool(ct)

    def augen(self, player: int) -> int:
        return self._augen[player]


class ReferenceSolver:
    """Solves one fully known position and the positions that follow from it.

    The transposition table lives as long as the solver, so asking for
    :meth:`action_values` after :meth:`value` reuses the work.
    """

    def __init__(self, position: Position, max_nodes: int | None = None) -> None:
        self.position = position
        self.rules: Rules = position.rules
        self.trump = position.trump
        self.talon = position.talon
        r = self.rules
        self.exchange_card = position.trump * 8 + r.exchange_rank if r.exchange_rank >= 0 else -1
        self.trump_mask = 0xFF << (8 * position.trump)
        self.inf = r.max_points + 1
        self.nodes = 0
        #: Raise :class:`SearchLimitExceeded` past this many nodes (``None``: never).
        self.max_nodes = max_nodes
        self._tt: dict[State, tuple[int, int, int]] = {}
        self._score: Callable[[bool, int, State], tuple[int | None, int]] = (
            self._score_hooks if r.scoring == SCORING_HOOKS else self._score_builtin
        )

    # ------------------------------------------------------------------ API
    def value(self, state: State | None = None) -> int:
        """The exact value of ``state`` (default: the root) for its player to move."""
        s = self.position.state if state is None else state
        return self._search(s, -self.inf, self.inf)

    def action_values(self, state: State | None = None) -> dict[int, int]:
        """The exact value of every legal action of ``state``, keyed by action code."""
        s = self.position.state if state is None else state
        out: dict[int, int] = {}
        p = s[7]
        for code in legal_codes(self, s):
            child, v = self.apply(s, code)
            if child is not None:
                w = self._search(child, -self.inf, self.inf)
                v = w if child[7] == p else -w
            out[code] = v
        return out

    def value_tree(self, depth: int, state: State | None = None) -> ValueTree:
        """Every legal action's exact value and, ``depth - 1`` moves deep, the values after it.

        ``{code: (value, subtree)}`` for the player to move in ``state``; ``subtree`` (the same for the
        position after the action, for its player to move) is ``None`` where the action ends the game or at
        depth 1.  Above the last level a position's value is the best of its actions' values, so only the
        last level is solved (the table is shared).
        """
        s = self.position.state if state is None else state
        out: ValueTree = {}
        p = s[7]
        for code in legal_codes(self, s):
            child, v = self.apply(s, code)
            sub: ValueTree | None = None
            if child is not None:
                if depth > 1:
                    sub = self.value_tree(depth - 1, child)
                    w = max(value for value, _ in sub.values())
                else:
                    w = self._search(child, -self.inf, self.inf)
                v = w if child[7] == p else -w
            out[code] = (v, sub)
        return out

    # ------------------------------------------------------------ the rules
    def apply(self, s: State, code: int) -> tuple[State | None, int]:
        """Do action ``code`` in ``s``: ``(child, 0)``, or ``(None, value)`` if the game ends.

        A terminal value is for the player to move in ``s``.
        """
        h0, h1, t, tc, cl, ca, ct, p, lead, a0, a1, m0, m1, w0, w1, fl = s
        r = self.rules
        if lead >= 0:  # following: complete the trick
            c = code
            if p:
                h1 &= ~(1 << c)
            else:
                h0 &= ~(1 << c)
            if (c >> 3) == (lead >> 3):
                winner = p if c > lead else 1 - p
            else:
                winner = p if (c >> 3) == self.trump else 1 - p
            pts = AUGEN[lead] + AUGEN[c]
            if winner:
                a1 += pts
                w1 += 1
            else:
                a0 += pts
                w0 += 1
            if t and cl < 0:
                # seeds/000: the winner draws the top card, the loser the next; the
                # face-up trump card is the last card and goes to the loser.
                top = 1 << self.talon[t - 1]
                t -= 1
                nxt = 1 << self.talon[t - 1] if t else 1 << tc
                if t:
                    t -= 1
                else:
                    tc = -1
                if winner:
                    h1 |= top
                    h0 |= nxt
                else:
                    h0 |= top
                    h1 |= nxt
            if not (h1 if winner else h0):
                if r.last_trick_bonus and cl < 0:
                    if winner:
                        a1 += r.last_trick_bonus
                    else:
                        a0 += r.last_trick_bonus
                end: State = (h0, h1, t, tc, cl, ca, ct, winner, -1, a0, a1, m0, m1, w0, w1, fl)
                return None, self._value_of(self._score(False, winner, end), p)
            nxt_state: State = (h0, h1, t, tc, cl, ca, ct, winner, -1, a0, a1, m0, m1, w0, w1, fl)
            if r.auto_declare and self._counted(nxt_state, winner) >= r.target:
                return None, self._value_of(self._score(True, winner, nxt_state), p)
            return nxt_state, 0
        if code < MARRIAGE_BASE:  # lead a card
            if p:
                h1 &= ~(1 << code)
            else:
                h0 &= ~(1 << code)
            return (h0, h1, t, tc, cl, ca, ct, 1 - p, code, a0, a1, m0, m1, w0, w1, 1), 0
        if code < EXCHANGE_CODE:  # marriage: announce, then lead the card
            card = code - MARRIAGE_BASE
            bonus = marriage_value(card >> 3, self.trump)
            if p:
                m1 += bonus
                has_trick = w1 > 0
            else:
                m0 += bonus
                has_trick = w0 > 0
            announced: State = (h0, h1, t, tc, cl, ca, ct, p, -1, a0, a1, m0, m1, w0, w1, fl)
            if r.auto_declare and has_trick and self._counted(announced, p) >= r.target:
                return None, self._value_of(self._score(True, p, announced), p)
            return self.apply(announced, card)
        if code == EXCHANGE_CODE:
            x = self.exchange_card
            if p:
                h1 = (h1 & ~(1 << x)) | (1 << tc)
            else:
                h0 = (h0 & ~(1 << x)) | (1 << tc)
            return (h0, h1, t, x, cl, ca, ct, p, -1, a0, a1, m0, m1, w0, w1, fl), 0
        if code == CLOSE_CODE:
            o = 1 - p
            ca, ct = self._counted(s, o), int((w1 if o else w0) > 0)
            return (h0, h1, t, tc, p, ca, ct, p, -1, a0, a1, m0, m1, w0, w1, fl), 0
        # declare, possibly after showing a marriage
        if code > DECLARE_CODE:
            suit = code - DECLARE_MARRIAGE_BASE
            bonus = marriage_value(suit, self.trump)
            if p:
                m1 += bonus
            else:
                m0 += bonus
            s = (h0, h1, t, tc, cl, ca, ct, p, -1, a0, a1, m0, m1, w0, w1, fl)
        return None, self._value_of(self._score(True, p, s), p)

    @staticmethod
    def _counted(s: State, player: int) -> int:
        """Counted Augen: tricks plus marriages, these only once a trick is won."""
        if player:
            return s[10] + s[12] if s[14] else s[10]
        return s[9] + s[11] if s[13] else s[9]

    @staticmethod
    def _value_of(result: tuple[int | None, int], player: int) -> int:
        winner, points = result
        if winner is None:
            return 0
        return points if winner == player else -points

    def _score_builtin(self, declaration: bool, who: int, s: State) -> tuple[int | None, int]:
        """``(winner, points)`` of a declaration by ``who`` or of the end of cards, ``who`` taking the last trick.

        The same decisions as the variant hooks (:mod:`bummerl.variants.two_player`).
        """
        r = self.rules
        counted = (self._counted(s, 0), self._counted(s, 1))
        has = (s[13] > 0, s[14] > 0)
        cl, ca, ct = s[4], s[5], s[6]
        target = r.target
        marken = r.scoring == SCORING_MARKEN
        if declaration:
            d, o = who, 1 - who
            has_target = counted[d] >= target
            if cl < 0:
                if has_target:
                    return d, self._win_points(d, counted, has, cl, ca, ct)
                return o, (2 if marken else siegpunkte(counted[o], has[o]))
            if cl == d and has_target:
                return d, self._win_points(d, counted, has, cl, ca, ct)
            failure = 4 if marken else (2 if ct else 3)
            return (d if (cl != d and has_target) else o), failure
        last = who
        if cl >= 0:
            if last == cl and counted[cl] >= target:
                return cl, self._win_points(cl, counted, has, cl, ca, ct)
            return 1 - cl, (4 if marken else (2 if ct else 3))
        if not r.undeclared_sixty_six:
            loser = 1 - last
            return last, (siegpunkte(counted[loser], has[loser]) if r.last_trick_augen else 1)
        a, b = counted[0] >= target, counted[1] >= target
        if a and b:
            winner = last
        elif a or b:
            winner = 0 if a else 1
        else:
            return None, 0
        return winner, self._win_points(winner, counted, has, cl, ca, ct)

    def _win_points(
        self, winner: int, counted: tuple[int, int], has: tuple[bool, bool], cl: int, ca: int, ct: int
    ) -> int:
        """Points of a won game (not a failure or a wrong declaration)."""
        loser = 1 - winner
        if self.rules.scoring == SCORING_MARKEN:
            return marken(siegpunkte(counted[loser], has[loser]), cl == winner)
        if cl == winner and not self.rules.count_after_closing:
            return siegpunkte(ca, bool(ct))
        return siegpunkte(counted[loser], has[loser])

    def _score_hooks(self, declaration: bool, who: int, s: State) -> tuple[int | None, int]:
        """Ask the variant's own hooks (variants with custom scoring)."""
        state = _Scoring((self._counted(s, 0), self._counted(s, 1)), (s[13], s[14]), s[4], s[5], s[6])
        v = self.rules.variant
        result: GameResult = v.score_declaration(state, who) if declaration else v.score_end_of_cards(state, who)
        return result.winner, result.points

    # --------------------------------------------------------------- search
    def _search(self, s: State, alpha: int, beta: int) -> int:
        self.nodes += 1
        if self.max_nodes is not None and self.nodes > self.max_nodes:
            raise SearchLimitExceeded(self.nodes)
        tt = self._tt
        entry = tt.get(s)
        tt_move = -1
        lo, hi = -self.inf, self.inf
        if entry is not None:
            lo, hi, tt_move = entry
            if lo >= beta:
                return lo
            if hi <= alpha:
                return hi
            if lo == hi:
                return lo
            if lo > alpha:
                alpha = lo
            if hi < beta:
                beta = hi
        alpha0 = alpha
        p = s[7]
        best = -self.inf - 1
        best_move = -1
        for code in _ordered(self, s, tt_move):
            child, v = self.apply(s, code)
            if child is not None:
                v = self._search(child, alpha, beta) if child[7] == p else -self._search(child, -beta, -alpha)
            if v > best:
                best = v
                best_move = code
                if v > alpha:
                    alpha = v
                    if v >= beta:
                        break
        if best <= alpha0:
            hi = best
        elif best >= beta:
            lo = best
        else:
            lo = hi = best
        tt[s] = (lo, hi, best_move)
        return best


def legal_codes(solver: ReferenceSolver, s: State) -> list[int]:
    """The legal action codes of ``s``, the same set as :meth:`Game.legal_actions`."""
    t, cl, p, lead, fl = s[2], s[4], s[7], s[8], s[15]
    h = s[1] if p else s[0]
    if lead >= 0:
        if t == 0 or cl >= 0:
            h = _strict_follows(h, lead, solver.trump)
        return card_indices(h)
    r = solver.rules
    has_trick = s[14 if p else 13] > 0
    codes = card_indices(h)
    talon_open = t > 0 and cl < 0
    if talon_open:
        x = solver.exchange_card
        if (
            x >= 0
            and h >> x & 1
            and (fl or r.exchange_before_first_lead)
            and (t >= 2 or r.exchange_with_one_face_down)
            and (has_trick or not r.exchange_needs_trick)
        ):
            codes.append(EXCHANGE_CODE)
        if t >= r.close_min_facedown and (has_trick or not r.close_needs_trick):
            codes.append(CLOSE_CODE)
    declare = has_trick and not r.auto_declare
    # Marriages end with an exhausted talon where the variant says so; closing
    # does not exhaust the talon (the engine's rule).
    if r.marriages and (t > 0 or r.marriage_after_talon) and (has_trick or r.marriage_before_trick):
        for suit in range(4):
            if (h >> (suit * 8 + 4)) & 3 == 3:
                codes.append(MARRIAGE_BASE + suit * 8 + 5)
                if not r.marriage_king_only:
                    codes.append(MARRIAGE_BASE + suit * 8 + 4)
                if declare:
                    codes.append(DECLARE_MARRIAGE_BASE + suit)
    if declare:
        codes.append(DECLARE_CODE)
    return codes


def _strict_follows(h: int, lead: int, trump: int) -> int:
    """Farbzwang before Stichzwang, then trumping (seeds/000), as a mask."""
    suit_mask = 0xFF << (lead & ~7)
    same = h & suit_mask
    if same:
        higher = same & ~((2 << lead) - 1)
        return higher or same
    trumps = h & (0xFF << (8 * trump))
    return trumps or h


def _ordered(solver: ReferenceSolver, s: State, tt_move: int) -> list[int]:
    """Legal codes, most promising first: the table's move, cheap terminals, then heuristics."""
    codes = legal_codes(solver, s)
    if len(codes) == 1:
        return codes
    trump = solver.trump
    lead = s[8]
    scored = []
    if lead >= 0:
        lead_suit = lead >> 3
        for c in codes:
            suit = c >> 3
            wins = (c > lead) if suit == lead_suit else suit == trump
            if wins:
                score = 100 + AUGEN[lead] + AUGEN[c] - (10 + (c & 7) if suit == trump and lead_suit != trump else 0)
            else:
                score = -AUGEN[c] - (20 if suit == trump else 0)
            scored.append((_TT_MOVE_SCORE if c == tt_move else score, c))
    else:
        p = s[7]
        strict = s[2] == 0 or s[4] >= 0
        counted = solver._counted(s, p)
        target = solver.rules.target
        for c in codes:
            if c < MARRIAGE_BASE:
                if strict:
                    score = (c & 7) + (20 if (c >> 3) == trump else 0)
                else:  # open talon: high cards first (measured: fewer nodes)
                    score = AUGEN[c] + (c & 7)
            elif c < EXCHANGE_CODE:
                score = 800 + marriage_value((c - MARRIAGE_BASE) >> 3, trump)
            elif c == EXCHANGE_CODE:
                score = 900
            elif c == CLOSE_CODE:  # early: a closed game is small and often decisive
                score = 850
            elif c == DECLARE_CODE:
                score = 1000 if counted >= target else -1000
            else:
                extra = marriage_value(c - DECLARE_MARRIAGE_BASE, trump)
                score = 1000 + extra if counted + extra >= target else -1000
            scored.append((_TT_MOVE_SCORE if c == tt_move else score, c))
    scored.sort(reverse=True)
    return [c for _, c in scored]
