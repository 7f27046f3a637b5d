/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* The GPU lab (library cuzk_gpu_lab, for the benchmarks and checks only): the measured alternatives the product lost
 * to (docs/performance/msm.md and ntt.md, "tried and lost"), kept where they can be measured again beside the
 * product's own arithmetic. Callable from C. */
#ifndef CUZK_GPU_LAB_GPU_LAB_H
#define CUZK_GPU_LAB_GPU_LAB_H

#include "cuzk/gpu.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- field arithmetic, element-wise ------------------------------------------------------------------------------ */
/* The product's operations (ADD, SUB, SQR, the _EO multiplications, INV_BGCD, FP2_INV: ff/ff.cuh and ec/ec.cuh) and
 * the alternatives (lab/field_lab.cuh): */
typedef enum {
    /* MUL: CIOS over 32-bit words; MUL64: over 64-bit words; FP_SQR: FP_MUL with a = b */
    CUZK_GPU_LAB_FR_ADD,
    CUZK_GPU_LAB_FR_SUB,
    CUZK_GPU_LAB_FR_MUL,
    CUZK_GPU_LAB_FR_SQR,
    CUZK_GPU_LAB_FR_MUL64,
    CUZK_GPU_LAB_FP_ADD,
    CUZK_GPU_LAB_FP_SUB,
    CUZK_GPU_LAB_FP_MUL,
    CUZK_GPU_LAB_FP_SQR,
    CUZK_GPU_LAB_FP_MUL64,
    /* FP2_MUL, FP2_SQR: Karatsuba and (a0 + a1)(a0 − a1), 2·a0·a1 over the product's Fp multiplication */
    CUZK_GPU_LAB_FP2_ADD,
    CUZK_GPU_LAB_FP2_SUB,
    CUZK_GPU_LAB_FP2_MUL,
    CUZK_GPU_LAB_FP2_SQR,
    CUZK_GPU_LAB_FR_MUL_SPECIAL, /* Fr multiplication using the modulus' special low words */
    CUZK_GPU_LAB_FR_MUL28,
    CUZK_GPU_LAB_FP_MUL28, /* 28-bit digits with 64-bit column sums (lab/mont28.h) */
    /* the product (or dedicated square) first, then the reduction, 64- and 32-bit words; Fp2 Karatsuba with one
     * reduction per coefficient */
    CUZK_GPU_LAB_FP_MUL_SOS64,
    CUZK_GPU_LAB_FP_SQR_SOS64,
    CUZK_GPU_LAB_FP_MUL_SOS32,
    CUZK_GPU_LAB_FP_SQR_SOS32,
    CUZK_GPU_LAB_FP2_MUL_LAZY,
    CUZK_GPU_LAB_FR_MUL_SOS64,
    CUZK_GPU_LAB_FP_INV,
    CUZK_GPU_LAB_FP2_INV,   /* 1/a (0 gives 0): Fermat; Fp2 over the binary GCD */
    CUZK_GPU_LAB_FP_MUL_KA, /* product then reduction, 64-bit words, the product by one level of Karatsuba */
    /* 32-bit words, each word product with its two addends one 64-bit value, product then reduction (lab/mont32w.h) */
    CUZK_GPU_LAB_FP_MUL_W,
    CUZK_GPU_LAB_FR_MUL_W,
    CUZK_GPU_LAB_FP_MUL_EO,
    CUZK_GPU_LAB_FR_MUL_EO, /* CIOS, 32-bit words, products split by parity (ff/mont_eo.h) */
    /* the same split: square then reduction; Fp2 with one reduction per coefficient */
    CUZK_GPU_LAB_FP_SQR_EO,
    CUZK_GPU_LAB_FP2_MUL_EO,
    CUZK_GPU_LAB_FR_MUL_F64, /* Fr in double precision on the FP64 pipe (lab/mont_f64.h) */
    CUZK_GPU_LAB_FR_MUL_MIX, /* odd warps FR_MUL_F64, even warps FR_MUL_EO: both pipes at once */
    CUZK_GPU_LAB_FP_MUL_F64,
    CUZK_GPU_LAB_FP_MUL_MIX, /* the same for Fp */
    /* a·b + c·d with one reduction (lab/mont_eo_sum.h), here with c = a + b and d = a − b: a·b + a² − b² */
    CUZK_GPU_LAB_FP_MUL_ADD,
    CUZK_GPU_LAB_FP_INV_BGCD, /* 1/a (0 gives 0) by the batched binary GCD (ff/inv_bgcd.h) */
    CUZK_GPU_LAB_FF_OP_COUNT
} cuzk_gpu_lab_ff_op;
/* r[i] = op(a[i], b[i]) for i < n, HOST pointers to arrays of the op's element type (b unused by SQR). */
cuzk_status cuzk_gpu_lab_ff_batch(cuzk_gpu_lab_ff_op op, void *r, const void *a, const void *b, size_t n);
/* Throughput: `threads` threads each apply op `iters` times in a dependent chain on random-looking data (nothing
 * zero). *ns_per_op = device time / (threads·iters), in nanoseconds. */
cuzk_status cuzk_gpu_lab_ff_throughput(cuzk_gpu_lab_ff_op op, size_t threads, unsigned iters, double *ns_per_op);

/* ---- NTT pass kernels -------------------------------------------------------------------------------------------- */
/* The domain options an NTT variant word asks for (cuzk-bench --ntt-variant, at most 511): the pass kernel's Fr
 * multiplication, bit 0 = CIOS over 64-bit words, bit 1 = Fr's special reduction over 32-bit words (overrides bit
 * 0), bit 3 = product then reduction, 64-bit words (overrides bits 0 and 1), bit 5 = the product's parity split
 * (overrides bits 0, 1 and 3), bit 6 = odd warps in double precision, even warps as bit 5 (overrides bits 0, 1, 3
 * and 5), none of them: CIOS over 32-bit words; bit 2 = radix-4 register steps (else radix 8); bit 4 =
 * split_twiddles, bit 7 = whole_tables, bit 8 = whole_without_roots (cuzk_gpu_ntt_opts). 32 is the product's
 * default (o->kernels NULL); any other kernel is the lab's. CUZK_ERR_INVALID_ARG above 511. */
cuzk_status cuzk_gpu_lab_ntt_opts(cuzk_gpu_ntt_opts *o, unsigned variant);

#ifdef __cplusplus
}
#endif

#endif
