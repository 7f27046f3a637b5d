/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* Poseidon micro-benchmarks (circuits.h):
 *   poseidon_constants_arity{2,8,11}  making one arity's constants (the first cuzk_poseidon_params_get), ms
 *   poseidon_hash_arity{2,8,11}       one hash (cuzk_poseidon_permute on a full state), ns by the thread's CPU clock;
 *                                     "hashes_per_s" besides
 *   poseidon_tree_root                the root of an 8-0-0 tree of 2^21 leaves (a 64 MiB sector's tree R), ms per
 *                                     tree at 1 and 2 threads (or --threads); "hashes_per_s" besides */
#include <stdio.h>
#include <stdlib.h>

#include "bench.h"
#include "cuzk/circuits.h"

static const unsigned ARITIES[] = {2, 8, 11};

static void bench_hash(const bench_opts *o)
{
    for (unsigned k = 0; k < sizeof ARITIES / sizeof ARITIES[0]; k++) {
        unsigned a = ARITIES[k];
        char name[64];
        snprintf(name, sizeof name, "poseidon_constants_arity%u", a);
        bench_runs made = {0}; /* one run: the constants are made once */
        bench_run_start(&made);
        const cuzk_poseidon_params *p = cuzk_poseidon_params_get(a);
        bench_run_stop(&made);
        if (p == NULL) {
            fprintf(stderr, "cuzk-bench: %s: out of memory\n", name);
            return;
        }
        bench_stat ms = bench_stat_of(&made);
        if (bench_selected(o, name)) bench_report_runs(name, a, 1, &ms, 1e-6, "ms", NULL);

        snprintf(name, sizeof name, "poseidon_hash_arity%u", a);
        if (!bench_selected(o, name)) continue;
        cuzk_fr_t st[CUZK_POSEIDON_MAX_WIDTH];
        cuzk_poseidon_tag(&st[0], CUZK_POSEIDON_MERKLE_TREE, a, 0, NULL);
        for (unsigned i = 1; i <= a; i++) cuzk_fr_from_u64(&st[i], i);
        bench_runs runs = {.cpu = true};
        const unsigned reps = 2000;
        for (int round = 0; round < 7; round++) {
            bench_run_start(&runs);
            for (unsigned r = 0; r < reps; r++) cuzk_poseidon_permute(p, st); /* each output feeds the next */
            bench_run_stop(&runs);
        }
        BENCH_KEEP(st[1]);
        bench_stat s = bench_stat_of(&runs);
        char extra[64];
        snprintf(extra, sizeof extra, ", \"hashes_per_s\": %.0f", 1e9 * reps / s.best);
        bench_report_runs(name, a, 1, &s, 1.0 / reps, "ns", extra);
    }
}

static void bench_tree(const bench_opts *o)
{
    if (!bench_selected(o, "poseidon_tree_root")) return;
    const uint64_t n = UINT64_C(1) << 21;
    uint8_t *leaves = malloc(n * CUZK_FR_BYTES);
    if (leaves == NULL) {
        fprintf(stderr, "cuzk-bench: poseidon_tree_root: out of memory\n");
        return;
    }
    for (uint64_t i = 0; i < n; i++) {
        cuzk_fr_t x;
        cuzk_fr_from_u64(&x, i * 0x9e3779b97f4a7c15ULL);
        cuzk_fr_to_bytes_le(leaves + i * CUZK_FR_BYTES, &x);
    }
    const cuzk_poseidon_tree_shape shape = {8, 0, 0};
    uint64_t hashes = (n - 1) / 7; /* 8-ary: n/8 + n/64 + .. + 1 */
    int threads[2];
    int nt = bench_thread_set(o, threads);
    for (int ti = 0; ti < nt; ti++) {
        bench_runs runs = {0};
        for (int rep = 0; rep < 2; rep++) {
            uint8_t root[CUZK_FR_BYTES];
            cuzk_errmsg err = {{0}};
            bench_run_start(&runs);
            cuzk_status s = cuzk_poseidon_tree_root(root, leaves, n, &shape, (unsigned)threads[ti], &err);
            bench_run_stop(&runs);
            if (s != CUZK_OK) {
                fprintf(stderr, "cuzk-bench: poseidon_tree_root: %s\n", err.msg);
                free(leaves);
                return;
            }
            BENCH_KEEP(root[0]);
        }
        bench_stat st = bench_stat_of(&runs);
        char extra[64];
        snprintf(extra, sizeof extra, ", \"hashes_per_s\": %.0f", hashes / (st.best / 1e9));
        bench_report_runs("poseidon_tree_root", n, threads[ti], &st, 1e-6, "ms", extra);
    }
    free(leaves);
}

void bench_micro_poseidon(const bench_opts *o)
{
    bench_hash(o);
    bench_tree(o);
}
