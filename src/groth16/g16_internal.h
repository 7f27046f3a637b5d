/* Internals shared by the prover, verifier, setup and key sources of the groth16 layer. */
#ifndef CUZK_G16_INTERNAL_H
#define CUZK_G16_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "cuzk/groth16.h"

/* A uniformly random element of Fr from the OS random source (rejection sampling, so no modular bias).
 * CUZK_ERR_IO when the OS refuses to provide randomness. */
cuzk_status cuzk_g16_random_fr(cuzk_fr_t *r);
/* n random bytes from the OS (getrandom, retried on short reads and EINTR). */
cuzk_status cuzk_g16_random_bytes(void *out, size_t n);

/* Smallest power of two >= x (x >= 1), and its log2. */
unsigned cuzk_g16_log2_ceil(uint64_t x);

/* Number of set bits among the first n bits of a density bitmap. */
uint64_t cuzk_g16_popcount(const uint64_t *bits, uint64_t n);

/* Asks for 2 MiB pages for the whole 2 MiB pages inside [p, p + bytes), before they are first written: for a point
 * array a large MSM reads at random (the H bases), so that its gathers do not miss the TLB on nearly every base
 * (G1 2^20: 3634 -> 3344 ms). Only that array: faulting in huge pages costs more CPU than plain ones here (direct
 * compaction, THP defrag = madvise), about 1 ms per MB, more than the other, sequentially read arrays gain. */
void cuzk_g16_advise_huge(void *p, size_t bytes);

/* Monotonic wall-clock seconds. */
double cuzk_g16_now(void);

/* ---- fixed-base multiplication by the generators (fixed_base.c) ---- */
/* A table of window multiples of the G1 / G2 generator: t[k·half + d − 1] = d·2^(w·k)·G for windows k of w bits and
 * d = 1 .. 2^(w−1) (signed digits, so a multiplication is ceil(256/w) mixed additions and no doubling). build picks
 * the window for about `count` multiplications (table under 64 MiB); CUZK_ERR_NOMEM when it cannot allocate.
 * mul_many: out[i] = k[i]·G for i < n on `threads` threads (0 = 1), normalized to affine in batches. */
typedef struct {
    unsigned w, nw, half; /* window bits, windows, entries per window */
    cuzk_g1_affine_t *t;
} cuzk_g16_fb1_table;
typedef struct {
    unsigned w, nw, half;
    cuzk_g2_affine_t *t;
} cuzk_g16_fb2_table;
cuzk_status cuzk_g16_fb1_table_build(cuzk_g16_fb1_table *tb, size_t count);
cuzk_status cuzk_g16_fb2_table_build(cuzk_g16_fb2_table *tb, size_t count);
/* The same with the window given (2 .. 16): the GPU setup's tables have a fixed layout. */
cuzk_status cuzk_g16_fb1_table_build_w(cuzk_g16_fb1_table *tb, unsigned w);
cuzk_status cuzk_g16_fb2_table_build_w(cuzk_g16_fb2_table *tb, unsigned w);
void cuzk_g16_fb1_table_free(cuzk_g16_fb1_table *tb);
void cuzk_g16_fb2_table_free(cuzk_g16_fb2_table *tb);
void cuzk_g16_fb1_mul_many(cuzk_g1_affine_t *out, const cuzk_g16_fb1_table *tb, const cuzk_fr_t *k, size_t n, unsigned threads);
void cuzk_g16_fb2_mul_many(cuzk_g2_affine_t *out, const cuzk_g16_fb2_table *tb, const cuzk_fr_t *k, size_t n, unsigned threads);

/* ---- Lagrange values at τ (setup.c) ---- */
/* false when τ^order = 1 (τ in the domain of that power-of-two order: a Lagrange denominator would vanish). */
bool cuzk_g16_tau_outside_domain(const cuzk_fr_t *tau, uint64_t order);
/* r = (τ^e − 1)/e for a power of two e. */
void cuzk_g16_vanishing_over(cuzk_fr_t *r, const cuzk_fr_t *tau, uint64_t e);
/* out[j] = c·x_j/(τ − x_j) at the points x_j = g·ω^j, j < n (scratch: n elements). With g = 1, ω = ω_n and
 * c = (τ^n − 1)/n this is L_j(τ), the Lagrange basis of the n domain at τ; with g = ω_2n, ω = ω_2n² and
 * c = (τ^2n − 1)/(2n) it is L^{2n}_{2j+1}(τ), the Lagrange polynomial of the odd point ω_2n^(2j+1) of the 2n domain. */
void cuzk_g16_lagrange(cuzk_fr_t *out, cuzk_fr_t *scratch, size_t n, const cuzk_fr_t *g, const cuzk_fr_t *omega, const cuzk_fr_t *tau,
                  const cuzk_fr_t *c);
/* The same on `threads` threads (0 = 1): each range starts from x = g·ω^lo and inverts its own batch. */
void cuzk_g16_lagrange_par(cuzk_fr_t *out, cuzk_fr_t *scratch, size_t n, const cuzk_fr_t *g, const cuzk_fr_t *omega, const cuzk_fr_t *tau,
                      const cuzk_fr_t *c, unsigned threads);

/* Positions of the density-selected variables, in order: every input i with in_bits NULL or bit i set, then
 * ni + j for every aux j with bit j of aux_bits. *out is malloc'd with *count entries; threads 0 = 1. (setup.c) */
cuzk_status cuzk_g16_positions(uint32_t **out, uint64_t *count, const uint64_t *in_bits, uint64_t ni,
                          const uint64_t *aux_bits, uint64_t na, unsigned threads);

/* ---- the scalars of a test setup (setup.c), shared by cuzk_groth16_setup and cuzk_gpu_setup ---- */
/* Every point of a key is k·G for the generator G of its group and a scalar k from the toxic waste. make computes
 * what the scalars of a whole key need (O(variables + domain) memory); fill then writes the scalars of any range of
 * positions of one array, so that a caller can produce them in chunks:
 *   IC  (β·u_j + α·v_j + w_j)/γ for the inputs j            L  the same over δ for the aux variables
 *   H   BELLPERSON τ^i·Z(τ)/δ, i < n − 1; SNARKJS L^{2n}_{2i+1}(τ)/δ, i < n
 *   A   u_j, B  v_j for the density-selected variables (BELLPERSON) or every variable (SNARKJS), in order;
 *       B's scalars serve both b_g1 and b_g2
 * where u_j, v_j, w_j are the QAP polynomials of variable j at τ. The vk's α, β, δ (G1) and β, γ, δ (G2) are the
 * toxic waste itself (SNARKJS: γ = 1). Every step is spread over `threads` threads. */
enum { G16_SEC_IC, G16_SEC_H, G16_SEC_L, G16_SEC_A, G16_SEC_B, G16_SEC_COUNT };
typedef struct {
    cuzk_groth16_convention conv;
    unsigned threads;
    cuzk_fr_t tau, alpha, beta, gamma, delta;
    cuzk_fr_t h0;                      /* BELLPERSON: Z(τ)/δ, the first H scalar */
    unsigned log2n;
    uint64_t n, ni, na, nv;
    uint64_t len[G16_SEC_COUNT]; /* scalars of each array */
    cuzk_fr_t *u, *v;                  /* nv each */
    cuzk_fr_t *icl;                    /* nv: the IC scalars, then the L scalars */
    cuzk_fr_t *h;                      /* SNARKJS: the n H scalars; BELLPERSON: NULL (computed from h0 and τ) */
    uint32_t *a_vars, *b_vars;    /* position -> variable (BELLPERSON); NULL when dense */
} g16_setup_scalars;
/* Draws (or takes the given) toxic waste and checks it as cuzk_groth16_setup documents; errors as cuzk_groth16_setup's.
 * threads 0 = 1. On failure nothing is left to free. */
cuzk_status cuzk_g16_setup_scalars_make(g16_setup_scalars *s, const cuzk_r1cs_t *circuit, const cuzk_groth16_setup_opts *opts,
                                   unsigned threads, cuzk_errmsg *err);
/* out[i] = scalar lo + i of array sec, for lo <= i + lo < hi <= s->len[sec], on s->threads threads. */
void cuzk_g16_setup_scalars_fill(const g16_setup_scalars *s, int sec, uint64_t lo, uint64_t hi, cuzk_fr_t *out);
/* Frees the vectors and wipes the toxic waste. Harmless on a zeroed struct. */
void cuzk_g16_setup_scalars_free(g16_setup_scalars *s);

#endif
