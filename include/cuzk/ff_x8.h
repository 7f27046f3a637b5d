/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* Eight Fp multiplications at once with AVX-512 IFMA (vpmadd52luq / vpmadd52huq), for the batched affine additions
 * of the G1 MSM and the batched curve checks of key loading. Compiled wherever GCC or Clang builds for x86-64
 * (CUZK_FPX8 defined), whatever the target flags: every function carries CUZK_FPX8_TARGET, and so must every function
 * that uses them, and they may only run where cuzk_cpu_path_get() >= CUZK_CPU_IFMA (Ice Lake, Zen 4 and later; the
 * check is the caller's). Elsewhere CUZK_FPX8 stays undefined and the callers keep their scalar paths.
 *
 * Representation: cuzk_fpx8 holds 8 lanes (8 independent elements), limb k of all lanes in one 512-bit vector l[k]; an
 * element is Σ_k l[k]·2^(48k), 8 limbs of 48 bits = 384 bits. The radix 2^48 (rather than IFMA's native 2^52) makes
 * the Montgomery radix exactly R = 2^384, the one cuzk_fp_t uses, so values move between cuzk_fp_t and cuzk_fpx8 by regrouping bits
 * (6-byte pieces of the 48-byte little-endian limbs), with no domain conversion, and cuzk_fpx8_mul(a, b) = a·b/R as
 * cuzk_fp_mul. The price is that the high half of a 48 x 48-bit product (bits 52..103) lands 4 bits into the next limb:
 * those halves are summed per limb in H[] and shifted left by 4 once.
 *
 * Bounds: "normalized" means every limb < 2^48. cuzk_fpx8_mul takes normalized inputs < 2p and returns a normalized value
 * < 2p: (a·b + m·p)/R < 4p²/R + p < 1.5p because p < 2^381 = R/8. cuzk_fpx8_sub takes and returns normalized values in
 * [0, 2p); cuzk_fpx8_canon maps [0, 2p) to [0, p), the canonical form cuzk_fp_t uses (cuzk_fp_eq compares limbs).
 * Column sums stay below 2^64: at most 17 low halves (< 2^52) and a carry per column, and H[] gathers at most 16 high
 * halves of < 2^44 each. */
#ifndef CUZK_FF_X8_H
#define CUZK_FF_X8_H

#if defined(__x86_64__) && (defined(__clang__) || (defined(__GNUC__) && __GNUC__ >= 8))
#define CUZK_FPX8 1
#define CUZK_FPX8_TARGET __attribute__((target("avx512f,avx512dq,avx512ifma")))

#include <immintrin.h>
#include <stdint.h>

#include "cuzk/ff.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
    __m512i l[8];
} cuzk_fpx8;

#define FPX8_MASK 0xffffffffffffULL
/* p in radix 2^48, and −p⁻¹ mod 2^48 */
static const uint64_t FPX8_P[8] = {0xffffffffaaabULL, 0xb153ffffb9feULL, 0xf6241eabfffeULL, 0x6730d2a0f6b0ULL,
                                   0x4b84f38512bfULL, 0x434bacd76477ULL, 0xe69a4b1ba7b6ULL, 0x1a0111ea397fULL};
static const uint64_t FPX8_2P[8] = {0xffffffff5556ULL, 0x62a7ffff73fdULL, 0xec483d57fffdULL, 0xce61a541ed61ULL,
                                    0x9709e70a257eULL, 0x869759aec8eeULL, 0xcd3496374f6cULL, 0x340223d472ffULL};
#define FPX8_PINV 0xfffcfffcfffdULL

/* r = a·b/2^384 mod p (see the bounds above); r may alias a or b. */
CUZK_FPX8_TARGET static inline void cuzk_fpx8_mul(cuzk_fpx8 *r, const cuzk_fpx8 *a, const cuzk_fpx8 *b)
{
    const __m512i zero = _mm512_setzero_si512(), mask = _mm512_set1_epi64((long long)FPX8_MASK);
    const __m512i pinv = _mm512_set1_epi64((long long)FPX8_PINV);
    __m512i T[16], H[16];
    _Pragma("GCC unroll 16") for (int k = 0; k < 16; k++) T[k] = H[k] = zero;
    /* operand scanning with the reduction interleaved (CIOS): at step i column i is complete but for m·p; choose
     * m so that it becomes 0 mod 2^48 and carry the rest up. Only columns i .. i + 8 are live at step i. */
    _Pragma("GCC unroll 16") for (int i = 0; i < 8; i++)
    {
        const __m512i ai = a->l[i];
        _Pragma("GCC unroll 16") for (int j = 0; j < 8; j++)
        {
            T[i + j] = _mm512_madd52lo_epu64(T[i + j], ai, b->l[j]);
            H[i + j + 1] = _mm512_madd52hi_epu64(H[i + j + 1], ai, b->l[j]);
        }
        __m512i c = _mm512_add_epi64(T[i], _mm512_slli_epi64(H[i], 4));
        __m512i m = _mm512_and_si512(_mm512_madd52lo_epu64(zero, c, pinv), mask);
        c = _mm512_madd52lo_epu64(c, m, _mm512_set1_epi64((long long)FPX8_P[0]));
        H[i + 1] = _mm512_madd52hi_epu64(H[i + 1], m, _mm512_set1_epi64((long long)FPX8_P[0]));
        _Pragma("GCC unroll 16") for (int j = 1; j < 8; j++)
        {
            const __m512i pj = _mm512_set1_epi64((long long)FPX8_P[j]);
            T[i + j] = _mm512_madd52lo_epu64(T[i + j], m, pj);
            H[i + j + 1] = _mm512_madd52hi_epu64(H[i + j + 1], m, pj);
        }
        T[i + 1] = _mm512_add_epi64(T[i + 1], _mm512_srli_epi64(c, 48));
    }
    __m512i carry = zero;
    _Pragma("GCC unroll 16") for (int k = 0; k < 8; k++)
    {
        __m512i v = _mm512_add_epi64(_mm512_add_epi64(T[8 + k], _mm512_slli_epi64(H[8 + k], 4)), carry);
        carry = _mm512_srli_epi64(v, 48);
        r->l[k] = _mm512_and_si512(v, mask);
    }
}

/* r = a − b, a and b in [0, 2p): a − b, plus 2p when negative. */
CUZK_FPX8_TARGET static inline void cuzk_fpx8_sub(cuzk_fpx8 *r, const cuzk_fpx8 *a, const cuzk_fpx8 *b)
{
    const __m512i mask = _mm512_set1_epi64((long long)FPX8_MASK);
    __m512i d[8], carry = _mm512_setzero_si512();
    _Pragma("GCC unroll 16") for (int k = 0; k < 8; k++)
    {
        __m512i v = _mm512_add_epi64(_mm512_sub_epi64(a->l[k], b->l[k]), carry);
        carry = _mm512_srai_epi64(v, 48);
        d[k] = _mm512_and_si512(v, mask);
    }
    const __mmask8 neg = _mm512_movepi64_mask(carry);
    carry = _mm512_setzero_si512();
    _Pragma("GCC unroll 16") for (int k = 0; k < 8; k++)
    {
        __m512i v = _mm512_mask_add_epi64(d[k], neg, d[k], _mm512_set1_epi64((long long)FPX8_2P[k]));
        v = _mm512_add_epi64(v, carry);
        carry = _mm512_srli_epi64(v, 48);
        r->l[k] = _mm512_and_si512(v, mask); /* the carry out of the top limb cancels the borrow */
    }
}

/* r = a mod p for a in [0, 2p). */
CUZK_FPX8_TARGET static inline void cuzk_fpx8_canon(cuzk_fpx8 *r, const cuzk_fpx8 *a)
{
    const __m512i mask = _mm512_set1_epi64((long long)FPX8_MASK);
    __m512i d[8], carry = _mm512_setzero_si512();
    _Pragma("GCC unroll 16") for (int k = 0; k < 8; k++)
    {
        __m512i v = _mm512_add_epi64(_mm512_sub_epi64(a->l[k], _mm512_set1_epi64((long long)FPX8_P[k])), carry);
        carry = _mm512_srai_epi64(v, 48);
        d[k] = _mm512_and_si512(v, mask);
    }
    const __mmask8 keep = _mm512_movepi64_mask(carry); /* a − p < 0: a is canonical already */
    _Pragma("GCC unroll 16") for (int k = 0; k < 8; k++) r->l[k] = _mm512_mask_mov_epi64(d[k], keep, a->l[k]);
}

/* Lane i of r = the cuzk_fp_t at byte offset off[i] from base (8-byte loads; cuzk_fp_t words are little-endian 64-bit). */
CUZK_FPX8_TARGET static inline void cuzk_fpx8_gather(cuzk_fpx8 *r, const void *base, __m512i off)
{
    const __m512i mask = _mm512_set1_epi64((long long)FPX8_MASK);
    __m512i w[6];
    _Pragma("GCC unroll 16") for (int k = 0; k < 6; k++)
        w[k] = _mm512_i64gather_epi64(_mm512_add_epi64(off, _mm512_set1_epi64(8 * k)), base, 1);
    r->l[0] = _mm512_and_si512(w[0], mask);
    r->l[1] = _mm512_and_si512(_mm512_or_si512(_mm512_srli_epi64(w[0], 48), _mm512_slli_epi64(w[1], 16)), mask);
    r->l[2] = _mm512_and_si512(_mm512_or_si512(_mm512_srli_epi64(w[1], 32), _mm512_slli_epi64(w[2], 32)), mask);
    r->l[3] = _mm512_srli_epi64(w[2], 16);
    r->l[4] = _mm512_and_si512(w[3], mask);
    r->l[5] = _mm512_and_si512(_mm512_or_si512(_mm512_srli_epi64(w[3], 48), _mm512_slli_epi64(w[4], 16)), mask);
    r->l[6] = _mm512_and_si512(_mm512_or_si512(_mm512_srli_epi64(w[4], 32), _mm512_slli_epi64(w[5], 32)), mask);
    r->l[7] = _mm512_srli_epi64(w[5], 16);
}

/* The cuzk_fp_t of lane i (for the lanes set in m) is written at byte offset off[i] from base; a must be normalized and
 * below 2^384. */
CUZK_FPX8_TARGET static inline void cuzk_fpx8_scatter(void *base, __mmask8 m, __m512i off, const cuzk_fpx8 *a)
{
    __m512i w[6];
    w[0] = _mm512_or_si512(a->l[0], _mm512_slli_epi64(a->l[1], 48));
    w[1] = _mm512_or_si512(_mm512_srli_epi64(a->l[1], 16), _mm512_slli_epi64(a->l[2], 32));
    w[2] = _mm512_or_si512(_mm512_srli_epi64(a->l[2], 32), _mm512_slli_epi64(a->l[3], 16));
    w[3] = _mm512_or_si512(a->l[4], _mm512_slli_epi64(a->l[5], 48));
    w[4] = _mm512_or_si512(_mm512_srli_epi64(a->l[5], 16), _mm512_slli_epi64(a->l[6], 32));
    w[5] = _mm512_or_si512(_mm512_srli_epi64(a->l[6], 32), _mm512_slli_epi64(a->l[7], 16));
    _Pragma("GCC unroll 16") for (int k = 0; k < 6; k++)
        _mm512_mask_i64scatter_epi64(base, m, _mm512_add_epi64(off, _mm512_set1_epi64(8 * k)), w[k], 1);
}

CUZK_FPX8_TARGET static inline void cuzk_fpx8_broadcast(cuzk_fpx8 *r, const cuzk_fp_t *a)
{
    cuzk_fpx8 t;
    cuzk_fpx8_gather(&t, a, _mm512_setzero_si512());
    *r = t;
}

#ifdef __cplusplus
}
#endif

#endif

#endif
