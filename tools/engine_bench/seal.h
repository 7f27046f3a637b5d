/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* cuzk-engine-bench --porep / --snap: PoRep C2 and SnapDeals requests through the engine, from request to proof
 * (seal.c). */
#ifndef CUZK_ENGINE_BENCH_SEAL_H
#define CUZK_ENGINE_BENCH_SEAL_H

#include <stdbool.h>
#include <stdint.h>

#include "cuzk/engine.h"

typedef struct {
    bool snap; /* SnapDeals, else PoRep */
    uint64_t sector_size;
    int64_t registered_proof; /* -1: PoRep V1_1, SnapDeals the size's update proof */
    const char *c1;           /* PoRep: a commit-phase-1 file (Curio's envelope or bare) instead of making one */
    int generated;            /* 1: random inputs (cuzk_fil_c1_random, cuzk_fil_snap_partition_random), which cannot
                               * verify; 0: a sector sealed (and updated) here, test sizes only; -1: 0 up to 512 MiB,
                               * else 1 */
    uint64_t sector_number, miner_id, seed;
    unsigned jobs;
    bool test_key;    /* keys from toxic waste (each GPU makes its own) instead of the v28 .params */
    bool shape_first; /* build (or map) the shape before the engine starts, timed on its own */
    bool floor;       /* print the arithmetic floor of the requests (eb_floor_print) */
} seal_opts;

/* Runs the requests on an engine made from cfg; prints one JSON line. Exit status. */
int seal_main(cuzk_engine_config *cfg, const seal_opts *o);

#endif
