/* What the compiled game cores share (_two_player.c, _table.c): the seeded generator of bummerl.rng, the seed
 * paths of the environments, the cards' bit planes of bummerl.rl.encoding, the reading of a config and of the
 * caller's buffers, and everything of Batch and of the module functions deal and random_games that is not a rule
 * of the game.  Included after Python.h; every function is static, each core compiles its own copy.
 *
 * A core defines before the include CORE_MODULE (its module's name, a string) and CORE_GAMES (its games, for the
 * docstrings), and after it ``static const CoreFamily FAMILY = CORE_FAMILY(...)``: its game behind the few
 * functions Batch needs.  Because FAMILY is a constant the compiler knows, every call through it becomes a direct
 * call (inlined where it pays; the built module has no indirect call), so the shared Batch costs nothing against
 * one written per core.
 */
#ifndef BUMMERL_CORE_H
#define BUMMERL_CORE_H

#include <stdint.h>
#include <string.h>

/* The path elements of bummerl.rng.derive_seed that the environments use (bummerl.arena.deals.BOT_SEEDS,
 * bummerl.rl.episode.DEALER_SEEDS and SEAT_SEEDS, bummerl.rl.gym.REDEAL_SEEDS); the batch comparisons of
 * tests/test_core.py and tests/test_core_table.py fail if one differs. */
#define BOT_SEEDS 0x424F5453ULL
#define DEALER_SEEDS 0x4445414CULL
#define SEAT_SEEDS 0x53454154ULL
#define REDEAL_SEEDS 0x5245444CULL

/* ------------------------------------------------------------------ SplitMix64 (bummerl.rng) */
static inline uint64_t mix(uint64_t z) {
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}
static inline uint64_t next_u64(uint64_t *state) { return mix(*state += 0x9E3779B97F4A7C15ULL); }
static inline uint64_t below(uint64_t *state, uint64_t n) {
    uint64_t rest = (UINT64_MAX % n + 1) % n;
    uint64_t x = next_u64(state);
    if (rest != 0) {
        uint64_t limit = 0 - rest;
        while (x >= limit) x = next_u64(state);
    }
    return x % n;
}
/* extend_seed(derived, p) and derive_seed(seed) of bummerl.rng. */
static inline uint64_t extend1(uint64_t derived, uint64_t p) { return mix((derived ^ p) + 0x9E3779B97F4A7C15ULL); }
static inline uint64_t derive0(uint64_t seed) { return mix(seed + 0x9E3779B97F4A7C15ULL); }

/* ------------------------------------------------------------------ the encodings' card planes */
static inline void planes(float *out, uint32_t bits) {
    while (bits) {
        int i = __builtin_ctz(bits);
        out[i] = 1.0f;
        bits &= bits - 1;
    }
}

/* ------------------------------------------------------------------ reading a config and a seed */
static int get_int(PyObject *dict, const char *key, int *out) {
    PyObject *v = PyMapping_GetItemString(dict, key);
    if (v == NULL) return -1;
    long x = PyLong_AsLong(v);
    Py_DECREF(v);
    if (x == -1 && PyErr_Occurred()) return -1;
    *out = (int)x;
    return 0;
}

/* A config's int fields, read by name: each core lists its own. */
typedef struct {
    const char *key;
    int *field;
} IntField;

static int get_int_fields(PyObject *dict, const IntField *fields, size_t count) {
    for (size_t i = 0; i < count; i++)
        if (get_int(dict, fields[i].key, fields[i].field) < 0) return -1;
    return 0;
}

/* A sequence of at most ``cap`` ints (their number in *count); ``key`` names it in the error. */
static int read_ints(PyObject *v, const char *key, int *out, int cap, int *count) {
    PyObject *seq = PySequence_Fast(v, "expected a sequence of ints");
    if (seq == NULL) return -1;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
    if (n > cap) {
        Py_DECREF(seq);
        PyErr_Format(PyExc_ValueError, "config %s: at most %d values", key, cap);
        return -1;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        long x = PyLong_AsLong(PySequence_Fast_GET_ITEM(seq, i));
        if (x == -1 && PyErr_Occurred()) {
            Py_DECREF(seq);
            return -1;
        }
        out[i] = (int)x;
    }
    *count = (int)n;
    Py_DECREF(seq);
    return 0;
}

/* The config's sequence ``key`` (read_ints). */
static int get_ints(PyObject *dict, const char *key, int *out, int cap, int *count) {
    PyObject *v = PyMapping_GetItemString(dict, key);
    if (v == NULL) return -1;
    int r = read_ints(v, key, out, cap, count);
    Py_DECREF(v);
    return r;
}

static int read_seed(PyObject *obj, uint64_t *seed) {
    unsigned long long v = PyLong_AsUnsignedLongLongMask(obj);
    if (v == (unsigned long long)-1 && PyErr_Occurred()) return -1;
    *seed = (uint64_t)v;
    return 0;
}

/* ------------------------------------------------------------------ the caller's buffers */
/* A caller's buffer of ``count`` items of ``itemsize`` bytes, C-contiguous (and writable if asked). */
static int get_buffer(PyObject *obj, Py_buffer *view, Py_ssize_t itemsize, Py_ssize_t count, int writable,
                      const char *name) {
    if (PyObject_GetBuffer(obj, view, PyBUF_C_CONTIGUOUS | (writable ? PyBUF_WRITABLE : 0)) < 0) {
        PyErr_Format(PyExc_ValueError, "%s must be a C-contiguous%s buffer", name, writable ? " writable" : "");
        return -1;
    }
    if (view->itemsize != itemsize || view->len != itemsize * count) {
        PyErr_Format(PyExc_ValueError, "%s must hold %zd items of %zd bytes (has %zd bytes of items of %zd)", name,
                     count, itemsize, view->len, view->itemsize);
        PyBuffer_Release(view);
        return -1;
    }
    return 0;
}

/* The buffers of one call, released together. */
typedef struct {
    Py_buffer views[6];
    int count;
} Buffers;

static void release(Buffers *bufs) {
    for (int i = 0; i < bufs->count; i++) PyBuffer_Release(&bufs->views[i]);
}

static int take(Buffers *bufs, PyObject *obj, Py_ssize_t itemsize, Py_ssize_t count, int writable, const char *name) {
    if (get_buffer(obj, &bufs->views[bufs->count], itemsize, count, writable, name) < 0) {
        release(bufs);
        return -1;
    }
    bufs->count++;
    return 0;
}

/* ------------------------------------------------------------------ a family's game, as Batch sees it */
#define CORE_MAX_SEATS 4 /* Bauernschnapsen */
#define CORE_MAX_PACK 32 /* the full piquet pack of the two-player games */

/* What Batch reads of a config besides the rules themselves. */
typedef struct {
    int players, actions, obs_size, info_size, default_dealer, forfeit_points;
} CoreShape;

/* A family's game: its config and its state are opaque here (void *), of the sizes named.  The functions are
 * the rules' own, behind a signature every family can share. */
typedef struct {
    size_t config_size, state_size;
    int players; /* the seats where the family fixes them (two-player: 2), else 0 and the config says */
    int (*read_config)(PyObject *dict, void *config, CoreShape *shape);
    /* The deal's pack order (card indices) for a seed; returns how many cards (at most CORE_MAX_PACK). */
    int (*shuffle)(const void *config, uint64_t seed, int *order);
    void (*deal)(const void *config, void *state, uint64_t seed, int dealer);
    int (*to_move)(const void *state);
    int (*over)(const void *state);
    /* RandomBot's choice: a legal action drawn with below(rng, number of legal actions), in the engine's order. */
    int (*random_action)(const void *config, void *state, uint64_t *rng);
    /* Any number the caller sent, out of range included. */
    int (*is_legal)(const void *config, void *state, int64_t action);
    void (*apply)(const void *config, void *state, int action);
    void (*encode)(const void *config, const void *state, int seat, int info, float *out);
    void (*mask)(const void *config, void *state, int seat, int8_t *out);
    /* The finished game's winners (one bit per scoring unit: seat, or team at four) and the points each won. */
    int (*winners)(const void *state, int *points);
} CoreFamily;

/* Defined by the core after this header (a tentative definition here, completed there), with CORE_FAMILY. */
static const CoreFamily FAMILY;

/* The seats of a game.  Where the family fixes them the compiler knows the number, and the dealer's rotation, the
 * draws of a seat (``% players``) and the rewards' loops cost no division, as in the code written per core. */
static inline int seats(const CoreShape *shape) { return FAMILY.players ? FAMILY.players : shape->players; }

/* A core names its functions family_<member> and writes
 *     static const CoreFamily FAMILY = CORE_FAMILY(its config type, its game type, its seats or 0);
 * a macro, not a function, because the table must be a constant initializer (see the top of this file). */
#define CORE_FAMILY(ConfigType, GameType, fixed_players)                                                             \
    {                                                                                                                \
        .config_size = sizeof(ConfigType), .state_size = sizeof(GameType), .players = fixed_players,                 \
        .read_config = family_read_config,                                                                           \
        .shuffle = family_shuffle, .deal = family_deal, .to_move = family_to_move, .over = family_over,              \
        .random_action = family_random_action, .is_legal = family_is_legal, .apply = family_apply,                  \
        .encode = family_encode, .mask = family_mask, .winners = family_winners,                                     \
    }

/* State, the one game of the differential tests, stays each core's own (its checks and its result differ); only
 * its type object is written here.  A core defines StateObject, State_init, State_methods and State_getset, then
 *     static PyTypeObject StateType = CORE_STATE_TYPE("its docstring"); */
#define CORE_STATE_TYPE(doc)                                                                                         \
    {                                                                                                                \
        PyVarObject_HEAD_INIT(NULL, 0).tp_name = "bummerl.core." CORE_MODULE ".State",                              \
        .tp_basicsize = sizeof(StateObject), .tp_flags = Py_TPFLAGS_DEFAULT, .tp_doc = doc,                          \
        .tp_new = PyType_GenericNew, .tp_init = (initproc)State_init, .tp_methods = State_methods,                   \
        .tp_getset = State_getset,                                                                                   \
    }

/* State.legal_actions(table): the legal action numbers as the caller's objects, ``table[number]`` each, in a
 * tuple.  The twins of bummerl.two_player and bummerl.table_game hand the engine's Action of each number, so a
 * decision costs one call and no Python loop (a ``map`` over ``legal()`` cost half of what C saved). */
static PyObject *action_tuple(PyObject *table, const int *numbers, int n) {
    if (!PyTuple_Check(table)) return PyErr_Format(PyExc_TypeError, "the action table must be a tuple");
    Py_ssize_t size = PyTuple_GET_SIZE(table);
    PyObject *out = PyTuple_New(n);
    if (out == NULL) return NULL;
    for (int i = 0; i < n; i++) {
        if (numbers[i] >= size) {
            Py_DECREF(out);
            return PyErr_Format(PyExc_ValueError, "the action table has no entry %d", numbers[i]);
        }
        PyObject *action = PyTuple_GET_ITEM(table, numbers[i]);
        Py_INCREF(action);
        PyTuple_SET_ITEM(out, i, action);
    }
    return out;
}

/* ------------------------------------------------------------------ Batch: N games stepped together */
typedef struct {
    uint64_t stream; /* SeedStream: the seeds of the slot's next games */
    uint64_t seed;   /* the current game's seed */
    uint64_t bot_rng[CORE_MAX_SEATS];
    int64_t index;     /* games dealt since the seeded reset */
    int8_t agent;      /* the agent's seat in this game (-1: self-play) */
    int8_t done;       /* the game ended at the last call: deal the next one */
    int8_t last_mover;
} CoreSlot;

typedef struct {
    PyObject_HEAD void *config;
    CoreShape shape;
    CoreSlot *slots;
    char *states; /* slot i's game at states + i * FAMILY.state_size: its type is the core's, unknown here */
    Py_ssize_t n;
    int info, agent, dealer, reward, illegal, obs_size;
} BatchObject;

static inline void *slot_game(const BatchObject *b, Py_ssize_t i) { return b->states + (size_t)i * FAMILY.state_size; }

static int pick_dealer(const BatchObject *b, uint64_t seed, int64_t index) {
    int n = seats(&b->shape);
    if (b->dealer == -1) return (int)(extend1(derive0(seed), DEALER_SEEDS) % (uint64_t)n);
    if (b->dealer == -2) return (int)((b->shape.default_dealer + index) % n);
    return b->dealer;
}

/* The random opponents choose until the agent is to move or the game is over (BummerlEnv._play_bots). */
static void play_bots(BatchObject *b, CoreSlot *s, void *g) {
    if (s->agent < 0) return;
    while (!FAMILY.over(g) && FAMILY.to_move(g) != s->agent) {
        int p = FAMILY.to_move(g);
        s->last_mover = (int8_t)p;
        FAMILY.apply(b->config, g, FAMILY.random_action(b->config, g, &s->bot_rng[p]));
    }
}

/* Deal the slot's next game (BummerlEnv.reset): dealt again while it ends before the agent decides. */
static void next_game(BatchObject *b, CoreSlot *s, void *g, int seeded) {
    int players = seats(&b->shape);
    uint64_t first = seeded ? s->stream : next_u64(&s->stream);
    if (seeded)
        s->index = 0;
    else
        s->index++;
    for (uint64_t k = 0;; k++) {
        uint64_t seed = k == 0 ? first : extend1(extend1(derive0(first), REDEAL_SEEDS), k);
        s->seed = seed;
        FAMILY.deal(b->config, g, seed, pick_dealer(b, seed, s->index));
        s->agent = (int8_t)(b->agent == -2 ? (int)(extend1(derive0(seed), SEAT_SEEDS) % (uint64_t)players) : b->agent);
        s->last_mover = (int8_t)FAMILY.to_move(g);
        uint64_t bots = extend1(derive0(seed), BOT_SEEDS);
        for (int p = 0; p < players; p++) s->bot_rng[p] = extend1(bots, (uint64_t)p);
        play_bots(b, s, g);
        if (!FAMILY.over(g) || k >= 1000) break;
    }
    s->done = 0;
}

/* Whose view the slot shows: the agent's, or in self-play the seat to move (the last mover once it is over). */
static inline int seat_of(const CoreSlot *s, const void *g) {
    return s->agent >= 0 ? s->agent : (FAMILY.over(g) ? s->last_mover : FAMILY.to_move(g));
}

static void write_slot(BatchObject *b, CoreSlot *s, void *g, Py_ssize_t i, float *obs, int8_t *mask, int8_t *seat) {
    int me = seat_of(s, g), actions = b->shape.actions;
    FAMILY.encode(b->config, g, me, b->info, obs + i * b->obs_size);
    if (s->done) /* the episode is over (a forfeit leaves the game as it was) */
        memset(mask + i * actions, 0, (size_t)actions);
    else
        FAMILY.mask(b->config, g, me, mask + i * actions);
    seat[i] = (int8_t)me;
}

/* bummerl.rl.episode: seat_rewards (winners and points) or forfeit_rewards (a forfeiting unit). A scoring unit is
 * a team of partners (seat s plays for team s % 2) or, at two and three, a seat; zero-sum gives each unit its
 * points minus the mean of the other units' (at two: +p and -p). */
static void write_rewards(const BatchObject *b, const int *unit_points, float *r) {
    int n = seats(&b->shape), units = n == 4 ? 2 : n;
    double total = 0;
    for (int u = 0; u < units; u++) total += unit_points[u];
    for (int x = 0; x < n; x++) {
        int p = unit_points[x % units];
        r[x] = b->reward == 1 ? (float)p : (float)(p - (total - p) / (units - 1));
    }
}

static void result_rewards(const BatchObject *b, const void *g, float *r) {
    int points, pts[CORE_MAX_SEATS] = {0, 0, 0, 0};
    int winners = FAMILY.winners(g, &points);
    for (int u = 0; u < CORE_MAX_SEATS; u++)
        if ((winners >> u) & 1) pts[u] = points;
    write_rewards(b, pts, r);
}

static void forfeit_rewards(const BatchObject *b, int seat, float *r) {
    int n = seats(&b->shape), units = n == 4 ? 2 : n, pts[CORE_MAX_SEATS] = {0, 0, 0, 0};
    for (int u = 0; u < units; u++) pts[u] = u == seat % units ? 0 : b->shape.forfeit_points;
    write_rewards(b, pts, r);
}

static int Batch_init(BatchObject *self, PyObject *args, PyObject *kwds) {
    static char *kwlist[] = {"config", "num_envs", "information_state", "agent", "dealer", "reward", "illegal", NULL};
    PyObject *dict;
    Py_ssize_t n;
    int info = 0, agent = -1, dealer = -1, reward = 0, illegal = 1;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "On|$piiii", kwlist, &dict, &n, &info, &agent, &dealer, &reward,
                                     &illegal))
        return -1;
    if (self->config == NULL && (self->config = PyMem_Calloc(1, FAMILY.config_size)) == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    if (FAMILY.read_config(dict, self->config, &self->shape) < 0) return -1;
    int players = self->shape.players;
    if (n < 1 || agent < -2 || agent >= players || dealer < -2 || dealer >= players || reward < 0 || reward > 1 ||
        illegal < 0 || illegal > 1) {
        PyErr_Format(PyExc_ValueError, "Batch: num_envs >= 1, agent -2..%d, dealer -2..%d, reward 0..1, illegal 0..1",
                     players - 1, players - 1);
        return -1;
    }
    PyMem_Free(self->slots);
    PyMem_Free(self->states);
    self->slots = PyMem_Calloc((size_t)n, sizeof(CoreSlot));
    self->states = PyMem_Calloc((size_t)n, FAMILY.state_size);
    if (self->slots == NULL || self->states == NULL) {
        PyMem_Free(self->slots);
        PyMem_Free(self->states);
        self->slots = NULL;
        self->states = NULL;
        self->n = 0;
        PyErr_NoMemory();
        return -1;
    }
    self->n = n;
    self->info = info;
    self->agent = agent;
    self->dealer = dealer;
    self->reward = reward;
    self->illegal = illegal;
    self->obs_size = info ? self->shape.info_size : self->shape.obs_size;
    for (Py_ssize_t i = 0; i < n; i++) self->slots[i].done = 1;
    return 0;
}

static void Batch_dealloc(BatchObject *self) {
    PyMem_Free(self->slots);
    PyMem_Free(self->states);
    PyMem_Free(self->config);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static PyObject *Batch_reset(BatchObject *self, PyObject *args) {
    PyObject *seeds, *obs, *mask, *seat;
    if (!PyArg_ParseTuple(args, "OOOO", &seeds, &obs, &mask, &seat)) return NULL;
    Buffers bufs = {.count = 0};
    Py_ssize_t n = self->n;
    if (take(&bufs, seeds, 8, n, 0, "seeds") < 0 || take(&bufs, obs, 4, n * self->obs_size, 1, "obs") < 0 ||
        take(&bufs, mask, 1, n * self->shape.actions, 1, "mask") < 0 || take(&bufs, seat, 1, n, 1, "seat") < 0)
        return NULL;
    const uint64_t *s = bufs.views[0].buf;
    for (Py_ssize_t i = 0; i < n; i++) {
        CoreSlot *slot = &self->slots[i];
        void *g = slot_game(self, i);
        slot->stream = s[i];
        next_game(self, slot, g, 1);
        write_slot(self, slot, g, i, bufs.views[1].buf, bufs.views[2].buf, bufs.views[3].buf);
    }
    release(&bufs);
    Py_RETURN_NONE;
}

static PyObject *Batch_step(BatchObject *self, PyObject *args) {
    PyObject *actions, *obs, *mask, *rewards, *terminated, *seat;
    if (!PyArg_ParseTuple(args, "OOOOOO", &actions, &obs, &mask, &rewards, &terminated, &seat)) return NULL;
    Buffers bufs = {.count = 0};
    Py_ssize_t n = self->n;
    int players = seats(&self->shape);
    if (take(&bufs, actions, 8, n, 0, "actions") < 0 || take(&bufs, obs, 4, n * self->obs_size, 1, "obs") < 0 ||
        take(&bufs, mask, 1, n * self->shape.actions, 1, "mask") < 0 ||
        take(&bufs, rewards, 4, n * players, 1, "rewards") < 0 || take(&bufs, terminated, 1, n, 1, "terminated") < 0 ||
        take(&bufs, seat, 1, n, 1, "seat") < 0)
        return NULL;
    const int64_t *a = bufs.views[0].buf;
    float *r = bufs.views[3].buf;
    uint8_t *term = bufs.views[4].buf;
    if (!self->illegal) {
        /* Checked first: a refused step changes no game. */
        for (Py_ssize_t i = 0; i < n; i++) {
            void *g = slot_game(self, i);
            if (!self->slots[i].done && !FAMILY.is_legal(self->config, g, a[i])) {
                release(&bufs);
                return PyErr_Format(PyExc_ValueError, "game %zd: action %lld is not legal for seat %d", i,
                                    (long long)a[i], FAMILY.to_move(g));
            }
        }
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        CoreSlot *s = &self->slots[i];
        void *g = slot_game(self, i);
        float *ri = r + i * players;
        memset(ri, 0, sizeof(float) * (size_t)players);
        term[i] = 0;
        if (s->done) {
            next_game(self, s, g, 0);
        } else if (!FAMILY.is_legal(self->config, g, a[i])) {
            /* The forfeit (illegal=1): the mover's unit loses the arena's forfeit points; the game stays as it was. */
            int mover = FAMILY.to_move(g);
            forfeit_rewards(self, mover, ri);
            s->last_mover = (int8_t)mover;
            term[i] = 1;
            s->done = 1;
        } else {
            s->last_mover = (int8_t)FAMILY.to_move(g);
            FAMILY.apply(self->config, g, (int)a[i]);
            play_bots(self, s, g);
            if (FAMILY.over(g)) {
                result_rewards(self, g, ri);
                term[i] = 1;
                s->done = 1;
            }
        }
        write_slot(self, s, g, i, bufs.views[1].buf, bufs.views[2].buf, bufs.views[5].buf);
    }
    release(&bufs);
    Py_RETURN_NONE;
}

static PyObject *Batch_game_seeds(BatchObject *self, PyObject *arg) {
    Buffers bufs = {.count = 0};
    if (take(&bufs, arg, 8, self->n, 1, "out") < 0) return NULL;
    uint64_t *out = bufs.views[0].buf;
    for (Py_ssize_t i = 0; i < self->n; i++) out[i] = self->slots[i].seed;
    release(&bufs);
    Py_RETURN_NONE;
}

/* The getters' closure argument is unused (one getter per attribute). */
static PyObject *Batch_get_num_envs(BatchObject *self, void *c) {
    (void)c;
    return PyLong_FromSsize_t(self->n);
}
static PyObject *Batch_get_players(BatchObject *self, void *c) {
    (void)c;
    return PyLong_FromLong(self->shape.players);
}
static PyObject *Batch_get_obs_size(BatchObject *self, void *c) {
    (void)c;
    return PyLong_FromLong(self->obs_size);
}
static PyObject *Batch_get_action_size(BatchObject *self, void *c) {
    (void)c;
    return PyLong_FromLong(self->shape.actions);
}

static PyMethodDef Batch_methods[] = {
    {"reset", (PyCFunction)Batch_reset, METH_VARARGS, "reset(seeds, obs, mask, seat): deal game 0 of every slot."},
    {"step", (PyCFunction)Batch_step, METH_VARARGS,
     "step(actions, obs, mask, rewards, terminated, seat): one action in every slot (see bummerl.core)."},
    {"game_seeds", (PyCFunction)Batch_game_seeds, METH_O, "game_seeds(out): each slot's current game seed."},
    {NULL, NULL, 0, NULL},
};
static PyGetSetDef Batch_getset[] = {
    {"num_envs", (getter)Batch_get_num_envs, NULL, "Games stepped together.", NULL},
    {"players", (getter)Batch_get_players, NULL, "Seats per game.", NULL},
    {"observation_size", (getter)Batch_get_obs_size, NULL, "Floats per observation.", NULL},
    {"action_size", (getter)Batch_get_action_size, NULL, "Numbers per mask.", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyTypeObject BatchType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "bummerl.core." CORE_MODULE ".Batch",
    .tp_basicsize = sizeof(BatchObject),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "N " CORE_GAMES " games of one variant stepped together (see bummerl.core).",
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)Batch_init,
    .tp_dealloc = (destructor)Batch_dealloc,
    .tp_methods = Batch_methods,
    .tp_getset = Batch_getset,
};

/* ------------------------------------------------------------------ module functions */
static PyObject *core_deal(PyObject *module, PyObject *args) {
    PyObject *dict, *seed_obj;
    int dealer;
    uint64_t seed;
    CoreShape shape;
    (void)module;
    if (!PyArg_ParseTuple(args, "OOi", &dict, &seed_obj, &dealer)) return NULL;
    void *config = PyMem_Calloc(1, FAMILY.config_size);
    if (config == NULL) return PyErr_NoMemory();
    PyObject *out = NULL;
    if (FAMILY.read_config(dict, config, &shape) == 0 && read_seed(seed_obj, &seed) == 0) {
        int order[CORE_MAX_PACK];
        int k = FAMILY.shuffle(config, seed, order);
        out = PyList_New(k);
        if (out != NULL)
            for (int i = 0; i < k; i++) PyList_SET_ITEM(out, i, PyLong_FromLong(order[i]));
    }
    PyMem_Free(config);
    return out;
}

/* ``bummerl selfplay --bots random,...`` (bummerl.arena.selfplay) in C: the same deal seeds, dealers and bot
 * choices.  Returns (game points per seat, games won per seat, games nobody scored, actions applied). */
static PyObject *core_random_games(PyObject *module, PyObject *args) {
    PyObject *dict, *seed_obj;
    Py_ssize_t games;
    uint64_t seed;
    CoreShape shape;
    (void)module;
    if (!PyArg_ParseTuple(args, "OOn", &dict, &seed_obj, &games)) return NULL;
    void *config = PyMem_Calloc(1, FAMILY.config_size), *g = PyMem_Calloc(1, FAMILY.state_size);
    if (config == NULL || g == NULL) {
        PyMem_Free(config);
        PyMem_Free(g);
        return PyErr_NoMemory();
    }
    if (FAMILY.read_config(dict, config, &shape) < 0 || read_seed(seed_obj, &seed) < 0) {
        PyMem_Free(config);
        PyMem_Free(g);
        return NULL;
    }
    int n = seats(&shape);
    uint64_t deal_root = derive0(seed), bot_root = extend1(derive0(seed), BOT_SEEDS);
    long long points[CORE_MAX_SEATS] = {0, 0, 0, 0}, wins[CORE_MAX_SEATS] = {0, 0, 0, 0}, draws = 0, actions = 0;
    Py_BEGIN_ALLOW_THREADS;
    for (Py_ssize_t i = 0; i < games; i++) {
        uint64_t bots = extend1(bot_root, (uint64_t)i), rng[CORE_MAX_SEATS];
        for (int p = 0; p < n; p++) rng[p] = extend1(bots, (uint64_t)p);
        FAMILY.deal(config, g, extend1(deal_root, (uint64_t)i), (int)((shape.default_dealer + i) % n));
        while (!FAMILY.over(g)) {
            FAMILY.apply(config, g, FAMILY.random_action(config, g, &rng[FAMILY.to_move(g)]));
            actions++;
        }
        /* A seat scores a game it won for points (every won two-player game pays at least one). */
        int won_points, winners = FAMILY.winners(g, &won_points), scored = 0;
        for (int p = 0; p < n; p++)
            if (((winners >> p) & 1) && won_points > 0) {
                points[p] += won_points;
                wins[p]++;
                scored = 1;
            }
        draws += !scored;
    }
    Py_END_ALLOW_THREADS;
    PyMem_Free(config);
    PyMem_Free(g);
    PyObject *pts = PyTuple_New(n), *won = PyTuple_New(n);
    if (pts == NULL || won == NULL) {
        Py_XDECREF(pts);
        Py_XDECREF(won);
        return NULL;
    }
    for (int p = 0; p < n; p++) {
        PyTuple_SET_ITEM(pts, p, PyLong_FromLongLong(points[p]));
        PyTuple_SET_ITEM(won, p, PyLong_FromLongLong(wins[p]));
    }
    return Py_BuildValue("(NNLL)", pts, won, draws, actions);
}

static PyMethodDef core_methods[] = {
    {"deal", core_deal, METH_VARARGS, "deal(config, seed, dealer) -> Game.deal's pack order as card indices."},
    {"random_games", core_random_games, METH_VARARGS,
     "random_games(config, seed, games) -> (points per seat, wins per seat, draws, actions): random self-play."},
    {NULL, NULL, 0, NULL},
};

/* The module of a core: its State type (the rules' own) and the shared Batch. */
static PyObject *core_module(struct PyModuleDef *def, PyTypeObject *state_type) {
    if (PyType_Ready(state_type) < 0 || PyType_Ready(&BatchType) < 0) return NULL;
    PyObject *m = PyModule_Create(def);
    if (m == NULL) return NULL;
    if (PyModule_AddObjectRef(m, "State", (PyObject *)state_type) < 0 ||
        PyModule_AddObjectRef(m, "Batch", (PyObject *)&BatchType) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}

#endif
