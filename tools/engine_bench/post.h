/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* cuzk-engine-bench --post: PoSt requests through the engine, from request to proof (post.c). */
#ifndef CUZK_ENGINE_BENCH_POST_H
#define CUZK_ENGINE_BENCH_POST_H

#include <stdbool.h>
#include <stdint.h>

#include "cuzk/engine.h"
#include "cuzk/filecoin.h"

typedef struct {
    const char *kind; /* "winning" or "window" */
    uint64_t sector_size;
    int64_t registered_proof; /* -1: WinningPoSt's, or WindowPoSt V1_2 of the size */
    const char *vanilla;      /* one sector's bincode vanilla proof; NULL: generated (post_vanilla_generate) */
    uint32_t sectors;         /* WindowPoSt: that sector listed this many times (0: the circuit's slots) */
    uint8_t randomness[32];   /* the vanilla proof's (the fixture's: zero) */
    unsigned jobs;            /* requests, one after the other */
    bool test_key;            /* keys from toxic waste (the GPUs make their own) instead of the v28 files */
    bool shape_first;         /* build (or map) the shape before the engine starts, timed on its own */
    bool floor;               /* print the arithmetic floor of the requests (eb_floor_print) */
} post_opts;

/* Runs the requests on an engine made from cfg; prints one JSON line. Exit status. */
int post_main(cuzk_engine_config *cfg, const post_opts *o);

/* One sector's vanilla proof for registered PoSt proof p at any size, without the sector: the challenged leaves
 * (randomness, sector id, sector index 0) and every node off their paths drawn from seed, every node on them hashed
 * (Poseidon with the MerkleTree tag of its level's arity) up to a common root, comm_r = Poseidon(comm_c, root): a
 * vanilla proof a verifier accepts, of a sector that does not exist. Bincode into *buf (malloc'd). */
cuzk_status post_vanilla_generate(const cuzk_fil_proof *p, uint64_t sector_id, const uint8_t randomness[32],
                                  uint64_t seed, uint8_t **buf, size_t *len, cuzk_errmsg *err);

#endif
