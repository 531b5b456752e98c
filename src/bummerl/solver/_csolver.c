/*
 * The solver's compiled core: negamax alpha-beta with a transposition table over
 * the compact state of bummerl/solver/state.py.  It mirrors reference.py rule by
 * rule (tests/test_solver.py checks both against each other and against plain
 * minimax over the Game API); change the two together.
 *
 * Python API (called by bummerl/solver/__init__.py only):
 *   solve(params, trump, talon, state[, limit])          -> (value, nodes)
 *   action_values(params, trump, talon, state[, limit])  -> ([(code, value), ...], nodes)
 *   value_tree(depth, params, trump, talon, state[, limit]) -> ([(code, value, subtree), ...], nodes)
 * With a node limit, a search that needs more returns (None, nodes) instead.
 *   set_table_bits(bits)                        -> None  (table of 2**bits entries)
 *   set_options(mtd)                            -> None  (root bisection on/off, for measuring)
 * Exact values come from null-window tests that bisect [-max_points, max_points]
 * (the values are a handful of integers), each a fail-soft alpha-beta search
 * whose table entries keep a lower and an upper bound.
 * params = (flags, exchange_rank, last_trick_bonus, target, scoring, max_points),
 * talon = bytes of card indices (next card drawn last), state = the 16-tuple of
 * state.py.  Values are for the player to move.
 *
 * The module keeps one transposition table; entries carry the number of the
 * search that wrote them, so a new search starts with an empty table at no
 * cost.  The GIL is held throughout: the table is not shared between threads.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* flag bits, as in state.py */
#define F_EXCHANGE_BEFORE_FIRST_LEAD 1
#define F_EXCHANGE_WITH_ONE_FACE_DOWN 2
#define F_EXCHANGE_NEEDS_TRICK 4
#define F_CLOSE_NEEDS_TRICK 8
#define F_MARRIAGES 16
#define F_MARRIAGE_BEFORE_TRICK 32
#define F_MARRIAGE_KING_ONLY 64
#define F_MARRIAGE_AFTER_TALON 128
#define F_AUTO_DECLARE 256
#define F_UNDECLARED_SIXTY_SIX 512
#define F_LAST_TRICK_AUGEN 1024
#define F_COUNT_AFTER_CLOSING 2048
#define F_CLOSE_WITH_ONE_FACE_DOWN 4096 /* option close_min_facedown=1 (default 2) */

#define SCORING_STANDARD 0
#define SCORING_MARKEN 1

/* action codes, as Action.code */
#define MARRIAGE_BASE 32
#define EXCHANGE_CODE 64
#define CLOSE_CODE 65
#define DECLARE_CODE 66
#define DECLARE_MARRIAGE_BASE 67

#define MAX_MOVES 40
#define MAX_TALON 32

static const int AUGEN_OF_RANK[8] = {0, 0, 0, 2, 3, 4, 10, 11};
#define AUGEN(c) (AUGEN_OF_RANK[(c) & 7])

typedef struct {
    uint32_t h[2];  /* hands */
    uint8_t a[2];   /* trick Augen */
    uint8_t m[2];   /* marriage Augen */
    uint8_t w[2];   /* 1 once the seat has a trick */
    int8_t t;       /* face-down talon cards left */
    int8_t tc;      /* face-up trump card, -1 once drawn */
    int8_t cl;      /* closer, -1 if open */
    uint8_t ca;     /* closer's opponent's Augen at closing */
    uint8_t ct;     /* closer's opponent had a trick at closing */
    uint8_t p;      /* to move */
    int8_t lead;    /* card led, -1 */
    uint8_t fl;     /* first lead done */
} State;

typedef struct {
    uint64_t k0, k1;
    int8_t lo, hi;
    uint8_t move;
    uint8_t depth;
    uint32_t gen;
} Entry;

/* The constants of the search under way. */
static struct {
    int flags, exchange_card, bonus, target, scoring, maxp, trump;
    uint32_t trump_mask;
    int talon[MAX_TALON];
    unsigned long long nodes;
    unsigned long long limit; /* 0: none; else give up after this many nodes */
    int aborted;
} G;

static Entry *table = NULL;
static uint64_t table_mask = 0;
static int table_bits = 20;
static uint32_t generation = 0;

static int ensure_table(void)
{
    if (table != NULL) return 0;
    size_t n = (size_t)1 << table_bits;
    table = (Entry *)calloc(n, sizeof(Entry));
    if (table == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    table_mask = n - 1;
    generation = 0;
    return 0;
}

static inline int counted(const State *s, int player)
{
    return s->w[player] ? s->a[player] + s->m[player] : s->a[player];
}

static inline int siegpunkte(int opp_augen, int opp_has_trick)
{
    if (!opp_has_trick) return 3;
    return opp_augen <= 32 ? 2 : 1;
}

/* Points of a game won by `winner` (not a failure or a wrong declaration). */
static int win_points(const State *s, int winner)
{
    int loser = 1 - winner;
    if (G.scoring == SCORING_MARKEN) {
        int covered = s->cl == winner;
        if (!s->w[loser]) return covered ? 8 : 6;
        if (counted(s, loser) < 33) return covered ? 4 : 2;
        return covered ? 2 : 1;
    }
    if (s->cl == winner && !(G.flags & F_COUNT_AFTER_CLOSING)) return siegpunkte(s->ca, s->ct);
    return siegpunkte(counted(s, loser), s->w[loser]);
}

/* The value for seat `me` of a declaration by `d` (the variant's score_declaration). */
static int score_declaration(const State *s, int d, int me)
{
    int o = 1 - d, winner, points;
    int marken = G.scoring == SCORING_MARKEN;
    int has_target = counted(s, d) >= G.target;
    if (s->cl < 0) {
        if (has_target) {
            winner = d;
            points = win_points(s, d);
        } else {
            winner = o;
            points = marken ? 2 : siegpunkte(counted(s, o), s->w[o]);
        }
    } else if (s->cl == d && has_target) {
        winner = d;
        points = win_points(s, d);
    } else {
        points = marken ? 4 : (s->ct ? 2 : 3);
        winner = (s->cl != d && has_target) ? d : o;
    }
    return winner == me ? points : -points;
}

/* The value for seat `me` when the cards run out, `last` taking the last trick. */
static int score_end(const State *s, int last, int me)
{
    int winner, points;
    if (s->cl >= 0) {
        if (last == s->cl && counted(s, s->cl) >= G.target) {
            winner = s->cl;
            points = win_points(s, winner);
        } else {
            winner = 1 - s->cl;
            points = G.scoring == SCORING_MARKEN ? 4 : (s->ct ? 2 : 3);
        }
    } else if (!(G.flags & F_UNDECLARED_SIXTY_SIX)) {
        int loser = 1 - last;
        winner = last;
        points = (G.flags & F_LAST_TRICK_AUGEN) ? siegpunkte(counted(s, loser), s->w[loser]) : 1;
    } else {
        int a = counted(s, 0) >= G.target, b = counted(s, 1) >= G.target;
        if (a && b)
            winner = last;
        else if (a)
            winner = 0;
        else if (b)
            winner = 1;
        else
            return 0;
        points = win_points(s, winner);
    }
    return winner == me ? points : -points;
}

static inline uint32_t strict_follows(uint32_t h, int lead)
{
    uint32_t suit_mask = 0xFFu << (lead & ~7);
    uint32_t same = h & suit_mask;
    if (same) {
        uint32_t higher = same & ~((2u << lead) - 1u);
        return higher ? higher : same;
    }
    uint32_t trumps = h & G.trump_mask;
    return trumps ? trumps : h;
}

/* The legal action codes of s, in any order. */
static int gen_moves(const State *s, uint8_t *moves)
{
    int n = 0, p = s->p;
    uint32_t h = s->h[p];
    if (s->lead >= 0) {
        if (s->t == 0 || s->cl >= 0) h = strict_follows(h, s->lead);
        while (h) {
            moves[n++] = (uint8_t)__builtin_ctz(h);
            h &= h - 1;
        }
        return n;
    }
    int has_trick = s->w[p];
    int f = G.flags;
    for (uint32_t b = h; b; b &= b - 1) moves[n++] = (uint8_t)__builtin_ctz(b);
    if (s->t > 0 && s->cl < 0) {
        int x = G.exchange_card;
        if (x >= 0 && ((h >> x) & 1) && (s->fl || (f & F_EXCHANGE_BEFORE_FIRST_LEAD)) &&
            (s->t >= 2 || (f & F_EXCHANGE_WITH_ONE_FACE_DOWN)) && (has_trick || !(f & F_EXCHANGE_NEEDS_TRICK)))
            moves[n++] = EXCHANGE_CODE;
        if ((s->t >= 2 || (f & F_CLOSE_WITH_ONE_FACE_DOWN)) && (has_trick || !(f & F_CLOSE_NEEDS_TRICK)))
            moves[n++] = CLOSE_CODE;
    }
    int declare = has_trick && !(f & F_AUTO_DECLARE);
    if ((f & F_MARRIAGES) && (s->t > 0 || (f & F_MARRIAGE_AFTER_TALON)) && (has_trick || (f & F_MARRIAGE_BEFORE_TRICK))) {
        for (int suit = 0; suit < 4; suit++) {
            if (((h >> (suit * 8 + 4)) & 3u) == 3u) {
                moves[n++] = (uint8_t)(MARRIAGE_BASE + suit * 8 + 5);
                if (!(f & F_MARRIAGE_KING_ONLY)) moves[n++] = (uint8_t)(MARRIAGE_BASE + suit * 8 + 4);
                if (declare) moves[n++] = (uint8_t)(DECLARE_MARRIAGE_BASE + suit);
            }
        }
    }
    if (declare) moves[n++] = DECLARE_CODE;
    return n;
}

/* Do `code` in s.  Returns 0 and fills *c, or 1 and sets *value (for s->p) if the game ends. */
static int apply(const State *s, int code, State *c, int *value)
{
    int p = s->p;
    *c = *s;
    if (s->lead >= 0) {
        int lead = s->lead, winner;
        c->h[p] &= ~(1u << code);
        if ((code >> 3) == (lead >> 3))
            winner = code > lead ? p : 1 - p;
        else
            winner = (code >> 3) == G.trump ? p : 1 - p;
        c->a[winner] += (uint8_t)(AUGEN(lead) + AUGEN(code));
        c->w[winner] = 1;
        if (c->t && c->cl < 0) {
            /* seeds/000: the winner draws first; the face-up trump card goes last, to the loser */
            uint32_t top = 1u << G.talon[c->t - 1];
            c->t--;
            uint32_t next;
            if (c->t) {
                next = 1u << G.talon[c->t - 1];
                c->t--;
            } else {
                next = 1u << c->tc;
                c->tc = -1;
            }
            c->h[winner] |= top;
            c->h[1 - winner] |= next;
        }
        c->lead = -1;
        c->p = (uint8_t)winner;
        if (!c->h[winner]) {
            if (G.bonus && c->cl < 0) c->a[winner] += (uint8_t)G.bonus;
            *value = score_end(c, winner, p);
            return 1;
        }
        if ((G.flags & F_AUTO_DECLARE) && counted(c, winner) >= G.target) {
            *value = score_declaration(c, winner, p);
            return 1;
        }
        return 0;
    }
    if (code < MARRIAGE_BASE) {
        c->h[p] &= ~(1u << code);
        c->lead = (int8_t)code;
        c->p = (uint8_t)(1 - p);
        c->fl = 1;
        return 0;
    }
    if (code < EXCHANGE_CODE) {
        int card = code - MARRIAGE_BASE;
        c->m[p] += (uint8_t)((card >> 3) == G.trump ? 40 : 20);
        if ((G.flags & F_AUTO_DECLARE) && c->w[p] && counted(c, p) >= G.target) {
            *value = score_declaration(c, p, p);
            return 1;
        }
        c->h[p] &= ~(1u << card);
        c->lead = (int8_t)card;
        c->p = (uint8_t)(1 - p);
        c->fl = 1;
        return 0;
    }
    if (code == EXCHANGE_CODE) {
        c->h[p] = (c->h[p] & ~(1u << G.exchange_card)) | (1u << s->tc);
        c->tc = (int8_t)G.exchange_card;
        return 0;
    }
    if (code == CLOSE_CODE) {
        int o = 1 - p;
        c->cl = (int8_t)p;
        c->ca = (uint8_t)counted(s, o);
        c->ct = s->w[o];
        return 0;
    }
    if (code > DECLARE_CODE) {
        int suit = code - DECLARE_MARRIAGE_BASE;
        c->m[p] += (uint8_t)(suit == G.trump ? 40 : 20);
    }
    *value = score_declaration(c, p, p);
    return 1;
}

/* Null-window bisection at the root (off only to measure plain alpha-beta). */
static int use_mtd = 1;

/* Move ordering: the table's move, cheap terminals, then card heuristics (as reference.py). */
static int order_moves(const State *s, uint8_t *moves, int n, int tt_move)
{
    int scores[MAX_MOVES];
    int trump = G.trump;
    if (s->lead >= 0) {
        int lead = s->lead, lead_suit = lead >> 3;
        for (int i = 0; i < n; i++) {
            int c = moves[i], suit = c >> 3, sc;
            int wins = suit == lead_suit ? c > lead : suit == trump;
            if (wins)
                sc = 100 + AUGEN(lead) + AUGEN(c) - ((suit == trump && lead_suit != trump) ? 10 + (c & 7) : 0);
            else
                sc = -AUGEN(c) - (suit == trump ? 20 : 0);
            scores[i] = c == tt_move ? (1 << 30) : sc;
        }
    } else {
        int strict = s->t == 0 || s->cl >= 0;
        int have = counted(s, s->p);
        for (int i = 0; i < n; i++) {
            int c = moves[i], sc;
            if (c < MARRIAGE_BASE) {
                if (strict)
                    sc = (c & 7) + ((c >> 3) == trump ? 20 : 0);
                else
                    sc = AUGEN(c) + (c & 7); /* open talon: high cards first */
            } else if (c < EXCHANGE_CODE) {
                sc = 800 + (((c - MARRIAGE_BASE) >> 3) == trump ? 40 : 20);
            } else if (c == EXCHANGE_CODE) {
                sc = 900;
            } else if (c == CLOSE_CODE) {
                sc = 850;
            } else if (c == DECLARE_CODE) {
                sc = have >= G.target ? 1000 : -1000;
            } else {
                int extra = (c - DECLARE_MARRIAGE_BASE) == trump ? 40 : 20;
                sc = have + extra >= G.target ? 1000 + extra : -1000;
            }
            scores[i] = c == tt_move ? (1 << 30) : sc;
        }
    }
    /* insertion sort: score descending, then code descending (as Python's sort) */
    for (int i = 1; i < n; i++) {
        int sc = scores[i];
        uint8_t mv = moves[i];
        int j = i - 1;
        while (j >= 0 && (scores[j] < sc || (scores[j] == sc && moves[j] < mv))) {
            scores[j + 1] = scores[j];
            moves[j + 1] = moves[j];
            j--;
        }
        scores[j + 1] = sc;
        moves[j + 1] = mv;
    }
    return n;
}

static inline void make_key(const State *s, uint64_t *k0, uint64_t *k1)
{
    *k0 = (uint64_t)s->h[0] | ((uint64_t)s->h[1] << 32);
    /* seat 1's trick Augen follow from seat 0's and the cards still out */
    *k1 = (uint64_t)(uint8_t)s->t | ((uint64_t)(s->tc + 1) << 5) | ((uint64_t)(s->cl + 1) << 11) |
          ((uint64_t)s->ca << 13) | ((uint64_t)s->ct << 21) | ((uint64_t)s->p << 22) |
          ((uint64_t)(s->lead + 1) << 23) | ((uint64_t)s->a[0] << 29) | ((uint64_t)s->m[0] << 37) |
          ((uint64_t)s->m[1] << 45) | ((uint64_t)s->w[0] << 53) | ((uint64_t)s->w[1] << 54) |
          ((uint64_t)s->fl << 55);
}

static inline uint64_t mix(uint64_t k0, uint64_t k1)
{
    uint64_t x = k0 * 0x9E3779B97F4A7C15ull ^ (k1 + 0x632BE59BD9B4E019ull) * 0xC2B2AE3D27D4EB4Full;
    x ^= x >> 29;
    x *= 0xBF58476D1CE4E5B9ull;
    x ^= x >> 32;
    return x;
}


static int search(const State *s, int alpha, int beta)
{
    uint64_t k0, k1;
    if (++G.nodes > G.limit && G.limit) {
        G.aborted = 1;
        return 0;
    }
    make_key(s, &k0, &k1);
    Entry *bucket = &table[mix(k0, k1) & table_mask & ~(uint64_t)1];
    Entry *e = NULL;
    int lo = -G.maxp - 1, hi = G.maxp + 1, tt_move = -1;
    for (int i = 0; i < 2; i++) {
        Entry *b = &bucket[i];
        if (b->gen == generation && b->k0 == k0 && b->k1 == k1) {
            e = b;
            break;
        }
    }
    if (e != NULL) {
        lo = e->lo;
        hi = e->hi;
        tt_move = e->move;
        if (lo >= beta) return lo;
        if (hi <= alpha) return hi;
        if (lo == hi) return lo;
        if (lo > alpha) alpha = lo;
        if (hi < beta) beta = hi;
    }
    int alpha0 = alpha;
    uint8_t moves[MAX_MOVES];
    int n = gen_moves(s, moves);
    if (n > 1) order_moves(s, moves, n, tt_move);
    int best = -G.maxp - 2, best_move = moves[0];
    for (int i = 0; i < n; i++) {
        State c;
        int v;
        if (!apply(s, moves[i], &c, &v)) {
            v = c.p == s->p ? search(&c, alpha, beta) : -search(&c, -beta, -alpha);
            if (G.aborted) return 0; /* nothing below is trustworthy: store nothing */
        }
        if (v > best) {
            best = v;
            best_move = moves[i];
            if (v > alpha) {
                alpha = v;
                if (v >= beta) break;
            }
        }
    }
    if (best <= alpha0)
        hi = best;
    else if (best >= beta)
        lo = best;
    else
        lo = hi = best;
    int depth = __builtin_popcount(s->h[0] | s->h[1]) + s->t;
    if (e == NULL) {
        /* replace a stale entry, else the one with less work behind it */
        e = &bucket[0];
        if (bucket[0].gen == generation && (bucket[1].gen != generation || bucket[1].depth < bucket[0].depth))
            e = &bucket[1];
        e->k0 = k0;
        e->k1 = k1;
        e->gen = generation;
    }
    e->lo = (int8_t)lo;
    e->hi = (int8_t)hi;
    e->move = (uint8_t)best_move;
    e->depth = (uint8_t)depth;
    return best;
}

/* The exact value of s: null-window tests (MTD-style bisection) that share the table. */
static int solve_exact(const State *s)
{
    if (!use_mtd) return search(s, -G.maxp, G.maxp);

    int lo = -G.maxp, hi = G.maxp;
    while (lo < hi) {
        int x = (lo + hi + 1) >> 1; /* test: value >= x ? */
        int v = search(s, x - 1, x);
        if (G.aborted) return 0;
        if (v >= x)
            lo = v;
        else
            hi = v;
    }
    return lo;
}

/* ------------------------------------------------------------------ Python glue */

static int parse_args(PyObject *args, State *s)
{
    int flags, exchange_rank, bonus, target, scoring, maxp, trump;
    const char *talon;
    Py_ssize_t talon_len;
    unsigned long h0, h1;
    int t, tc, cl, ca, ct, p, lead, a0, a1, m0, m1, w0, w1, fl;
    unsigned long long limit = 0;
    if (!PyArg_ParseTuple(args, "(iiiiii)iy#(kkiiiiiiiiiiiiii)|K", &flags, &exchange_rank, &bonus, &target,
                          &scoring, &maxp, &trump, &talon, &talon_len, &h0, &h1, &t, &tc, &cl, &ca, &ct, &p, &lead,
                          &a0, &a1, &m0, &m1, &w0, &w1, &fl, &limit))
        return -1;
    if (scoring != SCORING_STANDARD && scoring != SCORING_MARKEN) {
        PyErr_SetString(PyExc_ValueError, "the C core scores only the built-in variants");
        return -1;
    }
    if (talon_len > MAX_TALON || t < 0 || t > talon_len || trump < 0 || trump > 3 || p < 0 || p > 1 ||
        h0 > 0xFFFFFFFFul || h1 > 0xFFFFFFFFul || maxp < 1 || maxp > 100 || lead < -1 || lead > 31 || tc < -1 ||
        tc > 31 || cl < -1 || cl > 1 || a0 < 0 || a0 > 255 || a1 < 0 || a1 > 255 || m0 < 0 || m0 > 255 ||
        m1 < 0 || m1 > 255 || ca < 0 || ca > 255) {
        PyErr_SetString(PyExc_ValueError, "solver state out of range");
        return -1;
    }
    for (Py_ssize_t i = 0; i < talon_len; i++) {
        if ((unsigned char)talon[i] > 31) {
            PyErr_SetString(PyExc_ValueError, "talon card index out of range");
            return -1;
        }
        G.talon[i] = (unsigned char)talon[i];
    }
    G.flags = flags;
    G.exchange_card = exchange_rank >= 0 ? trump * 8 + exchange_rank : -1;
    G.bonus = bonus;
    G.target = target;
    G.scoring = scoring;
    G.maxp = maxp;
    G.trump = trump;
    G.trump_mask = 0xFFu << (8 * trump);
    G.nodes = 0;
    G.limit = limit;
    G.aborted = 0;
    memset(s, 0, sizeof(*s));
    s->h[0] = (uint32_t)h0;
    s->h[1] = (uint32_t)h1;
    s->t = (int8_t)t;
    s->tc = (int8_t)tc;
    s->cl = (int8_t)cl;
    s->ca = (uint8_t)ca;
    s->ct = (uint8_t)(ct != 0);
    s->p = (uint8_t)p;
    s->lead = (int8_t)lead;
    s->a[0] = (uint8_t)a0;
    s->a[1] = (uint8_t)a1;
    s->m[0] = (uint8_t)m0;
    s->m[1] = (uint8_t)m1;
    s->w[0] = (uint8_t)(w0 > 0);
    s->w[1] = (uint8_t)(w1 > 0);
    s->fl = (uint8_t)(fl != 0);
    if (ensure_table() < 0) return -1;
    generation++;
    if (generation == 0) { /* wrapped: forget everything once */
        memset(table, 0, (table_mask + 1) * sizeof(Entry));
        generation = 1;
    }
    return 0;
}

static PyObject *py_solve(PyObject *self, PyObject *args)
{
    State s;
    (void)self;
    if (parse_args(args, &s) < 0) return NULL;
    int v = solve_exact(&s);
    if (G.aborted) return Py_BuildValue("(OK)", Py_None, G.nodes);
    return Py_BuildValue("(iK)", v, G.nodes);
}

static PyObject *py_action_values(PyObject *self, PyObject *args)
{
    State s;
    (void)self;
    if (parse_args(args, &s) < 0) return NULL;
    uint8_t moves[MAX_MOVES];
    int n = gen_moves(&s, moves);
    PyObject *out = PyList_New(n);
    if (out == NULL) return NULL;
    for (int i = 0; i < n; i++) {
        State c;
        int v;
        if (!apply(&s, moves[i], &c, &v)) {
            int w = solve_exact(&c);
            if (G.aborted) {
                Py_DECREF(out);
                return Py_BuildValue("(OK)", Py_None, G.nodes);
            }
            v = c.p == s.p ? w : -w;
        }
        PyObject *item = Py_BuildValue("(ii)", (int)moves[i], v);
        if (item == NULL) {
            Py_DECREF(out);
            return NULL;
        }
        PyList_SET_ITEM(out, i, item);
    }
    return Py_BuildValue("(NK)", out, G.nodes);
}

/* The values of every action of s and, to the given depth, of every action after each of them: a list of
 * (code, value, subtree) for the player to move in s, subtree None for an ending action or at depth 1; *best
 * is the largest value (s's own).  Below the first level a position's value is the best of its actions' values,
 * so only the deepest level is solved.  All searches share the table (one generation).  NULL with G.aborted
 * set: the node limit was reached. */
static PyObject *value_tree(const State *s, int depth, int *best)
{
    uint8_t moves[MAX_MOVES];
    int n = gen_moves(s, moves);
    PyObject *out = PyList_New(n);
    if (out == NULL) return NULL;
    *best = -G.maxp - 2;
    for (int i = 0; i < n; i++) {
        State c;
        int v;
        PyObject *sub = Py_None;
        Py_INCREF(sub);
        if (!apply(s, moves[i], &c, &v)) {
            int w;
            if (depth > 1) {
                Py_DECREF(sub);
                sub = value_tree(&c, depth - 1, &w);
                if (sub == NULL) {
                    Py_DECREF(out);
                    return NULL;
                }
            } else {
                w = solve_exact(&c);
                if (G.aborted) {
                    Py_DECREF(sub);
                    Py_DECREF(out);
                    return NULL;
                }
            }
            v = c.p == s->p ? w : -w;
        }
        if (v > *best) *best = v;
        PyObject *item = Py_BuildValue("(iiN)", (int)moves[i], v, sub);
        if (item == NULL) {
            Py_DECREF(out);
            return NULL;
        }
        PyList_SET_ITEM(out, i, item);
    }
    return out;
}

static PyObject *py_value_tree(PyObject *self, PyObject *args)
{
    State s;
    int depth;
    (void)self;
    PyObject *rest;
    /* value_tree(depth, params, trump, talon, state[, limit]) */
    if (PyTuple_GET_SIZE(args) < 1) {
        PyErr_SetString(PyExc_TypeError, "value_tree needs a depth");
        return NULL;
    }
    depth = (int)PyLong_AsLong(PyTuple_GET_ITEM(args, 0));
    if (depth == -1 && PyErr_Occurred()) return NULL;
    if (depth < 1 || depth > 4) {
        PyErr_SetString(PyExc_ValueError, "value_tree depth must be between 1 and 4");
        return NULL;
    }
    rest = PyTuple_GetSlice(args, 1, PyTuple_GET_SIZE(args));
    if (rest == NULL) return NULL;
    int bad = parse_args(rest, &s);
    Py_DECREF(rest);
    if (bad < 0) return NULL;
    int best;
    PyObject *tree = value_tree(&s, depth, &best);
    if (tree == NULL) {
        if (PyErr_Occurred()) return NULL;
        return Py_BuildValue("(OK)", Py_None, G.nodes);
    }
    return Py_BuildValue("(NK)", tree, G.nodes);
}

static PyObject *py_set_table_bits(PyObject *self, PyObject *args)
{
    int bits;
    (void)self;
    if (!PyArg_ParseTuple(args, "i", &bits)) return NULL;
    if (bits < 10 || bits > 28) {
        PyErr_SetString(PyExc_ValueError, "table bits must be between 10 and 28");
        return NULL;
    }
    free(table);
    table = NULL;
    table_bits = bits;
    if (ensure_table() < 0) return NULL;
    Py_RETURN_NONE;
}

static PyObject *py_set_options(PyObject *self, PyObject *args)
{
    (void)self;
    if (!PyArg_ParseTuple(args, "p", &use_mtd)) return NULL;
    Py_RETURN_NONE;
}

static PyMethodDef methods[] = {
    {"solve", py_solve, METH_VARARGS, "solve(params, trump, talon, state[, limit]) -> (value, nodes)"},
    {"action_values", py_action_values, METH_VARARGS,
     "action_values(params, trump, talon, state[, limit]) -> ([(code, value), ...], nodes)"},
    {"value_tree", py_value_tree, METH_VARARGS,
     "value_tree(depth, params, trump, talon, state[, limit]) -> ([(code, value, subtree), ...], nodes)"},
    {"set_options", py_set_options, METH_VARARGS, "set_options(mtd): null-window bisection at the root on or off"},
    {"set_table_bits", py_set_table_bits, METH_VARARGS, "set_table_bits(bits): use a table of 2**bits entries"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_csolver", "The compiled core of bummerl.solver (see _csolver.c).", -1, methods,
    NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__csolver(void) { return PyModule_Create(&module); }
