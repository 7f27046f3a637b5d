/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* What the SnapDeals files share: a geometry's bit lengths (storage-proofs-update PublicParams), the tree D node
 * hash, the geometry check. */
#ifndef CUZK_FIL_SNAP_INT_H
#define CUZK_FIL_SNAP_INT_H

#include "cuzk/filecoin.h"

typedef struct {
    unsigned cbits;      /* challenge_bit_len = log2(nodes): tree D's height */
    unsigned pbits;      /* partition_bit_len */
    unsigned abits;      /* apex_leaf_bit_len */
    unsigned rbits;      /* random bits per challenge: cbits − pbits */
    unsigned per_digest; /* challenges per digest: 254 / rbits */
    unsigned digests;    /* digests per partition */
    unsigned apex_path;  /* tree D levels from a leaf to its apex leaf: cbits − pbits − abits */
} cuzk_fil_snap_dims;

void cuzk_fil_snap_dims_of(const cuzk_fil_proof *p, cuzk_fil_snap_dims *d);
/* CUZK_ERR_INVALID_ARG unless p is an UPDATE geometry whose counts are powers of two that fit together. */
cuzk_status cuzk_fil_snap_need(const cuzk_fil_proof *p, cuzk_errmsg *err);
/* SHA-256(left ‖ right) with the top two bits cleared: a tree D node. out may alias an input. */
void cuzk_fil_snap_sha_node(const uint8_t left[32], const uint8_t right[32], uint8_t out[32]);

#endif
