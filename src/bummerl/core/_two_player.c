/* The compiled core of the two-player games: Schnapsen weich and scharf, Sechsundsechzig, Schnorps.
 *
 * The rules are bummerl.two_player's (the reference: pure Python, always there); this file plays the same games
 * for the batched environments (bummerl.rl.vector) and the benchmarks, and must give the same deals, the same
 * legal actions in the same order, the same observations and masks (bummerl.rl.encoding) and the same results.
 * tests/test_core.py and bench/core_diff.py compare both on random games; bummerl/core/__init__.py states the
 * interface (the config dict, State, Batch) and _two_player.pyi its types.
 *
 * A card is its Card.index (8 * suit + rank, ranks 7 8 9 U O K T A = 0..7); an action its Action.code (0..31 a
 * card, 32..63 a marriage led with that card, 64 exchange, 65 close, 66 declare, 67..70 declare with a marriage).
 * Nothing here allocates while a game is played.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

/* For _core.h's Batch and module functions. */
#define CORE_MODULE "_two_player"
#define CORE_GAMES "two-player"
#include "_core.h"

#define MAX_HAND 16
#define MAX_TRICKS 16
#define MAX_LEGAL 48
#define ACTIONS 71
#define OBSERVATION 220
#define TRICK_BLOCK 66
#define KING 5
#define OBER 4

enum { R_DECLARED, R_WRONG_DECLARATION, R_CLOSER_WON, R_CLOSER_FAILED, R_LAST_TRICK, R_STAND, R_FORFEIT };

static const int AUGEN[8] = {0, 0, 0, 2, 3, 4, 10, 11};

typedef struct {
    int pack[32], pack_size, hand_size;
    int vpos[MAX_HAND], nv, dpos[MAX_HAND], nd, trump_pos, talon_pos;
    int exchange_rank, trump_exchange, exchange_before_first_lead, exchange_with_one_face_down;
    int exchange_needs_trick, close_needs_trick, close_min_facedown, marriages, marriage_before_trick;
    int marriage_king_only, marriage_after_talon, last_trick_bonus, show_points, sixty_six, last_trick_augen;
    int count_after_closing, auto_declare, marken, forfeit_points, default_dealer, target, schneider;
    int max_tricks;
} Config;

typedef struct {
    int8_t hand[2][MAX_HAND], nh[2];
    int8_t talon[32], nt;
    int8_t trump, trump_card, closed_by, closed_opp_had_trick, closed_at_trick;
    int8_t to_move, leader, lead, dealer, first_lead_done, over;
    int16_t trick_augen[2], marriage_augen[2], closed_opp_augen;
    int8_t tricks_won[2], ntricks;
    uint32_t won[2], known[2];
    uint8_t married[2]; /* bits by suit */
    int8_t tricks[MAX_TRICKS][4]; /* leader, lead, follow, winner */
    int8_t r_winner, r_reason;
    int16_t r_points, r_augen[2];
    int8_t nlegal, legal_ok;
    int8_t legal[MAX_LEGAL];
} Game;

/* ------------------------------------------------------------------ the rules */
static inline int augen_of(const Game *g, int p) {
    return g->tricks_won[p] ? g->trick_augen[p] + g->marriage_augen[p] : g->trick_augen[p];
}
/* cards.siegpunkte with the variant's Schneider line (TwoPlayerVariant.game_points; 33 but in the research packs). */
static inline int game_points(const Config *c, int loser_augen, int had_trick) {
    return !had_trick ? 3 : (loser_augen < c->schneider ? 2 : 1);
}
static inline int siegpunkte(int loser_augen, int had_trick) { return !had_trick ? 3 : (loser_augen < 33 ? 2 : 1); }
static inline int in_hand(const Game *g, int p, int card) {
    for (int i = 0; i < g->nh[p]; i++)
        if (g->hand[p][i] == card) return 1;
    return 0;
}

static void set_result(Game *g, int winner, int points, int reason) {
    g->over = 1;
    g->r_winner = (int8_t)winner;
    g->r_points = (int16_t)points;
    g->r_reason = (int8_t)reason;
    g->r_augen[0] = (int16_t)augen_of(g, 0);
    g->r_augen[1] = (int16_t)augen_of(g, 1);
}

static int closer_points(const Config *c, const Game *g) {
    int opp = 1 - g->closed_by;
    if (c->count_after_closing) return game_points(c, augen_of(g, opp), g->tricks_won[opp] > 0);
    return game_points(c, g->closed_opp_augen, g->closed_opp_had_trick);
}

/* Schnorps's Marken (variants.two_player.marken): by the loser's class, covered or not. */
static void marken(const Config *c, Game *g, int winner, int reason) {
    static const int paid[4][2] = {{0, 0}, {1, 2}, {2, 4}, {6, 8}};
    int loser = 1 - winner;
    int sp = siegpunkte(augen_of(g, loser), g->tricks_won[loser] > 0);
    (void)c;
    set_result(g, winner, paid[sp][g->closed_by == winner], reason);
}

static int sixty_six_winner(const Config *c, const Game *g, int last_winner) {
    int a = augen_of(g, 0) >= c->target, b = augen_of(g, 1) >= c->target;
    if (a && b) return last_winner;
    return a ? 0 : (b ? 1 : -1);
}

/* TwoPlayerVariant.score_declaration and SchnorpsVariant's. */
static void score_declaration(const Config *c, Game *g, int d) {
    int opp = 1 - d, has66 = augen_of(g, d) >= c->target, closer = g->closed_by;
    if (c->marken) {
        if (closer < 0) {
            if (has66) marken(c, g, d, R_DECLARED);
            else set_result(g, opp, 2, R_WRONG_DECLARATION);
        } else if (closer == d) {
            if (has66) marken(c, g, d, R_CLOSER_WON);
            else set_result(g, opp, 4, R_CLOSER_FAILED);
        } else if (has66) {
            set_result(g, d, 4, R_CLOSER_FAILED);
        } else {
            set_result(g, opp, 4, R_WRONG_DECLARATION);
        }
        return;
    }
    if (closer < 0) {
        int pts = game_points(c, augen_of(g, opp), g->tricks_won[opp] > 0);
        set_result(g, has66 ? d : opp, pts, has66 ? R_DECLARED : R_WRONG_DECLARATION);
        return;
    }
    if (closer == d && has66) {
        set_result(g, d, closer_points(c, g), R_CLOSER_WON);
        return;
    }
    int failure = g->closed_opp_had_trick ? 2 : 3;
    if (closer == d) set_result(g, opp, failure, R_CLOSER_FAILED);
    else if (has66) set_result(g, d, failure, R_CLOSER_FAILED);
    else set_result(g, opp, failure, R_WRONG_DECLARATION);
}

/* TwoPlayerVariant.score_end_of_cards and SchnorpsVariant's. */
static void score_end_of_cards(const Config *c, Game *g, int lw) {
    int closer = g->closed_by;
    if (closer >= 0) {
        if (lw == closer && augen_of(g, closer) >= c->target) {
            if (c->marken) marken(c, g, closer, R_CLOSER_WON);
            else set_result(g, closer, closer_points(c, g), R_CLOSER_WON);
        } else {
            set_result(g, 1 - closer, c->marken ? 4 : (g->closed_opp_had_trick ? 2 : 3), R_CLOSER_FAILED);
        }
        return;
    }
    if (!c->sixty_six && !c->marken) {
        int loser = 1 - lw;
        int pts = c->last_trick_augen ? game_points(c, augen_of(g, loser), g->tricks_won[loser] > 0) : 1;
        set_result(g, lw, pts, R_LAST_TRICK);
        return;
    }
    int w = sixty_six_winner(c, g, lw);
    if (w < 0) {
        set_result(g, -1, 0, R_STAND);
    } else if (c->marken) {
        marken(c, g, w, R_LAST_TRICK);
    } else {
        int loser = 1 - w;
        set_result(g, w, game_points(c, augen_of(g, loser), g->tricks_won[loser] > 0), R_LAST_TRICK);
    }
}

/* TwoPlayerGame.__init__: the pack order (top card first) dealt by the variant's plan. */
static void deal_deck(const Config *c, Game *g, const int *order, int dealer) {
    memset(g, 0, sizeof(Game));
    int vorhand = 1 - dealer;
    for (int i = 0; i < c->nv; i++) g->hand[vorhand][i] = (int8_t)order[c->vpos[i]];
    for (int i = 0; i < c->nd; i++) g->hand[dealer][i] = (int8_t)order[c->dpos[i]];
    g->nh[vorhand] = (int8_t)c->nv;
    g->nh[dealer] = (int8_t)c->nd;
    g->trump_card = (int8_t)order[c->trump_pos];
    g->trump = (int8_t)(g->trump_card >> 3);
    int nt = c->pack_size - c->talon_pos;
    for (int k = 0; k < nt; k++) g->talon[k] = (int8_t)order[c->pack_size - 1 - k];
    g->nt = (int8_t)nt;
    g->closed_by = -1;
    g->closed_at_trick = -1;
    g->to_move = g->leader = (int8_t)vorhand;
    g->lead = -1;
    g->dealer = (int8_t)dealer;
    g->r_winner = -1;
}

/* Game.deal: the variant's pack shuffled by SplitMix64(seed) (bummerl.rng). */
static void shuffled_pack(const Config *c, uint64_t seed, int *order) {
    uint64_t state = seed;
    memcpy(order, c->pack, sizeof(int) * (size_t)c->pack_size);
    for (int i = c->pack_size - 1; i > 0; i--) {
        int j = (int)below(&state, (uint64_t)i + 1);
        int swap = order[i];
        order[i] = order[j];
        order[j] = swap;
    }
}

static void deal_seed(const Config *c, Game *g, uint64_t seed, int dealer) {
    int order[32];
    shuffled_pack(c, seed, order);
    deal_deck(c, g, order, dealer);
}

/* TwoPlayerGame.legal_tuple, in its order (rules.talon.lead_actions and follow_actions). */
static void gen_legal(const Config *c, Game *g) {
    int n = 0, p = g->to_move;
    const int8_t *hand = g->hand[p];
    int nh = g->nh[p];
    g->legal_ok = 1;
    if (g->over) {
        g->nlegal = 0;
        return;
    }
    if (g->lead < 0) {
        uint32_t held = 0;
        for (int i = 0; i < nh; i++) {
            g->legal[n++] = hand[i];
            held |= 1u << hand[i];
        }
        int face_down = g->nt, closed = g->closed_by >= 0, has_trick = g->tricks_won[p] > 0;
        int trump = g->trump;
        if (c->trump_exchange && face_down > 0 && !closed && (held >> (trump * 8 + c->exchange_rank) & 1) &&
            (g->first_lead_done || c->exchange_before_first_lead) && (face_down >= 2 || c->exchange_with_one_face_down) &&
            (has_trick || !c->exchange_needs_trick))
            g->legal[n++] = 64;
        if (!closed && face_down >= c->close_min_facedown && (has_trick || !c->close_needs_trick)) g->legal[n++] = 65;
        int declare = !c->auto_declare && has_trick;
        if (c->marriages && (face_down > 0 || c->marriage_after_talon) && (has_trick || c->marriage_before_trick)) {
            for (int i = 0; i < nh; i++) {
                int k = hand[i];
                if ((k & 7) != KING || !(held >> (k - 1) & 1)) continue;
                g->legal[n++] = (int8_t)(32 + k);
                if (!c->marriage_king_only) g->legal[n++] = (int8_t)(32 + k - 1);
                if (declare) g->legal[n++] = (int8_t)(67 + (k >> 3));
            }
        }
        if (declare) g->legal[n++] = 66;
        g->nlegal = (int8_t)n;
        return;
    }
    int lead = g->lead;
    if (g->closed_by < 0 && g->nt > 0) {
        for (int i = 0; i < nh; i++) g->legal[n++] = hand[i];
        g->nlegal = (int8_t)n;
        return;
    }
    /* rules.tricks.legal_follows, STRICT, one card led (it wins the trick so far). */
    int led = lead >> 3;
    for (int i = 0; i < nh; i++)
        if ((hand[i] >> 3) == led && (hand[i] & 7) > (lead & 7)) g->legal[n++] = hand[i];
    if (!n)
        for (int i = 0; i < nh; i++)
            if ((hand[i] >> 3) == led) g->legal[n++] = hand[i];
    if (!n)
        for (int i = 0; i < nh; i++)
            if ((hand[i] >> 3) == g->trump) g->legal[n++] = hand[i];
    if (!n)
        for (int i = 0; i < nh; i++) g->legal[n++] = hand[i];
    g->nlegal = (int8_t)n;
}

static inline void ensure_legal(const Config *c, Game *g) {
    if (!g->legal_ok) gen_legal(c, g);
}

static void remove_card(Game *g, int p, int card) {
    int8_t *h = g->hand[p];
    int n = g->nh[p], i = 0;
    while (i < n && h[i] != card) i++;
    for (; i < n - 1; i++) h[i] = h[i + 1];
    g->nh[p] = (int8_t)(n - 1);
}

static void announce(Game *g, int p, int suit) {
    g->marriage_augen[p] += suit == g->trump ? 40 : 20;
    g->married[p] |= (uint8_t)(1u << suit);
    g->known[p] |= (1u << (suit * 8 + KING)) | (1u << (suit * 8 + OBER));
}

/* TwoPlayerGame._play. */
static void play_card(const Config *c, Game *g, int p, int card) {
    remove_card(g, p, card);
    g->known[p] &= ~(1u << card);
    int lead = g->lead;
    if (lead < 0) {
        g->lead = (int8_t)card;
        g->leader = (int8_t)p;
        g->to_move = (int8_t)(1 - p);
        g->first_lead_done = 1;
        return;
    }
    int leader = g->leader, winner;
    if ((card >> 3) == (lead >> 3)) winner = (card & 7) > (lead & 7) ? p : leader;
    else winner = (card >> 3) == g->trump ? p : leader;
    g->trick_augen[winner] += (int16_t)(AUGEN[lead & 7] + AUGEN[card & 7]);
    g->tricks_won[winner]++;
    g->won[winner] |= (1u << lead) | (1u << card);
    int8_t *t = g->tricks[g->ntricks++];
    t[0] = (int8_t)leader;
    t[1] = (int8_t)lead;
    t[2] = (int8_t)card;
    t[3] = (int8_t)winner;
    g->lead = -1;
    g->to_move = g->leader = (int8_t)winner;
    if (g->nt > 0 && g->closed_by < 0) {
        int loser = 1 - winner;
        g->hand[winner][g->nh[winner]++] = g->talon[--g->nt];
        if (g->nt > 0) {
            g->hand[loser][g->nh[loser]++] = g->talon[--g->nt];
        } else {
            g->hand[loser][g->nh[loser]++] = g->trump_card;
            g->known[loser] |= 1u << g->trump_card;
            g->trump_card = -1;
        }
    }
    if (g->nh[winner] == 0) {
        if (c->last_trick_bonus && g->closed_by < 0) g->trick_augen[winner] += (int16_t)c->last_trick_bonus;
        score_end_of_cards(c, g, winner);
    } else if (c->auto_declare && augen_of(g, winner) >= c->target) {
        score_declaration(c, g, winner);
    }
}

/* TwoPlayerGame.apply for a legal action number (the caller checked it). */
static void apply_code(const Config *c, Game *g, int code) {
    int p = g->to_move;
    g->legal_ok = 0;
    if (code < 32) {
        play_card(c, g, p, code);
    } else if (code < 64) {
        int card = code - 32;
        announce(g, p, card >> 3);
        if (c->auto_declare && g->tricks_won[p] && augen_of(g, p) >= c->target) score_declaration(c, g, p);
        else play_card(c, g, p, card);
    } else if (code == 64) {
        int low = g->trump * 8 + c->exchange_rank;
        for (int i = 0; i < g->nh[p]; i++)
            if (g->hand[p][i] == low) g->hand[p][i] = g->trump_card;
        g->known[p] |= 1u << g->trump_card;
        g->trump_card = (int8_t)low;
    } else if (code == 65) {
        int opp = 1 - p;
        g->closed_by = (int8_t)p;
        g->closed_opp_augen = (int16_t)augen_of(g, opp);
        g->closed_opp_had_trick = g->tricks_won[opp] > 0;
        g->closed_at_trick = g->ntricks;
    } else {
        if (code > 66) announce(g, p, code - 67);
        score_declaration(c, g, p);
    }
}

static int is_legal(const Config *c, Game *g, int64_t code) {
    ensure_legal(c, g);
    for (int i = 0; i < g->nlegal; i++)
        if (g->legal[i] == code) return 1;
    return 0;
}

/* ------------------------------------------------------------------ the view's encoding (rl.encoding) */
/* _TwoPlayerEncoder.observation (and information_state) of seat ``me``'s view; ``out`` has the full size. */
static void encode(const Config *c, const Game *g, int me, int info, float *out) {
    int opp = 1 - me;
    int size = OBSERVATION + (info ? c->max_tricks * TRICK_BLOCK : 0);
    memset(out, 0, sizeof(float) * (size_t)size);
    uint32_t hand = 0, opp_hand = 0;
    for (int i = 0; i < g->nh[me]; i++) hand |= 1u << g->hand[me][i];
    for (int i = 0; i < g->nh[opp]; i++) opp_hand |= 1u << g->hand[opp][i];
    planes(out, hand);
    planes(out + 32, (g->nt == 0 && g->closed_by < 0) ? opp_hand : g->known[opp]);
    if (g->trump_card >= 0) out[64 + g->trump_card] = 1.0f;
    if (g->lead >= 0) out[96 + g->lead] = 1.0f;
    planes(out + 128, g->won[me]);
    planes(out + 160, g->won[opp]);
    out[192 + g->trump] = 1.0f;
    out[196 + (g->to_move ^ me)] = 1.0f;
    out[198 + (g->dealer ^ me)] = 1.0f;
    out[200 + (g->leader ^ me)] = 1.0f;
    out[202] = (float)((double)g->nt / (double)c->pack_size);
    out[203] = g->closed_by == me;
    out[204] = g->closed_by == opp;
    out[205] = g->tricks_won[me] > 0;
    out[206] = g->tricks_won[opp] > 0;
    if (c->show_points || g->over) {
        out[207] = (float)((double)augen_of(g, me) / 66.0);
        out[208] = (float)((double)augen_of(g, opp) / 66.0);
        out[209] = 1.0f;
    }
    for (int s = 0; s < 4; s++) {
        if (g->married[me] >> s & 1) out[210 + s] = 1.0f;
        if (g->married[opp] >> s & 1) out[214 + s] = 1.0f;
    }
    out[218] = g->first_lead_done;
    out[219] = g->over;
    if (!info) return;
    for (int k = 0; k < g->ntricks; k++) {
        const int8_t *t = g->tricks[k];
        float *block = out + OBSERVATION + k * TRICK_BLOCK;
        block[(t[0] ^ me) * 32 + t[1]] = 1.0f;
        block[(t[0] ^ me ^ 1) * 32 + t[2]] = 1.0f;
        block[64 + (t[3] ^ me)] = 1.0f;
    }
}

static void write_mask(const Config *c, Game *g, int seat, int8_t *out) {
    memset(out, 0, ACTIONS);
    if (g->over || seat != g->to_move) return;
    ensure_legal(c, g);
    for (int i = 0; i < g->nlegal; i++) out[g->legal[i]] = 1;
}

/* ------------------------------------------------------------------ reading the config */
static int read_config(PyObject *dict, Config *c) {
    memset(c, 0, sizeof(Config));
    const IntField ints[] = {
        {"hand_size", &c->hand_size},
        {"trump_position", &c->trump_pos},
        {"talon_position", &c->talon_pos},
        {"exchange_rank", &c->exchange_rank},
        {"trump_exchange", &c->trump_exchange},
        {"exchange_before_first_lead", &c->exchange_before_first_lead},
        {"exchange_with_one_face_down", &c->exchange_with_one_face_down},
        {"exchange_needs_trick", &c->exchange_needs_trick},
        {"close_needs_trick", &c->close_needs_trick},
        {"close_min_facedown", &c->close_min_facedown},
        {"marriages", &c->marriages},
        {"marriage_before_trick", &c->marriage_before_trick},
        {"marriage_king_only", &c->marriage_king_only},
        {"marriage_after_talon", &c->marriage_after_talon},
        {"last_trick_bonus", &c->last_trick_bonus},
        {"show_points", &c->show_points},
        {"sixty_six", &c->sixty_six},
        {"last_trick_augen", &c->last_trick_augen},
        {"count_after_closing", &c->count_after_closing},
        {"auto_declare", &c->auto_declare},
        {"marken", &c->marken},
        {"forfeit_points", &c->forfeit_points},
        {"default_dealer", &c->default_dealer},
        {"target", &c->target},
        {"schneider", &c->schneider},
    };
    if (get_int_fields(dict, ints, sizeof(ints) / sizeof(ints[0])) < 0) return -1;
    if (get_ints(dict, "pack", c->pack, 32, &c->pack_size) < 0 ||
        get_ints(dict, "vorhand_positions", c->vpos, MAX_HAND, &c->nv) < 0 ||
        get_ints(dict, "dealer_positions", c->dpos, MAX_HAND, &c->nd) < 0)
        return -1;
    int ok = c->pack_size >= 3 && c->nv == c->nd && c->nv > 0 && c->trump_pos >= 0 && c->trump_pos < c->pack_size &&
             c->talon_pos <= c->pack_size && c->exchange_rank >= 0 && c->exchange_rank < 8 &&
             c->pack_size / 2 <= MAX_TRICKS;
    for (int i = 0; i < c->pack_size; i++) ok = ok && c->pack[i] >= 0 && c->pack[i] < 32;
    for (int i = 0; i < c->nv; i++) ok = ok && c->vpos[i] >= 0 && c->vpos[i] < c->pack_size && c->dpos[i] >= 0 &&
                                         c->dpos[i] < c->pack_size;
    if (!ok) {
        PyErr_SetString(PyExc_ValueError, "not a two-player config (bummerl.core.config makes one)");
        return -1;
    }
    c->max_tricks = c->pack_size / 2;
    return 0;
}

/* ------------------------------------------------------------------ State: one game */
typedef struct {
    PyObject_HEAD Config config;
    Game game;
} StateObject;

static PyTypeObject StateType;

/* Deal ``deck`` (card indices) with ``dealer`` into a State whose config is read. */
static int deal_state(StateObject *self, PyObject *deck, int dealer) {
    int order[32], n;
    if (read_ints(deck, "deck", order, 32, &n) < 0) return -1;
    uint32_t seen = 0, pack = 0;
    for (int i = 0; i < self->config.pack_size; i++) pack |= 1u << self->config.pack[i];
    for (int i = 0; i < n; i++) seen |= (order[i] >= 0 && order[i] < 32) ? 1u << order[i] : 0;
    if (n != self->config.pack_size || seen != pack || (dealer != 0 && dealer != 1)) {
        PyErr_SetString(PyExc_ValueError, "deck must be the variant's pack, each card once, and dealer 0 or 1");
        return -1;
    }
    deal_deck(&self->config, &self->game, order, dealer);
    return 0;
}

static int State_init(StateObject *self, PyObject *args, PyObject *kwds) {
    (void)kwds; /* State takes no keywords; CPython's tp_init signature has them */
    PyObject *config, *deck;
    int dealer;
    if (!PyArg_ParseTuple(args, "OOi", &config, &deck, &dealer) || read_config(config, &self->config) < 0) return -1;
    return deal_state(self, deck, dealer);
}

/* new_deal(deck, dealer): a State of the same config, the config copied rather than read again (reading the
 * mapping is most of what State() costs, and the Game twins make one per deal). */
static PyObject *State_new_deal(StateObject *self, PyObject *args) {
    PyObject *deck;
    int dealer;
    if (!PyArg_ParseTuple(args, "Oi", &deck, &dealer)) return NULL;
    StateObject *state = PyObject_New(StateObject, &StateType);
    if (state == NULL) return NULL;
    state->config = self->config;
    if (deal_state(state, deck, dealer) < 0) {
        Py_DECREF(state);
        return NULL;
    }
    return (PyObject *)state;
}

static PyObject *State_legal(StateObject *self, PyObject *unused) {
    (void)unused;
    ensure_legal(&self->config, &self->game);
    PyObject *out = PyList_New(self->game.nlegal);
    if (out == NULL) return NULL;
    for (int i = 0; i < self->game.nlegal; i++) PyList_SET_ITEM(out, i, PyLong_FromLong(self->game.legal[i]));
    return out;
}

static PyObject *State_legal_actions(StateObject *self, PyObject *table) {
    ensure_legal(&self->config, &self->game);
    int numbers[MAX_LEGAL];
    for (int i = 0; i < self->game.nlegal; i++) numbers[i] = self->game.legal[i];
    return action_tuple(table, numbers, self->game.nlegal);
}

static PyObject *State_apply(StateObject *self, PyObject *arg) {
    long code = PyLong_AsLong(arg);
    if (code == -1 && PyErr_Occurred()) return NULL;
    if (!is_legal(&self->config, &self->game, code)) {
        PyErr_Format(PyExc_ValueError, "action %ld is not legal now", code);
        return NULL;
    }
    apply_code(&self->config, &self->game, (int)code);
    Py_RETURN_NONE;
}

static PyObject *State_encode(StateObject *self, PyObject *args) {
    int seat, info;
    PyObject *out;
    if (!PyArg_ParseTuple(args, "ipO", &seat, &info, &out)) return NULL;
    if (seat != 0 && seat != 1) return PyErr_Format(PyExc_ValueError, "seat must be 0 or 1, not %d", seat);
    Py_buffer view;
    Py_ssize_t size = OBSERVATION + (info ? self->config.max_tricks * TRICK_BLOCK : 0);
    if (get_buffer(out, &view, 4, size, 1, "out") < 0) return NULL;
    encode(&self->config, &self->game, seat, info, (float *)view.buf);
    PyBuffer_Release(&view);
    Py_RETURN_NONE;
}

static PyObject *State_mask(StateObject *self, PyObject *args) {
    int seat;
    PyObject *out;
    if (!PyArg_ParseTuple(args, "iO", &seat, &out)) return NULL;
    Py_buffer view;
    if (get_buffer(out, &view, 1, ACTIONS, 1, "out") < 0) return NULL;
    write_mask(&self->config, &self->game, seat, (int8_t *)view.buf);
    PyBuffer_Release(&view);
    Py_RETURN_NONE;
}

static PyObject *State_result(StateObject *self, PyObject *unused) {
    (void)unused;
    const Game *g = &self->game;
    if (!g->over) Py_RETURN_NONE;
    return Py_BuildValue("(iiiii)", g->r_winner, g->r_points, g->r_reason, g->r_augen[0], g->r_augen[1]);
}

static PyObject *State_copy(StateObject *self, PyObject *unused) {
    (void)unused;
    StateObject *copy = PyObject_New(StateObject, &StateType);
    if (copy == NULL) return NULL;
    copy->config = self->config;
    copy->game = self->game;
    return (PyObject *)copy;
}

static PyObject *State_get_to_move(StateObject *self, void *closure) {
    (void)closure;
    return PyLong_FromLong(self->game.to_move);
}
static PyObject *State_get_over(StateObject *self, void *closure) {
    (void)closure;
    return PyBool_FromLong(self->game.over);
}

static PyMethodDef State_methods[] = {
    {"legal", (PyCFunction)State_legal, METH_NOARGS, "The legal action numbers, in Game.legal_actions()'s order."},
    {"legal_actions", (PyCFunction)State_legal_actions, METH_O,
     "legal_actions(table) -> tuple(table[number] for number in legal())."},
    {"new_deal", (PyCFunction)State_new_deal, METH_VARARGS, "new_deal(deck, dealer) -> a State of the same config."},
    {"apply", (PyCFunction)State_apply, METH_O, "Apply a legal action number (ValueError if it is not legal)."},
    {"encode", (PyCFunction)State_encode, METH_VARARGS, "encode(seat, information_state, out): ViewEncoder's floats."},
    {"mask", (PyCFunction)State_mask, METH_VARARGS, "mask(seat, out): ActionSpace.mask of the seat's view (int8)."},
    {"result", (PyCFunction)State_result, METH_NOARGS, "None, or (winner or -1, points, reason, augen 0, augen 1)."},
    {"copy", (PyCFunction)State_copy, METH_NOARGS, "An independent copy."},
    {NULL, NULL, 0, NULL},
};
static PyGetSetDef State_getset[] = {
    {"to_move", (getter)State_get_to_move, NULL, "The seat to move.", NULL},
    {"over", (getter)State_get_over, NULL, "Whether the game is over.", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyTypeObject StateType = CORE_STATE_TYPE("One two-player game (see bummerl.core).");

/* ------------------------------------------------------------------ the family, for _core.h's Batch */
/* The rules behind CoreFamily's shared signatures: each casts the opaque config and game back to this core's. */
static int family_read_config(PyObject *dict, void *config, CoreShape *shape) {
    Config *c = config;
    if (read_config(dict, c) < 0) return -1;
    *shape = (CoreShape){.players = 2,
                         .actions = ACTIONS,
                         .obs_size = OBSERVATION,
                         .info_size = OBSERVATION + c->max_tricks * TRICK_BLOCK,
                         .default_dealer = c->default_dealer,
                         .forfeit_points = c->forfeit_points};
    return 0;
}
static int family_shuffle(const void *config, uint64_t seed, int *order) {
    shuffled_pack(config, seed, order);
    return ((const Config *)config)->pack_size;
}
static void family_deal(const void *config, void *g, uint64_t seed, int dealer) { deal_seed(config, g, seed, dealer); }
static int family_to_move(const void *g) { return ((const Game *)g)->to_move; }
static int family_over(const void *g) { return ((const Game *)g)->over; }
static int family_random_action(const void *config, void *game, uint64_t *rng) {
    Game *g = game;
    ensure_legal(config, g);
    return g->legal[below(rng, (uint64_t)g->nlegal)];
}
static int family_is_legal(const void *config, void *g, int64_t action) { return is_legal(config, g, action); }
static void family_apply(const void *config, void *g, int action) { apply_code(config, g, action); }
static void family_encode(const void *config, const void *g, int seat, int info, float *out) {
    encode(config, g, seat, info, out);
}
static void family_mask(const void *config, void *g, int seat, int8_t *out) { write_mask(config, g, seat, out); }
static int family_winners(const void *game, int *points) {
    const Game *g = game;
    *points = g->r_points;
    return g->r_winner >= 0 ? 1 << g->r_winner : 0;
}

static const CoreFamily FAMILY = CORE_FAMILY(Config, Game, 2);

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT,
    .m_name = "_two_player",
    .m_doc = "The compiled core of the two-player games (see bummerl.core).",
    .m_size = -1,
    .m_methods = core_methods,
};

PyMODINIT_FUNC PyInit__two_player(void) { return core_module(&module, &StateType); }
