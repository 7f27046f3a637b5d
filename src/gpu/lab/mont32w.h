/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* Montgomery multiplication over 32-bit words where each word product and its two addends make one 64-bit value,
 * for Fp (381 bits, R = 2^384) and Fr (255 bits, R = 2^256): the same inputs and results as ff/ff.cuh's
 * multiplications (canonical values in, canonical value out).
 *
 * Why: ncu (docs/performance/msm.md) found the 64-bit-word multiplication bound by the pipe that runs
 * integer multiply-adds, a third of whose work was register moves and carry materialisations
 * (IMAD.MOV, IMAD.X) that ptxas places there around the 64-bit products. Here every step is
 *   d = a_j·b_i + t_k + c   (< 2^64: (2^32 − 1)² + 2·(2^32 − 1) = 2^64 − 1),   t_k = lo(d), c = hi(d),
 * one wide multiply-add and one three-input addition, which leaves the carries to the other integer pipe.
 *
 * mw_mul_sos: the 2N-word product, then N reduction steps whose last carries wait one step in `pend`, so no carry
 * runs to the top.
 *
 * It lost to field_lab.cuh's 64-bit-word one, and the G1 MSM with it (docs/performance/msm.md): ptxas still builds
 * each 64-bit addend pair with multiply-pipe moves (IMAD.MOV, IMAD.X). A measured, checked alternative
 * (CUZK_GPU_LAB_FP_MUL_W, CUZK_GPU_LAB_FR_MUL_W).
 *
 * Plain C so that the host test (tests/gpu_host/test_mont28.c) checks the very same code against the CPU field
 * layer; under nvcc the loops unroll into straight-line code with the modulus words as immediates. */
#ifndef CUZK_GPU_MONT32W_H
#define CUZK_GPU_MONT32W_H

#include <stdint.h>

#include "ff/mont.h"

/* (c, t) = a·b + t + c */
MONT_FN void mw_step(uint32_t *t, uint32_t *c, uint32_t a, uint32_t b)
{
    uint64_t d = (uint64_t)a * b + *t + *c;
    *t = (uint32_t)d;
    *c = (uint32_t)(d >> 32);
}

/* r = a·b·R^−1 mod m, product then reduction. r may alias a or b. */
MONT_FN void mw_mul_sos(int f, uint32_t *r, const uint32_t *a, const uint32_t *b)
{
    const int n = mont_words(f);
    uint32_t t[24];
    MONT_UNROLL
    for (int k = 0; k < 24; k++) t[k] = 0;
    MONT_UNROLL
    for (int i = 0; i < 12; i++) {
        if (i < n) {
            uint32_t c = 0;
            MONT_UNROLL
            for (int j = 0; j < 12; j++) {
                if (j < n) mw_step(&t[i + j], &c, a[j], b[i]);
            }
            t[i + n] = c;
        }
    }
    uint32_t pend = 0;
    MONT_UNROLL
    for (int i = 0; i < 12; i++) {
        if (i < n) {
            uint32_t q = t[i] * mont_ninv32(f), c = 0;
            MONT_UNROLL
            for (int j = 0; j < 12; j++) {
                if (j < n) mw_step(&t[i + j], &c, q, mont_mod_word(f, j));
            }
            uint64_t s = (uint64_t)t[i + n] + c + pend; /* word i + n; its carry out is word i + n + 1's */
            t[i + n] = (uint32_t)s;
            pend = (uint32_t)(s >> 32);
        }
    }
    mont_sub_once(f, r, t + n, pend);
}

#endif
