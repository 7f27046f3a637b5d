/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* Poseidon constants as neptune 11 makes them (docs/formats/poseidon.md): round keys from the Grain LFSR, the Cauchy
 * MDS matrix, and the preprocessing of the optimised schedule (compressed round keys, the pre-sparse matrix and one
 * sparse matrix per partial round). Made once per arity on first use; readers take a published pointer. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "poseidon_int.h"

/* ---- round numbers (neptune round_numbers.rs, Strength::Standard) ------------------------------------------------ */
static const struct {
    unsigned arity, partial_rounds;
} ROUNDS[] = {{2, 55}, {4, 56}, {8, 57}, {11, 57}, {16, 59}, {24, 59}, {36, 60}};
#define N_ARITIES (sizeof ROUNDS / sizeof ROUNDS[0])

static int arity_slot(unsigned arity)
{
    for (unsigned k = 0; k < N_ARITIES; k++)
        if (ROUNDS[k].arity == arity) return (int)k;
    return -1;
}

unsigned cuzk_poseidon_partial_rounds(unsigned arity)
{
    int k = arity_slot(arity);
    return k < 0 ? 0 : ROUNDS[k].partial_rounds;
}

/* ---- Grain LFSR in self-shrinking mode --------------------------------------------------------------------------- */
/* 80 bits b0..b79 in a ring; b_{i+80} = b_{i+62} ^ b_{i+51} ^ b_{i+38} ^ b_{i+23} ^ b_{i+13} ^ b_i. */
typedef struct {
    uint8_t bit[80];
    unsigned head; /* index of b_i, the oldest bit */
} grain;

static unsigned grain_clock(grain *g)
{
    static const unsigned TAPS[] = {62, 51, 38, 23, 13, 0};
    unsigned b = 0;
    for (unsigned k = 0; k < 6; k++) b ^= g->bit[(g->head + TAPS[k]) % 80];
    g->bit[g->head] = (uint8_t)b; /* the oldest bit leaves, the new one enters at the end */
    g->head = (g->head + 1) % 80;
    return b;
}

static void grain_put(grain *g, unsigned *pos, unsigned nbits, uint32_t v)
{
    for (unsigned i = nbits; i-- > 0;) g->bit[(*pos)++] = (uint8_t)((v >> i) & 1);
}

static void grain_init(grain *g, unsigned t, unsigned rf, unsigned rp)
{
    unsigned pos = 0;
    grain_put(g, &pos, 2, 1);    /* field: GF(p) */
    grain_put(g, &pos, 4, 1);    /* S-box: x^alpha */
    grain_put(g, &pos, 12, 255); /* field size in bits */
    grain_put(g, &pos, 12, t);
    grain_put(g, &pos, 10, rf);
    grain_put(g, &pos, 10, rp);
    grain_put(g, &pos, 30, 0x3fffffffu);
    g->head = 0;
    for (unsigned i = 0; i < 160; i++) grain_clock(g);
}

/* Self-shrinking: clock pairs; a first bit 1 outputs the second, a 0 drops it. */
static unsigned grain_next(grain *g)
{
    while (!grain_clock(g)) grain_clock(g);
    return grain_clock(g);
}

/* A 255-bit big-endian integer drawn MSB first (7 bits, then 31 bytes), redrawn until below r. */
static void grain_field(grain *g, cuzk_fr_t *r)
{
    for (;;) {
        uint8_t be[CUZK_FR_BYTES];
        for (unsigned i = 0; i < CUZK_FR_BYTES; i++) {
            unsigned v = 0;
            for (unsigned b = 0; b < (i == 0 ? 7u : 8u); b++) v = (v << 1) | grain_next(g);
            be[i] = (uint8_t)v;
        }
        if (cuzk_fr_from_bytes_be(r, be) == CUZK_OK) return;
    }
}

/* ---- small dense matrices (n×n row-major) ------------------------------------------------------------------------ */
/* out = v · m (row vector times matrix); out must not alias v. */
static void vec_mat(cuzk_fr_t *out, const cuzk_fr_t *v, const cuzk_fr_t *m, unsigned n)
{
    for (unsigned j = 0; j < n; j++) {
        cuzk_fr_set_zero(&out[j]);
        for (unsigned i = 0; i < n; i++) {
            cuzk_fr_t x;
            cuzk_fr_mul(&x, &v[i], &m[i * n + j]);
            cuzk_fr_add(&out[j], &out[j], &x);
        }
    }
}

/* out = a · b; out aliases neither. */
static void mat_mul(cuzk_fr_t *out, const cuzk_fr_t *a, const cuzk_fr_t *b, unsigned n)
{
    for (unsigned i = 0; i < n; i++) vec_mat(&out[i * n], &a[i * n], b, n);
}

/* out = m^-1 by Gauss-Jordan elimination (the inverse is unique, so any pivot order gives neptune's values); false
 * when m is singular. w is scratch of n·n elements; m is left unchanged. */
static bool mat_inv(cuzk_fr_t *out, const cuzk_fr_t *m, unsigned n, cuzk_fr_t *w)
{
    memcpy(w, m, (size_t)n * n * sizeof *w);
    for (unsigned i = 0; i < n; i++)
        for (unsigned j = 0; j < n; j++) {
            if (i == j) cuzk_fr_set_one(&out[i * n + j]);
            else cuzk_fr_set_zero(&out[i * n + j]);
        }
    for (unsigned c = 0; c < n; c++) {
        unsigned p = c;
        while (p < n && cuzk_fr_is_zero(&w[p * n + c])) p++;
        if (p == n) return false;
        if (p != c)
            for (unsigned j = 0; j < n; j++) {
                cuzk_fr_t x = w[c * n + j];
                w[c * n + j] = w[p * n + j], w[p * n + j] = x;
                x = out[c * n + j];
                out[c * n + j] = out[p * n + j], out[p * n + j] = x;
            }
        cuzk_fr_t inv;
        cuzk_fr_inv_vartime(&inv, &w[c * n + c]);
        for (unsigned j = 0; j < n; j++) {
            cuzk_fr_mul(&w[c * n + j], &w[c * n + j], &inv);
            cuzk_fr_mul(&out[c * n + j], &out[c * n + j], &inv);
        }
        for (unsigned r = 0; r < n; r++) {
            if (r == c || cuzk_fr_is_zero(&w[r * n + c])) continue;
            cuzk_fr_t f = w[r * n + c], x;
            for (unsigned j = 0; j < n; j++) {
                cuzk_fr_mul(&x, &f, &w[c * n + j]);
                cuzk_fr_sub(&w[r * n + j], &w[r * n + j], &x);
                cuzk_fr_mul(&x, &f, &out[c * n + j]);
                cuzk_fr_sub(&out[r * n + j], &out[r * n + j], &x);
            }
        }
    }
    return true;
}

/* ---- preprocessing ----------------------------------------------------------------------------------------------- */
/* neptune's compress_round_constants with every partial round preprocessed: round 0's keys as they are; the keys of
 * rounds 1..h−1 pushed back through M (times M^-1); the partial rounds' keys folded backwards from round h+RP, each
 * partial round keeping only the first component of its pushed-back key; the remainder lands in round h−1's slot;
 * then the last full rounds' keys pushed back through M. inv is M^-1 (symmetric, as M is). */
static void compress(cuzk_fr_t *res, const cuzk_fr_t *rc, const cuzk_fr_t *inv, unsigned t, unsigned rf, unsigned rp,
                     cuzk_fr_t *partial)
{
    unsigned h = rf / 2, o = 0;
    cuzk_fr_t acc[CUZK_POSEIDON_MAX_WIDTH], x[CUZK_POSEIDON_MAX_WIDTH];
    memcpy(res, rc, t * sizeof *res);
    o += t;
    for (unsigned r = 1; r < h; r++, o += t) vec_mat(&res[o], &rc[r * t], inv, t);
    memcpy(acc, &rc[(h + rp) * t], t * sizeof *acc);
    for (unsigned i = 0; i < rp; i++) {
        const cuzk_fr_t *prev = &rc[(h + rp - i - 1) * t];
        vec_mat(x, acc, inv, t);
        partial[i] = x[0];
        cuzk_fr_set_zero(&x[0]);
        for (unsigned j = 0; j < t; j++) cuzk_fr_add(&acc[j], &prev[j], &x[j]);
    }
    vec_mat(&res[o], acc, inv, t);
    o += t;
    for (unsigned i = rp; i-- > 0;) res[o++] = partial[i];
    for (unsigned r = 1; r < h; r++, o += t) vec_mat(&res[o], &rc[(h + rp + r) * t], inv, t);
}

/* neptune's factor_to_sparse_matrices: starting from C = M, RP times split C = M' · M'' with M'' sparse (first row
 * [C00, v], first column [C00, ŵ] with ŵ = w · Ĉ^-1, identity elsewhere) and M' = [[1, 0], [0, Ĉ]], then continue
 * with C = M · M'. The last C is the pre-sparse matrix; the M'' are used in the opposite order of their making. */
static bool factor(cuzk_fr_t *pre, cuzk_fr_t *sparse, const cuzk_fr_t *m, unsigned t, unsigned rp, cuzk_fr_t *scratch)
{
    unsigned n = t - 1, sw = 2 * t - 1;
    cuzk_fr_t *c = scratch, *hat = c + t * t, *hat_inv = hat + n * n, *prime = hat_inv + n * n, *w = prime + t * t;
    cuzk_fr_t wv[CUZK_POSEIDON_MAX_WIDTH], what[CUZK_POSEIDON_MAX_WIDTH];
    memcpy(c, m, (size_t)t * t * sizeof *c);
    for (unsigned k = 0; k < rp; k++) {
        for (unsigned i = 0; i < n; i++) {
            for (unsigned j = 0; j < n; j++) hat[i * n + j] = c[(i + 1) * t + j + 1];
            wv[i] = c[(i + 1) * t];
        }
        if (!mat_inv(hat_inv, hat, n, w)) return false;
        vec_mat(what, wv, hat_inv, n);
        cuzk_fr_t *s = &sparse[(size_t)(rp - 1 - k) * sw];
        s[0] = c[0];
        for (unsigned i = 0; i < n; i++) s[1 + i] = what[i], s[t + i] = c[1 + i];
        for (unsigned i = 0; i < t; i++)
            for (unsigned j = 0; j < t; j++) {
                if (i == 0 || j == 0) {
                    if (i == j) cuzk_fr_set_one(&prime[0]);
                    else cuzk_fr_set_zero(&prime[i * t + j]);
                } else {
                    prime[i * t + j] = c[i * t + j];
                }
            }
        mat_mul(c, m, prime, t);
    }
    memcpy(pre, c, (size_t)t * t * sizeof *pre);
    return true;
}

static cuzk_poseidon_params *params_new(unsigned arity, unsigned rp)
{
    unsigned t = arity + 1, rf = CUZK_POSEIDON_FULL_ROUNDS;
    size_t n_rc = (size_t)(rf + rp) * t, n_crc = (size_t)rf * t + rp, n_sp = (size_t)rp * (2 * t - 1);
    size_t n_blk = cuzk_poseidon_blocked_len(t, rp);
    size_t n_all = n_rc + n_crc + 3 * (size_t)t * t + n_sp + n_blk;
    cuzk_poseidon_params *p = malloc(sizeof *p + n_all * sizeof(cuzk_fr_t));
    /* scratch: M^-1, Gauss-Jordan work, then factor's C, Ĉ, Ĉ^-1, M', work; and the partial keys */
    size_t n_scratch = 2 * (size_t)t * t + 4 * (size_t)t * t + rp;
    cuzk_fr_t *scratch = malloc(n_scratch * sizeof *scratch);
    if (p == NULL || scratch == NULL) {
        free(p);
        free(scratch);
        return NULL;
    }
    cuzk_fr_t *rc = (cuzk_fr_t *)(p + 1), *crc = rc + n_rc, *mds = crc + n_crc, *pre = mds + (size_t)t * t,
              *sparse = pre + (size_t)t * t, *pre_cols = sparse + n_sp, *blk = pre_cols + (size_t)t * t;
    *p = (cuzk_poseidon_params){arity, t, rf, rp, rc, mds, crc, pre, sparse, pre_cols, blk};

    grain g;
    grain_init(&g, t, rf, rp);
    for (size_t i = 0; i < n_rc; i++) grain_field(&g, &rc[i]);

    for (unsigned i = 0; i < t; i++)
        for (unsigned j = 0; j < t; j++) {
            cuzk_fr_from_u64(&mds[i * t + j], (uint64_t)i + t + j);
            cuzk_fr_inv_vartime(&mds[i * t + j], &mds[i * t + j]);
        }

    cuzk_fr_t *inv = scratch, *work = inv + (size_t)t * t;
    bool ok = mat_inv(inv, mds, t, work);
    if (ok) {
        compress(crc, rc, inv, t, rf, rp, work + 4 * (size_t)t * t);
        ok = factor(pre, sparse, mds, t, rp, work);
        for (unsigned i = 0; i < t; i++)
            for (unsigned j = 0; j < t; j++) pre_cols[j * t + i] = pre[i * t + j];
        cuzk_poseidon_blocked_make(blk, sparse, t, rp);
    }
    free(scratch);
    if (!ok) { /* a Cauchy matrix over distinct points is never singular: unreachable */
        free(p);
        return NULL;
    }
    return p;
}

/* ---- the per-process table --------------------------------------------------------------------------------------- */
static _Atomic(cuzk_poseidon_params *) table[N_ARITIES];
static pthread_mutex_t table_lock = PTHREAD_MUTEX_INITIALIZER;

const cuzk_poseidon_params *cuzk_poseidon_params_get(unsigned arity)
{
    int k = arity_slot(arity);
    if (k < 0) return NULL;
    cuzk_poseidon_params *p = atomic_load_explicit(&table[k], memory_order_acquire);
    if (p != NULL) return p;
    pthread_mutex_lock(&table_lock);
    p = atomic_load_explicit(&table[k], memory_order_relaxed);
    if (p == NULL) {
        p = params_new(arity, ROUNDS[k].partial_rounds);
        atomic_store_explicit(&table[k], p, memory_order_release);
    }
    pthread_mutex_unlock(&table_lock);
    return p;
}

/* ---- the constant file layout ------------------------------------------------------------------------------------ */
size_t cuzk_poseidon_constants_size(const cuzk_poseidon_params *p)
{
    size_t t = p->width;
    return ((size_t)p->full_rounds * t + p->partial_rounds + 2 * t * t + (size_t)p->partial_rounds * (2 * t - 1)) *
           CUZK_FR_BYTES;
}

static uint8_t *put_mont(uint8_t *out, const cuzk_fr_t *v, size_t n)
{
    for (size_t i = 0; i < n; i++)
        for (unsigned l = 0; l < CUZK_FR_LIMBS; l++)
            for (unsigned b = 0; b < 8; b++) *out++ = (uint8_t)(v[i].l[l] >> (8 * b));
    return out;
}

void cuzk_poseidon_constants_write(const cuzk_poseidon_params *p, uint8_t *out)
{
    size_t t = p->width;
    out = put_mont(out, p->compressed, (size_t)p->full_rounds * t + p->partial_rounds);
    out = put_mont(out, p->mds, t * t);
    out = put_mont(out, p->pre_sparse, t * t);
    put_mont(out, p->sparse, (size_t)p->partial_rounds * (2 * t - 1));
}
