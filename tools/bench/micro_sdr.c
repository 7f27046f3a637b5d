/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* SDR micro-benchmarks (filecoin layer), at 8 MiB sectors (2^18 nodes) and, with --max-log2 24 or more, 512 MiB
 * (2^24 nodes):
 *   sdr_sha256_block          one SHA-256 block by cuzk's block function and by OpenSSL's SHA256_Update (ns)
 *   sdr_parent_cache          the whole parent cache of a V1_1 graph (ms; "ns_per_node" per node and thread;
 *                             every line adds "cpu_ms", the process CPU time, steadier on a loaded machine)
 *   sdr_label_layer           one layer with expander parents, threads = hashing thread + producers (ms)
 *   sdr_tree_d                tree D over the sector, stored whole (ms) */
#define OPENSSL_SUPPRESS_DEPRECATED
#include <openssl/sha.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench.h"
#include "cuzk/filecoin.h"

/* process CPU time (all threads), for comparisons on a loaded machine */
static double cpu_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static void line(const char *name, uint64_t size, int threads, double ms, double per_node_ns, double cpu_ms)
{
    printf("{\"name\": \"%s\", \"size\": %llu, \"threads\": %d, \"value\": %.3f, \"unit\": \"ms\", \"ns_per_node\": "
           "%.1f, \"cpu_ms\": %.1f}\n",
           name, (unsigned long long)size, threads, ms, per_node_ns, cpu_ms);
    fflush(stdout);
}

static void bench_sha(const bench_opts *o)
{
    if (!bench_selected(o, "sdr_sha256_block")) return;
    enum { BLOCKS = 20, REPS = 20000 };
    uint8_t buf[64 * BLOCKS];
    for (size_t i = 0; i < sizeof buf; i++) buf[i] = (uint8_t)(i * 7 + 3);
    uint32_t h[8] = {0};
    double best = -1, best_ossl = -1;
    for (int rep = 0; rep < 3; rep++) {
        double t0 = (double)cuzk_now_ns();
        for (int i = 0; i < REPS; i++) cuzk_fil_sdr_sha256_blocks(h, buf, BLOCKS);
        double dt = ((double)cuzk_now_ns() - t0) / ((double)REPS * BLOCKS);
        if (best < 0 || dt < best) best = dt;
        SHA256_CTX c;
        t0 = (double)cuzk_now_ns();
        for (int i = 0; i < REPS; i++) {
            SHA256_Init(&c);
            SHA256_Update(&c, buf, sizeof buf);
        }
        dt = ((double)cuzk_now_ns() - t0) / ((double)REPS * BLOCKS);
        if (best_ossl < 0 || dt < best_ossl) best_ossl = dt;
        BENCH_KEEP(c);
    }
    BENCH_KEEP(h);
    bench_report("sdr_sha256_block", 64, 1, best, "ns");
    bench_report("sdr_sha256_block_openssl", 64, 1, best_ossl, "ns");
}

static void bench_size(const bench_opts *o, unsigned log2n)
{
    uint64_t n = 1ULL << log2n;
    uint8_t porep_id[32];
    cuzk_fil_sdr_porep_id(log2n == 18 ? 6 : 7, 0, porep_id);
    cuzk_fil_sdr_graph g;
    if (cuzk_fil_sdr_graph_init(&g, n, porep_id, CUZK_FIL_SDR_API_V1_1, NULL) != CUZK_OK) return;
    int threads[2];
    int nt = bench_thread_set(o, threads);
    cuzk_fil_sdr_parent_cache c = {0};
    /* without the cache's own lines, it is made once (all threads) for the labels, and not at all for tree D alone */
    bool cache_lines = bench_selected(o, "sdr_parent_cache"), labels = bench_selected(o, "sdr_label_layer");
    for (int ti = cache_lines ? 0 : labels ? nt - 1 : nt; ti < nt; ti++) {
        cuzk_fil_sdr_parent_cache_free(&c);
        double t0 = (double)cuzk_now_ns(), c0 = cpu_ns();
        if (cuzk_fil_sdr_parent_cache_generate(&c, &g, (unsigned)threads[ti], NULL) != CUZK_OK) {
            fprintf(stderr, "cuzk-bench: sdr_parent_cache: out of memory at 2^%u nodes\n", log2n);
            return;
        }
        double dt = (double)cuzk_now_ns() - t0, dc = cpu_ns() - c0;
        if (cache_lines) line("sdr_parent_cache", n, threads[ti], dt / 1e6, dt * threads[ti] / n, dc / 1e6);
    }
    uint8_t *prev = malloc(n * 32), *out = malloc(n * 32), *tree = malloc((2 * n - 1) * 32), rid[32], root[32];
    if (prev == NULL || out == NULL || tree == NULL) {
        fprintf(stderr, "cuzk-bench: sdr: out of memory at 2^%u nodes\n", log2n);
        goto done;
    }
    memset(rid, 9, 32);
    for (uint64_t i = 0; i < n * 32; i++) prev[i] = (uint8_t)(i * 131 + (i >> 8));
    for (uint64_t v = 0; v < n; v++) prev[v * 32 + 31] &= 0x3f;
    if (labels) {
        for (int ti = 0; ti < nt; ti++) {
            double t0 = (double)cuzk_now_ns(), c0 = cpu_ns();
            if (cuzk_fil_sdr_label_layer(&c, rid, 2, prev, out, (unsigned)threads[ti], NULL) != CUZK_OK) break;
            double dt = (double)cuzk_now_ns() - t0, dc = cpu_ns() - c0;
            line("sdr_label_layer", n, threads[ti], dt / 1e6, dt / n, dc / 1e6);
        }
    }
    if (bench_selected(o, "sdr_tree_d")) {
        for (int ti = 0; ti < nt; ti++) {
            double best = -1, best_cpu = -1;
            for (int rep = 0; rep < 2; rep++) {
                double t0 = (double)cuzk_now_ns(), c0 = cpu_ns();
                if (cuzk_fil_sdr_tree_d(prev, n, tree, root, (unsigned)threads[ti], NULL) != CUZK_OK) break;
                double dt = (double)cuzk_now_ns() - t0, dc = cpu_ns() - c0;
                if (best < 0 || dt < best) best = dt, best_cpu = dc;
            }
            BENCH_KEEP(root);
            line("sdr_tree_d", n, threads[ti], best / 1e6, best * threads[ti] / n, best_cpu / 1e6);
        }
    }
done:
    free(prev), free(out), free(tree);
    cuzk_fil_sdr_parent_cache_free(&c);
}

void bench_micro_sdr(const bench_opts *o)
{
    bench_sha(o);
    if (!bench_selected(o, "sdr_parent_cache") && !bench_selected(o, "sdr_label_layer") &&
        !bench_selected(o, "sdr_tree_d"))
        return;
    bench_size(o, 18);
    if (bench_max_log2(o, 20) >= 24) bench_size(o, 24);
}
