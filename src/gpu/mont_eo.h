/* Montgomery multiplication (CIOS over 32-bit words) with the word products split by parity, for Fp and Fr: the
 * same inputs and results as field.cuh's multiplications.
 *
 * Why: the multiplication is bound by the multiply-add pipe, a fifth of whose work in the 64-bit-word form is moves
 * that build the 64-bit addend pairs of the wide products (docs/PERFORMANCE-gpu.md, session 7). Here each row's
 * products a_j·b_i go to one of two accumulators by the parity of j, so that the low and high words of every
 * product land in one aligned pair of its accumulator, next to each other in one carry chain:
 *   E (even j): words j, j + 1;   O (odd j): words j − 1, j, standing for O·2^32;   A = E + O·2^32.
 * After the row's reduction clears word 0, A/2^32 = E/2^32 + O is folded into E by one addition chain and O
 * starts again from zero. Per row: four chains of N/2 products (a·b_i and q·m, even and odd), one fold.
 *
 * ptxas fuses each product's mad.lo / madc.hi pair into one IMAD.WIDE.U32.X that takes and gives the chain's carry
 * (SASS: 278 of them, no IMAD.MOV or IMAD.X in the Fp multiplication), against the 64-bit-word form's 313 wide
 * products, 77 IMAD.MOV and 57 IMAD.X. Measured on an H200 (session 7): Fp 39.3 ps against 53.2, Fr 20.9 against
 * 25.1; G1 MSM 2^24 116.9 ms against 146.2, G2 2^22 105.1 against 128.7.
 *
 * The carry-flag primitives are field.cuh's PTX on the device and an emulated carry flag on the host, so the host
 * test (tests/gpu_host/test_mont28.c) runs this very sequence against the CPU field layer. */
#ifndef CUZK_GPU_MONT_EO_H
#define CUZK_GPU_MONT_EO_H

#include <stdint.h>

#include "mont28.h"

#ifdef __CUDA_ARCH__
/* field.cuh's carry-chain primitives: it includes this header after them */
#define eo_add_cc add_cc
#define eo_addc_cc addc_cc
#define eo_addc addc
#define eo_madlo_cc madlo_cc
#define eo_madclo_cc madclo_cc
#define eo_madchi_cc madchi_cc
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

/* acc += Σ x[j]·y·2^(32(j − first)) over j = first, first + 2, … < n, as (lo, hi) pairs at acc[j − first],
 * acc[j − first + 1]. The even chain (first = 0) carries into acc[n]. The odd chain cannot carry out of its top
 * word acc[n − 1]: starting from zero, one row adds at most a·b_i/2^32 + m < a + m < 2^(32n) (m < 2^(32n − 1)). */
M28_FN void eo_row(uint32_t *acc, const uint32_t *x, uint32_t y, int first, int n)
{
    acc[0] = eo_madlo_cc(x[first], y, acc[0]);
    acc[1] = eo_madchi_cc(x[first], y, acc[1]);
    M28_UNROLL
    for (int j = first + 2; j < 12; j += 2) {
        if (j < n) {
            acc[j - first] = eo_madclo_cc(x[j], y, acc[j - first]);
            acc[j - first + 1] = eo_madchi_cc(x[j], y, acc[j - first + 1]);
        }
    }
    if (first == 0) acc[n] = eo_addc(acc[n], 0u);
}

/* r = a·b·R^−1 mod m (f = M28_FP: R = 2^384; M28_FR: R = 2^256). r may alias a or b. */
M28_FN void eo_mul(int f, uint32_t *r, const uint32_t *a, const uint32_t *b)
{
    const int n = m28_words(f);
    uint32_t p[12], e[13], o[12];
    M28_UNROLL
    for (int k = 0; k < 12; k++) p[k] = k < n ? m28_mod_word(f, k) : 0;
    M28_UNROLL
    for (int k = 0; k < 13; k++) e[k] = 0;
    M28_UNROLL
    for (int i = 0; i < 12; i++) {
        if (i < n) {
            M28_UNROLL
            for (int k = 0; k < 12; k++) o[k] = 0;
            eo_row(e, a, b[i], 0, n);
            eo_row(o, a, b[i], 1, n);
            uint32_t q = e[0] * m28_ninv32(f);
            eo_row(e, p, q, 0, n);
            eo_row(o, p, q, 1, n);
            /* e[0] is 0: A/2^32 = e/2^32 + o */
            e[0] = eo_add_cc(e[1], o[0]);
            M28_UNROLL
            for (int k = 1; k < 12; k++) {
                if (k < n) e[k] = eo_addc_cc(e[k + 1], o[k]);
            }
            e[n] = eo_addc(0u, 0u);
        }
    }
    m28_sub_once(f, r, e, e[n]); /* A < 2m */
}

#endif
