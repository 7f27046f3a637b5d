/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* Radix-2 NTT kernels, cache-blocked.
 *
 * A decimation-in-frequency transform of size n does log2(n) stages; the stage of half-span h pairs x[j] with
 * x[j + h] inside each run of 2h elements. Once 2h is at most the block size m, every run lies inside one block of m
 * elements, so the remaining stages of a block are a complete sub-transform that can run while the block sits in
 * L2. The large stages (h >= m) each sweep the whole array once; the block stages sweep it once in all. Decimation
 * in time does the same steps in the opposite order.
 *
 * Twiddles: the butterfly of stage h at offset j uses ω_2h^j = ω^(j·n/2h) = tw[j·n/2h]. The inverse transform uses
 * ω^-i = ω^(n−i) = −ω^(n/2−i), i.e. −tw[n/2 − i] for i > 0, so one table of n/2 powers serves both directions and
 * the minus sign is absorbed by exchanging the butterfly's sum and difference. */
#include "ntt_internal.h"

/* 2^13 elements = 256 KiB: a block and its twiddles stay within a 1 MiB L2 with room to spare. */
#define NTT_BLOCK_LOG2 13
/* Below 2^10 elements a whole transform takes tens of microseconds, about what starting threads costs. */
#define NTT_SERIAL_LOG2 10
/* Smallest share of butterflies or elements a thread is given in a sweep over the array. */
#define NTT_MIN_CHUNK 2048

/* (u, v) := (u + v, (u − v)·w) */
static inline void dif_bfly(cuzk_fr_t *u, cuzk_fr_t *v, const cuzk_fr_t *tw, size_t half, size_t idx, bool inverse)
{
    cuzk_fr_t t;
    if (idx == 0) {
        cuzk_fr_sub(&t, u, v);
        cuzk_fr_add(u, u, v);
        *v = t;
    } else if (inverse) {
        cuzk_fr_sub(&t, v, u);
        cuzk_fr_add(u, u, v);
        cuzk_fr_mul(v, &t, &tw[half - idx]);
    } else {
        cuzk_fr_sub(&t, u, v);
        cuzk_fr_add(u, u, v);
        cuzk_fr_mul(v, &t, &tw[idx]);
    }
}

/* (u, v) := (u + w·v, u − w·v) */
static inline void dit_bfly(cuzk_fr_t *u, cuzk_fr_t *v, const cuzk_fr_t *tw, size_t half, size_t idx, bool inverse)
{
    cuzk_fr_t m;
    if (idx == 0) {
        m = *v;
        cuzk_fr_sub(v, u, &m);
        cuzk_fr_add(u, u, &m);
    } else if (inverse) {
        cuzk_fr_mul(&m, v, &tw[half - idx]);
        cuzk_fr_add(v, u, &m);
        cuzk_fr_sub(u, u, &m);
    } else {
        cuzk_fr_mul(&m, v, &tw[idx]);
        cuzk_fr_sub(v, u, &m);
        cuzk_fr_add(u, u, &m);
    }
}

typedef struct {
    cuzk_fr_t *x;
    const cuzk_ntt_domain *d;
    bool inverse;
    size_t h; /* half-span of the sweep in progress */
    size_t m; /* block size */
} kernel_ctx;

/* One large stage over butterflies [lo, hi), numbered run by run. */
static void dif_sweep(void *arg, size_t lo, size_t hi)
{
    const kernel_ctx *c = arg;
    size_t h = c->h, stride = c->d->n / (2 * h), half = c->d->n / 2;
    for (size_t q = lo; q < hi;) {
        size_t j = q % h, end = h - j < hi - q ? h : j + (hi - q);
        cuzk_fr_t *u = c->x + 2 * h * (q / h);
        for (size_t i = j; i < end; i++) dif_bfly(&u[i], &u[i + h], c->d->tw, half, i * stride, c->inverse);
        q += end - j;
    }
}

static void dit_sweep(void *arg, size_t lo, size_t hi)
{
    const kernel_ctx *c = arg;
    size_t h = c->h, stride = c->d->n / (2 * h), half = c->d->n / 2;
    for (size_t q = lo; q < hi;) {
        size_t j = q % h, end = h - j < hi - q ? h : j + (hi - q);
        cuzk_fr_t *u = c->x + 2 * h * (q / h);
        for (size_t i = j; i < end; i++) dit_bfly(&u[i], &u[i + h], c->d->tw, half, i * stride, c->inverse);
        q += end - j;
    }
}

/* The stages h < m of blocks [lo, hi). The offset j is the outer loop so each twiddle is loaded once per stage. */
static void dif_blocks(void *arg, size_t lo, size_t hi)
{
    const kernel_ctx *c = arg;
    size_t m = c->m, half = c->d->n / 2;
    for (size_t b = lo; b < hi; b++) {
        cuzk_fr_t *x = c->x + b * m;
        for (size_t h = m / 2; h >= 1; h /= 2) {
            size_t stride = c->d->n / (2 * h);
            for (size_t j = 0; j < h; j++)
                for (size_t g = j; g < m; g += 2 * h)
                    dif_bfly(&x[g], &x[g + h], c->d->tw, half, j * stride, c->inverse);
        }
    }
}

static void dit_blocks(void *arg, size_t lo, size_t hi)
{
    const kernel_ctx *c = arg;
    size_t m = c->m, half = c->d->n / 2;
    for (size_t b = lo; b < hi; b++) {
        cuzk_fr_t *x = c->x + b * m;
        for (size_t h = 1; h < m; h *= 2) {
            size_t stride = c->d->n / (2 * h);
            for (size_t j = 0; j < h; j++)
                for (size_t g = j; g < m; g += 2 * h)
                    dit_bfly(&x[g], &x[g + h], c->d->tw, half, j * stride, c->inverse);
        }
    }
}

/* Block size and thread count for a transform: blocks of at most 2^NTT_BLOCK_LOG2, and at least one per thread. */
static void kernel_plan(kernel_ctx *c, cuzk_fr_t *x, const cuzk_ntt_domain *d, bool inverse, unsigned *threads)
{
    if (*threads == 0 || d->log2n < NTT_SERIAL_LOG2) *threads = 1;
    size_t m = d->n < ((size_t)1 << NTT_BLOCK_LOG2) ? d->n : (size_t)1 << NTT_BLOCK_LOG2;
    while (d->n / m < *threads && m > 64) m /= 2;
    c->x = x;
    c->d = d;
    c->inverse = inverse;
    c->h = 0;
    c->m = m;
}

void cuzk_ntt_dif(cuzk_fr_t *x, const cuzk_ntt_domain *d, bool inverse, unsigned threads)
{
    kernel_ctx c;
    kernel_plan(&c, x, d, inverse, &threads);
    for (c.h = d->n / 2; c.h >= c.m; c.h /= 2) cuzk_par_for(threads, d->n / 2, NTT_MIN_CHUNK, dif_sweep, &c);
    cuzk_par_for(threads, d->n / c.m, 1, dif_blocks, &c);
}

void cuzk_ntt_dit(cuzk_fr_t *x, const cuzk_ntt_domain *d, bool inverse, unsigned threads)
{
    kernel_ctx c;
    kernel_plan(&c, x, d, inverse, &threads);
    cuzk_par_for(threads, d->n / c.m, 1, dit_blocks, &c);
    for (c.h = c.m; c.h < d->n; c.h *= 2) cuzk_par_for(threads, d->n / 2, NTT_MIN_CHUNK, dit_sweep, &c);
}
