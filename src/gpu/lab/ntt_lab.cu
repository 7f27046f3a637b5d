/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* The NTT pass kernel compiled for the measured alternatives of its Fr multiplication and for radix-4 register steps
 * (docs/performance/ntt.md, "tried and lost"), and the domain options of cuzk-bench's NTT variant words. */
#include <string.h>

#include "lab/field_lab.cuh"
#include "lab/gpu_lab.h"
#include "ntt/ntt.cuh"

/* the multipliers of the variant words, by number: 0 CIOS over 32-bit words, 1 over 64-bit words, 2 Fr's special
 * reduction, 3 product then reduction over 64-bit words, 4 the product's parity split, 5 odd warps in double
 * precision and even warps as 4 */
struct ntt_mul32 {
    static __device__ __forceinline__ void mul(dfr *r, const dfr *a, const dfr *b) { dfr_mul32(r, a, b); }
};
struct ntt_mul64 {
    static __device__ __forceinline__ void mul(dfr *r, const dfr *a, const dfr *b) { dfr_mul64(r, a, b); }
};
struct ntt_mul_special {
    static __device__ __forceinline__ void mul(dfr *r, const dfr *a, const dfr *b) { dfr_mul_special(r, a, b); }
};
struct ntt_mul_sos64 {
    static __device__ __forceinline__ void mul(dfr *r, const dfr *a, const dfr *b) { dfr_mul_sos64(r, a, b); }
};
struct ntt_mul_mix {
    static __device__ __forceinline__ void mul(dfr *r, const dfr *a, const dfr *b) { dfr_mul_mix(r, a, b); }
};

/* [multiplier][radix 4, radix 8]; the product's own (4, radix 8) is never taken from here */
static const cuzk_gpu_ntt_kernels LAB_KERNELS[6][2] = {
    {{k_pass<ntt_mul32, 2>, 4}, {k_pass<ntt_mul32, 3>, 8}},
    {{k_pass<ntt_mul64, 2>, 4}, {k_pass<ntt_mul64, 3>, 8}},
    {{k_pass<ntt_mul_special, 2>, 4}, {k_pass<ntt_mul_special, 3>, 8}},
    {{k_pass<ntt_mul_sos64, 2>, 4}, {k_pass<ntt_mul_sos64, 3>, 8}},
    {{k_pass<ntt_mul_eo, 2>, 4}, {NULL, 8}},
    {{k_pass<ntt_mul_mix, 2>, 4}, {k_pass<ntt_mul_mix, 3>, 8}},
};

extern "C" cuzk_status cuzk_gpu_lab_ntt_opts(cuzk_gpu_ntt_opts *o, unsigned v)
{
    if (v > 511) return CUZK_ERR_INVALID_ARG;
    memset(o, 0, sizeof *o);
    o->split_twiddles = (v & 16) != 0;
    o->whole_tables = (v & 128) != 0;
    o->whole_without_roots = (v & 256) != 0;
    int mv = (v & 64) ? 5 : (v & 32) ? 4 : (v & 8) ? 3 : (v & 2) ? 2 : (int)(v & 1);
    int radix8 = !(v & 4);
    o->kernels = mv == 4 && radix8 ? NULL : &LAB_KERNELS[mv][radix8];
    return CUZK_OK;
}
