/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* cuzk msm: multi-scalar multiplication Σ [k_i] P_i over G1 and G2 (Pippenger with signed digits and batch-affine
 * bucket sums), and bitmap-selected batch addition Σ_{bit i set} P_i.
 *
 * Inputs:
 *   bases    affine points of the order-r subgroup; the point at infinity (x = y = 0, see ec.h) is allowed and
 *            contributes nothing. Points outside the subgroup or off the curve give an unspecified result.
 *   scalars  cuzk_g1_msm / cuzk_g2_msm: Fr elements (Montgomery form, always < r).
 *            cuzk_g1_msm_raw / cuzk_g2_msm_raw: canonical integers, 4 little-endian 64-bit limbs each. A scalar >= r is
 *            rejected with CUZK_ERR_SCALAR_RANGE (nothing is reduced silently, r is not written).
 *   threads  worker count; 1 runs on the caller's thread without creating any, 0 is treated as 1, counts above
 *            1024 as 1024.
 *
 * n = 0 gives the point at infinity. n is limited to 2^31 − 1 (CUZK_ERR_INVALID_ARG above). Scratch memory is
 * allocated once per call (CUZK_ERR_NOMEM when that fails; r is then not written). All inputs are public: the
 * running time depends on the scalars.
 *
 * Bases are read in bucket order, i.e. at random: for large n keep them in huge pages (2 MiB-aligned allocation and
 * madvise(MADV_HUGEPAGE)); that saves about a tenth of the time at 2^20 points. */
#ifndef CUZK_MSM_H
#define CUZK_MSM_H

#include "cuzk/ec.h"

#ifdef __cplusplus
extern "C" {
#endif

cuzk_status cuzk_g1_msm(cuzk_g1_jac_t *r, const cuzk_g1_affine_t *bases, const cuzk_fr_t *scalars, size_t n,
                        unsigned threads);
cuzk_status cuzk_g1_msm_raw(cuzk_g1_jac_t *r, const cuzk_g1_affine_t *bases, const uint64_t (*scalars)[4], size_t n,
                            unsigned threads);
/* Sum of the bases whose bit is set: bit i is bit (i % 64) of bitmap[i / 64], least significant first. Bits at
 * and above n are ignored. */
cuzk_status cuzk_g1_batch_add(cuzk_g1_jac_t *r, const cuzk_g1_affine_t *bases, const uint64_t *bitmap, size_t n,
                              unsigned threads);

cuzk_status cuzk_g2_msm(cuzk_g2_jac_t *r, const cuzk_g2_affine_t *bases, const cuzk_fr_t *scalars, size_t n,
                        unsigned threads);
cuzk_status cuzk_g2_msm_raw(cuzk_g2_jac_t *r, const cuzk_g2_affine_t *bases, const uint64_t (*scalars)[4], size_t n,
                            unsigned threads);
cuzk_status cuzk_g2_batch_add(cuzk_g2_jac_t *r, const cuzk_g2_affine_t *bases, const uint64_t *bitmap, size_t n,
                              unsigned threads);

/* The scratch one call allocates, in bytes as requested from malloc: g*_msm and g*_msm_raw of n points make
 * CUZK_MSM_SCRATCH_ALLOCS allocations (the workers' bucket scratch, the per-task sums and a copy of the scalars; for
 * cuzk_g1_msm of n <= 2^18 points and cuzk_g2_msm of n <= 2^20 the copy holds the GLV halves and is followed by the n
 * points ψ(P_i), 96 B each in G1, 192 B in G2), g*_batch_add CUZK_BATCH_ADD_SCRATCH_ALLOCS (the workers' scratch and
 * the per-part sums), all live together for the duration of the call and freed before it returns. The calls size
 * their allocations with these same functions, so a memory model built on them cannot drift from the code. 0 when
 * the call allocates nothing (n = 0 for an MSM, n above the limit). threads as in the calls (0 = 1). */
#define CUZK_MSM_SCRATCH_ALLOCS 3
#define CUZK_BATCH_ADD_SCRATCH_ALLOCS 2
size_t cuzk_g1_msm_scratch_bytes(size_t n, unsigned threads);
size_t cuzk_g2_msm_scratch_bytes(size_t n, unsigned threads);
/* At least g*_msm_scratch_bytes(m, threads) for every m <= n, for models that know only an upper bound of the point
 * count. The scratch is not monotone in m: fewer points may pick a narrower window, hence more windows and more task
 * sums (by up to ~25 KB at small m), and the GLV path (g1: n <= 2^18, g2: n <= 2^20) needs more than the plain one
 * just above; so this is the exact figure for n (above the GLV limit, the larger of it and the figure at the limit)
 * plus the largest task-sum block any plan can allocate (128 windows, one part per worker). Checked exhaustively
 * against the running maximum for n <= 2^21 and 1 to 64 threads (test_msm repeats it for n <= 20000). */
size_t cuzk_g1_msm_scratch_bytes_upto(size_t n, unsigned threads);
size_t cuzk_g2_msm_scratch_bytes_upto(size_t n, unsigned threads);
size_t cuzk_g1_batch_add_scratch_bytes(size_t n, unsigned threads);
size_t cuzk_g2_batch_add_scratch_bytes(size_t n, unsigned threads);

#ifdef __cplusplus
}
#endif

#endif
