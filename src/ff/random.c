/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* Uniform field elements from the operating system's randomness. */
#include "cuzk/ff.h"

cuzk_status cuzk_fr_random(cuzk_fr_t *r)
{
    /* r is a 255-bit prime a little under 2^255: draws of 255 bits are accepted with probability ~0.45, and an
     * accepted draw is uniform in [0, r). */
    for (;;) {
        uint64_t l[CUZK_FR_LIMBS];
        cuzk_status s = cuzk_random_bytes(l, sizeof l);
        if (s != CUZK_OK) return s;
        l[CUZK_FR_LIMBS - 1] &= UINT64_MAX >> 1;
        if (cuzk_fr_from_limbs(r, l) == CUZK_OK) return CUZK_OK;
    }
}
