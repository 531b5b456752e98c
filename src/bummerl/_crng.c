/* The seeded shuffle of bummerl.rng, compiled: the same SplitMix64 stream and Fisher-Yates order.
 *
 * bummerl.rng is the specification and the reference (pure Python, always there); this module only makes
 * its hot path, the deal of every game, fast: a pack of 20 was shuffled in about 15 us of big-integer
 * arithmetic, a seventh of a self-play game (bench/engine.py, "selfplay g/s").  pip builds it on install
 * (setup.py, optional: without a compiler the Python code runs).  tests/test_rng.py checks both against each
 * other on many seeds and lengths, and below() on bounds that make the rejection step happen.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>

static inline uint64_t next_u64(uint64_t *state) {
    uint64_t z = (*state += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

/* Uniform in 0..n-1 (n >= 1): outputs at or above the largest multiple of n below 2**64 are drawn again. */
static inline uint64_t below(uint64_t *state, uint64_t n) {
    uint64_t rest = (UINT64_MAX % n + 1) % n; /* 2**64 mod n */
    uint64_t x = next_u64(state);
    if (rest != 0) {
        uint64_t limit = 0 - rest; /* 2**64 - rest, modulo 2**64 */
        while (x >= limit) {
            x = next_u64(state);
        }
    }
    return x % n;
}

static int read_state(PyObject *obj, uint64_t *state) {
    /* Any Python int, taken modulo 2**64 (the generator's state is always in range). */
    unsigned long long value = PyLong_AsUnsignedLongLongMask(obj);
    if (value == (unsigned long long)-1 && PyErr_Occurred()) {
        return -1;
    }
    *state = (uint64_t)value;
    return 0;
}

static PyObject *crng_shuffle(PyObject *self, PyObject *args) {
    PyObject *state_obj, *items;
    uint64_t state;
    if (!PyArg_ParseTuple(args, "OO!", &state_obj, &PyList_Type, &items) || read_state(state_obj, &state) < 0) {
        return NULL;
    }
    Py_ssize_t length = PyList_GET_SIZE(items);
    PyObject **cells = ((PyListObject *)items)->ob_item;
    for (Py_ssize_t i = length - 1; i > 0; i--) {
        Py_ssize_t j = (Py_ssize_t)below(&state, (uint64_t)i + 1);
        PyObject *swap = cells[i];
        cells[i] = cells[j];
        cells[j] = swap;
    }
    return PyLong_FromUnsignedLongLong(state);
}

static PyObject *crng_below(PyObject *self, PyObject *args) {
    PyObject *state_obj, *n_obj;
    uint64_t state;
    if (!PyArg_ParseTuple(args, "OO", &state_obj, &n_obj) || read_state(state_obj, &state) < 0) {
        return NULL;
    }
    unsigned long long n = PyLong_AsUnsignedLongLong(n_obj);
    if (n == (unsigned long long)-1 && PyErr_Occurred()) {
        return NULL;
    }
    if (n == 0) {
        PyErr_SetString(PyExc_ValueError, "below(n) needs n >= 1");
        return NULL;
    }
    uint64_t value = below(&state, n);
    return Py_BuildValue("(KK)", (unsigned long long)state, (unsigned long long)value);
}

static PyMethodDef methods[] = {
    {"shuffle", crng_shuffle, METH_VARARGS,
     "shuffle(state, items) -> state: shuffle the list in place as SplitMix64(state).shuffle does."},
    {"below", crng_below, METH_VARARGS,
     "below(state, n) -> (state, value): SplitMix64's below(n) from state, for n in 1..2**64-1."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_crng", "The compiled shuffle of bummerl.rng.", -1,
                                    methods};

PyMODINIT_FUNC PyInit__crng(void) { return PyModule_Create(&module); }
