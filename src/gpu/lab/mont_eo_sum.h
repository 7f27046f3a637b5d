/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* a·b + c·d with one Montgomery reduction, on ff/mont_eo.h's wide products: measured slower than two multiplications
 * (docs/performance/msm.md), kept for the lab (CUZK_GPU_LAB_FP_MUL_ADD) and checked on the host like the rest. */
#ifndef CUZK_GPU_LAB_MONT_EO_SUM_H
#define CUZK_GPU_LAB_MONT_EO_SUM_H

#include "ff/mont_eo.h"

/* r = (a·b + c·d)·R^−1 mod m: both products wide and one reduction (432 word products against 576 for two
 * multiplications); a·b + c·d < 2m² < m·R */
MONT_FN void eo_mul_add(int f, uint32_t *r, const uint32_t *a, const uint32_t *b, const uint32_t *c, const uint32_t *d)
{
    uint32_t t[24], u[24];
    eo_mul_wide(f, t, a, b);
    eo_mul_wide(f, u, c, d);
    eo_add_words(t, t, u, 2 * mont_words(f));
    eo_redc(f, r, t);
}

#endif
