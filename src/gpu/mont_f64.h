/* Fr Montgomery multiplication (R = 2^256) in double precision: the same inputs and results as field.cuh's Fr
 * multiplications, on the FP64 pipe, which every integer kernel leaves idle.
 *
 * Numbers are 47-bit limbs held exactly in doubles. A word product x·y (x, y < 2^47) is split without error into
 * H = RN(x·y / 2^47) and lo = x·y − H·2^47 (|lo| ≤ 2^46) by two fused multiply-adds:
 *   - the column accumulator A[k + 1] is a double in [2^52, 2^53) (offset M = 1.5·2^52), whose unit in the last
 *     place is 1, so fma(x, y·2^−47, A) adds exactly the rounded high part H; the difference recovers H;
 *   - fma(x, y·2^−47, −H) is then exact: lo·2^−47, a fraction of at most 47 bits below the point. Column k's low
 *     parts add up exactly in a plain double B[k] (at most 12 of them, |B| ≤ 6).
 * So a product costs 4 FP64 operations and no integer work. The Montgomery rounds work the same way on the columns:
 * round i takes column i's exact value V (below 2^53), q = V·(−r^−1) mod 2^w as the exact low part of a product
 * (signed, |q| ≤ 2^(w−1)), adds q·r, and carries (V + q·r) / 2^w into the next column. Five rounds of 47 bits and
 * one of 21 make R = 2^256. With signed q the result lies in (−r/2, r): one conditional addition of r.
 *
 * Bounds: every accumulator A stays within M ± 9·2^47 (six products of two 47-bit limbs, six of a signed 47-bit q
 * with a 47-bit limb of r). The host uses C's fma (correctly rounded, as the device's __fma_rn), so the host test
 * (tests/gpu_host/test_mont28.c) runs the very same arithmetic against the CPU field layer. */
#ifndef CUZK_GPU_MONT_F64_H
#define CUZK_GPU_MONT_F64_H

#include <stdbool.h>
#include <stdint.h>

#include "mont28.h"

#ifdef __CUDA_ARCH__
#define F64_FMA(a, b, c) __fma_rn((a), (b), (c))
M28_FN double f64_from_bits(uint64_t x) { return __longlong_as_double((long long)x); }
M28_FN uint64_t f64_bits(double x) { return (uint64_t)__double_as_longlong(x); }
#else
#include <math.h>
#include <string.h>
#define F64_FMA(a, b, c) fma((a), (b), (c))
M28_FN double f64_from_bits(uint64_t x)
{
    double d;
    memcpy(&d, &x, sizeof d);
    return d;
}
M28_FN uint64_t f64_bits(double x)
{
    uint64_t u;
    memcpy(&u, &x, sizeof u);
    return u;
}
#endif

#define F64_M 6755399441055744.0 /* 1.5·2^52: an accumulator's offset; its bits are F64_M_BITS */
#define F64_M_BITS 0x4338000000000000ULL
#define F64_MASK47 0x7fffffffffffULL

/* limb j of r (47 bits each, r < 2^255) */
M28_FN uint64_t f64_r_limb(int j)
{
    switch (j) {
    case 0: return 0x7fff00000001ULL; case 1: return 0x7ffcb7fdffffULL; case 2: return 0x60154ef6900bULL;
    case 3: return 0x19cec0404d0eULL; case 4: return 0x753299d7d483ULL; default: return 0xe7db4ULL;
    }
}

/* bits pos .. pos + 46 of an 8-word number */
M28_FN uint64_t f64_limb_of(const uint32_t *w, int pos)
{
    int k = pos >> 5, sh = pos & 31;
    uint64_t lo = (uint64_t)(k < 8 ? w[k] : 0) | (uint64_t)(k + 1 < 8 ? w[k + 1] : 0) << 32;
    uint64_t v = lo >> sh;
    if (sh + 47 > 64 && k + 2 < 8) v |= (uint64_t)w[k + 2] << (64 - sh);
    return v & F64_MASK47;
}

/* the integer an accumulator holds above its offset (exact: it lies in [2^52, 2^53)) */
M28_FN int64_t f64_acc_int(double a) { return (int64_t)(f64_bits(a) - F64_M_BITS); }

/* A[k + 1] += H, B[k] += lo·2^−47 for x·y = H·2^47 + lo, ys = y·2^−47 */
M28_FN void f64_prod(double *A, double *B, double x, double ys, int k)
{
    double h = F64_FMA(x, ys, A[k + 1]);
    double hi = h - A[k + 1];
    A[k + 1] = h;
    B[k] += F64_FMA(x, ys, -hi);
}

/* r = a·b·2^−256 mod r (canonical words in and out). r may alias a or b. */
M28_FN void f64_fr_mul(uint32_t *res, const uint32_t *a, const uint32_t *b)
{
    double x[6], ys[6], A[12], B[12];
    M28_UNROLL
    for (int i = 0; i < 6; i++) {
        /* 2^52 + v and 32 + v·2^−47 as bit patterns: exact conversions of a 47-bit v */
        x[i] = f64_from_bits(0x4330000000000000ULL | f64_limb_of(a, 47 * i)) - 4503599627370496.0;
        ys[i] = f64_from_bits(0x4040000000000000ULL | f64_limb_of(b, 47 * i)) - 32.0;
    }
    M28_UNROLL
    for (int m = 0; m < 12; m++) A[m] = F64_M, B[m] = 0.0;
    M28_UNROLL
    for (int i = 0; i < 6; i++) {
        M28_UNROLL
        for (int j = 0; j < 6; j++) f64_prod(A, B, x[i], ys[j], i + j);
    }
    /* rounds: 47 bits at columns 0 .. 4, 21 bits at column 5 (5·47 + 21 = 256) */
    double carry = 0.0, u = 0.0;
    M28_UNROLL
    for (int i = 0; i < 6; i++) {
        const bool last = i == 5;
        const double tw = last ? 2097152.0 : 140737488355328.0, itw = 1.0 / tw;
        const double ninv_s = last ? 2097151.0 / 2097152.0 : (double)0x7ffeffffffffULL / 140737488355328.0;
        double v = (A[i] - F64_M) + F64_FMA(B[i], 140737488355328.0, carry); /* column i, exact */
        double vh = F64_FMA(v, itw, F64_M) - F64_M;                           /* RN(v / 2^w) */
        double vl = F64_FMA(vh, -tw, v);                                      /* v − vh·2^w, |vl| ≤ 2^(w−1) */
        double qh = F64_FMA(vl, ninv_s, F64_M) - F64_M;
        double q = F64_FMA(vl, ninv_s, -qh) * tw; /* vl·ninv mod 2^w, signed */
        /* q·r_0: its high part to column i + 1, its low part with v to the carry (v + q·r_0 ≡ 0 mod 2^w) */
        double rs0 = (double)f64_r_limb(0) * (1.0 / 140737488355328.0);
        double h = F64_FMA(q, rs0, A[i + 1]);
        double hi = h - A[i + 1];
        A[i + 1] = h;
        double lo_s = F64_FMA(q, rs0, -hi);
        if (!last) carry = F64_FMA(v, itw, lo_s);
        else u = F64_FMA(lo_s, 67108864.0, v * itw); /* (v + lo) / 2^21 */
        M28_UNROLL
        for (int j = 1; j < 6; j++) f64_prod(A, B, q, (double)f64_r_limb(j) * (1.0 / 140737488355328.0), i + j);
    }
    /* result = u + 2^26·Σ C_m·2^(47(m − 6)), C_m = column m (6 .. 11), in (−r/2, r) */
    uint64_t z[5] = {0, 0, 0, 0, 0};
    int64_t c = 0;
    M28_UNROLL
    for (int k = 0; k < 6; k++) {
        int64_t t = f64_acc_int(A[6 + k]) + f64_acc_int(F64_FMA(B[6 + k], 140737488355328.0, F64_M)) + c;
        uint64_t l = (uint64_t)t & F64_MASK47;
        c = (t - (int64_t)l) / (int64_t)140737488355328LL;
        int pos = 47 * k + 26, wd = pos >> 6, sh = pos & 63;
        z[wd] |= l << sh;
        if (sh + 47 > 64) z[wd + 1] |= l >> (64 - sh);
    }
    if (c < 0) z[4] |= 0xfff0000000000000ULL; /* − 2^308: the 320-bit two's complement */
    /* + u (|u| < 2^51), sign-extended */
    int64_t ui = f64_acc_int(u + F64_M);
    uint64_t ext = ui < 0 ? ~0ULL : 0, s = z[0] + (uint64_t)ui, cy = s < z[0];
    z[0] = s;
    M28_UNROLL
    for (int k = 1; k < 5; k++) {
        uint64_t t1 = z[k] + ext, c1 = t1 < z[k];
        uint64_t t2 = t1 + cy, c2 = t2 < t1;
        z[k] = t2, cy = c1 | c2;
    }
    /* + r when negative */
    uint64_t neg = (z[4] >> 63) ? ~0ULL : 0;
    cy = 0;
    M28_UNROLL
    for (int k = 0; k < 4; k++) {
        uint64_t rk = (uint64_t)m28_mod_word(M28_FR, 2 * k) | (uint64_t)m28_mod_word(M28_FR, 2 * k + 1) << 32;
        uint64_t add = rk & neg, t1 = z[k] + add, c1 = t1 < add;
        uint64_t t2 = t1 + cy, c2 = t2 < cy;
        z[k] = t2, cy = c1 | c2;
    }
    M28_UNROLL
    for (int k = 0; k < 4; k++) res[2 * k] = (uint32_t)z[k], res[2 * k + 1] = (uint32_t)(z[k] >> 32);
}

#endif
