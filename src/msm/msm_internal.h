/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* Group-independent parts of the MSM: window plan, signed digits, scalar checks and the worker pool. */
#ifndef CUZK_MSM_INTERNAL_H
#define CUZK_MSM_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cuzk/ff.h"

/* Scalars are < r < 2^255, so bit 255 is always clear and ceil(256 / c) signed windows never carry out. */
#define MSM_SCALAR_BITS 256
/* GLV halves are balanced, magnitudes below z²/2 + 1 < 2^127 with the sign in bit 127 (CUZK_MSM_GLV_NEG of the high
 * limb), which the digits mask off: ceil(128 / c) windows, 8 at c = 16. */
#define MSM_GLV_BITS 128
#define CUZK_MSM_GLV_NEG 0x8000000000000000ULL
#define MSM_MAX_WINDOW 20
#define MSM_MAX_N ((size_t)INT32_MAX)
#define MSM_MAX_THREADS 1024u

/* How one MSM is cut: window width c, windows nw = ceil(bits / c), each window split into `parts` point ranges.
 * A task is one (window, part) pair; tasks are handed to workers in order. */
typedef struct {
    unsigned c, nw, parts;
} msm_plan;

/* Chooses the plan of least estimated time for n points with scalars of `bits` bits (MSM_SCALAR_BITS or
 * MSM_GLV_BITS) on `threads` workers. bucket_cost is the cost of reducing one bucket relative to one bucket
 * addition. */
void cuzk_msm_plan_choose(msm_plan *p, size_t n, unsigned threads, double bucket_cost, unsigned bits);

/* Signed digit of window j (width c) of a scalar k of `limbs` 64-bit limbs whose bit c·nw − 1 is clear:
 * d in [−2^(c−1), 2^(c−1)], with k = Σ_j d_j 2^(jc). Booth's rule: the c bits of the window, plus the bit just
 * below it, minus 2^c times the window's top bit; each window is read independently, no carry chain. Bits at and
 * above 64·limbs read as 0. */
static inline int32_t msm_digit(const uint64_t *k, unsigned limbs, unsigned j, unsigned c)
{
    unsigned pos = j * c;
    /* c + 1 bits starting at pos − 1 (bit −1 is 0): read a 64-bit span covering them */
    uint64_t w;
    if (pos == 0) {
        w = k[0] << 1;
    } else {
        unsigned s = pos - 1, limb = s / 64, sh = s % 64;
        w = k[limb] >> sh;
        if (sh != 0 && limb + 1 < limbs) w |= k[limb + 1] << (64 - sh);
    }
    uint64_t mask = ((uint64_t)1 << (c + 1)) - 1;
    w &= mask;
    /* w = window bits << 1 | bit below: digit = (w >> 1) + (w & 1) − (top bit) << c */
    int32_t d = (int32_t)((w >> 1) + (w & 1));
    return d - (int32_t)((w >> c) << c);
}

/* k < r as plain integers. */
int cuzk_msm_scalar_in_range(const uint64_t k[4]);

/* GLV split of k < r: k ≡ k1 + k2·z² (mod r) with |k1|, |k2| <= z²/2 + 1 < 2^127 (z = −0xd201000000010000;
 * r = z⁴ − z² + 1). Each half is written as its magnitude in limbs [0..1] with CUZK_MSM_GLV_NEG set in limb 1 when
 * it is negative. */
void cuzk_msm_glv_split(uint64_t k1[2], uint64_t k2[2], const uint64_t k[4]);

#endif
