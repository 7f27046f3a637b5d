/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* What the GPU's plain-C Montgomery arithmetic shares (mont_eo.h and inv_bgcd.h here; the lab's measured alternatives):
 * function qualifiers for device and host, the 32-bit words of the two moduli, −m^−1 mod 2^32, and the final
 * conditional subtraction. Plain C, so that the host tests (tests/gpu_host) run the very code the device runs; under
 * nvcc the functions are device functions and every loop unrolls into straight-line code with the modulus words as
 * immediates. */
#ifndef CUZK_GPU_MONT_H
#define CUZK_GPU_MONT_H

#include <stdint.h>

#ifdef __CUDACC__
#define MONT_FN static __host__ __device__ __forceinline__
#else
#define MONT_FN static inline
#endif
#ifdef __CUDA_ARCH__
#define MONT_UNROLL _Pragma("unroll")
#else
#define MONT_UNROLL
#endif

enum { MONT_FP = 0, MONT_FR = 1 };

/* 32-bit words per element, and −m^−1 mod 2^32 */
MONT_FN int mont_words(int f) { return f == MONT_FP ? 12 : 8; }
MONT_FN uint32_t mont_ninv32(int f) { return f == MONT_FP ? 0xfffcfffdu : 0xffffffffu; }

/* leading zeros of a non-zero word */
MONT_FN int mont_clz(uint32_t w)
{
#ifdef __CUDA_ARCH__
    return __clz((int)w);
#else
    return __builtin_clz(w);
#endif
}

/* 32-bit word i of the modulus */
MONT_FN uint32_t mont_mod_word(int f, int i)
{
    if (f == MONT_FP) {
        switch (i) {
        case 0: return 0xffffaaab;
        case 1: return 0xb9feffff;
        case 2: return 0xb153ffff;
        case 3: return 0x1eabfffe;
        case 4: return 0xf6b0f624;
        case 5: return 0x6730d2a0;
        case 6: return 0xf38512bf;
        case 7: return 0x64774b84;
        case 8: return 0x434bacd7;
        case 9: return 0x4b1ba7b6;
        case 10: return 0x397fe69a;
        default: return 0x1a0111ea;
        }
    }
    switch (i) {
    case 0: return 0x00000001;
    case 1: return 0xffffffff;
    case 2: return 0xfffe5bfe;
    case 3: return 0x53bda402;
    case 4: return 0x09a1d805;
    case 5: return 0x3339d808;
    case 6: return 0x299d7d48;
    default: return 0x73eda753;
    }
}

/* r = v − m when v ≥ m, else v, for v = t + top·2^(32·words) < 2m */
MONT_FN void mont_sub_once(int f, uint32_t *r, const uint32_t *t, uint32_t top)
{
    const int nw = mont_words(f);
    uint32_t s[12];
    uint64_t borrow = 0;
    MONT_UNROLL
    for (int k = 0; k < 12; k++) {
        if (k < nw) {
            uint64_t x = (uint64_t)t[k] - mont_mod_word(f, k) - borrow;
            s[k] = (uint32_t)x;
            borrow = (x >> 32) & 1;
        }
    }
    uint32_t keep = top != 0 ? 0u : 0u - (uint32_t)borrow; /* all ones when v < m */
    MONT_UNROLL
    for (int k = 0; k < 12; k++) {
        if (k < nw) r[k] = s[k] ^ ((t[k] ^ s[k]) & keep);
    }
}

#endif
