/* What the compiled game cores share (_two_player.c, _table.c): the seeded generator of bummerl.rng, the seed
 * paths of the environments, the cards' bit planes of bummerl.rl.encoding, and the reading of a config and of
 * the caller's buffers.  Included after Python.h; every function is static, each core compiles its own copy.
 */
#ifndef BUMMERL_CORE_H
#define BUMMERL_CORE_H

#include <stdint.h>

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

#endif
