/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* Circuit micro-benchmarks.
 *   synthetic_witness  one witness of the synthetic PoRep-shaped system (cuzk_circuits_synthetic_witness_into, what each
 *                      engine synthesis worker runs per partition), at 2^20 and up to --max-log2 in steps of 2
 *                      (ms per witness; the line's "ns_per_var" is the time per variable and thread)
 *   sha256_shape       SHAPE synthesis of 64 SHA-256 compressions of allocated message bits (bellperson's gadget,
 *                      26,352 rows each) as parallel blocks, rows into CSR arrays (ms; "constraints_per_s")
 *   sha256_finish      cuzk_cs_finish of that shape: cuzk_r1cs_adopt's validation, renumbering, densities, identity
 *   sha256_witness     WITNESS synthesis of the same into a caller's z, as parallel blocks (ms; "constraints_per_s",
 *                      "ns_per_var": per aux value and thread)
 * Size is the row count. Filecoin's partitions are ~80-99 % SHA-256 rows, so these project their synthesis. */
#include <stdio.h>
#include <stdlib.h>

#include "bench.h"
#include "cuzk/circuits.h"

#define SHA_BLOCKS 64

/* one block: 512 allocated message bits and one compression from the IV */
static void sha_block(cuzk_cs *cs, void *ctx, uint64_t b)
{
    (void)ctx;
    cuzk_bit in[512];
    uint64_t x = 0x9e3779b97f4a7c15ULL * (b + 1);
    for (int i = 0; i < 512; i++) {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        in[i] = cuzk_bit_alloc(cs, x & 1);
    }
    cuzk_u32 iv[8], out[8];
    cuzk_sha256_gadget_iv(iv);
    cuzk_sha256_gadget_compression(cs, in, iv, out);
}

/* the best run of rows over `aux` values, with its rate */
static void sha_line(const char *name, uint64_t rows, uint64_t aux, int threads, const bench_stat *st)
{
    char extra[128];
    snprintf(extra, sizeof extra, ", \"constraints_per_s\": %.0f, \"ns_per_var\": %.2f", rows / (st->best / 1e9),
             st->best * threads / (double)(aux ? aux : 1));
    bench_report_runs(name, rows, threads, st, 1e-6, "ms", extra);
}

static void bench_sha256(const bench_opts *o)
{
    bool shape = bench_selected(o, "sha256_shape") || bench_selected(o, "sha256_finish");
    bool witness = bench_selected(o, "sha256_witness");
    if (!shape && !witness) return;
    int threads[2];
    int nt = bench_thread_set(o, threads);
    cuzk_cs_counts one;
    {
        cuzk_cs *cs = cuzk_cs_new(CUZK_CS_COUNT, NULL, 0, 0);
        sha_block(cs, NULL, 0);
        cuzk_cs_get_counts(cs, &one);
        cuzk_cs_free(cs);
        one.inputs = 0; /* the root's ONE is not the block's */
    }
    uint64_t rows = one.rows * SHA_BLOCKS, aux = one.aux * SHA_BLOCKS;
    cuzk_fr_t *z = witness ? malloc((aux + 1) * sizeof *z) : NULL;
    for (int ti = 0; ti < nt; ti++) {
        bench_runs shape_runs = {0}, finish_runs = {0}, witness_runs = {0};
        for (int rep = 0; rep < 3; rep++) {
            if (shape) {
                cuzk_cs *cs = cuzk_cs_new(CUZK_CS_SHAPE, NULL, 0, 0);
                bench_run_start(&shape_runs);
                cuzk_cs_blocks(cs, SHA_BLOCKS, sha_block, NULL, &one, CUZK_CS_BLOCKS_UNIFORM, (unsigned)threads[ti]);
                bench_run_stop(&shape_runs);
                cuzk_r1cs_t *r = NULL;
                cuzk_errmsg err = {{0}};
                bench_run_start(&finish_runs);
                cuzk_status s = cuzk_cs_finish(cs, &r, NULL, &err);
                bench_run_stop(&finish_runs);
                if (s != CUZK_OK) {
                    fprintf(stderr, "cuzk-bench: sha256_shape: %s\n", err.msg);
                    shape = false;
                    break;
                }
                cuzk_r1cs_free(r);
            }
            if (witness && z != NULL) {
                cuzk_cs *cs = cuzk_cs_new(CUZK_CS_WITNESS, z, 1, aux);
                bench_run_start(&witness_runs);
                cuzk_cs_blocks(cs, SHA_BLOCKS, sha_block, NULL, &one, CUZK_CS_BLOCKS_UNIFORM, (unsigned)threads[ti]);
                bench_run_stop(&witness_runs);
                cuzk_errmsg err = {{0}};
                if (cuzk_cs_finish(cs, NULL, NULL, &err) != CUZK_OK) {
                    fprintf(stderr, "cuzk-bench: sha256_witness: %s\n", err.msg);
                    witness = false;
                    break;
                }
                BENCH_KEEP(z[aux]);
            }
        }
        if (shape) {
            bench_stat st = bench_stat_of(&shape_runs), fin = bench_stat_of(&finish_runs);
            sha_line("sha256_shape", rows, aux, threads[ti], &st);
            sha_line("sha256_finish", rows, aux, 1, &fin);
        }
        if (witness && z != NULL) {
            bench_stat st = bench_stat_of(&witness_runs);
            sha_line("sha256_witness", rows, aux, threads[ti], &st);
        }
    }
    free(z);
}

void bench_micro_circuits(const bench_opts *o)
{
    bench_sha256(o);
    if (!bench_selected(o, "synthetic_witness")) return;
    int threads[2];
    int nt = bench_thread_set(o, threads);
    for (unsigned log = 20; log <= (unsigned)bench_max_log2(o, 20); log += 2) {
        uint64_t n = cuzk_circuits_synthetic_num_vars(log);
        cuzk_fr_t *z = malloc(n * sizeof(cuzk_fr_t));
        if (z == NULL) {
            fprintf(stderr, "cuzk-bench: synthetic_witness: out of memory at 2^%u\n", log);
            return;
        }
        for (int ti = 0; ti < nt; ti++) {
            cuzk_errmsg err = {{0}};
            bench_runs runs = {0};
            for (int rep = 0; rep < 3; rep++) {
                bench_run_start(&runs);
                cuzk_status s = cuzk_circuits_synthetic_witness_into(log, 1, 2 + (uint64_t)rep, (unsigned)threads[ti],
                                                                     z, n, &err);
                bench_run_stop(&runs);
                if (s != CUZK_OK) {
                    fprintf(stderr, "cuzk-bench: synthetic_witness 2^%u: %s\n", log, err.msg);
                    free(z);
                    return;
                }
            }
            BENCH_KEEP(z[n - 1]);
            bench_stat st = bench_stat_of(&runs);
            char extra[64];
            snprintf(extra, sizeof extra, ", \"ns_per_var\": %.2f", st.best * threads[ti] / (double)n);
            bench_report_runs("synthetic_witness", n, threads[ti], &st, 1e-6, "ms", extra);
        }
        free(z);
    }
}
