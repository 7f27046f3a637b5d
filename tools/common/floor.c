/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* The floor's counts and the CPU's multiplication rates (floor.h).
 *
 * The counts are those of the cheapest known methods, so no prover of this shape beats the floor without a faster
 * multiplication:
 *   - an NTT of size 2^k is k radix-2 stages of 2^(k−1) butterflies, one multiplication each unless its twiddle is
 *     1 (the first butterfly of every block, a fraction 2^−b at the stage of blocks of 2^(b+1)): 2^(k−1)·(k − 2) + 1;
 *   - an MSM of n points over windows of c bits (signed digits, ⌈256/c⌉ windows of 2^(c−1) buckets, the c that
 *     minimises the count) adds each point into one bucket per window, less one addition for each bucket's first
 *     point, and reduces each window's buckets with at least two additions each;
 *   - an addition is at least 6 multiplications of the curve's field: the affine sum's 2M + 1S with its inversion
 *     shared by Montgomery's trick (3M), the shared inversion itself not counted;
 *   - a Groth16 proof makes six transforms of its domain for H, and the H, L, A, B1 (G1) and B2 (G2) MSMs; its
 *     batch additions of the scalars equal to 1, its SpMV and its copies are not counted. */
#include <math.h>

#include "floor.h"
#include "cuzk/base.h"
#include "cuzk/ff.h"

#define ADD_MULS 6.0

double floor_ntt_muls(unsigned log2)
{
    if (log2 < 2) return 0;
    return ldexp(1.0, (int)log2 - 1) * (log2 - 2) + 1;
}

double floor_msm_muls(uint64_t n)
{
    if (n == 0) return 0;
    double best = -1;
    for (unsigned c = 2; c <= 30; c++) {
        double nw = (256 + c - 1) / c, buckets = nw * ldexp(1.0, (int)c - 1);
        double adds = (double)n * nw - buckets + 2 * buckets; /* into the buckets, then their reduction */
        if (best < 0 || adds < best) best = adds;
    }
    return best * ADD_MULS;
}

double floor_ms(double muls, double ps) { return muls * ps * 1e-9; }

floor_proof floor_proof_ms(const floor_work *w, const floor_rates *r)
{
    floor_proof f;
    f.ntt_ms = floor_ms(6 * floor_ntt_muls(w->domain_log2), r->fr_ps);
    f.h_ms = floor_ms(floor_msm_muls(w->points_h), r->fp_ps);
    f.tails_ms = floor_ms(floor_msm_muls(w->points_l) + floor_msm_muls(w->points_a) + floor_msm_muls(w->points_b),
                          r->fp_ps) +
                 floor_ms(floor_msm_muls(w->points_b), r->fp2_ps);
    f.all_ms = f.ntt_ms + f.h_ms + f.tails_ms;
    return f;
}

static void seed_fr(cuzk_fr_t *x, uint64_t v) { cuzk_fr_from_u64(x, v); }
static void seed_fp(cuzk_fp_t *x, uint64_t v) { cuzk_fp_from_u64(x, v); }
static void seed_fp2(cuzk_fp2_t *x, uint64_t v)
{
    cuzk_fp_from_u64(&x->c0, v);
    cuzk_fp_from_u64(&x->c1, v + 2);
}

/* the best of five runs of `iters` rounds of four independent products, in ps a product */
#define RATE(T)                                                                                                        \
    static double rate_##T(unsigned iters)                                                                             \
    {                                                                                                                  \
        cuzk_##T##_t x[4], b;                                                                                          \
        for (int k = 0; k < 4; k++) seed_##T(&x[k], 3 + (uint64_t)k);                                                  \
        seed_##T(&b, 7);                                                                                               \
        double best = -1;                                                                                              \
        for (int run = 0; run < 5; run++) {                                                                            \
            double t = cuzk_now();                                                                                     \
            for (unsigned i = 0; i < iters; i++)                                                                       \
                for (int k = 0; k < 4; k++) cuzk_##T##_mul(&x[k], &x[k], &b);                                          \
            t = cuzk_now() - t;                                                                                        \
            if (best < 0 || t < best) best = t;                                                                        \
        }                                                                                                              \
        volatile uint8_t sink = ((const uint8_t *)x)[0];                                                               \
        (void)sink;                                                                                                    \
        return best * 1e12 / (4.0 * iters);                                                                            \
    }
RATE(fr)
RATE(fp)
RATE(fp2)
#undef RATE

void floor_rates_cpu(floor_rates *r)
{
    r->fr_ps = rate_fr(1 << 16);
    r->fp_ps = rate_fp(1 << 15);
    r->fp2_ps = rate_fp2(1 << 13);
}
