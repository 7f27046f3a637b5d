/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* Montgomery multiplication (CIOS over 32-bit words) with the word products split by parity, for Fp and Fr: the
 * same inputs and results as the CPU field layer's: canonical values in, canonical value out (mont.h).
 *
 * Why: the multiplication is bound by the multiply-add pipe, a fifth of whose work in the 64-bit-word form is moves
 * that build the 64-bit addend pairs of the wide products (docs/performance/msm.md). Here each row's
 * products a_j·b_i go to one of two accumulators by the parity of j, so that the low and high words of every
 * product land in one aligned pair of its accumulator, next to each other in one carry chain:
 *   E (even j): words j, j + 1;   O (odd j): words j − 1, j, standing for O·2^32;   A = E + O·2^32.
 * After the row's reduction clears word 0, A/2^32 = E/2^32 + O is folded into E by one addition chain and O
 * starts again from zero. Per row: four chains of N/2 products (a·b_i and q·m, even and odd), one fold.
 *
 * ptxas fuses each product's mad.lo / madc.hi pair into one IMAD.WIDE.U32.X that takes and gives the chain's carry,
 * with no register moves or carry materialisations around it: the fastest multiplication measured, Fp and Fr
 * (docs/performance/msm.md).
 *
 * The carry-flag primitives are ff.cuh's PTX on the device and an emulated carry flag on the host, so the host
 * test (tests/gpu_host/test_mont28.c) runs this very sequence against the CPU field layer. */
#ifndef CUZK_GPU_MONT_EO_H
#define CUZK_GPU_MONT_EO_H

#include <stdint.h>

#include "mont.h"

#ifdef __CUDA_ARCH__
/* ff.cuh's carry-chain primitives: it includes this header after them */
#define eo_add_cc add_cc
#define eo_addc_cc addc_cc
#define eo_addc addc
#define eo_madlo_cc madlo_cc
#define eo_madclo_cc madclo_cc
#define eo_madchi_cc madchi_cc
#define eo_sub_cc sub_cc
#define eo_subc_cc subc_cc
#else
/* the carry flag of the emulated PTX instructions (host tests run on one thread) */
static uint32_t eo_cf;
static inline uint32_t eo_set(uint64_t s)
{
    eo_cf = (uint32_t)(s >> 32);
    return (uint32_t)s;
}
static inline uint32_t eo_add_cc(uint32_t a, uint32_t b) { return eo_set((uint64_t)a + b); }
static inline uint32_t eo_addc_cc(uint32_t a, uint32_t b) { return eo_set((uint64_t)a + b + eo_cf); }
static inline uint32_t eo_addc(uint32_t a, uint32_t b) { return a + b + eo_cf; }
static inline uint32_t eo_sub_cc(uint32_t a, uint32_t b) { return eo_set(((uint64_t)a - b) & 0x1ffffffffULL); }
static inline uint32_t eo_subc_cc(uint32_t a, uint32_t b) { return eo_set(((uint64_t)a - b - eo_cf) & 0x1ffffffffULL); }
static inline uint32_t eo_madlo_cc(uint32_t a, uint32_t b, uint32_t c) { return eo_set((uint64_t)(a * b) + c); }
static inline uint32_t eo_madclo_cc(uint32_t a, uint32_t b, uint32_t c)
{
    return eo_set((uint64_t)(a * b) + c + eo_cf);
}
static inline uint32_t eo_madchi_cc(uint32_t a, uint32_t b, uint32_t c)
{
    return eo_set((uint64_t)(uint32_t)(((uint64_t)a * b) >> 32) + c + eo_cf);
}
#endif

/* acc[j + s], acc[j + s + 1] += x[j]·y as one (lo, hi) pair per product, over j = first, first + 2, … < n, in one
 * carry chain. A chain of even j ends with x[n − 2] (n is even) and carries into acc[n + s]; a chain of odd j ends
 * with x[n − 1], and every caller keeps its sum below 2^(32(n + s + 1)), so it cannot carry out of acc[n + s]. */
MONT_FN void eo_pairs(uint32_t *acc, int s, const uint32_t *x, uint32_t y, int first, int n)
{
    if (first >= n) return;
    acc[first + s] = eo_madlo_cc(x[first], y, acc[first + s]);
    acc[first + s + 1] = eo_madchi_cc(x[first], y, acc[first + s + 1]);
    MONT_UNROLL
    for (int j = first + 2; j < 12; j += 2) {
        if (j < n) {
            acc[j + s] = eo_madclo_cc(x[j], y, acc[j + s]);
            acc[j + s + 1] = eo_madchi_cc(x[j], y, acc[j + s + 1]);
        }
    }
    if ((first & 1) == 0) acc[n + s] = eo_addc(acc[n + s], 0u);
}

/* One CIOS row: E += x·y over even j (pairs j, j + 1), O += x·y over odd j (pairs j − 1, j: O stands for O·2^32). O
 * starts from zero and adds at most x·y/2^32 + m < 2^(32n) for x < m (m < 2^(32n − 1)): no carry out of O[n − 1]. */
MONT_FN void eo_row(uint32_t *e, uint32_t *o, const uint32_t *x, uint32_t y, int n)
{
    eo_pairs(e, 0, x, y, 0, n);
    eo_pairs(o, -1, x, y, 1, n);
}

/* One reduction row: E, O += q·m, as eo_row(e, o, m, q, n). For Fr, m ≡ 2^64 − 2^32 + 1 (mod 2^64): its word 0 is 1
 * and its word 1 is 2^32 − 1, so those two word products are q itself and (q − [q ≠ 0])·2^32 + (−q mod 2^32).
 * Additions on the ALU pipe make them instead of two of the row's eight wide multiply-adds on the multiply-add
 * pipe, which bounds the multiplication. */
MONT_FN void eo_reduce_row(int f, uint32_t *e, uint32_t *o, const uint32_t *p, uint32_t q, int n)
{
    if (f != MONT_FR) {
        eo_row(e, o, p, q, n);
        return;
    }
    const uint32_t hi1 = q - (q != 0u);
    e[0] = eo_add_cc(e[0], q);
    e[1] = eo_addc_cc(e[1], 0u);
    MONT_UNROLL
    for (int j = 2; j < 8; j += 2) {
        e[j] = eo_madclo_cc(p[j], q, e[j]);
        e[j + 1] = eo_madchi_cc(p[j], q, e[j + 1]);
    }
    e[8] = eo_addc(e[8], 0u);
    o[0] = eo_add_cc(o[0], 0u - q);
    o[1] = eo_addc_cc(o[1], hi1);
    MONT_UNROLL
    for (int j = 3; j < 8; j += 2) {
        o[j - 1] = eo_madclo_cc(p[j], q, o[j - 1]);
        o[j] = eo_madchi_cc(p[j], q, o[j]);
    }
}

/* After a row's reduction e[0] is 0: A/2^32 = e/2^32 + o, folded into e[0 .. n] */
MONT_FN void eo_fold(uint32_t *e, const uint32_t *o, int n)
{
    e[0] = eo_add_cc(e[1], o[0]);
    MONT_UNROLL
    for (int k = 1; k < 12; k++) {
        if (k < n) e[k] = eo_addc_cc(e[k + 1], o[k]);
    }
    e[n] = eo_addc(0u, 0u);
}

/* r = a + b and r = a − b over n words in one carry chain, the carry or borrow out dropped (callers know the result
 * fits) */
MONT_FN void eo_add_words(uint32_t *r, const uint32_t *a, const uint32_t *b, int n)
{
    r[0] = eo_add_cc(a[0], b[0]);
    MONT_UNROLL
    for (int k = 1; k < 24; k++) {
        if (k < n) r[k] = eo_addc_cc(a[k], b[k]);
    }
}
MONT_FN void eo_sub_words(uint32_t *r, const uint32_t *a, const uint32_t *b, int n)
{
    r[0] = eo_sub_cc(a[0], b[0]);
    MONT_UNROLL
    for (int k = 1; k < 24; k++) {
        if (k < n) r[k] = eo_subc_cc(a[k], b[k]);
    }
}

/* r = a·b·R^−1 mod m (f = MONT_FP: R = 2^384; MONT_FR: R = 2^256). r may alias a or b. */
MONT_FN void eo_mul(int f, uint32_t *r, const uint32_t *a, const uint32_t *b)
{
    const int n = mont_words(f);
    uint32_t p[12], e[13], o[12];
    MONT_UNROLL
    for (int k = 0; k < 12; k++) p[k] = k < n ? mont_mod_word(f, k) : 0;
    MONT_UNROLL
    for (int k = 0; k < 13; k++) e[k] = 0;
    MONT_UNROLL
    for (int i = 0; i < 12; i++) {
        if (i < n) {
            MONT_UNROLL
            for (int k = 0; k < 12; k++) o[k] = 0;
            eo_row(e, o, a, b[i], n);
            eo_reduce_row(f, e, o, p, e[0] * mont_ninv32(f), n);
            eo_fold(e, o, n);
        }
    }
    mont_sub_once(f, r, e, e[n]); /* A < 2m */
}

/* Product then reduction with the same parity split, for the squaring (about 78 word products instead of 144) and
 * for Fp2 (three products, two reductions). The wide accumulators E and O hold absolute word positions: E gets the
 * products that start at even positions, O those that start at odd ones, so each keeps its (lo, hi) pairs aligned
 * as eo_mul's accumulators do. After row i each is at most the whole sum of rows 0 .. i, below 2^(32(n + i + 1)):
 * the carry of an even chain into position n + i cannot go further. */

/* t = e + o over 2n words (o[0] is never written: its pairs start at odd positions) */
MONT_FN void eo_wide_sum(uint32_t *t, const uint32_t *e, const uint32_t *o, int n)
{
    t[0] = e[0];
    t[1] = eo_add_cc(e[1], o[1]);
    MONT_UNROLL
    for (int k = 2; k < 23; k++) {
        if (k < 2 * n - 1) t[k] = eo_addc_cc(e[k], o[k]);
    }
    t[2 * n - 1] = eo_addc(e[2 * n - 1], o[2 * n - 1]);
}

/* t = a·b, 2n words */
MONT_FN void eo_mul_wide(int f, uint32_t *t, const uint32_t *a, const uint32_t *b)
{
    const int n = mont_words(f);
    uint32_t e[24], o[24];
    MONT_UNROLL
    for (int k = 0; k < 24; k++) e[k] = o[k] = 0;
    MONT_UNROLL
    for (int i = 0; i < 12; i++) {
        if (i >= n) continue;
        if (i & 1) {
            eo_pairs(o, i, a, b[i], 0, n);
            eo_pairs(e, i, a, b[i], 1, n);
        } else {
            eo_pairs(e, i, a, b[i], 0, n);
            eo_pairs(o, i, a, b[i], 1, n);
        }
    }
    eo_wide_sum(t, e, o, n);
}

/* t = a², 2n words: twice the products a_j·a_i (j > i), then the squares a_i² */
MONT_FN void eo_sqr_wide(int f, uint32_t *t, const uint32_t *a)
{
    const int n = mont_words(f);
    uint32_t e[24], o[24];
    MONT_UNROLL
    for (int k = 0; k < 24; k++) e[k] = o[k] = 0;
    MONT_UNROLL
    for (int i = 0; i < 11; i++) {
        if (i >= n - 1) continue;
        eo_pairs(o, i, a, a[i], i + 1, n); /* positions 2i + 1, 2i + 3, … */
        eo_pairs(e, i, a, a[i], i + 2, n); /* positions 2i + 2, 2i + 4, … */
    }
    eo_wide_sum(e, e, o, n);
    MONT_UNROLL
    for (int k = 23; k > 0; k--) {
        if (k < 2 * n) t[k] = (e[k] << 1) | (e[k - 1] >> 31);
    }
    t[0] = e[0] << 1;
    t[0] = eo_madlo_cc(a[0], a[0], t[0]);
    t[1] = eo_madchi_cc(a[0], a[0], t[1]);
    MONT_UNROLL
    for (int i = 1; i < 12; i++) {
        if (i < n) {
            t[2 * i] = eo_madclo_cc(a[i], a[i], t[2 * i]);
            t[2 * i + 1] = eo_madchi_cc(a[i], a[i], t[2 * i + 1]);
        }
    }
}

/* r = t·R^−1 mod m for t < m·R (2n words): eo_mul's reduction rows on their own, t's upper words brought in one per
 * row. Before row i the running value is below 2^(32n) + m, so n + 1 words hold it. */
MONT_FN void eo_redc(int f, uint32_t *r, const uint32_t *t)
{
    const int n = mont_words(f);
    uint32_t p[12], e[13], o[12];
    MONT_UNROLL
    for (int k = 0; k < 12; k++) p[k] = k < n ? mont_mod_word(f, k) : 0;
    MONT_UNROLL
    for (int k = 0; k < 13; k++) e[k] = k < n ? t[k] : 0;
    MONT_UNROLL
    for (int i = 0; i < 12; i++) {
        if (i >= n) continue;
        MONT_UNROLL
        for (int k = 0; k < 12; k++) o[k] = 0;
        eo_reduce_row(f, e, o, p, e[0] * mont_ninv32(f), n);
        eo_fold(e, o, n);
        e[n - 1] = eo_add_cc(e[n - 1], t[n + i]);
        e[n] = eo_addc(e[n], 0u);
    }
    mont_sub_once(f, r, e, e[n]); /* below t/R + m < 2m */
}

/* r = a²·R^−1 mod m */
MONT_FN void eo_sqr(int f, uint32_t *r, const uint32_t *a)
{
    uint32_t t[24];
    eo_sqr_wide(f, t, a);
    eo_redc(f, r, t);
}

/* word k of p², the BLS12-381 base field modulus squared (762 bits) */
MONT_FN uint32_t eo_p2_word(int k)
{
    switch (k) {
    case 0: return 0x1c718e39;
    case 1: return 0x26aa0000;
    case 2: return 0x76382eab;
    case 3: return 0x7ced6b1d;
    case 4: return 0x62113cfd;
    case 5: return 0x162c3383;
    case 6: return 0x3e71b743;
    case 7: return 0x66bf91ed;
    case 8: return 0x7091a049;
    case 9: return 0x292e85a8;
    case 10: return 0x86185c7b;
    case 11: return 0x1d68619c;
    case 12: return 0x0978ef01;
    case 13: return 0xf5314933;
    case 14: return 0x16ddca6e;
    case 15: return 0x50a62cfd;
    case 16: return 0x349e8bd0;
    case 17: return 0x66e59e49;
    case 18: return 0x0e7046b4;
    case 19: return 0xe2dc90e5;
    case 20: return 0xa22f25e9;
    case 21: return 0x4bd278ea;
    case 22: return 0xb8c35fc7;
    default: return 0x02a437a4;
    }
}

/* (r0 + r1·u) = (a0 + a1·u)(b0 + b1·u) in Fp2 = Fp[u]/(u² + 1), Karatsuba with one reduction per coefficient:
 *   r1 = REDC((a0 + a1)(b0 + b1) − (a0b0 + a1b1)), the argument a0b1 + a1b0 < 2p² < p·R;
 *   r0 = REDC(a0b0 + p² − a1b1), the argument in [0, 2p²).
 * a0 + a1 < 2p < 2^382 needs no reduction before its product. r0, r1 may alias the inputs. */
MONT_FN void eo_fp2_mul(uint32_t *r0, uint32_t *r1, const uint32_t *a0, const uint32_t *a1, const uint32_t *b0,
                        const uint32_t *b1)
{
    uint32_t sa[12], sb[12], t0[24], t1[24], c[24], d[24], p2[24];
    MONT_UNROLL
    for (int k = 0; k < 24; k++) p2[k] = eo_p2_word(k);
    eo_add_words(sa, a0, a1, 12);
    eo_add_words(sb, b0, b1, 12);
    eo_mul_wide(MONT_FP, t0, a0, b0);
    eo_mul_wide(MONT_FP, t1, a1, b1);
    eo_add_words(c, t0, t1, 24);
    eo_add_words(d, t0, p2, 24);
    eo_sub_words(d, d, t1, 24);
    eo_mul_wide(MONT_FP, t0, sa, sb);
    eo_sub_words(t0, t0, c, 24);
    eo_redc(MONT_FP, r1, t0);
    eo_redc(MONT_FP, r0, d);
}

#endif
