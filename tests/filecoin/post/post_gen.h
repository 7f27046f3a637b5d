/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* Synthetic PoSt data for tests: sectors of seeded random leaves with their tree R built natively, inclusion proofs
 * and whole vanilla proofs (the bincode generate_single_vanilla_proof writes) for any tree shape small enough to
 * build. */
#ifndef CUZK_POST_GEN_H
#define CUZK_POST_GEN_H

#include "cuzk/filecoin.h"

typedef struct {
    uint64_t id;
    cuzk_fil_shape shape;
    uint64_t nodes;
    cuzk_poseidon_tree *tree;
    uint8_t comm_c[32], comm_r_last[32], comm_r[32];
} post_gen_sector;

/* A sector of `nodes` leaves drawn from seed; 0 on success. */
int post_gen_sector_make(post_gen_sector *s, const cuzk_fil_shape *shape, uint64_t nodes, uint64_t seed, uint64_t id);
void post_gen_sector_free(post_gen_sector *s);
/* The inclusion proof of leaf idx; its siblings go to sib (cuzk_fil_shape_siblings of them). 0 on success. */
int post_gen_inclusion(const post_gen_sector *s, uint64_t idx, cuzk_fil_merkle_proof *m, cuzk_fil_node *sib);
/* The decoded vanilla proof of registered PoSt proof p for the sector at sector_index of its partition (challenges
 * derived from randomness): out holds p->challenges inclusion proofs in out->mem. 0 on success. */
int post_gen_vanilla(const cuzk_fil_proof *p, const post_gen_sector *s, const uint8_t randomness[32],
                     uint64_t sector_index, cuzk_fil_post_sector *out);
/* The same as bincode (malloc'd). */
int post_gen_vanilla_bytes(const cuzk_fil_proof *p, const post_gen_sector *s, const uint8_t randomness[32],
                           uint64_t sector_index, uint8_t **buf, size_t *len);
/* 32 random bytes below r from a seeded generator. */
void post_gen_fr_bytes(uint64_t *state, uint8_t out[32]);

#endif
