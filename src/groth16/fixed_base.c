/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* Fixed-base multiplication by the G1 and G2 generators (declared in g16_internal.h): the two instantiations of
 * fixed_base_template.h, shared by the test setup (setup.c) and the powers-of-tau writer (ptau.c). */
#include <stdlib.h>

#include "g16_internal.h"

/* points per batch normalization: one inversion per 256 multiplications is negligible, and the Jacobian results
 * fit on a worker's stack */
#define FB_CHUNK 256

/* Window minimizing table building (about two additions per entry with its normalization) plus ceil(256/w) mixed
 * additions per point, the table kept under 64 MiB. */
static unsigned fb_window(size_t count, size_t point_bytes)
{
    unsigned best = 2;
    double best_cost = -1;
    for (unsigned w = 2; w <= 16; w++) {
        double nw = (256 + w - 1) / w, half = (double)(1u << (w - 1));
        if (nw * half * (double)point_bytes > 64.0 * 1024 * 1024) break;
        double cost = 2 * nw * half + (double)count * nw;
        if (best_cost < 0 || cost < best_cost) {
            best_cost = cost;
            best = w;
        }
    }
    return best;
}

#define G(name) cuzk_g1_##name
#define AFF cuzk_g1_affine_t
#define JAC cuzk_g1_jac_t
#define FB(name) cuzk_g16_fb1_##name
#include "fixed_base_template.h"
#undef G
#undef AFF
#undef JAC
#undef FB

#define G(name) cuzk_g2_##name
#define AFF cuzk_g2_affine_t
#define JAC cuzk_g2_jac_t
#define FB(name) cuzk_g16_fb2_##name
#include "fixed_base_template.h"
#undef G
#undef AFF
#undef JAC
#undef FB
