/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* Montgomery multiplication in double precision for Fr (R = 2^256) and Fp (R = 2^384): the same inputs and results
 * as ff/ff.cuh's multiplications, on the FP64 pipe, which every integer kernel leaves idle.
 *
 * Numbers are 47-bit limbs held exactly in doubles. A word product x·y (x, y < 2^47) is split without error into
 * H = RN(x·y / 2^47) and lo = x·y − H·2^47 (|lo| ≤ 2^46) by two fused multiply-adds:
 *   - the column accumulator A[k + 1] is a double in [2^52, 2^53) (offset M = 1.5·2^52), whose unit in the last
 *     place is 1, so fma(x, y·2^−47, A) adds exactly the rounded high part H; the difference recovers H;
 *   - fma(x, y·2^−47, −H) is then exact: lo·2^−47, a fraction of at most 47 bits below the point. Column k's low
 *     parts add up exactly in a plain double B[k] (at most 2n of them for n limbs, |B| ≤ n).
 * So a product costs 4 FP64 operations and no integer work. The Montgomery rounds work the same way on the columns:
 * round i takes column i's exact value V (below 2^53), q = V·(−m^−1) mod 2^w as the exact low part of a product
 * (signed, |q| ≤ 2^(w−1)), adds q·m, and carries (V + q·m) / 2^w into the next column. Rounds of 47 bits and a
 * last narrower one make R (f64_last_bits). With signed q the result lies in (−m/2, m): one conditional addition
 * of m.
 *
 * The host uses C's fma (correctly rounded, as the device's __fma_rn), so the host test
 * (tests/gpu_host/test_mont28.c) runs the very same arithmetic against the CPU field layer. */
#ifndef CUZK_GPU_MONT_F64_H
#define CUZK_GPU_MONT_F64_H

#include <stdint.h>

#include "ff/mont.h"

#ifdef __CUDA_ARCH__
#define F64_FMA(a, b, c) __fma_rn((a), (b), (c))
MONT_FN double f64_from_bits(uint64_t x) { return __longlong_as_double((long long)x); }
MONT_FN uint64_t f64_bits(double x) { return (uint64_t)__double_as_longlong(x); }
#else
#include <math.h>
#include <string.h>
#define F64_FMA(a, b, c) fma((a), (b), (c))
MONT_FN double f64_from_bits(uint64_t x)
{
    double d;
    memcpy(&d, &x, sizeof d);
    return d;
}
MONT_FN uint64_t f64_bits(double x)
{
    uint64_t u;
    memcpy(&u, &x, sizeof u);
    return u;
}
#endif

#define F64_M 6755399441055744.0 /* 1.5·2^52: an accumulator's offset; its bits are F64_M_BITS */
#define F64_M_BITS 0x4338000000000000ULL
#define F64_MASK47 0x7fffffffffffULL

/* limbs (47 bits each) of the modulus, and the width of the last Montgomery round: 5·47 + 21 = 256 (Fr),
 * 8·47 + 8 = 384 (Fp) */
MONT_FN int f64_limbs(int f) { return f == MONT_FP ? 9 : 6; }
MONT_FN int f64_last_bits(int f) { return f == MONT_FP ? 8 : 21; }

/* bits pos .. pos + 46 of an nw-word number */
MONT_FN uint64_t f64_limb_of(const uint32_t *w, int nw, int pos)
{
    int k = pos >> 5, sh = pos & 31;
    uint64_t lo = (uint64_t)(k < nw ? w[k] : 0) | (uint64_t)(k + 1 < nw ? w[k + 1] : 0) << 32;
    uint64_t v = lo >> sh;
    if (sh + 47 > 64 && k + 2 < nw) v |= (uint64_t)w[k + 2] << (64 - sh);
    return v & F64_MASK47;
}

/* limb j of the modulus, from its words (ff/mont.h) */
MONT_FN uint64_t f64_mod_limb(int f, int j)
{
    uint32_t m[12];
    MONT_UNROLL
    for (int k = 0; k < 12; k++) m[k] = k < mont_words(f) ? mont_mod_word(f, k) : 0;
    return f64_limb_of(m, mont_words(f), 47 * j);
}
/* −m^−1 mod 2^47 (the 64-bit one, field_lab.cuh's D_F*_NINV64, cut to 47 bits) and mod 2^(last round's width) */
MONT_FN uint64_t f64_ninv47(int f) { return f == MONT_FP ? 0x7ffcfffcfffdULL : 0x7ffeffffffffULL; }
MONT_FN uint64_t f64_ninv_last(int f) { return mont_ninv32(f) & ((1u << f64_last_bits(f)) - 1); }

/* the integer an accumulator holds above its offset (exact: it lies in [2^52, 2^53)) */
MONT_FN int64_t f64_acc_int(double a) { return (int64_t)(f64_bits(a) - F64_M_BITS); }

/* A[k + 1] += H, B[k] += lo·2^−47 for x·y = H·2^47 + lo, ys = y·2^−47 */
MONT_FN void f64_prod(double *A, double *B, double x, double ys, int k)
{
    double h = F64_FMA(x, ys, A[k + 1]);
    double hi = h - A[k + 1];
    A[k + 1] = h;
    B[k] += F64_FMA(x, ys, -hi);
}

/* res = a·b·R^−1 mod m (f = MONT_FR: R = 2^256, MONT_FP: 2^384), canonical words in and out; res may alias a or b.
 * Bounds for n limbs: an accumulator A gathers at most n high parts of a·b (each below 2^47) and n of a signed q
 * times a limb of m (each within 2^46): within M ± 13.5·2^47 < 2^51 for n = 9. B gathers at most 2n low parts of at
 * most 1/2. The result lies in (−m/2, m): a·b/R < m·(m/R) < m/2, and |Σ q_i·2^(47i)| < R/2. */
MONT_FN void f64_mul(int f, uint32_t *res, const uint32_t *a, const uint32_t *b)
{
    const int n = f64_limbs(f), nw = mont_words(f), last = n - 1;
    const double tw47 = 140737488355328.0, itw47 = 1.0 / 140737488355328.0;
    double x[9], ys[9], A[18], B[18];
    MONT_UNROLL
    for (int i = 0; i < 9; i++) {
        if (i >= n) continue;
        /* 2^52 + v and 32 + v·2^−47 as bit patterns: exact conversions of a 47-bit v */
        x[i] = f64_from_bits(0x4330000000000000ULL | f64_limb_of(a, nw, 47 * i)) - 4503599627370496.0;
        ys[i] = f64_from_bits(0x4040000000000000ULL | f64_limb_of(b, nw, 47 * i)) - 32.0;
    }
    MONT_UNROLL
    for (int m = 0; m < 18; m++) A[m] = F64_M, B[m] = 0.0;
    MONT_UNROLL
    for (int i = 0; i < 9; i++) {
        MONT_UNROLL
        for (int j = 0; j < 9; j++) {
            if (i < n && j < n) f64_prod(A, B, x[i], ys[j], i + j);
        }
    }
    /* rounds: 47 bits at columns 0 .. n − 2, the rest of R's bits at column n − 1 */
    double carry = 0.0, u = 0.0;
    MONT_UNROLL
    for (int i = 0; i < 9; i++) {
        if (i >= n) continue;
        const double tw = i == last ? (double)(1u << f64_last_bits(f)) : tw47, itw = 1.0 / tw;
        const double ninv_s = (double)(i == last ? f64_ninv_last(f) : f64_ninv47(f)) * itw;
        double v = (A[i] - F64_M) + F64_FMA(B[i], tw47, carry); /* column i, exact */
        double vh = F64_FMA(v, itw, F64_M) - F64_M;             /* RN(v / 2^w) */
        double vl = F64_FMA(vh, -tw, v);                        /* v − vh·2^w, |vl| ≤ 2^(w−1) */
        double qh = F64_FMA(vl, ninv_s, F64_M) - F64_M;
        double q = F64_FMA(vl, ninv_s, -qh) * tw; /* vl·(−m^−1) mod 2^w, signed */
        /* q·m_0: its high part to column i + 1, its low part with v to the carry (v + q·m_0 ≡ 0 mod 2^w) */
        double ms0 = (double)f64_mod_limb(f, 0) * itw47;
        double h = F64_FMA(q, ms0, A[i + 1]);
        double hi = h - A[i + 1];
        A[i + 1] = h;
        double lo_s = F64_FMA(q, ms0, -hi);
        if (i != last) carry = F64_FMA(v, itw, lo_s);
        else u = F64_FMA(lo_s, tw47 * itw, v * itw); /* (v + lo) / 2^w */
        MONT_UNROLL
        for (int j = 1; j < 9; j++) {
            if (j < n) f64_prod(A, B, q, (double)f64_mod_limb(f, j) * itw47, i + j);
        }
    }
    /* result = u + 2^(47 − w)·Σ C_m·2^(47(m − n)) over the columns m = n .. 2n − 1, as a 512-bit two's complement */
    const int shift = 47 - f64_last_bits(f), top = 47 * n + shift;
    uint64_t z[8] = {0, 0, 0, 0, 0, 0, 0, 0};
    int64_t c = 0;
    MONT_UNROLL
    for (int k = 0; k < 9; k++) {
        if (k >= n) continue;
        int64_t t = f64_acc_int(A[n + k]) + f64_acc_int(F64_FMA(B[n + k], tw47, F64_M)) + c;
        uint64_t l = (uint64_t)t & F64_MASK47;
        c = (t - (int64_t)l) / (int64_t)140737488355328LL;
        int pos = 47 * k + shift, wd = pos >> 6, sh = pos & 63;
        z[wd] |= l << sh;
        if (sh + 47 > 64) z[wd + 1] |= l >> (64 - sh);
    }
    uint64_t fill = c < 0 ? ~0ULL : 0; /* a negative sum: − 2^top */
    MONT_UNROLL
    for (int k = 0; k < 8; k++) {
        if (k * 64 >= top) z[k] |= fill;
        else if (k * 64 + 64 > top) z[k] |= fill << (top - 64 * k);
    }
    /* + u (|u| < 2^51), sign-extended */
    int64_t ui = f64_acc_int(u + F64_M);
    uint64_t ext = ui < 0 ? ~0ULL : 0, s = z[0] + (uint64_t)ui, cy = s < z[0];
    z[0] = s;
    MONT_UNROLL
    for (int k = 1; k < 8; k++) {
        uint64_t t1 = z[k] + ext, c1 = t1 < z[k];
        uint64_t t2 = t1 + cy, c2 = t2 < t1;
        z[k] = t2, cy = c1 | c2;
    }
    /* + m when negative */
    uint64_t neg = (z[7] >> 63) ? ~0ULL : 0;
    cy = 0;
    MONT_UNROLL
    for (int k = 0; k < 6; k++) {
        if (2 * k >= nw) continue;
        uint64_t mk = (uint64_t)mont_mod_word(f, 2 * k) | (uint64_t)mont_mod_word(f, 2 * k + 1) << 32;
        uint64_t add = mk & neg, t1 = z[k] + add, c1 = t1 < add;
        uint64_t t2 = t1 + cy, c2 = t2 < cy;
        z[k] = t2, cy = c1 | c2;
    }
    MONT_UNROLL
    for (int k = 0; k < 6; k++) {
        if (2 * k < nw) res[2 * k] = (uint32_t)z[k], res[2 * k + 1] = (uint32_t)(z[k] >> 32);
    }
}

#endif
