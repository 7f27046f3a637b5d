/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* Fr addition on 32-byte LE reprs: the encoding of the last layer's labels onto the data. */
#include "cuzk/ff.h"
#include "sdr_int.h"

static void load_limbs(const uint8_t a[32], uint64_t l[4])
{
    for (int k = 0; k < 4; k++) l[k] = cuzk_load_le64(a + 8 * k);
}

static bool limbs_lt_r(const uint64_t l[4])
{
    for (int k = 3; k >= 0; k--) {
        if (l[k] != CUZK_FR_MODULUS[k]) return l[k] < CUZK_FR_MODULUS[k];
    }
    return false;
}

bool cuzk_fil_sdr_fr_is_canonical_le(const uint8_t a[32])
{
    uint64_t l[4];
    load_limbs(a, l);
    return limbs_lt_r(l);
}

bool cuzk_fil_sdr_fr_add_le(uint8_t out[32], const uint8_t a[32], const uint8_t b[32])
{
    uint64_t x[4], y[4], s[4], d[4];
    load_limbs(a, x);
    load_limbs(b, y);
    if (!limbs_lt_r(x) || !limbs_lt_r(y)) return false;
    unsigned carry = 0;
    for (int k = 0; k < 4; k++) {
        unsigned __int128 t = (unsigned __int128)x[k] + y[k] + carry;
        s[k] = (uint64_t)t;
        carry = (unsigned)(t >> 64);
    }
    /* both < r < 2^255, so the sum fits 256 bits (carry is 0); subtract r once when s ≥ r */
    unsigned borrow = 0;
    for (int k = 0; k < 4; k++) {
        unsigned __int128 t = (unsigned __int128)s[k] - CUZK_FR_MODULUS[k] - borrow;
        d[k] = (uint64_t)t;
        borrow = (unsigned)(t >> 64) & 1;
    }
    const uint64_t *res = borrow ? s : d;
    for (int k = 0; k < 4; k++) cuzk_store_le64(out + 8 * k, res[k]);
    return true;
}
