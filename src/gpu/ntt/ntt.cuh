/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* What the NTT topic (ntt/) offers the rest of the GPU layer besides include/cuzk/gpu.h: its memory, domains with
 * whole tables, and the transforms of Groth16's H with their pointwise work folded into the last pass. */
#ifndef CUZK_GPU_NTT_CUH
#define CUZK_GPU_NTT_CUH

#include "runtime/runtime.cuh"

/* Device bytes an NTT domain holds now. */
extern "C" uint64_t cuzk_gpu_ntt_domain_bytes(const cuzk_gpu_ntt_domain *d);
/* What whole tables (cuzk_gpu_ntt_opts.whole_tables) add to a domain of 2^log2n that uses `coset_kinds` coset
 * tables. */
extern "C" uint64_t cuzk_gpu_ntt_whole_bytes(unsigned log2n, unsigned coset_kinds);

/* H's transforms, each ending with an optional finish: out = (v·mul[i] − minus[i])·k, each part where set (mul may be
 * the output itself).
 *   to_coset: values on the domain → values on the coset g·H (an unscaled inverse NTT, then the coset forward with
 *             the 1/n moved into its shift table), written to out (x when NULL);
 *   inverse_raw, coset_inverse_raw: n times the coefficients (no 1/n anywhere), in place.
 * h_prepare makes the coset tables they use for shift g now (coset_inverse: coset_inverse_raw's too). */
typedef struct {
    const cuzk_fr_t *mul, *minus;
    cuzk_fr_t k;
    bool has_k;
} cuzk_gpu_ntt_finish;
extern "C" cuzk_status cuzk_gpu_ntt_h_prepare(cuzk_gpu_ntt_domain *d, const cuzk_fr_t *g, bool coset_inverse);
extern "C" cuzk_status cuzk_gpu_ntt_to_coset(cuzk_fr_t *x, cuzk_gpu_ntt_domain *d, const cuzk_fr_t *g,
                                             const cuzk_gpu_ntt_finish *fin, cuzk_fr_t *out);
extern "C" cuzk_status cuzk_gpu_ntt_inverse_raw(cuzk_fr_t *x, cuzk_gpu_ntt_domain *d);
extern "C" cuzk_status cuzk_gpu_ntt_coset_inverse_raw(cuzk_fr_t *x, cuzk_gpu_ntt_domain *d, const cuzk_fr_t *g,
                                                      const cuzk_gpu_ntt_finish *fin);

#endif
