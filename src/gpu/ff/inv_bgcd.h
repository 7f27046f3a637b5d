/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* Inversion in Fp by a binary extended GCD whose steps are taken 31 at a time on 64-bit approximations (the method of
 * T. Pornin, "Optimized Binary GCD for Modular Inversion", 2020), for the batch-affine MSM rounds: variable time
 * (their inputs are public): several times cheaper than Fermat's 380 squarings and 95 multiplications
 * (docs/performance/msm.md).
 *
 * State: a, b ≥ 0 with b odd, and u, v mod p, such that a ≡ u·Y and b ≡ v·Y (mod p); at the start a = Y, b = p,
 * u = 1, v = 0. One exact step: if a is odd, make a ≥ b by swapping (a, u) with (b, v), then a −= b and u −= v;
 * then a /= 2 and u /= 2. It ends when a = 0, with b = gcd(Y, p) = 1 and v = Y^−1.
 *
 * A batch runs 31 such steps on ā and b̄: each one's top 33 bits (at the position of the longer of a and b) over its
 * low 31 bits. The low bits are exact, so every parity decision is; only the comparisons can be wrong. The batch
 * records what it did as a matrix: after it, a = (f0·a + g0·b) / 2^31 and b = (f1·a + g1·b) / 2^31 exactly, with
 * |f0| + |g0| ≤ 2^31 and |f1| + |g1| ≤ 2^31. A wrong comparison can leave a or b negative: it is negated, with its
 * row of the matrix. u and v take the same matrix and a division by 2^31 modulo p (Montgomery's).
 *
 * The words are 32-bit so that the host test (tests/gpu_host/test_mont28.c) runs this code as the device does. */
#ifndef CUZK_GPU_INV_BGCD_H
#define CUZK_GPU_INV_BGCD_H

#include <stdint.h>

#include "mont_eo.h"

/* At about 31 bits a batch, 2·381 bits need ~25 batches; 200 000 random inputs all finished within 19. More than
 * this means a bug, and the caller falls back to Fermat. */
#define BG_MAX_BATCHES 64

/* bit length of the longer of a and b (12 words) */
MONT_FN int bg_bitlen2(const uint32_t *a, const uint32_t *b)
{
    int n = 0;
    MONT_UNROLL
    for (int k = 0; k < 12; k++) {
        uint32_t w = a[k] | b[k];
        if (w != 0) n = 32 * k + 32 - mont_clz(w);
    }
    return n;
}

/* ā: bits [n − 33, n) of x over its low 31 bits, or x's low 64 bits when n ≤ 64 */
MONT_FN uint64_t bg_approx(const uint32_t *x, int n)
{
    if (n <= 64) return (uint64_t)x[1] << 32 | x[0];
    int s = n - 33, w = s >> 5, sh = s & 31;
    uint32_t lo = 0, hi = 0;
    MONT_UNROLL
    for (int k = 0; k < 12; k++) {
        if (k == w) lo = x[k];
        if (k == w + 1) hi = x[k];
    }
    uint64_t top = (((uint64_t)hi << 32 | lo) >> sh) & 0x1ffffffffULL;
    return top << 31 | (x[0] & 0x7fffffffu);
}

/* r = f·x + g·y as 13 words of two's complement (x, y: 12 words; |f| + |g| ≤ 2^31, so |r| < 2^31·2^384) */
MONT_FN void bg_lin(uint32_t *r, const uint32_t *x, const uint32_t *y, int64_t f, int64_t g)
{
    int64_t carry = 0;
    MONT_UNROLL
    for (int k = 0; k < 12; k++) {
        int64_t t = f * (int64_t)x[k], u = g * (int64_t)y[k];
        uint64_t lo = (uint64_t)(uint32_t)t + (uint32_t)u + (uint32_t)carry;
        carry = (t >> 32) + (u >> 32) + (carry >> 32) + (int64_t)(lo >> 32);
        r[k] = (uint32_t)lo;
    }
    r[12] = (uint32_t)carry;
}

/* r = −r over 13 words when neg */
MONT_FN void bg_cond_neg13(uint32_t *r, uint32_t neg)
{
    uint32_t m = 0u - neg;
    uint64_t c = neg;
    MONT_UNROLL
    for (int k = 0; k < 13; k++) {
        c += (uint32_t)(r[k] ^ m);
        r[k] = (uint32_t)c;
        c >>= 32;
    }
}

/* a = (f·a + g·b) / 2^31, made non-negative; returns 1 when it was negated (the caller negates f and g) */
MONT_FN uint32_t bg_update_ab(uint32_t *out, const uint32_t *a, const uint32_t *b, int64_t f, int64_t g)
{
    uint32_t t[13];
    bg_lin(t, a, b, f, g);
    uint32_t neg = t[12] >> 31;
    bg_cond_neg13(t, neg);
    MONT_UNROLL
    for (int k = 0; k < 12; k++) out[k] = t[k] >> 31 | t[k + 1] << 1;
    return neg;
}

/* out = (f·u + g·v) / 2^31 mod p, for u, v < p */
MONT_FN void bg_update_uv(uint32_t *out, const uint32_t *u, const uint32_t *v, int64_t f, int64_t g)
{
    uint32_t t[13];
    bg_lin(t, u, v, f, g);
    uint32_t neg = t[12] >> 31;
    bg_cond_neg13(t, neg); /* |f·u + g·v| < 2^31·p */
    /* + q·p clears the low 31 bits: q = t·(−p^−1) mod 2^31 */
    uint32_t q = (t[0] * mont_ninv32(MONT_FP)) & 0x7fffffffu;
    uint64_t c = 0;
    MONT_UNROLL
    for (int k = 0; k < 12; k++) {
        c += (uint64_t)q * mont_mod_word(MONT_FP, k) + t[k];
        t[k] = (uint32_t)c;
        c >>= 32;
    }
    t[12] += (uint32_t)c; /* below 2^31·2p < 2^413: no carry out */
    uint32_t s[12];
    MONT_UNROLL
    for (int k = 0; k < 12; k++) s[k] = t[k] >> 31 | t[k + 1] << 1;
    mont_sub_once(MONT_FP, s, s, 0); /* below 2p */
    /* −s mod p when the sum was negative (0 stays 0) */
    uint32_t nz = 0;
    MONT_UNROLL
    for (int k = 0; k < 12; k++) nz |= s[k];
    uint32_t m = neg && nz ? 0xffffffffu : 0u;
    int64_t borrow = 0;
    MONT_UNROLL
    for (int k = 0; k < 12; k++) {
        int64_t d = (int64_t)mont_mod_word(MONT_FP, k) - s[k] + borrow;
        uint32_t pd = (uint32_t)d;
        borrow = d >> 32;
        out[k] = s[k] ^ ((s[k] ^ pd) & m);
    }
}

/* r = Y^−1 mod p (0 gives 0) for Y < p, plain integers (no Montgomery factor); returns 0 when max_batches did not
 * reach a = 0 (r is then unset) */
MONT_FN int bg_inv_plain(uint32_t *r, const uint32_t *y, int max_batches)
{
    uint32_t a[12], b[12], u[12], v[12];
    MONT_UNROLL
    for (int k = 0; k < 12; k++) {
        a[k] = y[k];
        b[k] = mont_mod_word(MONT_FP, k);
        u[k] = k == 0;
        v[k] = 0;
    }
    for (int batch = 0; batch < max_batches; batch++) {
        uint32_t any = 0;
        MONT_UNROLL
        for (int k = 0; k < 12; k++) any |= a[k];
        if (any == 0) {
            MONT_UNROLL
            for (int k = 0; k < 12; k++) r[k] = v[k];
            return 1;
        }
        int n = bg_bitlen2(a, b);
        uint64_t ah = bg_approx(a, n), bh = bg_approx(b, n);
        int64_t f0 = 1, g0 = 0, f1 = 0, g1 = 1;
        for (int i = 0; i < 31; i++) {
            uint64_t odd = ah & 1, sw = odd & (uint64_t)(ah < bh);
            uint64_t ms = 0 - sw, mo = 0 - odd;
            uint64_t x = (ah ^ bh) & ms;
            ah ^= x, bh ^= x;
            int64_t xf = (f0 ^ f1) & (int64_t)ms, xg = (g0 ^ g1) & (int64_t)ms;
            f0 ^= xf, f1 ^= xf, g0 ^= xg, g1 ^= xg;
            ah -= bh & mo;
            f0 -= f1 & (int64_t)mo;
            g0 -= g1 & (int64_t)mo;
            ah >>= 1;
            f1 *= 2, g1 *= 2;
        }
        uint32_t na[12], nb[12];
        if (bg_update_ab(na, a, b, f0, g0)) f0 = -f0, g0 = -g0;
        if (bg_update_ab(nb, a, b, f1, g1)) f1 = -f1, g1 = -g1;
        uint32_t nu[12];
        bg_update_uv(nu, u, v, f0, g0);
        bg_update_uv(v, u, v, f1, g1);
        MONT_UNROLL
        for (int k = 0; k < 12; k++) a[k] = na[k], b[k] = nb[k], u[k] = nu[k];
    }
    return 0;
}

/* R³ mod p (R = 2^384): a Montgomery multiplication by it turns Y^−1 into (y^−1)·R for Y = y·R */
MONT_FN uint32_t bg_r3_word(int k)
{
    switch (k) {
    case 0: return 0xd94ca1e0;
    case 1: return 0xed48ac6b;
    case 2: return 0x03a7adf8;
    case 3: return 0x315f831e;
    case 4: return 0x615e29dd;
    case 5: return 0x9a53352a;
    case 6: return 0x921e1761;
    case 7: return 0x34c04e5e;
    case 8: return 0x65724728;
    case 9: return 0x2512d435;
    case 10: return 0x91755d4d;
    default: return 0x0aa63460;
    }
}

/* r = 1/a in Montgomery form (0 gives 0); returns 0 when it did not converge (r is then unset) */
MONT_FN int bg_inv(uint32_t *r, const uint32_t *a)
{
    uint32_t t[12], c[12];
    if (!bg_inv_plain(t, a, BG_MAX_BATCHES)) return 0;
    MONT_UNROLL
    for (int k = 0; k < 12; k++) c[k] = bg_r3_word(k);
    eo_mul(MONT_FP, r, t, c);
    return 1;
}

#endif
