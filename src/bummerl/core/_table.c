/* The compiled core of the table family (Dreierschnapsen, Bauernschnapsen): deal, cut, trump call, bidding,
 * talon, doubling, play, results, the RL observation and action mask, and N games stepped in one call.
 *
 * bummerl.table_game is the specification and the reference (pure Python, always there); this module plays
 * the same games from the same seeds, only faster, behind the interface every core shares (bummerl.core's
 * docstring: State, Batch, deal, random_games).  It knows no variant by name: bummerl.core.table.table_config
 * hands it a variant's data (players, hand and talon sizes, the options that change the flow, and every
 * contract of TableVariant.contracts with its bidders, trump, lead, goal, rank order, requirement and
 * marriages), so a variant stays data in bummerl.variants and an option added there reaches this core
 * through that one function.  Actions are the numbers of bummerl.rl.encoding.ActionSpace (play = card index,
 * marriage = 32 + card, declare 66, declare:suit 67 + suit, cut 71, knock 72, trump 73 + suit, turn 77, pass
 * 78, Kontra 78 + level, take-talon 82, skip-talon 83, discard 84 + card, bid 116 + the contract's place); the
 * legal actions come in the reference's menu order.  The encoding is ViewEncoder.observation (and
 * information_state) of the seat's view, entry for entry.  bench/core_table_diff.py and tests/test_core_table.py
 * compare all of it with the reference, and the batch with bummerl.rl.vector.PythonBatch.
 *
 * No I/O, no global state, no randomness but the seeds given (SplitMix64 as bummerl.rng specifies it).
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

/* For _core.h's Batch and module functions. */
#define CORE_MODULE "_table"
#define CORE_GAMES "table"
#include "_core.h"

/* ------------------------------------------------------------------------------------------ constants */
enum { PH_CUT, PH_TRUMP, PH_BIDDING, PH_TALON, PH_DOUBLING, PH_PLAY, PH_OVER, PHASES };
enum { G_SIXTY_SIX, G_NO_TRICK, G_FIRST_TRICKS_66, G_ALL_TRICKS, G_CLAIM };
enum { B_VORHAND, B_VORHAND_TEAM, B_OPPONENTS, B_NOT_VORHAND, B_ANY };
enum { RQ_NONE, RQ_ACE, RQ_FULL_SUIT, RQ_ALL_TRUMPS };
enum { M_NONE, M_ALL, M_DECLARER };
enum { R_DECLARED, R_WRONG_DECLARATION, R_LAST_TRICK, R_CONTRACT_WON, R_CONTRACT_LOST, R_CLAIMED, R_REDEAL };

enum {
    A_MARRIAGE = 32,
    A_DECLARE = 66,
    A_DECLARE_SUIT = 67,
    A_CUT = 71,
    A_KNOCK = 72,
    A_TRUMP = 73,
    A_TURN = 77,
    A_PASS = 78,
    A_DOUBLE = 78, /* + level 1..3 */
    A_TAKE = 82,
    A_SKIP = 83,
    A_DISCARD = 84,
    A_BID = 116
};

#define MAX_CONTRACTS 24
#define MAX_TRICKS 6
#define MAX_BIDS 16 /* ViewEncoder keeps the first 4 rounds of bids: 4 x players */
#define MAX_LEGAL 64
#define CARDS 32
#define RANK_UNTER 3
#define RANK_OBER 4
#define RANK_KING 5
#define RANK_ACE 7
#define DECK_SIZE 20

static const int AUGEN[8] = {0, 0, 0, 2, 3, 4, 10, 11};
/* The 20-card pack in bummerl.cards.deck(20)'s order: suits h d c s, ranks A T K O U. */
static const uint8_t PACK[DECK_SIZE] = {7, 6, 5, 4, 3, 15, 14, 13, 12, 11, 23, 22, 21, 20, 19, 31, 30, 29, 28, 27};

typedef struct {
    int points, bidders, trump, lead_declarer, goal, goal_tricks, partner_plays, requirement, marriages;
    int kontra_normal; /* bid as a contract, played as Vorhand's normal game with Kontra said */
    uint8_t order[8];  /* strength of each rank within its suit */
} Contract;

typedef struct {
    int players, hand_size, talon_size;
    int max_doubling, three_unter_redeal, raise_after_talon, may_skip_talon;
    int ncontracts, normal;
    Contract c[MAX_CONTRACTS];
    int default_dealer, forfeit_points;
    /* ActionSpace.size, ViewEncoder.observation_size and information_state_size */
    int actions, obs_size, info_size;
} Rules;

typedef struct {
    uint8_t deck[DECK_SIZE];
    int8_t dealer, vorhand, phase, to_move, knocked, trump, turned;
    uint8_t hand[4][8], hlen[4];
    uint8_t first3[4][3], f3len[4];
    uint8_t talon[2], tlen;
    uint8_t passed; /* seats that passed in the bidding */
    int8_t high_c, high_seat, contract, declarer, doubling, last_doubler;
    uint8_t dq[4], dq_head, dq_len; /* the doubling queue */
    uint8_t discarded[2], ndisc;
    uint8_t bonus, talon_choice, raise_pending;
    uint8_t active, nactive; /* seats that play cards */
    uint8_t trick_seat[4], trick_card[4], trick_len, ntricks;
    uint8_t tricks_won[4], side[4];
    int16_t trick_augen[2], marriage_augen[2];
    uint8_t side_tricks[2];
    uint16_t marriages; /* bit seat * 4 + suit */
    uint32_t known[4], won[2];
    int8_t last_bid[4]; /* each seat's last bid: a contract, ncontracts for pass, -1 none */
    /* the history (information_state): each trick's seats and cards in play order, the first bids */
    uint8_t hist_seat[MAX_TRICKS][4], hist_card[MAX_TRICKS][4];
    uint8_t bid_seat[MAX_BIDS], bid_slot[MAX_BIDS], nbids;
    /* the result, once phase is PH_OVER */
    int8_t r_contract, r_declarer, r_reason, r_mult;
    uint8_t r_winners;
    int16_t r_points, r_augen[2];
} TState;

static inline int suit_of(int card) { return card >> 3; }
static inline int rank_of(int card) { return card & 7; }

/* ------------------------------------------------------------------------------------------- the deal */
/* Game.deal's pack: SplitMix64(seed).shuffle(deck(20)). */
static void shuffled_pack(uint64_t seed, uint8_t *out) {
    memcpy(out, PACK, DECK_SIZE);
    for (int i = DECK_SIZE - 1; i > 0; i--) {
        int j = (int)below(&seed, (uint64_t)i + 1);
        uint8_t t = out[i];
        out[i] = out[j];
        out[j] = t;
    }
}

/* ---------------------------------------------------------------------------------------------- rules */
static int augen_of(const TState *s, int side) {
    return s->side_tricks[side] ? s->trick_augen[side] + s->marriage_augen[side] : s->trick_augen[side];
}

static int next_active(const Rules *R, const TState *s, int seat) {
    int t = (seat + 1) % R->players;
    while (!((s->active >> t) & 1)) t = (t + 1) % R->players;
    return t;
}

static void hand_remove(TState *s, int p, int card) {
    int k = 0;
    for (int i = 0; i < s->hlen[p]; i++)
        if (s->hand[p][i] != card) s->hand[p][k++] = s->hand[p][i];
    s->hlen[p] = (uint8_t)k;
}

static int hand_has(const TState *s, int p, int card) {
    for (int i = 0; i < s->hlen[p]; i++)
        if (s->hand[p][i] == card) return 1;
    return 0;
}

static void finish(TState *s, int contract, int declarer, int winners, int points, int reason, int a0, int a1,
                   int mult) {
    s->r_contract = (int8_t)contract;
    s->r_declarer = (int8_t)declarer;
    s->r_winners = (uint8_t)winners;
    s->r_points = (int16_t)points;
    s->r_reason = (int8_t)reason;
    s->r_augen[0] = (int16_t)a0;
    s->r_augen[1] = (int16_t)a1;
    s->r_mult = (int8_t)mult;
    s->phase = PH_OVER;
}

static void finish_side(const Rules *R, TState *s, int side, int points, int reason) {
    int winners = 0;
    for (int x = 0; x < R->players; x++)
        if (s->side[x] == side) winners |= 1 << x;
    int mult = 1 << s->doubling;
    finish(s, s->contract, s->declarer, winners, (points + s->bonus) * mult, reason, augen_of(s, 0), augen_of(s, 1),
           mult);
}

static void finish_contract(const Rules *R, TState *s, int won, int reason) {
    if (reason < 0) reason = won ? R_CONTRACT_WON : R_CONTRACT_LOST;
    finish_side(R, s, won ? 0 : 1, R->c[s->contract].points, reason);
}

static void init_state(const Rules *R, TState *s, const uint8_t *deck, int dealer) {
    memset(s, 0, sizeof *s);
    memcpy(s->deck, deck, DECK_SIZE);
    int n = R->players;
    s->dealer = (int8_t)dealer;
    s->vorhand = (int8_t)((dealer + 1) % n);
    s->phase = PH_CUT;
    s->to_move = (int8_t)((dealer + n - 1) % n);
    s->knocked = -1;
    s->trump = -1;
    s->turned = -1;
    s->high_c = s->high_seat = s->contract = s->declarer = s->last_doubler = -1;
    s->active = (uint8_t)((1 << n) - 1);
    s->nactive = (uint8_t)n;
    for (int i = 0; i < 4; i++) s->last_bid[i] = -1;
    s->r_contract = s->r_declarer = -1;
}

static void do_cut(const Rules *R, TState *s, int knock) {
    int n = R->players, pos = 0;
    if (knock) {
        for (int i = 0; i < n; i++) {
            int p = (s->vorhand + i) % n;
            memcpy(s->hand[p], s->deck + pos, (size_t)R->hand_size);
            s->hlen[p] = (uint8_t)R->hand_size;
            pos += R->hand_size;
        }
        memcpy(s->talon, s->deck + pos, (size_t)R->talon_size);
    } else {
        for (int i = 0; i < n; i++) {
            int p = (s->vorhand + i) % n;
            memcpy(s->hand[p], s->deck + pos, 3);
            pos += 3;
        }
        memcpy(s->talon, s->deck + pos, (size_t)R->talon_size);
        pos += R->talon_size;
        int rest = R->hand_size - 3;
        for (int i = 0; i < n; i++) {
            int p = (s->vorhand + i) % n;
            memcpy(s->hand[p] + 3, s->deck + pos, (size_t)rest);
            s->hlen[p] = (uint8_t)R->hand_size;
            pos += rest;
        }
    }
    s->tlen = (uint8_t)R->talon_size;
    s->knocked = (int8_t)knock;
    for (int p = 0; p < n; p++) {
        memcpy(s->first3[p], s->hand[p], 3);
        s->f3len[p] = 3;
    }
    if (R->three_unter_redeal) {
        for (int i = 0; i < n; i++) {
            int p = (s->vorhand + i) % n;
            const uint8_t *f = s->first3[p];
            if (rank_of(f[0]) == RANK_UNTER && rank_of(f[1]) == RANK_UNTER && rank_of(f[2]) == RANK_UNTER) {
                s->known[p] |= (1u << f[0]) | (1u << f[1]) | (1u << f[2]);
                finish(s, -1, -1, 0, 0, R_REDEAL, 0, 0, 1);
                return;
            }
        }
    }
    s->phase = PH_TRUMP;
    s->to_move = s->vorhand;
}

static void set_trump(TState *s, int suit, int turned) {
    s->trump = (int8_t)suit;
    s->turned = (int8_t)turned;
    s->phase = PH_BIDDING;
    s->to_move = s->vorhand;
}

static int bid_right(const Rules *R, const TState *s, int p, int ci) {
    const Contract *c = &R->c[ci];
    int v = s->vorhand, pv = R->players == 4 ? (v + 2) % 4 : -1;
    switch (c->bidders) {
    case B_VORHAND:
        if (p != v) return 0;
        break;
    case B_VORHAND_TEAM:
        if (p != v && p != pv) return 0;
        break;
    case B_OPPONENTS:
        if (p == v || p == pv) return 0;
        break;
    case B_NOT_VORHAND:
        if (p == v) return 0;
        break;
    default:
        break;
    }
    const uint8_t *h = s->hand[p];
    int len = s->hlen[p];
    if (c->requirement == RQ_ACE) {
        for (int i = 0; i < len; i++)
            if (rank_of(h[i]) == RANK_ACE) return 1;
        return 0;
    }
    if (c->requirement == RQ_FULL_SUIT || c->requirement == RQ_ALL_TRUMPS) {
        int count[4] = {0, 0, 0, 0};
        for (int i = 0; i < len; i++) count[suit_of(h[i])]++;
        if (c->requirement == RQ_ALL_TRUMPS) return s->trump >= 0 && count[s->trump] == 5;
        return count[0] == 5 || count[1] == 5 || count[2] == 5 || count[3] == 5;
    }
    return 1;
}

static int auction_ok(const Rules *R, const TState *s, int p, int ci) {
    if (s->high_c < 0 || ci > s->high_c) return 1;
    int n = R->players;
    return ci == s->high_c && (p - s->vorhand + n) % n < (s->high_seat - s->vorhand + n) % n;
}

static void start_play(const Rules *R, TState *s) {
    s->phase = PH_PLAY;
    int leader = R->c[s->contract].lead_declarer ? s->declarer : s->vorhand;
    if (!((s->active >> leader) & 1)) leader = next_active(R, s, leader);
    s->to_move = (int8_t)leader;
}

static void queue_doublers(const Rules *R, TState *s, int after, int side) {
    int n = R->players;
    s->dq_len = 0;
    s->dq_head = 0;
    for (int i = 1; i <= n; i++) {
        int x = (after + i) % n;
        if (s->side[x] == side) s->dq[s->dq_len++] = (uint8_t)x;
    }
    s->to_move = (int8_t)s->dq[0];
}

static void start_doubling(const Rules *R, TState *s) {
    if (s->doubling >= R->max_doubling) {
        start_play(R, s);
        return;
    }
    s->phase = PH_DOUBLING;
    int last = s->last_doubler >= 0 ? s->last_doubler : s->declarer;
    queue_doublers(R, s, last, s->doubling % 2 == 0 ? 1 : 0);
}

static void take_talon(TState *s) {
    int d = s->declarer;
    memcpy(s->hand[d] + s->hlen[d], s->talon, s->tlen);
    s->hlen[d] = (uint8_t)(s->hlen[d] + s->tlen);
    s->tlen = 0;
    s->known[d] = 0;
}

static void fix_contract(const Rules *R, TState *s, int ci, int declarer) {
    int n = R->players;
    if (R->c[ci].kontra_normal) {
        s->doubling = 1;
        s->last_doubler = (int8_t)declarer;
        ci = R->normal;
        declarer = s->vorhand;
    }
    s->contract = (int8_t)ci;
    s->declarer = (int8_t)declarer;
    int partner = n == 4 ? (declarer + 2) % 4 : -1;
    for (int x = 0; x < n; x++) s->side[x] = (x == declarer || x == partner) ? 0 : 1;
    if (partner >= 0 && !R->c[ci].partner_plays) {
        s->active = (uint8_t)(((1 << n) - 1) & ~(1 << partner));
        s->nactive = (uint8_t)(n - 1);
    }
    if (R->c[ci].goal == G_CLAIM) {
        for (int i = 0; i < s->hlen[declarer]; i++) s->known[declarer] |= 1u << s->hand[declarer][i];
        finish_contract(R, s, 1, R_CLAIMED);
        return;
    }
    if (s->tlen) {
        s->phase = PH_TALON;
        s->to_move = (int8_t)declarer;
        if (R->may_skip_talon)
            s->talon_choice = 1;
        else
            take_talon(s);
        return;
    }
    start_doubling(R, s);
}

/* A bid or a pass said (the view's ``bids``): each seat's last one, and the sequence. */
static void record_bid(TState *s, int p, int slot) {
    s->last_bid[p] = (int8_t)slot;
    if (s->nbids < MAX_BIDS) {
        s->bid_seat[s->nbids] = (uint8_t)p;
        s->bid_slot[s->nbids] = (uint8_t)slot;
    }
    if (s->nbids < 255) s->nbids++;
}

static void next_bidder(const Rules *R, TState *s, int p) {
    int n = R->players;
    int x = (p + 1) % n;
    while ((s->passed >> x) & 1) x = (x + 1) % n;
    if (x == s->high_seat)
        fix_contract(R, s, s->high_c, s->high_seat);
    else
        s->to_move = (int8_t)x;
}

static inline int strength(const Contract *c, int card) { return c->order[rank_of(card)]; }

static inline int beats(const Contract *c, int trump, int challenger, int holder) {
    if (suit_of(challenger) == suit_of(holder)) return strength(c, challenger) > strength(c, holder);
    return suit_of(challenger) == trump;
}

static int play_trump(const Rules *R, const TState *s) { return R->c[s->contract].trump ? s->trump : -1; }

/* Index in the trick of the card that is winning it. */
static int trick_winner(const Contract *c, int trump, const uint8_t *cards, int len) {
    int best = 0;
    for (int i = 1; i < len; i++)
        if (beats(c, trump, cards[i], cards[best])) best = i;
    return best;
}

static void check_goal(const Rules *R, TState *s, int winner) {
    const Contract *c = &R->c[s->contract];
    int last = s->hlen[winner] == 0;
    if (c->goal == G_SIXTY_SIX) {
        if (last) finish_side(R, s, s->side[winner], 1, R_LAST_TRICK);
        return;
    }
    int declarer_won = winner == s->declarer;
    if (c->goal == G_NO_TRICK) {
        if (declarer_won)
            finish_contract(R, s, 0, -1);
        else if (last)
            finish_contract(R, s, 1, -1);
        return;
    }
    if (!declarer_won) {
        finish_contract(R, s, 0, -1);
        return;
    }
    if (c->goal == G_FIRST_TRICKS_66) {
        if (s->ntricks == c->goal_tricks) finish_contract(R, s, augen_of(s, 0) >= 66, -1);
    } else if (last) {
        finish_contract(R, s, 1, -1);
    }
}

static void play_card(const Rules *R, TState *s, int p, int card) {
    hand_remove(s, p, card);
    s->known[p] &= ~(1u << card);
    s->trick_seat[s->trick_len] = (uint8_t)p;
    s->trick_card[s->trick_len] = (uint8_t)card;
    s->trick_len++;
    if (s->trick_len < s->nactive) {
        s->to_move = (int8_t)next_active(R, s, p);
        return;
    }
    const Contract *c = &R->c[s->contract];
    int w = trick_winner(c, play_trump(R, s), s->trick_card, s->trick_len);
    int winner = s->trick_seat[w], side = s->side[winner], augen = 0;
    for (int i = 0; i < s->trick_len; i++) {
        augen += AUGEN[rank_of(s->trick_card[i])];
        s->won[side] |= 1u << s->trick_card[i];
    }
    memcpy(s->hist_seat[s->ntricks], s->trick_seat, 4);
    memcpy(s->hist_card[s->ntricks], s->trick_card, 4);
    s->trick_augen[side] = (int16_t)(s->trick_augen[side] + augen);
    s->side_tricks[side]++;
    s->tricks_won[winner]++;
    s->ntricks++;
    s->trick_len = 0;
    s->to_move = (int8_t)winner;
    check_goal(R, s, winner);
}

static void announce(TState *s, int p, int suit) {
    s->marriage_augen[s->side[p]] = (int16_t)(s->marriage_augen[s->side[p]] + (suit == s->trump ? 40 : 20));
    s->marriages |= (uint16_t)(1u << (p * 4 + suit));
    s->known[p] |= (1u << (suit * 8 + RANK_KING)) | (1u << (suit * 8 + RANK_OBER));
}

static void declare(const Rules *R, TState *s, int p) {
    int mine = s->side[p], other = 1 - mine;
    int loser_augen = augen_of(s, other);
    int points = !s->side_tricks[other] ? 3 : (loser_augen < 33 ? 2 : 1);
    if (augen_of(s, mine) >= 66)
        finish_side(R, s, mine, points, R_DECLARED);
    else
        finish_side(R, s, other, points, R_WRONG_DECLARATION);
}

/* ------------------------------------------------------------------------------------- legal actions */
static int play_legal(const Rules *R, const TState *s, int p, int *out) {
    const Contract *c = &R->c[s->contract];
    const uint8_t *h = s->hand[p];
    int len = s->hlen[p], k = 0;
    if (s->trick_len) {
        int trump = play_trump(R, s);
        int led = suit_of(s->trick_card[0]);
        int winning = s->trick_card[trick_winner(c, trump, s->trick_card, s->trick_len)];
        int same = 0, higher = 0, trumps = 0, over = 0;
        for (int i = 0; i < len; i++) {
            int x = h[i];
            if (suit_of(x) == led) {
                same++;
                if (suit_of(winning) == led && strength(c, x) > strength(c, winning)) higher++;
            }
            if (suit_of(x) == trump) {
                trumps++;
                if (suit_of(winning) == trump && strength(c, x) > strength(c, winning)) over++;
            }
        }
        for (int i = 0; i < len; i++) {
            int x = h[i], ok;
            if (same) {
                ok = suit_of(x) == led && (!higher || strength(c, x) > strength(c, winning));
            } else if (trump >= 0 && trumps) {
                ok = suit_of(x) == trump && (!over || strength(c, x) > strength(c, winning));
            } else {
                ok = 1;
            }
            if (ok) out[k++] = x;
        }
        return k;
    }
    for (int i = 0; i < len; i++) out[k++] = h[i];
    int suits[4], ns = 0;
    int contract_ok = c->marriages == M_ALL || (c->marriages == M_DECLARER && p == s->declarer);
    int moment_ok = s->tricks_won[p] || (p == s->vorhand && s->ntricks == 0);
    /* seeds/004: marriages in the contracts that have them; "Vorhand kann das schon beim ersten Stich tun. Jeder
     * andere Spieler muß zunächst einen Stich gewinnen".  The suits in the order of the hand's Kings. */
    if (contract_ok && moment_ok) {
        for (int i = 0; i < len; i++)
            if (rank_of(h[i]) == RANK_KING && hand_has(s, p, suit_of(h[i]) * 8 + RANK_OBER))
                suits[ns++] = suit_of(h[i]);
    }
    for (int i = 0; i < ns; i++) {
        out[k++] = A_MARRIAGE + suits[i] * 8 + RANK_KING;
        out[k++] = A_MARRIAGE + suits[i] * 8 + RANK_OBER;
    }
    if (c->goal == G_SIXTY_SIX) {
        for (int i = 0; i < ns; i++) out[k++] = A_DECLARE_SUIT + suits[i];
        if (s->ntricks) out[k++] = A_DECLARE;
    }
    return k;
}

/* The legal actions of the seat to move, in the reference's order; their count. */
static int legal_actions(const Rules *R, const TState *s, int *out) {
    int p = s->to_move, k = 0;
    switch (s->phase) {
    case PH_PLAY:
        return play_legal(R, s, p, out);
    case PH_OVER:
        return 0;
    case PH_CUT:
        out[0] = A_CUT;
        out[1] = A_KNOCK;
        return 2;
    case PH_TRUMP:
        for (int suit = 0; suit < 4; suit++)
            for (int i = 0; i < s->f3len[p]; i++)
                if (suit_of(s->first3[p][i]) == suit) {
                    out[k++] = A_TRUMP + suit;
                    break;
                }
        out[k++] = A_TURN;
        return k;
    case PH_BIDDING:
        for (int ci = 0; ci < R->ncontracts; ci++)
            if (auction_ok(R, s, p, ci) && bid_right(R, s, p, ci)) out[k++] = A_BID + ci;
        if (s->high_c >= 0) out[k++] = A_PASS;
        return k;
    case PH_TALON:
        if (s->talon_choice) {
            out[0] = A_TAKE;
            out[1] = A_SKIP;
            return 2;
        }
        if (s->raise_pending) {
            for (int ci = s->high_c + 1; ci < R->ncontracts; ci++)
                if (bid_right(R, s, p, ci)) out[k++] = A_BID + ci;
            out[k++] = A_PASS;
            return k;
        }
        for (int i = 0; i < s->hlen[p]; i++) out[k++] = A_DISCARD + s->hand[p][i];
        return k;
    default: /* PH_DOUBLING */
        if (s->doubling + 1 <= R->max_doubling) out[k++] = A_DOUBLE + s->doubling + 1;
        out[k++] = A_PASS;
        return k;
    }
}

static int is_legal(const Rules *R, const TState *s, int action) {
    int legal[MAX_LEGAL];
    int k = legal_actions(R, s, legal);
    for (int i = 0; i < k; i++)
        if (legal[i] == action) return 1;
    return 0;
}

/* Apply a legal action (the caller has checked it). */
static void apply_action(const Rules *R, TState *s, int a) {
    int p = s->to_move;
    if (a < A_MARRIAGE) {
        play_card(R, s, p, a);
    } else if (a < A_DECLARE) {
        announce(s, p, suit_of(a - A_MARRIAGE));
        play_card(R, s, p, a - A_MARRIAGE);
    } else if (a < A_CUT) {
        if (a > A_DECLARE) announce(s, p, a - A_DECLARE_SUIT);
        declare(R, s, p);
    } else if (a == A_CUT || a == A_KNOCK) {
        do_cut(R, s, a == A_KNOCK);
    } else if (a < A_TURN) {
        set_trump(s, a - A_TRUMP, -1);
    } else if (a == A_TURN) {
        int card = s->hand[s->vorhand][3];
        s->known[s->vorhand] |= 1u << card;
        set_trump(s, suit_of(card), card);
    } else if (a == A_PASS) {
        if (s->phase == PH_BIDDING) {
            record_bid(s, p, R->ncontracts);
            s->passed |= (uint8_t)(1 << p);
            next_bidder(R, s, p);
        } else if (s->phase == PH_TALON) {
            s->raise_pending = 0;
            start_doubling(R, s);
        } else {
            s->dq_head++;
            if (s->dq_head < s->dq_len)
                s->to_move = (int8_t)s->dq[s->dq_head];
            else
                start_play(R, s);
        }
    } else if (a < A_TAKE) {
        int level = a - A_DOUBLE;
        s->doubling = (int8_t)level;
        s->last_doubler = (int8_t)p;
        if (level >= R->max_doubling)
            start_play(R, s);
        else
            queue_doublers(R, s, p, 1 - s->side[p]);
    } else if (a == A_TAKE) {
        s->talon_choice = 0;
        take_talon(s);
    } else if (a == A_SKIP) {
        s->talon_choice = 0;
        s->bonus = 1;
        start_doubling(R, s);
    } else if (a < A_BID) {
        int card = a - A_DISCARD;
        hand_remove(s, p, card);
        s->discarded[s->ndisc++] = (uint8_t)card;
        if (s->ndisc == R->talon_size) {
            if (R->raise_after_talon)
                s->raise_pending = 1;
            else
                start_doubling(R, s);
        }
    } else {
        int ci = a - A_BID;
        record_bid(s, p, ci);
        if (s->phase == PH_TALON) {
            s->raise_pending = 0;
            s->contract = (int8_t)ci;
            start_doubling(R, s);
        } else {
            s->high_c = (int8_t)ci;
            s->high_seat = (int8_t)p;
            next_bidder(R, s, p);
        }
    }
}

/* --------------------------------------------------------------------------------------- observation */
static uint32_t bits(const uint8_t *cards, int len) {
    uint32_t b = 0;
    for (int i = 0; i < len; i++) b |= 1u << cards[i];
    return b;
}

/* ViewEncoder.observation (info: information_state) of seat me's view, written into out (all of its floats). */
static void encode(const Rules *R, const TState *s, int me, int info, float *out) {
    int n = R->players, nc = R->ncontracts;
    memset(out, 0, sizeof(float) * (size_t)(info ? R->info_size : R->obs_size));
    float *o = out;
#define REL(seat) (((seat) - me + n) % n)
    if (s->phase == PH_CUT || s->phase == PH_TRUMP || (s->phase == PH_OVER && s->trump < 0))
        planes(o, bits(s->first3[me], s->f3len[me]));
    else
        planes(o, bits(s->hand[me], s->hlen[me]));
    o += CARDS;
    for (int k = 1; k < n; k++) planes(o + (k - 1) * CARDS, s->known[(me + k) % n]);
    o += (n - 1) * CARDS;
    for (int i = 0; i < s->trick_len; i++) o[REL(s->trick_seat[i]) * CARDS + s->trick_card[i]] = 1.0f;
    o += n * CARDS;
    planes(o, s->won[0]);
    planes(o + CARDS, s->won[1]);
    o += 2 * CARDS;
    if (me == s->declarer) planes(o, bits(s->discarded, s->ndisc));
    o += CARDS;
    if (s->trump >= 0) o[s->trump] = 1.0f;
    o += 4;
    if (s->turned >= 0) o[s->turned] = 1.0f;
    o += CARDS;
    o[s->phase] = 1.0f;
    o += PHASES;
    o[REL(s->to_move)] = 1.0f;
    o += n;
    o[REL(s->dealer)] = 1.0f;
    o += n;
    o[REL(s->vorhand)] = 1.0f;
    o += n;
    if (s->declarer >= 0) o[REL(s->declarer)] = 1.0f;
    o += n;
    *o++ = (float)(s->declarer >= 0 && s->side[me] == 0);
    if (s->contract >= 0) o[s->contract] = 1.0f;
    o += nc;
    o[s->doubling] = 1.0f;
    o += 4;
    *o++ = (float)(s->knocked == 1);
    *o++ = (float)((double)s->tlen / DECK_SIZE);
    *o++ = (float)((double)augen_of(s, 0) / 66);
    *o++ = (float)((double)augen_of(s, 1) / 66);
    for (int x = 0; x < n; x++) o[REL(x)] = (float)((double)s->hlen[x] / R->hand_size);
    o += n;
    for (int x = 0; x < n; x++)
        for (int suit = 0; suit < 4; suit++)
            if ((s->marriages >> (x * 4 + suit)) & 1) o[REL(x) * 4 + suit] = 1.0f;
    o += 4 * n;
    for (int x = 0; x < n; x++)
        if (s->last_bid[x] >= 0) o[REL(x) * (nc + 1) + s->last_bid[x]] = 1.0f;
    if (!info) return;
    o = out + R->obs_size;
    int block = n * CARDS + n;
    for (int t = 0; t < s->ntricks; t++, o += block) {
        for (int i = 0; i < s->nactive; i++) o[REL(s->hist_seat[t][i]) * CARDS + s->hist_card[t][i]] = 1.0f;
        o[n * CARDS + REL(s->hist_seat[t][0])] = 1.0f;
    }
    o = out + R->obs_size + (DECK_SIZE / n) * block;
    int width = nc + 1 + n, bids = s->nbids < 4 * n ? s->nbids : 4 * n;
    for (int b = 0; b < bids; b++, o += width) {
        o[s->bid_slot[b]] = 1.0f;
        o[nc + 1 + REL(s->bid_seat[b])] = 1.0f;
    }
#undef REL
}

static void write_mask(const Rules *R, const TState *s, int seat, int8_t *out) {
    memset(out, 0, (size_t)R->actions);
    if (s->phase == PH_OVER || seat != s->to_move) return;
    int legal[MAX_LEGAL];
    int k = legal_actions(R, s, legal);
    for (int i = 0; i < k; i++) out[legal[i]] = 1;
}


/* ------------------------------------------------------------------------------------ reading the config */
/* bummerl.core.table.table_config's dict: the variant's numbers and one tuple per field of the contracts. */
static int read_config(PyObject *dict, Rules *R) {
    memset(R, 0, sizeof *R);
    const IntField ints[] = {
        {"players", &R->players},
        {"hand_size", &R->hand_size},
        {"talon_size", &R->talon_size},
        {"max_doubling", &R->max_doubling},
        {"three_unter_redeal", &R->three_unter_redeal},
        {"raise_after_talon", &R->raise_after_talon},
        {"may_skip_talon", &R->may_skip_talon},
        {"default_dealer", &R->default_dealer},
        {"forfeit_points", &R->forfeit_points},
    };
    if (get_int_fields(dict, ints, sizeof(ints) / sizeof(ints[0])) < 0) return -1;
    static const char *fields[10] = {"contract_points",   "contract_bidders",       "contract_trump",
                                     "contract_lead_declarer", "contract_goal",      "contract_goal_tricks",
                                     "contract_partner_plays", "contract_requirement", "contract_marriages",
                                     "contract_kontra_normal"};
    int values[MAX_CONTRACTS * 8], nc = -1, got;
    for (int f = 0; f < 10; f++) {
        if (get_ints(dict, fields[f], values, MAX_CONTRACTS, &got) < 0) return -1;
        if (nc >= 0 && got != nc) {
            PyErr_Format(PyExc_ValueError, "config %s: one value per contract", fields[f]);
            return -1;
        }
        nc = got;
        for (int i = 0; i < nc; i++) {
            Contract *k = &R->c[i];
            int *slot[10] = {&k->points,      &k->bidders,       &k->trump,       &k->lead_declarer, &k->goal,
                             &k->goal_tricks, &k->partner_plays, &k->requirement, &k->marriages,     &k->kontra_normal};
            *slot[f] = values[i];
        }
    }
    if (get_ints(dict, "contract_order", values, MAX_CONTRACTS * 8, &got) < 0) return -1;
    int n = R->players, ok = nc >= 1 && got == 8 * nc && (n == 3 || n == 4) && R->hand_size >= 4 &&
                             R->talon_size >= 0 && R->talon_size <= 2 &&
                             n * R->hand_size + R->talon_size == DECK_SIZE && R->max_doubling >= 0 &&
                             R->max_doubling <= 3 && R->default_dealer >= 0 && R->default_dealer < n;
    R->ncontracts = nc;
    R->normal = -1;
    for (int i = 0; ok && i < nc; i++) {
        Contract *k = &R->c[i];
        for (int j = 0; j < 8; j++) k->order[j] = (uint8_t)values[i * 8 + j];
        ok = k->bidders >= B_VORHAND && k->bidders <= B_ANY && k->goal >= G_SIXTY_SIX && k->goal <= G_CLAIM &&
             k->requirement >= RQ_NONE && k->requirement <= RQ_ALL_TRUMPS && k->marriages >= M_NONE &&
             k->marriages <= M_DECLARER;
        if (k->goal == G_SIXTY_SIX && !k->kontra_normal && R->normal < 0) R->normal = i;
    }
    for (int i = 0; ok && i < nc; i++) ok = !R->c[i].kontra_normal || R->normal >= 0;
    if (!ok) {
        PyErr_SetString(PyExc_ValueError, "not a table-game config (bummerl.core.config makes one)");
        return -1;
    }
    R->actions = A_BID + nc;
    R->obs_size = CARDS * (1 + (n - 1) + n + 2 + 1 + 1) + 4 + PHASES + 4 * n + 1 + nc + 4 + 1 + 1 + 2 + n + 4 * n +
                  n * (nc + 1);
    R->info_size = R->obs_size + (DECK_SIZE / n) * (n * CARDS + n) + 4 * n * (nc + 1 + n);
    return 0;
}

static PyObject *int_list(const int *values, int k) {
    PyObject *list = PyList_New(k);
    for (int i = 0; list != NULL && i < k; i++) {
        PyObject *v = PyLong_FromLong(values[i]);
        if (v == NULL) {
            Py_DECREF(list);
            return NULL;
        }
        PyList_SET_ITEM(list, i, v);
    }
    return list;
}

/* -------------------------------------------------------------------------------------- State: one game */
typedef struct {
    PyObject_HEAD Rules rules;
    TState s;
} StateObject;

static PyTypeObject StateType;

static int read_deck(PyObject *obj, uint8_t *deck) {
    PyObject *seq = PySequence_Fast(obj, "the pack is a sequence of 20 card indices");
    if (seq == NULL) return -1;
    uint32_t seen = 0, want = bits(PACK, DECK_SIZE);
    int ok = PySequence_Fast_GET_SIZE(seq) == DECK_SIZE;
    for (Py_ssize_t i = 0; ok && i < DECK_SIZE; i++) {
        long v = PyLong_AsLong(PySequence_Fast_GET_ITEM(seq, i));
        ok = v >= 0 && v < CARDS && ((want >> v) & 1) && !((seen >> v) & 1);
        if (ok) {
            deck[i] = (uint8_t)v;
            seen |= 1u << v;
        }
    }
    Py_DECREF(seq);
    if (!ok) {
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "the pack must hold the 20 cards A-U once each");
        return -1;
    }
    return 0;
}

/* Deal ``deck_obj`` (card indices) with ``dealer`` into a State whose rules are read. */
static int deal_state(StateObject *self, PyObject *deck_obj, int dealer) {
    uint8_t deck[DECK_SIZE];
    if (read_deck(deck_obj, deck) < 0) return -1;
    if (dealer < 0 || dealer >= self->rules.players) {
        PyErr_Format(PyExc_ValueError, "dealer must be a seat 0..%d", self->rules.players - 1);
        return -1;
    }
    init_state(&self->rules, &self->s, deck, dealer);
    return 0;
}

static int State_init(StateObject *self, PyObject *args, PyObject *kwds) {
    (void)kwds; /* State takes no keywords; CPython's tp_init signature has them */
    PyObject *config, *deck_obj;
    int dealer;
    if (!PyArg_ParseTuple(args, "OOi", &config, &deck_obj, &dealer) || read_config(config, &self->rules) < 0) return -1;
    return deal_state(self, deck_obj, dealer);
}

/* new_deal(deck, dealer): a State of the same rules, copied rather than read again (see _two_player.c). */
static PyObject *State_new_deal(StateObject *self, PyObject *args) {
    PyObject *deck_obj;
    int dealer;
    if (!PyArg_ParseTuple(args, "Oi", &deck_obj, &dealer)) return NULL;
    StateObject *state = PyObject_New(StateObject, &StateType);
    if (state == NULL) return NULL;
    state->rules = self->rules;
    if (deal_state(state, deck_obj, dealer) < 0) {
        Py_DECREF(state);
        return NULL;
    }
    return (PyObject *)state;
}

static PyObject *State_legal(StateObject *self, PyObject *unused) {
    (void)unused;
    int legal[MAX_LEGAL];
    return int_list(legal, legal_actions(&self->rules, &self->s, legal));
}

static PyObject *State_legal_actions(StateObject *self, PyObject *table) {
    int legal[MAX_LEGAL];
    return action_tuple(table, legal, legal_actions(&self->rules, &self->s, legal));
}

static PyObject *State_apply(StateObject *self, PyObject *arg) {
    long a = PyLong_AsLong(arg);
    if (a == -1 && PyErr_Occurred()) return NULL;
    if (a < 0 || a >= self->rules.actions || !is_legal(&self->rules, &self->s, (int)a))
        return PyErr_Format(PyExc_ValueError, "action %ld is not legal for seat %d", a, self->s.to_move);
    apply_action(&self->rules, &self->s, (int)a);
    Py_RETURN_NONE;
}

static int seat_arg(const Rules *R, int seat) {
    if (seat >= 0 && seat < R->players) return 0;
    PyErr_Format(PyExc_ValueError, "seat must be 0..%d", R->players - 1);
    return -1;
}

static PyObject *State_encode(StateObject *self, PyObject *args) {
    int seat, info;
    PyObject *out;
    Py_buffer view;
    if (!PyArg_ParseTuple(args, "ipO", &seat, &info, &out) || seat_arg(&self->rules, seat) < 0 ||
        get_buffer(out, &view, 4, info ? self->rules.info_size : self->rules.obs_size, 1, "out") < 0)
        return NULL;
    encode(&self->rules, &self->s, seat, info, view.buf);
    PyBuffer_Release(&view);
    Py_RETURN_NONE;
}

static PyObject *State_mask(StateObject *self, PyObject *args) {
    int seat;
    PyObject *out;
    Py_buffer view;
    if (!PyArg_ParseTuple(args, "iO", &seat, &out) || seat_arg(&self->rules, seat) < 0 ||
        get_buffer(out, &view, 1, self->rules.actions, 1, "out") < 0)
        return NULL;
    write_mask(&self->rules, &self->s, seat, view.buf);
    PyBuffer_Release(&view);
    Py_RETURN_NONE;
}

/* (contract or -1, declarer or -1, winners as a bit per seat, points, reason, augen_0, augen_1, multiplier). */
static PyObject *State_result(StateObject *self, PyObject *unused) {
    (void)unused;
    const TState *s = &self->s;
    if (s->phase != PH_OVER) Py_RETURN_NONE;
    return Py_BuildValue("(iiiiiiii)", s->r_contract, s->r_declarer, s->r_winners, s->r_points, s->r_reason,
                         s->r_augen[0], s->r_augen[1], s->r_mult);
}

static PyObject *State_copy(StateObject *self, PyObject *unused) {
    (void)unused;
    StateObject *t = PyObject_New(StateObject, &StateType);
    if (t != NULL) {
        t->rules = self->rules;
        t->s = self->s;
    }
    return (PyObject *)t;
}

static PyObject *State_get_to_move(StateObject *self, void *c) {
    (void)c;
    return PyLong_FromLong(self->s.to_move);
}
static PyObject *State_get_over(StateObject *self, void *c) {
    (void)c;
    return PyBool_FromLong(self->s.phase == PH_OVER);
}
static PyObject *State_get_phase(StateObject *self, void *c) {
    (void)c;
    return PyLong_FromLong(self->s.phase);
}

static PyMethodDef State_methods[] = {
    {"legal", (PyCFunction)State_legal, METH_NOARGS, "legal() -> the legal action numbers in the engine's order."},
    {"legal_actions", (PyCFunction)State_legal_actions, METH_O,
     "legal_actions(table) -> tuple(table[number] for number in legal())."},
    {"new_deal", (PyCFunction)State_new_deal, METH_VARARGS, "new_deal(deck, dealer) -> a State of the same rules."},
    {"apply", (PyCFunction)State_apply, METH_O, "apply(number): do a legal action (ValueError otherwise)."},
    {"encode", (PyCFunction)State_encode, METH_VARARGS,
     "encode(seat, information_state, out): the view's floats into out (float32)."},
    {"mask", (PyCFunction)State_mask, METH_VARARGS, "mask(seat, out): the action mask into out (int8)."},
    {"result", (PyCFunction)State_result, METH_NOARGS,
     "None, or (contract, declarer, winners bits, points, reason, augen_0, augen_1, multiplier)."},
    {"copy", (PyCFunction)State_copy, METH_NOARGS, "An independent copy."},
    {NULL, NULL, 0, NULL},
};

static PyGetSetDef State_getset[] = {
    {"to_move", (getter)State_get_to_move, NULL, "The seat to act.", NULL},
    {"over", (getter)State_get_over, NULL, "Whether the game is over.", NULL},
    {"phase", (getter)State_get_phase, NULL, "The phase, numbered in Phase's order (cut 0 .. over 6).", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyTypeObject StateType = CORE_STATE_TYPE("State(config, deck, dealer): one table game in the compiled core (see bummerl.core).");

/* ------------------------------------------------------------------------ the family, for _core.h's Batch */
/* The rules behind CoreFamily's shared signatures: each casts the opaque config and game back to this core's. */
static int family_read_config(PyObject *dict, void *config, CoreShape *shape) {
    Rules *R = config;
    if (read_config(dict, R) < 0) return -1;
    *shape = (CoreShape){.players = R->players,
                         .actions = R->actions,
                         .obs_size = R->obs_size,
                         .info_size = R->info_size,
                         .default_dealer = R->default_dealer,
                         .forfeit_points = R->forfeit_points};
    return 0;
}
static int family_shuffle(const void *config, uint64_t seed, int *order) {
    uint8_t deck[DECK_SIZE];
    (void)config;
    shuffled_pack(seed, deck);
    for (int i = 0; i < DECK_SIZE; i++) order[i] = deck[i];
    return DECK_SIZE;
}
static void family_deal(const void *config, void *g, uint64_t seed, int dealer) {
    uint8_t deck[DECK_SIZE];
    shuffled_pack(seed, deck);
    init_state(config, g, deck, dealer);
}
static int family_to_move(const void *g) { return ((const TState *)g)->to_move; }
static int family_over(const void *g) { return ((const TState *)g)->phase == PH_OVER; }
static int family_random_action(const void *config, void *g, uint64_t *rng) {
    int legal[MAX_LEGAL];
    int k = legal_actions(config, g, legal);
    return legal[below(rng, (uint64_t)k)];
}
static int family_is_legal(const void *config, void *g, int64_t action) {
    const Rules *R = config;
    return action >= 0 && action < R->actions && is_legal(R, g, (int)action);
}
static void family_apply(const void *config, void *g, int action) { apply_action(config, g, action); }
static void family_encode(const void *config, const void *g, int seat, int info, float *out) {
    encode(config, g, seat, info, out);
}
static void family_mask(const void *config, void *g, int seat, int8_t *out) { write_mask(config, g, seat, out); }
static int family_winners(const void *game, int *points) {
    const TState *g = game;
    *points = g->r_points;
    return g->r_winners;
}

static const CoreFamily FAMILY = CORE_FAMILY(Rules, TState, 0);

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT,
    .m_name = "_table",
    .m_doc = "The compiled core of the table games (see bummerl.core).",
    .m_size = -1,
    .m_methods = core_methods,
};

PyMODINIT_FUNC PyInit__table(void) { return core_module(&module, &StateType); }
