/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* Test access to the internals of a cuzk_gpu_key, callable from C (tests/gpu/gpu_check.c): the key's bases as the
 * device (RESIDENT) or pinned host (STREAMED) pointers it holds. Not part of the library's interface. */
#ifndef CUZK_GPU_GROTH16_KEY_BASES_H
#define CUZK_GPU_GROTH16_KEY_BASES_H

#include "cuzk/gpu.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
    cuzk_gpu_key_placement placement;
    const cuzk_g1_affine_t *h, *l, *a, *b_g1;
    const cuzk_g2_affine_t *b_g2;
    uint64_t h_len, l_len, a_len, b_len;
} cuzk_gpu_key_bases;
void cuzk_gpu_key_get_bases(const cuzk_gpu_key *k, cuzk_gpu_key_bases *out);

#ifdef __cplusplus
}
#endif

#endif
