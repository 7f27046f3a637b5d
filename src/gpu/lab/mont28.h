/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* Montgomery multiplication over 28-bit digits with 64-bit column sums, for Fp (381 bits) and Fr (255 bits): the
 * same inputs and results as the 32-bit-word CIOS of field_lab.cuh (Montgomery form with R = 2^384 for Fp, 2^256
 * for Fr; canonical values in, canonical value out), but no carry chain.
 *
 * Why: the word-by-word CIOS is a chain of dependent carry instructions; a kernel that can keep only a few warps
 * per scheduler (the MSM accumulation) then waits on that chain, or so it seemed (ncu; docs/performance/msm.md:
 * the wait was instruction fetch). Here each operand is cut into 28-bit digits, every
 * partial product (< 2^56) is added into a 64-bit column (one multiply-add with a 64-bit addend), and the columns
 * of one row are independent of each other: 14 (Fp) independent multiply-adds per row instead of one chain.
 *
 * Bounds (Fp; Fr alike with 10 digits): a, b < p < 2^381, digits < 2^28. Row i adds a·b_i and q_i·p, each digit
 * product < 2^56, so after 14 rows a column holds < 28·2^56 + 2^36 < 2^61: no overflow. Row i < 13 picks
 * q_i < 2^28 so that the lowest column is ≡ 0 mod 2^28 and shifts it out exactly; row 13 picks q < 2^20 and
 * clears 20 bits: 13·28 + 20 = 384 bits divided out in all. The result (a·b + Q·p)/2^384 < (p² + 2^384·p)/2^384
 * < 2p; one conditional subtraction of p makes it canonical. Fr: 9·28 + 4 = 256.
 *
 * Plain C so that the host test (tests/gpu_host/test_mont28.c, which needs no GPU) checks the very same code
 * against the CPU field layer (ff/mont.h). */
#ifndef CUZK_GPU_MONT28_H
#define CUZK_GPU_MONT28_H

#include <stdint.h>

#include "ff/mont.h"

#define M28_MASK 0x0fffffffu

/* digits (28-bit) and bits cleared by the last row, per field, and −m^−1 mod 2^28 */
MONT_FN int m28_digits(int f) { return f == MONT_FP ? 14 : 10; }
MONT_FN int m28_last_bits(int f) { return f == MONT_FP ? 20 : 4; }
MONT_FN uint32_t m28_ninv(int f) { return f == MONT_FP ? 0xffcfffdu : 0xfffffffu; }

/* digit j of the modulus */
MONT_FN uint32_t m28_mod_digit(int f, int j)
{
    if (f == MONT_FP) {
        switch (j) {
        case 0: return 0xfffaaab;
        case 1: return 0xfefffff;
        case 2: return 0x3ffffb9;
        case 3: return 0xfffeb15;
        case 4: return 0x6241eab;
        case 5: return 0xa0f6b0f;
        case 6: return 0xf6730d2;
        case 7: return 0xf38512b;
        case 8: return 0x4774b84;
        case 9: return 0x4bacd76;
        case 10: return 0xba7b643;
        case 11: return 0xe69a4b1;
        case 12: return 0x1ea397f;
        default: return 0x1a011;
        }
    }
    switch (j) {
    case 0: return 0x1;
    case 1: return 0xffffff0;
    case 2: return 0xe5bfeff;
    case 3: return 0xa402fff;
    case 4: return 0x80553bd;
    case 5: return 0x809a1d;
    case 6: return 0x83339d8;
    case 7: return 0x299d7d4;
    case 8: return 0x3eda753;
    default: return 0x7;
    }
}

/* digit j (bits 28j .. 28j + 27) of an nw-word number */
MONT_FN uint32_t m28_digit(const uint32_t *w, int nw, int j)
{
    int bit = 28 * j, i = bit >> 5, s = bit & 31;
    uint64_t lo = w[i], hi = i + 1 < nw ? w[i + 1] : 0;
    return (uint32_t)(((hi << 32 | lo) >> s) & M28_MASK);
}

/* r = a·b·R^−1 mod m (f = MONT_FP: R = 2^384; MONT_FR: R = 2^256). r may alias a or b. */
MONT_FN void m28_mul(int f, uint32_t *r, const uint32_t *a, const uint32_t *b)
{
    const int nw = mont_words(f), nd = m28_digits(f);
    uint32_t ad[14];
    uint64_t acc[14];
    MONT_UNROLL
    for (int j = 0; j < 14; j++) {
        if (j < nd) ad[j] = m28_digit(a, nw, j), acc[j] = 0;
    }
    MONT_UNROLL
    for (int i = 0; i < 14; i++) {
        if (i >= nd) break;
        uint64_t bi = m28_digit(b, nw, i);
        MONT_UNROLL
        for (int j = 0; j < 14; j++) {
            if (j < nd) acc[j] += (uint64_t)ad[j] * bi;
        }
        uint32_t mask = i + 1 < nd ? M28_MASK : (1u << m28_last_bits(f)) - 1;
        uint64_t q = ((uint32_t)acc[0] * m28_ninv(f)) & mask;
        MONT_UNROLL
        for (int j = 0; j < 14; j++) {
            if (j < nd) acc[j] += q * m28_mod_digit(f, j);
        }
        if (i + 1 < nd) { /* the lowest column is now ≡ 0 mod 2^28: shift one digit out */
            uint64_t carry = acc[0] >> 28;
            MONT_UNROLL
            for (int j = 0; j + 1 < 14; j++) {
                if (j + 1 < nd) acc[j] = acc[j + 1];
            }
            acc[nd - 1] = 0;
            acc[0] += carry;
        }
    }
    /* columns → digits d[0..nd] of X = Σ acc_j·2^(28j); the result is X / 2^last_bits */
    uint32_t d[15];
    uint64_t c = 0;
    MONT_UNROLL
    for (int j = 0; j < 14; j++) {
        if (j < nd) {
            uint64_t t = acc[j] + c;
            d[j] = (uint32_t)t & M28_MASK;
            c = t >> 28;
        }
    }
    d[nd] = (uint32_t)c;
    uint32_t t[12];
    const int lb = m28_last_bits(f);
    MONT_UNROLL
    for (int k = 0; k < 12; k++) {
        if (k < nw) {
            int bit = lb + 32 * k, j = bit / 28, o = bit % 28;
            uint64_t win = d[j];
            if (j + 1 <= nd) win |= (uint64_t)d[j + 1] << 28;
            if (j + 2 <= nd) win |= (uint64_t)d[j + 2] << 56;
            t[k] = (uint32_t)(win >> o);
        }
    }
    mont_sub_once(f, r, t, 0); /* t < 2m */
}

#endif
