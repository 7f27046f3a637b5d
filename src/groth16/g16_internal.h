/* Internals shared by the prover, verifier, setup and key sources of the groth16 layer. */
#ifndef CUZK_G16_INTERNAL_H
#define CUZK_G16_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "cuzk/groth16.h"

/* Returns s after writing the printf-style detail into err (when err is not NULL). */
cuzk_status g16_fail(cuzk_errmsg *err, cuzk_status s, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* A uniformly random element of Fr from the OS random source (rejection sampling, so no modular bias).
 * CUZK_ERR_IO when the OS refuses to provide randomness. */
cuzk_status g16_random_fr(fr_t *r);
/* n random bytes from the OS (getrandom, retried on short reads and EINTR). */
cuzk_status g16_random_bytes(void *out, size_t n);

/* Smallest power of two >= x (x >= 1), and its log2. */
unsigned g16_log2_ceil(uint64_t x);

/* Number of set bits among the first n bits of a density bitmap. */
uint64_t g16_popcount(const uint64_t *bits, uint64_t n);

/* Asks for 2 MiB pages for the whole 2 MiB pages inside [p, p + bytes), before they are first written: for a point
 * array a large MSM reads at random (the H bases), so that its gathers do not miss the TLB on nearly every base
 * (G1 2^20: 3634 -> 3344 ms). Only that array: faulting in huge pages costs more CPU than plain ones here (direct
 * compaction, THP defrag = madvise), about 1 ms per MB, more than the other, sequentially read arrays gain. */
void g16_advise_huge(void *p, size_t bytes);

/* Monotonic wall-clock seconds. */
double g16_now(void);

/* ---- fixed-base multiplication by the generators (fixed_base.c) ---- */
/* A table of window multiples of the G1 / G2 generator: t[k·half + d − 1] = d·2^(w·k)·G for windows k of w bits and
 * d = 1 .. 2^(w−1) (signed digits, so a multiplication is ceil(256/w) mixed additions and no doubling). build picks
 * the window for about `count` multiplications (table under 64 MiB); CUZK_ERR_NOMEM when it cannot allocate.
 * mul_many: out[i] = k[i]·G for i < n on `threads` threads (0 = 1), normalized to affine in batches. */
typedef struct {
    unsigned w, nw, half; /* window bits, windows, entries per window */
    g1_affine_t *t;
} g16_fb1_table;
typedef struct {
    unsigned w, nw, half;
    g2_affine_t *t;
} g16_fb2_table;
cuzk_status g16_fb1_table_build(g16_fb1_table *tb, size_t count);
cuzk_status g16_fb2_table_build(g16_fb2_table *tb, size_t count);
void g16_fb1_table_free(g16_fb1_table *tb);
void g16_fb2_table_free(g16_fb2_table *tb);
void g16_fb1_mul_many(g1_affine_t *out, const g16_fb1_table *tb, const fr_t *k, size_t n, unsigned threads);
void g16_fb2_mul_many(g2_affine_t *out, const g16_fb2_table *tb, const fr_t *k, size_t n, unsigned threads);

/* ---- Lagrange values at τ (setup.c) ---- */
/* false when τ^order = 1 (τ in the domain of that power-of-two order: a Lagrange denominator would vanish). */
bool g16_tau_outside_domain(const fr_t *tau, uint64_t order);
/* r = (τ^e − 1)/e for a power of two e. */
void g16_vanishing_over(fr_t *r, const fr_t *tau, uint64_t e);
/* out[j] = c·x_j/(τ − x_j) at the points x_j = g·ω^j, j < n (scratch: n elements). With g = 1, ω = ω_n and
 * c = (τ^n − 1)/n this is L_j(τ), the Lagrange basis of the n domain at τ; with g = ω_2n, ω = ω_2n² and
 * c = (τ^2n − 1)/(2n) it is L^{2n}_{2j+1}(τ), the Lagrange polynomial of the odd point ω_2n^(2j+1) of the 2n domain. */
void g16_lagrange(fr_t *out, fr_t *scratch, size_t n, const fr_t *g, const fr_t *omega, const fr_t *tau,
                  const fr_t *c);

#endif
